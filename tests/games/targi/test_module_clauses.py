"""Every clause id the Targi rules cite, in whichever of the package's modules, is in the rulebook.

The engine is split into modules named for what they hold (raids, rounds, card_use, ...), so the citing is
read from every module of the package, not engine.py alone.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "companion" / "games" / "targi"


def test_every_clause_a_targi_module_cites_is_in_the_rulebook() -> None:
    rulebook = json.loads((PACKAGE / "data" / "rulebook.json").read_text(encoding="utf-8"))
    ids = {clause["id"] for clause in rulebook["clauses"]}
    cited = {
        clause: module.name
        for module in sorted(PACKAGE.glob("*.py"))
        for clause in re.findall(r'"(TG-[A-Z0-9]+)"', module.read_text(encoding="utf-8"))
    }
    assert len(set(cited.values())) > 5  # the rules are read where they now live
    assert set(cited) <= ids, {clause: module for clause, module in cited.items() if clause not in ids}
