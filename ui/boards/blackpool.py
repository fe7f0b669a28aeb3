"""Blackpool: the 9x9 grid with its rings and camps, travellers stacked with their riders."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from kivy.graphics import Color, Ellipse, Line, Rectangle

from ui.boards.paint import BACKGROUND, HIGHLIGHT, disc, fitted_text, ink_for, rgb, text

ZONE_RGB = {
    "edge": (0.82, 0.76, 0.6),
    "ring2": (0.45, 0.7, 0.9),
    "ring3": (0.25, 0.5, 0.8),
    "ring4": (0.12, 0.3, 0.62),
    "centre": (0.05, 0.05, 0.1),
}


def travellers(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Travellers from the position document, listed or keyed by id."""
    raw = document.get("travellers", [])
    items: Iterable[Any] = raw.items() if isinstance(raw, Mapping) else enumerate(raw)
    out = []
    for key, t in items:
        entry = dict(t)
        entry.setdefault("id", key)
        colour, _, number = str(entry["id"]).partition("-")
        entry.setdefault("colour", colour)
        entry.setdefault("number", number)
        out.append(entry)
    return out


def stacks(document: Mapping[str, Any], camps: Mapping[str, str], centre: str) -> dict[str, list[list[dict[str, Any]]]]:
    """Square id -> stacks bottom-up, so a rider is drawn on its carrier."""
    pieces = travellers(document)
    by_id = {p["id"]: p for p in pieces}
    rider_of = {p["on"]: p["id"] for p in pieces if p.get("on")}
    out: dict[str, list[list[dict[str, Any]]]] = {}
    for piece in pieces:
        if piece.get("on") in by_id:
            continue  # drawn on top of its carrier
        stack = [piece]
        while stack[-1]["id"] in rider_of and len(stack) < 12:
            stack.append(by_id[rider_of[stack[-1]["id"]]])
        at = piece.get("at", centre)
        square = camps.get(piece["colour"], at) if at == "camp" else centre if at == "centre" else at
        out.setdefault(square, []).append(stack)
    return out


STRIP = 0.1  # share of the height for the players' strip under the board
LABEL = 0.33  # the square's name: its height as a share of the square, in the top-left corner
COIN_RGB = (0.95, 0.78, 0.2)


def draw(widget: Any, view: Any) -> None:
    board = view.game.data["board"]
    width, height = board["width"], board["height"]
    strip_h = widget.height * STRIP
    side = min(widget.width, widget.height - strip_h)
    cell = side / max(width, height)
    x0 = widget.x + (widget.width - cell * width) / 2
    y0 = widget.y + strip_h + (widget.height - strip_h - cell * height) / 2
    camp_owner = {sq: colour for colour, sq in board["camps"].items()}
    centre = next(s["id"] for s in board["squares"] if s["zone"] == "centre")
    by_square = stacks(view.document, board["camps"], centre)

    def origin(square: Mapping[str, Any]) -> tuple[float, float]:
        # Row 1 at the bottom, as the board data and the terminal view have it: drawn the other way up,
        # every path ran clockwise on the screen where the rules say anti-clockwise.
        return x0 + square["x"] * cell, y0 + square["y"] * cell

    with widget.canvas:
        Color(*BACKGROUND, 1)
        Rectangle(pos=widget.pos, size=widget.size)
        for square in board["squares"]:
            x, y = origin(square)
            owner = camp_owner.get(square["id"])
            Color(*(rgb(owner) if owner else ZONE_RGB.get(square["zone"], (0.5, 0.5, 0.5))), 1)
            Rectangle(pos=(x + 1, y + 1), size=(cell - 2, cell - 2))
            if square["id"] == centre and by_square.get(centre):
                continue  # "the centre" in the texts; its crowd of pieces would leave a scrap of its name
            label_ink = (0, 0, 0) if square["zone"] in ("edge", "ring2") or owner else (1, 1, 1)
            # The texts name squares ("forward 3 to e3"): the name as large as the corner left free of pieces allows.
            fitted_text(x + 3, y + cell * (1 - LABEL / 2) - 1, square["id"], cell * LABEL, cell * 0.45, label_ink,
                        anchor="left", bold=True)  # fmt: skip
        for square in board["squares"]:
            x, y = origin(square)
            piles = by_square.get(square["id"], [])
            named = square["id"] != centre  # the texts call the centre "the centre": its pieces may cover its name
            for i, stack in enumerate(piles):
                _draw_stack(stack, x, y, cell, i, len(piles), frozen_ring=True, clear_name=named)
        _draw_players((widget.x, widget.y, widget.width, strip_h), view.document, board["camps"])


