"""The app in a real offscreen window, driven by real touches."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from kivy.core.window import Window

from companion.session import Session
from tests.ui.conftest import PIN, advance, button_box, tap, until

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels


def button(container: Any, text: str) -> Any:
    found = [w for w in container.walk() if getattr(w, "text", None) == text]
    assert found, f"no {text!r} on screen; have {[getattr(w, 'text', '') for w in container.walk()][:40]}"
    return found[0]


def board_pixels(app: Any) -> bytes:
    return bytes(app.root.get_screen("table").ids.board.export_as_image().texture.pixels)


def test_blackpool_roll_move_announce_undo(start: Any) -> None:
    app = start()
    home = app.root.get_screen("home")
    assert app.root.current == "home"
    tap(button(home.ids.games, "Blackpool"))
    tap(button(home.ids.colours, "Yellow"))
    tap(button(home.ids.colours, "Red"))
    assert home.players == ["yellow", "red"]
    tap(home.ids.start)
    assert app.root.current == "table"
    assert app.game_id == "blackpool"
    assert "roll" in app.prompt.lower()

    table = app.root.get_screen("table")
    rolls = [b for b in table.ids.choices.children if b.action.get("type") == "roll"]
    six = next(b for b in rolls if b.action.get("value") == 6)
    tap(six)  # a six brings a traveller out of the centre
    assert app.controller.session.log[-1] == {"type": "roll", "value": 6}
    moves = list(reversed(table.ids.choices.children))
    assert moves and all(b.action.get("type") != "roll" for b in moves)

    before_doc, before_pixels = app.board.document, board_pixels(app)
    tap(moves[0])
    advance(2)
    assert app.board.document != before_doc
    assert board_pixels(app) != before_pixels  # the drawing itself changed
    latest = app.announcements[0]
    assert latest["kind"] == "step" and latest["text"] and latest["rules"]
    assert latest["rules"][0] in table.ids.announcements.text
    app.voice.wait()
    assert app.spoken.lines.count(app.last_spoken) == 1  # spoken once, never twice

    tap(table.ids.undo)
    assert app.board.document == before_doc
    assert board_pixels(app) == before_pixels
    assert app.announcements[0]["kind"] == "undo"

    tap(table.ids.repeat)
    app.voice.wait()
    assert app.spoken.lines[-1] == app.spoken.lines[-2]  # repeat-last is one tap


def test_resumes_the_game_in_progress(start: Any, tmp_path: Any) -> None:
    from companion.journal import Journal

    journal = Journal(tmp_path / "journal.sqlite3")
    session = Session.new("blackpool", ["yellow", "red"], journal=journal)
    session.act({"type": "roll", "value": 6})
    resumed = Session.resume(journal)
    app = start(resumed)
    assert app.root.current == "table"
    assert app.controller.session.log == [{"type": "roll", "value": 6}]
    assert app.resume_text == "Resume Blackpool (1 step)"


def test_dispute_gives_ruling_with_clause(start: Any) -> None:
    app = start(Session.new("blackpool", ["yellow", "red"]))
    tap(app.root.get_screen("table").ids.dispute)
    dispute = app.root.get_screen("dispute")
    assert app.root.current == "dispute"
    offered = list(reversed(dispute.ids.offered.children))
    tap(offered[-1])
    assert app.ruling["legal"] is True and app.ruling["clauses"]
    assert dispute.typed_action() == {k: v for k, v in offered[-1].action.items() if k != "text"}
    assert not dispute.ids.ruling.text.startswith("ALLOWED: Allowed.")  # the verdict is said once

    dispute.ids.typed.text = json.dumps({"type": "roll", "value": 9})  # the oracle has no 9
    tap(dispute.ids.check)
    assert app.ruling["legal"] is False
    text = dispute.ids.ruling.text
    assert text.startswith("NOT ALLOWED")
    rule = app.ruling["rules"][0] if app.ruling["rules"] else None
    if rule:  # a refusal names its clause, and the clause's own words are shown
        assert rule in text and ":" in text.split(rule, 1)[1]
    assert app.controller.session.log == []  # a dispute never changes the game

    for typed, why in (("99", "no action offered now has the words '99'"), ("[99]", "type an object"),
                       ('"roll"', "no action offered now has the words"), ("{roll", "Expecting property")):
        dispute.ids.typed.text = typed  # what a hurried referee types
        tap(dispute.ids.check)
        assert app.ruling["legal"] is False and app.ruling["text"].startswith("Not an action: ")
        assert why in app.ruling["text"]
    assert app.controller.session.log == []


def test_the_typed_template_follows_the_game_on_the_table(start: Any) -> None:
    """Filled once and kept, the template was Blackpool's oracle roll in every later game, refused as unknown."""
    app = start(Session.new("blackpool", ["yellow", "red"]))
    app.show("dispute")
    advance(2)
    dispute = app.root.get_screen("dispute")
    assert dispute.typed_action()["type"] == "roll"
    app.show("table")
    assert app.new_game("ttd", ["red", "black", "orange"])
    app.show("dispute")
    advance(2)
    assert dispute.typed_action() == {k: v for k, v in app.choices[0].items() if k != "text"}
    tap(dispute.ids.check)
    assert app.ruling["legal"] is True


