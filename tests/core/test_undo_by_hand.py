"""An undo says what the players must put back by hand on the real table, in the game's words, with clauses.

The app took a step back, but the table did not: undoing a desert runner's landing on Scared! left its pawn at
Desert Dawn and its 2 Lives gone, a temple pawn bumped to its Entrance Circles stayed there, a Targi goods card
stayed in the discard pile, a Blackpool traveller stayed frozen. Positions come from seeded random play through
the rules (the simulator's own choices), as in test_undo_consequences, so each game reaches its real steps.
"""

from __future__ import annotations

import random
import re

import pytest

from companion.game import Event
from companion.registry import create
from companion.session import Session, Step
from companion.simulate import random_players
from companion.takeback import MOST_SAID
from tests.core.test_undo_consequences import play_until, said


def sentences(note: str) -> list[str]:
    return re.split(r"(?<=[.!?]) (?=[A-Z])", note)


def put_back(note: str) -> list[str]:
    return [s for s in sentences(note) if s.startswith(("Put ", "Take ", "Set ", "Move ", "Turn "))
            and not s.startswith("Taken back")]


def event(step: Step, words: str) -> Event:
    found = said(step, words)
    assert found is not None
    return found


def test_desert_scared_undone_puts_the_pawn_back_and_sets_its_lives_back() -> None:
    # The penalty's own line opens with "Scared!"; a runner holding a Mirage Cloak is only warned (DR-Q18).
    def penalty(step: Step) -> Event | None:
        return next((e for e in step.events if e.text.startswith("Scared!")), None)

    session, step = play_until("desert", 1, lambda s, st: penalty(st) is not None)
    scared = penalty(step)
    assert scared is not None
    who = scared.players[0] if scared.players else re.search(r"Scared! (\w+)", scared.text)[1].lower()
    game, before = session.game, session._states[-2]
    piece = before.piece(who)
    undo = session.undo()
    title = who.capitalize()
    assert f"Put {title}'s pawn back on {game.board.label(piece.space)}." in undo.note
    assert f"Set {title}'s Lives back to {piece.lives}." in undo.note
    assert {"DR-4", "DR-5"} <= set(undo.rules)


def test_desert_a_card_spent_is_set_back_but_a_card_drawn_and_corrected_stays_in_hand() -> None:
    session, step = play_until("desert", 3, lambda s, st: st.action.get("type") == "use")
    card = step.action["card"]
    who = session._states[-2].mover
    held = session._states[-2].piece(who).items.count(card)
    undo = session.undo()
    from companion.games.desert.flow import card_name

    # A card is handed, not counted: "Set Teal's Sandstorm Sneakers cards back to 1." had the table count.
    assert f"{who.capitalize()} gets a {card_name(card)} card back." in undo.note, undo.note
    assert held == session.state.piece(who).items.count(card)
    assert "DR-16" in undo.rules
    # A draw withdrawn as misread: the card really drawn is in the player's hand; its name is entered again.
    session, step = play_until("desert", 1, lambda s, st: said(st, "and keeps the card") is not None)
    undo = session.undo()
    assert undo.note.startswith("Correction:") and "cards back to" not in undo.note, undo.note


def _sent_back(session: Session, step: Step) -> bool:
    return any(" goes back to its " in e.text for e in step.events)


def test_temple_a_pawn_sent_back_goes_back_where_it_stood() -> None:
    session, step = play_until("temple", 2, _sent_back, limit=20000)
    game, before = session.game, session._states[-2]
    moved = [(c, i, n) for (c, i, n), (_, _, m) in zip(before.all_pawns(), session.state.all_pawns(), strict=True)
             if n != m]
    undo = session.undo()
    from companion.games.temple.view import standing

    named = step.events[0].text
    for colour, i, node in moved:
        label = f"{colour.capitalize()} {i + 1}"
        where = standing(game, colour, node)
        if label in named and where.partition(" ")[2] in named:
            continue  # the step's own line already says where it came from
        assert f"Put {label} back {where}." in undo.note or "as the board shows" in undo.note, undo.note
    assert "RU-10" in undo.rules


