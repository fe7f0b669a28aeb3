"""Where frames come from: a camera by index or URL, picamera2 on a Pi, a video file, a folder of images.

All sources share one tiny interface (`read() -> frame or None`, `close()`), and
`RetryingSource` wraps any of them so a camera that fails or is unplugged is
reported and reopened later instead of taking the app down.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit
from urllib.request import url2pathname

import cv2
import numpy as np

from vision.camera_node import DEVICES, camera_node, missing_note, refused_note
from vision.frames import image_file, image_problem, quiet_opencv
from vision.login import shown
from vision.mains import V4L2Mains, device_path, picamera_flicker
from vision.yolo_labels import IMAGE_SUFFIXES

VIDEO_SUFFIXES = {".avi", ".mp4", ".mkv", ".mov", ".webm", ".mjpg", ".mjpeg"}

# FFmpeg writes a line of its own to stderr for every failed try on a stream URL ("[tcp @ 0x...]
# Connection refused"), beside our one sentence, every retry all day; `quiet_opencv` cannot reach
# it. FFmpeg reads this once, before its first use, so it is set on import; a café may set its own.
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "8")  # AV_LOG_FATAL


class SourceError(RuntimeError):
    """A source cannot be opened or has stopped giving frames; the message says why in a sentence."""


class SourceRefused(SourceError):
    """A source no wait can bring: a module not installed, a word that names no camera. `watch` ends on it at once
    where it would retry an unplugged camera for ever."""


class SourceUnusable(SourceError):
    """A source that is there but gives no picture as it is (an empty folder, a camera this user may not open):
    neither lost nor not found, it is told by its reason alone. Retried all the same, since pictures may yet be
    copied in, or the camera's group given; ``retried`` is how the retry is said ("looked in again" for a folder,
    "tried again" for a camera)."""

    def __init__(self, message: str, retried: str = "looked in again") -> None:
        super().__init__(message)
        self.retried = retried


# The network schemes a camera's stream comes by that OpenCV's FFmpeg opens. Any other before "://" (htp://,
# ftp://, a scheme mistyped) was tried as a stream every 2 s for ever: `watch` without --timeout never ended.
STREAM_SCHEMES = ("rtsp", "rtsps", "http", "https", "rtmp", "rtmps", "rtp", "udp", "tcp", "srt", "mmsh", "mmst")
MAX_CAMERA_INDEX = 9999  # above any /dev/videoN, and above OpenCV's index + backend offsets (CAP_* up to 2600)
# A stream that stalls (a camera that accepts the connection and never answers, a network that drops) held
# OpenCV's FFmpeg 30 s in one call, deaf to --timeout and Ctrl-C. A camera answers within these.
STREAM_OPEN_MS = 5000
STREAM_READ_MS = 3000


class FrameSource(Protocol):
    """What every source offers. `live` is true for a camera or a stream, whose frames come at its own pace and
    go stale while they wait: the feed reads those as fast as they come and paces only files and folders."""

    name: str
    live: bool

    def read(self) -> np.ndarray | None:
        """The next BGR frame, or None when none is ready yet; raises SourceError when the source is gone."""
        ...

    def close(self) -> None: ...


class CaptureSource:
    """cv2.VideoCapture over a device index, a stream URL or a video file.

    ``devices`` is the folder of device nodes (/dev), where camera N is videoN: a parameter so tests stand a
    temporary folder in for it and never open a real camera.
    """

    first: np.ndarray | None = None  # a file's first frame, read to open it, handed out first
    frames_counted: int | None = None  # a video file's frames by its header, where it says
    frames_given = 0  # the frames handed out

    def __init__(self, target: int | str, width: int | None = None, height: int | None = None,
                 devices: str = DEVICES) -> None:
        self.name = shown(str(target))
        # A URL is a stream whatever it ends in: IP cameras serve "http://.../video.mjpg".
        self.is_file = (isinstance(target, str) and "://" not in target
                        and Path(target).suffix.lower() in VIDEO_SUFFIXES)
        if self.is_file and not Path(target).exists():
            raise SourceError(f"video file {target} does not exist")
        if isinstance(target, str) and "://" not in target and Path(target).is_file():
            try:  # OpenCV says only that it could not open it: "damaged, not a video, or a format ..."
                Path(target).open("rb").close()
            except OSError as exc:
                raise SourceError(f"video file {target} cannot be read ({exc.strerror or exc}): give the user running "
                                  "this leave to read it (ls -l shows its owner and mode)") from exc
        self.node = None if self.is_file else camera_node(target, devices)
        if self.node is not None:
            # OpenCV only says it could not open a camera; the node itself says whether one is there, and whether
            # this user may open it (a service user not in the video group read as an unplugged camera).
            if missing := missing_note(self.node):
                raise SourceError(missing)
            if refused := refused_note(self.node):
                raise SourceUnusable(refused, retried="tried again")
        with quiet_opencv():
            self.capture = _capture(target)
        if not self.capture.isOpened():
            self.capture.release()
            raise SourceError(self._cannot_open(target))
        if width and height:
            self.capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self.capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self.live = not self.is_file and not (isinstance(target, str) and Path(target).is_file())
        if self.live:
            # A camera's driver queues a few frames (V4L2: four); a reader slower than the camera (a Pi
            # reading far dice) would then settle on a picture four frames old. Backends without the
            # setting ignore it.
            self.capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self.finished = False
        if not self.live:
            # A recording stopped before its first frame opens like any video: watch said only "0 frames read".
            with quiet_opencv():
                ok, frame = self.capture.read()
            if not (ok and frame is not None and frame.size):
                self.capture.release()
                raise SourceError(f"video file {target} holds no frame this OpenCV can decode (empty, or cut short "
                                  "before its first frame)")
            self.first = frame
            # The frames its header counts, to tell a file cut short (a copy or a recording not finished) from one
            # played whole: it ended like any other, and only the frames read were said.
            counted_frames = self.capture.get(cv2.CAP_PROP_FRAME_COUNT)
            self.frames_counted = int(counted_frames) if 0 < counted_frames < 1e9 else None
        self.device = device_path(target) if self.live else None
        self.mains = V4L2Mains(self.device) if self.device else None

    def set_mains(self, hz: int) -> str:
        """Tell a camera the mains frequency (`vision.mains`); a network camera is set in its own pages."""
        if self.mains is not None:
            return self.mains.set(hz)
        if hz and self.live:
            return f"stream {self.name}: set the mains frequency in the network camera's own settings"
        return ""

    def _cannot_open(self, target: int | str) -> str:
        """Why it failed, in the words of what was asked for: a damaged video is no unplugged camera."""
        if self.node is not None:
            return f"cannot open camera {target} (unplugged, busy, or not a camera)"
        if isinstance(target, str) and (self.is_file or Path(target).is_file()):
            return f"cannot read video file {target} (damaged, not a video, or a format this OpenCV cannot decode)"
        if isinstance(target, str) and "://" in target:
            return f"cannot open stream {self.name} (wrong address, camera off, or network down)"
        return f"cannot open camera {target} (unplugged, busy, or not a camera)"

    @property
    def fps(self) -> float:
        fps = self.capture.get(cv2.CAP_PROP_FPS)
        return fps if fps and fps > 0 else 30.0

    def read(self) -> np.ndarray | None:
        if self.finished:
            return None
        if self.first is not None:
            frame, self.first = self.first, None
            self.frames_given += 1
            return frame
        with quiet_opencv():  # a stalled stream's timeout is our SourceError, not also an FFmpeg warning
            ok, frame = self.capture.read()
        if ok and frame is not None and frame.size:
            self.frames_given += 1
            return frame
        if self.is_file:
            self.finished = True
            return None
        if "://" in self.name:  # a stream that drops is a network's or a camera's power, not a cable
            raise SourceError(f"stream {self.name} stopped sending frames (camera off, or network down)")
        raise SourceError(f"camera {self.name} stopped giving frames (unplugged?)")

    def close(self) -> None:
        self.capture.release()


def _capture(target: int | str) -> cv2.VideoCapture:
    """A capture that gives up on a stalled stream within seconds, where this OpenCV can be told to.

    A name that is not UTF-8 text is refused first: OpenCV's video reader
    given one killed the whole process with a segmentation fault.
    """
    if isinstance(target, str) and not utf8(target):
        raise SourceRefused(f"{target.encode('utf-8', 'replace').decode()}: its name is not UTF-8 text, which the "
                            "video reader cannot take; rename it")
    timeouts = [getattr(cv2, "CAP_PROP_OPEN_TIMEOUT_MSEC", None), STREAM_OPEN_MS,
                getattr(cv2, "CAP_PROP_READ_TIMEOUT_MSEC", None), STREAM_READ_MS]
    if isinstance(target, str) and "://" in target and None not in timeouts:
        return cv2.VideoCapture(target, cv2.CAP_ANY, timeouts)
    return cv2.VideoCapture(target)


class FolderSource:
    """Images of a folder in name order; unreadable files are skipped, an empty folder is an error."""

    def __init__(self, folder: str | Path, loop: bool = False) -> None:
        self.name = str(folder)
        path = Path(folder)
        if not path.is_dir():
            raise SourceError(f"{folder} is not a folder")
        # No pipe: one named like a photo held the reading for ever. Other files that are no image are skipped.
        try:
            self.files = sorted(p for p in path.iterdir()
                                if p.suffix.lower() in IMAGE_SUFFIXES and not (p.is_fifo() or p.is_socket()))
        except OSError as exc:  # a folder this user may not look into: a traceback out of watch and the teach steps
            raise SourceUnusable(f"folder {folder} cannot be looked into ({exc.strerror or exc}): give the user "
                                 "running this leave to read it (ls -ld shows its owner and mode)") from exc
        if not self.files:
            raise SourceUnusable(no_pictures_note(folder, path))
        self.loop = loop
        self.index = 0
        self.current: Path | None = None  # the file of the frame last read, to name it when it is no use
        self.skipped: list[Path] = []
        self.finished = False
        self.live = False

    def read(self) -> np.ndarray | None:
        while True:
            if self.index >= len(self.files):
                if not self.loop or len(self.skipped) == len(self.files):
                    self.finished = True
                    return None
                self.index = 0
            path = self.files[self.index]
            self.index += 1
            frame = image_file(path)
            if frame is not None:
                self.current = path
                return frame
            if path not in self.skipped:
                self.skipped.append(path)

    def close(self) -> None:
        self.finished = True


def skipped_note(source: object) -> str | None:
    """The files a folder source passed over as not readable images, named (the first few)."""
    skipped = getattr(source, "skipped", None)
    if not skipped:
        return None
    names = first_few([path.name for path in skipped])
    folder = getattr(source, "name", "the folder")
    are = "that is not a readable image" if len(skipped) == 1 else "that are not readable images"
    return f"skipped {counted(len(skipped), 'file')} in {folder} {are}: {names}"  # "skipped 1 files" before


def no_pictures_note(folder: str | Path, path: Path) -> str:
    """Why a folder that is there plays nothing: empty, or holding no file of a kind it reads (named).

    It was told as "camera not found: no images (.bmp, ...) in FOLDER": the
    folder was found, and the owner looked for a camera or a mistyped path.
    """
    kinds = f"{', '.join(sorted(IMAGE_SUFFIXES))} files, in name order"
    try:
        held = sorted(entry.name for entry in path.iterdir())
    except OSError:
        held = []
    if not held:
        return f"folder {folder} is empty: the camera plays the pictures put in it ({kinds})"
    return f"folder {folder} holds no picture the camera plays ({kinds}), only other files ({first_few(held)})"


CUT_SHORT_SHARE = 0.98  # a header may count a frame or two its file does not decode: only fewer than this is told


def cut_short_note(source: object) -> str | None:
    """What a video file that ended before the frames its header counts is: cut short, said with the count."""
    counted_frames, given = getattr(source, "frames_counted", None), getattr(source, "frames_given", 0)
    if not getattr(source, "finished", False) or not counted_frames or given >= CUT_SHORT_SHARE * counted_frames:
        return None
    return (f"it ended after {given} of the {counted_frames} frames its header counts: the file is cut short (a "
            "copy or a recording not finished?)")


def ended_note(source: object, frames: int) -> str:
    """What the table is told of a video or folder that gave ``frames`` pictures and came to its end.

    It was "camera lost: FILE has played to its end": nothing was lost, and a
    file is not played again (no loop), so its last picture stays.
    """
    folder = getattr(source, "files", None) is not None
    what = f"{'folder' if folder else 'video'} {getattr(source, 'name', 'the file')}"
    noun = "picture" if folder else "frame"
    skipped = skipped_note(source) or cut_short_note(source)
    note = f" ({skipped})" if skipped else ""
    return (f"{what} has ended after {counted(frames, noun)}; it does not start again (no loop), so its last "
            f"picture stays{note}")


def unreadable_note(source: object) -> str | None:
    """What a folder source none of whose files could be read is, or None when it gave a picture (or is no folder).

    Such a folder ended as any other, and the table said "Camera not found: FOLDER has played to its end (...)":
    the folder was there, and had nothing in it to play.
    """
    skipped, files = getattr(source, "skipped", None), getattr(source, "files", None)
    if not skipped or not files or len(skipped) < len(files):
        return None
    names = first_few([path.name for path in skipped])
    folder = getattr(source, "name", "the folder")
    each = "its image file cannot" if len(files) == 1 else f"none of its {len(files)} image files can"
    return f"no readable image in {folder}: {each} be read as a picture ({names})"


def counted(number: int, noun: str) -> str:
    """"1 frame", "3 frames": the counts `watch` and the evals print."""
    return f"{number} {noun}{'s' * (number != 1)}"


def first_few(names: list[str], shown: int = 5) -> str:
    """A list of file names short enough for one line: a folder of a thousand bad files stays readable."""
    return ", ".join(names[:shown]) + (", ..." if len(names) > shown else "")


AF_CONTINUOUS = 2  # libcamera's AfModeContinuous


class PiCameraSource:
    """picamera2 on a Raspberry Pi (imported only when asked for, so other machines never need it)."""

    def __init__(self, width: int = 640, height: int = 480) -> None:
        self.name = "picamera"
        self.live = True
        self.flicker_told = False  # whether this app gave the camera a flicker period, which 0 then takes back
        if importlib.util.find_spec("picamera2") is None:
            raise SourceRefused("picamera2 is not installed (it comes with Raspberry Pi OS: python3-picamera2)")
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except Exception as exc:  # an install that fails to load fails the same way on every retry
            raise SourceRefused(f"cannot start the Pi camera: {exc}{_numpy_hint(exc)}") from exc
        try:
            self.camera = Picamera2()
            config = self.camera.create_video_configuration(main={"size": (width, height), "format": "RGB888"})
            self.camera.configure(config)
            self.camera.start()
        except Exception as exc:  # the Pi camera stack raises many types; all mean "no camera"
            raise SourceError(f"cannot start the Pi camera: {exc}{_numpy_hint(exc)}") from exc
        if "AfMode" in (getattr(self.camera, "camera_controls", None) or {}):
            # A lens that focuses (Camera Module 3) starts fixed at a distance of its own, and the camera has no
            # ring for the café to turn: it keeps the tray in focus itself, coming back to it after a hand.
            with contextlib.suppress(Exception):
                self.camera.set_controls({"AfMode": AF_CONTINUOUS})

    def set_mains(self, hz: int) -> str:
        if not hz and not self.flicker_told:
            return ""  # libcamera starts with no flicker period: nothing to undo
        self.flicker_told = bool(hz)
        return picamera_flicker(self.camera, hz)

    def read(self) -> np.ndarray | None:
        try:
            return self.camera.capture_array()  # RGB888 in picamera2 is BGR byte order
        except Exception as exc:
            raise SourceError(f"the Pi camera stopped: {exc}") from exc

    def close(self) -> None:
        try:
            self.camera.stop()
            self.camera.close()
        except Exception:
            pass


def _numpy_hint(exc: Exception) -> str:
    """The OS's picamera2 loads modules built for the OS's numpy, which the app's newer numpy refuses."""
    if "numpy" not in str(exc) or "incompatib" not in str(exc):
        return ""
    return ("; the OS's picamera2 was built for another numpy: run sudo ./systemd/setup-pi.sh again, which "
            "installs simplejpeg for this one (pip install simplejpeg in the app's venv does the same)")


