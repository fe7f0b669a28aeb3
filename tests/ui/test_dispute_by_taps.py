"""A referee with only a touchscreen settles the move a player insists on, by taps alone.

At a café the Pi has no keyboard, and the dispute screen took the action
nobody is offered (the one a dispute is about) only typed as JSON: "I rolled
a 7", "Black may place now", "my camel goes there" could not be checked.
**Build** puts the action together from the game's own kinds and fields, each
value picked from a list (the place tapped on the board first), and **Check**
rules on it with its clause as on a typed one. Ten disputes, two a game,
each from the kinds the rules analysis argues over (DECISIONS.md).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from companion.games.ttd.board import HEX_NAME
from companion.session import Session
from tests.ui import test_portrait
from tests.ui.conftest import advance, laid_out, tap, tap_at
from tests.ui.test_app import button
from tests.ui.test_dispute_rules import READABLE, small_or_cut
from tests.ui.test_pointing import spot_of
from ui import compose
from ui.shots import default_players, mid_game

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels

window_size = test_portrait.window_size

# game: (what the table argues, the place tapped on the board first or None, the fields picked by taps in order
# (the kind first), the clause the ruling cites)
DISPUTES: dict[str, tuple[str, Any, list[tuple[str, str]], str]] = {
    "ttd-far": ("Red's camel goes on a hex far from its caravan", (0, 0),
                [("action", "camel"), ("colour", "pink")], "TTD-3a"),
    "ttd-turn": ("Black places a camel while Red is still placing", None,
                 [("action", "camel"), ("colour", "pink"), ("player", "Black")], "TTD-T"),
    "targi-slot": ("Black uses a centre card without a tribe marker on it", None,
                   [("action", "use"), ("slot", "centre 1-1")], "TG-A3"),
    "targi-place": ("Black puts a Targi on a border card in the action phase", None,
                    [("action", "place"), ("card", "card 3 (Silversmith)")], "TG-P1"),
    "blackpool-7": ("the oracle showed 7", None, [("action", "roll"), ("value", "7")], "BP-Q5"),
    "blackpool-first": ("Yellow moves a traveller before rolling", None,
                        [("action", "move"), ("traveller", "Yellow 1")], "BP-3"),
    "desert-9": ("a roll of 9", None, [("action", "roll"), ("value", "9")], "DR-Q28"),
    "desert-cloak": ("Pink plays a Mirage Cloak it does not hold", None,
                     [("action", "use"), ("card", "Mirage Cloak")], "DR-21"),
    "temple-8": ("the die showed a red 8", None,
                 [("action", "roll"), ("value", "8"), ("face", "red")], "RU-2"),
    "temple-turn": ("Blue rolls on Red's turn", None,
                    [("action", "roll"), ("value", "3"), ("face", "red"), ("player", "Blue")], "RU-28"),
}


def building(app: Any) -> Any:
    """The table's Dispute tapped, then Build: the dispute screen, an action being built by taps."""
    tap(button(app.root.get_screen("table"), "Dispute"))
    dispute = app.root.get_screen("dispute")
    tap(dispute.ids.build)
    return dispute


def row(dispute: Any, key: str) -> Any:
    found = [r for r in dispute.ids.offered.children if getattr(r, "key", None) == key]
    assert found, f"no {key!r} to pick among {[getattr(r, 'key', None) for r in dispute.ids.offered.children]}"
    return found[0]


def pick(dispute: Any, key: str, text: str) -> None:
    """Tap the field's list open, then tap the value in it."""
    spinner = row(dispute, key).ids.pick
    tap(spinner)
    options = [o for o in spinner._dropdown.container.children if o.text == text]
    assert options, f"{text!r} is not among {key!r}'s {[o.text for o in spinner._dropdown.container.children]}"
    tap(options[0])
    advance(3)
    assert row(dispute, key).ids.pick.text == text


