"""The card change after a red roll (RU-7, RU-17, RU-22): which slots and cards, and what each change does.

The change choices are labelled by playing the change out (``change_effects``), so a choice cannot say one
thing and the change do another.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.errors import InvalidAction, quoted
from companion.game import Action, Event, refuse
from companion.games.temple.clauses import CHANGE_OFF_PATH, CHANGE_ONTO_STAIR
from companion.games.temple.places import stair_way, stairway
from companion.games.temple.send_back import in_order_sent, order_matters, send_back, sends_back
from companion.games.temple.stairways import stair_destinations
from companion.games.temple.state import Task, TempleState, pawn_label
from companion.games.temple.tasks import run_tasks
from companion.games.temple.turns import after_tasks, draw_one, to_move

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


# What every send-back cites for where the pawn goes; a change choice names only why pawns go (the rest).
SEND_BACK_HOW = frozenset({"RU-18", "RU-Q11", "RU-20", "RU-21", "RU-Q15", "RU-Q33"})
PLAIN = frozenset({"path", "hole"})  # cells a send-back or a stairway trip never looks at


def allowed_slots(game: TempleGame, state: TempleState) -> list[int]:
    if state.option["change_under_own_pawn"]:
        return list(range(len(state.slots)))
    own = {n for n in state.pawns[state.turn]}
    return [i for i, nodes in enumerate(game.board.slot_nodes) if not own.intersection(nodes)]


def change_actions(game: TempleGame, state: TempleState) -> list[Action]:
    """Every slot with every card not known to be elsewhere, each saying what it does to the pawns there.

    Cached with the move lists (on the layout), under who stands where: a
    change played out for its text costs a layout of its own.
    """
    key = ("changes", state.pawns, state.turn, state.discard, state.hands[state.turn] > 0, state.options)
    cache = game.layout(state)._moves
    cached = cache.get(key)
    if cached is None:
        cached = cache[key] = list_changes(game, state)
    return [dict(a) for a in cached]


def list_changes(game: TempleGame, state: TempleState) -> list[Action]:
    board = game.board
    out: list[Action] = []
    if state.hands[state.turn] > 0:
        blocked = set(state.slots) | set(state.discard)
        cards = [c for c in board.card_order if c not in blocked]
        standing = {node for _, _, node in state.all_pawns()}
        for i in allowed_slots(game, state):
            number = board.slot_numbers[i]
            head = f"Slot {number}: {state.slots[i]} out, "
            under = [k for k, node in enumerate(board.slot_nodes[i]) if node in standing]
            told: dict[tuple[str, ...], str] = {}
            for card in cards:
                cells = board.cards[card]
                # Only a hole or a stairway under a pawn does anything to it (an island keeps it, RU-Q29).
                said = ""
                if any(cells[k] in ("hole", "stair") for k in under):
                    # Send-backs and stairway trips go by what stands under the pawns, the idol markers and
                    # the stairways, not by the plain cells elsewhere: cards alike in those are told once.
                    alike = tuple(c if k in under or c not in PLAIN else "" for k, c in enumerate(cells))
                    said = told.get(alike)
                    if said is None:
                        said = told[alike] = change_effects(game, state, i, card)
                out.append({"type": "change", "slot": number, "card": card, "text": f"{head}{card} in{said}"})
    if state.option["change_optional"] or not out:
        out.append({"type": "skip_change", "text": "Leave the path as it is"})
    return out


def apply_skip_change(game: TempleGame, state: TempleState, action: Action, events: list[Event]) -> TempleState:
    if not state.option["change_optional"] and can_change(game, state):
        raise refuse("After a red roll one path card must be replaced.", "RU-Q7")
    events.append(
        Event("info", f"{state.current.capitalize()} leaves the path as it is.", ("RU-Q7",), (state.current,))
    )
    return to_move(game, state, events)


def can_change(game: TempleGame, state: TempleState) -> bool:
    """Whether any change is possible: a card in hand, a slot allowed, a card not known to be elsewhere."""
    if state.hands[state.turn] == 0 or not allowed_slots(game, state):
        return False
    known_elsewhere = sum(1 for c in state.slots if c is not None) + sum(
        1 for c in state.discard if c != game.board.ak_card
    )
    return known_elsewhere < len(game.board.cards)


def apply_change(
    game: TempleGame, state: TempleState, action: Action, events: list[Event], queued: bool = True
) -> TempleState:
    board = game.board
    number = action.get("slot")
    if isinstance(number, bool) or number not in board.slot_numbers:
        raise InvalidAction(  # the clause naming the board's slots, not the red roll's change (RU-7)
            f"slot must be one of {min(board.slot_numbers)}-{max(board.slot_numbers)}, not {quoted(number)}",
            game.board_rule(state),
        )
    card = action.get("card")
    if not isinstance(card, str):
        raise InvalidAction('a change needs "card": a card id')
    if card == board.ak_card:
        raise refuse("The Ah Kinchil card never goes into a slot; it is played instead of rolling.", "RU-Q24")
    if card not in board.cards:
        raise InvalidAction(f"no path card {quoted(card)} in the temple deck", "RU-2")
    if card in state.slots:
        raise refuse(
            f"{card} is already on the board, in slot {board.slot_numbers[state.slots.index(card)]}.", "RU-7"
        )
    if card in state.discard:
        raise refuse(f"{card} lies face up in the discard pile, so no hand holds it.", "RU-26")
    player = state.current
    if state.hands[state.turn] == 0:
        raise refuse(f"{player.capitalize()} holds no card to put in.", "RU-Q25")
    index = board.slot_numbers.index(number)
    if index not in allowed_slots(game, state):
        raise refuse(f"Slot {number} holds one of {player.capitalize()}'s own pawns.", "RU-Q8")
    old = state.slots[index]
    slots = list(state.slots)
    slots[index] = card
    hands = list(state.hands)
    hands[state.turn] -= 1
    state = state.but(slots=tuple(slots), discard=(*state.discard, old), hands=tuple(hands))
    events.append(
        Event(
            "info",
            f"{player.capitalize()} replaces {old} in slot {number} with {card}; {old} goes to the discard pile.",
            ("RU-7",),
            (player,),
        )
    )
    state = draw_one(state, state.turn, events)
    return after_change(game, state, index, events, queued)


def apply_change_at_once(game: TempleGame, state: TempleState, action: Action, events: list[Event]) -> TempleState:
    """A change as the companion before RU-Q14's order made it: the later colours went back at once."""
    return apply_change(game, state, action, events, queued=False)


