"""Ctrl-C in a long vision measurement prints what was measured so far, marked partial, and exits 130.

Each stopped with a reader made to raise KeyboardInterrupt (as Ctrl-C does) after a few reads: they said only
"vision ... stopped (Ctrl-C)", and the minutes of reading before were lost.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from tests.vision.test_eval_dice_robust import write_split


def stop_after(monkeypatch: pytest.MonkeyPatch, cls: type, reads: int) -> None:
    """``cls.read`` reads ``reads`` times, then raises KeyboardInterrupt as a Ctrl-C would during the next read."""
    real = cls.read
    done = [0]

    def read(self: Any, *args: Any, **kwargs: Any) -> Any:
        if done[0] == reads:
            raise KeyboardInterrupt
        done[0] += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(cls, "read", read)


def test_eval_dice_stopped_scores_the_images_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from vision.d6_reader import D6Reader

    split = write_split(tmp_path, 5)
    stop_after(monkeypatch, D6Reader, 2)
    assert main(["vision", "eval-dice", str(split)]) == 130
    out = capsys.readouterr().out
    assert out.startswith("partial: 2 of 5 images (stopped by Ctrl-C)\n"), out
    assert "\nimages          2\n" in out and "\ndice            6\n" in out, out


def test_eval_dice_stopped_keeps_its_json_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from vision.d6_reader import D6Reader

    split = write_split(tmp_path, 4)
    stop_after(monkeypatch, D6Reader, 1)
    assert main(["vision", "eval-dice", str(split), "--json"]) == 130
    captured = capsys.readouterr()
    assert json.loads(captured.out)["images"] == 1
    assert "vision: partial: 1 of 4 images (stopped by Ctrl-C)" in captured.err


def test_eval_cards_stopped_scores_the_photos_read(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from vision.card_reader import CardReader

    stop_after(monkeypatch, CardReader, 3)
    assert main(["vision", "eval-cards", "--frames", "120"]) == 130
    out = capsys.readouterr().out
    assert out.startswith("partial: 3 of 120 board photos (stopped by Ctrl-C)\n") and "\nframes          3\n" in out


@pytest.mark.parametrize(("extra", "reads", "said"), [
    ([], 5, "partial: 5 of 320 die faces (stopped by Ctrl-C)"),
    (["--on-board", "--frames", "40"], 5, "partial: 2 of 40 turns (stopped by Ctrl-C)"),  # two reads a turn
])
def test_eval_temple_die_stopped_scores_the_faces_read(
    extra: list[str], reads: int, said: str, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from vision.temple_die import TempleDieReader

    reader = TempleDieReader.from_renders()  # taught before the reads are counted
    monkeypatch.setattr(TempleDieReader, "from_renders", classmethod(lambda cls, *a, **k: reader))
    stop_after(monkeypatch, TempleDieReader, reads)
    assert main(["vision", "eval-temple-die", *extra]) == 130
    out = capsys.readouterr().out
    assert out.startswith(said + "\n"), out


def test_bench_stopped_prints_the_timings_taken(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from vision.d6_reader import D6Reader

    # In the d6 reader's third timing (each takes a read to warm up and one timed): the motion gate's and two of
    # the d6 reader's are printed. Stopped in the cards' timing, the settle, idle and announce runs before it took
    # about 3 s of CPU and 3 s of a video played at its frame rate, for the same partial print.
    stop_after(monkeypatch, D6Reader, 4)
    assert main(["vision", "bench", "--repeat", "1"]) == 130
    out = capsys.readouterr().out
    assert out.startswith("partial: ") and "timings taken (stopped by Ctrl-C; the others not)" in out, out
    assert "motion_gate_ms" in out and "d6_ms_4_dice" in out and "d6_ms_10_dice" not in out
    assert "cards_ms_12_slots" not in out


def test_bench_soak_stopped_reports_the_rolls_thrown(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from vision.soak import ScriptedTray

    real = ScriptedTray.throw
    thrown = [0]

    def throw(self: ScriptedTray, *args: Any) -> None:
        if thrown[0] == 2:
            raise KeyboardInterrupt
        thrown[0] += 1
        real(self, *args)

    monkeypatch.setattr(ScriptedTray, "throw", throw)
    assert main(["vision", "bench", "--soak", "150"]) == 130
    out = capsys.readouterr().out
    assert "camera soak: 2 of 150 rolls (stopped by Ctrl-C) (" in out, out
    assert "peak memory after each 100 rolls (MB): " in out


def test_watch_stopped_says_what_it_read_and_ends_130(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """Ctrl-C, the usual end of a live watch, ended it 0: a script could not tell it from a source read to its end."""
    import cv2

    from vision.card_catalogue import load_temple_board, load_temple_cards
    from vision.card_render import render_board
    from vision.sources import FolderSource

    cards, board = load_temple_cards(), load_temple_board()
    image, _ = render_board(board, {s.slot: cards[s.slot] for s in board.slots}, cell_px=20)
    for i in range(4):
        cv2.imwrite(str(tmp_path / f"{i}.png"), image)
    stop_after(monkeypatch, FolderSource, 2)
    assert main(["vision", "watch", str(tmp_path), "--reader", "cards", "--every-frame"]) == 130
    captured = capsys.readouterr()
    assert "\n2 frames read (stopped by Ctrl-C)\n" in captured.out, captured.out
    assert captured.err == "" and "Traceback" not in captured.out
