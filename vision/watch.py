"""`companion vision watch`: a source's readings printed live, in the table's words, for setting up a table.

It reads with the readers the table's camera feed uses (the café's deck, its
taught cards and die) and tells what the feed would do with each settled
reading, so what an owner sees here is what the game will get.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
import time
from collections import deque
from pathlib import Path

import cv2
import numpy as np

from companion.cli import cafe_dir
from companion.observations import CONFIRM_BELOW
from vision.board_die import BoardDieReader
from vision.card_catalogue import catalogue_from_data
from vision.card_reader import CardReader
from vision.cli import KEEP_FRAMES, picture_settings, same_folder
from vision.covered_notice import CoveredNotice
from vision.d6_reader import D6Reader, small_dice_size
from vision.feed import scaled
from vision.frames import as_bgr, unusable_text
from vision.knock import (
    TableAtRest,
    camera_moved,
    followed_tray,
    gate_beyond,
    rest_words,
    thrown_knock,
    thrown_words,
    untouched,
)
from vision.markers import DARK_MARKERS, dark_markers_text, hidden_text, in_view_text
from vision.readings import ASKED_RGB, SLOT_RGB, TAKEN_RGB, dice_text, sure_text
from vision.settle import dice_settler, unit_confidence
from vision.slot_tracker import SlotTracker
from vision.sources import (
    FrameSource,
    RetryingSource,
    SingleImageSource,
    SourceError,
    counted,
    cut_short_note,
    first_few,
    is_device,
    local_path,
    misnamed,
    open_source,
    skipped_note,
)
from vision.taught import DIE_FILE, default_taught_dir, temple_die_reader
from vision.teaching import not_a_folder, temple_data
from vision.temple_die import TaughtDieUnreadable, TempleDieReader
from vision.tray_area import WHOLE_PICTURE, TrayReader, placed, read_shape
from vision.view_check import (
    BLURRED_BELOW,
    BOARD_BLURRED_BELOW,
    DARK_BELOW,
    DARK_EVERY,
    DARK_MENDS,
    IN_TERMINAL,
    RESTLESS_SECONDS,
    SLOT_WANTED,
    WASHED_OUT_FROM,
    board_sharpness,
    brightest,
    dice_sharpness,
    restless_advice,
    shadow_kept,
    small_slots,
    small_temple_die,
)


class WatchRefused(ValueError):
    """A source or option `watch` cannot start with, said in one sentence: exit status 2 where the command line is
    at fault (``misused``: an empty SOURCE, flags that do not go together), 1 where the machine is (a file not
    there, a folder that cannot be made, a camera module not installed)."""

    def __init__(self, message: str, misused: bool = False) -> None:
        super().__init__(message)
        self.misused = misused


def _make_reader(kind: str, taught: Path | None, cafe: Path | None = None):
    """The reader `watch` reads with: the one the table's camera feed would use for that kind.

    Cards are read by the deck and board of the café's own data where it has
    them, as `teach-card` teaches and the feed reads them: with the house deck,
    a café's own cards were read by house ids and the photos taught for them
    were passed over.
    """
    if kind == "cards":
        data = temple_data(cafe, lambda why: print(why, file=sys.stderr, flush=True))
        reader = CardReader(*catalogue_from_data(data), taught_dir=taught)
        for problem in (reader.taught_problem, reader.places_problem, reader.clipped_problem):
            if problem:  # read on by the drawings, as the table would, and say why
                print(problem, file=sys.stderr, flush=True)
        return reader
    if kind == "temple-die":
        reader, note = temple_die_reader(taught)
        if note:
            print(note, file=sys.stderr)
        return reader
    return D6Reader()


def _taught_lines(reader, kind: str, taught: Path) -> list[str]:
    """What `watch` uses of the taught folder, so a mistyped folder or a photo passed over is seen at once."""
    if kind == "cards":
        if reader.taught_problem:
            return []  # _make_reader has said why; "no taught card photos" would send the café teaching again
        cards = sorted(set(reader.taught_cards))
        photos = len(reader.taught_cards)
        lines = [f"taught cards in {taught}: {counted(photos, 'photo')} of {first_few(cards, 10)}" if cards
                 else f"no taught card photos in {taught}: every card is read by its drawing"]
        if reader.taught_skipped:
            skipped = len(reader.taught_skipped)
            lines.append(f"passed over {counted(skipped, 'photo')} there: {first_few(reader.taught_skipped)}")
        return lines
    if kind == "temple-die":
        if not (taught / DIE_FILE).exists():
            return [f"no taught die in {taught}: every face is read by its drawing"]
        try:
            values = sorted(TempleDieReader.load(taught).examples)
        except TaughtDieUnreadable:
            return []  # temple_die_reader has said why already
        return [f"taught die in {taught}: faces showing {', '.join(values)} (the others by their drawings)"]
    return []


SLOT_UNSEEN = ("?: most of that slot looks like no card of the deck: something lies over it (a hand?), or the "
               "café's cards are not taught yet")


def _asked_text(confidence: float) -> str:
    """What the table does with a card read less than surely: it asks, as it asks of a die (`CONFIRM_BELOW`).
    A card "72% sure" was printed as one read surely is, and the café could not tell the table would ask."""
    return ": the table would ask a player to confirm it" if unit_confidence(confidence) < CONFIRM_BELOW else ""


def _card_text(reader, card: str | None) -> str:
    """A card as a person checks it against the table: cards drawn alike ("P15 or P48") are named together,
    since the reader names such a group by its first card whichever of them lies there."""
    if card is None:
        return "empty"
    return " or ".join((card, *reader.twins.get(card, ())))


def _frame_reading(reader, kind: str, frame) -> tuple[str, list]:
    """One frame's reading on its own, for photos (each its own scene) rather than a moving view:
    its text, and the dice read (none for cards)."""
    if kind == "cards":
        board = reader.read(frame)
        if board is None:
            return _markers_text(reader.last_problem), []
        text = ", ".join(f"slot {slot.slot} {'?' if slot.covered else _card_text(reader, slot.card)}"
                         for slot in board.slots)
        hidden = _hidden_text(reader)
        notes = ([SLOT_UNSEEN] if any(slot.covered for slot in board.slots) else []) + ([hidden] if hidden else [])
        return text + (f" ({'; '.join(notes)})" if notes else ""), []
    dice = reader.read(frame)
    return dice_text(dice), dice


TAKEN_BGR, ASKED_BGR, SLOT_BGR = TAKEN_RGB[::-1], ASKED_RGB[::-1], SLOT_RGB[::-1]  # OpenCV's order


def boxed_frame(frame, dice, slots=None, tray=None):
    """The frame with what was read on it: each die boxed with its value and certainty, green when the table
    would take it and orange when it would ask, each slot of the board outlined with its number, and a marked
    tray (x0, y0, x1, y1) framed in white, as the camera screen shows them. What `--save` writes, so a reading
    can be checked against its picture later."""
    shown = as_bgr(frame).copy()
    thick = max(2, round(max(shown.shape[:2]) / 320))
    font = cv2.FONT_HERSHEY_SIMPLEX
    if tray is not None:
        cv2.rectangle(shown, tray[:2], tray[2:], (255, 255, 255), thick)
    for number, corners in (slots or {}).items():
        points = np.array(corners, np.float32)
        cv2.polylines(shown, [points.round().astype(np.int32)], True, SLOT_BGR, thick, cv2.LINE_AA)
        (w, h), _ = cv2.getTextSize(str(number), font, 0.5 * thick, thick)
        cx, cy = points.mean(axis=0)
        cv2.putText(shown, str(number), (round(cx - w / 2), round(cy + h / 2)), font, 0.5 * thick, SLOT_BGR, thick,
                    cv2.LINE_AA)
    for die in dice:
        x0, y0, x1, y1 = (round(v) for v in die.box)
        colour = TAKEN_BGR if die.confidence >= CONFIRM_BELOW else ASKED_BGR
        cv2.rectangle(shown, (x0, y0), (x1, y1), colour, thick)
        label = f"{die.value}{' ' + die.face if die.face else ''} {round(100 * die.confidence)}%"
        cv2.putText(shown, label, (x0, max(12 * thick, y0 - 4 * thick)), font, 0.45 * thick, colour, thick,
                    cv2.LINE_AA)
    return shown


def _hidden_text(reader) -> str | None:
    """The marker the board was found without (`BoardFinder.homography`), said as the table's feed says it."""
    hidden = getattr(getattr(reader, "finder", None), "hidden", ())
    return hidden_text(hidden) if hidden else None


