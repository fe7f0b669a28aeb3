"""What a player sees at 800x480: nothing cut off, nothing stale, in the real offscreen window."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window

from companion.data import house_dir, read_json, validate_path
from companion.registry import game_classes
from companion.screen_font import NAME_LIMIT
from companion.session import Session
from tests.ui.conftest import advance, laid_out, tap, until
from tests.ui.test_app import button
from ui.shots import mid_game

pytestmark = pytest.mark.usefixtures("undrawn")  # sizes and places are measured, never the window's pixels

# The desert race's longest prompt: four lines in the prompt's width at 800x480.
LONGEST_PROMPT = (
    "Purple is Scared! on Sandstorm Wall: redeem the Mirage Cloak to ignore the penalty "
    "(lose 2 Lives and go back to Desert Dawn)?"
)


def window_box(widget: Any) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) of a widget in window coordinates."""
    x, y = widget.to_window(*widget.pos)
    return x, y, x + widget.width, y + widget.height


def text_height(label: Any) -> float:
    """How tall the label's whole text is, wrapped in the label's width at its font.

    A label whose ``text_size`` is its own size reports that size as its
    texture's, whatever its text needs; this renders the text afresh instead.
    """
    probe = CoreLabel(text=label.text, font_size=label.font_size, bold=label.bold, text_size=(label.width, None))
    probe.refresh()
    return float(probe.texture.size[1])


def shown_whole(widget: Any, scroll: Any) -> bool:
    """Whether a button inside a scrolling list is entirely inside the list's visible area."""
    left, bottom, right, top = window_box(widget)
    s_left, s_bottom, s_right, s_top = window_box(scroll)
    return s_left - 1 <= left and right <= s_right + 1 and s_bottom - 1 <= bottom and top <= s_top + 1


def rolls_under_full_announcements(start: Any) -> tuple[Any, list[Any]]:
    """Blackpool's table waiting for a roll, three announcements in: the table screen and its six roll buttons."""
    session = Session.new("blackpool", ["yellow", "red", "green"])
    for value in (2, 5, 1, 3):  # nothing can move on these: four announcements, Green to roll next
        session.act({"type": "roll", "value": value})
    app = start(session)
    table = app.root.get_screen("table")
    table.ids.announcements.text = "\n".join(["Yellow rolls 1. Nothing of Yellow's can move with a 1."] * 3)
    advance(4)
    rolls = [b for b in table.ids.choices.children if b.action.get("type") == "roll"]
    assert len(rolls) == 6
    return table, rolls


def test_all_six_rolls_show_without_scrolling_once_announcements_fill(start: Any) -> None:
    """A roll is the commonest tap. With three announcements in, "Oracle shows 5" and 6 were cut in half."""
    assert tuple(Window.size) == (800, 480)
    table, rolls = rolls_under_full_announcements(start)
    hidden = [b.text for b in rolls if not shown_whole(b, table.ids.choice_scroll)]
    assert not hidden, f"{hidden} need a scroll at 800x480"
    assert all(b.height >= 40 for b in rolls)


@pytest.mark.parametrize("where", ("800x480", "480x800 at 120%"))
@pytest.mark.parametrize("reading", ("unsure", "refused"))
def test_all_six_rolls_show_while_the_status_line_speaks(reading: str, where: str, start: Any, wide: None) -> None:
    """The status line over the choices (an unsure camera reading to confirm, a refusal of three lines) took the
    room of the third row: the roll the camera may have misread, 5 or 6, was half under the announcements just
    when a player had to correct it (upright at 120% only the first row showed whole). The announcements give
    the choices that room, keeping a line and a half."""
    from kivy.app import App

    from companion.observations import DieRead
    from tests.ui.test_display_scale import scaled

    if where != "800x480":
        Window.size = (480, 800)
    table, rolls = rolls_under_full_announcements(start)
    app = App.get_running_app()
    if where != "800x480":
        scaled(app, 120)
    if reading == "unsure":
        app.controller.submit(DieRead(1, "camera", 0.5))
    else:
        app.act({"type": "no such move"})
    assert until(lambda: app.status)  # a reading waits for the app's pump, in real time
    advance(6)
    assert app.status and table.ids.status.height > 20, "no status line to make room for"
    scroll = table.ids.choice_scroll
    hidden = [b.text for b in rolls if not shown_whole(b, scroll)]
    if where == "800x480":
        assert not hidden, f"{hidden} need a scroll at 800x480 under {app.status!r}"
    else:  # upright at 120% short of a row at most: the last row shows, an unsure reading's but for its foot
        assert hidden in ([], ["Oracle shows 6", "Oracle shows 5"]), f"{hidden} need a scroll under {app.status!r}"
        foot = window_box(scroll)[1] - min(window_box(b)[1] for b in rolls)
        # A refusal of three lines, the status line's most ("there is no 'no such move' action; the actions are
        # roll, move, bring out ('bring_out'), ..."), leaves the top fifth of the last row in sight; the bound was
        # 0.67 when that refusal took two lines there.
        assert foot <= rolls[0].height * (0.34 if reading == "unsure" else 0.82), f"{foot:.0f} px out of sight"
    box, label = table.ids.announcements_scroll, table.ids.announcements
    assert box.height >= 30 * table.u - 0.5, "the announcements are gone"
    assert label.height <= max(label.texture_size[1], box.height) + 1, "the newest line is under an empty band"


