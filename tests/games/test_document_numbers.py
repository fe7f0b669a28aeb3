"""A whole number typed as text or with a decimal point says how to write it, in every game's position document.

A referee typing a position by hand, or pasting from a spreadsheet, writes ``"3"`` or ``2.0``; the loaders said
"expected a whole number, found '3'" and left them to see the quotes. Café data files said it already
(``schema.Int``): the loaders now say it the same way (``schema.whole_hint``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from companion.errors import InvalidPosition
from companion.registry import create


def _opening(game_id: str) -> dict[str, Any]:
    game = create(game_id)
    return json.loads(json.dumps(game.to_document(game.setup(list(game.colours[:2]), game.resolve_options({})))))


def _put(field: str) -> Callable[[dict[str, Any], Any], None]:
    def put(document: dict[str, Any], value: Any) -> None:
        document[field] = value

    return put


CASES = [
    ("blackpool", _put("sixChain"), '"sixChain" must be a whole number 0 or more, found'),
    ("desert", _put("round"), "round: expected a whole number, found"),
    ("targi", _put("round"), "round: expected a whole number, found"),
    ("temple", _put("pile"), "pile must be a count of cards, not"),
    ("ttd", _put("round"), "round: expected an integer from 0 to 10000, found"),
]


@pytest.mark.parametrize(("game_id", "put", "said"), CASES, ids=[c[0] for c in CASES])
def test_a_whole_number_in_quotes_or_with_a_point_says_how_to_write_it(game_id: str, put: Any, said: str) -> None:
    game = create(game_id)
    for value, hint in (("3", "'3'; write 3 without quotes"), (2.0, "2.0; write 2, without the decimal point")):
        document = _opening(game_id)
        put(document, value)
        with pytest.raises(InvalidPosition) as bad:
            game.from_document(document)
        assert f"{said} {hint}" in bad.value.problems, bad.value.problems
