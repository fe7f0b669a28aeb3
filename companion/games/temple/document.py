"""The position document: readable JSON that round-trips, and a loader that names every fault."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.errors import BadRequest, InvalidPosition, quoted
from companion.game import not_playing_words, players_listed
from companion.games.temple.board import Board
from companion.games.temple.move_reach import pawn_moves
from companion.games.temple.state import PHASES, Task, TempleState, pawn_name
from companion.journalled_start import refuse_position
from companion.schema import is_known, meant_hint, whole_hint

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def location_doc(board: Board, colour: str, node: int) -> Any:
    """A node as players read it: [x, y], "entrance", "step2" or "chamber"."""
    if node < board.cell_count:
        return [node % board.size, node // board.size]
    geo = board.colours[colour]
    if node == geo.entrance:
        return "entrance"
    if node == board.chamber:
        return "chamber"
    if node in geo.steps:
        return f"step{geo.steps.index(node) + 1}"
    return list(board.xy(node))


def parse_location(board: Board, colour: str, value: Any) -> int:
    """The node a location names for a pawn of ``colour``; ValueError says what is wrong."""
    if type(value) is list and len(value) == 2:
        x, y = value
        if type(x) is int and type(y) is int and 0 <= x < board.size and 0 <= y < board.size:
            node = y * board.size + x
            if node in board.ring:
                return node
    geo = board.colours[colour]
    if value == "entrance":
        return geo.entrance
    if value == "chamber":
        return board.chamber
    if isinstance(value, str) and value.startswith("step") and value[4:].isdigit():
        k = int(value[4:])
        if 1 <= k <= len(geo.steps):
            return geo.steps[k - 1]
        raise ValueError(f"{colour} has steps 1-{len(geo.steps)}, not {quoted(value)}")
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        x, y = value
        if 0 <= x < board.size and 0 <= y < board.size and board.node(x, y) in board.ring:
            return board.node(x, y)
        # The steps and the chamber may be named by the cells they are drawn on, as a player points at them.
        drawn = board.drawn_inside(x, y)
        if drawn is not None and drawn[0] == "chamber":
            return board.chamber
        if drawn is not None and drawn[0] == colour:
            return geo.steps[drawn[1] - 1]
        if drawn is not None:
            raise ValueError(f"{list(value)} is {drawn[0]} step {drawn[1]}, which only {drawn[0]} pawns climb (RU-15)")
        raise ValueError(f"{list(value)} is not a space of the temple path")
    raise ValueError(f'{quoted(value)} is not a location ([x, y], "entrance", "stepN" or "chamber")')


def parse_pawn(state: TempleState, value: Any) -> tuple[str, int]:
    """ "red1" -> ("red", 0); ValueError if no such pawn is in play."""
    if isinstance(value, str) and value[-1:] in ("1", "2") and value[:-1] in state.players:
        return value[:-1], int(value[-1]) - 1
    names = ", ".join(pawn_name(c, i) for c in state.players for i in (0, 1))
    raise ValueError(f"no pawn {quoted(value)} in play; pawns: {names}")


def to_document(game: TempleGame, state: TempleState) -> dict[str, Any]:
    board = game.board
    tasks = []
    for task in state.tasks:
        entry: dict[str, Any] = {
            "kind": task.kind,
            "pawns": [pawn_name(task.colour, i) for i in task.pawns],
            "chooser": task.chooser,
        }
        if task.kind == "stair":
            entry["at"] = list(board.xy(task.node))
        tasks.append(entry)
    return {
        "game": game.id,
        "players": list(state.players),
        "options": dict(state.options),
        "phase": state.phase,
        "turn": state.current,
        "slots": list(state.slots),
        "pawns": {
            colour: [location_doc(board, colour, node) for node in pair]
            for colour, pair in zip(state.players, state.pawns, strict=True)
        },
        "hands": dict(zip(state.players, state.hands, strict=True)),
        "pile": state.pile,
        "discard": list(state.discard),
        "roll": None if state.roll is None else {"value": state.roll[0], "colour": state.roll[1]},
        "first_roll": {"contenders": list(state.contenders), "rolls": [list(r) for r in state.first_rolls]},
        "tasks": tasks,
        "after": state.after,
        "winner": state.winner,
    }


def from_document(game: TempleGame, doc: Mapping[str, Any]) -> TempleState:
    problems: list[str] = []
    board = game.board
    if not isinstance(doc, Mapping):
        raise InvalidPosition(["the position must be a JSON object"])
    if doc.get("game") != game.id:
        problems.append(f"game must be {quoted(game.id)}, not {quoted(doc.get('game'))}")
    players: list[str] = []
    try:
        players = game.check_players(doc.get("players", []))
    except BadRequest as exc:
        problems.append(f"players: {exc.message}")
    options: dict[str, Any] = {}
    raw_options = doc.get("options", {})
    try:
        options = game.resolve_options(raw_options if isinstance(raw_options, Mapping) else {})
        if not isinstance(raw_options, Mapping):
            problems.append("options must be an object")
    except BadRequest as exc:
        problems.append(f"options: {exc.message}")
        options = game.resolve_options({})  # the defaults: a journalled start read past its problems must play
    phase = doc.get("phase")
    if phase not in PHASES:
        problems.append(f"phase {quoted(phase)} is not one of {', '.join(PHASES)}")
    turn = 0
    if is_known(doc.get("turn"), players):
        turn = players.index(doc["turn"])
    elif players:
        problems.append(f"turn: {not_playing_words(doc.get('turn'), players)}")

    # --- slots and cards ---
    slots_raw = doc.get("slots")
    slots: list[str | None] = [None] * len(board.slot_nodes)
    known = set(board.cards)
    if not isinstance(slots_raw, list) or len(slots_raw) != len(board.slot_nodes):
        problems.append(f"slots must be a list of {len(board.slot_nodes)} card ids (null while assembling)")
    else:
        seen: dict[str, int] = {}
        for i, card in enumerate(slots_raw):
            if card is None:
                if phase != "assembly":
                    problems.append(f"slot {i + 1} is empty outside assembly")
                continue
            if card == board.ak_card:
                problems.append(f"slot {i + 1} holds the Ah Kinchil card, which never goes into a slot")
            elif not is_known(card, known):
                problems.append(f"slot {i + 1} holds {quoted(card)}, which is no card id{meant_hint(card, known)}")
            elif card in seen:
                problems.append(f"card {card} is in slot {seen[card] + 1} and slot {i + 1}")
            else:
                seen[card] = i
                slots[i] = card
        filled = [c is not None for c in slots_raw]
        if phase == "assembly" and filled != sorted(filled, reverse=True):
            problems.append("assembly fills the slots in order: an empty slot comes before a filled one")
        if phase == "assembly" and all(filled):
            problems.append("assembly is over once all 12 slots are filled")
    discard_raw = doc.get("discard", [])
    discard: list[str] = []
    if not isinstance(discard_raw, list):
        problems.append("discard must be a list of card ids")
    else:
        for card in discard_raw:
            if card != board.ak_card and not is_known(card, known):
                problems.append(f"discard holds {quoted(card)}, which is no card id"
                                f"{meant_hint(card, [*known, board.ak_card])}")
            elif card in slots:
                problems.append(f"card {card} is both in a slot and in the discard pile")
            elif card in discard:
                problems.append(f"card {card} is twice in the discard pile")
            else:
                discard.append(card)
    hands_raw = doc.get("hands", {})
    hands: list[int] = []
    for field, raw in (("hands", hands_raw), ("pawns", doc.get("pawns", {}))):
        # Keyed by colour: a colour nobody plays was dropped unread, as a misspelt one would be.
        problems.extend(f"{field}: {not_playing_words(key, players)}"
                        for key in (raw if isinstance(raw, Mapping) and players else ()) if key not in players)
    for colour in players:
        count = hands_raw.get(colour) if isinstance(hands_raw, Mapping) else None
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 3:
            problems.append(f"hands.{colour} must be a count from 0 to 3, not {quoted(count)}{whole_hint(count)}")
            count = 0
        elif phase == "assembly" and count:
            problems.append(f"hands.{colour}: no cards are dealt before assembly ends")
        hands.append(count)
    pile = doc.get("pile")
    if isinstance(pile, bool) or not isinstance(pile, int) or pile < 0:
        problems.append(f"pile must be a count of cards, not {quoted(pile)}{whole_hint(pile)}")
        pile = 0
    on_board = sum(1 for c in slots if c is not None)
    total = game.total_cards
    if on_board + len(discard) + sum(hands) + pile != total and not problems:
        problems.append(
            f"cards do not add up: {on_board} in slots + {len(discard)} discarded + {sum(hands)} in hands"
            f" + {pile} in the pile should make {total}"
        )

    # --- pawns ---
    pawns_raw = doc.get("pawns", {})
    pawns: list[tuple[int, int]] = []
    layout = board.layout(tuple(slots))
    tasks_raw = doc.get("tasks", [])
    holes_allowed: set[str] = set()
    if isinstance(tasks_raw, list):
        holes_allowed = {
            str(t["pawns"][0])[:-1]
            for t in tasks_raw
            if isinstance(t, Mapping)
            and t.get("kind") in ("back", "off")
            and isinstance(t.get("pawns"), list)
            and t["pawns"]
        }
    occupied: dict[int, str] = {}
    for colour in players:
        pair_raw = pawns_raw.get(colour) if isinstance(pawns_raw, Mapping) else None
        if not isinstance(pair_raw, list) or len(pair_raw) != 2:
            problems.append(f"pawns.{colour} must list the places of its 2 pawns")
            pawns.append((board.colours[colour].entrance,) * 2)
            continue
        pair = []
        for i, raw in enumerate(pair_raw):
            name = pawn_name(colour, i)
            try:
                node = parse_location(board, colour, raw)
            except ValueError as exc:
                problems.append(f"pawns.{colour}[{i}]: {exc}")
                node = board.colours[colour].entrance
            if board.is_cell(node):
                if not layout.walkable[node] and colour not in holes_allowed and phase != "assembly":
                    problems.append(f"{name} stands on a hole at {list(board.xy(node))}, off the path")
                if node in occupied:
                    problems.append(f"{name} and {occupied[node]} share the space {list(board.xy(node))}")
                occupied[node] = name
            elif node in board.step_nodes:
                # Audit: a step is a space like any other, so the two pawns of a colour cannot share one (RU-12,
                # RU-Q20); only cells were checked, and a document with both pawns on step 2 loaded.
                if node in occupied:
                    problems.append(f"{name} and {occupied[node]} share {location_doc(board, colour, node)}")
                occupied[node] = name
            if phase == "assembly" and not board.is_cell(node) and node != board.colours[colour].entrance:
                problems.append(f"{name} must wait at its Entrance Circles during assembly")
            pair.append(node)
        pawns.append((pair[0], pair[1]))

    # --- roll, first roll, tasks, winner ---
    roll = None
    roll_raw = doc.get("roll")
    if roll_raw is not None:
        outcome = (roll_raw.get("value"), roll_raw.get("colour")) if isinstance(roll_raw, Mapping) else None
        if not is_known(outcome, game.outcomes):
            faces = ", ".join(f"{v} {c}" for v, c in game.outcomes)
            problems.append(f'roll {quoted(roll_raw)} is not a face of the die, {{"value": v, "colour": c}}; '
                            f"faces: {faces}")
        else:
            roll = outcome
    if phase in ("change", "move", "resolve") and roll is None:
        problems.append(f"phase {phase} needs this turn's roll")
    if phase in ("assembly", "first_roll", "roll") and roll is not None:
        problems.append(f"phase {phase} comes before any roll this turn")
    if phase == "change" and roll is not None and roll[1] != "red":
        problems.append("only a red roll asks for a card change")
    first = doc.get("first_roll", {})
    contenders: list[str] = []
    first_rolls: list[tuple[str, Any]] = []
    if not isinstance(first, Mapping):
        problems.append("first_roll must be an object")
    else:
        contenders_raw, rolls_raw = first.get("contenders", []), first.get("rolls", [])
        for name, raw_list in (("contenders", contenders_raw), ("rolls", rolls_raw)):
            if not isinstance(raw_list, list):
                problems.append(f"first_roll.{name} must be a list")
        # Loaded, the referee waited for a twice-listed player's second roll and failed to find who rolls.
        contenders = players_listed(contenders_raw if isinstance(contenders_raw, list) else [], players,
                                    "first_roll.contenders", problems, "; each player rolls once a round (RU-5)")
        for entry in rolls_raw if isinstance(rolls_raw, list) else []:
            if not (isinstance(entry, list) and len(entry) == 2 and entry[0] in contenders):
                problems.append(f"first_roll.rolls entry {quoted(entry)} is not [contender, value]")
            elif not is_known(entry[1], {v for v, _ in game.outcomes}):
                problems.append(f"first_roll.rolls entry {quoted(entry)} is not a value of the die")
            else:
                first_rolls.append((entry[0], entry[1]))
    if phase == "first_roll" and not contenders:
        problems.append("phase first_roll needs the players still rolling for the start")
    rolled = [p for p, _ in first_rolls]
    if phase == "first_roll" and contenders and rolled != contenders[: len(rolled)]:
        problems.append(
            f"first_roll.rolls: the contenders roll one each in the order listed ({', '.join(contenders)}), "
            f"so the rolls so far cannot be {', '.join(rolled)} (RU-5)"
        )
    elif phase == "first_roll" and contenders and len(rolled) >= len(contenders):
        # Every contender has rolled: the last roll named the first player or a tie's new round (RU-Q6).
        problems.append(
            "first_roll.rolls: every contender has rolled, so the first player is known or a tie rolls again "
            "with the rolls cleared (RU-5, RU-Q6)"
        )
    if phase != "first_roll" and (contenders or first_rolls):
        problems.append(f"first_roll: empty outside phase first_roll (phase {phase}), as the first player is known "
                        "or not yet rolled for (RU-5)")
    tasks: list[Task] = []
    if not isinstance(tasks_raw, list):
        problems.append("tasks must be a list")
        tasks_raw = []
    for k, raw in enumerate(tasks_raw):
        task = _parse_task(game, players, raw, f"tasks[{k}]", problems)
        if task is not None:
            tasks.append(task)
    after = doc.get("after", "")
    if after not in ("", "move", "end"):
        problems.append(f'after must be "", "move" or "end", not {quoted(after)}')
    if (phase == "resolve") != bool(tasks_raw):
        problems.append("tasks are pending exactly in phase resolve")
    if phase == "resolve" and not after:
        problems.append('phase resolve needs "after": "move" or "end"')
    winner = doc.get("winner")
    if winner is not None and not is_known(winner, players):
        problems.append(f"winner: {not_playing_words(winner, players)}")
    if (phase == "over") != (winner is not None):
        problems.append("a winner is named exactly when the phase is over")
    if winner in players and any(n != board.chamber for n in pawns[players.index(winner)]):
        problems.append(f"{winner} is named winner without both pawns in the Treasure Chamber")
    # Audit: a player with both pawns in the chamber and no winner loaded, and play went on round them: the others
    # moved on, and their own next turn ended in an empty "; the turn ends." before the win was seen.
    for colour, pair in zip(players, pawns, strict=False):
        if colour != winner and len(pair) == 2 and all(n == board.chamber for n in pair):
            problems.append(
                f"{colour} has both pawns in the Treasure Chamber, so {colour} has won (RU-16): the phase must be"
                f" over with {colour} as the winner"
            )
    if problems:
        refuse_position(problems)  # noted instead while a journalled start is read back
    state = TempleState(
        players=tuple(players),
        options=tuple(sorted(options.items())),
        phase=phase,
        turn=turn,
        slots=tuple(slots),
        pawns=tuple(pawns),
        hands=tuple(hands),
        pile=pile,
        discard=tuple(discard),
        roll=roll,
        contenders=tuple(contenders),
        first_rolls=tuple(first_rolls),
        tasks=tuple(tasks),
        after=after,
        winner=winner,
    )
    if phase == "move" and roll is not None and not pawn_moves(game, state):
        refuse_position([f"phase move, but no pawn of {players[turn]} can move {roll[0]}"])
    return state


def _parse_task(game: TempleGame, players: list[str], raw: Any, where: str, problems: list[str]) -> Task | None:
    board = game.board
    if not isinstance(raw, Mapping) or raw.get("kind") not in ("stair", "back", "off"):
        problems.append(f'{where} must be an object with kind "stair", "back" or "off"')
        return None
    if raw["kind"] == "off" and where == "tasks[0]":
        # An "off" send-back waits behind a colour's pair choice (RU-Q14); first, nothing would be asked.
        problems.append(f'{where}: an "off" send-back waits behind a choice, so it cannot come first')
        return None
    names = raw.get("pawns")
    if not isinstance(names, list) or not names:
        problems.append(f"{where}.pawns must list pawns")
        return None
    parsed = []
    for name in names:
        if isinstance(name, str) and name[:-1] in players and name[-1:] in ("1", "2"):
            parsed.append((name[:-1], int(name[-1]) - 1))
        else:
            problems.append(f"{where}: no pawn {quoted(name)} in play")
            return None
    colours = {c for c, _ in parsed}
    if len(colours) != 1:
        problems.append(f"{where}: its pawns must share one colour")
        return None
    expected = {"stair": 1, "back": 2, "off": len(parsed) if len(parsed) <= 2 else 2}[raw["kind"]]
    if len(parsed) != expected or len({i for _, i in parsed}) != expected:
        problems.append(f"{where}: a {raw['kind']} task names {expected} distinct pawn(s)")
        return None
    chooser = raw.get("chooser")
    if not is_known(chooser, players):
        problems.append(f"{where}.chooser: {not_playing_words(chooser, players)}")
        return None
    node = -1
    if raw["kind"] == "stair":
        try:
            node = parse_location(board, parsed[0][0], raw.get("at"))
        except ValueError as exc:
            problems.append(f"{where}.at: {exc}")
            return None
    return Task(raw["kind"], parsed[0][0], tuple(i for _, i in parsed), node, chooser)
