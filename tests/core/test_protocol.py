"""The referee protocol in-process: answer keys, error codes, state untouched on refusal."""

from __future__ import annotations

import io
import json

import pytest

from companion.protocol import Referee, serve
from companion.registry import title_of


def ask(referee: Referee, request: object) -> dict:
    answer = referee.handle(request)
    json.dumps(answer)
    return answer


def started() -> Referee:
    referee = Referee()
    assert ask(referee, {"cmd": "new", "game": "race", "players": ["red", "blue"]})["ok"]
    return referee


def test_no_game_yet() -> None:
    answer = ask(Referee(), {"cmd": "legal"})
    assert answer == {"ok": False, "error": {"code": "no_game", "message": answer["error"]["message"]}}


def test_new_answers_with_pending() -> None:
    referee = Referee()
    answer = ask(referee, {"cmd": "new", "game": "race", "players": ["red", "blue"], "profile": "long"})
    assert answer["pending"] == {"kind": "roll", "player": "red", "text": "red: roll the die.", "die": "d6"}


def test_games_lists_the_registry() -> None:
    games = {g["id"]: g for g in ask(Referee(), {"cmd": "games"})["games"]}
    assert games["race"]["players"] == {"min": 2, "max": 3}
    assert games["race"]["options"][0]["key"] == "goal"


def test_one_game_with_broken_cafe_data_leaves_the_others_listed(tmp_path) -> None:
    (tmp_path / "blackpool").mkdir()
    (tmp_path / "blackpool" / "board.json").write_text("{")
    games = {g["id"]: g for g in ask(Referee(cafe_dir=tmp_path), {"cmd": "games"})["games"]}
    assert games["blackpool"]["data"] is None and "board.json" in games["blackpool"]["problems"][0]
    assert games["ttd"]["data"] and "problems" not in games["ttd"]


def test_legal_act_and_events() -> None:
    referee = started()
    legal = ask(referee, {"cmd": "legal"})["legal"]
    answer = ask(referee, {"cmd": "act", "action": legal[5]})
    assert answer["ok"] and answer["events"][0]["rules"] == ["R2"]
    assert answer["events"][0]["kind"] == "info" and answer["pending"]["kind"] == "choose"


def test_check_gives_a_ruling_without_applying() -> None:
    referee = started()
    before = ask(referee, {"cmd": "state"})["state"]
    ruling = ask(referee, {"cmd": "check", "action": {"type": "advance"}})["ruling"]
    assert ruling == {"legal": False, "text": "roll the die first", "rules": ["R2"]}
    assert ask(referee, {"cmd": "check", "action": {"type": "roll", "value": 2}})["ruling"]["legal"] is True
    assert ask(referee, {"cmd": "state"})["state"] == before


def test_error_codes() -> None:
    referee = started()
    cases = {
        "bad_request": [{"cmd": "dance"}, {"cmd": "act"}, {"cmd": "act", "action": 3}, [1, 2], {"cmd": 1}],
        "unknown_game": [{"cmd": "new", "game": "chess", "players": ["a", "b"]}],
        "invalid_action": [{"cmd": "act", "action": {"type": "fly"}}, {"cmd": "act", "action": {"value": 1}}],
        "illegal_action": [{"cmd": "act", "action": {"type": "hold"}}],
        "invalid_position": [{"cmd": "load", "game": "race", "state": {"players": []}}],
        "nothing_to_undo": [{"cmd": "undo"}, {"cmd": "redo"}],
    }
    before = ask(referee, {"cmd": "state"})["state"]
    for code, requests in cases.items():
        for request in requests:
            answer = ask(referee, request)
            assert answer["ok"] is False and answer["error"]["code"] == code, (request, answer)
    assert ask(referee, {"cmd": "state"})["state"] == before
    assert referee.handle_line(b"\xff\xfe")["error"]["code"] == "bad_request"
    assert referee.handle_line("{not json")["error"]["code"] == "bad_request"


def test_illegal_action_error_carries_the_rule() -> None:
    error = ask(started(), {"cmd": "act", "action": {"type": "hold"}})["error"]
    assert error["rule"] == "R2" and error["message"]


def test_state_round_trips_through_load() -> None:
    referee = started()
    ask(referee, {"cmd": "act", "action": {"type": "roll", "value": 4}})
    document = ask(referee, {"cmd": "state"})["state"]
    other = Referee()
    ask(other, {"cmd": "load", "game": "race", "state": document})
    assert ask(other, {"cmd": "state"})["state"] == document
    assert ask(other, {"cmd": "pending"})["pending"]["kind"] == "choose"


