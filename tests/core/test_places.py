"""A finger on a board place: what may happen there, or the game's own reasons why nothing may."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion.controller import Controller
from companion.errors import BadRequest
from companion.journal import Journal
from companion.observations import Touch, Update
from companion.places import explain_place, moved_to, place_from_json, place_from_text, place_of
from companion.protocol import Referee
from companion.session import Session
from companion.terminal import Terminal
from tests.games.blackpool.helpers import BOARD, yellow_rolled_five


def camel_turn(journal: Journal | None = None) -> Session:
    """Through the Desert past its leaders: a few camels may go beside each caravan, nowhere else."""
    session = Session.new("ttd", ["red", "black", "orange"], journal=journal)
    rng = random.Random(1)
    while session.legal()[0]["type"] != "camel":
        session.act(rng.choice(session.legal()))
    return session


def test_place_of_reads_hex_slot_and_space() -> None:
    assert place_of({"hex": [3, -1]}) == (3, -1)
    assert place_of({"slot": 4, "card": "x"}) == 4
    assert place_of({"space": "s12"}) == "s12"
    assert place_of({"type": "pass"}) is None
    assert place_of({"slot": True}) is None  # a flag is not a place
    assert place_of({"hex": [[1], 2]}) is None  # nothing unhashable gets through
    assert place_of({"type": "place", "card": 10}) == 10  # a card by its number on the board
    assert place_of({"type": "draw", "card": "P07"}) is None  # a card id is not a place


def test_a_targi_border_card_is_a_place_to_ask_about() -> None:
    session = Session.new("targi", ["white", "black"])
    for card in ("G01", "T41", "G02", "T42", "G03", "T43", "G04", "T44", "G06"):
        session.act({"type": "draw", "deck": "goods" if card.startswith("G") else "tribe", "card": card})
    session.act({"type": "place", "card": 2})
    ruling = explain_place(session, place_from_text("2"))
    assert not ruling.legal and ruling.rules and ruling.rules[0].startswith("TG-")
    assert "No place is chosen on the board" not in ruling.text
    assert explain_place(session, 3).legal
    centre = explain_place(session, place_from_text("2,2"))  # Targi go on the border cards only
    assert not centre.legal and centre.rules == ("TG-P1",)
    assert centre.text.endswith("happens on border cards, such as: Place a Targi on 3 (Silversmith); Place a Targi "
                                "on 5 (Salt Pans: +2 salt); Place a Targi on 6 (Fata Morgana).")  # fmt: skip


def test_a_targi_card_named_by_its_name_is_answered_like_its_number() -> None:
    """`why noble` was answered as a place no action could move to ("what may be done now happens on
    cards, such as ..."), even while Salt Pans, asked the same way, was open to a Targi."""
    session = Session.new("targi", ["white", "black"])
    for card in ("G01", "T41", "G02", "T42", "G03", "T43", "G04", "T44", "G06"):
        session.act({"type": "draw", "deck": "goods" if card.startswith("G") else "tribe", "card": card})

    def why(words: str) -> str:
        out = io.StringIO()
        Terminal(session, lambda: None, out).run(iter([f"why {words}", "q"]))
        return next(line for line in out.getvalue().splitlines() if "ALLOWED" in line)

    assert why("noble") == why("1") == (
        "  NOT ALLOWED: Nothing may be done there. Card 1 (Noble) holds the robber this round.  [TG-P2]")
    assert why("the Salt  Pans") == "  ALLOWED: Allowed there: Place a Targi on 5 (Salt Pans: +2 salt).  [TG-P1]"
    assert why("card 4") == why("First Raid") == why("4")
    assert why("centre 2-2") == why("center 2 - 2") == why("2-2") == why("2,2")
    assert session.game.place_named(session.state, "Leather Workshop") == (1, 2)  # T41, face up at centre 1-2
    assert session.game.place_named(session.state, "nowhere") is None
    assert session.log[-1] == {"type": "draw", "deck": "goods", "card": "G06"}  # asking changed nothing


def test_places_offered_of_another_kind_are_named_in_the_games_words() -> None:
    """A border card asked about while Targi's centre cards were offered was answered 'such as [2, 1]': the
    place spelt as the protocol writes it, shown and spoken, where the table says 'centre 2-1'."""
    session = Session.new("targi", ["white", "black"])
    for card in ("G01", "T41", "G02", "T42", "G03", "T43", "G04", "T44", "G06"):
        session.act({"type": "draw", "deck": "goods" if card.startswith("G") else "tribe", "card": card})
    for card in (2, 3, 5, 6, 7, 9):  # white's three Targi on 2, 5 and 7; black's on 3, 6 and 9
        session.act({"type": "place", "card": card})
    for card in (2, 5, 7):  # white's border cards used: centre cards alone are left to use
        session.act({"type": "use", "card": card})
    ruling = explain_place(session, 3)
    assert not ruling.legal and ruling.text.endswith(
        "on centre cards, such as: Use Leather Workshop at centre 1-2; Use Night Camp at centre 3-2.")


def test_each_kind_of_placed_action_is_moved_once_and_placeless_ones_are_left_out() -> None:
    offered = [
        {"type": "camel", "colour": "pink", "hex": [1, 0], "text": "Pink camel to (1,0)"},
        {"type": "camel", "colour": "pink", "hex": [2, 0], "text": "Pink camel to (2,0)"},
        {"type": "camel", "colour": "green", "hex": [2, 0], "text": "Green camel to (2,0)"},
        {"type": "pass", "text": "Pass"},
    ]
    assert moved_to(offered, (7, 7)) == [
        {"type": "camel", "colour": "pink", "hex": [7, 7]},
        {"type": "camel", "colour": "green", "hex": [7, 7]},
    ]
    assert moved_to([{"type": "change", "slot": 2, "card": "P01"}], 9) == [{"type": "change", "slot": 9, "card": "P01"}]


def test_a_hex_no_caravan_touches_is_refused_once_per_reason_with_its_clause() -> None:
    session = camel_turn()
    legal_hexes = {place_of(a) for a in session.legal()}
    far = (0, 0)
    assert far not in legal_hexes
    ruling = explain_place(session, far)
    assert not ruling.legal and ruling.rules == ("TTD-3a",)
    assert ruling.text.startswith("Nothing may be done there. (0,0) does not touch Red's")
    assert "rules out 4 other choices there" in ruling.text  # five colours, one reason: one sentence


def test_an_occupied_hex_names_every_camel_its_one_reason_rules_out() -> None:
    """"(1,0) is already taken ... The same rule rules out 4 other choices there." named no camel at all:
    the one sentence is every colour's answer, so the table hears which colours it stops."""
    session = camel_turn()
    taken = tuple(session.document()["pieces"][0]["hex"])
    colours = list(dict.fromkeys(a["colour"] for a in session.legal()))
    ruling = explain_place(session, taken)
    assert not ruling.legal and ruling.rules == ("TTD-3c",)
    named = ", ".join(f"{c} camel" for c in colours[:-1]) + f" and {colours[-1]} camel"
    assert ruling.text.endswith(f" That rules out all {len(colours)} choices there: {named}.")


def test_other_choices_one_rule_rules_out_are_named_apart_from_those_another_rule_refuses() -> None:
    """A referee counted four where "the same rule rules out 3 other choices" followed a colour refused by
    another rule: the three are named, and the colour the other rule refuses is not among them."""
    session = camel_turn()
    colours = list(dict.fromkeys(a["colour"] for a in session.legal()))
    for q in range(-6, 14):
        for r in range(0, 14):
            ruling = explain_place(session, (q, r))
            if "TTD-3b" in ruling.text and "TTD-3a" in ruling.text:
                break
        else:
            continue
        break
    alone = next(c for c in colours if f"A {c} camel there would touch" in ruling.text)  # the place said once
    said = re.search(r"The same rule rules out (\d+) other choices there too: ([^.]*)\.", ruling.text)
    assert said is not None
    count, listed = int(said[1]), said[2].replace(" and ", ", ").split(", ")
    assert f"{alone} camel" not in listed and len(listed) == count == len(colours) - 2
    assert all(name.endswith(" camel") and name.split()[0] in colours for name in listed)


def test_a_second_reason_does_not_say_the_same_rule_again() -> None:
    """Two reasons at a hex each ruling out other camels said "The same rule rules out ... other choice(s) there
    too" twice in one answer, eleven words over again aloud; the second said "It rules out", and a listener, who
    hears no clause id, asked what "it" was: it names its rule by the clause's title."""
    session = camel_turn()
    ruling = explain_place(session, (5, 5))
    assert ruling.text == (
        "Nothing may be done there. (5,5) does not touch Red's pink caravan. [TTD-3a] The same rule rules out 2 other "
        "choices there too: green camel and yellow camel. A blue camel there would touch Black's blue piece at "
        "(4,5). [TTD-3b] The rule 'Keeping colours apart' rules out 1 other choice there too: white camel.")


def test_a_hex_refused_for_several_reasons_is_named_once() -> None:
    """Each reason named the hex again: "(5,2) does not touch Black's pink caravan. ... A blue camel on (5,2) would
    touch ...", and "... must start next to Black's guide, and (7,0) does not touch it." The reason that opens with
    the hex goes first and the others say "there", in every answer with two reasons or more in a camel turn, the
    guide's (TD-Q6) included; each reason keeps its clause."""
    answers, guides = 0, 0
    for session in (camel_turn(), guide_camel_turn()):
        board = session.game.board_of(session.state)
        for hex_ in board.index:
            ruling = explain_place(session, hex_)
            if ruling.legal or ruling.text.count(" [") < 2:
                continue
            answers += 1
            label = board.label(board.index[hex_])
            assert ruling.text.count(label) == 1, ruling.text
            reasons = ruling.text.removeprefix("Nothing may be done there. ")
            assert label not in reasons or reasons.startswith(label) or " [" not in reasons.split(label)[0], reasons
            assert set(re.findall(r"\[([^\]]+)\]", ruling.text)) == set(ruling.rules)
            guides += "guide, and one there would not touch it. [TD-Q6]" in ruling.text
    assert answers >= 5 and guides >= 1


def guide_camel_turn() -> Session:
    """Through the Desert as written (one guide a player), four camels down: a new colour starts at the guide."""
    session = Session.new("ttd", ["red", "black"], profile="as-written")
    rng = random.Random(4)
    while sum(1 for piece in session.document()["pieces"] if not piece["leader"]) < 4:  # a few caravans begun
        session.act(rng.choice([a for a in session.legal() if a["type"] != "pass"] or session.legal()))
    return session


def test_a_later_water_hole_site_names_every_token_the_game_accepts_there() -> None:
    """The game takes the tokens in any order, so `why` at a site after the one asked for is allowed; it
    answered with the first token's outcome alone ("Water hole at (6,11): a token worth 1."), as though
    that site held a 1."""
    session = Session.new("ttd", ["red", "black"])
    board = session.game.board_of(session.state)
    later = board.hex_json(board.sites[3])
    before = session.document()
    ruling = explain_place(session, tuple(later))
    worths = sorted({session.game.token_ids[a["card"]] for a in session.legal()})
    assert ruling.legal and ruling.rules == ("TTD-1c", "TD-Q23")
    assert ruling.text == ("Allowed there: " + ", ".join(f"water hole worth {w}" for w in worths[:-1])
                           + f" and water hole worth {worths[-1]}.")
    assert session.document() == before


def test_a_water_hole_asked_about_while_leaders_are_placed_reads_in_one_bracket() -> None:
    """"A leader may not stand on a water hole ((2,0))." read two brackets deep; said as the oasis one is."""
    session = Session.new("ttd", ["red", "black"])
    while session.legal()[0]["type"] != "leader":
        session.act(session.legal()[0])
    board = session.game.board_of(session.state)
    site = board.hex_json(board.sites[0])
    ruling = explain_place(session, tuple(site))
    label = f"({site[0]},{site[1]})"
    assert not ruling.legal and ruling.rules == ("TD-Q7",) and "((" not in ruling.text
    said = f"Nothing may be done there. A leader may not stand on a water hole, and {label} is one."
    assert ruling.text.startswith(said)


def test_a_hex_with_offered_camels_says_which() -> None:
    session = camel_turn()
    wanted = session.legal()[0]
    ruling = explain_place(session, place_of(wanted))
    assert ruling.legal and wanted["text"] in ruling.text and "TTD-3a" in ruling.rules


def test_a_place_the_game_cannot_name_is_refused_by_its_own_message() -> None:
    session = Session.new("temple", ["red", "blue"])
    rng = random.Random(1)
    while session.legal()[0]["type"] != "change":
        session.act(rng.choice(session.legal()))
    ruling = explain_place(session, 13)
    assert not ruling.legal and "slot must be one of 1-12, not 13." in ruling.text


def test_a_game_with_nothing_placed_now_says_so() -> None:
    session = Session.new("blackpool", ["red", "blue"])
    ruling = explain_place(session, "d4")
    assert not ruling.legal and "No place is chosen on the board" in ruling.text


@pytest.mark.parametrize(("game", "players", "place"), [("temple", ["red", "blue"], 3),
                                                        ("targi", ["white", "black"], 3)])
def test_laying_the_board_from_draws_is_not_called_nothing_placed(game: str, players: list[str], place: int) -> None:
    """`why 3` while the temple's path cards (or Targi's centre) are laid said "Nothing is placed on the board
    at this point of the game: first, draw a card for slot 1", a card placed on the board in the same breath."""
    session = Session.new(game, players)
    ruling = explain_place(session, place)
    assert not ruling.legal and "Nothing is placed" not in ruling.text
    assert ruling.text.startswith("No place is chosen on the board at this point of the game: first, ")


def test_explaining_through_the_controller_changes_neither_game_nor_journal(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    session = camel_turn(journal)
    heard: list[Update] = []
    controller = Controller(session, [heard.append])
    before, steps = session.document(), len(journal.latest_game().steps)
    update = controller.handle(Touch("explain", place=(0, 0)))
    assert update.kind == "ruling" and update.rules == ("TTD-3a",) and update.detail["place"] == [0, 0]
    assert heard == [update] and session.document() == before
    assert len(journal.latest_game().steps) == steps


def test_places_typed_or_sent_as_json() -> None:
    assert place_from_text(" (5, -2) ") == (5, -2) and place_from_text("5,5") == (5, 5)
    assert place_from_text("3") == 3 and place_from_text("dawn") == "dawn"
    assert place_from_json([5, 5]) == (5, 5) and place_from_json(3) == 3 and place_from_json("dawn") == "dawn"
    for bad in ([], [True, 1], True, "", [[1], 2]):
        with pytest.raises(BadRequest):
            place_from_json(bad)
    with pytest.raises(BadRequest):
        place_from_text("  ")


def test_the_referee_protocol_and_the_terminal_answer_why_not_here(tmp_path: Path) -> None:
    session = camel_turn()
    referee = Referee()
    referee.session = session
    answer = referee.handle({"cmd": "explain", "place": [0, 0]})
    assert answer["ok"] and answer["ruling"]["rules"] == ["TTD-3a"] and not answer["ruling"]["legal"]
    assert referee.handle({"cmd": "explain", "place": {"q": 0}})["error"]["code"] == "bad_request"

    out = io.StringIO()
    before = session.document()
    Terminal(session, lambda: None, out).run(iter(["why 0,0", "why", "q"]))
    text = out.getvalue()
    assert "NOT ALLOWED: Nothing may be done there. (0,0) does not touch Red's" in text and "[TTD-3a]" in text
    assert "say which place" in text and session.document() == before


# Blackpool: a move names the piece, not a square, so the place a finger points at is the traveller.


def blackpool_move() -> Session:
    """Yellow rolled 5: Yellow 1 (carrying Red 1) and Yellow 3 may move; Yellow 2 is frozen on c6."""
    return yellow_rolled_five()


def test_place_of_reads_a_traveller_by_its_id() -> None:
    assert place_of({"type": "move", "traveller": "red-1"}) == "red-1"
    assert place_of({"type": "bring_out", "traveller": "yellow-2", "text": "Bring Yellow 2 out"}) == "yellow-2"
    assert place_of({"type": "target", "traveller": "red-1", "square": "e4"}) == "red-1"  # a step: the piece
    assert place_of({"traveller": 3}) is None and place_of({"traveller": ""}) is None  # a piece goes by its id
    assert place_of({"type": "order", "travellers": ["red-1", "red-2"]}) is None  # Gust's order is no one place
    assert place_of({"slot": 2, "traveller": "red-1"}) == 2  # two place fields: the earlier one counts, as before


def test_a_traveller_asked_about_is_checked_for_each_kind_of_offered_action() -> None:
    offered = [
        {"type": "move", "traveller": "yellow-1", "text": "Yellow 1: 6 forward to f3, roll again"},
        {"type": "bring_out", "traveller": "yellow-3", "text": "Bring Yellow 3 out of the centre to d6"},
        {"type": "coin", "deck": "charm", "text": "Spend a coin on the charm deck (3 left)"},
    ]
    assert moved_to(offered, "yellow-2") == [
        {"type": "move", "traveller": "yellow-2"},
        {"type": "bring_out", "traveller": "yellow-2"},
    ]
    assert moved_to(offered, 3) == []  # a slot number is never put in a traveller's place


def test_a_frozen_traveller_is_refused_with_the_games_clause_and_nothing_changes() -> None:
    session = blackpool_move()
    before, log = session.document(), list(session.log)
    frozen = explain_place(session, place_from_text("yellow-2"))
    assert not frozen.legal and frozen.rules == ("BP-C10",)
    assert frozen.text == "Yellow 2 is frozen and stays until it is awakened."  # the game's own words, as they are
    rival = explain_place(session, "red-1")
    assert not rival.legal and rival.rules == ("BP-6",) and rival.text == "Red 1 is not Yellow's to move."
    allowed = explain_place(session, "yellow-1")
    assert allowed.legal and allowed.text == "Allowed: Yellow 1: forward 3 to g3 (ring 3)." and "BP-5" in allowed.rules
    assert session.document() == before and session.log == log


def test_a_blocked_traveller_is_refused_as_the_game_refuses_its_move() -> None:
    """A seeded game to a roll that would land Yellow on its own colour: the answer is the check of that move."""
    session = Session.new("blackpool", ["yellow", "red"])
    rng = random.Random(0)
    blocked = None
    for _ in range(400):
        document = session.document()
        if document["phase"] == "move":
            mine = [tid for tid in document["travellers"] if tid.startswith(document["turn"] + "-")]
            refused = {t: session.check({"type": "move", "traveller": t}).rules for t in mine}
            blocked = next((t for t, rules in refused.items() if rules == ("BP-7",)), None)
            if blocked:
                break
        session.act(rng.choice(session.legal()))
    assert blocked is not None
    before, log = session.document(), list(session.log)
    ruling = explain_place(session, blocked)
    check = session.check({"type": "move", "traveller": blocked})
    assert not ruling.legal and ruling.rules == ("BP-7",) and ruling.text == check.text
    assert "cannot land" in ruling.text
    assert session.document() == before and session.log == log


def test_only_blackpool_names_travellers_and_each_of_its_moves_is_placed_at_its_piece() -> None:
    """Seeded games of all five: a "traveller" field is Blackpool's alone, so no other game's places change."""
    players = {
        "blackpool": ["yellow", "red", "green"],
        "desert": ["black", "purple", "pink"],
        "ttd": ["red", "black", "orange"],
        "targi": ["white", "black"],
        "temple": ["red", "blue"],
    }
    named: set[str] = set()
    for game_id, colours in players.items():
        for seed in range(3):
            session = Session.new(game_id, colours)
            rng = random.Random(seed)
            for _ in range(300):
                legal = session.legal()
                if not legal or session.pending().is_over:
                    break
                for action in legal:
                    if game_id != "blackpool":
                        assert "traveller" not in action, action
                    elif "traveller" in action:
                        assert place_of(action) == action["traveller"], action
                        named.add(str(action["type"]))
                session.act(session.game.sim_choose(session.state, legal, rng))
    assert {"move", "bring_out"} <= named


def test_the_protocol_and_the_terminal_answer_about_a_traveller() -> None:
    session = blackpool_move()
    referee = Referee()
    referee.session = session
    answer = referee.handle({"cmd": "explain", "place": "yellow-2"})
    assert answer["ok"] and answer["ruling"]["rules"] == ["BP-C10"] and not answer["ruling"]["legal"]
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter(["why yellow-2", "q"]))
    assert "Yellow 2 is frozen" in out.getvalue() and "[BP-C10]" in out.getvalue()


def test_a_targi_card_is_asked_about_only_with_actions_of_its_own_kind() -> None:
    """A tap on border card 2 moved the centre cards' "use" there too, and the table heard how a
    centre slot is spelt ("a central slot is [row, column] ...") beside the rule."""
    session = Session.new("targi", ["white", "black"])
    rng = random.Random(1)
    while not ({type(place_of(a)) for a in session.legal()} >= {int, tuple}):  # border and centre uses
        session.act(rng.choice(session.legal()))
    border = explain_place(session, 2)
    assert border.rules == ("TG-A2",) and "slot" not in border.text
    centre = explain_place(session, (1, 1))
    assert centre.rules == ("TG-A3",) and "card 1" not in centre.text.replace("centre 1-1", "")


def test_why_while_a_roll_is_asked_for_says_what_comes_first_and_cites_its_clause() -> None:
    """`why d4` at the start of a Blackpool turn said only "Nothing is placed on the board at this point of the
    game", citing no clause and not saying that the oracle is rolled first."""
    session = Session.new("blackpool", ["red", "blue"])
    ruling = explain_place(session, "d4")
    assert not ruling.legal and "Red: roll the oracle" in ruling.text, ruling.text
    assert ruling.rules == ("BP-3",)


def test_what_comes_first_reads_as_one_sentence() -> None:
    """Targi's opening answered "first, Set up the centre: ...", a capital in mid-sentence; a player asked
    first keeps the capital of their name."""
    session = Session.new("targi", ["white", "black"])
    ruling = explain_place(session, 5)
    assert not ruling.legal and "first, set up the centre: turn up" in ruling.text, ruling.text
    blackpool = explain_place(Session.new("blackpool", ["red", "blue"]), "d4")
    assert "first, Red: roll the oracle" in blackpool.text, blackpool.text


FIVE = {
    "targi": (["white", "black"], ["noble", "16", "centre 2-1", "3,3"], "a border card is named by its number"),
    "desert": (["black", "pink"], ["dawn", "Cool Cave", "12", "the Last Outpost"], "a space is named by its number"),
    "ttd": (["red", "black", "orange"], ["5,5", "(0,0)"], "a hex is named by its two numbers"),
    "temple": (["red", "blue"], ["3", "7,0"], "a card slot is named by its number"),
    "blackpool": (["red", "blue"], ["red-1", "Blue 3", "D4", "centre"], "a traveller is named by its colour"),
}


@pytest.mark.parametrize("game", sorted(FIVE))
def test_why_at_a_name_the_board_lacks_says_so_and_how_places_are_named(game: str) -> None:
    """`why xyz` in Targi got the answer for a real place where nothing may happen yet ("first, set up the
    centre"), so a mistyped name read like a rule; places the game does name still get their ruling."""
    players, names, how = FIVE[game]
    session = Session.new(game, players)
    rng = random.Random(2)
    for _ in range(12):  # past the set-up, into the game itself
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    before, log = session.document(), list(session.log)
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter(["why xyz", "why 99,99", *(f"why {n}" for n in names), "q"]))
    answers = [line for line in out.getvalue().splitlines() if "ALLOWED" in line or "Refused" in line]
    assert len(answers) == 2 + len(names), answers
    assert "no place called 'xyz'" in answers[0] and how in answers[0], answers[0]
    assert "no place called '99,99'" in answers[1]
    for name, answer in zip(names, answers[2:], strict=True):
        assert "no place called" not in answer, (name, answer)
    assert session.document() == before and session.log == log
    referee = Referee()
    referee.session = session
    refused = referee.handle({"cmd": "explain", "place": "xyz"})
    assert refused["error"]["code"] == "bad_request" and how in refused["error"]["message"]


