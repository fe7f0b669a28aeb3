"""`vision watch --reader cards` says which cards the table would ask about, as it says of dice."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.board_photos import board_photo
from vision.card_catalogue import load_temple_board, load_temple_cards
from vision.cli import main

WATCH = ["--turn", "0", "--no-mirror", "--mains", "0"]  # whatever a settings file says


def test_a_card_read_less_than_surely_is_said_to_be_asked(tmp_path: Path, capsys) -> None:
    """Cards laid askew by hand, two glare spots: "slot 1 now holds P33 (55% sure)" read as a card taken."""
    photo = board_photo(np.random.default_rng(0), load_temple_cards(), load_temple_board(), askew=(0.25, 8.0),
                        glare=2)
    folder = tmp_path / "camera"
    folder.mkdir()
    for index in range(4):
        cv2.imwrite(str(folder / f"{index}.png"), photo.image)
    (tmp_path / "taught").mkdir()
    assert main(["vision", "watch", str(folder), "--reader", "cards", "--taught", str(tmp_path / "taught"),
                 *WATCH]) == 0
    out = capsys.readouterr().out
    asked = [line for line in out.splitlines() if line.endswith(": the table would ask a player to confirm it")]
    assert asked and all("% sure)" in line for line in asked), out
    for line in out.splitlines():
        if "now holds" in line:
            sure = int(line.split("(")[1].split("%")[0])
            assert (line in asked) == (sure < 80), line
    assert any("now holds" in line and line not in asked for line in out.splitlines()), out
