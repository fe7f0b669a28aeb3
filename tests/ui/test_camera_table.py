"""The camera as the table sees it: an unsure reading offered for one tap, and a camera that fails or ends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.observations import CardsSeen, RollStarted
from tests.ui.conftest import advance, tap, until
from tests.ui.test_camera_screen import open_camera
from tests.ui.test_layout import shown_whole
from ui.shots import long_list


def lit(table: Any) -> list[Any]:
    return [b for b in table.buttons() if b.chosen]


def test_an_unsure_card_opens_its_slot_with_its_choice_in_sight(start: Any) -> None:
    """The slot's 37 cards were listed with the scroll at their foot, the lit one out of sight above it:
    the scroll ran before the new buttons were laid out, when every one of them still sat at the bottom."""
    session = long_list("temple", ["red", "blue"])
    app = start(session)
    table = app.root.get_screen("table")
    slot = next(a["slot"] for a in session.legal() if a["type"] == "change")
    listed = [a for a in session.legal() if a["type"] == "change" and a["slot"] == slot]
    change = listed[len(listed) // 2]  # in the middle of its slot's list: neither end of the scroll shows it
    steps = len(session.log)
    app.controller.submit(CardsSeen({change["slot"]: change["card"]}, "camera", 0.5))
    assert until(lambda: app.status)  # the app's pump takes the reading in real time
    advance(6)
    assert "Tap to confirm" in app.status and len(session.log) == steps
    assert table.focus == change["slot"]
    [button] = lit(table)
    assert button.action == change
    assert shown_whole(button, table.ids.choice_scroll), "the choice to tap is out of sight"
    tap(button)
    assert len(session.log) == steps + 1 and session.log[-1] == {k: v for k, v in change.items() if k != "text"}


def test_a_question_waiting_for_its_tap_outlasts_a_passing_note(start: Any) -> None:
    """A camera's note ("Dice rolling.") took the status line while the unsure card stayed lit, unexplained."""
    session = long_list("temple", ["red", "blue"])
    app = start(session)
    change = next(a for a in session.legal() if a["type"] == "change")
    app.controller.submit(CardsSeen({change["slot"]: change["card"]}, "camera", 0.5))
    assert until(lambda: app.status)  # the app's pump takes the reading in real time
    advance(6)
    asked = app.status
    assert "Tap to confirm" in asked
    app.controller.submit(RollStarted("camera"))
    app.controller.pump()  # as the app's tick would, without waiting for its timer
    advance(3)
    assert app.status == asked and app.controller.proposal is not None


class Unplugged:
    """A camera whose cable was pulled: every read and every reopening fails."""

    def read(self) -> None:
        raise OSError("the USB cable is out")

    def close(self) -> None:
        pass

    def __call__(self) -> Unplugged:
        return self


def test_an_unplugged_camera_is_said_on_the_table_until_it_is_back_and_shows_no_old_picture(
    launch: Any, tmp_path: Path
) -> None:
    """A lost camera was told once, in a status line the next step cleared, and its last frame stayed on
    the camera screen as if live; now the table keeps one line about it and the camera screen its reason."""
    folder = tmp_path / "frames"
    folder.mkdir()
    for index in range(300):  # ten seconds at the feed's pace: still running when unplugged and back
        cv2.imwrite(str(folder / f"{index:03d}.png"), np.full((48, 64, 3), 60 + index % 100, np.uint8))
    app = launch(camera=str(folder))
    assert app.new_game("blackpool", ["yellow", "red"])
    table = app.root.get_screen("table")
    feed = app.running_inputs["camera"][1]
    assert until(lambda: feed.latest is not None and app.controller.links.get("camera") is True)
    assert "not reading" not in table.ids.status.text
    camera = open_camera(app)
    assert until(lambda: camera.live)

    opener, feed.source.opener, feed.source.source = feed.source.opener, Unplugged(), Unplugged()
    assert until(lambda: "USB cable" in app.inputs_note)  # the moment it is lost
    # it gave pictures: lost, not "not found"; the players read what to do, the settings screen why
    assert table.ids.status.text == "Camera lost: tap what it would have read (owner: Settings)."
    assert app.inputs_note.startswith("Camera lost: ")
    app.act(app.choices[-1])  # the next step clears that line; the camera is still out
    advance(3)
    assert app.status == "" and table.ids.status.text.startswith("Camera not reading")
    assert "USB cable" in app.inputs_note
    assert until(lambda: camera.ids.seen.text.startswith("No picture."))
    assert camera.ids.preview.texture is None and not camera.live and "USB cable" in camera.ids.seen.text
    camera.teach_card()  # as a tap that reached the screen before the button went off
    assert camera.note.startswith("No picture to teach from.") and not camera.teaching

    feed.source.opener = opener  # plugged back in: reopened at the next retry
    assert until(lambda: app.controller.links.get("camera") is True)
    assert until(lambda: "not reading" not in table.ids.status.text and camera.live)
    assert app.inputs_down == "" and "USB cable" not in camera.ids.seen.text


def test_a_picture_that_never_holds_still_is_said_on_the_table_until_it_does(launch: Any, tmp_path: Path) -> None:
    """Rolls went unread for the rest of the game when the picture never held still, and only the camera
    screen, behind the PIN, said why; now the table keeps its line about the camera and settings the mend."""
    from tests.ui.test_camera_screen import STILL
    from tests.vision.test_feed import die_at, shaking, write_frames

    # 4 s shaking, then 8 s still
    folder = write_frames(tmp_path / "frames", [*shaking(die_at(1), 120), *[die_at(1)] * 240], STILL)
    app = launch(camera=str(folder))
    assert app.new_game("blackpool", ["yellow", "red"])
    feed = app.running_inputs["camera"][1]
    feed.stuck_after = 1.0
    table = app.root.get_screen("table")
    assert until(lambda: app.inputs_down.startswith("Camera not reading"), 20), app.inputs_note
    assert "Camera lost: picture not still for 1 s, nothing read: steady the camera's mount" in app.inputs_note
    assert until(lambda: app.inputs_down == "" and "not reading" not in table.ids.status.text, 20)


def test_a_status_too_long_for_three_lines_keeps_its_start(start: Any) -> None:
    """The status line kept the last three lines of a longer one: a lost camera's line began mid-sentence."""
    app = start(long_list("temple", ["red", "blue"]))
    table = app.root.get_screen("table")
    app.status = "camera lost: " + " ".join(f"word{index}" for index in range(80)) + " the end"
    advance(3)
    shown = table.ids.status._label._cached_lines  # the lines Kivy laid out and drew
    assert len(shown) == 3 and shown[0].words[0].text.startswith("camera lost: word0")