@pytest.mark.parametrize("where", ("800x480 at 120%", "1024x600 at 120%", "480x800 at 120%"))
def test_a_long_list_keeps_two_choices_in_view_under_a_refusal(where: str, start: Any, wide: None) -> None:
    """Targi's setup lists the tribe cards to enter (a page of 12). Under a refusal of three lines at 120% the
    announcements kept their 112 units (a list that scrolls anyway) and the list showed under one of its
    two-line buttons, cut through its second line: the announcements give way, down to a line and a half,
    until two rows of the list show (at 800x480 all but 3 px of them: the line and a half is kept)."""
    from kivy.app import App

    from tests.ui.test_display_scale import scaled

    Window.size = tuple(int(v) for v in where.split()[0].split("x"))
    app = start(Session.new("targi", ["white", "black"]))
    scaled(App.get_running_app(), 120)
    app.act({"type": "no such move"})
    advance(6)
    table = app.root.get_screen("table")
    choices = table.buttons()
    assert len(choices) > 8 and table.ids.status.height > 60, "not a long list under a three-line refusal"
    room = window_box(table.ids.choice_scroll)
    seen = [(min(room[3], window_box(b)[3]) - max(room[1], window_box(b)[1])) / b.height for b in choices]
    assert seen[0] > 0.99 and seen[1] > 0.9, f"{[round(part, 2) for part in seen[:3]]} of the first buttons show"
    assert table.ids.announcements_scroll.height >= 30 * table.u - 0.5, "the announcements are gone"


def two_choices(game_id: str, seed: int = 11) -> Session:
    """A seeded random game at its first position offering two choices (the desert race's attempt or stop)."""
    import random

    session = Session.new(game_id, ["black", "purple", "pink"])
    rng = random.Random(seed)
    while len(session.legal()) > 2:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


@pytest.mark.parametrize("size", ((800, 480), (480, 800)))
def test_the_announcements_take_the_room_two_choices_leave(size: tuple[int, int], start: Any, wide: None) -> None:
    """With two choices (a game's end, the desert's attempt or stop) the announcements scrolled their third line
    out of a 112-unit box under an empty band as tall again: they now take the room the choices leave."""
    Window.size = size
    app = start(two_choices("desert"))
    app.announcements = [{"text": "Purple moves 6 spaces forward to Secret Passage (37). " * 2, "rules": ["DR-1"]},
                         {"text": "Pink rolls 4. " * 3, "rules": ["DR-3"]}] * 2
    advance(6)
    table = app.root.get_screen("table")
    assert len(table.buttons()) == 2
    box, label = table.ids.announcements_scroll, table.ids.announcements
    empty = table.ids.choice_scroll.height - table.ids.choice_list.height
    assert label.height <= box.height + 1 or empty < 10, (
        f"the announcements scroll ({label.height:.0f} px in {box.height:.0f}) beside {empty:.0f} px left empty")
    assert not table_faults(table)


def table_faults(table: Any) -> list[str]:
    from tests.ui.test_portrait import faults

    return faults(table)


def test_the_desert_races_six_rolls_show_without_scrolling(start: Any) -> None:
    """Each roll names where it leads ("4: to Shifting Sands (4)"): in one column only three showed. With the
    space's number beside its name, "Rolled 4: move to Shifting Sands (4)" took one column again (a name and
    its number are a line of a half-width button; "Rolled 4: move to" a line more)."""
    session = Session.new("desert", ["black", "purple", "pink"])
    session.act({"type": "roll", "value": 6})  # the roll for the order of play: black starts
    for value in (2, 1):
        session.act({"type": "roll", "value": value})
    app = start(session)
    table = app.root.get_screen("table")
    advance(4)
    rolls = [b for b in table.ids.choices.children if b.action.get("type") == "roll"]
    assert len(rolls) == 6 and all(": to " in b.text for b in rolls)
    hidden = [b.text for b in rolls if not shown_whole(b, table.ids.choice_scroll)]
    assert not hidden, f"{hidden} need a scroll at 800x480"
    assert all(text_height(b) <= b.height for b in rolls), "a label is taller than its button"


