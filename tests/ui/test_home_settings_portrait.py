"""The home and settings screens on a display mounted upright: the height used, every target finger-sized.

In their landscape arrangement a 480x800 window gave them app.u 0.6 (the
width over 800): buttons and fields 34 to 38 px high and 12 px text on a
480 px screen, and the lower 55-75% of the window empty.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.slider import Slider
from kivy.uix.textinput import TextInput

from tests.ui import test_portrait
from tests.ui.conftest import advance, open_settings, tap
from tests.ui.test_app import button
from tests.ui.test_layout import shown_whole, text_height, window_box
from tests.ui.test_portrait import PORTRAIT, inside, overlap
from ui.shots import mid_game
from ui.voice import Voice

window_size = test_portrait.window_size  # the fixture that turns the window, and back to 800x480 after
Box = tuple[float, float, float, float]
FINGER = 44  # px: a target a fingertip hits without care (the landscape arrangement gave 34-38 at 480x800)
DESERT = ("Black", "Purple", "Pink", "Brown", "Grey", "Teal")  # the most colours of any game: three rows


def seen(screen: Any) -> list[Any]:
    """What a person reads or touches: texts, buttons, fields and sliders that take room."""
    kinds = (Label, TextInput, Slider)
    return [w for w in screen.walk(restrict=True) if isinstance(w, kinds) and w.opacity and w.width > 0.5
            and w.height > 0.5 and (w.text if isinstance(w, Label) else True)]


def scroll_of(widget: Any) -> Any:
    """The list a widget scrolls in, if any."""
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            return parent
        parent = parent.parent
    return None


def cut(widget: Any) -> str:
    """How a text is cut short, or "": shortened with "...", lines beyond its box, a line wider than its box,
    a field's hint running out of the field."""
    if isinstance(widget, TextInput):
        room = widget.width - widget.padding[0] - widget.padding[2]
        probe = CoreLabel(text=widget.hint_text, font_size=widget.font_size)
        probe.refresh()
        return f"hint {widget.hint_text!r} needs {probe.texture.size[0]} px of {room:.0f}" if probe.texture.size[
            0] > room else ""
    if not isinstance(widget, Label):
        return ""
    if widget.is_shortened:
        return f"{widget.text!r} is shortened"
    if text_height(widget) > widget.height + 1:
        return f"{widget.text!r} needs {text_height(widget):.0f} px of height, has {widget.height:.0f}"
    if widget.text_size[0] is None and widget.texture_size[0] > widget.width + 1:
        return f"{widget.text!r} is {widget.texture_size[0]} px wide in {widget.width:.0f}"
    return ""


def in_view(widget: Any, scrolling: Sequence[Any]) -> Box | None:
    """The part of a widget in view: all of it, or, in one of the lists that may scroll, the part inside the
    list (None when it is scrolled out of sight)."""
    box, scroll = window_box(widget), scroll_of(widget)
    if scroll not in scrolling:
        return box
    room = window_box(scroll)
    part = (max(box[0], room[0]), max(box[1], room[1]), min(box[2], room[2]), min(box[3], room[3]))
    return part if part[2] - part[0] > 0.5 and part[3] - part[1] > 0.5 else None


def faults(screen: Any, scrolling: Sequence[Any] = ()) -> list[str]:
    """What a person would find wrong upright: anything off the window or needing a scroll, two things over
    each other, a text cut, a target smaller than a fingertip.

    ``scrolling``: lists meant to scroll (sixty actions, a rulebook); what lies in them is judged by the
    part in view.
    """
    window = (0.0, 0.0, float(Window.width), float(Window.height))
    found = []
    shown = {widget: box for widget in seen(screen) if (box := in_view(widget, scrolling)) is not None}
    for widget, box in shown.items():
        name = getattr(widget, "text", "") or type(widget).__name__
        scroll = scroll_of(widget)
        if not inside(box, window):
            found.append(f"{name!r} {box} is off the window")
        elif scroll is not None and scroll not in scrolling and not shown_whole(widget, scroll):
            found.append(f"{name!r} {box} needs a scroll in {window_box(scroll)}")
        if cut(widget):
            found.append(cut(widget))
        if isinstance(widget, (Button, TextInput)) and widget.height < FINGER:
            found.append(f"{name!r} is {widget.height:.0f} px high, under a finger's {FINGER}")
    found += [f"{getattr(a, 'text', a)!r} {shown[a]} and {getattr(b, 'text', b)!r} {shown[b]} overlap"
              for a, b in combinations(shown, 2) if overlap(shown[a], shown[b])]
    return found


