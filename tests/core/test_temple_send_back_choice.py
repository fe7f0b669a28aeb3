"""A temple move onto another pawn's cell says, as a choice, that the pawn there goes back, with the clause."""

from __future__ import annotations

import io
import random

from companion.protocol import Referee
from companion.session import Session
from companion.terminal import Terminal


def landing_on_a_pawn() -> tuple[Session, dict]:
    """A temple game (seed 0) at the first move that lands on a pawn, and that move as offered."""
    session = Session.new("temple", ["red", "blue"])
    rng = random.Random(0)
    while True:
        for action in session.legal():
            if action["type"] == "move" and "lands on" in session.check(_bare(action)).text:
                return session, action
        session.act(rng.choice(session.legal()))


def _bare(action: dict) -> dict:
    return {key: value for key, value in action.items() if key != "text"}


def test_the_listed_move_says_the_pawn_it_lands_on_goes_back() -> None:
    """Only `check` said so ("Red 2 lands on Red 1. Red 1 goes back ..."); the choice read like any other move."""
    session, action = landing_on_a_pawn()
    ruling = session.check(_bare(action))
    landed = ruling.text.split(" lands on ")[1].split(".")[0]  # "Red 1"
    assert action["text"].endswith(f", sending {landed} back [RU-12, RU-Q18]") or action["text"].endswith(
        f", sending {landed} back [RU-12]"
    )
    others = [a for a in session.legal() if a["type"] == "move" and "lands on" not in session.check(_bare(a)).text]
    assert others and not any("sending" in a["text"] for a in others)


def test_the_protocol_and_the_terminal_list_it_so() -> None:
    session, action = landing_on_a_pawn()
    assert "back [RU-12" in action["text"]
    referee = Referee()
    referee.session = session
    assert action["text"] in [a["text"] for a in referee.handle({"cmd": "legal"})["legal"]]
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter(["board", "all"]))
    assert f". {action['text']}" in out.getvalue()


def ak_onto_a_pawn() -> tuple[Session, dict]:
    """Red to roll on the house board (seed 0) with Blue 1 on red's Ah Kinchil marker, and Red 1's card play."""
    session = Session.new("temple", ["red", "blue"])
    rng = random.Random(0)
    while session.document()["phase"] != "roll":
        session.act(rng.choice(session.legal()))
    document = session.document()
    assert document["turn"] == "red"
    document["pawns"]["blue"][0] = [13, 13]  # red's Ah Kinchil marker, the SE corner
    session = Session.load("temple", document)
    play = next(a for a in session.legal() if a["type"] == "ahkinchil" and a["pawn"] == "red1")
    return session, play


def test_the_ah_kinchil_play_onto_a_pawn_is_listed_so_by_the_protocol_and_the_terminal() -> None:
    """The card play read "... Ah Kinchil marker [13,13] (corner)" only; Blue 1 went back unannounced (RU-Q23)."""
    session, play = ak_onto_a_pawn()
    assert play["text"].endswith("[13,13] (corner), sending Blue 1 back [RU-Q23]")
    referee = Referee()
    referee.session = session
    assert play["text"] in [a["text"] for a in referee.handle({"cmd": "legal"})["legal"]]
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter(["board", "all"]))
    assert f". {play['text']}" in out.getvalue()


def change_sending_back() -> tuple[Session, dict]:
    """A temple game (seed 0) at the first red roll with a change that sends a pawn back, and that change."""
    session = Session.new("temple", ["red", "blue"])
    rng = random.Random(0)
    while legal := session.legal():
        for action in legal:
            if action["type"] == "change" and ", sending " in action["text"]:
                return session, action
        session.act(rng.choice(legal))
    raise AssertionError("the game ended without a change choice saying it sends a pawn back")


def test_a_change_that_sends_a_pawn_back_is_listed_so_by_the_protocol_and_the_terminal() -> None:
    """The change read "Slot 4: P03 out, P17 in" only; the pawn on the new hole went back unannounced (RU-17)."""
    session, change = change_sending_back()
    assert "back [RU-17" in change["text"]
    sent = change["text"].split(", sending ")[1].split(" back")[0]  # "Red 1"
    assert f"{sent} goes back" in session.check(_bare(change)).text
    referee = Referee()
    referee.session = session
    assert change["text"] in [a["text"] for a in referee.handle({"cmd": "legal"})["legal"]]
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter(["board", "all"]))
    assert f". {change['text']}" in out.getvalue()