def test_the_two_buttons_of_a_row_stand_as_tall_as_each_other(start: Any) -> None:
    """At 120% "2: to Merchant's Stall (2)" takes three lines beside "1: to Palm Spring (1)"'s two: the shorter
    button stood at the foot of its row, 31 px under its neighbour's top, and a pick of it scrolled into view cut
    the neighbour's first line ("2: to") off at the list's top."""
    from kivy.app import App

    from tests.ui.test_display_scale import scaled

    session = Session.new("desert", ["black", "purple", "pink"])
    session.act({"type": "roll", "value": 6})
    for value in (2, 1):
        session.act({"type": "roll", "value": value})
    app = start(session)
    scaled(App.get_running_app(), 120)
    table = app.root.get_screen("table")
    rolls = table.buttons()
    assert len(rolls) == 6 and table.ids.choices.cols == 2
    uneven = [(a.text, round(a.height), b.text, round(b.height)) for a, b in zip(rolls[::2], rolls[1::2], strict=True)
              if abs(window_box(a)[3] - window_box(b)[3]) > 0.5 or abs(a.height - b.height) > 0.5]
    assert not uneven, f"rows of buttons of two heights: {uneven}"
    assert all(text_height(b) <= b.height for b in rolls), "a label is taller than its button"


def test_every_face_of_the_temple_die_shows_without_scrolling(start: Any) -> None:
    """Fifteen full-width faces showed three at a time at 800x480; as a pad of two rows all show, and one tap rolls."""
    session = mid_game("temple")
    faces = [a for a in session.legal() if a["type"] == "roll"]
    assert len(faces) == 15
    app = start(session)
    table = app.root.get_screen("table")
    advance(4)
    pad = [b for b in table.buttons() if b.action.get("type") == "roll"]
    assert sorted(map(str, (b.action for b in pad))) == sorted(map(str, faces))
    hidden = [b.text for b in pad if not shown_whole(b, table.ids.choice_scroll)]
    assert not hidden, f"{hidden} need a scroll at 800x480"
    assert all(b.width >= 40 and b.height >= 40 for b in pad)
    red_five = next(b for b in pad if b.action["value"] == 5 and b.action["face"]["colour"] == "red")
    assert red_five.text == "5" and red_five.tint[0] > 0.5 > red_five.tint[1]  # the button is red
    white_three = next(a for a in session.legal() if a.get("value") == 3 and a["face"]["colour"] == "white")
    app.highlighted = white_three  # the button box's next lights a pad button like any other
    advance(2)
    assert [(b.text, b.action["face"]["colour"]) for b in table.buttons() if b.chosen] == [("3", "white")]
    app.highlighted = None
    before = len(session.log)
    tap(red_five)
    assert session.log[before:] == [{"type": "roll", "value": 5, "face": {"colour": "red"}}]


@pytest.fixture
def wide() -> Iterator[None]:
    """The 800x480 window the other tests expect, restored after a test on a 16:9 monitor's size."""
    yield
    Window.size = (800, 480)
    advance(3)


def lines_in(button: Any) -> list[str]:
    """The lines a choice's text takes in its button, as Kivy wraps it (bold, in the button's text width)."""
    probe = CoreLabel(text=button.text, font_size=button.font_size, bold=button.bold,
                      text_size=(button.text_size[0], None))  # fmt: skip
    probe.refresh()
    return ["".join(word.text for word in line.words).strip() for line in probe._cached_lines]


def lines_of(button: Any) -> int:
    """How many lines a choice's text takes in its button."""
    return len(lines_in(button))


def buttons_at_each_size(table: Any, window_size: Any, offered: list[str]) -> Iterator[tuple[tuple[int, int], list]]:
    """The table's choice buttons at 800x480 and then upright at 480x800, each time checked to be the choices
    ``offered``, in order: for the tests of a choice text that grew, that it still fits both ways round."""
    for size in ((800, 480), (480, 800)):
        window_size(size)
        buttons = table.buttons()
        assert [b.text for b in buttons] == offered, size
        yield size, buttons


