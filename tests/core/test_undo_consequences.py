"""An undo names what it took back besides the step's first line: points handed back, the end, the turn.

Undoing the Through the Desert camel that closed an oasis said "Taken back: Black places a pink camel on
(0,4)." and nothing of the 5 points; undoing a winning step said nothing of the win. The score afterwards was
right, but the table was never told to hand points back or that play goes on. Positions come from seeded
random play through the rules (the simulator's own choices), so each game reaches its real consequences.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable

import pytest

from companion.game import Event
from companion.protocol import Referee
from companion.registry import create
from companion.session import Session, Step
from companion.simulate import random_players
from companion.terminal import Terminal

Found = Callable[[Session, Step], bool]


def play_until(game_id: str, seed: int, found: Found, limit: int = 3000) -> tuple[Session, Step]:
    """A seeded random game, stopped just after the first step ``found`` picks."""
    rng = random.Random(seed)
    game = create(game_id)
    session = Session.new(game_id, random_players(game, rng))
    for _ in range(limit):
        if session.pending().is_over:
            break
        action = game.sim_choose(session.state, session.legal(), rng)
        step = session.act({k: v for k, v in action.items() if k != "text"})
        if found(session, step):
            return session, step
    raise AssertionError(f"seed {seed} of {game_id} never reached the step looked for")


def said(step: Step, words: str) -> Event | None:
    return next((e for e in step.events if words in e.text), None)


def ended(session: Session, step: Step) -> bool:
    return session.pending().is_over


def test_an_oasis_taken_back_hands_its_5_points_back_with_the_oasis_clause() -> None:
    session, step = play_until("ttd", 3, lambda s, st: said(st, "reaches the oasis") is not None)
    oasis = said(step, "reaches the oasis")
    assert oasis is not None and oasis.kind == "reward"
    who = oasis.players[0]
    totals = session.game.score(session.state)["totals"]
    undo = session.undo()
    turn = "" if session.pending().player == who else f" Back to {who.capitalize()}'s turn."
    assert undo.note == f"Taken back: {step.events[0].text} {who.capitalize()} gives back 5 points (oases).{turn}"
    assert {"TTD-3", "TTD-4b", "TD-Q14"} <= set(undo.rules)  # the camel's own clause, and the oasis points'
    # The provisional totals move with the longest caravans too (here by 10, 5 and 5): only the oasis is said.
    assert session.game.score(session.state)["totals"] != totals
    redo = session.redo()
    assert redo.note == "Put back: " + " ".join(e.text for e in step.events)  # the 5 points said again


@pytest.mark.parametrize(
    ("game_id", "seed", "taking", "part", "rule"),
    [
        ("ttd", 3, r"takes the water hole at .* worth (\d+)", "water", "TTD-4a"),
        ("targi", 1, r"takes (\d+) VP", "tokens", "TG-S1"),
    ],
    ids=["a Through the Desert water hole", "Targi's VP tokens"],
)
def test_points_taken_back_are_handed_back(game_id: str, seed: int, taking: str, part: str, rule: str) -> None:
    """Who took a water hole's token or VP tokens in the step undone gives back as many points, with its clause."""
    session, step = play_until(game_id, seed, lambda s, st: any(re.search(taking, e.text) for e in st.events))
    taken = next(e for e in step.events if re.search(taking, e.text))
    count = int(re.search(taking, taken.text)[1])
    who = taken.text.split(" ")[0]
    undo = session.undo()
    assert f"{who} gives back {count} point{'s' if count > 1 else ''} ({part})." in undo.note
    assert rule in undo.rules


def test_a_camel_that_scored_nothing_is_taken_back_in_one_line() -> None:
    """Longest caravans and areas are counted as if the game ended now, so they move with every camel: a
    leader or a plain camel taken back is no points handed back."""
    session, step = play_until("ttd", 3, lambda s, st: len(st.events) == 1 and st.events[0].kind == "move")
    turn = session.pending().player
    undo = session.undo()
    assert "point" not in undo.note
    assert undo.note == f"Taken back: {step.events[0].text}" + (
        "" if session.pending().player == turn else f" Back to {session.pending().player.capitalize()}'s turn.")


def test_targi_tribe_card_taken_back_hands_its_vp_back_and_a_raid_paid_in_vp_gives_it_back() -> None:
    session, step = play_until("targi", 0, lambda s, st: said(st, "plays Tea Maker") is not None)
    undo = session.undo()
    # The points, then the card and the goods paid for it, which the table puts back by hand (test_undo_by_hand).
    assert undo.note == (f"Taken back: {step.events[0].text} White gives back 1 point (cards). "
                         "Put Tea Maker back by White's display, to be played, kept or discarded. "
                         "Give White 1 salt and 1 pepper back.")
    assert undo.rules[-1] == "TG-S1"  # after the card's own clauses, the clause its VP counts by
    session, step = play_until("targi", 2, lambda s, st: said(st, "pays the raid: 1 VP") is not None)
    undo = session.undo()
    # Paid, the raid sent the robber on (TG-R4): it goes back to the corner by hand.
    assert undo.note == ("Taken back: Black pays the raid: 1 VP. Black gets back 1 point (tokens). "
                         "Put the robber back on card 4 (First Raid).")
    assert undo.rules == ("TG-R2", "TG-Q3", "TG-S1", "TG-R1")


