"""How the temple's texts name a cell to a table that has never read the rules.

A cell read "[8,0] (slot 2 r0c2)": the "r0c2", the cell's row and column on its card counted from 0, is a
programmer's shorthand, and the "[8,0]" before it, numbered along the board's margins, already named the cell."""

from __future__ import annotations

import random
import re

from companion.session import Session

SHORTHAND = re.compile(r"\br\d+c\d+\b")
SLOT_CELL = re.compile(r"\[\d+,\d+\] \(slot \d+\)")


def test_a_seeded_game_names_every_cell_by_margins_and_slot_alone() -> None:
    session = Session.new("temple", ["red", "blue", "green"])
    rng = random.Random(5)
    texts: list[str] = []
    for _ in range(200):
        if session.pending().is_over:
            break
        legal = session.legal()
        texts.append(session.pending().text)
        texts.extend(str(action.get("text", "")) for action in legal)
        step = session.act(session.game.sim_choose(session.state, legal, rng))
        texts.extend(event.text for event in step.events)
    assert sum(bool(SLOT_CELL.search(text)) for text in texts) > 50  # cells on cards were named, and often
    assert not [text for text in texts if SHORTHAND.search(text)]