def blackpool_blocked_on_c2() -> Session:
    """Yellow rolled 3: Yellow 1 on b4 would land on c2, where Yellow 2 stands; Red waits in the centre."""
    travellers = {
        "yellow-1": {"at": "b4"}, "yellow-2": {"at": "c2"}, "yellow-3": {"at": "c3"},
        "red-1": {"at": "centre"}, "red-2": {"at": "centre"}, "red-3": {"at": "centre"},
    }
    document = {"game": "blackpool", "players": ["yellow", "red"], "turn": "yellow", "phase": "move", "roll": 3}
    return Session.load("blackpool", {**document, "travellers": travellers})


def test_a_blackpool_square_is_answered_for_the_travellers_it_concerns() -> None:
    """`why c2`: the square Yellow 1 cannot land on was answered "no traveller 'c2' in this game", no clause."""
    session = blackpool_blocked_on_c2()
    before = session.document()
    square = explain_place(session, place_from_text("c2"))
    assert square.text == ("Yellow 1 cannot land on c2 (ring 2): a traveller of its own colour is there. "
                           "Allowed: Yellow 2: forward 3 to f2 (ring 2).")
    assert square.legal and square.rules[0] == "BP-7"
    stays = explain_place(session, "c3")  # Yellow 3 stands there: its own answer, the equal pull
    assert stays.text == "Yellow 3 stays: the roll equals the pull of c3 (ring 3)." and stays.rules == ("BP-5",)
    for centre in ("centre", "e5"):  # the middle square is the centre: three rivals, one reason
        ruling = explain_place(session, centre)
        assert ruling.text == "Red 1 is not Yellow's to move. The same rule holds for Red 2 and Red 3 there."
        assert ruling.rules == ("BP-6",)
    empty = explain_place(session, "h8")  # nothing stands or lands there: what the roll does allow
    assert not empty.legal and empty.rules and "Yellow 2: forward 3 to f2" in empty.text
    assert session.document() == before


