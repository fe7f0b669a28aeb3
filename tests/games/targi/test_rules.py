"""Scenario tests for Targi's rules: each builds a position, acts, and checks the outcome and clause."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction, InvalidAction
from tests.games.targi.helpers import (
    B,
    W,
    act,
    actions_doc,
    doc_of,
    fresh,
    game,
    legal_types,
    load,
    refused,
    run,
    set_centre,
    set_supply,
    strip,
)
from ui.voice import spoken_form


# -- raids ---------------------------------------------------------------------------
def raid_position(**kw):
    doc = actions_doc(W, targi=[(3, W)], round_=3, **kw)  # robber on 3; next it reaches corner 4 (1 good or 1 VP)
    return doc


def test_unpaid_raid_goes_to_the_opponent() -> None:
    doc = raid_position()
    set_supply(doc, W, dates=0, salt=0, pepper=0, vp=0)
    s = load(doc)
    s, events = act(s, {"type": "done"})
    # black (new start player) is raided first (TG-R2) and chooses first, from what black holds
    assert game().pending(s).player == B
    assert not any("TG-R3" in e.rules for e in events)
    s, events = act(s, {"type": "pay", "pay": {"salt": 1}})
    # then white's shortfall (TG-Q34: judged on what white held when the robber came) hands black the VP
    assert any("TG-R3" in e.rules for e in events)
    assert s.supply(B).vp == 5 and s.supply(W).vp == 0


def test_partial_payment_option_pays_what_there_is() -> None:
    doc = actions_doc(W, targi=[(11, W)], round_=9, options={"raid.partialPayment": True})  # robber 11 -> 12
    set_supply(doc, W, dates=1, salt=1, pepper=0, vp=1)  # raid 3: 3 goods or 2 VP: neither in full
    s = load(doc)
    s, _ = act(s, {"type": "done"})
    s, events = act(s, {"type": "pay", "pay": {"vp": 2}})  # black pays
    assert s.supply(W).vp == 0 and s.supply(B).vp == 4 - 2 + 1
    assert any("TG-Q3" in e.rules for e in events)


def test_raid_payment_must_be_one_of_the_options() -> None:
    s = load(raid_position())
    s, _ = act(s, {"type": "done"})
    refused(s, {"type": "pay", "pay": {"salt": 2}}, "TG-R2")
    refused(s, {"type": "pay", "pay": {"gold": 1}}, "TG-R2")
    with pytest.raises(IllegalAction, match=r"This raid takes 1 good or 1 VP"):  # not "1 goods"
        game().apply(s, {"type": "pay", "pay": {"salt": 2}})
    legal = strip(game().legal_actions(s))
    assert {"type": "pay", "pay": {"vp": 1}} in legal and {"type": "pay", "pay": {"pepper": 1}} in legal


def test_raid_protection_and_reduction_from_tribe_cards() -> None:
    doc = raid_position()
    set_supply(doc, B, rows=[["T45"], [], []])  # Market Awning: immune
    set_supply(doc, W, rows=[["T13"], [], []])  # Old Bull Camel: raids cut by 1
    s = load(doc)
    s, events = act(s, {"type": "done"})
    assert s.stage == "place"
    assert s.supply(B).vp == 4 and s.supply(W).vp == 4 and s.supply(W).goods == 6
    assert sum("TG-FX" in e.rules for e in events) == 2


# -- placement -----------------------------------------------------------------------
def test_as_written_profile_forbids_the_whole_line() -> None:
    doc = doc_of(fresh(profile="as-written"))
    doc.update(round=2, robber=2, actor=B, targi=[{"card": 6, "player": W}])
    s = load(doc)
    legal = {a["card"] for a in game().legal_actions(s)}
    assert legal.isdisjoint({5, 7, 14}) and {13, 15, 1, 3} <= legal
    refused(s, {"type": "place", "card": 5}, "TG-Q5")


def test_no_allowed_card_leaves_the_targi_off_the_board() -> None:
    doc = doc_of(fresh(profile="as-written"))
    doc.update(round=10, robber=13, start=B, actor=B)
    doc["targi"] = [{"card": n, "player": W} for n in (1, 5, 10)]
    s = load(doc)
    assert {a["card"] for a in game().legal_actions(s)} == {14}
    s, _ = act(s, {"type": "place", "card": 14})
    assert s.stage == "actions"
    assert sum(1 for _, p in s.targi if p == B) == 1


def test_placement_turns_alternate_and_turn_is_enforced() -> None:
    s = fresh()
    error = refused(s, {"type": "place", "card": 2, "player": B}, "TG-TURN")
    assert error.message == ("It is White's turn to decide, not Black's. Targi go down one at a time in turn, "
                             "White (the start player this round) first.")
    s, events = act(s, {"type": "place", "card": 2, "player": W})
    assert s.actor == B and events[0].kind == "move"
    refused(s, {"type": "place", "card": 10}, "TG-P5")
    refused(s, {"type": "use", "card": 2}, "TG-A1")


def test_robber_card_opened_by_a_tribe_card() -> None:
    doc = doc_of(fresh())
    doc.update(round=3, robber=3, actor=W)
    set_supply(doc, W, rows=[["T27"], [], []])  # Pepper Garden
    s = load(doc)
    assert 3 in {a["card"] for a in game().legal_actions(s)}


def test_unused_marker_bonus() -> None:
    doc = doc_of(fresh())
    doc.update(round=4, robber=5, actor=W)
    doc["targi"] = [{"card": 1, "player": W}, {"card": 2, "player": W}, {"card": 6, "player": B},
                    {"card": 7, "player": B}, {"card": 15, "player": B}]  # fmt: skip
    set_supply(doc, W, rows=[["T36"], [], []])  # Dune Dancer: 1 VP per unused marker
    s = load(doc)
    s, _ = act(s, {"type": "place", "card": 3})
    assert s.supply(W).vp == 4 + 2


# -- central cards, decks, draws -----------------------------------------------------------
def test_caravan_draw_lists_only_cards_that_can_still_come() -> None:
    doc = actions_doc(W, targi=[(13, W)])
    set_centre(doc, 1, 1, "G11")  # the only Gold Nugget lies face up in the centre
    s = load(doc)
    s, _ = act(s, {"type": "use", "card": 13})
    g = game()
    pending = g.pending(s)
    assert pending.kind == "draw" and pending.deck == "goods"
    offered = {a["card"] for a in g.legal_actions(s)}
    assert "G11" not in offered and "G12" in offered and "G06" in offered
    refused(s, {"type": "draw", "deck": "goods", "card": "G11"}, "TG-DRAW")
    refused(s, {"type": "draw", "deck": "tribe", "card": "T09"}, "TG-DRAW")
    refused(s, {"type": "done"}, "TG-DRAW")
    s, _ = act(s, {"type": "draw", "deck": "goods", "card": "G10"})  # a choice of one good
    legal = strip(g.legal_actions(s))
    assert legal == [{"type": "take", "goods": {"pepper": 1}}, {"type": "take", "goods": {"salt": 1}},
                     {"type": "take", "goods": {"dates": 1}}]  # fmt: skip
    pepper = s.supply(W).pepper
    s, _ = act(s, {"type": "take", "goods": {"pepper": 1}})
    assert s.supply(W).pepper == pepper + 1 and dict(s.goods.discard) == {"G10": 1}


def test_a_card_turned_up_for_a_player_is_not_entered_in_the_other_players_name() -> None:
    """White's Caravan card sent with "player": "black" was taken and journalled so, where every other game refuses
    a draw for the wrong player; the setup's cards, turned up for nobody, stay anyone's to enter."""
    s = load(actions_doc(W, targi=[(13, W)]))
    s, _ = act(s, {"type": "use", "card": 13})
    error = refused(s, {"type": "draw", "deck": "goods", "card": "G02", "player": B}, "TG-TURN")
    assert error.message == "The card to enter now is turned up for White, not Black."
    act(s, {"type": "draw", "deck": "goods", "card": "G02", "player": W})
    setup = fresh(centre=[])
    assert game().pending(setup).player is None
    act(setup, {"type": "draw", "deck": "goods", "card": "G02", "player": B})


def test_a_deck_the_game_lacks_is_quoted_in_its_refusal() -> None:
    """'"deck" must be "goods" or "tribe"' left out what came, where Blackpool's says "..., not 'zzz'"."""
    s = fresh(centre=[])
    for deck, said in [("zzz", "'zzz'"), (None, "null")]:
        with pytest.raises(InvalidAction) as error:
            game().apply(s, {"type": "draw", "deck": deck, "card": "G01"})
        assert error.value.message == f'"deck" must be "goods" or "tribe", not {said}'