def _markers_text(problem: str | None) -> str:
    """The card reader's problem with what to do about it: the reader says only which markers it misses."""
    if problem and DARK_MARKERS in problem:  # in view, and lost in the dark
        return problem
    return in_view_text(problem) if problem else "all four board markers in view"


def _small_dice_text(size: tuple[int, int], shape, whole: bool = True) -> str:
    """Dice small in the frame cost the reader a second, finer look at every frame: said once, while the
    camera is being set up, with the size the README asks for. Marking the tray is the first mend where it
    is not marked: it needs no ladder."""
    height, width = shape[:2]
    across, wanted = size
    mend = "mark the tray with --tray (the camera screen's Mark tray) so that only it is looked at, or " * whole
    return (f"the dice are about {across} px across in this {width}x{height} view, so every frame is looked at "
            f"a second time, finer (about three times the work): {mend}mount the camera closer to the tray, so "
            f"that a die is at least {wanted} px across")


def _small_temple_die_text(size: tuple[int, int], shape) -> str:
    """Said once: a temple die small in the view has a face too small to tell its symbols apart."""
    height, width = shape[:2]
    across, wanted = size
    return (f"the die is about {across} px across in this {width}x{height} view: mount the camera closer, so "
            f"that it is at least {wanted} px across; a die this small is often misread")


