"""The position document: JSON a table can read, edit and load, and the checks that name every fault.

Parsing collects problems instead of stopping at the first, so a referee
correcting the app after a misread sees everything wrong at once (the way
python-chess ``Board.status()`` reports every fault of a position).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.errors import BadRequest, quoted
from companion.game import not_playing_words, players_listed
from companion.games.blackpool.board import CAMP, CENTRE, WATER
from companion.games.blackpool.cards import DECKS
from companion.games.blackpool.state import (
    PHASES,
    START_COINS,
    TRAVELLERS_PER_COLOUR,
    State,
    Traveller,
    traveller_id,
)
from companion.schema import is_known, meant_hint, whole_hint

if TYPE_CHECKING:
    from companion.games.blackpool.rules import Blackpool


# Refused since bbc8013; a game an older companion started on such a position is read by ``Blackpool.old_start``.
SIX_IN_MOVE = 'a roll of 6 is decided in phase "six" (move six, bring one out or spend a coin), not "move"'


def document_of(game: Blackpool, state: State) -> dict[str, Any]:
    decks: dict[str, dict[str, int]] = {d: {} for d in DECKS}
    for cid, n in state.decks:
        decks[game.catalogue[cid].deck][cid] = n
    return {
        "game": game.id,
        "players": list(state.players),
        "options": dict(state.options),
        "turn": state.turn,
        "phase": state.phase,
        "roll": state.roll,
        "sixChain": state.six_chain,
        "deck": state.deck,
        "card": state.card,
        "coins": {p: state.coins_of(p) for p in state.players},
        "travellers": {t.id: {"at": t.at, "on": t.on, "frozen": t.frozen} for t in state.travellers},
        "decks": decks,
        "finished": list(state.finished),
    }


def state_of(game: Blackpool, doc: Mapping[str, Any]) -> tuple[State | None, list[str]]:
    """Parse a document; return the state (None when too broken to build) and every problem found."""
    if not isinstance(doc, dict):
        return None, ["the position must be a JSON object"]
    problems: list[str] = []
    if doc.get("game") != game.id:
        problems.append(f'"game" must be {quoted(game.id)}, found {quoted(doc.get("game"))}')
    players = doc.get("players")
    if not isinstance(players, list) or not players:
        return None, [*problems, '"players" must be a non-empty list of colours']
    try:
        players = game.check_players(players)
    except BadRequest as exc:
        return None, [*problems, f"players: {exc.message}"]
    raw_options = doc.get("options", {})
    options: dict[str, Any] = {}
    if not isinstance(raw_options, dict):
        problems.append('"options" must be an object')
        options = game.resolve_options({})
    else:
        try:
            options = game.resolve_options(dict(raw_options))
        except BadRequest as exc:
            problems.append(f"options: {exc.message}")
            options = game.resolve_options({})

    turn = doc.get("turn")
    if not is_known(turn, players):
        problems.append(f"turn: {not_playing_words(turn, players)}")
        turn = players[0]
    phase = doc.get("phase", "roll")
    if phase not in PHASES:
        problems.append(f'"phase" must be one of {", ".join(PHASES)}, found {quoted(phase)}')
        phase = "roll"
    roll = doc.get("roll")
    if roll is not None and (isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6):
        problems.append(f'"roll" must be null or 1 to 6, found {quoted(roll)}{whole_hint(roll)}')
        roll = None
    six_chain = doc.get("sixChain", 0)
    if isinstance(six_chain, bool) or not isinstance(six_chain, int) or six_chain < 0:
        problems.append(
            f'"sixChain" must be a whole number 0 or more, found {quoted(six_chain)}{whole_hint(six_chain)}'
        )
        six_chain = 0
    deck = doc.get("deck")
    if deck is not None and deck not in DECKS:
        problems.append(f'"deck" must be null, "charm" or "curse", found {quoted(deck)}')
        deck = None
    card = doc.get("card")
    if card is not None and card not in game.catalogue:
        problems.append(f'"card" must be null or a card id ({", ".join(game.catalogue.order)}), found {quoted(card)}')
        card = None

    coins_doc = doc.get("coins", {})
    coins: list[int] = []
    if not isinstance(coins_doc, dict):
        problems.append('"coins" must be an object of colour -> coins')
        coins_doc = {}
    for p in players:
        value = coins_doc.get(p, START_COINS)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= START_COINS:
            problems.append(f"coins of {p} must be 0 to {START_COINS}, found {quoted(value)}{whole_hint(value)}")
            value = 0
        coins.append(value)
    for key in coins_doc:
        if key not in players:
            problems.append(f"coins: {not_playing_words(key, players)}")

    travellers = _travellers(game, doc.get("travellers"), players, problems)
    decks = _decks(game, doc.get("decks", {}), problems)

    finished_doc = doc.get("finished", [])
    finished: list[str] = []
    if not isinstance(finished_doc, list):
        problems.append('"finished" must be a list of colours')
    else:
        finished = players_listed(finished_doc, players, "finished", problems, "; each player finishes once")
    if travellers is None:
        return None, problems
    state = State(
        players=tuple(players),
        options=tuple(sorted(options.items())),
        turn=turn,
        phase=phase,
        travellers=travellers,
        coins=tuple(coins),
        decks=decks,
        roll=roll,
        six_chain=six_chain,
        deck=deck,
        card=card,
        finished=tuple(finished),
    )
    problems.extend(position_problems(game, state))
    return state, problems


_TRAVELLER_KEYS = frozenset({"at", "on", "frozen"})


def _travellers(game: Blackpool, raw: Any, players: list[str], problems: list[str]) -> tuple[Traveller, ...] | None:
    if not isinstance(raw, dict):
        problems.append('"travellers" must be an object of traveller id -> {"at", "on", "frozen"}')
        return None
    expected = [traveller_id(p, n) for p in players for n in range(1, TRAVELLERS_PER_COLOUR + 1)]
    if len(raw) != len(expected) or not raw.keys() <= set(expected):
        for tid in raw:
            if tid not in expected:
                problems.append(f"traveller {quoted(tid)} is not in this game (travellers: {', '.join(expected)})"
                                f"{_unknown_traveller_rule(str(tid), players, game.colours)}")
    out: list[Traveller] = []
    for tid in expected:
        colour, _, number = tid.partition("-")
        entry = raw.get(tid)
        if entry is None:
            problems.append(f"traveller {tid} is missing: each colour plays travellers 1 to {TRAVELLERS_PER_COLOUR} "
                            "(BP-Q32)")
            out.append(Traveller(tid, colour, int(number), CENTRE))
            continue
        if not isinstance(entry, dict):
            problems.append(f'traveller {tid} must be an object with "at"')
            out.append(Traveller(tid, colour, int(number), CENTRE))
            continue
        if not entry.keys() <= _TRAVELLER_KEYS:
            unknown = sorted(k for k in entry if k not in _TRAVELLER_KEYS)
            problems.append(f"traveller {tid} has unknown fields {', '.join(map(quoted, unknown))}")
        at = entry.get("at")
        if at == game.board.centre_square:
            at = CENTRE
        if at not in (CENTRE, CAMP) and not is_known(at, game.board.squares):
            hint = meant_hint(at, [*game.board.squares, CENTRE, CAMP])  # "C2" for "c2", as a referee types it
            problems.append(f'traveller {tid} is at {quoted(at)}, which is not a square, "centre" or "camp"{hint}')
            at = CENTRE
        on = entry.get("on")
        if on is not None and not isinstance(on, str):
            problems.append(f'traveller {tid}: "on" must be null or a traveller id')
            on = None
        frozen = entry.get("frozen", False)
        if not isinstance(frozen, bool):
            problems.append(f'traveller {tid}: "frozen" must be true or false')
            frozen = False
        out.append(Traveller(tid, colour, int(number), at, on, frozen))
    return tuple(out)


def _unknown_traveller_rule(tid: str, players: list[str], colours: tuple[str, ...]) -> str:
    """The clause a traveller the game has not breaks, as the problem cites it: a fourth of a colour playing (or a
    number past 1 to 3) BP-Q32, each colour's travellers numbered 1 to 3; one of a colour nobody plays BP-C11.
    A "yellow-4" was refused citing nothing, where every other refusal names its clause."""
    colour, _, _ = tid.partition("-")
    if colour in players:
        return f"; each colour plays travellers 1 to {TRAVELLERS_PER_COLOUR} (BP-Q32)"
    return f"; {colour} is not playing, and its travellers stay off the board (BP-C11)" if colour in colours else ""


def _decks(game: Blackpool, raw: Any, problems: list[str]) -> tuple[tuple[str, int], ...]:
    given: dict[str, int] = {}
    if not isinstance(raw, dict):
        problems.append('"decks" must be an object {"charm": {card: left}, "curse": {...}}')
        raw = {}
    for deck, cards in raw.items():
        if deck not in DECKS:
            problems.append(f"decks: unknown deck {quoted(deck)}")
            continue
        if not isinstance(cards, dict):
            problems.append(f"decks.{deck} must be an object of card id -> cards left")
            continue
        for cid, n in cards.items():
            if cid not in game.catalogue:
                problems.append(f"decks.{deck}: unknown card {quoted(cid)}")
                continue
            card = game.catalogue[cid]
            if card.deck != deck:
                problems.append(f"decks.{deck}: {cid} belongs to the {card.deck} deck")
                continue
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= card.count:
                problems.append(f"decks.{deck}.{cid} must be 0 to {card.count}, found {quoted(n)}{whole_hint(n)}")
                continue
            given[cid] = n
    return tuple((cid, given.get(cid, game.catalogue[cid].count)) for cid in game.catalogue.order)


def position_problems(game: Blackpool, state: State) -> list[str]:
    """Every way a parsed position is impossible; also the simulator's invariants."""
    board = game.board
    problems: list[str] = []
    opts = state.opts
    # Without the arriving stack counted (BP-Q12 off), a carrier with a chain of riders may land on a
    # lone traveller: only one of each colour per square bounds the count then.
    limit = 2 if opts["capacity.countsArrivingStack"] else len(board.index)
    # Where each traveller is, and who rides whom: one pass, then the rare faults in detail.
    index = board.index
    occupied: dict[str, list[Traveller]] = {}
    home: dict[str, int] = {}
    riders: dict[str, str] = {}
    for t in state.travellers:
        at = t.at
        if at == CAMP:
            home[t.colour] = home.get(t.colour, 0) + 1
            if t.frozen:
                problems.append(f"{t.id} is in camp and cannot be frozen")
        elif at == CENTRE:
            if t.frozen:
                # Freeze acts on a traveller out on the board, and nothing moves a frozen one (BP-Q26): a carrier
                # dragged into the centre leaves a frozen rider behind, and a step in refuses a frozen traveller.
                problems.append(f"{t.id} waits in the centre and cannot be frozen")
        else:
            occupied.setdefault(at, []).append(t)
            if at not in index[t.colour]:
                if board.zone(at) in ("camp", "centre"):
                    problems.append(f'{t.id} is on {at}: write "camp" or "centre" for those')
                else:
                    problems.append(f"{t.id} is on {at}, which is not on the {t.colour} path")
        if t.on is not None:
            problems.extend(_rider_problems(t, state.by_id, riders))
    for square, group in occupied.items():
        if len(group) < 2:
            continue
        if len(group) > limit:
            problems.append(f"{square} holds {len(group)} travellers; a square holds at most {limit}")
        if len({t.colour for t in group}) < len(group):
            problems.append(f"{square} holds two travellers of one colour")
        bases = [t for t in group if t.on is None]
        if len(bases) > 1 and (board.zone(square) in WATER or opts["edge.landing"] != "coexist"):
            problems.append(f"{square} holds {', '.join(t.id for t in group)} but none rides on the other")
    # Turn, phase and what the phase needs.
    phase = state.phase
    if phase in ("move", "six") and state.roll is None:
        problems.append(f'phase "{phase}" needs the roll in hand')
    if phase == "move" and state.roll is not None and not problems and not game.roll_choices(state):
        problems.append(f'phase "move" waits for a move, but nothing of {state.turn}\'s can move with a {state.roll}')
    if phase == "six" and state.roll != 6:
        problems.append('phase "six" needs "roll": 6')
    if phase == "move" and state.roll == 6:
        # Loaded as "move", a six lost its choices (BP-8): forward 6 with no roll again, no bring-out, no coin.
        problems.append(SIX_IN_MOVE)
    if phase == "six" and state.six_chain < 1:
        problems.append('phase "six" needs "sixChain" of at least 1')
    if phase in ("roll", "draw", "target", "over") and state.roll is not None:
        problems.append(f'phase "{phase}" must have "roll": null')
    if phase == "draw":
        if state.deck is None:
            problems.append('phase "draw" needs the "deck" chosen')
        elif not state.deck_size(game.catalogue, state.deck):
            problems.append(f'phase "draw" waits on the {state.deck} deck, which is empty')
    elif state.deck is not None:
        problems.append('"deck" is set only while a card is being drawn')
    if phase == "target":
        if state.card is None:
            problems.append('phase "target" needs the "card" in play')
        else:
            from companion.games.blackpool.effects import has_targets

            if not has_targets(board, state, game.catalogue[state.card].effect):
                problems.append(f"{state.card} waits for a target but has nothing to act on")
    elif state.card is not None:
        problems.append('"card" is set only while a card waits for its target')
    if state.six_chain and phase not in ("roll", "six", "move"):
        problems.append('"sixChain" counts sixes only while rolling on after a six')
    limit_chain = opts["six.maxChain"]
    if limit_chain is not None and state.six_chain > limit_chain:
        problems.append(f"sixChain {state.six_chain} is above the limit six.maxChain {limit_chain}")
    elif limit_chain is not None and state.six_chain == limit_chain and phase in ("roll", "move"):
        # The limit's six ends the rolling on (BP-Q19): loaded waiting for another roll, a further six was
        # counted past the limit.
        problems.append(
            f'sixChain {state.six_chain} reaches the limit six.maxChain {limit_chain}, so the turn has no roll '
            f'after it: phase "{phase}" needs sixChain below {limit_chain} (BP-Q19)'
        )
    # Coins pay for cards: every card gone from the decks cost one coin, and so does a draw in progress.
    played = game.catalogue.total - sum([n for _, n in state.decks])
    spent = START_COINS * len(state.coins) - sum(state.coins)
    if spent != played + (1 if phase == "draw" else 0):
        problems.append(f"{spent} coins are spent but {played} cards were played; each card costs one coin")
    # Finishing.
    done = [p for p in state.players if home.get(p, 0) == TRAVELLERS_PER_COLOUR]
    placings = opts["continueForPlacings"]
    for p in done:
        if p not in state.finished:
            problems.append(f"{p} has all three travellers in camp but is not listed as finished")
    for p in state.finished:
        if p not in done and not (placings and phase == "over" and p == state.finished[-1]):
            problems.append(f"{p} is listed as finished but not all its travellers are in camp")
    if phase == "over":
        from companion.games.blackpool.effects import stranded

        racing = [p for p in state.players if p not in state.finished]
        # else nobody left can finish (BP-Q30)
        if not (racing and stranded(game.board, state, game.catalogue) == racing):
            if not state.finished:
                problems.append('phase "over" needs a winner in "finished", or every player racing stranded')
            if placings and len(state.finished) != len(state.players):
                problems.append("with continueForPlacings, a finished game lists every player in finished")
    else:
        if state.finished and not placings:
            problems.append("a player has finished, so the game is over")
        if placings and len(state.players) - len(state.finished) < 2:
            problems.append("fewer than two players are still racing, so the game is over")
        if state.turn in state.finished:
            problems.append(f"{state.turn} has finished and cannot have the turn")
    return problems


