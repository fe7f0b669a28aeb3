"""A family's first evening: what a table that has read no docs needs to see, in the real offscreen window."""

from __future__ import annotations

import random
from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window

from companion.phrases import after_colon
from companion.session import Session
from tests.ui.conftest import advance, tap, tap_at
from tests.ui.test_app import button
from tests.ui.test_layout import shown_whole, window_box
from ui.voice import spoken_form

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels

SIZES = [(800, 480), (480, 800), (1280, 720)]


@pytest.fixture
def sized() -> Any:
    """The window at a size for the test, and back to 800x480 after it."""

    def _size(size: tuple[int, int]) -> None:
        Window.size = size
        advance(3)

    yield _size
    Window.size = (800, 480)
    advance(3)


def finished(game_id: str, players: list[str]) -> Session:
    session = Session.new(game_id, players)
    rng = random.Random(2)
    while not session.pending().is_over:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


def test_redo_is_announced_as_the_step_put_back(start: Any) -> None:
    """Redo's line read as a new card drawn ("Centre 1-2 shows ..."), the same words as the step's own: the
    table could not tell what had happened from what the button did. It now says "Put back:"."""
    app = start(Session.new("targi", ["white", "black"]))
    table = app.root.get_screen("table")
    tap(table.buttons()[0])
    taken = app.announcements[0]["text"]
    tap(table.ids.undo)
    assert table.ids.announcements.text.startswith("Correction: ")
    tap(table.ids.redo)
    first = table.ids.announcements.text.splitlines()[0]
    assert first.startswith(f"Put back: {after_colon(taken)}"), first  # "Put back: centre 1-2 shows ..."


def test_redo_cites_the_clauses_the_step_cited(start: Any) -> None:
    """The step's line ends "[TTD-1c]"; put back by Redo, the same words came without their clause."""
    app = start(Session.new("ttd", ["red", "black", "orange"]))
    table = app.root.get_screen("table")
    tap(table.buttons()[0])
    rules = app.announcements[0]["rules"]
    assert rules
    tap(table.ids.undo)
    tap(table.ids.redo)
    assert app.announcements[0]["rules"] == rules
    assert table.ids.announcements.text.startswith("Put back: ")
    assert table.ids.announcements.text.split("\n")[0].endswith(f"[{', '.join(rules)}]")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_finished_game_offers_another_game_beside_play_again(sized: Any, start: Any, size: tuple[int, int]) -> None:
    """At a game's end the table offered "Play again" alone: the way to Through the Desert after Targi was
    Menu, which a family at their first game's end did not read as "choose the next game"."""
    sized(size)
    app = start(finished("targi", ["white", "black"]))
    table = app.root.get_screen("table")
    other = button(table.ids.choices, "Choose another game or other players")
    again = button(table.ids.choices, "Play again: new Targi, same players")
    for shown in (again, other):
        assert shown_whole(shown, table.ids.choice_scroll)
        _, bottom, _, top = window_box(shown)
        assert round(top - bottom) >= 48 and shown.font_size >= 16
    tap(other)
    assert app.root.current == "home"
    home = app.root.get_screen("home")
    tap(button(home.ids.games, "Through the Desert"))
    for colour in ("Red", "Black", "Orange"):
        tap(button(home.ids.colours, colour))
    tap(home.ids.start)
    assert app.root.current == "table" and app.controller.session.game.id == "ttd"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_start_without_players_says_to_tap_their_colours(sized: Any, start: Any, size: tuple[int, int]) -> None:
    """A family that tapped Through the Desert and then Start read "Through the Desert needs 2 to 5 players,
    not 0", with nothing saying the colour buttons were the players nor which clause said so."""
    sized(size)
    app = start()
    home = app.root.get_screen("home")
    tap(button(home.ids.games, "Through the Desert"))
    assert home.ids.limits.text == "2-5 players: tap their colours in turn order"
    tap(home.ids.start)
    note = home.ids.note
    assert note.text == ("Through the Desert needs 2 to 5 players, not 0: tap a colour for each player, in turn "
                         "order, then Start new game. [TD-Q3]")
    for label in (home.ids.limits, note):
        label.texture_update()
        assert label.font_size >= 16
        _, bottom, _, top = window_box(label)
        assert bottom >= 0 and top <= Window.height
    assert note.texture_size[1] <= note.height  # whole, not cut at the buttons
    limits = home.ids.limits
    probe = CoreLabel(text=limits.text, font_size=limits.font_size)  # the whole line, unshortened
    probe.refresh()
    assert probe.texture.size[0] <= limits.width
    tap(button(home.ids.colours, "Red"))
    assert note.text == ""
    tap(home.ids.start)
    assert "needs 2 to 5 players, not 1: tap a colour for each player" in note.text
    tap(button(home.ids.colours, "Black"))
    tap(home.ids.start)
    assert app.root.current == "table" and app.controller.session.start["players"] == ["red", "black"]


def test_undoing_a_water_hole_token_does_not_call_it_a_card(start: Any) -> None:
    """Through the Desert's water holes are tokens; the undo said "the card entered last (Water hole at (2,0):
    a token worth 1)", and a family looked for a card."""
    app = start(Session.new("ttd", ["red", "black", "orange"]))
    table = app.root.get_screen("table")
    tap(table.buttons()[0])
    tap(table.ids.undo)
    said = table.ids.announcements.text.splitlines()[0]
    assert said.startswith("Correction: what was entered last (Water hole at (2,0): a token worth 1) is withdrawn")
    assert "card" not in said


