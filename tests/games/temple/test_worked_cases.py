"""The temple worked cases of DECISIONS.md section 5.3 (RU-ATnn), one test each."""

from __future__ import annotations

from tests.games.temple.fixtures import act, doc, game, pawns_of, red, rules_of, state, white


def test_ru_at01_white_roll_moves_exactly_three_without_a_change() -> None:
    s = state(pawns={"red": [[4, 1], "entrance"]})
    s, events = act(s, white(3))
    assert s.phase == "move" and s.slots == state().slots
    assert "RU-8" in rules_of(events)
    legal = game().legal_actions(s)
    assert [(a["pawn"], a["to"]) for a in legal] == [("red1", [7, 1])]
    assert legal[0]["route"] == [[5, 1], [6, 1], [7, 1]]
    s, events = act(s, legal[0])
    assert pawns_of(s)["red"][0] == [7, 1]
    assert s.hands == (3, 3)
    assert s.current == "blue" and s.phase == "roll"


def test_ru_at02_red_roll_changes_a_card_then_moves() -> None:
    s = state(pawns={"red": [[4, 1], "entrance"]})
    s, events = act(s, red(3))
    assert s.phase == "change" and "RU-7" in rules_of(events)
    pile = s.pile
    s, events = act(s, {"type": "change", "slot": 5, "card": "OPEN12"})
    assert s.slots[4] == "OPEN12"
    assert s.discard == ("OPEN02",)  # the card taken out of slot 5
    assert s.hands[0] == 3 and s.pile == pile - 1
    assert s.phase == "move"
    s, _ = act(s, {"type": "move", "pawn": "red1", "to": [7, 1]})
    assert pawns_of(s)["red"][0] == [7, 1]


def test_ru_at03_x_means_no_change_and_no_move() -> None:
    s0 = state(pawns={"red": [[4, 1], "entrance"]})
    s, events = act(s0, {"type": "roll", "value": "X", "face": {"colour": "white"}})
    assert s.slots == s0.slots and s.pawns == s0.pawns
    assert s.current == "blue" and s.phase == "roll"
    assert "RU-9" in rules_of(events)


def test_ru_at04_card_changed_under_a_pawn_sends_it_to_the_idol_behind() -> None:
    # Slot 2 carries a red idol at [6, 1]; the red pawn stands four columns on at [10, 1] in slot 3.
    s = state(slots=["COR01", "IDR", "COR03", *doc()["slots"][3:]], turn="blue", pawns={"red": [[10, 1], "entrance"]})
    s, _ = act(s, red(3))
    s, events = act(s, {"type": "change", "slot": 3, "card": "HOLEMID"})  # a hole at card r1c1 = [10, 1]
    assert pawns_of(s)["red"][0] == [6, 1]
    assert {"RU-17", "RU-18"} <= rules_of(events)


def test_ru_at05_no_idol_behind_means_back_to_the_entrance() -> None:
    s = state(turn="blue", pawns={"red": [[10, 1], "entrance"]})
    s, _ = act(s, red(3))
    s, events = act(s, {"type": "change", "slot": 3, "card": "HOLEMID"})
    assert pawns_of(s)["red"][0] == "entrance"
    assert any("Entrance" in e.text for e in events)


def test_ru_at06_landing_on_an_opponent_sends_it_back() -> None:
    s = state(pawns={"red": [[4, 1], "entrance"], "blue": [[7, 1], "entrance"]})
    s, _ = act(s, white(3))
    s, events = act(s, {"type": "move", "pawn": "red1", "to": [7, 1]})
    after = pawns_of(s)
    assert after["red"][0] == [7, 1]
    # Blue's nearest blue marker behind [7, 1] is its Ah Kinchil marker in the SW corner.
    assert after["blue"][0] == [1, 13]
    assert "RU-12" in rules_of(events)


def test_ru_at07_landing_on_your_own_pawn_sends_it_back() -> None:
    s = state(pawns={"red": [[4, 1], [7, 1]]})
    s, _ = act(s, white(3))
    s, events = act(s, {"type": "move", "pawn": "red1", "to": [7, 1]})
    assert pawns_of(s)["red"] == [[7, 1], "entrance"]
    assert {"RU-12", "RU-Q18"} <= rules_of(events)


def test_ru_at08_dead_end_stops_the_pawn_early() -> None:
    # [3, 1] has the red wall behind it; two spaces ahead, then slot 2 starts with a hole.
    s = state(slots=["COR01", "END", *doc()["slots"][2:]], pawns={"red": [[3, 1], "entrance"]})
    s, _ = act(s, white(5))
    legal = game().legal_actions(s)
    assert [a["to"] for a in legal] == [[5, 1]]
    s, events = act(s, legal[0])
    assert pawns_of(s)["red"][0] == [5, 1]
    assert "RU-13" in rules_of(events)
    assert s.current == "blue"


