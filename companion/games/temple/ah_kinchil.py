"""The Ah Kinchil card: played instead of rolling, it moves a pawn to its colour's Ah Kinchil marker (RU-25, RU-21)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.game import Action, Event, refuse
from companion.games.temple.clauses import AK_ONTO_PAWN
from companion.games.temple.places import read_pawn
from companion.games.temple.send_back import occupied_spaces, send_back, sends_back
from companion.games.temple.state import TempleState, pawn_label, pawn_name
from companion.games.temple.turns import draw_one, end_turn

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def ak_in_discard(game: TempleGame, state: TempleState) -> bool:
    return game.board.ak_card in state.discard


def ak_targets(game: TempleGame, state: TempleState) -> list[tuple[str, int, int]]:
    """(colour, pawn, marker) the Ah Kinchil card may move now."""
    if ak_in_discard(game, state) or state.hands[state.turn] == 0:
        return []
    board = game.board
    occupied = occupied_spaces(game, state)
    out = []
    for colour, i, node in state.all_pawns():
        marker = board.ak_idol.get(colour)
        if marker is None or node == board.chamber or node == marker:
            continue
        if colour != state.current and board.progress[colour][node] <= board.progress[colour][marker]:
            continue
        if marker in occupied and state.option["ak_occupied"] == "forbid":
            continue
        out.append((colour, i, marker))
    return out


def ak_actions(game: TempleGame, state: TempleState) -> list[Action]:
    out = []
    occupied = occupied_spaces(game, state)
    progress = game.board.progress
    for colour, i, marker in ak_targets(game, state):
        # Audit: an own pawn already past its marker was offered "forward to its Ah Kinchil marker" (RU-Q23
        # lets it go back, pointless as that is); the card says which way the pawn would really go.
        ahead = progress[colour][marker] > progress[colour][state.pawn_at(colour, i)]
        verb = "forward" if ahead else "back"
        occupant = occupied.get(marker)
        out.append(
            {
                "type": "ahkinchil",
                "pawn": pawn_name(colour, i),
                "text": f"Play the Ah Kinchil card: {pawn_label(colour, i)} {verb} to its Ah Kinchil marker"
                f" {game.where(colour, marker)}{sends_back([occupant], AK_ONTO_PAWN)}",
            }
        )
    return out


def apply_ak(game: TempleGame, state: TempleState, action: Action, events: list[Event]) -> TempleState:
    colour, i = read_pawn(state, action.get("pawn"))
    board = game.board
    player = state.current
    if ak_in_discard(game, state):
        raise refuse("The Ah Kinchil card lies face up in the discard pile, so nobody holds it.", "RU-25")
    if state.hands[state.turn] == 0:
        raise refuse(f"{player.capitalize()} holds no cards.", "RU-25")
    node = state.pawn_at(colour, i)
    marker = board.ak_idol.get(colour)
    label = pawn_label(colour, i)
    if marker is None:
        raise refuse(f"The board has no Ah Kinchil marker for {colour}.", "RU-21")
    if node == board.chamber:
        raise refuse(f"{label} is in the Treasure Chamber, where nothing can move it.", "RU-25")
    if node == marker:
        raise refuse(f"{label} already stands on its Ah Kinchil marker.", "RU-25")
    if colour != player and board.progress[colour][node] <= board.progress[colour][marker]:
        raise refuse(f"{label} is not past its Ah Kinchil marker, so the card cannot send it back there.", "RU-Q23")
    occupant = occupied_spaces(game, state).get(marker)
    if occupant is not None and state.option["ak_occupied"] == "forbid":
        # Audit: "Blue 1 stands on that marker." named neither the marker nor why that stops the card.
        raise refuse(
            f"{pawn_label(*occupant)} stands on the {colour} Ah Kinchil marker {game.where(colour, marker)}, and"
            f" under this game's rules (ak_occupied = forbid) the card cannot move {label} onto a taken marker.",
            "RU-Q23",
        )
    verb = "moves" if colour == player else "sends"
    text = (
        f"{player.capitalize()} plays the Ah Kinchil card: {label} moves to its Ah Kinchil marker "
        f"{game.where(colour, marker)}."
        if colour == player
        else f"{player.capitalize()} plays the Ah Kinchil card and {verb} {label} back to its Ah Kinchil marker "
        f"{game.where(colour, marker)}."
    )
    events.append(Event("reward" if colour == player else "penalty", text, ("RU-25", "RU-21"), (player, colour)))
    state = state.with_pawn(colour, i, marker)  # first, as in a send-back (see ``send_back.send_back``)
    if occupant is not None:
        state = send_back(game, state, [occupant], events, AK_ONTO_PAWN)
    state = state.but(discard=(*state.discard, board.ak_card))
    state = draw_one(state, state.turn, events, just_played=True)
    return end_turn(game, state, events)
