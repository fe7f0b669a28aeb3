"""Blackpool: the 9x9 grid with its rings and camps, travellers stacked with their riders."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from kivy.graphics import Color, Ellipse, Line, Rectangle

from ui.boards.paint import BACKGROUND, ink_for, rgb, text

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


def draw(widget: Any, view: Any) -> None:
    board = view.game.data["board"]
    width, height = board["width"], board["height"]
    side = min(widget.width, widget.height)
    cell = side / max(width, height)
    x0 = widget.x + (widget.width - cell * width) / 2
    y0 = widget.y + (widget.height - cell * height) / 2
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
            label_ink = (0, 0, 0) if square["zone"] in ("edge", "ring2") or owner else (0.85, 0.85, 0.85)
            text(x + 3, y + cell - 2, square["id"], cell * 0.2, label_ink, anchor="topleft")
        for square in board["squares"]:
            x, y = origin(square)
            piles = by_square.get(square["id"], [])
            for i, stack in enumerate(piles):
                _draw_stack(stack, x, y, cell, i, len(piles), frozen_ring=True)


def _draw_stack(
    stack: list[dict[str, Any]], x: float, y: float, cell: float, i: int, n: int, frozen_ring: bool
) -> None:
    """One carrier with its riders above it; several stacks on a square share it in a small grid."""
    columns = max(1, math.ceil(math.sqrt(n)))
    rows = math.ceil(n / columns)
    slot = cell / columns
    radius = min(slot, cell / rows) * (0.34 if n == 1 else 0.4)
    cx = x + slot * (i % columns + 0.5)
    cy = y + cell - (cell / rows) * (i // columns + 0.5) - radius * 0.3 * (len(stack) - 1)
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
