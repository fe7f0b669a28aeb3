"""A dice sensor played on a pseudo-terminal, so the real serial path runs without hardware.

The reader cannot tell it from a USB dice tower: it opens a real tty (the pty
slave) with pyserial and reads bytes with the same timing quirks. Unplugging
closes the pty; plugging in makes a new one, and an optional symlink plays the
part of udev's stable ``/dev/serial/by-id/...`` name, which is how a café
would point the companion at the device.
"""

from __future__ import annotations

import contextlib
import fcntl
import math
import os
import random
import re
import select
import shlex
import struct
import termios
import time
import tty
from collections.abc import Callable
from pathlib import Path

from companion.errors import quoted
from companion.option_types import MAX_SECONDS
from hardware.dice_protocol import encode

MODEL = "TC-DICE-SIM"


class SimulatedSensor:
    def __init__(self, link: Path | None = None, firmware: str = "1.0", serial_no: str = "0001") -> None:
        self.link = link
        self.firmware = firmware
        self.serial_no = serial_no
        self.master: int | None = None
        self.slave: int | None = None
        self.tty_path = ""
        self._pending = b""
        self.heard = False  # a reader asked $ID? since the last plug: someone has the port open

    @property
    def path(self) -> str:
        """What to give the reader: the stable link when there is one, else the pty itself."""
        return str(self.link) if self.link else self.tty_path

    def plug(self) -> SimulatedSensor:
        """A new pty (and the link to it); a sensor still plugged in is unplugged first.

        A script's ``plug`` without an ``unplug`` before it used to leave the old
        pty open: the reader on it never saw the device go, and the rolls written
        to the new pty were never read.
        """
        if self.master is not None:
            self.unplug()
        if self.link is not None and self.link.exists() and not self.link.is_symlink():
            # Only a link (ours from an earlier plug, or a stale one) may be replaced: never a user's file.
            raise FileExistsError(f"cannot make the link {self.link}: a file that is not a link is there")
        self.heard = False
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo or line editing before the reader sets its own mode
        self.tty_path = os.ttyname(self.slave)
        if self.link is not None:
            temporary = self.link.with_name(self.link.name + ".new")
            try:
                temporary.unlink(missing_ok=True)
                temporary.symlink_to(self.tty_path)
                os.replace(temporary, self.link)
            except OSError as error:
                # OSError names the pty it pointed at, which is not what went wrong; the link's folder is.
                self.unplug()
                raise OSError(error.errno, f"cannot make the link {self.link}: {error.strerror}") from None
        return self

    def unplug(self) -> None:
        if self.link is not None:
            self.link.unlink(missing_ok=True)
        for fd in (self.master, self.slave):
            if fd is not None:
                os.close(fd)
        self.master = self.slave = None

    close = unplug

    def __enter__(self) -> SimulatedSensor:
        return self.plug() if self.master is None else self

    def __exit__(self, *exc: object) -> None:
        self.unplug()

    # -- speaking -----------------------------------------------------------
    def write(self, data: bytes) -> None:
        if self.master is None:
            return  # unplugged: the words go nowhere, as with a real cable
        os.write(self.master, data)

    def send(self, *fields: object) -> None:
        self.write(encode(*fields))

    def ident(self) -> None:
        self.send("ID", MODEL, self.firmware, self.serial_no)

    def roll(self, value: int | str, die: str = "d6", confidence: int = 100, colour: str | None = None) -> None:
        self.send("ROLL")
        fields: list[object] = ["DIE", die, value, confidence]
        if colour:
            fields.append(colour)
        self.send(*fields)

    def slot(self, slot: int, tag: str | None) -> None:
        self.send("SLOT", slot, tag or "-")

    def answer_queries(self, timeout: float = 0.0) -> bool:
        """Answer ``$ID?`` from the reader, as firmware would; True if something was read."""
        if self.master is None:
            time.sleep(timeout)
            return False
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            self._pending += os.read(self.master, 1024)
        except OSError:
            return False
        while b"\n" in self._pending:
            line, _, self._pending = self._pending.partition(b"\n")
            if line.strip().startswith(b"$ID?"):
                self.heard = True
                self.ident()
        return True

    def unread(self) -> int:
        """Bytes sent that no reader has taken yet (what the pty holds for its slave side)."""
        if self.slave is None:
            return 0
        return int(struct.unpack("i", fcntl.ioctl(self.slave, termios.TIOCINQ, b"\0\0\0\0"))[0])

    def settle(self, timeout: float = 2.0) -> None:
        """Wait, answering the reader, until it has taken what was sent, when a reader is there (it asked $ID?).

        Closing a pty throws away what its slave side has not read: `simulate-dice --exit` unplugged as soon as
        its script was sent, so the script's last roll never reached the referee reading it, where a real
        sensor's last words, already on the wire, do. With nobody reading, nothing would take them: no wait.
        The pty passes what was written on to its reader's side a moment later (the kernel's flip buffer), so
        the count of bytes unread is 0 at first: it is looked at after a tenth of a second.
        """
        if not self.heard:
            return
        end = time.monotonic() + timeout
        idle(self, 0.1)
        while self.unread() and (left := end - time.monotonic()) > 0:
            self.answer_queries(min(left, 0.05))