def test_the_temples_card_plays_read_in_two_lines_on_a_16_9_monitor(start: Any, wide: None) -> None:
    """The wide panel of a 16:9 monitor took two columns, and each card play beside the die pad wrapped to four
    lines of three or four words ("Play the Ah Kinchil / card: Red 1 forward to / its Ah Kinchil marker /
    [13,13] (corner)"), the fourth under the list's edge; across the panel each reads in two lines. Short
    choices keep their two columns there."""
    session = mid_game("temple")
    plays = [a for a in session.legal() if a["type"] != "roll"]
    assert plays and all(len(a["text"]) > 70 for a in plays)
    app = start(session)
    table = app.root.get_screen("table")
    for size in ((1280, 720), (1920, 1080)):
        Window.size = size
        advance(4)
        listed = [b for b in table.buttons() if b.action.get("type") != "roll"]
        assert [b.action for b in listed] == plays
        assert table.ids.choices.cols == 1, size
        assert [lines_of(b) for b in listed] == [2] * len(plays), size
        assert all(b.width > table.ids.choices.width * 0.9 for b in listed), size
    app.controller.set_session(mid_game("ttd"))
    advance(4)
    assert table.ids.choices.cols == 2  # "Pink camel to (14,0)" and the like: half the panel each


def test_a_four_line_prompt_stays_on_screen(start: Any) -> None:
    """The longest prompt ran off the top of the window and under the buttons: its first and last words lost."""
    app = start(Session.new("desert", ["purple", "pink"]))
    table = app.root.get_screen("table")
    app.prompt = LONGEST_PROMPT
    advance(4)
    prompt = table.ids.prompt
    assert text_height(prompt) <= prompt.height + 1, "the prompt's text is taller than its box"
    _, bottom, _, top = window_box(prompt)
    assert top <= Window.height and bottom >= window_box(table.ids.choice_scroll)[3]
    assert prompt.font_size >= 17  # still read from a chair


def test_every_prompt_of_seeded_games_fits_its_box(start: Any) -> None:
    """The box is sized by the prompt's length (a texture-sized label held memory); every prompt must fit."""
    import random

    from companion.registry import create
    from companion.simulate import random_players

    app = start(Session.new("desert", ["purple", "pink"]))
    prompt = app.root.get_screen("table").ids.prompt
    seen: set[str] = {LONGEST_PROMPT}
    for game_id in ("blackpool", "desert", "ttd", "targi", "temple"):
        rng = random.Random(4)
        session = Session.new(game_id, random_players(create(game_id), rng))
        for _ in range(250):
            if session.pending().is_over:
                break
            seen.add(session.pending().text)
            session.act({k: v for k, v in rng.choice(session.legal()).items() if k != "text"})
    too_tall = []
    for text in sorted(seen):
        app.prompt = text
        laid_out()  # sized, not drawn: 240 prompts drawn took half the test's CPU
        if text_height(prompt) > prompt.height + 1:
            too_tall.append(text)
    assert not too_tall, too_tall


def test_the_dispute_heading_shows_the_whole_prompt(start: Any) -> None:
    """Cut in its middle, "Water hole 13 of 22 ... value of the token" hid which water hole the dispute is about."""
    session = Session.new("ttd", ["red", "black", "orange"])
    for _ in range(12):
        session.act({k: v for k, v in session.legal()[0].items() if k != "text"})
    app = start(session)
    assert "at (" in app.prompt and len(app.prompt) > 60
    tap(app.root.get_screen("table").ids.dispute)
    dispute = app.root.get_screen("dispute")
    heading = next(w for w in dispute.walk() if getattr(w, "text", "").startswith("Dispute"))
    assert app.prompt in heading.text
    assert not heading.shorten  # wrapped, never elided
    assert text_height(heading) <= heading.height + 1
    assert heading.font_size >= 17


def test_a_refused_new_game_is_not_left_on_the_table(start: Any) -> None:
    """"Targi needs 2 players, not 0" stayed in red under Through the Desert's prompt after Resume."""
    app = start(mid_game("ttd"))
    app.show("home")
    advance(3)
    home = app.root.get_screen("home")
    tap(button(home.ids.games, "Targi"))
    tap(home.ids.start)
    assert app.root.current == "home"
    shown = [w.text for w in home.walk() if "needs 2 players" in str(getattr(w, "text", ""))]
    assert shown, "the home screen says why no game started"
    tap(home.ids.resume)
    assert app.root.current == "table"
    table = app.root.get_screen("table")
    visible = [
        w.text for w in table.walk() if "needs 2 players" in str(getattr(w, "text", "")) and w.opacity and w.height
    ]
    assert not visible, visible


def test_a_game_for_exactly_two_says_two_players(start: Any) -> None:
    app = start()
    home = app.root.get_screen("home")
    tap(button(home.ids.games, "Targi"))
    assert home.ids.limits.text.startswith("2 players:"), home.ids.limits.text


