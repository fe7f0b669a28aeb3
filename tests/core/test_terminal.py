"""The terminal referee driven by typed lines, with its journal."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.observations import DieRead
from companion.session import Session
from companion.terminal import Terminal


def run(session: Session | None, lines: list[str], make=lambda: None) -> str:
    out = io.StringIO()
    Terminal(session, make, out).run(iter(lines))
    return out.getvalue()


def test_typed_values_numbers_undo_and_rules(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    session = Session.new("race", ["red", "blue"], journal=journal)
    text = run(session, ["5", "1", "u", "2", "rules trap", "rule R4", "check 1", "check {\"type\": \"roll\"}", "q"])
    assert "red rolled 5." in text
    assert "red advances to 5." in text
    assert "Taken back: red advances to 5." in text  # the undo says which action it took back
    assert "red holds." in text
    assert "R4  Trap" in text
    assert "LEGAL: Allowed." in text
    assert "Refused: a d6 shows 1 to 6" in text
    assert session.document()["turn"] == 1


def test_game_over_and_resume_after_closing(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    session = Session.load("race", {"game": "race", "players": ["red", "blue"], "positions": [10, 0]}, journal)
    run(session, ["4", "q"])
    journal.close()
    resumed = Session.resume(Journal(path))
    assert resumed is not None and resumed.document()["roll"] == 4
    text = run(resumed, ["1", "q"])
    assert "red wins." in text and "The game is over" in text


def test_nonsense_never_stops_the_terminal() -> None:
    session = Session.new("race", ["red", "blue"])
    text = run(session, ["banana", "do {oops", "do [1]", "99", "q"])
    assert text.count("Not understood") == 4
    assert session.log == []


def test_hundreds_of_choices_are_shown_in_part_and_taken_by_their_words() -> None:
    """Through the Desert's leader placement offers hundreds: a wall of lines every step helps nobody."""
    session = Session.new("ttd", ["red", "black", "orange"])
    while session.state.phase == "waterholes":
        session.act(session.legal()[0])
    legal = session.legal()
    assert len(legal) > 200
    wanted = next(a for a in legal if a.get("colour") == "green" and a["hex"] == [3, 0])
    text = run(session, ["green 3,0", "q"])
    assert f"... and {len(legal) - 30} more: 'all' lists them" in text
    assert f"  {len(legal):>3}. " not in text.split("green 3,0")[0]  # the last choice was not listed
    assert session.log[-1] == {k: v for k, v in wanted.items() if k != "text"}


def test_words_that_fit_several_choices_ask_for_more_and_all_lists_every_one() -> None:
    session = Session.new("ttd", ["red", "black", "orange"])
    while session.state.phase == "waterholes":
        session.act(session.legal()[0])
    legal, steps = session.legal(), len(session.log)
    text = run(session, ["gre", "all", "q"])
    assert "That fits" in text and "add a word, or type its number" in text
    assert f"  {len(legal):>3}. {legal[-1]['text']}" in text
    assert len(session.log) == steps  # neither line took a step
    assert text.count("Key: ") == 1  # nor showed the board again, which would push the answers off screen


def test_numbers_past_the_list_and_bare_check_say_what_is_wanted() -> None:
    session = Session.new("race", ["red", "blue"])
    lines = ["7", "-1", "³", "9" * 5000, "check", "check junk", "do 99", 'do {"type": "roll", "value": 4, "n": NaN}']
    text = run(session, [*lines, "rule", "rule r4", "q"])
    # A roll is asked for: a bare number is the roll, so one past the die is no value (and takes no choice).
    assert "Not understood: 7 is not a value the die can show now (1, 2, 3, 4, 5, 6); the choices are #1 to #6." in text
    assert "-1 is not a value the die" in text and "999999999... is not a value the die" in text
    assert "no choice 99:" in text  # 'do' names a choice by number, as it always did
    assert "'check' takes a choice's number or words, or an action in JSON" in text
    assert "no choice has the words 'junk'" in text
    assert "NaN is not a JSON number" in text
    assert "Which clause? e.g. 'rule R1'" in text and "R4  Trap" in text
    assert "invalid literal" not in text and "Not understood: Expecting" not in text and "Exceeds the limit" not in text
    assert session.log == []


