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


def _mark(session: Session, player: str) -> str:
    """The margin `score` puts before a player's total: "* " for the player to play, none once the game is over."""
    if session.pending().is_over:
        return ""
    return "* " if player == session.pending().player else "  "


HEADINGS = ("  Score so far (provisional: the game is not over); * marks the player to play:",
            "  Score so far (provisional: the game is not over):", "  Final score:")


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
    assert shown[0] == "  Score so far (provisional: the game is not over); * marks the player to play:"
    for player, parts in scores.items():
        mark = _mark(session, player)
        pad = " " * len(mark)  # the parts stand under the name, past the margin
        at = shown.index(f"  {mark}{player.capitalize()}: {parts['total']}  [TTD-4, TTD-4e]")
        assert shown[at + 1].startswith(f"    {pad}water {parts['water']['points']}")
        assert shown[at + 1].endswith("[TTD-4a]")
        assert shown[at + 2].startswith(f"    {pad}oases {parts['oases']['points']}") and "TD-Q14" in shown[at + 2]
        assert shown[at + 3].startswith(f"    {pad}areas {parts['areas']['points']}") and "TTD-4c" in shown[at + 3]
        assert shown[at + 4].startswith(f"    {pad}longest {parts['longest']['points']}") and "TTD-4d" in shown[at + 4]
        for entry in parts["longest"]["list"]:
            assert f"colour {entry['colour']}, length {entry['length']}, points {entry['points']}" in shown[at + 4]


def test_players_level_at_the_top_are_said_to_be_level() -> None:
    """Before any camel is placed every total is 0: it said "Leading: Red, Black, Orange"."""
    shown = said(typed(Session.new("ttd", ["red", "black", "orange"]), "score"))
    assert shown[-1] == "  Level in the lead: Red, Black, Orange  [TTD-4, TTD-4e]"  # the dealing: nobody to play


def test_targi_score_gives_each_part_with_its_clause() -> None:
    session = played("targi", ["white", "black"], 400)
    referee = Referee()
    referee.session = session
    score = referee.handle({"cmd": "score"})["score"]
    shown = said(typed(session, "score"))
    for player, parts in score["scores"].items():
        mark = _mark(session, player)
        pad = " " * len(mark)
        at = shown.index(f"  {mark}{player.capitalize()}: {parts['total']}  [TG-S1, TG-S3]")
        assert shown[at + 1 : at + 5] == [
            f"    {pad}tokens {parts['tokens']}  [TG-S1]", f"    {pad}cards {parts['cards']}  [TG-S1]",
            f"    {pad}card bonuses {parts['card_bonuses']}  [TG-S1, TG-T5]",
            f"    {pad}rows {parts['rows']}  [TG-S2, TG-Q22]",
        ]
    assert shown[-1].endswith(f": {', '.join(w.capitalize() for w in score['winners'])}  [TG-S1, TG-S3]")


def test_a_race_says_where_each_player_stands_and_the_clauses_that_win_it() -> None:
    session = played("desert", ["black", "purple"], 40)
    shown = said(typed(session, "score"))
    assert shown[0].endswith("keeps no points: it is a race. Where each player stands (* marks the player to play):"
                             "  [DR-28, DR-Q29]")
    assert [line.lstrip(" *").split()[0] for line in shown[1:]] == ["Black", "Purple"]
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
        assert sum(row.startswith("    * ") for row in rows) == 1, rows
        assert all(row.startswith(("    * ", "      ")) for row in rows), rows
        if game == "temple":
            assert len({row.index("hand") for row in rows}) == 1, rows


PLAYERS = {"blackpool": ["yellow", "red", "green"], "desert": ["black", "purple", "pink"], "ttd": ["red", "black"],
           "targi": ["white", "black"], "temple": ["red", "blue", "green"]}


def test_every_games_score_marks_the_player_to_play_alike() -> None:
    """The desert race's `score` did not say whose turn it was, nor did Through the Desert's or Targi's, while the
    temple's marked that player's row with "* " and Blackpool's with "(to play)": now each game's sheet marks the
    player the table waits on with "* " in a margin of its own, says so in its heading, and nobody once over."""
    for game, players in PLAYERS.items():
        session = played(game, players, 60)
        to_play = session.pending().player
        assert to_play is not None, game
        shown = said(typed(session, "score"))
        assert "* marks the player to play" in shown[0], (game, shown[0])
        marked = [row.lstrip() for row in shown[1:] if row.lstrip().startswith("* ")]
        assert len(marked) == 1 and marked[0][2:].lower().startswith(to_play), (game, shown)
        assert not any("(to play" in row for row in shown), (game, shown)  # Blackpool's own mark, said once
        rng = random.Random(0)
        while not session.pending().is_over:  # the game's own random play ends a temple game in hundreds of steps
            session.act(session.game.sim_choose(session.state, session.legal(), rng))
        final = said(typed(session, "score"))
        assert not any(row.lstrip().startswith("* ") for row in final), (game, final)
        assert "marks the player" not in final[0], (game, final)