def _draw_players(
    box: tuple[float, float, float, float], document: Mapping[str, Any], camps: Mapping[str, str]
) -> None:
    """Each player's coins and travellers home (a pip each), the one to play edged in gold, then the decks' cards.

    Coins are spent on the charm deck and never showed anywhere, though the
    buttons count them ("Spend a coin on the charm deck (3 left)").
    """
    x, y, w, h = box
    players = [str(p) for p in document.get("players") or []]
    if h < 8 or not players:
        return
    coins = document.get("coins") or {}
    home: dict[str, int] = {}
    for piece in travellers(document):
        if piece.get("at") == "camp" or piece.get("at") == camps.get(piece["colour"]):
            home[piece["colour"]] = home.get(piece["colour"], 0) + 1
    decks = document.get("decks") or {}
    left = {name: sum(v for v in cards.values() if isinstance(v, int)) for name, cards in decks.items()
            if isinstance(cards, Mapping)}  # fmt: skip
    segment = w / (len(players) + (1 if left else 0))
    font = h * 0.4
    pip = h * 0.12
    for k, player in enumerate(players):
        sx = x + k * segment
        if player == document.get("turn"):
            Color(*HIGHLIGHT, 1)
            Line(rectangle=(sx + 2, y + 2, segment - 4, h - 4), width=1.5)
        cy = y + h / 2
        disc(sx + h * 0.35, cy, h * 0.25, rgb(player), (1, 1, 1), 1.2)
        # Coins as a gold coin with its count (words shrank unreadably in a quarter of a 400 px board).
        disc(sx + h * 0.95, cy, h * 0.28, COIN_RGB, (0, 0, 0), 1.0)
        text(sx + h * 0.95, cy, str(coins.get(player, 0)), h * 0.34, (0, 0, 0), bold=True)
        for i in range(3):  # travellers home, one pip each, filled in the player's colour
            disc(sx + h * (1.48 + 0.32 * i), cy, pip, rgb(player) if i < home.get(player, 0) else BACKGROUND,
                 (1, 1, 1), 1.0)  # fmt: skip
    if left:
        words = "  ".join(f"{name} {n}" for name, n in left.items())
        sx = x + len(players) * segment
        fitted_text(sx + h * 0.2, y + h / 2, words, font, segment - h * 0.3, (0.8, 0.8, 0.8), anchor="left")


def _draw_stack(
    stack: list[dict[str, Any]],
    x: float,
    y: float,
    cell: float,
    i: int,
    n: int,
    frozen_ring: bool,
    clear_name: bool = False,
) -> None:
    """One carrier with its riders above it; several stacks on a square share it in a small grid.

    With ``clear_name`` the pieces keep off the square's name in its top-left
    corner: a lone stack sits down and to the right, several share the part
    of the square below the name.
    """
    if n == 1 and clear_name:
        radius = cell * 0.27
        cx, cy = x + cell * 0.62, y + cell * 0.37 - radius * 0.3 * (len(stack) - 1)
    else:
        room = cell * (1 - LABEL) if clear_name else cell
        columns = max(1, math.ceil(math.sqrt(n)))
        rows = math.ceil(n / columns)
        slot = cell / columns
        radius = min(slot, room / rows) * (0.34 if n == 1 else 0.4)
        cx = x + slot * (i % columns + 0.5)
        cy = y + room - (room / rows) * (i // columns + 0.5) - radius * 0.3 * (len(stack) - 1)
    for level, piece in enumerate(stack):
        r = radius * (0.85**level)
        py = cy + level * radius * 0.6
        Color(0, 0, 0, 1)
        Ellipse(pos=(cx - r - 1.5, py - r - 1.5), size=(2 * r + 3, 2 * r + 3))
        Color(*rgb(piece["colour"]), 1)
        Ellipse(pos=(cx - r, py - r), size=(2 * r, 2 * r))
        if piece.get("frozen") and frozen_ring:
            Color(0.85, 0.95, 1, 1)
            Line(circle=(cx, py, r + 2), width=2)
        text(cx, py, str(piece["number"]), r * 1.1, ink_for(piece["colour"]), bold=True)