def _small_slots_text(across: int, shape) -> str:
    """Said once: a board far from the camera has slots too small to tell its cards apart."""
    height, width = shape[:2]
    return (f"the board's slots are about {across} px across in this {width}x{height} view: mount the camera "
            f"closer to the board, so that a slot is at least {SLOT_WANTED} px across; smaller slots are misread")


def _dark_text(level: int, kind: str = "dice") -> str:
    """The readers lift a dark picture (`frames.lifted`), but not the noise a camera adds in a dim room, which
    no setting of ours takes away. Said of what the reader reads: a dim board was told to light "the tray",
    lest its "dice" be misread."""
    where, cost = DARK_MENDS.get(kind, DARK_MENDS["dice"])
    return (f"the picture is dark (its brightest parts reach {level} of 255; {DARK_BELOW} or more wanted): "
            f"light {where}, or let the camera expose longer; in a picture this dark the camera's noise {cost}")


def _shadow_text(kept: float) -> str:
    """The readers lift a lamp's band of shadow off the picture, but that was measured on drawn shadows only."""
    return (f"a lamp's shadow lies across the picture (a band keeping {kept:.0%} of the light): the readers lift it "
            "off, but readings are surer with the lamp turned or the camera's arm moved out of its light")


def _restless_text(seconds: float, banded: bool, mains_hz: int, fps: float | None, tray_marked: bool) -> str:
    """A picture that never holds still settles nothing; what keeps it moving is for the café to mend."""
    return (f"the picture has not held still for {seconds:.0f} s, so nothing is read: "
            + restless_advice(banded, mains_hz, IN_TERMINAL, fps, tray_marked))


def _short_of(level: float) -> str:
    """A sharpness under its threshold, cut (not rounded) to two decimals: rounded, 0.148 read "sharpness 0.15;
    a focused picture gives 0.15 or more", an owner told to focus a lens the same line called focused enough."""
    return f"{math.floor(level * 100) / 100:.2f}"


def _blurred_text(level: float) -> str:
    """A lens out of focus smears the pips together, and blurred dice are misread."""
    return (f"the dice look out of focus (sharpness {_short_of(level)}; a focused picture gives {BLURRED_BELOW:.2f} "
            "or more): focus the camera on the tray")


def _washed_out_text(share: float) -> str:
    """A veil over the lens lifts the cards' dark colours towards their paper, until they are misread."""
    return (f"the board looks washed out (its markers' black {share:.0%} as bright as their white; a clear picture "
            f"shows under {WASHED_OUT_FROM:.0%}): wipe the camera's lens and turn lamps away from it (or, if the "
            "markers came out grey from the printer, print them darker), or cards are misread")


