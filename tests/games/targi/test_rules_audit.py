"""Rules audit of Targi: positions where the engine once disagreed with the rules and DECISIONS.md."""

from __future__ import annotations

import pytest

from companion.errors import InvalidPosition
from companion.games.targi.state import evolve
from tests.games.targi.helpers import (
    B,
    W,
    act,
    actions_doc,
    doc_of,
    fresh,
    game,
    load,
    refused,
    run,
    set_centre,
    set_supply,
)
from tests.games.targi.test_rules import twelfth_position


# -- TG-P1: three Targi per player -----------------------------------------------------------
def _all_three_out_doc() -> dict:
    doc = doc_of(fresh())
    doc.update(round=2, robber=2, start=W, actor=W)
    doc["targi"] = [{"card": n, "player": W} for n in (1, 3, 5)] + [{"card": 6, "player": B}]
    return doc


def test_no_fourth_targi_is_placed() -> None:
    """A placing player whose three Targi are all out is refused a fourth (TG-P1)."""
    doc = _all_three_out_doc()
    doc["actor"] = B  # loads; the state is then handed to white as it was before the loader check
    s = evolve(load(doc), actor=W)
    assert game().legal_actions(s) == []
    refused(s, {"type": "place", "card": 7}, "TG-P1")


def test_loader_refuses_a_placing_player_without_a_targi_left() -> None:
    with pytest.raises(InvalidPosition) as err:
        load(_all_three_out_doc())
    assert any("actor" in p and "3 Targi" in p for p in err.value.problems)


# -- TG-R2: a raid needs the robber on a corner ----------------------------------------------------
def test_loader_refuses_a_raid_with_the_robber_off_the_corners() -> None:
    doc = doc_of(fresh())
    doc.update(round=3, robber=3, start=W, actor=None, stage="raid", queue=[W, B])
    with pytest.raises(InvalidPosition) as err:
        load(doc)
    assert any(p.startswith("robber:") for p in err.value.problems)
    doc["robber"] = 4  # the same position on the corner loads and offers the raid's payments
    s = load(doc)
    assert {a["type"] for a in game().legal_actions(s)} == {"pay"}


# -- TG-E2: only players over the limit return goods -----------------------------------------------
def test_loader_refuses_a_limits_queue_of_a_player_within_the_limit() -> None:
    doc = doc_of(fresh())
    doc.update(round=3, robber=3, start=W, actor=None, stage="limits", queue=[W])
    with pytest.raises(InvalidPosition) as err:
        load(doc)
    assert any(p.startswith("queue:") for p in err.value.problems)
    set_supply(doc, W, dates=5, salt=4, pepper=3)
    s = load(doc)
    assert all(sum(a["goods"].values()) == 2 for a in game().legal_actions(s))


# -- TG-Q18: limits.applyAtGameEnd off also covers the robber's end ---------------------------------
def test_limits_off_at_game_end_also_after_round_twelve() -> None:
    doc = actions_doc(W, targi=[(15, W)], round_=12, options={"limits.applyAtGameEnd": False})
    set_supply(doc, W, dates=6, salt=6, pepper=6, gold=5)
    s = load(doc)
    s, _ = act(s, {"type": "done"})
    # no goods to return, no gold lost to the limit: straight on to the final raid
    assert s.stage == "raid" and s.robber == 16
    assert s.supply(W).gold == 5 and s.supply(W).goods == 18
    s, _ = act(s, {"type": "pay", "pay": {"gold": 1}})  # black, the new start player, pays first
    s, _ = act(s, {"type": "pay", "pay": {"gold": 1}})
    assert s.stage == "over"
    assert s.supply(W).gold == 4 and s.supply(W).goods == 18


def test_limits_on_at_game_end_after_round_twelve_is_unchanged() -> None:
    doc = actions_doc(W, targi=[(15, W)], round_=12)
    set_supply(doc, W, dates=6, salt=6, pepper=6, gold=5)
    s = load(doc)
    s, _ = act(s, {"type": "done"})
    assert s.stage == "limits" and s.supply(W).gold == 3


def test_limits_off_still_apply_between_earlier_rounds() -> None:
    doc = actions_doc(W, targi=[(14, W)], round_=11, options={"limits.applyAtGameEnd": False})
    set_supply(doc, W, dates=6, salt=6, pepper=6, gold=5)
    s = load(doc)
    s, _ = act(s, {"type": "done"})
    assert s.stage == "limits" and s.supply(W).gold == 3