def idle(sensor: SimulatedSensor, seconds: float) -> None:
    """Wait while still answering the reader."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        sensor.answer_queries(min(left, 0.05))


STEPS = "roll V [die] [confidence] [colour], slot N TAG|-, err CODE TEXT, id, raw TEXT, half, wait S, unplug, plug"


TEMPLE_DIE = "d20"  # the temple's die as a sensor names it (`companion.games.temple.die.DIE_ID`)
Face = tuple[int | str, str | None]  # a face's value and its background colour (None on a die without colours)


def game_dice(cafe: Path | None = None) -> dict[str, tuple[Face, ...]]:
    """Each die the games roll, by the type a sensor names it with (`oracle`, `d6`, the temple's `d20`): one
    (value, colour) per face, from the games' own data (a café's own die in ``cafe``, as the table referees with
    it), so a face the die carries twice comes up twice as often.

    `roll ? d20` rolled 1 to 6 with no colour, whatever die the step named: the temple die's 7 and X never came
    up, and its numbers came without the colour the referee asks for.
    """
    from companion.errors import CompanionError
    from companion.registry import create, game_classes

    dice: dict[str, tuple[Face, ...]] = {}
    for game_id, game_cls in game_classes().items():
        rolled = game_cls.dice
        if rolled and cafe is not None:
            with contextlib.suppress(CompanionError):  # a café file the table cannot use either: the house die
                rolled = create(game_id, cafe).dice
        for die in rolled:
            faces = ((f["value"], f.get("face", {}).get("colour")) for f in die.faces)
            dice.setdefault(die.id.lower(), tuple(faces))
    return dice


def known_dice(cafe: Path | None = None) -> str:
    """The dice a random roll can throw, as a refusal names them: "d20, d6, oracle, or dN (N sides)"."""
    return f"{', '.join(sorted(game_dice(cafe)))}, or dN (N sides)"


def random_faces(die: str, colour: str | None, cafe: Path | None = None) -> tuple[Face, ...] | int | str:
    """What a `roll ?` of ``die`` picks from: a game's die's faces (those of ``colour`` when its faces have
    colours), or the sides of another die named by them (``dN``, each side once); else why it cannot be rolled."""
    known = game_dice(cafe)
    faces = known.get(die.lower())
    if faces is None:
        sides = re.fullmatch(r"d([0-9]+)", die.lower())
        if sides is not None and int(sides[1]) >= 1:
            return int(sides[1])
        return f"a random roll (?) is of a die whose faces are known: {known_dice(cafe)}, not {quoted(die)}"
    colours = sorted({c for _, c in faces if c is not None})
    if colour and colours:
        faces = tuple(face for face in faces if face[1] == colour.lower())
        if not faces:
            return f"a {die} has no {quoted(colour)} face: its faces are {' or '.join(colours)}"
    return faces


def random_face(die: str, colour: str | None, rng: random.Random, cafe: Path | None = None) -> Face:
    """One throw of ``die`` (`random_faces`); the colour named by the step is kept on a die without colours."""
    faces = random_faces(die, colour, cafe)
    if isinstance(faces, str):
        raise ValueError(faces)
    if isinstance(faces, int):
        return rng.randint(1, faces), colour
    value, face_colour = rng.choice(faces)
    return value, face_colour or colour


def roll_refusal(args: list[str], cafe: Path | None = None) -> str | None:
    """Why a ``roll`` step's value, colour or confidence is one no die shows or no sensor sends, or None.

    `roll 9` was sent as a d6 reading 9, which no d6 shows: the referee then refused a throw the script's
    author never meant, and the simulator said only "sim: roll 9". A die a game rolls (the temple's d20, a
    d6, the oracle: `game_dice`, a café's own die in ``cafe``) shows its faces only, and on a die whose faces
    have colours a number comes with its colour, as the temple referee asks (`roll 15 d20` and `roll 7 d20`
    were sent, and refused at the table). Another die named by its sides (d8) shows 1 to its sides; another
    die type is named only, and its value is a number or X. A confidence past 0-100 the reader drops as a
    bad line. A random value (?) is of a die whose faces are known (`random_faces`).
    """
    if not args:
        return None  # a bare `roll` is a random d6
    value, die = args[0], args[1].lower() if len(args) > 1 else "d6"
    colour = args[3].lower() if len(args) > 3 else None
    sides = re.fullmatch(r"d([0-9]+)", die)
    known = game_dice(cafe).get(die)
    if sides is not None and int(sides[1]) < 1:
        return f"a die has 1 side or more, not {quoted(args[1])}"
    if value == "?":
        if isinstance(faces := random_faces(die, colour, cafe), str):
            return faces
    elif known is not None:
        confidence = args[2] if len(args) > 2 else "100"
        if (why := _face_refusal(die, known, value, colour, confidence)) is not None:
            return why
    elif sides is not None:
        if not (_digits(value) and 1 <= int(value) <= int(sides[1])):
            return f"a {die} shows 1 to {sides[1]}, not {quoted(value)}"
    elif value.upper() != "X" and not _digits(value):
        return f"a die's value is a number or X, not {quoted(value)}"
    if len(args) > 2 and not (_digits(args[2]) and int(args[2]) <= 100):
        return f"a reading's confidence is 0 to 100, not {quoted(args[2])}"
    return None


def _face_refusal(die: str, faces: tuple[Face, ...], value: str, colour: str | None, confidence: str) -> str | None:
    """Why ``value`` (and ``colour``) is no face of a game's ``die``, or None: said as the referee says it.

    Without a colour, a number on a die whose faces have colours is refused by the temple referee (it asks which
    face); its X is not, as the referee knows the X faces' colour.
    """
    from companion.games.temple.rolls import face_values

    shown: int | str = int(value) if _digits(value) else value.upper()
    if shown not in {v for v, _ in faces}:
        return f"{_a_die(die)} shows {face_values(v for v, _ in faces)}, not {quoted(value)}"
    colours = sorted({c for v, c in faces if v == shown and c is not None})
    if not colours or colour in colours:
        return None
    if colour is not None:
        return f"{_a_die(die)} has no {colour} {shown}: its {shown} is {' or '.join(colours)}"
    if shown == "X":
        return None
    return (f"{_a_die(die)}'s {shown} is {' or '.join(colours)}: name the colour after the confidence, as in "
            f"'roll {value} {die} {confidence} {colours[0]}'")


def _a_die(die: str) -> str:
    """The die as a sentence names it: "a d20", "an oracle"."""
    return f"{'an' if die[:1] in 'aeiou' else 'a'} {die}"


def board_slots(cafe: Path | None = None) -> tuple[int, ...]:
    """The slots a tag reader lies under: the temple board's, numbered as in its own data (a café's own board in
    ``cafe``), the game with slots."""
    from companion.errors import CompanionError
    from companion.games.temple.rules import TempleGame
    from companion.registry import create

    try:
        game = create(TempleGame.id, cafe)
    except CompanionError:  # a café board the table cannot use either: the house board
        game = create(TempleGame.id)
    return game.board.slot_numbers if isinstance(game, TempleGame) else ()


def slot_refusal(args: list[str], cafe: Path | None = None) -> str | None:
    """Why a ``slot`` step's number is no slot of the board, or None.

    `slot 0` and `slot -3` were sent, and the referee was told of a card in a slot the board has not; `slot x`
    was named with Python's "invalid literal for int() with base 10" as the script played.
    """
    slots = board_slots(cafe)
    if not args:
        return f"the slot's number is missing ({min(slots)} to {max(slots)})"
    if _digits(args[0]) and int(args[0]) in slots:
        return None
    return f"a slot is {min(slots)} to {max(slots)} (the temple board's), not {quoted(args[0])}"


def _digits(text: str) -> bool:
    """Whether ``text`` is a whole number as the wire writes one: "³" and "٣" are digits to ``str.isdigit``, and
    int("³") raised out of the script's check, a traceback where the step was to be named."""
    return re.fullmatch(r"[0-9]+", text) is not None


