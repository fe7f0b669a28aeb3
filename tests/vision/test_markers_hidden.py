"""One board marker hidden (a cup, a hand's hard shadow, a marker peeled off, the camera's view cut short): the
board is found from the other three, at the places a frame showing all four taught the finder."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.board_photos import board_photo
from vision.card_catalogue import load_temple_board, load_temple_cards
from vision.card_reader import CardReader
from vision.markers import CORNER_NAMES, MARKER_IDS, NOT_SEEN, BoardFinder
from vision.slot_tracker import SlotTracker

CARDS, BOARD = load_temple_cards(), load_temple_board()


def cup_over(image: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The photo with a cup's round base, of a random colour, over the marker at ``quad`` (frame px)."""
    covered = image.copy()
    middle = quad.mean(axis=0)
    radius = np.linalg.norm(quad - middle, axis=1).max() * rng.uniform(1.0, 1.3)
    colour = tuple(int(v) for v in rng.integers(0, 256, 3))
    cv2.circle(covered, (round(middle[0]), round(middle[1])), round(radius), colour, -1)
    return covered


@pytest.fixture(scope="module")
def taught_finder() -> BoardFinder:
    """A finder that has seen the whole board once (a photo of its own seed)."""
    finder = BoardFinder(BOARD.size)
    assert finder.homography(board_photo(np.random.default_rng(30), CARDS, BOARD).image) is not None
    assert finder.hidden == () and finder.marker_cells is not None and len(finder.marker_cells) == 4
    return finder


def test_a_cup_on_any_one_marker_leaves_the_board_found_where_four_markers_find_it(taught_finder) -> None:
    """Other photos (camera turned, tilted, blurred, noisy): the slots' corners lie within 2.5 px of where all
    four markers put them, and the finder names the marker it did without."""
    rng = np.random.default_rng(31)
    reader = CardReader(CARDS, BOARD)
    for _ in range(8):
        photo = board_photo(rng, CARDS, BOARD)
        whole = BoardFinder(BOARD.size)
        four = whole.homography(photo.image)
        marker = int(rng.integers(4))
        three = taught_finder.homography(cup_over(photo.image, whole.last_markers[marker], rng))
        assert three is not None, taught_finder.last_problem
        assert taught_finder.hidden == (CORNER_NAMES[marker],) and taught_finder.last_problem is None
        assert marker not in taught_finder.last_markers and len(taught_finder.last_markers) == 3
        off = [np.abs(np.array(a) - np.array(b)).max() for slot in BOARD.slots
               for a, b in zip(reader.slot_outlines(four)[slot.slot], reader.slot_outlines(three)[slot.slot],
                               strict=True)]
        assert max(off) < 2.5


def test_three_markers_say_nothing_before_the_board_was_seen_whole() -> None:
    rng = np.random.default_rng(32)
    photo = board_photo(rng, CARDS, BOARD)
    whole = BoardFinder(BOARD.size)
    assert whole.homography(photo.image) is not None
    fresh = BoardFinder(BOARD.size)
    assert fresh.homography(cup_over(photo.image, whole.last_markers[1], rng)) is None
    assert fresh.last_problem == f"{NOT_SEEN}: {CORNER_NAMES[1]}" and fresh.hidden == ()


def test_a_marker_stuck_elsewhere_since_is_not_read_from() -> None:
    """Learnt places that no longer fit (a marker peeled and stuck again a cell off) find no board."""
    rng = np.random.default_rng(33)
    photo = board_photo(rng, CARDS, BOARD)
    finder = BoardFinder(BOARD.size)
    assert finder.homography(photo.image) is not None
    finder.marker_cells[0] = finder.marker_cells[0] + (1.0, 0.0)
    assert finder.homography(cup_over(photo.image, finder.last_markers[2], rng)) is None
    assert finder.last_problem == f"{NOT_SEEN}: {CORNER_NAMES[2]}"


def turned_and_cut(rng: np.random.Generator, finder: BoardFinder) -> tuple[np.ndarray, dict[int, str | None]]:
    """A board photo as a camera turned about 45 degrees sees it, its topmost marker and a strip below it past
    the frame's top edge (so the slots nearest that corner are partly out of view)."""
    while True:
        photo = board_photo(rng, CARDS, BOARD)
        turn = cv2.getRotationMatrix2D((320, 240), rng.uniform(35, 55), 1.0)
        turn[:, 2] += (160, 240)
        turned = cv2.warpAffine(photo.image, turn, (960, 960), borderMode=cv2.BORDER_REPLICATE)
        if finder.homography(turned) is None:
            continue
        found = finder.last_markers
        top = min(found, key=lambda i: found[i][:, 1].min())
        others = np.concatenate([quad for i, quad in found.items() if i != top])
        y0 = int(min(found[top][:, 1].max() + rng.uniform(40, 130), others[:, 1].min() - 4))
        x0, x1 = int(others[:, 0].min() - 8), int(others[:, 0].max() + 8)
        return np.ascontiguousarray(turned[y0:int(others[:, 1].max() + 8), x0:x1]), photo.truth


def past_the_edge(corners: tuple[tuple[float, float], ...], frame: np.ndarray) -> bool:
    xy = np.array(corners)
    return bool(xy.min() < 0 or xy[:, 0].max() > frame.shape[1] - 1 or xy[:, 1].max() > frame.shape[0] - 1)


