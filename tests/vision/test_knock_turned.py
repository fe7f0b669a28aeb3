"""A camera turned or tilted on its mount rather than slid: no one shift explains the picture.

The marked tray stayed where it was, off the tray, and the next roll was read
in part or missed. Videos written here (MJPG, real OpenCV) through the real
feed into a real controller and a journalled Blackpool session, and through
`vision watch`; the table, tray and dice drawn by the project's render helpers.
"""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.observations import DieRead, LinkChanged
from tests.vision.test_camera_knocked import HEIGHT, MARGIN, SIZE, WIDTH, Table, recorded, recorded_once, video_name
from tests.vision.test_knock_plain_tray import PlainTray
from tests.vision.test_knock_tray import MARKED, play
from vision import knock
from vision.cli import main
from vision.dice_render import draw_face, paste_rotated, speckled_background
from vision.knock import Knock, followed_tray
from vision.motion import picture_shift
from vision.picture_turn import Turn, picture_turn
from vision.tray_area import TrayArea

Die = tuple[int, tuple[float, float], float]


def camera(angle: float = 0.0, scale: float = 1.0, tilt: float = 0.0, at: tuple[float, float] = (0, 0)) -> np.ndarray:
    """The homography taking a point of the picture before to where the camera, turned ``angle`` degrees (the
    picture turns anticlockwise), drawn ``scale`` times larger, tilted by ``tilt`` (one side of the picture
    drawn nearer) and slid to ``at`` on the table, sees it."""
    centre = (WIDTH / 2, HEIGHT / 2)
    turn = np.vstack([cv2.getRotationMatrix2D(centre, angle, scale), [0.0, 0.0, 1.0]])
    lean = np.eye(3)
    lean[2, 1] = tilt
    about = np.array([[1.0, 0.0, -centre[0]], [0.0, 1.0, -centre[1]], [0.0, 0.0, 1.0]])
    slide = np.array([[1.0, 0.0, -at[0]], [0.0, 1.0, -at[1]], [0.0, 0.0, 1.0]])
    return np.linalg.inv(about) @ lean @ about @ turn @ slide


def seen(table: Table, moved: np.ndarray, lying: Die | None = None, thrown: Die | None = None,
         light: float = 1.0, hand: float = 0.0) -> np.ndarray:
    """What the camera moved by ``moved`` (`camera`) sees: ``lying`` lies on the table and moves with the
    picture, ``thrown`` lands at its place in the picture seen (drawn after the camera moved)."""
    img = moved_table(table, moved, lying, hand)
    if thrown is not None:
        img = img.copy()
        value, (cx, cy), angle = thrown
        paste_rotated(img, draw_face(value, SIZE, (245, 245, 245), (20, 20, 20)), (cx + MARGIN, cy + MARGIN), angle)
    return table.shot(img, (0, 0), light)


def moved_table(table: Table, moved: np.ndarray, lying: Die | None, hand: float) -> np.ndarray:
    """The table with ``lying`` (and a ``hand``) on it as the camera moved by ``moved`` sees it, before the sensor's
    noise: the same for every frame a video holds still, so drawn once per table and kept (`seen` draws on a copy)."""
    kept = table.__dict__.setdefault("_moved", {})
    key = (moved.tobytes(), lying, hand)
    if key not in kept:
        img = table.scene(lying)
        if hand > 0:
            tip = int(img.shape[0] - hand * 300)
            cv2.rectangle(img, (380, tip), (520, img.shape[0]), (120, 160, 215), -1)
        onto = np.array([[1.0, 0.0, MARGIN], [0.0, 1.0, MARGIN], [0.0, 0.0, 1.0]])
        whole = onto @ moved @ np.linalg.inv(onto)  # the same move on the table drawn round the view
        kept[key] = cv2.warpPerspective(img, whole, (img.shape[1], img.shape[0]), flags=cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_REFLECT)
    return kept[key]


def moved_area(area: TrayArea, moved: np.ndarray) -> list[float]:
    """The upright box round the marked area's corners moved by ``moved``, as shares of the picture."""
    x0, y0, x1, y1 = area.pixels((HEIGHT, WIDTH))
    corners = cv2.perspectiveTransform(np.float64([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]]), moved)
    xs, ys = corners[:, 0, 0] / WIDTH, corners[:, 0, 1] / HEIGHT
    return [float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())]


