"""The serial dice sensor on a port: a reader thread that outlives unplugging.

The transport is deliberately thin (open by URL, read what is there, feed the
parser); everything that can go wrong on the wire is the parser's business,
and everything the table means is the controller's. The thread only turns
messages into observations and keeps trying to get the port back.
"""

from __future__ import annotations

import errno
import os
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import serial

from companion.observations import CardsSeen, DieRead, LinkChanged, Observation, RollStarted
from hardware.dice_protocol import (
    BadLine,
    DieSettled,
    Ident,
    LineParser,
    Message,
    RollStart,
    SensorFault,
    SlotReport,
    encode,
)
from hardware.tags import GameTags, TagMap

Submit = Callable[[Observation], None]
QUERY = encode("ID?")
# After this long without a byte, a sensor that has answered "$ID?" before is asked again, and one that then
# says nothing for ANSWER_SECONDS is reported silent (hung, or its board lost power behind the USB adapter).
QUIET_SECONDS = 15.0
ANSWER_SECONDS = 5.0
# Unreadable lines after this long without one are a new burst (the next throw at a wrong baud rate): said again.
GARBLED_GAP_SECONDS = 5.0
# A second drop of an open port within this long of the first is a loose connector, not a sensor unplugged: the
# drops are told as one "connection unstable" at most once in this long, and "steady again" once the port has held
# this long. Each drop said as "lost" and each reopening as "connected" was about 4 pairs in 1.5 s at the default
# back-off, filling the status line, the log and the voice.
FLAP_SECONDS = 30.0
# A die settles within this long of its $ROLL: one read this soon after the port opened, with no $ROLL since, from
# a device that says $ROLL, was thrown while the port was closed, and may be a roll the table entered by hand.
THROW_SECONDS = 5.0


BY_ID = Path("/dev/serial/by-id")  # udev's names for serial devices by their USB identity, same after a re-plug


def stable_name(device: str, folder: Path = BY_ID) -> Path | None:
    """The link in ``folder`` that points at ``device`` now, if ``device`` is a path outside it; else None.

    A café may give the port as ``/dev/ttyACM0``. Unplugged and plugged back
    while the reader still held it, the sensor comes back as ``/dev/ttyACM1``,
    and a reader retrying the old name waits forever; udev's by-id link
    follows the device itself.
    """
    if "://" in device:
        return None
    try:
        if os.path.realpath(Path(device).parent) == os.path.realpath(folder):
            return None  # already a stable name
        real = os.path.realpath(device)
        return next((entry for entry in sorted(folder.iterdir()) if os.path.realpath(entry) == real), None)
    except OSError:
        return None


GONE = ("the port closed: the sensor was unplugged, its cable came loose, or another program took its port; it is "
        "opened again once it is back")


def lost_words(error: Exception) -> str:
    """Why a port that was open failed, in the table's words where pyserial's are a driver's.

    A sensor pulled out was said as "[Errno 5] Input/output error" or "device
    reports readiness to read but returned no data (device disconnected or
    multiple access on port?)", depending on when the read noticed it.
    """
    if getattr(error, "errno", None) == errno.EIO or "returned no data" in str(error):
        return GONE
    return str(error)


# A port that is there but this program cannot open, by the errno of the open: the words say why and what mends
# it, where "Permission denied" read as a sensor not found. The service's user is in dialout (systemd/).
UNUSABLE = {
    errno.EACCES: "permission denied (add the service user to the dialout group: see docs/hardware.md)",
    errno.EPERM: "permission denied (add the service user to the dialout group: see docs/hardware.md)",
    errno.EBUSY: ("busy: another program has it open (a serial monitor, ModemManager, a second hw play); it is "
                  "opened once that program lets it go"),
    # The lock `open_port` takes, held by another reader of ours (pyserial's "Could not exclusively lock port").
    errno.EAGAIN: ("busy: another reader of the sensor has it open (the table's app, hw play, hw teach or hw test); "
                   "it is opened once that one lets it go"),
}


GONE_KEY = "gone"  # `DiceLink._run`'s note of a port told lost or not found


def unusable(error: BaseException) -> bool:
    """Whether ``error``, from opening a port, says the port is there but cannot be used (`UNUSABLE`)."""
    return getattr(error, "errno", None) in UNUSABLE


class Silent(serial.SerialException):
    """The port is open but the device behind it stopped answering: the reader reopens it, as after a failure."""


