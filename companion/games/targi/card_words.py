"""What each Targi card says on the board, in its forms from the longest to the shortest, and which fits.

The board (ui/boards/targi.py) writes a card's gain, yield or costs, not its
printed name, in one 16 px type at 800x480, picking the longest form that
fits. A café's numbers can outgrow every form ("+5D +5S +5P +5G" on a card
with one line for it), and the board then shrinks the text to 7 px. The forms
and the choice live here, pure Python, so ``companion data validate`` can warn
of it without a screen: widths come from ``companion.screen_font.board_width``
(the screen font's own metrics) and the cards' room from ``ROOM`` below, both
measured again by UI tests (tests/ui/test_targi_card_words.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.games.targi.board import POSITION
from companion.screen_font import board_width

LETTER = {"dates": "D", "salt": "S", "pepper": "P", "gold": "G", "vp": "VP"}
Width = Callable[[str], float]  # a line's width in px at the board's type size


def amounts(resources: Mapping[str, Any], sep: str = " ") -> str:
    """'+2 dates +1 salt' in the fixed resource order, so cards with the same yield read the same; one date is
    "+1 date", as every other text says it (the board read "+1 dates")."""
    parts = [f"+{resources[k]} {'VP' if k == 'vp' else 'date' if k == 'dates' and resources[k] == 1 else k}"
             for k in LETTER if resources.get(k)]
    if resources.get("choice"):
        parts.append(f"+{resources['choice']} any")
    return sep.join(parts)


def short_amounts(resources: Mapping[str, Any]) -> str:
    """'+1D +1P': a yield in the letters of the panels' goods chips, for a card too narrow for the words."""
    parts = [f"+{resources[k]}{LETTER[k]}" for k in LETTER if resources.get(k)]
    if resources.get("choice"):
        parts.append(f"+{resources['choice']} any")
    return " ".join(parts)


def short_cost(cost: Sequence[Mapping[str, Any]], sep: str = " / ") -> str:
    """A tribe card's cost options in letters ('2S 1D / 1G'): the same letters as the players' panels."""
    return sep.join(" ".join(f"{opt[k]}{LETTER[k]}" for k in LETTER if opt.get(k)) for opt in cost)


def border_gives(code: str, params: Mapping[str, Any]) -> str:
    """What a border card that gives goods gives, in the board's words ("+2 dates", "+1 any good"); "" for a card
    whose name is its action (Trader, Caravan, ...). Its buttons say it with the name: "Place a Targi on 2 (Palm
    Grove)" named a card the board shows as "+2 dates", and what the Targi would bring was not in the choice."""
    if code == "GAIN":
        return amounts(params.get("gain") or {})
    if code == "GAIN_CHOICE":
        return f"+{params.get('goods', 1)} any good"
    return ""


Lines = tuple[str, ...]  # a text's lines, top to bottom
# Each action's words, longest first: a card shows the first whose every line fits it at the board's text
# size. At 800x480 a border card is 74-78 px across for 16 px text, where "Silversmith" is 80 px.
ACTION_FORMS: dict[str, tuple[Lines, ...]] = {
    "NOBLE": (("Noble",),),
    "CARAVAN": (("Caravan",),),
    "TRADER": (("Trader",),),
    "SILVERSMITH": (("Silversmith",), ("Silver-", "smith"), ("Smith",)),
    "TRIBAL_EXPANSION": (("Tribal Expansion",), ("Tribal", "Expansion"), ("Expansion",), ("Expand",)),
    "FATA_MORGANA": (("Fata Morgana",), ("Fata", "Morgana"), ("Fata M.",)),
}


def border_forms(card: Mapping[str, Any]) -> tuple[Lines, ...]:
    """What a border card does, in words from the longest to the shortest: players look for what a card gives.

    A gain spells its goods out, one a line where there is room ("+1 date",
    "+1 pepper"), else in the panels' letters ("+1D +1P"); an action its name,
    shortened only where the card is too narrow for it. The printed name is
    in every answer about the card ("Place a Targi on 3 (Silversmith)").
    """
    action = card.get("action") or {}
    code = action.get("code", "")
    if code == "GAIN":
        gain = action.get("gain") or {}
        words = amounts(gain, "\n").split("\n")
        return (tuple(words), (amounts(gain),), (short_amounts(gain),), tuple(short_amounts(gain).split()))
    if code == "GAIN_CHOICE":
        n = action.get("goods", 1)
        return ((f"+{n} any good",), (f"+{n} any", "good"), (f"+{n} any",))
    if code == "RAID":
        return ((f"Raid {action.get('k', '')}".strip(),),)
    return ACTION_FORMS.get(code, ((str(card.get("label", code)),),))


def fits(form: Lines, width: float, lines: int, width_of: Width) -> bool:
    """Whether ``form`` has at most ``lines`` lines, each no wider than ``width``: drawn whole, unshrunk."""
    return len(form) <= lines and all(width_of(line) <= width for line in form)


def pick(forms: Sequence[Lines], width: float, lines: int, width_of: Width) -> Lines:
    """The first of ``forms`` with at most ``lines`` lines, each no wider than ``width``; else the last."""
    return next((form for form in forms if fits(form, width, lines, width_of)), forms[-1])


