"""The camera screen: the running feed's picture, and a café's card and die face taught with one tap each."""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from kivy.clock import Clock
from kivy.uix.label import Label

import vision.teaching
from tests.ui.conftest import advance, open_settings, tap, tap_at, until
from tests.vision.test_feed import BY_ID, board_frame
from vision.board_photos import shadowed
from vision.teaching import TeachRefused
from vision.temple_die_render import render_temple_die

STILL = ".bmp"  # the camera's frames as files: lossless and read back without decoding (see `frames`)


def frames(folder: Path, frame: np.ndarray, copies: int = 60) -> str:
    """A still camera as a folder of `copies` frames (two seconds at 30 a second): one photo, linked again.

    A BMP, not a PNG: the feed reads 30 frames a second for as long as the test runs, and a 640x480 PNG took it
    6 ms to decode (most of the feed's CPU, a fifth of test_camera_screen.py's), a BMP a quarter of one, same pixels."""
    folder.mkdir()
    first = folder / f"0000{STILL}"
    assert cv2.imwrite(str(first), frame)
    for index in range(1, copies):
        os.link(first, folder / f"{index:04d}{STILL}")
    return str(folder)


def open_camera(app: Any) -> Any:
    tap(open_settings(app).ids.camera)
    advance(3)
    return app.root.get_screen("camera")


def teach(screen: Any, button: str) -> str:
    """Tap a teach button and wait for the answer: the teaching runs off Kivy's thread."""
    tap(screen.ids[button])
    assert until(lambda: not screen.teaching), screen.note
    return screen.note


class Held:
    """A teaching function held until released, which fails at once if it is run on Kivy's thread.

    Run on Kivy's thread (the screen as it was) it would freeze the test's
    event loop with it, so it refuses there rather than wait.
    """

    def __init__(self, teach: Callable[..., Any]) -> None:
        self.teach = teach
        self.started = threading.Event()
        self.release = threading.Event()
        self.calls = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        assert threading.current_thread() is not threading.main_thread(), "taught on the UI thread"
        self.calls += 1
        self.started.set()
        self.release.wait(60)  # only a bound on a broken test: the tests release it themselves
        return self.teach(*args, **kwargs)


def hold(monkeypatch: pytest.MonkeyPatch, name: str, teach: Callable[..., Any] | None = None) -> Held:
    """Hold the teaching function ``name`` of `vision.teaching` (or ``teach`` in its place) until released."""
    held = Held(teach or getattr(vision.teaching, name))
    monkeypatch.setattr(vision.teaching, name, held)
    return held


class Ticks:
    """Kivy's clock counted while a teaching is held: it keeps ticking only if Kivy's thread is free."""

    def __init__(self) -> None:
        self.count = 0
        self.event = Clock.schedule_interval(self.tick, 0)

    def tick(self, _dt: float) -> None:
        self.count += 1


def on_camera_with_card(launch: Any, tmp_path: Path, card: str) -> tuple[Any, Any]:
    app = launch(camera=frames(tmp_path / "board", board_frame({3: card})))
    screen = open_camera(app)
    assert until(lambda: screen.live)
    screen.ids.slot.text, screen.ids.card.text = "3", card
    return app, screen


def test_without_a_camera_the_screen_says_so_and_teaches_nothing(launch: Any, taught_dir_of_the_test: Path) -> None:
    app = launch()
    screen = open_camera(app)
    assert "camera is off" in screen.ids.seen.text and screen.ids.teach_card.disabled
    shown = [w for w in screen.walk() if isinstance(w, Label) and w.text == screen.ids.seen.text and w.opacity]
    assert shown and shown[0] is not screen.ids.seen.__self__  # said in the middle of the empty frame
    screen.teach_card()
    assert screen.note.startswith("No picture") and not taught_dir_of_the_test.exists()


def test_a_card_in_a_slot_is_taught_and_the_feed_reads_with_it(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path
) -> None:
    card = sorted(BY_ID)[4]
    app = launch(camera=frames(tmp_path / "board", board_frame({3: card})))
    feed = app.running_inputs["camera"][1]
    assert until(lambda: feed.latest is not None)
    screen = open_camera(app)
    assert until(lambda: screen.live)
    assert screen.ids.preview.texture.size == [640, 480] or tuple(screen.ids.preview.texture.size) == (640, 480)

    screen.ids.slot.text, screen.ids.card.text = "3", card
    assert teach(screen, "teach_card").startswith(f"Taught {card} from slot 3."), screen.note
    assert (taught_dir_of_the_test / f"{card}__0.png").is_file()
    assert feed._reload.is_set() or "cards" not in feed.readers  # read afresh from the next frame

    screen.ids.slot.text = "13"
    assert teach(screen, "teach_card").startswith("Not taught: slot 13 is not on the board")
    tap(screen.ids.back)
    assert app.root.current == "settings"


