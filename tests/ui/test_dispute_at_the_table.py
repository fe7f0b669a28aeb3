"""The dispute screen as a referee uses it at a noisy table: what the empty field says, what Enter does.

The field's placeholder was '{"type": "move", ...}', JSON a café's referee
had never seen, and Enter on a keyboard plugged in put a new line in the
action (the field wraps a long one) instead of asking the question.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window

from tests.ui import test_portrait
from tests.ui.conftest import advance, tap
from tests.ui.test_app import button
from tests.ui.test_voice_words import spoken_now
from ui.shots import mid_game

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, states and key presses; never the pixels
window_size = test_portrait.window_size

ROLL_7 = {"type": "roll", "value": 7}  # the oracle "showed 7": refused with BP-Q5, the oracle's faces


def dispute_of(app: Any) -> Any:
    """The table's Dispute tapped: the dispute screen."""
    tap(button(app.root.get_screen("table"), "Dispute"))
    return app.root.get_screen("dispute")


def one_line(field: Any, text: str) -> bool:
    """Whether ``text`` fits the field's width on one line in its type."""
    probe = CoreLabel(text=text, font_size=field.font_size)
    probe.refresh()
    return bool(probe.texture.size[0] <= field.width - field.padding[0] - field.padding[2])


@pytest.mark.parametrize("percent", [100, 120])
@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_the_empty_field_says_in_words_what_to_do(size: tuple[int, int], percent: int, start: Any,
                                                  window_size: Any) -> None:
    """Emptied, the field says to tap Build or type the action, in words, naming the button as it reads; while
    building, to pick it in the lists. Each on one line, upright at 120% too."""
    app = start(mid_game("blackpool"))
    window_size(size)
    app.settings.display_scale = percent
    app.scale = percent / 100
    dispute = dispute_of(app)
    field = dispute.ids.typed
    field.text = ""
    advance(2)
    hint = field.hint_text
    assert not set(hint) & set('{}"[]'), hint
    assert "Build" in hint and "Build" in dispute.ids.build.text and "type" in hint
    assert one_line(field, hint), (hint, field.width)
    tap(dispute.ids.build)
    field.text = ""
    advance(2)
    assert field.hint_text != hint and "lists" in field.hint_text and one_line(field, field.hint_text)


@pytest.mark.parametrize("key", [13, 271])  # Return, the keypad's Enter
def test_enter_in_the_field_asks_the_question(key: int, start: Any) -> None:
    """A referee with a keyboard types the action and presses Enter: the question is asked, as Check asks it
    (NOT ALLOWED, the clause), the field keeps its one line and its focus, and the game takes no step."""
    session = mid_game("blackpool")
    before = list(session.log)
    app = start(session)
    dispute = dispute_of(app)
    field = dispute.ids.typed
    tap(field)  # focused by a real touch, as a finger or a mouse focuses it
    assert field.focus
    field.text = json.dumps(ROLL_7)
    field.cursor = (len(field.text), 0)
    Window.dispatch("on_key_down", key, 40, None, [])
    advance(2)
    assert "\n" not in field.text and field.text == json.dumps(ROLL_7)
    assert app.ruling.get("legal") is False and app.ruling.get("rules") == ["BP-Q5"], app.ruling
    assert dispute.ids.ruling.text.startswith("NOT ALLOWED") and "BP-Q5" in dispute.ids.ruling.text
    assert field.focus and session.log == before


