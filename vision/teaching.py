"""Teaching the camera a café's own temple cards and die, one photo or face at a time.

The command line (`companion vision teach-card` / `teach-die`) and the app's
camera screen both teach through here, so a photo taught either way is checked
and stored the same way, in the folder the camera feed reads (`vision.taught`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import CompanionError
from companion.registry import create
from vision.card_catalogue import catalogue_from_data
from vision.card_reader import CardReader
from vision.frames import as_bgr, colourless
from vision.readings import sure_text
from vision.taught import DIE_FILE
from vision.temple_die import TaughtDieUnreadable, TempleDieReader, die_faces, top_face
from vision.view_check import SLOT_WANTED, small_slots, small_temple_die


class TeachRefused(ValueError):
    """Why nothing was taught: a wrong slot, card or face, no board or die in view, a folder that will not take it."""


@dataclass(frozen=True)
class Taught:
    """What was taught, in words ("P07 from slot 3"), and the file that now holds it."""

    what: str
    path: Path
    advice: str = ""  # what to mend at the camera for surer readings, or to check in what was taught


READ_SURELY = 0.5  # a slot read this surely as another card before teaching is said


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
    """Why ``folder`` cannot be made when a file stands there or above it: the OS says only "File exists"."""
    for path in (folder, *folder.parents):
        if path.exists() and not path.is_dir():
            return "it is a file, not a folder" if path == folder else f"{path} is a file, not a folder"
    return None


def _cannot_write(folder: Path, error: OSError) -> TeachRefused:
    """One wording for both teach commands and the camera screen."""
    return TeachRefused(f"cannot write to {folder}: {not_a_folder(folder) or error.strerror or error}")


def deck_id(reader: CardReader, card_id: str) -> str:
    """The deck's own spelling of ``card_id`` where only its case or spaces differ: "p10" was refused as unknown
    while the die's "x" was taken, and a photo stored as ``p10__0.png`` would be passed over as no card."""
    if card_id in reader.groups:
        return card_id
    same = [known for known in reader.groups if known.casefold() == card_id.strip().casefold()]
    return same[0] if len(same) == 1 else card_id


def teach_card(frame: np.ndarray, slot: int, card_id: str, folder: Path, data: Any = None) -> Taught:
    """Store the card lying in ``slot`` as the café's photo of ``card_id``, a card of ``data`` (the house deck).

    What the slot read as beforehand is said when it was another card, read
    surely: a café's own print may well read as nothing it knows, but a slot
    the drawings read as P10 taught as P05 is more often a slip of the finger.
    """
    reader = CardReader(*catalogue_from_data(data))
    card_id = deck_id(reader, card_id)
    before = reader.read(frame)
    seen = next((s for s in before.slots if s.slot == slot), None) if before is not None else None
    try:
        image = reader.teach(frame, slot, card_id)
    except ValueError as error:
        raise TeachRefused(str(error)) from None
    try:
        path = reader.save_taught(folder, card_id, image)
    except OSError as error:
        raise _cannot_write(folder, error) from None
    homography = reader.finder.homography(as_bgr(frame))  # found again: `teach` keeps its own to itself
    across = small_slots(reader.slot_outlines(homography)) if homography is not None else None
    advice = [f"the board's slots are only {across} px across in this view: mount the camera closer to the board "
              f"({SLOT_WANTED} px or more) for surer readings"] if across is not None else []
    other = seen is not None and seen.card not in (None, reader.groups.get(card_id, card_id))
    if other and seen.confidence >= READ_SURELY:
        advice.append(f"slot {slot} read as {seen.card} before ({sure_text(seen.confidence)}); if {seen.card} "
                      f"lies there, teach it as {seen.card} instead")
    return Taught(f"{card_id} from slot {slot}", path, "; ".join(advice))


def teach_die_face(frame: np.ndarray, value: str, colour: str, folder: Path) -> Taught:
    """Add the face on top of the die in view to the café's die as ``value`` on ``colour``.

    The face's colour is checked against what the reader sees: taught under the
    wrong colour, one face would pull every later reading of that colour astray.
    """
    value = value.strip().upper()
    faces = die_faces()
    if (value, colour) not in faces:
        listed = ", ".join(f"{v} on {c}" for v, c in sorted(faces))
        raise TeachRefused(f"the temple die has no {value} on {colour}; its faces are {listed}")
    try:
        reader = TempleDieReader.load(folder) if (folder / DIE_FILE).exists() else TempleDieReader()
    except TaughtDieUnreadable as error:  # teaching on would overwrite every face taught before
        raise TeachRefused(f"{error}; move the file aside to teach the die afresh") from None
    if colourless(as_bgr(frame)):  # its grey would be stored as the colour of every later red or white face
        raise TeachRefused("the picture has no colour (a grey camera, or one sending brightness alone), so the "
                           "die's red or white cannot be taught from it: set the camera to colour")
    face = top_face(frame)
    if face is None:
        raise TeachRefused("no die found in the frame; put it on the tray under the camera")
    seen = reader.colour_of(face.bgr)
    if seen != colour:
        raise TeachRefused(f"the face shown looks {seen}, not {colour}: check the colour and the die on the tray")
    reader.learn(face, value, colour)
    try:
        path = reader.save(folder)
    except OSError as error:
        raise _cannot_write(folder, error) from None
    taught = sum(len(v) for v in reader.examples.values())
    cx, cy, radius = face.die
    small = small_temple_die([(cx - radius, cy - radius, cx + radius, cy + radius)], frame.shape)
    advice = (f"the die is only {small[0]} px across in this view: mount the camera closer ({small[1]} px or more) "
              "for surer readings") if small else ""
    return Taught(f"{value} on {colour} ({taught} faces taught so far)", path, advice)