WIRE_TEXT = "the sensor's lines are printable ASCII, with no '$' in a field (it starts a line)"


def wire_refusal(verb: str, args: list[str]) -> str | None:
    """Why a step's words cannot go on the wire as the fields they are meant to be, or None.

    The sensor's lines are ASCII: `roll 3 d6 100 réd` was named, as it played, with Python's "'ascii' codec can't
    encode character '\\xe9' in position 14: ordinal not in range(128)". A '$' starts a line, so one inside a
    field cuts the line there; a ',' parts fields, so `slot 3 04,A1` told of tag 04 and `roll 3 d6 100 red,blue`
    of a red die (an error's text alone is read back whole, commas and all). `raw` sends garbage on purpose.
    """
    for place, word in enumerate(args):
        if not (word.isascii() and word.isprintable()) or "$" in word:
            return f"{WIRE_TEXT}, not {quoted(word)}"
        if "," in word and verb != "half" and not (verb == "err" and place > 0):
            return f"a field holds no ',' (it parts the fields on the wire), not {quoted(word)}"
    return None


def wait_refusal(args: list[str], cafe: Path | None = None) -> str | None:
    """Why a ``wait`` step's seconds are none to wait, or None: "wait -1" passed in silence, "wait nan" too, and
    "wait 1e20" never ended."""
    if not args:
        return f"the seconds to wait are missing (0 to {MAX_SECONDS:.0f})"
    try:
        seconds = float(args[0])
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds <= MAX_SECONDS:
        return f"a wait is 0 to {MAX_SECONDS:.0f} seconds, not {quoted(args[0])}"
    return None


