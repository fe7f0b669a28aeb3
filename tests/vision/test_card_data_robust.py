"""Odd café card data and odd places to write to: the card tools must not leave a broken file or read wrong."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from vision.marker_sheet import write_marker_sheet

ROOT = Path(__file__).resolve().parents[2]

# Writes the sheet with the process's file size capped below the sheet's size, as a full SD card would stop it.
CAPPED_WRITE = """
import resource, signal, sys
from pathlib import Path
from vision.marker_sheet import write_marker_sheet
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))
try:
    write_marker_sheet(Path(sys.argv[1]), 20.0)
except OSError as error:
    print(error.errno)
    sys.exit(3)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_marker_sheet_cut_short_leaves_the_earlier_sheet_whole(tmp_path: Path) -> None:
    """A write stopped half way left a truncated PDF under the name, over the café's good sheet."""
    sheet = write_marker_sheet(tmp_path / "sheet.pdf", 50.0)
    good = sheet.read_bytes()
    assert len(good) > 2048
    done = subprocess.run([sys.executable, "-c", CAPPED_WRITE, str(sheet)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 3, done.stderr
    assert sheet.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.pdf"]  # nothing half-written left aside


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_marker_sheet_cut_short_leaves_no_file(tmp_path: Path) -> None:
    target = tmp_path / "new.pdf"
    done = subprocess.run([sys.executable, "-c", CAPPED_WRITE, str(target)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 3, done.stderr
    assert list(tmp_path.iterdir()) == []