def _limit_rules(events) -> list[tuple[str, ...]]:
    return [e.rules for e in events if e.kind == "penalty" and "TG-E2" in e.rules]


def test_limits_at_the_end_of_round_twelve_cite_tg_q18_too() -> None:
    """Limits after the last round apply only because TG-Q18 says so; they cited TG-E2 alone."""
    doc = actions_doc(W, targi=[(15, W)], round_=12)
    set_supply(doc, W, dates=6, salt=6, pepper=6, gold=5)
    s, events = act(load(doc), {"type": "done"})
    assert _limit_rules(events) == [("TG-E2", "TG-Q18")]  # the gold
    _, events = act(s, game().legal_actions(s)[0])
    assert _limit_rules(events) == [("TG-E2", "TG-Q18")]  # the goods


def test_limits_after_the_twelfth_tribe_card_cite_tg_q18_too() -> None:
    doc = twelfth_position(B)
    set_supply(doc, B, dates=8, salt=3, pepper=2)
    s, _ = run(load(doc), {"type": "use", "slot": [1, 2]},
               {"type": "play", "card": "T41", "pay": {"salt": 1, "pepper": 1}, "row": 3},
               {"type": "use", "card": 2})  # fmt: skip
    _, events = act(s, {"type": "return", "goods": {"dates": 3}})
    assert _limit_rules(events) == [("TG-E2", "TG-Q18")]


def test_limits_between_earlier_rounds_cite_tg_e2_alone() -> None:
    doc = actions_doc(W, targi=[(14, W)], round_=11)
    set_supply(doc, W, dates=6, salt=6, pepper=6, gold=5)
    s, events = act(load(doc), {"type": "done"})
    assert _limit_rules(events) == [("TG-E2",)]
    _, events = act(s, game().legal_actions(s)[0])
    assert _limit_rules(events) == [("TG-E2",)]


# -- TG-T2: the held card is dealt with only at the Noble ------------------------------------------
def test_playing_or_discarding_the_held_card_outside_the_noble_cites_the_hand_clause() -> None:
    doc = actions_doc(W, targi=[(9, W)])
    set_supply(doc, W, hand=["T11"])
    s = load(doc)
    refused(s, {"type": "play", "card": "T11", "pay": {"salt": 1}, "row": 1}, "TG-T2")
    refused(s, {"type": "discard", "card": "T11"}, "TG-T2")
    # at the Noble the same card is played
    doc = actions_doc(W, targi=[(1, W)])
    set_supply(doc, W, hand=["T11"])
    s = load(doc)
    s, _ = act(s, {"type": "use", "card": 1})
    s, _ = act(s, {"type": "play", "card": "T11", "pay": {"salt": 1}, "row": 1})
    assert s.supply(W).rows[0] == ("T11",) and s.supply(W).hand == ()


# -- TG-B6: the Trader exchanges goods, never gold -------------------------------------------------------
def test_two_gold_for_one_gold_at_the_trader_is_not_told_that_gold_buys_a_good() -> None:
    """Gold is no good: the Trader's two-for-one is for dates, salt and pepper only (TG-B6).

    The refusal used to cite TG-Q17 and say that two gold buy a good of another kind, which the Trader
    never offers.
    """
    doc = actions_doc(W, targi=[(9, W)])
    set_supply(doc, W, salt=3, gold=2)
    s, _ = act(load(doc), {"type": "use", "card": 9})
    err = refused(s, {"type": "trade", "give": {"gold": 2}, "get": {"gold": 1}}, "TG-B6")
    assert "good of another kind" not in err.message
    refused(s, {"type": "trade", "give": {"gold": 2}, "get": {"salt": 1}}, "TG-B6")
    # two of a good for one of the same good still cites the decision that settles it
    refused(s, {"type": "trade", "give": {"salt": 2}, "get": {"salt": 1}}, "TG-Q17")


# -- TG-Q3 / TG-Q34: who can pay a raid is judged on what each player held when the robber came ------------
def test_a_raid_nobody_can_pay_gives_each_player_the_others_vp() -> None:
    """Neither player holds a good or a VP token when the First Raid comes: each gains the other's VP (TG-Q34).

    The start player's forfeit used to reach the other player before that player paid, who then paid the raid
    with that very VP, so the start player gained nothing.
    """
    doc = actions_doc(W, round_=3)  # robber on 3: the next round starts with the First Raid
    set_supply(doc, W, dates=0, salt=0, pepper=0, vp=0, gold=0)
    set_supply(doc, B, dates=0, salt=0, pepper=0, vp=0, gold=0)
    s, events = act(load(doc), {"type": "done"})
    assert s.robber == 5 and s.stage == "place"
    assert (s.supply(W).vp, s.supply(B).vp) == (1, 1)
    assert sum(1 for e in events if "TG-R3" in e.rules) == 2
    assert not any(e.kind == "penalty" and "pays the raid" in e.text for e in events)


