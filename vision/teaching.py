"""Teaching the camera a café's own temple cards and die, one photo or face at a time.

The command line (`companion vision teach-card` / `teach-die`) and the app's
camera screen both teach through here, so a photo taught either way is checked
and stored the same way, in the folder the camera feed reads (`vision.taught`).
"""

from __future__ import annotations

import difflib
import errno
import fcntl
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.paths import unused_name
from companion.registry import create
from vision.card_catalogue import catalogue_from_data
from vision.card_looks import stored_clipped
from vision.card_reader import EMPTY, CardCovered, CardReader, clipped_words, unfit_photo
from vision.frames import as_bgr, colourless, image_file, unusable_text
from vision.markers import in_view_text
from vision.readings import sure_text
from vision.sources import counted, first_few, quiet_opencv
from vision.taught import DIE_FILE, photo_card
from vision.temple_die import GLARE_SHARE, TaughtDieUnreadable, TempleDieReader, TopFace, die_faces, top_face
from vision.view_check import SLOT_WANTED, small_slots, small_temple_die, washed_out


class TeachRefused(ValueError):
    """Why nothing was taught: a wrong slot, card or face, no board or die in view, a folder that will not take it
    (or that another teach step keeps locked)."""

    def __init__(self, message: str, may_be_printed: bool = False, again: bool = False,
                 misused: bool = False) -> None:
        super().__init__(message)
        self.misused = misused
        """Refused for what the command line named (a card the deck has not, a slot not on the board), not for what
        the camera saw: no other picture would take it (the command ends with exit status 2)."""
        self.may_be_printed = may_be_printed
        """Refused for a colour on the card that may be the café's own print: teaching it as printed takes it."""
        self.again = again
        """Refused for the folder's sake alone (another step held it, it would not be written), the photo or face
        untouched: the same step may be tried again as it is."""


@dataclass(frozen=True)
class Taught:
    """What was taught, in words ("P07 from slot 3"), and the file that now holds it."""

    what: str
    path: Path
    advice: str = ""  # what to mend at the camera for surer readings, or to check in what was taught
    # A photo taught before as another card that the advice says shows this one (`teach_card`): to take back too.
    suspect: Path | None = None
    # No photo stored: ``path`` is the card's photo taught before that this one matched (`same_photo_taught`), and
    # ``what`` says so whole.
    kept: bool = False


READ_SURELY = 0.5  # a slot read this surely as another card before teaching is said
# A card taught again from the same slot under the same light stored a second photo all but the first one: one more
# reference to compare at every reading, for nothing. Two stored photos are as far apart as their mean difference,
# in levels of 255, once each is blurred by SAME_PHOTO_BLUR px (the sensor's noise, which differs from frame to frame,
# left out). Measured on rendered camera views of the house, mint and grey decks (`camera_view`, three slots, two
# views): the same view with fresh noise of 3 and 5 levels lay 0.85 to 1.6 apart (34 pairs); the same slot under
# another uneven light 1.1 to 36 (82 pairs: 5 under 3.0, 3 under SAME_PHOTO, where that light fell on the slot
# as before). A lamp dimmed or warmed as a whole changes nothing stored: photos are divided by the board's white.
SAME_PHOTO = 2.0
SAME_PHOTO_BLUR = 1.0


def temple_data(cafe_dir: Path | None, warn: Callable[[str], None] | None = None) -> Any:
    """The temple game's data set as the table referees it: the café's cards and board where it has its own.

    None when the café's files are broken (the game itself will not start on
    them); the house deck is then taught, as it is read, and `warn` is told
    why, or a café would take a refusal of its own card ids for a bug.
    """
    try:
        return create("temple", cafe_dir).data
    except CompanionError as exc:
        if warn is not None:
            warn(f"the café's temple data cannot be used ({exc}); the house deck and board are used instead")
        return None


def not_a_folder(folder: Path) -> str | None:
    """Why ``folder`` cannot be made when a file, or a link to nothing (a drive not plugged in), stands there or
    above it: the OS says only "File exists".

    None too when the path cannot even be looked at (a name past the file
    system's limit, a folder not to be looked into): the caller's own error
    says that, and raising here hid it behind a bare "File name too long".
    """
    try:
        for path in (folder, *folder.parents):
            if path.exists() and not path.is_dir():
                return "it is a file, not a folder" if path == folder else f"{path} is a file, not a folder"
            if path.is_symlink() and not path.exists():  # the OS says "File exists" of a link to nothing
                where = "it" if path == folder else str(path)
                return f"{where} is a link to {os.readlink(path)}, which is not there (a drive not plugged in?)"
    except (OSError, ValueError):
        return None
    return None


