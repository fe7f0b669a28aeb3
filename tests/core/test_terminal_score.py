"""`score` at the terminal: the protocol's breakdown, per player and part, each beside its clauses."""

from __future__ import annotations

import io
import random

from companion.protocol import Referee
from companion.session import Session
from companion.terminal import Terminal


def typed(session: Session, *lines: str) -> str:
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter(lines))
    return out.getvalue()


def played(game: str, players: list[str], steps: int, seed: int = 2) -> Session:
    session = Session.new(game, players)
    rng = random.Random(seed)
    for _ in range(steps):
        if session.pending().is_over:
            break
        session.act(rng.choice(session.legal()))
    return session


HEADINGS = ("  Score so far (provisional: the game is not over):", "  Final score:")


def said(out: str) -> list[str]:
    """The lines `score` printed: from its heading to the prompt shown again under them."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line in HEADINGS or "keeps no points" in line)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("> "))
    return lines[start:end]


def test_through_the_desert_score_gives_the_protocols_breakdown_with_clauses() -> None:
    """The terminal had only the board's totals; `score` was "Not understood"."""
    session = played("ttd", ["red", "black", "orange"], 60)
    referee = Referee()
    referee.session = session
    scores = referee.handle({"cmd": "score"})["score"]["scores"]
    shown = said(typed(session, "score"))
    assert shown[0] == "  Score so far (provisional: the game is not over):"
    for player, parts in scores.items():
        at = shown.index(f"  {player.capitalize()}: {parts['total']}  [TTD-4, TTD-4e]")
        assert shown[at + 1].startswith(f"    water {parts['water']['points']}") and shown[at + 1].endswith("[TTD-4a]")
        assert shown[at + 2].startswith(f"    oases {parts['oases']['points']}") and "TD-Q14" in shown[at + 2]
        assert shown[at + 3].startswith(f"    areas {parts['areas']['points']}") and "TTD-4c" in shown[at + 3]
        assert shown[at + 4].startswith(f"    longest {parts['longest']['points']}") and "TTD-4d" in shown[at + 4]
        for entry in parts["longest"]["list"]:
            assert f"colour {entry['colour']}, length {entry['length']}, points {entry['points']}" in shown[at + 4]


def test_players_level_at_the_top_are_said_to_be_level() -> None:
    """Before any camel is placed every total is 0: it said "Leading: Red, Black, Orange"."""
    shown = said(typed(Session.new("ttd", ["red", "black", "orange"]), "score"))
    assert shown[-1] == "  Level in the lead: Red, Black, Orange  [TTD-4, TTD-4e]"


def test_targi_score_gives_each_part_with_its_clause() -> None:
    session = played("targi", ["white", "black"], 400)
    referee = Referee()
    referee.session = session
    scores = referee.handle({"cmd": "score"})["score"]
    shown = said(typed(session, "score"))
    for player, parts in scores.items():
        at = shown.index(f"  {player.capitalize()}: {parts['total']}  [TG-S1, TG-S3]")
        assert shown[at + 1 : at + 5] == [
            f"    tokens {parts['tokens']}  [TG-S1]", f"    cards {parts['cards']}  [TG-S1]",
            f"    card bonuses {parts['card_bonuses']}  [TG-S1, TG-T5]", f"    rows {parts['rows']}  [TG-S2, TG-Q22]",
        ]


def test_a_race_says_where_each_player_stands_and_the_clauses_that_win_it() -> None:
    session = played("desert", ["black", "purple"], 40)
    shown = said(typed(session, "score"))
    assert shown[0].endswith("keeps no points: it is a race. Where each player stands:  [DR-28, DR-Q29]")
    assert [line.split()[0] for line in shown[1:]] == ["Black", "Purple"]
    assert "Lives" in shown[1]


def test_help_lists_score_and_score_changes_nothing() -> None:
    session = played("ttd", ["red", "black"], 30)
    steps = len(session.log)
    out = typed(session, "help", "score")
    assert "  score  " in out and "Not understood" not in out
    assert len(session.log) == steps


def test_every_clause_score_cites_is_in_its_rulebook() -> None:
    from companion.registry import create, game_classes

    for game_id in game_classes():
        game = create(game_id, None)
        for rules in [*game.score_rules.values(), game.win_rules]:
            for rule in rules:
                assert game.rulebook.clause(rule).id == rule


def test_the_temple_row_of_the_player_to_play_is_in_line_with_the_others() -> None:
    """The temple's board marks the player to play with "* "; stripped like the rows without it, that row stood
    two characters right of the others ("    * green  hand 3" under "    red    hand 3"). The other games' rows
    (the desert's, Blackpool's "(to play)") carry no such margin and start in one column too."""
    for game, players in (("temple", ["red", "blue", "green"]), ("desert", ["black", "purple", "pink"]),
                          ("blackpool", ["yellow", "red", "green"])):  # fmt: skip
        rows = said(typed(played(game, players, 40), "score"))[1:]
        assert len(rows) == len(players), rows
        assert len({len(row) - len(row.lstrip(" *")) for row in rows}) == 1, rows  # each name in one column
        if game == "temple":
            assert sum(row.startswith("    * ") for row in rows) == 1, rows
            assert all(row.startswith(("    * ", "      ")) for row in rows), rows
            assert len({row.index("hand") for row in rows}) == 1, rows