def test_bytes_that_are_not_utf8_are_not_understood_not_a_traceback(tmp_path: Path) -> None:
    """Raspberry Pi OS runs in en_GB.UTF-8, where Python reads stdin strictly (here: PYTHONIOENCODING)."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONIOENCODING": "utf-8:strict"}
    path = tmp_path / "j.sqlite3"

    def play(*args: str, typed: bytes, code: int = 0) -> str:
        command = [sys.executable, "-m", "tests.core.run_with_race", "play", "--journal", str(path), *args]
        done = subprocess.run(command, input=typed, capture_output=True, cwd=root, env=env, timeout=60)
        assert done.returncode == code and "Traceback" not in done.stderr.decode(), done.stderr.decode()
        return done.stdout.decode()

    out = play("--game", "race", "--players", "red,blue", "--new", typed=b"\xff\xfe4\n4\nq\n")
    assert "the line holds bytes that are not UTF-8 text" in out
    assert out.count("red rolled 4.") == 1  # the garbled line was not read as a 4
    entry = Journal(path).latest_game()
    assert entry is not None and len(entry.steps) == 1
    # '³' passes str.isdigit; int() refused it
    assert "No game '³': type its number" in play("--new", typed="³\n".encode(), code=1)


def test_a_sensor_reading_the_rules_refuse_is_shown_with_its_clause() -> None:
    session = Session.new("blackpool", ["red", "blue"])
    out = io.StringIO()
    terminal = Terminal(session, lambda: None, out)
    terminal.controller.submit(DieRead(7, "dice sensor"))
    terminal.run(iter(["q"]))
    assert "The die reads 7: the Oracle (d6) shows 1 to 6; not applied.  [BP-Q5]" in out.getvalue()
    assert session.log == []


def test_quitting_promises_a_resume_only_from_a_journal_file(tmp_path: Path) -> None:
    """A table whose journal could only be kept in memory was told its game would resume: it ends there."""
    on_disk = run(Session.new("race", ["red", "blue"], journal=Journal(tmp_path / "j.sqlite3")), ["q"])
    assert "'companion play' resumes it" in on_disk
    in_memory = run(Session.new("race", ["red", "blue"], journal=Journal()), ["q"])
    assert "kept in memory only" in in_memory and "resumes it" not in in_memory


def test_a_ctrl_c_while_the_line_reader_starts_still_counts_it_as_waiting(monkeypatch) -> None:
    """Ctrl-C can land while `Thread.start` waits for the reader to run; the reader then reads stdin but is not
    yet alive, and the process that ended its normal way aborted at shutdown on stdin's lock (signal 6)."""
    import threading

    from companion import terminal

    def interrupted_start(self: threading.Thread) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(threading.Thread, "start", interrupted_start)
    monkeypatch.setattr(terminal, "_reading", threading.Event())
    session = Session.new("race", ["red", "blue"])
    with pytest.raises(KeyboardInterrupt):
        Terminal(session, lambda: None, io.StringIO()).run_live(lambda: None)
    assert terminal.input_still_waiting()


def test_the_line_reader_stops_counting_once_its_input_has_ended() -> None:
    import time

    from companion import terminal

    lines = iter(["q"])
    Terminal(Session.new("race", ["red", "blue"]), lambda: None, io.StringIO()).run_live(lambda: next(lines, None))
    deadline = time.monotonic() + 5
    while terminal.input_still_waiting() and time.monotonic() < deadline:
        time.sleep(0.01)  # the reader reads its end of input after the referee has quit
    assert not terminal.input_still_waiting()


@pytest.mark.parametrize("game, players", [("targi", ["white", "black"]), ("ttd", ["red", "black", "orange"])])
def test_the_example_under_a_long_list_takes_exactly_one_choice(game: str, players: list[str]) -> None:
    """Targi's set-up asks for one of 45 tribe cards and said "type words of one, e.g. 'drawn 1'": those words
    fit 40 of them, so the example typed as shown took nothing and asked for more words."""
    import re

    session = Session.new(game, players)
    for _ in range(40):
        legal = session.legal()
        if len(legal) > 30:
            text = run(session, ["q"])
            example = re.search(r"more: 'all' lists them; or type words of one, e.g. '(.*)'\.", text)
            assert example is not None, text[-800:]
            steps = len(session.log)
            answer = run(session, [example.group(1), "q"])
            assert len(session.log) == steps + 1, answer[-800:]  # the example took one choice
            return
        session.act(legal[0])
    pytest.fail("no long list came")


