"""Position builders for Targi tests: a set-up game, then small edits of its document."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.errors import IllegalAction
from companion.game import normalize_action
from companion.registry import create

W, B = "white", "black"
CENTRE = ["G01", "T41", "G02", "T42", "G03", "T43", "G04", "T44", "G06"]


def game() -> Any:
    return create("targi")


def fresh(options: dict[str, Any] | None = None, profile: str | None = None, centre: list[str] = CENTRE) -> Any:
    """A new game with the centre turned up from ``centre``: round 1, white to place."""
    g = game()
    s = g.setup([W, B], g.resolve_options(options or {}, profile))
    for card in centre:
        deck = "goods" if card.startswith("G") else "tribe"
        s, _ = g.apply(s, {"type": "draw", "deck": deck, "card": card})
    return s


def doc_of(state: Any) -> dict[str, Any]:
    return copy.deepcopy(game().to_document(state))


def load(doc: dict[str, Any]) -> Any:
    return game().from_document(doc)


def act(state: Any, action: dict[str, Any]) -> tuple[Any, list]:
    return game().apply(state, normalize_action(action))


def run(state: Any, *actions: dict[str, Any]) -> tuple[Any, list]:
    events: list = []
    for a in actions:
        state, ev = act(state, a)
        events.extend(ev)
    return state, events


def _pile(doc: dict[str, Any], deck: str) -> dict[str, int]:
    return doc["decks"][deck]["piles"][-1]["cards"]


def take(doc: dict[str, Any], card: str) -> None:
    """Remove one copy of ``card`` from its draw pile (so it can be placed elsewhere)."""
    deck = "goods" if card.startswith("G") else "tribe"
    pile = _pile(doc, deck)
    assert pile.get(card, 0) > 0, f"{card} is not in the {deck} pile"
    pile[card] -= 1
    if not pile[card]:
        del pile[card]


def put_back(doc: dict[str, Any], card: str) -> None:
    deck = "goods" if card.startswith("G") else "tribe"
    pile = _pile(doc, deck)
    pile[card] = pile.get(card, 0) + 1


def set_centre(doc: dict[str, Any], row: int, col: int, card: str | None) -> None:
    old = doc["centre"][row - 1][col - 1]
    if old and "card" in old:
        put_back(doc, old["card"])
    if card is None:
        doc["centre"][row - 1][col - 1] = None
    else:
        take(doc, card)
        doc["centre"][row - 1][col - 1] = {"card": card}


def set_supply(doc: dict[str, Any], player: str, **values: Any) -> None:
    sup = doc["supplies"][player]
    for key in ("hand",):
        if key in values:
            for c in sup[key]:
                put_back(doc, c)
            for c in values[key]:
                take(doc, c)
    if "rows" in values:
        for row in sup["rows"]:
            for c in row:
                put_back(doc, c)
        for row in values["rows"]:
            for c in row:
                take(doc, c)
        values["rows"] = [list(r) for r in values["rows"]]
    sup.update(values)


def actions_doc(actor: str = W, targi: list[tuple[int, str]] = (), markers: list[tuple[int, int, str]] = (),
                round_: int = 2, **kw: Any) -> dict[str, Any]:
    """A document in the action phase of ``round_`` with the given pieces out."""
    doc = doc_of(fresh(**kw))
    doc["round"] = round_
    doc["robber"] = round_ + (round_ - 1) // 3
    doc["stage"] = "actions"
    doc["actor"] = actor
    doc["start"] = actor
    doc["targi"] = [{"card": n, "player": p} for n, p in targi]
    doc["markers"] = [{"slot": [r, c], "player": p} for r, c, p in markers]
    return doc


def round_twelve(**supplies: dict[str, int]) -> dict[str, Any]:
    """Round 12, White to act with a Targi on Council Fire and a tribe marker on the goods card at centre 1-1;
    Black has finished. Using the goods card lays a tribe card face down there (TG-Q29)."""
    doc = actions_doc(W, targi=[(15, W)], markers=[(1, 1, W)], round_=12)
    doc["done"] = [B]
    for player, values in supplies.items():
        set_supply(doc, player, **values)
    return doc


def legal_types(state: Any) -> set[str]:
    return {a["type"] for a in game().legal_actions(state)}


def strip(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in a.items() if k != "text"} for a in actions]


def refused(state: Any, action: dict[str, Any], rule: str) -> IllegalAction:
    """The action is refused with ``rule`` and the state is untouched; check agrees."""
    g = game()
    before = g.to_document(state)
    with pytest.raises(IllegalAction) as err:
        g.apply(state, action)
    assert err.value.rule == rule, err.value.message
    assert g.to_document(state) == before
    ruling = g.check(state, action)
    assert not ruling.legal and ruling.rules == (rule,)
    return err.value