def drawn_whole(form: Lines, width: float, lines: int, width_of: Width) -> bool:
    """Whether the board draws ``form`` at its type size: wrapped at spaces (as ``fit_text`` does), it takes at
    most ``lines`` lines ``width`` wide, and no word is wider than that; else the board shrinks it, to 7 px at worst.
    """
    wrapped = 0
    for line in form:
        words = line.split()
        if any(width_of(word) > width for word in words):
            return False
        current = ""
        for word in words:
            joined = f"{current} {word}" if current else word
            if current and width_of(joined) > width:
                wrapped += 1
                current = word
            else:
                current = joined
        wrapped += 1
    return wrapped <= lines


def tribe_forms(card: Mapping[str, Any]) -> tuple[Lines, ...]:
    """A tribe card's VP over its cost options, the options packed tighter where the card is narrow."""
    vp = f"{card.get('vp', 0)} VP"
    cost = card.get("cost") or []
    forms = [(vp, short_cost(cost, sep)) for sep in (" / ", "/")]
    packed = "/".join("".join(part.split()) for part in short_cost(cost).split(" / "))
    return (*forms, (vp, packed), (f"{vp} {packed}",))


def goods_forms(card: Mapping[str, Any], fallback: str) -> tuple[Lines, ...]:
    """A goods card's yield, one good a line in words, else on one line, else in the panels' letters."""
    gain = card.get("yield") or {}
    if not any(gain.values()):
        return ((fallback,),)
    return (tuple(amounts(gain, "\n").split("\n")), (amounts(gain),), (short_amounts(gain),))


# The room for a card's words on the table's board at 800x480 (a 398 px square, type 16 px), in px across and
# lines, as ui/boards/targi.py lays it out: border cards by grid column and row, centre cards all alike.
# tests/ui/test_targi_card_words.py computes it again from the board's Layout.
BORDER_WIDTH = {0: 67.98, 1: 71.98, 2: 71.98, 3: 71.98, 4: 67.98}  # by column: the card's width less 6 px of margin
BORDER_LINES = {0: 1, 1: 2, 2: 2, 3: 2, 4: 1}  # by row: the lines under the number
CENTRE_ROOM = (73.98, 2)  # a centre card's body under its band: its width less 4 px of margin


def too_small(files: Mapping[str, Any], sources: Mapping[str, str]) -> list[str]:
    """Each card of a set whose words Targi's board at 800x480 would draw under its 16 px type, or cut.

    A border card's gain, a goods card's yield, a tribe card's costs: each is
    taken in the form the board picks (``pick``) and wrapped as the board
    wraps it; when it still does not fit, the board shrinks it (to 7 px at
    worst). The warning names the file, the card, the field, what would be
    drawn and the most of it that fits (its first goods or cost options).
    ``sources`` name each kind's file.
    """
    out: list[str] = []
    fields = {"border": ("action", "goods"), "goods": ("yield", "goods"), "tribe": ("cost", "cost options")}
    for kind, (field, parts) in fields.items():
        for card in _cards(files, kind):
            room = _room(kind, card)
            if room is None:
                continue
            shown = _drawn(kind, card, room)
            if shown is None or drawn_whole(shown, *room, _width):
                continue
            fewer = next((f for f in map(lambda c: _drawn(kind, c, room), _fewer(kind, card))
                          if f is not None and drawn_whole(f, *room, _width)), None)  # fmt: skip
            most = f"the most that fits is {' '.join(fewer)!r}" if fewer else "not even one fits"
            name = f"card {card.get('no') if kind == 'border' else card.get('id')}"
            out.append(
                f"{sources.get(kind, kind + '.json')}: {name} ({card.get('label', '')!r}): its {field} is drawn "
                f"as {' '.join(shown)!r} on Targi's board, which at 800x480 shrinks it under 16 px or cuts it (the "
                f"card has {room[1]} line{'s' if room[1] > 1 else ''} {room[0]:.0f} px wide for it); {most}: "
                f"give it fewer {parts}"
            )
    return out


def _room(kind: str, card: Mapping[str, Any]) -> tuple[float, int] | None:
    if kind != "border":
        return CENTRE_ROOM
    cell = POSITION.get(card.get("no"))  # type: ignore[arg-type]
    return (BORDER_WIDTH[cell[1]], BORDER_LINES[cell[0]]) if cell is not None else None


def _drawn(kind: str, card: Mapping[str, Any], room: tuple[float, int]) -> Lines | None:
    """The form the board picks for ``card``; None for words outside the width table (fixed action names)."""
    forms = border_forms(card) if kind == "border" else goods_forms(card, "") if kind == "goods" else tribe_forms(card)
    if any(board_width(line) is None for form in forms for line in form):
        return None
    return pick(forms, *room, _width)


def _fewer(kind: str, card: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """``card`` with its first goods or cost options only, one fewer each time: what the warning offers instead."""
    if kind == "tribe":
        cost = list(card.get("cost") or [])
        return [{**card, "cost": cost[:k]} for k in range(len(cost) - 1, 0, -1)]
    key = "yield" if kind == "goods" else "gain"
    holder = card if kind == "goods" else card.get("action") or {}
    given = [(k, v) for k, v in (holder.get(key) or {}).items() if v]
    order = [*LETTER, "choice"]
    given.sort(key=lambda item: order.index(item[0]) if item[0] in order else len(order))
    out = []
    for k in range(len(given) - 1, 0, -1):
        part = {**holder, key: dict(given[:k])}
        out.append(part if kind == "goods" else {**card, "action": part})
    return out


def _width(line: str) -> float:
    return board_width(line) or 0.0


def _cards(files: Mapping[str, Any], kind: str) -> list[Mapping[str, Any]]:
    content = files.get(kind)
    cards = content.get("cards") if isinstance(content, Mapping) else None
    return [c for c in cards or [] if isinstance(c, Mapping)]