def _why(folder: Path, error: OSError | ValueError) -> str:
    """The OS's reason in words ("No space left on device"), or the file in the way of ``folder``."""
    return not_a_folder(folder) or getattr(error, "strerror", None) or str(error)


# What a café can do about the OS's reason, where "Read-only file system" alone left the owner at the touchscreen
# none the wiser (docs/operations.md has the rest).
WRITE_HINTS = {
    errno.EROFS: "its drive has turned read-only (an SD card that is failing does so; docs/operations.md says how to "
                 "check): what was taught before is still read",
    errno.ENOSPC: "its drive is full: make room on it (pictures kept by vision watch --save, copies of journals) "
                  "and try again",
}


def _cannot_write(folder: Path, error: OSError | ValueError) -> TeachRefused:
    """One wording for both teach commands and the camera screen."""
    hint = WRITE_HINTS.get(getattr(error, "errno", None))
    return TeachRefused(f"cannot write to {folder}: {_why(folder, error)}{f'; {hint}' if hint else ''}", again=True)


STORING_WAIT = 5.0  # seconds a teach step waits for another one storing in the same folder before it refuses
STORING_POLL = 0.05


TAUGHT_AGAIN = "nothing was taught: show it again once that one is done"
TAKEN_BACK_AGAIN = "nothing was taken back: take it back again once that one is done"


@contextmanager
def _storing(folder: Path, nothing_done: str = TAUGHT_AGAIN) -> Iterator[None]:
    """Held by every teach step, in every process, from reading what ``folder`` holds to writing it back.

    The command line and the camera screen (or two apps) teaching at once each
    read the die before the other wrote it back, and the last to write lost
    the other's face; two photos of one card both took the first free name.
    The lock is an advisory ``flock`` on the folder itself: no lock file lies
    among the taught ones or needs creating (a read-only folder is refused by
    the write, as before), and a step that dies lets go of it with its process.
    The wait is bounded: a refusal tells a café more than a camera screen
    stuck on "Teaching...". ``nothing_done`` ends that refusal: what was not done, and when to try again.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except (OSError, ValueError) as error:
        raise _cannot_write(folder, error) from None
    try:
        deadline = time.monotonic() + STORING_WAIT
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise TeachRefused(
                        f"another teach step (the camera screen or a teach command) has kept {folder} locked "
                        f"for over {STORING_WAIT:g} seconds while storing there; {nothing_done}", again=True
                    ) from None
                time.sleep(STORING_POLL)
            except OSError as error:  # no locks on this file system: refused in words, not raised
                raise _cannot_write(folder, error) from None
        yield
    finally:
        os.close(handle)  # which lets go of the lock


def deck_id(reader: CardReader, card_id: str) -> str:
    """The deck's own spelling of ``card_id`` where only its case or spaces differ: "p10" was refused as unknown
    while the die's "x" was taken, and a photo stored as ``p10__0.png`` would be passed over as no card."""
    if card_id in reader.groups:
        return card_id
    same = [known for known in reader.groups if known.casefold() == card_id.strip().casefold()]
    return same[0] if len(same) == 1 else card_id


def card_refused(slot: int, card_id: str, data: Any = None) -> str | None:
    """Why no picture could teach ``card_id`` from ``slot`` on ``data``'s deck and board (`CardReader.not_taught_as`),
    or None: the command line checks it before a camera is opened for nothing, as `face_refused` for the die."""
    cards, board = catalogue_from_data(data)
    reader = CardReader(cards, board)
    return reader.not_taught_as(slot, deck_id(reader, card_id))


PHOTO_ID_BYTES = 230  # a file name holds 255 bytes; the photo's "__0.png" and the aside file's dots take the rest


def unfit_for_a_file(card_id: str) -> str | None:
    """Why ``card_id`` cannot name its photo ``<card id>__<n>.png`` in the taught folder, or None.

    A café's cards.json may call a card anything: "a/b" was stored in a
    folder of its own and "../P07" beside the taught folder, both reported
    taught and never read, as the camera reads only the taught folder itself;
    a NUL raised out of the teach step, a long id failed as "File name too long".
    """
    if "/" in card_id:
        return "it holds a /"
    if "\0" in card_id:
        return "it holds a NUL character"
    try:
        size = len(os.fsencode(card_id))
    except UnicodeError:
        return "it holds characters no file name can"
    return f"it is {size} bytes long, {PHOTO_ID_BYTES} at most" if size > PHOTO_ID_BYTES else None


