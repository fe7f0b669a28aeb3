"""What an undo took back besides the step's first announcement: points, the end of the game, the turn.

An undo said only the undone step's first line ("Taken back: Black places a pink camel on (0,4).") while the
camel had also closed an oasis for 5 points, or ended the game: the score afterwards was right, but nobody at
the table was told to hand the points back or that play goes on. These sentences come from comparing the
position before the undo with the one after, through what every game already has (``Game.score``,
``Game.pending``), so no game has to word its own undo; each cites the clause of what it takes back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.game import Game, Pending, State
from companion.scoresheet import part_points

Said = tuple[str, tuple[str, ...]]  # a sentence and the clauses it rests on


def undone(game: Game, before: State, after: State) -> list[Said]:
    """The sentences an undo from ``before`` back to ``after`` adds: points, the end, whose turn it is again."""
    was, now = game.pending(before), game.pending(after)
    said = _points(game, before, after)
    if was.is_over and not now.is_over:
        rule = game.over_rule(before)
        said.append((_end_words(was), (rule,) if rule else ()))
    elif was.player != now.player and now.player is not None:
        said.append((f"Back to {_name(now.player)}'s turn.", (game.turn_rule,) if game.turn_rule else ()))
    return said


def held(game: Game, state: State) -> dict[str, dict[str, int]]:
    """Each player's points in the score parts a player wins during play and keeps (``Game.held_points``)."""
    if not game.held_points:
        return {}
    scored = game.score(state)
    if not isinstance(scored, Mapping):
        return {}
    players = scored.get("scores") if isinstance(scored.get("scores"), Mapping) else scored
    out: dict[str, dict[str, int]] = {}
    for player, parts in players.items():
        if isinstance(parts, Mapping):
            out[str(player)] = {key: _whole(part_points(parts.get(key))) for key in game.held_points}
    return out


def _points(game: Game, before: State, after: State) -> list[Said]:
    """Who gives back points the undone step scored, and who gets back points it cost, part by part."""
    was, now = held(game, before), held(game, after)
    said: list[Said] = []
    for player, parts in was.items():
        for key, points in parts.items():
            change = points - now.get(player, {}).get(key, points)
            if change:
                verb = "gives back" if change > 0 else "gets back"
                count = abs(change)
                words = f"{_name(player)} {verb} {count} point{'s' if count != 1 else ''} ({key.replace('_', ' ')})."
                said.append((words, tuple(game.score_rules.get(key, ()))))
    return said


def _end_words(was: Pending) -> str:
    """The end taken back, with the win it gave: "Brown's win" is what a table would otherwise go on believing."""
    result: Mapping[str, Any] = was.result or {}
    winners = result.get("winners")
    if not isinstance(winners, Sequence) or isinstance(winners, str) or not winners:
        winner = result.get("winner")
        winners = [winner] if isinstance(winner, str) else []
    if len(winners) == 1:
        return f"The game's end is taken back, and {_name(winners[0])}'s win with it."
    if winners:
        names = [_name(w) for w in winners]
        return f"The game's end is taken back, and the win {', '.join(names[:-1])} and {names[-1]} shared with it."
    return "The game's end is taken back; play goes on."


def _whole(points: object) -> int:
    return points if isinstance(points, int) and not isinstance(points, bool) else 0


def _name(player: object) -> str:
    return str(player).capitalize()