def test_rules_lists_every_clause_and_a_search_says_when_it_shows_only_some() -> None:
    """'rules' showed the first 12 of Blackpool's 60 clauses and 'rules six' 12 of its matches, and neither said
    that more existed: BP-C2 onwards could not be found from the terminal without knowing its id."""
    session = Session.new("blackpool", ["red", "blue"])
    clauses = session.game.rulebook.clauses
    text = run(session, ["rules", "q"])
    assert all(f"  {clause.id}  {clause.title}" in text for clause in clauses)
    found = session.game.rulebook.search("six")
    assert len(found) > 12
    text = run(session, ["rules six", "q"])
    assert f"... and {len(found) - 12} more" in text and "add a word" in text


@pytest.mark.parametrize(("game", "players"), [("ttd", ["red", "black"]), ("targi", ["white", "black"])])
def test_the_end_of_a_game_is_said_once(game: str, players: list[str]) -> None:
    """At the end the terminal said "> The game is over: ..." and then "The game is over. 'u' takes back ...";
    Targi's text board had said it a third time ("Next: The game is over. ...") above them."""
    session = Session.new(game, players)
    rng = random.Random(3)
    while not session.pending().is_over:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    text = run(session, ["q"])
    assert text.lower().count("game is over") == 1, text
    assert f"> {session.pending().text}\n  'u' takes back the last step, 'new' starts another, 'q' quits.\n" in text
    assert "Next:" not in text


def test_a_game_whose_end_says_only_who_won_is_still_said_to_be_over() -> None:
    session = Session.load("race", {"game": "race", "players": ["red", "blue"], "positions": [10, 0]})
    text = run(session, ["4", "1", "q"])  # red rolls 4 and advances to 14, past the goal
    assert "  The game is over. 'u' takes back the last step, 'new' starts another, 'q' quits.\n" in text


def test_a_draw_lists_cards_as_words_not_data_ids() -> None:
    """Beside a Blackpool or Desert Race draw the prompt listed 'gust_of_force' and 'desert_flask'."""
    for game, players in (("blackpool", ["red", "blue"]), ("desert", ["black", "purple"])):
        session = Session.new(game, players)
        rng = random.Random(5)
        while not (session.pending().kind == "draw" and any("_" in str(a.get("card")) for a in session.legal())):
            session.act(session.game.sim_choose(session.state, session.legal(), rng))
        prompt = next(line for line in run(session, ["q"]).splitlines() if "Type what the table shows" in line)
        assert "_" not in prompt, prompt
        card = next(a for a in session.legal() if "_" in str(a.get("card")))
        steps = len(session.log)
        text = run(session, [card["card"].replace("_", " "), "q"])
        assert len(session.log) == steps + 1 and session.log[-1]["card"] == card["card"], text


@pytest.mark.parametrize(
    ("game", "players"),
    [("blackpool", ["red", "blue"]), ("desert", ["black", "purple"]), ("targi", ["white", "black"]),
     ("temple", ["red", "blue"]), ("ttd", ["red", "black"])],
)
def test_the_prompt_is_said_once_after_each_step(game: str, players: list[str]) -> None:
    """Targi's and Blackpool's text boards ended in "Next: ..." / "Now: ...", the very words of the prompt
    printed on the next line, after every step of the game."""
    session = Session.new(game, players)
    rng = random.Random(2)
    for _ in range(12):
        text = run(session, ["q"])
        assert text.count(session.pending().text) == 1, text
        session.act(session.game.sim_choose(session.state, session.legal(), rng))


def test_odd_commands_before_the_first_step_and_after_the_end_each_say_something() -> None:
    """`all` after the last step printed nothing; the menu button printed a bare "menu"; a bare `why` in
    Targi listed hexes, spaces and travellers, none of which Targi has."""
    session = Session.load("race", {"game": "race", "players": ["red", "blue"], "positions": [10, 0]})
    text = run(session, ["4", "1", "all", "q"])
    assert "There is nothing to choose now. " in text
    session = Session.new("targi", ["white", "black"])
    text = run(session, ["press menu", "press settings", "why", "q"])
    assert "The menu button opens the touchscreen's menu; the terminal has none" in text
    assert "The settings button opens the touchscreen's settings" in text
    # The terminal's own word left short, as documented: "Not understood", where it read "Refused" with no clause.
    assert "Not understood: say which place after 'why': a border card is named by its number" in text
    assert "traveller" not in text and "Refused: say which" not in text
    assert session.log == []


