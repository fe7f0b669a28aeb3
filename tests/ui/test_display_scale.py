"""The owner's display scale: a small display of many pixels (a 5 inch 800x480) drawn larger, on every screen.

The layout unit is 1.0 at 800x480, made for the 7 inch display (about 130 px
an inch); a 5 inch display of as many pixels (about 190 px an inch) showed
every button and word a third smaller, and nothing could make them larger.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from kivy.app import App
from kivy.core.window import Window

from tests.ui import test_portrait
from tests.ui.conftest import advance, open_settings, settings_file, tap
from tests.ui.test_app import button
from tests.ui.test_home_settings_portrait import faults, seen
from tests.ui.test_layout import lines_in, rolls_under_full_announcements, shown_whole, window_box
from ui.settings import Settings
from ui.shots import mid_game

pytestmark = pytest.mark.usefixtures("undrawn")  # sizes and places are measured, never the window's pixels

window_size = test_portrait.window_size  # the fixture that resizes the window, and back to 800x480 after
GAMES = test_portrait.GAMES
SCALES = (100, 120)
SIZES = ((800, 480), (480, 800))  # the 5 inch display, as mounted and upright


@pytest.fixture(autouse=True)
def packaged_games_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The five packaged games, as a table has them: tests/core installs its test race for the whole process, and
    a worker that had run a core test first showed home six games (`cafe_games` adds a café's on purpose)."""
    from companion import registry

    monkeypatch.setattr(registry, "_installed", {})


CAFE_TITLES = ("Camel Cup (the café's copy)", "Test race 2", "Ticket to Ride Europe", "Azul", "Carcassonne and rivers")


def cafe_games(monkeypatch: pytest.MonkeyPatch, count: int) -> None:
    """``count`` games of a café's own beside the five packaged ones (`companion.registry.install`, as tests/core
    installs its test race), with titles as long as the desert race's."""
    from companion import registry
    from tests.core.race_game import Race

    made = [type(f"Race{i}", (Race,), {"id": f"race{i}", "title": title})() for i, title in enumerate(CAFE_TITLES)]
    monkeypatch.setattr(registry, "_installed", {game.id: game for game in made[:count]})


def scaled(app: Any, percent: int) -> None:
    """The app at ``percent``, as saved (leaving the settings screen puts back the saved scale)."""
    app.settings.display_scale = percent
    app.scale = percent / 100
    advance(8)


def marked_up(fault: str) -> bool:
    """A clause's height judged by a probe that renders its markup ("[b]...[/b]") as letters, a line too many."""
    return fault.startswith("'[b]") and " px of height, has " in fault


def sideways(screen: Any) -> list[str]:
    """Anything running past the window's left or right, in a list or not: the lists scroll up and down only, and
    ``faults`` judges what lies in one by its part in view, so a button pushed off the side was never seen."""
    return [f"{getattr(w, 'text', '') or type(w).__name__!r} {window_box(w)} runs off the side"
            for w in seen(screen) if window_box(w)[0] < -0.5 or window_box(w)[2] > Window.width + 0.5]


def lists(screen: Any, *names: str) -> tuple[Any, ...]:
    """The screen's lists that are meant to scroll (a café's many games, sixty actions, a rulebook)."""
    return tuple(screen.ids[name] for name in names)


def test_the_scale_is_set_on_the_settings_screen_tried_at_once_and_kept_by_save(
    launch: Any, tmp_path: Path
) -> None:
    """ui.json's display_scale sizes every screen from the start; + on the settings screen draws the app a
    tenth larger at once, Back without Save goes back, Save keeps it for the next start."""
    app = launch(Settings(display_scale=120))
    assert app.u == pytest.approx(1.2) and app.scale == pytest.approx(1.2)
    home = app.root.get_screen("home")
    app.show("home")
    advance(8)
    assert home.ids.start.height == pytest.approx(64 * 1.2) and home.ids.start.font_size == pytest.approx(22 * 1.2)
    screen = open_settings(app)
    assert screen.ids.scale.text == "Scale 120%" and screen.ids.larger.disabled  # 120 is the most
    tap(screen.ids.smaller)
    tap(screen.ids.smaller)
    assert app.u == pytest.approx(1.0) and screen.ids.save.height == pytest.approx(64)  # at once, this screen too
    assert screen.ids.smaller.disabled and "Save keeps it; Back goes back to 120%" in screen.ids.note.text
    tap(screen.ids.back)
    assert app.u == pytest.approx(1.2), "a scale tried and not saved stayed"
    screen = open_settings(app)
    tap(screen.ids.smaller)
    tap(screen.ids.save)
    assert json.loads(settings_file(tmp_path).read_text())["display_scale"] == 110
    tap(screen.ids.back)
    assert app.u == pytest.approx(1.1)