def open_source(spec: str | int) -> FrameSource:
    """A source from a command-line word: "picamera", a device index, a URL, a video file or an image folder."""
    if isinstance(spec, int):
        return CaptureSource(camera_index(str(spec)))
    text = local_path(spec)
    if not text:  # Path("") is the working folder, which was then searched for images
        raise SourceError("no camera source given: 0 (a camera index), picamera, a URL, a video file or a folder")
    if text == "picamera":
        return PiCameraSource()
    if is_number(text):
        return CaptureSource(camera_index(text))
    if "://" in text:
        return CaptureSource(stream_address(text))
    if text.startswith(f"{DEVICES}/") and (missing := missing_note(Path(text))):  # a camera, not a file
        raise SourceError(missing)
    path = Path(text)
    if not_a_camera(path):  # /dev/null, a serial port, a disk: tried as a camera every 2 s for ever
        raise SourceRefused(f"{text} is a device but not a camera (see ls /dev/video*), nor a video, image or folder")
    if path.is_dir():
        return FolderSource(path)
    if path.is_fifo() or path.is_socket():  # opened, it waits for a writer for ever: watch hung until killed
        raise SourceRefused(f"{text} is a pipe or socket, not a camera, video, image or folder")
    if path.suffix.lower() in IMAGE_SUFFIXES:
        if not path.exists():
            raise SourceError(f"image {text} does not exist")
        return SingleImageSource(path)
    if path.exists() or path.suffix.lower() in VIDEO_SUFFIXES:
        return CaptureSource(text)
    raise SourceError(f"{shown(text)!r} is not a camera index, URL, video file, image or folder")


