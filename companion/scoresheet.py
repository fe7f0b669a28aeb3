"""How a score came about, in lines a table reads: the protocol's `score` breakdown, per player, with its clauses.

A dispute at the table is "how did she get 31?". The JSON referee answers with
``Game.score``; the terminal showed only totals. These lines are that same
breakdown, each part beside the clauses it rests on (``Game.score_rules``),
so the two front ends never count differently. A race keeps no score: its
players' lines of the board say where each stands, beside the clauses that
say who wins (``Game.win_rules``).

The player the table waits on is marked "* " in a margin of its own, the same in all five games (``TO_PLAY``):
the temple's board rows carried a "*", Blackpool's "(to play)", and the desert race's, Through the Desert's and
Targi's sheets nothing, so "whose turn is it?" had three answers or none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.game import Game, State

TO_PLAY = "* "  # the margin of the player the table waits on, in every game's sheet
LEGEND = "* marks the player to play"

def score_lines(game: Game, state: State, over: bool) -> list[str]:
    """The breakdown as lines: a heading, then each player's total and parts, or a race's standings."""
    scored = game.score(state)
    to_play = None if over else game.pending(state).player
    if scored is None:
        return _standings(game, state, over, to_play)
    players = scored.get("scores") if isinstance(scored.get("scores"), Mapping) else scored
    heading = "Final score" if over else "Score so far (provisional: the game is not over)"
    margin = _margin(to_play, [str(p) for p in players])
    lines = [f"{heading}{f'; {LEGEND}' if margin('') else ''}:"]
    for player, parts in players.items():
        if not isinstance(parts, Mapping):
            continue
        lines.append(f"{margin(player)}{_title(player)}: {parts.get('total')}{_cite(game, 'total')}")
        for key, part in parts.items():
            if key != "total":
                lines.append(
                    f"{margin('')}  {key.replace('_', ' ')} {part_points(part)}{_details(part)}{_cite(game, key)}")
    winners = scored.get("winners")
    if isinstance(winners, Sequence) and winners:
        lines.append(
            f"{margin('')}{_top(over, len(winners))}: {', '.join(_title(w) for w in winners)}{_cite(game, 'total')}")
    return lines


def _margin(to_play: str | None, players: Sequence[str]) -> Callable[[str], str]:
    """The margin of each line: "* " for the player to play, two spaces for the rest; none while nobody is to
    play (at the end, or while the table deals for no one), so a final score reads as it always has."""
    if to_play is None or str(to_play) not in players:
        return lambda player: ""
    return lambda player: TO_PLAY if player == str(to_play) else " " * len(TO_PLAY)


def score_clauses(game: Game) -> tuple[str, ...]:
    """Every clause the sheet cites, once each in the order of its parts: what a table disputing the end reads
    in full (the touchscreen's dispute screen opens them in the rulebook)."""
    cited = [rule for rules in game.score_rules.values() for rule in rules] if game.score_rules else []
    return tuple(dict.fromkeys([*cited, *game.win_rules]))


def _standings(game: Game, state: State, over: bool, to_play: str | None = None) -> list[str]:
    """A race's standings: the board's line for each player, as 'board' shows it, and the clauses that win it."""
    names = {str(player).lower() for player in getattr(state, "players", ())}
    mine = [_unmarked(line) for line in game.describe(state) if _unmarked(line).split(" ", 1)[0].rstrip(":").lower()
            in names]
    cited = f"  [{', '.join(game.win_rules)}]" if game.win_rules else ""
    margin = _margin(None if to_play is None else str(to_play).lower(), [row.split(" ", 1)[0].rstrip(":").lower()
                                                                         for row in mine])
    head = (f"{game.title} keeps no points: it is a race{', and it is over' if over else ''}. Where each player "
            f"stands{f' ({LEGEND})' if margin('') else ''}:")
    return [head + cited, *(f"  {margin(row.split(' ', 1)[0].rstrip(':').lower())}{row}" for row in mine)]


def _unmarked(line: str) -> str:
    """A board row without the mark its game's board puts on the player to play (the temple's "* ", Blackpool's
    "(to play)"): the sheet marks that player itself, the same in every game (``TO_PLAY``).

    Audit: the temple's rows ("* green  hand 3 ...", "  red    hand 3 ...") were stripped alike, so the row of
    the player to play stood two characters right of the others and its columns out of line with theirs.
    """
    row = line.strip()
    row = row[2:].lstrip() if row.startswith("* ") else row
    return row.replace(" (to play)", "").replace("(to play, ", "(")


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
