"""Every refusal of a game's start cites the clause that makes it so, in all five games.

A player count outside the game's cited its clause, but a colour named twice
("each player must be named once"), a colour the game lacks, an empty one and
an option value the option cannot take came with no clause, from the referee,
`companion play` and the terminal's questions alike. A colour refusal now cites
the game's clause on colours (Blackpool BP-Q3, the desert DR-Q36, Targi TG-1,
the temple RU-Q31, Through the Desert TD-Q3), an option's the clause the option
changes (its ``decision``). A number where an option takes true or false (or
the reverse) equalled it in Python and was taken; it is refused the same way.
What no rule speaks of (an unknown option or profile, a list that is no list of
names) stays without a clause: docs/protocol.md, "Refusals without a clause".
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.errors import BadRequest
from companion.protocol import Referee
from companion.registry import create, game_classes
from companion.session import Session

GAMES = sorted(game_classes())
COLOURS_RULE = {"blackpool": "BP-Q3", "desert": "DR-Q36", "targi": "TG-1", "temple": "RU-Q31", "ttd": "TD-Q3"}


def seats(game_id: str) -> list[str]:
    cls = game_classes()[game_id]
    return list(cls.colours[: cls.min_players])


def bad_players(game_id: str) -> dict[str, list[str]]:
    """A colour named twice, one the game lacks (and one in capitals, as a client may send it), an empty one."""
    first, *rest = seats(game_id)
    return {"twice": [first, first, *rest[1:]], "unknown": [first, "mauve", *rest[1:]],
            "capitals": [first.upper(), *rest], "empty": [first, "", *rest[1:]]}


def bad_options(game_id: str) -> list[tuple[str, Any, str]]:
    """(option, value, its clause): a value out of its list, and one of the wrong JSON kind for each kind there is."""
    out: list[tuple[str, Any, str]] = []
    kinds: set[str] = set()
    for spec in game_classes()[game_id].option_specs:
        assert spec.decision, f"{game_id} option {spec.key} names no clause"
        if not out:
            out.append((spec.key, "nonsense", spec.decision))
        for choice in spec.choices:
            kind = type(choice).__name__
            if kind in kinds:
                continue
            if isinstance(choice, bool):  # 1 == True and 0 == False in Python, 1.0 == True too
                wrong: Any = int(choice) if int(choice) not in spec.choices else float(choice)
            elif isinstance(choice, int):
                wrong = float(choice) if choice not in (0, 1) else bool(choice)
            else:
                continue
            kinds.add(kind)
            out.append((spec.key, wrong, spec.decision))
    return out


def test_every_game_has_a_clause_on_its_colours() -> None:
    for game_id in GAMES:
        game = create(game_id)
        rule = game.colours_rule or game.players_rule
        assert rule == COLOURS_RULE[game_id]
        game.rulebook.clause(rule)  # a clause of its own rulebook


@pytest.mark.parametrize("game_id", GAMES)
def test_players_who_cannot_play_are_refused_citing_the_colours_clause(game_id: str) -> None:
    for kind, players in bad_players(game_id).items():
        with pytest.raises(BadRequest) as refused:
            Session.new(game_id, players)
        assert refused.value.rule == COLOURS_RULE[game_id], (kind, refused.value.message)
    with pytest.raises(BadRequest, match=r"'.+' is named twice: each player plays a colour of their own"):
        Session.new(game_id, bad_players(game_id)["twice"])
    with pytest.raises(BadRequest, match="player 2 is empty: each player is named by a colour; colours: "):
        Session.new(game_id, bad_players(game_id)["empty"])


@pytest.mark.parametrize("game_id", GAMES)
def test_an_option_value_it_cannot_take_cites_the_clause_the_option_changes(game_id: str) -> None:
    checked = bad_options(game_id)
    assert len(checked) >= 2  # a value off the list, and at least one of the wrong kind
    for key, value, clause in checked:
        with pytest.raises(BadRequest, match=f"option '{key}' cannot be ") as refused:
            Session.new(game_id, seats(game_id), {key: value})
        assert refused.value.rule == clause, (key, value)


def test_a_number_is_no_true_or_false_and_true_no_number() -> None:
    """The desert took ``board_loop: 1.0`` and ``attempts_per_turn: true`` (one attempt, journalled as true)."""
    for options in ({"board_loop": 1.0}, {"passage_via_vortex": 0}, {"attempts_per_turn": True},
                    {"max_rounds": 20.0}):
        with pytest.raises(BadRequest, match="cannot be"):
            Session.new("desert", ["black", "pink"], options)
    assert Session.new("desert", ["black", "pink"], {"attempts_per_turn": 3, "max_rounds": 20}).game.id == "desert"


def test_what_no_rule_speaks_of_names_no_clause() -> None:
    for players, options, profile in ((["red", 3], None, None), ("red,blue", None, None),
                                      (["red", "blue"], {"zz": 1}, None), (["red", "blue"], [1], None),
                                      (["red", "blue"], None, "fast")):
        with pytest.raises(BadRequest) as refused:
            Session.new("blackpool", players, options, profile)  # type: ignore[arg-type]
        assert refused.value.rule is None, refused.value.message


@pytest.mark.parametrize("game_id", GAMES)
def test_the_referee_answers_with_the_clause(game_id: str) -> None:
    referee = Referee()
    for players in bad_players(game_id).values():
        answer = referee.handle({"cmd": "new", "game": game_id, "players": players})
        assert answer["error"]["code"] == "bad_request" and answer["error"]["rule"] == COLOURS_RULE[game_id]
    for key, value, clause in bad_options(game_id):
        answer = referee.handle({"cmd": "new", "game": game_id, "players": seats(game_id), "options": {key: value}})
        assert answer["error"]["rule"] == clause, answer
    assert referee.session is None  # nothing was started


def test_play_names_the_clause_of_players_given_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    for game_id, players in (("blackpool", "red,red"), ("targi", "white,pink"), ("ttd", "red,red,black")):
        assert main(["play", "--game", game_id, "--players", players, "--journal", str(tmp_path / "j.db")]) == 1
        err = capsys.readouterr().err
        assert err.rstrip().endswith(f"[{COLOURS_RULE[game_id]}]"), err


def test_the_terminal_question_names_the_clause_and_asks_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("sys.stdin", io.StringIO("temple\nred,red\n\ntemple\nred,blue\n\nq\n"))
    assert main(["play", "--journal", str(tmp_path / "j.db")]) == 0
    out = capsys.readouterr().out
    assert "'red' is named twice: each player plays a colour of their own  [RU-Q31]" in out, out



def test_a_game_begun_on_an_option_taken_by_equality_still_resumes(tmp_path: Path) -> None:
    """Journals kept ``board_loop: 1.0`` and ``attempts_per_turn: true`` as sent, when they were taken: read
    back, each is the choice it equalled, so the game resumes and replays rather than being refused."""
    start = {"kind": "new", "players": ["black", "pink"], "profile": "standard",
             "options": {"board_loop": 1.0, "passage_via_vortex": 0, "attempts_per_turn": True, "max_rounds": 20.0}}
    session = Session.from_start("desert", start)
    options = session.game.to_document(session.state)["options"]
    assert (options["board_loop"], options["passage_via_vortex"], options["attempts_per_turn"],
            options["max_rounds"]) == (True, False, 1, 20)
    assert type(options["attempts_per_turn"]) is int and type(options["board_loop"]) is bool
    with pytest.raises(BadRequest, match="cannot be 7"):  # a value that equals no choice is still refused
        Session.from_start("desert", {**start, "options": {"max_rounds": 7}})
