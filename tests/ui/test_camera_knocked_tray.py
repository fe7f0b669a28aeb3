"""The kiosk keeps a marked tray that moved with a knocked camera's picture, so a restart reads dice on the tray."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.ui.conftest import settings_file, until
from tests.vision.test_camera_knocked import Table
from tests.vision.test_knock_tray import MARKED, knocked, knocked_tray, near
from vision.tray_area import TrayArea


def test_a_tray_moved_with_a_knocked_camera_is_kept_in_the_settings(launch: Any, tmp_path: Path) -> None:
    """Left as saved, the next start read dice where the tray lay before the knock."""
    from ui.settings import Settings

    app = launch(Settings(tray_area=MARKED.as_list()), camera=knocked(Table, tmp_path))

    def saved() -> list:
        return json.loads(settings_file(tmp_path).read_text())["tray_area"]

    assert until(lambda: near(saved(), knocked_tray()), 60), saved()
    assert app.camera_tray() == TrayArea(*saved()) == app.running_inputs["camera"][1].tray
