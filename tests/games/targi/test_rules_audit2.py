"""Rules audit of Targi, second pass: the player count, the end announcement, prompts and refusals."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import InvalidPosition
from companion.protocol import Referee
from tests.games.targi.helpers import B, W, act, actions_doc, game, load, refused, set_centre, set_supply


# -- TG-1: two players ---------------------------------------------------------------------------
def test_one_or_three_players_are_refused_with_the_set_up_clause_and_the_game_goes_on() -> None:
    """Targi alone of the five games refused a wrong player count citing no clause at all."""
    referee = Referee()
    assert referee.handle({"cmd": "new", "game": "targi", "players": ["white", "black"]})["ok"]
    before = referee.handle({"cmd": "state"})["state"]
    for players in (["white"], ["white", "black", "red"]):
        error = referee.handle({"cmd": "new", "game": "targi", "players": players})["error"]
        assert error["code"] == "bad_request" and error["rule"] == "TG-1", error
        assert f"Targi needs 2 players, not {len(players)}" in error["message"]
        assert referee.handle({"cmd": "state"})["state"] == before
    clause = referee.handle({"cmd": "rules", "game": "targi", "clause": "TG-1"})
    assert clause["ok"] and "two players" in str(clause)


# -- TG-T1/TG-T2/TG-B1/TG-Q20: the prompt for a tribe card offers what may be done --------------------
def _tribe_prompt(hand: list[str] = (), source: str = "centre", **supply: Any) -> tuple[str, set[str]]:
    if source == "noble":
        doc = actions_doc(W, targi=[(1, W)])
        action = {"type": "use", "card": 1}
    else:
        doc = actions_doc(W, markers=[(1, 2, W)])  # centre 1-2 holds Leather Workshop (1 salt, 1 pepper)
        action = {"type": "use", "slot": [1, 2]}
    set_supply(doc, W, hand=list(hand), **supply)
    if len([c for row in supply.get("rows", []) for c in row]) == 12:
        doc["ender"] = W  # a full display: White laid the twelfth card earlier this round
    s, _ = act(load(doc), action)
    return game().pending(s).text, {a["type"] for a in game().legal_actions(s)}


def test_the_tribe_card_prompt_offers_all_three_ways_when_all_are_open() -> None:
    assert _tribe_prompt() == ("White: play, hold or discard Leather Workshop.", {"play", "hold", "discard"})


def test_the_tribe_card_prompt_leaves_out_holding_with_a_full_hand() -> None:
    """It read "play, hold or discard the tribe card", and a hold was refused [TG-T2]."""
    text, kinds = _tribe_prompt(hand=["T07"])
    assert kinds == {"play", "discard"}
    assert text == "White: play or discard Leather Workshop (the hand is full)."


def test_the_tribe_card_prompt_says_when_the_card_cannot_be_paid_for() -> None:
    text, kinds = _tribe_prompt(hand=["T07"], salt=0)
    assert kinds == {"discard"}
    assert text == "White: discard Leather Workshop (White cannot pay for it and the hand is full)."
    text, kinds = _tribe_prompt(salt=0)
    assert kinds == {"hold", "discard"}
    assert text == "White: hold or discard Leather Workshop (White cannot pay for it)."


def test_the_noble_prompt_names_the_held_card_and_never_offers_to_hold_it() -> None:
    """At the Noble a held card is played or discarded, not held again [TG-B1]; it was offered "hold"."""
    text, kinds = _tribe_prompt(hand=["T07"], source="noble")  # Clay Channel: 2 dates, 2 salt or 2 gold
    assert kinds == {"play", "discard"}
    assert text == "White: play or discard the card in hand, Clay Channel."
    text, kinds = _tribe_prompt(hand=["T07"], source="noble", dates=0, gold=0)
    assert kinds == {"discard"}
    assert text == "White: discard the card in hand, Clay Channel (White cannot pay for it)."


def test_the_tribe_card_prompt_says_a_full_display_shuts_playing() -> None:
    rows = [["T10", "T11", "T12", "T14"], ["T01", "T02", "T03", "T05"], ["T19", "T20", "T21", "T23"]]
    text, kinds = _tribe_prompt(rows=rows)
    assert kinds == {"hold", "discard"}
    assert text == "White: hold or discard Leather Workshop (the display is full)."


# -- TG-S1..S3, TG-Q26: the end announcement cites the tie-breaks only when points were equal ----------
@pytest.mark.parametrize(
    ("white", "black", "decided", "rules"),
    [
        ({"vp": 10, "gold": 0}, {"vp": 8, "gold": 0}, "points", ("TG-S1", "TG-S2")),
        ({"vp": 2, "gold": 3}, {"vp": 2, "gold": 2}, "gold", ("TG-S1", "TG-S2", "TG-S3", "TG-Q26")),
        ({"vp": 2, "gold": 2, "dates": 3}, {"vp": 2, "gold": 2}, "goods", ("TG-S1", "TG-S2", "TG-S3", "TG-Q26")),
        ({"vp": 2, "gold": 2}, {"vp": 2, "gold": 2}, "draw", ("TG-S1", "TG-S2", "TG-S3", "TG-Q26")),
    ],
)
def test_the_final_announcement_cites_the_tie_breaks_only_when_they_decide(white, black, decided, rules) -> None:
    """A win on points cited TG-S3 (ties); a win on gold or goods did not cite TG-Q26 (counted after limits)."""
    doc = actions_doc(W, targi=[(15, W)], round_=12)
    set_supply(doc, W, **white)
    set_supply(doc, B, **black)
    s, events = act(load(doc), {"type": "done"})  # round 12 ends, the robber raids card 16 and the game ends
    assert s.stage == "over"
    assert game().pending(s).result["decided_by"] == decided
    (win,) = [e for e in events if e.kind == "win"]
    assert win.rules == rules


# -- TG-B4/TG-Q11: Fata Morgana with a marker but nowhere to move it ----------------------------------
def test_fata_morgana_with_no_free_card_says_the_marker_has_nowhere_to_go() -> None:
    """It said "White has no tribe marker that Fata Morgana could move" of a player whose marker stood there."""
    doc = actions_doc(W, targi=[(6, W)], markers=[(1, 1, W), (1, 2, B), (1, 3, B)])
    for r in (2, 3):
        for c in (1, 2, 3):
            set_centre(doc, r, c, None)  # both decks ran dry: the spaces stay empty
    s, events = act(load(doc), {"type": "use", "card": 6})
    (said,) = [e for e in events if "Fata Morgana" in e.text and e.kind == "info"]
    assert said.text == "White's tribe marker has no free face-up centre card to move to, so Fata Morgana does nothing."
    assert said.rules == ("TG-B4", "TG-Q11") and not s.tasks
    doc["markers"] = [m for m in doc["markers"] if m["player"] == B]  # no marker at all: said as before
    s, events = act(load(doc), {"type": "use", "card": 6})
    assert "White has no tribe marker that Fata Morgana could move." in [e.text for e in events]


# -- TG-T2 with a wider hand (the house Caravan Bell) -----------------------------------------------------
def test_a_hold_with_a_full_hand_of_two_says_two_cards_are_held() -> None:
    """With the Caravan Bell's hand of two full, a hold was refused as "White already holds a tribe card"."""
    doc = actions_doc(W, markers=[(1, 2, W)])
    set_supply(doc, W, hand=["T07", "T02"], rows=[["T18"], [], []])
    s, _ = act(load(doc), {"type": "use", "slot": [1, 2]})
    err = refused(s, {"type": "hold", "card": "T41"}, "TG-Q32")
    assert err.message == ("White already holds 2 tribe cards, as many as their hand takes (Clay Channel and Rope "
                           "and Bucket); a further card must be played or discarded.")
    doc = actions_doc(W, markers=[(1, 2, W)])
    set_supply(doc, W, hand=["T07"])
    s, _ = act(load(doc), {"type": "use", "slot": [1, 2]})
    err = refused(s, {"type": "hold", "card": "T41"}, "TG-Q32")
    assert err.message == "White already holds a tribe card (Clay Channel); a further card must be played or discarded."


