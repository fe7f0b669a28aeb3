"""Choosing among hundreds of placements by tapping the map, in the real offscreen window."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.journal import Journal
from companion.observations import ButtonPressed
from companion.places import place_of
from companion.session import Session
from tests.ui.conftest import advance, tap, tap_at
from tests.ui.test_app import button
from ui.boards import placer_for, ttd
from ui.shots import bench_env, buttons_words, long_list, run_ui
from ui.voice import spoken_form

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels

FOUR = ["red", "black", "orange", "purple"]  # five open with one colour (TD-Q7): fewer choices a hex


def camel_turn() -> Session:
    """Through the Desert past its leaders, three players: a handful of camel placements, listed as buttons."""
    session = Session.new("ttd", ["red", "black", "orange"])
    rng = random.Random(1)
    while session.legal()[0]["type"] != "camel":
        session.act(rng.choice(session.legal()))
    return session


def leader_placement() -> Session:
    """Four players past the water-hole draws: every empty hex takes a leader of any colour."""
    return long_list("ttd", FOUR)


def open_on(start: Any, session: Session, screen: str = "table") -> Any:
    """The app started on ``session``, showing ``screen``."""
    app = start(session)
    show(app, screen)
    return app


def show(app: Any, screen: str) -> None:
    app.show(screen)
    advance(3)


def tap_hex(app: Any, q: int, r: int) -> None:
    board = app.root.get_screen("table").ids.board
    players = len(app.board.document["players"])
    frame = ttd.map_frame(app.board.game.data["board"]["cells"], board.width, board.height, players)
    x, y = frame.centre(q, r)
    tap_at(board, board.x + x, board.y + y)


def test_hundreds_of_placements_are_chosen_on_the_map(start: Any) -> None:
    session = leader_placement()
    legal = session.legal()
    assert len(legal) > 200
    app = open_on(start, session)
    table = app.root.get_screen("table")
    assert len(table.ids.choices.children) == 0  # no list of hundreds to scroll
    assert "tap a hex on the board" in table.ids.hint.text
    assert table.ids.board.view.marked == {tuple(a["hex"]) for a in legal}

    wanted = legal[len(legal) // 2]
    q, r = wanted["hex"]
    tap_hex(app, q, r)
    here = [b.action for b in table.ids.choices.children]
    assert here and all(a["hex"] == [q, r] for a in here)
    assert sorted(map(str, here)) == sorted(str(a) for a in legal if a["hex"] == [q, r])
    assert table.ids.board.view.focus == (q, r)

    tap(button(table.ids.choices, wanted["text"]))
    assert session.log[-1] == {k: v for k, v in wanted.items() if k != "text"}
    assert table.arrangement.focus is None  # the next player starts from the whole map
    assert (q, r) not in table.ids.board.view.marked


def test_off_the_marks_list_all_and_back(start: Any) -> None:
    session = leader_placement()
    app = open_on(start, session)
    table = app.root.get_screen("table")
    board = table.ids.board
    tap_at(board, board.x + 2, board.y + 2)  # a corner of the score strip: no hex there
    assert table.arrangement.focus is None and len(table.ids.choices.children) == 0

    tap(table.ids.list_all)
    pages = table.arrangement.pages
    assert pages > 3 and len(table.ids.choices.children) == 60
    first = [b.action for b in table.ids.choices.children]
    for _ in range(pages):
        tap(table.ids.next_page)
    assert [b.action for b in table.ids.choices.children] == first  # round to the first page again
    tap(table.ids.go_back)
    assert len(table.ids.choices.children) == 0 and table.arrangement.can_list_all


def spot_of(board: Any, place: Any) -> tuple[float, float]:
    """The middle of ``place`` on the board widget, found by scanning with the drawing's own hit test.

    The point of it nearest its centroid: a finger at its very edge, beside another marked place,
    is asked which of the two it meant (``ui/reach.py``).
    """
    placer = placer_for(board.view.game.id)
    assert placer is not None
    spots = [
        (x, y)
        for y in range(int(board.y) + 2, int(board.top), 4)
        for x in range(int(board.x) + 2, int(board.right), 4)
        if placer(board, board.view, x, y) == place
    ]
    if not spots:
        raise AssertionError(f"{place!r} is nowhere on the drawing")
    mx, my = sum(x for x, _ in spots) / len(spots), sum(y for _, y in spots) / len(spots)
    return min(spots, key=lambda spot: (spot[0] - mx) ** 2 + (spot[1] - my) ** 2)


@pytest.mark.parametrize(
    ("game_id", "players", "seed"),
    [("temple", ["red", "blue", "green"], 2), ("desert", ["black", "purple", "pink"], 0)],
)
def test_slots_and_spaces_are_chosen_on_the_board_too(
    start: Any, game_id: str, players: list[str], seed: int
) -> None:
    session = long_list(game_id, players, seed=seed)
    legal = session.legal()
    app = open_on(start, session)
    table = app.root.get_screen("table")
    board = table.ids.board
    places = {place_of(a) for a in legal} - {None}
    assert board.view.marked == places and places
    assert len(table.ids.choices.children) == sum(place_of(a) is None for a in legal)

    place = sorted(places, key=str)[-1]
    tap_at(board, *spot_of(board, place))
    here = [b.action for b in table.ids.choices.children]
    assert sorted(map(str, here)) == sorted(str(a) for a in legal if place_of(a) == place)
    tap(table.ids.choices.children[-1])
    assert session.log[-1]["type"] == here[-1]["type"]


def test_the_step_benchmark_reports_each_step_from_a_long_list(tmp_path: Path) -> None:
    """`companion ui bench` leans on this run: resume a placement position, step, print a JSON line."""
    journal_path = tmp_path / "journal.sqlite3"
    long_list("ttd", FOUR, Journal(journal_path))
    report = run_ui(journal_path, bench_env(tmp_path), "--bench-steps")
    assert len(report["ms"]) == 12 and all(ms > 0 for ms in report["ms"])
    assert report["legal"][0] > 200 and max(report["buttons"]) <= 60
    # Every placement is marked on the board: the line read "(at most 0 buttons built)".
    assert max(report["buttons"]) == 0 and buttons_words(report) == (
        "no button built: every choice was marked on the board")


def test_the_step_benchmark_counts_its_buttons_in_words() -> None:
    assert buttons_words({"buttons": [3, 1], "unmarked": [3, 1]}) == "at most 3 buttons built"
    assert buttons_words({"buttons": [1, 0], "unmarked": [1, 0]}) == "at most 1 button built"
    assert buttons_words({"buttons": [0], "unmarked": [0]}) == "no button built: every choice was marked on the board"


def press(app: Any, intent: str) -> None:
    """A button-box press as the panel submits it, pumped as the app's tick would (not waiting for its timer)."""
    app.controller.submit(ButtonPressed(intent))
    app.controller.pump()
    advance(2)


