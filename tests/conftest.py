"""Every test keeps its hands off the machine's own taught camera data and app settings: their folders are temporary."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def taught_dir_of_the_test(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    taught = tmp_path / "taught"
    monkeypatch.setenv("COMPANION_TAUGHT_DIR", str(taught))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # the setup commands read the app's ui.json
    monkeypatch.delenv("COMPANION_UI_SETTINGS", raising=False)
    return taught