# -- TG-TURN: a card turned up in the name of a player nobody plays ------------------------------------
def test_a_draw_naming_a_player_nobody_plays_is_refused_and_the_centre_stays_as_it_was() -> None:
    """{"type": "draw", ..., "player": "red"} was taken as the table's draw, while every other action naming
    'red' was refused; a draw naming White or Black (the table's hands) is still the table's."""
    referee = Referee()
    assert referee.handle({"cmd": "new", "game": "targi", "players": ["white", "black"]})["ok"]
    before = referee.handle({"cmd": "state"})["state"]
    draw = {"type": "draw", "deck": "goods", "card": "G01"}
    answer = referee.handle({"cmd": "act", "action": {**draw, "player": "red"}})
    assert answer["error"]["code"] == "invalid_action" and answer["error"]["rule"] == "TG-TURN"
    assert "red" in answer["error"]["message"]
    assert referee.handle({"cmd": "state"})["state"] == before
    answer = referee.handle({"cmd": "act", "action": {**draw, "player": "black"}})
    assert answer["ok"]


# -- TG-END2: the loader and the twelfth card -------------------------------------------------------------
FULL = [["T10", "T11", "T12", "T14"], ["T01", "T02", "T03", "T05"], ["T19", "T20", "T21", "T23"]]


