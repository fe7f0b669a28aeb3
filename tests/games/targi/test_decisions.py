"""Targi decisions of DECISIONS.md 4.2 that no worked case plays through."""

from __future__ import annotations

from tests.games.targi.helpers import (
    B,
    W,
    act,
    actions_doc,
    doc_of,
    fresh,
    game,
    load,
    set_centre,
    set_supply,
    strip,
)


def test_tg_q30_both_start_with_the_published_supplies_and_a_g_t_g_centre() -> None:
    g = game()
    s = g.setup([W, B], g.resolve_options({}))
    for p in (W, B):
        sup = s.supply(p)
        assert (sup.dates, sup.salt, sup.pepper, sup.gold, sup.vp) == (2, 2, 2, 1, 4)
    assert g.pending(s).deck == "goods"  # centre 1-1 is a goods card
    ruling = g.check(s, {"type": "draw", "deck": "tribe", "card": "T41"})
    assert not ruling.legal and ruling.rules
    s = fresh()
    decks = ["goods" if c.card.startswith("G") else "tribe" for c in s.centre]
    assert decks == ["goods", "tribe"] * 4 + ["goods"]
    assert not any(c.face_down for c in s.centre)
    assert (s.round, s.start, s.robber) == (1, W, 1)


def test_tg_q31_the_robber_blocks_its_own_card_only() -> None:
    """The robber on card 2 leaves the card opposite it open and its column still crosses rows."""
    doc = doc_of(fresh())
    doc.update(round=2, robber=2, start=W, actor=B,
               targi=[{"card": 10, "player": W}, {"card": 5, "player": B}, {"card": 14, "player": W},
                      {"card": 7, "player": B}, {"card": 9, "player": W}])
    s = load(doc)
    g = game()
    assert not g.check(s, {"type": "place", "card": 2}).legal
    s, _ = act(s, {"type": "place", "card": 13})
    assert sorted(tuple(m["slot"]) for m in g.to_document(s)["markers"] if m["player"] == W) == [(2, 2), (2, 3)]


def test_tg_q21_a_card_goes_to_the_leftmost_free_place_of_the_chosen_row() -> None:
    doc = actions_doc(W, markers=[(1, 2, W)])
    set_centre(doc, 1, 2, "T04")  # Hidden Spring: 2 salt or 1 gold
    set_supply(doc, W, rows=[["T10", "T11", "T12", "T14"], ["T02"], []], gold=3)
    s = load(doc)
    s, _ = act(s, {"type": "use", "slot": [1, 2]})
    ruling = game().check(s, {"type": "play", "card": "T04", "pay": {"gold": 1}, "row": 1})
    assert not ruling.legal and ruling.rules == ("TG-T4",)
    s, _ = act(s, {"type": "play", "card": "T04", "pay": {"gold": 1}, "row": 2})
    assert s.supply(W).rows == (("T10", "T11", "T12", "T14"), ("T02", "T04"), ())


def test_tg_q26_gold_decides_a_tie_before_goods() -> None:
    doc = doc_of(fresh())
    doc.update(stage="over", actor=None)
    set_supply(doc, W, vp=40, gold=3, dates=0, salt=0, pepper=0)
    set_supply(doc, B, vp=40, gold=2, dates=9, salt=0, pepper=0)
    res = game().pending(load(doc)).result
    assert res["winner"] == W and res["decided_by"] == "gold"


def test_tg_q1_the_house_ring_keeps_the_published_positions() -> None:
    """Card 1 is the Noble, 13 the Caravan, 14 Tribal Expansion; the four corners are the raids."""
    border = game().cat.border
    assert (border[1].code, border[13].code, border[14].code) == ("NOBLE", "CARAVAN", "TRIBAL_EXPANSION")
    assert [n for n in range(1, 17) if border[n].code == "RAID"] == [4, 8, 12, 16]


def test_tg_q2_the_robber_raids_the_corners_in_order_first_to_fourth() -> None:
    """Each corner the robber reaches takes what its raid takes: 1 good, 2 goods, 3 goods or 1 gold, else VP."""
    expected = {4: (1, "goods", 1, 1), 8: (2, "goods", 2, 1), 12: (3, "goods", 3, 2), 16: (4, "gold", 1, 3)}
    for corner, (k, kind, n, vp) in expected.items():
        s = load(actions_doc(W, targi=[(corner - 1, W)], round_={4: 3, 8: 6, 12: 9, 16: 12}[corner]))
        s, events = act(s, {"type": "done"})
        assert s.stage == "raid" and s.robber == corner
        card = game().cat.border[corner]
        assert card.params["k"] == k
        assert game().engine.raid_amounts(s, B) == (kind, n, vp)
        assert any("TG-R2" in e.rules and f"or {vp} VP" in e.text for e in events)


