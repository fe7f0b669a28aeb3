"""Targi's data: border cards, goods cards and tribe cards, their schemas and the catalogue.

Every card's function is a code from a small vocabulary (documented in
docs/games/targi.md), so a café can enter its own copy as data without any
card text: the engine only ever reads codes and numbers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.errors import quoted
from companion.game import said_as
from companion.phrases import series
from companion.schema import Bool, Check, Enum, Int, ListOf, MapOf, Obj, Str, copy_warnings, header, is_known

GOODS = ("dates", "salt", "pepper")
RESOURCES = (*GOODS, "gold", "vp")
COST_RESOURCES = (*GOODS, "gold")
SYMBOLS = ("well", "camel", "oasis", "targia", "tent")
CORNERS = (4, 8, 12, 16)
BORDER_CODES = ("NOBLE", "CARAVAN", "TRIBAL_EXPANSION", "FATA_MORGANA", "SILVERSMITH", "TRADER", "GAIN",
                "GAIN_CHOICE", "RAID")
# Action codes an "actions" hook may name: border codes plus the two kinds of central card.
HOOK_ACTIONS = (*(c for c in BORDER_CODES if c != "RAID"), "GOODS_CARD", "TRIBE_CARD")
HOOKS = ("placement", "intersections", "actions", "raids", "limits", "hand", "display", "final")
ENDGAME_PER = ("symbol", "gold", "goods", "row", "cards")
# The opening centre (TG-1): goods on the corners and the middle, tribe cards between, all face down at first.
LAYOUT = ("goods", "tribe", "goods", "tribe", "goods", "tribe", "goods", "tribe", "goods")
CARD_COPIES = ("count",)  # a goods or tribe entry differing from another of its name only here is a copy of it
COUNT_MAX = 99  # copies of one card; the house decks (19 goods, 45 tribe cards) are our own design, not the rules

Bundle = tuple[tuple[str, int], ...]


def bundle(mapping: Mapping[str, int]) -> Bundle:
    """A resource bundle in a canonical order, zero entries dropped, so equal bundles compare equal."""
    return tuple((r, int(mapping[r])) for r in RESOURCES if mapping.get(r))


def goods_count(n: int) -> str:
    """``n`` goods as said aloud: "1 good", "3 goods" (the table heard "loses 1 goods")."""
    return f"{n} good" if n == 1 else f"{n} goods"


def bundle_text(b: Bundle | Mapping[str, int]) -> str:
    return _bundle_text(tuple(b.items()) if isinstance(b, Mapping) else b)


@lru_cache(maxsize=4096)
def _bundle_text(items: tuple[tuple[str, int], ...]) -> str:
    parts = []
    for name, n in items:
        if not n:
            continue
        label = {"vp": "VP", "dates": "date" if n == 1 else "dates"}.get(name, name)
        parts.append(f"{n} {label}")
    # "and" before the last: "costs 3 pepper or 1 pepper, 1 gold" read as three choices, and aloud as a list
    return series(parts) if parts else "nothing"


# -- schemas ---------------------------------------------------------------------------
def _gain_schema(keys: tuple[str, ...], maximum: int = 10) -> Check:
    return MapOf(Int(0, maximum), Enum(*keys))


GAIN = _gain_schema(RESOURCES)
COST = _gain_schema(COST_RESOURCES)

BORDER_ACTION_PARAMS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "NOBLE": ({}, {}),
    "CARAVAN": ({}, {}),
    "TRIBAL_EXPANSION": ({}, {}),
    "FATA_MORGANA": ({}, {}),
    "SILVERSMITH": ({}, {}),
    "TRADER": ({}, {}),
    "GAIN": ({"gain": GAIN}, {}),
    "GAIN_CHOICE": ({"goods": Int(1, 5)}, {}),
    "RAID": ({"k": Int(1, 4), "vp": Int(0, 10)}, {"goods": Int(0, 10), "gold": Int(0, 10)}),
}

PERMANENT_PARAMS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "placement": ({"robber": Bool()}, {}),
    "intersections": ({"unused_marker": GAIN}, {}),
    "actions": ({"action": Enum(*HOOK_ACTIONS), "gain": GAIN}, {}),
    "raids": ({}, {"immune": Bool(), "reduce": Int(0, 5)}),
    "limits": ({}, {"goods": Int(0, 20), "gold": Int(0, 10)}),
    "hand": ({"size": Int(1, 3)}, {}),
    "display": ({"wild": Bool()}, {}),
    "final": ({}, {"row_same": Int(0, 10), "row_different": Int(0, 10)}),
}

EFFECT_PARAMS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "gain": ({"gain": GAIN}, {}),
    "gain_choice": ({"goods": Int(1, 5)}, {}),
    "endgame": (
        {"per": Enum(*ENDGAME_PER), "vp": Int(1, 10)},
        {"symbol": Enum(*SYMBOLS), "every": Int(1, 20), "max": Int(1, 30)},
    ),
}


def _coded(table: Mapping[str, tuple[dict[str, Check], dict[str, Check]]], field: str = "code") -> Check:
    """An object whose other fields depend on its code: one clear message per fault."""

    def check(value: Any, path: str) -> list[str]:
        if not isinstance(value, dict):
            return [f"{path}: expected an object"]
        code = value.get(field)
        if not is_known(code, table):
            return [f"{path}.{field}: {quoted(code)} is not one of {', '.join(table)}"]
        required, optional = table[code]
        return Obj({field: Enum(code), **required}, optional)(value, path)

    return check


def _effect(value: Any, path: str) -> list[str]:
    if isinstance(value, dict) and value.get("code") == "permanent":
        hook_check = _coded(PERMANENT_PARAMS, "hook")
        rest = {k: v for k, v in value.items() if k != "code"}
        return hook_check(rest, path)
    return _coded(EFFECT_PARAMS)(value, path)


BORDER_SCHEMA = Obj(
    {
        **header("targi", "border"),
        "cards": ListOf(
            Obj({"no": Int(1, 16), "label": Str(), "action": _coded(BORDER_ACTION_PARAMS)}, {"note": Str()}),
            16,
            16,
            unique_by="no",
            distinct="label",
        ),
    },
    {"note": Str()},
)

GOODS_SCHEMA = Obj(
    {
        **header("targi", "goods"),
        "cards": ListOf(
            Obj(
                {"id": Str(), "label": Str(), "yield": MapOf(Int(0, 5), Enum(*RESOURCES, "choice"))},
                {"count": Int(1, COUNT_MAX)},
            ),
            1,
            unique_by="id",
            distinct="label",
            copies=CARD_COPIES,
        ),
    },
    {"note": Str()},
)

TRIBE_SCHEMA = Obj(
    {
        **header("targi", "tribe"),
        "cards": ListOf(
            Obj(
                {
                    "id": Str(),
                    "label": Str(),
                    "symbol": Enum(*SYMBOLS),
                    "cost": ListOf(COST, 1, 4),
                    "vp": Int(1, 3),
                    "effects": ListOf(_effect),
                },
                {"count": Int(1, COUNT_MAX)},
            ),
            1,
            unique_by="id",
            distinct="label",
            copies=CARD_COPIES,
        ),
    },
    {"note": Str()},
)

DATA_SCHEMAS: dict[str, Check] = {"border": BORDER_SCHEMA, "goods": GOODS_SCHEMA, "tribe": TRIBE_SCHEMA}


def cross_check(files: Mapping[str, Any]) -> list[str]:
    """Faults a schema cannot see: the ring's shape, deck sizes, ids shared between decks."""
    problems: list[str] = []
    border = files["border"]["cards"]
    codes = [c["action"]["code"] for c in border]
    for card in border:
        where = f"border.json card no {card['no']}"
        is_raid = card["action"]["code"] == "RAID"
        if card["no"] in CORNERS and not is_raid:
            problems.append(f"{where}: a corner card must be a RAID")
        if card["no"] not in CORNERS and is_raid:
            problems.append(f"{where}: a RAID card must sit on a corner (4, 8, 12 or 16)")
        action = card["action"]
        if is_raid and ("goods" in action) == ("gold" in action):
            problems.append(f"{where}: a RAID asks for either goods or gold (exactly one of them)")
        if action["code"] == "GAIN" and not any(action["gain"].values()):
            problems.append(f"{where}: a GAIN card must give something")
    raid_ks = sorted(c["action"]["k"] for c in border if c["action"]["code"] == "RAID")
    if raid_ks and raid_ks != sorted(set(raid_ks)):
        problems.append("border.json: two raid cards share the same number k")
    for code in ("NOBLE", "CARAVAN", "TRIBAL_EXPANSION"):
        if codes.count(code) != 1:
            problems.append(f"border.json: needs exactly one {code} card, found {codes.count(code)}")
    for deck in ("goods", "tribe"):
        total, needed = sum(c.get("count", 1) for c in files[deck]["cards"]), LAYOUT.count(deck)
        if total < needed:
            problems.append(
                f"{deck}.json: the deck holds {total} cards; the opening centre alone lays {needed} {deck} cards (TG-1)"
            )
    for card in files["goods"]["cards"]:
        y = card["yield"]
        if not any(y.values()):
            problems.append(f"goods.json card {quoted(card['id'])}: the yield gives nothing")
    for card in files["tribe"]["cards"]:
        for i, alt in enumerate(card["cost"]):
            if not any(alt.values()):
                problems.append(f"tribe.json card {quoted(card['id'])}: cost option {i + 1} is empty")
        for i, effect in enumerate(card["effects"]):
            # Scoring reads "symbol" only when counting per symbol: left out there the card scores
            # nothing, and given with another "per" it is ignored; either way the café meant otherwise.
            if effect["code"] != "endgame" or (effect["per"] == "symbol") == ("symbol" in effect):
                continue
            where = f"tribe.json card {quoted(card['id'])}: effects[{i}]"
            if effect["per"] == "symbol":
                problems.append(f"{where}: an endgame count per symbol must name the 'symbol' ({', '.join(SYMBOLS)})")
            else:
                per = quoted(effect["per"])
                problems.append(f"{where}: 'symbol' is read only with per 'symbol', not with per {per}")
    shared = {c["id"] for c in files["goods"]["cards"]} & {c["id"] for c in files["tribe"]["cards"]}
    for card_id in sorted(shared):
        problems.append(f"card id {quoted(card_id)} is used in both goods.json and tribe.json")
    problems.extend(_labels_across(files))
    return problems


