"""A table argues, and the referee settles it on the dispute screen, then reads the clause in the rules.

Each game's disputed moment (a move refused, a roll nobody can roll, an
action out of turn) is typed and checked; the ruling cites its clause with
the clause's summary, **Rules: <id>** opens the rulebook on exactly that
clause, and its Back returns to the dispute with the ruling still there.
Before, the dispute screen had no way to the rules: Back to the table, Rules,
typing the id (which as a word also listed BP-Q10 to BP-Q19 under BP-Q1),
and the rules' Back led to the table, the ruling gone when Dispute was
opened again.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from kivy.core.window import Window
from kivy.uix.label import Label

from companion.scoresheet import score_clauses, score_lines
from companion.session import Session
from tests.ui import test_portrait
from tests.ui.conftest import advance, tap
from tests.ui.test_app import button
from tests.ui.test_home_settings_portrait import faults, seen
from tests.ui.test_layout import shown_whole
from ui.shots import default_players, mid_game

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels

window_size = test_portrait.window_size  # the fixture that sizes the window, and back to 800x480 after
READABLE = 16  # px: the smallest text a referee reads at 800x480


def camel_out_of_turn(session: Session) -> dict[str, Any]:
    """Through the Desert: the next player places a camel before the player to move has finished."""
    action = {k: v for k, v in session.legal()[0].items() if k != "text"}
    return {**action, "player": next(p for p in default_players("ttd") if p != action["player"])}


DISPUTES = {  # game: the action a player insists on, and the clause the ruling must cite
    "ttd": (camel_out_of_turn, "TTD-T"),
    "targi": (lambda _s: {"type": "use", "slot": [1, 1]}, "TG-A3"),  # a centre card with none of the player's markers
    "blackpool": (lambda _s: {"type": "roll", "value": 7}, "BP-Q5"),  # the oracle "showed 7"
    "desert": (lambda _s: {"type": "roll", "value": 9}, "DR-Q28"),
    "temple": (lambda _s: {"type": "roll", "value": 4, "face": {"colour": "green"}}, "RU-2"),
}


def small_or_cut(screen: Any, scrolling: tuple[Any, ...]) -> list[str]:
    small = [f"{w.text[:40]!r} is {w.font_size:.1f} px" for w in seen(screen)
             if isinstance(w, Label) and w.font_size < READABLE]
    return small + [f for f in faults(screen, scrolling=scrolling) if "overlap" not in f]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("game_id", sorted(DISPUTES))
def test_a_ruling_opens_its_clause_in_the_rules_and_comes_back(
    game_id: str, size: tuple[int, int], window_size: Any, start: Any
) -> None:
    session = mid_game(game_id)
    disputed, clause_id = DISPUTES[game_id]
    action = disputed(session)
    app = start(session)
    window_size(size)
    clause = session.game.rulebook.clause(clause_id)

    tap(button(app.root.get_screen("table"), "Dispute"))  # tap 1
    dispute = app.root.get_screen("dispute")
    dispute.ids.typed.text = json.dumps(action)  # typed on the screen's keyboard
    tap(dispute.ids.check)  # tap 2
    ruling = dispute.ids.ruling.text
    assert ruling.startswith("NOT ALLOWED") and f"{clause_id} {clause.title}: {clause.text}" in ruling, ruling
    assert dispute.ids.rules.text == f"Rules: {clause_id}"
    assert not small_or_cut(dispute, (dispute.ids.offered_scroll, dispute.ids.ruling_scroll))

    tap(dispute.ids.rules)  # tap 3: the clause in the rulebook
    assert app.root.current == "rulebook"
    rulebook = app.root.get_screen("rulebook")
    shown = [w.text for w in rulebook.ids.clauses.children]
    assert len(shown) == 1 and shown[0].startswith(f"[b]{clause_id}  "), shown
    assert rulebook.ids.count.text == "1 clause"
    assert rulebook.ids.back.text == "Back to the dispute"
    assert not small_or_cut(rulebook, (rulebook.ids.scroll,))

    tap(rulebook.ids.back)  # tap 4: back to the ruling being settled
    assert app.root.current == "dispute"
    assert dispute.ids.ruling.text == ruling, "the ruling was lost on the way back from the rules"
    assert dispute.typed_action() == action

    tap(dispute.ids.back)  # the rules opened from the table lead back to the table
    tap(button(app.root.get_screen("table"), "Rules"))
    assert rulebook.ids.back.text == "Back to the table"
    tap(rulebook.ids.back)
    assert app.root.current == "table"
    advance(2)


def test_clause_ids_typed_in_the_search_find_exactly_those_clauses(start: Any) -> None:
    """"bp-q1" found BP-Q1 and BP-Q10 to BP-Q19; two ids, as a ruling cites two, found nothing."""
    app = start(Session.new("blackpool", default_players("blackpool")))
    app.show("rulebook")
    advance(3)
    rulebook = app.root.get_screen("rulebook")
    for typed, ids in (("bp-q1", ["BP-Q1"]), ("BP-Q5 BP-Q1", ["BP-Q5", "BP-Q1"])):
        rulebook.ids.query.text = typed
        advance(3)
        shown = [w.text.split("  ")[0].removeprefix("[b]") for w in reversed(rulebook.ids.clauses.children)]
        assert shown == ids, (typed, shown)
    rulebook.ids.query.text = "oracle"  # words still search every clause's text
    advance(3)
    assert len(rulebook.ids.clauses.children) > 1


def finished(game_id: str) -> Session:
    """A seeded random game played to its end."""
    session = Session.new(game_id, default_players(game_id))
    rng = random.Random(5)
    while not session.pending().is_over:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("game_id", sorted(DISPUTES))
def test_at_the_end_the_dispute_screen_shows_the_final_score_with_its_clauses(
    game_id: str, size: tuple[int, int], window_size: Any, start: Any
) -> None:
    """"How did she get 31?", "who wins a tie?": once a game is over nothing is offered, and the screen asked
    the referee to tap an action. It now shows the final score (a race's standings), each part beside its
    clauses, across the whole width, and Rules opens those clauses."""
    session = finished(game_id)
    app = start(session)
    window_size(size)
    tap(button(app.root.get_screen("table"), "Dispute"))
    dispute = app.root.get_screen("dispute")
    sheet = score_lines(session.game, session.state, over=True)
    assert dispute.ids.ruling.text == "\n".join(sheet)
    assert dispute.ids.ruling_scroll.width >= Window.width * 0.9, "the score beside an empty column"
    cited = score_clauses(session.game)
    assert cited and dispute.ids.rules.text in (f"Rules: {', '.join(cited)}", f"Rules: {len(cited)} clauses")
    assert not small_or_cut(dispute, (dispute.ids.offered_scroll, dispute.ids.ruling_scroll))

    tap(dispute.ids.rules)
    rulebook = app.root.get_screen("rulebook")
    assert [w.text.split("  ")[0].removeprefix("[b]") for w in reversed(rulebook.ids.clauses.children)] == list(cited)
    tap(rulebook.ids.back)
    assert app.root.current == "dispute" and dispute.ids.ruling.text == "\n".join(sheet)


def test_the_rules_left_for_the_table_do_not_bring_an_old_ruling_back_to_the_dispute(start: Any) -> None:
    """A button box's press on the rules brings the table back; Dispute opened from there later showed the
    ruling of the earlier dispute as if just checked."""
    app = start(mid_game("blackpool"))
    tap(button(app.root.get_screen("table"), "Dispute"))
    dispute = app.root.get_screen("dispute")
    dispute.ids.typed.text = json.dumps({"type": "roll", "value": 7})
    tap(dispute.ids.check)
    assert "BP-Q5" in dispute.ids.ruling.text
    tap(dispute.ids.rules)
    app.show("table")  # what a press of the box's buttons does on a players' screen
    advance(3)
    tap(button(app.root.get_screen("table"), "Dispute"))
    assert dispute.ids.ruling.text.startswith("Tap an action"), dispute.ids.ruling.text


def test_in_landscape_the_rules_button_leaves_the_ruling_its_room(window_size: Any, start: Any) -> None:
    """At 800x480 the Rules button stands between Back and Say again: under the ruling it cut Through the
    Desert's two clauses 34 px short, where they had shown whole. Turned upright it goes under the ruling, and
    back again."""
    app = start(mid_game("ttd"))
    tap(button(app.root.get_screen("table"), "Dispute"))
    dispute = app.root.get_screen("dispute")
    tap(dispute.ids.offered.children[-1])
    assert "TTD-3a" in dispute.ids.ruling.text and "TTD-3 " in dispute.ids.ruling.text
    assert shown_whole(dispute.ids.ruling, dispute.ids.ruling_scroll), "the two clauses need a scroll"
    assert [w.text for w in reversed(dispute.ids.rules.parent.children)] == [
        "Back to the table", "Rules: TTD-3, TTD-3a", "Say again"]
    assert not small_or_cut(dispute, (dispute.ids.offered_scroll, dispute.ids.ruling_scroll))
    window_size((720, 1280))
    assert dispute.ids.rules.parent == dispute.ids.ruling_column
    window_size((800, 480))
    assert dispute.ids.rules.parent == dispute.ids.back.parent


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_an_action_put_in_the_typed_field_shows_from_its_start(
    size: tuple[int, int], window_size: Any, start: Any
) -> None:
    """Through the Desert's camel at 120% is wider than the field: the field showed its tail
    ('": "camel", "player": "red", ...'), the cursor left at the end, and hid the "type" a referee reads first."""
    from kivy.app import App

    from tests.ui.test_display_scale import scaled

    window_size(size)
    app = start(mid_game("ttd"))
    scaled(App.get_running_app(), 120)
    tap(button(app.root.get_screen("table"), "Dispute"))
    dispute = app.root.get_screen("dispute")
    tap(dispute.ids.offered.children[-1])
    advance(3)
    field = dispute.ids.typed
    field.focus = True  # tapped to type in: the action's JSON, to edit
    advance(2)
    assert field.text.startswith('{"type": "camel"')
    assert field._get_text_width(field.text, field.tab_width, None) > field.width, "the action fits: nothing to show"
    assert field.scroll_x == 0 and field.cursor == (0, 0), f"the field shows its text from {field.scroll_x:.0f} px on"


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
@pytest.mark.parametrize("game_id", ["desert", "ttd", "targi", "blackpool", "temple"])
def test_the_dispute_field_shows_an_action_in_the_games_words_and_its_json_to_type_in(
    game_id: str, size: tuple[int, int], window_size: Any, start: Any
) -> None:
    """Dispute opened on a field holding '{"type": "use", "card": 5}', raw JSON a first-time table had never
    seen. It shows the first offered action in the game's words (its button's), Check rules on it, and a tapped
    action goes in by its words too. Tapped to type in, the field turns to the action's JSON, which a referee
    edits and checks as before; left untouched, the words come back."""
    window_size(size)
    app = start(mid_game(game_id))
    tap(button(app.root.get_screen("table"), "Dispute"))
    advance(2)
    dispute = app.root.get_screen("dispute")
    field = dispute.ids.typed
    first = app.choices[0]
    assert field.text == first["text"] and "{" not in field.text, field.text
    assert field.scroll_x == 0  # shown from its start
    tap(dispute.ids.check)
    assert app.ruling["legal"] is True, app.ruling
    picked = list(reversed(dispute.ids.offered.children))[-1]
    tap(picked)
    assert field.text == picked.action["text"] and app.ruling["legal"] is True
    bare = {k: v for k, v in picked.action.items() if k != "text"}
    field.focus = True
    advance(2)
    assert json.loads(field.text) == bare
    field.focus = False
    advance(2)
    assert field.text == picked.action["text"]
    field.focus = True
    advance(2)
    field.text = json.dumps({**bare, "player": "nobody"})  # a near miss typed over the JSON
    tap(dispute.ids.check)
    assert app.ruling["legal"] is False
    assert field.text.startswith("{")  # what was typed stays as typed
    assert app.controller.session.log == mid_game(game_id).log  # a dispute never changes the game


@pytest.mark.parametrize("percent", [100, 120])
@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_a_long_action_in_the_typed_field_reads_to_its_end(
    size: tuple[int, int], percent: int, window_size: Any, start: Any
) -> None:
    """Through the Desert's camel is wider than the field (486 px at 800x480, 340 upright, at 100%): on one
    line its end was cut off at the field's edge, the hex disputed out of sight. The action wraps, the field as
    tall as its lines, shown from its start; the ruling and the buttons keep their room."""
    from kivy.app import App

    from tests.ui.test_display_scale import scaled

    window_size(size)
    app = start(mid_game("ttd"))
    scaled(App.get_running_app(), percent)
    tap(button(app.root.get_screen("table"), "Dispute"))
    dispute = app.root.get_screen("dispute")
    tap(dispute.ids.offered.children[-1])
    field = dispute.ids.typed
    field.focus = True  # tapped to type in: the action's JSON, the longest form it takes
    advance(3)
    assert field.text.startswith('{"type": "camel"') and '"hex": [' in field.text
    room = field.width - field.padding[0] - field.padding[2]
    lines = field._lines
    assert "".join(lines) == field.text, lines
    wide = [line for line in lines if field._get_text_width(line, field.tab_width, None) > room + 0.5]
    assert not wide, f"cut at the field's edge ({room:.0f} px): {wide}"
    assert field.minimum_height <= field.height + 0.5, "a line of the action is out of sight"
    assert field.scroll_x == 0
    assert len(lines) > 1, "the camel is wider than the field: nothing was wrapped"
    assert not small_or_cut(dispute, (dispute.ids.offered_scroll, dispute.ids.ruling_scroll))