def open_port(url: str, baudrate: int = 115200) -> serial.SerialBase:
    """The port behind ``url``; any failure to open it is a ``serial.SerialException``.

    pyserial lets more than its own errors out of ``serial_for_url`` for a
    mistyped URL: ``loop://?logging=bogus`` raises KeyError, ``hwgrep://(``
    re.error. Uncaught, either ended the reader thread (and ``hw test``) with a
    traceback and no "cannot open" report, leaving a sensor that silently never
    connects.
    """
    try:
        # Exclusive (an advisory lock every reader of ours takes): a second reader on the sensor's port, `hw
        # teach` or `hw play` run while the table's app reads it, took every other line from the game, rolls
        # among them, and cut others in two. It is now told busy, and the game keeps its rolls.
        return serial.serial_for_url(url, baudrate=baudrate, timeout=0.1, exclusive=True)
    except serial.SerialException as error:
        if error.errno:  # pyserial's own words name the port twice: "[Errno 2] could not open port X: [Errno 2] ..."
            refused = serial.SerialException(UNUSABLE.get(error.errno) or os.strerror(error.errno))
            refused.errno = error.errno  # kept, so the reader tells a port that is there from one that is not
            raise refused from error
        raise
    except Exception as error:  # whatever the URL handler raised, the port did not open
        raise serial.SerialException(f"not a usable port or URL ({type(error).__name__}: {error})") from error


def ask_ident(port: serial.SerialBase) -> bool:
    """Send ``$ID?`` if the port can take it now; False when it could not.

    A device that never reads what the host sends (firmware that only prints,
    on a USB CDC port) leaves the host's output queue full. pyserial's write on
    such a tty retries EAGAIN in a loop that ignores its timeouts, so the reader
    spun a CPU core forever, never read the dice again and could not be
    stopped. The query is only a courtesy (the device also says who it is on
    power-up), so on a local tty it is one non-blocking try.
    """
    if not isinstance(port, serial.Serial):  # loop://, socket://, rfc2217://: no tty queue to wedge on
        port.write(QUERY)
        return True
    try:
        return os.write(port.fileno(), QUERY) == len(QUERY)
    except BlockingIOError:
        return False


def to_observation(message: Message, source: str, tags: TagMap | GameTags | None = None) -> Observation | None:
    """What the table means by a message; None for noise, which the controller never sees."""
    if isinstance(message, Ident):
        # Which device answered is the owner's business: nothing for the table's status line.
        return LinkChanged(source, True, f"{message.model} firmware {message.firmware} #{message.serial}".strip(),
                           table="")
    if isinstance(message, RollStart):
        return RollStarted(source)
    if isinstance(message, DieSettled):
        face = {"colour": message.colour} if message.colour else None
        return DieRead(message.value, source, message.confidence, face, message.die)
    if isinstance(message, SensorFault):
        return LinkChanged(source, True, f"sensor fault {message.code}: {message.text}".rstrip(": "),
                           table="The dice sensor could not read the die: roll again, or enter the roll by hand.")
    if isinstance(message, SlotReport):
        if message.tag is None:
            return CardsSeen({message.slot: None}, source)
        card = tags.card(message.tag) if tags else None
        if card is None:
            if isinstance(tags, GameTags) and (problem := tags.problem()) is not None:
                # A broken tag file: "teach its tag" sent the owner to teach tags taught already.
                untold = tags.untold()
                return LinkChanged(source, True, f"slot {message.slot}: tag {message.tag} not read: {problem}",
                                   table=tag_file_table(untold) if untold else
                                   f"The card in slot {message.slot} is not read: tap it on the screen.")
            teach = tags.teach_command if tags else TagMap.teach_command
            detail = f"slot {message.slot}: unknown tag {message.tag}; teach it with '{teach}'"
            return LinkChanged(source, True, detail, table=f"The card in slot {message.slot} is not one the "
                               "sensor knows: tap it on the screen (owner: teach its tag).")
        return CardsSeen({message.slot: card}, source)
    return None


def tag_file_table(problem: str) -> str:
    """The table's status line for a broken tag file (`GameTags.problem`): the owner is named the file and what
    is wrong, and the players what to do meanwhile."""
    return f"Card tags: {problem}. Play goes on: tap the cards on the screen."