def near(area: list[float], wanted: list[float], px: float = 3.0) -> bool:
    return all(abs(a - b) * WIDTH <= px for a, b in zip(area, wanted, strict=True))


TURN_AND_SLIDE = camera(4.0, at=(-24, -14))  # the picture turns, and slides right and down
THREE = (3, (440.0, 365.0), 81.0)  # landing over the marked area's corner as it was (448, 384 px)


def thrown_in(table: Table, moved: np.ndarray, die: Die) -> list[np.ndarray]:
    """A die thrown in from beside the tray, seen by the moved camera, then lying still."""
    value, (cx, cy), _ = die
    frames = [seen(table, moved, thrown=(value, (cx + 150 - 15 * k, cy + 30 - 3 * k), 9.0 * k)) for k in range(10)]
    return frames + [seen(table, moved, thrown=die) for _ in range(45)]


def empty_turn(table: Table, tmp_path: Path, moved: np.ndarray = TURN_AND_SLIDE, die: Die = THREE) -> str:
    """The marked tray empty and still; the camera turned between two frames; still again; a die thrown."""

    def frames() -> list[np.ndarray]:
        return [*(seen(table, camera()) for _ in range(20)), *(seen(table, moved) for _ in range(30)),
                *thrown_in(table, moved, die)]

    return recorded_once(video_name("turned", table, moved, die), tmp_path, frames)


def knocked_notes(seen_: list) -> list[str]:
    return [o.detail for o in seen_ if isinstance(o, LinkChanged) and "knocked" in o.detail]


def test_a_marked_tray_follows_a_camera_turned_while_the_tray_was_empty(tmp_path: Path) -> None:
    """Turned 4 degrees and slid: no one shift explains the picture, so nothing was said and the area stayed off
    the tray; the 3 thrown into the tray's corner was read in part or missed. Now the area is the box round the
    tray's corners as the camera sees them, kept by the front end, and the 3 is read."""
    session, told, kept, final = play(empty_turn(Table(), tmp_path), MARKED)
    assert near(final.as_list(), moved_area(MARKED, TURN_AND_SLIDE)), (final, moved_area(MARKED, TURN_AND_SLIDE))
    assert kept == [final]
    assert knocked_notes(told) == [
        "the picture turned 4 degrees anticlockwise and moved 28 px while no dice were read in the marked tray (the "
        f"camera was knocked?). The marked tray moved with the picture: dice are read in {final.words()}"]
    assert [o.value for o in told if isinstance(o, DieRead)] == [3]
    assert [a["value"] for a in session.log] == [3]


TILTED = camera(0.0, 1.02, 0.0001, at=(-10, -6))  # the camera tipped a few degrees: the far side drawn smaller


def test_a_marked_tray_follows_a_camera_tilted_while_the_tray_was_empty(tmp_path: Path) -> None:
    """Tipped a few degrees, the camera sees the tray's near side larger, its far side smaller: no one shift."""
    session, told, kept, final = play(empty_turn(Table(), tmp_path, TILTED, (3, (330.0, 250.0), 40.0)), MARKED)
    assert near(final.as_list(), moved_area(MARKED, TILTED)), (final, moved_area(MARKED, TILTED))
    assert kept == [final]
    notes = knocked_notes(told)
    assert len(notes) == 1 and notes[0].startswith("the picture tilted"), notes
    assert notes[0].endswith(f"The marked tray moved with the picture: dice are read in {final.words()}")
    assert [a["value"] for a in session.log] == [3]


FIVE = (5, (260.0, 220.0), 20.0)
TURNED = camera(3.0, at=(-24, -14))


def lying_turn(table: Table, tmp_path: Path) -> str:
    """A 5 thrown into the marked tray and lying still; the camera turned 3 degrees and slid; still again; the
    5 taken out and a 3 thrown."""
    frames = [seen(table, camera()) for _ in range(20)] + table.throw(*FIVE)
    frames += [seen(table, TURNED, lying=FIVE) for _ in range(45)]
    frames += [seen(table, TURNED) for _ in range(10)] + thrown_in(table, TURNED, THREE)
    return recorded(tmp_path / "lying-turned.avi", frames)


