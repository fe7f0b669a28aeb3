"""Players and refusals as the table hears them: every text names a player with ``cap`` and every refusal
carries its clause.
"""

from __future__ import annotations

from companion.errors import IllegalAction


def cap(player: str) -> str:
    """A player id as the table hears it: "white" is said and shown as "White", as every game writes players.

    Every text that mentions a player goes through here, wherever the player stands in the sentence;
    capitalising only a sentence's first letter left "white's Targi" lower case mid-sentence.
    """
    return player[:1].upper() + player[1:]


def refuse(message: str, rule: str) -> IllegalAction:
    """A refusal with its clause; players in it are already written with ``cap``, and it opens with a capital."""
    return IllegalAction(message[:1].upper() + message[1:], rule)
