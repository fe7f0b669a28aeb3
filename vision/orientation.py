"""Which way up the camera's picture is: a camera mounted sideways or upside down, or a picture sent mirrored.

The readers are not all indifferent to it. Dice seen at a slant show their
sides below their tops when the table's far edge is at the top of the picture,
and the d6 detector learnt that: the same photos turned half round read far
worse (d6-roboflow/valid recall 0.80 upright, 0.53 turned; "Which way up" in
docs/vision.md). ArUco markers seen in a mirror are no markers at all, so a
mirrored picture reads no path card. The picture is therefore put upright
before any reader, the camera screen's preview or a teach step sees it, by one
`Orientation` the café sets once for its camera.

OpenCV and numpy are imported only to turn a frame, so the settings and every
command line can name the turns without loading them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TURNS = (0, 90, 180, 270)  # degrees clockwise


@dataclass(frozen=True)
class Orientation:
    """How to put the camera's picture upright: turned `turn` degrees clockwise, then mirrored left to right.

    Mirroring after the turn makes it act on the picture as the screen shows it:
    "Mirror" always swaps the shown picture's left and right.
    """

    turn: int = 0
    mirror: bool = False

    def __post_init__(self) -> None:
        if self.turn not in TURNS or isinstance(self.turn, bool):
            raise ValueError(f"a picture turns by 0, 90, 180 or 270 degrees, not {self.turn!r}")

    @property
    def upright(self) -> bool:
        """True when the picture is used as the camera sends it."""
        return self.turn == 0 and not self.mirror

    def apply(self, frame: Any) -> Any:
        """The frame put upright; anything that is not a picture of at least two axes, or is empty, passes
        unchanged, for the readers to refuse in their own words (`frames.as_bgr`): OpenCV turned an empty
        frame into None, which no message could then describe."""
        if self.upright:
            return frame
        import cv2
        import numpy as np

        if not isinstance(frame, np.ndarray) or frame.ndim < 2 or frame.size == 0:
            return frame
        try:  # OpenCV turns a 640x480 frame in a tenth of the time numpy's copy takes
            if self.turn:
                turns = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}
                frame = cv2.rotate(frame, turns[self.turn])
            return cv2.flip(frame, 1) if self.mirror else frame
        except cv2.error:  # a type OpenCV does not take (bool, int64): numpy turns anything
            turned = np.rot90(frame, -self.turn // 90)
            return np.ascontiguousarray(turned[:, ::-1] if self.mirror else turned)

    def turned_once_more(self) -> Orientation:
        """The next quarter turn clockwise, for a button pressed until the picture stands upright."""
        return Orientation((self.turn + 90) % 360, self.mirror)

    def mirrored(self) -> Orientation:
        return Orientation(self.turn, not self.mirror)

    def words(self) -> str:
        """How the picture is put upright, for a screen or a log: "as the camera sends it", "turned 90°, mirrored"."""
        if self.upright:
            return "as the camera sends it"
        parts = [f"turned {self.turn}°"] if self.turn else []
        return ", ".join(parts + ["mirrored"] * self.mirror)


UPRIGHT = Orientation()  # the picture as the camera sends it