def test_a_blackpool_square_through_the_referee_and_the_terminal() -> None:
    referee = Referee()
    state = blackpool_blocked_on_c2().document()
    assert referee.handle({"cmd": "load", "game": "blackpool", "state": state})["ok"]
    ruling = referee.handle({"cmd": "explain", "place": "c2"})["ruling"]
    assert "Yellow 1 cannot land on c2" in ruling["text"] and "BP-7" in ruling["rules"]
    assert "no traveller" not in referee.handle({"cmd": "explain", "place": "centre"})["ruling"]["text"]


def test_a_centre_traveller_is_told_the_roll_that_brings_it_out() -> None:
    """"only the exit roll brings it out" named no number; a player who has not read the rules asks "which?"."""
    session = blackpool_blocked_on_c2()
    document = {**session.document(), "roll": 5}
    ruling = Session.load("blackpool", document).check({"type": "move", "traveller": "yellow-1"})
    assert ruling.legal
    travellers = {**document["travellers"], "yellow-1": {"at": "centre", "on": None, "frozen": False}}
    ruling = Session.load("blackpool", {**document, "travellers": travellers}).check(
        {"type": "move", "traveller": "yellow-1"})
    assert ruling.text == "Yellow 1 is in the centre, and a roll of 5 cannot move it: only a 6 brings it out."
    assert ruling.rules == ("BP-Q7",)