def teach_card(frame: np.ndarray, slot: int, card_id: str, folder: Path, data: Any = None,
               as_printed: bool = False, take_back: str = "") -> Taught:
    """Store the card lying in ``slot`` as the café's photo of ``card_id``, a card of ``data`` (the house deck);
    ``as_printed`` takes a colour refused as lying on the card for the café's own print (`CardReader.teach`).
    ``take_back`` says how the photo is taken back where the teaching was asked (the camera screen's button);
    the command line's own command by default.

    What the slot read as beforehand is said when it was another card, read
    surely: a café's own print may well read as nothing it knows, but a slot
    the drawings read as P10 taught as P05 is more often a slip of the finger.
    It is read as the table's camera reads it, with the photos taught so far:
    read by the drawings alone, a café's print taught as P04 and then, the
    same card, as P05 went without a word, and read as either from then on.
    Where the slot read so by a photo taught as that other card while the
    drawings read it as ``card_id``, that photo is the slip (P13 taught for
    the P01 lying there, then P01 taught to mend it): it is named to be taken
    back (`Taught.suspect`), where the advice said to take back the right one.
    """
    cards, board = catalogue_from_data(data)
    with quiet_opencv(errors_too=True):  # a broken photo there is passed over, as the camera passes it over
        # A folder that cannot be looked into leaves the reader on the drawings (`taught_problem`), and saving
        # to it says why.
        reader = CardReader(cards, board, taught_dir=folder)
    card_id = deck_id(reader, card_id)
    named = reader.not_taught_as(slot, card_id)
    if named:  # said before the picture is looked at: no view of the board would mend it
        raise TeachRefused(named, misused=True)
    before = reader.read(frame)
    seen = next((s for s in before.slots if s.slot == slot), None) if before is not None else None
    other = seen is not None and seen.card not in (None, reader.groups.get(card_id, card_id))
    read_as = (
        f"slot {slot} read as {seen.card} before ({sure_text(seen.confidence)})"
        if seen is not None and other and seen.confidence >= READ_SURELY
        else ""
    )
    try:
        image = reader.teach(frame, slot, card_id, as_printed=as_printed)
    except ValueError as error:
        # A refusal for what lies on the card may be the wrong card named: its idol on a cell the named card
        # prints plain.
        covered = isinstance(error, CardCovered)
        said = f"{error}; {read_as}" if read_as and covered else in_view_text(str(error))
        raise TeachRefused(said, may_be_printed=covered) from None
    if read_as and reader.rules_out(image, slot, seen.card):
        # A café teaching its own deck card by card: an untaught card is read as the nearest taught one, surely
        # (its print's colours are nearer those photos than the drawings), and the advice to take the right photo
        # back and teach it as that card came for 2 of 12 cards. That card's idol or stairs would lie on a cell
        # the card read prints plain: it is not the one lying there, so it is no slip.
        read_as = ""
    unnamed = unfit_for_a_file(card_id)
    if unnamed:
        raise TeachRefused(
            f"the card id {card_id!r} cannot name a photo file ({unnamed}), so its photo would be "
            "stored where the camera never reads it: rename the card in the café's cards.json"
        )
    with _storing(folder):  # another step's photo of the card may take the first free name meanwhile
        same = same_photo_taught(folder, card_id, image)
        try:
            path = same[0] if same is not None else reader.save_taught(folder, card_id, image)
        except (OSError, ValueError) as error:
            raise _cannot_write(folder, error) from None
        aside, clipped = _set_aside_clipped(reader, folder, card_id, path)
    homography = reader.finder.homography(as_bgr(frame))  # found again: `teach` keeps its own to itself
    across = small_slots(reader.slot_outlines(homography)) if homography is not None else None
    advice = (
        [
            f"the board's slots are only {across} px across in this view: mount the camera closer to the board "
            f"({SLOT_WANTED} px or more) for surer readings"
        ]
        if across is not None
        else []
    )
    washed = washed_out(reader.last_ink_share)
    if washed is not None:
        advice.append(
            f"the board looks washed out in this view (its markers' black {washed:.0%} as bright as their white): "
            "cards are misread through so thick a veil: wipe the camera's lens and turn lamps away from it"
        )
    # Said where the photo may be a slip: taught on, a second answer stored beside the wrong one kept both.
    back = f"take this photo back ({take_back or f'companion vision untaught-card --photo {path}'})"
    if reader.taught_unmarked:  # a board whose bare slots are paler than the house one's, not taught as such
        advice.append(
            f"slot {slot} matches a bare slot by its colours and shows no printed marks, only paper brighter than "
            f"a bare slot: if no card lies there, {back} and teach a photo of a bare slot as {EMPTY}"
        )
    suspect = _slip_taught_before(frame, slot, card_id, seen.card, folder, cards, board) if read_as else None
    if suspect is not None:
        advice.append(
            f"{read_as}, by the photo taught as {seen.card} ({suspect.name}), where the drawings read {card_id}: "
            f"if {card_id} lies there, that photo shows it too and pulls its readings to {seen.card}: take that "
            f"photo back ({take_back or f'companion vision untaught-card --photo {suspect}'})"
        )
    elif read_as:
        advice.append(f"{read_as}; if {seen.card} lies there, {back} and teach it as {seen.card} instead")
    advice += aside
    if clipped:
        advice.append(clipped_words(None, clipped))  # the folder is the new photo's, named with it
    if same is not None:
        what = (f"{card_id} is already taught from slot {slot} under this light: this photo matches {path.name}, "
                f"taught before ({same[1]:.1f} levels apart), so that one was kept and no second one stored, which "
                f"would only be compared at every reading for nothing; for surer readings teach {card_id} under "
                "other light or from another slot")
        return Taught(what, path, "; ".join(advice), suspect, kept=True)
    return Taught(f"{card_id} from slot {slot}", path, "; ".join(advice), suspect)


