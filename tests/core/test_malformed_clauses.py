"""A malformed or impossible action is refused citing the clause it comes from, in every game.

The brief asks every refusal for its clause; "unknown action type 'pass'" and
hundreds of other shape refusals (a slot of '7', a colour of null, an extra key,
a player nobody plays) came without one. Each is sent through the session and
the referee protocol, at the opening, mid-game and after the end: the refusal
names a clause of the game's rulebook, and the position is unchanged.
"""

from __future__ import annotations

import io
import random
from functools import cache
from typing import Any

import pytest

from companion.controller import Controller
from companion.errors import CompanionError, InvalidAction
from companion.observations import ButtonPressed, Touch, Update
from companion.protocol import Referee
from companion.registry import game_classes
from companion.session import Session
from companion.terminal import Terminal

GAMES = sorted(game_classes())
ODD_VALUES = [None, True, "7", 1.5, -1, 99, 10**20, [], [1, 2], {}, {"a": {"b": 1}}, "nobody"]
WHEN = {"opening": 0, "mid-game": 25, "over": None}


def shapes(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Malformed actions: unknown or missing types, each offered field missing, mistyped or out of range,
    an extra key and a player nobody plays."""
    out: list[dict[str, Any]] = [{"type": "pass"}, {"type": "zzz"}, {}, {"type": None}, {"type": 3},
                                 {"type": ["roll"]}, {"type": {"a": 1}}]
    seen: set[str] = set()
    for action in legal:
        if action["type"] in seen:
            continue
        seen.add(action["type"])
        action = {k: v for k, v in action.items() if k != "text"}
        out += [{**action, "bogus": 1}, {**action, "player": "nobody"}, {**action, "player": None}]
        for key in action:
            if key != "type":
                out.append({k: v for k, v in action.items() if k != key})
                out += [{**action, key: value} for value in ODD_VALUES]
    return out


@cache
def session_at(game_id: str, when: str) -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    """The start and the actions that lead to a position: the opening, a few steps in, or a finished game."""
    players = list(game_classes()[game_id].colours[:2])
    session = Session.new(game_id, players)
    rng = random.Random(2)
    steps = WHEN[when]
    while not session.pending().is_over and (steps is None or len(session.log) < steps):
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session.start, tuple(session.log)


def rebuilt(game_id: str, when: str) -> Session:
    start, actions = session_at(game_id, when)
    session = Session.new(game_id, start["players"])
    for action in actions:
        session.act(action)
    return session


@pytest.mark.parametrize("when", list(WHEN))
@pytest.mark.parametrize("game_id", GAMES)
def test_every_malformed_action_is_refused_with_a_clause_through_the_session(game_id: str, when: str) -> None:
    session = rebuilt(game_id, when)
    book = session.game.rulebook
    before = session.document()
    tried = 0
    for action in shapes(session.legal()):
        for ask in (session.check, session.act):
            try:
                ruling = ask(action)
            except InvalidAction as refusal:
                tried += 1
                assert refusal.rule, f"{game_id} ({when}): {action} refused without a clause: {refusal.message!r}"
                assert refusal.rule in book, f"{game_id}: {action} cites {refusal.rule!r}, not in the rulebook"
            except Exception as refusal:  # an illegal action: the rules' refusal, which always cites
                assert getattr(refusal, "rule", None) in book, (game_id, when, action, refusal)
            else:
                if ask == session.act:  # a mangled value the game took as a right one: take it back
                    session.undo()
                else:
                    assert ruling.legal or ruling.rules, (game_id, action, ruling)
            assert session.document() == before, (game_id, when, action)
    assert tried > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_the_unknown_type_pass_cites_the_games_clause_on_a_turn(game_id: str) -> None:
    """The referee's case: {"type": "pass"} where the game has no pass (or not now) names what a turn may do."""
    session = rebuilt(game_id, "mid-game")
    cls = game_classes()[game_id]
    try:
        session.act({"type": "zzz"})
    except InvalidAction as refusal:
        assert refusal.rule == cls.actions_rule and refusal.rule in session.game.rulebook
    else:
        raise AssertionError("an unknown action type was taken")


@pytest.mark.parametrize("when", ["opening", "mid-game"])
@pytest.mark.parametrize("game_id", GAMES)
def test_a_player_nobody_plays_is_refused_in_the_same_words_in_every_game(game_id: str, when: str) -> None:
    """Targi and the desert race said "unknown player 'green'", the other three "'green' is not playing": one
    wording now (``game.not_playing``), citing the game's clause on who may act, with the game unchanged."""
    session = rebuilt(game_id, when)
    before = session.document()
    players = ", ".join(session.state.players)
    who = "green" if "green" not in session.state.players else "nobody"
    for action in session.legal()[:3]:
        action = {k: v for k, v in action.items() if k != "text"}
        for ask in (session.check, session.act):
            with pytest.raises(InvalidAction) as refused:
                ask({**action, "player": who})
            assert refused.value.message == f"'{who}' is not playing; players: {players}", refused.value.message
            assert refused.value.rule == session.game.turn_rule and refused.value.rule in session.game.rulebook
    assert session.document() == before


@pytest.mark.parametrize("when", ["opening", "over"])
@pytest.mark.parametrize("game_id", GAMES)
def test_the_protocol_refuses_malformed_actions_with_a_rule(game_id: str, when: str) -> None:
    start, actions = session_at(game_id, when)
    referee = Referee()
    assert referee.handle({"cmd": "new", "game": game_id, "players": start["players"]})["ok"]
    for action in actions:
        assert referee.handle({"cmd": "act", "action": action})["ok"]
    before = referee.handle({"cmd": "state"})["state"]
    legal = referee.handle({"cmd": "legal"})["legal"]
    book = referee.session.game.rulebook
    odd = [*shapes(legal)[:40], None, "pass", ["roll"], 3]  # the last four are not objects at all
    for action in odd:
        for cmd in ("check", "act"):
            request = {"cmd": cmd, "action": action}
            answer = referee.handle(request)
            if answer["ok"]:
                if cmd == "act":
                    referee.handle({"cmd": "undo"})
                else:
                    assert answer["ruling"]["legal"] or answer["ruling"]["rules"], (request, answer)
                continue
            error = answer["error"]
            assert error["code"] in {"bad_request", "invalid_action", "illegal_action"}, (request, answer)
            assert error.get("rule") in book, f"{game_id} ({when}): {request} refused without a clause: {error}"
    assert referee.handle({"cmd": "state"})["state"] == before
    missing = referee.handle({"cmd": "act"})
    assert missing["error"]["code"] == "bad_request" and missing["error"]["rule"] in book, missing


def test_the_terminal_shows_the_clause_of_a_malformed_action() -> None:
    """`do` and `check` of an action the game cannot read print its clause, as a rules refusal does."""
    session = Session.new("temple", ["red", "blue"])
    out = io.StringIO()
    lines = ['do {"type": "pass"}', 'check {"type": "pass"}', 'do {"type": "draw"}', "q"]
    Terminal(session, lambda: None, out).run(iter(lines))
    text = out.getvalue()
    assert text.count("Refused: there is no 'pass' action") == 2 and text.count("[RU-6]") == 2, text
    # the opening draw's own clause
    assert ("Refused: draw: say which pile (draw pile) and which card (P01, P02, P03, P04, P05, P06 and 44 more)"
            "  [RU-3]") in text, text
    assert session.log == []


# The way each game ends in the finished games above (seed 2, two players): what a refusal after the end cites.
@pytest.mark.parametrize("game_id", GAMES)
def test_after_the_end_every_refusal_cites_the_way_the_game_ended(game_id: str) -> None:
    """A 'pass', an unknown type, a missing field or a player nobody plays, sent to a finished game, cite the
    clause of its end (BP-Q30, TG-END2, ...), as a well-formed action there does, not the clause on a turn."""
    session = rebuilt(game_id, "over")
    ended = session.game.over_rule(session.state)
    assert ended in session.game.rulebook and ended not in {session.game.actions_rule, session.game.turn_rule}
    for action in ({"type": "pass"}, {"type": "zzz"}, {}, {"type": "roll", "player": "nobody"},
                   {"type": "roll", "player": None}, {"type": "roll", "value": 1, "bogus": 1}):
        for ask in (session.check, session.act):
            try:
                ruling = ask(action)
            except CompanionError as refusal:  # malformed here; a game that has a roll refuses it as illegal
                assert refusal.rule == ended, (game_id, action, refusal.message, refusal.rule)
            else:
                assert ask == session.check and ruling.rules == (ended,), (game_id, action, ruling)
    referee = Referee()
    start, actions = session_at(game_id, "over")
    assert referee.handle({"cmd": "new", "game": game_id, "players": start["players"]})["ok"]
    for action in actions:
        assert referee.handle({"cmd": "act", "action": action})["ok"]
    for request in ({"cmd": "act", "action": {"type": "pass"}}, {"cmd": "check", "action": {}}, {"cmd": "act"},
                    {"cmd": "act", "action": "pass"}):
        assert referee.handle(request)["error"]["rule"] == ended, (game_id, request)
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter(['do {"type": "pass"}', "q"]))
    assert f"[{ended}]" in out.getvalue(), out.getvalue()


