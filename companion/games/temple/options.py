"""The table's choices where the rules leave a gap (RU-Q6 to RU-Q23), and the "alternatives" profile.

Each option names the clause of DECISIONS.md that settles it, so a ruling made under an option can
cite why the game was played that way.
"""

from __future__ import annotations

from companion.game import OptionSpec

OPTIONS = (
    OptionSpec(
        "first_roll_x",
        "lowest",
        ("lowest", "reroll"),
        "First-player roll: X counts lowest of all (lowest), or is thrown again as if it had not happened (reroll).",
        "RU-Q6",
    ),
    OptionSpec(
        "change_optional",
        False,
        (False, True),
        "After a red roll the card change is compulsory (false) or may be skipped (true).",
        "RU-Q7",
    ),
    OptionSpec(
        "change_under_own_pawn",
        True,
        (True, False),
        "A player may replace the card under one of their own pawns.",
        "RU-Q8",
    ),
    OptionSpec(
        "stair_owner_chooses",
        True,
        (True, False),
        "When a card change puts a pawn on a stairway, its owner (true) or the player changing (false) picks"
        " the stairway it goes to.",
        "RU-Q10",
    ),
    OptionSpec(
        "send_back_occupied",
        "skip",
        ("skip", "bump"),
        "A pawn sent back to an occupied idol marker skips to the next one (skip) or sends the occupant back"
        " in turn (bump).",
        "RU-Q12",
    ),
    OptionSpec(
        "pair_order",
        "furtherAheadFirst",
        ("furtherAheadFirst", "ownerChooses"),
        "Two pawns of one colour sent back together: the one further ahead takes the nearer marker, or the"
        " owner chooses.",
        "RU-Q13",
    ),
    OptionSpec(
        "must_use_full",
        True,
        (True, False),
        "A pawn must use the whole roll when a route that long exists (true) or may stop earlier (false).",
        "RU-Q16",
    ),
    OptionSpec(
        "roll1_mode",
        "orthogonal",
        ("orthogonal", "nextColumnAny3"),
        "A roll of 1 moves to any orthogonal neighbour, or to any of the three spaces of the next column.",
        "RU-Q17",
    ),
    OptionSpec(
        "stairs_respect_walls",
        False,
        (False, True),
        "A secret stairway may take a pawn anywhere (false), or not across its own wall, that is not more"
        " than half a lap away (true).",
        "RU-Q21",
    ),
    OptionSpec(
        "ak_occupied",
        "bump",
        ("bump", "forbid"),
        "The Ah Kinchil card sends a pawn to an occupied marker and the occupant back (bump), or cannot (forbid).",
        "RU-Q23",
    ),
)

ALTERNATIVES = {
    "first_roll_x": "reroll",
    "change_optional": True,
    "change_under_own_pawn": False,
    "stair_owner_chooses": False,
    "send_back_occupied": "bump",
    "pair_order": "ownerChooses",
    "must_use_full": False,
    "roll1_mode": "nextColumnAny3",
    "stairs_respect_walls": True,
    "ak_occupied": "forbid",
}