STEP_REFUSALS: dict[str, Callable[[list[str], Path | None], str | None]] = {
    "roll": roll_refusal, "slot": slot_refusal, "wait": wait_refusal}  # steps whose numbers are checked
WIRE_STEPS = ("roll", "slot", "err", "half")  # steps whose words are sent as fields
VERBS = ("roll", "slot", "err", "id", "raw", "half", "wait", "unplug", "plug")  # as `STEPS` names them
MOST_WORDS = {"roll": 4, "slot": 2, "wait": 1, "id": 0, "unplug": 0, "plug": 0}  # the others take any text


def step_refusal(verb: str, args: list[str], cafe: Path | None = None) -> str | None:
    """Why a step cannot be played as written: a step there is not, a number missing or out of its range, a
    word the wire cannot carry (`wire_refusal`, `roll_refusal`, `slot_refusal`, `wait_refusal`), or None."""
    if verb not in VERBS:
        return f"no such step; steps: {STEPS}"
    if verb in MOST_WORDS and len(args) > MOST_WORDS[verb]:
        # Passed over: `roll 3 d6 100 red blue` sent a red 3, `unplug now` unplugged, as if the rest were not there.
        usage = next(said for said in STEPS.split(", ") if said.split()[0] == verb)
        extra = " ".join(args[MOST_WORDS[verb]:])
        return f"{quoted(extra)} is more than the step takes: {usage}"
    if verb in WIRE_STEPS and (why := wire_refusal(verb, args)) is not None:
        return why
    check = STEP_REFUSALS.get(verb)
    return check(args, cafe) if check is not None else None


