"""Temple decisions of DECISIONS.md 5.2 that no worked case plays through, on the test deck."""

from __future__ import annotations

from tests.games.temple.fixtures import act, doc, game, pawns_of, red, rules_of, state, white


def _stairs(*pairs: tuple[int, str]) -> list[str]:
    slots = doc()["slots"]
    for index, card in pairs:
        slots[index] = card
    return slots


def test_ru_q22_landing_on_an_occupied_stairway_sends_the_occupant_back_then_climbs() -> None:
    s = state(slots=_stairs((1, "STA"), (4, "STB")), pawns={"red": [[4, 1], "entrance"], "blue": [[7, 1], "entrance"]})
    s, _ = act(s, white(3))
    s, events = act(s, {"type": "move", "pawn": "red1", "to": [7, 1]})
    assert pawns_of(s)["blue"][0] != [7, 1]
    assert "RU-12" in rules_of(events)
    assert pawns_of(s)["red"][0] == [13, 7]  # the only other stairway: taken without a question
    assert "RU-22" in rules_of(events)


def test_ru_q22_own_pawn_on_the_stairway_is_sent_back_too() -> None:
    s = state(slots=_stairs((1, "STA"), (4, "STB")), pawns={"red": [[4, 1], [7, 1]]})
    s, _ = act(s, white(3))
    s, _ = act(s, {"type": "move", "pawn": "red1", "to": [7, 1]})
    assert pawns_of(s)["red"] == [[13, 7], "entrance"]


def test_ru_q29_a_pawn_cut_off_on_a_brick_stays_put() -> None:
    s = state(turn="blue", pawns={"red": [[4, 1], "entrance"]})
    s, _ = act(s, red(3))
    s, _ = act(s, {"type": "change", "slot": 2, "card": "HOLES"})  # the lane beyond the pawn falls away
    assert pawns_of(s)["red"][0] == [4, 1]


def test_ru_q14_both_colours_sent_back_by_one_change_each_to_their_own_place() -> None:
    s = state(turn="blue", pawns={"red": [[4, 1], "entrance"], "blue": [[5, 1], "entrance"]})
    s, _ = act(s, red(3))
    s, events = act(s, {"type": "change", "slot": 1, "card": "HOLES"})
    after = pawns_of(s)
    assert after["red"][0] == "entrance"
    assert after["blue"][0] == [1, 13]  # blue's Ah Kinchil marker, behind it on blue's lap
    sent = [e.players[0] for e in events if e.players and e.kind != "move" and "RU-17" in e.rules]
    movers = [p for p in sent if p in ("red", "blue")]
    assert movers and movers[0] == "blue"  # the changer's pawn first, then in seat order


def test_ru_q30_idol_and_stairway_cells_are_walked_through() -> None:
    s = state(slots=_stairs((1, "IDR")), pawns={"red": [[4, 1], "entrance"]})
    s, _ = act(s, white(3))
    legal = game().legal_actions(s)
    assert [a["to"] for a in legal] == [[7, 1]] and [6, 1] in legal[0]["route"]
    s = state(slots=_stairs((1, "STA")), pawns={"red": [[4, 1], "entrance"]})
    s, _ = act(s, white(4))
    legal = game().legal_actions(s)
    assert [a["to"] for a in legal] == [[8, 1]] and [7, 1] in legal[0]["route"]


def test_ru_q28_play_goes_round_the_seats_from_the_highest_roller() -> None:
    players = ["red", "blue", "green"]
    s = state(players=players, phase="first_roll", first_roll={"contenders": players, "rolls": []})
    s, _ = act(s, white(2))
    s, _ = act(s, white(6))
    s, _ = act(s, white(3))
    assert s.current == "blue"
    order = []
    for _ in range(3):
        order.append(s.current)
        s, _ = act(s, {"type": "roll", "value": "X", "face": {"colour": "white"}})
    assert order == ["blue", "green", "red"]