def test_a_die_lying_while_the_camera_is_turned_is_no_roll(tmp_path: Path) -> None:
    """The 5 moved with the turned picture: told as a new roll, Blue was given Red's 5. Now it lies where it
    lay, the marked tray follows the picture, and the 3 thrown next is read."""
    session, told, kept, final = play(lying_turn(Table(), tmp_path), MARKED)
    assert [a["value"] for a in session.log] == [5, 3]
    notes = [o.detail for o in told if isinstance(o, LinkChanged) and "lie where they lay" in o.detail]
    assert len(notes) == 1, notes
    assert notes[0].startswith("the picture turned 3 degrees anticlockwise and moved 28 px (the camera was knocked?), "
                               "but the dice lie where they lay"), notes
    assert notes[0].endswith(f"The marked tray moved with the picture: dice are read in {final.words()}")
    assert near(final.as_list(), moved_area(MARKED, TURNED)) and kept == [final]


def test_the_turn_is_measured_only_when_the_whole_picture_turned() -> None:
    """Turned, tipped or slid with a turn, the picture's corners are found within 3 px; an ordinary roll, a hand
    held still over the table, a lamp dimmed, a game board slid and turned on the still table, or a plain tray
    that shows nothing to follow, are no turn."""
    table = Table()
    before = seen(table, camera(), lying=FIVE)
    boxes = [(232.0, 192.0, 288.0, 248.0)]
    corners = [(0.0, 0.0), (640.0, 0.0), (640.0, 480.0), (0.0, 480.0)]
    for moved in (camera(4.0), camera(-6.0, at=(10, -20)), TURN_AND_SLIDE, TILTED, camera(0.0, 1.05)):
        turn = picture_turn(before, seen(table, moved, lying=FIVE), boxes)
        assert turn is not None and turn.followable
        wanted = cv2.perspectiveTransform(np.float64([[c] for c in corners]), moved).reshape(-1, 2)
        assert np.abs(np.array(turn.points(corners)) - wanted).max() < 3.0, (turn.points(corners), wanted)
    thrown = (3, (450.0, 330.0), 60.0)
    for after in (seen(table, camera(), lying=FIVE), seen(table, camera(), lying=FIVE, light=0.8),
                  seen(table, camera(), thrown=thrown), seen(table, camera(), lying=FIVE, hand=0.6)):
        assert picture_turn(before, after, [*boxes, (415.0, 295.0, 485.0, 365.0)]) is None
    board = with_board(table, 0.0, 0)
    for angle, dx in ((5.0, 0), (3.0, 20), (8.0, -10), (0.0, 15)):
        assert picture_turn(board, with_board(table, angle, dx)) is None
        assert picture_shift(board, with_board(table, angle, dx)) is None
    plain = PlainTray()
    assert picture_turn(seen(plain, camera()), seen(plain, TURN_AND_SLIDE)) is None


def with_board(table: Table, angle: float, dx: int, dy: int = 0, at: tuple[int, int] = (140, 100),
               hand: bool = False) -> np.ndarray:
    """The still table with a game board on it (a third of the view, a grid printed on it) lying at ``at`` (its
    top left corner on the table), turned ``angle`` degrees and slid ``dx``, ``dy`` px by a player, whose
    ``hand`` may be on it."""
    board = table.table[:300, :340].copy()
    board[::30] = 20
    board[:, ::30] = 20
    img = table.scene(None)
    place = cv2.getRotationMatrix2D((170, 150), angle, 1.0)
    place[:, 2] += (at[0] + dx, at[1] + dy)
    on = cv2.warpAffine(np.ones((300, 340), np.uint8), place, (img.shape[1], img.shape[0])) > 0
    img[on] = cv2.warpAffine(board, place, (img.shape[1], img.shape[0]))[on]
    if hand:
        cv2.rectangle(img, (at[0] + dx + 150, at[1] + 200), (at[0] + dx + 260, img.shape[0]), (120, 160, 215), -1)
    return table.shot(img, (0, 0))


