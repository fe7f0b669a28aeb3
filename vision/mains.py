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
BANDS_STAND_STILL = 0.1  # of their spacing: bands moving less than this from frame to frame hold the picture still

# linux/videodev2.h: VIDIOC_G_CTRL and VIDIOC_S_CTRL are _IOWR('V', 27 and 28, struct v4l2_control), the struct
# two 32-bit fields.
V4L2_CONTROL = struct.Struct("Ii")
VIDIOC_G_CTRL = (3 << 30) | (V4L2_CONTROL.size << 16) | (ord("V") << 8) | 27
VIDIOC_S_CTRL = VIDIOC_G_CTRL + 1
V4L2_CID_POWER_LINE_FREQUENCY = 0x00980900 + 24  # V4L2_CID_BASE + 24
V4L2_POWER_LINE = {50: 1, 60: 2}  # the control's menu: 0 off, 1 50 Hz, 2 60 Hz, 3 auto

# libcamera's controls: AeFlickerMode 0 is "off" (libcamera's default), 1 "manual" (avoid the period given), the
# period in microseconds.
FLICKER_MODE_OFF, FLICKER_MODE_MANUAL = 0, 1


def rolling_bands_mains(fps: float) -> int | None:
    """The mains frequency whose lamps give bands that roll through a camera's picture at ``fps``; None when both
    or neither would.

    From one frame to the next a lamp flickers 2 x mains / fps times, and the
    bands move on by the fraction over a whole number: at 30 frames a second
    100 Hz flicker (50 Hz mains) moves them a third of their spacing, while
    120 Hz (60 Hz mains) brings them back to where they were, bands that stand
    still and so never stop the picture from settling. Rolling bands at 30,
    15 or 60 frames a second come from 50 Hz mains, at 25 or 50 from 60 Hz.
    """
    if fps <= 0:
        return None
    rolling = [hz for hz in MAINS_HZ if hz and abs(2 * hz / fps - round(2 * hz / fps)) > BANDS_STAND_STILL]
    return rolling[0] if len(rolling) == 1 else None


def flicker_period_us(hz: int) -> int:
    """The light's flicker period: a lamp brightens on both halves of each mains cycle."""
    return round(1_000_000 / (2 * hz))


def device_path(target: int | str, devices: str = "/dev") -> str | None:
    """The V4L2 device behind a capture target: an index is /dev/videoN; a URL or a file has none.

    OpenCV reads an index of 100 or more as a backend's number plus a camera's
    (200 is V4L2's camera 0, 1800 GStreamer's), so its node is the last two
    digits'. ``devices`` is the folder of device nodes, a parameter so tests
    can stand a temporary folder in for /dev.
    """
    if isinstance(target, int):
        return f"{devices}/video{target % 100}"
    return target if target.startswith(f"{devices.rstrip('/')}/") else None


def v4l2_control(path: str, request: int, value: int = 0) -> int:
    """One power line control ioctl on a file of its own; the control's value as the driver answers it.

    V4L2 lets controls be read and changed while another opener (OpenCV)
    streams, so the camera need not be reopened. Raises OSError, or
    ImportError off Linux.
    """
    import fcntl

    fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    try:
        answer = bytearray(V4L2_CONTROL.pack(V4L2_CID_POWER_LINE_FREQUENCY, value))
        fcntl.ioctl(fd, request, answer)
        return V4L2_CONTROL.unpack(answer)[1]
    finally:
        os.close(fd)


class V4L2Mains:
    """A USB camera's power line control, and the value it had before the café set one.

    The camera keeps a value set this way until it is unplugged, so "the
    camera's own setting" has to be written back: the value is read before
    the first change and restored when the café goes back to 0.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.own: int | None = None  # the control's value before this app first changed it

    def set(self, hz: int) -> str:
        """Set ``hz`` (0: give the camera its own value back); a sentence says what came of it."""
        name = f"camera {self.path}"
        try:
            if hz:
                if self.own is None:
                    self.own = v4l2_control(self.path, VIDIOC_G_CTRL)
                v4l2_control(self.path, VIDIOC_S_CTRL, V4L2_POWER_LINE[hz])
                return f"{name} set for {hz} Hz mains light"
            if self.own is None:
                return ""  # never changed: nothing to give back
            v4l2_control(self.path, VIDIOC_S_CTRL, self.own)
            self.own = None
            return f"{name} back on its own mains setting"
        except ImportError:  # not Linux: no V4L2
            return f"{name}: no mains setting on this system; set it in the camera's own software"
        except OSError as exc:
            if exc.errno in (errno.EINVAL, errno.ENOTTY, errno.ERANGE):  # no such control, or no V4L2 device at all
                return f"{name} takes no mains setting, so it may band under flickering light"
            return f"{name}: cannot set the mains frequency ({exc.strerror or exc})"


def picamera_flicker(camera: Any, hz: int) -> str:
    """Set the Pi camera's flicker period when its libcamera offers one (older releases lack the control); 0 turns
    the avoidance off again, as libcamera starts."""
    advertised: Mapping[str, Any] = getattr(camera, "camera_controls", {}) or {}
    if "AeFlickerMode" not in advertised or "AeFlickerPeriod" not in advertised:
        return "the Pi camera's software has no flicker setting (update Raspberry Pi OS to get it)"
    try:
        if not hz:
            camera.set_controls({"AeFlickerMode": FLICKER_MODE_OFF})
            return "Pi camera back on its own mains setting"
        camera.set_controls({"AeFlickerMode": FLICKER_MODE_MANUAL, "AeFlickerPeriod": flicker_period_us(hz)})
    except Exception as exc:  # the Pi camera stack raises many types
        return f"the Pi camera refused the mains frequency: {exc}"
    return f"Pi camera set for {hz} Hz mains light"