def test_a_scale_out_of_range_in_ui_json_is_named_and_100_used(launch: Any) -> None:
    app = launch('{"display_scale": 300}')
    assert app.scale == 1.0 and "display_scale" in app.settings.note


def desert_colours_picked(start: Any, window_size: Any, size: tuple[int, int], percent: int) -> tuple[Any, Any]:
    """The app in a ``size`` window at ``percent``, on home with the desert race picked and three of its six
    colours (Black, Purple, Pink): the app and the home screen."""
    window_size(size)
    app = start(mid_game("desert"), kiosk=True)
    scaled(app, percent)
    app.show("home")
    advance(8)
    home = app.root.get_screen("home")
    tap(button(home.ids.games, "Desert lap race (Secret Passage)"))
    for colour in ("Black", "Purple", "Pink"):
        tap(button(home.ids.colours, colour))
    return app, home


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "480x800"])
@pytest.mark.parametrize("percent", SCALES)
def test_home_settings_camera_pin_and_attract_fit_at_each_scale(
    size: tuple[int, int], percent: int, start: Any, window_size: Any
) -> None:
    """Home with the desert race's colours picked (three of six), settings, the camera, the PIN pad and the
    attract screen: nothing off the window or over another thing, no text cut, nothing under a finger's size."""
    app, home = desert_colours_picked(start, window_size, size, percent)
    found = []
    found += [f"home: {f}" for f in faults(home) + sideways(home)]  # the five house games all in view
    for name, scrolling in (("settings", ("scroll",)), ("camera", ("note_scroll",)), ("attract", ()), ("pin", ())):
        app.show(name)
        advance(8)
        assert app.root.current == name, f"{name} did not open"
        screen = app.root.get_screen(name)
        found += [f"{name}: {f}" for f in faults(screen, lists(screen, *scrolling)) + sideways(screen)]
    assert not found, f"at {size} {percent}%:\n" + "\n".join(found)


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "480x800"])
@pytest.mark.parametrize("percent", SCALES)
def test_the_note_asking_to_tap_start_again_shows_whole_over_six_colours(
    size: tuple[int, int], percent: int, start: Any, window_size: Any
) -> None:
    """Six players tapped with a game in play: Start asks first, in the note under the turn order. At 120% the
    colours' rows left it one line at 800x480 and half of one upright ("Desert lap race (Secret Passage) on the
    table is not"): the words saying to tap Start again, or Resume, were cut off. The colours give it room."""
    _app, home = desert_colours_picked(start, window_size, size, percent)
    for colour in ("Brown", "Grey", "Teal"):
        tap(button(home.ids.colours, colour))
    tap(home.ids.start)
    advance(4)
    assert "tap Start again" in home.ids.note.text, "Start no longer asks first"
    found = faults(home) + sideways(home)
    assert not found, f"at {size} {percent}%:\n" + "\n".join(found)
    home.ids.note.text = ""  # asked and answered: the colours take back their room
    advance(4)
    assert min(b.height for b in home.ids.colours.children) == pytest.approx(60 * home.u if not home.portrait
                                                                             else 56 * home.u)


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "480x800"])
@pytest.mark.parametrize("percent", SCALES)
def test_list_all_stands_in_its_row_under_a_refusal(
    size: tuple[int, int], percent: int, start: Any, window_size: Any
) -> None:
    """Through the Desert's map with its hint ("25 choices at 24 marked hexes") and List all, under a refusal in
    the status line: List all, 64 units high in a row of 52, stood 12 units over its row, over the refusal's
    foot (8 px at 120% at 800x480)."""
    window_size(size)
    app = start(mid_game("ttd"))
    scaled(app, percent)
    table = app.root.get_screen("table")
    app.status = "Not there: (3,4) is not next to any of Red's pink camels. [TTD-3a]"
    advance(4)
    assert table.can_list_all and table.hint, "no longer a map with List all"
    row, button, status = (window_box(table.ids[name]) for name in ("narrowing", "list_all", "status"))
    assert row[1] - 0.5 <= button[1] and button[3] <= row[3] + 0.5, f"List all {button} out of its row {row}"
    assert button[3] <= status[1] + 0.5, f"List all {button} over the status line {status}"
    assert button[3] - button[1] >= 48, "List all under a finger's height"
    assert not test_portrait.faults(table)


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "480x800"])
@pytest.mark.parametrize("percent", SCALES)
def test_a_list_of_actions_is_in_one_size_on_the_table_and_the_dispute_screen(
    size: tuple[int, int], percent: int, start: Any, window_size: Any
) -> None:
    """Targi halfway: "Use Salt Block (G02) at centre 2-2" (a long label, the smaller size) stood beside "Finish
    my actions this round" a size larger, on the table and on the dispute screen. A list (a page of the
    dispute's) with a long label takes its size."""
    window_size(size)
    app = start(mid_game("targi"))
    scaled(app, percent)
    choices = {b.text: b.font_size for b in app.root.get_screen("table").buttons()}
    assert "Finish my actions this round" in choices and len(choices) > 1, choices
    assert len(set(choices.values())) == 1, choices
    app.show("dispute")
    advance(4)
    offered = app.root.get_screen("dispute").ids.offered.children
    labels = {b.text: b.font_size for b in offered}
    assert "Finish my actions this round" in labels and len(labels) > 1, labels
    assert len(set(labels.values())) == 1, labels


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "480x800"])
@pytest.mark.parametrize("percent", SCALES)
def test_twelve_digits_typed_on_the_pin_pad_stay_in_their_column(
    size: tuple[int, int], percent: int, start: Any, window_size: Any
) -> None:
    """The pad takes twelve digits: at 120% at 800x480 their stars (252 px in a column of 218) ran off the
    window's left edge and under the keypad's first column. They take a smaller size where the column needs it."""
    from tests.ui.test_other_screens_portrait import open_pin

    window_size(size)
    screen = open_pin(start)
    scaled(App.get_running_app(), percent)
    for key in "123456789012":
        tap(button(screen.ids.keypad, key))
    advance(3)
    assert screen.ids.dots.text == "*" * 12
    found = faults(screen) + sideways(screen)
    assert not found, f"at {size} {percent}%:\n" + "\n".join(found)


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "480x800"])
@pytest.mark.parametrize("percent", SCALES)
@pytest.mark.parametrize("game_id", GAMES)
def test_the_table_dispute_and_rules_of_each_game_fit_at_each_scale(
    size: tuple[int, int], percent: int, game_id: str, start: Any, window_size: Any
) -> None:
    """Each game's table mid-game, its dispute screen with a ruling and its rulebook: nothing off the window or
    overlapping, no text cut (lists meant to scroll judged by the part in view)."""
    window_size(size)
    app = start(mid_game(game_id))
    scaled(app, percent)
    table = app.root.get_screen("table")
    found = [f"table: {f}" for f in test_portrait.faults(table)]
    found += [f"table: {b.text!r} is shortened" for b in table.ids.undo.parent.children if b.is_shortened]
    app.show("dispute")
    advance(8)
    if app.choices:
        app.check(app.choices[0])
        advance(3)
    dispute = app.root.get_screen("dispute")
    wrong = faults(dispute, lists(dispute, "offered_scroll", "ruling_scroll")) + sideways(dispute)
    found += [f"dispute: {f}" for f in wrong]
    app.show("rulebook")
    advance(8)
    rulebook = app.root.get_screen("rulebook")
    wrong = faults(rulebook, lists(rulebook, "scroll")) + sideways(rulebook)
    found += [f"rulebook: {f}" for f in wrong if not marked_up(f)]
    assert not found, f"{game_id} at {size} {percent}%:\n" + "\n".join(found)


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "480x800"])
@pytest.mark.parametrize("percent", SCALES)
def test_the_rules_button_names_a_rulings_two_widest_clauses_whole(
    size: tuple[int, int], percent: int, start: Any, window_size: Any
) -> None:
    """A ruling citing two clauses names both on its Rules button. In landscape the button shares the bottom row
    with Back and Say again: at 120% at 800x480 "Rules: TTD-1c, TD-Q23" and "Rules: TG-B3, TG-DRAW" read
    "Rules: TTD-1c, TD-Q..." (a water hole's value checked, a tribe card drawn). Each game's two widest ids."""
    from ui.boards.paint import measure
    from ui.screens.dispute import rules_label

    window_size(size)
    app = start(mid_game("ttd"))
    scaled(app, percent)
    app.show("dispute")
    advance(4)
    dispute = app.root.get_screen("dispute")
    rules = dispute.ids.rules
    found = []
    for game_id in GAMES:
        ids = [c.id for c in mid_game(game_id).game.rulebook.clauses]
        widest = sorted(ids, key=lambda i: measure(i, rules.font_size, True)[0])[-2:]
        rules.text = rules_label({"rules": widest})
        advance(2)
        found += [f"{game_id}: {f}" for f in faults(dispute, lists(dispute, "offered_scroll", "ruling_scroll"))
                  if rules.text in f]
    assert not found, f"at {size} {percent}%:\n" + "\n".join(found)


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "480x800"])
@pytest.mark.parametrize("percent", SCALES)
def test_all_six_rolls_show_without_scrolling_at_each_scale(
    size: tuple[int, int], percent: int, start: Any, window_size: Any
) -> None:
    """A roll is the commonest tap: at 120% the announcements' usual room left the third row of Blackpool's
    rolls to be dragged into view at 800x480; they now give up what the rolls need, keeping a line and a half."""
    window_size(size)
    table, rolls = rolls_under_full_announcements(start)
    scaled(App.get_running_app(), percent)
    hidden = [b.text for b in rolls if not shown_whole(b, table.ids.choice_scroll)]
    assert not hidden, f"{hidden} need a scroll at {size[0]}x{size[1]}, {percent}%"
    assert not test_portrait.faults(table)
    assert table.ids.announcements_scroll.height >= 30 * table.u - 0.5, "the announcements are gone"


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "480x800"])
@pytest.mark.parametrize("percent", SCALES)
def test_a_map_to_tap_keeps_the_column_on_the_window_under_three_announcements(
    size: tuple[int, int], percent: int, start: Any, window_size: Any
) -> None:
    """Through the Desert's camels go on the map: no buttons, so the announcements take up to 200 units under the
    prompt and its hint. At 120% at 800x480 that ran the column 12 px over the window's top (the prompt's first
    line at the window's edge) once three announcements had come in; they take what the column has left."""
    window_size(size)
    app = start(mid_game("ttd"))
    scaled(app, percent)
    table = app.root.get_screen("table")
    assert not table.has_buttons and table.hint, "no longer a map to tap"
    table.ids.announcements.text = "\n".join(
        ["Orange places a pink camel on (4,1). Orange's pink caravan reaches the oasis at (5,1): 5 points. "
         "[TTD-3, TTD-3a, TTD-3e, TD-Q14]"] * 3)
    advance(4)
    assert not test_portrait.faults(table), f"{size} {percent}%"
    assert table.ids.announcements_scroll.height >= 30 * table.u - 0.5, "the announcements are gone"


