"""The camera screen when the camera, the owner or the settings file does something unexpected."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from kivy.uix.label import Label

from tests.ui.conftest import advance, tap, until
from tests.ui.test_camera_screen import frames, open_camera, tap_picture
from tests.vision.test_feed import board_frame
from ui.settings import Settings

SUCCESS_COLOUR = (1, 0.85, 0.2, 1)
REFUSAL_COLOUR = (1, 0.6, 0.5, 1)
SILENT_URL = ("rtsp://127.0.0.1:1/cam/realmonitor?channel=1&subtype=0&unicast=true&proto=Onvif"
              "&transportmode=unicast&profile=Profile_1&session=0123456789abcdef0123456789abcdef")


def camera_on(source: str) -> Settings:
    return Settings(inputs={"touch": True, "buttons": True, "serial": False, "camera": True}, camera_source=source)


def framed(screen: Any) -> Label:
    """The label that stands in the middle of the empty picture frame."""
    return next(w for w in screen.ids.preview.parent.children if isinstance(w, Label))


def fits(label: Label) -> bool:
    """Whether every line Kivy laid out is inside the label's bound text_size: all of its text is seen."""
    lines = label._label._cached_lines
    laid_out = "".join(word.text for line in lines for word in line.words)
    return "".join(laid_out.split()) == "".join(label.text.split()) and sum(line.h for line in lines) <= label.height


def test_a_refusal_is_coloured_apart_from_the_success_before_it(launch: Any, taught_dir_of_the_test: Path) -> None:
    """Kivy never re-ran the .kv's colour for a new note, so "No picture to teach from" showed as a success."""
    screen = open_camera(launch())
    tap(screen.ids.mains)
    assert screen.note.endswith("saved.") and tuple(screen.ids.note.color) == SUCCESS_COLOUR
    screen.teach_card()  # no camera: refused
    advance(2)
    assert screen.note.startswith("No picture") and tuple(screen.ids.note.color) == REFUSAL_COLOUR
    tap(screen.ids.mains)
    assert tuple(screen.ids.note.color) == SUCCESS_COLOUR


def test_a_folder_of_unreadable_pictures_says_why_and_what_to_do(launch: Any, tmp_path: Path) -> None:
    """It said "Waiting for a picture from the camera..." for ever while settings gave the reason."""
    folder = tmp_path / "corrupt"
    folder.mkdir()
    for index in range(5):
        (folder / f"{index}.jpg").write_bytes(b"\xff\xd8garbage" * (index + 1))
    app = launch(camera=str(folder))
    screen = open_camera(app)
    assert until(lambda: "no readable image" in screen.ids.seen.text), screen.ids.seen.text
    said = screen.ids.seen.text
    # The folder is there, and none of its files is a picture: neither "lost" nor "not found", nor "played to its
    # end" (it played nothing), as it said ("No picture. Camera not found: ... has played to its end (...)").
    assert said.startswith("No picture. Camera: no readable image in ") and "none of its 5 image files" in said
    assert "not found" not in said and "played to its end" not in said
    assert said.endswith("Replace the files with readable pictures or a video, or pick another source in "
                         "Settings and save.")
    advance(2)
    assert framed(screen).text == said and fits(framed(screen))
    assert screen.ids.teach_card.disabled and screen.ids.tray.disabled
    # the players read what to do, the settings screen the reason (`observations.table_text`)
    assert app.status == "Camera cannot be used: tap what it would have read (owner: Settings)."
    assert app.input_problems["camera"].startswith("Camera: no readable image in ")
    app.input_problems = {}  # before the app has the feed's word, the screen says it in the same words
    assert screen.problem(screen.feed()).startswith("Camera: no readable image in ")


