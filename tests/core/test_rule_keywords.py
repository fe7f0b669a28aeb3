"""A clause's keywords find it: the words a referee types that its summary does not use.

The rulebook schema accepted a ``keywords`` list on each clause, but the
loader dropped it, so "skip" found nothing for the desert's lost turn (the
summary says "lose") and "tie" nothing for the Through the Desert winner
("equal top totals"). House clauses now carry a few, a café's own
rulebook may add its own, and ``companion data validate`` checks them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import registry
from companion.cli import main
from companion.data import validate_path
from companion.errors import InvalidData
from companion.registry import create, game_classes
from companion.rulebook import KEYWORD_LIMIT


@pytest.mark.parametrize(("game", "typed", "clause"), [
    ("desert", "skip", "DR-24"), ("desert", "skipped", "DR-24"), ("desert", "steals", "DR-23"),
    ("desert", "heal", "DR-18"), ("ttd", "tie", "TTD-4e"), ("ttd", "tied", "TTD-4e"), ("ttd", "draw", "TTD-4e"),
    ("ttd", "surrounded", "TTD-4c"), ("blackpool", "stuck", "BP-C2"), ("blackpool", "ties", "BP-Q9"),
    ("blackpool", "piggyback", "BP-7"), ("targi", "thief", "TG-R1"), ("targi", "stealing", "TG-R2"),
    ("temple", "stairs", "RU-22"), ("temple", "bumped", "RU-12"), ("temple", "skip", "RU-9"),
    ("desert", "miss turn", "DR-24"), ("targi", "place a targi on the robber", "TG-P2"),
])
def test_a_house_keyword_finds_its_clause_in_any_form(game: str, typed: str, clause: str) -> None:
    assert clause in [c.id for c in create(game).rulebook.search(typed)]


@pytest.mark.parametrize("game", sorted(game_classes()))
def test_every_house_keyword_finds_its_clause_and_is_not_shown(game: str) -> None:
    """Keywords are searched, never shown: the summary the screen shows is unchanged."""
    book = create(game).rulebook
    with_keywords = [c for c in book.clauses if c.keywords]
    assert with_keywords
    for clause in with_keywords:
        for keyword in clause.keywords:
            assert clause in book.search(keyword), (clause.id, keyword)
            assert keyword not in clause.text and len(keyword) <= KEYWORD_LIMIT
        assert clause.to_dict()["keywords"] == list(clause.keywords)


@pytest.fixture
def cafe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A café folder holding a copy of the desert's house data, and a table that has not read it yet."""
    monkeypatch.setattr(registry, "_instances", {})
    folder = tmp_path / "cafe"
    assert main(["data", "template", "desert", str(folder)]) == 0
    return folder


def set_keywords(cafe: Path, clause_id: str, keywords: object, field: str = "keywords") -> Path:
    path = cafe / "desert" / "rulebook.json"
    book = json.loads(path.read_text(encoding="utf-8"))
    clause = next(c for c in book["clauses"] if c["id"] == clause_id)
    clause.pop("keywords", None)
    clause[field] = keywords
    path.write_text(json.dumps(book, indent=1, ensure_ascii=False), encoding="utf-8")
    return path


def test_a_cafes_own_keywords_find_the_clause(cafe: Path) -> None:
    set_keywords(cafe, "DR-26", ["whirlpool", "Wirbel"])
    assert validate_path(cafe, game_classes()) == []
    book = create("desert", cafe).rulebook
    assert [c.id for c in book.search("whirlpools")] == ["DR-26"]
    assert [c.id for c in book.search("wirbel")] == ["DR-26"]
    assert create("desert").rulebook.search("whirlpool") == []  # the house rulebook is the café's no longer


@pytest.mark.parametrize(("keywords", "field", "problem"), [
    ("whirlpool", "keywords", "clauses[25] (id 'DR-26').keywords: expected a list, found text"),
    (["whirlpool", ""], "keywords", "clauses[25] (id 'DR-26').keywords[1]: must not be empty"),
    (["whirlpool", 3], "keywords", "clauses[25] (id 'DR-26').keywords[1]: expected text, found integer"),
    (["where the most lives choose my space"], "keywords",
     f"clauses[25] (id 'DR-26').keywords[0]: 'where the most lives choose my space' is 36 characters long; a keyword"
     f" is a word or two a referee would type into the search, at most {KEYWORD_LIMIT}; split it or shorten it"),
    (["whirlpool"], "keyword", "clauses[25] (id 'DR-26'): unknown field 'keyword': is it 'keywords'? rename it"),
])
def test_bad_keywords_are_named_by_the_validator_and_refused(
    cafe: Path, capsys: pytest.CaptureFixture[str], keywords: object, field: str, problem: str
) -> None:
    path = set_keywords(cafe, "DR-26", keywords, field)
    assert validate_path(cafe, game_classes()) == [f"{path}: {problem}"]
    with pytest.raises(InvalidData) as refusal:
        create("desert", cafe)
    assert refusal.value.problems == [f"{path}: {problem}"]
    assert main(["data", "validate", str(cafe)]) != 0
    assert problem in capsys.readouterr().out
