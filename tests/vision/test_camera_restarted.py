"""A camera started afresh over a game whose last step was taken back with undo (Settings' Save with another
source, the camera switched off and on, the app started again over its journal): what the undone step left lying
on the table is no news, while a card laid, or a die thrown, once the camera reads is taken as before.

Real OpenCV, the real card and d6 readers on folders of rendered frames, a real SQLite journal.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.controller import Controller
from companion.journal import Journal
from companion.observations import CardsSeen, LinkChanged, Touch
from companion.session import Session
from tests.vision.test_feed import (
    LOOKS_UNIQUE,
    board_frame,
    camera_sees,
    dice_news,
    die_at,
    hand_over,
    laid_board,
    on_the_table,
    tumbling,
    write_frames,
)
from vision.dice_render import render_dice_scene
from vision.feed import CameraFeed


def read_afresh(controller: Controller, folder: Path) -> tuple[list, list]:
    """A new camera over ``folder``, read to its end: what it told, and the table's answers."""
    seen: list = []

    def submit(observation: object) -> None:
        seen.append(observation)
        controller.submit(observation)

    with CameraFeed(str(folder), submit, mode="cards", fps=None, card_interval=0) as feed:
        assert feed.ended.wait(60)
    return seen, controller.pump()


def undone_change(journal: Journal | None = None) -> tuple[Session, dict, dict[int, str | None]]:
    """A temple game whose path card change was taken and then taken back: the game, the change, and the table
    with its new card still lying in the slot."""
    session = laid_board(journal=journal)
    change = next(a for a in session.legal() if a["type"] == "change" and a["card"] in LOOKS_UNIQUE)
    session.act(change)
    session.undo()
    return session, change, on_the_table(session) | {change["slot"]: change["card"]}


def test_a_camera_started_afresh_names_the_undone_change_still_lying_and_takes_it_laid_again(tmp_path: Path) -> None:
    """The fresh card tracker told every card in view, and the undone change, its card lying there until the old one
    is put back, was taken again ("Blue replaces P01 in slot 1 with P13"). Lifted and laid again once the camera
    reads, it is the change made anew."""
    session, change, lying = undone_change()
    slot, old = change["slot"], on_the_table(session)[change["slot"]]
    steps = len(session.log)
    frames = [board_frame(lying)] * 6 + [board_frame(lying | {slot: None})] * 6 + [board_frame(lying)] * 6
    seen, updates = read_afresh(Controller(session), write_frames(tmp_path / "frames", frames))
    first = next(o for o in seen if isinstance(o, CardsSeen))
    assert first.slots == lying and first.first_seen == frozenset(lying)
    said = [u.text for u in updates if u.kind == "info" and "still shows" in u.text]
    assert said == [f"Slot {slot} still shows {change['card']}, from the change taken back: not taken again. Put "
                    f"{old} back in slot {slot} as the undo asked, or Redo puts the change back."]
    [step] = [u for u in updates if u.kind == "step"]  # the card laid again, seen laid
    assert step.action == {k: v for k, v in change.items() if k != "text"} and len(session.log) == steps + 1


