"""Pieces of English the referee's sentences share."""

from __future__ import annotations

import re
from collections.abc import Sequence

from companion.colours import PIECE_RGB

LONG_WORDS = 25  # words without a stop: more than a listener follows (the voice splits such a sentence)


def series(words: Sequence[str], last: str = "and") -> str:
    """Words as a sentence lists them: "Red", "Red and Black", "Red, Black and Orange" (never "Red and Black and
    Orange", which a shared win once read); ``last`` "or" for a choice: "2 dates, 2 salt or 2 pepper"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} {words[-1]}"


def number_runs(numbers: Sequence[int], last: str = "or") -> str:
    """Whole numbers as a sentence lists them, each run of three or more in a row as its ends: "2 to 12", "1 to 4
    or 6 to 12", "3, 7 or 9". Written out, "slot 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 or 12" was a 30-word sentence
    aloud and a line of figures to read on the screen."""
    runs: list[list[int]] = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    said = [f"{run[0]} to {run[-1]}" if len(run) >= 3 else ", ".join(map(str, run)) for run in runs]
    return series(", ".join(said).split(", "), last)


def how_many(count: int, noun: str = "step") -> str:
    """``count`` of ``noun``, singular for one: "1 step", "2 steps". A game resumed after its first step said
    "(1 steps so far)"; one place for every count of steps a person reads."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


# Words that open a game's line only as a sentence opens: no name, so after a colon they are lower case.
_PLAIN_OPENINGS = frozenset({"The", "A", "An", "Centre", "Water", "Trade"})
# A heading before the line's sentence: a card's or space's name ("Desert Flask: ", "Trade agreed: "), no words of
# a sentence ("Black rolls 2: Guardian's Test ..." keeps its colon: it opens with who, and has a figure).
_HEADING = re.compile(rf"^(?!(?:{'|'.join(sorted(c.capitalize() for c in PIECE_RGB))})\b)"
                      r"([A-Z][a-z']*(?: [A-Za-z][a-z']*){0,2}): (?=[A-Z])")


# A heading that says what was done rather than naming a card or space, as what was taken or put back: its
# sentence follows in brackets.
_DONE_HEADINGS = {"Trade agreed": "the trade"}


def after_colon(line: str) -> str:
    """A game's line as it reads after "Taken back:" or "Put back:": "Taken back: The water pulls Yellow 3 ..." had
    a capital after the colon where the line opened a sentence ("the water pulls"), and a heading's own colon made
    two in a row ("Taken back: Desert Flask: Pink goes ..."): the heading is set off by a comma instead
    ("Desert Flask, Pink goes ..."). A heading saying what was done names it, its sentence in brackets: "Taken
    back: the trade (Black gives Desert Flask and receives 1 Life from Teal)." read "Taken back: trade agreed,
    Black gives ...", as if the undo agreed to something. A name opening the line keeps its capital ("Black
    places ...", "P49 goes ...", "Scared! Brown loses ...")."""
    heading = _HEADING.match(line)
    if heading is not None and heading[1] in _DONE_HEADINGS:
        said, stop, rest = line[heading.end():].partition(". ")  # the heading's sentence, and any after it
        said, end = (said[:-1], ".") if not stop and said.endswith(".") else (said, f"{stop}{rest}")
        return f"{_DONE_HEADINGS[heading[1]]} ({said}){end}"
    line = _HEADING.sub(r"\1, ", line, count=1)
    first, _, rest = line.partition(" ")
    return f"{first.lower()} {rest}" if first in _PLAIN_OPENINGS and rest else line