V4L2_MAJOR = 81  # Linux's device number of every video4linux device, /dev/video* and /dev/v4l/... alike


def not_a_camera(path: Path) -> bool:
    """Whether ``path`` is a device that no wait makes a camera: a block device, or on Linux a character
    device outside video4linux. Elsewhere a character device may be a camera, and is tried as one."""
    try:
        status = path.stat()
    except (OSError, ValueError):
        return False
    if stat.S_ISBLK(status.st_mode):
        return True
    return stat.S_ISCHR(status.st_mode) and sys.platform.startswith("linux") and os.major(status.st_rdev) != V4L2_MAJOR


def is_device(spec: str) -> bool:
    """Whether SOURCE names a camera or a stream, which may come later, rather than a file or a folder.

    A camera is plugged in and a stream's host wakes up, so those are worth
    waiting for; a mistyped file name, an empty folder or a damaged video stays
    so, and waiting for it would only hang `watch` with the same line.
    """
    text = spec.strip()
    if text.lower().startswith("file://"):
        return False  # a file, however it is written
    return text == "picamera" or is_number(text) or "://" in text or text.startswith("/dev/")


def utf8(text: str) -> bool:
    """Whether a name (a file's, from the command line) is UTF-8 text; one that is not holds undecodable bytes."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def is_number(text: str) -> bool:
    """ASCII digits only: '²' and '٣' pass str.isdigit, and then int() or the camera's driver refuses them."""
    return text.isascii() and text.isdecimal()


