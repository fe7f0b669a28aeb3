"""Steps of games journalled by an older companion that this one no longer offers (``Game.old_step``).

Kept so that such games still resume and replay, and the table is told where they stand otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.errors import IllegalAction
from companion.game import Action, Event
from companion.games.temple import document
from companion.games.temple.clauses import CHANGE_OFF_PATH
from companion.games.temple.state import TempleState, pawn_label
from companion.phrases import series

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def old_step(
    game: TempleGame, states: Sequence[TempleState], log: Sequence[Action], action: Action
) -> tuple[TempleState, list[Event]] | None:
    """A step of a game journalled before an update, refused now: a pair order answered where it is no longer
    asked (``unasked_order``), or a step that fits only where the later colours went back before a pair
    choice (``sent_back_before_choice``)."""
    return unasked_order(game, states, log, action) or sent_back_before_choice(game, states, log, action)


def sent_back_before_choice(
    game: TempleGame, states: Sequence[TempleState], log: Sequence[Action], action: Action
) -> tuple[TempleState, list[Event]] | None:
    """A step of a game journalled before RU-Q14's order (9300476), fitting only the pawns as they then stood.

    That companion sent the later colours' pawns back as soon as a card was changed, ahead of an earlier
    colour's pair choice; with send_back_occupied = bump two pawns heading for one marker then ended the other
    way round, and a later step naming one of them is refused now. No step says which companion took it, so
    the game is played again from its first change that made a colour wait (none: refused as before), with
    every change made the older way; if this step then fits, it is taken from there and the table told where
    the pawns stand. A step that fits neither way stays refused.
    """
    if len(states) != len(log) + 1:
        return None
    first = next((k for k, step in enumerate(log) if step.get("type") == "change"
                  and any(t.kind == "off" for t in states[k + 1].tasks)), None)  # fmt: skip
    if first is None:
        return None
    older, steps = list(states[: first + 1]), list(log[:first])
    events: list[Event] = []
    for step in [*log[first:], action]:
        try:
            state, events = game._take(older[-1], step, queued=False)
        except IllegalAction:
            taken = unasked_order(game, older, steps, step)
            if taken is None:
                return None
            state, events = taken
        older.append(state)
        steps.append(step)
    return older[-1], [stood_otherwise(game, states[first + 1], states[-1], older[-2]), *events]


def stood_otherwise(game: TempleGame, waited: TempleState, now: TempleState, then: TempleState) -> Event:
    """Where the older companion had the pawns that stand elsewhere now, and why (RU-Q14)."""
    chooser = waited.tasks[0].colour.capitalize()
    early = [pawn_label(t.colour, i) for t in waited.tasks if t.kind == "off" for i in t.pawns]
    moved = [(c, i, n) for c, i, n in then.all_pawns() if now.pawn_at(c, i) != n]
    left = series([f"{pawn_label(c, i)} at {game.where(c, n)}" for c, i, n in moved]) if moved else ""
    them = "it" if len(early) == 1 else "them"
    return Event(
        "info",
        f"The companion this game was journalled on {f'left {left}: it ' if left else ''}sent {series(early)}"
        f" back as soon as the card was changed, before {chooser} chose which pawn takes the nearer marker"
        f" (this one has {them} wait for the choice).",
        (*CHANGE_OFF_PATH, "RU-Q14"),
        tuple(dict.fromkeys(c for c, _, _ in moved)),
    )


def unasked_order(
    game: TempleGame, states: Sequence[TempleState], log: Sequence[Action], action: Action
) -> tuple[TempleState, list[Event]] | None:
    """A pair order answered in a game journalled before the owner was asked it only when it matters (RU-Q13).

    With pair_order = ownerChooses the companion asked "which goes back to the nearer marker?" whenever a card
    change left both pawns of a colour off the path, even with no marker behind either; now both go back at
    once. The answer journalled after that change is accepted as changing nothing, so such games still resume
    and replay. Only right after the change (or the other answers to it), for a colour whose two pawns it left
    off the path and that has not answered yet.
    """
    if action.get("type") != "order" or not log:
        return None
    k = len(log) - 1
    while k >= 0 and log[k].get("type") == "order":
        k -= 1
    if k < 0 or log[k].get("type") != "change" or len(states) != len(log) + 1:
        return None
    before, changed = states[k], states[k + 1]
    try:
        colour, first = document.parse_pawn(changed, action.get("first"))
    except ValueError:
        return None
    answered = {str(a.get("first", ""))[:-1] for a in log[k + 1 :]}
    if before.option["pair_order"] != "ownerChooses" or colour in answered:
        return None
    if any(t.colour == colour for t in changed.tasks):  # asked, or waiting to be asked, as it matters
        return None
    number = log[k].get("slot")
    if number not in game.board.slot_numbers:
        return None
    nodes = set(game.board.slot_nodes[game.board.slot_numbers.index(number)])
    walkable = game.layout(changed).walkable
    if not all(n in nodes and not walkable[n] for n in before.pawns[before.seat(colour)]):
        return None
    return states[-1], [
        Event(
            "info",
            f"{pawn_label(colour, first)} first changes nothing: no marker lay behind either {colour} pawn, so"
            " both went back when the card was changed (a choice this companion no longer asks).",
            ("RU-19", "RU-Q13"),
            (colour,),
        )
    ]
