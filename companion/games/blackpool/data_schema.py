"""Schemas of the Blackpool data files and the cross-checks between their entries.

A café replacing the board transcribes squares, paths and diagonals by hand;
these checks catch the slips that would otherwise surface mid-game (a path
through a missing square, a camp that is not a corner, riding that would
carry a traveller off its own path).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from companion.errors import quoted
from companion.game import said_as
from companion.games.blackpool.board import CAMP, CENTRE, WATER, ZONE_ORDER, ZONES
from companion.games.blackpool.cards import DECKS, EFFECT_DECK
from companion.schema import Enum, Int, ListOf, MapOf, Obj, Str, copy_warnings, header, no_such

ZONE_PULLS = Obj({z: Int(0, 6) for z in ZONE_ORDER})

BOARD_SCHEMA = Obj(
    {
        **header("blackpool", "board"),
        "width": Int(3, 30),
        "height": Int(3, 30),
        "blackforce": ZONE_PULLS,
        "draftBlackforce": ZONE_PULLS,
        # A square is typed in any case ("why D4"): ids that differ only so would name one square for two.
        "squares": ListOf(
            Obj({"id": Str(), "x": Int(0), "y": Int(0), "zone": Enum(*ZONES)}), 9, unique_by="id", distinct="id"
        ),
        "paths": MapOf(ListOf(Str(), 7)),
        "camps": MapOf(Str()),
        "startCircles": MapOf(ListOf(Str(), 3, 3)),
        "diagonalOut": MapOf(ListOf(Str(), 1)),
        "diagonalIn": MapOf(ListOf(Str(), 1)),
    },
    {"title": Str(), "note": Str()},
)

CARD_SCHEMA = Obj(
    {
        "id": Str(),
        "name": Str(),
        "deck": Enum(*DECKS),
        "effect": Enum(*EFFECT_DECK),
        "params": Obj({}, {"distance": Int(1, 20)}),
        "count": Int(1, 20),
    },
    {"note": Str()},
)

# A card's entry may repeat another's name as a copy of it when it differs only here (and in its id): the draw's
# buttons name a card by its name, so two different cards under one name are refused (schema.ListOf).
CARD_COPIES = ("count", "note")

CARDS_SCHEMA = Obj(
    {
        **header("blackpool", "cards"),
        "cards": ListOf(CARD_SCHEMA, 1, unique_by="id", distinct="name", copies=CARD_COPIES),
    },
    {"title": Str(), "note": Str()},
)

DATA_SCHEMAS = {"board": BOARD_SCHEMA, "cards": CARDS_SCHEMA}


def copy_notes(files: Mapping[str, Any], sources: Mapping[str, str]) -> list[str]:
    """A café deck's entries that are copies of an earlier card (``copy_warnings``); ``sources`` name the files."""
    if "cards" not in files:
        return []
    where = f"{sources.get('cards', 'cards.json')}: cards"
    return copy_warnings(files["cards"]["cards"], where, "name", "id", CARD_COPIES)


