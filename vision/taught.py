"""Where a café's taught temple cards and die live, and the temple die reader made from them.

The teach commands write there and the camera feed reads there, so what a café
teaches once at the counter is what the table's camera uses from then on,
without a path given twice. It sits beside the journal and the café data
folder, so backing up one folder keeps all three.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from companion.paths import env_or, user_data_dir

if TYPE_CHECKING:  # the readers pull in OpenCV; the CLI asks for the folder long before it reads a frame
    from vision.temple_die import TempleDieReader

DIE_FILE = "temple_die.json"


def write_whole(path: Path, content: bytes) -> None:
    """Write ``content`` aside, then move it over ``path``: there whole, or not at all.

    A full SD card or a pulled plug mid-write would otherwise leave half a file
    under the name: a cut photo holding a card's name, or a die file that
    loses every face taught before. The aside file sits in the same folder, so
    the move is a rename, and it is dotted so no reader takes it for a taught
    file.
    """
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_bytes(content)
        partial.replace(path)
    except OSError:
        partial.unlink(missing_ok=True)
        raise


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
    from vision.temple_die import TaughtDieUnreadable, TempleDieReader

    rendered = TempleDieReader.from_renders()
    if taught is None or not (taught / DIE_FILE).exists():
        return rendered, None
    try:
        own = TempleDieReader.load(taught)
    except TaughtDieUnreadable as error:
        return rendered, f"{error}; reading the die with its rendered faces"
    own.fill_from(rendered)  # values not taught yet are read by their rendered glyphs
    return own, None
