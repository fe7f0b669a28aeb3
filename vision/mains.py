"""Lamps on mains power flicker at twice its frequency; a camera told that frequency times its exposure to it.

A camera reads its picture row by row, so under a flickering lamp an exposure
shorter than the flicker leaves dark and bright bands that roll through the
picture from frame to frame. The motion gate sees moving bands as motion and
the tray never holds still (`docs/vision.md`, "A picture that never holds
still"). Nearly every USB camera (a V4L2 "power line frequency" control) and
the Pi camera (libcamera's flicker period) can avoid them once told 50 or 60 Hz,
which the café knows and the camera cannot guess. 0 leaves the camera's own
setting alone.
"""

from __future__ import annotations

import errno
import os
import struct
from collections.abc import Mapping
from typing import Any

MAINS_HZ = (0, 50, 60)  # 0: the camera's own setting, untouched

# linux/videodev2.h: VIDIOC_S_CTRL is _IOWR('V', 28, struct v4l2_control), the struct two 32-bit fields.
V4L2_CONTROL = struct.Struct("Ii")
VIDIOC_S_CTRL = (3 << 30) | (V4L2_CONTROL.size << 16) | (ord("V") << 8) | 28
V4L2_CID_POWER_LINE_FREQUENCY = 0x00980900 + 24  # V4L2_CID_BASE + 24
V4L2_POWER_LINE = {50: 1, 60: 2}  # the control's menu: 0 off, 1 50 Hz, 2 60 Hz, 3 auto

# libcamera's controls: AeFlickerMode 1 is "manual" (avoid the period given), the period in microseconds.
FLICKER_MODE_MANUAL = 1


def flicker_period_us(hz: int) -> int:
    """The light's flicker period: a lamp brightens on both halves of each mains cycle."""
    return round(1_000_000 / (2 * hz))


def device_path(target: int | str) -> str | None:
    """The V4L2 device behind a capture target: an index is /dev/videoN; a URL or a file has none."""
    if isinstance(target, int):
        return f"/dev/video{target}"
    return target if target.startswith("/dev/") else None


def set_v4l2_mains(path: str, hz: int) -> str:
    """Tell the V4L2 camera at ``path`` the mains frequency; a sentence says what came of it.

    The control is set on a file of its own: V4L2 lets controls be changed
    while another opener (OpenCV) streams, so the camera need not be reopened.
    """
    name = f"camera {path}"
    try:
        import fcntl
    except ImportError:  # not Linux: no V4L2
        return f"{name}: no mains setting on this system; set it in the camera's own software"
    try:
        fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    except OSError as exc:
        return f"{name}: cannot set the mains frequency ({exc.strerror or exc})"
    try:
        fcntl.ioctl(fd, VIDIOC_S_CTRL, V4L2_CONTROL.pack(V4L2_CID_POWER_LINE_FREQUENCY, V4L2_POWER_LINE[hz]))
    except OSError as exc:
        if exc.errno in (errno.EINVAL, errno.ENOTTY, errno.ERANGE):  # no such control, or no V4L2 device at all
            return f"{name} takes no mains setting, so it may band under flickering light"
        return f"{name}: cannot set the mains frequency ({exc.strerror or exc})"
    finally:
        os.close(fd)
    return f"{name} set for {hz} Hz mains light"


def picamera_flicker(camera: Any, hz: int) -> str:
    """Set the Pi camera's flicker period when its libcamera offers one (older releases lack the control)."""
    advertised: Mapping[str, Any] = getattr(camera, "camera_controls", {}) or {}
    if "AeFlickerMode" not in advertised or "AeFlickerPeriod" not in advertised:
        return "the Pi camera's software has no flicker setting (update Raspberry Pi OS to get it)"
    try:
        camera.set_controls({"AeFlickerMode": FLICKER_MODE_MANUAL, "AeFlickerPeriod": flicker_period_us(hz)})
    except Exception as exc:  # the Pi camera stack raises many types
        return f"the Pi camera refused the mains frequency: {exc}"
    return f"Pi camera set for {hz} Hz mains light"