def test_a_finished_game_offers_the_next_one_with_the_same_players(start: Any) -> None:
    session = Session.new("targi", ["white", "black"])
    rng = random.Random(2)
    while not session.pending().is_over:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    app = start(session)
    table = app.root.get_screen("table")
    again, other = reversed(table.ids.choices.children)
    assert again.text == "Play again: new Targi, same players"
    assert other.text == "Choose another game or other players"
    tap(again)
    fresh = app.controller.session
    assert fresh is not session and fresh.game.id == "targi" and fresh.log == []
    assert fresh.start["players"] == ["white", "black"]
    assert not any(b.text.startswith("Play again") for b in table.ids.choices.children)


def test_rulebook_search(start: Any) -> None:
    app = start(Session.new("blackpool", ["yellow", "red"]))
    tap(app.root.get_screen("table").ids.rules)
    screen = app.root.get_screen("rulebook")
    everything = len(screen.ids.clauses.children)
    screen.ids.query.text = "oracle"
    advance()
    assert 0 < len(screen.ids.clauses.children) < everything


def test_pin_gate_holds(start: Any) -> None:
    app = start(Session.new("blackpool", ["yellow", "red"]), kiosk=True)
    assert Window.dispatch("on_request_close") is True  # closing the window is refused
    assert Window.dispatch("on_keyboard", 27, 0, None, []) is True  # Escape is swallowed
    app.request("settings")
    advance()
    pin = app.root.get_screen("pin")
    assert app.root.current == "pin"
    for key in "1111":
        tap(button(pin.ids.keypad, key))
    tap(button(pin.ids.keypad, "OK"))
    assert app.root.current == "pin" and "Wrong" in pin.message
    assert not app.exit_with_pin("0000") and app.kiosk
    for key in PIN:
        tap(button(pin.ids.keypad, key))
    tap(button(pin.ids.keypad, "OK"))
    assert app.root.current == "settings"


def test_attract_screen_keeps_the_game(start: Any) -> None:
    session = Session.new("blackpool", ["yellow", "red"])
    session.act({"type": "roll", "value": 6})
    app = start(session, kiosk=True)
    before = app.board.document
    app.idle.last -= 10_000
    app._check_idle(0)
    assert app.root.current == "attract"
    tap(app.root.get_screen("attract").children[0].children[-1])  # the title: anywhere wakes it
    assert app.root.current == "table"
    assert app.board.document == before and app.controller.session is session


def test_the_attract_screen_does_not_call_a_finished_game_in_progress(start: Any) -> None:
    """Over a won game it read "Targi in progress - The game is over. ... White wins."."""
    session = Session.new("targi", ["white", "black"])
    rng = random.Random(2)
    while not session.pending().is_over:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    app = start(session, kiosk=True)
    app.idle.last -= 10_000
    app._check_idle(0)
    advance(2)
    status = app.root.get_screen("attract").ids.status.text
    assert "in progress" not in status
    assert status.startswith("Targi finished") and "wins" in status
    assert app.play_again()  # a fresh game on the table, a step in: in progress again
    app.act(app.choices[0])
    app.show("attract")
    advance(2)
    assert app.root.get_screen("attract").ids.status.text.startswith("Targi in progress - ")

