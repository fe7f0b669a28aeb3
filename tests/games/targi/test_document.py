"""The position document: it round-trips, and the loader names every problem of a broken one."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from companion.errors import InvalidPosition
from companion.game import normalize_action
from tests.games.targi.helpers import B, W, actions_doc, doc_of, fresh, game, load, put_back, run, set_supply


def round_trip(state) -> None:
    g = game()
    doc = json.loads(json.dumps(g.to_document(state)))
    assert g.from_document(doc) == state


def test_round_trip_through_a_game() -> None:
    g = game()
    s = g.setup([W, B], g.resolve_options({}, None))
    round_trip(s)
    s = fresh()
    round_trip(s)
    s, _ = run(s, {"type": "place", "card": 2}, {"type": "place", "card": 5})
    round_trip(s)
    s = load(actions_doc(W, targi=[(13, W)], markers=[(1, 2, W)]))
    s, _ = run(s, {"type": "use", "slot": [1, 2]})
    round_trip(s)  # a tribe decision in progress, with a face-down card in the centre
    doc = g.to_document(s)
    assert doc["tasks"] == [{"kind": "tribe", "cards": ["T41"], "source": "centre"}]
    assert doc["centre"][0][1] == {"face_down": "goods", "pile": 0}


def test_document_starts_with_game_players_options() -> None:
    doc = game().to_document(fresh())
    assert list(doc)[:4] == ["game", "players", "options", "profile"]
    assert doc["options"]["placement.forbid"] == "opposite"


def test_loader_lists_every_problem() -> None:
    doc = doc_of(fresh())
    doc["robber"] = 4
    doc["supplies"][W]["salt"] = -1
    doc["supplies"][B]["rows"][0] = ["T05", "T06", "T07", "T08", "T09"]
    doc["targi"] = [{"card": 8, "player": W}, {"card": 2, "player": "green"}]
    doc["centre"][0][0] = {"card": "Z01"}
    doc["decks"]["goods"]["discard"] = {"G12": 1}
    doc["stage"] = "nap"
    with pytest.raises(InvalidPosition) as err:
        game().from_document(doc)
    problems = err.value.problems
    text = "\n".join(problems)
    for expected in ("stage:", "robber:", "supplies.white.salt", "supplies.black.rows[0]", "card 8 is a corner",
                     "targi[1].player", "centre 1-1: unknown card", "goods card G12", "tribe card T05"):  # fmt: skip
        assert expected in text, (expected, problems)
    assert len(problems) >= 9


def test_loader_checks_face_down_bookkeeping() -> None:
    doc = doc_of(fresh())
    doc["stage"] = "actions"
    doc["actor"] = W
    doc["round"] = 1
    doc["centre"][0][0] = {"face_down": "goods", "pile": 3}
    with pytest.raises(InvalidPosition) as err:
        game().from_document(doc)
    text = "\n".join(err.value.problems)
    assert "pile 3" in text and "G01" in text


def test_loader_rejects_bad_players_and_options() -> None:
    doc = doc_of(fresh())
    doc["players"] = ["white", "white"]
    with pytest.raises(InvalidPosition) as err:
        game().from_document(doc)
    # Worded as a new game and the other four loaders word it; it said "expected two different colours out of
    # white, black, found [...]", naming neither the colour twice nor, for a third player, the count.
    assert err.value.problems == ["players: 'white' is named twice: each player plays a colour of their own"]
    doc["players"] = ["white", "black", "white"]
    with pytest.raises(InvalidPosition) as err:
        game().from_document(doc)
    assert err.value.problems == ["players: Targi needs 2 players, not 3"]
    doc = doc_of(fresh())
    doc["options"]["placement.forbid"] = "diagonal"
    with pytest.raises(InvalidPosition) as err:
        game().from_document(doc)
    assert "options" in err.value.problems[0]


def test_describe_is_readable() -> None:
    lines = game().describe(load(actions_doc(W, targi=[(13, W)], markers=[(1, 2, W)])))
    text = "\n".join(lines)
    assert "round 2" in text and "Caravan" in text and "white:" in text
    assert "Next:" not in text  # the prompt under the board says it; the terminal showed it twice


def test_the_text_board_says_the_score_in_words_and_final_once_over() -> None:
    """The text board showed each player's score as a Python dictionary, and 'so far' after the game ended."""
    state = load(actions_doc(W, targi=[(13, W)], markers=[(1, 2, W)]))
    text = "\n".join(game().describe(state))
    assert "score so far: " in text and "from VP tokens" in text and "{" not in text
    over = "\n".join(game().describe(replace(state, stage="over")))
    assert "final score: " in over and "so far" not in over