def settle(app: Any, name: str) -> Any:
    """Tap the board place (if any), Dispute, Build, each field, Check: the dispute screen with its ruling."""
    _why, place, picks, _clause = DISPUTES[name]
    table = app.root.get_screen("table")
    if place is not None:
        board = table.ids.board
        tap_at(board, *spot_of(board, place))
    tap(button(table, "Dispute"))
    dispute = app.root.get_screen("dispute")
    tap(dispute.ids.build)
    for key, text in picks:
        pick(dispute, key, text)
    tap(dispute.ids.check)
    return dispute


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
@pytest.mark.parametrize("name", sorted(DISPUTES))
def test_the_contested_move_is_built_and_ruled_on_by_taps(name: str, size: tuple[int, int], window_size: Any,
                                                          start: Any) -> None:
    game_id = name.split("-")[0]
    session = mid_game(game_id)
    before = list(session.log)
    app = start(session)
    window_size(size)
    clause_id = DISPUTES[name][3]
    clause = session.game.rulebook.clause(clause_id)
    dispute = settle(app, name)
    ruling = dispute.ids.ruling.text
    assert ruling.startswith("NOT ALLOWED") and f"{clause_id} {clause.title}: {clause.text}" in ruling, ruling
    assert dispute.ids.rules.text == f"Rules: {clause_id}"
    assert dispute.typed_action()["type"] == DISPUTES[name][2][0][1]  # the field shows what was ruled on
    assert not small_or_cut(dispute, (dispute.ids.offered_scroll, dispute.ids.ruling_scroll))
    assert session.log == before  # a check takes no step
    tap(dispute.ids.build)  # "Offered": the offered actions are back
    assert all(hasattr(b, "action") for b in dispute.ids.offered.children)


def test_the_place_tapped_on_the_board_is_the_place_built(start: Any) -> None:
    """A finger on a hex, then Dispute and Build: the camel's hex is that hex, not the first one offered."""
    app = start(mid_game("ttd"))
    tap_at(app.root.get_screen("table").ids.board, *spot_of(app.root.get_screen("table").ids.board, (0, 0)))
    dispute = building(app)
    assert row(dispute, "hex").ids.pick.text == "(0,0)"
    assert dispute.typed_action()["hex"] == [0, 0]


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_hexes_are_listed_as_the_game_writes_them_and_the_one_picked_is_sent(size: tuple[int, int], start: Any,
                                                                            window_size: Any) -> None:
    """Every text of Through the Desert writes a hex "(5,1)" (prompts, refusals, the map's tags); Build listed
    "[5, 1]", the action's JSON, which the table reads nowhere. The hex picked by its words is the one ruled on."""
    app = start(mid_game("ttd"))
    window_size(size)
    dispute = building(app)
    listed = [v for v in row(dispute, "hex").ids.pick.values if v != "(leave out)"]
    assert listed and all(HEX_NAME.fullmatch(v) for v in listed), listed
    for words in (listed[1], listed[-1]):
        pick(dispute, "hex", words)
        assert dispute.typed_action()["hex"] == [int(n) for n in HEX_NAME.fullmatch(words).groups()]


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_a_die_face_is_listed_by_its_colour_and_a_green_one_is_answered_by_the_clause_naming_the_faces(
        size: tuple[int, int], start: Any, window_size: Any) -> None:
    """The temple's roll listed its face as '{"colour": "red"}'; the game says "Die shows red 3". A player who
    insists the die showed green finds no green to pick (the die's faces are red and white, RU-2, DECISIONS
    RU-Q5): the referee leaves the face out, and Check answers with the clause that names the die's colours."""
    session = mid_game("temple")
    app = start(session)
    window_size(size)
    dispute = building(app)
    colours = {str(face["face"]["colour"]) for face in session.game.dice[0].faces}
    assert colours == {"red", "white"}
    assert sorted(row(dispute, "face").ids.pick.values) == sorted(["(leave out)", *colours])
    pick(dispute, "value", "4")
    pick(dispute, "face", "red")
    assert dispute.typed_action()["face"] == {"colour": "red"}
    pick(dispute, "face", "(leave out)")
    assert "face" not in dispute.typed_action()
    tap(dispute.ids.check)
    clause = session.game.rulebook.clause("RU-2")
    assert "red" in clause.text and "white" in clause.text
    ruling = dispute.ids.ruling.text
    assert ruling.startswith("NOT ALLOWED") and f"RU-2 {clause.title}: {clause.text}" in ruling, ruling
    assert "{" not in ruling.split("\n")[0], ruling  # the refusal says the colours in words, as the clause does
    assert not small_or_cut(dispute, (dispute.ids.offered_scroll, dispute.ids.ruling_scroll))