def test_the_undone_change_is_named_after_the_app_starts_again_over_its_journal(tmp_path: Path) -> None:
    """The journal keeps the undo, so the game that comes back knows its step was taken back."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    _, change, lying = undone_change(journal)
    journal.close()
    journal = Journal(path)
    session = Session.resume(journal)
    assert session is not None and session.taken_back[-1] == {k: v for k, v in change.items() if k != "text"}
    steps = len(session.log)
    _, updates = read_afresh(Controller(session), write_frames(tmp_path / "frames", [board_frame(lying)] * 8))
    journal.close()
    assert [u.text for u in updates if u.kind in ("step", "confirm")] == []
    assert len(session.log) == steps and any("still shows" in u.text for u in updates)


def test_a_draw_taken_back_its_card_still_lying_is_not_drawn_again(tmp_path: Path) -> None:
    """The same for a card drawn: undone, its card lay in the slot it filled and was taken as the draw again."""
    session = laid_board(draws=10)
    draw = next(a for a in session.legal() if a["type"] == "draw" and a["card"] in LOOKS_UNIQUE)
    session.act(draw)
    lying = on_the_table(session)
    session.undo()
    steps = len(session.log)
    _, updates = read_afresh(Controller(session), write_frames(tmp_path / "frames", [board_frame(lying)] * 8))
    assert [u.text for u in updates if u.kind in ("step", "confirm")] == []
    assert [u.text for u in updates if "still shows" in u.text] == [
        f"Slot 11 still shows {draw['card']}, from the draw taken back: not taken again. Take {draw['card']} off "
        "slot 11 as the undo asked, or Redo puts the draw back."]
    assert len(session.log) == steps


def test_a_change_made_while_the_camera_was_off_is_still_taken(tmp_path: Path) -> None:
    """Only what undo took back is named: a card that differs from the game for no undo is a change to judge."""
    session = laid_board()
    change = next(a for a in session.legal() if a["type"] == "change" and a["card"] in LOOKS_UNIQUE)
    lying = on_the_table(session) | {change["slot"]: change["card"]}
    _, updates = read_afresh(Controller(session), write_frames(tmp_path / "frames", [board_frame(lying)] * 8))
    [step] = [u for u in updates if u.kind == "step"]
    assert step.action == {k: v for k, v in change.items() if k != "text"}


def test_a_die_lying_since_the_camera_started_is_no_roll_when_a_hand_passes_first(d6_reader) -> None:
    """A camera started as a hand passed over the tray: the die lying there all along, whose roll was just taken
    back, settled after that motion and was taken as the roll again."""
    session = Session.new("blackpool", ["yellow", "red"])
    controller = Controller(session)
    assert controller.handle(Touch("act", {"type": "roll", "value": 6})).kind == "step"
    assert controller.handle(Touch("undo")).kind == "undo"
    seen: list = []

    def submit(observation: object) -> None:
        seen.append(observation)
        controller.submit(observation)

    still = die_at(1)
    camera_sees([still, *hand_over(still), *[still] * 8], submit, d6_reader)  # a new camera, after the undo
    updates = controller.pump()
    assert session.log == [] and dice_news(seen) == []
    notes = [o.detail for o in seen if isinstance(o, LinkChanged) and "already" in o.detail]
    assert notes == ["6 already lay in view when the camera began reading: not taken as a roll (roll to play)"]
    assert not [u for u in updates if u.kind in ("step", "confirm")]


def test_a_die_thrown_as_the_camera_starts_is_still_a_roll(d6_reader) -> None:
    """The first picture showed the tray bare where the die lands: a throw, taken."""
    controller = Controller(Session.new("blackpool", ["yellow", "red"]))
    bare = render_dice_scene(np.random.default_rng(1), 640, 480, values=[])[0]  # die_at(1)'s tray, bare
    camera_sees([bare, *tumbling(7), *[die_at(1)] * 6], controller.submit, d6_reader)
    controller.pump()
    assert controller.session.log == [{"type": "roll", "value": 6}]


def test_a_die_thrown_where_a_hand_hid_the_tray_as_the_camera_started_is_still_a_roll(d6_reader) -> None:
    """A box of one even colour in the first picture (a hand over the tray, a plain tray) matched any die at 1.0, so
    the throw that landed there was named as lying there since the camera began."""
    landed = die_at(1)
    ((x0, y0, x1, y1),) = [die.box for die in d6_reader.read(landed)]
    hidden = landed.copy()
    hidden[round(y0) - 10:round(y1) + 10, round(x0) - 10:round(x1) + 10] = (120, 150, 200)  # a sleeve over it
    controller = Controller(Session.new("blackpool", ["yellow", "red"]))
    camera_sees([hidden, *tumbling(7), *[landed] * 6], controller.submit, d6_reader)
    controller.pump()
    assert controller.session.log == [{"type": "roll", "value": 6}]