def test_the_text_board_says_one_date_and_one_vp_token() -> None:
    """The text board read "white: 1 dates, ..., 1 VP tokens"."""
    doc = actions_doc(W)
    set_supply(doc, W, dates=1, salt=2, pepper=0, gold=1, vp=1)
    set_supply(doc, B, dates=2, salt=1, pepper=1, gold=0, vp=2)
    lines = game().describe(load(doc))
    assert next(x for x in lines if x.startswith("white:")).startswith(
        "white: 1 date, 2 salt, 0 pepper, 1 gold, 1 VP token; hand:")
    assert next(x for x in lines if x.startswith("black:")).startswith(
        "black: 2 dates, 1 salt, 1 pepper, 0 gold, 2 VP tokens; hand:")


def test_a_round_out_of_step_with_the_robber_at_a_reveal_or_raid_is_refused_tg_r1() -> None:
    """The robber moves once a round and once more onto each raid corner (TG-R1): at the reveal after a round
    it stands where that round had it, and in a raid one card on. A round number out of step was loaded there
    (only place, actions and limits were checked), and play went on past the twelfth round."""
    g = game()
    rng = random.Random(4)
    state = fresh()
    found: dict[str, dict] = {}
    while len(found) < 2 and not g.pending(state).is_over:
        if state.stage in ("reveal", "raid") and state.round >= 1:
            found.setdefault(state.stage, doc_of(state))
        state, _ = g.apply(state, normalize_action(g.sim_choose(state, g.legal_actions(state), rng)))
    reveal, raid = found["reveal"], found["raid"]
    assert load(reveal) and load(raid)
    robber = reveal["robber"]
    reveal["round"] += 1
    with pytest.raises(InvalidPosition) as bad:
        load(reveal)
    expected = reveal["round"] + (reveal["round"] - 1) // 3
    assert bad.value.problems == [
        f"robber: in round {reveal['round']} it stands on card {expected}, not {robber} (TG-R1)"
    ]
    raid["round"] -= 1
    with pytest.raises(InvalidPosition) as bad:
        load(raid)
    assert bad.value.problems == [
        f"round: no raid follows round {raid['round']}; the robber reaches a corner after rounds 3, 6, 9 and 12 (TG-R1)"
    ]
    raid["round"] += 4
    with pytest.raises(InvalidPosition) as bad:
        load(raid)
    assert bad.value.problems[0].startswith(f"robber: the raid after round {raid['round']} is on card ")


def test_a_noble_decision_not_alone_on_the_whole_hand_is_refused_tg_b1() -> None:
    """Using the Noble sets one decision on the hand as it is (TG-B1): a second copy of it was loaded, and
    deciding the card twice crashed the referee (the hand no longer held it)."""
    document = actions_doc(W, targi=[(1, W), (15, W)], round_=2)
    set_supply(document, W, hand=["T02"])
    state, _ = run(load(document), {"type": "use", "card": 1})
    at_noble = doc_of(state)
    assert at_noble["tasks"] == [{"kind": "tribe", "cards": ["T02"], "source": "noble"}]
    twice = json.loads(json.dumps(at_noble))
    twice["tasks"].append(twice["tasks"][0])
    with pytest.raises(InvalidPosition) as bad:
        load(twice)
    assert bad.value.problems == ["tasks: the Noble is decided alone and on white's whole hand (T02), each card once "
                                  "(TG-B1)"]
    assert load(at_noble).tasks == state.tasks


def _using_face_down(**task: object) -> dict:
    """A position in the actions stage with a face-down goods card at centre 1-2, White to draw for a card used."""
    s = load(actions_doc(W, targi=[(13, W)], markers=[(1, 2, W)]))
    s, _ = run(s, {"type": "use", "slot": [1, 2]})
    doc = doc_of(s)
    assert doc["tasks"] == [{"kind": "tribe", "cards": ["T41"], "source": "centre"}]
    put_back(doc, "T41")
    doc["tasks"] = [{"kind": "draw", "deck": "goods", "why": "use", "slot": [1, 2], **task}]
    return doc