# How `why` reads a card by its place, before any label (``TargiGame.place_named``): "centre 2-1" or "2-1", "card 5";
# a bare number or "2,1" is read as a number or a pair before a name too (``companion.places.place_from_text``).
CENTRE_WORDS = re.compile(r"(?:centre ?)?([1-3]) ?- ?([1-3])")
CARD_WORDS = re.compile(r"card ?(\d{1,3})")
PLACE_WORDS = re.compile(r"(?:centre ?)?\d+ ?[-,] ?\d+|(?:card ?)?\d+")


def _labels_across(files: Mapping[str, Any]) -> list[str]:
    """A label two files share: a goods and a tribe card, or a border card and a centre card, under one name.

    The table names a place and a face-up card by its label ("why Salt
    Pans"), read as `why` reads it (``said_as``, "The Salt  Pans" is "salt pans"), and a
    label that reads as a number or centre place ("7", "card 7", "2-1") is read as that
    place: such a card could never be asked about by name. A centre card labelled as a border card
    could never be asked about by name, and a goods and a tribe card of one
    label left "takes Salt Pans" saying neither which card nor what it gave.
    """
    first: dict[str, str] = {}
    problems: list[str] = []
    for kind, key in (("border", "no"), ("goods", "id"), ("tribe", "id")):
        mine: dict[str, str] = {}
        for card in files[kind]["cards"]:
            name = said_as(card["label"])  # as `why` reads it: "The Salt Pans" is "salt pans"
            where = f"{kind}.json card {'no ' if key == 'no' else ''}{quoted(card[key]) if key == 'id' else card[key]}"
            if PLACE_WORDS.fullmatch(name.replace("center", "centre")):
                problems.append(
                    f"{where}: label {quoted(card['label'])} reads as a card's number or centre place, which `why` "
                    "takes before any name; give it a word"
                )
            elif name in first:
                problems.append(
                    f"{where}: label {quoted(card['label'])} is also the label of {first[name]}; the table names "
                    "border and centre cards by label, so give each its own"
                )
            mine.setdefault(name, where)
        for name, where in mine.items():
            first.setdefault(name, where)
    return problems


