"""The loop board and the two decks, read from the data files a café may replace.

Spaces are addressed by their position on the loop (index 0 is Desert Dawn);
documents and actions name them by id so a person can read them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.colours import APART, BACKGROUND, delta_e, hex_code, hex_rgb, piece_rgb
from companion.errors import quoted
from companion.game import said_as
from companion.phrases import series
from companion.schema import Enum, HexColour, Int, ListOf, MapOf, Obj, Str, header

SPACE_TYPES = ("start", "safe", "collection", "mystery", "life", "trade", "scared", "challenge", "secret_passage")
PREDICATES = ("even", "odd", "gte", "lte", "eq", "in")
NAMED_SAFE = (
    "Oasis Alcove",
    "Golden Dune",
    "Hidden Oasis",
    "Pyramid's Base",
    "Pharaoh's Tomb",
    "Diamond Oasis",
    "Jewel of the Desert",
)

COMPASS = "golden_compass"
FLASK = "desert_flask"
SUNSHIELD = "sunshield_amulet"
SNEAKERS = "sandstorm_sneakers"
CLOAK = "mirage_cloak"
COLLECTION_CARDS = (COMPASS, FLASK, SUNSHIELD, SNEAKERS, CLOAK)

THIEF = "sand_thief"
WHISPER = "desert_whisper"
DUNE_SHIFT = "dune_shift"
VORTEX = "desert_vortex"
BLESSING = "camels_blessing"
MYSTERY_CARDS = (THIEF, WHISPER, DUNE_SHIFT, VORTEX, BLESSING)

CARD_NAMES = {
    COMPASS: "Golden Compass",
    FLASK: "Desert Flask",
    SUNSHIELD: "Sunshield Amulet",
    SNEAKERS: "Sandstorm Sneakers",
    CLOAK: "Mirage Cloak",
    THIEF: "Sand Thief",
    WHISPER: "Desert Whisper",
    DUNE_SHIFT: "Dune Shift",
    VORTEX: "Desert Vortex",
    BLESSING: "Camel's Blessing",
}
DECKS = {"collection": COLLECTION_CARDS, "mystery": MYSTERY_CARDS}


def _limit(value: Any, path: str) -> list[str]:
    if value is None:
        return []
    return Int(1, 99)(value, path)


def _colour(value: Any, path: str) -> list[str]:
    """A space's colour: a name, as the house board writes them, or ``#rrggbb``, which the screen draws.

    A café whose printed spaces are coloured otherwise than the rules say
    gives the colour as ``#rrggbb``; one that starts so but is not such a
    colour is a slip, refused rather than drawn in the house colour.
    """
    if isinstance(value, str) and value.startswith("#"):
        return HexColour()(value, path)
    return Str()(value, path)


CHALLENGE_SCHEMA = Obj(
    {"pred": Enum(*PREDICATES)},
    {"k": Int(1, 99), "values": ListOf(Int(1, 99), 1), "attemptLimit": _limit, "label": Str()},
)

BOARD_SCHEMA = Obj(
    {
        **header("desert", "board"),
        "spaces": ListOf(
            Obj(
                {"index": Int(0), "id": Str(), "name": Str(), "type": Enum(*SPACE_TYPES)},
                {"challenge": CHALLENGE_SCHEMA, "colour": _colour},
            ),
            2,
            unique_by="id",
            distinct="name",
        ),
    },
    {"label": Str(), "loop": Enum(True), "note": Str()},
)

CARDS_SCHEMA = Obj(
    {
        **header("desert", "cards"),
        "collection": MapOf(Int(0, 99), Enum(*COLLECTION_CARDS)),
        "mystery": MapOf(Int(0, 99), Enum(*MYSTERY_CARDS)),
    },
    {"label": Str(), "note": Str()},
)


@dataclass(frozen=True)
class Challenge:
    """What a challenge space asks of the die; ``limit`` None means no attempt limit (the Guardian)."""

    pred: str
    k: int = 0
    values: tuple[int, ...] = ()
    limit: int | None = 3

    def passes(self, value: int) -> bool:
        if self.pred == "even":
            return value % 2 == 0
        if self.pred == "odd":
            return value % 2 == 1
        if self.pred == "gte":
            return value >= self.k
        if self.pred == "lte":
            return value <= self.k
        if self.pred == "eq":
            return value == self.k
        return value in self.values

    @property
    def wording(self) -> str:
        return {
            "even": "an even number",
            "odd": "an odd number",
            "gte": f"{self.k} or more",
            "lte": f"{self.k} or less",
            "eq": f"exactly {self.k}",
            "in": "one of " + ", ".join(map(str, self.values)),
        }[self.pred]


@dataclass(frozen=True)
class Space:
    index: int
    id: str
    name: str
    type: str
    challenge: Challenge | None = None

    @property
    def label(self) -> str:
        """The space as every text names it: its name and its number on the loop, "Twin Dunes (11)".

        The touchscreen's ring at 800x480 has 36 px spaces, where no word of a name reads from a chair but
        the number does at 16 px; the number finds the space on the screen, the name on the printed board.
        """
        return f"{self.name} ({self.index})"

    @property
    def is_guardian(self) -> bool:
        return self.challenge is not None and self.challenge.limit is None

    @property
    def challenge_rule(self) -> str:
        """The clause that rules an attempt here: the Guardian's Test has its own (DR-15: a 6, no try limit),
        every other challenge DR-13. The Guardian's attempt line and its roll cited DR-13, the clause of the
        challenges it is the exception to."""
        return "DR-15" if self.is_guardian else "DR-13"


def _challenge(raw: Mapping[str, Any]) -> Challenge:
    return Challenge(
        raw["pred"], raw.get("k", 0), tuple(raw.get("values", ())), raw.get("attemptLimit", 3)
    )


class Board:
    """The loop of spaces plus the two deck compositions."""

    def __init__(self, board: Mapping[str, Any], cards: Mapping[str, Any]) -> None:
        self.spaces = tuple(
            Space(s["index"], s["id"], s["name"], s["type"], _challenge(s["challenge"]) if "challenge" in s else None)
            for s in board["spaces"]
        )
        self.size = len(self.spaces)
        self.by_id = {s.id: s.index for s in self.spaces}
        self.passage = next(s.index for s in self.spaces if s.type == "secret_passage")
        self.counts = {
            "collection": tuple(cards["collection"].get(c, 0) for c in COLLECTION_CARDS),
            "mystery": tuple(cards["mystery"].get(c, 0) for c in MYSTERY_CARDS),
        }

    def label(self, index: int) -> str:
        """The space at ``index`` as the texts name it (``Space.label``)."""
        return self.spaces[index].label

    @property
    def start(self) -> str:
        """Desert Dawn as the texts name it: a café's board may call its first space otherwise."""
        return self.spaces[0].label

    @property
    def passage_label(self) -> str:
        """The Secret Passage as the texts name it, with its number."""
        return self.spaces[self.passage].label


