"""Checked option values for every command line (core, hardware, vision, ui).

Each is an argparse ``type``: a bad value is refused at parsing, in the
command's usage line and naming the option, instead of surfacing later as a
traceback, an endless wait or a score of nothing. One module, so ``--frames``
and ``--rolls`` refuse a zero in the same words.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path

from companion.errors import quoted


def count(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """A number of things, at least ``minimum``: ``--rolls 0`` would end in a median of nothing.

    With ``maximum``, no more than that: ``simulate --games 100000000`` ran for days, until Ctrl-C, where the
    usage line could have said at once how many a run may take.
    """
    said = f"from {minimum} to {maximum}" if maximum is not None else f"of {minimum} or more"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not a whole number {said}")
        return value

    return parse


def one_of(values: tuple[int, ...], unit: str) -> Callable[[str], int]:
    """One of a few whole numbers (``--turn`` 0, 90, 180 or 270 degrees): argparse's own "invalid int value: 'x'"
    named none of them."""
    allowed = f"{', '.join(map(str, values[:-1]))} or {values[-1]}"

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            value = None
        if value not in values:
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not {allowed} ({unit})")
        return value

    return parse


def between(low: float, high: float, unit: str) -> Callable[[str], float]:
    """A measure within [low, high]: a marker too small to read or too big for the page is refused."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not low <= value <= high:  # nan fails here too
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number of {unit} from {low:g} to {high:g}")
        return value

    return parse


MAX_SECONDS = 86400.0
"""A day: no wait of a command is meant to be longer, and past about 3e11 years a sleep is an OverflowError
traceback (``hw test --dwell 1e20`` ended in one)."""


def seconds(text: str) -> float:
    """A duration: a negative or endless one would only surface later, as a sleep() traceback or a wait for ever."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= MAX_SECONDS):
        raise argparse.ArgumentTypeError(
            f"{quoted(text)} is not a number of seconds from 0 to {MAX_SECONDS:.0f} (a day)"
        )
    return value


def folder(text: str) -> str:
    """An existing folder: a mistyped --cafe would otherwise referee the house data in silence."""
    if not text.strip():  # `--cafe "$CAFE"` with CAFE unset: Path("") is the working folder, and was passed over
        raise argparse.ArgumentTypeError("it is empty: give a café folder's path (. for the one you are in)")
    if not Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is not a folder")
    return text


def named(what: str) -> Callable[[str], str]:
    """A name that must name something: an empty ``--journal ''`` or ``--dice-sensor ''`` (a shell variable
    left unset) read as "none given", and the command ran on the default journal or without its sensor."""

    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"it is empty: give {what}")
        return text

    return parse


STREAM = "-"


def no_stream(what: str) -> Callable[[str], str]:
    """A name that must name a file or folder, not a stream: ``-`` is stdout to ``export`` and stdin to ``replay``,
    and ``play --journal -`` made a journal called "-" in the working folder, ``data template ttd -`` a folder."""
    nonempty = named(what)

    def parse(text: str) -> str:
        if nonempty(text).strip() == STREAM:
            raise argparse.ArgumentTypeError(f"'-' stands for stdin or stdout, which this cannot be ('./-' names "
                                             f"one called -): give {what}")
        return text

    return parse


def file_path(what: str) -> Callable[[str], str]:
    """A file to read or write, named and not a folder: ``hw teach --tags /tmp`` said "Is a directory
    (/tmp.tmp)", naming a file nobody gave, and ``hw play --tags DIR`` read no tags at all, in silence."""
    nonempty = named(what)

    def parse(text: str) -> str:
        if Path(nonempty(text)).is_dir():
            raise argparse.ArgumentTypeError(f"{text!r} is a folder: give {what}")
        return text

    return parse



def folder_to_fill(what: str) -> Callable[[str], str]:
    """A folder to write into, made when missing; refused when it, or a folder it would be made in, is a file.

    ``ui screenshots notes.txt`` said only "File exists (notes.txt)", and ``data template ttd notes.txt``
    "Not a directory (notes.txt/ttd)", after the command had begun.
    """
    nonempty = no_stream(what)

    def parse(text: str) -> str:
        path = Path(nonempty(text))
        try:
            for place in (path, *path.parents):
                if place.is_dir():
                    break
                if place.exists() or place.is_symlink():
                    said = "it is" if place == path else f"{str(place)!r} in it is"
                    raise argparse.ArgumentTypeError(f"{text!r} cannot be a folder: {said} a file; give {what}")
        except OSError:  # a folder that may not be looked into: the command's own attempt names it
            pass
        return text

    return parse


positive = count(1)
