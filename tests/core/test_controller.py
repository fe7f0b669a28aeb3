"""The controller: readings, confidence, duplicates, buttons and touches, on the test race."""

from __future__ import annotations

import random
import threading

import pytest

from companion.controller import Controller
from companion.observations import ButtonPressed, DieRead, LinkChanged, RollStarted, Touch, Update
from companion.session import Session


def make(**kwargs) -> tuple[Controller, list[Update]]:
    heard: list[Update] = []
    controller = Controller(Session.new("race", ["red", "blue"]), [heard.append], **kwargs)
    return controller, heard


def test_a_confident_reading_becomes_the_pending_roll() -> None:
    controller, heard = make()
    update = controller.handle(DieRead(4, "camera", 0.97))
    assert update.kind == "step" and update.action == {"type": "roll", "value": 4}
    assert heard == [update] and controller.session.document()["roll"] == 4


def test_a_reading_when_no_roll_is_pending_is_reported_not_applied() -> None:
    controller, _ = make()
    controller.handle(DieRead(4, "camera"))
    before = controller.session.document()
    update = controller.handle(DieRead(2, "serial"))
    assert update.kind == "unapplied" and "no roll is expected" in update.text
    assert controller.session.document() == before


def test_an_impossible_value_is_refused_with_a_reason() -> None:
    controller, _ = make()
    assert controller.handle(DieRead(9, "serial")).kind == "unapplied"
    assert controller.session.log == []


def test_low_confidence_waits_for_a_confirm_tap_or_a_button() -> None:
    controller, _ = make()
    update = controller.handle(DieRead(3, "camera", 0.5))
    assert update.kind == "confirm" and controller.session.log == []
    assert controller.handle(ButtonPressed("confirm")).kind == "step"
    assert controller.session.document()["roll"] == 3


def test_rejecting_a_proposal_drops_it() -> None:
    controller, _ = make()
    controller.handle(DieRead(3, "camera", 0.5))
    controller.handle(Touch("reject"))
    assert controller.proposal is None and controller.session.log == []


def test_the_same_settled_die_is_not_applied_twice() -> None:
    controller, _ = make()
    controller.handle(DieRead(3, "camera"))
    controller.handle(Touch("act", {"type": "hold"}))
    assert controller.handle(DieRead(3, "camera")).kind == "info"
    controller.handle(RollStarted("camera"))
    assert controller.handle(DieRead(3, "camera")).kind == "step"


def test_several_dice_settling_together_are_not_taken_for_a_roll() -> None:
    controller, _ = make()
    update = controller.handle(DieRead(5, "camera", 0.99, dice=3))
    assert update.kind == "unapplied" and "3 dice" in update.text and update.detail["dice"] == 3
    assert controller.session.log == []
    controller.handle(RollStarted("camera"))
    assert controller.handle(DieRead(5, "camera", 0.99)).kind == "step"


def test_buttons_cycle_and_confirm_choices() -> None:
    controller, _ = make()
    controller.handle(DieRead(2, "serial"))
    assert controller.handle(ButtonPressed("next")).text == "Hold"
    assert controller.handle(ButtonPressed("confirm")).events[0].text == "red holds."


def test_after_an_undo_next_starts_again_at_the_first_choice() -> None:
    """The table lights what next points at; an index left over from another list would light the wrong one."""
    controller, _ = make()
    controller.handle(Touch("act", {"type": "roll", "value": 2}))
    controller.handle(Touch("act", controller.session.legal()[0]))  # red rolls on
    controller.handle(Touch("act", {"type": "roll", "value": 3}))
    assert controller.handle(ButtonPressed("next")).text == "Hold"  # the second choice
    controller.handle(ButtonPressed("undo"))  # the 3 taken back
    controller.handle(ButtonPressed("undo"))  # rolling on taken back: red chooses again
    assert controller.selected == 0
    assert controller.handle(ButtonPressed("next")).text == "Hold"


def test_undo_button_and_refusals_keep_the_game() -> None:
    controller, _ = make()
    controller.handle(DieRead(2, "serial"))
    assert controller.handle(ButtonPressed("undo")).kind == "undo"
    refused = controller.handle(Touch("act", {"type": "hold"}))
    assert refused.kind == "refused" and refused.rules == ("R2",)
    assert controller.session.log == []


def test_app_dice_roll_for_demos() -> None:
    controller, _ = make(app_dice=random.Random(3))
    assert controller.handle(ButtonPressed("roll")).action["type"] == "roll"


