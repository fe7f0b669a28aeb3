"""Moving between screens all day (a café kiosk) holds no more memory, textures or widgets than the first visit.

The offscreen window used by the tests never flushes Mesa's llvmpipe renderer: SDL's offscreen driver
swaps a pbuffer, which is a no-op, so each frame's drawing stays queued and resident memory climbs by
150-200 MB per 100 screen round trips (camera<->settings, settings<->pin, ...). Under Xvfb with the same
llvmpipe, with softpipe, or with a glFinish after each frame it stays flat: a real display (the Pi's kmsdrm)
flushes on every swap. So the frames here end with glFinish, as a real swap would, and what is left to
grow is the app's own.
"""

from __future__ import annotations

import gc
import json
import random
import re
import weakref
from pathlib import Path
from typing import Any

import pytest
from kivy.base import EventLoop
from kivy.graphics.opengl import glFinish
from kivy.graphics.texture import Texture, TextureRegion
from kivy.uix.scrollview import ScrollView

from companion.session import Session
from tests.ui.conftest import laid_out
from ui.boards import paint
from ui.shots import HELD, default_players, halfway, held_now, open_files, soak_lines

STATUS = Path("/proc/self/status")
PAIRS = [
    ("settings", "pin"),
    ("camera", "settings"),
    ("settings", "rulebook"),
    ("camera", "rulebook"),
    ("rulebook", "table"),
]


def frames(count: int) -> None:
    """Frames as a real display draws them: each one finished, as a swap on a real screen would."""
    for _ in range(count):
        EventLoop.idle()
        glFinish()


def round_trips(app: Any, first: str, second: str, count: int) -> None:
    for _ in range(count):
        app.show(first)
        frames(1)
        app.show(second)
        frames(1)


def resident_mb() -> float:
    for line in STATUS.read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def textures() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) in (Texture, TextureRegion))


def widgets(app: Any) -> int:
    return sum(len(list(screen.walk(restrict=True))) for screen in app.root.screens)


@pytest.mark.skipif(not STATUS.exists(), reason="reads resident memory from /proc")
@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_switching_screens_holds_no_more_memory(start: Any, first: str, second: str) -> None:
    app = start(Session.new("blackpool", ["yellow", "red"]))  # a game on the table: the rulebook is full
    round_trips(app, first, second, 5)  # first visits: fonts, label textures, the camera's picture
    before = resident_mb(), textures(), widgets(app)
    round_trips(app, first, second, 20)
    after = resident_mb(), textures(), widgets(app)
    # Textures left by earlier tests in this process may still be collected meanwhile: fewer is no leak.
    assert after[1] <= before[1] and after[2] == before[2], (
        f"textures and widgets {before[1:]} -> {after[1:]} after 20 round trips")
    # Unflushed (the offscreen artefact) this pair grew 20-40 MB in 20 round trips; the app itself grows ~0.
    assert after[0] - before[0] < 12, f"{first}<->{second}: {before[0]:.0f} -> {after[0]:.0f} MB in 20 round trips"


def test_rulebook_keeps_its_labels_between_visits(start: Any) -> None:
    """Each clause label renders a texture: remaking the 60 of a rulebook on every visit took 0.25 s here."""
    app = start(Session.new("blackpool", ["yellow", "red"]))
    screen = app.root.get_screen("rulebook")
    app.show("rulebook")
    frames(2)
    labels = list(screen.ids.clauses.children)
    assert len(labels) > 10
    for other in ("table", "settings", "home"):
        app.show(other)
        frames(1)
        app.show("rulebook")
        frames(1)
        assert screen.ids.clauses.children == labels  # the very same labels: nothing rendered again
    screen.ids.query.text = "oracle"  # other words: other clauses
    frames(1)
    found = list(screen.ids.clauses.children)
    assert 0 < len(found) < len(labels) and not set(found) & set(labels)
    assert screen.ids.count.text == f"{len(found)} clauses"
    screen.ids.query.text = ""
    frames(1)
    assert len(screen.ids.clauses.children) == len(labels)
    assert app.new_game("targi", ["white", "black"])  # another game: its own rulebook, not Blackpool's
    app.show("rulebook")
    frames(1)
    texts = [label.text for label in screen.ids.clauses.children]
    assert texts and not any("BP-" in text for text in texts)
    assert screen.ids.count.text == f"{len(texts)} clauses"


