"""Targi decisions of DECISIONS.md 4.2 that no worked case plays through."""

from __future__ import annotations

from tests.games.targi.helpers import B, W, act, actions_doc, doc_of, fresh, game, load, set_centre, set_supply


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