def test_the_button_box_pick_is_brought_on_screen_and_lit(start: Any) -> None:
    session = leader_placement()
    legal = session.legal()
    app = open_on(start, session)
    table = app.root.get_screen("table")
    places = list(dict.fromkeys(tuple(a["hex"]) for a in legal))
    steps = len(session.log)
    for _ in range(3):  # hundreds of placements: next walks the hexes, not every colour of every hex
        press(app, "next")
    assert app.highlighted is None and app.highlighted_place == places[2]
    assert table.ids.board.view.focus == places[2] and "confirm to open" in app.last_spoken
    press(app, "confirm")  # opens the hex: its first placement is picked, not taken
    pick = next(a for a in legal if tuple(a["hex"]) == places[2])
    assert app.highlighted == pick and app.last_spoken == spoken_form(pick["text"]) and len(session.log) == steps
    lit = [b for b in table.ids.choices.children if b.chosen]
    assert [b.action for b in lit] == [pick] and tuple(lit[0].background_color) != (0.1, 0.45, 0.2, 1)

    press(app, "confirm")
    assert session.log[-1] == {k: v for k, v in pick.items() if k != "text"}
    assert app.highlighted is None and not any(b.chosen for b in table.ids.choices.children)


def test_dispute_offers_a_page_or_the_tapped_place_not_hundreds(start: Any) -> None:
    session = leader_placement()
    legal = session.legal()
    app = open_on(start, session, "dispute")
    dispute = app.root.get_screen("dispute")
    assert len(dispute.ids.offered.children) == 60
    assert dispute.page_text == f"Next page (1 of {-(-len(legal) // 60)})"
    tap(dispute.ids.next_page)
    assert [b.action for b in reversed(dispute.ids.offered.children)] == legal[60:120]

    show(app, "table")
    q, r = legal[200]["hex"]
    tap_hex(app, q, r)
    show(app, "dispute")
    offered = [b.action for b in reversed(dispute.ids.offered.children)]
    assert offered == [a for a in legal if a["hex"] == [q, r]] and not dispute.page_text
    tap(dispute.ids.offered.children[-1])
    assert app.ruling["legal"] is True  # an offered action, checked: allowed, with its clause


