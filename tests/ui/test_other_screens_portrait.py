"""The dispute, rulebook, PIN and attract screens on a display mounted upright: readable, finger-sized (and in
landscape, their lists clear of their scroll bars).

In their landscape arrangement a 480x800 window gave them app.u 0.6 (the
width over 800): the rules in 11 px text, the dispute's offered actions 36 px
high in a column 200 px wide beside a narrow ruling, the PIN's message and
Cancel in a column 130 px wide beside a keypad 330 px wide, the attract
screen's button 38 px high and its words small.

Each test opens the screen on the same display in landscape (1280x800 for
800x1280) and turns it, so the words read upright can be held to the size
they had there.
"""

from __future__ import annotations

from typing import Any

import pytest
from kivy.core.window import Window
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from companion.session import Session
from tests.ui import test_portrait
from tests.ui.conftest import PIN, advance, tap
from tests.ui.test_app import button
from tests.ui.test_home_settings_portrait import faults, layout, seen
from tests.ui.test_layout import shown_whole, window_box
from tests.ui.test_portrait import PORTRAIT
from ui.shots import default_players, long_list, mid_game

pytestmark = pytest.mark.usefixtures("undrawn")  # sizes and places are measured, never the window's pixels

window_size = test_portrait.window_size  # the fixture that turns the window, and back to 800x480 after
READABLE = 16  # px: the smallest text upright (the landscape arrangement gave the rules 11 px at 480x800)


def turned(size: tuple[int, int]) -> tuple[int, int]:
    """The same display in landscape."""
    return size[1], size[0]


def small_texts(screen: Any) -> list[str]:
    """Texts a person would peer at."""
    return [f"{w.text[:40]!r} is {w.font_size:.1f} px" for w in seen(screen)
            if isinstance(w, Label) and w.font_size < READABLE]


def shrunk(upright: dict[str, float], landscape: dict[str, float]) -> list[str]:
    """Texts smaller upright than on the same display in landscape."""
    return [f"{name} is {upright[name]:.1f} px upright, {landscape[name]:.1f} in landscape"
            for name in landscape if upright[name] < landscape[name] - 0.01]


def open_dispute(start: Any, session: Session) -> Any:
    """The dispute screen with the first offered action checked: a ruling with its clauses in full."""
    app = start(session)
    app.show("dispute")
    advance(3)
    app.check(app.choices[0])
    advance(3)
    return app.root.get_screen("dispute")


def dispute_fonts(screen: Any) -> dict[str, float]:
    return {"ruling": screen.ids.ruling.font_size, "action": screen.ids.offered.children[-1].font_size}


@pytest.mark.parametrize("size", PORTRAIT)
def test_the_dispute_screen_puts_the_ruling_under_the_offered_actions_on_a_portrait_screen(
    size: tuple[int, int], start: Any, window_size: Any
) -> None:
    """Through the Desert's camel placements (more than fit: they scroll) in two columns across the width,
    the ruling with two clauses in full under them, the typed action and the buttons at the foot."""
    window_size(turned(size))
    screen = open_dispute(start, mid_game("ttd"))
    landscape = dispute_fonts(screen)
    window_size(size)
    assert screen.portrait, f"{size} is not taken as portrait"
    offered, ruling = screen.ids.offered_scroll, screen.ids.ruling_scroll
    found = faults(screen, scrolling=(offered, ruling)) + small_texts(screen)
    found += shrunk(dispute_fonts(screen), landscape)
    assert not found, f"at {size[0]}x{size[1]}:\n" + "\n".join(found)

    assert screen.ids.offered.height > offered.height, "Through the Desert's placements should need a scroll"
    assert "TTD-3a" in screen.ids.ruling.text
    assert shown_whole(screen.ids.ruling, ruling), "two clauses need a scroll under the actions"
    for area in (offered, ruling):
        assert area.width >= Window.width * 0.9, f"{area.width:.0f} px wide in a {Window.width} px window"
    assert window_box(offered)[1] >= window_box(ruling)[3] - 0.5, "the ruling is not under the actions"
    assert window_box(ruling)[1] >= window_box(screen.ids.typed)[3] - 0.5
    columns = {round(window_box(b)[0]) for b in screen.ids.offered.children}
    assert len(columns) == 2, f"the actions stand in {len(columns)} columns"

    pick = screen.ids.offered.children[-4]  # a second-row action, as a referee taps it
    tap(pick)
    assert screen.typed_action()["type"] == "camel" and "ALLOWED" in screen.ids.ruling.text