def test_submit_from_other_threads_then_pump_in_order() -> None:
    controller, heard = make()
    threads = [threading.Thread(target=controller.submit, args=(LinkChanged("serial", True),)) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    controller.submit(DieRead(6, "serial"))
    updates = controller.pump()
    assert [u.kind for u in updates] == ["link"] * 5 + ["step"]
    assert heard == updates


def test_a_failing_output_does_not_stop_the_others() -> None:
    heard: list[Update] = []

    def broken(update: Update) -> None:
        raise OSError("speaker unplugged")

    controller = Controller(Session.new("race", ["red", "blue"]), [broken, heard.append])
    controller.handle(DieRead(1, "serial"))
    assert len(heard) == 1


def test_a_failing_output_is_logged_once_with_its_fault(caplog) -> None:
    """A screen callback that raised left the display half refreshed, and nothing anywhere said why."""

    def broken(update: Update) -> None:
        raise OSError("speaker unplugged")

    controller = Controller(Session.new("race", ["red", "blue"]), [broken])
    with caplog.at_level("ERROR", logger="companion.controller"):
        controller.handle(DieRead(1, "serial"))
        controller.handle(Touch("undo"))
    failed = [r for r in caplog.records if "broken" in r.getMessage()]
    assert len(failed) == 1 and "speaker unplugged" in caplog.text


def test_checks_and_redo_through_touch() -> None:
    controller, _ = make()
    ruling = controller.handle(Touch("check", {"type": "advance"}))
    assert ruling.kind == "ruling" and ruling.detail["legal"] is False
    controller.handle(DieRead(5, "serial"))
    controller.handle(Touch("undo"))
    assert controller.handle(Touch("redo")).kind == "redo"


def test_submit_wakes_a_loop_that_waits_on_something_else() -> None:
    woken: list[int] = []
    controller = Controller(Session.new("race", ["red", "blue"]), wake=lambda: woken.append(1))
    controller.submit(DieRead(2, "serial"))
    assert woken == [1] and controller.pump()[0].kind == "step"


def test_cards_seen_needs_a_change_or_draw_the_game_offers() -> None:
    from companion.observations import CardsSeen

    controller, _ = make()
    assert controller.handle(CardsSeen({3: "P01"}, "tags")).kind == "unapplied"
    assert controller.handle(CardsSeen({3: None}, "tags")).kind == "unapplied"
    assert controller.session.log == []


def test_a_die_the_rules_refuse_names_the_games_reason_and_clause() -> None:
    """A 7 read on Blackpool's oracle is refused on the clause a typed 7 is (BP-Q5), saying what the die shows."""
    controller = Controller(Session.new("blackpool", ["red", "blue"]))
    for value in (7, 0, "six"):
        update = controller.handle(DieRead(value, "serial"))
        assert update.kind == "unapplied" and update.rules == ("BP-Q5",), update
        assert update.text == f"The die reads {value}: the Oracle (d6) shows 1 to 6; not applied.", update
    assert controller.session.log == []


def test_a_colour_read_on_a_plain_die_is_its_value_and_on_a_coloured_one_part_of_the_face() -> None:
    """A sensor that names every die's colour must not have a plain die's rolls refused for it."""
    controller, _ = make()
    update = controller.handle(DieRead(4, "serial", 0.97, {"colour": "white"}))
    assert update.kind == "step" and controller.session.log == [{"type": "roll", "value": 4}]

    temple = Controller(Session.new("temple", ["red", "blue"]), [])
    while temple.session.pending().kind != "roll":  # the board is laid out first
        temple.session.act(temple.session.legal()[0])
    laid = len(temple.session.log)
    face = next(a for a in temple.session.legal() if a["type"] == "roll" and a.get("face"))
    update = temple.handle(DieRead(face["value"], "serial", 0.97, dict(face["face"])))
    assert update.kind == "step" and temple.session.log[laid]["face"] == face["face"]


def temple_setup_draws() -> tuple[Controller, list[dict]]:
    """A temple table at its first draw, and the draws that lay out slots 1, 2 and 3 in order."""
    controller = Controller(Session.new("temple", ["red", "blue"]), [])
    probe = Session.new("temple", ["red", "blue"])
    draws = []
    for _ in range(3):
        draw = probe.legal()[len(draws)]
        probe.act(draw)
        draws.append({k: v for k, v in draw.items() if k != "text"})
    return controller, draws


def test_cards_laid_while_hands_hid_the_board_are_each_taken() -> None:
    """Three setup cards seen in one reading: the first was drawn and the other two were lost for good,
    since the camera reports a card once, when it appears."""
    from companion.observations import CardsSeen

    controller, draws = temple_setup_draws()
    update = controller.handle(CardsSeen({1: draws[0]["card"], 2: draws[1]["card"], 3: draws[2]["card"]}, "camera"))
    assert update.kind == "step"
    updates = controller.pump()
    assert [u.kind for u in updates] == ["step", "step"]
    assert controller.session.log == draws


def test_cards_seen_with_one_waiting_for_its_tap_follow_the_tap() -> None:
    from companion.observations import CardsSeen

    controller, draws = temple_setup_draws()
    update = controller.handle(CardsSeen({1: draws[0]["card"], 2: draws[1]["card"]}, "camera", 0.3))
    assert update.kind == "confirm" and controller.pump() == []  # the second card waits behind the first
    assert controller.handle(Touch("confirm")).kind == "step"
    assert [u.kind for u in controller.pump()] == ["confirm"]  # the second, as unsure, asks for its own tap
    assert controller.handle(Touch("confirm")).kind == "step"
    assert controller.session.log == draws[:2]

    controller, draws = temple_setup_draws()
    controller.handle(CardsSeen({1: draws[0]["card"], 2: draws[1]["card"]}, "camera", 0.3))
    controller.handle(Touch("reject"))
    assert controller.pump() == [] and controller.session.log == []  # a dropped reading drops what came with it


def test_a_redo_drops_a_reading_made_for_the_position_before_it() -> None:
    """An unsure card for slot 1 waited for its tap; after a redo had drawn slot 1, a confirm put it in slot 2."""
    from companion.observations import CardsSeen

    controller, draws = temple_setup_draws()
    controller.handle(Touch("act", draws[0]))
    controller.handle(Touch("undo"))
    assert controller.handle(CardsSeen({1: draws[1]["card"]}, "camera", 0.3)).kind == "confirm"
    controller.handle(Touch("redo"))
    assert controller.handle(Touch("confirm")).kind == "refused"
    assert controller.session.log == draws[:1]


def test_a_card_read_as_its_twin_is_taken_as_the_one_the_game_can_take() -> None:
    """P15 and P48 are the same path printed twice: the camera names both P15. With P15 already laid,
    a drawn P48 was refused as "P15 is on the board", and the table had to type it in."""
    from companion.observations import CardsSeen

    controller = Controller(Session.new("temple", ["red", "blue"]))
    controller.handle(Touch("act", {"type": "draw", "card": "P15"}))
    assert controller.handle(CardsSeen({2: "P15"}, "camera")).kind == "unapplied"  # no twins known: refused
    update = controller.handle(CardsSeen({2: "P15"}, "camera", twins={"P15": ("P48",)}))
    assert update.kind == "step" and controller.session.log[-1]["card"] == "P48"
    again = controller.handle(CardsSeen({2: "P15"}, "camera", twins={"P15": ("P48",)}))
    assert again.kind == "info" and "Slot 2 holds P48" in again.text  # seen again: the game's own name for it


def test_a_card_from_a_tag_reader_is_drawn_from_the_deck_the_game_draws_from() -> None:
    """The draw was built without its deck: a desert card laid on a tag reader was "unknown deck None"."""
    from companion.observations import CardsSeen

    session = Session.new("desert", ["black", "pink"])
    rng = random.Random(2)
    while session.pending().kind != "draw":
        session.act(rng.choice(session.legal()))
    controller = Controller(session)
    wrong = controller.handle(CardsSeen({1: "sand_thief"}, "tags"))  # a Mystery card on a Collection draw
    assert wrong.kind == "unapplied" and "'sand_thief' is not a collection card" in wrong.text
    update = controller.handle(CardsSeen({1: "golden_compass"}, "tags"))
    assert update.kind == "step" and session.log[-1] == {"type": "draw", "deck": "collection", "card": "golden_compass"}
    late = controller.handle(CardsSeen({1: "desert_flask"}, "tags"))  # no draw pending: nothing to change
    assert late.kind == "unapplied" and "no card is expected now" in late.text and "'change'" not in late.text


def test_a_temple_die_read_without_its_colour_says_so_in_words() -> None:
    """The game's answer spelt its action ('a roll needs "face": ...'), and the table heard it aloud."""
    controller = Controller(Session.new("temple", ["red", "blue"]))
    while controller.session.pending().kind == "draw":
        controller.handle(Touch("act", controller.session.legal()[0]))
    update = controller.handle(DieRead(4, "camera"))
    assert update.kind == "unapplied" and "colour (red or white) was not read" in update.text
    assert '"face"' not in update.text and controller.session.pending().kind == "roll"


@pytest.mark.parametrize("colour", ["green", "blue"])
def test_a_temple_die_read_in_a_colour_it_has_not_says_so_in_words(colour: str) -> None:
    """A sensor that named a colour the die has not ("green", a misread) had the table hear the spelling of the
    action: 'a roll needs "face": {"colour": "red"} or {"colour": "white"}'."""
    controller = Controller(Session.new("temple", ["red", "blue"]))
    while controller.session.pending().kind == "draw":
        controller.handle(Touch("act", controller.session.legal()[0]))
    update = controller.handle(DieRead(4, "dice sensor", face={"colour": colour}, die="d20"))
    assert update.kind == "unapplied" and controller.session.pending().kind == "roll"
    assert update.text == (f"The die reads 4 {colour}, but this game's die is red or white: roll again, or enter "
                           "it by hand.")


def test_a_report_from_a_link_that_stays_up_is_not_told_as_a_new_connection() -> None:
    controller, _ = make()
    assert controller.handle(LinkChanged("camera", True, "camera 0 open")).text == "camera connected: camera 0 open"
    skipped = controller.handle(LinkChanged("camera", True, "a frame was passed over: bad shape"))
    assert skipped.text == "camera: a frame was passed over: bad shape"
    assert controller.handle(LinkChanged("camera", False, "cable out")).text == "camera lost: cable out"
    assert controller.handle(LinkChanged("camera", True, "camera 0 open")).text == "camera connected: camera 0 open"
    assert controller.links == {"camera": True}


def test_a_link_that_never_came_up_is_not_found_and_one_that_did_is_lost() -> None:
    """A sensor never plugged in was told as "dice sensor lost", as if it had been there and gone."""
    controller, _ = make()
    never = controller.handle(LinkChanged("dice sensor", False, "cannot open /tmp/x: gone", found=False))
    assert never.text == "dice sensor not found: cannot open /tmp/x: gone"
    back = controller.handle(LinkChanged("dice sensor", True, "/tmp/x open"))
    assert back.text == "dice sensor connected: /tmp/x open"
    assert controller.handle(LinkChanged("dice sensor", False, "unplugged")).text == "dice sensor lost: unplugged"


def test_a_redo_of_a_step_that_made_no_announcement_still_says_something() -> None:
    """A game may take a step without announcing anything (none of the five house games does today, but the
    Game contract allows it); taken back and redone, such a step was announced as "", an empty line on the
    screen's list, where taking it had said "Done."."""
    from tests.core.race_game import Race

    class QuietRace(Race):
        """The test race, its hold announced by nothing."""

        def apply(self, state, action):  # type: ignore[no-untyped-def]
            after, events = super().apply(state, action)
            return after, ([] if action["type"] == "hold" else events)

    game = QuietRace()
    session = Session(game, {"kind": "new", "players": ["red", "blue"]}, game.setup(["red", "blue"], {}))
    controller = Controller(session)
    controller.handle(Touch("act", {"type": "roll", "value": 3}))
    step = controller.handle(Touch("act", {"type": "hold"}))
    assert step.kind == "step" and not step.events and step.text == "Done."
    controller.handle(Touch("undo"))
    redo = controller.handle(Touch("redo"))
    assert redo.kind == "redo" and redo.text.strip()


def test_a_game_set_aside_takes_what_waited_for_it_along_and_leaves_the_links() -> None:
    """The app sets a finished game aside when its café day is over: a reading queued or waiting for it
    must not be confirmed into nothing, and the sensors' link reports still arrive."""
    controller, _ = make()
    controller.handle(DieRead(3, "camera", 0.5))  # waits for its confirm
    controller.submit(DieRead(5, "serial"))
    controller.submit(LinkChanged("serial", True))
    controller.set_aside()
    assert controller.session is None and controller.proposal is None
    assert [update.kind for update in controller.pump()] == ["link"]
    answer = controller.handle(ButtonPressed("confirm"))
    assert answer.kind == "refused" and "no game" in answer.text
    controller.set_aside()  # nothing on the table: nothing to do
    assert controller.session is None