BESIDE = TrayArea(0.05, 0.1, 0.45, 0.6)  # a tray marked on the left; the board lies on the right


def test_a_board_slid_beside_the_marked_tray_is_no_knock(tmp_path: Path) -> None:
    """A player nudges the game board beside the tray 16 px: the board, a third of the view, was most of what
    changed and moved as one picture, so the empty tray's comparison took it for the camera, and the marked
    area followed the board, off the tray. The table round the board stayed, and tells it."""
    table = Table()
    frames = [with_board(table, 0.0, 0, at=(340, 160)) for _ in range(30)]
    frames += [with_board(table, 0.0, -3 * k, -k, (340, 160), hand=True) for k in range(1, 6)]
    frames += [with_board(table, 0.0, -15, -5, (340, 160)) for _ in range(40)]
    frames += [with_board(table, 2.0, -15, -5, (340, 160)) for _ in range(40)]  # and turned a little
    _, told, kept, final = play(recorded(tmp_path / "board.avi", frames), BESIDE)
    assert final == BESIDE and kept == []
    assert not knocked_notes(told)


def test_a_marked_tray_turned_too_far_is_asked_to_be_marked_again() -> None:
    """Turned 15 degrees, the box round the tray's corners would take in much of the table: the area is left,
    with nothing said of it, and the table asks for the tray to be marked again."""
    for moved, follows in ((camera(15.0), False), (camera(0.0, 1.3), False), (camera(6.0), True)):
        turn = Turn(tuple(float(v) for v in (moved / moved[2, 2]).ravel()), (WIDTH, HEIGHT))
        area, told = followed_tray(MARKED, Knock([], turn.shift, "picture", turn), (HEIGHT, WIDTH))
        if follows:
            assert area != MARKED and told == f"the marked tray moved with the picture: dice are read in {area.words()}"
        else:
            assert (area, told) == (MARKED, "")
    off = camera(8.0, at=(-200, 0))  # the tray's corners would leave the picture
    turn = Turn(tuple(float(v) for v in off.ravel()), (WIDTH, HEIGHT))
    assert followed_tray(MARKED, Knock([], turn.shift, "picture", turn), (HEIGHT, WIDTH)) == (MARKED, "")
    assert Turn(tuple(float(v) for v in camera(15.0).ravel()), (WIDTH, HEIGHT)).words() == \
        "turned 15 degrees anticlockwise"


def test_watch_follows_a_turned_camera_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`vision watch --tray` says what the table says, and reads the throw in the moved tray."""
    assert main(["vision", "watch", empty_turn(Table(), tmp_path), "--tray", "0.15,0.2,0.7,0.8"]) == 0
    out = capsys.readouterr().out
    assert ("the picture turned 4 degrees anticlockwise and moved 28 px while no dice were read in the marked tray "
            "(the camera was knocked?): the marked tray moved with the picture: dice are read in the tray marked at")\
        in out, out
    said = [line.split("sure: ", 1)[1] for line in out.splitlines() if "settled" in line]
    assert said == ["the table would take it"], said


def test_hands_light_and_rolls_leave_a_marked_tray_where_it_is_with_a_turn_looked_for(tmp_path: Path) -> None:
    """A hand reaching in and resting a moment, the lamp dimmed, a die thrown and another beside it, the dice
    moved by a hand: nothing is said of a camera, and the area stays."""
    table = Table()
    two = (2, (200.0, 300.0), 30.0)
    frames = [seen(table, camera()) for _ in range(20)]
    frames += [seen(table, camera(), hand=k / 5) for k in (1, 2, 3, 4)] + [seen(table, camera(), hand=0.8)] * 30
    frames += [seen(table, camera()) for _ in range(30)] + [seen(table, camera(), light=0.8) for _ in range(30)]
    frames += table.throw(*FIVE)
    frames += [seen(table, camera(), lying=FIVE, hand=min(k, 10 - k) / 5) for k in range(1, 10)]
    frames += [seen(table, camera(), lying=two) for _ in range(40)]
    session, told, kept, final = play(recorded(tmp_path / "no-turn.avi", frames), MARKED)
    assert final == MARKED and kept == []
    assert not knocked_notes(told)
    assert [a["value"] for a in session.log] == [5, 2]


def test_a_camera_turned_far_asks_for_the_tray_to_be_marked_again(tmp_path: Path) -> None:
    """Turned 15 degrees, the tracker lost the table's points (their patches turned with the picture) and nothing
    was said: the area stayed, off the tray. Now the turn is found, and the café asked to mark the tray again."""
    far = camera(15.0, at=(-10, 8))
    _, told, kept, final = play(empty_turn(Table(), tmp_path, far, (3, (330.0, 250.0), 40.0)), MARKED)
    assert final == MARKED and kept == []
    assert knocked_notes(told) == [
        "the picture turned 15 degrees anticlockwise and moved 13 px while no dice were read in the marked tray (the "
        "camera was knocked?). Check the marked tray: if it no longer lies on the tray, mark the tray again"]


def test_a_turn_that_flattens_the_picture_is_said_not_raised() -> None:
    """A fit that draws the picture onto one point has no sides to compare for a tilt: said, and not followed."""
    flat = Turn((0.0, 0.0, 320.0, 0.0, 0.0, 240.0, 0.0, 0.0, 1.0), (WIDTH, HEIGHT))
    assert flat.tilt == 0.0 and not flat.followable
    assert flat.words() == "shrank 100%"
    assert followed_tray(MARKED, Knock([], flat.shift, "picture", flat), (HEIGHT, WIDTH)) == (MARKED, "")


class Granite(Table):
    """A granite or terrazzo table (`speckled_background`): grains a few px across rather than the camera's own."""

    def __init__(self, seed: int = 23) -> None:
        super().__init__(seed)
        self.table = speckled_background(np.random.default_rng(seed), WIDTH + 2 * MARGIN, HEIGHT + 2 * MARGIN)