def test_a_long_dispute_list_pages_and_scrolls_on_a_portrait_screen(start: Any, window_size: Any) -> None:
    """Hundreds of leader placements: a page of sixty that scrolls, Next page under it, all in reach."""
    window_size((480, 800))
    screen = open_dispute(start, long_list("ttd", default_players("ttd")))
    offered = screen.ids.offered_scroll
    assert screen.page_text.startswith("Next page (1 of")
    found = faults(screen, scrolling=(offered, screen.ids.ruling_scroll)) + small_texts(screen)
    assert not found, "\n".join(found)
    assert window_box(screen.ids.next_page)[1] >= window_box(screen.ids.ruling_scroll)[3] - 0.5
    tap(screen.ids.next_page)
    assert screen.page_text.startswith("Next page (2 of")
    last = screen.ids.offered.children[0]
    tap(last)  # the page's last, scrolled to as a finger would
    assert screen.typed_action()["type"] == "leader" and "ALLOWED" in screen.ids.ruling.text
    assert not faults(screen, scrolling=(offered, screen.ids.ruling_scroll))


def shown(start: Any, game: str, name: str) -> Any:
    """Screen ``name`` shown over ``game`` in play."""
    app = start(mid_game(game))
    app.show(name)
    advance(4)
    return app.root.get_screen(name)


def open_rulebook(start: Any) -> Any:
    """Targi's rulebook (64 clauses, the longest)."""
    return shown(start, "targi", "rulebook")


def clause_font(screen: Any) -> dict[str, float]:
    return {"clause": screen.ids.clauses.children[-1].font_size}


@pytest.mark.parametrize("size", PORTRAIT)
def test_the_rules_read_across_a_portrait_screen(size: tuple[int, int], start: Any, window_size: Any) -> None:
    """The clauses across the full width at 16 px or more (19 at 480x800), each whole in its label; the
    search field beside its count, the count never cut, even "No clause matches."."""
    window_size(turned(size))
    screen = open_rulebook(start)
    landscape = clause_font(screen)
    window_size(size)
    assert screen.portrait, f"{size} is not taken as portrait"
    scroll = screen.ids.scroll
    found = faults(screen, scrolling=(scroll,)) + small_texts(screen) + shrunk(clause_font(screen), landscape)
    assert not found, f"at {size[0]}x{size[1]}:\n" + "\n".join(found)
    assert len(screen.ids.clauses.children) == 64
    assert all(label.font_size >= 19 for label in screen.ids.clauses.children)
    assert scroll.width >= Window.width * 0.9
    right = max(window_box(label)[2] for label in screen.ids.clauses.children)
    assert right <= window_box(scroll)[2] - scroll.bar_width, "the text runs under the scroll bar"

    # A question typed whole: its count reads "35 closest clauses", the longest a search makes.
    for words in ("zzzz", "robber", "how many goods can I keep at the end of a round"):
        screen.ids.query.text = words
        advance(3)
        found = faults(screen, scrolling=(scroll,))
        assert not found, f"searching {words!r} at {size[0]}x{size[1]}:\n" + "\n".join(found)
    assert 0 < len(screen.ids.clauses.children) < 64 and "clauses" in screen.ids.count.text


@pytest.mark.parametrize("which", ["rulebook", "dispute"])
def test_in_landscape_the_rules_and_offered_actions_stay_clear_of_their_scroll_bars(
    which: str, start: Any, window_size: Any
) -> None:
    """At 800x480 the rules' lines and the dispute's offered actions ran to the scroll view's edge, under its
    bar: the end of a line or a button's rim was drawn over (kept so in session 46 to leave landscape as it was)."""
    window_size((800, 480))
    if which == "rulebook":
        screen = open_rulebook(start)
        scroll, items = screen.ids.scroll, screen.ids.clauses.children
    else:
        screen = open_dispute(start, mid_game("ttd"))
        scroll, items = screen.ids.offered_scroll, screen.ids.offered.children
    assert not screen.portrait and items
    right = max(window_box(item)[2] for item in items)
    assert right <= window_box(scroll)[2] - scroll.bar_width, f"{which}: runs under the scroll bar"