def camera_index(text: str) -> int:
    """The index OpenCV is given; a number past a C int stopped it with an "Overload resolution failed" traceback."""
    number = int(text) if is_number(text) else -1
    if not 0 <= number <= MAX_CAMERA_INDEX:
        raise SourceRefused(f"{text!r} is not a camera index (0 to {MAX_CAMERA_INDEX}; see ls /dev/video*)")
    return number


def misnamed(spec: str) -> str | None:
    """Why SOURCE, as typed, can name no source on any machine, or None: left empty, a camera number out of range,
    a file:// URL of another host. A mistake in the command line, refused with exit status 2 as argparse refuses
    one, where a file not there or a camera that will not open is a problem of the machine (exit status 1)."""
    text = spec.strip()
    if not text:
        return "SOURCE is empty: give 0 (a camera index), picamera, a URL, a video file, an image or a folder"
    try:
        if is_number(text):
            camera_index(text)
        text = local_path(text)
        if "://" in text:
            stream_address(text)
    except SourceError as exc:
        return str(exc)
    return None


def local_path(spec: str) -> str:
    """SOURCE with a file:// URL taken as the path it names: played as a stream, a video never ended.

    A file:// URL with a host names another machine's file, which this one cannot open.
    """
    text = spec.strip()
    if not text.lower().startswith("file://"):
        return text
    parts = urlsplit(text)
    if parts.netloc not in ("", "localhost"):
        raise SourceRefused(f"{shown(text)} names a file on {parts.hostname or shown(text)}, not on this machine: "
                            "give file:///full/path (three slashes) or the path itself")
    return url2pathname(parts.path)