def test_temple_a_card_change_undone_puts_the_old_card_back_in_its_slot() -> None:
    session, step = play_until("temple", 2, lambda s, st: said(st, "goes to the discard pile") is not None)
    old, slot, new = re.search(r"replaces (\w+) in slot (\d+) with (\w+)", step.events[0].text).groups()
    who = session._states[-2].current.capitalize()
    undo = session.undo()
    # One sentence for the swap, with the hand the new card goes back to ("in place of card P39" left it lying
    # by the board), and the card drawn as a player says it ("Set the draw pile back to 32." had the table
    # count the pile).
    assert f"Put card {old} back in slot {slot} and card {new} back in {who}'s hand." in undo.note, undo.note
    # The card drawn lies in a hidden hand (RU-H2): "Put the card drawn back on the draw pile." did not say whose.
    assert f"{who} puts the card drawn back on the draw pile." in undo.note, undo.note
    assert "Set the draw pile" not in undo.note
    assert {"RU-7", "RU-26"} <= set(undo.rules)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_temple_the_ah_kinchil_card_undone_goes_back_to_the_hand_it_was_played_from(seed: int) -> None:
    """"Take card AK off the discard pile." said where the card goes from, not whose hand it goes back to: the
    hands are hidden (RU-H2), so the app knows it only as the player whose step is taken back."""
    session, step = play_until("temple", seed, lambda s, st: said(st, "plays the Ah Kinchil card") is not None,
                               limit=20000)
    who = step.events[0].text.split(" ")[0]
    undo = session.undo()
    assert f"Put card {session.game.board.ak_card} back in {who}'s hand." in undo.note, undo.note
    assert "off the discard pile" not in undo.note, undo.note
    assert "RU-26" in undo.rules


def test_targi_a_placed_targi_is_not_said_twice_and_a_used_one_goes_back() -> None:
    session, step = play_until("targi", 1, lambda s, st: said(st, "places a Targi") is not None)
    undo = session.undo()
    assert not put_back(undo.note) or "Targi" not in " ".join(put_back(undo.note)), undo.note  # its line says it
    session, step = play_until("targi", 1, lambda s, st: said(st, "takes the Targi back") is not None)
    card = re.search(r"uses (.+) \(card (\d+)\)", step.events[0].text)
    who = step.events[0].text.split(" ")[0]
    undo = session.undo()
    assert f"Put {who}'s Targi back on card {card[2]} ({card[1]})." in undo.note
    assert "TG-P1" in undo.rules


def test_targi_a_goods_card_taken_goes_back_face_up_with_the_marker() -> None:
    session, step = play_until("targi", 1, lambda s, st: re.search(r"takes .* \(.*, centre \d-\d\)", st.events[0].text)
                               is not None)
    who, label, centre = re.search(r"(\w+) takes .* \((.+), centre (\d-\d)\)", step.events[0].text).groups()
    undo = session.undo()
    back = put_back(undo.note)
    assert back[0] == f"Put {who}'s tribe marker back on centre {centre}.", undo.note
    assert re.fullmatch(rf"Put {re.escape(label)} back face up on centre {centre}, in place of the face-down "
                        r"(goods|tribe) card\.", back[1]), undo.note
    assert len(back) <= MOST_SAID
    assert {"TG-M1", "TG-A3"} <= set(undo.rules)


@pytest.mark.parametrize(
    ("seed", "step_words", "handed"),
    [
        (1, r"(\w+) chooses 2 pepper", "{who} gives back 2 pepper."),
        (0, r"(\w+) pays 1 date and 1 pepper, then plays", "Give {who} 1 date and 1 pepper back."),
        (0, r"(\w+) pays the raid: 2 dates\.", "Give {who} 2 dates back."),
        (0, r"(\w+) gives 2 dates for 1 salt", "{who} gives back 1 salt, then gets 2 dates back."),
        (0, r"(\w+) gives 3 salt for 1 gold", "{who} gives back 1 gold, then gets 3 salt back."),
    ],
    ids=["chosen", "paid, one of each", "a raid paid", "a trade", "a trade for gold"],
)
def test_targi_goods_and_gold_are_handed_back_as_the_difference(seed: int, step_words: str, handed: str) -> None:
    """Goods are a heap by each player: "Set Black's dates back to 3." had the player count it and work out how
    many to hand back; the undo says how many change hands, singular or plural as said ("1 date", "2 dates")."""
    session, step = play_until("targi", seed, lambda s, st: re.search(step_words, st.events[0].text) is not None)
    who = re.search(step_words, step.events[0].text)[1]
    undo = session.undo()
    assert handed.format(who=who) in undo.note, undo.note
    assert "Set " not in undo.note and " back to " not in undo.note.replace("Back to", ""), undo.note


