"""Targi's round 12 at a real table: the final raid's payments come next, no centre card is asked for (TG-Q25)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.session import Session
from tests.games.targi.helpers import doc_of, load, round_twelve
from tests.ui.conftest import advance, tap

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels


def test_the_table_offers_the_final_raid_after_round_twelve(start: Any) -> None:
    session = Session.from_start("targi", {"kind": "load", "state": doc_of(load(round_twelve()))})
    session.act({"type": "use", "slot": [1, 1]})  # a tribe card goes face down on centre 1-1
    app = start(session)
    app.show("table")
    advance(2)
    table = app.root.get_screen("table")
    tap(next(b for b in table.buttons() if b.text.startswith("Finish my actions; the round ends")))
    advance(3)
    assert session.log[-1] == {"type": "done"}
    assert app.prompt == "Black: choose how to pay the raid (Last Raid)."
    assert any("need not be entered" in a["text"] for a in app.announcements)
    shown = [b.text for b in table.buttons()]
    assert shown == ["Pay 1 gold", "Pay 3 VP"] and not any(t.startswith("Drawn:") for t in shown)
    assert session.document()["centre"][0][0] == {"face_down": "tribe", "pile": 0}  # the board keeps its back
