"""The camera screen on a display mounted upright: the picture across the top, the teach controls under it.

In the landscape arrangement a 480x800 window squeezed the picture into a
column 155 px wide on the left (a 640x480 picture shown 155x116), with the
teach controls beside it and a tall empty band around both.
"""

from __future__ import annotations

from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

import pytest
from kivy.app import App
from kivy.core.window import Window
from kivy.uix.button import Button
from kivy.uix.label import Label

from tests.ui import test_portrait
from tests.ui.conftest import advance, tap, until
from tests.ui.test_camera_screen import frames, open_camera
from tests.ui.test_camera_screen import (
    test_the_tray_is_marked_by_two_taps_on_the_picture_and_far_dice_are_read_in_it as tray_marked_by_taps,
)
from tests.ui.test_home_settings_portrait import cut, seen
from tests.ui.test_layout import window_box
from tests.ui.test_portrait import FINGER, PORTRAIT, READABLE, inside, overlap
from tests.vision.test_feed import BY_ID, board_frame
from ui.screens.camera import CameraScreen
from ui.settings import Settings

window_size = test_portrait.window_size  # the fixture that turns the window, and back to 800x480 after
Box = tuple[float, float, float, float]
# Top to bottom in portrait; each folds away while it has nothing to say (the two lines under the picture).
AREAS = ("frame", "seen", "advice", "picture_buttons", "controls")
BUTTONS = ("turn", "mirror", "slot", "card", "teach_card", "value", "red", "white", "teach_face", "take_back", "mains",
           "tray", "back")


def areas(screen: Any) -> dict[str, Box]:
    """The screen's areas that take room now, by name."""
    ids = screen.ids
    boxes = {name: window_box(ids[name]) for name in AREAS}
    boxes["heading"] = window_box(ids.main.parent.children[-1])
    boxes["note"] = window_box(ids.note_scroll)  # the note's view: a long one scrolls in it
    boxes["bottom bar"] = window_box(ids.back.parent)
    return {name: box for name, box in boxes.items() if box[2] - box[0] > 0.5 and box[3] - box[1] > 0.5}


def faults(screen: Any) -> list[str]:
    """What an owner would find wrong: areas overlapping or off the window, a button cut or out of reach, the
    picture beyond its frame."""
    window = (0.0, 0.0, float(Window.width), float(Window.height))
    shown = areas(screen)
    found = [f"{name} {box} is off the window" for name, box in shown.items() if not inside(box, window)]
    found += [f"{a} and {b} overlap" for a, b in combinations(shown, 2) if overlap(shown[a], shown[b])]
    for button in screen.walk():
        if isinstance(button, Button) and button.opacity and not inside(window_box(button), window):
            found.append(f"button {button.text!r} {window_box(button)} is off the window")
    for name in ("seen", "advice", "note"):
        label = screen.ids[name]
        if name in shown and label.texture_size[1] > label.height + 1:
            found.append(f"{name} is cut: {label.texture_size[1]} px of text in {label.height:.0f}")
    pos, size = screen.shown_picture()
    left, bottom = screen.ids.preview.to_window(*pos)
    picture = (left, bottom, left + size[0], bottom + size[1])
    if screen.live and ("frame" not in shown or not inside(picture, shown["frame"])):
        found.append(f"the picture {picture} is outside its frame {shown.get('frame')}")
    return found


def landscape_buttons(screen: Any) -> dict[str, tuple[float, float]]:
    """Each button's size at 800x480, where the unit is 1: what a finger gets there, before the window turns."""
    assert tuple(Window.size) == (800, 480)
    return {name: (screen.ids[name].width, screen.ids[name].height) for name in BUTTONS}


def small_buttons(screen: Any, landscape: dict[str, tuple[float, float]], u: float) -> list[str]:
    """Buttons lower than in landscape (sizes scale with the unit, so compared at landscape size times it), or
    narrower than a finger: a row's width is the window's, shared with the spaces between its buttons, which
    grow with the screen's own unit."""
    return [f"{name} {screen.ids[name].size} < {min(w * u, FINGER):.0f}x{h * u:.0f}"
            for name, (w, h) in landscape.items()
            if screen.ids[name].width < min(w * u, FINGER) - 1 or screen.ids[name].height < h * u - 1]


