"""The project words the rules its own way: no 8-word run shared with the rule texts (tools/shared_runs.py).

The rule texts live outside the project (/work/shared/rules); where they are
not on the machine the check is skipped, as the per-game rulebook checks are.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from companion.registry import create, game_classes

ROOT = Path(__file__).resolve().parents[2]
RULES = Path("/work/shared/rules")


def load_tool() -> ModuleType:
    """tools/ is not a package; the module is registered first because its dataclass looks itself up."""
    spec = importlib.util.spec_from_file_location("shared_runs", ROOT / "tools" / "shared_runs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["shared_runs"] = module
    spec.loader.exec_module(module)
    return module


def test_no_sentence_of_the_rule_texts_is_copied_into_the_project() -> None:
    if not (RULES / "DECISIONS.md").exists():
        pytest.skip("the shared rule texts are not on this machine")
    tool = load_tool()
    runs = tool.find_runs(ROOT, RULES, 8)
    copied = [str(r) for r in runs if " ".join(r.words) not in tool.ALLOWED]
    assert copied == []


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_no_rule_sentence_appears_in_a_rulebook_as_the_screen_shows_it(game_id: str) -> None:
    """The files hold each summary apart; a player reads id, title and text one after another.

    Blackpool's starting-circle summary ended on a 6-word sentence of DECISIONS.md that, with the next
    clause's id after it on screen, ran 8 words with the rule text (Targi's TG-Q32 and Desert Vortex alike);
    the rulebook screen and `companion rules` show the clauses in this order.
    """
    if not (RULES / "DECISIONS.md").exists():
        pytest.skip("the shared rule texts are not on this machine")
    tool = load_tool()
    book = create(game_id).rulebook
    shown = "\n".join(f"{c.id}  {c.title}\n{c.text}" for c in book.clauses)
    grams = tool.reference_grams(tool.rule_sources(RULES), 8)
    copied = [str(r) for r in tool.shared_runs(f"{game_id} rulebook", shown, grams, 8)]
    assert copied == []


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_no_rulebook_sentence_is_a_rule_sentence_with_a_word_or_two_swapped(game_id: str) -> None:
    """An 8-word run misses a reworded copy: "Collection cards are items you hold until you choose to spend
    them" (the desert's DR-16) was the rule text's sentence with "keep" and "use" swapped out, and Targi's
    "Gold does not stand in for goods unless the card says so" DECISIONS.md's with one word changed."""
    if not (RULES / "DECISIONS.md").exists():
        pytest.skip("the shared rule texts are not on this machine")
    tool = load_tool()
    references = [pair for path in tool.rule_sources(RULES) for pair in tool.sentences(path.read_text())]
    book = create(game_id).rulebook
    near = [f"{c.id}: {hit}" for c in book.clauses for hit in tool.near_sentences(f"{c.title}. {c.text}", references)]
    assert near == []


def test_the_tool_finds_a_sentence_reworded_word_for_word() -> None:
    tool = load_tool()
    references = tool.sentences("Rolling a double lets you move your token twice as far this turn.")
    assert tool.near_sentences("Rolling a double lets you move your piece twice as far this turn.", references)
    assert not tool.near_sentences("With a double on the dice, the token goes double the distance.", references)


def test_the_tool_finds_a_copied_run_through_changed_case_and_punctuation(tmp_path: Path) -> None:
    tool = load_tool()
    rules = _write(tmp_path / "rules.txt", "Roll the die, then move your piece that many spaces.")
    grams = tool.reference_grams([rules], 8)
    mine = "# ROLL the die -- then move your piece: that many\n# spaces (ours)"
    runs = list(tool.shared_runs("x.py", mine, grams, 8))
    assert [(r.line, len(r.words)) for r in runs] == [(1, 10)]
    assert not list(tool.shared_runs("x.py", "roll the die and then move the piece that far", grams, 8))


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_a_copy_is_found_behind_string_escapes_and_accents(tmp_path: Path) -> None:
    """JSON keeps "you\\u2019re" and Python "\\n" as written; read raw they made "u2019re" and "nthen" words."""
    tool = load_tool()
    rules = _write(tmp_path / "rules.txt", "You’re the café owner, then you move your piece that many spaces.")
    grams = tool.reference_grams([rules], 8)
    as_json = '{"text": "You\\u2019re the cafe owner,\\nthen you move your piece that many spaces."}'
    runs = list(tool.shared_runs("x.json", as_json, grams, 8))
    assert [(r.line, len(r.words)) for r in runs] == [(1, 12)]


def test_every_file_of_the_rules_folder_is_a_source(tmp_path: Path) -> None:
    """The folder's README describes each game in sentences of its own; it was not compared."""
    for name in ("000_a.txt", "DECISIONS.md", "README.md"):
        _write(tmp_path / name, "text")
    tool = load_tool()
    assert [p.name for p in tool.rule_sources(tmp_path)] == ["000_a.txt", "DECISIONS.md", "README.md"]
    with pytest.raises(FileNotFoundError):
        tool.rule_sources(tmp_path / "absent")
