"""A terminal drawing of the board and the scores, for players checking the app against the table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.ttd import scoring
from companion.games.ttd.state import EMPTY, GUIDE, SLOTS, TtdState

if TYPE_CHECKING:
    from companion.games.ttd.rules import ThroughTheDesert


def describe(game: ThroughTheDesert, state: TtdState) -> list[str]:
    board = game.board_of(state)
    players = state.players
    lines = [f"Through the Desert - {len(players)} players, phase {state.phase}"]
    lines.append(
        "Players: "
        + ", ".join(f"{i + 1}={p}" for i, p in enumerate(players))
        + "   Camels: "
        + ", ".join(f"{game.colour_letters[c]}={cid}" for c, cid in enumerate(game.colour_ids))
    )
    values = "/".join(str(v) for v in sorted(game.token_counts))  # a café's tokens may be worth 1, 2 and 4
    lines.append(
        f"Key: Kn leader (player n), kn camel, @n guide, ^ mountain, P oasis, {values} water hole, . sand, ~ unused"
    )
    # A hex is named (q,r): row r, and q counted cell by cell along the row from the q its label gives.
    lines.append("Hex (q,r): the row r, then count along it from the q shown at its start")
    rows: dict[int, list[tuple[int, int]]] = {}
    for h, (q, r) in enumerate(board.coords):
        rows.setdefault(r, []).append((q + (r - (r & 1)) // 2, h))
    min_col = min(col for row in rows.values() for col, _ in row)
    for r in sorted(rows):
        cells = dict(rows[r])
        width = max(cells) - min_col + 1
        text = "  " if r & 1 else ""
        for col in range(min_col, min_col + width):
            h = cells.get(col)
            text += f"{_cell(game, state, board, h):<4}"
        first_q = min_col - (r - (r & 1)) // 2  # the q of the row's first drawn cell
        lines.append(f"r{r:>3} q{first_q:>3} " + text.rstrip())
    if state.phase in ("leaders", "camels"):
        lines.append(f"To act: {state.player} (camels placed this turn: {state.placed})")
    lines.append("Supply: " + ", ".join(f"{cid} {state.supply[c]}" for c, cid in enumerate(game.colour_ids)))
    summary = scoring.breakdown(board, state, game.colour_ids)
    label = "Final score" if state.phase == "over" else "Score so far"
    for p in players:
        s = summary["scores"][p]
        lines.append(
            f"{label} {p}: {s['total']} (water {s['water']['points']}, oases {s['oases']['points']}, "
            f"areas {s['areas']['points']}, longest {s['longest']['points']})"
        )
    if state.end:
        lines.append(f"End: {state.end}")
    return lines


def _cell(game: ThroughTheDesert, state: TtdState, board, h: int | None) -> str:
    if h is None:
        return ""
    bit = 1 << h
    code = state.cells[h]
    if code != EMPTY:
        p, c = divmod(code, SLOTS)
        if c == GUIDE:
            return f"@{p + 1}"
        letter = game.colour_letters[c]
        return f"{letter if h in state.leaders else letter.lower()}{p + 1}"
    if not board.in_play & bit:
        return "~"
    if board.mountain & bit:
        return "^"
    if board.palm_mask & bit:
        return "P"
    if board.site_mask & bit:
        return str(state.values[h]) if state.values[h] else "w"
    return "."