def test_undo_redo_answers() -> None:
    referee = started()
    ask(referee, {"cmd": "act", "action": {"type": "roll", "value": 4}})
    undo = ask(referee, {"cmd": "undo"})
    assert undo["ok"] and undo["pending"]["kind"] == "roll" and "Correction" in undo["note"]
    redo = ask(referee, {"cmd": "redo"})
    assert redo["pending"]["kind"] == "choose" and redo["events"][0]["text"] == "red rolled 4."


def test_rules_command() -> None:
    referee = started()
    assert len(ask(referee, {"cmd": "rules"})["rules"]["clauses"]) == 5
    assert ask(referee, {"cmd": "rules", "game": "race", "clause": "R4"})["clause"]["title"] == "Trap"
    assert ask(referee, {"cmd": "rules", "game": "race", "clause": "r4"})["clause"]["id"] == "R4"
    assert ask(referee, {"cmd": "rules", "clause": "R99"})["error"]["code"] == "bad_request"
    assert [c["id"] for c in ask(referee, {"cmd": "rules", "search": "trap"})["clauses"]] == ["R4"]


def test_serve_answers_every_line() -> None:
    lines = b'{"cmd": "pending"}\n\nnot json\n{"cmd": "new", "game": "race", "players": ["red", "blue"]}\n'
    out = io.StringIO()
    serve(Referee(), io.BytesIO(lines), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["ok"] for a in answers] == [True, False, True]
    assert answers[0]["pending"] is None


def test_a_mistyped_field_names_the_type_wanted_and_what_came() -> None:
    error = ask(started(), {"cmd": "rules", "clause": 3})["error"]
    assert error == {"code": "bad_request", "message": "'clause' must be a string, not 3"}


def test_what_came_is_quoted_as_the_json_it_came_as() -> None:
    """"unknown command None" and "not {'x': 1}" answered a JSON client in Python's words."""
    referee = Referee()
    assert referee.handle_line('{"cmd": null}')["error"]["message"].startswith("unknown command null; commands:")
    act = started()
    assert ask(act, {"cmd": "act", "action": [{"x": 1}]})["error"]["message"] == (
        '\'action\' must be an object, not [{"x": 1}]')
    assert ask(act, {"cmd": "check", "action": True})["error"]["message"] == "'action' must be an object, not true"


def test_nan_infinity_and_huge_numbers_are_refused_as_not_json() -> None:
    """Python's reader takes NaN; journalled and echoed back, it breaks every strict JSON reader."""
    referee = started()
    before = ask(referee, {"cmd": "state"})["state"]
    for line, words in [
        ('{"cmd": "act", "action": {"type": "roll", "value": 4, "note": NaN}}', "NaN is not a JSON number"),
        ('{"cmd": "act", "action": {"type": "roll", "value": -Infinity}}', "-Infinity is not a JSON number"),
        ('{"cmd": "act", "action": {"type": "roll", "value": 1e999}}', "1e999 is too large"),
        ('{"cmd": "pending", "n": ' + "9" * 5000 + "}", "number too long"),
        ('{"cmd": "pending",}', "not valid JSON: Expecting property name"),
    ]:
        error = referee.handle_line(line)["error"]
        assert error["code"] == "bad_request" and words in error["message"], (line[:60], error)
    assert ask(referee, {"cmd": "state"})["state"] == before and referee.session.log == []


def test_serve_skips_an_overlong_line_and_answers_the_next() -> None:
    lines = b'{"cmd": "' + b"x" * 200 + b'"}\n{"cmd": "pending"}\n' + b"y" * 150  # the last one ends without \n
    out = io.StringIO()
    serve(Referee(), io.BytesIO(lines), out, max_line=64)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["ok"] for a in answers] == [False, True, False]
    assert answers[0]["error"]["message"] == "the line is longer than 64 bytes; it was skipped"
    assert answers[2]["error"]["message"] == answers[0]["error"]["message"]


def test_the_session_in_docs_protocol_md_answers_as_written() -> None:
    """The documented exchange is what a client author copies: its answers must be the referee's own.

    The key check once refused the example's ``"player"`` and nobody noticed: the page kept promising it.
    """
    from pathlib import Path

    doc = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
    text = doc.read_text(encoding="utf-8").splitlines()
    lines = [line.strip() for line in text if line.startswith(("    > ", "    < "))]
    assert sum(line.startswith(">") for line in lines) >= 3
    referee, answer = Referee(), None
    for line in lines:
        if line.startswith(">"):
            answer = referee.handle(json.loads(line[2:]))
        else:
            assert answer == json.loads(line[2:])