def _rider_problems(t: Traveller, by_id: dict[str, Traveller], riders: dict[str, str]) -> list[str]:
    """Faults of one riding traveller; ``riders`` collects carrier -> rider across calls."""
    carrier = by_id.get(t.on or "")
    if carrier is None:
        return [f"{t.id} rides on {quoted(t.on)}, which is not a traveller in this game{meant_hint(t.on, by_id)}"]
    if carrier.id == t.id:
        return [f"{t.id} cannot ride on itself"]
    problems: list[str] = []
    if carrier.at != t.at:
        problems.append(f"{t.id} rides on {carrier.id} but they are on different squares ({t.at}, {carrier.at})")
    elif t.at in (CENTRE, CAMP):
        problems.append(f"{t.id} rides on {carrier.id} in the {t.at}, where nobody rides")
    elif carrier.colour == t.colour:
        problems.append(f"{t.id} rides on {carrier.id}, a traveller of its own colour")
    if carrier.id in riders:
        problems.append(f"{carrier.id} carries both {riders[carrier.id]} and {t.id}; a traveller carries one rider")
    riders[carrier.id] = t.id
    seen = {t.id}
    current: str | None = t.on
    while current is not None and current in by_id:
        if current in seen:
            problems.append(f"{t.id} is part of a riding loop")
            break
        seen.add(current)
        current = by_id[current].on
    return problems
