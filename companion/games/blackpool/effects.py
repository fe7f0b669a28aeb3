"""Charm and curse effects: who or what a card may target, and what it does.

Targets are chosen by the player who plays the card (BP-Q23); a card with
nothing to work on is used up and does nothing (clarification 8).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from typing import Any

from companion.games.blackpool.board import CAMP, CENTRE, WATER, Board
from companion.games.blackpool.moves import Work, execute, followers, landing_problem
from companion.games.blackpool.state import State, Traveller, traveller_name

# The clause each effect rests on, for events and refusals.
EFFECT_RULE = {
    "gust": "BP-Q24",
    "awaken": "BP-Q27",
    "step_out": "BP-Q25",
    "step_in": "BP-Q25",
    "freeze": "BP-Q26",
    "reset": "BP-Q28",
}


def opponents(state: State) -> list[str]:
    return [p for p in state.players if p != state.turn and p not in state.finished]


def on_board(t: Traveller) -> bool:
    return t.at not in (CENTRE, CAMP)


def gust_movers(board: Board, state: State) -> list[str]:
    """Own travellers in the water that are not frozen; the centre, edge and camp do not count."""
    return [t.id for t in state.own(state.turn) if on_board(t) and not t.frozen and board.zone(t.at) in WATER]


def gust_orders(board: Board, state: State) -> list[tuple[str, ...]]:
    return list(permutations(gust_movers(board, state)))


def awaken_targets(state: State) -> list[str]:
    pool = state.travellers if state.opts["awaken.anyFrozen"] else state.own(state.turn)
    return [t.id for t in pool if t.frozen]


def freeze_targets(state: State) -> list[str]:
    rivals = set(opponents(state))
    return [t.id for t in state.travellers if t.colour in rivals and on_board(t) and not t.frozen]


def step_squares(board: Board, state: State, tid: str, outward: bool) -> list[str]:
    """Legal diagonal destinations for a traveller: on its own path (or the centre), landing allowed."""
    t = state.by_id[tid]
    if t.frozen or not on_board(t):
        return []
    table = board.diagonal_out if outward else board.diagonal_in
    work = Work(state)
    found: list[str] = []
    for square in table.get(t.at, ()):
        dest = CENTRE if square == board.centre_square else square
        if dest != CENTRE and (board.zone(dest) == "camp" or not board.on_path(t.colour, dest)):
            continue
        if landing_problem(board, work, tid, dest, (), state.opts) is None:
            found.append(dest)
    return found


def step_targets(board: Board, state: State, outward: bool) -> list[tuple[str, str]]:
    if outward:
        pool = state.own(state.turn)
    else:
        rivals = set(opponents(state))
        pool = [t for t in state.travellers if t.colour in rivals]
    return [(t.id, sq) for t in pool for sq in step_squares(board, state, t.id, outward)]


def has_targets(board: Board, state: State, effect: str) -> bool:
    if effect == "gust":
        return bool(gust_movers(board, state))
    if effect == "awaken":
        return bool(awaken_targets(state))
    if effect == "freeze":
        return bool(freeze_targets(state))
    if effect == "reset":
        return bool(reset_targets(board, state))
    return bool(step_targets(board, state, effect == "step_out"))


def resolve_gust(
    board: Board, state: State, order: tuple[str, ...], distance: int
) -> tuple[tuple[Traveller, ...], list[str], list[str]]:
    """Move each named traveller ``distance`` forward in the chosen order; blocked ones stay (BP-Q24).

    With the clause of each sentence past the blowing itself (`execute`'s, and a blocked landing's): "Red 1
    stays on ...: a rider is never carried onto the edge." was announced citing only BP-C9 and BP-Q24, and the
    table asking why the rider was left behind found no BP-Q16.
    """
    work = Work(state)
    notes: list[str] = []
    cited: list[str] = []
    for tid in order:
        t = work.t[tid]
        dest = board.step(t.colour, t.at, distance)
        carried = followers(board, work, tid, dest)
        problem = landing_problem(board, work, tid, dest, carried, state.opts)
        if problem:
            notes.append(f"{problem[0]} It stays where it is.")
            cited.append(problem[1])
            continue
        before = board.label(t.at)
        extra = execute(board, work, tid, dest, True, state.opts, cited)
        notes.append(f"{traveller_name(tid)} is blown {distance} forward from {before} to {board.label(dest)}.")
        notes.extend(extra)
    return work.travellers(), notes, cited


def resolve_step(board: Board, state: State, tid: str, dest: str) -> tuple[tuple[Traveller, ...], list[str]]:
    work = Work(state)
    before = board.label(work.t[tid].at)
    extra = execute(board, work, tid, dest, False, state.opts)
    return work.travellers(), [f"{traveller_name(tid)} steps diagonally from {before} to {board.label(dest)}.", *extra]


def resolve_reset(board: Board, state: State, colour: str) -> tuple[tuple[Traveller, ...], list[str]]:
    """Send a player's travellers back to their starting circles (project decision 4, BP-Q28)."""
    work = Work(state)
    notes: list[str] = []
    moves_frozen = state.opts["freeze.resetMoves"]
    for t in state.own(colour):
        current = work.t[t.id]
        if current.at == CAMP:
            continue
        if current.frozen and not moves_frozen:
            notes.append(f"{traveller_name(t.id)} is frozen and stays where it is.")
            continue
        circle = board.start_circles[colour][t.number - 1]
        dest = CENTRE if circle in (CENTRE, board.centre_square) else circle
        if current.at == dest:
            if current.frozen:
                work.set(t.id, frozen=False)
            continue
        if dest != CENTRE and landing_problem(board, work, t.id, dest, (), state.opts):
            dest = CENTRE
        extra = execute(board, work, t.id, dest, False, state.opts)
        if current.frozen:
            work.set(t.id, frozen=False)
        notes.append(
            f"{traveller_name(t.id)} goes back from {board.label(current.at)} "
            f"to its starting circle in {board.label(dest)}."
        )
        notes.extend(extra)
    if not notes:
        notes.append(f"{colour.capitalize()} has nothing to send back.")
    return work.travellers(), notes


