"""The camera as an input of the session: a thread that turns frames into observations.

`CameraFeed` reads a source (anything `open_source` accepts, or a ready
`FrameSource`), runs the motion gate and settling with a dice reader (d6, or the
temple die for the temple game) and/or the temple card reader, and submits to
the controller, like the serial dice sensor does (hardware/dice_link.py):

- `RollStarted("camera")` and one `DieRead(value, "camera", confidence, face,
  dice=N)` when dice settle after motion somewhere else than the dice before,
- `CardsSeen({slot: card}, "camera", confidence)` when the card tracker's
  steady answer for some slots changes to a card,
- `LinkChanged("camera", up, detail)` when the source opens, fails, recovers or ends.

Nothing on the thread may take the app down: a failing source is retried
(`RetryingSource`), a frame a reader chokes on is skipped, and the table is
told once per streak of that reader's failures. `close()` stops the thread and
joins it; nothing is submitted once it has been called.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import reprlib
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from companion.observations import WHILE_DOWN, CardsSeen, DieRead, LinkChanged, Observation, RollStarted
from vision.covered_notice import CoveredNotice, slots_under
from vision.d6_reader import small_dice_size
from vision.frames import as_bgr
from vision.knock import (
    Beyond,
    Knock,
    TableAtRest,
    camera_moved,
    followed_tray,
    gate_beyond,
    left_lying,
    rest_words,
    thrown_knock,
    thrown_words,
    untouched,
)
from vision.marker_places import places_moved, save_places
from vision.markers import dark_markers_text, hidden_text
from vision.motion import MotionGate
from vision.orientation import UPRIGHT, Orientation
from vision.readings import BoardReading, DieReading
from vision.settle import Settled, Settler, dice_settler, unit_confidence
from vision.sources import FrameSource, RetryingSource, ended_note, open_source, skipped_note, unreadable_note
from vision.tray_area import WHOLE_PICTURE, TrayArea, TrayReader, placed, read_shape
from vision.view_check import (
    DARK_EVERY,
    DARK_MENDS,
    ON_SCREEN,
    RESTLESS_SECONDS,
    STUCK_SECONDS,
    Mends,
    blurred_board,
    blurred_dice,
    restless_advice,
    shadow_kept,
    small_temple_die,
    too_dark,
    washed_out,
)

if TYPE_CHECKING:
    from vision.board_die import BoardDieReader

log = logging.getLogger(__name__)

BIG_DIE_MODES = ("temple", "temple-die")
"""Modes whose die is big enough in the picture (the temple d20, a fifth of a table frame across) that it never
lands unseen by the motion gate; a d6 far from the camera, a few pixels across, may (`CameraFeed._dice`)."""
TAUGHT_NOTE = ("The camera cannot use something it was taught, and reads on without it (owner: Settings).")
"""The players' words for a taught photo or die the camera reads without (`LinkChanged.table`): the owner's note
names files and what to teach again, which nobody at the table can do."""
Submit = Callable[[Observation], None]
Mode = str | None
"""Which readers run: "d6", "temple" (temple die + cards), "temple-die", "cards", or None (only the link)."""

TEMPLE_GAMES = frozenset({"temple"})
# The dice reader each mode reads with (a mode without one reads no dice).
DICE_READERS = {"d6": "d6", "temple": "temple-die", "temple-die": "temple-die"}
UNSEEN = object()  # no frame read yet, so no game data seen either
CARD_READS_AFTER_MOTION = 10  # board reads at the full rate after motion: the tracker needs 3 steady ones
BOARD_MISSES = 5  # still board reads without the markers before the table is told
# Still board reads with the same slots covered before the table is told: the ten quick reads after motion and three
# a second apart, so a hand held still while laying a card is not announced, a cup or an untaught deck is.
COVERED_READS = 13
MAINS_ANSWER_SECONDS = 1.0  # how long a screen waits for the camera to take the mains frequency
READER_NAMES = {"d6": "d6 reader", "temple-die": "temple die reader", "cards": "card reader"}
FRAME = "frame"  # a fault of the frame itself (or of the feed), not of one reader


class ReaderFault(Exception):
    """A reader raised, or answered with something no reading is made of: the frame is passed over and the
    table told which reader failed, in words, once per streak of that reader's failures."""

    def __init__(self, kind: str, what: str) -> None:
        self.kind = kind
        super().__init__(f"the {READER_NAMES.get(kind, kind)} failed on a frame, which was passed over: {what}")


def is_reading(kind: str, reading: Any) -> bool:
    """Whether a reader's answer is one the feed can use: dice a list of `DieReading`, the board a
    `BoardReading` or None (no board seen)."""
    if kind == "cards":
        return reading is None or isinstance(reading, BoardReading)
    return isinstance(reading, (list, tuple)) and all(isinstance(die, DieReading) for die in reading)


class Checked:
    """A reader as the feed calls it: its faults, and answers that are no reading, become a `ReaderFault`.

    A generator taken for a reading read as no dice at all, and nobody heard
    why. `worked` hears of each good answer, which ends that reader's streak of
    failures, so a reader that fails again later is reported again.
    """

    def __init__(self, kind: str, reader: Any, worked: Callable[[str], None]) -> None:
        self.kind = kind
        self.reader = reader
        self.worked = worked

    def read(self, frame: Any, **known: Any) -> Any:
        """The reader's reading of ``frame``; ``known``: what the feed knows of it besides, passed on only when
        given (a reader a test or a café made may take no more than the frame)."""
        try:
            reading = self.reader.read(frame, **known)
        except Exception as error:
            raise ReaderFault(self.kind, f"{type(error).__name__}: {error}") from error
        if not is_reading(self.kind, reading):
            wanted = "a board reading" if self.kind == "cards" else "a list of dice"
            got = reprlib.repr(reading) if isinstance(reading, (list, tuple)) else f"a {type(reading).__name__}"
            raise ReaderFault(self.kind, f"it answered {got}, not {wanted}")
        self.worked(self.kind)
        return reading


def plain_confidence(value: Any) -> float:
    """A confidence as the controller compares it: one that is no number from 0 to 1 is 0, so the table asks.

    NaN compares as neither low nor high, and a reader giving percent (95) looks
    sure: both were applied without the confirm tap. True and the text "0.9"
    were taken as sure too; they are no share either (`settle.unit_confidence`).
    """
    return unit_confidence(value)


def scaled(dice: Any, across: float, down: float) -> Any:
    """Dice boxed in a picture scaled by `across` and `down` (None stays None)."""
    if dice is None:
        return None
    return [dataclasses.replace(d, box=(d.box[0] * across, d.box[1] * down, d.box[2] * across, d.box[3] * down))
            for d in dice]


