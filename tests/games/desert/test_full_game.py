"""A whole game on the house board, as played through the terminal referee: a trade, a Sand Thief, a chain of
four challenges, and the win through the Secret Passage."""

from __future__ import annotations

from companion.registry import create
from tests.conformance import assert_document_round_trips
from tests.games.desert.helpers import act, rules_of

GAME = create("desert")
ACTIONS = [
    {"type": "roll", "value": 6},
    {"type": "roll", "value": 2},
    {"type": "roll", "value": 2},
    {"type": "draw", "deck": "collection", "card": "golden_compass"},
    {"type": "roll", "value": 6},
    {"type": "trade", "with": "black", "get": {"lives": 1}},
    {"type": "end"},
    {"type": "roll", "value": 2},
    {"type": "draw", "deck": "mystery", "card": "sand_thief"},
    {"type": "roll", "value": 2},
    {"type": "roll", "value": 5},
    {"type": "attempt"},
    {"type": "roll", "value": 4},
    {"type": "attempt"},
    {"type": "roll", "value": 5},
    {"type": "attempt"},
    {"type": "roll", "value": 3},
    {"type": "attempt"},
    {"type": "roll", "value": 6},
    {"type": "roll", "value": 4},
    {"type": "draw", "deck": "collection", "card": "desert_flask"},
    {"type": "use", "card": "desert_flask"},
    {"type": "end"},
    {"type": "roll", "value": 6},
    {"type": "draw", "deck": "mystery", "card": "camels_blessing"},
    {"type": "roll", "value": 1},
    {"type": "roll", "value": 5},
    {"type": "roll", "value": 3},
    {"type": "roll", "value": 6},
    {"type": "end"},
    {"type": "roll", "value": 2},
    {"type": "roll", "value": 6},
    {"type": "roll", "value": 5},
    {"type": "roll", "value": 6},
    {"type": "end"},
    {"type": "roll", "value": 6},
    {"type": "roll", "value": 6},
    {"type": "draw", "deck": "mystery", "card": "camels_blessing"},
    {"type": "roll", "value": 4},
    {"type": "roll", "value": 6},
    {"type": "draw", "deck": "mystery", "card": "camels_blessing"},
    {"type": "roll", "value": 3},
    {"type": "roll", "value": 6},
    {"type": "attempt"},
    {"type": "roll", "value": 1},
]


def test_a_whole_game_with_trade_thief_chain_and_win() -> None:
    state = GAME.setup(["black", "pink"], GAME.resolve_options({}))
    seen: set[str] = set()
    for action in ACTIONS:
        offered = [{k: v for k, v in a.items() if k != "text"} for a in GAME.legal_actions(state)]
        assert action in offered, (action, GAME.pending(state).text)
        state, events = act(GAME, state, action)
        seen |= rules_of(events)
        assert_document_round_trips(GAME, state)
    assert GAME.pending(state).result == {"winner": "pink"}
    assert {"DR-11", "DR-23", "DR-13", "DR-28", "DR-18", "DR-27", "DR-1"} <= seen