def test_the_new_game_questions_give_the_player_count_in_words() -> None:
    """Targi's question read "Players in turn order, 2-2 from white, black", like a typo."""
    from companion.terminal import ask_new_game

    asked: list[str] = []
    answers = iter(["white, black", ""])

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)

    assert ask_new_game(ask, lambda _: None, "targi") == {"game": "targi", "players": ["white", "black"],
                                                          "profile": "standard"}
    assert asked[0] == "Players in turn order, 2 from white, black (comma separated): "
    asked.clear()
    answers = iter(["red, blue", ""])
    ask_new_game(ask, lambda _: None, "blackpool")
    assert asked[0].startswith("Players in turn order, 2 to 4 from ")


def test_a_game_name_pasted_a_megabyte_long_is_quoted_back_cut_short() -> None:
    """'No game ...' wrote the whole paste back, a wall of text where one line was meant."""
    from companion.terminal import ask_new_game

    said: list[str] = []
    answers = iter(["x" * 1_000_000])
    assert ask_new_game(lambda prompt: next(answers, None), said.append, None) is None
    assert said[-1].startswith("  No game 'xxx") and len(said[-1]) < 100, said[-1][:120]


def test_a_game_typed_wrong_is_asked_again_not_the_end_of_play() -> None:
    """A typo at "Which game?" ended `companion play` ("no game was started"): the player had to start it again."""
    from companion.terminal import ask_new_game

    said: list[str] = []
    answers = iter(["chess", "0", "race", "red,blue", ""])
    spec = ask_new_game(lambda prompt: next(answers, None), said.append, None)
    assert spec == {"game": "race", "players": ["red", "blue"], "profile": "standard"}
    ids = len([line for line in said if line.startswith("  ") and ". " in line])
    assert f"  No game 'chess': type its number (1 to {ids}) or its id." in said
    assert f"  No game '0': type its number (1 to {ids}) or its id." in said


def test_the_live_referee_says_goodbye_on_its_own_line_when_the_input_ends() -> None:
    """`hw play </dev/null` ended with "? Bye. The game is kept ...": the goodbye stood after the prompt."""
    out = io.StringIO()
    Terminal(Session.new("race", ["red", "blue"]), lambda: None, out).run_live(lambda: None, prompt="? ")
    assert "? \nBye. " in out.getvalue() and "? Bye" not in out.getvalue()


def test_undo_and_redo_with_words_after_them_take_nothing_back() -> None:
    """'u 2 to [0,12]' (a choice's words pasted after a 'u') and 'undo shows 4' took the last step back, the
    words unread: a line that changes the game is taken only when it says nothing else."""
    session = Session.new("blackpool", ["red", "blue"])
    text = run(session, ["4", "u 3", "undo shows 4", "q"])
    assert "Not understood: 'u' takes nothing after it (here '3'); type 'u' alone to take back the last step." in text
    assert "'undo' takes nothing after it (here 'shows 4')" in text and "Correction" not in text
    assert len(session.log) == 1
    text = run(session, ["u", "redo it", "q"])
    assert "'redo' takes nothing after it (here 'it'); type 'redo' alone to put it back." in text
    assert session.log == [] and session.can_redo


def test_quit_with_words_after_it_is_answered_and_play_goes_on() -> None:
    """'q anything' quit (the game kept), where a person had most likely mistyped: only 'q', 'quit' or 'exit'
    alone quits, as only 'u' alone takes a step back."""
    session = Session.new("blackpool", ["red", "blue"])
    text = run(session, ["q anything", "EXIT now", "4", "quit"])
    assert ("Not understood: 'q' quits only typed alone (here 'anything' came after it), so play goes on; type 'q' "
            "alone to quit.") in text
    assert "'exit' quits only typed alone (here 'now' came after it)" in text
    assert len(session.log) == 1 and text.count("Bye.") == 1  # the roll after them was taken; 'quit' alone quit