def test_a_tap_where_nothing_may_go_is_answered_with_the_clause(start: Any) -> None:
    """A camel turn lists its few placements as buttons; a finger on any other hex asks why not."""
    session = camel_turn()
    before = list(session.log)
    app = open_on(start, session)
    table = app.root.get_screen("table")
    assert (0, 0) not in {place_of(a) for a in session.legal()}
    tap_hex(app, 0, 0)
    said = app.announcements[0]
    assert said["kind"] == "ruling" and said["rules"] == ["TTD-3a"] and "(0,0) does not touch" in said["text"]
    assert "TTD-3a" in table.ids.announcements.text and session.log == before
    assert table.ids.board.view.asked == (0, 0)  # ringed red while the answer stands

    show(app, "dispute")  # the referee opens the dispute screen on the question just asked
    ruling = app.root.get_screen("dispute").ids.ruling.text
    assert ruling.startswith("NOT ALLOWED: Nothing may be done there.") and "TTD-3a Extending" in ruling

    show(app, "table")
    wanted = session.legal()[0]
    assert tuple(wanted["hex"]) in table.ids.board.view.marked  # the listed placements are lit on the map
    tap_hex(app, *wanted["hex"])  # a lit hex: its placements, as with hundreds
    assert {tuple(b.action["hex"]) for b in table.ids.choices.children} == {tuple(wanted["hex"])}
    assert table.ids.board.view.asked is None and session.log == before  # red is for places where nothing may go
    tap_hex(app, 0, 0)
    assert len(table.ids.choices.children) == len(session.legal())  # an unlit hex: why not, and the whole list
    tap(button(table.ids.choices, wanted["text"]))
    assert table.ids.board.view.asked is None  # a new position: the question is answered and gone
    assert table.ids.board.view.last == tuple(wanted["hex"])  # the camel just placed is ringed


def test_an_unmarked_hex_among_hundreds_of_marks_says_why_not(start: Any) -> None:
    session = leader_placement()
    app = open_on(start, session)
    table = app.root.get_screen("table")
    cells = {(c["q"], c["r"]) for c in app.board.game.data["board"]["cells"]}
    unmarked = sorted(cells - table.ids.board.view.marked)
    assert unmarked
    tap_hex(app, *unmarked[0])
    assert app.announcements[0]["kind"] == "ruling" and app.announcements[0]["rules"]
    assert table.arrangement.focus is None and len(table.ids.choices.children) == 0


def long_temple_move() -> Session:
    """A temple move with more ends than the table lists (a roll of 7 on open cards: up to 58)."""
    for seed in range(40):
        session, rng = Session.new("temple", ["red", "blue", "green"]), random.Random(seed)
        while not session.pending().is_over:
            if session.state.phase == "move" and len(session.legal()) > 30:
                return session
            session.act(session.game.sim_choose(session.state, session.legal(), rng))
    raise AssertionError("no temple game offered a long move list")


def test_a_long_temple_move_list_is_chosen_on_the_map_space_by_space(start: Any) -> None:
    """The temple's board answered taps with slots only: a move list put on the map marked nothing, its hint
    read "tap a to on the board", and only 'List all' reached a move."""
    session = long_temple_move()
    legal = session.legal()
    app = open_on(start, session)
    table = app.root.get_screen("table")
    board = table.ids.board
    places = {place_of(a) for a in legal}
    assert len(table.ids.choices.children) == 0
    assert "marked spaces: tap a space on the board" in table.ids.hint.text, table.ids.hint.text
    assert board.view.marked == places
    wanted = legal[len(legal) // 2]
    place = place_of(wanted)
    tap_at(board, *spot_of(board, place))
    here = [b.action for b in table.ids.choices.children]
    assert sorted(map(str, here)) == sorted(str(a) for a in legal if place_of(a) == place)
    assert board.view.focus == place
    tap(button(table.ids.choices, wanted["text"]))
    assert session.log[-1] == {k: v for k, v in wanted.items() if k != "text"}