def photos_apart(one: np.ndarray, other: np.ndarray) -> float | None:
    """How far apart two stored card photos lie (SAME_PHOTO says how far is the same photo again), None where
    they differ in size (stored by hand, or by another version) and cannot be laid on each other."""
    if one.shape != other.shape:
        return None
    blurred = [cv2.GaussianBlur(image.astype(np.float32), (0, 0), SAME_PHOTO_BLUR) for image in (one, other)]
    return float(np.abs(blurred[0] - blurred[1]).mean())


def same_photo_taught(folder: Path, card_id: str, image: np.ndarray) -> tuple[Path, float] | None:
    """The photo of ``card_id`` in ``folder`` that ``image`` (as `CardReader.teach` returns it) all but repeats,
    and how far apart they lie; None when none does. Looked at under the teach steps' lock, before storing.

    A photo stored clipped by an older version (`stored_clipped`) is never one: the card is taught again to
    replace it. Nor is one the reader passes over (`unfit_photo`), or a link.
    """
    try:
        with os.scandir(folder) as entries:
            names = sorted(entry.name for entry in entries
                           if photo_card(entry.name) == card_id and not entry.is_symlink())
    except (OSError, ValueError):  # saving says why the folder will not do
        return None
    best: tuple[Path, float] | None = None
    for name in names:
        stored = image_file(folder / name)
        if stored is None or unfit_photo(stored) is not None or stored_clipped(stored):
            continue
        apart = photos_apart(stored, image)
        if apart is not None and apart <= SAME_PHOTO and (best is None or apart < best[1]):
            best = (folder / name, apart)
    return best


def _slip_taught_before(frame: np.ndarray, slot: int, card_id: str, other: str, folder: Path, cards: Any,
                        board: Any) -> Path | None:
    """The photo of ``other`` taught last, where ``slot`` read as ``other`` with the taught photos but reads
    surely as ``card_id`` by the drawings alone: that photo was taught from this card, else None.

    Read by its drawings a second time only when the slot read as another card, so a teach pays for it only
    when it has something to say.
    """
    with quiet_opencv(errors_too=True):
        drawings = CardReader(cards, board)
        drawn = drawings.read(frame)
    seen = next((s for s in drawn.slots if s.slot == slot), None) if drawn is not None else None
    if seen is None or seen.card != drawings.groups.get(card_id, card_id) or seen.confidence < READ_SURELY:
        return None
    try:
        return last_photo_of(other, folder)
    except TeachRefused:  # the photo is gone since: nothing to name
        return None


