"""An action's field left out, null or of the wrong kind is refused in the game's words, with its clause.

25 of the five games' 43 kinds of action answered in JSON's terms: "the oracle shows 1 to 6, not null", "unknown
camel colour null", '"hex" must be [q, r], two integers (axial coordinates)', '"pay" must be an object of resource
counts'. Each kind is found offered in seeded games and sent, through the referee's protocol, with each of its fields
left out, null and of a kind no offered action holds: each refusal names the action as the table says it, what to
say and what may be said now ("roll: say which number the oracle shows (1 to 6)"), and keeps the clause.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from companion.errors import InvalidAction
from companion.field_words import field_asked
from companion.game import action_kinds, json_kind, kind_words
from companion.protocol import Referee
from companion.registry import create
from companion.simulate import random_players
from tests.core.unoffered_kinds import UNOFFERED, offered_there

GAMES = ["blackpool", "desert", "targi", "temple", "ttd"]
JSON_TERMS = re.compile(r"\bnull\b|must be|an object|a list|whole number|integers|axial|\[q, r\]|_")


def offered_kinds(game_id: str) -> dict[str, tuple[Referee, dict[str, Any]]]:
    """For each kind of action, a referee at a position offering it, and one offered action of it."""
    found: dict[str, tuple[Referee, dict[str, Any]]] = {}
    for seed in range(4):
        rng = random.Random(seed)
        referee = Referee()
        assert referee.handle({"cmd": "new", "game": game_id, "players": random_players(create(game_id), rng)})["ok"]
        for _ in range(250):
            legal = referee.handle({"cmd": "legal"})["legal"]
            if not legal:
                break
            fresh = {a["type"] for a in legal} - set(found)
            if fresh:  # a referee of its own at this position, for each kind first offered here
                here = Referee()
                assert here.handle({"cmd": "load", "game": game_id,
                                    "state": referee.session.document()})["ok"], game_id
                for action in legal:
                    if action["type"] in fresh:
                        found.setdefault(action["type"], (here, {k: v for k, v in action.items() if k != "text"}))
            assert referee.handle({"cmd": "act", "action": rng.choice(legal)})["ok"]
    return found


def broken(offered: dict[str, Any], kinds: dict[tuple[str, str], frozenset[str]]) -> list[tuple[str, dict]]:
    """The offered action with each field left out, null, and of a kind no offered action of its kind holds."""
    out = []
    for key in offered:
        if key in ("type", "player"):
            continue
        held = kinds.get((offered["type"], key), frozenset())
        odd = next(v for v in ("x", 5, [5], {"v": 5}) if json_kind(v) not in held)
        out += [(key, {k: v for k, v in offered.items() if k != key}), (key, {**offered, key: None}),
                (key, {**offered, key: odd})]
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_a_field_left_out_null_or_mistyped_is_refused_in_the_games_words(game_id: str) -> None:
    game = create(game_id)
    refused = 0
    for kind, (referee, offered) in offered_kinds(game_id).items():
        kinds = action_kinds(referee.session.legal())
        before = referee.session.document()
        for _, action in broken(offered, kinds):
            for cmd in ("check", "act"):
                answer = referee.handle({"cmd": cmd, "action": action})
                if answer["ok"] and cmd == "act":  # a field the game may do without (the temple's deck)
                    assert referee.handle({"cmd": "undo"})["ok"]
                error = answer.get("error")
                if error is None or error["code"] != "invalid_action":
                    continue  # taken (a temple move's route may be left out) or refused by a rule
                refused += 1
                message = error["message"]
                assert message.startswith(f"{kind_words(kind, game.kind_names)}: say "), (action, message)
                assert not JSON_TERMS.search(re.sub(r", not .*$", "", message)), (action, message)
                assert error["rule"] in game.rulebook, (action, error)
        assert referee.session.document() == before
    assert refused >= 40, refused


def test_the_refusals_list_what_may_be_said_now() -> None:
    """The examples the refusals were reported by, each now in the game's words."""
    blackpool = Referee()
    assert blackpool.handle({"cmd": "new", "game": "blackpool", "players": ["red", "blue"]})["ok"]
    answer = blackpool.handle({"cmd": "check", "action": {"type": "roll", "value": None}})
    assert answer["error"] == {"code": "invalid_action", "rule": "BP-Q5",
                               "message": "roll: say which number the oracle shows (1 to 6)"}
    answer = blackpool.handle({"cmd": "check", "action": {"type": "fly"}})
    assert answer["error"]["message"] == ("there is no 'fly' action; the actions are roll, move, bring out "
                                          "('bring_out'), coin, reroll, draw, target and order")
    assert answer["error"]["rule"] == "BP-3"

    ttd, camel = offered_kinds("ttd")["camel"]
    answer = ttd.handle({"cmd": "check", "action": {**camel, "colour": None}})
    assert answer["error"]["message"].startswith("camel: say which camel colour (")
    answer = ttd.handle({"cmd": "check", "action": {**camel, "hex": None}})
    assert re.match(r"camel: say which hex \(\(\d+,\d+\)", answer["error"]["message"]), answer
    assert answer["error"]["rule"] == "TTD-3"

    targi, _ = offered_kinds("targi")["use"]
    answer = targi.handle({"cmd": "check", "action": {"type": "use"}})
    assert answer["error"]["message"].startswith("use: say which border card ("), answer

    temple, _ = offered_kinds("temple")["ahkinchil"]
    answer = temple.handle({"cmd": "check", "action": {"type": "ahkinchil"}})
    assert answer["error"]["message"].startswith("Ah Kinchil: say which pawn ("), answer


