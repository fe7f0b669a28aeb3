"""The choices that end a Targi round say so, with the gold and goods that go back (TG-E2) and what comes next:
the robber's raid (TG-R2), the final raid (TG-END1, TG-Q25) or the end of a full display (TG-END2)."""

from __future__ import annotations

from typing import Any

from tests.games.targi.helpers import B, W, act, actions_doc, game, load, round_twelve, run, set_supply
from tests.games.targi.test_rules import twelfth_position


def texts(state: Any) -> list[str]:
    return [a["text"] for a in game().legal_actions(state)]


def second_to_act(round_: int, targi: list[tuple[int, str]], **white: int) -> Any:
    """White acts second in ``round_`` (Black has finished) with Targi on ``targi``, holding ``white``."""
    doc = actions_doc(W, targi=targi, round_=round_)
    doc["done"] = [B]
    set_supply(doc, W, **white)
    return load(doc)


def test_the_last_choices_of_a_round_say_it_ends_and_the_raid_follows() -> None:
    """Round 3 ends with the robber's move onto the First Raid (card 4): 'Finish my actions this round' read like
    any other choice, and the announcements told the rest only after it."""
    s = second_to_act(3, [(5, W), (6, W)])
    assert texts(s)[-1] == "Finish my actions; the round ends, then the raid (First Raid)"
    assert [t for t in texts(s) if t.startswith("Use")] == ["Use Salt Pans (card 5): +2 salt",
                                                            "Use Fata Morgana (card 6)"]
    s, _ = act(s, {"type": "use", "card": 5})
    assert texts(s) == ["Use Fata Morgana (card 6); the round ends, then the raid (First Raid)",
                        "Finish my actions; the round ends, then the raid (First Raid)"]
    s, _ = act(s, {"type": "done"})
    assert s.stage == "raid" and s.robber == 4  # no card to turn up: the robber moves on and raids


def test_gold_above_the_limit_is_said_to_go_back_and_a_round_without_a_raid_says_none() -> None:
    s = second_to_act(5, [(9, W)], gold=5)  # the robber stands on card 6: card 7 comes next, no corner
    assert texts(s)[-1] == "Finish my actions; the round ends, White returns 2 gold"
    s, events = act(s, {"type": "done"})
    assert any(e.text.startswith("White returns 2 gold") and "TG-E2" in e.rules for e in events)


def test_the_first_player_finishing_says_nothing_of_the_round_end() -> None:
    """White starts and Black still has pieces out: White's finish only hands over (TG-A1)."""
    doc = actions_doc(W, targi=[(5, W), (10, B)], round_=3)
    assert texts(load(doc))[-1] == "Finish my actions this round"


def test_a_use_that_opens_a_decision_waits_for_the_decision_to_say_it() -> None:
    """The Crossroads Well opens a choice of goods; its answers end the round, the use does not yet."""
    s = second_to_act(3, [(10, W)])
    assert texts(s)[0] == "Use Crossroads Well (card 10): +1 any good"
    s, _ = act(s, {"type": "use", "card": 10})
    assert texts(s) and all(t.endswith("; the round ends, then the raid (First Raid)") for t in texts(s)), texts(s)


def test_round_twelve_says_the_final_raid_and_the_end_follow() -> None:
    s = load(round_twelve())
    s, _ = act(s, {"type": "use", "card": 15})
    assert texts(s) == ["Use Date Basket at centre 1-1: +1 date; the round ends, then the final raid (Last Raid) "
                        "and the game ends",
                        "Finish my actions; the round ends, then the final raid (Last Raid) and the game ends"]
    doc = actions_doc(W, targi=[(15, W)], round_=12, options={"limits.applyAtGameEnd": False})
    set_supply(doc, W, gold=5)
    assert texts(load(doc))[-1] == ("Finish my actions; the round ends, then the final raid (Last Raid) and the game "
                                    "ends")  # with the limits off at the end no gold goes back (TG-Q18)


def test_the_twelfth_card_by_the_second_player_says_the_game_ends_with_the_round() -> None:
    s = load(twelfth_position(B))
    s, _ = run(s, {"type": "use", "slot": [1, 2]}, {"type": "play", "card": "T41", "pay": {"salt": 1, "pepper": 1},
                                                     "row": 3})  # fmt: skip
    assert s.ender == B
    assert texts(s) == ["Use Palm Grove (card 2): +2 dates; the round and the game end",
                        "Finish my actions; the round and the game end"]


def test_the_card_the_caravan_turns_up_is_entered_without_the_round_end() -> None:
    """The table enters the card it turned up; it chooses nothing there, so the entries stay short."""
    s = second_to_act(3, [(13, W)])
    assert texts(s)[0] == "Use Caravan (card 13)"  # a draw comes next: the round does not end with the use
    s, _ = act(s, {"type": "use", "card": 13})
    assert game().pending(s).kind == "draw"
    assert texts(s) and not [t for t in texts(s) if "round" in t], texts(s)


def test_a_twelfth_card_played_with_actions_left_says_the_game_ends_with_the_round() -> None:
    """White (start player) and Black (second, a Targi still out) each lay their twelfth card with the round going
    on: the play read like any other, and only the warning after it said the game now ends with this round
    (TG-END2, TG-Q24). Keeping or discarding the card says nothing of it; once laid, later choices say it no more."""
    for who in (W, B):
        s = load(twelfth_position(who))
        s, _ = run(s, {"type": "use", "slot": [1, 2]})
        assert texts(s) == ["Play Leather Workshop in row 3, paying 1 salt and 1 pepper; the game ends with this round",
                            "Keep Leather Workshop in hand", "Discard Leather Workshop"], who
        s, _ = act(s, game().legal_actions(s)[0])
        assert s.ender == who and s.stage == "actions"
        assert not [t for t in texts(s) if "game ends with this round" in t], texts(s)