def test_the_action_being_built_stays_when_the_game_moves_on_and_a_field_left_out_is_ruled_on(start: Any) -> None:
    """The button box rolls while the referee builds: the built action and its lists stay, the lists of the new
    position; a field left out is refused as the game refuses a typed action without it, with a clause."""
    session = mid_game("blackpool")
    app = start(session)
    dispute = building(app)
    pick(dispute, "value", "7")
    app.act(session.legal()[0])  # a roll comes in from the button box
    advance(4)
    assert dispute.building and row(dispute, "value").ids.pick.text == "7"
    assert dispute.typed_action() == {"type": "roll", "value": 7}
    assert dispute.ids.typed.text == "roll: value 7"  # in words, as the lists name it, not its JSON
    pick(dispute, "action", "move")
    advance(3)
    assert dispute.typed_action() == {"type": "move"}  # a roll's value is no field of a move
    tap(dispute.ids.check)
    ruling = app.ruling
    assert not ruling.get("legal") and ruling.get("rules"), ruling
    assert dispute.ids.ruling.text.startswith("NOT ALLOWED")


def test_at_the_end_there_is_nothing_to_build(start: Any) -> None:
    """Once the game is over the screen shows the final score; Build stayed tappable, and built an action for a
    game with nothing left to rule on."""
    from tests.ui.test_dispute_rules import finished

    app = start(finished("desert"))
    tap(button(app.root.get_screen("table"), "Dispute"))
    advance(3)
    assert app.ruling.get("sheet")
    assert app.root.get_screen("dispute").ids.build.disabled


# A value in a form no table reads: JSON's braces or quotes, a list as JSON spaces it ("[1, 1]"), an id with an
# underscore ("mirage_cloak", "bring_out"), a piece by its id ("green-2", "red1").
UNREAD = re.compile(r'[{}"]|\[[^\]]*, |\w_\w|^[a-z]+-?\d$')


def unread(texts: list[str]) -> list[str]:
    return [t for t in texts if UNREAD.search(t)]


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
@pytest.mark.parametrize("game_id", ["blackpool", "desert", "targi", "temple", "ttd"])
def test_every_kind_and_field_reads_as_the_game_writes_it(game_id: str, size: tuple[int, int], start: Any,
                                                         window_size: Any) -> None:
    """Each kind of the game picked in turn, by taps: every field's list and its value read in the game's words
    (Targi's "centre 1-1" and "2 dates and 1 pepper", Blackpool's "Green 2", the race's "Mirage Cloak", the temple's
    "Red 1" and "[7,2] (slot 2)"), each value once, the list as wide as its longest words, nothing cut."""
    session = mid_game(game_id)
    app = start(session)
    window_size(size)
    dispute = building(app)
    kinds = row(dispute, "action").ids.pick.values
    assert not unread(kinds), kinds
    for number, kind in enumerate(kinds):
        if number == 0:
            pick(dispute, "action", kind)  # by taps, as a referee picks; the other kinds as the pick sets them
        else:
            row(dispute, "action").ids.pick.text = kind
            laid_out()  # sizes, not pixels, are measured: no frame drawn
        for shown in dispute.ids.offered.children:
            if shown.key == "action":
                continue
            listed = list(shown.ids.pick.values)
            assert not unread([*listed, shown.ids.pick.text]), (kind, shown.key, listed)
            values = compose.values(session, shown.key, dispute.board_place())
            assert len(listed) == len(values) + 1, (kind, shown.key, listed)  # each value its own words
        assert not small_or_cut(dispute, (dispute.ids.offered_scroll, dispute.ids.ruling_scroll)), kind


@pytest.mark.parametrize("game_id", ["blackpool", "desert", "targi", "temple", "ttd"])
def test_every_value_of_a_seeded_game_reads_as_the_game_writes_it(game_id: str) -> None:
    """Along a seeded game, not only halfway: the values met only now and then (Targi's exchanges "2 gold", the
    race's trades "1 Life" and "Mirage Cloak", Blackpool's cards "Diagonal Step Up", the temple's "Ah Kinchil
    card", drawn as "AK") read in the game's words too, each value in its own words."""
    rng = random.Random(2)
    session = Session.new(game_id, default_players(game_id))
    met: set[str] = set()
    for step in range(400):
        if session.pending().is_over or not session.legal():
            break
        if step % 5 == 0:
            for kind in compose.kinds(session.game):
                for key in compose.fields(session.game, kind):
                    values = compose.values(session, key)
                    words = compose.labels(session, key, values)
                    assert len(words) == len(values) and not unread(list(words)), (step, kind, key, list(words))
                    met.update(f"{key} {w}" for w in words)
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    assert len(met) > 20 and MET[game_id] in met, sorted(met)