def reset_targets(board: Board, state: State) -> list[str]:
    """Opponents whose travellers Reset would change (moved back, or thawed with freeze.resetMoves).

    Used to tell whether the card has anything to work on at all: when no opponent has, it is used up
    at once (BP-C8) instead of asking for an opponent only to report that nothing moved. Resolving the
    card and comparing keeps this in step with ``resolve_reset`` (camp, frozen and already-home
    travellers, blocked circles) without restating its rules.
    """
    return [c for c in opponents(state) if resolve_reset(board, state, c)[0] != state.travellers]


def _thaw_check(state: State, catalogue: Any, spenders: set[str]) -> Callable[[str], bool]:
    """Whether a player's frozen travellers can still be thawed: a card left, and a coin one of the
    ``spenders`` can still put down to draw it."""
    cards_left = {effect: 0 for effect in EFFECT_RULE}
    for cid, n in state.decks:
        cards_left[catalogue[cid].effect] += n
    with_coins = {p for p in spenders if state.coins_of(p) > 0}
    any_awakens = state.opts["awaken.anyFrozen"]
    resets_thaw = state.opts["freeze.resetMoves"]

    def can_thaw(p: str) -> bool:
        awakener = p in with_coins or (any_awakens and bool(with_coins))
        resetter = resets_thaw and bool(with_coins - {p})
        return (cards_left["awaken"] > 0 and awakener) or (cards_left["reset"] > 0 and resetter)

    return can_thaw


