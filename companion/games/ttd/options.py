"""Rule options (one per open question of DECISIONS.md section 2) and the two profiles.

``standard`` is the published game wherever the rule text is garbled or
impossible; ``as-written`` follows the text: one guide per player, water holes
worth 1 each, enclosure by any of the player's camels (TD-Q6, TD-Q13, TD-Q16).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from companion.game import OptionSpec

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "leaders",
        "per_colour",
        ("per_colour", "one_guide"),
        "per_colour: one leader per camel colour per player, each heading its colour's caravan; "
        "one_guide: a single colourless guide per player, next to which each colour may start once",
        "TD-Q6",
    ),
    OptionSpec(
        "waterhole_value",
        "printed",
        ("printed", "flat"),
        "printed: a water hole scores the 1, 2 or 3 printed on it; flat: every water hole scores 1",
        "TD-Q13",
    ),
    OptionSpec(
        "waterholes_source",
        "table",
        ("table", "app"),
        "who supplies the water-hole values at setup: the table enters each site's token, or a demo driver "
        "deals them from the app's random source; the engine accepts the same input either way",
        "TD-Q23",
    ),
    OptionSpec(
        "leader_on_waterhole",
        False,
        (True, False),
        "may a leader (guide) stand on a water hole (it then takes the token)",
        "TD-Q7",
    ),
    OptionSpec(
        "leader_near_leader",
        False,
        (True, False),
        "may a leader (guide) stand next to another leader (guide)",
        "TD-Q7",
    ),
    OptionSpec(
        "leader_near_waterhole",
        True,
        (True, False),
        "may a leader (guide) stand next to a water hole",
        "TD-Q7",
    ),
    OptionSpec(
        "leader_first_round_unique",
        True,
        (True, False),
        "in the first round of leader placement, no camel colour may be chosen twice",
        "TD-Q7",
    ),
    OptionSpec(
        "five_player_leaders",
        "return_one",
        ("return_one", "keep_all"),
        "with five players, each player returns a leader of a different colour (seat 1 the first colour, "
        "seat 2 the second...), or everyone keeps all five",
        "TD-Q7",
    ),
    OptionSpec(
        "opening",
        "two_each",
        ("two_each", "first_two_one"),
        "two_each: every turn places two camels; first_two_one: the first two seats place a single camel "
        "each on their first camel turn (one reading of a garbled sentence)",
        "TD-Q9",
    ),
    OptionSpec(
        "end_timing",
        "immediate",
        ("immediate", "end_of_turn"),
        "when the last camel of a colour is placed, the game ends at once, or once that turn is complete",
        "TD-Q18",
    ),
    OptionSpec(
        "end_when_tokens_gone",
        False,
        (True, False),
        "also end the game when no water-hole token is left on the board",
        "TD-Q18",
    ),
    OptionSpec(
        "area_by",
        "caravan",
        ("caravan", "player"),
        "caravan: an area must be enclosed by a single caravan; player: by any of one player's pieces",
        "TD-Q16",
    ),
    OptionSpec(
        "area_walls",
        "edges_and_mountains",
        ("edges_and_mountains", "mountains_only", "none"),
        "what besides camels closes an area: the board edge and mountains, mountains only, or nothing",
        "TD-Q16",
    ),
    OptionSpec("area_oasis", False, (True, False), "may an enclosed area contain an oasis", "TD-Q16"),
    OptionSpec(
        "area_waterholes",
        True,
        (True, False),
        "does a hex holding a water-hole token inside an area score as a space (its token is not taken)",
        "TD-Q16",
    ),
    OptionSpec(
        "area_timing",
        "end",
        ("end", "immediate"),
        "end: areas are scored once, at the end; immediate: an area scores (and stays claimed) the moment "
        "it is enclosed",
        "TD-Q16",
    ),
    OptionSpec(
        "area_max",
        "none",
        ("none", "half"),
        "none: any size of area scores; half: an area bigger than half the open board scores nothing",
        "TD-Q16",
    ),
    OptionSpec(
        "longest_tie",
        "5each",
        ("5each", "10each", "none", "split"),
        "players tied for a colour's longest caravan get 5 each, 10 each, nothing, or 10 shared (rounded down)",
        "TD-Q17",
    ),
    OptionSpec(
        "longest_counts_leader",
        True,
        (True, False),
        "does a leader count towards its caravan's length",
        "TD-Q17",
    ),
)

PROFILES: dict[str, dict[str, Any]] = {
    "standard": {},
    "as-written": {
        "leaders": "one_guide",
        "waterhole_value": "flat",
        "leader_on_waterhole": True,
        "leader_near_leader": True,
        "leader_first_round_unique": False,
        "five_player_leaders": "keep_all",
        "area_by": "player",
        "longest_counts_leader": False,
    },
}


@dataclass(frozen=True)
class Rules:
    """Resolved options as typed attributes, read on every placement."""

    leaders: str = "per_colour"
    waterhole_value: str = "printed"
    waterholes_source: str = "table"
    leader_on_waterhole: bool = False
    leader_near_leader: bool = False
    leader_near_waterhole: bool = True
    leader_first_round_unique: bool = True
    five_player_leaders: str = "return_one"
    opening: str = "two_each"
    end_timing: str = "immediate"
    end_when_tokens_gone: bool = False
    area_by: str = "caravan"
    area_walls: str = "edges_and_mountains"
    area_oasis: bool = False
    area_waterholes: bool = True
    area_timing: str = "end"
    area_max: str = "none"
    longest_tie: str = "5each"
    longest_counts_leader: bool = True

    @property
    def guide(self) -> bool:
        return self.leaders == "one_guide"

    def camels_per_turn(self, round_: int, seat: int) -> int:
        """Camels a turn places: two, or one for the first two seats of the opening round (TD-Q9's option).

        The referee's turn and the position loader both ask, so a loaded turn is held to the same quota.
        """
        if self.opening == "first_two_one" and round_ == 0 and seat < 2:
            return 1
        return 2

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Rules:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in options.items() if k in known})

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


_PROFILE_RULES = {
    name: Rules.from_options({**{o.key: o.default for o in OPTION_SPECS}, **values})
    for name, values in PROFILES.items()
}


def profile_of(rules: Rules) -> str:
    """The profile whose values the options equal, else "custom"."""
    for name, expected in _PROFILE_RULES.items():
        if expected == rules:
            return name
    return "custom"