def _three_stairs() -> list[str]:
    slots = doc()["slots"]
    slots[1] = "STA"  # stairway at [7, 1]
    slots[4] = "STB"  # slot 5: card r1c1 is [13, 7]
    slots[7] = "STC"  # slot 8: card r1c1 is [7, 13]
    return slots


def test_ru_at10_stairway_teleport_sends_the_occupant_back() -> None:
    s = state(slots=_three_stairs(), pawns={"red": [[4, 1], "entrance"], "blue": [[13, 7], "entrance"]})
    s, _ = act(s, white(3))
    s, _ = act(s, {"type": "move", "pawn": "red1", "to": [7, 1]})
    assert s.phase == "resolve" and game().pending(s).player == "red"
    options = sorted(a["to"] for a in game().legal_actions(s))
    assert options == [[7, 13], [13, 7]]
    s, events = act(s, {"type": "stair", "pawn": "red1", "to": [13, 7]})
    after = pawns_of(s)
    assert after["red"][0] == [13, 7]
    assert after["blue"][0] == "entrance"
    assert {"RU-22", "RU-23"} <= rules_of(events)
    assert s.current == "blue"


def test_ru_at11_a_lone_stairway_keeps_the_pawn_even_when_a_second_appears() -> None:
    slots = doc()["slots"]
    slots[1] = "STA"
    s = state(slots=slots, pawns={"red": [[4, 1], "entrance"]})
    s, _ = act(s, white(3))
    s, events = act(s, {"type": "move", "pawn": "red1", "to": [7, 1]})
    assert pawns_of(s)["red"][0] == [7, 1] and "RU-24" in rules_of(events)
    assert s.current == "blue"
    s, _ = act(s, red(3))
    s, events = act(s, {"type": "change", "slot": 5, "card": "STB"})
    assert pawns_of(s)["red"][0] == [7, 1]
    assert s.phase == "move"


def test_ru_at13_a_wall_stops_its_own_colour_only() -> None:
    g = game()
    s = state(pawns={"red": [[3, 1], "entrance"]})
    s, _ = act(s, white(1))
    assert [a["to"] for a in g.legal_actions(s)] == [[4, 1]]
    ruling = g.check(s, {"type": "move", "pawn": "red1", "to": [2, 1]})
    assert not ruling.legal and ruling.rules == ("RU-14",)
    b = state(turn="blue", pawns={"blue": [[3, 1], "entrance"]})
    b, _ = act(b, white(1))
    assert sorted(a["to"] for a in g.legal_actions(b) if a["pawn"] == "blue1") == [[2, 1], [4, 1]]


def test_ru_at14_no_exact_count_into_the_chamber_and_own_steps_only() -> None:
    g = game()
    s = state(pawns={"red": ["step2", "entrance"]})
    s, _ = act(s, white(5))
    targets = [a["to"] for a in g.legal_actions(s)]
    assert "chamber" in targets
    s, events = act(s, {"type": "move", "pawn": "red1", "to": "chamber"})
    assert pawns_of(s)["red"][0] == "chamber" and "RU-15" in rules_of(events)
    # A blue pawn at the foot of the red steps cannot climb them.
    b = state(turn="blue", pawns={"blue": [[2, 2], "entrance"]})
    b, _ = act(b, white(1))
    assert all(isinstance(a["to"], list) for a in g.legal_actions(b))


def test_ru_at16_ah_kinchil_card_during_assembly_is_shuffled_back() -> None:
    g = game()
    s = g.setup(["red", "blue"], g.resolve_options({}))
    for card in ["COR01", "COR02", "COR03", "OPEN01", "OPEN02", "OPEN03"]:
        s, _ = act(s, {"type": "draw", "deck": "path", "card": card})
    assert g.pending(s).text.startswith("Draw a card for slot 7")
    before = s
    s, events = act(s, {"type": "draw", "deck": "path", "card": "AK"})
    assert s == before and "RU-3" in rules_of(events)
    assert g.pending(s).text.startswith("Draw a card for slot 7")
    s, _ = act(s, {"type": "draw", "deck": "path", "card": "OPEN04"})
    assert s.slots[6] == "OPEN04"
    for card in ["OPEN05", "OPEN06", "OPEN07", "OPEN08", "OPEN09"]:
        s, _ = act(s, {"type": "draw", "deck": "path", "card": card})
    assert None not in s.slots and "AK" not in s.slots
    assert s.hands == (3, 3) and s.pile == g.total_cards - 12 - 6
    assert s.phase == "first_roll"


def test_ru_at18_second_pawn_into_the_chamber_wins_at_once() -> None:
    g = game()
    s = state(pawns={"red": ["chamber", "step3"]})
    s, _ = act(s, white(2))
    s, events = act(s, {"type": "move", "pawn": "red2", "to": "chamber"})
    assert g.pending(s).kind == "over"
    assert g.pending(s).result == {"winner": "red"}
    assert any(e.kind == "win" for e in events)
