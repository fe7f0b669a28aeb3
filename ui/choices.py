"""Which of the legal actions the table shows as buttons, and which it asks a player to point at.

Most positions offer a handful of actions and every one gets a button. A few
offer hundreds: Through the Desert's placements (camel colour x hex), the
temple's card changes (slot x card). A list that long takes seconds to build
on a Pi and is hopeless to scroll with a finger, so the table then marks the
places on the board, a tap on one narrows the buttons to what may happen
there, and only actions without a place (a pass) stay listed beside the map.
The arithmetic lives here, without Kivy, so it is tested in milliseconds.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.places import LONG_LIST, PLACE_FIELDS, place_of
from ui.reach import Nearby

LIST_LIMIT = LONG_LIST  # more buttons than this and the board is the faster way to choose
PAGE = 60  # longer lists come in pages: sixty buttons build in a blink, six hundred take seconds
EVERYWHERE = "everywhere"  # the focus of 'List all': every legal action, in pages


# A field whose name is no word a player would tap: the temple's moves and stairway trips name their end "to".
TAPPED = {"to": "space"}


def place_word(choices: Sequence[Mapping[str, Any]]) -> str:
    """What a player taps, in the game's own word: 'hex', 'slot' or 'space' (the temple's "to": 'space')."""
    for name in PLACE_FIELDS:
        if any(name in action for action in choices):
            return TAPPED.get(name, name)
    return "place"


@dataclass(frozen=True)
class Arrangement:
    """What the table shows for one list of legal actions, one focus and one page."""

    buttons: list[Mapping[str, Any]]
    hint: str = ""  # one line above the buttons saying how to reach the rest
    marked: frozenset[Hashable] = field(default_factory=frozenset)  # places to mark on the board
    focus: Hashable | None = None  # the place whose actions are listed, drawn strongest
    page: int = 0  # which page of the list is shown, counted from 0
    pages: int = 1
    can_list_all: bool = False  # offer 'List all' (the board way is on)
    can_go_back: bool = False  # offer 'Back to map' (a place or the full list is open)


def arrange(
    choices: Sequence[Mapping[str, Any]], focus: Hashable | None = None, page: int = 0, can_point: bool = True
) -> Arrangement:
    """Buttons, marks and hint for ``choices``; ``can_point`` says the game's board answers taps."""
    places = {place_of(a) for a in choices} - {None}
    pointing = can_point and len(choices) > LIST_LIMIT and bool(places)
    # A short list is listed whole, and its places are still marked on a board that answers taps:
    # "Pink camel to (14,0)" means little on a map without coordinates until (14,0) is lit.
    marks = frozenset(places) if can_point else frozenset()
    if focus == EVERYWHERE:
        return _paged(list(choices), page, "Every legal action, in pages.", frozenset(), None, back=True)
    if can_point and focus in places:
        here = [a for a in choices if place_of(a) == focus]
        hint = f"{len(here)} here. Tap another marked {place_word(choices)} to change."
        return _paged(here, page, hint, marks, focus, back=True)
    if can_point and isinstance(focus, Nearby) and focus.places <= places:
        # A finger between marked places: their choices side by side, since each names its place.
        here = [a for a in choices if place_of(a) in focus.places]
        word = place_word(choices)
        hint = f"Which one? {len(focus.places)} {PLACE_FIELDS.get(word, 'places')} under the finger."
        return _paged(here, page, hint, marks, focus, back=True)
    if not pointing:
        return _paged(list(choices), page, "", marks, None, back=False)
    elsewhere = [a for a in choices if place_of(a) is None]
    word = place_word(choices)
    hint = (
        f"{len(choices) - len(elsewhere)} choices at {len(places)} marked {PLACE_FIELDS.get(word, 'places')}:"
        f" tap a {word} on the board."
    )
    return Arrangement(elsewhere[:PAGE], hint, frozenset(places), can_list_all=True)


