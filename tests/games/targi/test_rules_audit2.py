"""Rules audit of Targi, second pass: the player count, the end announcement, prompts and refusals."""

from __future__ import annotations

from companion.protocol import Referee


# -- TG-1: two players ---------------------------------------------------------------------------
def test_one_or_three_players_are_refused_with_the_set_up_clause_and_the_game_goes_on() -> None:
    """Targi alone of the five games refused a wrong player count citing no clause at all."""
    referee = Referee()
    assert referee.handle({"cmd": "new", "game": "targi", "players": ["white", "black"]})["ok"]
    before = referee.handle({"cmd": "state"})["state"]
    for players in (["white"], ["white", "black", "red"]):
        error = referee.handle({"cmd": "new", "game": "targi", "players": players})["error"]
        assert error["code"] == "bad_request" and error["rule"] == "TG-1", error
        assert f"Targi needs 2 players, not {len(players)}" in error["message"]
        assert referee.handle({"cmd": "state"})["state"] == before
    clause = referee.handle({"cmd": "rules", "game": "targi", "clause": "TG-1"})
    assert clause["ok"] and "two players" in str(clause)