def test_a_player_who_can_pay_still_pays_when_the_other_cannot() -> None:
    """Only the player with nothing is let off; the other pays from their own stock and keeps the gain."""
    doc = actions_doc(W, round_=3)
    set_supply(doc, W, dates=0, salt=0, pepper=0, vp=0, gold=0)
    set_supply(doc, B, dates=0, salt=0, pepper=0, vp=2, gold=0)
    s, _ = act(load(doc), {"type": "done"})
    # black (start player now) pays 1 VP, white could pay nothing and black also gains white's 1 VP
    assert (s.supply(W).vp, s.supply(B).vp) == (0, 2)


@pytest.mark.parametrize("raid_start", [W, B])
def test_vp_a_forfeit_hands_over_never_pay_the_same_raid_tg_q3_tg_q34(raid_start: str) -> None:
    """White, holding 1 date and no VP, pays the date; Black's forfeit then brings White its VP, whoever starts.
    The forfeit was settled first and White was asked to choose between the date and the 1 VP Black's forfeit
    had just handed over, a VP White did not hold when the robber came (TG-R3), as docs/games/targi.md says
    such VP never do."""
    doc = actions_doc(B if raid_start == W else W, round_=3)  # the amulet passes before the First Raid
    set_supply(doc, W, dates=1, salt=0, pepper=0, vp=0, gold=0)
    set_supply(doc, B, dates=0, salt=0, pepper=0, vp=0, gold=0)
    s, events = act(load(doc), {"type": "done"})
    assert s.start == raid_start and s.stage == "place"  # nothing was left to choose: White pays the date
    texts = [e.text for e in events]
    paid = texts.index("White pays the raid: 1 date.")
    assert texts.index("Black cannot pay the raid in full: White gains 1 VP.") > paid
    assert (s.supply(W).dates, s.supply(W).vp, s.supply(B).vp) == (0, 1, 0)


def test_partial_payment_hands_over_only_the_vp_held_when_the_raid_came() -> None:
    """With raid.partialPayment both players short of the Third Raid's 2 VP hand over what they held (TG-Q3)."""
    doc = actions_doc(W, round_=9, options={"raid.partialPayment": True})  # robber on 11: next is corner 12
    set_supply(doc, W, dates=0, salt=0, pepper=0, vp=0, gold=0)
    set_supply(doc, B, dates=0, salt=0, pepper=0, vp=1, gold=0)
    s, _ = act(load(doc), {"type": "done"})
    assert s.robber == 13
    # black gives its 1 VP and white gains the other 1; white gives nothing and black gains 2
    assert (s.supply(W).vp, s.supply(B).vp) == (1, 2)


# -- goods of one's choice: the clause of the card that gives the choice ------------------------------
def _choice_from(source: str):
    """A position with a choice of goods open: from border card 10 (Crossroads Well, a house GAIN_CHOICE),
    from Open Market (G10) at centre 1-1, or from Dew Collector's one-time gain (T06) played from 1-2."""
    if source == "border":
        s = load(actions_doc(W, targi=[(10, W)]))
        s, _ = act(s, {"type": "use", "card": 10})
    elif source == "goods":
        doc = actions_doc(W, markers=[(1, 1, W)])
        set_centre(doc, 1, 1, "G10")
        s, _ = act(load(doc), {"type": "use", "slot": [1, 1]})
    else:
        doc = actions_doc(W, markers=[(1, 2, W)])
        set_centre(doc, 1, 2, "T06")
        s, _ = act(load(doc), {"type": "use", "slot": [1, 2]})
        s, _ = act(s, {"type": "play", "card": "T06", "pay": {"pepper": 2}, "row": 1})
    assert s.tasks and s.tasks[0].kind == "goods"
    return s


