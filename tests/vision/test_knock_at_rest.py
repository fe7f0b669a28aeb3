"""A camera knocked while no dice are read in the marked tray: while it is empty, or so that the dice leave it.

The picture is otherwise compared only when dice settle, so the marked area
stayed where it was, off the tray, and the next roll was missed or read in
part. Videos written here (MJPG, real OpenCV) through the real feed into a
real controller and a journalled Blackpool session, and through `vision watch`.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.observations import DieRead, LinkChanged
from tests.vision.test_camera_knocked import Table, recorded, recorded_once, video_name
from tests.vision.test_knock_plain_tray import PlainTray
from tests.vision.test_knock_tray import KNOCK, MARKED, knocked_tray, near, play
from vision.cli import main
from vision.knock import carried_out, knocked_at_rest
from vision.readings import DieReading
from vision.tray_area import TrayArea

AT = (-KNOCK[0], -KNOCK[1])  # the knocked camera's view of the table
AREA = MARKED.pixels((480, 640))
THREE = (3, (416.0, 351.0), 81.0)  # seen by the knocked camera at (440, 365): over the old area's corner


def thrown_in(table: Table, at: tuple[int, int], die: tuple[int, tuple[float, float], float]) -> list[np.ndarray]:
    """A die thrown in from beside the tray, seen by a camera at ``at``, then lying still."""
    value, (cx, cy), _ = die
    frames = [table.view((value, (cx + 150 - 15 * k, cy + 30 - 3 * k), 9.0 * k), at=at) for k in range(10)]
    return frames + [table.view(die, at=at) for _ in range(45)]


def empty_knock(table: Table, tmp_path: Path, light: float = 1.0) -> str:
    """The tray empty and still; the camera knocked; still again; then a 3 thrown into the tray where the knocked
    camera sees the area's corner."""

    def frames() -> list[np.ndarray]:
        return [*(table.view() for _ in range(20)),
                *(table.view(at=AT) for _ in range(30)),  # knocked between two frames: too smooth a table for the gate
                *thrown_in(table, AT, THREE)]

    return recorded_once(video_name("empty", table, AT, THREE), tmp_path, frames)


def test_a_marked_tray_follows_a_camera_knocked_while_the_tray_was_empty(tmp_path: Path) -> None:
    """Nothing settled in the tray, so nothing was compared: the area stayed off the tray and the next throw,
    landing in the tray's far corner, was read in part or not at all."""
    session, seen, kept, final = play(empty_knock(Table(), tmp_path), MARKED)
    assert near(final.as_list(), knocked_tray()) and kept == [final]
    notes = [o.detail for o in seen if isinstance(o, LinkChanged) and "knocked" in o.detail]
    assert notes == [f"the picture moved 28 px while no dice were read in the marked tray (the camera was knocked?). "
                     f"The marked tray moved with the picture: dice are read in {final.words()}"], notes
    assert [o.table for o in seen if isinstance(o, LinkChanged) and "knocked" in o.detail] == [
        "The camera was knocked; it still reads the tray."]  # the players' words: no pixels
    assert [o.value for o in seen if isinstance(o, DieRead)] == [3]
    assert [a["value"] for a in session.log] == [3]


EDGE_FIVE = (5, (415.0, 300.0), 20.0)  # lying by the marked area's right side (448 px)
SHOVE = (-40, -6)  # the knocked camera's view: the 5 appears 40 px right, over the area's side