def test_a_number_typed_in_quotes_in_json_is_told_to_lose_them() -> None:
    """'{"type": "roll", "value": "3"}' was "the oracle shows 1 to 6, not '3'" [BP-Q5]: the 3 the player typed
    looked right, and nothing said that JSON's number goes without quotes (the café files' validator says so)."""
    session = Session.new("blackpool", ["red", "blue"])
    text = run(session, ['{"type": "roll", "value": "3"}', 'do {"type": "roll", "value": "4"}',
                         'check {"type": "roll", "value": "5"}', 'do {"type": "roll", "value": "three"}', "q"])
    assert "Refused: roll: say which number the oracle shows (1 to 6), not '3'; write 3 without quotes  [BP-Q5]" in text
    assert "not '4'; write 4 without quotes  [BP-Q5]" in text and "not '5'; write 5 without quotes" in text
    # no number in it: nothing to unquote
    assert "Refused: roll: say which number the oracle shows (1 to 6), not 'three'  [BP-Q5]" in text
    assert session.log == []
    desert = Session.new("desert", ["black", "teal"])
    assert "not '2'; write 2 without quotes  [DR-Q28]" in run(desert, ['{"type": "roll", "value": "2"}', "q"])


def test_the_referee_protocol_tells_a_quoted_number_to_lose_its_quotes_too() -> None:
    from companion.protocol import Referee

    referee = Referee()
    assert referee.handle({"cmd": "new", "game": "blackpool", "players": ["red", "blue"]})["ok"]
    for cmd in ("act", "check"):
        error = referee.handle({"cmd": cmd, "action": {"type": "roll", "value": "6"}})["error"]
        said = "roll: say which number the oracle shows (1 to 6), not '6'; write 6 without quotes"
        assert error["message"] == said, error
        assert error["rule"] == "BP-Q5"


def test_a_line_that_is_no_command_and_no_choice_is_said_back() -> None:
    """Every such line was "Not understood. Type 'help' for the commands.": the protocol's 'explain' and a word
    no choice has were answered alike, with nothing of what was typed."""
    session = Session.new("blackpool", ["red", "blue"])
    text = run(session, ["explain 5", "banana", "banana split", "q"])
    assert "Not understood: here a place is asked about with 'why'" in text
    assert ("Not understood: 'banana' is no command, and no choice has that word; 'all' lists every choice, 'help' "
            "the commands.") in text
    assert "and no choice has the words 'banana split';" in text and "Type 'help'" not in text
    assert session.log == []


def test_input_that_breaks_ends_the_reading_even_when_saying_so_fails() -> None:
    """`companion hw demo | head`: the demo's script (its input) printed into the closed pipe, the report of
    that failed on the same pipe, and the reading thread died before it ended the input: the command then
    waited for ever, with two tracebacks on stderr. The input must end whatever the report does."""
    import queue

    from companion.terminal import start_reading

    def broken_line() -> str | None:
        raise BrokenPipeError(32, "Broken pipe")

    def broken_report(error: Exception) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    inbox: queue.Queue[object] = queue.Queue()
    start_reading(broken_line, inbox, broken_report)
    assert inbox.get(timeout=30) is None  # the end of the input, which lets the command finish