def stream_address(text: str) -> str:
    """A stream's address as given, where it can name one: a scheme OpenCV's FFmpeg streams by (`STREAM_SCHEMES`)
    and a host. Raises `SourceRefused` otherwise (a mistyped scheme, "http://" with nothing after it, an address
    cut short), which no retry mends: each was tried every 2 s for ever, "cannot open stream ... (wrong address,
    camera off, or network down)"."""
    example = "e.g. rtsp://192.168.1.20/stream"
    scheme = text.split("://", 1)[0]
    if scheme.lower() not in STREAM_SCHEMES:
        others = ", ".join(each for each in STREAM_SCHEMES if each not in ("rtsp", "http", "https"))
        raise SourceRefused(f"{shown(text)}: {scheme}:// begins no camera's stream: give rtsp://, http:// or https:// "
                            f"(or {others}) and the camera's address, {example}")
    try:
        host = urlsplit(text).netloc.rsplit("@", 1)[-1]  # a login alone names no camera
    except ValueError:  # "http://[::1": an address cut short
        raise SourceRefused(f"{shown(text)} is not a whole address (a bracket left open?), {example}") from None
    if not host:
        raise SourceRefused(f"{shown(text)} names no camera: give its address after {scheme}://, {example}")
    return text


class SingleImageSource:
    """One still image, handed out once (handy for `vision watch photo.jpg`)."""

    def __init__(self, path: Path) -> None:
        self.name = str(path)
        self.frame = image_file(path)
        if self.frame is None:
            raise SourceError(f"{path}: {image_problem(path)}")
        self.finished = False
        self.live = False

    def read(self) -> np.ndarray | None:
        if self.finished:
            return None
        self.finished = True
        return self.frame

    def close(self) -> None:
        self.finished = True