def script_refusals(script: str, cafe: Path | None = None) -> list[str]:
    """The steps of ``script`` that cannot be played as written (`step_refusal`), each named with its place.

    Checked before the sensor is plugged in, so `simulate-dice --script "roll 9"` is refused as a command line
    is (exit status 2), not played as if a die had shown 9. A typo, a number missing or a quote left open
    were named only as the script played, the steps before them sent and the command ending 1.
    """
    refusals = []
    for place, step in enumerate(script.replace("\n", ";").split(";"), 1):
        try:
            words = shlex.split(step)
        except ValueError as error:  # "No closing quotation", "No escaped character"
            refusals.append(f"script step {place}, {quoted(step.strip())}: it cannot be read: {str(error).lower()}")
            continue
        if words and (why := step_refusal(words[0].lower(), words[1:], cafe)) is not None:
            refusals.append(f"script step {place}, {quoted(step.strip())}: {why}")
    return refusals


def run_script(sensor: SimulatedSensor, script: str, say: Callable[[str], None] = print,
               rng: random.Random | None = None, cafe: Path | None = None) -> int:
    """Play a script: steps separated by ';' or newlines (see docs/hardware.md); returns how many steps were bad.

    A step it cannot play (a typo, a missing number: `script_refusals`, which the command line checks first)
    is named and skipped: the simulated sensor stays plugged in for the steps after it, as a real one would.
    The count lets a caller learn a step never played.
    ``rng`` throws the random rolls (`roll ?`), a new one unless given; ``cafe`` holds the café's own die and
    board, when it has them.
    """
    rng = rng or random.Random()
    bad = 0
    for step in script.replace("\n", ";").split(";"):
        try:
            played = _play_step(sensor, step, rng, cafe)
        except ValueError as error:  # also a quote left open, or text the ASCII wire cannot carry
            say(f"bad script step {quoted(step.strip())}: {error}; steps: {STEPS}")
        else:
            if played is None:
                say(f"unknown script step {quoted(step.strip())}; steps: {STEPS}")
                bad += 1
            for line in played or ():
                say(line)
            continue
        bad += 1
    return bad


def _play_step(sensor: SimulatedSensor, step: str, rng: random.Random, cafe: Path | None) -> list[str] | None:
    """One script step; the lines that say what it played (none for an empty step), or None for an unknown step.

    The step's own line comes first, then what it left to know (where `plug` put the new port: said first, it
    came before `sim: plug`).
    """
    words = shlex.split(step)
    if not words:
        return []
    verb, args = words[0].lower(), words[1:]
    if verb not in VERBS:
        return None
    if (why := step_refusal(verb, args, cafe)) is not None:
        raise ValueError(why)
    said = f"sim: {step.strip()}"
    if verb == "wait":
        idle(sensor, float(args[0]))
    elif verb == "roll":
        die = args[1] if len(args) > 1 else "d6"
        colour = args[3] if len(args) > 3 else None
        value: int | str = args[0] if args else "?"  # a bare `roll` is a random d6
        if value == "?":
            value, colour = random_face(die, colour, rng, cafe)
            # "sim: roll ?" said nothing of what came up; a café die's 0 is a value too
            said += f" (rolled {' '.join(str(part) for part in (value, colour) if part is not None)})"
        value = int(value) if str(value).isdigit() else str(value).upper()  # "x": the temple die's X
        sensor.roll(value, die, int(args[2]) if len(args) > 2 else 100, colour)
    elif verb == "slot":
        sensor.slot(int(args[0]), args[1] if len(args) > 1 and args[1] != "-" else None)
    elif verb == "err":
        # The text is one field whatever its words: sent word by word it was read back as "leaning,on,the,wall".
        sensor.send("ERR", args[0] if args else "unknown", " ".join(args[1:]))
    elif verb == "id":
        sensor.ident()
    elif verb == "raw":
        sensor.write((" ".join(args)).encode() + b"\n")
    elif verb == "half":
        sensor.write(encode(*(args or ["DIE", "d6", "6", "100"]))[:-4])
    elif verb == "unplug":
        sensor.unplug()
    elif verb == "plug":
        sensor.plug()
        return [said, f"plugged in again at {sensor.path} ({sensor.tty_path})"]
    return [said]