def _adjacent(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return max(abs(a["x"] - b["x"]), abs(a["y"] - b["y"])) == 1


def cross_check(files: Mapping[str, Any], colours: tuple[str, ...]) -> list[str]:
    problems: list[str] = []
    if "board" in files:
        problems.extend(board_problems(files["board"], colours))
    if "cards" in files:
        problems.extend(card_problems(files["cards"]))
    return problems


def _typed_alike(squares: list[Mapping[str, Any]], colours: tuple[str, ...]) -> list[str]:
    """Square ids a typed `why` (or the referee's explain) reads as another place: the centre, camp, a traveller
    ("Red 1"), or another square once spaces are dropped ("c 2" beside "c2").

    `why` reads a square as the table types it, case and spaces aside (``said_as``): a square "Centre" on a
    ring answered for the centre's travellers, and one named "c 2" beside "c2" for neither.
    Ids alike but for case are the schema's to refuse (``ListOf`` distinct), said once.
    """
    problems: list[str] = []
    seen: dict[str, str] = {}
    for square in squares:
        sid = square["id"]
        said = "".join(said_as(sid).split())
        piece = re.fullmatch(r"([a-z]+)-?([1-3])", said)
        if said in (CENTRE, CAMP) or (piece and piece[1] in colours):
            other = f"traveller {piece[1]}-{piece[2]}" if piece else "the centre" if said == CENTRE else "camp"
            problems.append(f"board.json: square {quoted(sid)} reads as {other}, which `why` and the texts name so; "
                            "give the square another id")
            continue
        first = seen.setdefault(said, sid)
        if first != sid and " ".join(first.split()).casefold() != " ".join(sid.split()).casefold():
            problems.append(f"board.json: square {quoted(sid)} reads as square {quoted(first)}, spaces aside, as "
                            "`why` is typed; give each its own id")
    return problems


def _crowded_circles(starting: Mapping[str, list[str]]) -> list[str]:
    """Starting circles off the centre that put more on one square than the rules let stand there.

    A square takes two travellers of different colours, the later riding (BP-7, BP-C3). Two travellers of
    one colour on one circle passed ``data validate``; a game with that colour was then refused at its start
    ("board data puts two red travellers on starting circle e6", no clause), and three colours on one circle
    began a stack of three, one riding a rider.
    """
    problems: list[str] = []
    for square, colours in starting.items():
        twice = sorted({c for c in colours if colours.count(c) > 1})
        for colour in twice:
            problems.append(f"board.json: startCircles.{colour} lists {square} twice: two travellers of one colour "
                            "cannot stand on one square (BP-Q4, BP-C3); give each its own circle or \"centre\"")
        if not twice and len(colours) > 2:
            problems.append(f"board.json: startCircles put {', '.join(colours)} travellers on {square}: a square "
                            "holds two at most, one riding the other (BP-7, BP-C3)")
    return problems


def board_problems(board: Mapping[str, Any], colours: tuple[str, ...]) -> list[str]:
    where = "board.json"
    problems: list[str] = []
    squares = {s["id"]: s for s in board["squares"]}
    xy: dict[tuple[int, int], str] = {}
    for s in board["squares"]:
        key = (s["x"], s["y"])
        if key in xy:
            problems.append(f"{where}: squares {xy[key]} and {s['id']} share position {key}")
        xy[key] = s["id"]
        if not (s["x"] < board["width"] and s["y"] < board["height"]):
            problems.append(f"{where}: square {s['id']} lies outside the {board['width']}x{board['height']} board")
    problems.extend(_typed_alike(board["squares"], colours))
    centres = [s["id"] for s in board["squares"] if s["zone"] == "centre"]
    if len(centres) != 1:
        problems.append(f"{where}: the board needs exactly one centre square, found {len(centres)}")
    xs = [s["x"] for s in board["squares"]]
    ys = [s["y"] for s in board["squares"]]
    corners = {(min(xs), min(ys)), (min(xs), max(ys)), (max(xs), min(ys)), (max(xs), max(ys))}

    for key in ("paths", "camps", "startCircles"):
        missing = [c for c in colours if c not in board[key]]
        extra = [c for c in board[key] if c not in colours]
        if missing:
            problems.append(f"{where}: {key} lacks the colours {', '.join(missing)}")
        if extra:
            problems.append(f"{where}: {key} names unknown colours {', '.join(extra)} (colours: {', '.join(colours)})")

    water = {sid for sid, s in squares.items() if s["zone"] in WATER}
    on_any_path: set[str] = set()
    for colour, path in board["paths"].items():
        label = f"{where}: paths.{colour}"
        seen: set[str] = set()
        for i, sid in enumerate(path):
            if sid not in squares:
                problems.append(f"{label}[{i}]: {no_such('square', sid, squares)}")
                continue
            zone = squares[sid]["zone"]
            if zone in ("centre", "camp"):
                problems.append(f"{label}[{i}]: {sid} is a {zone}; a path runs only over ring and edge squares")
            if sid in seen:
                problems.append(f"{label}[{i}]: {sid} appears twice; a path visits each square at most once")
            seen.add(sid)
            if i and path[i - 1] in squares and not _adjacent(squares[path[i - 1]], squares[sid]):
                problems.append(f"{label}[{i}]: {path[i - 1]} and {sid} are not neighbouring squares")
        on_any_path |= seen & water
        if path and path[0] in squares and squares[path[0]]["zone"] != "ring4":
            problems.append(f"{label}: the path must start in ring 4, not on {path[0]}")
        zones = [squares[s]["zone"] for s in path if s in squares]
        order = [ZONE_ORDER.index(z) for z in zones if z in ZONE_ORDER]
        if order != sorted(order):
            problems.append(f"{label}: the path must go outwards ring by ring (ring 4, 3, 2, then the edge)")
        camp = board["camps"].get(colour)
        if camp in squares and path and path[-1] in squares and not _adjacent(squares[path[-1]], squares[camp]):
            problems.append(f"{label}: its last square {path[-1]} does not touch the camp {camp}")
        if len(path) < 7:
            problems.append(f"{label}: a path needs at least 7 squares (a traveller comes out on square 6)")
    for colour, path in board["paths"].items():
        missing = sorted(on_any_path - set(path))
        if missing:
            problems.append(
                f"{where}: paths.{colour} misses water squares other colours use ({', '.join(missing[:8])}"
                f"{'...' if len(missing) > 8 else ''}); riders could be carried off their path (BP-Q2, BP-Q14)"
            )

    camp_squares: dict[str, str] = {}
    for colour, sid in board["camps"].items():
        if sid not in squares:
            problems.append(f"{where}: camps.{colour}: {no_such('square', sid, squares)}")
            continue
        if squares[sid]["zone"] != "camp":
            problems.append(f"{where}: camps.{colour}: {sid} has zone {squares[sid]['zone']}, not camp")
        if (squares[sid]["x"], squares[sid]["y"]) not in corners:
            problems.append(f"{where}: camps.{colour}: {sid} is not a corner of the board")
        if sid in camp_squares:
            problems.append(f"{where}: camps: {camp_squares[sid]} and {colour} share the camp {sid}")
        camp_squares[sid] = colour
    for sid, s in squares.items():
        if s["zone"] == "camp" and sid not in camp_squares:
            problems.append(f"{where}: square {sid} is a camp but no colour owns it")

    starting: dict[str, list[str]] = {}  # a square's colours, once per traveller starting there
    for colour, circles in board["startCircles"].items():
        path = set(board["paths"].get(colour, []))
        for i, c in enumerate(circles):
            if c == "centre" or c in centres:
                continue
            if c not in path:
                problems.append(
                    f'{where}: startCircles.{colour}[{i}]: {quoted(c)} is neither "centre" nor on the {colour} path'
                )
            starting.setdefault(c, []).append(colour)
    problems.extend(_crowded_circles(starting))

    rank = {sid: ZONE_ORDER.index(s["zone"]) for sid, s in squares.items() if s["zone"] in ZONE_ORDER}
    for key, step in (("diagonalOut", 1), ("diagonalIn", -1)):
        for sid, targets in board[key].items():
            if sid not in squares:
                problems.append(f"{where}: {key}: {no_such('square', sid, squares)}")
                continue
            if sid not in rank or squares[sid]["zone"] == "centre":
                problems.append(f"{where}: {key}.{sid}: diagonal steps start only from ring or edge squares")
                continue
            for t in targets:
                if t not in squares:
                    problems.append(f"{where}: {key}.{sid}: {no_such('square', t, squares)}")
                    continue
                if squares[t]["zone"] == "camp":
                    problems.append(f"{where}: {key}.{sid}: {t} is a camp; a diagonal step never reaches a camp")
                    continue
                if rank.get(t) != rank[sid] + step:
                    direction = "out" if step > 0 else "in"
                    problems.append(f"{where}: {key}.{sid}: {t} is not one ring {direction} from {sid}")
                elif squares[t]["zone"] != "centre" and not _adjacent(squares[sid], squares[t]):
                    problems.append(f"{where}: {key}.{sid}: {t} does not touch {sid}")
    for zone in ZONE_ORDER:
        if board["blackforce"][zone] >= 6 and zone != "centre":
            problems.append(f"{where}: blackforce.{zone} of {board['blackforce'][zone]} would stop every roll")
    # The engine brings a traveller out on one more than the centre's pull (Board.exit_roll), moving that
    # many squares: the rules fix that roll at a six on the board and a 5 in the glossary draft.
    if board["blackforce"]["centre"] != 5:
        problems.append(
            f"{where}: blackforce.centre is {board['blackforce']['centre']}; only a six, one more than the "
            "centre's pull, brings a traveller out onto the sixth square of its path, so the pull must be 5 "
            "(BP-C7, BP-Q20)"
        )
    if board["draftBlackforce"]["centre"] != 4:
        problems.append(
            f"{where}: draftBlackforce.centre is {board['draftBlackforce']['centre']}; in the glossary draft "
            "exactly a 5, one more than the centre's pull, brings a traveller out (a six never does), so the "
            "pull must be 4 (BP-Q6)"
        )
    problems.extend(_ring_pull_problems(board, where))
    return problems


def _ring_pull_problems(board: Mapping[str, Any], where: str) -> list[str]:
    """Refuse a water ring that pulls as hard as the centre (BP-4, BP-C1: the pulls fall from the centre out).

    There only the roll that leaves the centre moves a traveller on, and every lower roll but one pulls it
    back, so it drifts back into the centre: with every ring pulling 5, 20 of 20 random games were still
    running after 5,000 actions (5 of 20 with ring 4 and ring 3 at 5). A pull of 6 or more is refused
    above as stopping every roll.
    """
    problems: list[str] = []
    for table, exit_pull in (("blackforce", 5), ("draftBlackforce", 4)):
        centre = board[table]["centre"]
        if centre != exit_pull:  # refused below already: a ring measured against it would only repeat that
            continue
        for zone in ("ring4", "ring3", "ring2"):
            pull = board[table][zone]
            if centre <= pull < 6:
                problems.append(
                    f"{where}: {table}.{zone} of {pull} is not below the centre's {centre}, as the rings' pulls "
                    f"are (BP-4, BP-C1): only a roll above {pull} would move a traveller on there and most "
                    "others pull it back into the centre, so games with such rings mostly never end"
                )
    return problems


def card_problems(cards: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    for i, card in enumerate(cards["cards"]):
        wanted = EFFECT_DECK[card["effect"]]
        if card["deck"] != wanted:
            side = "helps its player" if wanted == "charm" else "hurts an opponent"
            problems.append(
                f"cards.json: cards[{i}] ({card['id']}): effect {card['effect']} {side}, "
                f"so it belongs in the {wanted} deck"
            )
        if card["params"] and card["effect"] != "gust":
            problems.append(f"cards.json: cards[{i}] ({card['id']}): effect {card['effect']} takes no params")
    return problems