def faces(dice: Any) -> str:
    """The dice as the table says them ("3 red, 5 white"), in an order of their own for comparing."""
    return ", ".join(sorted(f"{d.value}{' ' + d.face if d.face else ''}" for d in dice))


def mode_for_game(game_id: str | None, rolls_dice: bool = True) -> Mode:
    """The readers a game needs: the temple game has its own die and path cards, a game with dice a d6.

    A game without dice (Through the Desert, Targi) needs none: the d6 reader
    ran there all game long, a Pi's core busy reading the tiles and camels in
    view, and any die it found was only refused.
    """
    if game_id in TEMPLE_GAMES:
        return "temple"
    return "d6" if game_id is None or rolls_dice else None


class Lying(NamedTuple):
    """Where a dice reader's dice lay when another game's readers took over (`CameraFeed._new_game`): the dice
    placed, the picture they lay in, the dice last settled, and the tray at rest then."""

    placed: Any
    picture: Any
    seen: Any
    rest: TableAtRest


class CameraFeed:
    """Reads a camera on its own thread and submits observations until closed.

    `mode` is a fixed mode or a callable asked before every frame (e.g. the
    game of the controller's current session), so one feed follows the app from
    game to game. `fps` paces playback of files and folders (0 or None reads
    them as fast as they come); a live source (`FrameSource.live`) is never
    paced: a camera faster than `fps` would otherwise fill its driver's queue
    and every reading would be of a picture some frames old. `card_interval`
    is the least time in seconds between two card reads, to keep the board
    reader from eating a Pi's CPU while nothing moves. Once the board has been
    read `CARD_READS_AFTER_MOTION` times since anything last moved, it is read
    only every `idle_card_interval` seconds: a card cannot change without a
    hand over the board, and the hand is motion, which brings the full rate
    back. `table` gives the game on the table (the app's: the controller's
    session): another game begun, even of the same kind, makes the readers
    afresh, so what lies on the board is read again for it.
    """

    def __init__(
        self,
        source: str | int | Callable[[], FrameSource],
        submit: Submit,
        mode: Mode | Callable[[], Mode] = "d6",
        name: str = "camera",
        taught_dir: Any = None,
        game_data: Callable[[], Any] | None = None,
        table: Callable[[], Any] | None = None,
        retry_seconds: float = 2.0,
        fps: float | None = 30.0,
        card_interval: float = 0.15,
        idle_card_interval: float = 1.0,
        gate: Callable[[], MotionGate] = MotionGate,
        readers: dict[str, Any] | None = None,
        on_frame: Callable[[int], None] | None = None,
        orientation: Orientation = UPRIGHT,
        tray: TrayArea = WHOLE_PICTURE,
        mains_hz: int = 0,
        mends: Mends = ON_SCREEN,
        on_tray: Callable[[TrayArea], None] | None = None,
    ) -> None:
        self.spec = source
        self.submit = submit
        self.mode = mode
        self.name = name
        self.taught_dir = taught_dir
        self.game_data = game_data or (lambda: None)
        self._data_read: Any = UNSEEN  # the data set the card reader was made for
        # The game on the table (the controller's session): another one begun makes the readers afresh (`_frame`).
        self.table = table or (lambda: None)
        self._table: Any = UNSEEN
        self.fps = fps
        self.card_interval = card_interval
        self.idle_card_interval = idle_card_interval
        self.card_reads = 0  # board reads since anything last moved
        self.make_gate = gate
        self.readers: dict[str, Any] = dict(readers or {})
        self._places: dict[int, Any] | None = None  # the board markers' places as last kept in the taught folder
        self.on_frame = on_frame
        self.restless_after = RESTLESS_SECONDS
        self.stuck_after = STUCK_SECONDS
        self.stuck = False  # the table was told that the picture never holds still, so nothing is read
        self.mends = mends  # how the front end gives the mains frequency and the tray, for the advice
        self.orientation = orientation  # the café may turn the picture while the feed runs: see `_upright`
        self._orientation = orientation
        self.tray = tray  # where dice are read, in the upright picture; may change while the feed runs, likewise
        self._tray = tray
        # Told the marked tray moved with a knocked camera's picture (`_follow_knock`), so the front end keeps it.
        self.on_tray = on_tray
        opener = source if callable(source) else (lambda: open_source(source))
        self.source = RetryingSource(opener, str(source) if not callable(source) else name, retry_seconds,
                                     mains_hz=mains_hz)
        self.frames = 0
        self.errors = 0
        self._picture: Any = None  # the frame being read, whose dice `_dice` is told of
        self.latest: Any = None  # the last frame read, for a screen that shows what the camera sees
        self.dark: int | None = None  # the picture's brightest level while it is too dark to read (`view_check`)
        self.shadow: float | None = None  # the light a shadow's band keeps while one is lifted (`view_check`)
        self._reload = threading.Event()
        self._mains_asked: queue.SimpleQueue[tuple[int, list[str], threading.Event]] = queue.SimpleQueue()
        self.mains_answer_seconds = MAINS_ANSWER_SECONDS
        self.up: bool | None = None
        # What kind of problem the table was last told of (unusable, lasting): told again when it changes, as a
        # camera not found that is then plugged in where this user may not open it.
        self._down_kind: tuple[bool, bool] | None = None
        self.opened = False  # a picture came since the feed started: once down, the camera is lost, not unfound
        self.end_note = ""  # what a video or folder that played to its end was told as, for the camera screen
        self.ended = threading.Event()
        self._stop = threading.Event()
        self._submitting = threading.RLock()  # held while submitting, so close() waits for a submit under way
        self._thread: threading.Thread | None = None
        self._told: set[str] = set()  # the faults (a reader's kind, or FRAME) the table was told of, still failing
        # Where each dice reader not running now last placed dice, kept through the games between (`_new_game`).
        self._lying: dict[str, Lying] = {}
        self._reset(None)

    # -- lifecycle ----------------------------------------------------------
    def start(self) -> CameraFeed:
        """Start reading on a thread of its own; a feed already running is left as it is.

        Two threads on one feed would share its readers, which are not
        thread-safe: a frame read by both came out as a reshape error.
        """
        if self.running:
            return self
        self._thread = threading.Thread(target=self._run, name=f"camera-feed {self.source.name}", daemon=True)
        self._thread.start()
        return self

    def close(self, timeout: float = 5.0) -> None:
        """Stop the thread and wait `timeout` seconds at most for it to end.

        A reader slow on one frame may outlast the wait; what it reads is then
        dropped, never submitted: a closed feed's roll was applied to the game
        a second after close() returned.
        """
        with self._submitting:
            self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        try:
            self.source.close()
        except Exception as error:  # closing a dead camera must not stop the app's exit
            log.warning("closing camera %s: %s", self.source.name, error)

    stop = close

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self) -> CameraFeed:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def reload_taught(self) -> None:
        """Read with what was just taught: the card and die readers are made afresh before the next frame.

        Asked from another thread (the app's camera screen), so the feed's own
        thread drops its readers between frames rather than while one reads.
        """
        self._reload.set()

    # -- readers ------------------------------------------------------------
    def _current_mode(self) -> Mode:
        try:
            return self.mode() if callable(self.mode) else self.mode
        except Exception:
            return None

    def _current_table(self) -> Any:
        try:
            return self.table()
        except Exception:
            return None

    def _current_data(self) -> Any:
        try:
            return self.game_data()
        except Exception:
            return None

    def _reader(self, kind: str) -> Any:
        if kind not in self.readers:
            if kind == "d6":
                from vision.d6_reader import D6Reader

                self.readers[kind] = D6Reader()
            elif kind == "temple-die":
                from vision.taught import temple_die_reader

                self.readers[kind], note = temple_die_reader(self.taught_dir)
                if note:  # the table reads on with the rendered die, and the owner learns why (log, Settings)
                    self._tell(LinkChanged(self.name, True, note, table=TAUGHT_NOTE, standing=True))
            elif kind == "cards":
                from vision.card_catalogue import catalogue_from_data
                from vision.card_reader import CardReader

                cards, board = catalogue_from_data(self._data_read)
                reader = self.readers[kind] = CardReader(cards, board, taught_dir=self.taught_dir)
                self._places = reader.finder.marker_cells
                for problem in (reader.taught_problem, reader.photos_problem, reader.places_problem,
                                reader.clipped_problem):
                    if problem:  # read on with the drawn cards, as the die does, and say why (log, Settings)
                        # Standing: listed on the settings screen until the camera next comes up, where it went
                        # to the log alone and the table's "(owner: see the log)" sent the owner to a shell.
                        self._tell(LinkChanged(self.name, True, problem, table=TAUGHT_NOTE, standing=True))
        return self.readers[kind]

    def _reset(self, mode: Mode, cards: dict[int, Any] | None = None) -> None:
        """New readers' state for a mode (a new game): no votes, no accepted cards carried over unless given.

        ``cards``: each slot's card as the table was last told it (`_cards_told`), for readers made afresh within
        one game (something taught, the picture turned, the tray marked), whose tracker starts from them: the
        cards lying there are not news.
        """
        self._mode = mode
        self.settler: Settler | None = None
        self.tracker = None
        self.gate = self.make_gate()  # over what the dice reader sees: the marked tray, else the whole picture
        self.board_gate = self.gate  # over what the card reader sees: the whole picture
        # With a tray marked, the temple die on the board: read over the whole picture, through the board's gate.
        self._board_die: BoardDieReader | None = None
        self.board_settler: Settler | None = None
        self._die_on_board = False  # the dice last settled lie on the board, read by `board_settler`
        self._last_cards = 0.0
        self._board_misses = 0  # still board reads in a row without the board found
        self._hidden_reads = 0  # board reads in a row found with a marker hidden
        self._covered = CoveredNotice(COVERED_READS)  # slots that stay covered are told (a cup, an untaught deck)
        # The dice last settled (told to the table, or lying there when reading began), and
        # whether anything moved since. Forgotten with the readers, but kept for their dice reader by a new game
        # (`_new_game`, `_lying`): other readers see other dice.
        self._dice_seen: Any = None
        self._rolled = False
        # When the tray first moved after it was last seen at rest (dice read, or nothing there): the throw's
        # start, told with its reading (`DieRead.thrown_at`).
        self._moved_at: float | None = None
        # The dice that lie untouched where they are: lying there when reading began, or the last die told as
        # a roll. Several dice told at once (refused: a game rolls one die) do not replace them.
        self._dice_placed: Any = None
        self._placed_picture: Any = None  # the frame the dice placed were read in (`_camera_moved`)
        # The whole picture when the marked tray was last at rest, read (dice placed, or nothing in it): what a
        # tray that settles empty is compared with for a knock (`_at_rest`).
        self._rest = TableAtRest()
        self._began = "the camera began reading"  # what started these readers, for the dice lying in view then
        self._began_in: Any = None  # the first picture these readers saw (`_lay_since_began`)
        self._shape: tuple[int, ...] | None = None  # the size of the frames these readers have seen
        self._outlines: dict[int, Any] | None = None  # where the slots lay at the last board read
        self._covered_slots: frozenset[int] = frozenset()  # the slots read covered at the last board read
        self._small: tuple[int, int] | None = None  # the last settled d6 dice's size when they look small
        self._blurred: float | None = None  # the last settled d6 dice's sharpness when they look out of focus
        self._board_blurred: float | None = None  # the board markers' sharpness at the last read, when too soft
        self._board_washed: float | None = None  # the markers' black against their white at the last read, when high
        if mode is None:
            return
        dice = DICE_READERS.get(mode)
        if dice is not None:
            own = self._reader(dice)
            reader = Checked(dice, own, self._told.discard)
            self.settler = dice_settler(reader if self._tray.whole else TrayReader(reader), gate=self.gate)
            if not self._tray.whole and hasattr(own, "on_board"):
                # The temple die rolled past the marked tray onto the board is read there, over the whole picture.
                from vision.board_die import BoardDieReader

                self._board_die = BoardDieReader(own)
                self.board_gate = self.make_gate()
                self.board_settler = dice_settler(Checked(dice, self._board_die, self._told.discard),
                                                  gate=self.board_gate)
        if mode in ("temple", "cards"):
            from vision.slot_tracker import SlotTracker

            self._reader("cards")
            self.tracker = SlotTracker()
            self.tracker.accepted.update(cards or {})
            if self.settler is not None and not self._tray.whole and self.board_gate is self.gate:
                # A hand over the board outside the tray is motion to the cards, not to the dice.
                self.board_gate = self.make_gate()

    @property
    def dice_in_view(self) -> tuple[DieReading, ...]:
        """The dice last settled, for as long as nothing has moved since: what a screen may draw over the picture.

        Empty from the first motion on, so boxes never stand where dice were
        before a throw while the new ones are still being read.
        """
        dice = self._dice_seen
        return () if self._rolled or not dice else tuple(dice)

    @property
    def small_dice(self) -> tuple[int, int] | None:
        """(px across, px wanted) while the dice in view are so small that the d6 reader looks at every frame a
        second time (`d6_reader.small_dice_size`), or a temple die too small to read surely
        (`view_check.small_temple_die`): a camera too far from the tray, said on the camera screen."""
        return self._small if self.dice_in_view else None

    @property
    def small_what(self) -> str:
        """What `small_dice` measured, for the camera screen's words: the temple die, or d6 dice."""
        return "Die" if self._mode in ("temple", "temple-die") else "Dice"

    @property
    def dark_where(self) -> str:
        """What `dark` measured, for the camera screen's words (`view_check.DARK_MENDS`, as `vision watch` says
        it): the board where the cards are read over the whole picture, else the tray. A dim temple board was told
        to "light the tray"."""
        board = self.tracker is not None and (self.settler is None or self._tray.whole)
        return DARK_MENDS["cards" if board else "dice"][0]

    @property
    def blurred_dice(self) -> float | None:
        """The sharpness of the dice in view while they look out of focus (`view_check.blurred_dice`), for the
        camera screen to ask for the lens to be focused."""
        return self._blurred if self.dice_in_view else None

    @property
    def blurred_board(self) -> float | None:
        """The board markers' sharpness at the last board read while it looks out of focus
        (`view_check.blurred_board`): its slots are then misread, and the camera screen asks for focus."""
        return self._board_blurred if self._outlines else None

    @property
    def washed_out_board(self) -> float | None:
        """How bright the board markers' black is beside their white at the last board read, while it is so high
        (`view_check.washed_out`) that cards are misread however the reader allows for it: the camera
        screen asks for the lens to be wiped."""
        return self._board_washed if self._outlines else None

    @property
    def restless(self) -> float | None:
        """Seconds the picture has not held still for one frame, once that is `RESTLESS_SECONDS` or more: nothing
        settles, so nothing is read, and a camera screen says why (a flickering lamp's bands, a shaking mount, a
        fan's shadow). None while the picture holds still now and then, or no reader runs."""
        moving = self._unread_for()
        return moving if moving >= self.restless_after else None

    def _unread_for(self) -> float:
        """Seconds the picture has moved without one still frame while a reader runs (0 with none running)."""
        if self._mode is None:
            return 0.0
        return max(self.gate.moving_for, self.board_gate.moving_for)

    @property
    def banded(self) -> bool:
        """Whether what keeps the picture moving is a flickering lamp's bands (`MotionGate.banded`), which the
        mains frequency mends, rather than a shaking mount or a shadow."""
        return self.gate.banded or self.board_gate.banded

    @property
    def camera_rate(self) -> float | None:
        """A live camera's frames a second as they arrive (`MotionGate.frame_rate`), which tells the mains
        frequency of rolling bands; None for files and folders, whose pace is the feed's own."""
        return self.gate.frame_rate if self.source.live else None

    @property
    def mains_note(self) -> str:
        """What telling the camera the mains frequency came to (`vision.mains`), once it is open."""
        return self.source.mains_note

    def set_mains(self, hz: int) -> str:
        """Tell the camera open now, and every one opened after, the mains frequency (0: its own setting).

        A running feed's own thread tells the camera, between two frames: the
        source is that thread's alone, and a USB camera that hangs holds a
        control request for seconds, which must not freeze the screen that
        asked. The answer is waited for `mains_answer_seconds` at most; a later
        one shows in `mains_note`.
        """
        if not self.running:
            return self.source.set_mains(hz)
        answer: list[str] = []
        done = threading.Event()
        self._mains_asked.put((hz, answer, done))
        if done.wait(self.mains_answer_seconds):
            return answer[0]
        what = f"{hz} Hz mains" if hz else "its own mains setting"
        return f"the camera has not answered yet; it is given {what} as soon as it does"

    def _tell_mains(self) -> None:
        """Pass on what `set_mains` asked for, on the feed's thread."""
        while not self._mains_asked.empty():
            hz, answer, done = self._mains_asked.get_nowait()
            answer.append(self.source.set_mains(hz))
            done.set()

    @property
    def slots_in_view(self) -> dict[int, tuple[tuple[float, float], ...]]:
        """Each slot's corners in frame pixels at the last board read; empty while the four markers are not
        all seen, so a screen outlines the slots only where the card reader really looks."""
        return dict(self._outlines or {})

    @property
    def covered_in_view(self) -> frozenset[int]:
        """The slots read covered at the last board read (a hand, a cup), so a screen can mark them."""
        return self._covered_slots if self._outlines else frozenset()

    # -- the thread -----------------------------------------------------------
    def _run(self) -> None:
        next_at = time.monotonic()
        while not self._stop.is_set():
            self._tell_mains()
            frame = self.source.read()  # never raises
            if frame is None:
                kind = (self.source.unusable, self.source.lasting)
                if self.source.problem and (self.up is not False or kind != self._down_kind):
                    # picamera2 missing, or a word that names no camera: "retrying" would promise a wait that
                    # never ends. It is still retried (it costs nothing), in case the source is mended.
                    why = ("waiting will not mend it: give the camera another source" if self.source.lasting
                           else f"retrying every {self.source.retry_seconds:g} s")
                    # An empty folder, a camera this user may not open, is there: told by its reason, not as a
                    # camera not found.
                    unusable = self.source.unusable
                    again = (f"; {self.source.retried} every {self.source.retry_seconds:g} s" if unusable
                             else f" ({why})")
                    self._link(False, f"{self.source.problem}{again}", unusable)
                    self._down_kind = kind
                    self.gate.reset()
                    self._unseen_meanwhile()
                    self.stuck = False  # the camera lost says more; it is judged afresh once back
                if self.source.finished:
                    # A folder of zero-byte or damaged photos "ended" with no word of why nothing was read.
                    nothing = None if self.opened else unreadable_note(self.source.source)
                    # One whose every file was passed over read "Camera not found: ... has played to its end": the
                    # folder was found, and played nothing; one that played read "Camera lost: ...", though nothing
                    # was lost. Each is told by what is true of it.
                    if nothing:
                        self._link(False, nothing, unusable=True)
                    elif self.opened:
                        self.end_note = ended_note(self.source.source, self.frames)
                        self._link(False, self.end_note, ended=True)
                    else:
                        skipped = skipped_note(self.source.source)
                        note = f" ({skipped})" if skipped else ""
                        self._link(False, f"{self.source.name} has played to its end{note}")
                    self.ended.set()
                    return
                self._stop.wait(0.02 if self.source.problem is None else min(0.2, self.source.retry_seconds))
                continue
            if self.up is not True:
                told = self.source.mains_note  # each opening tells the camera the mains frequency again
                self._link(True, f"{self.source.name} open" + (f"; {told}" if told else ""))
            frame = self._upright(frame)
            self.frames += 1
            self.latest = frame
            if self.on_frame is not None:
                self.on_frame(self.frames)
            try:
                self._frame(frame)
                self._told.discard(FRAME)
            except Exception as error:  # an unreadable frame is skipped, never fatal
                self.errors += 1
                self._passed_over(error)
            self._tell_stuck()
            if self.fps and not self.source.live:  # a camera paces itself; waiting more lets its frames go stale
                next_at = max(next_at + 1.0 / self.fps, time.monotonic() - 1.0)
                self._stop.wait(max(0.0, next_at - time.monotonic()))

    def _unseen_meanwhile(self) -> None:
        """Forget where the dice lay when the camera goes down: what lies there when it is back is named, not
        taken, as when reading begins.

        While it was down the table asked the players to tap each roll; a die
        thrown meanwhile lay elsewhere when the camera came back, matched none
        it had seen, and was told as a roll: the next player's, applied unasked
        (no throw was seen, so no "Dice rolling" came before it either). The
        cards read are kept: a card cannot change unseen into another.
        """
        self._dice_placed = self._dice_seen = self._placed_picture = self._began_in = None
        self._lying.clear()
        self._rolled = False
        self._moved_at = None
        self._began = "the camera came back"

    def _passed_over(self, error: Exception) -> None:
        """Tell the table of a fault once, until what failed works again.

        A reader runs on few frames (the dice once settled, the board a few times
        a second at most), so the frames between that went through must not end
        its streak: a broken card reader was told to the table every second.
        """
        fault = error.kind if isinstance(error, ReaderFault) else FRAME
        if fault in self._told or self.stuck:  # stuck: the table's line about it says more, and stays
            log.debug("camera frame %d skipped: %s", self.frames, error)  # a kiosk's log filled a line a second
            return
        # The app logs the report (a warning); logged here too, the service's log had each one twice.
        log.debug("camera frame %d skipped: %s", self.frames, error)
        detail = str(error) if isinstance(error, ReaderFault) else f"a frame was passed over: {error}"
        self._tell(LinkChanged(self.name, True, detail, table="The camera could not read a picture: if a roll or "
                               "card did not show, tap it on the screen."))
        self._told.add(fault)

    def _tell(self, observation: Observation) -> None:
        """Submit, unless the feed has been closed: a reader may outlast close()'s wait."""
        with self._submitting:
            if not self._stop.is_set():
                self.submit(observation)

    def _tell_stuck(self) -> None:
        """A picture that never holds still reads nothing while the game goes on, as silently as a camera
        unplugged: the table is told as for a lost camera, with what mends it, and again once it holds still."""
        moving = self._unread_for()
        if not self.stuck and moving >= self.stuck_after:
            self.stuck = True
            advice = restless_advice(self.banded, self.source.mains_hz, self.mends, self.camera_rate,
                                     not self._tray.whole)
            self._tell(LinkChanged(self.name, False, f"picture not still for {moving:.0f} s, nothing read: {advice}",
                                   table=f"The camera's picture keeps moving, so nothing is read: {WHILE_DOWN}."))
        elif self.stuck and moving < self.stuck_after:
            self.stuck = False
            self._tell(LinkChanged(self.name, True, "the picture holds still again, so dice and cards are read",
                                   table="The camera's picture holds still again: dice and cards are read."))

    def _cards_told(self) -> dict[int, Any]:
        """Each slot's card as the table was last told it (an emptied slot as None): where a card reader made
        afresh within one game starts (`_reset`), so the cards lying there are not news.

        A fresh tracker told every card in view again, once something was taught
        (Settings' Teach), the picture turned or the tray marked: a temple card
        change just taken back with undo, its new card still lying there before
        the old one was put back as the undo asked, was taken again as that
        change made anew. A card laid meanwhile, or one the reader now reads
        otherwise, is told; one lifted and laid again is a change again, as the
        card tag reader keeps its slots' tags across its port's reopenings.
        """
        return dict(self.tracker.accepted) if self.tracker is not None else {}

    def _new_game(self, mode: Mode, cards: dict[int, Any] | None = None) -> None:
        """Readers made afresh for another game's mode or data, knowing where each dice reader's dice lay.

        Forgotten, the last game's die still lying in the tray, a hand passing
        over it as the new game was tapped on the screen (the motion the new
        readers saw first), was told as a throw, and the new game took it as
        its first roll ("Pink rolls 6.", the desert race begun after
        Blackpool). Kept, it is named as lying where it lay (`_dice`), as
        within a game. A dice reader's dice are kept (`_lying`) through games
        that read none (Targi between two Blackpools) or read another die (the
        temple game's d20): forgotten there, the oracle left lying in the tray
        all along was the next Blackpool's first roll ("Yellow rolls 6."). A die
        that has not moved is no roll, whatever was played meanwhile.
        """
        reader = DICE_READERS.get(self._mode)
        if reader is not None and self._dice_placed is not None:
            self._lying[reader] = Lying(self._dice_placed, self._placed_picture, self._dice_seen, self._rest)
        self._reset(mode, cards)
        kept = self._lying.pop(DICE_READERS.get(mode, ""), None)
        if kept is not None:
            self._dice_placed, self._placed_picture, self._dice_seen, self._rest = kept

    def _upright(self, frame: Any) -> Any:
        """The frame turned as the café set it. A turn made while the feed runs starts the readers afresh:
        to the motion gate the whole picture moved, and the dice it then settled on, in other places, were
        taken for a roll nobody threw."""
        orientation = self.orientation
        if orientation != self._orientation:
            self._orientation = orientation
            self._lying.clear()
            self._reset(self._mode, self._cards_told())  # the board's slots are found by its markers, as before
        if self.tray != self._tray:  # likewise: other dice in view, and a gate that saw another part
            self._tray = self.tray
            self._lying.clear()
            self._reset(self._mode, self._cards_told())
        return orientation.apply(frame)

    def _link(self, up: bool, detail: str, unusable: bool = False, ended: bool = False) -> None:
        """Tell the table the camera opened or failed; one that never gave a picture is not found, not lost, and
        one that is there but gives none (``unusable``: an empty folder, or one of unreadable files) or a video or
        folder that played and came to its end (``ended``) is told by its reason."""
        self.up = up
        self.opened = self.opened or up
        self._tell(LinkChanged(self.name, up, detail, self.opened, unusable, ended))

    def _resized(self, shape: tuple[int, ...]) -> bool:
        """Keep the dice lying in view for what they are when the camera changes its picture size; True when the
        picture took another shape, so this frame's motion is no throw.

        A camera reopened in another mode, or a stream that renegotiates, shows
        the dice in other pixels: their boxes matched none before, and the die
        that never moved was told as a new roll (at once when the picture took
        another shape, since to the gate the whole picture moved; when a hand
        had passed, if it was only scaled). The same picture scaled keeps its
        dice, their boxes scaled alike. One of another shape (cropped or
        stretched) cannot be matched: the dice then settling are named as lying
        there, not taken, as when reading begins. The gate is kept, so a camera
        that changes size on every frame is still told as a picture that never
        holds still.
        """
        before, self._shape = self._shape, shape
        if before is None or shape == before:
            return False
        across, down = shape[1] / before[1], shape[0] / before[0]
        if abs(across / down - 1) < 0.01:
            self._dice_placed = scaled(self._dice_placed, across, down)
            self._dice_seen = scaled(self._dice_seen, across, down)
            self._lying = {reader: lying._replace(placed=scaled(lying.placed, across, down),
                                                  seen=scaled(lying.seen, across, down))
                           for reader, lying in self._lying.items()}
            return False
        self._dice_placed = self._dice_seen = self._began_in = None
        self._lying.clear()
        self._rolled = False
        self._began = f"the picture changed size ({before[1]}x{before[0]} to {shape[1]}x{shape[0]})"
        return True

    def _frame(self, raw: Any) -> None:
        frame = as_bgr(raw)
        if frame is None:  # said once through the skipped-frame report, so a bad camera mode is visible
            shape = getattr(raw, "shape", None)
            raise ValueError(f"the camera sends frames no reader can use ({shape}, {getattr(raw, 'dtype', type(raw))})")
        reshaped = self._resized(frame.shape[:2])
        self._picture = frame  # the frame whose dice `_dice` is told of
        mode = self._current_mode()
        data = self._current_data()
        other_data = self._data_read is not UNSEEN and data is not self._data_read
        self._data_read = data
        table = self._current_table()
        # Another game on the table, of the same game: the next table's temple game, the last one's cards left in
        # the slots. The readers went on as they were, so those cards were never told to the new game, which
        # waited for draws over a full board and never said to clear it. Made afresh, the cards lying there are
        # read again as lying since these readers began (`CardsSeen.first_seen`), and the controller names them.
        other_table = self._table is not UNSEEN and table is not self._table
        self._table = table
        if self._reload.is_set() or other_data:
            # Something was taught, or a game on other data began (a café's own deck): readers made afresh.
            self._reload.clear()
            for kind in ("cards", "temple-die"):
                self.readers.pop(kind, None)
                self._told.discard(kind)  # a reader made afresh has failed nobody yet
            # Taught within the game: the cards lying there are not news (`_cards_told`).
            self._new_game(mode, self._cards_told() if not (other_data or other_table) and mode == self._mode else None)
        elif mode != self._mode or other_table:
            self._new_game(mode)
        if self._began_in is None:
            self._began_in = frame.copy()
        if mode is None:
            return
        # The dice reader and its gate see the marked tray alone; the cards, the whole picture.
        tray, offset = self._tray.cut(frame) if self.settler is not None else (frame, (0, 0))
        first = self.gate.previous is None or reshaped  # nothing to compare with: no throw seen
        dice_fault: ReaderFault | None = None
        if self.settler is not None:
            reads = self.settler.reads
            try:
                settled = self.settler.feed(tray)
            except ReaderFault as fault:  # the dice reader's fault is said below; the board is still read
                settled, dice_fault = None, fault
            if self.settler.reads != reads and self.settler.empty_reads and not self._tray.whole:
                self._at_rest(frame, offset, tray.shape)  # the marked tray was read, and no dice are in it
        else:
            settled = None
            self.gate.is_still(frame)
        moving = self.gate.still_count == 0 and not first  # the first frame has nothing to compare with
        self._rolled = self._rolled or moving
        if moving and self._moved_at is None:
            self._moved_at = time.monotonic()
        elif not moving and self.settler is not None and self.settler.empty_reads:
            self._moved_at = None  # at rest with nothing in the tray: whatever moved before was no throw
        if self._board_die is not None:
            self._board_die.follow(moving, settled.reading if settled is not None else ())
        board_moving = moving
        on_board = None
        if self.board_gate is not self.gate:
            board_first = self.board_gate.previous is None
            if self.board_settler is None:
                self.board_gate.is_still(frame)
            else:
                try:
                    on_board = self.board_settler.feed(frame)  # its gate is the board's: looked at once a frame
                except ReaderFault as fault:
                    dice_fault = dice_fault or fault
            board_moving = self.board_gate.still_count == 0 and not board_first
            # A hand over the board may lift the die lying there: drawn no longer until read again.
            self._rolled = self._rolled or (board_moving and self._die_on_board)
        if self.frames % DARK_EVERY == 1:  # a dark tray settles no dice, so the light is looked at on its own
            self.dark = too_dark(tray)
            self.shadow = shadow_kept(tray if mode == "d6" else frame)  # where each reader looks
        if settled is not None:
            # d6 dice are judged in the tray, as the reader saw them; the temple die's face is read at the
            # camera's own resolution, so it is judged in the whole picture.
            boxes = [d.box for d in settled.reading]
            seen = frame.shape if self._tray.whole else read_shape(tray.shape)
            self._small = small_dice_size(boxes, seen) if mode == "d6" else small_temple_die(boxes, frame.shape)
            self._blurred = blurred_dice(tray, boxes) if mode == "d6" else None
            touched = self.gate.moved_over(boxes, tray.shape)
            self._die_on_board = False
            self._dice(dataclasses.replace(settled, reading=placed(settled.reading, offset)), touched,
                       gate_beyond(self.gate, offset, tray.shape),
                       None if self._tray.whole else self._tray.pixels(frame.shape))
            self.gate.forget_moves()
        if on_board is not None and on_board.reading:
            boxes = [d.box for d in on_board.reading]
            self._small = small_temple_die(boxes, frame.shape)
            self._die_on_board = True
            self._dice(on_board, self.board_gate.moved_over(boxes, frame.shape),
                       gate_beyond(self.board_gate, (0, 0), frame.shape))
            self.board_gate.forget_moves()
        if board_moving:
            self.card_reads = 0
        if self.tracker is not None and not board_moving:
            now = time.monotonic()
            settled_board = self.card_reads >= CARD_READS_AFTER_MOTION
            if now - self._last_cards >= (self.idle_card_interval if settled_board else self.card_interval):
                self._last_cards = now
                self.card_reads += 1
                self._cards(frame)
        if dice_fault is not None:
            # Raised once the cards are read: a temple die reader failing on every frame had stopped the
            # card reading too, so a path card laid went unseen for as long as the die's fault lasted.
            raise dice_fault

    def _dice(self, settled: Settled, touched: bool = True, beyond: Beyond | None = None,
              area: tuple[int, int, int, int] | None = None) -> None:
        """One reading per settled roll; several dice are reported as a count for the controller to refuse.

        `RollStarted` goes with the reading, not with the first motion: a hand
        over the tray on its way to the screen would otherwise replace a
        "tap to confirm" prompt with "Dice rolling." and leave nothing rolled.
        Dice already lying there when reading begins (the app restarted, a new
        game, a face just taught, the picture changed shape) were no roll of
        this game: they are named, not applied. Dice that all lie where dice lay
        before, some perhaps taken away (`untouched`), are no roll either, nor dice that moved only with a
        camera knocked (`knock.camera_moved`; ``beyond`` says whether anything else moved in view meanwhile,
        ``area`` where the marked tray lies, in frame pixels), nor the last game's other die, read by this
        game's reader where it lay unmoved (`knock.left_lying`).
        """
        dice, thrown = settled.reading, self._moved_at
        self._moved_at = None
        if not dice:
            return
        before, rolled = self._dice_placed, self._rolled
        self._dice_seen, self._rolled = dice, False
        kept = untouched(before, dice)
        moved = camera_moved(before, dice, self._placed_picture, self._picture, beyond, area) if kept is None else None
        followed = ""
        if moved is not None:
            kept = moved.dice
            followed = self._follow_knock(moved)
        if kept is not None and not touched:
            # Nothing moved over the dice: a hand that moved a pawn on the board under the temple game's camera,
            # or passed beside the dice, left them as they lay, and had the table told they lay there after
            # every pawn move.
            self._place(dice)
            return
        if kept is not None:
            # Said either way: a die thrown into the tray's corner it lay in before lands where it lay,
            # and a player whose throw went unanswered must learn why.
            self._place(dice)
            now = faces(dice) if faces(dice) == faces(kept) else f"now read {faces(dice)} (was {faces(kept)})"
            # After a knock nobody threw, so "roll again" would ask for a throw nobody owes.
            knocked, answer = ((moved.words(), "not taken as a roll") if moved is not None else
                               ("", "not taken as a new roll; roll again or enter the value by hand"))
            # The players' words for a knock: no pixels, and the marked tray is the owner's (`_knock_table`).
            table = (f"The camera was knocked, but the dice lie where they lay: no roll is taken"
                     f"{_knock_table(followed)}." if moved is not None else None)
            self._tell(LinkChanged(self.name, True, f"{knocked}the dice lie where they lay, {now}: {answer}{followed}",
                                   table=table))
            return
        if left_lying([(die, lying.picture) for lying in self._lying.values() for die in lying.placed or ()], dice,
                      self._picture):
            # The last game's other die (the temple d20 as Blackpool begins), read by this game's reader: no roll.
            self._place(dice)
            self._tell(LinkChanged(self.name, True, f"a die read as {faces(dice)} lies where the last game's die lay: "
                                                    "not taken as a roll (take that die out of the tray, and roll "
                                                    "this game's)"))
            return
        if before is None and (not rolled or self._lay_since_began(dice)):
            self._place(dice)
            self._tell(LinkChanged(self.name, True, f"{faces(dice)} already lay in view when {self._began}: "
                                                    "not taken as a roll (roll to play)"))
            return
        if not touched and self._mode in BIG_DIE_MODES:
            # The temple die cannot land without moving pixels the gate counts: read where nothing moved, it is
            # something that lay there all along. A path card face up beside the board was read as a die each
            # time the die was lifted (one drawn card at 0.81, taken as a roll).
            self._place(dice)
            return
        rest = self._rest.picture  # the picture the tray last rested in, before this roll rests in it
        if len(dice) == 1:  # told as a roll, it lies untouched from now on; several are refused, not rolled
            self._place(dice)
        if rolled:
            self._tell(RollStarted(self.name))
        reading = max(dice, key=lambda r: plain_confidence(r.confidence))
        face = {"colour": reading.face} if reading.face else None
        confidence = plain_confidence(settled.confidence)
        self._tell(DieRead(reading.value, self.name, confidence, face, dice=len(dice), thrown_at=thrown))
        # The camera knocked by the throw settles with the dice: the marked tray follows it as when the tray
        # settles empty (`knock.thrown_knock`). Looked for once the roll is told, which it does not delay.
        knock = None if self._tray.whole else thrown_knock(rest, self._picture, before, dice)
        if knock is not None:
            followed = self._follow_knock(knock)
            if self._picture is not None:  # the picture the tray rests in now: the knock is not told again
                self._rest.keep(self._picture.copy())
            self._tell(LinkChanged(self.name, True, f"{thrown_words(knock)}{followed}",
                                   table="The camera was knocked as the dice were thrown: if the roll it read is "
                                   f"wrong, undo it and enter it by hand{_knock_table(followed)}."))

    def _lay_since_began(self, dice: Any) -> bool:
        """Whether ``dice``, settled after motion with none placed since these readers began, each lie unmoved
        where the first picture they saw showed them (`knock.left_lying`): there before reading began.

        Only dice settled with nothing moved first were named as lying there.
        A camera restarted (Settings' Save with another source, switched off
        and on, the app started again over its journal) as a hand passed over
        the tray, or before one did, took the die lying there all along for a
        throw: the roll just taken back with undo was taken again, the undo
        lost. A die thrown since lies where the first picture showed none, or
        shows another face.
        """
        return self._began_in is not None and left_lying([(die, self._began_in) for die in dice], dice, self._picture)

    def _follow_knock(self, knock: Knock) -> str:
        """Keep a marked tray on the tray after the camera was knocked; what the table is told of it.

        Left where it was, the area lay off the tray by the knock: dice thrown
        against the far wall went unread, and the table round the near wall was
        watched. A shift the whole picture measured (`motion.picture_shift`) is
        the tray's own, and the area moves with it. One only the dice told (a
        plain tray, nothing else in view) is the dice's, and one that would take
        the area past the picture's edge cannot be followed: the café is asked
        to mark the tray again.
        """
        if self._tray.whole or self._picture is None:
            return ""
        area, told = followed_tray(self._tray, knock, self._picture.shape)
        if not told:
            return f"{KNOCK_LOST}: if it no longer lies on the tray, {self.mends.mark_tray} again"
        self.tray = self._tray = area
        self.gate.rebase(area.cut(self._picture)[0])  # the tray where it lies now is no motion
        if self.settler is not None:
            self.settler.history.clear()
        if self.on_tray is not None:
            try:
                self.on_tray(area)
            except Exception as error:  # the front end's keeping must not stop the camera
                log.warning("keeping the moved tray: %s", error)
        return f". {told[0].upper()}{told[1:]}"

    def _place(self, dice: Any) -> None:
        """Keep ``dice`` as the dice lying untouched, and the picture they lie in (`_camera_moved`)."""
        self._dice_placed = dice
        self._placed_picture = self._picture.copy() if self._picture is not None else None
        self._rest.keep(self._placed_picture)

    def _at_rest(self, frame: Any, offset: tuple[int, int], shape: tuple[int, ...]) -> None:
        """The marked tray settled with no dice in it: compare the picture with the one it last rested in, and
        follow a knock, or ask for the tray to be marked again (`knock.knocked_at_rest`).

        The picture was compared only when dice settled, so a camera knocked while
        the tray was empty, or knocked so the dice left the marked area, kept the
        area where it was, off the tray: the next roll was missed, or read in part.
        On the first read after motion, and on an idle tray's reads only when the
        picture changed since it rested (`knock.TableAtRest`).
        """
        x0, y0, x1, y1 = self._tray.pixels(frame.shape)
        knock = self._rest.knock(frame, self._dice_placed, (x0, y0, x1, y1), gate_beyond(self.gate, offset, shape),
                                 self.settler is not None and self.settler.empty_reads == 1)
        if knock is None:
            return
        if knock.told_by == "picture" and self._dice_placed:
            # The dice lying there, if they still do, moved with the picture: a throw is told from them there.
            self._dice_placed = knock.carried(self._dice_placed)
            self._placed_picture = self._rest.picture
        followed = self._follow_knock(knock)
        self.gate.forget_moves()  # the knock is told: the dice read in the moved tray are no new motion's
        self._tell(LinkChanged(self.name, True, f"{rest_words(knock)}{followed}",
                               table=f"The camera was knocked{_knock_table(followed) or '; it still reads the tray'}."))

    def _cards(self, frame: Any) -> None:
        """Slots whose steady card changed to a card. One that emptied is the first half of a change, never
        an action: told to the table, the bare board at a game's start and every card lifted were answered
        aloud with "The cards seen match no change the game is waiting for"."""
        reader = self.readers["cards"]
        # The die read on the board covers its slot: told as the die's, and no arm's, so the slots beside it are read.
        under = slots_under(self.dice_in_view, self._outlines)
        reading = Checked("cards", reader, self._told.discard).read(frame, **({"resting_on": under} if under else {}))
        self._outlines = getattr(reader, "last_outlines", None)
        self._covered_slots = frozenset(s.slot for s in getattr(reading, "slots", ()) if getattr(s, "covered", False))
        finder = getattr(reader, "finder", None)
        self._keep_places(getattr(finder, "marker_cells", None), getattr(getattr(reader, "board", None), "size", 0))
        self._board_blurred = blurred_board(frame, getattr(finder, "last_markers", None))
        self._board_washed = washed_out(getattr(reader, "last_ink_share", None))
        self._board_seen(reading, getattr(reader, "last_problem", None), getattr(finder, "hidden", ()), frame)
        covered = self._covered.update(reading, under)
        if covered:
            self._tell(LinkChanged(self.name, True, covered))
        known = set(self.tracker.accepted)  # the slots these readers had read before, or were told (`_reset`)
        changed = [s for s in self.tracker.update(reading) if s.card is not None]
        if changed:
            confidence = plain_confidence(min(s.confidence for s in changed))
            twins = getattr(reader, "twins", {})
            seen = {s.slot: s.card for s in changed}
            alike = {card: twins[card] for card in seen.values() if card in twins}
            # A slot read for the first time: its card lay there when reading began, not seen laid (`CardsSeen`).
            first = frozenset(seen) - known
            self._tell(CardsSeen(seen, self.name, confidence, alike, first))

    def _keep_places(self, learnt: dict[int, Any] | None, board_size: int) -> None:
        """Write the markers' places on the board to the taught folder when first learnt and when one moved
        (`vision.marker_places`); a folder that cannot be written is logged once and the places kept in memory."""
        if self.taught_dir is None or not learnt or len(learnt) < 4 or not places_moved(learnt, self._places):
            return
        self._places = dict(learnt)
        try:
            save_places(self.taught_dir, learnt, board_size)
        except OSError as error:
            log.warning("the board markers' places could not be kept in %s: %s", self.taught_dir, error)

    def _board_seen(self, reading: Any, problem: str | None, hidden: tuple[str, ...] = (), frame: Any = None) -> None:
        """Say once when the board stays out of sight, and when it is back; and so for a marker the board is
        read without (``hidden``: `BoardFinder.homography`). Markers missed in a dark ``frame`` are said to be
        lost in the dark, as `vision watch` says it (`markers.dark_markers_text`): they were guessed covered,
        "(a cup on it, or peeled off?)", with the lamp off and nothing on them.

        Without it a camera aimed past the board, or a marker peeled off or under
        a cup, read no card all game and nobody learnt why. A hand passing is
        motion and is never read, so only a board hidden while all is still counts.
        With a marker or two hidden the cards are read on, but one more cup or
        peeled corner and nothing is read.
        """
        if reading is not None:
            if self._board_misses >= BOARD_MISSES:
                self._tell(LinkChanged(self.name, True, "board markers seen again: the path cards are read"))
            self._board_misses = 0
            if hidden:
                self._hidden_reads += 1
                if self._hidden_reads == BOARD_MISSES:
                    dark = dark_markers_text(frame, hidden, None) if frame is not None else None
                    self._tell(LinkChanged(self.name, True, dark or hidden_text(hidden)))
            else:
                if self._hidden_reads >= BOARD_MISSES:
                    self._tell(LinkChanged(self.name, True, "all four board markers seen again"))
                self._hidden_reads = 0
            return
        self._board_misses += 1
        if self._board_misses == BOARD_MISSES:
            dark = dark_markers_text(frame, (), problem) if frame is not None else None
            told = f"{dark}; " if dark else f"{problem or 'board not found'}: "
            self._tell(LinkChanged(self.name, True, f"{told}the path cards are not read until all four markers show"))