class PictureFaults:
    """What is wrong with the picture for its reader (`view_check`), told as it appears. A dark or blurred
    picture is told again once it is mended, so an owner turning a lamp on or a lens ring hears that it
    worked; slots too small are told once."""

    def __init__(self, kind: str, mains_hz: int = 0, tray_marked: bool = False) -> None:
        self.kind = kind
        self.mains_hz = mains_hz  # the frequency the camera was told, for advice about a lamp's bands
        self.tray_marked = tray_marked  # so the advice for motion offers marking the tray only where none is
        self.told: set[str] = set()

    def _change(self, fault: str, now: bool, told: str, mended: str) -> list[str]:
        if now == (fault in self.told):
            return []
        self.told.symmetric_difference_update({fault})
        return [told if now else mended]

    def lines(self, frame: np.ndarray, number: int, every_frame: bool, reader, dice,
              restless: float | None = None, banded: bool = False, fps: float | None = None) -> list[str]:
        """The lines frame `number` adds; the light is looked at once a second of frames (every photo of a folder).
        `restless` is how long the picture has not held still, once that is too long for anything to settle;
        `banded`, whether a lamp's bands are what moves (`MotionGate.banded`), at a live camera's `fps`."""
        lines = self._change("restless", restless is not None,
                             _restless_text(restless or 0.0, banded, self.mains_hz, fps, self.tray_marked),
                             "the picture holds still again: dice are read")
        if every_frame or number % DARK_EVERY == 1:
            level = brightest(frame)
            lines += self._change("dark", level < DARK_BELOW, _dark_text(level, self.kind),
                                  f"the picture is light enough now (its brightest parts reach {level} of 255)")
            kept = shadow_kept(frame)
            lines += self._change("shadow", kept is not None, _shadow_text(kept or 0.0),
                                  "no shadow's band lies across the picture now")
        if self.kind == "cards" and "slots" not in self.told:
            across = small_slots(getattr(reader, "last_outlines", None))
            if across is not None:
                self.told.add("slots")
                lines.append(_small_slots_text(across, frame.shape))
        level = dice_sharpness(frame, [die.box for die in dice]) if self.kind == "dice" else None
        if level is not None:
            lines += self._change("blurred", level < BLURRED_BELOW, _blurred_text(level),
                                  f"the dice are in focus now (sharpness {level:.2f})")
        finder = getattr(reader, "finder", None) if self.kind == "cards" else None
        level = board_sharpness(frame, getattr(finder, "last_markers", None))
        if level is not None:
            lines += self._change("board blurred", level < BOARD_BLURRED_BELOW,
                                  f"the board looks out of focus (sharpness {_short_of(level)} at its markers; "
                                  f"{BOARD_BLURRED_BELOW:.2f} or more wanted): focus the camera on the board, or "
                                  "its cards are misread", f"the board is in focus now (sharpness {level:.2f})")
        share = getattr(reader, "last_ink_share", None) if self.kind == "cards" else None
        if share is not None:
            lines += self._change("board washed out", share >= WASHED_OUT_FROM, _washed_out_text(share),
                                  f"the board looks clear now (its markers' black {share:.0%} as bright as their "
                                  "white)")
        return lines


class SavedFrames:
    """The frames `--save` writes, the oldest deleted past `keep`: `watch` left running all day at a café
    would otherwise fill the Pi's card. Only files this run wrote are ever deleted."""

    def __init__(self, folder: Path, keep: int) -> None:
        self.folder, self.keep = folder, keep
        self.written: deque[Path] = deque()
        self.count = 0

    def save(self, number: int, frame, dice, slots, tray=None) -> str | None:
        """Write one frame with what was read on it; why it could not be written (said by the caller), else None.

        Encoded by OpenCV and written by Python: `cv2.imwrite` given a folder whose name is not UTF-8 (a USB
        stick named on an old machine, `--save $'caf\\xe9'`) killed watch with a segmentation fault, and the
        bytes written here fail with the system's own reason (a full card) instead of a guess.
        """
        path = self.folder / f"frame-{number:06d}.jpg"
        ok, data = cv2.imencode(".jpg", boxed_frame(frame, dice, slots, tray))
        if not ok:
            return f"the picture ({frame.shape[1]}x{frame.shape[0]}) is too large for a JPEG (65500 px a side at most)"
        try:
            path.write_bytes(data)
        except OSError as exc:
            with contextlib.suppress(OSError):  # a frame cut short by a full card is no picture to keep
                path.unlink(missing_ok=True)
            return f"could not write into {self.folder}: {exc.strerror or exc}"
        self.count += 1
        self.written.append(path)
        while len(self.written) > self.keep:
            with contextlib.suppress(OSError):  # made read-only since: the frame stays, and watching goes on
                self.written.popleft().unlink(missing_ok=True)
        return None


def _unusable_line(frame, source: FrameSource | None) -> str:
    """A frame no reader can use, named by its file where it came from a folder: "frame 5" alone left the
    café counting photos."""
    path = getattr(source, "current", None)
    return f"{path.name}: {unusable_text(frame)}" if path is not None else unusable_text(frame)


