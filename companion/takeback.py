"""What an undo took back besides the step's first announcement: points, the end of the game, the turn.

An undo said only the undone step's first line ("Taken back: Black places a pink camel on (0,4).") while the
camel had also closed an oasis for 5 points, or ended the game: the score afterwards was right, but nobody at
the table was told to hand the points back or that play goes on. These sentences come from comparing the
position before the undo with the one after, through what every game already has (``Game.score``,
``Game.pending``), so no game has to word its own undo; each cites the clause of what it takes back.

The players also hold the real pieces: undoing a runner's landing on Scared! left its piece at the start and
its 2 Lives lost on the table while the app had them back. Each game lists its pieces and counts
(``Game.on_table``), and the two lists compared say what to put back, in the game's words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.game import Game, OnTable, Pending, State
from companion.scoresheet import part_points

Said = tuple[str, tuple[str, ...]]  # a sentence and the clauses it rests on


def undone(
    game: Game,
    before: State,
    after: State,
    step_rules: tuple[str, ...] = (),
    step_words: str = "",
    correction: bool = False,
) -> list[Said]:
    """The sentences an undo from ``before`` back to ``after`` adds: points, what to put back on the real table
    by hand, the end, whose turn it is again. ``step_rules`` and ``step_words``: the undone step's clauses,
    which a thing put back cites when its game names none, and its first line, which may name a piece already;
    ``correction``: the step was a roll or draw entered, withdrawn as misread (``OnTable.dealt``)."""
    was, now = game.pending(before), game.pending(after)
    said = _points(game, before, after)
    said += put_back(game, before, after, step_rules, step_words, correction)
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


MOST_SAID = 4  # sentences of things to put back an undo says one by one; more are summed up in the last


def put_back(
    game: Game,
    before: State,
    after: State,
    step_rules: tuple[str, ...] = (),
    step_words: str = "",
    correction: bool = False,
) -> list[Said]:
    """What the players must put back by hand, from the game's ``on_table`` of both positions, in its words.

    Pieces first, in the game's order, one sentence for each kind ("Put Red's pawn back on Twin Dunes (11).",
    "Take back Black's tribe marker on centre 1-2 and on centre 2-2."), then each owner's counts
    in one sentence ("Set Red's Lives back to 5 and Desert Flask to 1."). Read aloud, a long list is lost on a
    table: past ``MOST_SAID`` sentences the rest are summed up ("Put the rest back as the board shows.").
    A piece the step's own line names with its place is not said again: "Taken back: Red 2 moves 3 from [12,5]
    to [13,7]." already says where Red 2 goes back to, and "Taken back: Black places a Targi on card 9." what
    to take back.
    """
    was, now = game.on_table(before), game.on_table(after)
    pieces: dict[tuple[str, str], tuple[list[str], list[str]]] = {}  # (verb, piece) -> places, clauses
    counts: dict[str, list[tuple[OnTable, int]]] = {}
    for key in [*now, *(k for k in was if k not in now)]:
        old, new = was.get(key), now.get(key)
        thing = new or old
        assert thing is not None
        if correction and thing.dealt:
            continue
        cited = tuple(dict.fromkeys((*(old.rules if old else ()), *(new.rules if new else ())))) or step_rules
        if isinstance(thing.at, int):
            count = new.at if new is not None else 0
            if count != (old.at if old is not None else 0):
                counts.setdefault(thing.owner, []).append((thing, int(count)))
        elif new is None:
            if not _named(thing, str(thing.at), step_words):
                places, clauses = pieces.setdefault(("Take back", _owned(thing)), ([], []))
                places.append(str(thing.at))
                clauses.extend(cited)
        elif old is None or old.at != new.at:
            where = _where(str(new.at), old)
            if not _named(new, where, step_words):
                places, clauses = pieces.setdefault(("Put", _owned(new)), ([], []))
                places.append(where)
                clauses.extend(cited)
    said = [(_piece_sentence(verb, piece, places), tuple(dict.fromkeys(clauses)))
            for (verb, piece), (places, clauses) in pieces.items()]
    said += [_counts_sentence(owner, changed, step_rules) for owner, changed in counts.items()]
    if len(said) <= MOST_SAID:
        return said
    rest = said[MOST_SAID - 1:]
    clauses = tuple(dict.fromkeys(r for _, cited in rest for r in cited))
    return [*said[: MOST_SAID - 1], ("Put the rest back as the board shows.", clauses)]


def _piece_sentence(verb: str, piece: str, places: list[str]) -> str:
    """One sentence for one kind of piece, however many of them: "Take back Black's tribe marker on centre 1-2
    and on centre 2-2." Said one by one, the voice read the same seven words twice over."""
    places = list(dict.fromkeys(places))
    if len(places) > MOST_SAID:
        where = "as the board shows"
    else:
        where = places[0] if len(places) == 1 else ", ".join(places[:-1]) + f" and {places[-1]}"
    return f"Take back {piece} {where}." if verb == "Take back" else f"Put {piece} back {where}."


def _named(thing: OnTable, where: str, words: str) -> bool:
    """Whether the step's line names this piece, its owner and its place ("Red 2 ... from [12,5] (slot 4 r2c2)")."""
    place = where.partition(" ")[2]
    owner = _name(thing.owner) if thing.owner else ""
    return bool(words and place) and all(part in words for part in (place, thing.name, owner))


def _owned(thing: OnTable) -> str:
    """"Red's runner", "Red 2" (a piece whose name says its owner), "the robber"."""
    if not thing.owner or thing.name.lower().startswith(thing.owner.lower()):
        return thing.name
    return f"{_name(thing.owner)}'s {thing.name}"


def _where(now: str, old: OnTable | None) -> str:
    """Where a piece goes back, saying what it no longer is: undoing a freeze put "Red 2 back on d6 (ring 4)",
    where it already stood, frozen, so "not frozen" is said when only that part of the place differs."""
    was = str(old.at) if old is not None else ""
    if was.startswith(now + ", "):
        return f"{now}, not {was[len(now) + 2:]}"
    return now


def _counts_sentence(owner: str, changed: list[tuple[OnTable, int]], step_rules: tuple[str, ...]) -> Said:
    first, *others = changed
    parts = [f"{_owned(first[0])} back to {first[1]}", *(f"{t.name} to {n}" for t, n in others)]
    words = parts[0] if not others else ", ".join(parts[:-1]) + f" and {parts[-1]}"
    clauses = tuple(dict.fromkeys(r for t, _ in changed for r in (t.rules or step_rules)))
    return f"Set {words}.", clauses


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
