"""A sentence that ends on a name the café chose ends once: "goes to Scared!", never "Scared!.".

Names come from the café's files (a desert space, a Targi card) and the
sentence around them adds its own full stop. Every name of the house data is
given a "!" in a real café folder and games are played at random; no event,
prompt or take-back note may read "!.".
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion.data import house_dir, read_json, schemas, validate_path
from companion.game import one_stop
from companion.registry import create, game_classes
from companion.session import Session
from companion.simulate import random_players

DOUBLED = re.compile(r"[!?.]\.(\s|$)")


def exclaimed(doc: Any) -> Any:
    """The document with every name and label ending in "!"."""
    if isinstance(doc, dict):
        return {k: v + "!" if k in ("name", "label") and isinstance(v, str) else exclaimed(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [exclaimed(v) for v in doc]
    return doc


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_no_sentence_ends_twice_after_a_name_ending_in_a_mark(game_id: str, tmp_path: Path) -> None:
    game_cls = game_classes()[game_id]
    (tmp_path / game_id).mkdir()
    for kind in schemas(game_cls):
        if kind != "rulebook":
            house = read_json(house_dir(game_cls) / f"{kind}.json")
            (tmp_path / game_id / f"{kind}.json").write_text(json.dumps(exclaimed(house)), encoding="utf-8")
    assert validate_path(tmp_path, game_classes()) == []
    game = create(game_id, tmp_path)
    said: list[str] = []
    for seed in range(6):
        rng = random.Random(seed)
        session = Session.new(game_id, random_players(game, rng), cafe_dir=tmp_path)
        for _step in range(150):
            said.append(session.pending().text)
            legal = session.legal()
            if not legal:
                break
            said += [e.text for e in session.act(rng.choice(legal)).events]
            if rng.random() < 0.1:
                said.append(session.undo().note)
    if game_id != "temple":  # the temple's files name only its die, which no sentence speaks
        assert any("!" in text for text in said), "the café's names were not used"
    assert [text for text in said if DOUBLED.search(text)] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Black goes to Scared!.", "Black goes to Scared!"),
        ("Is it Who Knows?. Yes.", "Is it Who Knows? Yes."),
        ("Red plays Oasis Inc.. Blue rolls.", "Red plays Oasis Inc. Blue rolls."),
        ("The name was cut 'abc...'.", "The name was cut 'abc...'."),
        ("Red wins.", "Red wins."),
        ("Versions 1.2.3 agree.", "Versions 1.2.3 agree."),
    ],
)
def test_one_stop_drops_only_the_doubled_mark(text: str, expected: str) -> None:
    assert one_stop(text) == expected