def _cross_board(board: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    spaces = board["spaces"]
    for i, space in enumerate(spaces):
        where = f"board.json spaces[{i}] ({quoted(space['id'])})"
        if space["index"] != i:
            problems.append(f"{where}: index {space['index']} but it is entry {i}; list the loop in order from 0")
        challenge = space.get("challenge")
        if space["type"] == "challenge" and challenge is None:
            problems.append(f"{where}: a challenge space needs a 'challenge' requirement")
        if space["type"] != "challenge" and challenge is not None:
            problems.append(f"{where}: only a challenge space carries a 'challenge' requirement")
        if challenge is not None:
            pred = challenge["pred"]
            if pred in ("gte", "lte", "eq") and not 1 <= challenge.get("k", 0) <= 6:
                problems.append(f"{where}: predicate {quoted(pred)} needs a 'k' from 1 to 6")
            if pred == "in" and not challenge.get("values"):
                problems.append(f"{where}: predicate 'in' needs a list of 'values'")
            if pred == "in" and any(v > 6 for v in challenge.get("values", ())):
                problems.append(f"{where}: 'values' may only hold die faces 1 to 6")
            passing = {v for v in range(1, 7) if _challenge(challenge).passes(v)}
            if not passing:
                problems.append(f"{where}: no roll of a six-sided die can pass this challenge")
            # A challenge without an attempt limit is the Guardian's Test to the engine (Space.is_guardian),
            # and the Guardian's Test is passed only with a 6 (DR-15).
            if "attemptLimit" in challenge and challenge["attemptLimit"] is None and passing and passing != {6}:
                problems.append(
                    f"{where}: a challenge with no attempt limit is the Guardian's Test, which is passed only "
                    "with a 6; give it {\"pred\": \"eq\", \"k\": 6} or an attempt limit"
                )
    problems.extend(_read_alike(spaces))
    if spaces and spaces[0]["type"] != "start":
        problems.append("board.json spaces[0]: the loop must begin with Desert Dawn, type 'start'")
    for kind in ("start", "secret_passage"):
        count = sum(1 for s in spaces if s["type"] == kind)
        if count != 1:
            problems.append(f"board.json: needs exactly one space of type {quoted(kind)}, found {count}")
    # The Golden Compass only ever comes from the Collection deck, drawn on a red space (DR-8): a loop
    # without one plays on for ever, as a deck without a Compass would (_cross_cards).
    if not any(s["type"] == "collection" for s in spaces):
        problems.append(
            "board.json: needs at least one space of type 'collection'; without one nobody can take "
            "a Golden Compass, so nobody can ever win"
        )
    return problems


def _read_alike(spaces: list[Mapping[str, Any]]) -> list[str]:
    """Spaces a typed `why` (or the referee's explain) could not tell apart: an id or name that reads as another
    space's id or name, case, spacing, underscores and an opening "the" aside (``said_as``), or as a number.

    `why cool cave` named a café's space "cool cave" and the space called "Cool Cave" alike; a name "12" read
    as space 12. Two names alike as written are the schema's to refuse (``ListOf`` distinct), said once.
    """
    problems: list[str] = []
    seen: dict[str, tuple[int, str]] = {}
    for i, space in enumerate(spaces):
        where = f"board.json spaces[{i}] ({quoted(space['id'])})"
        for field in ("id", "name"):
            said = said_as(space[field])
            if said.isdecimal():
                problems.append(f"{where}: {field} {quoted(space[field])} reads as a number, and `why {said}` asks "
                                "about the space of that number on the loop; give it a word")
                break
            j, other = seen.setdefault(said, (i, field))
            if j == i:
                continue
            if field == other == "name" and " ".join(space["name"].split()).casefold() == " ".join(
                    spaces[j]["name"].split()).casefold():  # fmt: skip
                continue  # two names alike: the schema's refusal says so
            named = "" if other == "id" else f", {quoted(spaces[j][other])}"
            problems.append(f"{where}: {field} {quoted(space[field])} reads as the {other} of spaces[{j}] "
                            f"({quoted(spaces[j]['id'])}){named}; `why` names a space by its name or id, case, "
                            "spacing and underscores aside, so give each its own")
            break  # one clash said per space: its id and name alike would say it twice
    return problems


def _cross_cards(cards: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    for deck, ids in DECKS.items():
        missing = [c for c in ids if c not in cards[deck]]
        if missing:
            problems.append(f"cards.json {deck}: give a count for {', '.join(missing)} (0 if the deck has none)")
        if sum(cards[deck].values()) == 0:
            problems.append(f"cards.json {deck}: the deck holds no card")
    if cards["collection"].get(COMPASS, 0) < 1:
        problems.append("cards.json collection: without a Golden Compass nobody can ever win")
    return problems


def _paint_problems(board: Mapping[str, Any], colours: tuple[str, ...]) -> list[str]:
    """A space's ``#rrggbb`` the screen would draw too like a pawn, or like the screen around the loop (CIEDE2000).

    A café gives its spaces the colours of its printed board; one near black
    (``#141414``) left a hole in the drawn loop, and a space in a player's
    colour hid that player's pawn but for its white rim. A colour a little
    off the print still finds the space on the real board.
    """
    problems: list[str] = []
    need = f"(CIEDE2000; the screen needs {APART:g} or more)"
    for i, space in enumerate(board["spaces"]):
        paint = hex_rgb(space.get("colour"))
        if paint is None:
            continue
        where = f"board.json spaces[{i}] ({quoted(space['id'])}).colour: {quoted(space['colour'])} is"
        distance = delta_e(paint, BACKGROUND)
        if distance < APART:
            problems.append(
                f"{where} {distance:.1f} from the screen's background ({hex_code(BACKGROUND)}) {need}: the space "
                "would not show on the drawn loop; choose a lighter colour"
            )
        for player in colours:
            pawn = piece_rgb(player)
            distance = delta_e(paint, pawn)
            if distance < APART:
                problems.append(
                    f"{where} {distance:.1f} from the {player} player's pawn ({hex_code(pawn)}) {need}: "
                    f"a {player} pawn on that space could not be seen; choose a colour further from {player}"
                )
    return problems


def safe_name_notes(files: Mapping[str, Any], sources: Mapping[str, str]) -> list[str]:
    """A café board's departure from the seven safe spaces the rules name (DR-7), as a warning: which of them it
    lacks, or has as another type, and the safe spaces it names otherwise.

    Where the seven lie is the board's to say (DR-Q33), and nothing checked that a board named them at all. It is
    no problem: a space plays as its type says, whatever its name, and DECISIONS.md's own test board has safe
    spaces called only "Safe". But a landing on such a space cites DR-7, which names the seven, so a board that
    lacks one (or spells it "Pharoah's Tomb") reads against its rulings; a café copying the printed board learns
    of the slip here, not from a player. Names are matched as `why` reads them, a curly apostrophe as a straight.
    """
    if "board" not in files:
        return []
    where = f"{sources.get('board', 'board.json')}: "
    spaces = files["board"]["spaces"]
    by_name = {_spoken(space["name"]): (i, space) for i, space in enumerate(spaces)}
    named = {_spoken(name) for name in NAMED_SAFE}
    notes = []
    for name in NAMED_SAFE:
        found = by_name.get(_spoken(name))
        if found is not None and found[1]["type"] != "safe":
            i, space = found
            notes.append(f"{where}spaces[{i}] ({quoted(space['id'])}): {quoted(space['name'])} is one of the seven "
                         f"safe spaces the rules name (DR-7), but its type is {quoted(space['type'])}; it plays as "
                         "that type, and a landing there is not ruled safe")
    missing = [name for name in NAMED_SAFE if _spoken(name) not in by_name]
    if missing:
        others = [quoted(space["name"]) for space in spaces
                  if space["type"] == "safe" and _spoken(space["name"]) not in named]
        called = f"; its safe spaces named otherwise: {', '.join(others)}" if others else ""
        notes.append(f"{where}no space is named {series(missing, 'or')}, of the seven safe spaces the rules name "
                     f"(DR-7; the board places them, DR-Q33){called}. It plays as its types say, but a landing on a "
                     "safe space cites DR-7, which names the seven: name them as the rules do")
    return notes


def _spoken(name: str) -> str:
    """A space's name as `why` reads it (``said_as``), a curly apostrophe as a straight one ("Pyramid’s Base")."""
    return said_as(name.replace("\u2019", "'"))


def cross_check(files: Mapping[str, Any], colours: tuple[str, ...] = ()) -> list[str]:
    """Faults between entries and files; ``colours`` are the players' colours the pawns are drawn in."""
    problems: list[str] = []
    if "board" in files:
        problems.extend(_cross_board(files["board"]))
        problems.extend(_paint_problems(files["board"], colours))
    if "cards" in files:
        problems.extend(_cross_cards(files["cards"]))
    return problems