def _set_aside_clipped(reader: CardReader, folder: Path, card_id: str, new: Path) -> tuple[list[str], list[str]]:
    """Set aside the photos of ``card_id`` an older teach step stored clipped (`CardReader.taught_clipped`), now that
    it is taught again: what was set aside (or could not be), in words, and the clipped photos of other cards left.

    Kept beside the new photo, a clipped one was read still and still said to be taught again, however often
    the café taught it. It is renamed ``P07__0.png.clipped``, which the reader passes over, never deleted.
    ``new``, the photo just stored, is never taken for one: a clipped photo removed since the reader read it in
    leaves its name free for the new photo.
    """
    said, others = [], []
    for name in reader.taught_clipped:
        if photo_card(name) != card_id:
            others.append(name)
            continue
        image = image_file(folder / name) if name != new.name else None
        if image is None or not stored_clipped(image):  # looked at again under the lock: another's photo since?
            continue
        kept = unused_name(folder / f"{name}.clipped")
        try:
            os.rename(folder / name, kept)
        except FileNotFoundError:  # set aside or taken back by another step since the reader read it in
            continue
        except OSError as error:
            said.append(f"{name}, stored clipped by an older version, could not be set aside "
                        f"({error.strerror or error}): move it out of {folder} by hand")
        else:
            said.append(f"{name}, stored clipped by an older version, was set aside as {kept.name}")
    return said, others


def die_faces_of(data: Any) -> set[tuple[str, str]]:
    """(value, colour) of every face of the die in a temple data set (`temple_data`): the café's own die.json
    where it has one, the house die's for no data (None) or data without a die.

    The teach steps checked faces against the house file alone, so a café
    whose own die has an X on a red face could not teach that face at all,
    though its games are refereed on that die.
    """
    try:
        return {(str(face["value"]), str(face["colour"])) for face in data["die"]["faces"]}
    except (KeyError, TypeError, ValueError, AttributeError):
        return die_faces()


def face_refused(value: str, colour: str, faces: set[tuple[str, str]]) -> str | None:
    """Why ``value`` on ``colour`` is no face of the die with ``faces`` (`die_faces_of`), or None; the same words
    for the camera screen and the command line, which checks before it opens the camera."""
    if (value, colour) in faces:
        return None
    listed = ", ".join(f"{v} on {c}" for v, c in sorted(faces))
    if not value:  # the value not picked or typed: "the temple die has no  on red" said nothing
        return f"no value given: say which value the face shows; its faces are {listed}"
    return f"the temple die has no {value} on {colour}; its faces are {listed}"