def _settled_text(settled, lay_still: bool, touched: bool = True, big_die: bool = False,
                  reshaped: str | None = None) -> str:
    """A settled roll and what the table would do with it (``touched``: something moved over the dice since dice
    were last read, `MotionGate.moved_over`; ``big_die``: the temple die, which never lands unseen by the gate,
    `feed.BIG_DIE_MODES`; ``reshaped``: the picture took another shape, or the camera came back after it was lost,
    since the dice were last read, with no throw since, said as the table's feed says it, `CameraFeed._resized`)."""
    if reshaped is not None:
        what = f"it lay in view when {reshaped}, so the table would not take it as a roll (roll to play)"
    elif lay_still and not touched:
        what = "the same dice where they lay, nothing moved over them: the table says nothing"
    elif big_die and not touched:
        what = "nothing moved over it, so it lay there all along: the table says nothing"
    elif lay_still:
        what = "the same dice where they lay: not a new roll"
    elif len(settled.reading) > 1:  # the controller refuses them: every game here rolls one die at a time
        what = "every game here rolls one die, so the table would ask for the others to be taken out"
    elif settled.needs_confirm:
        what = "the table would ask a player to confirm it"
    else:
        what = "the table would take it"
    return f"{dice_text(settled.reading, each_sure=False)}, settled {sure_text(settled.confidence)}: {what}"