def test_a_day_of_steps_leaves_each_list_one_scroll_bar_binding(start: Any) -> None:
    """Kivy 2.3's ScrollView binds its bar colour again each time its content moves, and lets go of one binding
    when the bar fades: a step rebuilds the choices and the announcements in one frame, so each step left one
    binding more on the table's lists (about 600 a game, 120 kB: 2-3 MB a café day, never given back).
    """
    app = start(Session.new("blackpool", ["yellow", "red"]))
    rng = random.Random(5)
    lists = [w for screen in app.root.screens for w in screen.walk(restrict=True) if isinstance(w, ScrollView)]
    assert len(lists) >= 7
    for _ in range(40):
        session = app.controller.session
        if session.pending().is_over:
            assert app.new_game("blackpool", ["yellow", "red"])
            continue
        app.act(session.game.sim_choose(session.state, session.legal(), rng))
        laid_out()  # bindings are counted, not memory: the frame's clock and layouts, undrawn
    held = [len(scroll.get_property_observers("bar_color")) for scroll in lists]
    assert max(held) <= 1, f"bar colour bindings held by each list after 40 steps: {held}"


def test_games_one_after_another_keep_only_the_game_on_the_table(start: Any) -> None:
    """A kiosk's memory levels off after its first round of games (`ui bench --soak 40`: 220 MB after five,
    228 after forty; docs/ui.md, "A long day") because a game left for the next is let go whole: its session,
    states and the table's widgets. Counted, not measured: after five games, one session and one game's states
    are held, as after the first, and the widgets are the same."""
    gc.collect()
    # Other tests' seeded positions, kept once a process (functools.cache), are not this app's to let go.
    elsewhere: weakref.WeakSet[Session] = weakref.WeakSet(t for t in gc.get_objects() if type(t) is Session)
    app = start(Session.new("blackpool", ["yellow", "red"]))
    rng = random.Random(3)

    def play(steps: int) -> None:
        for _ in range(steps):
            session = app.controller.session
            if session.pending().is_over:
                return
            app.act(session.game.sim_choose(session.state, session.legal(), rng))
            laid_out()  # objects are counted, not memory: the frame's clock and layouts, undrawn

    def held() -> tuple[int, int, int]:
        gc.collect()
        kinds = [type(thing) for thing in gc.get_objects()]
        # A few extension types' __module__ is a descriptor, not a string: asked only of the types named State.
        states = sum(kind.__name__ == "State" and str(kind.__module__).endswith(".state") for kind in kinds)
        sessions = sum(type(thing) is Session and thing not in elsewhere for thing in gc.get_objects())
        return sessions, states, held_now()["widgets"]

    play(12)
    first = held()
    left: list[weakref.ref[Session]] = []
    for game, players in [("targi", ["white", "black"]), ("blackpool", ["yellow", "red"])] * 2:
        left.append(weakref.ref(app.controller.session))
        assert app.new_game(game, players)
        play(12)
    last = held()
    assert [ref() is None for ref in left] == [True] * 4, "a game left for the next is still held"
    assert last[0] == first[0] == 1, f"sessions held: {first[0]} after one game, {last[0]} after five"
    # Each game's states are those of its own log (and its undo): the last Blackpool game's, not five games'.
    assert last[1] == first[1], f"game states held: {first[1]} after one game, {last[1]} after five"
    # A position offers a few choice buttons more or fewer than another; a game's table kept would be hundreds.
    assert last[2] <= first[2] + 10, f"widgets: {first[2]} after one game, {last[2]} after five"