def test_a_camera_swung_round_30_degrees_or_more_is_found() -> None:
    """Looked for again only at 12 and 24 degrees, a camera swung 30 degrees or more on its arm was found by
    nothing. The spectrum measures the turn wherever the camera points; the picture before, turned so, must
    still be the picture now."""
    for kind, angles in ((Table, (30.0, 45.0, 90.0, 180.0, -50.0)), (Granite, (-35.0, -90.0, 135.0))):
        table = kind()
        before = seen(table, camera())
        for angle in angles:
            turn = picture_turn(before, seen(table, camera(angle, at=(-10, 8))))
            assert turn is not None, (kind.__name__, angle)
            assert abs((turn.angle + angle + 180.0) % 360.0 - 180.0) < 1.0, (kind.__name__, angle, turn.angle)
            assert not turn.followable


def test_a_camera_turned_40_degrees_asks_for_the_tray_to_be_marked_again(tmp_path: Path) -> None:
    """Turned 40 degrees, nothing was said and the area stayed where it was, over a patch of table: the café
    is asked to mark the tray again."""
    far = camera(40.0, at=(-10, 8))
    _, told, kept, final = play(empty_turn(Table(), tmp_path, far, (3, (330.0, 250.0), 40.0)), MARKED)
    assert final == MARKED and kept == []
    assert knocked_notes(told) == [
        "the picture turned 40 degrees anticlockwise and moved 13 px while no dice were read in the marked tray (the "
        "camera was knocked?). Check the marked tray: if it no longer lies on the tray, mark the tray again"]


def turned_by_the_throw(table: Table, tmp_path: Path, moved: np.ndarray = TURN_AND_SLIDE) -> str:
    """The marked tray empty and still; the hand that throws a 5 turns the camera too, so the 5 settles in the
    picture turned; the 5 taken out; a 3 thrown into the tray's corner."""

    def frames() -> list[np.ndarray]:
        return [*(seen(table, camera()) for _ in range(20)), *thrown_in(table, moved, FIVE),
                *(seen(table, moved) for _ in range(10)), *thrown_in(table, moved, THREE)]

    return recorded_once(video_name("turned-by-throw", table, moved), tmp_path, frames)