@pytest.mark.parametrize(("said", "expected"), [("white", "Taught 3 on white"), ("red", "Not taught: the face")])
def test_a_die_face_is_taught_under_the_colour_it_shows(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path, said: str, expected: str
) -> None:
    face = render_temple_die(np.random.default_rng(2), "3", "white", size=(640, 480), edge=100.0)[0]
    app = launch(camera=frames(tmp_path / "die", face))
    screen = open_camera(app)
    assert until(lambda: screen.live)
    screen.ids.value.text = "3"
    tap(screen.ids[said])
    assert teach(screen, "teach_face").startswith(expected), screen.note
    assert (taught_dir_of_the_test / "temple_die.json").exists() == (said == "white")


def test_a_cafe_die_is_offered_and_taught_by_its_own_faces(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path
) -> None:
    """The screen listed and checked the house die's faces, so a café die's X on red could not be taught."""
    house = Path(__file__).resolve().parents[2] / "companion" / "games" / "temple" / "data" / "die.json"
    die = json.loads(house.read_text())
    for colour, instead in (("white", "red"), ("red", "white")):  # no 7: its faces are X, one of them on red
        die["faces"][die["faces"].index({"value": 7, "colour": colour})] = {"value": "X", "colour": instead}
    cafe = tmp_path / "data" / "table-companion" / "cafe" / "temple"  # the default café folder of `launch`
    cafe.mkdir(parents=True)
    (cafe / "die.json").write_text(json.dumps(die))
    face = render_temple_die(np.random.default_rng(3), "X", "red", size=(640, 480), edge=100.0)[0]
    app = launch(camera=frames(tmp_path / "die", face))
    screen = open_camera(app)
    assert until(lambda: screen.live)
    assert "7" not in screen.values and "X" in screen.values
    screen.ids.value.text = "X"
    tap(screen.ids.red)
    assert teach(screen, "teach_face").startswith("Taught X on red"), screen.note
    assert (taught_dir_of_the_test / "temple_die.json").exists()


def test_a_cafe_deck_is_offered_and_taught_by_its_own_ids(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path
) -> None:
    house = Path(__file__).resolve().parents[2] / "companion" / "games" / "temple" / "data" / "cards.json"
    deck = json.loads(house.read_text())
    for card in deck["cards"]:
        card["id"] = "K" + card["id"][1:]
    cafe = tmp_path / "data" / "table-companion" / "cafe" / "temple"  # the default café folder of `launch`
    cafe.mkdir(parents=True)
    (cafe / "cards.json").write_text(json.dumps(deck))
    app = launch(camera=frames(tmp_path / "board", board_frame({3: "P05"})))
    screen = open_camera(app)
    assert until(lambda: screen.live)
    assert screen.cards and all(c.startswith("K") for c in screen.cards)
    screen.ids.slot.text, screen.ids.card.text = "3", "K05"
    assert teach(screen, "teach_card").startswith("Taught K05 from slot 3."), screen.note
    assert (taught_dir_of_the_test / "K05__0.png").is_file()