def test_a_temple_cell_while_cards_are_changed_is_answered_as_its_slot() -> None:
    """`why 6,13` while a path card is to be changed said "what may be done now happens on slots" and
    never which slot holds that cell: the answer is now the slot's, after naming it."""
    session = Session.new("temple", ["red", "blue"])
    rng = random.Random(1)
    while session.legal()[0]["type"] != "change":
        session.act(rng.choice(session.legal()))
    before = session.document()
    cell = explain_place(session, place_from_text("6,13"))
    slot = explain_place(session, 8)
    assert cell.text == f"[6,13] is on the card in slot 8. {slot.text}"
    assert (cell.legal, cell.rules) == (slot.legal, slot.rules) == (True, ("RU-7",))
    corner = explain_place(session, (0, 0))  # on no slot: said so, with what the change allows
    assert not corner.legal and "is on a corner, on no slot" in corner.text and corner.rules == ("RU-2", "RU-7")
    assert session.document() == before


def temple_red_rolled_one() -> Session:
    """Red rolled a white 1: Red 1 stands on [4,2] in slot 1, Red 2 waits at its Entrance Circles."""
    document = {
        "game": "temple", "players": ["red", "blue"], "phase": "move", "turn": "red",
        "slots": [f"P{i:02d}" for i in range(1, 13)], "pawns": {"red": [[4, 2], "entrance"],
                                                               "blue": ["entrance", "entrance"]},
        "hands": {"red": 3, "blue": 3}, "pile": 32, "discard": [], "roll": {"value": 1, "colour": "white"},
        "first_roll": {"contenders": [], "rolls": []}, "tasks": [], "after": "", "winner": None,
    }
    return Session.load("temple", document)