def test_tg_q8_q35_at_most_two_markers_and_one_when_own_targi_face_each_other() -> None:
    """Two rows and one column make two crossings; own Targi facing each other on one row make one (TG-Q6)."""
    doc = doc_of(fresh())
    doc.update(round=2, robber=2, start=W, actor=W)
    doc["targi"] = [{"card": 5, "player": W}, {"card": 15, "player": W}, {"card": 9, "player": B},
                    {"card": 3, "player": B}, {"card": 10, "player": B}]  # fmt: skip
    s, events = act(load(doc), {"type": "place", "card": 1})
    assert [i for i, p in s.markers if p == W] == [0]  # row 1 (5 and 15) crosses column 1 (card 1) once
    # The one marker cites TG-Q6, as the table counting three Targi asks why there is only one.
    assert any(e.text == "White puts a tribe marker on centre 1-1." and e.rules == ("TG-M1", "TG-Q6") for e in events)
    assert [i for i, p in s.markers if p == B] == []  # black holds columns only
    doc["targi"][0] = {"card": 6, "player": W}  # rows 1 and 2 now, with column 1: two crossings
    s, more = act(load(doc), {"type": "place", "card": 1})
    assert sorted(i for i, p in s.markers if p == W) == [0, 3]
    assert any(e.rules == ("TG-M1",) and e.text.startswith("White puts tribe markers") for e in more)  # none face
    assert any(e.rules == ("TG-M1", "TG-Q7") and "Black" in e.text for e in events)


def test_tg_q10_the_start_players_used_card_is_face_down_before_the_other_acts() -> None:
    """White uses centre 1-1 first; it is replaced face down at once, and Black's markers stand elsewhere."""
    doc = actions_doc(W, targi=[(2, W), (7, B)], markers=[(1, 1, W), (3, 3, B)])
    s = load(doc)
    s, _ = act(s, {"type": "use", "slot": [1, 1]})
    s, _ = act(s, {"type": "done"})
    assert s.actor == B and s.centre[0].face_down and s.centre[0].deck == "tribe"
    assert not s.centre[8].face_down
    s, _ = act(s, {"type": "use", "slot": [3, 3]})
    assert s.supply(B).pepper == 4  # centre 3-3 is G06, 2 pepper


def test_tg_q12_a_goods_card_gives_goods_gold_a_vp_or_one_good_of_choice() -> None:
    """Used in the centre, each kind of goods card gives what it shows; Open Market lets the player pick."""
    for card, field, gain in (("G11", "gold", 1), ("G12", "vp", 1), ("G07", "dates", 1)):
        doc = actions_doc(W, markers=[(1, 1, W)])
        set_centre(doc, 1, 1, card)
        s, _ = act(load(doc), {"type": "use", "slot": [1, 1]})
        assert getattr(s.supply(W), field) == getattr(load(doc).supply(W), field) + gain
    doc = actions_doc(W, markers=[(1, 1, W)])
    set_centre(doc, 1, 1, "G10")
    s, _ = act(load(doc), {"type": "use", "slot": [1, 1]})
    assert {tuple(a["goods"].items()) for a in game().legal_actions(s)} == {(("dates", 1),), (("salt", 1),),
                                                                              (("pepper", 1),)}
    s, events = act(s, {"type": "take", "goods": {"pepper": 1}})
    assert s.supply(W).pepper == 3 and any(e.rules == ("TG-G1",) for e in events)


def test_tg_q27_gold_and_vp_are_not_limited_by_the_tokens_in_the_box() -> None:
    """Eight gold tokens and fifteen VP tokens are in the box; the count goes on past them."""
    doc = actions_doc(W, targi=[(9, W), (3, W), (7, B)])  # Black still to act: the round goes on
    set_supply(doc, W, gold=8, salt=7, vp=15)
    s = load(doc)
    s, _ = act(s, {"type": "use", "card": 9})
    s, _ = act(s, {"type": "trade", "give": {"salt": 3}, "get": {"gold": 1}})
    s, _ = act(s, {"type": "finish"})
    s, _ = act(s, {"type": "use", "card": 3})
    s, _ = act(s, {"type": "trade", "give": {"salt": 4}, "get": {"vp": 3}})
    assert (s.supply(W).gold, s.supply(W).vp) == (9, 18)


def test_tg_q4_the_robber_stands_on_each_border_card_in_turn_for_twelve_rounds_at_most() -> None:
    """Each round's end moves the robber one card on, and onto a corner's raid after rounds 3, 6, 9 and 12:
    rounds 1-3 on cards 1-3, 4-6 on 5-7, 7-9 on 9-11, 10-12 on 13-15. Each step cites the schedule."""
    for round_ in range(1, 13):
        doc = actions_doc(W, round_=round_)
        doc["done"] = [B]
        s, events = act(load(doc), {"type": "done"})
        robber = round_ + (round_ - 1) // 3 + 1
        assert s.robber == robber
        moved = [e for e in events if e.text.startswith("The robber moves to card")]
        assert moved and moved[0].rules == ("TG-R1", "TG-Q4")
        if round_ % 3:
            assert (s.stage, s.round) == ("place", round_ + 1)
            continue
        assert (s.stage, s.round) == ("raid", round_)  # a corner: the raid, then the next round or the end
        events = []
        while s.stage == "raid":  # each player pays in VP, the last of its offered payments
            s, more = act(s, strip(game().legal_actions(s))[-1])
            events += more
        if round_ < 12:
            assert (s.stage, s.round, s.robber) == ("place", round_ + 1, robber + 1)
            assert any(e.rules == ("TG-R4", "TG-Q4") for e in events)
        else:
            assert game().pending(s).is_over  # no thirteenth round