def test_the_loader_refuses_an_ender_without_a_full_display() -> None:
    """A document naming Black as ender with no tribe card laid loaded, and the game ended after the round."""
    doc = actions_doc(W, targi=[(13, W)])
    doc["ender"] = B
    with pytest.raises(InvalidPosition) as err:
        load(doc)
    assert any(p.startswith("ender: black has 0 tribe cards") for p in err.value.problems)


def test_the_loader_refuses_a_full_display_without_an_ender() -> None:
    """A full display with no ender loaded, and the game ran on past the round that should have been its last."""
    doc = actions_doc(W, targi=[(13, W)])
    set_supply(doc, B, rows=FULL)
    with pytest.raises(InvalidPosition) as err:
        load(doc)
    assert any(p.startswith("ender: black's display is full") for p in err.value.problems)
    doc["ender"] = B
    s, _ = act(load(doc), {"type": "done"})  # named, it loads and the game ends with this round
    assert s.stage == "over"


# -- TG-Q28: an empty tribe deck whose discard is not reused ----------------------------------------------
def test_an_empty_tribe_deck_with_reshuffle_off_does_not_call_its_discard_empty() -> None:
    """With tribe.reshuffle off the warnings said "The tribe deck and its discard are empty" of a discard
    pile holding every card."""
    doc = actions_doc(W, targi=[(14, W)], markers=[(1, 1, W)], options={"tribe.reshuffle": False})
    tribe = doc["decks"]["tribe"]
    tribe["discard"], tribe["piles"][-1]["cards"] = tribe["piles"][-1]["cards"], {}
    s, events = act(load(doc), {"type": "use", "slot": [1, 1]})
    assert ("The tribe deck is empty and its discard pile is not reused (option tribe.reshuffle is off): no card "
            "to lay on centre 1-1, so it stays empty.") in [e.text for e in events]
    s, events = act(s, {"type": "use", "card": 14})
    said = [e for e in events if e.kind == "warning"]
    assert [e.text for e in said] == ["The tribe deck is empty and its discard pile is not reused (option "
                                      "tribe.reshuffle is off): nothing to turn up."]
    assert said[0].rules == ("TG-B3", "TG-Q28")