def taught_so_far(reader: TempleDieReader, faces: set[tuple[str, str]]) -> str:
    """"3 faces taught so far; still read by their drawings: 1, 2, 5 and 6, and the white colour": how far the
    café's teaching has come, and what is left to show.

    "(1 faces taught so far)" told the owner teaching a die face by face neither
    that a value is taught once for both colours nor when the die was done.
    Glyphs are kept per value and colour samples per colour (`fill_from`), so
    those are what is left; every face of the die's data counts.
    """
    taught = sum(len(v) for v in reader.examples.values())
    said = f"{counted(taught, 'face')} taught so far"
    values = sorted({value for value, _ in faces} - set(reader.examples), key=lambda v: (v != "X", v))
    colours = sorted({colour for _, colour in faces} - set(reader.colours))
    left = []
    if values:
        left.append(f"{'value' if len(values) == 1 else 'values'} {_listed(values)}")
    if colours:
        left.append(f"the {_listed(colours)} colour{'s' * (len(colours) > 1)}")
    if not left:
        return f"{said}: every value and colour of the die is taught"
    return f"{said}; still read by their drawings: {', and '.join(left)}"


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def teach_die_face(frame: np.ndarray, value: str, colour: str, folder: Path, data: Any = None,
                   take_back: str = "") -> Taught:
    """Add the face on top of the die in view to the café's die as ``value`` on ``colour``, a face of ``data``'s
    die (`die_faces_of`; the house die without data). ``take_back`` says how the face is taken back alone where
    the teaching was asked (the camera screen's button); the command line's own command by default.

    The face's colour is checked against what the reader sees: taught under the
    wrong colour, one face would pull every later reading of that colour astray.
    Whatever is refused leaves the taught file as it was.
    """
    value = value.strip().upper()
    refused = face_refused(value, colour, die_faces_of(data))
    if refused:
        raise TeachRefused(refused)
    reader = _taught_die(folder)  # a file not to be taught on is refused before the picture is looked at
    bgr = as_bgr(frame)
    if bgr is None:
        raise TeachRefused(unusable_text(frame))
    face = top_face(bgr)
    if face is None:
        # Before the colour check: a black frame (a lens cap, a camera not started) is grey too, and was
        # answered "set the camera to colour".
        raise TeachRefused("no die found in the frame; put it on the tray under the camera")
    if colourless(bgr):  # its grey would be stored as the colour of every later red or white face
        raise TeachRefused(
            "the picture has no colour (a grey camera, or one sending brightness alone), so the "
            "die's red or white cannot be taught from it: set the camera to colour"
        )
    if face.blank:
        raise TeachRefused(
            "no value could be made out on the die's top face (the picture may be out of focus, "
            "or glare hides the value): focus the camera on the tray and show the face again"
        )
    if face.glare > GLARE_SHARE:  # taught so, every later face of this value would be held against the blot
        raise TeachRefused(
            f"glare lies on the die's top face ({face.glare:.0%} of it): turn the die or move the lamp so that "
            "no bright spot lies on the face, and show it again"
        )
    if face.shadow_edge:  # half the face in shadow, its glyph would be taught split
        raise TeachRefused(
            "the die lies in or beside a shadow across the tray (a lamp past the camera's arm?), or against "
            "something wider than itself (the board, a sheet): move it into even light on the open tray, or the "
            "lamp, and show the face again"
        )
    seen = reader.colour_of(face.bgr)
    if seen != colour:
        raise TeachRefused(f"the face shown looks {seen}, not {colour}: check the colour and the die on the tray")
    with _storing(folder):
        reader = _taught_die(folder)  # read again: another teach step may have stored a face since
        like = _taught_as_other(reader, face, value)
        reader.learn(face, value, colour)
        try:
            path = reader.save(folder)
        except (OSError, ValueError) as error:
            raise _cannot_write(folder, error) from None
    cx, cy, radius = face.die
    small = small_temple_die([(cx - radius, cy - radius, cx + radius, cy + radius)], bgr.shape)
    advice = (
        [
            f"the die is only {small[0]} px across in this view: mount the camera closer ({small[1]} px or more) "
            "for surer readings"
        ]
        if small
        else []
    )
    if like is not None:
        other, score = like
        advice.append(
            f"this face matches the {other} taught before ({round(100 * score)}% alike); if it shows "
            f"{other}, it is now taught as both and reads as either: take this face back alone ("
            f"{take_back or f'companion vision untaught-face --value {value} --colour {colour}'}), or move {path} "
            "aside and teach the die again"
        )
    return Taught(f"{value} on {colour} ({taught_so_far(reader, die_faces_of(data))})", path, "; ".join(advice))


def take_back_face(value: str, colour: str, folder: Path) -> Taught:
    """Take the face last taught as ``value`` on ``colour`` out of the café's die in ``folder``: its glyph, and the
    colour sample stored last for ``colour``.

    One face taught under the wrong value (the teach step's "this face matches
    the 3 taught before") or from a poor photo could only be undone by moving
    the whole file aside and teaching every face again. Faces are stored in the
    order taught, so the last glyph of a value is the face taught last as it;
    colour samples are kept per colour, not per face, so the last one of the
    colour is taken with it (the mean of the rest stays near it either way).
    """
    value = value.strip().upper()

    def not_taught(values: list[str]) -> TeachRefused:
        return TeachRefused(f"no face was taught as {value!r} in {folder / DIE_FILE}; nothing was taken back "
                            f"(values taught: {', '.join(values) or 'none'})")

    if never_made(folder):  # made only to say nothing was there, an empty taught folder was left behind
        raise not_taught([])
    with _storing(folder, TAKEN_BACK_AGAIN):
        reader = _taught_die(folder)  # a file that cannot be read is refused, never saved over as empty
        glyphs = reader.examples.get(value, [])
        if not glyphs:
            raise not_taught(sorted(reader.examples))
        glyphs.pop()
        if not glyphs:
            del reader.examples[value]
        last = max(i for i, (taught, _) in enumerate(reader._bank) if taught == value)
        del reader._bank[last]
        shades = reader.colours.get(colour, [])
        if shades:
            shades.pop()
            if not shades:
                del reader.colours[colour]
        try:
            path = reader.save(folder)
        except (OSError, ValueError) as error:
            raise _cannot_write(folder, error) from None
    left = sum(len(v) for v in reader.examples.values())
    return Taught(f"the last face taught as {value} on {colour} taken back ({counted(left, 'face')} taught so far)",
                  path)