class RetryingSource:
    """Never raises: a failing source is closed, its problem kept in `problem`, and reopened after a pause."""

    def __init__(
        self,
        opener: Callable[[], FrameSource],
        name: str,
        retry_seconds: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
        mains_hz: int = 0,
    ) -> None:
        self.opener = opener
        self.name = shown(name)
        self.retry_seconds = retry_seconds
        self.clock = clock
        self.source: FrameSource | None = None
        self.problem: str | None = None
        self.lasting = False  # whether the problem is one no retry mends (`SourceRefused`)
        self.unusable = False  # whether the problem is a source there that gives no picture (`SourceUnusable`)
        self.retried = ""  # how its retry is said, for an unusable source ("looked in again", "tried again")
        self.next_try = 0.0
        self.failures = 0
        self.mains_hz = mains_hz
        self.mains_note = ""  # what telling the open camera the mains frequency came to, for the screen

    def set_mains(self, hz: int) -> str:
        """Keep the frequency for every camera opened from now on, and tell the one open now."""
        self.mains_hz = hz
        self._tell_mains()
        return self.mains_note

    def _tell_mains(self) -> None:
        set_mains = getattr(self.source, "set_mains", None)
        if set_mains is None:
            self.mains_note = ""
            return
        try:
            self.mains_note = set_mains(self.mains_hz)
        except Exception as exc:  # a camera's control failing must not stop its frames
            self.mains_note = f"cannot set the mains frequency: {exc}"

    @property
    def finished(self) -> bool:
        return bool(self.source is not None and getattr(self.source, "finished", False))

    @property
    def live(self) -> bool:
        """Whether the source open now is a camera or a stream (False while none is open)."""
        return bool(getattr(self.source, "live", False))

    def read(self) -> np.ndarray | None:
        now = self.clock()
        if self.source is None:
            if now < self.next_try:
                return None
            try:
                self.source = self.opener()
                self.problem, self.lasting, self.unusable = None, False, False
            except Exception as exc:
                self._fail(str(exc), now)
                self.lasting = isinstance(exc, SourceRefused)
                self.unusable = isinstance(exc, SourceUnusable)
                self.retried = getattr(exc, "retried", "")
                return None
            self._tell_mains()
        try:
            return self.source.read()
        except Exception as exc:
            self._fail(str(exc), now)
            return None

    def _fail(self, message: str, now: float) -> None:
        self.failures += 1
        self.problem = message
        self.next_try = now + self.retry_seconds
        if self.source is not None:
            with contextlib.suppress(Exception):
                self.source.close()
        self.source = None

    def close(self) -> None:
        if self.source is not None:
            self.source.close()
            self.source = None