@pytest.mark.parametrize("source", [SILENT_URL, "/no/such/" + "folder" * 800])
def test_a_long_reason_stays_inside_the_picture_frame(launch: Any, source: str) -> None:
    """A 245-character stream URL ran over the frame's border and the Turn button; 5000 characters covered
    the heading and the buttons."""
    app = launch(camera_on(source))
    screen = open_camera(app)
    assert until(lambda: screen.ids.seen.text.startswith("No picture."), 15), screen.ids.seen.text
    advance(3)
    label = framed(screen)
    assert label.size == label.parent.size  # the label is the frame, over the Turn button's top, not past it
    assert label.texture_size[1] <= label.height  # what it draws stays in it
    assert fits(label)  # ... and no line of the shortened text is left out
    assert "…" in label.text and len(label.text) < 300


def test_save_returns_at_once_while_the_old_camera_closes(
    launch: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream that never answers held the feed's thread in OpenCV; Save joined it and froze the screen 5 s."""
    from vision.feed import CameraFeed

    close = CameraFeed.close
    closing, release, closed = threading.Event(), threading.Event(), threading.Event()

    def stuck_close(feed: CameraFeed, timeout: float = 5.0) -> None:
        closing.set()
        release.wait(10)  # a reader inside OpenCV's read, outlasting the join: held until Save has come back
        close(feed, timeout)
        closed.set()

    monkeypatch.setattr(CameraFeed, "close", stuck_close)
    app = launch(camera_on(frames(tmp_path / "board", board_frame({}), copies=600)))
    old = app.running_inputs["camera"][1]
    assert until(lambda: old.latest is not None)
    # Save came back with the old camera still closing: no bound on Save's own time (it was "under 0.5 s", which a
    # loaded machine can pass). Had Save closed it, it would have come back only once the close gave up waiting.
    said = app.save_settings(inputs={"camera": False})
    returned_first = not closed.is_set()
    release.set()
    assert returned_first, "Save waited for the old camera to close"
    assert said.startswith("Saved.") and "camera" not in app.running_inputs
    assert closing.wait(10) and until(lambda: not old.running, 10)  # closed all the same, off Kivy's thread
    app.save_settings(inputs={"camera": True})  # back on: a new feed, the old one gone
    assert until(lambda: app.running_inputs["camera"][1].latest is not None)
    assert app.running_inputs["camera"][1] is not old


def test_the_app_at_exit_waits_for_a_camera_still_closing(
    launch: Any, running: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The camera let go of by Save is still freed when the app stops right after, within a bound."""
    from vision.feed import CameraFeed

    close = CameraFeed.close

    def slow_close(feed: CameraFeed, timeout: float = 5.0) -> None:
        time.sleep(0.5)
        close(feed, timeout)

    monkeypatch.setattr(CameraFeed, "close", slow_close)
    app = launch(camera_on(frames(tmp_path / "board", board_frame({}), copies=600)))
    old = app.running_inputs["camera"][1]
    app.save_settings(inputs={"camera": False})
    app.dispatch("on_stop")
    assert not old.running and not [t for t in threading.enumerate() if t.name == "camera-close"]


@pytest.mark.parametrize("source", ["", "   "])
def test_a_camera_switched_on_without_a_source_says_to_type_it(launch: Any, source: str) -> None:
    """It said "The camera is off: switch it on" to an owner whose switch was already on."""
    app = launch(camera_on(source))
    screen = open_camera(app)
    said = "Camera: type its source (0, picamera, a URL, a video or a folder) and save."
    assert screen.ids.seen.text == said == app.input_problems["camera"] and framed(screen).text == said
    assert "camera is off" not in screen.ids.seen.text


def test_tapping_one_spot_twice_asks_for_two_corners_apart_in_tap_words(launch: Any, tmp_path: Path) -> None:
    """The tray area's own refusal spoke of "0.5, 0.5, 0.5, 0.5" and "left before right" to a finger."""
    app = launch(camera=frames(tmp_path / "board", board_frame({}), copies=1200))
    screen = open_camera(app)
    assert until(lambda: screen.live)
    tap(screen.ids.tray)
    tap_picture(screen, 320, 240)
    tap_picture(screen, 320, 240)
    assert screen.note == ("Not marked: the two corners are too close together; tap two opposite corners of the "
                           "tray, at least 15% of the picture apart.")
    assert screen.marking and tuple(screen.ids.note.color) == REFUSAL_COLOUR
    tap_picture(screen, 100, 100)  # and marking goes on from a first corner again
    assert screen.note.startswith("One corner marked")


@pytest.mark.parametrize("switch", ['"true"', "1", "null"])
def test_a_switch_that_is_no_true_or_false_is_named_not_dropped(launch: Any, switch: str) -> None:
    """Other wrong values were named in the start-up note; a switch of the wrong type went in silence."""
    app = launch(f'{{"inputs": {{"camera": {switch}, "buttons": false}}, "voice": false}}')
    assert "Settings file ui.json: inputs.camera ignored, the defaults used." in app.status
    assert app.settings.inputs["camera"] is False and app.settings.inputs["buttons"] is False
    assert app.settings.inputs["touch"] is True and "camera" not in app.running_inputs


def test_an_empty_folder_says_it_is_empty_and_what_it_plays(launch: Any, tmp_path: Path) -> None:
    """It said "No picture. Camera not found: no images (.bmp, ...) in FOLDER": the folder was there."""
    folder = tmp_path / "frames"
    folder.mkdir()
    app = launch(camera=str(folder))
    screen = open_camera(app)
    assert until(lambda: "is empty" in screen.ids.seen.text), screen.ids.seen.text
    said = screen.ids.seen.text  # a long path is shortened in the picture frame: its start and its end
    assert said.startswith("No picture. Camera: folder ") and said.endswith(
        "frames is empty: the camera plays the pictures put in it (.bmp, .jpeg, .jpg, .png, .tif, .tiff, .webp "
        "files, in name order); looked in again every 2 s")
    assert "not found" not in said and "lost" not in said
    assert app.input_problems["camera"].startswith(f"Camera: folder {folder} is empty")
    assert screen.ids.teach_card.disabled
    app.input_problems = {}  # before the app has the feed's word, the screen says it in the same words
    assert screen.problem(screen.feed()).startswith(f"Camera: folder {folder} is empty: ")


def test_a_video_that_played_to_its_end_says_it_ended_and_does_not_start_again(launch: Any, tmp_path: Path) -> None:
    """It said "Camera lost: FILE has played to its end" under the video's last picture: nothing was lost."""
    video = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for index in range(3):
        writer.write(np.full((48, 64, 3), 60 + 40 * index, np.uint8))
    writer.release()
    app = launch(camera=str(video))
    screen = open_camera(app)
    ended = "clip.avi has ended after 3 frames; it does not start again (no loop), so its last picture stays"
    assert until(lambda: screen.ids.seen.text.endswith(ended), 15), screen.ids.seen.text
    assert screen.ids.seen.text.startswith("64x48, frame 3, the last. Camera: video ")
    assert screen.ids.preview.texture is not None  # the last picture is still what the file shows
    app_said = f"Camera: video {video} has ended after 3 frames; it does not start again (no loop), so its last " \
        "picture stays"
    assert app.input_problems["camera"] == app_said
    assert "lost" not in app.inputs_note
    app.input_problems = {}  # before the app has the feed's word, the screen says it in the same words
    assert screen.problem(screen.feed()) == app_said + "."


def test_a_camera_that_could_not_start_is_named_without_its_password(
        launch: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Settings and the log read "Camera could not start (http://...?user=admin&pwd=Cafe2024): ..."."""
    import ui.inputs

    started = ui.inputs.start

    def no_opencv(controller: Any, name: str, source: str, *rest: Any) -> Any:
        if name == "camera":
            raise RuntimeError(f"cannot use {source}: OpenCV is not installed")
        return started(controller, name, source, *rest)

    monkeypatch.setattr(ui.inputs, "start", no_opencv)
    app = launch(camera_on("http://10.0.0.5/videostream.cgi?user=admin&pwd=Cafe2024"))
    said = app.input_problems["camera"]
    assert said == ("Camera could not start (http://10.0.0.5/videostream.cgi?user=admin&pwd=***): cannot use "
                    "http://10.0.0.5/videostream.cgi?user=admin&pwd=***: OpenCV is not installed"), said
    assert "Cafe2024" not in caplog.text and "pwd=***" in caplog.text