def test_one_tap_new_game(start: Any) -> None:
    app = start(Session.new("blackpool", ["yellow", "red"]), kiosk=True)
    app.settings.last_game, app.settings.last_players = "blackpool", ["yellow", "red"]
    app.act(app.choices[0])
    app.show("attract")
    advance()
    tap(app.root.get_screen("attract").ids.new_game)
    assert app.root.current == "table"
    assert app.controller.session.log == []


def test_simulated_button_box_reaches_the_screen(start: Any) -> None:
    session = Session.new("blackpool", ["yellow", "red"])
    session.act({"type": "roll", "value": 6})
    app = start(session)
    panel = button_box(app)
    assert panel.press("undo")  # from the button box's own thread in real life; queued either way
    for _ in range(200):  # the app's main loop pumps the queue; no sleeping, just frames
        if not session.log:
            break
        advance(1)
    assert session.log == [] and app.announcements[0]["kind"] == "undo"
    assert not app.can_undo


def test_a_long_refusal_shows_whole_on_the_table(start: Any) -> None:
    """The status line wraps rather than cutting a message off in its middle, where the advice usually is."""
    from companion.observations import DieRead

    app = start(Session.new("blackpool", ["yellow", "red"]))
    app.show("table")
    app.controller.submit(DieRead(4, "camera", 0.95, dice=3))
    assert until(lambda: app.status)
    assert "Take the extra dice out" in app.status
    advance(3)
    label = button(app.root.get_screen("table"), app.status)
    shown = " ".join(word.text for line in label._label._cached_lines for word in line.words)
    assert " ".join(shown.split()) == " ".join(app.status.split())  # every word, no ellipsis
    assert len(label._label._cached_lines) > 1 and label.height > label.font_size * 2


def test_a_new_game_starts_when_its_players_cannot_be_remembered(start: Any, tmp_path: Any) -> None:
    """A full or read-only card stops the settings file, not the game: ui.json sits under a file here."""
    app = start()
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    app.settings_path = blocker / "ui.json"
    assert app.new_game("blackpool", ["yellow", "red"])
    assert app.root.current == "table" and app.game_id == "blackpool"


def test_an_unsure_camera_reading_is_taken_with_one_tap_on_its_lit_choice(start: Any) -> None:
    """Before, "Tap to confirm" named no button: the touchscreen had none for confirm, nor a lit choice."""
    from companion.observations import DieRead

    session = Session.new("blackpool", ["yellow", "red"])
    app = start(session)
    app.show("table")
    app.controller.submit(DieRead(4, "camera", 0.3))
    assert until(lambda: app.status)
    assert "Tap to confirm" in app.status and session.log == []
    advance(3)
    table = app.root.get_screen("table")
    lit = [b for b in table.ids.choices.children if getattr(b, "chosen", False)]
    assert [b.action["value"] for b in lit] == [4]
    tap(lit[0])
    assert session.log == [{"type": "roll", "value": 4}]
    assert app.controller.proposal is None and app.highlighted is None


def test_a_reading_dropped_by_undo_leaves_no_choice_lit(start: Any) -> None:
    """Undo dropped the waiting reading and said "enter the value by hand", but its choice stayed lit gold."""
    from companion.observations import DieRead

    session = Session.new("blackpool", ["yellow", "red"])
    app = start(session)
    app.show("table")
    app.controller.submit(DieRead(4, "camera", 0.3))
    assert until(lambda: app.highlighted is not None) and app.highlighted["value"] == 4
    app.undo()
    assert until(lambda: "Reading dropped" in app.status)
    advance(3)
    table = app.root.get_screen("table")
    assert "Reading dropped" in app.status and app.highlighted is None and session.log == []
    assert not any(getattr(b, "chosen", False) for b in table.ids.choices.children)


