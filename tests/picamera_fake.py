"""A stand-in for Raspberry Pi OS's picamera2 module, which no CI machine has, with the calls it took kept.

It answers as picamera2 does where the app relies on it: a video configuration,
`capture_array()` in BGR byte order, `camera_controls` naming the controls this
camera's libcamera offers, and `set_controls()` raising on one it does not.
"""

from __future__ import annotations

import importlib.machinery
import sys
import types
from typing import Any

import numpy as np
import pytest

FLICKER_CONTROLS = {"AeFlickerMode": (0, 2, 0), "AeFlickerPeriod": (100, 1_000_000, None)}  # (min, max, default)


class FakePicamera2:
    controls_offered: dict[str, Any] = {}
    frame: np.ndarray = np.full((480, 640, 3), 128, np.uint8)
    opened: list[FakePicamera2] = []

    def __init__(self) -> None:
        self.camera_controls = dict(self.controls_offered)
        self.set: list[dict[str, Any]] = []
        self.started = False
        type(self).opened.append(self)

    def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def set_controls(self, controls: dict[str, Any]) -> None:
        unknown = sorted(set(controls) - set(self.camera_controls))
        if unknown:
            raise RuntimeError(f"Control {unknown[0]} is not advertised by libcamera")
        self.set.append(dict(controls))

    def capture_array(self) -> np.ndarray:
        return self.frame.copy()

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        pass


def install_picamera2(monkeypatch: pytest.MonkeyPatch, controls: dict[str, Any] | None = None,
                      frame: np.ndarray | None = None) -> type[FakePicamera2]:
    """Make ``import picamera2`` find the fake; each test gets a fresh class, so nothing leaks between tests."""
    fake = type("Picamera2", (FakePicamera2,), {
        "controls_offered": dict(FLICKER_CONTROLS if controls is None else controls),
        "frame": FakePicamera2.frame if frame is None else frame,
        "opened": [],
    })
    module = types.ModuleType("picamera2")
    module.__spec__ = importlib.machinery.ModuleSpec("picamera2", None)
    module.Picamera2 = fake  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return fake