def _session_on_the_test_deck(tmp_path, **changes):
    """The test deck laid in a café folder, and a red-blue position loaded through the session."""
    import json

    from companion.session import Session
    from tests.games.temple.fixtures import deck_cards

    (tmp_path / "temple").mkdir(exist_ok=True)
    cards = {"game": "temple", "kind": "cards", "schema": 1, "ahKinchil": {"id": "AK"}, "cards": deck_cards()}
    (tmp_path / "temple" / "cards.json").write_text(json.dumps(cards), encoding="utf-8")
    return Session.load("temple", doc(slots=[f"OPEN{i:02d}" for i in range(1, 13)], **changes), None, tmp_path)


def test_ru_q31_one_or_five_players_are_refused_with_the_clause_and_the_game_goes_on() -> None:
    from companion.protocol import Referee

    referee = Referee()
    assert referee.handle({"cmd": "new", "game": "temple", "players": ["red", "blue"]})["ok"]
    before = referee.handle({"cmd": "state"})["state"]
    for players in (["red"], ["red", "blue", "green", "yellow", "red"]):
        error = referee.handle({"cmd": "new", "game": "temple", "players": players})["error"]
        assert error["code"] == "bad_request" and error["rule"] == "RU-Q31"
        assert f"2 to 4 players, not {len(players)}" in error["message"]
        assert referee.handle({"cmd": "state"})["state"] == before
    assert referee.handle({"cmd": "rules", "game": "temple", "clause": "RU-Q31"})["ok"]


def test_ru_q34_the_wall_of_a_colour_nobody_plays_hinders_no_one(tmp_path) -> None:
    """Red and Blue play; the green wall between the south-east corner and slot 7 is crossed like open ground."""
    session = _session_on_the_test_deck(tmp_path, pawns={"red": [[12, 14], "entrance"]})
    session.act(white(1))
    assert {"type": "move", "pawn": "red1", "to": [11, 14]} in [
        {k: v for k, v in a.items() if k not in ("text", "route")} for a in session.legal()
    ]
    session.act({"type": "move", "pawn": "red1", "to": [11, 14]})
    assert session.document()["pawns"]["red"][0] == [11, 14]


def test_ru_q34_the_steps_of_a_colour_nobody_plays_lead_no_one_up(tmp_path) -> None:
    """A red pawn at the foot of the green steps: no move climbs them, and asking says why in plain words."""
    session = _session_on_the_test_deck(tmp_path, pawns={"red": [[12, 12], "entrance"]})
    session.act(white(3))
    ends = [a["to"] for a in session.legal() if a["pawn"] == "red1"]
    assert ends and all(isinstance(end, list) for end in ends)  # ring cells only: no step, no chamber
    ruling = session.check({"type": "move", "pawn": "red1", "to": "chamber"})
    assert not ruling.legal and ruling.rules == ("RU-10",)
    assert "twice" not in ruling.text and "3" in ruling.text  # it is out of reach, not a walk that loops


def test_ru_q34_the_ah_kinchil_marker_of_a_colour_nobody_plays_is_plain_path(tmp_path) -> None:
    """Yellow's marker in the north-east corner: a red pawn stops on it and nothing happens."""
    session = _session_on_the_test_deck(tmp_path, pawns={"red": [[11, 1], "entrance"]})
    session.act(white(2))
    events = session.act({"type": "move", "pawn": "red1", "to": [13, 1]}).events
    assert [e.kind for e in events] == ["move"]
    assert session.document()["pawns"]["red"][0] == [13, 1] and session.pending().player == "blue"
    ruling = session.check({"type": "ahkinchil", "pawn": "red1"})  # Blue's card on Red 1: only a red marker counts
    assert not ruling.legal and ruling.rules == ("RU-Q23",) and "not past its Ah Kinchil marker" in ruling.text