def test_a_reading_repeated_over_and_over_is_shown_but_said_once(start: Any) -> None:
    from companion.observations import DieRead

    session = Session.new("blackpool", ["yellow", "red"])
    app = start(session)
    for _ in range(30):  # a sensor stuck resending a reading of three dice
        app.controller.submit(DieRead(4, "serial", 0.95, dice=3))
    assert until(lambda: "Take the extra dice out" in app.status)  # one pump takes all 30
    advance(3)
    app.voice.wait()  # the voice speaks on its own thread: what it was given is said before counting
    assert sum("Take the extra dice out" in line for line in app.spoken.lines) == 1
    app.controller.submit(DieRead(4, "serial", 0.95))
    assert until(lambda: bool(session.log))
    assert session.log == [{"type": "roll", "value": 4}]


def pick_targi(home: Any) -> None:
    """Targi and its two colours tapped on the home screen."""
    for parent, text in ((home.ids.games, "Targi"), (home.ids.colours, "White"), (home.ids.colours, "Black")):
        tap(button(parent, text))


def targi_picked_over_blackpool_in_play(start: Any) -> tuple[Any, Session, Any]:
    """The app, its Blackpool game one roll in, and the home screen with Targi picked to start instead."""
    session = Session.new("blackpool", ["yellow", "red"])
    session.act({"type": "roll", "value": 6})
    app = start(session)
    app.show("home")
    advance(3)
    home = app.root.get_screen("home")
    pick_targi(home)
    return app, session, home


def test_starting_a_new_game_over_one_in_play_asks_for_a_second_tap(start: Any) -> None:
    """One tap on Start set the game in play aside for good: the app resumes only the latest game."""
    app, session, home = targi_picked_over_blackpool_in_play(start)
    tap(home.ids.start)
    assert app.root.current == "home" and app.controller.session is session
    assert "Blackpool on the table is not finished (1 step played)" in home.ids.note.text
    tap(home.ids.resume)
    assert app.root.current == "table" and app.controller.session is session and session.log
    app.show("home")
    advance(3)
    pick_targi(home)
    tap(home.ids.start)
    tap(home.ids.start)  # the second tap on the same choice is the answer
    assert app.root.current == "table" and app.game_id == "targi"


def test_a_new_game_over_a_finished_or_untouched_one_starts_at_once(start: Any) -> None:
    app = start(Session.new("blackpool", ["yellow", "red"]))  # nothing played yet: nothing to lose
    app.show("home")
    advance(3)
    home = app.root.get_screen("home")
    pick_targi(home)
    tap(home.ids.start)
    assert app.root.current == "table" and app.game_id == "targi"


def test_a_start_refused_by_the_core_shows_its_clause(start: Any) -> None:
    """The one-tap next table starts the colours remembered in ui.json; one named twice there was refused on
    screen as "each player must be named once", with no clause, where home's own check cites one."""
    app = start()
    app.settings.last_game, app.settings.last_players = "blackpool", ["red", "red"]
    assert not app.new_game_same_players()
    assert app.status == "'red' is named twice: each player plays a colour of their own [BP-Q3]"
    assert app.controller.session is None


@pytest.mark.parametrize("game_id, players", [("targi", ["white", "black"]), ("ttd", ["red", "black"])])
def test_the_hint_for_a_typed_non_object_names_an_action_of_the_game_on_the_table(
    start: Any, game_id: str, players: list[str]
) -> None:
    """'type an object, such as {"type": "roll", "value": 4}' was the hint in Targi and Through the Desert too, which
    have no roll: typed as hinted, it was refused as no action of theirs."""
    app = start(Session.new(game_id, players))
    app.show("dispute")
    dispute = app.root.get_screen("dispute")
    dispute.ids.typed.text = "[99]"  # JSON, not an object (words are matched to offered actions)
    tap(dispute.ids.check)
    text = app.ruling["text"]
    assert text.startswith("Not an action: type an object, such as {") and '"roll"' not in text, text
    hinted = json.loads(text.removeprefix("Not an action: type an object, such as ").removesuffix("."))
    dispute.ids.typed.text = json.dumps(hinted)
    tap(dispute.ids.check)
    assert app.ruling["legal"] is True, app.ruling  # the hint is an action the game takes now
    assert app.controller.session.log == []