def test_an_action_typed_as_json_alone_is_taken_as_do_takes_it() -> None:
    """`{"type": "roll", "value": 3}` typed at the prompt beside a roll was read as a face the die lacks ("the die
    has no face '{"type": ...'") and elsewhere told to type 'do' first; what it means is plain, so it is taken,
    or refused with its clause as `do` refuses it, state unchanged."""
    session = Session.new("blackpool", ["red", "blue"])
    text = run(session, ['{"type": "roll", "value": 9}', '{"type": "roll", "valeu": 3}', '{"type": "coin"}',
                         '{"type": "roll", "value": 3', '{"cmd": "act", "action": {"type": "roll", "value": 4}}',
                         '[2]', "q"])
    assert "die has no face" not in text and "typed after 'do'" not in text
    assert "Refused: the oracle shows 1 to 6, not 9  [BP-Q5]" in text
    assert ("Refused: roll: 'valeu' is not asked for (is it 'value'?); say which number the oracle shows ('value')"
            "  [BP-3]") in text
    assert "Refused: coin: say which deck  [BP-3]" in text  # no coin is offered now: no decks to list
    assert ("Not understood: an action typed as JSON is one object, e.g. {\"type\": ...}, and is taken as 'do' "
            "takes it (the line is not valid JSON: Expecting ',' delimiter at column 28)") in text
    assert ("Not understood: that is a request of the referee protocol ('companion referee'); here type the action "
            'alone ({"type": "roll", "value": 4})  [BP-3]') in text
    assert session.log == [{"type": "roll", "value": 2}]  # '[2]' is words of a choice, as before: "Oracle shows 2"
    session = Session.new("blackpool", ["red", "blue"])
    text = run(session, ['  {"type": "roll", "value": 3}', "q"])
    assert "* Red rolls 3.  [BP-3]" in text and session.log == [{"type": "roll", "value": 3}]
    session = Session.new("targi", ["white", "black"])
    text = run(session, ['{"type": "pass"}', "q"])
    assert "Refused: " in text and "  [TG-A1]" in text and session.log == []


def test_a_temple_move_typed_with_its_own_route_is_taken_or_refused_by_the_rules() -> None:
    """A move typed as JSON with a "route" is the game's to rule on whatever is offered: a route of its own to the
    offered end is taken as typed, and a move typed while a roll is asked for is "Not now" with the roll's clause,
    never a refusal of the "route" key (every offered move carries one, and the temple declares it)."""
    rng = random.Random(0)
    session = Session.new("temple", ["red", "blue"])
    for _ in range(19):
        session.act({k: v for k, v in rng.choice(session.legal()).items() if k != "text"})
    move = next(a for a in session.legal() if a["type"] == "move" and a["to"] == [13, 5])
    assert move["route"] == [[14, 3], [14, 4], [14, 5], [13, 5]]
    own = {"type": "move", "pawn": move["pawn"], "to": [13, 5], "route": [[14, 3], [14, 4], [13, 4], [13, 5]]}
    text = run(session, [json.dumps(own), "q"])
    assert "Refused" not in text and "Not understood" not in text and session.log[-1] == own
    assert "Blue 1 moves 4 " in text
    while session.pending().kind != "roll":
        session.act({k: v for k, v in session.legal()[0].items() if k != "text"})
    steps = len(session.log)
    text = run(session, [json.dumps(own), "q"])
    assert "Refused: Not now: " in text and "  [RU-" in text and "'route'" not in text and len(session.log) == steps


def test_a_card_typed_that_this_draw_cannot_be_is_refused_with_the_games_clause() -> None:
    """A temple card typed again once laid ('P07' with P07 in slot 1) was "'P07' is no command, and no choice has
    that word", as if it were no card, with no clause; the game's own answer says why, as `do` would. Words that
    name no card of the draw cite the deck's clause, as a number typed there does."""
    session = Session.new("temple", ["red", "blue"])
    text = run(session, ["p07", "P07", "p7", "q"])
    assert "Refused: P07 is already in slot 1.  [RU-3]" in text and "'P07' is no command" not in text
    assert ("Not understood: 'p7' names no card of this draw: type the card as it shows; 'all' lists every "
            "choice.  [RU-2]") in text
    assert session.log == [{"type": "draw", "deck": "path", "card": "P07"}]
    session = Session.new("desert", ["black", "purple"])
    document = session.document()
    document.update(round=1, first="black", turn="black", step={"kind": "draw", "mode": "mystery"})
    document["mystery"]["pile"]["sand_thief"], document["mystery"]["discard"]["sand_thief"] = 0, 4  # all played
    session = Session.load("desert", document)
    text = run(session, ["Sand Thief", "dune shfit", "banana", "explain 5", "q"])
    assert "Refused: No Sand Thief card is left in the Mystery pile.  [DR-Q16]" in text
    assert "'dune shfit' names no card of this draw (is it 'dune shift'?)" in text and "  [DR-9]" in text
    assert "Not understood: 'banana' is no command, and no choice has that word" in text  # no rule: no clause
    assert "Not understood: here a place is asked about with 'why'" in text and session.log == []