def test_ru_q15_a_pawn_sent_back_off_its_steps_looks_behind_from_their_foot() -> None:
    """A café board whose red foot is [2, 5], with a red marker past it at [1, 3]: red step 1 stands at the foot's
    place plus one, so the nearest marker behind it is [1, 8], not the one past the foot it never walked by."""
    import json

    from companion.data import house_dir, set_problems
    from companion.game import GameData, normalize_action
    from companion.games.temple.rules import TempleGame
    from tests.games.temple.fixtures import deck_cards

    files = {k: json.loads((house_dir(TempleGame) / f"{k}.json").read_text(encoding="utf-8"))
             for k in ("board", "die", "rulebook")}
    files["board"]["colours"]["red"]["steps"] |= {"foot": [2, 5], "cells": [[3, 4], [4, 4], [5, 5]]}
    marked = {"id": "IDRX", "cells": [["path"] * 3, ["path", "path", "idol:red"], ["path"] * 3]}
    files["cards"] = {"game": "temple", "kind": "cards", "schema": 1, "ahKinchil": {"id": "AK"},
                      "cards": [*deck_cards(), marked]}
    assert set_problems(TempleGame, files, {}) == []
    cafe = TempleGame(GameData(files))
    position = doc(slots=[f"OPEN{i:02d}" for i in range(1, 11)] + ["IDR", "IDRX"], pawns={"red": ["step1", [2, 5]]})
    position["pile"] = cafe.total_cards - 12 - sum(position["hands"].values())
    s = cafe.from_document(position)
    s, _ = cafe.apply(s, normalize_action(white(1)))
    s, events = cafe.apply(s, normalize_action({"type": "move", "pawn": "red2", "to": "step1"}))
    assert cafe.to_document(s)["pawns"]["red"] == [[1, 8], "step1"]
    back = next(e for e in events if "goes back" in e.text)
    assert "[1,8]" in back.text and "RU-Q15" in back.rules


def test_ru_q9_a_card_goes_in_as_its_slot_turns_it_and_no_turn_is_offered() -> None:
    """IDR's red marker is card row 1, column 0: in slot 4 (right edge) it is [13, 3], in slot 7 (bottom) [11, 13]."""
    g = game()
    for slot, marker in ((4, [13, 3]), (7, [11, 13])):
        s, _ = act(state(turn="blue"), red(3))
        assert all(set(a) == {"type", "slot", "card", "text"} for a in g.legal_actions(s))
        s, _ = act(s, {"type": "change", "slot": slot, "card": "IDR"})
        assert [list(g.board.xy(n)) for n in g.layout(s).idols["red"]] == [marker, [13, 13]]



def test_ru_q11_behind_is_counted_along_the_lap_and_the_pawn_is_lifted_over_holes() -> None:
    """Red 1 on [13, 7] (slot 5) falls into a hole. Red's Ah Kinchil marker [13, 13] is 6 spaces away on the
    board but ahead on red's lap; of the two markers behind, [8, 1] (slot 2) is closer along the lap than
    [3, 1] (slot 1), and the pawn is lifted there across slots 3 and 4, holes all over. Cited: RU-Q11."""
    g = game()
    slots = doc()["slots"]
    slots[:5] = ["IDR", "IDR2", "HOLES", "END", "OPEN12"]
    s = state(slots=slots, turn="blue", pawns={"red": [[13, 7], "entrance"]})
    assert [list(g.board.xy(n)) for n in g.layout(s).idols["red"]] == [[3, 1], [8, 1], [13, 13]]
    s, _ = act(s, red(3))
    s, events = act(s, {"type": "change", "slot": 5, "card": "HOLEMID"})  # a hole at [13, 7]
    assert pawns_of(s)["red"][0] == [8, 1]
    back = next(e for e in events if e.text.startswith("Red 1 goes back"))
    assert back.text == "Red 1 goes back to its idol marker at [8,1] (slot 2)."
    assert {"RU-18", "RU-Q11", "RU-20"} <= set(back.rules)


