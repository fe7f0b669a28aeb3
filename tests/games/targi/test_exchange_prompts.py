"""The Fata Morgana's, Silversmith's and Trader's prompts as a first-time table reads them over their buttons.

"White: exchange at the Trader, or finish." stood over a lone "Stop trading" button once White had traded
down to too few goods: the table looked for exchanges that were not there, and for a "finish" no button said
(the Silversmith's said "Make no exchange", the Fata Morgana's "Leave the markers where they are")."""

from __future__ import annotations

from typing import Any

from tests.games.targi.helpers import W, act, actions_doc, game, load, set_supply


def used(card: int, markers: list[tuple[int, int, str]] = (), **supply: int) -> Any:
    """White's Targi on border card ``card`` used, White holding ``supply``."""
    doc = actions_doc(W, targi=[(card, W), (5, W)], markers=markers, round_=2)  # the Targi on 5: a turn after
    set_supply(doc, W, **supply)
    state, _ = act(load(doc), {"type": "use", "card": card})
    return state


def read(state: Any) -> tuple[str, list[str]]:
    g = game()
    return g.pending(state).text, [a["text"] for a in g.legal_actions(state)]


def test_the_trader_says_when_no_exchange_is_left_and_names_its_one_button() -> None:
    state = used(9, dates=2, salt=0, pepper=0, gold=2)
    prompt, buttons = read(state)
    assert buttons == ["Give 2 dates for 1 salt", "Give 2 dates for 1 pepper", "Stop trading"]
    assert prompt == "White: exchange at the Trader, or stop trading."
    state, _ = act(state, {"type": "trade", "give": {"dates": 2}, "get": {"salt": 1}})
    prompt, buttons = read(state)
    assert buttons == ["Stop trading"]
    assert prompt == "White: too few of any good for another exchange at the Trader (2 of one at least): stop trading."


def test_the_silversmith_prompt_says_make_no_exchange_as_its_button_does() -> None:
    prompt, buttons = read(used(3, dates=2, salt=0, pepper=0, gold=0))
    assert buttons == ["Give 2 dates for 1 VP", "Make no exchange"]
    assert prompt == "White: make one exchange at the Silversmith, or make no exchange."


def test_the_fata_morgana_prompt_says_leave_the_markers_as_its_button_does() -> None:
    prompt, buttons = read(used(6, markers=[(1, 1, W)]))
    assert buttons[-1] == "Leave the markers where they are" and len(buttons) > 1
    assert prompt == "White: move a tribe marker (Fata Morgana), or leave the markers where they are."