def test_a_temple_cell_a_pawn_may_or_may_not_move_to_is_answered_by_the_move_there() -> None:
    """A move names the cell it ends on ("to"): `why 6,2` heard "Nothing is placed on the board at this point of
    the game: first, Red: move a pawn 1." while Red was to put a pawn on the board."""
    session = temple_red_rolled_one()
    before = session.document()
    far = explain_place(session, place_from_text("6,2"))
    assert not far.legal and far.rules == ("RU-10",)
    assert far.text == ("Nothing may be done there. Red 1 cannot reach [6,2] (slot 2) with a roll of 1: no single "
                        "step over path spaces leads there. The same rule rules out 1 other choice there too: Red 2.")
    own = explain_place(session, (4, 2))  # where Red 1 stands, and out of Red 2's reach: each reason, cited
    assert own.rules == ("RU-11", "RU-10") and "Red 1 already stands on [4,2]" in own.text
    near = explain_place(session, (4, 1))
    assert near.legal and near.text == "Allowed there: Red 1 to [4,1] (slot 1) in 1."
    assert session.document() == before


def test_a_moves_end_is_where_it_happens_and_its_route_stays_behind() -> None:
    """A Fata Morgana marker's new crossing and a temple pawn's cell ("to") are where those moves happen."""
    assert place_of({"type": "move_marker", "from": [2, 1], "to": [1, 1]}) == (1, 1)
    assert place_of({"type": "move", "pawn": "red1", "to": [4, 1], "route": [[4, 1]]}) == (4, 1)
    offered = [{"type": "move", "pawn": "red1", "to": [4, 1], "route": [[4, 1]], "text": "Red 1 to [4,1]"}]
    assert moved_to(offered, (6, 2)) == [{"type": "move", "pawn": "red1", "to": [6, 2]}]  # the route stays behind