def test_a_choice_card_drawn_at_the_caravan_is_announced() -> None:
    """Open Market drawn for the Caravan made no announcement: the table heard "Done." and then "White: choose
    1 good.", never which card it had entered, where every other goods card is named with what it gives."""
    s = load(actions_doc(W, targi=[(13, W)]))
    s, _ = act(s, {"type": "use", "card": 13})
    _, events = act(s, {"type": "draw", "deck": "goods", "card": "G10"})
    said = " ".join(e.text for e in events)
    assert "Open Market" in said and "White" in said and "1 good" in said
    assert all(e.rules for e in events)


def test_tribal_expansion_hold_then_full_hand() -> None:
    """A card kept in hand; then a central tribe card with the hand full is played or discarded, never held
    (TG-Q32), and the held card cannot be swapped for it (TG-Q13)."""
    doc = actions_doc(W, targi=[(14, W)], markers=[(1, 2, W)])
    s = load(doc)
    s, _ = run(s, {"type": "use", "card": 14}, {"type": "draw", "deck": "tribe", "card": "T07"})
    assert "hold" in legal_types(s)
    s, _ = act(s, {"type": "hold", "card": "T07"})
    assert s.supply(W).hand == ("T07",)
    s, _ = act(s, {"type": "use", "slot": [1, 2]})  # T41 from the centre; the hand is full
    assert "hold" not in legal_types(s)
    refused(s, {"type": "hold", "card": "T41"}, "TG-Q32")  # the decision for a central card; it cited TG-T2
    # Dropping the held card to keep the new one is the swap TG-Q13 forbids: it cited TG-T1 and said only
    # "Clay Channel (T07) is not the card being decided on now".
    swap = refused(s, {"type": "discard", "card": "T07"}, "TG-Q13")
    assert swap.message == ("Clay Channel stays in White's hand: the held card cannot be swapped for "
                            "Leather Workshop, which is played or discarded.")
    refused(s, {"type": "play", "card": "T07", "pay": {"salt": 1}, "row": 1}, "TG-Q13")
    s, events = act(s, {"type": "discard", "card": "T41"})
    assert dict(s.tribe.discard) == {"T41": 1}
    assert s.centre[1].face_down and s.centre[1].deck == "goods"
    # Why it could not be kept: the hand's limit and the decision on a central card (it cited TG-T1 alone).
    assert events[0].text == "White discards Leather Workshop." and events[0].rules == ("TG-T1", "TG-T2", "TG-Q32")