def _card_on(session: Session, step: Step) -> bool:
    return bool(said(step, "is frozen on"))


def test_blackpool_a_freeze_undone_thaws_the_traveller_and_gives_the_card_back() -> None:
    session, step = play_until("blackpool", 5, _card_on, limit=20000)
    name, place = re.search(r"(\w+ \d) is frozen on (.+?)\.", event(step, "is frozen on").text).groups()
    player = session._states[-2].turn.capitalize()
    undo = session.undo()
    assert re.search(rf"Put {name} back on {re.escape(place)}(, riding \w+ \d)?, not frozen\.", undo.note), undo.note
    assert f"Put Freeze back face up in front of {player}." in undo.note
    assert {"BP-C10", "BP-C8"} <= set(undo.rules)


def test_blackpool_a_coin_spent_is_handed_back() -> None:
    """Coins are real coins (three each, BP-Q21): "Set Yellow's coins back to 3." had the player count them; as
    Targi's goods, the coin is handed back."""
    session, step = play_until("blackpool", 5, lambda s, st: said(st, "spends a coin") is not None, limit=20000)
    who = step.events[0].text.split(" ")[0]
    undo = session.undo()
    assert f"Give {who} 1 coin back." in undo.note, undo.note
    assert "Set " not in undo.note, undo.note
    assert "BP-Q21" in undo.rules


def test_blackpool_a_card_entered_by_mistake_stays_drawn_but_what_it_moved_goes_back() -> None:
    """Gust of Force entered as drawn blew travellers on: withdrawn as misread, the card really drawn stays
    face up (its name is entered again) and the travellers it moved go back."""
    session, _ = play_until("blackpool", 5, lambda s, st: said(st, "plays Gust of Force") is not None, limit=20000)
    before = session._states[-2]
    moved = [t for t in before.travellers if session.state.by_id[t.id].at != t.at]
    assert moved
    undo = session.undo()
    assert undo.note.startswith("Correction:") and "Gust of Force back" not in undo.note, undo.note
    from companion.games.blackpool.state import traveller_name

    for t in moved:
        assert f"Put {traveller_name(t.id)} back on {session.game.board.label(t.at)}" in undo.note, undo.note


@pytest.mark.parametrize("game_id", ["blackpool", "desert", "targi", "temple", "ttd"])
def test_every_undo_says_at_most_a_few_short_put_back_sentences_each_cited(game_id: str) -> None:
    """Read aloud, a long list is lost: past ``MOST_SAID`` the rest are summed up, and no sentence runs long."""
    rng = random.Random(7)
    game = create(game_id)
    session = Session.new(game_id, random_players(game, rng))
    seen = 0
    for _ in range(600):
        if session.pending().is_over:
            break
        action = game.sim_choose(session.state, session.legal(), rng)
        session.act({k: v for k, v in action.items() if k != "text"})
        undo = session.undo()
        back = put_back(undo.note)
        seen += len(back)
        assert len(back) <= MOST_SAID, undo.note
        assert all(len(s.split()) < 25 for s in back), undo.note
        assert not back or undo.rules, undo.note
        session.redo()
    assert seen > 0


def test_ttd_a_water_hole_token_taken_back_goes_back_on_its_hole_and_a_misread_one_stays() -> None:
    session, step = play_until("ttd", 3, lambda s, st: said(st, "takes the water hole") is not None)
    where, worth = re.search(r"water hole at (\S+) worth (\d)", event(step, "takes the water hole").text).groups()
    undo = session.undo()
    assert f"Put the {worth}-point water-hole token back on {where}." in undo.note, undo.note
    assert "TTD-4a" in undo.rules
    session, step = play_until("ttd", 3, lambda s, st: st.action.get("type") == "draw")
    undo = session.undo()
    assert undo.note.startswith("Correction:") and "token back" not in undo.note and "Take back" not in undo.note