@pytest.mark.parametrize("when", ["opening", "over"])
@pytest.mark.parametrize("game_id", GAMES)
def test_a_tap_naming_no_action_cites_the_clause_the_referee_cites(game_id: str, when: str) -> None:
    """A touch 'act' or 'check' with no action was refused "nothing to do for 'act'" with no clause; it now
    cites what the referee's missing action cites: the turn clause, or once over the way the game ended. A
    tap the rules do not judge (an intent the table does not know) still cites none, as docs/protocol.md says."""
    session = rebuilt(game_id, when)
    before = session.document()
    heard: list[Update] = []
    controller = Controller(session, [heard.append])
    expected = session.shape_rule()
    assert expected == (session.game.over_rule(session.state) if when == "over" else session.game.actions_rule)
    for intent in ("act", "check"):
        update = controller.handle(Touch(intent))
        assert update.kind == "refused" and update.rules == (expected,), (intent, update)
        assert update.text.startswith("Nothing to do for") and "the tap names no action" in update.text
        assert referee_missing_action_rule(game_id, when) == expected
    unknown = controller.handle(Touch("zzz"))  # shown and said as a sentence: it opened "nothing to do for"
    assert unknown.rules == () and unknown.text == "Nothing to do for 'zzz'"
    assert controller.handle(ButtonPressed("zzz")).text == "Unknown button intent 'zzz'"
    assert session.document() == before and heard