def take_back_card(path: Path, folder: Path) -> Taught:
    """Take back the card photo ``path`` in ``folder`` that a teach step stored and named (`Taught.path`).

    A photo taught from the wrong slot or under the wrong card could be taken
    back only by finding and deleting its ``P07__1.png`` by hand. As with the
    die's file (`take_back_face`), what cannot be read is refused and left as
    it was: a photo no longer a card's photo (damaged, or written over by
    hand since) is not what was taught, and the café looks at it first. Only a
    file in ``folder`` itself and named as a teach step names it is taken,
    never one a link leads to.
    """
    name = path.name
    stem = photo_card(name)
    if path.parent != folder or stem is None:
        raise TeachRefused(f"{path} is not a card photo a teach step stored in {folder}; nothing was taken back")
    if never_made(folder):  # nothing taught there, and a take-back makes no folder
        raise _no_such_photo(path, folder)
    with _storing(folder, TAKEN_BACK_AGAIN):
        try:
            if path.is_symlink():
                raise TeachRefused(f"{path} is a link, not a photo a teach step stored; nothing was taken back")
            if not path.is_file():
                raise _no_such_photo(path, folder)
            image = image_file(path)
            unfit = "not a readable image" if image is None else unfit_photo(image)
            if unfit:
                raise TeachRefused(f"{path} is not the card photo taught ({unfit}): it was left as it was; "
                                   "look at it, and delete it by hand if it is not wanted")
            written = path.stat().st_mtime_ns
            path.unlink()
        except TeachRefused:
            raise
        except (OSError, ValueError) as error:  # a read-only folder, a name past the file system's limit
            raise _cannot_write(folder, error) from None
        back = _put_back_clipped(folder, stem, written)
    return Taught(f"the photo of {stem} ({name}) taken back{''.join(f'; {said}' for said in back)}", path)


def never_made(folder: Path) -> bool:
    """True when ``folder`` is not there at all, nor a link to nothing, nor in a file: nothing was ever taught in
    it, and taking back must not create it (`_storing` makes the folder a teach step stores in)."""
    try:
        return not folder.exists() and not folder.is_symlink() and not_a_folder(folder) is None
    except (OSError, ValueError):  # a name past the file system's limit: `_storing` says so
        return False


def _no_such_photo(path: Path, folder: Path) -> TeachRefused:
    """No photo taught in ``folder`` bears ``path``'s name (never taught, a mistyped number, or deleted by hand),
    with the taught names nearest to it, else those taught: "no longer there (removed or replaced by a link?)"
    sent a café looking for a photo that had never been."""
    try:
        with os.scandir(folder) as entries:
            photos = sorted(entry.name for entry in entries
                            if photo_card(entry.name) is not None and not entry.is_symlink())
    except (OSError, ValueError):
        photos = []
    near = difflib.get_close_matches(path.name, photos, n=3, cutoff=0.8)  # P07__5.png: P07__1.png, not P12__0.png
    listed = (f"the nearest taught: {', '.join(near)}" if near else
              f"photos taught there: {first_few(photos, 10)}" if photos else "no photo is taught there")
    return TeachRefused(f"no photo taught in {folder} is named {path.name}; nothing was taken back ({listed})")