def _paged(
    actions: list[Mapping[str, Any]],
    page: int,
    hint: str,
    marked: frozenset[Hashable],
    focus: Hashable | None,
    back: bool,
) -> Arrangement:
    pages = max(1, -(-len(actions) // PAGE))
    page %= pages  # 'Next page' on the last page starts again at the first
    if pages > 1:
        hint = f"{hint} Page {page + 1} of {pages}.".strip()
    shown = actions[page * PAGE : (page + 1) * PAGE]
    return Arrangement(shown, hint, marked, focus, page, pages, can_go_back=back)


def reveal(
    choices: Sequence[Mapping[str, Any]],
    action: Mapping[str, Any] | None,
    focus: Hashable | None = None,
    page: int = 0,
    can_point: bool = True,
) -> tuple[Hashable | None, int]:
    """The focus and page that show ``action`` among the buttons, keeping the current ones if they do.

    The button box's **next** steps through every legal action; the one it
    highlights must be on screen, or a player presses confirm blind.
    """
    if action is None:
        return focus, page
    for candidate in (focus, place_of(action), None, EVERYWHERE):
        current = [page] if candidate == focus else []
        for other in [*current, *range(arrange(choices, candidate, 0, can_point).pages)]:
            shown = arrange(choices, candidate, other, can_point)
            if action in shown.buttons:
                return candidate, shown.page
    return focus, page


DIE_FACE_KEYS = frozenset({"type", "value", "face", "text", "player"})  # a roll and nothing else: a die face
PAD_LIMIT = 6  # up to this many faces keep their full labels ("Oracle shows 4"); more become a die pad


@dataclass(frozen=True)
class DiePad:
    """A die with many faces as a compact pad: one row per face colour under its caption, numbers lined up in
    columns.

    The temple die's fifteen faces (X, red and white 1-7) took fifteen full-width
    buttons, three of them in view at 800x480; as two rows of small buttons they
    all show, with the card plays below them. A row's ``None`` is an empty cell.
    """

    rows: list[list[Mapping[str, Any] | None]]
    rest: list[Mapping[str, Any]]  # the other choices, listed as usual below the pad
    labels: list[str] = field(default_factory=list)  # each row's caption, over it: "Die shows red" ("" for none)

    @property
    def columns(self) -> int:
        return max(map(len, self.rows), default=1)


def is_die_face(action: Mapping[str, Any]) -> bool:
    return action.get("type") == "roll" and set(action) <= DIE_FACE_KEYS


def face_label(action: Mapping[str, Any]) -> str:
    """What a pad button says: the value alone; the row's colour says the rest."""
    return str(action.get("value"))


def face_colour(action: Mapping[str, Any]) -> str:
    face = action.get("face")
    return str(face.get("colour", "")) if isinstance(face, Mapping) else ""


def row_label(row: Sequence[Mapping[str, Any] | None]) -> str:
    """A pad row's caption, in the game's own words: its faces' texts without their numbers ("Die shows red").

    Audit: the rows had no caption, and a player new to the temple die saw two rows of 1-7 with nothing to say
    which was which but their paint (a white row and a red one side by side read as a choice of the same
    number). Faces whose texts share no such start are named by their colour ("Red faces"), one without a
    colour by nothing.
    """
    faces = [a for a in row if a is not None]
    starts = {
        str(a.get("text", "")).removesuffix(str(a["value"])).strip()
        for a in faces
        if isinstance(a.get("value"), int) and str(a.get("text", "")).endswith(str(a["value"]))
    }
    if len(starts) == 1 and "" not in starts:
        return starts.pop()
    colour = face_colour(faces[0]) if faces else ""
    return f"{colour.capitalize()} faces" if colour else ""


def die_pad(buttons: Sequence[Mapping[str, Any]]) -> DiePad | None:
    """The die faces among ``buttons`` as a pad, or None when they are few enough to list as they are.

    Numbers take the same column in every row (red 3 above white 3); a face
    without a number (the temple's X) goes in front of its colour's row, and the
    other rows leave that cell empty so the numbers stay lined up.
    """
    faces = [a for a in buttons if is_die_face(a)]
    if len(faces) <= PAD_LIMIT:
        return None
    colours = list(dict.fromkeys(face_colour(a) for a in faces))
    numbers = sorted({a["value"] for a in faces if isinstance(a.get("value"), int)})
    lead = max(sum(1 for a in faces if face_colour(a) == c and not isinstance(a.get("value"), int)) for c in colours)
    rows: list[list[Mapping[str, Any] | None]] = []
    for colour in colours:
        mine = [a for a in faces if face_colour(a) == colour]
        specials = [a for a in mine if not isinstance(a.get("value"), int)]
        by_number = {a["value"]: a for a in mine if isinstance(a.get("value"), int)}
        row: list[Mapping[str, Any] | None] = [None] * (lead - len(specials)) + specials
        rows.append(row + [by_number.get(n) for n in numbers])
    return DiePad(rows, [a for a in buttons if not is_die_face(a)], [row_label(row) for row in rows])