def test_a_clause_is_found_by_its_id_typed_as_people_type_it() -> None:
    """'rule dr11', 'rule DR 11' and 'rule [DR-Q22]' (copied from an answer's brackets) were "has no rule clause",
    with no word on how clauses are found; an id no clause has still is, with that word."""
    session = Session.new("desert", ["black", "purple"])
    text = run(session, ["rule dr11", "rule DR 11", "rule [DR-Q22]", "rule xx-9", "q"])
    assert text.count("DR-11  Green: Trading space") == 2 and "DR-Q22  Trading details" in text
    assert ("Not understood: Desert lap race (Secret Passage) has no rule clause 'xx-9'; 'rules WORDS' finds the "
            "clauses that mention WORDS, 'rules' lists them all") in text
    assert session.game.rulebook.typed(" dr q22 ").id == "DR-Q22"


def test_a_roll_said_as_a_sentence_is_the_roll() -> None:
    """'roll 3' and 'rolled a 3' beside the oracle were "the die has no face 'roll 3'; it shows 1, 2, 3, ...", a die
    that has a 3; the words before the face are now read as what they say, and a face the die lacks is told as a
    bare one is, with its clause. A line of thousands of 'roll' is read once, not word by word."""
    session = Session.new("blackpool", ["red", "blue"])
    text = run(session, ["roll 9", "rolled a 3", "We got 4", "roll " * 5000 + "5", "q"])
    assert "no face" not in text
    assert "Not understood: 9 is not a value the die can show now (1, 2, 3, 4, 5, 6)" in text and "  [BP-Q5]" in text
    assert [a["value"] for a in session.log] == [3, 4, 5]


def test_a_hex_typed_with_spaces_beside_its_comma_is_the_same_hex() -> None:
    """'green 3, 0' fitted no choice ("no choice has the words 'green 3, 0'") while 'green 3,0' took the green
    leader to (3,0): the board and 'why' take the hex with the space too."""
    session = Session.new("ttd", ["red", "black", "orange"])
    while session.state.phase == "waterholes":
        session.act(session.legal()[0])
    wanted = next(a for a in session.legal() if a.get("colour") == "green" and a["hex"] == [3, 0])
    for typed in ("green 3, 0", "Green (3 ,0)"):
        text = run(session, [typed, "q"])
        assert "Not understood" not in text and session.log[-1] == {k: v for k, v in wanted.items() if k != "text"}
        session.undo()


def test_check_and_do_take_the_words_of_a_choice_as_a_line_of_words_does() -> None:
    """'check green 3,0' was "'check' takes a choice number or an action in JSON ... (the line is not valid JSON:
    Expecting value at column 1)" while 'green 3,0' alone took that choice."""
    session = Session.new("ttd", ["red", "black", "orange"])
    while session.state.phase == "waterholes":
        session.act(session.legal()[0])
    steps = len(session.log)
    text = run(session, ["check green 3, 0", "check green", "q"])
    assert "LEGAL: Allowed. Red places the green leader on (3,0).  [TTD-1d, TTD-1e]" in text
    assert "Not understood: 'green' fits " in text and "add a word, or type 'check' and its number" in text
    assert "not valid JSON" not in text and len(session.log) == steps
    run(session, ["do green 3,0", "q"])
    assert session.log[-1] == {"type": "leader", "player": "red", "colour": "green", "hex": [3, 0]}


def test_a_temple_slot_is_asked_about_as_the_choices_write_it() -> None:
    """'why slot 5' was "there is no place called 'slot 5'" beside the choices "Slot 5: P37 out, P01 in"; it is
    slot 5, as 'why 5' is. A slot the board lacks is still refused with the board's clause."""
    rng = random.Random(0)
    session = Session.new("temple", ["red", "blue"])
    while session.state.phase != "change":
        session.act({k: v for k, v in rng.choice(session.legal()).items() if k != "text"})
    text = run(session, ["why 5", "why Slot 5", "why slot 13", "q"])
    answers = [line for line in text.splitlines() if line.startswith("  ALLOWED") or line.startswith("  NOT")]
    assert len(answers) == 2 and answers[0] == answers[1] and "[RU-7]" in answers[0]
    assert "Refused: there is no place called 'slot 13' on the " in text and "  [RU-2]" in text