def test_an_unknown_game_is_refused_with_every_game_by_id_and_name() -> None:
    """The refusal listed ids alone ("games: blackpool, desert, ..."): a client was left to guess what "ttd" is."""
    answer = Referee().handle({"cmd": "new", "game": "chess", "players": ["a", "b"]})
    message = answer["error"]["message"]
    assert answer["error"]["code"] == "unknown_game" and message.startswith("no game 'chess'; the games are: ")
    for game_id in ("blackpool", "ttd"):
        assert f"{game_id} - {title_of(game_id)}" in message


def test_a_key_the_command_does_not_read_is_refused_not_ignored() -> None:
    """``{"cmd": "legal", "game": "ttd"}`` answered with the race's actions and ``{"cmd": "undo", "n": 3}`` took one
    step back, each as if the key had been read; a slip of a command or key is named, as an action's is."""
    referee = started()
    ask(referee, {"cmd": "act", "action": {"type": "roll", "value": 4}})
    before = ask(referee, {"cmd": "state"})["state"]
    cases = {
        "'legal' has no key 'game'; it takes only cmd": {"cmd": "legal", "game": "ttd"},
        "'undo' has no key 'n'; it takes only cmd": {"cmd": "undo", "n": 3},
        "'act' has no key 'id'; it takes only action besides cmd": {"cmd": "act", "action": {"type": "hold"}, "id": 1},
        "'new' has no key 'plyers' (is it 'players'?); it takes only game, players, options, profile besides cmd":
            {"cmd": "new", "game": "race", "plyers": ["red", "blue"]},
        "a 'rules' request takes 'clause' or 'search', not 'clause' and 'search' together":
            {"cmd": "rules", "clause": "R4", "search": "six"},
        "unknown command 'Legal' (is it 'legal'?); commands: games, new, load,": {"cmd": "Legal"},
    }
    for words, request in cases.items():
        error = ask(referee, request)["error"]
        assert error["code"] == "bad_request" and error["message"].startswith(words), (request, error)
    assert ask(referee, {"cmd": "state"})["state"] == before and len(referee.session.log) == 1


def test_json_faults_read_as_sentences_and_a_line_cut_by_the_end_of_input_says_so() -> None:
    """A client closing stdin mid-line was told "Unterminated string starting at at column 8", and nothing of the
    cut; a byte order mark was "Unexpected UTF-8 BOM (decode using utf-8-sig)", advice for Python."""
    out = io.StringIO()
    lines = b'\xef\xbb\xbf{"cmd": "pending"}\n{"cmd": "rules", "search": "a\tb"}\n{"cmd": "pend'
    serve(Referee(), io.BytesIO(lines), out)
    messages = [json.loads(line)["error"]["message"] for line in out.getvalue().splitlines()]
    assert messages == [
        "the line starts with a byte order mark (U+FEFF); send the JSON without it",
        "the line is not valid JSON: Invalid control character at column 30",
        "the line is not valid JSON: Unterminated string starting at column 9; the input ended before the line "
        "did (no newline), so it may be cut short",
    ]


def test_explain_reads_a_place_as_the_terminal_why_and_the_refusals_spell_it() -> None:
    """Through the Desert's "5,3" and "(2,0)" (as its own texts write a hex) and Targi's "3" were no place to
    ``explain``, though the terminal's ``why`` takes them and the docs say the protocol reads a string as it does;
    the desert's 3 was refused as "a space is named by its number on the board view, 0 to 39"."""
    for game_id, players, same in [
        ("ttd", ["red", "black"], [[5, 3], "5,3", "(5, 3)"]),
        ("targi", ["white", "black"], [3, "3", "Silversmith"]),
        ("desert", ["black", "pink"], ["3", 3]),
        ("temple", ["red", "blue"], [[0, 0], "0,0"]),
    ]:
        referee = Referee()
        ask(referee, {"cmd": "new", "game": game_id, "players": players})
        answers = [ask(referee, {"cmd": "explain", "place": place}) for place in same]
        assert all(a["ok"] for a in answers) and len({json.dumps(a["ruling"]) for a in answers}) == 1, answers
    error = ask(referee, {"cmd": "explain", "place": "99,99"})["error"]
    assert error["code"] == "bad_request" and error["rule"] == "RU-2" and "'99,99'" in error["message"]


