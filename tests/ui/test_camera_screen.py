"""The camera screen: the running feed's picture, and a café's card and die face taught with one tap each."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.ui.conftest import advance, open_settings, tap, until
from tests.vision.test_feed import BY_ID, board_frame
from vision.temple_die_render import render_temple_die


def frames(folder: Path, frame: np.ndarray, copies: int = 60) -> str:
    folder.mkdir()
    for index in range(copies):
        cv2.imwrite(str(folder / f"{index:03d}.png"), frame)
    return str(folder)


def open_camera(app: Any) -> Any:
    tap(open_settings(app).ids.camera)
    advance(3)
    return app.root.get_screen("camera")


def test_without_a_camera_the_screen_says_so_and_teaches_nothing(launch: Any, taught_dir_of_the_test: Path) -> None:
    app = launch()
    screen = open_camera(app)
    assert "camera is off" in screen.ids.seen.text and screen.ids.teach_card.disabled
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
    tap(screen.ids.teach_card)
    assert screen.note.startswith(f"Taught {card} from slot 3."), screen.note
    assert (taught_dir_of_the_test / f"{card}__0.png").is_file()
    assert feed._reload.is_set() or "cards" not in feed.readers  # read afresh from the next frame

    screen.ids.slot.text = "13"
    tap(screen.ids.teach_card)
    assert screen.note.startswith("Not taught: slot 13 is not on the board")
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
    tap(screen.ids.teach_face)
    assert screen.note.startswith(expected), screen.note
    assert (taught_dir_of_the_test / "temple_die.json").exists() == (said == "white")


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
    tap(screen.ids.teach_card)
    assert screen.note.startswith("Taught K05 from slot 3."), screen.note
    assert (taught_dir_of_the_test / "K05__0.png").is_file()