def test_a_tribe_card_decided_on_with_a_full_hand_cites_the_clauses_that_shut_the_hand() -> None:
    """A card from Tribal Expansion with the hand full is refused a hold citing the hand's limit (TG-T2): TG-Q32 is
    the central card's decision. Played or discarded, each card says which clauses kept it out of the hand; with
    room in the hand, neither is cited."""
    doc = actions_doc(W, targi=[(14, W)], markers=[(1, 2, W)])
    set_supply(doc, W, hand=["T07"], salt=3, pepper=3)
    s, _ = run(load(doc), {"type": "use", "card": 14}, {"type": "draw", "deck": "tribe", "card": "T02"})
    refused(s, {"type": "hold", "card": "T02"}, "TG-T2")
    _, events = act(s, {"type": "discard", "card": "T02"})
    assert events[0].rules == ("TG-T1", "TG-T2")
    central, _ = act(load(doc), {"type": "use", "slot": [1, 2]})  # T41 from the centre, the hand full
    _, events = act(central, {"type": "play", "card": "T41", "pay": {"salt": 1, "pepper": 1}, "row": 1})
    assert events[0].rules == ("TG-T1", "TG-T3", "TG-T4", "TG-T2", "TG-Q32")
    set_supply(doc, W, hand=[])
    roomy, _ = act(load(doc), {"type": "use", "slot": [1, 2]})
    _, events = act(roomy, {"type": "discard", "card": "T41"})
    assert events[0].rules == ("TG-T1",)


def test_either_or_cost_gives_one_action_per_payment_and_row() -> None:
    doc = actions_doc(W, markers=[(1, 2, W)])
    set_centre(doc, 1, 2, "T04")  # Hidden Spring: 2 salt or 1 gold
    s = load(doc)
    s, _ = act(s, {"type": "use", "slot": [1, 2]})
    plays = [a for a in strip(game().legal_actions(s)) if a["type"] == "play"]
    assert len(plays) == 6
    assert {tuple(a["pay"].items()) for a in plays} == {(("salt", 2),), (("gold", 1),)}
    refused(s, {"type": "play", "card": "T04", "pay": {"dates": 2}, "row": 1}, "TG-T3")
    s, _events = act(s, {"type": "play", "card": "T04", "pay": {"gold": 1}, "row": 2})
    sup = s.supply(W)
    assert sup.gold == 0 and sup.rows[1] == ("T04",)


def test_unpayable_card_must_be_held_or_discarded() -> None:
    doc = actions_doc(W, markers=[(1, 2, W)])
    set_centre(doc, 1, 2, "T07")  # Clay Channel: 2 dates + 2 salt, or 2 gold
    set_supply(doc, W, dates=1, gold=0)
    s = load(doc)
    s, _ = act(s, {"type": "use", "slot": [1, 2]})
    assert legal_types(s) == {"hold", "discard"}
    refused(s, {"type": "play", "card": "T07", "pay": {"gold": 2}, "row": 1}, "TG-Q20")


