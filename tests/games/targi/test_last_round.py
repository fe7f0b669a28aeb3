"""After the last round (TG-Q25): the final raid comes without the face-down centre cards being entered.

TG-E1 turns the face-down centre cards up at a round's end for the next round's tribe markers. After round 12
none follows: the robber's next move is the final raid and the game ends with it (TG-END1). The table was
still asked to turn up and enter every centre card used in round 12 before the raid could be paid.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.controller import Controller
from companion.errors import IllegalAction, InvalidPosition
from companion.game import normalize_action
from companion.journal import Journal
from companion.observations import ButtonPressed
from companion.results import results
from companion.session import Session, export_game, replay_record, resume_game
from tests.games.targi.helpers import B, W, act, actions_doc, doc_of, game, load, round_twelve, set_supply
from ui.voice import spoken_step


def test_after_round_twelve_the_final_raid_comes_without_entering_centre_cards() -> None:
    g = game()
    s, _ = act(load(round_twelve()), {"type": "use", "slot": [1, 1]})
    assert s.centre[0].face_down
    s, events = act(s, {"type": "done"})
    pending = g.pending(s)
    assert s.stage == "raid" and s.robber == 16
    assert pending.kind == "choose" and pending.player == B  # the amulet passed: Black pays first
    assert pending.text == "Black: choose how to pay the raid (Last Raid)."
    assert {a["type"] for a in g.legal_actions(s)} == {"pay"}
    said = [e for e in events if "TG-Q25" in e.rules]
    assert [e.text for e in said] == [
        "Round 12 was the last: the face-down centre card stays face down and need not be entered, as no round "
        "follows to use it."
    ]
    assert said[0].rules == ("TG-Q25", "TG-E1")
    # the position with the card still face down loads again as it was
    assert g.from_document(doc_of(s)) == s
    for _ in range(2):
        s, _ = act(s, {"type": "pay", "pay": {"gold": 1}})
    assert g.pending(s).kind == "over" and s.centre[0].face_down
    assert not g.invariants(s)


def test_every_card_left_face_down_is_counted_in_the_announcement() -> None:
    doc = actions_doc(W, targi=[(15, W), (3, W)], markers=[(1, 1, W), (1, 2, W)], round_=12)
    doc["done"] = [B]
    s, _ = act(load(doc), {"type": "use", "slot": [1, 1]})
    s, _ = act(s, {"type": "use", "slot": [1, 2]})
    s, _ = act(s, {"type": "discard", "card": "T41"})
    s, events = act(s, {"type": "done"})
    assert game().pending(s).kind == "choose"
    assert any(e.text.startswith("Round 12 was the last: the 2 face-down centre cards stay face down") and
               e.text.endswith("to use them.") for e in events)  # fmt: skip


def test_an_earlier_round_still_turns_up_its_centre_cards() -> None:
    """Round 11 is followed by round 12, whose tribe markers may take the cards: each is entered (TG-E1)."""
    doc = actions_doc(W, targi=[(14, W)], markers=[(1, 1, W)], round_=11)
    doc["done"] = [B]
    s, _ = act(load(doc), {"type": "use", "slot": [1, 1]})
    s, _ = act(s, {"type": "done"})
    pending = game().pending(s)
    assert pending.kind == "draw" and pending.deck == "tribe"
    assert pending.text == "End of round: turn up the tribe card at centre 1-1 and enter it."


def test_the_loader_still_wants_the_centre_face_up_at_an_earlier_raid() -> None:
    """Only the final raid follows a round whose cards were not turned up; a raid on 12 with one face down
    is a position that cannot arise."""
    g = game()
    doc = round_twelve()
    s, _ = act(load(doc), {"type": "use", "slot": [1, 1]})
    s, _ = act(s, {"type": "done"})
    bad = doc_of(s)
    bad["robber"] = 12
    with pytest.raises(InvalidPosition) as err:
        g.from_document(bad)
    assert "centre: every central card is face up by the raid stage" in err.value.problems


# -- games journalled before: they entered the cards before the final raid ---------------------------------------
OLD_STEPS: list[dict[str, Any]] = [
    {"type": "use", "slot": [1, 1]},
    {"type": "done"},
    {"type": "draw", "deck": "tribe", "card": "T05"},  # asked for then; accepted now, though not asked for
    {"type": "pay", "pay": {"gold": 1}},
    {"type": "pay", "pay": {"gold": 1}},
]


def old_act(state: Any, action: dict[str, Any]) -> tuple[Any, list]:
    """An older companion's journalled step, taken through ``Game.old_step`` (at the table it is refused)."""
    with pytest.raises(IllegalAction):
        act(state, action)
    taken = game().old_step([state], [], normalize_action(action))
    assert taken is not None, action
    return taken