@pytest.mark.parametrize("game_id", ["blackpool", "desert", "targi", "temple", "ttd"])
def test_an_undone_end_says_the_end_and_the_win_are_taken_back(game_id: str) -> None:
    session, step = play_until(game_id, 3, ended, limit=20000)
    over = session.pending()
    clause = session.game.over_rule(session.state)
    result = over.result or {}
    winners = result.get("winners") or ([result["winner"]] if result.get("winner") else [])
    undo = session.undo()
    assert not session.pending().is_over
    assert "The game's end is taken back" in undo.note
    for winner in winners:
        assert winner.capitalize() in undo.note.split("The game's end is taken back")[1]
    if clause:
        assert clause in undo.rules
    assert all(len(sentence.split()) < 25 for sentence in re.split(r"(?<=[.!?]) ", undo.note)[1:])
    redo = session.redo()
    assert session.pending().is_over and redo.note.startswith("Put back: ")
    assert [e.text for e in redo.events] == [e.text for e in step.events]  # the end said again as first said


def test_a_roll_corrected_across_a_turn_says_whose_turn_it_is_again() -> None:
    session = Session.new("blackpool", ["yellow", "red"])
    step = session.act({"type": "roll", "value": 4})  # nothing of Yellow's can move: the turn passes
    assert session.pending().player == "red", [e.text for e in step.events]
    undo = session.undo()
    assert undo.note.endswith("enter what the table really shows. Back to Yellow's turn.")
    assert "BP-Q31" in undo.rules


def test_the_referee_and_the_terminal_cite_what_an_undo_took_back() -> None:
    referee = Referee()
    referee.handle({"cmd": "new", "game": "blackpool", "players": ["yellow", "red"]})
    referee.handle({"cmd": "act", "action": {"type": "roll", "value": 4}})
    answer = referee.handle({"cmd": "undo"})
    assert answer["ok"] and answer["note"].endswith("Back to Yellow's turn.")
    assert answer["rules"] == ["BP-3", "BP-Q31"]
    out = io.StringIO()
    terminal = Terminal(Session.new("blackpool", ["yellow", "red"]), lambda: None, out)
    terminal.run(["4", "u", "q"])
    assert "enter what the table really shows. Back to Yellow's turn.  [BP-3, BP-Q31]" in out.getvalue()


def test_an_undo_whose_consequences_fail_is_still_taken_and_said(monkeypatch: pytest.MonkeyPatch) -> None:
    """The undo is journalled before its words are made: a score that fails must not turn it into an error
    answer for a step that was in fact taken back."""
    session, step = play_until("ttd", 3, lambda s, st: said(st, "reaches the oasis") is not None)

    def broken(state: object) -> None:
        raise RuntimeError("a score that fails")

    monkeypatch.setattr(session.game, "score", broken)
    undo = session.undo()
    assert undo.note == f"Taken back: {step.events[0].text}" and undo.rules == step.events[0].rules
    assert session.can_redo


@pytest.mark.parametrize(("game_id", "opening", "said"), [
    ("blackpool", "The water pulls ", "the water pulls "),  # a sentence's opening: lower case after the colon
    ("desert", "Trade agreed: ", "the trade ("),  # a heading saying what was done: it, its sentence in brackets
    ("desert", "Desert Flask: ", "Desert Flask, "),  # a name keeps its capital
    ("ttd", "Black places ", "Black places "),
])
def test_taken_back_and_put_back_read_on_after_their_colon(game_id: str, opening: str, said: str) -> None:
    """Blackpool's undo read "Taken back: The water pulls Yellow 3 back 2 ...", a capital after the colon where the
    step's line opened a sentence, and the desert's "Taken back: Trade agreed: Black gives ...", two colons in a
    row (286 and 38 of the undo and redo notes over 30 seeded games of each). The redo's "Put back:" alike."""
    for seed in range(30):
        try:
            session, _ = play_until(game_id, seed, lambda s, st: st.events[0].text.startswith(opening))
            break
        except AssertionError:
            continue
    else:
        raise AssertionError(f"no seeded {game_id} game began a step with {opening!r}")
    undone = session.undo().note
    assert undone.startswith(f"Taken back: {said}"), undone
    redone = session.redo().note
    assert redone.startswith(f"Put back: {said}"), redone


def test_an_undone_desert_trade_reads_as_the_trade_taken_back() -> None:
    """It read "Taken back: trade agreed, Black gives ...", as if the undo had agreed to a trade: the trade is
    named, its sentence whole in brackets, on the screen, the terminal, the protocol's note and aloud."""
    from ui.voice import spoken_step

    session, step = play_until("desert", 0, lambda s, st: st.events[0].text.startswith("Trade agreed: "))
    line = step.events[0].text.removeprefix("Trade agreed: ").rstrip(".")
    undone = session.undo().note
    assert undone.startswith(f"Taken back: the trade ({line}). "), undone
    assert spoken_step(undone, "").startswith(f"Taken back: the trade ({line}). "), spoken_step(undone, "")
    redone = session.redo().note
    assert redone.startswith(f"Put back: the trade ({line}).") and "agreed" not in redone, redone


def test_a_line_opening_with_who_keeps_its_colon_after_taken_back() -> None:
    """Only a heading's colon becomes a comma: "Black rolls 2: Guardian's Test (31) needs a 6" is a sentence, and
    read "Black rolls 2, Guardian's Test ..." with it made one."""
    from companion.phrases import after_colon
    rolled = "Black rolls 2: Guardian's Test (31) needs a 6"
    assert after_colon(rolled) == rolled
    assert after_colon("Sand Thief: Teal takes Pink's Mirage Cloak") == "Sand Thief, Teal takes Pink's Mirage Cloak"