def test_slots_cut_off_by_the_frames_edge_read_covered_and_the_rest_right() -> None:
    """With the hidden marker's corner out of view, the slots there were cut from the frame's edge pixels
    smeared inwards; they read covered (kept as they were), and no slot is read wrong surely enough to be
    taken."""
    rng = np.random.default_rng(34)
    reader = CardReader(CARDS, BOARD)
    taken = SlotTracker()
    cut_off = right = 0
    for _ in range(6):
        frame, truth = turned_and_cut(rng, reader.finder)
        reading = reader.read(frame)
        assert reading is not None and len(reader.finder.hidden) == 1, reader.last_problem
        for slot in reading.slots:
            outside = past_the_edge(reader.last_outlines[slot.slot], frame)
            cut_off += outside
            if outside:
                assert slot.covered and slot.confidence == 0.0
                continue
            card = truth[slot.slot]
            ok = slot.card == (reader.groups.get(card, card) if card else None)
            right += ok
            assert ok or not taken.counts(slot.confidence), (slot, card)
    assert cut_off >= 6 and right >= 6 * 12 - cut_off - 2, (cut_off, right)


def test_watch_names_the_marker_a_photo_was_read_without(tmp_path, capsys) -> None:
    from tests.vision.test_feed import board_frame, cup_on_marker
    from vision.cli import main

    laid = board_frame({1: "P07"})
    for index, image in enumerate([laid, cup_on_marker(laid)]):
        cv2.imwrite(str(tmp_path / f"{index}.png"), image)
    assert main(["vision", "watch", str(tmp_path), "--reader", "cards", "--every-frame"]) == 0
    out = capsys.readouterr().out
    assert "frame 1: slot 1 P07, slot 2 empty" in out and "frame 1: board marker" not in out, out
    assert ("slot 12 empty (board marker not seen: north-east (a cup on it, or peeled off?): the path cards are "
            "read from the other three)") in out, out


def test_a_slot_cut_off_by_the_frames_edge_is_not_taught() -> None:
    """Taught, the edge pixels smeared into it would become the card's reference."""
    rng = np.random.default_rng(35)
    reader = CardReader(CARDS, BOARD)
    frame, truth = turned_and_cut(rng, reader.finder)
    assert reader.read(frame) is not None
    cut = [n for n, corners in reader.last_outlines.items() if past_the_edge(corners, frame)]
    assert cut
    with pytest.raises(ValueError, match=f"slot {cut[0]} lies partly out of the picture"):
        reader.teach(frame, cut[0], truth[cut[0]] or "P01")


def slot_corners_apart(one: np.ndarray, other: np.ndarray) -> float:
    """How far apart (px, the most of any corner of any slot) two homographies put the slots."""
    reader = CardReader(CARDS, BOARD)
    first, second = reader.slot_outlines(one), reader.slot_outlines(other)
    return max(float(np.abs(np.subtract(first[slot], second[slot])).max()) for slot in first)


def test_two_markers_hidden_keep_the_board_where_it_lay_while_nothing_moves() -> None:
    rng = np.random.default_rng(36)
    photo = board_photo(rng, CARDS, BOARD)
    finder = BoardFinder(BOARD.size)
    whole = finder.homography(photo.image)
    quads = dict(finder.last_markers)
    two_cups = cup_over(cup_over(photo.image, quads[1], rng), quads[2], rng)
    still = finder.homography(two_cups)
    assert still is not None and slot_corners_apart(still, whole) < 0.5
    assert finder.hidden == (CORNER_NAMES[1], CORNER_NAMES[2]) and finder.last_problem is None


@pytest.mark.parametrize("seen", [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
def test_a_board_slid_on_the_table_under_two_hidden_markers_is_followed(seen: tuple[int, int]) -> None:
    """A player bumps the board (up to a cell each way, six degrees) while a lid lies over two of its corners:
    the camera has not moved, so the board moved in the table's plane, and the two markers seen tell how."""
    seed = 40 + sum(seen)
    finder = BoardFinder(BOARD.size)
    assert finder.homography(board_photo(np.random.default_rng(seed), CARDS, BOARD).image) is not None
    rng = np.random.default_rng(seed + 100)
    followed = 0
    for _ in range(20):
        if followed == 3:
            break
        moved = board_photo(np.random.default_rng(seed), CARDS, BOARD,
                            moved=(*rng.uniform(-1, 1, 2), rng.uniform(-6, 6))).image
        whole = BoardFinder(BOARD.size)
        truth = whole.homography(moved)
        if truth is None:  # a marker slid out of the frame
            continue
        followed += 1
        for hidden in set(MARKER_IDS) - set(seen):
            moved = cup_over(moved, whole.last_markers[hidden], rng)
        found = finder.homography(moved)
        assert found is not None, finder.last_problem
        assert finder.hidden == tuple(CORNER_NAMES[i] for i in MARKER_IDS if i not in seen)
        assert slot_corners_apart(found, truth) < 1.5
    assert followed == 3


def test_two_hidden_markers_do_not_follow_a_camera_that_moved() -> None:
    """Lowered or moved elsewhere, the camera sees the board larger or foreshortened otherwise, which no slide of
    the board on the table gives: nothing is found, as before the board was seen whole."""
    rng = np.random.default_rng(37)
    photo = board_photo(rng, CARDS, BOARD)
    finder = BoardFinder(BOARD.size)
    assert finder.homography(photo.image) is not None
    closer = cv2.warpAffine(photo.image, cv2.getRotationMatrix2D((320, 240), 0, 1.02), (640, 480),
                            borderMode=cv2.BORDER_REPLICATE)
    other = board_photo(rng, CARDS, BOARD).image
    for view in (closer, other):
        whole = BoardFinder(BOARD.size)
        assert whole.homography(view) is not None
        covered = cup_over(cup_over(view, whole.last_markers[1], rng), whole.last_markers[2], rng)
        assert finder.homography(covered) is None
        assert finder.last_problem == f"{NOT_SEEN}: {CORNER_NAMES[1]}, {CORNER_NAMES[2]}" and finder.hidden == ()