class DiceLink:
    """Reads a sensor at ``url`` on its own thread and submits observations until stopped."""

    def __init__(
        self,
        url: str,
        submit: Submit,
        source: str = "dice sensor",
        tags: TagMap | GameTags | None = None,
        baudrate: int = 115200,
        backoff: tuple[float, float] = (0.1, 2.0),
        on_message: Callable[[Message], None] | None = None,
        silence: tuple[float, float] = (QUIET_SECONDS, ANSWER_SECONDS),
        by_id: Path | None = None,
        flap: float = FLAP_SECONDS,
    ) -> None:
        self.url = url
        self.submit = submit
        self.source = source
        self.tags = tags
        self.baudrate = baudrate
        self.backoff = backoff
        self.on_message = on_message
        self.silence = silence
        self.by_id = by_id if by_id is not None else BY_ID  # read when made: a test points it at a folder of its own
        self.flap = flap
        self.stable: Path | None = None  # udev's by-id name of the device last opened at `url`
        self.counts: Counter[str] = Counter()
        self.ident: Ident | None = None
        self._parser = LineParser()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: serial.SerialBase | None = None
        self._spoke = False  # the device sent a valid message since the port was last opened
        self._garbled_said = False  # an unreadable line was reported, and no line has read since
        self._garbled_at = 0.0  # when the last unreadable line came
        self.clock: Callable[[], float] = time.monotonic
        self._answers = False  # the device has answered "$ID?": its silence after one is news
        self._asked_at: float | None = None  # when "$ID?" went out to a quiet port, until something came back
        self._silent = False  # reported silent, and nothing valid heard since
        # What the device said last on this connection, to know a line it sends again (`_repeat`).
        self._last: Message | None = None
        self._die: DieSettled | None = None  # the first die settled since the last $ROLL: that throw's roll
        self._rolls = False  # the device says $ROLL when the dice move: a die read without one is no new throw
        self._announces = False  # the device has said $ROLL since the link started, on this connection or before
        self._die_at = 0.0  # when the last $DIE line came: one long after it is a throw of its own
        self._unannounced: list[DieSettled] = []  # throws of their own since the last $ROLL, none taken
        self._no_roll_said = False  # told that the device seems to say $ROLL only once; until it announces a throw
        self._reread_said: set[tuple[object, str | None]] = set()  # other readings of this throw said (`_reread`)
        self._reread_at = 0.0  # when the last of them came
        self._slots: dict[int, str | None] = {}  # each slot's tag as last told, kept across reopenings
        self._repeat_said = False
        self._drops: deque[float] = deque()  # when the open port failed, within the last `flap` seconds
        self._unstable_at: float | None = None  # when "connection unstable" was last said; None once it holds
        self._opened_at = 0.0  # when the port last opened

    def start(self) -> DiceLink:
        self._thread = threading.Thread(target=self._run, name=f"dice-link {self.url}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> DiceLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        """Open, read until the port fails, wait, try again.

        The wait follows every failure, also of a port that opened and dropped at
        once (a ser2net server with nothing behind it, a USB adapter in a reset
        loop): without it such a port is reopened as fast as it fails, flooding
        the table with connected/lost reports. The back-off only starts again
        from its shortest once the device has said something valid.
        """
        delay = self.backoff[0]
        # Why the port was last told down: GONE_KEY (lost, or not there), or the errno of a port that is there but
        # cannot be opened (`UNUSABLE`). Told again only when that changes: a sensor not found, then plugged in on
        # a port this user may not open, went on reading "not found" while the fix was a group.
        reported_down: object = None
        while not self._stop.is_set():
            self._tag_file()  # before the port: a sensor unplugged too
            target = self._target()
            try:
                port = open_port(target, self.baudrate)
            except (serial.SerialException, OSError, ValueError) as error:
                there = unusable(error)
                why = getattr(error, "errno", None) if there else GONE_KEY
                if reported_down != why:
                    # Never opened since the link started: not found, not lost, and looked for until it is there.
                    # One that is there but may not be opened, or is held, is neither: its reason says what it is.
                    found = self.counts["connects"] > 0
                    looking = "" if found or there else "; will keep looking"
                    self.submit(LinkChanged(self.source, False, f"cannot open {self.url}: {error}{looking}", found,
                                            there))
                    reported_down = why
                    self._silent = False  # gone, not silent: once it opens again, that is said
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            reported_down = None
            self._spoke = self._garbled_said = self._repeat_said = False
            self._last = self._die = None
            self._rolls = False
            self._unannounced.clear()
            self._reread_said.clear()
            self._no_roll_said = False  # the settings screen's problem goes with the connection: told again if still so
            # The slots are kept: a card lies in its slot whatever the cable does. Forgotten here, firmware that tells
            # its slots as its port opens had a temple change just taken back with undo taken again, the new card
            # still lying there before the old one was put back. A card laid meanwhile is another tag, and told.
            self._parser.reset()  # a half line from before the outage must not glue onto the next one
            if target == self.url or os.path.realpath(target) == os.path.realpath(self.url):
                self.stable = stable_name(self.url, self.by_id) or self.stable
                opened, advice = f"{self.url} open", False
            else:
                opened = (f"{self.url} is gone, but the sensor is back as {os.path.realpath(target)}, found by its "
                          f"stable name {target}; give that name as the port to find it directly after re-plugging")
                advice = True
            self._opened_at = self.clock()
            if self._unstable_at is not None and self._opened_at - self._drops[-1] >= self.flap:
                self._unstable_at = None  # down longer than a flap: back for good, said as connected
            # Counted once the opening's time is taken and its state set: whoever waits for the count and then moves
            # on (a test moving the link's clock 30 s on) had that time taken after the move on a loaded machine, and
            # a loose connector's last reopening read as a sensor back after a long absence ("connected", never
            # "steady again"). Before the word of it, so that a count read on hearing "connected" includes it.
            self.counts["connects"] += 1
            # Reopened to wake a silent device, "connected" would say it is back; between the drops of a loose
            # connector it is no news until it holds (`_steady`).
            if not self._silent and self._unstable_at is None:
                self.submit(LinkChanged(self.source, True, opened, standing=advice))
            try:
                if not ask_ident(port):
                    self.counts["query not sent"] += 1
                self._read(port)
            except Silent as silence:
                self.counts["silences"] += 1
                if not self._silent:  # said once, not at every reopen while it stays silent
                    self._silent = True
                    self.submit(LinkChanged(self.source, False, str(silence)))
            except (serial.SerialException, OSError) as error:
                self._silent = False
                self._dropped(f"{self.url}: {lost_words(error)}")
                reported_down = GONE_KEY
            finally:
                port.close()
            if self._spoke:
                delay = self.backoff[0]
            self._stop.wait(delay)
            delay = min(delay * 2, self.backoff[1])

    def _dropped(self, detail: str) -> None:
        """Tell the open port's failure: the first at once as lost, the next ones within `flap` s as one word.

        A sensor on a loose connector drops and comes back again and again:
        each drop said as "lost" and each reopening as "connected" buried the
        game's own lines under them and had the voice say them all. The first
        drop is told at once (it may be an unplugging); a second within `flap`
        seconds says the connection is unstable, with how many drops, and that
        is said again at most once per `flap` while it goes on.
        """
        now = self.clock()
        self.counts["drops"] += 1
        self._drops.append(now)
        while now - self._drops[0] >= self.flap:
            self._drops.popleft()
        if len(self._drops) < 2:
            self._unstable_at = None
            self.submit(LinkChanged(self.source, False, detail))
        elif self._unstable_at is None or now - self._unstable_at >= self.flap:
            self._unstable_at = now
            mend = ("the server and the sensor behind it" if "://" in self.url
                    else "the sensor's cable and its plugs at both ends")
            # Whole throws still count meanwhile (docs/hardware.md): "enter rolls by hand until it holds" would have a
            # roll entered by hand and also read whole by the sensor taken twice, the second as the next player's.
            self.submit(LinkChanged(self.source, False, f"connection unstable ({len(self._drops)} drops in the last "
                                    f"{self.flap:g} s): check {mend}. Rolls it reads still count; enter by hand "
                                    "only a roll it misses", unusable=True,
                                    table="Dice sensor connection unstable: rolls it reads still count; enter by "
                                    "hand only a roll it misses (owner: Settings)."))  # fmt: skip

    def _tell(self, observation: Observation) -> None:
        """Submit what the sensor said; a word about the link while its reopenings go unsaid is a note.

        Between the drops of a loose connector the table was last told the
        connection is unstable, and its reopening is not said (`_dropped`): a
        word submitted as up read "dice sensor connected: the sensor read 5
        ..." and took the sensor off the settings screen's problems while it
        still dropped. As a note (`LinkChanged.note`) it is said as it is and
        leaves the link as it was told, until "steady again".
        """
        if isinstance(observation, LinkChanged) and observation.up and self._unstable_at is not None:
            observation = replace(observation, note=True)
        self.submit(observation)

    def _tag_file(self) -> None:
        """Tell a broken tag file of the game on the table once, as play starts or a game begins (`GameTags`): it
        was read as no tags, and every card laid was "not one the sensor knows", the owner sent to teach again."""
        if isinstance(self.tags, GameTags) and (problem := self.tags.untold(new_game_only=True)) is not None:
            self.submit(LinkChanged(self.source, True, problem, note=True, table=tag_file_table(problem)))

    def _steady(self, now: float) -> None:
        """Say an unstable connection has held for `flap` seconds: its reopenings were not said (`_dropped`)."""
        if self._unstable_at is not None and now - self._opened_at >= self.flap:
            self._unstable_at = None
            self.submit(LinkChanged(self.source, True, f"steady again: {self.url} open for {self.flap:g} s "
                                    "without a drop", table="Dice sensor steady again: its rolls are read."))

    def _target(self) -> str:
        """Where to open the sensor: its udev by-id name once known and there, else `url` as given.

        The stable name comes first: the old kernel name may meanwhile belong to another device.
        """
        if self.stable is not None and os.path.exists(self.stable):
            return str(self.stable)
        return self.url

    def _read(self, port: serial.SerialBase) -> None:
        """Read until stopped; raises `Silent` when a device that answers "$ID?" stops answering it.

        A sensor whose firmware hung, or whose board lost power behind its USB
        adapter, leaves the port open and quiet: the table heard "connected" and
        then nothing when the dice were thrown. A quiet port is normal (no one
        is rolling): it is asked after `silence`'s first figure of quiet, and
        only a device that has answered such a query is judged by its answer.
        The query sent on connecting does not count: a board reset by the
        opening of its port (an Arduino's) says who it is on power-up anyway.
        """
        quiet, answer = self.silence
        heard = self.clock()
        while not self._stop.is_set():
            data = port.read(port.in_waiting or 1)
            now = self.clock()
            self._steady(now)
            self._tag_file()
            if data:
                heard = now
                messages = self._parser.feed(data)
                for message in messages:
                    self._deliver(message)
                if messages:  # it answered, or at least it speaks (the bytes of an answer come in pieces)
                    self._asked_at = None
            elif self._asked_at is not None and now - self._asked_at >= answer:
                asked, self._asked_at = self._asked_at, None
                if self._answers and heard <= asked:  # not a byte since: bytes without a line are noise, said so
                    raise Silent(f"{self.url}: the sensor has not answered for {answer:g} s though it did before; "
                                 "it may have hung or lost power (check its cable and power). Its port is reopened "
                                 "until it answers; enter rolls by hand meanwhile")  # fmt: skip
            elif self._asked_at is None and now - heard >= quiet:
                heard = now
                if ask_ident(port):
                    self._asked_at = now
                else:
                    self.counts["query not sent"] += 1

    def _deliver(self, message: Message) -> None:
        """Take ``message``, then count it: a count read elsewhere stands for messages wholly taken.

        Counted first, a test that waited for the count of a throw's $DIE and
        then moved the link's clock on had that die's time taken after the move
        on a loaded machine: the next throw's gap read as none, and a reading
        of the same throw as a throw of its own.
        """
        try:
            self._take(message)
        finally:
            self.counts[type(message).__name__] += 1

    def _take(self, message: Message) -> None:
        known = self.ident
        if isinstance(message, Ident):
            self.ident = message
        if self.on_message is not None:
            self.on_message(message)
        if isinstance(message, BadLine):
            # Said once until a line reads again: only counted, a wrong baud rate or a roll garbled on the
            # cable left the table silent. The port's echo of our own query (loop://, echo on) is no news.
            # A new burst after a pause is said again: at a wrong baud rate every throw is garbled, and
            # after the first one the table heard nothing at all for the rest of the day.
            now, last = self.clock(), self._garbled_at
            self._garbled_at = now
            if (not self._garbled_said or now - last >= GARBLED_GAP_SECONDS) and message.raw.strip() != QUERY.strip():
                self._garbled_said = True
                self._tell(LinkChanged(self.source, True, f"a line could not be read ({message.reason}); if a "
                                       "roll did not come through, enter it by hand. If none reads, check the "
                                       "sensor speaks 115200 baud", table="The dice sensor's message came "
                                       "through garbled: if your roll did not show, enter it by hand."))  # fmt: skip
            return
        self._spoke = True
        self._garbled_said = False
        if self._silent:
            self._silent = False
            self.submit(LinkChanged(self.source, True, f"{self.url}: the sensor answers again"))
        lay = self._lay_there(message)
        if self._repeat(message):
            return
        if isinstance(message, Ident):
            if self._asked_at is not None:
                self._answers = True
                self.counts["answers"] += 1
            if message == known:  # its answer to a query while quiet: no news for the table
                return
        observation = to_observation(message, self.source, self.tags)
        if lay and isinstance(observation, CardsSeen):
            observation = replace(observation, first_seen=frozenset(observation.slots))
        if observation is not None:
            self._tell(observation)

    def _lay_there(self, message: Message) -> bool:
        """Whether ``message`` tells a slot's card as it lay when the link began: the first report of a slot this
        link has not told, within `THROW_SECONDS` of the port opening (firmware telling its slots as it connects).

        A link started afresh (the app started again) knew no slot, so each tag
        told as the port opened was taken as a card laid: a new temple game's
        draws, slot after slot, from the last game's cards left lying, and a
        card change taken back with undo, its new card still in the slot,
        taken again. Told as lying there (`CardsSeen.first_seen`), the
        controller judges them as the camera's first reading of the board. A
        slot told before keeps its tag across reopenings (`_repeat`).
        """
        return (isinstance(message, SlotReport) and message.tag is not None and message.slot not in self._slots
                and self.clock() - self._opened_at < THROW_SECONDS)

    def _repeat(self, message: Message) -> bool:
        """Whether ``message`` says again what the device said already, with nothing between that changes it.

        A die is settled once per throw ($ROLL starts the next), a slot holds
        its tag until another report: a second copy of either (firmware that
        sends each line twice, or repeats its state) is not news. Passed on, an
        undo of a misread roll ("correct it by hand") was undone at once by the
        same line sent again, and a repeating sensor filled the status line.
        The first repeat in a run is said, with what to do if it was a throw.
        """
        last, self._last = self._last, message
        now = self.clock()
        gap = now - self._die_at if isinstance(message, DieSettled) else 0.0
        self._die_at = now if isinstance(message, DieSettled) else self._die_at
        if isinstance(message, RollStart):
            if self._die is not None:  # a $ROLL after a die: the device announces its throws after all
                self._no_roll_said = False
            self._die, self._rolls, self._announces = None, True, True
            self._unannounced.clear()
            self._reread_said.clear()
            repeated = isinstance(last, RollStart)
        elif (isinstance(message, DieSettled) and not self._rolls and self._announces
              and now - self._opened_at < THROW_SECONDS):
            return self._began_closed(message)
        elif isinstance(message, DieSettled) and self._rolls and self._die is not None and self._never_rolls(
                message, gap):
            return True
        elif isinstance(message, DieSettled) and self._rolls and self._die is not None and (
                message.value, message.colour) != (self._die.value, self._die.colour):
            return self._reread(message, self._die)
        elif isinstance(message, DieSettled):
            repeated, self._die = message == self._die, message
        elif isinstance(message, SlotReport):
            repeated = message.slot in self._slots and self._slots[message.slot] == message.tag
            self._slots[message.slot] = message.tag
        else:
            repeated = isinstance(message, SensorFault) and message == last
        if not repeated:
            self._repeat_said = False
            return False
        self.counts["repeats"] += 1
        if not self._repeat_said and isinstance(message, DieSettled | SlotReport):
            self._repeat_said = True
            if isinstance(message, DieSettled):
                what = (f"the sensor sent its reading {message.value} again without the dice moving (no $ROLL "
                        "before it), so it is not taken twice; if that was a new throw, roll again or enter it by hand")
                table = (f"The sensor read {message.value} again without a new throw, so it is not taken twice. If "
                         "you threw again, roll again or enter it by hand.")
            else:
                what = (f"the reader under slot {message.slot} reported {message.tag or 'it empty'} again; "
                        "a card is taken once per laying")
                table = ""  # no news at the table: the card was taken once
            self._tell(LinkChanged(self.source, True, what, table=table))
        return True

    def _began_closed(self, message: DieSettled) -> bool:
        """A die read just after the port opened again, with no $ROLL since, from a device that says $ROLL.

        Its throw began while the port was closed (a loose connector, a cable
        pulled and put back): while it dropped the table said to enter rolls by
        hand, and Red's throw entered so had its late reading taken as Blue's
        roll. A throw read whole, its $ROLL and its $DIE on the open port, is
        taken however the connection has been (docs/hardware.md). Each value is
        said once.
        """
        self.counts["began closed"] += 1
        if (message.value, message.colour) not in self._reread_said:
            self._reread_said.add((message.value, message.colour))
            value = _shown(message)
            self._tell(LinkChanged(self.source, True, f"the sensor read {value} with no $ROLL since its port "
                                   f"opened again: that throw began while the port was closed, so {value} is not "
                                   "taken (it may be a roll entered by hand meanwhile). If it is a roll not entered "
                                   f"yet, enter {value} by hand", table=f"The sensor read {value}, but that throw "
                                   f"began while it was disconnected, so {value} is not taken. If that roll is not "
                                   f"entered yet, enter {value} by hand."))  # fmt: skip
        return True

    def _never_rolls(self, message: DieSettled, gap: float) -> bool:
        """Whether ``message`` is a throw from a device that seems to say $ROLL only once (at power-up); told once.

        Such firmware had its first throw taken and every later one refused,
        each said as "the dice did not move": the table heard why at every
        throw but never what was wrong. From the second throw of its own (a
        $DIE after a pause) with no $ROLL since the taken one, what is wrong is
        said once, and its later throws are only counted, until a $ROLL after a
        die shows the device announces its throws. The first is said as a die
        that rocked or a $ROLL that went missing (`_reread`), which it may be.
        """
        if gap >= GARBLED_GAP_SECONDS:
            self.counts["unannounced"] += 1
            self._unannounced.append(message)
        if len(self._unannounced) < 2:
            return False
        if not self._no_roll_said:
            self._no_roll_said = True
            first = _shown(self._die) if self._die else "the first"
            values = ", ".join(_shown(die) for die in self._unannounced)
            self._tell(LinkChanged(self.source, True, f"the sensor sends no $ROLL when the dice are thrown: it sent "
                                   f"one before {first} and none since, though it read {len(self._unannounced)} "
                                   f"throws after it ({values}), so no throw after {first} is taken. Enter rolls by "
                                   "hand, and have its firmware send $ROLL each time the dice start moving "
                                   "(docs/hardware.md); its throws are not said one by one from now on", standing=True,
                                   table=f"The dice sensor does not notice throws, so no roll after {first} was "
                                   "taken: enter rolls by hand (owner: see the log)."))  # fmt: skip
        return True

    def _reread(self, message: DieSettled, first: DieSettled) -> bool:
        """A second, different die since the last $ROLL, from a device that says $ROLL: not a new throw.

        A die rocking as it settled was read 3 and then 5, or two dice lay in
        the tray: Red's 3 passed the turn, and the 5 became Blue's roll, so one
        throw moved two players. Each other value is said once, not each time
        a rocking die's reading flickers back to it; a throw whose $ROLL went
        missing (one after a pause of GARBLED_GAP_SECONDS) is still said, so the
        table hears to enter it by hand. A device that never says $ROLL still
        has each new value taken as its throw.
        """
        self.counts["rereads"] += 1
        now, last = self.clock(), self._reread_at
        self._reread_at = now
        if now - last >= GARBLED_GAP_SECONDS:  # not the same die rocking: a throw of its own
            self._reread_said.clear()
        if (message.value, message.colour) not in self._reread_said:
            self._reread_said.add((message.value, message.colour))
            value, before = (_shown(die) for die in (message, first))
            self._tell(LinkChanged(self.source, True, f"the sensor read {value} after {before} with no $ROLL "
                                   f"between (the dice did not move), so {value} is not taken as a new throw. If it "
                                   f"was one, enter {value} by hand; if {before} was misread, undo it and enter "
                                   f"{value}; if two dice are in the tray, take one out", table=f"The sensor read "
                                   f"{value} after {before} with no new throw between, so {value} is not taken. If "
                                   f"it was a throw, enter {value} by hand; if {before} was wrong, undo it and "
                                   f"enter {value}; if two dice are in the tray, take one out."))  # fmt: skip
        return True


def _shown(die: DieSettled) -> str:
    """A settled die as the table says it: its value, and its colour when it has one ("5 red")."""
    return f"{die.value} {die.colour or ''}".rstrip()