def open_pin(start: Any) -> Any:
    """The PIN pad as a kiosk asks for it before settings."""
    app = start(Session.new("blackpool", ["yellow", "red"]), kiosk=True)
    app.request("settings")
    advance(3)
    assert app.root.current == "pin"
    return app.root.get_screen("pin")


def pin_fonts(screen: Any) -> dict[str, float]:
    return {"message": screen.ids.message.font_size, "key": screen.ids.keypad.children[0].font_size,
            "digits": screen.ids.dots.font_size}


@pytest.mark.parametrize("size", PORTRAIT)
def test_the_pin_pad_stands_under_the_digits_on_a_portrait_screen(
    size: tuple[int, int], start: Any, window_size: Any
) -> None:
    """The message and the digits across the top, the keypad across the full width under them, Cancel at
    the foot; a wrong PIN's message and twelve digits entered stay whole, and the right PIN opens settings."""
    window_size(turned(size))
    screen = open_pin(start)
    landscape = pin_fonts(screen)
    window_size(size)
    assert screen.portrait, f"{size} is not taken as portrait"
    keypad = screen.ids.keypad
    for key in "1111":
        tap(button(keypad, key))
    tap(button(keypad, "OK"))
    assert "Wrong" in screen.message
    for key in "123456789012":
        tap(button(keypad, key))
    assert screen.ids.dots.text == "*" * 12
    found = faults(screen) + small_texts(screen) + shrunk(pin_fonts(screen), landscape)
    assert not found, f"at {size[0]}x{size[1]}:\n" + "\n".join(found)

    message, dots, cancel = (window_box(screen.ids[name]) for name in ("message", "dots", "cancel"))
    assert message[1] >= dots[3] - 0.5 and dots[1] >= window_box(keypad)[3] - 0.5, "the keypad is over the digits"
    assert window_box(keypad)[1] >= cancel[3] - 0.5, "Cancel is not at the foot"
    assert keypad.width >= Window.width * 0.9, f"the keypad is {keypad.width:.0f} px wide in {Window.width}"
    assert keypad.height >= Window.height * 0.5, "the keypad leaves room unused"

    tap(button(keypad, "Clear"))
    for key in PIN:
        tap(button(keypad, key))
    tap(button(keypad, "OK"))
    assert screen.manager.current == "settings"


def open_attract(start: Any) -> Any:
    """The attract screen over the desert race: its longest prompt on two lines or more."""
    return shown(start, "desert", "attract")


def attract_fonts(screen: Any) -> dict[str, float]:
    return {name: screen.ids[name].font_size for name in ("status", "touch", "new_game")}


@pytest.mark.parametrize("size", PORTRAIT)
def test_the_attract_screen_is_sized_for_a_portrait_screen(size: tuple[int, int], start: Any, window_size: Any) -> None:
    """Its words as large as on the same display in landscape, the title whole, the button across the width."""
    window_size(turned(size))
    screen = open_attract(start)
    landscape = attract_fonts(screen)
    window_size(size)
    assert screen.portrait, f"{size} is not taken as portrait"
    assert "in progress" in screen.ids.status.text
    found = faults(screen) + small_texts(screen) + shrunk(attract_fonts(screen), landscape)
    assert not found, f"at {size[0]}x{size[1]}:\n" + "\n".join(found)
    assert screen.ids.new_game.width >= Window.width * 0.85
    tap(screen.ids.new_game)  # the next table's new game, one tap away upright too
    assert screen.manager.current == "table"


@pytest.mark.parametrize("name", ["home", "settings", "dispute", "rulebook", "pin", "attract"])
def test_turning_the_display_rearranges_each_screen_and_turning_it_back_restores_it(
    name: str, start: Any, window_size: Any
) -> None:
    """Home and settings are judged whole; the others' lists scroll, and are judged by what is in view."""
    screen = shown(start, "desert", name)
    landscape = layout(screen)
    assert not screen.portrait

    window_size((480, 800))
    lists = [w for w in screen.walk() if isinstance(w, ScrollView)]
    scrolling = [] if name in ("home", "settings") else lists
    assert screen.portrait and not faults(screen, scrolling)

    window_size((800, 480))
    assert not screen.portrait
    assert layout(screen) == landscape