def referee_missing_action_rule(game_id: str, when: str) -> str | None:
    start, actions = session_at(game_id, when)
    referee = Referee()
    referee.handle({"cmd": "new", "game": game_id, "players": start["players"]})
    for action in actions:
        referee.handle({"cmd": "act", "action": action})
    return referee.handle({"cmd": "act"})["error"].get("rule")


def test_the_terminal_cites_the_clause_of_a_typed_roll_or_card_it_cannot_take() -> None:
    """'9' or 'red 9' beside the oracle was "Not understood" with no clause, while the same roll sent with `do`
    cited BP-Q5; a number naming no card of the temple's draw now cites RU-2, and `do "pass"` (no JSON object)
    the turn clause, as the referee's non-object action does. The terminal's own words (an unknown command, a
    choice number past the list) still cite none: no rule governs them."""
    expected = {
        "blackpool": {"9": "BP-Q5", "red 9": "BP-Q5", 'do "pass"': "BP-3"},
        "desert": {"9": "DR-Q28", 'do ["roll"]': "DR-3"},
        "temple": {"99": "RU-2", 'do "pass"': "RU-6"},
    }
    for game_id, cases in expected.items():
        session = Session.new(game_id, list(game_classes()[game_id].colours[:2]))
        for typed, rule in cases.items():
            out = io.StringIO()
            Terminal(session, lambda: None, out).run(iter([typed, "blah", "#99", "q"]))
            said = [line for line in out.getvalue().splitlines() if "Not understood" in line]
            assert said[0].endswith(f"  [{rule}]"), (game_id, typed, said)
            assert not any("[" in line for line in said[1:]), (game_id, typed, said)  # no clause fits these
        assert session.log == []


# The clause saying what each game's board is; Through the Desert's is the one its own refusal of a hex off the
# map cites in each phase (a water-hole site, a leader's hex, a camel's), so the opening's is the water holes'.
BOARD_RULES = {"blackpool": "BP-Q1", "desert": "DR-Q1", "targi": "TG-1", "temple": "RU-2"}
TTD_PHASE_RULES = {"waterholes": "TTD-1c", "leaders": "TTD-1e", "camels": "TTD-3c", "over": "TTD-3c"}


@pytest.mark.parametrize("when", list(WHEN))
@pytest.mark.parametrize("game_id", GAMES)
def test_a_place_off_the_board_cites_the_boards_clause(game_id: str, when: str) -> None:
    """`why a,b` (a hex of letters), `why 99,99` or `explain` of "xyz" was a bad_request with no clause: which
    places a board has is the clause saying what the board is (BP-Q1, DR-Q1, TG-1, RU-2, Through the Desert's
    phase clause). A request that names no place at all (`{}`, `true`, `[]`, `[1.5, 2]`, a `why` with
    nothing after it) is still the request's fault, and cites none, as docs/protocol.md says."""
    session = rebuilt(game_id, when)
    rule = TTD_PHASE_RULES[session.state.phase] if game_id == "ttd" else BOARD_RULES[game_id]
    assert rule in session.game.rulebook
    if when == "opening" and game_id == "ttd":
        assert rule == "TTD-1c"
    before, log = session.document(), list(session.log)

    out = io.StringIO()
    typed = ["why xyz", "why a,b", "why 99,99", "why -7", f"why {'9' * 5000}", "why", "q"]
    Terminal(session, lambda: None, out).run(iter(typed))
    refused = [line for line in out.getvalue().splitlines() if "Refused" in line or "Not understood" in line]
    assert len(refused) == 6, refused
    for line in refused[:5]:
        assert line.endswith(f"  [{rule}]"), (game_id, when, line)
    assert "[" not in refused[5], refused[5]  # `why` naming nothing: the line's fault, no rule's

    referee = Referee()
    referee.session = session
    for place in ("xyz", ["a", "b"], [99, 99], -7, 10**30):
        error = referee.handle({"cmd": "explain", "place": place})["error"]
        assert error["code"] == "bad_request" and error.get("rule") == rule, (game_id, when, place, error)
    for shape in ({}, True, [], [1.5, 2], None):
        error = referee.handle({"cmd": "explain", "place": shape})["error"]
        assert error["code"] == "bad_request" and "rule" not in error, (game_id, when, shape, error)

    update = Controller(session, [lambda _: None]).handle(Touch("explain", place=(99, 99)))
    assert update.kind == "refused" and update.rules == (rule,), (game_id, when, update)
    assert session.document() == before and session.log == log
    assert session.game.board_rule(session.state) == rule