MET = {"targi": "give 2 gold", "desert": "give 1 Life", "blackpool": "card Diagonal Step Up",
       "temple": "card Ah Kinchil card", "ttd": "card water hole worth 3"}


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
@pytest.mark.parametrize("game_id, kind, key", [("temple", "move", "route"), ("temple", "move", "to"),
                                                ("targi", "draw", "card"), ("desert", "use", "card"),
                                                ("blackpool", "draw", "card")])
def test_the_longest_words_show_whole_in_the_list_and_in_the_field(game_id: str, kind: str, key: str,
                                                                   size: tuple[int, int], start: Any,
                                                                   window_size: Any) -> None:
    """A field's list was as wide as the field, 200 px in landscape: "Sandstorm Sneakers", "card 14 (Tribal
    Expansion)" or a temple route of seven cells ran past both its edges, and the value picked was cut with
    "...". The list is as wide as its longest words (up to the window) and the field's words shrink to fit,
    neither under 16 px."""
    app = start(mid_game(game_id))
    window_size(size)
    dispute = building(app)
    pick(dispute, "action", kind)
    spinner = row(dispute, key).ids.pick
    tap(spinner)
    advance(2)
    options = list(spinner._dropdown.container.children)
    for option in options:
        option.texture_update()
    too_wide = [(o.text, o.texture_size[0], round(o.width)) for o in options if o.texture_size[0] > o.width]
    assert not too_wide, too_wide
    assert min(o.font_size for o in options) >= READABLE
    left, right = spinner._dropdown.x, spinner._dropdown.right
    assert left >= 0 and right <= size[0], (left, right)
    widest = max(options, key=lambda o: o.texture_size[0]).text
    spinner._dropdown.dismiss()
    pick(dispute, key, widest)
    advance(2)
    assert not small_or_cut(dispute, (dispute.ids.offered_scroll, dispute.ids.ruling_scroll)), widest


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_players_are_listed_as_the_game_names_them_and_the_colour_is_sent(size: tuple[int, int], start: Any,
                                                                        window_size: Any) -> None:
    """Every text of the game writes "Black: place a camel"; Build listed the players "red", "black", "orange",
    the ids the action carries. The players read as the game names them, and the one picked is sent by its id."""
    session = mid_game("ttd")
    app = start(session)
    window_size(size)
    dispute = building(app)
    listed = [v for v in row(dispute, "player").ids.pick.values if v != "(leave out)"]
    assert listed == ["Red", "Black", "Orange"], listed
    pick(dispute, "player", "Orange")
    assert dispute.typed_action()["player"] == "orange"
    assert f"{listed[0]}:" in session.pending().text  # as the prompt names who acts


@pytest.mark.parametrize("game_id, key", [("blackpool", "opponent"), ("desert", "with")])
def test_every_field_naming_a_player_lists_each_player_by_name(game_id: str, key: str) -> None:
    """Blackpool's Reset names its "opponent", the race's trade its partner "with": they listed only the players
    offered now, by their ids ("red")."""
    session = mid_game(game_id)
    words = compose.labels(session, key, compose.values(session, key))
    assert list(words) == [session.game.player_words(p) for p in default_players(game_id)], list(words)
    assert all(words[w] == w.lower() for w in words)


@pytest.mark.parametrize(("game_id", "named"), [
    ("ttd", {"water-hole tokens": "waterholes"}),
    ("desert", {"Collection pile": "collection", "Mystery pile": "mystery"}),
    ("temple", {"draw pile": "path"}),
    ("blackpool", {"charm deck": "charm", "curse deck": "curse"}),
    ("targi", {"goods deck": "goods", "tribe deck": "tribe"}),
])
def test_each_deck_reads_as_the_game_calls_it(game_id: str, named: dict[str, str]) -> None:
    """Build listed a deck by the id its actions carry: Through the Desert's "waterholes" (its texts say "the
    token lying there"), the desert race's "collection" and "mystery" (they say "The Collection pile is empty"),
    the temple's "path" (it says "The draw pile is empty"), Blackpool's "charm" and Targi's "goods" ("spends a
    coin on the charm deck", "comes from the goods deck"). Each reads as the game's texts name it, and the id is
    what is sent."""
    session = mid_game(game_id)
    listed = compose.labels(session, "deck", compose.values(session, "deck"))
    assert listed == named, listed


def offered_now(game_id: str, kind: str) -> Session:
    """A seeded game played on until ``kind`` is offered."""
    rng = random.Random(1)
    session = Session.new(game_id, default_players(game_id))
    while not any(a["type"] == kind for a in session.legal()):
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