@pytest.mark.parametrize("decided", [r"(\w+) discards (.+)\.$", r"(\w+) keeps (.+) in hand\.$"])
def test_targi_a_tribe_card_decided_on_goes_back_by_its_players_display(decided: str) -> None:
    """A tribe card just taken waits for its player to play, keep or discard it: undoing the decision said
    "Take Leather Workshop off the tribe discard pile." or "Take Milk Camel out of White's hand.", and not where
    the card goes."""

    def deciding(session: Session, step: Step) -> bool:
        return session._states[-2].tasks[:1] != () and session._states[-2].tasks[0].source != "noble" and bool(
            re.search(decided, step.events[0].text))

    session, step = play_until("targi", 0, deciding)
    who, label = re.search(decided, step.events[0].text).groups()
    undo = session.undo()
    assert put_back(undo.note) == [f"Put {label} back by {who}'s display, to be played, kept or discarded."], undo.note
    assert "TG-T1" in undo.rules


def test_targi_a_tribe_marker_moved_by_fata_morgana_is_moved_back_from_where_it_stands() -> None:
    """Markers are told apart only by where they stand: "Take back Black's tribe marker on centre 3-1." after
    the move's line read as a marker to take off the board, not one to move back."""
    session, step = play_until("targi", 0, lambda s, st: said(st, "moves a tribe marker") is not None)
    moved = re.search(r"(\w+) moves a tribe marker from centre (\d-\d) to (\d-\d)", step.events[0].text)
    who, src, dst = moved.groups()
    undo = session.undo()
    assert put_back(undo.note) == [f"Move {who}'s tribe marker from centre {dst} back to centre {src}."], undo.note
    assert "TG-M1" in undo.rules


def test_targi_markers_placed_are_taken_off_in_one_sentence() -> None:
    """Both players' markers, one sentence as the voice joins reports: it read "Take Black's tribe markers off
    centre 1-1 and centre 3-1. Take White's tribe markers off centre 2-2 and centre 2-3.", the same words twice."""
    session, step = play_until("targi", 0, lambda s, st: said(st, "puts tribe markers on") is not None)
    placed = re.findall(r"(\w+) puts tribe markers on centre (\d-\d) and centre (\d-\d)", " ".join(
        e.text for e in step.events))
    assert len(placed) == 2, step.events
    undo = session.undo()
    (first, *at_first), (second, *at_second) = placed
    assert (f"Take {first}'s tribe markers off centre {at_first[0]} and centre {at_first[1]}, and {second}'s off "
            f"centre {at_second[0]} and centre {at_second[1]}.") in put_back(undo.note), undo.note
    assert "TG-M1" in undo.rules


def test_targi_a_card_taken_while_a_copy_lies_elsewhere_goes_back_only_where_it_was_taken() -> None:
    """Two copies on the centre were keyed by their order: taking the first had the table told to put the second
    "back" on the card where it already lay."""

    def twin(session: Session, step: Step) -> bool:
        found = re.search(r"\((.+), centre (\d-\d)\)", step.events[0].text)
        return bool(found) and step.events[0].text.count(" centre ") == 1 and any(
            slot.card and session.game._card_name(slot.card) == found[1] for slot in session.state.centre)

    session, step = play_until("targi", 0, twin)
    label, centre = re.search(r"\((.+), centre (\d-\d)\)", step.events[0].text).groups()
    undo = session.undo()
    mine = [s for s in put_back(undo.note) if s.startswith(f"Put {label} back")]
    assert mine and all(f"centre {centre}" in s and s.count("centre") == 1 for s in mine), undo.note


def test_targi_a_card_turned_up_is_turned_face_down_again() -> None:
    """Compared across a reveal kept (not withdrawn as misread), the card turned up is turned down again: it
    read "Put a face-down card back ... Take back Salt Block face up ..." as if two cards changed places."""
    from companion.takeback import put_back as compared

    session, step = play_until("targi", 1, lambda s, st: said(st, "Centre 3-2 shows") is not None
                               and s._states[-2].round > 0)
    card = re.search(r"shows (.+?)[.;]", step.events[0].text)[1]  # by its name alone: "Centre 3-2 shows Weaver."
    back = compared(session.game, session._states[-1], session._states[-2])
    assert (f"Turn {card} face down again on centre 3-2.", ("TG-Q29", "TG-A3", "TG-D1")) in back, back