def test_an_unknown_option_or_profile_names_the_game_and_the_one_most_likely_meant() -> None:
    """"ttd has no option 'Leaders'" named the game by an id the client had to look up, and neither refusal named
    the slip, as an action's key and a command are."""
    referee = Referee()
    for extra, words in [
        ({"profile": "As-Written"}, "Through the Desert has no profile 'As-Written' (is it 'as-written'?); profiles:"),
        ({"options": {"Leaders": "one_guide"}}, "Through the Desert has no option 'Leaders' (is it 'leaders'?); opt"),
    ]:
        error = ask(referee, {"cmd": "new", "game": "ttd", "players": ["red", "black"], **extra})["error"]
        assert error["code"] == "bad_request" and error["message"].startswith(words) and "rule" not in error, error
    assert referee.session is None


def test_a_position_field_the_game_does_not_hold_is_refused_in_every_game() -> None:
    """Only the desert refused an unknown field of a loaded position: the other four dropped it unread, so Targi's
    "targii" loaded as though no Targi stood on the board, without a word."""
    for game_id, players in [("blackpool", ["red", "blue"]), ("desert", ["black", "pink"]),
                             ("targi", ["white", "black"]), ("temple", ["red", "blue"]), ("ttd", ["red", "black"])]:
        referee = Referee()
        ask(referee, {"cmd": "new", "game": game_id, "players": players})
        document = ask(referee, {"cmd": "state"})["state"]
        error = ask(referee, {"cmd": "load", "game": game_id, "state": {**document, "note": "x"}})["error"]
        assert error["code"] == "invalid_position" and error["problems"] == ["unknown field 'note'"], error
        assert ask(referee, {"cmd": "load", "game": game_id, "state": document})["ok"]
        assert ask(referee, {"cmd": "load", "game": game_id, "state": {**document, "profile": "standard"}})["ok"]
        if game_id == "targi":
            misspelt = {("targii" if key == "targi" else key): value for key, value in document.items()}
            error = ask(referee, {"cmd": "load", "game": game_id, "state": misspelt})["error"]
            assert error["problems"] == ["unknown field 'targii' (is it 'targi'?)"]


def test_a_misspelt_field_is_named_beside_the_problems_its_absence_makes() -> None:
    """A field the reader needs, misspelt, was refused for its absence alone ("turn: null is not playing"), and the
    referee looked for a turn that was there, typed "trun": the unknown field is named first, with the field
    most likely meant, and the game in progress stays as it was."""
    for game_id, players, field in [("blackpool", ["red", "blue"], "turn"), ("desert", ["black", "pink"], "step"),
                                    ("targi", ["white", "black"], "stage"), ("temple", ["red", "blue"], "phase"),
                                    ("ttd", ["red", "black"], "phase")]:
        referee = Referee()
        ask(referee, {"cmd": "new", "game": game_id, "players": players})
        document = ask(referee, {"cmd": "state"})["state"]
        typo = field[:-2] + field[-1] + field[-2]
        misspelt = {(typo if key == field else key): value for key, value in document.items()}
        error = ask(referee, {"cmd": "load", "game": game_id, "state": misspelt})["error"]
        assert error["code"] == "invalid_position", error
        assert error["problems"][0] == f"unknown field '{typo}' (is it '{field}'?)", error
        assert len(error["problems"]) > 1 and sum("unknown field" in p for p in error["problems"]) == 1, error
        assert ask(referee, {"cmd": "state"})["state"] == document


def test_a_key_given_twice_in_one_object_is_refused_not_read_as_the_last() -> None:
    """Python's reader keeps the last of a key given twice: a roll of 3 then 5 was taken as a 5, and
    ``{"cmd": "pending", "cmd": "legal"}`` answered as ``legal``."""
    referee = started()
    before = ask(referee, {"cmd": "state"})["state"]
    for line, key in [('{"cmd": "act", "action": {"type": "roll", "value": 3, "value": 5}}', "value"),
                      ('{"cmd": "pending", "cmd": "legal"}', "cmd")]:
        error = referee.handle_line(line)["error"]
        assert error == {"code": "bad_request",
                         "message": f"the line gives the key '{key}' twice in one object; give each key once"}
    assert ask(referee, {"cmd": "state"})["state"] == before and referee.session.log == []


IMPOSSIBLE_SEATS = {"blackpool": ["red", "blue"], "desert": ["black", "pink"], "targi": ["white", "black"],
                    "temple": ["red", "blue"], "ttd": ["red", "black"]}
IMPOSSIBLE_DECK = {"blackpool": "charm", "desert": "mystery", "targi": "goods", "temple": "path", "ttd": "waterholes"}