def test_a_kind_not_offered_now_still_asks_for_its_field_in_words() -> None:
    """Nothing of the kind is offered to list, so the refusal asks for the field alone, with the clause."""
    referee = Referee()
    assert referee.handle({"cmd": "new", "game": "blackpool", "players": ["red", "blue"]})["ok"]
    answer = referee.handle({"cmd": "check", "action": {"type": "order", "travellers": None}})
    assert answer["error"]["message"] == "order: say the order the travellers move in", answer
    assert answer["error"]["rule"]
    answer = referee.handle({"cmd": "act", "action": {"type": "draw", "player": None}})
    assert "null" not in answer["error"]["message"], answer


def test_a_null_field_the_offered_kind_does_not_take_now_is_refused_for_the_key() -> None:
    """A Blackpool target offered on a traveller and square, sent with ``"opponent": null`` as well, is refused for
    the key it does not take now, not asked which opponent (no opponent is to be named)."""
    referee, target = offered_kinds("blackpool")["target"]
    answer = referee.handle({"cmd": "check", "action": {**target, "opponent": None}})
    assert "say which opponent" not in answer["error"]["message"] and "'opponent'" in answer["error"]["message"]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_key_the_kind_does_not_take_is_refused_in_the_games_words(game_id: str) -> None:
    """A key an action does not take was refused in JSON's terms, "a 'target' action has no 'opponent'; it takes
    only square, traveller": now the kind as the table calls it and each field's words, the key in quotes as
    what to type ("target: 'opponent' is not asked for now; say which square ('square') and which traveller
    ('traveller')"), with the clause kept."""
    game = create(game_id)
    for kind, (referee, offered) in offered_kinds(game_id).items():
        before = referee.session.document()
        answer = referee.handle({"cmd": "check", "action": {**offered, "Extra": 1}})
        message = answer["error"]["message"]
        assert message.startswith(f"{kind_words(kind, game.kind_names)}: 'Extra' is not asked for; "), message
        for key in set(offered) - {"type", "player"}:
            assert f"{field_asked(game, kind, key)} ({key!r})" in message, message
        assert not JSON_TERMS.search(re.sub(r"'[^']*'", "", message)), message
        assert answer["error"]["rule"] in game.rulebook and referee.session.document() == before


def test_the_key_refusals_reported_read_as_the_table_says_them() -> None:
    referee, target = offered_kinds("blackpool")["target"]
    answer = referee.handle({"cmd": "check", "action": {**target, "opponent": "blue"}})
    assert answer["error"]["message"] == ("target: 'opponent' is not asked for now; say which square ('square') and "
                                          "which traveller ('traveller')")
    answer = referee.handle({"cmd": "check", "action": {"type": "roll", "valeu": 4}})
    assert answer["error"]["message"] == ("roll: 'valeu' is not asked for (is it 'value'?); say which number the "
                                          "oracle shows ('value')")
    answer = referee.handle({"cmd": "check", "action": {"type": "reroll", "value": 4}})
    assert answer["error"]["message"] == "reroll: 'value' is not asked for; it asks for nothing more"
    temple, _ = offered_kinds("temple")["ahkinchil"]
    answer = temple.handle({"cmd": "check", "action": {"type": "skip_change", "slot": 3}})
    assert answer["error"]["message"].startswith("leave the path: 'slot' is not asked for"), answer


def test_a_null_or_misspelt_good_inside_targis_counts_is_refused_in_words() -> None:
    """``{"pay": {"salt": null}}`` was '"pay".salt must be a whole number of at least 0', and a good misspelt
    '"pay" names 'Salt'; allowed: dates, salt, pepper, gold, vp': the game's own refusal, in JSON's terms."""
    game, found, said = create("targi"), offered_kinds("targi"), 0
    for kind in ("pay", "play", "trade", "take", "return"):
        referee, offered = found[kind]
        before = referee.session.document()
        for key, counts in offered.items():
            if not isinstance(counts, dict):
                continue
            good = next(iter(counts))
            for sent in ({**counts, good: None}, {**counts, good: "x"}, {**counts, good.capitalize(): 1}):
                error = referee.handle({"cmd": "check", "action": {**offered, key: sent}})["error"]
                assert error["code"] == "invalid_action" and error["rule"] in game.rulebook, error
                assert error["message"].startswith(f"{kind}: "), error
                assert not JSON_TERMS.search(re.sub(r"'[^']*'|, not .*$", "", error["message"])), error
                said += 1
        assert referee.session.document() == before
    assert said >= 18, said
    referee, offered = found["pay"]
    good = next(iter(offered["pay"]))
    answer = referee.handle({"cmd": "check", "action": {**offered, "pay": {good: None}}})
    assert answer["error"]["message"] == f"pay: say how much {good} is paid (0 or more)", answer
    answer = referee.handle({"cmd": "check", "action": {**offered, "pay": {"Salt": 1}}})
    assert answer["error"]["message"] == ("pay: 'Salt' is not among what may be paid (is it 'salt'?); say how many "
                                          "dates, salt, pepper, gold or VP are paid"), answer


