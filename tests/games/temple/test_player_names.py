"""Players are named as names ("Blue") in every temple refusal, announcement and prompt.

A colour also names things on the board: "the blue wall", "blue step 3", "both red pawns", and the
die's "red 4". Those stay lower case; a colour standing for a player ("blue's turn") must not.
"""

from __future__ import annotations

import random
import re

from companion.session import Session
from tests.games.player_names import gather

COLOURS = ("red", "blue", "green", "yellow")
# A lower-case colour not followed by the board thing or die face it describes stands for a player.
AS_PLAYER = re.compile(r"\b(?:red|blue|green|yellow)\b(?!\s+(?:step|wall|pawns?|[0-7]\b))")


def test_no_lower_case_player_name_in_any_text_of_long_random_games() -> None:
    said: set[str] = set()
    refusals = 0
    for seed, players in ((5, ["red", "blue", "green"]), (6, list(COLOURS)), (7, ["yellow", "blue"])):
        texts = gather(Session.new("temple", players), seed=seed, max_steps=2500,
                       restart=lambda players=players: Session.new("temple", players[::-1]))
        refusals += len(texts.refusals)
        said |= texts.refusals | texts.events | texts.prompts
    assert refusals > 500  # the probes reach far, not one sentence
    assert sorted(t for t in said if AS_PLAYER.search(t)) == []


def test_the_wrong_player_refusal_names_the_player() -> None:
    session = Session.new("temple", ["red", "blue"])
    while session.pending().player != "red":  # the assembly is anyone's; then Red rolls first
        session.act({k: v for k, v in session.legal()[0].items() if k != "text"})
    ruling = session.check({**{k: v for k, v in session.legal()[0].items() if k != "text"}, "player": "blue"})
    assert not ruling.legal and ruling.text.startswith("It is not Blue's turn to act: Red")


def test_the_card_change_prompt_opens_with_the_player_who_changes_a_card() -> None:
    """With Red and Blue playing, Blue's red roll asked "Red roll: Blue, replace one path card ...": read out
    or on screen it opened with Red, as if Red had rolled or were to act."""
    session, rng = Session.new("temple", ["red", "blue"]), random.Random(3)
    seen = []
    for _ in range(400):
        pending = session.pending()
        if pending.is_over:
            break
        if session.legal()[0]["type"] == "change":
            seen.append((pending.player, pending.text))
        reds = [a for a in session.legal() if a.get("face") == {"colour": "red"}]  # each roll a red face
        choice = rng.choice(reds or session.legal())
        session.act({k: v for k, v in choice.items() if k != "text"})
    assert {player for player, _ in seen} == {"red", "blue"}, seen
    for player, text in seen:
        assert text.startswith(f"{player.capitalize()}: "), text
        assert "red " in text and "replace one path card" in text, text  # the die's red face, as it showed