def copy_notes(files: Mapping[str, Any], sources: Mapping[str, str]) -> list[str]:
    """A café's goods or tribe entries that are copies of an earlier card (``copy_warnings``)."""
    notes: list[str] = []
    for deck in ("goods", "tribe"):
        if deck in files:
            where = f"{sources.get(deck, deck + '.json')}: cards"
            notes.extend(copy_warnings(files[deck]["cards"], where, "label", "id", CARD_COPIES))
    return notes


# -- the catalogue the engine reads ------------------------------------------------------
@dataclass(frozen=True)
class BorderCard:
    no: int
    label: str
    code: str
    params: Mapping[str, Any]


@dataclass(frozen=True)
class GoodsCard:
    id: str
    label: str
    gain: Bundle
    choice: int
    count: int


@dataclass(frozen=True)
class Effect:
    code: str
    hook: str | None
    params: Mapping[str, Any]


@dataclass(frozen=True)
class TribeCard:
    id: str
    label: str
    symbol: str
    costs: tuple[Bundle, ...]
    vp: int
    effects: tuple[Effect, ...]
    count: int

    def permanent(self, hook: str) -> tuple[Effect, ...]:
        return tuple(e for e in self.effects if e.code == "permanent" and e.hook == hook)


class Catalog:
    """The cards of one data set, indexed for the engine."""

    def __init__(self, files: Mapping[str, Any]) -> None:
        self.border: dict[int, BorderCard] = {
            c["no"]: BorderCard(c["no"], c["label"], c["action"]["code"], dict(c["action"]))
            for c in files["border"]["cards"]
        }
        self.goods: dict[str, GoodsCard] = {}
        for c in files["goods"]["cards"]:
            y = c["yield"]
            self.goods[c["id"]] = GoodsCard(c["id"], c["label"], bundle(y), int(y.get("choice", 0)), c.get("count", 1))
        self.tribe: dict[str, TribeCard] = {}
        for c in files["tribe"]["cards"]:
            effects = tuple(
                Effect(e["code"], e.get("hook"), {k: v for k, v in e.items() if k not in ("code", "hook")})
                for e in c["effects"]
            )
            costs = tuple(dict.fromkeys(bundle(alt) for alt in c["cost"]))
            self.tribe[c["id"]] = TribeCard(
                c["id"], c["label"], c["symbol"], costs, c["vp"], effects, c.get("count", 1)
            )
        self.deck_cards = {"goods": self.goods, "tribe": self.tribe}
        self.full_deck = {
            "goods": tuple(sorted((cid, c.count) for cid, c in self.goods.items())),
            "tribe": tuple(sorted((cid, c.count) for cid, c in self.tribe.items())),
        }
        self.last_raid = 16
        # Names more than one card goes by: a café's copy of a card entered twice (``copy_notes`` warns), whose
        # two draws would read alike. Those cards keep their ids beside the name; no other card shows its id.
        names = [said_as(c.label) for c in (*self.goods.values(), *self.tribe.values())]
        self._shared = {name for name in names if names.count(name) > 1}

        self._texts: dict[tuple[str, str], str] = {}

    def card_label(self, card_id: str) -> str:
        """A goods or tribe card as the table reads it: its name, "Salt Block". The buttons, announcements,
        refusals and `why` said "Salt Block (G02)", an id of the data files that no card carries; only copies
        under one name (``_shared``) keep it, to tell their draws apart. ``catalogued`` is the referee's form."""
        card = self.goods.get(card_id) or self.tribe.get(card_id)
        if card is None:
            return card_id
        return f"{card.label} ({card_id})" if said_as(card.label) in self._shared else card.label

    def catalogued(self, card_id: str) -> str:
        """A card by its name and id, "Salt Block (G02)", where a referee reads or writes the JSON that names
        cards by id: the terminal's text board (``describe``, for `do`) and the dispute screen's Build list."""
        card = self.goods.get(card_id) or self.tribe.get(card_id)
        return f"{card.label} ({card_id})" if card else card_id

    def goods_text(self, card_id: str) -> str:
        if ("g", card_id) not in self._texts:
            self._texts["g", card_id] = self._goods_text(card_id)
        return self._texts["g", card_id]

    def tribe_text(self, card_id: str) -> str:
        if ("t", card_id) not in self._texts:
            self._texts["t", card_id] = self._tribe_text(card_id)
        return self._texts["t", card_id]

    def _goods_text(self, card_id: str) -> str:
        card = self.goods[card_id]
        parts = [bundle_text(card.gain)] if card.gain else []
        if card.choice:
            parts.append(f"{goods_count(card.choice)} of choice")
        return f"{self.card_label(card_id)}: " + " + ".join(parts)

    def _tribe_text(self, card_id: str) -> str:
        card = self.tribe[card_id]
        costs = " or ".join(bundle_text(c) for c in card.costs)
        told = [card_id] if said_as(card.label) in self._shared else []  # a copy's id, as ``card_label``
        return f"{card.label} ({', '.join([*told, card.symbol])}, {card.vp} VP, costs {costs})"