def test_desert_a_card_traded_goes_back_from_one_racer_to_the_other() -> None:
    session, step = play_until("desert", 0, lambda s, st: said(st, "Trade agreed") is not None)
    giver, card, getter = re.search(r"Trade agreed: (\w+) gives (.+?) and receives nothing from (\w+)\.",
                                    step.events[0].text).groups()
    undo = session.undo()
    assert f"{getter} gives a {card} card back to {giver}." in undo.note, undo.note
    assert "DR-16" in undo.rules


def _several_sent_back(seed: int) -> tuple[Session, Step]:
    """A temple game of seeded random play, up to the first card change that sends two pawns or more back."""
    rng = random.Random(seed)
    session = Session.new("temple", rng.sample(["red", "blue", "green", "yellow"], rng.randint(2, 4)))
    while not session.pending().is_over:
        step = session.act(rng.choice(session.legal()))
        if sum(" goes back " in e.text for e in step.events) >= 2:
            return session, step
    raise AssertionError(f"seed {seed}: no card change sent two pawns back")


@pytest.mark.parametrize("seed", [24, 27, 46])
def test_pawns_a_temple_card_change_sent_back_are_put_back_in_the_reverse_order(seed: int) -> None:
    """A card change sends the pawns left on holes back colour by colour from the player whose turn it is, the
    one further along first (RU-Q14): "Green 2 goes back ...", then "Red 2 goes back ...". Its undo listed them
    in seat order ("Put Green 2 back ... Put Red 2 back ..."), the same order here and the reverse of it in
    other games. Undoing unwinds: the last pawn sent back is the first put back, in every game (seeds 24, 27
    and 46 are ones where seat order was the order they went)."""
    session, step = _several_sent_back(seed)
    sent = [e.text.split(" goes back ")[0] for e in step.events if " goes back " in e.text]
    back = [s.removeprefix("Put ").split(" back ")[0] for s in put_back(session.undo().note)
            if any(s.startswith(f"Put {pawn} back ") for pawn in sent)]
    assert back == sent[::-1]


@pytest.mark.parametrize("seed", [1, 2])
def test_desert_a_life_traded_is_handed_back_by_whoever_got_it(seed: int) -> None:
    """'Set Teal's Lives back to 4. Set Purple's Lives back to 7.' read as two counts to redo, not one trade undone
    (seed 1 receives a Life, seed 2 gives one)."""

    def lives_traded(session: Session, step: Step) -> bool:
        action = step.action or {}
        return action.get("type") == "trade" and any("lives" in (action.get(k) or {}) for k in ("give", "get"))

    session, step = play_until("desert", seed, lives_traded, limit=20000)
    mover, partner = session._states[-2].mover, step.action["with"]
    giver, getter = (partner, mover) if "lives" in step.action.get("get", {}) else (mover, partner)
    undo = session.undo()
    assert f"{getter.capitalize()} gives 1 Life back to {giver.capitalize()}." in undo.note, undo.note
    assert "Lives back to" not in undo.note and {"DR-5", "DR-11"} <= set(undo.rules)
    # Still set back when nobody else's count matches: a runner's Lives lost to Scared! (the test above).


def test_pieces_alike_but_for_whose_are_joined_into_sentences_of_25_words_at_most() -> None:
    """Several owners' pieces in a row join as the voice joins reports, each place kept, and a sentence that would
    pass 25 words (`phrases.LONG_WORDS`) is not made: the next owner's starts a sentence of its own."""
    from companion.takeback import _owners_joined

    spaces = {"Pink": "Scorpion Nest (7)", "Teal": "Cobra Pit (13)", "Brown": "Date Grove (12)",
              "Black": "Rocky Ridge (5)", "Purple": "Twin Dunes (11)"}
    sentences = {("Put", f"{who}'s pawn"): ([f"on {space}"], ["DR-3"]) for who, space in spaces.items()}
    owned = {f"{who}'s pawn": (who.lower(), "pawn") for who in spaces}
    said = _owners_joined(sentences, owned, {})
    assert [s for s, _ in said] == [
        "Put Pink's pawn back on Scorpion Nest (7), Teal's on Cobra Pit (13), Brown's on Date Grove (12), and "
        "Black's on Rocky Ridge (5).",
        "Put Purple's pawn back on Twin Dunes (11)."]
    assert all(rules == ("DR-3",) for _, rules in said)