def journalled(path: Path, start_doc: dict[str, Any], steps: list[dict[str, Any]], over: bool) -> Journal:
    """A real journal file holding one game as an earlier companion wrote it, step by step."""
    journal = Journal(path)
    game_id = journal.begin_game("targi", {"kind": "load", "state": start_doc}, {}, {})
    for k, step in enumerate(steps):
        journal.append(game_id, "act", step, "over" if over and k == len(steps) - 1 else None)
    return journal


def test_a_game_journalled_with_the_cards_entered_still_replays_to_its_end(tmp_path: Path) -> None:
    journal = journalled(tmp_path / "journal.sqlite3", doc_of(load(round_twelve())), OLD_STEPS, over=True)
    entry = journal.latest_game()
    assert entry is not None
    session = Session.from_journal(entry, None)
    assert session.pending().is_over
    assert session.document()["centre"][0][0] == {"card": "T05"}
    record, why_not = export_game(entry)
    assert why_not == ""
    again = replay_record(record)  # an exported record replays through the table's own checks
    assert again.document() == record["final"]
    said = results(journal, 1).finished[0].said
    assert "no longer replay" not in said and "wins" in said


def test_a_game_set_aside_while_its_last_cards_were_entered_resumes(tmp_path: Path) -> None:
    journal = journalled(tmp_path / "journal.sqlite3", doc_of(load(round_twelve())), OLD_STEPS[:3], over=False)
    session, note = resume_game(journal)
    assert session is not None and note == ""
    assert session.pending().text == "Black: choose how to pay the raid (Last Raid)."
    assert session.document()["centre"][0][0] == {"card": "T05"}


def test_a_card_entered_after_an_unasked_raid_ended_the_game_is_still_accepted(tmp_path: Path) -> None:
    """With one payment open to each player the raid settles itself: the game was over before the old steps'
    card was entered. It is taken, and changes nothing; once no card is face down the end is the end."""
    no_gold = {"gold": 0}
    doc = doc_of(load(round_twelve(white=no_gold, black=no_gold)))
    journal = journalled(tmp_path / "journal.sqlite3", doc, OLD_STEPS[:3], over=True)
    entry = journal.latest_game()
    assert entry is not None
    session = Session.from_journal(entry, None)
    assert session.pending().is_over and session.document()["centre"][0][0] == {"card": "T05"}
    ruling = session.check({"type": "draw", "deck": "tribe", "card": "T06"})
    assert not ruling.legal and ruling.rules == ("TG-END1",)
    record, _ = export_game(entry)
    assert replay_record(record).document() == record["final"]  # the card after the end, through `act`
    # the late entry tells the table it changes nothing, citing the decision
    g = game()
    s = load(doc)
    for step in OLD_STEPS[:2]:
        s, _ = act(s, step)
    assert g.pending(s).is_over
    before = g.pending(s).result
    s, events = old_act(s, OLD_STEPS[2])
    assert [(e.text, e.rules) for e in events] == [
        ("Centre 1-1 shows Well Keeper; the last round is over, so it changes nothing.", ("TG-Q25", "TG-DRAW"))
    ]
    assert g.pending(s).result == before