@pytest.mark.parametrize("game_id", sorted(IMPOSSIBLE_SEATS))
def test_a_roll_or_card_no_die_or_deck_has_is_named_so_at_any_time(game_id: str) -> None:
    """A roll of 99 or a card no deck holds is ``invalid_action`` at every kind of step, state unchanged, not
    ``illegal_action`` "Not now": the temple answered a roll of 99 during its set-up "Not now: Draw a card ..."."""
    import random

    rng = random.Random(1)
    referee = Referee()
    answer = ask(referee, {"cmd": "new", "game": game_id, "players": IMPOSSIBLE_SEATS[game_id]})
    seen = set()
    for _ in range(200):
        kind = answer["pending"]["kind"]
        if kind == "over":
            break
        if kind not in seen:
            seen.add(kind)
            before = ask(referee, {"cmd": "state"})["state"]
            for action in ({"type": "roll", "value": 99}, {"type": "draw", "deck": IMPOSSIBLE_DECK[game_id],
                                                          "card": "ZZ9"}):
                refused = ask(referee, {"cmd": "act", "action": action})
                assert refused["error"]["code"] == "invalid_action", (kind, action, refused)
                assert refused["error"]["rule"] and "Not now" not in refused["error"]["message"]
            assert ask(referee, {"cmd": "state"})["state"] == before
        action = rng.choice(ask(referee, {"cmd": "legal"})["legal"])
        action.pop("text")
        answer = ask(referee, {"cmd": "act", "action": action})
    assert len(seen) >= 2


def test_a_search_of_no_word_lists_every_clause_whatever_it_holds() -> None:
    """``""``, blanks and punctuation alone search for nothing: every clause in the book's order, ``every`` true.
    ``""`` and ``"-"`` listed every clause while ``"?"`` and ``"!!"`` listed none."""
    referee = Referee()
    book = [c["id"] for c in ask(referee, {"cmd": "rules", "game": "blackpool"})["rules"]["clauses"]]
    for search in ("", "   ", "?", "!!", "...", "-", '""', "? !"):
        answer = ask(referee, {"cmd": "rules", "game": "blackpool", "search": search})
        assert [c["id"] for c in answer["clauses"]] == book and answer["every"] is True, search
    assert 0 < len(ask(referee, {"cmd": "rules", "game": "blackpool", "search": "oracle?"})["clauses"]) < len(book)


@pytest.mark.parametrize("profile", ["", "  "])
def test_an_empty_profile_is_refused_not_taken_for_the_standard_one(profile: str) -> None:
    """Leaving ``profile`` out asks for the standard profile; an empty name was quietly taken for it."""
    referee = Referee()
    answer = ask(referee, {"cmd": "new", "game": "ttd", "players": ["red", "black"], "profile": profile})
    assert answer["error"]["code"] == "bad_request" and "rule" not in answer["error"]
    assert "leave the profile out for the standard one; profiles: standard" in answer["error"]["message"]
    assert ask(referee, {"cmd": "pending"})["pending"] is None
    assert ask(referee, {"cmd": "new", "game": "ttd", "players": ["red", "black"]})["ok"]


NOBODYS_DRAW = {
    "targi": (["white", "black"], {"type": "draw", "deck": "goods", "card": "G01"}),
    "temple": (["red", "blue"], {"type": "draw", "deck": "path", "card": "P01"}),
    "ttd": (["red", "black"], {"type": "draw", "deck": "waterholes", "card": "1", "hex": [2, 0]}),
}


@pytest.mark.parametrize("game_id", sorted(NOBODYS_DRAW))
def test_a_card_the_table_turns_up_for_no_one_is_journalled_as_no_ones(game_id: str, tmp_path) -> None:
    """``pending.player`` null: a player's name sent with the draw is taken off, in the answer, the journal and the
    record; one nobody plays is refused with the turn clause. Each of the three games journalled the name sent."""
    from companion.journal import Journal

    seats, draw = NOBODYS_DRAW[game_id]
    journal = Journal(tmp_path / "j.sqlite3")
    referee = Referee(journal)
    assert ask(referee, {"cmd": "new", "game": game_id, "players": seats})["pending"]["player"] is None
    stranger = ask(referee, {"cmd": "act", "action": {**draw, "player": "zebra"}})
    assert stranger["error"]["code"] == "invalid_action" and stranger["error"]["rule"]
    answer = ask(referee, {"cmd": "act", "action": {**draw, "player": seats[1]}})
    assert answer["action"] == draw, answer
    assert ask(referee, {"cmd": "export"})["record"]["actions"] == [draw]
    assert journal.active_game().actions() == [draw]