def test_an_unpayable_card_says_what_is_held_and_what_may_be_done_instead() -> None:
    """"White cannot pay 2 gold for Clay Channel" left the table counting goods and asking what now."""
    doc = actions_doc(W, markers=[(1, 2, W)])
    set_centre(doc, 1, 2, "T07")  # Clay Channel: 2 dates + 2 salt, or 2 gold
    set_supply(doc, W, dates=1, salt=2, gold=0)
    s, _ = act(load(doc), {"type": "use", "slot": [1, 2]})
    error = refused(s, {"type": "play", "card": "T07", "pay": {"dates": 2, "salt": 2}, "row": 1}, "TG-Q20")
    assert error.message == ("White has 1 date, not enough to pay 2 dates and 2 salt for Clay Channel; "
                             "a card that cannot be paid for is kept in hand or discarded.")
    set_supply(doc, W, dates=1, salt=2, gold=0, hand=["T02"])  # the hand is full: discarding is what is left
    s, _ = act(load(doc), {"type": "use", "slot": [1, 2]})
    error = refused(s, {"type": "play", "card": "T07", "pay": {"gold": 2}, "row": 1}, "TG-Q20")
    assert error.message == ("White has 0 gold, not enough to pay 2 gold for Clay Channel; "
                             "a card that cannot be paid for is discarded when the hand is full.")
    noble = actions_doc(W, targi=[(1, W), (15, W)], round_=2)  # the held card, at the Noble
    set_supply(noble, W, dates=0, hand=["T02"])  # Rope and Bucket: 1 date
    s, _ = act(load(noble), {"type": "use", "card": 1})
    error = refused(s, {"type": "play", "card": "T02", "pay": {"dates": 1}, "row": 1}, "TG-Q20")
    assert error.message == ("White has 0 dates, not enough to pay 1 date for Rope and Bucket; "
                             "the held card may be discarded instead.")


def test_noble_plays_or_discards_the_held_card() -> None:
    doc = actions_doc(W, targi=[(1, W), (15, W)], round_=2)
    set_supply(doc, W, hand=["T02"])
    s = load(doc)
    s, _ = act(s, {"type": "use", "card": 1})
    assert legal_types(s) == {"play", "discard"}
    refused(s, {"type": "hold", "card": "T02"}, "TG-B1")
    s, events = act(s, {"type": "play", "card": "T02", "pay": {"dates": 1}, "row": 3})
    sup = s.supply(W)
    assert sup.hand == () and sup.rows[2] == ("T02",) and sup.dates == 1
    assert any("TG-B1" in e.rules for e in events)


def test_noble_with_empty_hand_does_nothing() -> None:
    s = load(actions_doc(W, targi=[(1, W), (15, W)], round_=2))
    assert game().check(s, {"type": "use", "card": 1}).legal  # allowed, though it does nothing (TG-Q33)
    s, events = act(s, {"type": "use", "card": 1})
    assert any({"TG-Q14", "TG-Q33"} <= set(e.rules) for e in events) and not s.tasks


def test_fata_morgana_moves_an_unused_marker() -> None:
    doc = actions_doc(W, targi=[(6, W)], markers=[(1, 1, W), (1, 2, B)])
    s = load(doc)
    s, _ = act(s, {"type": "use", "card": 6})
    moves = [a for a in strip(game().legal_actions(s)) if a["type"] == "move_marker"]
    assert {tuple(a["to"]) for a in moves} == {(1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)}
    refused(s, {"type": "move_marker", "from": [1, 1], "to": [1, 2]}, "TG-B4")
    refused(s, {"type": "move_marker", "from": [1, 2], "to": [3, 3]}, "TG-Q11")
    s, _ = act(s, {"type": "move_marker", "from": [1, 1], "to": [3, 3]})
    assert (8, W) in s.markers
    s, _ = act(s, {"type": "use", "slot": [3, 3]})
    assert s.centre[8].face_down


def test_fata_morgana_not_onto_face_down_cards_unless_allowed() -> None:
    for allow in (False, True):
        options = {"fataMorgana.allowFaceDown": allow}
        doc = actions_doc(W, targi=[(6, W)], markers=[(1, 1, W), (1, 3, W)], options=options)
        s = load(doc)
        # after this, centre 1-3 holds a face-down tribe card
        s, _ = run(s, {"type": "use", "slot": [1, 3]}, {"type": "use", "card": 6})
        assert s.centre[2].face_down
        move = {"type": "move_marker", "from": [1, 1], "to": [1, 3]}
        if not allow:
            refused(s, move, "TG-Q11")
            continue
        s, _ = act(s, move)
        s, _ = act(s, {"type": "use", "slot": [1, 3]})
        pending = game().pending(s)
        assert pending.kind == "draw" and pending.deck == "tribe"
        s, _ = act(s, {"type": "draw", "deck": "tribe", "card": "T20"})
        assert s.tasks[0].kind == "tribe" and s.tasks[0].cards == ("T20",)
        assert s.centre[2].face_down and s.centre[2].deck == "goods"