def after_change(
    game: TempleGame, state: TempleState, index: int, events: list[Event], queued: bool = True
) -> TempleState:
    """Pawns on a new hole go back; pawns on a new stairway must take it (RU-Q10 order); then the move."""
    state = settle_change(game, state, index, events, queued)
    return state if state.tasks else after_tasks(game, state, events)  # tasks left: a choice waits


def settle_change(
    game: TempleGame, state: TempleState, index: int, events: list[Event], queued: bool = True
) -> TempleState:
    """What the card now in slot ``index`` does to the pawns there, up to the first choice it asks for.

    The change choices are labelled from this very code (``change_effects``), so a
    choice cannot say one thing and the change do another. ``queued`` False: the later colours' send-backs
    do not wait for an earlier colour's pair choice, as before RU-Q14's order (only ``old_step`` asks it).
    """
    board = game.board
    layout = game.layout(state)
    nodes = set(board.slot_nodes[index])
    order = [state.players[(state.turn + k) % len(state.players)] for k in range(len(state.players))]
    backs: list[Task] = []
    stairs: list[Task] = []
    for colour in order:
        pair = state.pawns[state.seat(colour)]
        off = [i for i, n in enumerate(pair) if n in nodes and not layout.walkable[n]]
        if off and backs and queued:
            # A choice of an earlier colour waits: this colour's send-back waits behind it (RU-Q14).
            prog = board.progress[colour]
            off.sort(key=lambda i: -prog[pair[i]])
            events.append(waits_behind(backs[0].colour, colour, off))
            backs.append(Task("off", colour, tuple(off), -1, colour))
        elif len(off) == 2 and state.option["pair_order"] == "ownerChooses" and order_matters(game, state, colour):
            backs.append(Task("back", colour, (0, 1), -1, colour))
        elif off:
            prog = board.progress[colour]
            off.sort(key=lambda i: -prog[pair[i]])
            events.append(
                Event(
                    "warning",
                    f"The new card leaves {' and '.join(pawn_label(colour, i) for i in off)} off the path.",
                    CHANGE_OFF_PATH,
                    (colour,),
                )
            )
            state = send_back(game, state, [(colour, i) for i in off], events, CHANGE_OFF_PATH)
        for i, n in enumerate(pair):
            if n in nodes and layout.kind(n) == "stair":
                chooser = colour if state.option["stair_owner_chooses"] else state.current
                events.append(
                    Event(
                        "info",
                        f"The new card puts {pawn_label(colour, i)} on {stairway(game, colour, n)}: it takes"
                        " it if there is another.",
                        CHANGE_ONTO_STAIR,
                        (colour,),
                    )
                )
                stairs.append(Task("stair", colour, (i,), n, chooser))
    return run_tasks(game, state.but(tasks=(*backs, *stairs), after="move"), events)