def test_pieces_refused_by_one_clause_at_different_squares_each_have_their_own_reason() -> None:
    """`why c2` with Yellow 3 on f2: Yellow 1 cannot land on c2, and Yellow 2, standing there, cannot land on f2,
    both by BP-7. Grouped by the clause alone, the answer read "Yellow 1 cannot land on c2 (ring 2): a traveller of
    its own colour is there. The same rule holds for Yellow 2 there.", as if Yellow 2 were stopped on c2."""
    session = blackpool_blocked_on_c2()
    document = session.document()
    document["travellers"]["yellow-3"]["at"] = "f2"
    session = Session.load("blackpool", document)
    square = explain_place(session, "c2")
    assert square.text == ("Yellow 1 cannot land on c2 (ring 2): a traveller of its own colour is there. "
                           "Yellow 2 cannot land on f2 (ring 2): a traveller of its own colour is there.")
    assert not square.legal and square.rules == ("BP-7",)
    assert "same rule" not in square.text
    # Reasons alike but for the piece's name are still one: the rivals in the centre.
    assert explain_place(session, "centre").text == ("Red 1 is not Yellow's to move. The same rule holds for Red 2 "
                                                     "and Red 3 there.")


def test_a_blackpool_square_with_several_pieces_allowed_says_allowed_once() -> None:
    """`why e5` after a six read "Allowed: Bring Yellow 1 out ... Allowed: Bring Yellow 2 out ... Allowed: ..."."""
    session = Session.new("blackpool", ["yellow", "red"])
    session.act({"type": "roll", "value": 6})
    ruling = explain_place(session, "e5")
    assert ruling.legal and ruling.text == (
        "Allowed: Bring Yellow 1 out of the centre to d6 (ring 4); Bring Yellow 2 out of the centre to d6 (ring 4); "
        "Bring Yellow 3 out of the centre to d6 (ring 4). Red 1 is not Yellow's to move. "
        "The same rule holds for Red 2 and Red 3 there.")
    assert ruling.rules == ("BP-8", "BP-Q20", "BP-D4", "BP-6")
    # A rival's piece has one answer for every kind of move: "The same rule rules out 1 other choice for it"
    # left the table asking which choice, and naming them ("bring out and move") told it nothing more.
    assert explain_place(session, "red-1").text == "Red 1 is not Yellow's to move."


def test_a_desert_choice_pending_reads_as_a_sentence_of_its_own() -> None:
    """With a choice pending and nothing placed, `why` said "...: first, Black on Nomad Camp: redeem a
    Desert Flask, or end the turn." The choice now stands as its own sentence, after the one that says so."""
    session = Session.new("desert", ["black", "purple"])
    rng = random.Random(0)
    while not (session.pending().kind == "choose" and " on " in session.pending().text.split(":")[0]):
        session.act(rng.choice(session.legal()))
    pending = session.pending()
    ruling = explain_place(session, "s5")
    assert not ruling.legal and ruling.rules
    assert "first, " not in ruling.text
    said = "No place is chosen on the board at this point of the game; a choice comes first."
    assert ruling.text == f"{said} {pending.text}"


def test_a_roll_pending_still_says_what_comes_first() -> None:
    ruling = explain_place(Session.new("blackpool", ["red", "blue"]), "d4")
    assert ": first, " in ruling.text and ruling.text.endswith(".")