def test_a_camera_turned_by_the_throw_moves_the_marked_tray_and_the_roll_is_read(tmp_path: Path) -> None:
    """The 5 was read, but the marked tray stayed where it was, off the tray, and the 3 thrown next into the
    tray's corner went unread. Now the roll is read and the tray follows the picture as well."""
    session, told, kept, final = play(turned_by_the_throw(Table(), tmp_path), MARKED)
    assert [a["value"] for a in session.log] == [5, 3]
    assert near(final.as_list(), moved_area(MARKED, TURN_AND_SLIDE)), (final, moved_area(MARKED, TURN_AND_SLIDE))
    assert kept == [final]
    assert knocked_notes(told) == [
        "the picture turned 4 degrees anticlockwise and moved 28 px as the dice were thrown (the camera was "
        f"knocked?). The marked tray moved with the picture: dice are read in {final.words()}"]
    first = next(i for i, o in enumerate(told) if isinstance(o, DieRead))
    assert isinstance(told[first + 1], LinkChanged) and "knocked" in told[first + 1].detail  # the roll, then the tray
    assert told[first + 1].table == ("The camera was knocked as the dice were thrown: if the roll it read is wrong, "
                                     "undo it and enter it by hand.")  # the players' words: no degrees, no pixels


def test_a_camera_slid_by_the_throw_moves_the_marked_tray_by_its_shift(tmp_path: Path, monkeypatch) -> None:
    """Slid 28 px, not turned, by the hand that threw the 5: the whole picture's shift (`motion.picture_shift`)
    measures it as the 5 settles (`knock.thrown_knock`), the tray follows to within a pixel, and the 3 thrown
    into its corner is read. The turned throws above are measured by `picture_turn`; this is the slide's path,
    so the turn search is watched and must find nothing (it would fit the slide too)."""
    turns: list = []
    look_for_turn = knock.picture_turn
    monkeypatch.setattr(knock, "picture_turn", lambda *a: turns.append(look_for_turn(*a)) or turns[-1])
    slid = camera(at=(-24, -14))
    session, told, kept, final = play(turned_by_the_throw(Table(), tmp_path, slid), MARKED)
    assert [a["value"] for a in session.log] == [5, 3]
    assert near(final.as_list(), moved_area(MARKED, slid), px=1.0), (final, moved_area(MARKED, slid))
    assert kept == [final]
    notes = knocked_notes(told)  # the MJPG frames measure the 27.8 px slide within a pixel
    assert len(notes) == 1 and re.fullmatch(
        r"the picture moved 2[78] px as the dice were thrown \(the camera was knocked\?\)\. The marked tray moved "
        r"with the picture: dice are read in " + re.escape(final.words()), notes[0]), notes
    assert not any(turns), turns


def test_a_camera_swung_far_by_the_throw_asks_for_the_tray_to_be_marked_again(tmp_path: Path) -> None:
    """Turned 40 degrees as the 5 was thrown: the 5 is read, and the café asked to mark the tray again."""
    session, told, kept, final = play(turned_by_the_throw(Table(), tmp_path, camera(40.0, at=(-10, 8))), MARKED)
    assert [a["value"] for a in session.log][:1] == [5]
    assert final == MARKED and kept == []
    notes = knocked_notes(told)  # measured on the spectrum where the grain is too fine to track: within a degree
    assert len(notes) == 1 and re.fullmatch(
        r"the picture turned (39|40|41) degrees anticlockwise and moved 1[2-4] px as the dice were thrown \(the "
        r"camera was knocked\?\)\. Check the marked tray: if it no longer lies on the tray, mark the tray again",
        notes[0]), notes


def test_watch_follows_a_camera_turned_by_the_throw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`vision watch --tray` reads the 5, says the camera turned as it was thrown, and reads the 3 in the moved
    tray."""
    assert main(["vision", "watch", turned_by_the_throw(Table(), tmp_path), "--tray", "0.15,0.2,0.7,0.8"]) == 0
    out = capsys.readouterr().out
    assert ("the picture turned 4 degrees anticlockwise and moved 28 px as the dice were thrown (the camera was "
            "knocked?): the marked tray moved with the picture: dice are read in the tray marked at") in out, out
    said = [line.split(": ", 1)[1].split(",")[0] for line in out.splitlines() if "settled" in line]
    assert said == ["die shows 5", "die shows 3"], said