def test_the_profile_question_unanswered_or_quit_starts_no_game() -> None:
    """At the new game's last question the input's end started a standard game and 'q' was "no profile 'q'",
    the questions asked again from "Which game?"; both now end the questions, as at every one before it. An
    Enter still takes the standard profile."""
    from companion.terminal import ask_new_game

    for last in (None, "q", "QUIT"):
        answers = iter(["desert", "black,purple", last])
        said: list[str] = []
        assert ask_new_game(lambda prompt, answers=answers: next(answers), said.append, None) is None
        assert not any("no profile" in line for line in said)
    answers = iter(["desert", "black,purple", ""])
    spec = ask_new_game(lambda prompt: next(answers), print, None)
    assert spec == {"game": "desert", "players": ["black", "purple"], "profile": "standard"}


def test_a_line_of_blanks_handed_to_the_terminal_changes_nothing_and_raises_nothing() -> None:
    """The readers skip blank lines, but `Terminal.handle` itself raised IndexError on one (the words' checks read a
    first word), where any other line is answered and the game goes on."""
    session = Session.new("blackpool", ["red", "blue"])
    terminal = Terminal(session, lambda: None, io.StringIO())
    terminal.start(session)
    for blank in ("", "  ", "\t", "\x1c"):
        assert terminal.handle(blank, session.legal()) is True
    assert session.log == []


def test_a_choice_typed_after_the_end_cites_the_way_the_game_ended() -> None:
    """'1', '#1', 'check 1' and 'roll 3' after the last step were "there is nothing to choose now" with no clause,
    while the same action sent as JSON is refused citing how the game ended (`Game.over_rule`: DR-28, a win)."""
    rng = random.Random(2)
    session = Session.new("desert", ["black", "purple"])
    while not session.pending().is_over:
        session.act({k: v for k, v in rng.choice(session.legal()).items() if k != "text"})
    assert session.game.over_rule(session.state) == "DR-28"
    text = run(session, ["1", "#1", "check 1", "roll 3", '{"type": "end"}', "q"])
    nothing = [line for line in text.splitlines() if "nothing to choose now" in line and "Not understood" in line]
    assert len(nothing) == 4 and all(line.endswith("  [DR-28]") for line in nothing), nothing
    assert "Refused: The game is over: " in text


def test_a_slip_of_a_command_is_named_and_not_taken() -> None:
    """'hlep', 'udno' and 'socre' were "'udno' is no command, and no choice has that word", leaving the slip to
    be seen; the command meant is named, and nothing is taken: a guessed undo would change the game unasked."""
    session = Session.new("blackpool", ["red", "blue"])
    text = run(session, ["4", "hlep", "udno", "Socre", "banana", "q"])
    assert "'hlep' is no command (is it 'help'?), and no choice has that word" in text
    assert "'udno' is no command (is it 'undo'?)" in text and "'Socre' is no command (is it 'score'?)" in text
    assert "'banana' is no command, and" in text and len(session.log) == 1


def test_a_game_named_by_its_titles_first_words_and_players_joined_by_and_are_taken() -> None:
    """'desert lap race' was "No game 'desert lap race'" (the list shows "Desert lap race (Secret Passage)"), and
    'black and purple' was refused as "unknown colour 'and'"."""
    from companion.terminal import ask_new_game, split_players

    answers = iter(["Desert lap race", "Black and Purple", ""])
    spec = ask_new_game(lambda prompt: next(answers), print, None)
    assert spec == {"game": "desert", "players": ["black", "purple"], "profile": "standard"}
    assert split_players("red & blue, green") == ["red", "blue", "green"]
    answers = iter(["the", "q"])  # too short to single a title out, and a word of several: asked again
    said: list[str] = []
    assert ask_new_game(lambda prompt: next(answers), said.append, None) is None
    assert any("No game 'the'" in line for line in said)


def test_a_slip_of_a_button_is_named_and_not_pressed() -> None:
    """'press confim' was "No button 'confim'; buttons: ...", the slip left to be seen; nothing is pressed."""
    session = Session.new("blackpool", ["red", "blue"])
    text = run(session, ["press confim", "press xyz", "q"])
    assert "No button 'confim' (is it 'confirm'?); buttons: confirm, undo, next, menu, settings." in text
    assert "No button 'xyz'; buttons: " in text and session.log == []