def test_goods_deck_reshuffle_keeps_face_down_cards_apart() -> None:
    doc = actions_doc(W, targi=[(13, W)], markers=[(1, 2, W)])
    pile = doc["decks"]["goods"]["piles"][-1]["cards"]
    doc["decks"]["goods"]["discard"] = {k: v for k, v in pile.items() if k != "G12"}
    doc["decks"]["goods"]["piles"][-1]["cards"] = {"G12": 1}
    s = load(doc)
    # the tribe card at 1-2 is replaced by the last goods card in the pile, face down
    s, _ = run(s, {"type": "use", "slot": [1, 2]}, {"type": "discard", "card": "T41"})
    assert s.centre[1].face_down and s.goods.current.in_pile == 0
    s, events = act(s, {"type": "use", "card": 13})
    assert any("TG-D1" in e.rules for e in events)
    offered = {a["card"] for a in game().legal_actions(s)}
    assert "G12" not in offered and "G05" in offered  # the old pile's last card lies face down
    s, _ = act(s, {"type": "draw", "deck": "goods", "card": "G05"})
    # end of round: the face-down card can only be the Elder's Favour from the first pile
    assert game().pending(s).kind == "draw"
    assert [a["card"] for a in game().legal_actions(s)] == ["G12"]
    s, _ = act(s, {"type": "draw", "deck": "goods", "card": "G12"})
    assert s.centre[1].card == "G12" and len(s.goods.piles) == 1


def test_empty_decks_leave_the_space_empty() -> None:
    doc = actions_doc(W, targi=[(14, W)], markers=[(1, 1, W)], options={"tribe.reshuffle": False})
    tribe = doc["decks"]["tribe"]
    tribe["discard"], tribe["piles"][-1]["cards"] = tribe["piles"][-1]["cards"], {}
    s = load(doc)
    s, events = act(s, {"type": "use", "slot": [1, 1]})
    assert s.centre[0].empty and any("TG-Q28" in e.rules for e in events)
    s, events = act(s, {"type": "use", "card": 14})
    assert not s.tasks and any("TG-Q28" in e.rules for e in events)
    assert s.stage == "place" and s.centre[0].empty  # nothing to turn up for an empty space
    doc = game().to_document(s)
    doc.update(stage="actions", actor=W, markers=[{"slot": [1, 1], "player": W}])
    refused(load(doc), {"type": "use", "slot": [1, 1]}, "TG-Q28")


def test_face_down_central_card_cannot_be_used() -> None:
    doc = actions_doc(W, markers=[(1, 1, W)])
    doc["centre"][0][0] = {"face_down": "goods", "pile": 0}
    from tests.games.targi.helpers import put_back

    put_back(doc, "G01")
    doc["decks"]["goods"]["piles"][-1]["face_down"] = 1
    s = load(doc)
    refused(s, {"type": "use", "slot": [1, 1]}, "TG-Q11")


# -- the action phase ------------------------------------------------------------------
def test_start_player_acts_first_then_the_other() -> None:
    doc = actions_doc(W, targi=[(2, W), (5, B)])
    s = load(doc)
    error = refused(s, {"type": "use", "card": 5, "player": B}, "TG-TURN")  # "why is it not my turn?"
    assert error.message == ("It is White's turn to decide, not Black's. White is the start player this round "
                             "and carries out every action first.")
    refused(s, {"type": "use", "card": 5}, "TG-A2")
    s, _ = act(s, {"type": "use", "card": 2})
    assert s.actor == B  # white has nothing left: black's turn
    error = refused(s, {"type": "done", "player": W}, "TG-TURN")
    assert error.message.endswith(" White, the start player this round, has finished; now Black acts.")
    s, _ = act(s, {"type": "use", "card": 5})
    assert s.stage == "place" and s.round == 3 and s.start == B


def test_one_action_at_a_time() -> None:
    s = load(actions_doc(W, targi=[(9, W), (2, W)]))
    s, _ = act(s, {"type": "use", "card": 9})
    refused(s, {"type": "use", "card": 2}, "TG-A4")
    refused(s, {"type": "done"}, "TG-A4")
    s, _ = act(s, {"type": "finish"})
    assert not s.tasks and (2, W) in s.targi


