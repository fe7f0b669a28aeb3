"""Rule options of the desert race, one per open question of DECISIONS.md section 1.

The engine reads options through the frozen ``Options`` record so a rule reads
``opts.sunshield_timing`` rather than a string lookup, and the record sits in
the state, making a position document self-contained.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from companion.errors import quoted
from companion.game import OptionSpec

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("board_loop", True, (True,), "The board is a closed loop: moving on from the last space reaches "
               "Desert Dawn (the only reading that gives a lap).", "DR-Q11"),
    OptionSpec("board_stacking", "free", ("free",), "Any number of pieces may share a space; they do not "
               "interact.", "DR-Q25"),
    OptionSpec("die_faces", 6, (6,), "The die is an ordinary six-sided die.", "DR-Q28"),
    OptionSpec("passage_entry", "land", ("land", "land_or_pass"), "How the Secret Passage is entered: by ending "
               "a move on it, or also by moving over it.", "DR-Q2"),
    OptionSpec("passage_via_vortex", True, (True, False), "Whether being put on the Secret Passage by a Desert "
               "Vortex counts as entering it.", "DR-Q2"),
    OptionSpec("attempt_on_landing", "immediate", ("immediate", "next_turn"), "When the first attempt at a "
               "challenge is made: at once on landing, or on the next turn (a challenge reached by the chain from a "
               "passed one is still tried at once).", "DR-Q4"),
    OptionSpec("chain_optional", True, (True, False), "Whether a player who lands on a challenge may decline the "
               "immediate attempt (the turn then ends and nothing is counted).", "DR-Q4"),
    OptionSpec("attempts_per_turn", 1, (1, 3), "Attempts at a challenge per turn: one (a failure ends the turn) "
               "or three inside one turn.", "DR-Q5"),
    OptionSpec("free_exit_optional", False, (False, True), "Whether a player with a free exit may choose to try "
               "the challenge again instead of simply moving on.", "DR-Q6"),
    OptionSpec("sunshield_timing", "either", ("either", "before", "after"), "When a Sunshield Amulet may be "
               "redeemed: before the attempt roll, after a failed roll, or either.", "DR-Q8"),
    OptionSpec("sunshield_on_guardian", True, (True, False), "Whether a Sunshield Amulet works on the "
               "Guardian's Test.", "DR-Q8"),
    OptionSpec("sneakers_affect_challenge_test", False, (False, True), "Whether the doubled roll of Sandstorm "
               "Sneakers is the value a challenge judges (not just the distance).", "DR-Q9"),
    OptionSpec("sneakers_affect_dune_shift", False, (False, True), "Whether Sandstorm Sneakers may double the "
               "distance of a Dune Shift.", "DR-Q9"),
    OptionSpec("lap_count_landing_on_start", True, (True, False), "Whether ending a forward move exactly on "
               "Desert Dawn completes the lap (otherwise the piece must move past it).", "DR-Q10"),
    OptionSpec("lap_reset_on_knockout", False, (False, True), "Whether running out of Lives wipes a completed "
               "lap.", "DR-Q10"),
    OptionSpec("lap_backward_undo", False, (False, True), "Whether moving backwards over Desert Dawn undoes a "
               "completed lap.", "DR-Q10"),
    OptionSpec("dune_shift_resolve", True, (True, False), "Whether the space a Dune Shift ends on is resolved.",
               "DR-Q12"),
    OptionSpec("vortex_allow_passage", False, (False, True), "Whether the Desert Vortex chooser may send a piece "
               "onto the Secret Passage.", "DR-Q13"),
    OptionSpec("vortex_tie", "rolloff", ("rolloff", "seat_order"), "Who chooses for a Desert Vortex when several "
               "players tie for most Lives: a roll-off, or the first of them in turn order from the drawer.",
               "DR-Q13"),
    OptionSpec("thief_include_drawer", True, (True, False), "Whether the drawer of a Sand Thief counts when the "
               "player with most Lives is found.", "DR-Q14"),
    OptionSpec("thief_compass_save", "only_item", ("only_item", "when_selected"), "When the Golden Compass save "
               "roll happens: only when the Compass is the victim's only item, or whenever it is the card taken.",
               "DR-Q14"),
    OptionSpec("collection_return_to", "bottom", ("bottom", "discard"), "Where redeemed and discarded Collection "
               "cards go: under the draw pile, or to a discard pile reshuffled when the pile runs out.", "DR-Q16"),
    OptionSpec("trade_any_time", False, (False, True), "Whether trades may be made at the end of any turn, not "
               "only on a green Trading space.", "DR-Q22"),
    OptionSpec("trade_partners", "any", ("any", "one"), "With how many players the active player may trade in "
               "one trading window.", "DR-Q22"),
    OptionSpec("max_rounds", None, (None, 20, 30, 50, 100), "An optional round limit after which the game ends "
               "with no winner (off by default).", "DR-Q35"),
)

PROFILES: dict[str, dict[str, Any]] = {
    "standard": {},
    # The alternative readings together, so a café can pick them as a set and
    # random play exercises them.
    "house-variant": {
        "passage_entry": "land_or_pass",
        "attempt_on_landing": "next_turn",
        "attempts_per_turn": 3,
        "free_exit_optional": True,
        "sunshield_timing": "after",
        "sneakers_affect_challenge_test": True,
        "sneakers_affect_dune_shift": True,
        "lap_count_landing_on_start": False,
        "lap_reset_on_knockout": True,
        "lap_backward_undo": True,
        "vortex_allow_passage": True,
        "vortex_tie": "seat_order",
        "thief_include_drawer": False,
        "thief_compass_save": "when_selected",
        "collection_return_to": "discard",
        "trade_any_time": True,
        "trade_partners": "one",
        "max_rounds": 100,
    },
    # A shorter evening: fixed chain rule, a round cap.
    "short-evening": {"chain_optional": False, "sunshield_timing": "before", "max_rounds": 30},
}


@dataclass(frozen=True)
class Options:
    board_loop: bool = True
    board_stacking: str = "free"
    die_faces: int = 6
    passage_entry: str = "land"
    passage_via_vortex: bool = True
    attempt_on_landing: str = "immediate"
    chain_optional: bool = True
    attempts_per_turn: int = 1
    free_exit_optional: bool = False
    sunshield_timing: str = "either"
    sunshield_on_guardian: bool = True
    sneakers_affect_challenge_test: bool = False
    sneakers_affect_dune_shift: bool = False
    lap_count_landing_on_start: bool = True
    lap_reset_on_knockout: bool = False
    lap_backward_undo: bool = False
    dune_shift_resolve: bool = True
    vortex_allow_passage: bool = False
    vortex_tie: str = "rolloff"
    thief_include_drawer: bool = True
    thief_compass_save: str = "only_item"
    collection_return_to: str = "bottom"
    trade_any_time: bool = False
    trade_partners: str = "any"
    max_rounds: int | None = None

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Options:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in values.items() if k in known})

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def option_problems(values: object) -> list[str]:
    """Every fault of an options object in a position document."""
    if not isinstance(values, Mapping):
        return ["options: expected an object"]
    specs = {o.key: o for o in OPTION_SPECS}
    problems = [f"options: unknown option {quoted(k)}" for k in values if k not in specs]
    for key, value in values.items():
        spec = specs.get(key)
        if spec is None:
            continue
        if value not in spec.choices or isinstance(value, bool) != isinstance(spec.default, bool):
            problems.append(f"options.{key}: {quoted(value)} is not one of {', '.join(map(quoted, spec.choices))}")
    return problems
