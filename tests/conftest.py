"""Every test keeps its hands off the machine's own taught camera data: the default folder is a temporary one."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def taught_dir_of_the_test(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    taught = tmp_path / "taught"
    monkeypatch.setenv("COMPANION_TAUGHT_DIR", str(taught))
    return taught