@pytest.mark.parametrize("game_id, kind, key, board, clause_id", [
    ("temple", "change", "slot", list(range(1, 13)), "RU-2"), ("targi", "play", "row", [1, 2, 3], "TG-T4")])
def test_a_number_the_board_has_fewer_of_lists_only_the_board_s_and_one_off_it_is_answered_with_its_clause(
        game_id: str, kind: str, key: str, board: list[int], clause_id: str, start: Any) -> None:
    """The temple's card change offered slots 0 to 12 and Targi's tribe card rows 0 to 12: the board has twelve
    slots (its data's, RU-2) and a display three rows (TG-T4). A referee typing the slot 13 or row 4 a player
    insists on is answered NOT ALLOWED with that clause (the slot cited RU-7, the red roll's change)."""
    session = offered_now(game_id, kind)
    assert list(session.game.field_numbers(session.state, key)) == board
    app = start(session)
    dispute = building(app)
    pick(dispute, "action", kind)
    assert [v for v in row(dispute, key).ids.pick.values if v != "(leave out)"] == [str(n) for n in board]
    offered = next(a for a in session.legal() if a["type"] == kind)
    for off in (0, board[-1] + 1):
        dispute.ids.typed.text = json.dumps({**{k: v for k, v in offered.items() if k != "text"}, key: off})
        tap(dispute.ids.check)
        ruling = dispute.ids.ruling.text
        clause = session.game.rulebook.clause(clause_id)
        assert ruling.startswith("NOT ALLOWED") and f"{clause_id} {clause.title}" in ruling, ruling


ODD = [None, True, 1.5, -1, 10**40, "", "x" * 300, [], [1], [1, "x"], [True, 2], [[1, 2]], {}, {"colour": 3},
       {"dates": "2"}, {"lives": -1}, {"items": [{}]}, {"salt": 1, "x": 1}, ["step9"], [[99, 99]]]


@pytest.mark.parametrize("game_id", ["blackpool", "desert", "targi", "temple", "ttd"])
def test_a_typed_value_no_game_names_is_shown_as_typed_and_breaks_nothing(game_id: str) -> None:
    """Build starts from the typed action, whatever was typed: a value the game cannot name (a hex off the map,
    goods of no kind, a pawn nobody has) is shown as it was typed, and raises nothing."""
    session = mid_game(game_id)
    keys = {key for kind in compose.kinds(session.game) for key in compose.fields(session.game, kind)}
    for key in sorted(keys):
        for value in ODD:
            words = compose.label(session, key, value)
            assert isinstance(words, str) and words, (key, value)


@pytest.mark.parametrize("game_id, picks, listed, clause_id", [
    ("ttd", [("action", "leader"), ("colour", "pink"), ("hex", "(2,0)")], ["pink", "green", "yellow", "blue", "white"],
     "TTD-1"),
    ("desert", [("action", "use"), ("card", "Mirage Cloak")], ["Golden Compass", "Mirage Cloak", "Camel's Blessing"],
     "DR-21"),
])
def test_early_in_a_game_a_field_lists_the_games_own_values_before_any_is_in_play(
        game_id: str, picks: list[tuple[str, str]], listed: list[str], clause_id: str, start: Any) -> None:
    """Five steps into a game, Build's lists held only what had been offered or taken: Through the Desert's colour
    list was empty while the water holes were entered ("a pink leader on (2,0)" could not be put together, and
    left out it was refused as "unknown camel colour null"), the race's card list before any card was drawn
    ("Pink plays a Mirage Cloak it does not hold"). They list the game's own (`Game.field_values`), and the
    action built is ruled on with its clause."""
    rng = random.Random(5)
    session = Session.new(game_id, default_players(game_id))
    for _ in range(5):
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    before = list(session.log)
    app = start(session)
    dispute = building(app)
    pick(dispute, *picks[0])
    key = picks[1][0]
    assert set(listed) <= set(row(dispute, key).ids.pick.values), row(dispute, key).ids.pick.values
    for field, text in picks[1:]:
        pick(dispute, field, text)
    tap(dispute.ids.check)
    clause = session.game.rulebook.clause(clause_id)
    ruling = dispute.ids.ruling.text
    assert ruling.startswith("NOT ALLOWED") and f"{clause_id} {clause.title}" in ruling, ruling
    assert session.log == before
