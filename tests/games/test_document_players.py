"""A position document naming a player nobody plays is refused alike in all five games, field first.

The loaders said it five ways: "unknown player 'green'" (Through the Desert), "'green' is not a player" (the
desert race, Targi, the temple), "coins given for 'green', who is not playing" (Blackpool), "unknown player or
caravan colour" (a Through the Desert oasis or claim), some without the players to choose from. Now each says
the field, then the words an action naming nobody gets (``game.not_playing_words``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from companion.errors import InvalidPosition
from companion.game import Game, normalize_action
from companion.registry import create

WHO = "nobody"


def _position(game: Game, wanted: Callable[[dict[str, Any]], bool], seed: int = 3) -> dict[str, Any]:
    """The document of the first position of seeded random play that ``wanted`` accepts."""
    rng = random.Random(seed)
    for _ in range(20):
        state = game.setup(list(game.colours[:2]), game.resolve_options({}))
        while True:
            document = json.loads(json.dumps(game.to_document(state)))
            if wanted(document):
                return document
            if game.pending(state).is_over:
                break
            state, _ = game.apply(state, normalize_action(game.sim_choose(state, game.legal_actions(state), rng)))
    raise AssertionError("no such position in 20 random games")


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        *parents, last = [int(k) if k.isdigit() else k for k in path.split(".")]
        node: Any = document
        for key in parents:
            node = node[key]
        node[last] = value

    return change


def _key(path: str) -> Callable[[dict[str, Any]], None]:
    """A copy of the first entry of the object at ``path`` under the key WHO."""

    def change(document: dict[str, Any]) -> None:
        node = document[path]
        node[WHO] = next(iter(node.values()))

    return change


ANY = lambda document: True  # noqa: E731
CASES: list[tuple[str, Callable[[dict[str, Any]], bool], Callable[[dict[str, Any]], None], str]] = [
    ("blackpool", ANY, _set("turn", WHO), "turn"),
    ("blackpool", ANY, _key("coins"), "coins"),
    ("blackpool", ANY, _set("finished", [WHO]), "finished[0]"),
    ("desert", lambda d: d["turn"] is not None, _set("turn", WHO), "turn"),
    ("desert", ANY, _key("pieces"), "pieces"),
    ("desert", lambda d: d["turn"] is not None, _set("partners", [WHO]), "partners[0]"),
    ("desert", lambda d: d["step"]["kind"] == "rolloff", _set("step.contenders", [WHO]), "step.contenders[0]"),
    ("targi", ANY, _set("start", WHO), "start"),
    ("targi", lambda d: d["queue"], _set("queue", [WHO]), "queue[0]"),
    ("targi", lambda d: d["targi"], _set("targi.0.player", WHO), "targi[0].player"),
    ("targi", ANY, _key("supplies"), "supplies"),
    ("temple", ANY, _set("turn", WHO), "turn"),
    ("temple", ANY, _key("hands"), "hands"),
    ("temple", ANY, _key("pawns"), "pawns"),
    ("ttd", ANY, _set("turn", WHO), "turn"),
    ("ttd", lambda d: d["pieces"], _set("pieces.0.player", WHO), "pieces[0].player"),
    ("ttd", lambda d: d["phase"] == "camels", _key("water"), "water"),
    ("ttd", lambda d: d["oases"], _set("oases.0.player", WHO), "oases[0].player"),
]


@pytest.mark.parametrize(("game_id", "wanted", "change", "field"), CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_a_player_nobody_plays_is_named_with_its_field_and_the_players(
    game_id: str, wanted: Callable[[dict[str, Any]], bool], change: Callable[[dict[str, Any]], None], field: str
) -> None:
    game = create(game_id)
    document = _position(game, wanted)
    change(document)
    with pytest.raises(InvalidPosition) as refused:
        game.from_document(document)
    said = f"{field}: '{WHO}' is not playing; players: {', '.join(document['players'])}"
    assert said in refused.value.problems, refused.value.problems


@pytest.mark.parametrize(("game_id", "field"), [("desert", "partners"), ("targi", "queue")])
def test_a_player_listed_twice_is_refused(game_id: str, field: str) -> None:
    """A list of players (trade partners this window, players still to decide) never names one twice in play;
    it loaded, and the desert race's "must list players" named no entry."""
    game = create(game_id)
    if game_id == "desert":
        document = _position(game, lambda d: d["turn"] is not None)
    else:
        document = _position(game, lambda d: d["queue"])
    twice = document["players"][0]
    document[field] = [twice, twice]
    with pytest.raises(InvalidPosition) as refused:
        game.from_document(document)
    assert f"{field}[1]: '{twice}' is listed twice" in refused.value.problems, refused.value.problems
