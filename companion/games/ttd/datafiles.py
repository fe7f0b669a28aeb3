"""Schemas of the three data files and the checks that span them.

A café transcribes its own board into ``board.json``; these checks catch the
slips that would make a game unplayable (a palm on a mountain, more water-hole
sites than tokens, a player count with no palm) before a table sits down.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.colours import APART, delta_e, hex_code, piece_rgb
from companion.errors import quoted
from companion.games.ttd import INFO
from companion.games.ttd.paints import SAND, camel_paints
from companion.schema import Bool, Enum, HexColour, Int, ListOf, MapOf, Obj, Str, header, meant_hint

PLAYER_COUNTS = (2, 3, 4, 5)
PLAYER_COLOURS = INFO.colours  # the riders': players are named by them

BOARD_SCHEMA = Obj(
    {
        **header("ttd", "board"),
        "regions": ListOf(
            Obj({"id": Str(), "players": ListOf(Int(2, 5), 1)}, {"name": Str()}),
            1,
            unique_by="id",
        ),
        "cells": ListOf(
            Obj(
                {"q": Int(-100, 100), "r": Int(-100, 100), "type": Enum("sand", "mountain"), "region": Str()},
                {"waterhole": Bool(), "oasis": ListOf(Int(2, 5)), "name": Str()},
            ),
            1,
        ),
    },
    {"name": Str(), "house": Bool(), "notes": Str(), "side": Str()},
)

CAMELS_SCHEMA = Obj(
    {
        **header("ttd", "camels"),
        "colours": ListOf(
            Obj({"id": Str(), "name": Str()}, {"letter": Str(), "colour": HexColour()}),
            5,
            5,
            unique_by="id",
            distinct="name",
        ),
        "supply_by_players": MapOf(Int(1, 200), Enum("2", "3", "4", "5")),
    },
    {"notes": Str()},
)

WATERHOLES_SCHEMA = Obj(
    {
        **header("ttd", "waterholes"),
        "tokens": ListOf(Obj({"id": Str(), "value": Int(1, 9), "count": Int(0, 200)}), 1, unique_by="id"),
    },
    {"notes": Str()},
)

SCHEMAS = {"board": BOARD_SCHEMA, "camels": CAMELS_SCHEMA, "waterholes": WATERHOLES_SCHEMA}


def cross_problems(files: Mapping[str, Any]) -> list[str]:
    """Faults between entries and files; the schemas have already passed."""
    problems: list[str] = []
    board, camels, tokens = files["board"], files["camels"], files["waterholes"]
    regions = {reg["id"]: set(reg["players"]) for reg in board["regions"]}
    seen: dict[tuple[int, int], int] = {}
    for i, cell in enumerate(board["cells"]):
        where = f"board.json cells[{i}] (q {cell['q']}, r {cell['r']})"
        xy = (cell["q"], cell["r"])
        if xy in seen:
            problems.append(f"{where}: the same hex as cells[{seen[xy]}]")
        seen.setdefault(xy, i)
        if cell["region"] not in regions:
            hint = meant_hint(cell["region"], regions)
            problems.append(f"{where}: unknown region {quoted(cell['region'])}{hint}; regions: {', '.join(regions)}")
            continue
        if cell["type"] == "mountain" and (cell.get("waterhole") or cell.get("oasis")):
            problems.append(f"{where}: a mountain cannot hold a water hole or an oasis")
        stray = sorted(set(cell.get("oasis", ())) - regions[cell["region"]])
        if stray:
            problems.append(f"{where}: palm for {stray} players, but region {quoted(cell['region'])} is not used then")
    supply = camels["supply_by_players"]
    total_tokens = sum(t["count"] for t in tokens["tokens"])
    values = [t["value"] for t in tokens["tokens"]]
    if len(set(values)) != len(values):
        problems.append("waterholes.json tokens: two entries share one value")
    problems.extend(_letter_problems(camels["colours"]))
    problems.extend(_rider_colour_problems(camels["colours"]))
    problems.extend(_paint_problems(camels))
    for n in PLAYER_COUNTS:
        if str(n) not in supply:
            problems.append(f"camels.json supply_by_players: no entry for {n} players")
        used = {rid for rid, counts in regions.items() if n in counts}
        cells = [c for c in board["cells"] if c["region"] in used]
        palms = [c for c in cells if n in c.get("oasis", ())]
        sites = [c for c in cells if c.get("waterhole") and n not in c.get("oasis", ())]
        sand = [c for c in cells if c["type"] == "sand"]
        if not palms:
            problems.append(f"board.json: no oasis carries a palm with {n} players")
        if len(sites) > total_tokens:
            problems.append(
                f"board.json: {len(sites)} water-hole sites with {n} players but only {total_tokens} tokens"
            )
        if len(sand) < 6 * n:
            problems.append(f"board.json: only {len(sand)} sand hexes in play with {n} players")
    return problems


def _letter_problems(colours: list[dict[str, Any]]) -> list[str]:
    """Each camel colour needs a letter of its own on the text board: one letter, upper-cased there.

    A colour without a ``letter`` shows its id's first letter, so a café's
    "pink" and "purple" both showed as P; "l" and "L" passed as different
    letters though the board writes both as L; and "LL" or "ß" (upper-cased
    "SS") pushed the text board's columns out of line.
    """
    problems: list[str] = []
    shown: dict[str, list[str]] = {}
    for i, colour in enumerate(colours):
        letter = colour.get("letter") or colour["id"][:1]
        if "letter" in colour and (len(letter.upper()) != 1 or not letter.isalpha()):
            problems.append(
                f"camels.json: colours[{i}] (id {quoted(colour['id'])}).letter: {quoted(letter)} must be one "
                "letter, which the text board writes before a player number"
            )
            continue
        shown.setdefault(letter.upper(), []).append(colour["id"])
    for letter, ids in shown.items():
        if len(ids) > 1:
            problems.append(
                f"camels.json colours: {' and '.join(map(quoted, ids))} both show as {letter} on the text board "
                "(a colour without a letter shows its id's first letter); give each a letter of its own"
            )
    return problems


def _rider_colour_problems(colours: list[dict[str, Any]]) -> list[str]:
    """A camel colour may not be called by a rider's colour: camels and players are two sets of colours.

    The rules give the camels five colours of their own and each player
    riders in the player's colour, set on camels of every colour (TTD-1d);
    what a player may not touch is another player's camel of the same camel
    colour (TTD-3b). A café's "orange" camels beside the Orange player made
    "orange's orange caravan" of every text, and on the board the owner's
    orange dot sat on an orange camel and could not be seen.
    """
    problems: list[str] = []
    for i, colour in enumerate(colours):
        for field in ("id", "name"):
            word = str(colour[field]).strip().lower()
            if word in PLAYER_COLOURS:
                problems.append(
                    f"camels.json: colours[{i}] (id {quoted(colour['id'])}).{field}: {quoted(colour[field])} is "
                    f"also a player's (rider) colour, and camel colours and player colours must stay apart on the "
                    f"board and in its texts (TTD-1d, TTD-3b); players are {', '.join(PLAYER_COLOURS)}: call the "
                    "camels by another colour"
                )
                break
    return problems


def _paint_problems(camels: Mapping[str, Any]) -> list[str]:
    """Camel colours the screen would draw too like a rider, the sand or another camel colour (CIEDE2000).

    Names were checked, drawing colours were not: a café's camel ``#e02828``
    beside the red rider's ``#e62626`` passed, and the red owner's dot on such
    a camel, and the camel among red riders' camels, could not be told apart.
    Each colour is measured as the board draws it (``paints.camel_paints``: a
    café's ``colour``, else the one its id is drawn in).
    """
    problems: list[str] = []
    paints = camel_paints(camels)
    entries = {str(c["id"]): (i, c) for i, c in enumerate(camels["colours"])}
    need = f"(CIEDE2000; the screen needs {APART:g} or more)"

    def place(cid: str) -> str:
        i, entry = entries[cid]
        where = f"camels.json: colours[{i}] (id {quoted(cid)})"
        if "colour" in entry:
            return f"{where}.colour: {quoted(entry['colour'])} is"
        return f"{where}: drawn {hex_code(paints[cid])} (it gives no \"colour\"), which is"

    def fix(cid: str) -> str:
        return "choose another colour" if "colour" in entries[cid][1] else 'give it a "colour" written #rrggbb'

    for cid, paint in paints.items():
        # a camel drawn as its id names a rider colour (id "orange") is refused by its name already
        named = "colour" not in entries[cid][1] and cid.strip().lower() in PLAYER_COLOURS
        for player in () if named else PLAYER_COLOURS:
            rider = piece_rgb(player)
            distance = delta_e(paint, rider)
            if distance < APART:
                problems.append(
                    f"{place(cid)} {distance:.1f} from the {player} player's riders ({hex_code(rider)}) {need}: "
                    f"a {player} rider on such a camel, and such a camel among {player}'s, cannot be told apart "
                    f"(TTD-1d, TTD-3b); {fix(cid)}"
                )
        distance = delta_e(paint, SAND)
        if distance < APART:
            problems.append(
                f"{place(cid)} {distance:.1f} from the sand ({hex_code(SAND)}) the camels stand on {need}: "
                f"the camels would hardly show on the board; {fix(cid)}"
            )
    ids = list(paints)
    for k, one in enumerate(ids):
        for two in ids[k + 1 :]:
            distance = delta_e(paints[one], paints[two])
            if distance < APART:
                problems.append(
                    f"camels.json colours: {quoted(one)} ({hex_code(paints[one])}) and {quoted(two)} "
                    f"({hex_code(paints[two])}) are drawn {distance:.1f} apart {need}: the screen could not tell "
                    "their caravans apart; give one a \"colour\" written #rrggbb further from the other"
                )
    return problems
