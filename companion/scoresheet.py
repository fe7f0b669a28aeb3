"""How a score came about, in lines a table reads: the protocol's `score` breakdown, per player, with its clauses.

A dispute at the table is "how did she get 31?". The JSON referee answers with
``Game.score``; the terminal showed only totals. These lines are that same
breakdown, each part beside the clauses it rests on (``Game.score_rules``),
so the two front ends never count differently. A race keeps no score: its
players' lines of the board say where each stands, beside the clauses that
say who wins (``Game.win_rules``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.game import Game, State


def score_lines(game: Game, state: State, over: bool) -> list[str]:
    """The breakdown as lines: a heading, then each player's total and parts, or a race's standings."""
    scored = game.score(state)
    if scored is None:
        return _standings(game, state, over)
    players = scored.get("scores") if isinstance(scored.get("scores"), Mapping) else scored
    heading = "Final score" if over else "Score so far (provisional: the game is not over)"
    lines = [f"{heading}:"]
    for player, parts in players.items():
        if not isinstance(parts, Mapping):
            continue
        lines.append(f"{_title(player)}: {parts.get('total')}{_cite(game, 'total')}")
        for key, part in parts.items():
            if key != "total":
                lines.append(f"  {key.replace('_', ' ')} {part_points(part)}{_details(part)}{_cite(game, key)}")
    winners = scored.get("winners")
    if isinstance(winners, Sequence) and winners:
        lines.append(f"{_top(over, len(winners))}: {', '.join(_title(w) for w in winners)}{_cite(game, 'total')}")
    return lines


def score_clauses(game: Game) -> tuple[str, ...]:
    """Every clause the sheet cites, once each in the order of its parts: what a table disputing the end reads
    in full (the touchscreen's dispute screen opens them in the rulebook)."""
    cited = [rule for rules in game.score_rules.values() for rule in rules] if game.score_rules else []
    return tuple(dict.fromkeys([*cited, *game.win_rules]))


def _standings(game: Game, state: State, over: bool) -> list[str]:
    """A race's standings: the board's line for each player, as 'board' shows it, and the clauses that win it."""
    names = {str(player).lower() for player in getattr(state, "players", ())}
    mine = [line.strip() for line in game.describe(state)
            if line.strip().lstrip("* ").split(" ", 1)[0].rstrip(":").lower() in names]
    cited = f"  [{', '.join(game.win_rules)}]" if game.win_rules else ""
    head = f"{game.title} keeps no points: it is a race{', and it is over' if over else ''}. Where each player stands:"
    return [head + cited, *(f"  {line}" for line in _marked(mine))]


def _marked(rows: list[str]) -> list[str]:
    """The board's player rows with the '*' of the player to play kept in a margin of its own.

    Audit: the temple's rows ("* green  hand 3 ...", "  red    hand 3 ...") were stripped alike, so the row of
    the player to play stood two characters right of the others and its columns out of line with theirs.
    """
    if not any(row.startswith("* ") for row in rows):
        return rows
    return [f"* {row[2:].lstrip()}" if row.startswith("* ") else f"  {row}" for row in rows]


def _top(over: bool, sharing: int) -> str:
    """Who is ahead, said so that a tie reads as one: "Leading: Red, Black" at an even start read as two
    leaders of one contest, each ahead of the other."""
    if sharing > 1:
        return "Sharing the top" if over else "Level in the lead"
    return "Top" if over else "Leading"


def _title(player: object) -> str:
    return str(player).capitalize()


def _cite(game: Game, key: str) -> str:
    rules = game.score_rules.get(key)
    return f"  [{', '.join(rules)}]" if rules else ""


def part_points(part: Any) -> Any:
    """A score part's points: Through the Desert's parts are objects listing their items, Targi's bare numbers."""
    return part.get("points") if isinstance(part, Mapping) else part


def _details(part: Any) -> str:
    """The items a part counts (water tokens, each oasis, each area), as the protocol lists them."""
    if not isinstance(part, Mapping):
        return ""
    items = []
    for key, value in part.items():
        if key == "points" or value in ([], None):
            continue
        if isinstance(value, list) and all(isinstance(v, Mapping) for v in value):
            items.extend(_item(v) for v in value)
        else:
            items.append(f"{key} {_value(key, value)}")
    return f": {'; '.join(items)}" if items else ""


def _item(item: Mapping[str, Any]) -> str:
    """One counted item; a list of hexes by its size first ('5 hexes, caravan red, points 5')."""
    words = []
    for key, value in item.items():
        if value == []:
            continue
        if isinstance(value, list) and all(isinstance(v, list) for v in value):
            words.insert(0, f"{len(value)} {key}")
        else:
            words.append(f"{key.replace('_', ' ')} {_value(key, value)}")
    return ", ".join(words)


def _value(key: str, value: Any) -> str:
    """A hex as typed ('3,4'), any other list comma-separated."""
    if isinstance(value, list):
        if len(value) == 2 and all(isinstance(v, int) for v in value) and key not in ("tokens",):
            return ",".join(str(v) for v in value)
        return ", ".join(_title(v) if isinstance(v, str) else str(v) for v in value)
    return str(value)