def test_the_soak_counts_what_a_kiosk_holds(start: Any) -> None:
    """`ui bench --soak` reports more than memory: the scroll bar bindings' leak showed only in the objects held."""
    app = start(Session.new("blackpool", ["yellow", "red"]))
    app.show("table")
    frames(3)
    held = held_now()
    assert set(held) == set(HELD)
    assert 20 < held["board_draws"] < 200  # the board's own draws, drawn as the table shows it
    assert held["widgets"] >= sum(len(list(screen.walk(restrict=True))) for screen in app.root.screens)
    assert held["objects"] > held["widgets"] > 0
    assert held["clock_events"] >= 2  # the app's own: its tick and its idle check
    assert held["threads"] >= 1
    if STATUS.exists():
        assert held["open_files"] > 0 and held["rss_mb"] > 0
        assert 0 < held["font_files"] <= 64  # the table's labels are drawn: Kivy holds their fonts open
        assert held["font_files"] + held["other_files"] == held["open_files"]


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="open files are counted in Linux's /proc")
def test_kivy_keeps_at_most_64_fonts_open_however_many_sizes_are_drawn() -> None:
    """The kiosk's open files rise over its first games (37, 51, 51, 55, 57, then 58-60 over 15 games): the
    fonts Kivy's SDL2 text opens, one per font and size, as the boards fit their texts. Kivy closes the oldest
    past 64, so they level off; a Kivy without that bound would leak a file for every new size all day."""
    from kivy.core.text import Label as CoreLabel

    files, fonts = open_files()
    for size in range(300, 400):  # sizes no screen uses: each one a font Kivy must open
        CoreLabel(text="A", font_size=size).get_extents("A")
    after_files, after_fonts = open_files()
    assert after_fonts <= 64, f"fonts open after 100 new sizes: {after_fonts} (before: {fonts})"
    assert after_files - after_fonts == files - fonts  # nothing but fonts was opened


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="open files are counted in Linux's /proc")
def test_boards_drawn_game_after_game_open_one_font_a_pixel_size(start: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kivy keys the fonts it holds open by the size as written, and renders whole pixels: board texts fitted
    at 16.2, 16.6 and 16.9 opened Roboto at 16 px three times. The desert race fits each item chip's text to
    its words, so every game brought new fractions: `ui bench --soak 40` held 50 fonts open after five games
    (26 sizes in whole pixels) and 61 after forty, nearing Kivy's 64, past which it closes and reopens them in
    turn. Counted, not timed: four desert races drawn every tenth step; after the first, a font more is opened
    only for a size in whole pixels the boards had not drawn (here 31, 33, 35, 39 fonts, now 24, 25, 25, 25)."""
    whole: set[tuple[bool, int]] = set()

    class Counted(paint.CoreLabel):  # type: ignore[misc, valid-type]
        def __init__(self, text: str = "", **options: Any) -> None:
            whole.add((bool(options.get("bold")), int(options["font_size"])))
            super().__init__(text, **options)

    monkeypatch.setattr(paint, "CoreLabel", Counted)
    app = start(Session.new("desert", default_players("desert")))
    app.show("table")
    frames(2)
    fonts, sizes = [], []
    for seed in (3, 5, 8, 13):
        assert app.new_game("desert", default_players("desert"))
        for step, action in enumerate(halfway("desert", seed)):
            app.act(action)
            if step % 10 == 0:
                laid_out()  # the board drawn at this position: its chips fitted to their words
        laid_out()
        fonts.append(open_files()[1])
        sizes.append(len(whole))
    assert fonts[-1] - fonts[0] <= sizes[-1] - sizes[0], (
        f"fonts open after each desert race: {fonts}, for {sizes} sizes in whole pixels drawn on the boards")

def test_the_soak_report_gives_each_counts_growth_a_game_once_every_game_was_played() -> None:
    report = {"games": ["ttd", "temple", "ttd", "temple", "ttd"], "steps": [100, 250, 380, 500, 610],
              "rss_mb": [200.0, 230.0, 231.0, 231.5, 232.0], "objects": [9000, 9500, 9600, 9700, 9800],
              "widgets": [900, 950, 950, 950, 950], "clock_events": [7, 6, 7, 6, 6],
              "open_files": [40, 76, 76, 76, 76], "font_files": [28, 64, 64, 64, 64],
              "other_files": [12, 12, 12, 12, 12], "threads": [7, 7, 7, 7, 7]}
    lines = soak_lines(report, 61.0)
    assert lines[0] == "soak: 5 games (610 steps) in 61 s, every game in turn"
    assert "memory (MB) after each game: 200 230 231 232 232" in lines
    assert lines[lines.index("Python objects after each game: 9000 9500 9600 9700 9800") + 1] == (
        "  after the first 2 games: 9500, then +100.00 a game")
    assert "widgets after each game: 900 950 950 950 950" in lines
    assert lines[lines.index("open files after each game: 40 76 76 76 76") + 1].endswith("then +0.00 a game")
    assert "open fonts (Kivy keeps 64 at most) after each game: 28 64 64 64 64" in lines
    assert lines[lines.index("open files but fonts after each game: 12 12 12 12 12") + 1] == (
        "  after the first 2 games: 12, then +0.00 a game")


def test_a_soak_stopped_by_ctrl_c_reports_the_games_played(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ui bench --soak` printed only "stopped" after a Ctrl-C: its one report came at the end. The real app is
    started and killed; its first game's line (as `play_games_after_first_screen` prints it) stands in for the
    minute a real first game takes."""
    import ui.shots
    from companion.cli import main

    real = ui.shots.soak_games
    first = json.dumps({"soak_game": {"game": "blackpool", "steps": 412, **{what: 7 for what in HELD}}})

    def first_game_then_ctrl_c(lines: Any) -> Any:
        yield from real(iter([first]))
        raise KeyboardInterrupt  # as soon as the first game is counted, not after the second is played

    monkeypatch.setattr(ui.shots, "soak_games", first_game_then_ctrl_c)
    assert main(["ui", "bench", "--soak", "5"]) == 130
    out = capsys.readouterr().out
    assert re.search(r"^soak: 1 of 5 games \(stopped by Ctrl-C\) \(412 steps\) in \d+ s", out), out
    assert "\nmemory (MB) after each game: 7\n" in out, out
