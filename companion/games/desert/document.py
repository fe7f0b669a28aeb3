"""The position document: readable JSON in, every problem named on the way back.

Spaces are named by id and piles by card id so a person can write a position
by hand (a table starting mid-game, or correcting a misread). A pile may be
left out: it is then whatever the box holds that is neither in a hand nor on
the discard.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.errors import BadRequest, InvalidPosition, quoted
from companion.game import not_playing_words, players_listed
from companion.games.desert.board import (
    CLOAK,
    COLLECTION_CARDS,
    COMPASS,
    DECKS,
    MYSTERY_CARDS,
    SNEAKERS,
    SUNSHIELD,
    Board,
)
from companion.games.desert.options import Options, option_problems
from companion.games.desert.state import (
    CLOAK_STEP,
    DRAW,
    DUNE,
    END,
    OFFER,
    OPTIONAL_MODES,
    OVER,
    ROLL,
    ROLLOFF,
    SAVE,
    SHIELD,
    SNEAKERS_STEP,
    STEAL,
    STEP_FIELDS,
    STEP_KINDS,
    STEP_MODES,
    VORTEX_STEP,
    Piece,
    State,
    Step,
)
from companion.journalled_start import refuse_position
from companion.schema import field_slip, is_known, look_up, no_such, whole_hint

if TYPE_CHECKING:
    from companion.games.desert.rules import DesertRace

STEP_DEFAULTS = Step("")
STEP_FIELD_NAMES = ("mode", "value", "shield", "contenders", "rolls", "victim", "actor", "trading")
# The clauses each step kind comes from, cited when a step carries a field its kind never has.
STEP_RULES = {
    ROLLOFF: "DR-Q24, DR-Q14, DR-Q13", ROLL: "DR-4, DR-13", OFFER: "DR-13, DR-Q4", SNEAKERS_STEP: "DR-20",
    SHIELD: "DR-19", CLOAK_STEP: "DR-21", DRAW: "DR-8, DR-9", DUNE: "DR-25", STEAL: "DR-23", SAVE: "DR-23",
    VORTEX_STEP: "DR-26", END: "DR-3, DR-11", OVER: "DR-28",
}
MAX_SKIP = 20


def _counts(ids: tuple[str, ...], values: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(ids, values, strict=True))


def step_document(step: Step) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": step.kind}
    for name in STEP_FIELD_NAMES:
        value = getattr(step, name)
        if value != getattr(STEP_DEFAULTS, name):
            out[name] = list(value) if isinstance(value, tuple) else value
    return out


def to_document(board: Board, state: State) -> dict[str, Any]:
    return {
        "game": "desert",
        "players": list(state.players),
        "options": state.options.to_dict(),
        "round": state.round,
        "first": state.players[state.first] if state.first >= 0 else None,
        "turn": state.players[state.current] if state.current >= 0 else None,
        "pieces": {
            player: {
                "space": board.spaces[p.space].id,
                "lives": p.lives,
                "items": list(p.items),
                "lap": p.lap,
                "skip": p.skip,
                "out": p.out,
                "failures": p.failures,
            }
            for player, p in zip(state.players, state.pieces, strict=True)
        },
        "collection": {"pile": _counts(COLLECTION_CARDS, state.collection),
                       "discard": _counts(COLLECTION_CARDS, state.collection_discard)},
        "mystery": {"pile": _counts(MYSTERY_CARDS, state.mystery),
                    "discard": _counts(MYSTERY_CARDS, state.mystery_discard)},
        "tried": state.tried,
        "partners": list(state.partners),
        "step": step_document(state.step),
        "winner": state.winner,
    }


def _int(value: Any, where: str, low: int, high: int, problems: list[str]) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(f"{where}: expected a whole number, found {quoted(value)}{whole_hint(value)}")
        return low
    if not low <= value <= high:
        problems.append(f"{where}: {value} is outside {low}..{high}")
    return value


def _bool(value: Any, where: str, problems: list[str]) -> bool:
    if not isinstance(value, bool):
        problems.append(f"{where}: expected true or false, found {quoted(value)}")
        return False
    return value


def _player(value: Any, where: str, players: tuple[str, ...], problems: list[str], allow_none: bool = True) -> int:
    if value is None and allow_none:
        return -1
    if not is_known(value, players):
        problems.append(f"{where}: {not_playing_words(value, players)}")
        return -1
    return players.index(value)


def _players(raw: Any, where: str, players: tuple[str, ...], problems: list[str]) -> list[str]:
    """A list of players (a roll-off's contenders, this window's trade partners): each one named, once.

    "must list players" named neither the entry at fault nor who plays; a name twice was let through.
    """
    if not isinstance(raw, list):
        problems.append(f"{where}: expected a list of players ({', '.join(players)}), found {quoted(raw)}")
        return []
    out = players_listed(raw, players, where, problems)
    return out if len(out) == len(raw) else []


def _pieces(board: Board, raw: Any, players: tuple[str, ...], problems: list[str]) -> tuple[Piece, ...]:
    if not isinstance(raw, Mapping):
        problems.append("pieces: expected an object keyed by player")
        return tuple(Piece() for _ in players)
    for extra in sorted(set(raw) - set(players)):
        problems.append(f"pieces: {not_playing_words(extra, players)}")
    pieces = []
    for player in players:
        entry = raw.get(player)
        where = f"pieces.{player}"
        if not isinstance(entry, Mapping):
            problems.append(f"{where}: missing (give at least its space and lives)")
            pieces.append(Piece())
            continue
        for key in set(entry) - {"space", "lives", "items", "lap", "skip", "out", "failures"}:
            problems.append(f"{where}: unknown field {quoted(key)}")
        space = entry.get("space")
        if not is_known(space, board.by_id):
            problems.append(f"{where}.space: {no_such('space', space, board.by_id)} (spaces are named by id, "
                            "as in board.json)")
        lives = _int(entry.get("lives"), f"{where}.lives", 0, 10, problems)
        items = entry.get("items", [])
        if not isinstance(items, list) or any(c not in COLLECTION_CARDS for c in items):
            problems.append(f"{where}.items: must list Collection cards ({', '.join(COLLECTION_CARDS)})")
            items = []
        pieces.append(Piece(
            space=look_up(board.by_id, space, 0),
            lives=lives,
            items=tuple(sorted(items)),
            lap=_bool(entry.get("lap", False), f"{where}.lap", problems),
            skip=_int(entry.get("skip", 0), f"{where}.skip", 0, MAX_SKIP, problems),
            out=_bool(entry.get("out", False), f"{where}.out", problems),
            failures=_int(entry.get("failures", 0), f"{where}.failures", 0, 99, problems),
        ))
    return tuple(pieces)


def _pile(raw: Any, ids: tuple[str, ...], where: str, problems: list[str]) -> tuple[int, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        problems.append(f"{where}: expected an object of card counts")
        return None
    for extra in set(raw) - set(ids):
        problems.append(f"{where}: {quoted(extra)} is not a card of this deck")
    return tuple(_int(raw.get(c, 0), f"{where}.{c}", 0, 99, problems) for c in ids)


def _step(raw: Any, players: tuple[str, ...], problems: list[str]) -> Step:
    if not isinstance(raw, Mapping) or raw.get("kind") not in STEP_KINDS:
        problems.append(f"step: needs a 'kind', one of {', '.join(STEP_KINDS)}")
        return Step(OVER)
    for key in set(raw) - {"kind", *STEP_FIELD_NAMES}:
        problems.append(f"step: unknown field {quoted(key)}")
    kind = raw["kind"]
    mode = raw.get("mode", "")
    if kind in STEP_MODES and mode not in STEP_MODES[kind]:
        problems.append(f"step.mode: a {kind} step needs a mode, one of {', '.join(STEP_MODES[kind])}")
    elif kind in OPTIONAL_MODES and mode not in OPTIONAL_MODES[kind]:
        modes = " or ".join(quoted(m) for m in OPTIONAL_MODES[kind])
        problems.append(f"step.mode: a {kind} step's mode is {modes}, found {quoted(mode)} ({STEP_RULES[kind]})")
    # Play never leaves a field its kind does not read: an end step with an attempt's mode was offered the
    # Sunshield refusals of one facing a challenge, a roll-off's rolls on another step were read by nobody.
    for name in STEP_FIELD_NAMES:
        if name in raw and name not in STEP_FIELDS[kind] and raw[name] not in (getattr(STEP_DEFAULTS, name), []):
            problems.append(f"step.{name}: {'an' if kind[0] in 'aeiou' else 'a'} {kind} step has no {name}, "
                            f"found {quoted(raw[name])} "
                            f"({STEP_RULES[kind]})")
    contenders = _players(raw.get("contenders", []), "step.contenders", players, problems)
    rolls = raw.get("rolls", [])
    if not isinstance(rolls, list):
        problems.append("step.rolls: must be a list of die values")
        rolls = []
    rolls = [_int(r, f"step.rolls[{i}]", 1, 6, problems) for i, r in enumerate(rolls)]
    names = {}
    for key in ("victim", "actor"):
        value = raw.get(key, "")
        if value != "" and not is_known(value, players):
            problems.append(f"step.{key}: {not_playing_words(value, players)}")
            value = ""
        names[key] = value
    return Step(
        kind=kind,
        mode=mode if isinstance(mode, str) else "",
        value=_int(raw.get("value", 0), "step.value", 0, 12, problems),
        shield=_bool(raw.get("shield", False), "step.shield", problems),
        contenders=tuple(contenders),
        rolls=tuple(rolls),
        victim=names["victim"],
        actor=names["actor"],
        trading=_bool(raw.get("trading", False), "step.trading", problems),
    )


def from_document(game: DesertRace, doc: Any) -> State:
    board = game.board
    if not isinstance(doc, Mapping):
        raise InvalidPosition(["the position must be a JSON object"])
    problems: list[str] = []
    if doc.get("game") != "desert":
        problems.append(f"game: expected 'desert', found {quoted(doc.get('game'))}")
    known = {"game", "players", "options", "profile", "round", "first", "turn", "pieces", "collection", "mystery",
             "tried", "partners", "step", "winner"}
    problems.extend(f"unknown field {quoted(k)}{field_slip(k, known)}" for k in doc if k not in known)
    try:  # worded as the other games and a new game word it ("a colour appears twice" named neither the colour)
        players = tuple(game.check_players(doc.get("players")))
    except BadRequest as exc:
        raise InvalidPosition([*problems, f"players: {exc.message}"]) from None
    raw_options = doc.get("options", {})
    option_faults = option_problems(raw_options)
    problems.extend(option_faults)
    options = Options() if option_faults else Options.from_mapping(raw_options)
    pieces = _pieces(board, doc.get("pieces"), players, problems)
    piles: dict[str, tuple[int, ...]] = {}
    for deck, ids in DECKS.items():
        raw = doc.get(deck, {})
        if not isinstance(raw, Mapping):
            problems.append(f"{deck}: expected an object with 'pile' and 'discard'")
            raw = {}
        discard = _pile(raw.get("discard", {}), ids, f"{deck}.discard", problems) or (0,) * len(ids)
        pile = _pile(raw.get("pile"), ids, f"{deck}.pile", problems)
        if pile is None:
            held = [sum(p.items.count(c) for p in pieces) if deck == "collection" else 0 for c in ids]
            pile = tuple(max(0, t - h - d) for t, h, d in zip(board.counts[deck], held, discard, strict=True))
        piles[deck] = pile
        piles[f"{deck}_discard"] = discard
    partners = _players(doc.get("partners", []), "partners", players, problems)
    winner = doc.get("winner")
    if winner is not None and not is_known(winner, players):
        problems.append(f"winner: {not_playing_words(winner, players)}")
        winner = None
    state = State(
        players=players,
        options=options,
        pieces=pieces,
        step=_step(doc.get("step"), players, problems),
        current=_player(doc.get("turn"), "turn", players, problems),
        first=_player(doc.get("first"), "first", players, problems),
        round=_int(doc.get("round", 0), "round", 0, 100000, problems),
        collection=piles["collection"],
        collection_discard=piles["collection_discard"],
        mystery=piles["mystery"],
        mystery_discard=piles["mystery_discard"],
        tried=_int(doc.get("tried", 0), "tried", 0, 99, problems),
        partners=tuple(partners),
        winner=winner,
    )
    if not problems:
        problems.extend(state_problems(board, state))
    if problems:
        refuse_position(problems)  # noted instead while a journalled start is read back
    return state


def state_problems(board: Board, state: State) -> list[str]:
    """Every way the position breaks the rules; used by the loader and as simulation invariants."""
    problems: list[str] = []
    for player, p in zip(state.players, state.pieces, strict=True):
        where = f"pieces.{player}"
        if not 0 <= p.lives <= 10:
            problems.append(f"{where}.lives: {p.lives} is outside 0..10")
        if p.out and (p.lives != 0 or p.items):
            problems.append(f"{where}: a player out for the round has 0 Lives and no items")
        if not p.out and p.lives == 0:
            problems.append(f"{where}: 0 Lives means out for the round (set out: true)")
        if p.failures and board.spaces[p.space].challenge is None:
            problems.append(f"{where}.failures: failed attempts are counted only on a challenge space")
    for deck, ids in DECKS.items():
        pile = getattr(state, deck)
        discard = getattr(state, f"{deck}_discard")
        for i, card in enumerate(ids):
            held = sum(p.items.count(card) for p in state.pieces) if deck == "collection" else 0
            total = board.counts[deck][i]
            if min(pile[i], discard[i]) < 0 or pile[i] + discard[i] + held != total:
                problems.append(f"{deck}: {card} counts (pile {pile[i]}, discard {discard[i]}, held {held}) do not "
                                f"add up to the {total} in the deck")
        if state.options.collection_return_to == "bottom" and deck == "collection" and any(discard):
            problems.append("collection.discard: returned cards go under the pile in this profile, not to a discard")
    n = len(state.players)
    step = state.step
    if step.kind == ROLLOFF and step.mode == "order":
        if state.current != -1 or state.first != -1:
            problems.append("turn/first: they are set only after the order roll-off")
    else:
        if not 0 <= state.current < n:
            problems.append("turn: whose turn it is must be given once the order is known")
            return problems
        if not 0 <= state.first < n:
            problems.append("first: the first player must be given once the order is known")
    problems.extend(_step_problems(board, state))
    if step.kind == OVER and state.winner is not None:
        p = state.piece(state.winner)
        if board.spaces[p.space].type != "secret_passage" or not p.lap or not p.holds(COMPASS):
            problems.append("winner: the winner must be on the Secret Passage with a lap and the Golden Compass")
    if step.kind != OVER and state.winner is not None:
        problems.append("winner: set only when the game is over")
    return problems


def _step_problems(board: Board, state: State) -> list[str]:
    step = state.step
    kind = step.kind
    problems: list[str] = []
    if kind == OVER or (kind == ROLLOFF and step.mode == "order"):
        if kind == ROLLOFF and (not step.contenders or len(step.rolls) >= len(step.contenders)):
            problems.append("step: a roll-off needs contenders still to roll")
        return problems
    mover = state.mover
    me = state.piece(mover)
    space = board.spaces[me.space]
    if me.out:
        problems.append(f"turn: {mover} is out for this round and cannot be the one playing")
    if kind == ROLLOFF:
        if len(step.contenders) < 2 or len(step.rolls) >= len(step.contenders):
            problems.append("step: a roll-off needs two or more contenders and someone still to roll")
        if step.victim != mover:
            problems.append("step.victim: the card's drawer is the player whose turn it is")
    if kind == ROLL:
        on_challenge = space.challenge is not None
        free = on_challenge and space.challenge.limit is not None and me.failures >= space.challenge.limit
        if step.mode == "attempt" and not on_challenge:
            problems.append("step: an attempt roll needs the piece on a challenge space")
        if step.mode == "move" and on_challenge and not free:
            problems.append("step: a piece on a challenge space rolls to attempt it until its attempts run out")
        if step.shield and step.mode != "attempt":
            problems.append("step.shield: a Sunshield Amulet applies only to an attempt")
        limit = state.options.attempts_per_turn
        if step.mode == "attempt" and state.tried >= limit:
            # Loaded so, the roll was taken as one more attempt than the turn allows.
            problems.append(f"tried: {state.tried} attempts made this turn leave no attempt roll to wait for "
                            f"(attempts_per_turn {limit}, DR-Q5)")
    if kind == OFFER and state.tried:
        # Landing on a challenge starts its count afresh before the offer (DR-Q4): loaded with attempts counted,
        # the attempt taken was refused a retry the turn still had.
        problems.append(f"tried: {state.tried}, but an offer to attempt comes on landing, before any attempt at "
                        "this challenge: it must be 0 (DR-13, DR-Q4)")
    if (kind == SHIELD or (kind == SNEAKERS_STEP and step.mode == "test")) and not state.tried:
        # The roll being decided on was an attempt, counted as it was rolled: with none counted, a failure
        # here was followed by an attempt more than the turn allows.
        problems.append(f"tried: 0, but {'an' if kind[0] in 'aeiou' else 'a'} {kind} step decides an attempt "
                        "rolled this turn, so at least 1 (DR-Q5)")
    if state.tried > state.options.attempts_per_turn:
        problems.append(f"tried: {state.tried} attempts made this turn, but a turn has at most "
                        f"{state.options.attempts_per_turn} (attempts_per_turn, DR-Q5)")
    if kind in (OFFER, SHIELD) and space.challenge is None:
        problems.append(f"step: a {kind} step needs the piece on a challenge space")
    if kind in (SNEAKERS_STEP, SHIELD) and not 1 <= step.value <= 12:
        problems.append("step.value: the roll waiting for a decision must be given")
    needs = {SNEAKERS_STEP: SNEAKERS, SHIELD: SUNSHIELD, CLOAK_STEP: CLOAK}
    if kind in needs and not me.holds(needs[kind]):
        problems.append(f"step: a {kind} step needs {mover} to hold a {needs[kind]}")
    if kind == CLOAK_STEP and space.type != "scared":
        problems.append("step: the Mirage Cloak is offered only on a Scared! space")
    if kind == DRAW and step.mode in DECKS and sum(getattr(state, step.mode)) == 0:
        problems.append(f"step: the {step.mode} pile is empty, there is nothing to draw")
    bad_parties = step.victim != mover or step.actor == "" or (kind != VORTEX_STEP and step.actor == step.victim)
    if kind in (STEAL, SAVE, VORTEX_STEP) and bad_parties:
        problems.append(f"step: a {kind} step needs the drawer as victim and the player acting on it as actor")
    if kind == STEAL and not me.items:
        problems.append("step: the Sand Thief needs a card to take")
    if kind == SAVE and not me.holds(COMPASS):
        problems.append("step: the save roll needs the Golden Compass in the drawer's hand")
    return problems
