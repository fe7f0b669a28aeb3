"""Moving a pawn: the move choices with what each does, and the move itself with its clauses (RU-10 to RU-15)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.errors import InvalidAction
from companion.game import Action, Event, refuse
from companion.games.temple import document, moves
from companion.games.temple.clauses import landing_rules, route_rule
from companion.games.temple.move_reach import moves_from, stops_by_choice
from companion.games.temple.move_refusals import drawn_step, why_not
from companion.games.temple.places import read_pawn, stairway
from companion.games.temple.send_back import occupied_spaces, send_back_occupant, sends_back
from companion.games.temple.stairways import stair_destinations, stair_leads
from companion.games.temple.state import Task, TempleState, pawn_label, pawn_name
from companion.games.temple.turns import resolve

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def move_actions(game: TempleGame, state: TempleState) -> list[Action]:
    colour = state.current
    board = game.board
    layout = game.layout(state)
    steps = state.roll[0]
    opt = state.option
    occupied = occupied_spaces(game, state)
    stairs = set(layout.stairs)
    out: list[Action] = []
    for i, node in enumerate(state.pawns[state.turn]):
        if node == board.chamber:
            continue
        key = ("actions", colour, i, node, steps, opt["must_use_full"], opt["roll1_mode"])
        cached = layout._moves.get(key)
        if cached is None:
            found = moves_from(game, state, colour, node, steps)
            label = pawn_label(colour, i)
            cached = layout._moves[key] = [
                (
                    end,
                    {
                        "type": "move",
                        "pawn": pawn_name(colour, i),
                        "to": document.location_doc(board, colour, end),
                        "route": [document.location_doc(board, colour, n) for n in route],
                        "text": f"{label} to {game.where(colour, end)} in {len(route)}",
                    },
                )
                for end, route in found.items()
            ]
        for end, action in cached:  # who stands where changes without the moves changing: never cached
            occupant = occupied.get(end)
            rules = () if occupant is None else landing(game, state, colour, occupant, end)
            text = f"{action['text']}{sends_back([occupant], rules)}"
            if end in stairs:  # where it leads depends on the other stairways' pawns: never cached either
                text += stair_leads(game, state, colour, end, (colour, i))
            out.append({**action, "text": text})
    return out


def landing(game: TempleGame, state: TempleState, colour: str, occupant: tuple[str, int], end: int) -> tuple[str, ...]:
    """``clauses.landing_rules`` for a move by ``colour`` ending at ``end``, where ``occupant`` stands."""
    stair = game.board.is_cell(end) and game.layout(state).kind(end) == "stair"
    return landing_rules(colour, occupant, stair, end in game.board.step_nodes)


def apply_move(game: TempleGame, state: TempleState, action: Action, events: list[Event]) -> TempleState:
    board = game.board
    colour, i = read_pawn(state, action.get("pawn"))
    player = state.current
    label = pawn_label(colour, i)
    if colour != player:
        raise refuse(f"{player.capitalize()} moves only their own pawns, not {label}.", "RU-10")
    start = state.pawn_at(colour, i)
    if start == board.chamber:
        raise refuse(f"{label} is in the Treasure Chamber and stays there.", "RU-15")
    try:
        to = document.parse_location(board, colour, action.get("to"))
    except ValueError as exc:
        drawn = drawn_step(game, action.get("to"))
        if drawn is not None and drawn[0] != colour:
            # Audit: read as malformed input, the refusal cited the move clause (RU-10) and showed the JSON
            # field, '"to": [11, 3] is blue step 1, which only blue pawns climb (RU-15)'.
            (step_colour, k), (x, y) = drawn, action["to"]
            raise refuse(f"[{x},{y}] is {step_colour} step {k}: only {step_colour} pawns climb the {step_colour}"
                         f" steps, and {label} is a {colour} pawn.", "RU-15") from None
        raise InvalidAction(f'"to": {exc}') from None
    steps = state.roll[0]
    found = moves_from(game, state, colour, start, steps)
    if to not in found:
        raise why_not(game, state, colour, i, start, to, steps)
    route = found[to]
    given = action.get("route")
    if given is not None:
        if not isinstance(given, list):
            raise InvalidAction('"route" must be a list of locations')
        try:
            parsed = tuple(document.parse_location(board, colour, n) for n in given)
        except ValueError as exc:
            raise InvalidAction(f'"route": {exc}') from None
        if not parsed or parsed[-1] != to:
            raise InvalidAction('"route" must end at "to"')
        if steps == 1 and state.option["roll1_mode"] == "nextColumnAny3":
            problem = None if parsed == (to,) else "a roll of 1 goes straight to one of the next three spaces"
        else:
            full = [len(r) for n, r in found.items() if n != board.chamber]
            best = full[0] if full else steps
            problem = moves.route_problem(
                board, game.layout(state), colour, start, parsed, steps, state.option["must_use_full"], best
            )
        if problem:
            raise refuse(f"That route for {label} is not allowed: {problem}.", route_rule(problem))
        route = parsed
    rules = ["RU-10", *step_rules(game, state, start, route)]
    occupied = occupied_spaces(game, state)
    if any(n in occupied for n in route[:-1]):
        # A move through a space another pawn holds rests on RU-Q16 (passing through is allowed): the ruling
        # cited only the step clauses, and a table asking whether a pawn may pass another found no answer in it.
        rules.append("RU-Q16")
    if len(route) < steps and to != board.chamber:
        # Audit: a pawn stopping early by choice (must_use_full = false) was told it had hit a dead end.
        rules.append("RU-Q16" if stops_by_choice(game, state, colour, start, steps) else "RU-13")
    if to == board.chamber:
        rules.append("RU-15")
    events.append(
        Event(
            "move",
            f"{label} moves {len(route)} from {game.where(colour, start)} to {game.where(colour, to)}.",
            tuple(rules),
            (colour,),
        )
    )
    occupant = occupied.get(to)
    state = state.with_pawn(colour, i, to)
    if occupant is not None:
        said = f"{label} lands on {pawn_label(*occupant)}."
        landed = landing(game, state, colour, occupant, to)
        state = send_back_occupant(game, state, occupant, events, said, landed, ("RU-12",))
    tasks: tuple[Task, ...] = ()
    if game.layout(state).kind(to) == "stair" and board.is_cell(to):
        tasks = (Task("stair", colour, (i,), to, colour),)
        others = len(stair_destinations(game, state, colour, to))
        if others > 1:  # the choice's "then up the secret stairway there to one of 2 others" [RU-22], ruled
            events.append(
                Event(
                    "info",
                    f"{label} ends on {stairway(game, colour, to)}: it comes out at one of the {others} others.",
                    ("RU-22",),
                    (colour,),
                )
            )
    return resolve(game, state.but(tasks=tasks, after="end"), events)


def step_rules(game: TempleGame, state: TempleState, start: int, route: Sequence[int]) -> list[str]:
    """The clauses of how a legal move stepped: leaving the Entrance Circles, orthogonal steps, a roll of 1.

    Audit: under ``roll1_mode = nextColumnAny3`` a 1 taken diagonally was ruled by RU-11, the clause that
    forbids diagonal steps, and RU-27 alone, though only the RU-Q17 option allows it; a move off the
    Entrance Circles never said that the step onto the entry row is one of the count (RU-Q19).
    """
    board = game.board
    rules = []
    if start == board.colours[state.current].entrance:
        rules.append("RU-Q19")
    diagonal = False
    here = start
    for node in route:
        if board.is_cell(here) and board.is_cell(node):
            (x1, y1), (x2, y2) = board.xy(here), board.xy(node)
            diagonal = diagonal or (x1 != x2 and y1 != y2)
        here = node
    if not diagonal:
        rules.append("RU-11")
    if len(route) == 1 and state.roll[0] == 1:
        rules.append("RU-27")
        if state.option["roll1_mode"] == "nextColumnAny3":
            rules.append("RU-Q17")
    return rules
