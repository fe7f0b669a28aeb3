"""Every game answers mangled actions with a stable error code and keeps its state.

Legal actions are taken from random positions and broken field by field
(wrong types, unknown ids, missing keys), then sent through the referee.
"""

from __future__ import annotations

import random
import re

import pytest

from companion.protocol import Referee
from companion.registry import create, game_classes
from companion.simulate import random_players

ODD_VALUES = [None, True, 0, -1, 7, 99, 1.5, "", "x", "X", "red", [], [1, 2], {}, {"a": 1}, [[0, 0]], 10**20]
FIELDS = ["type", "player", "value", "card", "slot", "deck", "extra", "to", "traveller", "target", "hex", "face"]
STABLE = {"bad_request", "invalid_action", "illegal_action"}


def mangle(action: dict, rng: random.Random) -> dict:
    action = {k: v for k, v in action.items() if k != "text"}
    for _ in range(rng.randint(1, 3)):
        key = rng.choice(sorted(set(action) | set(FIELDS)))
        if rng.random() < 0.3:
            action.pop(key, None)
        elif isinstance(action.get(key), dict) and rng.random() < 0.5:
            inner = dict(action[key])
            inner[rng.choice(sorted(inner) or ["z"])] = rng.choice(ODD_VALUES)
            action[key] = inner
        else:
            action[key] = rng.choice(ODD_VALUES)
    return action


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_mangled_actions_get_stable_codes_and_change_nothing(game_id: str) -> None:
    rng = random.Random(11)
    game = create(game_id)
    for _ in range(15):
        referee = Referee()
        assert referee.handle({"cmd": "new", "game": game_id, "players": random_players(game, rng)})["ok"]
        for _step in range(200):
            legal = referee.handle({"cmd": "legal"})["legal"]
            if not legal:
                break
            before = referee.session.document()
            for _try in range(3):
                action = mangle(rng.choice(legal), rng)
                ruling = referee.handle({"cmd": "check", "action": action})
                assert ruling["ok"] or ruling["error"]["code"] in STABLE, (action, ruling)
                answer = referee.handle({"cmd": "act", "action": action})
                if answer["ok"]:
                    break
                assert answer["error"]["code"] in STABLE, (action, answer)
                assert referee.session.document() == before
            else:
                assert referee.handle({"cmd": "act", "action": rng.choice(legal)})["ok"]


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_an_action_may_name_its_player_and_the_wrong_one_gets_the_turn_clause(game_id: str) -> None:
    """docs/protocol.md: any action may carry ``player``; the game, not the key check, judges it."""
    game = create(game_id)
    referee = Referee()
    players = random_players(game, random.Random(3))
    assert referee.handle({"cmd": "new", "game": game_id, "players": players})["ok"]
    pending = referee.handle({"cmd": "pending"})["pending"]
    while pending["player"] is None or pending["kind"] == "draw":  # the table's draws are nobody's turn
        referee.handle({"cmd": "act", "action": referee.handle({"cmd": "legal"})["legal"][0]})
        pending = referee.handle({"cmd": "pending"})["pending"]
    action = {k: v for k, v in referee.handle({"cmd": "legal"})["legal"][0].items() if k != "text"}
    others = [p for p in players if p != pending["player"]]
    before = referee.session.document()
    wrong = referee.handle({"cmd": "act", "action": {**action, "player": others[0]}})
    assert wrong["error"]["code"] == "illegal_action" and wrong["error"]["rule"], wrong
    assert referee.session.document() == before
    assert referee.handle({"cmd": "act", "action": {**action, "player": pending["player"]}})["ok"]


@pytest.mark.parametrize("game_id", sorted(game_classes()))
@pytest.mark.parametrize("who", [None, "", 3, ["red"]])
def test_a_player_that_names_nobody_is_refused_the_same_by_every_game(game_id: str, who: object) -> None:
    """A null ``player`` once passed Blackpool's and the temple's turn checks as if it were left out."""
    referee = Referee()
    players = random_players(create(game_id), random.Random(3))
    assert referee.handle({"cmd": "new", "game": game_id, "players": players})["ok"]
    action = {k: v for k, v in referee.handle({"cmd": "legal"})["legal"][0].items() if k != "text"}
    before = referee.session.document()
    answer = referee.handle({"cmd": "act", "action": {**action, "player": who}})
    # A null is a field left to say (field_words); a value of another kind is no player's name.
    words = "say which player acts by name" if who is None else '"player" names a player'
    assert answer["error"]["code"] == "invalid_action" and words in answer["error"]["message"], answer
    assert referee.session.document() == before


PYTHON_WORDS = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\{'|\['|'\w+': ")


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_refusals_quote_what_was_sent_as_json_not_in_pythons_words(game_id: str) -> None:
    """A "value": null was refused as "not None", {"a": 1} as "not {'a': 1}": words of the referee's own language,
    not of the JSON the client sent."""
    rng = random.Random(5)
    game = create(game_id)
    said = []
    for _ in range(4):
        referee = Referee()
        referee.handle({"cmd": "new", "game": game_id, "players": random_players(game, rng)})
        for _step in range(80):
            legal = referee.handle({"cmd": "legal"})["legal"]
            if not legal:
                break
            for _try in range(4):
                answer = referee.handle({"cmd": "act", "action": mangle(rng.choice(legal), rng)})
                if not answer["ok"]:
                    said.append(answer["error"]["message"])
            referee.handle({"cmd": "act", "action": rng.choice(legal)})
    assert said and not [text for text in said if PYTHON_WORDS.search(text)]