def carried_knock(table: Table, tmp_path: Path, shove: tuple[int, int] = SHOVE) -> str:
    """The 5 thrown and lying by the area's side; the camera knocked so that the 5 lies half out of the area;
    still again; the 5 taken out and a 3 thrown into the tray."""
    frames = [table.view() for _ in range(20)] + table.throw(*EDGE_FIVE)
    frames += [table.view(EDGE_FIVE, at=(shove[0] * k // 3, shove[1] * k // 3)) for k in (1, 2)]
    frames += [table.view(EDGE_FIVE, at=shove) for _ in range(45)]
    frames += [table.view(at=shove) for _ in range(10)]
    frames += thrown_in(table, shove, (3, (330.0, 250.0), 81.0))
    return recorded(tmp_path / f"carried-{type(table).__name__}-{shove[0]}.avi", frames)


def test_dice_carried_half_out_of_the_marked_tray_by_a_knock(tmp_path: Path) -> None:
    """Half out of the area the 5 is read no more, so no dice settled and nothing was compared: the area stayed
    off the tray. Now it follows the picture, the 5 is read in it again without a word, and the next throw is
    read as before."""
    session, seen, kept, final = play(carried_knock(Table(), tmp_path), MARKED)
    moved = MARKED.shifted(-SHOVE[0] / 640, -SHOVE[1] / 480)
    assert moved is not None and near(final.as_list(), moved.as_list()) and kept == [final]
    notes = [o.detail for o in seen if isinstance(o, LinkChanged) and "knocked" in o.detail]
    assert notes == [f"the picture moved 40 px while no dice were read in the marked tray (the camera was knocked?). "
                     f"The marked tray moved with the picture: dice are read in {final.words()}"], notes
    assert [o.value for o in seen if isinstance(o, DieRead)] == [5, 3]
    assert [a["value"] for a in session.log] == [5, 3]


def test_dice_carried_out_of_a_plain_marked_tray_ask_for_it_to_be_marked_again(tmp_path: Path) -> None:
    """A felt filling the view measures no shift: the 5 found beside the area, moved as one picture, tells it,
    and the area is left for the café to mark again (a guess from one die would move every later roll)."""
    session, seen, kept, final = play(carried_knock(PlainTray(), tmp_path), MARKED)
    assert final == MARKED and kept == []
    notes = [o.detail for o in seen if isinstance(o, LinkChanged) and "knocked" in o.detail]
    assert notes == ["the dice moved 40 px all together, out of the marked tray, each face turned as before (the "
                     "camera was knocked?). Check the marked tray: if it no longer lies on the tray, mark the tray "
                     "again"], notes
    assert [o.table for o in seen if isinstance(o, LinkChanged) and "knocked" in o.detail] == [
        "The camera was knocked (owner: mark the tray again on the camera screen)."]
    assert [a["value"] for a in session.log] == [5, 3]


def test_a_die_read_in_part_over_a_plain_marked_tray_s_side_is_no_roll(tmp_path: Path) -> None:
    """Carried 30 px, the 5 lies over the area's side and is read in part, as a 6: offered to the table as a roll
    nobody threw. Found moved as one picture over the side, it is the 5 that lay there."""
    session, seen, kept, final = play(carried_knock(PlainTray(), tmp_path, (-30, -6)), MARKED)
    assert [o.value for o in seen if isinstance(o, DieRead)] == [5, 3]
    assert [a["value"] for a in session.log] == [5, 3]
    notes = [o.detail for o in seen if isinstance(o, LinkChanged) and "knocked" in o.detail]
    assert len(notes) == 1 and notes[0].startswith("the dice moved 31 px all together"), notes
    assert notes[0].endswith("Check the marked tray: if it no longer lies on the tray, mark the tray again")
    assert final == MARKED and kept == []


def with_hand(table: Table, die: tuple[int, tuple[float, float], float] | None, reach: float,
              light: float = 1.0) -> np.ndarray:
    """The table with a hand reaching ``reach`` (0..1) in from the bottom edge over the tray, drawn over the die."""
    img = table.scene(die)
    if reach > 0:
        tip = int(img.shape[0] - reach * 300)
        cv2.rectangle(img, (380, tip), (520, img.shape[0]), (120, 160, 215), -1)
    return table.shot(img, (0, 0), light)


def test_hands_light_and_rolls_over_an_empty_marked_tray_are_no_knock(tmp_path: Path) -> None:
    """A hand reaching in and away, the lamp dimmed by a fifth, a die thrown and lifted out: the marked area
    stays, nothing is said of a camera, and the roll is read."""
    table = Table()
    five = (5, (400.0, 300.0), 20.0)
    frames = [table.view() for _ in range(20)]
    frames += [with_hand(table, None, k / 5) for k in (1, 2, 3, 4, 5, 4, 3, 2, 1)] + [table.view() for _ in range(30)]
    frames += [table.view(light=0.8) for _ in range(40)]
    frames += table.throw(*five)
    frames += [with_hand(table, five if k < 5 else None, min(k, 10 - k) / 5) for k in range(1, 10)]
    frames += [table.view() for _ in range(40)]
    session, seen, kept, final = play(recorded(tmp_path / "no-knock.avi", frames), MARKED)
    assert final == MARKED and kept == []
    assert not [o.detail for o in seen if isinstance(o, LinkChanged) and "knocked" in o.detail]
    assert [a["value"] for a in session.log] == [5]


def test_an_idle_tray_compares_a_picture_that_changed_once_until_it_changes_more(monkeypatch) -> None:
    """A cup set down beside the tray changes the picture for good: compared once, not at every idle read."""
    import vision.knock as knock

    table = Table()
    compared: list[int] = []
    shift = knock.picture_shift
    monkeypatch.setattr(knock, "picture_shift", lambda *a: compared.append(1) or shift(*a))
    rest = knock.TableAtRest()
    assert rest.knock(table.view(), None, AREA, None, True) is None  # the first picture: kept, nothing to compare
    for _ in range(5):
        assert rest.knock(table.view(), None, AREA, None, False) is None
    assert compared == []  # unchanged: not compared at all
    cup = with_hand(table, (1, (560.0, 80.0), 0.0), 0.2)
    for _ in range(5):
        assert rest.knock(cup, None, AREA, None, False) is None
    assert compared == [1]
    found = rest.knock(table.view(at=AT), None, AREA, None, False)
    assert found is not None and found.told_by == "picture" and near_shift(found.shift, KNOCK)
    assert knocked_at_rest(table.view(), table.view(light=0.8), None, AREA) is None


def near_shift(shift: tuple[float, float], wanted: tuple[int, int]) -> bool:
    return abs(shift[0] - wanted[0]) < 1.0 and abs(shift[1] - wanted[1]) < 1.0


def test_a_die_lifted_out_of_a_plain_tray_is_not_carried_out() -> None:
    """Gone from the picture, or laid down turned otherwise, the die tells no knock; moved as one picture, it does."""
    tray = PlainTray()
    lying = tray.view(EDGE_FIVE)
    die = [DieReading(5, None, 0.97, (387.0, 272.0, 443.0, 328.0))]
    still = lambda boxes: False  # noqa: E731 - nothing else moved in view
    assert carried_out(die, lying, tray.view(), AREA, still) is None
    assert carried_out(die, lying, tray.view((5, (455.0, 306.0), 50.0)), AREA, still) is None
    knock = carried_out(die, lying, tray.view(EDGE_FIVE, at=SHOVE), AREA, still)
    assert knock is not None and knock.told_by == "dice" and near_shift(knock.shift, (40, 6))
    assert carried_out(die, lying, tray.view(EDGE_FIVE, at=SHOVE), AREA, lambda boxes: True) is None


def test_watch_follows_a_knock_while_the_tray_was_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`vision watch --tray` says what the table says, and reads the throw in the moved tray."""
    assert main(["vision", "watch", empty_knock(Table(), tmp_path), "--tray", "0.15,0.2,0.7,0.8"]) == 0
    out = capsys.readouterr().out
    moved = TrayArea(*knocked_tray())
    assert ("the picture moved 28 px while no dice were read in the marked tray (the camera was knocked?): the marked "
            f"tray moved with the picture: dice are read in {moved.words()}") in out, out
    said = [line.split("sure: ", 1)[1] for line in out.splitlines() if "settled" in line]
    assert said == ["the table would take it"], said


def test_a_camera_arm_sagging_a_little_at_a_time_is_followed(tmp_path: Path) -> None:
    """A pixel every few frames is no motion to the gate, so no still period ever began: the idle tray's reads
    compare the picture once it has changed, and the area follows it step by step onto the tray."""
    table = Table()
    frames = [table.view() for _ in range(20)]
    frames += [table.view(at=(round(AT[0] * k / 84), round(AT[1] * k / 84))) for k in range(1, 85)]
    frames += [table.view(at=AT) for _ in range(30)] + thrown_in(table, AT, THREE)
    session, seen, kept, final = play(recorded(tmp_path / "sagging.avi", frames), MARKED)
    wanted = knocked_tray()
    assert all(abs(a - b) <= 3 / 640 for a, b in zip(final.as_list(), wanted, strict=True)), (final, wanted)
    assert kept and kept[-1] == final
    notes = [o.detail for o in seen if isinstance(o, LinkChanged) and "knocked" in o.detail]
    assert notes and all(n.startswith("the picture moved") for n in notes), notes
    assert [a["value"] for a in session.log] == [3]