def test_goods_giving_border_cards() -> None:
    s = load(actions_doc(W, targi=[(2, W), (10, W), (11, W)]))
    s, _ = run(s, {"type": "use", "card": 2}, {"type": "use", "card": 11}, {"type": "use", "card": 10})
    sup = s.supply(W)
    assert (sup.dates, sup.gold) == (4, 2)
    assert legal_types(s) == {"take"}
    refused(s, {"type": "take", "goods": {"salt": 2}}, "TG-B7")  # a border card: TG-G1 is the goods cards' clause


def test_action_bonus_and_one_time_gains() -> None:
    doc = actions_doc(W, targi=[(13, W)], markers=[(1, 2, W)])
    set_supply(doc, W, rows=[["T05"], [], []])  # Well Keeper: +1 date at the Caravan
    set_centre(doc, 1, 2, "T15")  # Saddle Maker: +1 gold when played (costs 2 dates)
    s = load(doc)
    s, _ = run(s, {"type": "use", "slot": [1, 2]}, {"type": "play", "card": "T15", "pay": {"dates": 2}, "row": 1})
    assert s.supply(W).gold == 2 and s.supply(W).dates == 0
    s, _ = act(s, {"type": "use", "card": 13})
    assert s.supply(W).dates == 1


def test_gain_choice_effect_asks_for_goods() -> None:
    doc = actions_doc(W, markers=[(1, 2, W)])
    set_centre(doc, 1, 2, "T06")  # Dew Collector: 2 goods of choice
    s = load(doc)
    s, _ = run(s, {"type": "use", "slot": [1, 2]}, {"type": "play", "card": "T06", "pay": {"pepper": 2}, "row": 1})
    legal = strip(game().legal_actions(s))
    assert len(legal) == 6 and all(a["type"] == "take" for a in legal)


# -- game end ------------------------------------------------------------------------
ELEVEN = [["T10", "T11", "T12", "T14"], ["T19", "T20", "T21", "T23"], ["T28", "T29", "T30"]]


def twelfth_position(actor: str, **kw):
    doc = actions_doc(actor, targi=[(2, actor), (5, W if actor == B else B)], markers=[(1, 2, actor)], **kw)
    set_supply(doc, actor, rows=ELEVEN, dates=3, salt=3, pepper=3)
    if actor == B:
        doc["start"] = W
        doc["done"] = [W]
        doc["targi"] = [{"card": 2, "player": B}]
    return doc


def test_twelfth_card_by_start_player_lets_the_other_finish() -> None:
    s = load(twelfth_position(W))
    s, events = run(s, {"type": "use", "slot": [1, 2]}, {"type": "play", "card": "T41", "pay": {"salt": 1, "pepper": 1},
                                                          "row": 3})  # fmt: skip
    assert s.ender == W and any("TG-END2" in e.rules for e in events)
    assert s.actor == W  # white still finishes their own actions
    s, _ = act(s, {"type": "use", "card": 2})
    assert s.actor == B and s.stage == "actions"  # black takes their whole turn
    s, events = act(s, {"type": "use", "card": 5})
    assert s.stage == "over"
    assert game().pending(s).result["scores"][W] > 0


def test_twelfth_card_without_finishing_own_actions() -> None:
    s = load(twelfth_position(W, options={"end.finishOwnActions": False}))
    s, _ = run(s, {"type": "use", "slot": [1, 2]}, {"type": "play", "card": "T41", "pay": {"salt": 1, "pepper": 1},
                                                     "row": 3})  # fmt: skip
    assert s.actor == B and (2, W) not in s.targi
    s, _ = act(s, {"type": "done"})
    assert s.stage == "over"


def test_twelfth_card_by_second_player_ends_after_limits() -> None:
    doc = twelfth_position(B)
    set_supply(doc, B, dates=8, salt=3, pepper=2)
    s = load(doc)
    s, _ = run(s, {"type": "use", "slot": [1, 2]}, {"type": "play", "card": "T41", "pay": {"salt": 1, "pepper": 1},
                                                     "row": 3}, {"type": "use", "card": 2})  # fmt: skip
    assert s.stage == "limits" and game().pending(s).player == B
    s, _ = act(s, {"type": "return", "goods": {"dates": 3}})  # Palm Grove gave 2 dates
    assert s.stage == "over"
    res = game().pending(s).result
    assert res["breakdown"][B]["cards"] == sum(game().cat.tribe[c].vp for c in s.supply(B).cards)


