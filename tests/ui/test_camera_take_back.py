"""Take back, on the camera screen: the last card photo or die face taught in this visit, undone with one tap.

Before, a café owner at the touchscreen had no way back from a mistaken teach: a face only over SSH
(`companion vision untaught-face`), a card photo only by deleting its `P07__1.png` by hand. The camera shows
real PNG frames, the photos are real files, and the die's faces are rendered and read with OpenCV.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.ui.conftest import advance, tap, until
from tests.ui.test_camera_screen import frames, on_camera_with_card, open_camera, teach
from tests.vision.test_feed import BY_ID
from vision.cli import main
from vision.temple_die_render import render_temple_die


def take_back(screen: Any) -> str:
    """Tap Take back and wait for the answer: it runs off Kivy's thread, as a teaching does."""
    tap(screen.ids.take_back)
    assert until(lambda: not screen.teaching), screen.note
    advance(2)
    return screen.note


def test_the_same_card_taught_again_under_the_same_light_keeps_its_photo_and_offers_no_second_take_back(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path
) -> None:
    """A second tap on Teach stored a second, all but identical photo, compared at every reading for nothing."""
    card = sorted(BY_ID)[4]
    _app, screen = on_camera_with_card(launch, tmp_path, card)
    assert teach(screen, "teach_card").startswith(f"Taught {card} from slot 3.")
    said = teach(screen, "teach_card")
    assert said.startswith(f"{card} is already taught from slot 3 under this light: this photo matches {card}__0.png, "
                           "taught before ("), said
    assert "so that one was kept and no second one stored" in said and "Taught" not in said
    assert sorted(p.name for p in taught_dir_of_the_test.iterdir()) == [f"{card}__0.png"]
    assert take_back(screen).startswith(f"The photo of {card} ({card}__0.png) taken back.")
    assert screen.ids.take_back.disabled, "the photo kept was offered once, as taught once"