def on_camera(launch: Any, tmp_path: Path, settings: Settings | None = None, copies: int = 600) -> tuple[Any, Any]:
    """The camera screen showing a 640x480 board with a card in slot 3 (a picture turned as `settings` say).

    Twenty seconds of frames by default, so the picture is live throughout: a folder that has ended says so in
    the line under the picture, three lines that took the picture's room in a test that looked after two seconds.
    """
    app = launch(settings, camera=frames(tmp_path / "board", board_frame({3: sorted(BY_ID)[4]}), copies))
    screen = open_camera(app)
    assert until(lambda: screen.live)
    return app, screen


def in_portrait(screen: Any, size: tuple[int, int], window_size: Any) -> None:
    window_size(size)
    assert screen.portrait, f"{size} is not taken as portrait"


def test_the_picture_spans_the_top_and_the_teach_controls_stand_under_it_on_a_portrait_screen(
    launch: Any, tmp_path: Path, window_size: Any
) -> None:
    """Top to bottom: heading, the picture (4:3, the window's width), its reading, Turn and Mirror, the teach
    controls, the note, the bottom bar; every button at least as big as in landscape. Each portrait size is turned
    to from landscape, one app for them all (`each_portrait`)."""
    app, screen = on_camera(launch, tmp_path)
    for size in each_portrait(window_size):
        picture_across_the_top(app, screen, size, window_size)


def each_portrait(window_size: Any) -> Any:
    """Every `PORTRAIT` size in turn, the window back at 800x480 before each: each size is turned to from
    landscape, as a test of its own with its own app did (an app started for each was most of their CPU)."""
    for size in PORTRAIT:
        window_size((800, 480))
        yield size


def picture_across_the_top(app: Any, screen: Any, size: tuple[int, int], window_size: Any) -> None:
    landscape = landscape_buttons(screen)
    in_portrait(screen, size, window_size)
    ids = screen.ids
    assert ids.frame.width >= Window.width * 0.96, f"the picture is {ids.frame.width:.0f} px wide in {Window.width}"
    shown = ids.preview.norm_image_size
    assert shown[0] >= Window.width * 0.96 and shown[1] == pytest.approx(shown[0] * 3 / 4, abs=1), shown
    assert ids.frame.height == pytest.approx(shown[1], abs=1), "the frame keeps a band beside the picture"
    boxes = areas(screen)
    order = ["heading", "frame", "seen", "picture_buttons", "controls", "note", "bottom bar"]
    order = [name for name in order if name != "note" or screen.note]  # upright, an empty note takes no room
    for upper, lower in pairwise(order):
        assert boxes[upper][1] >= boxes[lower][3] - 0.5, f"{lower} {boxes[lower]} is not under {upper} {boxes[upper]}"
    assert ids.controls.width >= Window.width * 0.96, "the teach controls keep a narrow column"
    found = faults(screen) + small_buttons(screen, landscape, app.u)
    assert not found, f"at {size[0]}x{size[1]}:\n" + "\n".join(found)


def test_without_a_camera_the_empty_frame_spans_the_top_on_a_portrait_screen(launch: Any, window_size: Any) -> None:
    """No picture yet: the frame, with why in its middle, stands where a 4:3 picture would, at every size."""
    screen = open_camera(launch())
    for size in each_portrait(window_size):
        in_portrait(screen, size, window_size)
        frame = screen.ids.frame
        assert "camera is off" in screen.ids.seen.text and not screen.live
        assert frame.width >= Window.width * 0.96 and frame.height == pytest.approx(frame.width * 3 / 4, abs=1), size
        said = next(w for w in frame.children if w is not screen.ids.preview)
        assert said.text and said.texture_size[1] <= frame.height, size
        assert not faults(screen), (size, faults(screen))