KNOCK_LOST = ". Check the marked tray"  # how `CameraFeed._follow_knock` asks for the tray to be marked again


def _knock_table(followed: str) -> str:
    """The end of the players' sentence for a knock: the owner is asked to mark the tray again when the feed
    could not follow it (`CameraFeed._follow_knock`); "" when it followed, or no tray is marked."""
    return " (owner: mark the tray again on the camera screen)" if followed.startswith(KNOCK_LOST) else ""


def start_camera(source: str, submit: Submit, session: Callable[[], Any], **kwargs: Any) -> CameraFeed:
    """The feed the app and `hw play` attach: readers follow the current session's game and its data.

    ``session`` gives the controller's session (or None). The feed reads with
    what the café taught (`vision.taught`), as the teach commands store it by
    default, and with the cards of the data the game runs on, a café's own deck
    included.
    """
    from vision.taught import default_taught_dir

    def game() -> Any:
        current = session()
        return current.game if current is not None else None

    kwargs.setdefault("taught_dir", default_taught_dir())
    kwargs.setdefault("game_data", lambda: getattr(game(), "data", None))
    def mode() -> Mode:
        current = game()
        return mode_for_game(getattr(current, "id", None), bool(getattr(current, "dice", True)))

    kwargs.setdefault("table", session)
    return CameraFeed(source, submit, mode=mode, **kwargs).start()