def hexes(session: Session) -> dict[str, tuple[int, int]]:
    """A bare sand hex in play and a hex of the unused strip, on a three-player board."""
    board = session.game.board_of(session.state)
    bare = next(h for h in range(board.size) if (board.in_play >> h) & 1 and not (
        (board.site_mask | board.mountain | board.palm_mask) >> h) & 1)
    unused = next(h for h in range(board.size) if not (board.in_play >> h) & 1)
    return {"bare": board.coords[bare], "unused": board.coords[unused]}


def test_a_tap_on_bare_sand_while_water_holes_are_entered_says_it_has_none(start: Any) -> None:
    """Asked why not, bare sand in the middle of the map answered "(q,r) is not a water-hole site in use with
    this many players", as if the player count had hidden a water hole there."""
    from tests.ui.test_pointing import tap_hex

    session = Session.new("ttd", ["red", "black", "orange"])
    app = start(session)
    table = app.root.get_screen("table")
    first = app.board.game.board_of(session.state).label(session.game.next_site(session.state))
    found = hexes(session)
    tap_hex(app, *found["bare"])
    said = table.ids.announcements.text.splitlines()[0]
    q, r = found["bare"]
    assert f"({q},{r}) has no water hole: tokens go only on the water-hole sites." in said, said
    assert f"in any order; {first} is asked for next." in said and said.endswith("[TTD-1c]")
    assert "in use with this many players" not in said
    tap_hex(app, *found["unused"])
    said = table.ids.announcements.text.splitlines()[0]
    q, r = found["unused"]
    assert f"({q},{r}) lies in the region not used with 3 players: no token goes there." in said, said
    assert said.endswith("[TTD-1a]")
    assert session.log == []


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_button_that_speaks_again_says_so(sized: Any, start: Any, size: tuple[int, int]) -> None:
    """"Repeat", between Redo and Dispute, read as "do the last move again" to a family that had just used Undo
    and Redo; it says the last announcement again, and now its word says that, whole at every size."""
    sized(size)
    app = start(Session.new("targi", ["white", "black"]))
    table = app.root.get_screen("table")
    tap(table.buttons()[0])
    app.voice.wait()
    steps = len(app.controller.session.log)
    for screen, again in (("table", table.ids.repeat), ("dispute", app.root.get_screen("dispute").ids.repeat)):
        app.show(screen)
        advance(3)
        assert again.text == "Say again"
        for word in again.text.split():  # each word whole on its line, the lines inside the button
            probe = CoreLabel(text=word, font_size=again.font_size, bold=True)
            probe.refresh()
            assert probe.texture.size[0] <= again.text_size[0], (screen, word, again.text_size)
        if again.shorten:  # kept to one line: the whole of it must fit, or it is drawn "Say ag..."
            probe = CoreLabel(text=again.text, font_size=again.font_size, bold=True)
            probe.refresh()
            assert probe.texture.size[0] <= again.text_size[0], (screen, again.text_size)
        assert again.texture_size[1] <= again.height
        _, bottom, _, top = window_box(again)
        assert round(top - bottom) >= 48 and again.font_size >= 16
        heard = len(app.spoken.lines)
        tap(again)
        app.voice.wait()
        assert len(app.spoken.lines) == heard + 1 and app.spoken.lines[-1] == app.spoken.lines[-2]
    assert len(app.controller.session.log) == steps  # no move was made again


def test_a_tap_on_a_raid_corner_names_where_things_happen_as_the_board_does(start: Any) -> None:
    """Tapped during the actions, a raid corner answered "what may be done now happens on slots":
    the board has border cards and centre cards, and no slot."""
    from tests.ui.test_board_targi import middle_of

    session = Session.new("targi", ["white", "black"])
    rng = random.Random(1)
    placed = [{"type": "none"}]
    while not placed or not all("slot" in a for a in placed):  # only centre cards to use: nothing on a border card
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
        placed = [a for a in session.legal() if "slot" in a or ("card" in a and isinstance(a["card"], int))]
    app = start(session)
    table = app.root.get_screen("table")
    widget = table.ids.board
    tap_at(widget, *middle_of(widget, 12))  # Third Raid: a corner, never a place to act
    said = table.ids.announcements.text.splitlines()[0]
    # Why the corner is closed, then where play goes now: "Black has no Targi on card 12 now" read as though
    # one might stand there.
    assert "Nothing may be done there now: Card 12 (" in said and "is a raid corner: no Targi may stand " \
        "there, so it is never used. What may be done now happens on " in said, said
    kinds = said.split("happens on ", 1)[1].split(", such as", 1)[0]
    assert "centre cards" in kinds and "slot" not in kinds, kinds
    assert said.rstrip().endswith("[TG-P4, TG-A3]"), said  # the corner's clause, then the centre cards' one


def test_say_again_with_the_voice_silent_says_why_nothing_is_heard(start: Any) -> None:
    """A tap on it with the voice Silent did nothing at all: no sound, no word, and the button looked broken."""
    app = start(Session.new("targi", ["white", "black"]))
    table = app.root.get_screen("table")
    tap(table.ids.repeat)  # nothing said yet: the question on the screen
    app.voice.wait()
    assert app.spoken.lines == [spoken_form(app.prompt)] and not table.ids.status.text  # said once
    tap(table.buttons()[0])
    app.voice.enabled = False
    heard = len(app.spoken.lines)
    tap(table.ids.repeat)
    app.voice.wait()
    assert len(app.spoken.lines) == heard
    assert table.ids.status.text.startswith("The voice is Silent (owner: Settings), so nothing is said")
    assert table.ids.status.height > 0 and table.ids.status.font_size >= 16