def test_twelfth_card_warning_reads_whole_for_every_player_and_option() -> None:
    """The second player's twelfth card was announced "... ends after this round (Black finishes their
    actions,)." with an empty clause after the comma."""
    said = {}
    for actor in (W, B):
        for finish in (True, False):
            s = load(twelfth_position(actor, options={"end.finishOwnActions": finish}))
            _, events = run(s, {"type": "use", "slot": [1, 2]},
                            {"type": "play", "card": "T41", "pay": {"salt": 1, "pepper": 1}, "row": 3})
            said[actor, finish] = next(e.text for e in events if "TG-END2" in e.rules)
    name = {W: "White", B: "Black"}
    for (actor, finish), text in said.items():
        assert ",)" not in text and ", )" not in text, text
        assert text.endswith(").") and f"({name[actor]} " in text
        assert ("finishes their actions" in text) == finish and ("stops now" in text) == (not finish)
        assert ("the other player still takes their turn" in text) == (actor == W)


def test_limits_can_be_skipped_at_game_end() -> None:
    doc = twelfth_position(B, options={"limits.applyAtGameEnd": False})
    set_supply(doc, B, dates=9, salt=5, pepper=5, gold=5)
    s = load(doc)
    s, _ = run(s, {"type": "use", "slot": [1, 2]}, {"type": "play", "card": "T41", "pay": {"salt": 1, "pepper": 1},
                                                     "row": 3}, {"type": "done"})  # fmt: skip
    assert s.stage == "over" and s.supply(B).gold == 5 and s.supply(B).goods == 17


def test_actions_after_the_end_are_refused() -> None:
    doc = doc_of(fresh())
    doc.update(stage="over", actor=None)
    s = load(doc)
    assert game().legal_actions(s) == []
    error = refused(s, {"type": "done"}, "TG-END1")  # no twelfth card was laid: the robber's lap ended it
    assert error.message == "The game is over; no more actions."  # loaded as over: the robber is not on 16


def test_malformed_actions_are_invalid() -> None:
    s = fresh()
    g = game()
    for bad in ({"type": "fly"}, {"type": "place", "card": "two"}, {"type": "place", "card": 17},
                {"type": "use", "slot": [0, 4]}, {"type": "draw", "deck": "goods", "card": "X99"}):  # fmt: skip
        with pytest.raises(InvalidAction):
            g.apply(s, bad)
    with pytest.raises(InvalidAction):
        g.apply(s, {"type": "place", "card": 2, "player": "green"})


# -- naming the player, and the clause an out-of-place exchange cites ------------------
def test_session_refuses_a_named_wrong_player_with_the_turn_clause() -> None:
    """docs/games/targi.md: any action may name its player; the wrong one is refused with TG-TURN."""
    from companion.session import Session

    session = Session.new("targi", [W, B])
    for card in ("G01", "T41", "G02", "T42", "G03", "T43", "G04", "T44", "G06"):
        session.act({"type": "draw", "deck": "goods" if card.startswith("G") else "tribe", "card": card})
    before = session.document()
    with pytest.raises(IllegalAction) as err:
        session.act({"type": "place", "card": 2, "player": B})
    assert err.value.rule == "TG-TURN"
    assert session.document() == before
    ruling = session.check({"type": "place", "card": 2, "player": B})
    assert not ruling.legal and ruling.rules == ("TG-TURN",)
    session.act({"type": "place", "card": 2, "player": W})
    assert session.document()["targi"] == [{"card": 2, "player": W}]


def test_an_exchange_outside_trader_or_silversmith_cites_the_clause_that_applies() -> None:
    """TG-Q16 is the Silversmith's one exchange; elsewhere the phase (TG-A1) or the open action (TG-A4) applies."""
    s = load(actions_doc(W, targi=[(3, W)], round_=3))
    s, _ = act(s, {"type": "done"})
    assert s.stage == "raid"
    refused(s, {"type": "trade", "give": {"salt": 3}, "get": {"gold": 1}}, "TG-A1")
    s = load(actions_doc(W, targi=[(14, W), (9, W)], round_=2))
    s, _ = run(s, {"type": "use", "card": 14}, {"type": "draw", "deck": "tribe", "card": "T01"})
    refused(s, {"type": "trade", "give": {"salt": 3}, "get": {"gold": 1}}, "TG-A4")
    s = load(actions_doc(W, targi=[(3, W), (5, W)], round_=2))  # the Targi on 5 keeps white's turn open
    s, _ = run(s, {"type": "use", "card": 3}, {"type": "trade", "give": {"salt": 2}, "get": {"vp": 1}})
    assert s.stage == "actions" and s.actor == W and not s.tasks
    refused(s, {"type": "trade", "give": {"salt": 2}, "get": {"vp": 1}}, "TG-Q16")


def test_a_refusal_opening_with_a_player_writes_it_as_a_name() -> None:
    """Events say "White uses ..."; a refusal read out at the table must not open with "white" either."""
    s = load(actions_doc(W, targi=[(5, W)], round_=2))
    err = refused(s, {"type": "use", "card": 3}, "TG-A2")
    assert err.message.startswith("White has no Targi on card 3")