def nulls_inside(value: Any) -> list[Any]:
    """``value`` (a list or an object) with each of its members in turn null, and with a null added."""
    if isinstance(value, dict):
        return [{**value, key: None} for key in value]
    if isinstance(value, list):
        return [[None if j == i else v for j, v in enumerate(value)] for i in range(len(value))] + [[*value, None]]
    return []


@pytest.mark.parametrize("game_id", GAMES)
def test_a_null_inside_a_field_is_refused_in_the_games_words(game_id: str) -> None:
    """A null inside a field was answered in JSON's terms ('"hex" must be [q, r], two integers (axial coordinates)'
    for a camel's ``[12, null]``, '"to": [0, null] is not a location ([x, y], "entrance", "stepN" or "chamber")',
    "'give.items' must list Collection cards: golden_compass, ...") or taken: a temple X rolled with
    ``"face": {"colour": null}`` was journalled with its null colour."""
    game, said = create(game_id), 0
    for kind, (referee, offered) in offered_kinds(game_id).items():
        before = referee.session.document()
        for key, value in offered.items():
            for inside in nulls_inside(value):
                action = {**offered, key: inside}
                answer = referee.handle({"cmd": "check", "action": action})
                assert not answer.get("ruling", {}).get("legal"), (action, answer)
                assert not referee.handle({"cmd": "act", "action": action})["ok"], action
                error = answer.get("error")
                if error is None:
                    continue  # refused by a rule, in its words
                said += 1
                message = re.sub(r"'[^']*'|, not .*$", "", error["message"])
                assert error["code"] == "invalid_action" and error["rule"] in game.rulebook, (action, error)
                assert error["message"].startswith(f"{kind_words(kind, game.kind_names)}: "), (action, error)
                assert not JSON_TERMS.search(message) and '"' not in message, (action, error)
        assert referee.session.document() == before
    assert said or game_id == "blackpool", game_id  # no kind Blackpool offers in these games holds a list


@pytest.mark.parametrize(("game_id", "kind"), sorted(UNOFFERED))
def test_kinds_seeded_games_never_offer_are_refused_in_the_games_words_too(game_id: str, kind: str) -> None:
    """Blackpool's reroll and order, the temple's skip_change and order, Through the Desert's pass: no seeded
    game offers them (``offered_kinds``), so their field refusals were never sent. Each is built where it is
    offered (tests/core/unoffered_kinds.py) and sent with each field left out, null, of the wrong kind and
    holding a null, and with a key it does not take."""
    session, offered = offered_there(game_id, kind)
    game, before = session.game, session.document()
    kinds = action_kinds(session.legal())
    sent = [a for _, a in broken(offered, kinds)] + [{**offered, "Extra": 1}]
    sent += [{**offered, key: inside} for key, value in offered.items() for inside in nulls_inside(value)]
    for action in sent:
        with pytest.raises(InvalidAction) as refused:
            session.check(action)
        message = refused.value.message
        assert message.startswith(f"{kind_words(kind, game.kind_names)}: "), (action, message)
        assert not JSON_TERMS.search(re.sub(r"'[^']*'|, not .*$", "", message)), (action, message)
        assert refused.value.rule in game.rulebook, (action, refused.value.rule)
        with pytest.raises(InvalidAction):
            session.act(action)
    assert session.document() == before and session.log == []


def test_the_kinds_built_where_offered_say_what_may_be_said() -> None:
    order, _ = offered_there("blackpool", "order")
    with pytest.raises(InvalidAction, match=r"^order: say the order the travellers move in \(Yellow 1 then Yellow 2 "
                                            r"or Yellow 2 then Yellow 1\)$"):
        order.check({"type": "order", "travellers": None})
    pawns, _ = offered_there("temple", "order")
    with pytest.raises(InvalidAction, match=r"^order: say which pawn goes first \(Red 1 or Red 2\)$"):
        pawns.check({"type": "order"})
    skip, _ = offered_there("temple", "skip_change")
    with pytest.raises(InvalidAction, match=r"^leave the path: 'slot' is not asked for; it asks for nothing more$"):
        skip.check({"type": "skip_change", "slot": 3})
    passing, _ = offered_there("ttd", "pass")
    with pytest.raises(InvalidAction, match=r"^pass: 'hex' is not asked for; it asks for nothing more$"):
        passing.check({"type": "pass", "hex": [0, 1]})