@pytest.mark.parametrize(
    ("source", "rules", "n"),
    [("border", ("TG-B7",), 1), ("goods", ("TG-G1",), 1), ("tribe", ("TG-T5", "TG-FX"), 2)],
)
def test_a_choice_of_goods_cites_the_card_that_gives_it(source, rules, n) -> None:
    """TG-G1 is the goods cards' clause. Crossroads Well's one good of choice is a border card's (TG-B7) and
    Dew Collector's two a tribe card's one-time gain (TG-T5); both cited TG-G1, in the refusal of a wrong
    count and in the announcement of the goods taken. The source survives a document round trip."""
    s = _choice_from(source)
    s = load(doc_of(s))
    refused(s, {"type": "take", "goods": {"salt": n + 1}}, rules[0])
    s, events = act(s, {"type": "take", "goods": {"salt": n}})
    taken = [e for e in events if e.text.startswith("White chooses")]
    assert len(taken) == 1 and taken[0].rules == rules


def test_a_choice_of_goods_from_an_older_document_reads_as_a_goods_card() -> None:
    doc = doc_of(_choice_from("border"))
    assert doc["tasks"][0]["why"] == "border"
    del doc["tasks"][0]["why"]
    refused(load(doc), {"type": "take", "goods": {"salt": 2}}, "TG-G1")
    doc["tasks"][0]["why"] = "raid"
    with pytest.raises(InvalidPosition) as err:
        load(doc)
    assert any("tasks[0].why" in p for p in err.value.problems)


# -- after the end: the clause of the way the game ended, not the final count ------------------------
def test_after_a_full_display_actions_cite_the_twelfth_card_ending() -> None:
    """TG-S1 says how the final score is made; that play has stopped is TG-END2 (or TG-END1, below)."""
    s = load(twelfth_position(W))
    play = {"type": "play", "card": "T41", "pay": {"salt": 1, "pepper": 1}, "row": 3}
    s, _ = run(s, {"type": "use", "slot": [1, 2]}, play, {"type": "use", "card": 2}, {"type": "use", "card": 5})
    assert s.stage == "over" and s.ender == W
    error = refused(s, {"type": "done"}, "TG-END2")
    assert error.message == "The game is over: White laid their twelfth tribe card; no more actions."
    refused(s, {"type": "place", "card": 2}, "TG-END2")


def test_after_the_robbers_lap_actions_cite_the_robber_ending() -> None:
    doc = actions_doc(W, targi=[(15, W)], round_=12)
    set_supply(doc, B, gold=1)
    s, _ = run(load(doc), {"type": "done"}, {"type": "pay", "pay": {"gold": 1}}, {"type": "pay", "pay": {"gold": 1}})
    assert s.stage == "over" and s.robber == 16 and s.ender is None
    error = refused(s, {"type": "pay", "pay": {"vp": 3}}, "TG-END1")
    assert error.message == "The game is over: the robber has completed its lap; no more actions."


# -- TG-Q9: a Targi left off the board is said, once ------------------------------------------------
def test_a_player_left_without_an_allowed_card_is_told_their_targi_stay_off() -> None:
    """Black's remaining Targi were skipped in silence: the table never heard why Black placed no more."""
    doc = doc_of(fresh(profile="as-written"))  # a Targi closes its whole row and column to the opponent
    doc.update(round=10, robber=13, start=B, actor=B)
    doc["targi"] = [{"card": n, "player": W} for n in (1, 5)]
    s = load(doc)
    s, events = act(s, {"type": "place", "card": 14})
    assert not [e for e in events if "TG-Q9" in e.rules]  # black may still take card 10
    s, events = act(s, {"type": "place", "card": 9})  # white's 9 closes row 4 and column 3: 10 too
    said = [e for e in events if "TG-Q9" in e.rules]
    assert [(e.text, e.rules, e.players) for e in said] == [
        ("Black has no card left where a Targi may stand: 2 Targi stay off the board this round.",
         ("TG-P1", "TG-Q9"), (B,))]  # fmt: skip
    assert s.stage == "actions" and sum(1 for _, p in s.targi if p == B) == 1


def test_a_player_who_closes_their_own_last_card_is_told_their_last_targi_stays_off() -> None:
    doc = doc_of(fresh(profile="as-written"))
    doc.update(round=10, robber=13, start=B, actor=B)
    doc["targi"] = [{"card": n, "player": W} for n in (1, 2, 5)] + [{"card": 9, "player": B}]
    s = load(doc)
    assert [a["card"] for a in game().legal_actions(s)] == [14]
    s, events = act(s, {"type": "place", "card": 14})
    said = [e.text for e in events if "TG-Q9" in e.rules]
    assert said == ["Black has no card left where a Targi may stand: their last Targi stays off the board this round."]
