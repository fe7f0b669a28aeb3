"""The table's choices wrapped evenly: the labels of a row on as many lines, none with a word alone on a line.

Kivy wraps a label greedily, as many words on a line as fit, so at 120% at
800x480 the desert race's rolls came out "3: to / Sandstorm / Wall (16)"
beside "4: to Mirage / Pool (17)" (three lines beside two, the row's two
buttons of different heights), and upright "6: to Pyramid's Base / (19)",
the number alone on its line. Here each label is broken into its lines as
evenly as they go (the narrowest width that keeps its count of lines), a
label of fewer lines than its row's others is broken into as many where no
word is left alone, and where a row still differs in lines or leaves a word
alone, the list's type
steps down, no smaller than its size at 100% display scale, until none does;
a list for which no size does keeps its own size.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

from ui.boards.paint import measure, wrap_at_spaces

READABLE = 16.0  # px: a choice's words are never made smaller than this to wrap evenly
BALANCED_KEPT = 2048  # balanced labels kept for the next evening out: a game's choices at the sizes tried


class Wrap(NamedTuple):
    """How a label is drawn: its font size, the width its lines are wrapped in, and those lines."""

    size: float
    width: float
    lines: tuple[str, ...]


def wrapped(text: str, width: float, size: float) -> tuple[str, ...]:
    """The lines Kivy makes of a bold ``text`` at ``size`` in ``width``: broken at spaces only."""
    return tuple(wrap_at_spaces(text, width, size, True).split("\n"))


@functools.lru_cache(maxsize=BALANCED_KEPT)
def balanced(text: str, width: float, size: float, lines: int = 0) -> Wrap:
    """``text`` on as few lines as ``width`` allows (or on ``lines``), each as long as the others as the words let.

    The width is the narrowest line of whole words that keeps that count of lines (the longest line of the
    best split is always one of those), plus a pixel against rounding; never more than ``width``.

    Kept for the same text, width, size and lines (a `Wrap` is a tuple, never changed): the table evens its
    choices out at every step, page and resize, mostly the same texts in the same width, and each balancing
    measures every run of words and wraps the text again at each width it tries, some 500 measures a label
    (two thirds of a step's choices were ones balanced before; a day of play keeps `BALANCED_KEPT`).
    """
    fewest = wrapped(text, width, size)
    want = max(lines, len(fewest))
    if want == 1:  # one line: nothing to balance, and a list of sixty needs no measuring of every word's run
        return Wrap(size, width, fewest)
    words = text.split()
    spans = sorted(
        {measure(" ".join(words[i:j]), size, True)[0] for i in range(len(words)) for j in range(i + 1, len(words) + 1)}
    )
    for span in spans:
        if span > width:
            break
        narrow = wrapped(text, min(width, span + 1), size)
        if len(narrow) <= want:
            return Wrap(size, min(width, span + 1), narrow)
    return Wrap(size, width, fewest)


def rows_alike(texts: Sequence[str], wraps: list[Wrap], columns: int, width: float) -> list[Wrap]:
    """``wraps`` with a label of fewer lines than its row's others on as many, where that leaves no word alone:
    "Finish my actions / this round" beside a two-line choice rather than one line beside two."""
    for k in range(0, len(wraps), max(1, columns)):
        most = max(len(w.lines) for w in wraps[k : k + columns])
        for j in range(k, min(k + columns, len(wraps))):
            if len(wraps[j].lines) < most:
                longer = balanced(texts[j], width, wraps[j].size, most)
                if len(longer.lines) == most and not widowed(longer):
                    wraps[j] = longer
    return wraps


def widowed(wrap: Wrap) -> bool:
    """A word alone on a line of a label of several words ("(19)" under "6: to Pyramid's Base")."""
    return len(wrap.lines) > 1 and any(len(line.split()) == 1 for line in wrap.lines)


def uneven(wraps: Sequence[Wrap], columns: int) -> bool:
    """A row whose labels take different counts of lines, or any label with a word alone on a line."""
    rows = [wraps[k : k + columns] for k in range(0, len(wraps), max(1, columns))]
    return any(len({len(w.lines) for w in row}) > 1 for row in rows) or any(map(widowed, wraps))


def even(texts: Sequence[str], sizes: Sequence[float], columns: int, width: float, least: float) -> list[Wrap]:
    """Each label's ``Wrap`` in a grid of ``columns``, its lines ``width`` wide at most.

    ``sizes`` are the labels' own font sizes; they shrink together, in proportion, the largest a whole pixel a
    step, while the list is ``uneven``, down to ``least`` of their own size (the size at 100% display scale) and
    ``READABLE`` px at most. A list no such size evens keeps its own sizes, each label still ``balanced``.
    """
    first = rows_alike(texts, [balanced(text, width, size) for text, size in zip(texts, sizes, strict=True)], columns,
                       width)
    if not texts or width <= 0 or not uneven(first, columns):
        return first
    largest = max(sizes)
    for step in range(1, int(largest)):
        share = 1 - step / largest
        if share < least or min(sizes) * share < READABLE:
            break
        wraps = [balanced(text, width, size * share) for text, size in zip(texts, sizes, strict=True)]
        wraps = rows_alike(texts, wraps, columns, width)
        if not uneven(wraps, columns):
            return wraps
    return first