def test_ru_q10_a_change_sends_pawns_off_holes_back_first_then_the_stairway_owner_picks_then_the_move() -> None:
    """Blue's red roll puts STB into slot 5: its outer row is holes under Blue 1 on [14, 6], its middle a
    stairway under Red 1 on [13, 7], with two other stairways on the board. Blue 1 goes back first, then Red
    (the owner) picks where Red 1 comes out, and only then does Blue move; option stair_owner_chooses = false
    hands that pick to Blue, the changer."""
    from tests.games.temple.test_worked_cases import _three_stairs

    g = game()
    slots = _three_stairs()
    slots[4] = "OPEN12"
    for owner in (True, False):
        s = state(slots=slots, turn="blue", pawns={"red": [[13, 7], "entrance"], "blue": [[14, 6], "entrance"]},
                  options={"stair_owner_chooses": owner})
        s, _ = act(s, red(3))
        s, events = act(s, {"type": "change", "slot": 5, "card": "STB"})
        texts = [e.text for e in events]
        back = texts.index("Blue 1 goes back to its Entrance Circles.")
        stair = next(i for i, e in enumerate(events) if e.rules == ("RU-22", "RU-Q10"))
        assert back < stair and pawns_of(s)["blue"][0] == "entrance"
        pending = g.pending(s)
        assert (pending.kind, pending.player) == ("choose", "red" if owner else "blue")
        assert sorted(a["to"] for a in g.legal_actions(s)) == [[7, 1], [7, 13]]
        s, _ = act(s, {"type": "stair", "pawn": "red1", "to": [7, 13]})
        assert pawns_of(s)["red"][0] == [7, 13]
        pending = g.pending(s)
        assert (pending.player, s.phase) == ("blue", "move")


def test_ru_q25_a_player_left_without_cards_rolls_red_and_goes_straight_to_the_move() -> None:
    """A position whose Red hand is empty (loaded so; with 49 path cards a full game never empties both piles):
    the red roll asks for no change, says why with RU-Q25, and Red moves; the hand stays at none."""
    s = state(hands={"red": 0, "blue": 3}, pawns={"red": [[4, 1], "entrance"]})
    s, events = act(s, red(3))
    said = next(e for e in events if "holds no card" in e.text)
    assert said.text == "Red rolls red 3 but holds no card to change." and said.rules == ("RU-7", "RU-Q25")
    assert s.phase == "move" and not any(a["type"] == "change" for a in game().legal_actions(s))
    s, _ = act(s, {"type": "move", "pawn": "red1", "to": [7, 1]})
    assert pawns_of(s)["red"][0] == [7, 1] and s.hands == (0, 3)


def test_ru_q16_a_pawn_passes_through_a_space_another_pawn_holds_and_the_move_cites_it() -> None:
    """On the one-lane top edge Red 1 on [4, 1] walks 3 through Blue 1 on [6, 1] to [7, 1]: allowed, Blue 1
    stays, and the move cites RU-Q16; the same walk with the lane clear cites the step clauses only."""
    s = state(pawns={"red": [[4, 1], "entrance"], "blue": [[6, 1], "entrance"]})
    s, _ = act(s, white(3))
    s, events = act(s, {"type": "move", "pawn": "red1", "to": [7, 1]})
    assert pawns_of(s)["red"][0] == [7, 1] and pawns_of(s)["blue"][0] == [6, 1]
    assert next(e for e in events if e.kind == "move").rules == ("RU-10", "RU-11", "RU-Q16")
    clear = state(pawns={"red": [[4, 1], "entrance"]})
    clear, _ = act(clear, white(3))
    _, events = act(clear, {"type": "move", "pawn": "red1", "to": [7, 1]})
    assert next(e for e in events if e.kind == "move").rules == ("RU-10", "RU-11")


def test_ru_q26_a_red_roll_whose_move_nobody_can_make_keeps_its_card_change() -> None:
    """Both red pawns wait at the Entrance Circles behind the corridor's row of holes: Red's red 3 still
    changes slot 5, then the move is lost (RU-Q26) and the new card, the discard and the full hand stay."""
    s, _ = act(state(), red(3))
    s, events = act(s, {"type": "change", "slot": 5, "card": "OPEN12"})
    assert s.current == "blue" and s.phase == "roll"
    assert s.slots[4] == "OPEN12" and s.discard == ("OPEN02",) and s.hands == (3, 3)
    boxed = next(e for e in events if e.kind == "warning")
    assert "RU-Q26" in boxed.rules and "the turn ends" in boxed.text