def test_the_card_photos_taught_in_this_visit_are_taken_back_last_first(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("vision.teaching.SAME_PHOTO", -1.0)  # the same frame twice: both stored, as in other light
    card = sorted(BY_ID)[4]
    app, screen = on_camera_with_card(launch, tmp_path, card)
    assert screen.ids.take_back.disabled, "nothing taught yet, nothing to take back"
    assert teach(screen, "teach_card").startswith(f"Taught {card} from slot 3.")
    assert teach(screen, "teach_card").startswith(f"Taught {card} from slot 3.")
    first, second = (taught_dir_of_the_test / f"{card}__{n}.png" for n in (0, 1))
    kept = first.read_bytes()
    assert second.is_file() and not screen.ids.take_back.disabled
    feed = app.running_inputs["camera"][1]
    feed._reload.clear()

    assert take_back(screen) == (f"The photo of {card} ({card}__1.png) taken back. "
                                 "The camera reads without it from now on.")
    assert not second.exists() and first.read_bytes() == kept, "only the last photo taught is taken back"
    assert feed._reload.is_set() or "cards" not in feed.readers  # read without it from the next frame
    assert not screen.ids.take_back.disabled, "the photo taught before it is still this visit's"
    assert take_back(screen).startswith(f"The photo of {card} ({card}__0.png) taken back.")
    assert not first.exists() and screen.ids.take_back.disabled


def test_a_photo_damaged_since_it_was_taught_is_refused_and_left_as_it_was(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path
) -> None:
    card = sorted(BY_ID)[4]
    _app, screen = on_camera_with_card(launch, tmp_path, card)
    teach(screen, "teach_card")
    photo = taught_dir_of_the_test / f"{card}__0.png"
    photo.write_bytes(b"\x89PNG cut short")
    said = take_back(screen)
    assert said.startswith(f"Not taken back: {photo} is not the card photo taught (not a readable image): it was "
                           "left as it was"), said
    assert photo.read_bytes() == b"\x89PNG cut short" and screen.refused
    assert screen.ids.take_back.disabled and not screen.ids.teach_card.disabled


def test_a_face_taught_under_the_wrong_value_names_the_button_and_is_taken_back_by_it(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path
) -> None:
    """The warning named the command line ("companion vision untaught-face ..."), of no use at the touchscreen."""
    for value, seeds in (("3", (1, 2)), ("5", (11, 12))):
        for seed in seeds:
            photo = tmp_path / f"{value}-{seed}.png"
            assert cv2.imwrite(str(photo), render_temple_die(np.random.default_rng(seed), value, "white",
                                                             size=(640, 480), edge=100.0)[0])
            assert main(["vision", "teach-die", str(photo), "--value", value, "--colour", "white",
                         "--out", str(taught_dir_of_the_test)]) == 0
    die = taught_dir_of_the_test / "temple_die.json"
    before = json.loads(die.read_text())
    five = render_temple_die(np.random.default_rng(30), "5", "white", size=(640, 480), edge=100.0)[0]
    screen = open_camera(launch(camera=frames(tmp_path / "die", five)))
    assert until(lambda: screen.live)
    screen.ids.value.text = "3"  # the slip: a 5 on the tray, 3 picked
    tap(screen.ids.white)
    said = teach(screen, "teach_face")
    assert "this face matches the 5 taught before" in said, said
    assert "take this face back alone (tap Take back)" in said and "untaught-face" not in said
    assert len(json.loads(die.read_text())["glyphs"]["3"]) == 3

    assert take_back(screen) == ("The last face taught as 3 on white taken back (4 faces taught so far). "
                                 "The camera reads without it from now on.")
    assert json.loads(die.read_text()) == before
    assert screen.ids.take_back.disabled


def test_a_new_visit_has_nothing_to_take_back(launch: Any, tmp_path: Path, taught_dir_of_the_test: Path) -> None:
    """What an earlier visit taught is not this owner's slip: only the command line takes it back."""
    card = sorted(BY_ID)[4]
    app, screen = on_camera_with_card(launch, tmp_path, card)
    teach(screen, "teach_card")
    assert not screen.ids.take_back.disabled
    tap(screen.ids.back)
    open_camera(app)
    assert screen.ids.take_back.disabled
    screen.take_back()  # a tap that lands before the screen has redrawn
    assert not screen.teaching and (taught_dir_of_the_test / f"{card}__0.png").is_file()


def test_a_take_back_refused_while_another_teach_holds_the_folder_is_offered_again(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path, monkeypatch: Any
) -> None:
    """Refused because the command line (or another app) was storing there, the photo was untouched, yet it left
    the list: the button went off and the photo could then be taken back only by deleting it by hand."""
    from tests.vision.test_teaching_at_once import held_elsewhere

    monkeypatch.setattr("vision.teaching.STORING_WAIT", 0.2)
    card = sorted(BY_ID)[4]
    _app, screen = on_camera_with_card(launch, tmp_path, card)
    teach(screen, "teach_card")
    photo = taught_dir_of_the_test / f"{card}__0.png"
    with held_elsewhere(taught_dir_of_the_test):
        said = take_back(screen)
    assert said.startswith("Not taken back: another teach step (the camera screen or a teach command) has kept "), said
    assert said.endswith("nothing was taken back: take it back again once that one is done. "
                         "Take back offers it again."), said
    assert photo.is_file() and screen.refused
    assert not screen.ids.take_back.disabled, "still this visit's, and still there"
    assert take_back(screen).startswith(f"The photo of {card} ({card}__0.png) taken back.")
    assert not photo.exists() and screen.ids.take_back.disabled


def test_a_card_linked_to_the_wrong_id_names_the_button_and_is_taken_back_by_it(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path
) -> None:
    """P13 picked for the P01 lying in slot 3: the answer said to teach it as P01 instead, and so taught the P13
    photo of P01 stayed beside it, both read. Now it says to take it back first, with the button at hand."""
    _app, screen = on_camera_with_card(launch, tmp_path, "P01")
    screen.ids.card.text = "P13"
    said = teach(screen, "teach_card")
    assert said.startswith("Taught P13 from slot 3. The camera reads with it from now on. But slot 3 read as P01 "
                           "before ("), said
    assert said.endswith("if P01 lies there, take this photo back (tap Take back) and teach it as P01 instead."), said
    assert take_back(screen).startswith("The photo of P13 (P13__0.png) taken back.")
    screen.ids.card.text = "P01"
    assert teach(screen, "teach_card").startswith("Taught P01 from slot 3. The camera reads with it from now on.")
    assert sorted(p.name for p in taught_dir_of_the_test.iterdir()) == ["P01__0.png"]


def test_a_slip_mended_by_teaching_the_right_card_names_the_wrong_photo_and_take_back_takes_it(
    launch: Any, tmp_path: Path, taught_dir_of_the_test: Path
) -> None:
    """P13 taught for the P01 lying in slot 3, then P01 taught to mend it: the slot read as P13 by that photo, and
    the answer said to take back the P01 photo just taught, and teach it as P13."""
    _app, screen = on_camera_with_card(launch, tmp_path, "P01")
    screen.ids.card.text = "P13"
    teach(screen, "teach_card")
    screen.ids.card.text = "P01"
    said = teach(screen, "teach_card")
    assert said.startswith("Taught P01 from slot 3. The camera reads with it from now on. But slot 3 read as P13 "
                           "before (100% sure), by the photo taught as P13 (P13__0.png), where the drawings read "
                           "P01: if P01 lies there, that photo shows it too and pulls its readings to P13: take that "
                           "photo back (tap Take back)."), said
    assert take_back(screen).startswith("The photo of P13 (P13__0.png) taken back.")
    assert sorted(p.name for p in taught_dir_of_the_test.iterdir()) == ["P01__0.png"]
    assert take_back(screen).startswith("The photo of P01 (P01__0.png) taken back.")  # P13's item went with it
    assert screen.ids.take_back.disabled