def test_a_card_is_taught_off_the_ui_thread_and_a_second_tap_waits_for_it(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The screen answers while a slow teaching runs, says so, and teaches once however often it is tapped."""
    card = sorted(BY_ID)[4]
    held = hold(monkeypatch, "teach_card")
    app, screen = on_camera_with_card(launch, tmp_path, card)
    feed = app.running_inputs["camera"][1]
    ticks = Ticks()
    try:
        tap(screen.ids.teach_card)
        assert until(held.started.is_set)
        assert screen.teaching and screen.note == "Teaching this card..."
        assert screen.ids.teach_card.disabled and screen.ids.teach_face.disabled
        before = ticks.count
        assert until(lambda: ticks.count >= before + 5)  # Kivy's thread is not waiting on the teaching
        screen.teach_card()  # as a quick second tap that reached the screen before the button went off
        screen.teach_face()
        tap(screen.ids.teach_card)
        assert held.calls == 1 and screen.note == "Teaching this card..."
        assert not (taught_dir_of_the_test / f"{card}__0.png").exists()
    finally:
        held.release.set()
        ticks.event.cancel()
    assert until(lambda: not screen.teaching)
    assert screen.note.startswith(f"Taught {card} from slot 3."), screen.note
    assert not screen.ids.teach_card.disabled and not screen.ids.teach_face.disabled
    assert sorted(p.name for p in taught_dir_of_the_test.iterdir()) == [f"{card}__0.png"]  # once, nothing aside
    assert feed._reload.is_set() or "cards" not in feed.readers
    assert held.calls == 1


def test_a_refused_teaching_reports_its_reason_and_gives_the_buttons_back(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_args: Any) -> Any:
        raise TeachRefused("no die found in the frame; put it on the tray under the camera")

    held = hold(monkeypatch, "teach_die_face", refuse)
    _app, screen = on_camera_with_card(launch, tmp_path, "P05")
    try:
        tap(screen.ids.teach_face)
        assert until(held.started.is_set)
        assert screen.note == "Teaching this face..." and screen.ids.teach_face.disabled
    finally:
        held.release.set()
    assert until(lambda: not screen.teaching)
    assert screen.note == "Not taught: no die found in the frame; put it on the tray under the camera"
    assert not screen.ids.teach_face.disabled and not taught_dir_of_the_test.exists()


def test_a_teaching_that_fails_unexpectedly_is_answered_not_left_hanging(
    launch: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An error no teaching expects must still reach the screen: a silent thread would keep the buttons off."""

    def broken(*_args: Any) -> Any:
        raise RuntimeError("the reference renderer fell over")

    monkeypatch.setattr(vision.teaching, "teach_card", broken)
    _app, screen = on_camera_with_card(launch, tmp_path, "P05")
    assert teach(screen, "teach_card") == "Not taught: the reference renderer fell over (the log has the details)."
    assert not screen.ids.teach_card.disabled


def test_leaving_the_screen_while_teaching_keeps_the_teaching_and_its_answer(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    card = sorted(BY_ID)[4]
    held = hold(monkeypatch, "teach_card")
    app, screen = on_camera_with_card(launch, tmp_path, card)
    try:
        tap(screen.ids.teach_card)
        assert until(held.started.is_set)
        tap(screen.ids.back)
        assert app.root.current == "settings"
        assert open_camera(app) is screen and app.root.current == "camera"  # back while it still teaches
        assert screen.note == "Teaching this card..." and screen.ids.teach_card.disabled
        tap(screen.ids.back)
        assert app.root.current == "settings"
    finally:
        held.release.set()
    assert until(lambda: not screen.teaching)  # answered while the screen is away
    assert (taught_dir_of_the_test / f"{card}__0.png").is_file()
    open_camera(app)
    assert screen.note.startswith(f"Taught {card} from slot 3."), screen.note  # kept for the owner's return
    tap(screen.ids.back)
    open_camera(app)
    assert screen.note == ""  # once seen, a later visit starts clean as before


def drawn_boxes(screen: Any) -> list[tuple[tuple[float, ...], tuple[float, ...] | None]]:
    """(colour, rectangle) of each die boxed over the picture; the rectangle reads back once Kivy has drawn it."""
    from kivy.graphics import Color, Line

    drawn, colour = [], None
    for instruction in screen._overlay.children if screen._overlay is not None else []:
        if isinstance(instruction, Color):
            colour = tuple(instruction.rgba)
        elif isinstance(instruction, Line):
            rectangle = instruction.rectangle
            drawn.append((colour, tuple(rectangle) if rectangle else None))
    return drawn


def test_the_dice_the_camera_settled_on_are_boxed_over_the_picture(launch: Any, tmp_path: Path) -> None:
    """An owner aiming the camera sees what is read where; a die the table would ask about is boxed in amber."""
    from ui.screens.camera import ASKED_COLOUR, TAKEN_COLOUR
    from vision.dice_render import render_dice_scene
    from vision.readings import DieReading

    scene, boxes, _values = render_dice_scene(np.random.default_rng(5), 640, 480, values=[2, 5], size_range=(60, 70))
    app = launch(camera=frames(tmp_path / "dice", scene))
    screen = open_camera(app)
    assert until(lambda: "2 dice show" in screen.ids.seen.text), screen.ids.seen.text
    assert re.search(r"frame \d+: 2 dice show (2, 5|5, 2)\b", screen.ids.seen.text), screen.ids.seen.text
    drawn = drawn_boxes(screen)
    assert len(drawn) == 2 and all(colour == TAKEN_COLOUR for colour, _ in drawn)
    preview = screen.ids.preview
    shown_w, shown_h = preview.norm_image_size
    left, bottom = preview.x + (preview.width - shown_w) / 2, preview.y + (preview.height - shown_h) / 2
    scale = shown_w / 640
    for (_, (x, y, w, h)), (x0, y0, x1, y1) in zip(sorted(drawn, key=lambda d: d[1][0]),
                                                   sorted(boxes, key=lambda b: b[0]), strict=True):
        # Each box lies over its die in the picture as shown, rows counted from the bottom.
        assert abs(x + w / 2 - (left + (x0 + x1) / 2 * scale)) < 8 * scale
        assert abs(y + h / 2 - (bottom + (480 - (y0 + y1) / 2) * scale)) < 8 * scale
        assert 0.6 < w / ((x1 - x0) * scale) < 1.6

    screen.draw_over(scene, [DieReading(3, None, 0.5, (100.0, 100.0, 160.0, 160.0))])
    assert [colour for colour, _ in drawn_boxes(screen)] == [ASKED_COLOUR]
    screen.draw_over(scene, [])
    assert drawn_boxes(screen) == []


def test_the_slots_the_card_reader_finds_are_outlined_with_their_numbers(launch: Any, tmp_path: Path) -> None:
    """In a temple game the owner sees where the camera looks for each slot's card, over the board's own slots."""
    from kivy.graphics import Line, Rectangle

    # Ten seconds of frames: the board is read a few times a second, and two seconds' were read too few times on a
    # busy machine (once a frame no longer took a PNG's decoding, the folder ran out sooner).
    app = launch(camera=frames(tmp_path / "board", board_frame({3: sorted(BY_ID)[4]}), copies=300))
    assert app.new_game("temple", ["red", "blue"])
    feed = app.running_inputs["camera"][1]
    assert until(lambda: len(feed.slots_in_view) == 12, 20)
    screen = open_camera(app)
    assert until(lambda: screen._drawn is not None and len(screen._drawn[2]) == 12)
    advance(2)  # laid out
    outlines = [i for i in screen._overlay.children if isinstance(i, Line)]
    numbers = [i for i in screen._overlay.children if isinstance(i, Rectangle)]
    assert len(outlines) == len(numbers) == 12
    preview = screen.ids.preview
    shown_w, shown_h = preview.norm_image_size
    left, bottom = preview.x + (preview.width - shown_w) / 2, preview.y + (preview.height - shown_h) / 2
    for line in outlines:  # every slot lies on the board, which fills x 90-550 and y 10-470 of the 640x480 frame
        xs, ys = line.points[0::2], line.points[1::2]
        assert left + 85 / 640 * shown_w <= min(xs) < max(xs) <= left + 555 / 640 * shown_w
        assert bottom + 5 / 480 * shown_h <= min(ys) < max(ys) <= bottom + 475 / 480 * shown_h


def test_a_covered_slot_is_outlined_in_amber(launch: Any, tmp_path: Path) -> None:
    """A hand (or a cup) over slot 3 keeps its card unread: the owner sees which slot, in the colour of a die the
    table would ask about; the other slots keep the outline's own colour."""
    from kivy.graphics import Color, Line

    from tests.vision.test_cafe_cards_robust import printed_board, straight_view
    from tests.vision.test_cards_arm import hand_over
    from ui.screens.camera import ASKED_COLOUR, SLOT_COLOUR

    flat, to_img = printed_board({3: "P17", 5: "P07"})
    app = launch(camera=frames(tmp_path / "hand", straight_view(hand_over(flat, to_img, 3, (150, 175, 220)))))
    assert app.new_game("temple", ["red", "blue"])
    feed = app.running_inputs["camera"][1]
    assert until(lambda: feed.covered_in_view == {3}, 20), feed.covered_in_view
    screen = open_camera(app)
    assert until(lambda: screen._drawn is not None and len(screen._drawn[2]) == 12)
    advance(2)
    colours, colour = [], None
    for instruction in screen._overlay.children:
        if isinstance(instruction, Color):
            colour = tuple(instruction.rgba)
        elif isinstance(instruction, Line):
            colours.append(colour)
    assert colours.count(ASKED_COLOUR) == 1 and colours.count(SLOT_COLOUR) == 11
    assert colours[2] == ASKED_COLOUR  # the slots are drawn in their order, 1 to 12


def test_dice_too_small_in_view_ask_for_the_camera_closer(launch: Any, tmp_path: Path) -> None:
    from vision.dice_render import render_far_dice_scene

    far = render_far_dice_scene(np.random.default_rng(4), tray=True)[0]
    app = launch(camera=frames(tmp_path / "far", far))
    screen = open_camera(app)
    assert until(lambda: "mount the camera closer" in screen.ids.advice.text, 20), screen.ids.advice.text
    assert re.search(r"^Dice only \d+ px across: mark the tray, or mount the camera closer \(32 px or more\)\.$",
                     screen.ids.advice.text)
    assert "mount" not in screen.ids.seen.text  # what to mend stands apart from what is read, in amber
    advance(3)
    seen, advice, preview = screen.ids.seen, screen.ids.advice, screen.ids.preview
    picture_bottom = preview.to_window(0, preview.y + (preview.height - preview.norm_image_size[1]) / 2)[1]
    # Both stand under the picture, not over its foot where a die may lie, the advice under the reading.
    assert seen.opacity == advice.opacity == 1 and advice.texture_size[1] > 40
    assert advice.to_window(0, advice.top)[1] <= seen.to_window(0, seen.y)[1] + 1
    assert seen.to_window(0, seen.top)[1] <= picture_bottom + 1


def tap_picture(screen: Any, x: float, y: float) -> None:
    """A finger on the preview where the 640x480 picture's pixel (x, y) is shown."""
    pos, shown = screen.shown_picture()
    tap_at(screen.ids.preview, pos[0] + x / 640 * shown[0], pos[1] + (480 - y) / 480 * shown[1])


def test_the_tray_is_marked_by_two_taps_on_the_picture_and_far_dice_are_read_in_it(
        launch: Any, tmp_path: Path) -> None:
    """A camera high over a café table: the owner marks the tray instead of fetching a ladder."""
    from tests.ui.conftest import settings_file
    from ui.screens.camera import MARK_FIRST, TRAY_COLOUR
    from vision.dice_render import render_far_tray_scene
    from vision.tray_area import TrayArea

    far, values, (x0, y0, x1, y1) = render_far_tray_scene(np.random.default_rng(4))
    app = launch(camera=frames(tmp_path / "far", far, copies=1200))  # long enough for a slow, busy machine
    feed = app.running_inputs["camera"][1]
    screen = open_camera(app)
    assert until(lambda: "mark the tray, or mount" in screen.ids.advice.text, 20), screen.ids.advice.text
    tap(screen.ids.tray)
    assert screen.note == MARK_FIRST and screen.ids.tray.text == "Whole picture"
    tap_picture(screen, x0 - 10, y1 + 10)  # bottom left, then top right: any two opposite corners
    assert screen.note.startswith("One corner marked")
    assert any(colour == TRAY_COLOUR for colour, _ in drawn_boxes(screen))  # the first corner's cross
    tap_picture(screen, x1 + 10, y0 - 4)  # the tray's top edge lies 5 px from the picture's
    assert re.fullmatch(r"Dice read in the tray marked at \d+-\d+% across, \d+-\d+% down: saved\.", screen.note)
    assert not screen.marking and screen.ids.tray.text == "Mark tray"
    saved = json.loads(settings_file(tmp_path).read_text())["tray_area"]
    assert saved == pytest.approx([(x0 - 10) / 640, (y0 - 4) / 480, (x1 + 10) / 640, (y1 + 10) / 480], abs=0.01)
    assert feed.tray == TrayArea(*saved) and app.running_inputs["camera"][1] is feed  # no restart
    # The feed starts afresh in the tray: the dice are settled there, all of them, with no camera-closer advice.
    assert until(lambda: len(feed.dice_in_view) == len(values) and feed.small_dice is None
                 and f"{len(values)} dice show" in screen.ids.seen.text and "Dice only" not in screen.ids.advice.text,
                 20), (screen.ids.seen.text, screen.ids.advice.text)
    assert sorted(d.value for d in feed.dice_in_view) == sorted(values)
    advance(2)
    pos, shown = screen.shown_picture()
    framed = [box for colour, box in drawn_boxes(screen) if colour == TRAY_COLOUR]
    assert len(framed) == 1 and framed[0][0] == pytest.approx(pos[0] + (x0 - 10) / 640 * shown[0], abs=2)

    tap(screen.ids.turn)  # the tray turns with the picture, so it stays on the tray
    turned = json.loads(settings_file(tmp_path).read_text())["tray_area"]
    assert TrayArea(*turned) == TrayArea(*saved).turned() == feed.tray

    tap(screen.ids.tray)
    tap_picture(screen, 300, 200)
    tap_picture(screen, 320, 400)  # a slip: 3% of the picture across
    assert screen.note.startswith("Not marked: the two corners are too close together") and screen.marking
    tap(screen.ids.tray)  # Whole picture
    assert screen.note == "Dice read in the whole picture: saved." and not screen.marking
    assert json.loads(settings_file(tmp_path).read_text())["tray_area"] == [] and feed.tray.whole


def test_a_marked_tray_is_named_when_the_screen_opens_and_a_bad_one_in_the_file_is_ignored(
        launch: Any, tmp_path: Path) -> None:
    from ui.settings import Settings

    app = launch(Settings(tray_area=[0.1, 0.2, 0.6, 0.9]), camera=frames(tmp_path / "board", board_frame({})))
    assert app.running_inputs["camera"][1].tray.as_list() == [0.1, 0.2, 0.6, 0.9]
    assert open_camera(app).note == "Dice read in the tray marked at 10-60% across, 20-90% down."
    path = tmp_path / "ui.json"
    path.write_text(json.dumps({"tray_area": [0.5, 0.2, 0.55, 0.9], "mains_hz": 50}))
    loaded = Settings.load(path)
    assert loaded.tray_area == [] and loaded.mains_hz == 50 and "tray_area ignored" in loaded.note


@pytest.mark.parametrize("spoil, said", [
    (lambda image: cv2.GaussianBlur(image, (0, 0), 8), "Dice out of focus: focus the camera on the tray"),
    (lambda image: (image * 0.1).astype(np.uint8), "Picture too dark (its brightest parts "),
    (lambda image: shadowed(image, np.random.default_rng(4), 0.75), "A lamp's shadow lies across the picture (2"),
])
def test_a_blurred_or_dark_picture_asks_for_the_camera_to_be_mended(
    launch: Any, tmp_path: Path, spoil: Callable[[np.ndarray], np.ndarray], said: str
) -> None:
    from vision.dice_render import render_dice_scene

    image = render_dice_scene(np.random.default_rng(0), 640, 480, count=2, size_range=(50, 60))[0]
    app = launch(camera=frames(tmp_path / "spoilt", spoil(image)))
    screen = open_camera(app)
    assert until(lambda: said in screen.ids.advice.text, 20), screen.ids.advice.text


def test_a_picture_that_never_holds_still_asks_for_a_steady_camera(launch: Any, tmp_path: Path) -> None:
    from tests.vision.test_feed import die_at, shaking, write_frames

    folder = write_frames(tmp_path / "shaking", shaking(die_at(1), 200), STILL)
    app = launch(camera=str(folder))
    app.running_inputs["camera"][1].restless_after = 1.0
    screen = open_camera(app)
    assert until(lambda: "Picture not still for " in screen.ids.advice.text, 20), screen.ids.advice.text
    assert "so nothing is read: steady the camera's mount" in screen.ids.advice.text


@pytest.fixture(scope="module")
def bands(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A still picture under a lamp's rolling bands, 200 frames: written once for the tests that read it."""
    from tests.vision.test_feed import die_at, rolling_bands, write_frames

    return write_frames(tmp_path_factory.mktemp("bands") / "bands", rolling_bands(die_at(1), 200, 0.2), STILL)


@pytest.mark.parametrize(("rate", "said"), [
    (None, "a flickering lamp rolls bands through it: set Mains to the mains frequency here, 50 or 60 Hz"),
    (25.0, "a lamp on 60 Hz mains rolls bands through it (at 25 frames a second only those roll): set Mains to 60 Hz"),
])
def test_a_lamps_bands_ask_for_the_mains_frequency(
        launch: Any, bands: Path, monkeypatch: pytest.MonkeyPatch, rate: float | None, said: str) -> None:
    from vision.feed import CameraFeed

    # A folder's pace is the feed's own; a live camera's rate (here as a camera at 25 frames a second) names the mains.
    monkeypatch.setattr(CameraFeed, "camera_rate", property(lambda _feed: rate))
    app = launch(camera=str(bands))
    app.running_inputs["camera"][1].restless_after = 1.0
    screen = open_camera(app)
    assert until(lambda: "Picture not still for " in screen.ids.advice.text, 20), screen.ids.advice.text
    assert said in screen.ids.advice.text


def test_a_board_out_of_focus_asks_for_the_camera_to_be_focused(launch: Any, tmp_path: Path) -> None:
    soft = cv2.GaussianBlur(board_frame({3: sorted(BY_ID)[4]}), (0, 0), 2.5)
    app = launch(camera=frames(tmp_path / "board", soft, copies=300))
    assert app.new_game("temple", ["red", "blue"])
    screen = open_camera(app)
    assert until(lambda: "Board out of focus: focus the camera on the board." in screen.ids.advice.text, 20), \
        screen.ids.advice.text


def test_a_dark_temple_board_asks_for_the_board_to_be_lit(launch: Any, tmp_path: Path) -> None:
    """The temple's cards are read over the whole picture: a dim board is told to light the board, as `vision
    watch --reader cards` tells it (`view_check.DARK_MENDS`); it was told to "light the tray"."""
    dim = (board_frame({3: sorted(BY_ID)[4]}) * 0.1).astype(np.uint8)
    app = launch(camera=frames(tmp_path / "board", dim, copies=300))
    assert app.new_game("temple", ["red", "blue"])
    screen = open_camera(app)
    # Until the feed has taken up the game's readers it reads dice, and a dim tray is told to be lit.
    said = re.compile(r"Picture too dark \(its brightest parts \d+ of 255\): light the board\.")
    assert until(lambda: said.search(screen.ids.advice.text), 20), screen.ids.advice.text


def test_a_washed_out_board_asks_for_the_lens_to_be_wiped(launch: Any, tmp_path: Path) -> None:
    from vision.board_photos import veiled

    smeared = veiled(board_frame({3: sorted(BY_ID)[4]}), 0.6)
    app = launch(camera=frames(tmp_path / "board", smeared, copies=300))
    assert app.new_game("temple", ["red", "blue"])
    screen = open_camera(app)
    assert until(lambda: "Board washed out" in screen.ids.advice.text, 20), screen.ids.advice.text
    assert re.search(r"Board washed out \(its markers' black \d+% as bright as their white\): wipe the camera's lens, "
                     r"turn lamps away from it", screen.ids.advice.text)


def test_a_board_far_from_the_camera_asks_for_it_closer(launch: Any, tmp_path: Path) -> None:
    from tests.vision.test_view_check import far_board

    app = launch(camera=frames(tmp_path / "far-board", far_board()))
    assert app.new_game("temple", ["red", "blue"])
    screen = open_camera(app)
    assert until(lambda: "Slots only 2" in screen.ids.advice.text, 20), screen.ids.advice.text
    assert re.search(r"Slots only 2\d px across: mount the camera closer to the board \(30 px or more\)",
                     screen.ids.advice.text)


def test_the_picture_is_turned_and_mirrored_at_once_and_kept(launch: Any, tmp_path: Path) -> None:
    """A camera mounted upside down is put upright from the screen it is aimed with, without a restart,
    and starts that way next time."""
    from tests.ui.conftest import settings_file
    from vision.orientation import Orientation

    upright = board_frame({3: sorted(BY_ID)[4]})
    upright[:40, :40] = 255  # a white corner, to see where the picture's top left went
    app = launch(camera=frames(tmp_path / "board", upright[::-1, ::-1].copy(), copies=400))  # upside down
    feed = app.running_inputs["camera"][1]
    screen = open_camera(app)
    assert until(lambda: screen.live)
    tap(screen.ids.turn)
    assert screen.note.startswith("Picture turned 90°: saved.") and "far side is at the top" in screen.note
    tap(screen.ids.turn)
    assert screen.note.startswith("Picture turned 180°: saved.")
    assert until(lambda: feed.latest is not None and feed.latest[:40, :40].min() == 255)
    assert feed.running and app.running_inputs["camera"][1] is feed  # turned in place, not restarted
    tap(screen.ids.mirror)
    assert screen.note.startswith("Picture turned 180°, mirrored: saved.") and screen.ids.mirror.state == "down"
    assert until(lambda: feed.latest[:40, -40:].min() == 255)
    saved = json.loads(settings_file(tmp_path).read_text())
    assert (saved["camera_turn"], saved["camera_mirror"]) == (180, True)
    assert app.save_settings(voice_speed=170).startswith("Saved.")  # the settings screen's save keeps the turn
    saved = json.loads(settings_file(tmp_path).read_text())
    assert (saved["camera_turn"], saved["camera_mirror"], saved["voice_speed"]) == (180, True, 170)
    assert app.running_inputs["camera"][1] is feed and feed.orientation == Orientation(180, True)


def test_the_camera_starts_turned_as_saved(launch: Any, tmp_path: Path) -> None:
    from ui.settings import Settings
    from vision.orientation import Orientation

    app = launch(Settings(camera_turn=270, camera_mirror=True), camera=frames(tmp_path / "board", board_frame({})))
    assert app.running_inputs["camera"][1].orientation == Orientation(270, True)
    screen = open_camera(app)
    assert screen.ids.mirror.state == "down" and screen.note == "Picture turned 270°, mirrored."


def test_the_mains_button_tells_the_running_camera_and_is_kept(
        launch: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pi camera banding under a café's lamps: Mains 50 Hz from the camera screen sets its flicker period."""
    from tests.picamera_fake import install_picamera2
    from tests.ui.conftest import settings_file

    camera = install_picamera2(monkeypatch, frame=board_frame({}))
    app = launch(camera="picamera")
    screen = open_camera(app)
    assert until(lambda: screen.live) and screen.ids.mains.text == "Mains: camera's own"
    assert camera.opened[0].set == []  # not told anything until the café says
    tap(screen.ids.mains)
    assert screen.note == "Pi camera set for 50 Hz mains light: saved." and screen.ids.mains.text == "Mains 50 Hz"
    assert camera.opened[0].set == [{"AeFlickerMode": 1, "AeFlickerPeriod": 10_000}]
    tap(screen.ids.mains)
    assert screen.note == "Pi camera set for 60 Hz mains light: saved."
    assert json.loads(settings_file(tmp_path).read_text())["mains_hz"] == 60
    tap(screen.ids.mains)
    assert screen.note == "Pi camera back on its own mains setting: saved."  # not left on 60 Hz till unplugged
    assert screen.ids.mains.text == "Mains: camera's own" and camera.opened[0].set[-1] == {"AeFlickerMode": 0}


def test_the_camera_is_told_the_saved_mains_when_it_starts(
        launch: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.picamera_fake import install_picamera2
    from ui.settings import Settings

    camera = install_picamera2(monkeypatch)
    app = launch(Settings(mains_hz=60), camera="picamera")
    assert until(lambda: camera.opened and camera.opened[0].set)
    assert camera.opened[0].set == [{"AeFlickerMode": 1, "AeFlickerPeriod": 8_333}]
    screen = open_camera(app)
    assert screen.ids.mains.text == "Mains 60 Hz" and screen.note == "Pi camera set for 60 Hz mains light."


def test_the_mains_is_kept_for_a_camera_switched_on_later(launch: Any, tmp_path: Path) -> None:
    from tests.ui.conftest import settings_file

    screen = open_camera(launch())
    tap(screen.ids.mains)
    assert screen.note == "Mains 50 Hz, told to the camera when it opens: saved."
    assert json.loads(settings_file(tmp_path).read_text())["mains_hz"] == 50


def test_a_camera_setting_that_cannot_be_saved_holds_and_says_so(launch: Any, tmp_path: Path) -> None:
    app = launch()
    (tmp_path / "a-file").write_text("")
    app.settings_path = tmp_path / "a-file" / "ui.json"  # its folder is a file: the save is refused
    screen = open_camera(app)
    tap(screen.ids.mains)
    assert re.fullmatch(r"Mains 50 Hz, told to the camera when it opens; not saved \(.+\): it holds until a restart\.",
                        screen.note), screen.note
    assert app.settings.mains_hz == 50
    tap(screen.ids.turn)
    assert re.match(r"Picture turned 90°; not saved \(.+\): it holds until a restart\.", screen.note), screen.note


def test_the_camera_screen_stops_its_picture_refresh_when_the_app_stops(launch: Any) -> None:
    """Its four-a-second refresh ran on after the app stopped: into the next app's window in the tests."""
    app = launch()
    screen = open_camera(app)
    assert screen._clock is not None and screen._clock.is_triggered
    app.dispatch("on_stop")
    assert screen._clock is None


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_a_pawn_on_the_card_to_teach_is_said_whole_and_nothing_is_stored(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path, size: tuple[int, int]
) -> None:
    """The refusal for a pawn on the card (`vision.card_cover`) is the longest the teach step gives: it is shown
    whole on the screen, wrapped, in either arrangement, and the photo with the pawn is not stored; the teach
    button then offers to take the colour as the card's own print, and does."""
    from kivy.core.window import Window

    from tests.ui.test_layout import window_box
    from tests.vision.test_cafe_cards_robust import printed_board, straight_view
    from tests.vision.test_teach_covered import plain_cell, with_pawn

    flat, to_img = printed_board({3: "P05"})
    pawned = with_pawn(flat, to_img, 3, plain_cell("P05"), 0.45)
    app = launch(camera=frames(tmp_path / "board", straight_view(pawned)))
    try:
        Window.size = size
        advance(4)
        screen = open_camera(app)
        assert until(lambda: screen.live)
        screen.ids.slot.text, screen.ids.card.text = "3", "P05"
        note = teach(screen, "teach_card")
        assert note.startswith("Not taught: something lies on the card in slot 3: "), note
        assert note.endswith("or check that P05 is the card lying there. If that colour is printed on the card "
                             "itself, tap Teach as printed.")
        label = screen.ids.note
        advance(2)
        left, bottom, right, top = window_box(label)
        assert left >= 0 and right <= size[0] + 1 and bottom >= 0 and top <= size[1] + 1
        assert label.texture_size[1] <= label.height + 1 and label.texture_size[0] <= label.width + 1
        assert not taught_dir_of_the_test.exists() or not any(taught_dir_of_the_test.iterdir())

        # A café whose P05 prints that colour there takes it as printed; another card picked is offered no such.
        assert screen.ids.teach_card.text == "Teach as printed"
        screen.ids.card.text = "P06"
        advance(1)
        assert screen.ids.teach_card.text == "Teach this card"
        screen.ids.card.text = "P05"
        advance(1)
        note = teach(screen, "teach_card")
        assert note.startswith("Taught P05 from slot 3"), note
        assert (taught_dir_of_the_test / "P05__0.png").exists()
        assert screen.ids.teach_card.text == "Teach this card"
    finally:
        Window.size = (800, 480)
        advance(3)


def test_the_lists_make_their_rows_when_opened_and_show_every_value(launch: Any) -> None:
    """Opening the camera screen made a row button for each of its lists' values, a deck's 49 cards among them
    (0.06 s on every visit); the rows are made when a list opens, all of them, and follow a change of values."""
    from kivy.uix.button import Button

    screen = open_camera(launch())
    card = screen.ids.card

    def rows(spinner: Any) -> list[str]:
        return [w.text for w in reversed(spinner._dropdown.container.children) if isinstance(w, Button)]

    assert screen.cards and rows(card) == []  # none made yet
    tap(card)
    assert card.is_open and rows(card) == screen.cards and card.text == screen.cards[0]
    card._dropdown.dismiss()
    advance(2)
    screen.cards = ["K01", "K02"]  # a café's deck, while the list is shut: its first card shown at once
    assert card.text == "K01" and not card.is_open
    tap(card)
    assert rows(card) == ["K01", "K02"]
    screen.cards = ["K03"]  # and while it is open
    assert rows(card) == ["K03"] and card.text == "K03"
    card._dropdown.dismiss()
    advance(2)