def test_a_picture_turned_upright_and_long_advice_keep_the_teach_controls_in_the_window(
    launch: Any, tmp_path: Path, window_size: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A camera mounted sideways sends a 480x640 picture, taller than the room: the frame gives up height,
    never the teach controls' room, and so it does for four lines of advice and a long note, at every size."""
    advice = ["Dice only 15 px across: mark the tray, or mount the camera closer (32 px or more)",
              "Dice out of focus: focus the camera on the tray",
              "Picture too dark (its brightest parts 22 of 255): light the tray",
              "Board out of focus: focus the camera on the board"] * 2
    monkeypatch.setattr(CameraScreen, "advice", staticmethod(lambda _feed: advice))
    _app, screen = on_camera(launch, tmp_path, Settings(camera_turn=90))
    assert tuple(screen.ids.preview.texture.size) == (480, 640)
    for size in each_portrait(window_size):
        screen.note = ""  # the note comes once the window is upright, as in a visit of its own
        sideways_picture_and_long_texts(screen, size, window_size)


def sideways_picture_and_long_texts(screen: Any, size: tuple[int, int], window_size: Any) -> None:
    in_portrait(screen, size, window_size)
    screen.note = "Taught P05 from slot 3. The camera reads with it from now on. " * 3
    window_size(size)  # and let the note's new lines settle
    assert screen.ids.advice.height > 3 * screen.ids.seen.height
    found = faults(screen)
    assert not found, f"at {size[0]}x{size[1]}:\n" + "\n".join(found)
    frame, shown = screen.ids.frame, screen.ids.preview.norm_image_size
    assert frame.width >= Window.width * 0.96, f"the frame is {frame.width:.0f} px wide in {Window.width}"
    assert shown[1] == pytest.approx(frame.height, abs=1), "the picture leaves bands above and below it"
    assert shown[0] == pytest.approx(shown[1] * 3 / 4, abs=1), "the picture keeps its proportions"


def test_turning_the_display_rearranges_the_camera_screen_and_turning_it_back_restores_it(
    launch: Any, tmp_path: Path, window_size: Any
) -> None:
    app, screen = on_camera(launch, tmp_path, copies=60)
    ids = screen.ids
    # The folder of frames plays two seconds: once it has ended the reading under the picture says so and stays
    # as it is. Ending between the two looks, it took a line more in one of them (a slow machine's CI run); and
    # the end is said in the feed's words first, then in the app's once the controller has passed its report on
    # (`input_problems`), a line longer, and shown under the picture at the screen's next refresh, which a busy
    # machine's run reached only after the first look ("Camera: folder ... has ended" from the feed, then from the
    # app): the reading is waited for as shown.
    assert until(lambda: "the last" in ids.seen.text and "has ended after" in ids.seen.text
                 and "has ended after" in app.input_problems.get("camera", ""), 20), (ids.seen.text,
                                                                                      app.input_problems)
    advance(3)

    def rectangles() -> dict[str, Box]:
        return {name: window_box(widget) for name, widget in ids.items()}

    landscape = rectangles()
    assert not screen.portrait and window_box(ids.frame)[2] <= window_box(ids.controls)[0], "beside, at 800x480"

    window_size((480, 800))
    assert window_box(ids.picture_buttons)[1] >= window_box(ids.controls)[3] - 0.5, "upright, under the picture"
    assert not faults(screen)

    window_size((800, 480))
    assert rectangles() == landscape
    assert not faults(screen)


@pytest.mark.parametrize("size", PORTRAIT)
def test_the_tray_is_marked_by_two_taps_on_the_picture_on_a_portrait_screen(
    size: tuple[int, int], launch: Any, tmp_path: Path, window_size: Any
) -> None:
    """The landscape scenario as it stands, in a portrait window: a tap maps to the picture where it lands, so
    the tray marked is the tray the dice lie in, and its white frame is drawn over it."""

    def launch_upright(*args: Any, **kwargs: Any) -> Any:
        """The app as the scenario launches it, its window then turned upright before the camera screen opens."""
        app = launch(*args, **kwargs)
        window_size(size)
        return app

    tray_marked_by_taps(launch_upright, tmp_path)
    assert App.get_running_app().root.get_screen("camera").portrait


def test_the_camera_screen_is_sized_for_a_finger_and_readable_on_a_portrait_screen(
    launch: Any, tmp_path: Path, window_size: Any
) -> None:
    """Sized by the width alone (app.u 0.6 at 480x800), its buttons, the slot, card and face lists and the rows
    they open were 31-38 px high and its words 11-13 px; now every one a finger's 48 px, no word under 16 px
    or shortened, and the picture still across the full width, at every size."""
    _app, screen = on_camera(launch, tmp_path)
    for size in each_portrait(window_size):
        sized_for_a_finger(screen, size, window_size)


def sized_for_a_finger(screen: Any, size: tuple[int, int], window_size: Any) -> None:
    in_portrait(screen, size, window_size)
    screen.note = "Taught P05 from slot 3."
    if screen.ids.tray.text != "Whole picture":  # still marking from the size before
        tap(screen.ids.tray)  # "Whole picture": the longer word
    advance(3)
    tap(screen.ids.slot)  # its list open, as an owner picking a slot sees it
    rows = [w for w in screen.ids.slot._dropdown.container.children if isinstance(w, Button)]
    texts = [w for w in seen(screen) if isinstance(w, Label)] + rows
    assert screen.ids.tray.text == "Whole picture" and rows
    found = [f"{w.text[:40]!r} is {w.font_size:.1f} px" for w in texts if w.font_size < READABLE]
    found += [f"{w.text!r} is {w.height:.0f} px high" for w in texts if isinstance(w, Button) and w.height < FINGER]
    found += [text for w in texts if w not in rows and (text := cut(w))]
    assert not found, f"at {size[0]}x{size[1]}:\n" + "\n".join(found)
    assert screen.ids.frame.width >= Window.width * 0.96
    screen.ids.slot._dropdown.dismiss()


TOUCH_DISPLAY_2 = (720, 1280)  # the Pi Touch Display 2 upright: 7 inch, about 210 px an inch, a 9 mm finger 74 px


def test_on_the_touch_display_2_upright_the_camera_screen_is_sized_as_the_table_beside_it(
    launch: Any, tmp_path: Path, window_size: Any
) -> None:
    """At 720x1280 the screen took app.u, the width's (0.9): 54 px rows and 18 px words, where the table on the
    same display has 72 px choices and 24 px words (its unit 1.2), and a band 300 px high left empty under the
    teach controls. In the table's unit its rows are the table's choices' height, its words no smaller, and the
    picture still spans the width at its own proportions with everything under it in the window."""
    app, screen = on_camera(launch, tmp_path)
    landscape = landscape_buttons(screen)
    in_portrait(screen, TOUCH_DISPLAY_2, window_size)
    app.show("table")  # a screen takes the window's size while it shows
    advance(3)
    table_u = app.root.get_screen("table").u
    screen = open_camera(app)
    choice, smallest_text = table_u * 60, table_u * 20  # a TableChoice's height; the table's smallest words upright
    assert (choice, smallest_text) == (pytest.approx(72), pytest.approx(24))
    screen.note = "Taught P05 from slot 3."
    advance(3)
    buttons = {name: screen.ids[name].height for name in BUTTONS}
    low = {name: round(height) for name, height in buttons.items() if height < choice - 1}
    assert not low, f"rows lower than the table's {choice:.0f} px choices: {low}"
    texts = [w for w in seen(screen) if isinstance(w, Label)]
    small = [f"{w.text[:30]!r} {w.font_size:.0f} px" for w in texts if w.font_size < smallest_text - 0.5]
    assert not small, small
    found = faults(screen) + small_buttons(screen, landscape, table_u) + [text for w in texts if (text := cut(w))]
    assert not found, "\n".join(found)
    shown = screen.ids.preview.norm_image_size
    assert shown[0] >= Window.width * 0.96 and shown[1] == pytest.approx(shown[0] * 3 / 4, abs=1), shown
    boxes = areas(screen)
    empty = boxes["note"][1] - boxes["bottom bar"][3]  # the band between the last control and the bottom bar
    assert empty < Window.height * 0.1, f"{empty:.0f} px left empty above the bottom bar"