def _put_back_clipped(folder: Path, card_id: str, written: int) -> list[str]:
    """Put back the photos of ``card_id`` that teaching it set aside as clipped (`_set_aside_clipped`) when the
    photo taken back was stored (at ``written``, ns): what was put back, or could not be, in words.

    Taken back, the new photo left the card read by its drawing alone, with its
    old photo kept aside as ``P07__0.png.clipped`` for good: take-back undid half
    of the teaching. A photo is set aside just after the new one is written, so
    its rename (its ctime) falls at or after the new photo's mtime; one set aside
    by an earlier teaching falls before it and stays aside.
    """
    said = []
    try:
        with os.scandir(folder) as entries:
            aside = sorted((entry.name, entry.stat(follow_symlinks=False).st_ctime_ns) for entry in entries
                           if ".png.clipped" in entry.name and not entry.is_symlink())
    except (OSError, ValueError):
        return said
    for name, when in aside:
        photo, _, rest = name.rpartition(".clipped")
        numbered = rest == "" or (rest[:1] == "-" and rest[1:].isdigit())  # `unused_name`'s "-2", "-3", ...
        if photo_card(photo) != card_id or not numbered or when < written:
            continue
        target = folder / photo
        if target.exists() or target.is_symlink():
            said.append(f"{name}, set aside when it was taught, was left aside: {photo} holds another photo now")
            continue
        try:
            os.rename(folder / name, target)
        except OSError as error:
            said.append(f"{name}, set aside when it was taught, could not be put back ({error.strerror or error})")
        else:
            said.append(f"{photo}, set aside as stored clipped when it was taught, put back (teach {card_id} "
                        "again to replace it)")
    return said


def last_photo_of(card_id: str, folder: Path) -> Path:
    """The photo of ``card_id`` stored last in ``folder`` (its case or spaces may differ: "p07" finds P07's), or
    why there is none, for `take_back_card`.

    Last by when it was written, not by its number: after a café deletes
    ``P07__0.png`` the next photo of P07 takes that number again, so the
    highest number is not always the newest photo.
    """
    try:
        with os.scandir(folder) as entries:
            photos = [(entry.stat(follow_symlinks=False).st_mtime_ns, entry.name, photo_card(entry.name))
                      for entry in entries if photo_card(entry.name) is not None]
    except FileNotFoundError:  # nothing taught there yet, unless it is a link to a drive not plugged in
        unusable = not_a_folder(folder)
        if unusable:
            raise TeachRefused(f"cannot read {folder}: {unusable}; nothing was taken back") from None
        photos = []
    except (OSError, ValueError) as error:
        raise TeachRefused(f"cannot read {folder}: {_why(folder, error)}; nothing was taken back") from None
    cards = sorted({card for _, _, card in photos if card is not None})
    wanted = card_id.strip()
    if wanted not in cards:
        same = [card for card in cards if card.casefold() == wanted.casefold()]
        wanted = same[0] if len(same) == 1 else wanted
    mine = [(when, int(name.removesuffix(".png").rpartition("__")[2]), name)
            for when, name, card in photos if card == wanted]
    if not mine:
        raise TeachRefused(f"no photo was taught as {card_id!r} in {folder}; nothing was taken back (cards "
                           f"taught there: {first_few(cards, 10) or 'none'})")
    return folder / max(mine)[2]


SAME_FACE = 0.92  # a glyph's match with a taught one from which the two are taken for the same face (docs/vision.md)


def _taught_die(folder: Path) -> TempleDieReader:
    """The café's die as taught so far in ``folder`` (nothing yet: an empty reader), or why it cannot be taught on.

    Every way the file can fail to be read is a refusal, never an empty reader:
    one face taught on an empty reader is saved over every face taught before.
    """
    path = folder / DIE_FILE
    try:
        if path.is_symlink() and not path.exists():  # saved over, the link to the café's teaching is cut
            raise TeachRefused(
                f"{path} is a link to {os.readlink(path)}, which is not there (a drive not plugged "
                "in?): plug it in, or remove the link to teach the die afresh"
            )
        return TempleDieReader.load(folder) if path.exists() else TempleDieReader()
    except TeachRefused:
        raise
    except TaughtDieUnreadable as error:  # teaching on would overwrite every face taught before
        raise TeachRefused(f"{error}; move the file aside to teach the die afresh") from None
    except (OSError, ValueError) as error:  # a name past the file system's limit, a folder not to be looked into
        raise TeachRefused(f"cannot read {path}: {_why(folder, error)}") from None


def _taught_as_other(reader: TempleDieReader, face: TopFace, value: str) -> tuple[str, float] | None:
    """The value taught before that ``face`` matches as a face matches itself, when it is not ``value`` and
    ``value``'s own faces taught so far match it less: the same face shown again under another answer.

    Only the café's own taught faces count, not the rendered ones: a café's
    print may well look more like a rendered glyph of another value than like
    its own. Stored anyway, since the later answer may be the right one.
    """
    scores = reader.scores(face.glyph)
    others = [(score, other) for other, score in scores.items() if other != value]
    if not others:
        return None
    score, other = max(others)
    return (other, score) if score >= SAME_FACE and score > scores.get(value, -1.0) else None