def table_as_shown(app: Any) -> tuple[Any, ...]:
    """What the table shows and holds: the game's steps, its status line, its list of what happened, its choices."""
    table = app.root.get_screen("table")
    session = app.controller.session
    return (json.dumps(session.log), app.prompt, app.status, table.ids.status.text, list(app.announcements),
            [c.get("text") for c in app.choices])


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_what_is_checked_in_a_dispute_leaves_the_table_as_it_was(size: tuple[int, int], start: Any,
                                                                  window_size: Any) -> None:
    """The oracle "showed 7": checked on the dispute screen, it is refused as no roll (BP-Q5), and Back to the table
    showed that refusal as the table's newest line and its status in red, as if the table had entered a 7. An
    offered action checked there blanked the status line. Now the table is as it was left: its status (here a
    tap refused at the table), its list, its choices, its steps."""
    session = mid_game("blackpool")
    app = start(session)
    window_size(size)
    app.act({"type": "roll", "value": 9})  # a slip at the table, refused: the status line says why
    advance(2)
    before = table_as_shown(app)
    assert app.status and before[3] == app.status
    dispute = dispute_of(app)
    for typed in (json.dumps(ROLL_7), json.dumps({k: v for k, v in session.legal()[0].items() if k != "text"})):
        dispute.ids.typed.text = typed
        tap(dispute.ids.check)
        assert app.ruling.get("rules"), app.ruling
    assert app.ruling.get("legal") is True  # the last, the offered action, is ruled on
    tap(dispute.ids.back)
    assert app.root.current == "table"
    assert table_as_shown(app) == before


@pytest.mark.parametrize("game_id", ["blackpool", "desert", "targi", "temple", "ttd"])
def test_words_typed_are_read_as_words_and_nonsense_is_answered_with_what_to_do(game_id: str, start: Any) -> None:
    """Words typed, or the field emptied, were read as JSON: "Not an action: Expecting value.", Python's words for
    a JSON slip, with no clause. An offered action's words (any case) are that action, ruled on as its tap is;
    words no offered action has, and an empty field, are answered with what to do (Build, or tap one), beside the
    clause on what may be done now. The game and the table are untouched."""
    session = mid_game(game_id)
    app = start(session)
    before = table_as_shown(app)
    dispute = dispute_of(app)
    offered = session.legal()[-1]
    dispute.ids.typed.text = f"  {offered['text'].upper()} "
    tap(dispute.ids.check)
    assert app.ruling.get("legal") is True and dispute.ids.ruling.text.startswith("ALLOWED"), app.ruling
    for typed, said in (("roll a seven please", "no action offered now has the words 'roll a seven please'"),
                        ("", "nothing is typed"), ("   ", "nothing is typed")):
        dispute.ids.typed.text = typed
        tap(dispute.ids.check)
        text = dispute.ids.ruling.text
        assert text.startswith(f"NOT ALLOWED: Not an action: {said}") and "Tap " in text and "Build" in text, text
        assert "Expecting" not in text and app.ruling["rules"] == [session.shape_rule()], app.ruling
        assert dispute.ids.rules.text == f"Rules: {session.shape_rule()}"
    several = session.legal()[0]["text"].split()[0]  # a first word most offered actions share, in most games
    fitting = [a for a in session.legal() if several.lower() in a["text"].lower().split()]
    if len(fitting) > 1:
        dispute.ids.typed.text = several
        tap(dispute.ids.check)
        assert f"fits {len(fitting)} offered actions" in dispute.ids.ruling.text, dispute.ids.ruling.text
    tap(dispute.ids.back)
    assert table_as_shown(app) == before


def test_an_answer_that_is_no_ruling_is_said_and_said_again(start: Any) -> None:
    """At a table listening to the voice, words no offered action holds were answered on the screen only, and Say
    again then said the ruling before them ("Yellow rolls 1 ...") under a screen answering "Not an action"."""
    session = mid_game("blackpool")
    app = start(session)
    dispute = dispute_of(app)
    tap(dispute.ids.check)  # the first offered action, ruled on and said
    ruled = spoken_now(app)
    assert app.ruling.get("legal") is True and ruled
    dispute.ids.typed.text = "roll a seven"
    tap(dispute.ids.check)
    assert app.ruling["text"].startswith("Not an action: no action offered now has the words 'roll a seven'")
    heard = spoken_now(app)
    assert heard != ruled and heard.startswith("Not an action") and "roll a seven" in heard, heard
    tap(dispute.ids.repeat)
    assert spoken_now(app) == heard