def waits_behind(chooser: str, colour: str, off: Sequence[int]) -> Event:
    """The announcement that a colour's send-back waits for an earlier colour's pair choice (RU-Q14).

    Audit: with pair_order = ownerChooses the later colours' pawns went back at once, before the owner's
    choice, and with send_back_occupied = bump two pawns heading for one marker then ended the other way round
    from RU-Q14's order (the active player first, then clockwise).
    """
    them = " and ".join(pawn_label(colour, i) for i in off)
    goes = "it goes" if len(off) == 1 else "they go"
    return Event(
        "warning",
        f"The new card leaves {them} off the path too; {goes} back once {chooser.capitalize()} has chosen,"
        " as send-backs go colour by colour from the player whose turn it is.",
        (*CHANGE_OFF_PATH, "RU-Q14"),
        (colour,),
    )


def change_effects(game: TempleGame, state: TempleState, index: int, card: str) -> str:
    """What a change choice adds to its text: the pawns it sends back or up a stairway, with the clauses.

    Audit: a card putting a hole under a pawn sent it back with no word in the
    choice; the players learnt it once the change was made. The change is played
    out by ``settle_change`` on a copy; ``change_actions`` asks only when the card
    puts a hole or a stairway under a pawn (else nothing happens).
    """
    swapped = game.board.layout_with(game.layout(state), index, card)  # so settle_change finds it built
    events: list[Event] = []
    after = settle_change(game, state.but(slots=swapped.slots), index, events)
    back_rules = [r for e in events if e.kind in ("warning", "penalty") for r in e.rules if r not in SEND_BACK_HOW]
    travellers: list[tuple[str, int]] = []
    waiting: list[tuple[str, int]] = []  # on their holes until a choice is made, in the order they then go
    for task in after.tasks:
        if task.kind == "stair":
            travellers.append((task.colour, task.pawns[0]))
        elif task.kind == "off":  # waits behind an earlier colour's choice (RU-Q14)
            waiting.extend((task.colour, i) for i in task.pawns)
        else:  # the owner picks which of the two takes the nearer marker (RU-Q13)
            waiting.extend((task.colour, i) for i in task.pawns)
            back_rules.extend((*CHANGE_OFF_PATH, "RU-19", "RU-Q13"))
    stair_rules = [r for e in events if e.kind == "move" for r in e.rules]
    stairs = set(game.layout(after).stairs)
    gone: list[tuple[str, int]] = []
    for colour, i, node in state.all_pawns():
        now = after.pawn_at(colour, i)
        if now == node or (colour, i) in waiting:
            continue
        # A send-back ends on an idol marker or the Entrance Circles, a stairway trip on a stairway.
        (travellers if now in stairs else gone).append((colour, i))
    # Named in the order they go back (RU-Q14: from the player whose turn it is), not in seat order.
    text = sends_back([*in_order_sent(gone, events), *waiting], tuple(dict.fromkeys(back_rules)))
    if travellers:
        rules = tuple(dict.fromkeys([*CHANGE_ONTO_STAIR, *stair_rules]))
        trips = []
        seats = len(state.players)
        # The trips are queued and taken as settle_change finds them: colour by colour from the active player.
        travellers.sort(key=lambda p: ((state.seat(p[0]) - state.turn) % seats, p[1]))
        for colour, i in travellers:
            node = state.pawn_at(colour, i)
            now = after.pawn_at(colour, i)
            if now == node:  # waiting for its owner's (or the changer's) pick
                count = len(stair_destinations(game, after, colour, node))
                leads = f" to one of {count} others"
            else:
                leads = f" {stair_way(game, colour, node, now)} to {game.where(colour, now)}"
            trips.append(f"{pawn_label(colour, i)} takes {stairway(game, colour, node)}{leads}")
        text += f", {', '.join(trips)} [{', '.join(rules)}]"
    return text