def red_rolled_three_by_its_steps() -> Session:
    """A temple game with Red 1 on the corner [1,2] and a 3 rolled: enough to climb to red step 2."""
    position = {
        "game": "temple", "players": ["red", "blue"], "options": {}, "phase": "roll", "turn": "red",
        "slots": [f"P{i:02d}" for i in range(13, 25)],
        "pawns": {"red": [[1, 2], "entrance"], "blue": ["entrance", "entrance"]},
        "hands": {"red": 3, "blue": 3}, "pile": 32, "discard": [], "roll": None,
        "first_roll": {"contenders": [], "rolls": []}, "tasks": [], "after": "", "winner": None,
    }  # fmt: skip
    session = Session.load("temple", position)
    session.act({"type": "roll", "value": 3, "face": {"colour": "white"}})
    return session


def test_a_temple_final_step_or_the_chamber_is_asked_about_by_the_cell_it_is_drawn_on() -> None:
    """The steps and the chamber are drawn on cells inside the ring, and players point at them there;
    `why 4,4` on red's second step heard "[4, 4] is not a space of the temple path" beside the choice
    "Red 1 to red step 2 in 3"."""
    session = red_rolled_three_by_its_steps()
    assert "Red 1 to red step 2 in 3" in [a["text"] for a in session.legal()]
    step = explain_place(session, place_from_text("4,4"))  # red's steps climb [3,3] [4,4] [5,5] from its foot [2,2]
    assert step.legal and "to red step 2" in step.text
    chamber = explain_place(session, place_from_text("7,7"))
    assert not chamber.legal and "cannot reach the Treasure Chamber with a roll of 3" in chamber.text
    blue = explain_place(session, place_from_text("11,3"))
    assert not blue.legal and "[11,3] is blue step 1: only blue pawns climb the blue steps" in blue.text
    assert blue.rules == ("RU-15",)
    session.act({"type": "move", "pawn": "red1", "to": [4, 4]})
    assert session.document()["pawns"]["red"][0] == "step2"


def test_a_temple_step_or_the_chamber_asked_about_at_the_terminal_and_the_protocol_is_a_place() -> None:
    """The same through the interfaces: the check that a place is on the board (``known_place``) refused every cell
    inside the ring, so `why 4,4` answered that the steps "are no cells" beside "Red 1 to red step 2 in 3"; another
    colour's step is refused by RU-15, not as a malformed "to" under the move clause (RU-10)."""
    session = red_rolled_three_by_its_steps()
    step = _why(session, "4,4")
    assert "ALLOWED: Allowed. Red 1 moves 3 from [1,2] (corner) to red step 2." in step
    chamber = _why(session, "7,7")
    assert "cannot reach the Treasure Chamber with a roll of 3" in chamber and chamber.endswith("[RU-10]")
    blue = _why(session, "11,3")
    assert "[11,3] is blue step 1: only blue pawns climb the blue steps, and Red 1 is a red pawn." in blue
    assert blue.endswith("[RU-15]")
    assert '"to"' not in blue
    referee = Referee()
    referee.handle({"cmd": "load", "game": "temple", "state": session.document()})
    answer = referee.handle({"cmd": "explain", "place": [4, 4]})
    assert answer["ok"] and answer["ruling"]["legal"], answer
    inside = referee.handle({"cmd": "explain", "place": [4, 8]})  # inside the ring, neither step nor chamber
    assert not inside["ok"] and inside["error"]["rule"] == "RU-2"


def _why(session: Session, words: str) -> str:
    """The terminal's answer to `why <words>`, as a referee reads it."""
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter([f"why {words}", "q"]))
    return next(line for line in out.getvalue().splitlines() if "ALLOWED" in line)


def _targi_until(wanted: Any, seed: int = 2) -> Session:
    session = Session.new("targi", ["white", "black"])
    rng = random.Random(seed)
    while not wanted(session):
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


def test_why_a_centre_card_while_only_border_cards_may_be_used_says_why_the_card_is_closed() -> None:
    """`why 3,2` while Black could use only border cards cited TG-A2 with TG-B4 and TG-B7, the clauses of
    Fata Morgana and the goods cards among the samples, and never said why centre 3-2 was closed."""
    session = _targi_until(lambda s: s.legal()[0].get("type") == "use" and "card" in s.legal()[0]
                           and not any("slot" in a for a in s.legal()))  # fmt: skip
    name = session.state.actor.capitalize()
    line = _why(session, "3,2")
    assert line.startswith(f"  NOT ALLOWED: Nothing may be done there now: {name} has no tribe marker on centre 3-2, "
                           "which holds "), line
    assert "). What may be done now happens on border cards, such as: Use " in line, line
    assert line.endswith("[TG-A3, TG-A2]"), line
    border = explain_place(session, next(n for n in range(1, 17) if not any(a.get("card") == n
                                                                              for a in session.legal())))
    assert not border.legal and border.rules[0].startswith("TG-")  # a border card stays the game's own answer
    odd = explain_place(session, (7, 7))  # a place no board has, as a touch could send it: answered, not raised
    assert not odd.legal and odd.rules == ("TG-A2",) and odd.text.startswith("Nothing may be done there now: what")


def test_why_a_centre_card_during_placement_cites_only_the_placing_clause() -> None:
    """The last placement of a round sets off the tribe markers, so its ruling cites TG-M1, TG-A1 and TG-Q7;
    gathered from sample placements they were cited for "why 2,2", which only TG-P1 answers."""
    session = _targi_until(lambda s: s.legal()[0].get("type") == "place"
                           and len(s.check(s.legal()[0]).rules) > 1)  # fmt: skip
    ruling = explain_place(session, (2, 2))
    assert not ruling.legal and ruling.rules == ("TG-P1",), ruling
    assert "happens on border cards, such as: Place a Targi on" in ruling.text


def test_why_a_border_card_during_fata_morgana_names_centre_cards_and_its_clause() -> None:
    """Fata Morgana's marker move ends on a centre card ("to"): a border card asked about then heard "what
    may be done now happens on spaces", a word for no place on Targi's board, citing TG-Q11 beside TG-B4."""
    session = _targi_until(lambda s: s.legal()[0].get("type") == "move_marker", seed=1)
    ruling = explain_place(session, 2)
    assert not ruling.legal and ruling.rules == ("TG-B4",), ruling
    assert "happens on centre cards, such as: Move the marker from centre " in ruling.text, ruling.text


