"""Where a café's taught temple cards and die live, and the temple die reader made from them.

The teach commands write there and the camera feed reads there, so what a café
teaches once at the counter is what the table's camera uses from then on,
without a path given twice. It sits beside the journal and the café data
folder, so backing up one folder keeps all three.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from companion.paths import env_or, unused_name, user_data_dir, write_whole

__all__ = ["clear_taught", "default_taught_dir", "photo_card", "taught_summary", "temple_die_reader", "write_whole"]

if TYPE_CHECKING:  # the readers pull in OpenCV; the CLI asks for the folder long before it reads a frame
    from vision.temple_die import TempleDieReader

DIE_FILE = "temple_die.json"


def default_taught_dir() -> Path:
    """``~/.local/share/table-companion/taught``, or ``$COMPANION_TAUGHT_DIR``."""
    return env_or("COMPANION_TAUGHT_DIR", user_data_dir() / "taught")


def temple_die_reader(taught: Path | None) -> tuple[TempleDieReader, str | None]:
    """The café's own die where taught (each value not yet taught by its rendered glyphs), else the rendered die;
    and a note when a taught file was unusable.

    A damaged file (a card pulled mid-write by an older version, a hand edit)
    must not leave the table without a die reader: the rendered faces read a
    house die well, and the note says why the café's own teaching is not used.
    """
    from vision.teaching import not_a_folder
    from vision.temple_die import TaughtDieUnreadable, TempleDieReader

    rendered = TempleDieReader.from_renders()
    if taught is None:
        return rendered, None
    unusable = not_a_folder(taught)
    if unusable:  # the card reader said so; the die was read by its drawings in silence
        return rendered, f"the taught folder {taught}: {unusable}; reading the die with its rendered faces"
    path = taught / DIE_FILE
    try:
        # A folder named past the file system's limit, or one the table may not look into, raised here out
        # of the feed's reader set-up instead of being told.
        if not path.exists():
            dangling = path.is_symlink()
            return rendered, (
                f"{path} is a link to {os.readlink(path)}, which is not there (a drive not "
                "plugged in?); reading the die with its rendered faces"
            ) if dangling else None
        own = TempleDieReader.load(taught)
    except OSError as error:
        return rendered, f"{path}: cannot be read ({error.strerror or error}); reading the die with its rendered faces"
    except TaughtDieUnreadable as error:
        return rendered, f"{error}; reading the die with its rendered faces"
    own.fill_from(rendered)  # values not taught yet are read by their rendered glyphs
    return own, None


def photo_card(name: str) -> str | None:
    """The card a photo's file name says it shows, as a teach step names it (``P07__1.png``: P07), else None."""
    stem, _, number = name.removesuffix(".png").rpartition("__")
    return stem if name.endswith(".png") and stem and number.isdigit() else None


NOTHING_TAUGHT = "Nothing taught: the camera reads the house drawings of the temple cards and die."


def taught_summary(folder: Path) -> str:
    """What the camera was taught in ``folder`` and when, in the owner's words, for the settings screen.

    The teach steps said what they stored as they stored it, and nothing
    showed it afterwards: an owner could not tell whether the café's die was
    taught, which cards were, or since when, without a shell on the table.
    Read without OpenCV (the names of the photos, the die file's values), so
    opening the settings loads nothing a table without a camera does not.
    """
    try:
        with os.scandir(folder) as entries:
            found = [(entry.name, entry.stat(follow_symlinks=True).st_mtime) for entry in entries]
    except FileNotFoundError:
        return NOTHING_TAUGHT
    except OSError as error:
        return f"What was taught cannot be read ({folder}: {error.strerror or error})."
    photos = {name: when for name, when in found if photo_card(name) is not None}
    said = []
    die = dict(found).get(DIE_FILE)
    if die is not None:
        said.append(_die_words(folder / DIE_FILE))
    if photos:
        cards = sorted({str(photo_card(name)) for name in photos})
        listed = ", ".join(cards[:8]) + (f" and {len(cards) - 8} more" if len(cards) > 8 else "")
        said.append(f"{len(photos)} card photo{'s' * (len(photos) > 1)} ({listed})")
    if not said:
        return NOTHING_TAUGHT
    last = max([*photos.values(), *([die] if die is not None else [])])
    return f"Taught: {'; '.join(said)}; last on {datetime.fromtimestamp(last):%a %d %b %Y at %H:%M}."


def _die_words(path: Path) -> str:
    """The die's taught values, "the die's 4 and X (3 faces)", or why its file cannot be read."""
    try:
        glyphs = json.loads(path.read_text()).get("glyphs", {})
        values = sorted(glyphs, key=lambda value: (value == "X", value))
        faces = sum(len(shapes) for shapes in glyphs.values())
    except (OSError, UnicodeError, ValueError, AttributeError, TypeError, RecursionError) as error:
        return f"the die's file cannot be read ({type(error).__name__}), so the die is read by its drawings"
    if not faces:
        return "the die's colours only"
    named = values[0] if len(values) == 1 else f"{', '.join(values[:-1])} and {values[-1]}"
    return f"the die's {named} ({faces} face{'s' * (faces > 1)})"


def clear_taught(folder: Path) -> Path:
    """Set everything taught in ``folder`` aside (``taught.cleared-<date>-<time>`` beside it) and return where:
    the camera reads the house drawings again. Nothing is deleted: put the folder back to undo it.

    The only way to start afresh was moving files by hand over SSH, or taking back one face or photo at a time.
    Raises OSError (a read-only or full card, nothing taught) for the caller to say.
    """
    if not folder.is_dir():
        raise FileNotFoundError(0, "nothing is taught", str(folder))
    kept = unused_name(folder.with_name(f"{folder.name}.cleared-{datetime.now():%Y%m%d-%H%M%S}"))
    os.rename(folder, kept)
    return kept