def _shut_exits(
    board: Board, state: State, catalogue: Any, can_thaw: Callable[[str], bool], spenders: set[str]
) -> dict[str, str]:
    """Racing players with a traveller in the centre whose exit square is shut for good (see ``blocked_exits``)."""
    resets_left = any(n > 0 and catalogue[cid].effect == "reset" for cid, n in state.decks)
    exit_roll = board.exit_roll(bool(state.opts["variant.glossaryDraft"]))
    found: dict[str, str] = {}
    for p in state.players:
        if p in state.finished or not any(t.at == CENTRE for t in state.own(p)):
            continue
        circles_out = any(c not in (CENTRE, board.centre_square) for c in board.start_circles[p])
        if circles_out and resets_left and any(state.coins_of(q) > 0 for q in spenders - {p}):
            continue
        square = board.step(p, CENTRE, exit_roll)
        stuck = [t for t in state.travellers if t.at == square and t.frozen and not can_thaw(t.colour)]
        if len(stuck) >= 2 or any(t.colour == p for t in stuck):
            found[p] = square
    return found


def _for_good(board: Board, state: State, catalogue: Any) -> tuple[Callable[[str], bool], dict[str, str]]:
    """Who can still thaw, and whose centre exit is shut, once the coins that can never be spent are set aside.

    Without ``six.noMoveCoinAllowed`` a coin is spent only on a six that also gives a move (BP-Q18), so a
    player all of whose travellers left are frozen for good or shut in the centre never spends one: with
    that coin counted, a Reset only it could draw kept a two-player game going for ever.
    """
    spenders = {p for p in state.players if p not in state.finished}
    while True:
        can_thaw = _thaw_check(state, catalogue, spenders)
        shut = _shut_exits(board, state, catalogue, can_thaw, spenders)
        if state.opts["six.noMoveCoinAllowed"]:
            return can_thaw, shut
        idle = {
            p
            for p in spenders
            if all(
                t.at == CAMP or (t.frozen and not can_thaw(p)) or (t.at == CENTRE and p in shut) for t in state.own(p)
            )
        }
        if not idle:
            return can_thaw, shut
        spenders -= idle


def blocked_exits(board: Board, state: State, catalogue: Any) -> dict[str, str]:
    """Racing players with a traveller in the centre whose way out is shut for good, with the square.

    Only the exit roll brings a traveller out, onto one square of its path (BP-Q20), and it cannot land
    where two travellers stand, or on its own colour (BP-7). Frozen travellers there that no card left can
    thaw never move (BP-Q26), so the traveller in the centre never leaves. A rival's Reset brings a
    traveller out only to a starting circle off the centre, which a café board may have: then the way is
    not shut.
    """
    return _for_good(board, state, catalogue)[1]


def stranded(board: Board, state: State, catalogue: Any) -> list[str]:
    """Players still racing who can never finish: a traveller of theirs is frozen and no card left can thaw
    it, or one waits in the centre behind an exit blocked for good (``blocked_exits``).

    A frozen traveller moves only when awakened (BP-Q26), or, with
    ``freeze.resetMoves``, when a rival's Reset thaws it (BP-Q28); cards are
    played once each (BP-Q21) and only with a coin, which nobody earns back.
    The house decks hold one Freeze and one Awaken, so at most one player is
    ever frozen for good, but a café deck with two Freezes stranded every player in
    some games, and the table rolled the oracle for ever.
    """
    racing = [p for p in state.players if p not in state.finished]
    if not any(t.frozen for t in state.travellers):  # the common case, asked after every step
        return []
    can_thaw, shut = _for_good(board, state, catalogue)
    return [p for p in racing if p in shut or (any(t.frozen for t in state.own(p)) and not can_thaw(p))]


def set_frozen(state: State, tid: str, frozen: bool) -> tuple[Traveller, ...]:
    return tuple(
        t if t.id != tid else Traveller(t.id, t.colour, t.number, t.at, t.on, frozen) for t in state.travellers
    )


def describe_targets(effect: str) -> dict[str, Any]:
    return {"effect": effect, "rule": EFFECT_RULE[effect]}