def _blackpool(phase: str, roll: int, travellers: dict[str, Any]) -> Session:
    """Yellow to play with ``roll`` in ``phase``; every traveller not named waits in the centre."""
    every = {f"{c}-{n}": travellers.get(f"{c}-{n}", {"at": "centre"}) for c in ("yellow", "red") for n in (1, 2, 3)}
    document = {"game": "blackpool", "players": ["yellow", "red"], "turn": "yellow", "phase": phase, "roll": roll}
    if phase == "six":
        document["sixChain"] = 1
    return Session.load("blackpool", {**document, "travellers": every})


def test_why_an_empty_blackpool_square_says_no_traveller_would_end_there_and_cites_the_roll() -> None:
    """`why c3` with a 5 rolled, no traveller on c3 and none of Yellow's landing there, answered "what may
    be done now happens on travellers" citing every clause of the sample moves (BP-5, BP-C6, BP-C5, ...)."""
    session = yellow_rolled_five()
    assert _why(session, "c3") == (
        "  NOT ALLOWED: Nothing may be done there now: no traveller stands on c3 (ring 3), and none of Yellow's "
        "would end its move there: with the 5 rolled each goes as far as the roll and its ring's pull send it. "
        "What may be done now happens on travellers, such as: " + "; ".join(
            a["text"] for a in session.legal()[:3]) + ".  [BP-5]")  # fmt: skip
    six = _blackpool("six", 6, {})
    ruling = explain_place(six, "c3")
    assert not ruling.legal and ruling.rules == ("BP-C7",), ruling  # not BP-8, BP-Q20 and BP-D4 of a bring-out
    assert "none of Yellow's would end there with the six" in ruling.text, ruling.text
    # The camp as a whole, with nobody home: it heard only where play goes ("camp" is no square).
    camp = explain_place(_blackpool("move", 5, {"yellow-1": {"at": "c3"}}), "camp")
    assert camp.text.startswith("Nothing may be done there now: no traveller is in camp, and none of Yellow's "
                                "would end its move there: with the 5 rolled") and camp.rules == ("BP-5",), camp


def test_why_a_camp_square_answers_for_the_travellers_going_home_and_those_home() -> None:
    """Yellow's camp is i1: a Yellow traveller whose roll took it home heard "Nothing may be done there now"
    at i1, and Red's camp square said nothing of Red 3, home there."""
    edge = BOARD.paths["yellow"][-3]  # three squares from home: a 5 on the edge (no pull) takes it into camp
    travellers = {"yellow-1": {"at": edge}, "red-3": {"at": "camp"}}
    session = _blackpool("move", 5, travellers)
    home = explain_place(session, BOARD.camps["yellow"])
    assert home.legal and "Yellow 1" in home.text and "camp" in home.text, home
    red = explain_place(session, BOARD.camps["red"])
    assert not red.legal and "Red 3" in red.text, red


def test_why_a_slot_while_a_stairway_is_chosen_says_the_trip_goes_to_a_stairway() -> None:
    """`why 1` while a pawn's stairway was chosen said "what may be done now happens on spaces", with the
    trips and RU-Q21 beside RU-22."""
    session = Session.new("temple", ["red", "blue"])
    rng = random.Random(3)
    while not (session.state.phase == "resolve" and session.legal()[0]["type"] == "stair"):
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    ruling = explain_place(session, 1)
    assert not ruling.legal and ruling.rules == ("RU-22",), ruling
    assert ruling.text.startswith("Nothing may be done at slot 1 now: ") and "secret stairway" in ruling.text
    assert ruling.text.endswith(", not to a slot."), ruling.text


def _walk_until(game: str, players: list[str], wanted: Any, seed: int) -> Session:
    session = Session.new(game, players)
    rng = random.Random(seed)
    while not wanted(session):
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


def test_why_while_a_roll_or_draw_comes_first_cites_the_clause_that_asks_for_it() -> None:
    """"first, Red: roll the die" cited RU-9 and RU-Q27, what an X does (the first roll's answer, the answers
    sharing no clause); Targi's last raid the scoring clauses its payment sets off; the desert's roll to move,
    with Sandstorm Sneakers in hand, the Sneakers' DR-20 and DR-Q9."""
    temple = _walk_until("temple", ["red", "blue"], lambda s: s.state.phase == "roll", 1)
    ruling = explain_place(temple, 1)
    assert ruling.rules == ("RU-6",) and ": roll the die (or play the Ah Kinchil card)" in ruling.text, ruling
    assert _why(temple, "0,0").endswith("[RU-6]")
    raid = _walk_until("targi", ["white", "black"], lambda s: "Last Raid" in s.pending().text, 1)
    assert explain_place(raid, 2).rules == ("TG-R2",)
    sneakers = _walk_until("desert", ["black", "pink"],
                           lambda s: s.pending().text.startswith((f"{s.pending().player.title()}: roll the die to move",
                                                                  f"{s.pending().player.title()}: roll to move"))
                           and "DR-20" in s.check(s.legal()[0]).rules, 1)  # fmt: skip
    assert explain_place(sneakers, "dawn").rules == ("DR-4",)


def test_why_a_raid_corner_while_border_cards_are_used_says_it_is_a_raid_corner() -> None:
    """`why 4` while Black could use a border card answered "Black has no Targi on card 4 now" [TG-A2], as though
    a Targi might stand on a raid corner."""
    session = _targi_until(lambda s: any(isinstance(a.get("card"), int) and a["type"] == "use" for a in s.legal()))
    assert _why(session, "first raid") == ("  NOT ALLOWED: Nothing may be done there. Card 4 (First Raid) is a raid "
                                           "corner: no Targi may stand there, so it is never used.  [TG-P4]")