def layout(screen: Any) -> list[tuple[Any, ...]]:
    """Every widget's place, size and text size: what must come back when the display is turned back."""
    return [(type(w).__name__, tuple(round(v, 3) for v in window_box(w)), round(getattr(w, "font_size", 0), 3))
            for w in screen.walk(restrict=True)]


def on_home(start: Any) -> Any:
    """Home with Desert lap race in play (its long title in Resume) and picked by a tap (its six colours)."""
    app = start(mid_game("desert"))
    app.show("home")
    advance(4)
    home = app.root.get_screen("home")
    tap(button(home.ids.games, "Desert lap race (Secret Passage)"))
    assert home.chosen_game == "desert"
    return home


@pytest.mark.parametrize("size", PORTRAIT)
def test_the_home_screen_puts_the_players_under_the_games_on_a_portrait_screen(
    size: tuple[int, int], start: Any, window_size: Any
) -> None:
    """Top to bottom: the games in two columns across the width, the players' colours, the turn order, the
    note, then the buttons; six players picked and the note asking to confirm, nothing cut or small."""
    window_size(size)
    home = on_home(start)
    assert home.portrait, f"{size} is not taken as portrait"
    for colour in DESERT:
        tap(button(home.ids.colours, colour))
    assert home.players == [c.lower() for c in DESERT], "the colours do not answer taps"
    tap(home.ids.start)  # a game in play: the first tap asks, in the note
    assert "tap Start again" in home.ids.note.text
    found = faults(home)
    assert not found, f"at {size[0]}x{size[1]}:\n" + "\n".join(found)

    games, colours = home.ids.games, home.ids.colours
    scroll, bar = scroll_of(games.children[0]), window_box(home.ids.start.parent)
    assert scroll.width >= Window.width * 0.9, f"the games keep a column {scroll.width:.0f} px wide"
    assert len({window_box(b)[0] for b in games.children}) == 2, "the games are not in two columns"
    assert window_box(scroll)[1] >= window_box(colours)[3] - 0.5, "the colours are not under the games"
    turn_order = home.ids.turn_order
    assert window_box(turn_order)[1] >= window_box(home.ids.note)[3] - 0.5 >= bar[3] - 0.5
    assert window_box(colours)[1] < Window.height / 2, "the players' colours leave the lower half empty"
    assert "Desert lap race" in home.ids.resume.text and "steps" in home.ids.resume.text

    tap(button(games, "Targi"))  # and a game is picked by a tap
    assert home.chosen_game == "targi" and not faults(home)


@pytest.mark.parametrize("size", PORTRAIT)
def test_each_setting_stands_over_its_control_on_a_portrait_screen(
    size: tuple[int, int], start: Any, window_size: Any
) -> None:
    """Each name on a line of its own, its control across the width under it; all of them in the window
    without a scroll, with speech missing (its three-line note) and a PIN refused."""
    window_size(size)
    app = start(kiosk=True)  # the kiosk's "Exit app (PIN)"
    silent = Voice()
    silent.binary = None
    app.voice_note = silent.note()
    screen = open_settings(app)
    assert screen.portrait, f"{size} is not taken as portrait"
    screen.ids.pin.text = "12"
    tap(screen.ids.save)
    assert "at least 4 digits" in screen.ids.note.text
    advance(3)
    found = faults(screen)
    assert not found, f"at {size[0]}x{size[1]}:\n" + "\n".join(found)

    assert screen.ids.exit.text == "Exit app (PIN)"
    names = [w for w in screen.walk() if type(w).__name__ == "SettingLabel"]
    assert [n.text for n in names] == ["Inputs", "Sensor port", "Camera source", "Voice", "Café data", "New PIN"]
    for name in names:
        # a name's row: Voice's holds the name's own line (the loudness's - and + beside it) over the switch
        row = name.parent if name.parent.parent is screen.ids.rows else name.parent.parent
        controls = [window_box(w) for w in row.children if name not in list(w.walk())]
        assert all(box[3] <= window_box(name)[1] + 0.5 for box in controls), f"{name.text} is not above its control"
        span = max(box[2] for box in controls) - min(box[0] for box in controls)
        assert span >= Window.width * 0.85, f"{name.text}'s control is {span:.0f} px wide in {Window.width}"
    assert window_box(screen.ids.pin)[1] < Window.height / 2, "the settings leave the lower half empty"
    voice = next(n for n in names if n.text == "Voice")
    for control in (screen.ids.softer, screen.ids.louder):  # beside the name, on its line
        assert window_box(control)[0] >= window_box(voice)[2] and control.height >= test_portrait.FINGER