def watch(args: argparse.Namespace) -> int:
    """Read SOURCE until it ends, `--frames` or Ctrl-C; 0 when some frame was usable, 1 when none was, 130 after
    Ctrl-C (what was read is summed up first).

    Raises `WatchRefused` for what waiting cannot mend: an empty SOURCE or
    one that can name nothing (`sources.misnamed`), flags that do not go together
    (those two `misused`, exit status 2), a word that names no camera, picamera2 not installed, a file or folder that
    is not there or not readable, a `--taught` that is not a folder or cannot be looked into, a reader
    that cannot start. A camera or URL that fails is retried, with its problem
    printed when it changes.
    """
    wrong_source = misnamed(args.source)
    if wrong_source:  # retried every 2 s for ever otherwise: a typo, not a camera to wait for
        raise WatchRefused(wrong_source, misused=True)
    if args.keep is not None and args.save is None:  # passed over, it left an owner waiting for frames never saved
        raise WatchRefused("--keep N counts the frames --save DIR keeps: add --save DIR, or leave --keep out",
                           misused=True)
    if args.reader == "dice" and args.taught is not None:  # passed over in silence: the owner thought it was read
        raise WatchRefused("--taught names the folder of the taught temple cards and die; the dice reader reads by "
                           "its models alone: leave --taught out, or add --reader cards or --reader temple-die",
                           misused=True)
    if args.reader == "cards":
        # The board's markers lie wherever the board does, so the cards are read over the whole picture: a tray
        # given was passed over in silence, and one saved on the camera screen was said as where dice are read.
        if args.tray is not None and not args.tray.whole:
            raise WatchRefused("--tray marks where dice are read; the cards are read over the whole picture (the "
                               "board's markers lie wherever the board does): leave --tray out", misused=True)
        args.tray = WHOLE_PICTURE
    if args.taught is None and args.reader != "dice":  # a taught folder the dice reader never reads goes unsaid
        default = default_taught_dir()
        try:
            if default.is_dir():
                args.taught = default  # what the café taught is what the table's camera uses
            elif unusable := not_a_folder(default):  # a file, a drive not plugged in: the table's readers say it
                print(f"the taught folder {default}: {unusable}; reading by the drawings", file=sys.stderr)
        except (OSError, ValueError) as exc:  # $COMPANION_TAUGHT_DIR past the name limit: an OSError out of watch
            why = getattr(exc, "strerror", None) or exc
            print(f"the taught folder {default} cannot be read ({why}); reading by the drawings", file=sys.stderr)
    try:
        not_folder = args.taught is not None and not args.taught.is_dir()
    except (OSError, ValueError) as exc:
        raise WatchRefused(f"--taught {args.taught} cannot be read: {getattr(exc, 'strerror', None) or exc}") from exc
    if not_folder:
        # Ignored in silence, a mistyped folder would leave the café's taught cards or die unused.
        raise WatchRefused(f"--taught {args.taught} is not a folder (give the --out folder of the teach commands)")
    if args.save is not None and not is_device(args.source) and same_folder(Path(local_path(args.source)), args.save):
        # Its frames, boxes drawn on them, were played as the café's photos the next time the folder was watched.
        raise WatchRefused(f"--save {args.save} is the folder SOURCE plays: the frames saved there would be played as "
                           "photos the next time: give --save another folder", misused=True)
    if args.save is not None:
        try:
            args.save.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            why = not_a_folder(args.save) or exc.strerror or exc
            raise WatchRefused(f"--save {args.save} cannot be made a folder: {why}") from exc
        earlier = sum(1 for _ in args.save.glob("frame-*.jpg"))
        if earlier:  # numbered from 1 again, this run's frames would silently mix with the earlier run's
            print(f"{args.save} already holds {counted(earlier, 'frame')} of an earlier watch: "
                  "frames of the same numbers are replaced (give a new folder to keep them apart)", flush=True)
    opened: list[FrameSource] = []  # kept past close, to name the files a folder skipped
    if not is_device(args.source):
        # A file or folder that cannot be read now never will: retried, it hung watch on one repeated line.
        try:
            opened.append(open_source(args.source))
        except SourceError as exc:
            raise WatchRefused(str(exc)) from exc
        if args.timeout:  # passed over: a café asking a video to stop after 10 s watched it to its end
            opened[0].close()
            raise WatchRefused(f"--timeout gives up on a camera or stream that sends nothing; {args.source} is a file "
                               "or folder, which never keeps watch waiting: leave --timeout out (--frames N stops "
                               "after N frames)", misused=True)
    try:
        reader = _make_reader(args.reader, args.taught, cafe_dir(args))
    except Exception as exc:
        for each in opened:
            each.close()
        raise WatchRefused(f"cannot start the {args.reader} reader: {exc}") from exc
    if args.taught is not None:
        for line in _taught_lines(reader, args.reader, args.taught):
            print(line, flush=True)
    first = list(opened)

    def opener() -> FrameSource:
        # Only the newest is kept: a stream that drops and is reopened every 2 s all day kept each closed
        # source it had opened, some 2 kB apiece, and only the newest is ever named.
        opened[:] = [first.pop() if first else open_source(args.source)]
        return opened[-1]

    orientation, mains_hz, tray = picture_settings(args)
    source = RetryingSource(opener, args.source, mains_hz=mains_hz)
    # A single photo never holds still for several frames: read it as it is.
    # A folder holding one photo too: it was read once, then "the view never held still", no reading (exit 0).
    one_photo = any(isinstance(each, SingleImageSource) or len(getattr(each, "files", ())) == 1 for each in opened)
    every_frame = args.every_frame or one_photo
    in_tray = reader if tray.whole else TrayReader(reader)
    settler = dice_settler(in_tray) if args.reader != "cards" else None
    board_die = BoardDieReader(reader) if args.reader == "temple-die" and not tray.whole else None
    board_settler = dice_settler(board_die) if board_die is not None else None
    tracker = SlotTracker() if args.reader == "cards" else None
    covered = CoveredNotice(tracker.steady if tracker else 1)  # as the tracker takes a card: a few reads alike
    last_dice = None
    last_picture = None  # the picture last_dice lay in, for a camera knocked meanwhile
    size_seen: tuple[int, ...] | None = None  # the size of the last usable picture (height, width)
    reshaped: str | None = None  # the picture took another shape, and nothing was thrown since: as the feed says it
    fresh = False  # the camera is back after it was lost: its first frame is no throw
    at_rest = TableAtRest()  # the picture the marked tray last rested in, read, for a knock while it was empty
    small_told = False  # dice too small in the view are told once
    faults = PictureFaults(args.reader, mains_hz, not tray.whole)
    frames = reports = unusable = 0
    shots = SavedFrames(args.save, args.keep or KEEP_FRAMES) if args.save is not None else None
    save_failed = False  # a full or pulled card is said once, and reading goes on
    last_problem = None
    markers: str | None = ""  # what the card reader last said of the markers, told again only when it changes
    mains_note = ""  # what the camera made of the mains frequency, told when it changes
    last_frame_at = time.monotonic()
    stopped = False
    try:
        while True:
            frame = source.read()
            if source.problem != last_problem:
                last_problem = source.problem
                if last_problem and source.lasting:  # picamera2 not installed: retried, it hung watch all day
                    raise WatchRefused(last_problem)
                if last_problem:
                    print(f"source problem: {last_problem} (retrying every {source.retry_seconds:.0f} s)", flush=True)
                    if settler is not None and last_dice is not None:  # as the feed (`CameraFeed._unseen_meanwhile`)
                        last_dice = last_picture = None
                        reshaped, fresh = "the camera came back", True
                        settler.gate.reset()
            if source.mains_note != mains_note:
                mains_note = source.mains_note
                if mains_note:
                    print(mains_note, flush=True)
            if frame is None:
                if source.finished:
                    break
                if args.timeout and time.monotonic() - last_frame_at > args.timeout:
                    print(f"no frame for {args.timeout:g} s; giving up", flush=True)
                    break
                time.sleep(0.02)
                continue
            raw = orientation.apply(frame)
            # Converted once, and the tray cut from the converted picture, as the table's feed does: converted
            # after the cut, a deep camera's tray was scaled to its own white level rather than the picture's,
            # a 12-megapixel 16-bit frame was converted three times over, and the light was judged on the whole
            # picture where the feed judges the tray (a dark tray in a bright room went untold, a lit tray in a
            # dim one was called too dark while its dice were read).
            shown = as_bgr(raw)
            frames += 1
            last_frame_at = time.monotonic()
            lines = []
            dice = []  # the dice this frame's reading holds, boxed by --save
            in_view = []  # the same dice where the reader saw them, in the tray's view
            view = shown
            if shown is None:
                unusable += 1
                if every_frame or unusable == 1:  # a camera in a wrong mode would repeat it every frame
                    lines.append(_unusable_line(raw, opened[-1] if opened else None))
            elif every_frame:
                view, offset = tray.cut(shown)  # the dice readers see the tray alone, as the feed gives it them
                text, in_view = _frame_reading(in_tray, args.reader, view)
                dice = placed(in_view, offset)
                lines.append(text)
            elif tracker is not None:
                reading = reader.read(shown)
                hidden = getattr(getattr(reader, "finder", None), "hidden", ())
                board = (dark_markers_text(shown, hidden, reader.last_problem) or reader.last_problem
                         or _hidden_text(reader))
                if board != markers:  # every frame of a live camera, it flooded the screen
                    markers = board
                    lines.append(_markers_text(markers))
                changed = tracker.update(reading)
                lines += [f"slot {slot.slot} now holds {_card_text(reader, slot.card)} ({sure_text(slot.confidence)})"
                          + _asked_text(slot.confidence) if slot.card else f"slot {slot.slot} is now empty"
                          for slot in changed]
                told = covered.update(reading)
                if told:
                    lines.append(told)
            else:
                view, offset = tray.cut(shown)
                reads = settler.reads
                # A camera reopened in another mode: the dice lying there are kept, their boxes scaled, where the
                # picture was only scaled; in a picture of another shape they are named and not taken until a
                # throw, as the table's feed does (`CameraFeed._resized`). A crop was told "the table would take
                # it", the die that never moved.
                resized_now = size_seen is not None and shown.shape[:2] != size_seen
                if resized_now:
                    across, down = shown.shape[1] / size_seen[1], shown.shape[0] / size_seen[0]
                    if abs(across / down - 1) < 0.01:
                        last_dice = scaled(last_dice, across, down)
                    else:
                        last_dice = last_picture = None
                        reshaped = (f"the picture changed size ({size_seen[1]}x{size_seen[0]} to "
                                    f"{shown.shape[1]}x{shown.shape[0]})")
                size_seen = shown.shape[:2]
                settled = settler.feed(view)
                if reshaped is not None and not (resized_now or fresh) and settler.gate.still_count == 0:
                    reshaped = None  # a throw since: what settles now is a roll
                fresh = False  # the first frame back had nothing to compare with
                if settler.reads != reads and settler.empty_reads and not tray.whole:
                    # The tray read empty: a knock meanwhile moved the picture with no dice to tell it, as the
                    # table's feed judges it (`CameraFeed._at_rest`).
                    knock = at_rest.knock(shown, last_dice, tray.pixels(shown.shape),
                                          gate_beyond(settler.gate, offset, view.shape), settler.empty_reads == 1)
                    if knock is not None:
                        if knock.told_by == "picture" and last_dice:
                            last_dice, last_picture = knock.carried(last_dice), at_rest.picture
                        tray, told = followed_tray(tray, knock, shown.shape)
                        if told:
                            settler.gate.rebase(tray.cut(shown)[0])
                            settler.history.clear()
                        settler.gate.forget_moves()
                        lines.append(f"{rest_words(knock)}: " + (told or "check the marked tray: if it no longer lies "
                                                                          "on the tray, give --tray again"))
                read_in, gate_of = view, settler.gate  # where the settled dice were read, and that view's gate
                if board_die is not None:  # the temple die past the marked tray, on the board, as the feed reads it
                    board_die.follow(settler.gate.still_count == 0, settled.reading if settled is not None else ())
                    on_board = board_settler.feed(shown)
                    if on_board is not None and on_board.reading and not (settled is not None and settled.reading):
                        settled, read_in, offset, gate_of = on_board, shown, (0, 0), board_settler.gate
                if settled is not None:
                    in_view = settled.reading
                    dice = placed(in_view, offset)
                    # As the table's feed takes it: dice all lying where the dice last taken lay (some perhaps
                    # lifted out) are no roll; several read at once (refused) do not become the dice lying there.
                    same = bool(dice) and untouched(last_dice, dice) is not None
                    # A camera knocked moves the dice with the whole picture: no roll either (`knock.camera_moved`).
                    beyond = gate_beyond(gate_of, offset, read_in.shape)  # in the view its gate watched
                    area = None if tray.whole or read_in is shown else tray.pixels(shown.shape)
                    knock = (camera_moved(last_dice, dice, last_picture, shown, beyond, area) if dice and not same
                             else None)
                    same = same or knock is not None
                    # A camera knocked by the throw itself: the roll is read, and the tray follows the picture.
                    thrown = (thrown_knock(at_rest.picture, shown, last_dice, dice)
                              if dice and not same and area is not None else None)
                    if dice and (same or last_dice is None or len(dice) == 1):
                        last_dice, last_picture = dice, shown.copy()
                        at_rest.keep(last_picture)
                    boxes = [r.box for r in in_view]  # in the tray's view, as the reader saw them
                    lines.append(_settled_text(settled, same, gate_of.moved_over(boxes, read_in.shape),
                                               args.reader == "temple-die", reshaped if dice else None))
                    if dice:
                        reshaped = None
                    gate_of.forget_moves()
                    if thrown is not None:
                        at_rest.keep(shown.copy())  # the picture the tray rests in now: not told again
                    followed = knock if knock is not None else thrown
                    if followed is not None and not tray.whole:  # the tray as the feed keeps it (`_follow_knock`)
                        tray, told = followed_tray(tray, followed, shown.shape)
                        if told:
                            settler.gate.rebase(tray.cut(shown)[0])
                            settler.history.clear()
                        lines.append(("" if thrown is None else f"{thrown_words(thrown)}: ")
                                     + (told or "check the marked tray: if it no longer lies on the tray, give --tray "
                                                "again"))
                    seen = shown.shape if tray.whole else read_shape(view.shape)
                    small = small_dice_size(boxes, seen) if args.reader == "dice" else None
                    if small and not small_told:
                        small_told = True
                        lines.append(_small_dice_text(small, view.shape, tray.whole))
                    small = small_temple_die(boxes, shown.shape) if args.reader == "temple-die" else None
                    if small and not small_told:
                        small_told = True
                        lines.append(_small_temple_die_text(small, shown.shape))
            if view is not None:
                gate = settler.gate if settler is not None and not every_frame else None
                moving = gate.moving_for if gate is not None else 0.0
                # Judged on what the reader sees, the tray (the whole picture for cards), as the feed judges it.
                lines += faults.lines(view, frames, every_frame, reader, in_view,
                                      moving if moving >= RESTLESS_SECONDS else None, gate is not None and gate.banded,
                                      gate.frame_rate if gate is not None and source.live else None)
            for line in lines:
                print(f"frame {frames}: {line}", flush=True)
            if shots is not None and lines and shown is not None and not save_failed:
                slots = getattr(reader, "last_outlines", None) if args.reader == "cards" else None
                tray_box = None if tray.whole else tray.pixels(shown.shape)
                why = shots.save(frames, shown, dice, slots, tray_box)
                if why is not None:
                    save_failed = True
                    print(f"frame {frames}: {why}: frames are no longer saved", flush=True)
            reports += len(lines) if shown is not None else 0  # an unusable photo is no reading of the view
            if args.frames and frames >= args.frames:
                break
    except KeyboardInterrupt:  # the usual end of a live watch: said, and ended 130 as every command (it ended 0)
        stopped = True
    finally:
        source.close()
    print(f"{counted(frames, 'frame')} read{' (stopped by Ctrl-C)' if stopped else ''}")
    if shots is not None:
        kept = f", the newest {len(shots.written)} kept" if shots.count > len(shots.written) else ""
        print(f"{counted(shots.count, 'frame')} with a reading saved in {args.save}{kept}")
    skipped = (skipped_note(opened[-1]) or cut_short_note(opened[-1])) if opened else None
    if skipped:
        print(skipped)
    if frames > unusable and not reports and settler is not None and settler.reads:
        # The view did hold still and was read: "never held still" sent the café to steady a camera that was
        # steady, when the reader saw no dice in the view.
        where = "inside the marked tray (--tray)" if not tray.whole else "where the camera sees them"
        print(f"no reading: the picture held still, but no dice were seen in it: put the dice {where} "
              "(if they are there, mount the camera closer to them)")
    elif frames > unusable and not reports:
        print("no reading: the view never held still for long enough (a reading waits for several steady frames);"
              " for a folder of separate photos add --every-frame")
    if stopped:
        return 130
    return 0 if frames > unusable else 1
