"""Every Targi worked case (TG-ATnn) of DECISIONS.md section 4.3, one test each."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction
from companion.games.targi.scoring import breakdown, result
from companion.games.targi.state import Supply
from tests.games.targi.helpers import (
    B,
    W,
    act,
    actions_doc,
    doc_of,
    fresh,
    game,
    load,
    run,
    set_centre,
    set_supply,
    strip,
)


def test_TG_AT02_raid_2_paid_in_vp() -> None:  # noqa: N802 - named after the worked case
    doc = actions_doc(W, targi=[(7, W)], round_=6)  # robber on 7: the next move reaches corner 8 (Raid 2)
    set_supply(doc, W, dates=1, salt=0, pepper=0, vp=2)
    s = load(doc)
    before_black = s.supply(B)
    s, events = act(s, {"type": "done"})
    # The amulet passed to black, who pays first and may choose goods or VP.
    pending = game().pending(s)
    assert s.stage == "raid" and pending.kind == "choose" and pending.player == B
    s, events = act(s, {"type": "pay", "pay": {"vp": 1}})
    assert s.supply(B).vp == before_black.vp - 1 and s.supply(B).goods == before_black.goods
    # White cannot give 2 goods, so the only payable option (1 VP) is taken without asking.
    assert s.supply(W).vp == 1 and s.supply(W).goods == 1
    assert any("TG-R2" in e.rules and W in e.players for e in events)
    assert s.stage == "place" and s.robber == 9 and s.round == 7


def test_TG_AT04_placement_legality() -> None:  # noqa: N802 - named after the worked case
    doc = doc_of(fresh())
    doc.update(round=2, robber=2, start=W, actor=B, targi=[{"card": 6, "player": W}])
    s = load(doc)
    g = game()
    legal = {a["card"] for a in g.legal_actions(s)}
    assert legal.isdisjoint({2, 4, 8, 12, 16, 6, 14})
    expect = {2: "TG-P2", 4: "TG-P4", 16: "TG-P4", 6: "TG-P3", 14: "TG-P5"}
    for card, rule in expect.items():
        ruling = g.check(s, {"type": "place", "card": card})
        assert not ruling.legal and ruling.rules == (rule,), (card, ruling)
    doc["actor"] = W
    s = load(doc)
    assert 14 in {a["card"] for a in g.legal_actions(s)}  # opposite one's own Targi is allowed (TG-Q6)
    allowed = g.check(s, {"type": "place", "card": 14})
    assert allowed.legal and allowed.rules == ("TG-P1", "TG-Q6")  # and the ruling says which decision allows it
    assert g.check(s, {"type": "place", "card": 13}).rules == ("TG-P1",)  # facing nothing of White's


def test_TG_AT05_two_intersections() -> None:  # noqa: N802 - named after the worked case
    doc = doc_of(fresh())
    doc.update(round=4, robber=5, start=W, actor=W)
    doc["targi"] = [{"card": 2, "player": W}, {"card": 3, "player": W}, {"card": 7, "player": B},
                    {"card": 13, "player": B}]  # fmt: skip
    s = load(doc)
    # white: 2 (column 2), 3 (column 3) and now 6 (row 2); black's 7 and 13 face each other on row 3
    s, _ = run(s, {"type": "place", "card": 6}, {"type": "place", "card": 15})
    assert s.stage == "actions"
    assert sorted(i for i, p in s.markers if p == W) == [4, 5]  # C(2,2) and C(2,3)
    assert sorted(i for i, p in s.markers if p == B) == []  # black watches only rows


def test_TG_AT07_zero_intersections() -> None:  # noqa: N802 - named after the worked case
    doc = doc_of(fresh())
    doc.update(round=4, robber=5, start=W, actor=W)
    doc["targi"] = [{"card": 1, "player": W}, {"card": 2, "player": W}, {"card": 6, "player": B},
                    {"card": 7, "player": B}, {"card": 15, "player": B}]  # fmt: skip
    s = load(doc)
    s, events = act(s, {"type": "place", "card": 3})
    assert s.stage == "actions"
    assert not [m for m in s.markers if m[1] == W]
    assert any("TG-Q7" in e.rules and W in e.players for e in events)


def test_TG_AT08_replacing_central_cards() -> None:  # noqa: N802 - named after the worked case
    doc = actions_doc(W, markers=[(1, 1, W)])
    set_centre(doc, 1, 1, "G05")  # 2 salt
    s = load(doc)
    salt = s.supply(W).salt
    s, events = act(s, {"type": "use", "slot": [1, 1]})
    assert s.supply(W).salt == salt + 2
    assert dict(s.goods.discard) == {"G05": 1}
    slot = s.centre[0]
    assert slot.face_down and slot.deck == "tribe"
    assert any("TG-Q29" in e.rules for e in events)
    # both players are done: the round ends and the face-down card is turned up
    g = game()
    pending = g.pending(s)
    assert pending.kind == "draw" and pending.deck == "tribe"
    candidates = {a["card"] for a in g.legal_actions(s)}
    assert "T41" not in candidates and "T05" in candidates  # T41 lies face up in the centre
    s, _ = act(s, {"type": "draw", "deck": "tribe", "card": "T05"})
    assert s.centre[0].card == "T05" and not s.centre[0].face_down
    assert s.round == 3 and s.stage == "place"


def test_TG_AT09_trader() -> None:  # noqa: N802 - named after the worked case
    doc = actions_doc(W, targi=[(9, W)])
    set_supply(doc, W, salt=6, dates=2, pepper=0, gold=0)
    s = load(doc)
    s, _ = run(
        s,
        {"type": "use", "card": 9},
        {"type": "trade", "give": {"salt": 3}, "get": {"gold": 1}},
        {"type": "trade", "give": {"salt": 3}, "get": {"gold": 1}},
        {"type": "trade", "give": {"dates": 2}, "get": {"pepper": 1}},
    )
    sup = s.supply(W)
    assert (sup.salt, sup.dates, sup.pepper, sup.gold) == (0, 0, 1, 2)
    with pytest.raises(IllegalAction) as refusal:
        act(s, {"type": "trade", "give": {"pepper": 2}, "get": {"salt": 1}})
    assert refusal.value.rule == "TG-B6"


def test_TG_AT10_silversmith() -> None:  # noqa: N802 - named after the worked case
    doc = actions_doc(W, targi=[(3, W), (15, W)])
    set_supply(doc, W, pepper=4, gold=2)
    s = load(doc)
    vp = s.supply(W).vp
    s, _ = run(s, {"type": "use", "card": 3}, {"type": "trade", "give": {"pepper": 4}, "get": {"vp": 3}})
    assert s.supply(W).vp == vp + 3 and s.supply(W).pepper == 0
    ruling = game().check(s, {"type": "trade", "give": {"gold": 1}, "get": {"vp": 2}})
    assert not ruling.legal and ruling.rules == ("TG-Q16",)


def test_TG_AT11_end_of_round_limits() -> None:  # noqa: N802 - named after the worked case
    doc = actions_doc(W, targi=[(15, W)])
    set_supply(doc, W, dates=4, salt=4, pepper=4, gold=4)
    s = load(doc)
    s, _events = act(s, {"type": "done"})
    assert s.stage == "limits" and s.supply(W).gold == 3
    g = game()
    assert g.pending(s).player == W
    legal = strip(g.legal_actions(s))
    assert {"type": "return", "goods": {"dates": 1, "salt": 1}} in legal
    assert all(sum(a["goods"].values()) == 2 for a in legal)
    s, _ = act(s, {"type": "return", "goods": {"dates": 1, "salt": 1}})
    sup = s.supply(W)
    assert sup.goods == 10 and sup.gold == 3 and (sup.dates, sup.salt, sup.pepper) == (3, 3, 4)


def test_TG_AT13_noble_in_round_one() -> None:  # noqa: N802 - named after the worked case
    s = fresh()
    g = game()
    assert s.round == 1 and s.robber == 1
    assert 1 not in {a["card"] for a in g.legal_actions(s)}
    ruling = g.check(s, {"type": "place", "card": 1})
    assert not ruling.legal and ruling.rules == ("TG-P2",)


def test_TG_AT14_row_scoring() -> None:  # noqa: N802 - named after the worked case
    """Two full rows score 4 and 2; the row of three scores nothing (TG-Q22)."""
    g = game()
    sup = Supply(rows=(("T10", "T11", "T12", "T14"), ("T02", "T13", "T20", "T38"), ("T01", "T03", "T15")))
    assert breakdown(g.cat, sup)["rows"] == 6


def test_TG_AT15_tie_break() -> None:  # noqa: N802 - named after the worked case
    doc = doc_of(fresh())
    doc.update(stage="over", actor=None)
    set_supply(doc, W, vp=40, gold=2, dates=5, salt=0, pepper=0)
    set_supply(doc, B, vp=40, gold=2, dates=7, salt=0, pepper=0)
    g = game()
    res = result(g.cat, load(doc))
    assert res["winner"] == B and res["decided_by"] == "goods"
    set_supply(doc, B, dates=5)
    res = g.pending(load(doc)).result
    assert res["winner"] is None and res["draw"] is True


def test_TG_AT17_fourth_raid_ends_the_game() -> None:  # noqa: N802 - named after the worked case
    doc = actions_doc(W, targi=[(15, W)], round_=12)
    assert doc["robber"] == 15
    set_supply(doc, B, gold=0, vp=2, dates=0, salt=0, pepper=0)
    s = load(doc)
    s, events = act(s, {"type": "done"})
    assert s.robber == 16 and s.stage == "raid"
    g = game()
    # the amulet has passed: black is start player, but black can pay neither (no gold, 2 VP < 3); white pays
    # from what white held, and black's forfeit follows, so its VP never pay this raid (TG-Q3, TG-Q34)
    assert s.start == B
    assert not any("TG-R3" in e.rules for e in events)
    assert s.supply(W).vp == 4  # white forwent Council Fire
    options = strip(g.legal_actions(s))
    assert options == [{"type": "pay", "pay": {"gold": 1}}, {"type": "pay", "pay": {"vp": 3}}]
    s, events = act(s, {"type": "pay", "pay": {"gold": 1}})
    assert any("TG-R3" in e.rules for e in events)
    assert s.supply(W).vp == 4 + 3  # black's unpaid raid
    assert s.stage == "over" and s.round == 12
    assert any("TG-END1" in e.rules for e in events)
    assert g.pending(s).kind == "over"