def test_asking_about_a_card_one_cannot_use_names_it_in_full() -> None:
    """The touchscreen's cards show what they do in few words ("Smith", "2 VP" over "3P/1D 1G"): a tap on one
    asks why not, and the answer names the card, a centre card with its symbol, VP and costs in words."""
    doc = actions_doc(W, targi=[(5, W)], round_=2)
    set_centre(doc, 3, 2, "T36")
    set_centre(doc, 2, 1, "G09")
    s = load(doc)
    assert refused(s, {"type": "use", "card": 3}, "TG-A2").message == "White has no Targi on card 3 (Silversmith) now."
    assert refused(s, {"type": "use", "slot": [3, 2]}, "TG-A3").message == (
        "White has no tribe marker on centre 3-2, which holds Dune Dancer (targia, 2 VP, costs 3 pepper or "
        "1 date and 1 gold).")
    assert refused(s, {"type": "use", "slot": [2, 1]}, "TG-A3").message == (
        "White has no tribe marker on centre 2-1, which holds Dates and Pepper: 1 date and 1 pepper.")


def test_trader_two_for_one_of_the_same_good_cites_the_decision() -> None:
    """Two goods for one good of the same kind is refused under TG-Q17, the decision that settles it."""
    s = load(actions_doc(W, targi=[(9, W)], round_=2))
    s, _ = act(s, {"type": "use", "card": 9})
    refused(s, {"type": "trade", "give": {"salt": 2}, "get": {"salt": 1}}, "TG-Q17")
    refused(s, {"type": "trade", "give": {"salt": 2}, "get": {"gold": 1}}, "TG-B6")


def test_an_exchange_the_trader_does_not_offer_says_what_it_does() -> None:
    """"...is not an exchange the Trader offers White now" left the table working out the rates themselves."""
    doc = actions_doc(W, targi=[(9, W)], round_=2)
    set_supply(doc, W, dates=0, salt=2, pepper=0)
    s, _ = act(load(doc), {"type": "use", "card": 9})
    error = refused(s, {"type": "trade", "give": {"salt": 1}, "get": {"gold": 1}}, "TG-B6")
    assert error.message == ("Giving 1 salt for 1 gold is not an exchange the Trader offers White now; "
                             "White may give 2 salt for 1 date or 1 pepper.")
    set_supply(doc, W, dates=0, salt=3, pepper=0)
    s, _ = act(load(doc), {"type": "use", "card": 9})
    error = refused(s, {"type": "trade", "give": {"salt": 2}, "get": {"gold": 1}}, "TG-B6")
    assert error.message.endswith("; White may give 3 salt for 1 gold, or 2 salt for 1 date or 1 pepper.")


def test_the_trader_refusal_names_its_exchanges_by_their_two_rates() -> None:
    """With two goods or more to give, each exchange was listed ("2 dates for 1 salt or 2 dates for 1 pepper or 2
    salt for 1 date or 2 salt for 1 pepper and 2 more"): 27 words in one sentence aloud, and two left out."""
    doc = actions_doc(W, targi=[(9, W)], round_=2)
    set_supply(doc, W, dates=3, salt=2, pepper=4)
    s, _ = act(load(doc), {"type": "use", "card": 9})
    error = refused(s, {"type": "trade", "give": {"salt": 1}, "get": {"gold": 1}}, "TG-B6")
    assert error.message.endswith("; White may give 3 dates or 3 pepper for 1 gold, or 2 dates, 2 salt or 2 pepper "
                                  "for 1 other good.")
    for sentence in spoken_form(error.message).split(". "):
        assert len(sentence.split()) <= 25, sentence


def test_one_good_is_said_as_one_good() -> None:
    """The table read "First Raid: each player loses 1 goods" and "return 1 goods to the supply"."""
    s = load(raid_position())
    _, events = act(s, {"type": "done"})
    assert "First Raid: each player loses 1 good or 1 VP." in [e.text for e in events]
    doc = doc_of(fresh())
    doc.update(round=3, robber=3, start=W, actor=None, stage="limits", queue=[W])
    set_supply(doc, W, dates=5, salt=4, pepper=2)  # 11 goods: one over the limit
    s = load(doc)
    assert game().pending(s).text == "White: return 1 good to the supply (end-of-round limit)."
    with pytest.raises(IllegalAction, match=r"^White must return exactly 1 good from those they hold\.$"):
        game().apply(s, {"type": "return", "goods": {"dates": 2}})
    set_supply(doc, W, dates=5, salt=4, pepper=3)
    assert game().pending(load(doc)).text == "White: return 2 goods to the supply (end-of-round limit)."
