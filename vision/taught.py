"""Where a café's taught temple cards and die live, and the temple die reader made from them.

The teach commands write there and the camera feed reads there, so what a café
teaches once at the counter is what the table's camera uses from then on,
without a path given twice. It sits beside the journal and the café data
folder, so backing up one folder keeps all three.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from companion.paths import env_or, user_data_dir, write_whole

__all__ = ["default_taught_dir", "temple_die_reader", "write_whole"]

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
