"""Goods and tribe cards are named by their names in everything the table reads, not by catalogue ids.

The buttons said "Use Salt Block (G02) at centre 2-2", the announcements "Centre 1-3 shows Elder's Favour (G12)"
and "Black takes Matriarch (T31, targia, ...)", and `why` at a centre card "... which holds Dates and Salt (G07)":
ids of the data files, which no card carries. The voice already left them out. They stay where a referee needs
them: the text board (`board` at the terminal, whose `do` takes the JSON ids) and the dispute screen's Build list
of cards (tapping the action there turns it to its JSON, which names the card by id).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from companion.places import explain_place
from companion.session import Session
from tests.games.player_names import gather
from tests.games.targi.helpers import B, W

CATALOGUE_ID = re.compile(r"\b[GT]\d{2}\b")
HOUSE = Path(__file__).parents[3] / "companion" / "games" / "targi" / "data"
PLACES = [*range(1, 17), *((r, c) for r in (1, 2, 3) for c in (1, 2, 3))]


def offered_and_asked(seed: int, steps: int) -> set[str]:
    """Every button's words and every `why` answer at each border and centre card, through a seeded game."""
    session = Session.new("targi", [W, B])
    rng = random.Random(seed)
    said: set[str] = set()
    for step in range(steps):
        legal = session.legal()
        if session.pending().is_over or not legal:
            break
        said.update(str(action["text"]) for action in legal)
        if step % 10 == 0:
            said.update(explain_place(session, place).text for place in PLACES)
        session.act(session.game.sim_choose(session.state, legal, rng))
    return said


def test_no_catalogue_id_in_any_text_the_table_reads() -> None:
    texts = gather(Session.new("targi", [W, B]), seed=5, max_steps=1500,
                   restart=lambda: Session.new("targi", [B, W]))
    read = {*texts.refusals, *texts.events, *texts.prompts, *offered_and_asked(3, 400)}
    named = [text for text in read if re.search(r"Salt Block|Matriarch|Dune Dancer|Date Basket|Healer", text)]
    assert len(read) > 500 and named  # far into the game, and cards are named
    assert sorted(text for text in read if CATALOGUE_ID.search(text)) == []


def test_the_referees_views_keep_the_id() -> None:
    session = Session.new("targi", [W, B])
    game = session.game
    assert game.value_words(session.state, "card", "G02") == "Salt Block (G02)"  # Build, beside the JSON
    while session.pending().kind == "draw":
        session.act({k: v for k, v in session.legal()[0].items() if k != "text"})
    board = "\n".join(game.describe(session.state))
    assert CATALOGUE_ID.search(board), board  # the terminal's text board, for `do {"card": ...}`


def test_copies_of_one_card_under_one_name_are_told_apart_by_id(tmp_path: Path) -> None:
    """A café's copy of a card entered twice (warned, ``copy_notes``) plays the same, but its two draws would read
    alike: those two keep their ids beside the name; every other card is named alone."""
    folder = tmp_path / "targi"
    folder.mkdir()
    goods = json.loads((HOUSE / "goods.json").read_text())
    goods["cards"].append({**goods["cards"][1], "id": "G13", "count": 1})  # a second Salt Block
    (folder / "goods.json").write_text(json.dumps(goods))
    session = Session.new("targi", [W, B], cafe_dir=tmp_path)
    cat = session.game.cat
    assert cat.card_label("G02") == "Salt Block (G02)" and cat.card_label("G13") == "Salt Block (G13)"
    assert cat.card_label("G01") == "Date Basket" and cat.goods_text("G13") == "Salt Block (G13): 1 salt"
    draws = [a["text"] for a in session.legal() if a["type"] == "draw"]
    assert len(draws) == len(set(draws)) and not any(CATALOGUE_ID.search(t) for t in draws if "Salt Block" not in t)