def test_the_next_list_opens_at_its_top_after_a_pick_was_scrolled_into_view(start: Any) -> None:
    """The button box (or an unsure camera reading) scrolls its pick into view; a finger then takes it.

    The list of moves that followed opened scrolled to its bottom: "Bring
    Yellow 3" on top, Yellow 1 and 2 out of sight above it.
    """
    app = start(Session.new("blackpool", ["yellow", "red"]))
    table = app.root.get_screen("table")
    six = next(b for b in table.ids.choices.children if b.action.get("value") == 6)
    tap(six)  # scrolled into view first, then touched, as the pick the button box lit would be
    advance(3)
    moves = list(reversed(table.ids.choices.children))
    assert len(moves) == 5 and "Yellow 1" in moves[0].text
    assert shown_whole(moves[0], table.ids.choice_scroll), "the first move is out of sight"


def test_the_button_box_lighting_a_roll_in_a_list_that_fits_leaves_the_list_still(start: Any) -> None:
    """Kivy 2.3's ``scroll_to`` takes a whole scroll off a list shorter than its room: the button box's pick
    among Blackpool's six rolls sank the list 16 px to its foot, and the scroll effect crept it back up over the
    next second of wall clock, the rolls moving under a finger reaching for one."""
    app = start(Session.new("blackpool", ["yellow", "red"]))
    table = app.root.get_screen("table")
    advance(4)
    scroll, rolls = table.ids.choice_scroll, table.buttons()
    assert scroll.children[0].height < scroll.height, "Blackpool's six rolls no longer fit their list at 800x480"
    before = [edge for b in rolls for edge in window_box(b)]
    app.highlighted = rolls[-1].action
    for frame in range(3):
        advance(1)
        assert [b.chosen for b in rolls] == [False] * 5 + [True]
        assert [edge for b in rolls for edge in window_box(b)] == pytest.approx(before), f"moved at frame {frame}"


def test_a_choice_under_the_scroll_bar_is_taken_by_a_tap_on_its_edge(start: Any) -> None:
    """The temple's die pad over its card plays scrolls at 800x480: the bar lies over the 7s and the card
    plays' right ends, and a tap there moved the list (the bar taken for a handle) instead of rolling."""
    from kivy.tests.common import UnitTestTouch

    session = mid_game("temple")
    app = start(session)
    table = app.root.get_screen("table")
    advance(4)
    scroll = table.ids.choice_scroll
    assert scroll.children[0].height > scroll.height, "this position's list no longer scrolls at 800x480"
    seven = next(b for b in table.buttons() if b.text == "7" and b.action["face"]["colour"] == "white")
    assert seven.width >= 40
    x, y = seven.to_window(seven.right - 3, seven.center_y)  # the button's own edge, as a finger may take it
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    advance(1)
    touch.touch_up()
    advance(2)
    assert session.log[-1] == {"type": "roll", "value": 7, "face": {"colour": "white"}}


def test_a_cafe_name_at_the_validators_limit_keeps_its_button_within_three_lines(
    start: Any, wide: None, tmp_path: Path
) -> None:
    """A 219-character card name made its button taller than the list and cut its foot off; the validator now
    refuses names over ``NAME_LIMIT``. A name at the limit, in wide capitals, in Targi's longest kind of choice
    ("Use ... at centre 3-1") still reads whole in three lines at 800x480 and 480x800."""
    targi = game_classes()["targi"]
    goods = read_json(house_dir(targi) / "goods.json")
    name = ("WANDERING MOUNTAIN WELL OF MOMENTS WHEN WOMEN MOVE " * 2)[:NAME_LIMIT]
    # the card the halfway game offers to use: which one follows the seeded play, not this test
    offered = next(a["text"] for a in mid_game("targi").legal() if a["type"] == "use")
    used = re.match(r"Use (.+) at centre", offered)
    assert used, offered
    goods["cards"] = [{**card, "label": name} if card["label"] == used[1] else card for card in goods["cards"]]
    (tmp_path / "cafe" / "targi").mkdir(parents=True)
    (tmp_path / "cafe" / "targi" / "goods.json").write_text(json.dumps(goods), encoding="utf-8")
    assert validate_path(tmp_path / "cafe", game_classes()) == []
    app = start(mid_game("targi", cafe_dir=tmp_path / "cafe"))
    table = app.root.get_screen("table")
    for size in ((800, 480), (480, 800)):
        Window.size = size
        advance(4)
        (button,) = [b for b in table.buttons() if name in b.text]
        assert len(button.text) > NAME_LIMIT + 20, button.text
        assert lines_of(button) <= 3, size
        assert button.height <= table.ids.choice_scroll.height * 0.5, size