# -- the button box and the voice follow the game: the raid is next, not a card ----------------------------------
def test_the_button_box_offers_the_raid_after_the_last_round() -> None:
    session = Session.from_start("targi", {"kind": "load", "state": doc_of(load(round_twelve()))})
    session.act({"type": "use", "slot": [1, 1]})
    controller = Controller(session)
    walked = [controller.handle(ButtonPressed("next")) for _ in range(2)]  # two choices: use 15, or done
    while (walked[-1].action or {}).get("type") != "done":
        walked.append(controller.handle(ButtonPressed("next")))
    step = controller.handle(ButtonPressed("confirm"))
    assert step.kind == "step" and "need not be entered" in step.text
    assert session.pending().text == "Black: choose how to pay the raid (Last Raid)."  # what the voice says next
    spoken = spoken_step(step.text, session.pending().text)
    assert "need not be entered" in spoken and "turn up" not in spoken.lower()
    walked = [controller.handle(ButtonPressed("next")) for _ in range(2)]
    assert {update.text for update in walked} == {"Pay 1 gold", "Pay 3 VP"}


# -- the other way the game ends: the twelfth tribe card's round --------------------------------------------------
TWELVE = [["T10", "T11", "T12", "T14"], ["T19", "T20", "T21", "T23"], ["T28", "T29", "T30", "T31"]]


def test_after_the_twelfth_cards_round_nothing_is_turned_up_either() -> None:
    """TG-END2: the round a twelfth card ends is scored at once; its face-down centre cards were never asked for."""
    doc = actions_doc(W, targi=[(15, W)], markers=[(1, 1, W)], round_=6)
    doc["done"], doc["ender"] = [B], W
    set_supply(doc, W, rows=TWELVE)
    s, _ = act(load(doc), {"type": "use", "slot": [1, 1]})
    s, _ = act(s, {"type": "done"})
    assert game().pending(s).kind == "over" and s.centre[0].face_down


def test_tribal_expansion_with_a_full_display_says_why_the_card_is_still_turned_up() -> None:
    """The card can only be kept or discarded and the game ends with the round, but the action turns one up
    (TG-B3): the table was told to turn it up with no word of why, then offered "hold or discard"."""
    g = game()
    doc = actions_doc(W, targi=[(14, W)], round_=6)
    doc["done"], doc["ender"] = [B], W
    set_supply(doc, W, rows=TWELVE)
    s, events = act(load(doc), {"type": "use", "card": 14})
    said = [e for e in events if e.rules == ("TG-B3", "TG-Q21")]
    assert [e.text for e in said] == ["White's display is full, so the tribe card turned up can only be kept or "
                                      "discarded; Tribal Expansion still turns it up."]  # fmt: skip
    pending = g.pending(s)
    assert pending.kind == "draw" and pending.text == (
        "White: turn up the top of the tribe deck and enter it (Tribal Expansion turns one up even with a full "
        "display).")
    s, _ = act(s, {"type": "draw", "deck": "tribe", "card": "T01"})
    assert g.pending(s).text == "White: hold or discard Deep Cistern (the display is full)."


def test_tribal_expansion_with_room_in_the_display_is_asked_for_plainly() -> None:
    doc = actions_doc(W, targi=[(14, W)], round_=6)
    s, events = act(load(doc), {"type": "use", "card": 14})
    assert not any("TG-Q21" in e.rules for e in events)
    assert game().pending(s).text == "White: turn up the top of the tribe deck and enter it."


def test_a_card_entered_during_the_final_raid_is_the_tables_whoever_it_names() -> None:
    """A draw is the table's (docs: a `draw` naming White or Black is still the table's): entered while Black is
    to pay, one naming White was refused as White deciding out of turn."""
    s, _ = act(load(round_twelve()), {"type": "use", "slot": [1, 1]})
    s, _ = act(s, {"type": "done"})
    s, events = old_act(s, {"type": "draw", "deck": "tribe", "card": "T05", "player": W})
    assert events[0].rules == ("TG-Q25", "TG-DRAW") and s.centre[0].card == "T05"
    assert game().pending(s).player == B
