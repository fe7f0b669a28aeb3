"""Which characters the touchscreen can draw, so a café's names are checked before a table shows boxes.

The screen writes every text in Kivy's bundled Roboto, which covers Latin
(with its accents), Greek and Cyrillic but no other script and few signs: a
café's tribe card labelled in Tifinagh, a Blackpool card named with a
Japanese word or a desert space ending in "☀" was drawn as empty boxes while
the validator called the file valid. The table below is Roboto's own
character map (Regular and Bold hold the same characters); a UI test reads
the font file and checks it still matches, so a font change cannot leave it
stale. Plain data, no Kivy: the validator runs without a screen.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator

# Inclusive code point ranges of Roboto-Regular.ttf as bundled with Kivy 2.3.
ROBOTO_RANGES: tuple[tuple[int, int], ...] = (
    (0x0000, 0x0000), (0x0002, 0x0002), (0x000D, 0x000D), (0x0020, 0x007E), (0x00A0, 0x017F), (0x018F, 0x018F),
    (0x0192, 0x0192), (0x01A0, 0x01A1), (0x01AF, 0x01B0), (0x01F0, 0x01F0), (0x01FA, 0x01FF), (0x0218, 0x021B),
    (0x0237, 0x0237), (0x0259, 0x0259), (0x02BC, 0x02BC), (0x02C6, 0x02C7), (0x02C9, 0x02C9), (0x02D8, 0x02DD),
    (0x02F3, 0x02F3), (0x0300, 0x0301), (0x0303, 0x0303), (0x0309, 0x0309), (0x030F, 0x030F), (0x0323, 0x0323),
    (0x0384, 0x038A), (0x038C, 0x038C), (0x038E, 0x03A1), (0x03A3, 0x03CE), (0x03D1, 0x03D2), (0x03D6, 0x03D6),
    (0x0400, 0x0486), (0x0488, 0x0513), (0x1E00, 0x1E01), (0x1E3E, 0x1E3F), (0x1E80, 0x1E85), (0x1EA0, 0x1EF9),
    (0x1F4D, 0x1F4D), (0x2000, 0x200B), (0x2010, 0x2011), (0x2013, 0x2015), (0x2017, 0x201E), (0x2020, 0x2022),
    (0x2025, 0x2027), (0x2030, 0x2030), (0x2032, 0x2033), (0x2039, 0x203A), (0x203C, 0x203C), (0x2044, 0x2044),
    (0x2074, 0x2074), (0x207F, 0x207F), (0x20A3, 0x20A4), (0x20A6, 0x20AC), (0x20B1, 0x20B1), (0x20B9, 0x20BA),
    (0x20BC, 0x20BD), (0x2105, 0x2105), (0x2113, 0x2113), (0x2116, 0x2116), (0x2122, 0x2122), (0x2126, 0x2126),
    (0x212E, 0x212E), (0x215B, 0x215E), (0x2202, 0x2202), (0x2206, 0x2206), (0x220F, 0x220F), (0x2211, 0x2212),
    (0x221A, 0x221A), (0x221E, 0x221E), (0x222B, 0x222B), (0x2248, 0x2248), (0x2260, 0x2260), (0x2264, 0x2265),
    (0x25CA, 0x25CA), (0xEE01, 0xEE02), (0xF6C3, 0xF6C3), (0xFB01, 0xFB04), (0xFEFF, 0xFEFF), (0xFFFC, 0xFFFD),
)  # fmt: skip
_STARTS = [start for start, _ in ROBOTO_RANGES]

# Fields whose text the screen shows: names and labels of spaces, cards, camels and regions, rule clauses.
SHOWN_KEYS = ("name", "label", "title", "text")
# The most characters a card's, space's or other entry's name or label may have: its choice buttons stay within
# three lines at 800x480 and 480x800 even in capitals (68 fit so; 60 leaves room for longer choice texts).
NAME_LIMIT = 60


def drawable(char: str) -> bool:
    i = bisect_right(_STARTS, ord(char)) - 1
    return i >= 0 and ord(char) <= ROBOTO_RANGES[i][1]


def undrawable(text: str) -> list[str]:
    """The distinct characters of ``text`` the screen would draw as empty boxes, in order of appearance."""
    return list(dict.fromkeys(c for c in text if not c.isspace() and not drawable(c)))


def font_problems(content: object, where: str, keys: tuple[str, ...] = SHOWN_KEYS) -> list[str]:
    """Each shown text of a data file holding characters the screen cannot draw, named by its place.

    ``keys`` are the fields the screen shows: names and labels everywhere, and
    ids too in the files whose ids are written on the screen (a temple card's).
    """
    problems: list[str] = []
    for place, item, _ in shown_texts(content, keys):
        missing = undrawable(item)
        if missing:
            chars = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in missing[:5])
            problems.append(
                f"{where}: {place}: {item[:60]!r} holds {chars}, which the touchscreen's font cannot "
                "draw (it would show an empty box); write it in Latin letters with their usual accents, "
                "Greek or Cyrillic"
            )
    return problems


def length_problems(content: object, where: str) -> list[str]:
    """Each name or label of a card, space or other entry longer than a choice button shows whole.

    Such names are written into the table's choices ("Use Pepper Pouch (G03)
    at centre 3-1", "4: to Mirage Pool (9)"): a café's 219-character
    card name made a button seven lines high, most of the list it sits in
    (reported cut off at its foot). ``NAME_LIMIT`` keeps the longest such choice, even in capitals,
    within three lines at 800x480 and 480x800 (tests/ui/test_layout.py
    measures it with the screen's font).
    """
    return [
        f"{where}: {place}: {item[:40]!r}... is {len(item)} characters long; a name shown on the table's buttons may"
        f" have at most {NAME_LIMIT} (a longer one runs past three lines of its button); shorten it"
        for place, item, in_list in shown_texts(content, ("name", "label"))
        if in_list and len(item) > NAME_LIMIT
    ]


def shown_texts(content: object, keys: tuple[str, ...]) -> Iterator[tuple[str, str, bool]]:
    """(place, text, whether it names an entry of a list) for each text under ``keys`` in a data file."""

    def walk(value: object, path: str, in_list: bool) -> Iterator[tuple[str, str, bool]]:
        if isinstance(value, dict):
            for key, item in value.items():
                place = f"{path}.{key}" if path else str(key)
                if key in keys and isinstance(item, str):
                    yield place, item, in_list
                else:
                    yield from walk(item, place, False)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                yield from walk(item, f"{path}[{i}]", True)

    return walk(content, "", False)


# Roboto Bold at 16 px as the screen draws it (a board's type at 800x480), for the characters of the words a
# board writes from a café's numbers (Targi's "+2 dates", "+1D +1P", "2 VP", "3P/1D 1G", "Raid 2", "+1 any good").
# A line's width is each character's step to the next (BOLD_16_STEP, less BOLD_16_CLOSER
# for the pairs Roboto sets closer: "V" before "a", any character before "/") and then the last character's
# own width (BOLD_16_ALONE): Kivy's measure gives exactly that for every such line. tests/ui measures it all
# again with the screen's font, so a font change cannot leave it stale.
BOLD_16_ALONE: dict[str, int] = {
    ' ': 4, '+': 9, '/': 7, '0': 9, '1': 9, '2': 9, '3': 9, '4': 9, '5': 9, '6': 9, '7': 9, '8': 9,
    '9': 9, 'D': 10, 'G': 11, 'P': 10, 'R': 10, 'S': 10, 'V': 11, 'a': 9, 'd': 9, 'e': 9, 'g': 9, 'i': 4,
    'l': 4, 'n': 9, 'o': 9, 'p': 9, 'r': 6, 's': 8, 't': 6, 'y': 9,
}  # fmt: skip
BOLD_16_STEP: dict[str, int] = {
    ' ': 4, '+': 9, '/': 7, '0': 9, '1': 9, '2': 9, '3': 9, '4': 9, '5': 9, '6': 9, '7': 9, '8': 9,
    '9': 9, 'D': 10, 'G': 11, 'P': 10, 'R': 10, 'S': 10, 'V': 10, 'a': 9, 'd': 9, 'e': 9, 'g': 9, 'i': 4,
    'l': 4, 'n': 9, 'o': 9, 'p': 9, 'r': 6, 's': 8, 't': 5, 'y': 8,
}  # fmt: skip
BOLD_16_CLOSER: dict[str, int] = {
    ' /': 1, '+/': 1, '//': 3, '0/': 1, '1/': 1, '2/': 1, '3/': 1, '4/': 1, '5/': 1, '6/': 1, '7/': 1, '8/': 1,
    '9/': 1, 'D/': 1, 'DV': 1, 'G/': 1, 'P/': 1, 'Pa': 1, 'Pd': 1, 'Pe': 1, 'Pg': 1, 'Po': 1, 'R/': 1, 'RV': 1,
    'S/': 1, 'V/': 1, 'VG': 1, 'Va': 1, 'Vd': 1, 'Ve': 1, 'Vg': 1, 'Vo': 1, 'Vr': 1, 'Vy': 1, 'a/': 1, 'ay': 1,
    'd/': 1, 'e/': 1, 'ey': 1, 'g/': 1, 'i/': 1, 'l/': 1, 'n/': 1, 'o/': 1, 'oy': 1, 'p/': 1, 'py': 1, 'r/': 1,
    'ra': 1, 'rd': 1, 're': 1, 'rg': 1, 'ro': 1, 's/': 1, 't/': 1, 'to': 1, 'y/': 1, 'ya': 1, 'yd': 1, 'ye': 1,
    'yg': 1, 'yo': 1,
}  # fmt: skip


def board_width(line: str) -> int | None:
    """``line``'s width in px in the boards' 16 px bold type; None when it holds a character outside the table."""
    if not line or any(c not in BOLD_16_ALONE for c in line):
        return None
    steps = sum(BOLD_16_STEP[c] - BOLD_16_CLOSER.get(line[i : i + 2], 0) for i, c in enumerate(line[:-1]))
    return steps + BOLD_16_ALONE[line[-1]]