@pytest.mark.parametrize("size", ((800, 480), (1024, 600), (480, 800)), ids=["800x480", "1024x600", "480x800"])
@pytest.mark.parametrize("percent", (100, 110, 120))
@pytest.mark.parametrize("extra", (1, 2))
def test_a_cafes_sixth_and_seventh_game_show_on_home_without_a_scroll(
    extra: int, percent: int, size: tuple[int, int], start: Any, window_size: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A café that installs a game or two of its own: at 120% at 800x480 the sixth lay half under the games'
    list's foot, over Start's row, and the seventh out of sight until someone scrolled. The column wraps into
    two when one cannot hold them all at a finger's 48 px; upright the rows share the list's room."""
    from ui.screens.home import FINGER

    cafe_games(monkeypatch, extra)
    _, home = desert_colours_picked(start, window_size, size, percent)
    found = faults(home) + sideways(home)  # the games' list not among those meant to scroll: every game in view
    found += [f"{b.text!r} is {b.height:.0f} px high" for b in home.ids.games.children if b.height < FINGER - 0.5]
    assert len(home.ids.games.children) == 5 + extra
    assert not found, f"{5 + extra} games at {size} {percent}%:\n" + "\n".join(found)


def test_a_game_scrolled_into_view_in_a_list_that_fits_leaves_the_list_where_it_lies(
    start: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A list that fits needs no scroll to bring a game into view (``tap`` scrolls to what it taps, as a player
    would). Kivy 2.3 dropped home's seven games to the list's foot, and its scroll effect sprang them back to the
    top on the wall clock: measured in that second, under a busy full suite, the top row stood 1.5 px over the
    list's top at 800x480 (`test_a_cafes_sixth_and_seventh_game_show_on_home_without_a_scroll`)."""
    cafe_games(monkeypatch, 2)
    app = start(mid_game("desert"), kiosk=True)
    app.show("home")
    advance(8)
    home = app.root.get_screen("home")
    scroll, games = home.ids.game_scroll, home.ids.games.children
    assert home.ids.games.height < scroll.height, "seven games no longer fit home's list at 800x480"
    before = [edge for b in games for edge in window_box(b)]
    scroll.scroll_to(button(home.ids.games, "Desert lap race (Secret Passage)"), padding=0, animate=False)
    assert scroll.scroll_y == 1
    advance(2)
    assert [edge for b in games for edge in window_box(b)] == pytest.approx(before)


def test_ten_games_on_home_scroll_and_each_is_picked_by_a_tap(
    start: Any, window_size: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More games than two columns hold at 48 px (upright at 120%, where the list has 45% of the room): the list
    scrolls (the rest of home stays put), and each game is scrolled to and picked like any other."""
    cafe_games(monkeypatch, 5)
    window_size((480, 800))
    app = start(mid_game("desert"), kiosk=True)
    scaled(app, 120)
    app.show("home")
    advance(8)
    home = app.root.get_screen("home")
    for title in CAFE_TITLES:
        tap(button(home.ids.games, title))
        assert home.ids.limits.text.startswith("2-3 players"), title
        assert not faults(home, lists(home, "game_scroll")) + sideways(home), title
    assert home.ids.games.height > home.ids.game_scroll.height, "no scroll: make the list longer"


def uneven_choices(table: Any) -> list[str]:
    """A row of the table's choices whose labels take different counts of lines, a word alone on a line of a
    label of several, a label under 16 px, or a choice that needs a scroll."""
    grid = table.ids.choices
    buttons = list(reversed(grid.children))
    lines = [lines_in(b) for b in buttons]
    found = []
    for k in range(0, len(buttons), grid.cols):
        counts = [len(each) for each in lines[k : k + grid.cols]]
        if len(set(counts)) > 1:
            found.append(f"{[b.text for b in buttons[k : k + grid.cols]]} take {counts} lines")
    found += [f"{b.text!r} leaves {line!r} alone on a line ({each})" for b, each in zip(buttons, lines, strict=True)
              for line in each if len(each) > 1 and len(line.split()) == 1]  # fmt: skip
    found += [f"{b.text!r} is {b.font_size:.1f} px" for b in buttons if b.font_size < test_portrait.READABLE]
    return found + [f"{b.text!r} needs a scroll" for b in buttons if not shown_whole(b, table.ids.choice_scroll)]


@pytest.mark.parametrize("size", ((800, 480), (480, 800), (720, 1280)), ids=["800x480", "480x800", "720x1280"])
@pytest.mark.parametrize("percent", SCALES)
@pytest.mark.parametrize("game_id", ("desert", "targi"))
def test_a_rows_choices_wrap_evenly_at_each_scale(
    game_id: str, percent: int, size: tuple[int, int], start: Any, window_size: Any
) -> None:
    """At 120% at 800x480 the desert race's rolls wrapped "3: to / Sandstorm / Wall (16)" beside "4: to Mirage /
    Pool (17)", three lines beside two, and the third row needed a scroll; upright "6: to Pyramid's Base / (19)".
    Targi's two choices were three lines each, "round" alone under "Finish my actions this"."""
    window_size(size)
    app = start(mid_game(game_id))
    scaled(app, percent)
    table = app.root.get_screen("table")
    found = uneven_choices(table) + test_portrait.faults(table)
    assert not found, f"{game_id} at {size[0]}x{size[1]}, {percent}%:\n" + "\n".join(found)


@pytest.mark.parametrize("size", ((480, 800), (720, 1280), (800, 480)), ids=["480x800", "720x1280", "800x480"])
@pytest.mark.parametrize("game_id", ("desert", "targi"))
def test_the_newest_announcement_shows_whole_at_the_top_of_its_box_at_120_percent(
    game_id: str, size: tuple[int, int], start: Any, window_size: Any
) -> None:
    """Upright at 120% the announcements' box gives the choices its room, but its label kept 100 units: the text
    stood in the middle of a label taller than the box, and at 480x800 the newest line was cut in half by the
    box's foot ("Announcements will appear here, with their rule" and nothing under it)."""
    from ui.boards.paint import measure

    window_size(size)
    app = start(mid_game(game_id))
    scaled(app, 120)
    table = app.root.get_screen("table")
    label, box = table.ids.announcements, table.ids.announcements_scroll
    for text in (label.text, "Black rolls 4: to Twin Dunes (11).  [DR-3]"):
        label.text = text
        advance(4)
        _, cy = label.to_window(label.center_x, label.center_y)
        top = cy + label.texture_size[1] / 2
        first = top - measure("Ag", label.font_size)[1]
        _, bottom, _, ceiling = window_box(box)
        assert bottom - 1 <= first and top <= ceiling + 1, (
            f"{text!r}: its first line spans {first:.0f}-{top:.0f}, the box {bottom:.0f}-{ceiling:.0f}"
        )