def test_a_draw_task_names_a_slot_on_the_centre_and_the_deck_of_its_face_down_card() -> None:
    """A slot off the centre crashed the loader (IndexError at [5, 5], TypeError at ["a", 1]); a goods draw for a
    face-down tribe card, or a slot on a draw that is not for a card used, loaded."""
    load(_using_face_down())  # the position play reaches
    cases = [
        ({"slot": [5, 5]}, "tasks[0].slot: expected [row, column] from 1 to 3, found [5, 5]"),
        ({"slot": ["a", 1]}, 'tasks[0].slot: expected [row, column] from 1 to 3, found ["a", 1]'),
        ({"slot": [1.5, 1]}, "tasks[0].slot: expected [row, column] from 1 to 3, found [1.5, 1]"),
        ({"slot": [1, 1]}, "tasks[0].slot: centre 1-1 holds no face-down card to use"),
        ({"deck": "tribe"}, "tasks[0].deck: the face-down card at centre 1-2 is a goods card, so the draw is from "
                            "the goods deck, not tribe"),
        ({"why": "caravan"}, "tasks[0].slot: only a draw for a face-down card used (why 'use') names a slot"),
    ]
    for change, said in cases:
        with pytest.raises(InvalidPosition) as bad:
            load(_using_face_down(**change))
        assert said in bad.value.problems, (change, bad.value.problems)


def test_a_piece_off_the_board_is_said_once_and_true_is_no_row() -> None:
    """A Targi on card 99 was "outside 1..16" and also "a corner"; a tribe marker at [true, 2] stood on centre
    1-2 (JSON's true read as 1)."""
    doc = actions_doc(W, targi=[(13, W)], markers=[(1, 2, W)])
    doc["targi"][0]["card"] = 99
    with pytest.raises(InvalidPosition) as bad:
        load(doc)
    assert [p for p in bad.value.problems if p.startswith("targi[0]")] == ["targi[0].card: 99 is outside 1..16"]
    doc = actions_doc(W, targi=[(13, W)], markers=[(1, 2, W)])
    doc["markers"][0]["slot"] = [True, 2]
    with pytest.raises(InvalidPosition) as bad:
        load(doc)
    assert "markers[0].slot: expected [row, column] from 1 to 3, found [true, 2]" in bad.value.problems


def test_a_targi_facing_the_other_players_is_refused_tg_p5() -> None:
    """No placement puts a Targi opposite the other player's (TG-P5), nor, as written, in its row or column
    (TG-Q5); loaded, such a pair played on. One's own Targi may face each other (TG-Q6)."""
    load(actions_doc(W, targi=[(13, W), (7, W)]))
    with pytest.raises(InvalidPosition) as bad:
        load(actions_doc(W, targi=[(13, W), (7, B)]))
    assert bad.value.problems == ["targi[1]: card 7 faces white's Targi on card 13 across the board (TG-P5)"]
    with pytest.raises(InvalidPosition) as bad:
        load(actions_doc(W, targi=[(1, W), (3, B)], options={"placement.forbid": "line"}))
    assert bad.value.problems == [
        "targi[1]: card 3 shares a row or column with white's Targi on card 1 (placement.forbid line, TG-Q5)"
    ]


def test_a_number_out_of_range_is_said_once_with_its_bound() -> None:
    """Round 1000000 was refused, then its robber compared with it ("in round 1000000 it stands on card
    1333333"); a count below 0 was "outside 0..any"."""
    doc = actions_doc(W, targi=[(13, W)], markers=[(1, 2, W)])
    doc["round"] = 1000000
    with pytest.raises(InvalidPosition) as bad:
        load(doc)
    assert bad.value.problems == ["round: 1000000 is outside 0..12"]
    doc = actions_doc(W, targi=[(13, W)], markers=[(1, 2, W)])
    doc["supplies"][W]["dates"] = -1
    with pytest.raises(InvalidPosition) as bad:
        load(doc)
    assert "supplies.white.dates: -1 is below 0, the least it may be" in bad.value.problems, bad.value.problems
