"""The temple die rolled onto the board is read there (vision/die_on_board.py), and nothing else moved there is."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.observations import CONFIRM_BELOW, DieRead
from tests.vision.test_feed import Frames
from vision.card_catalogue import load_temple_board, load_temple_cards
from vision.cli import main
from vision.feed import CameraFeed
from vision.temple_die import TableView, TempleDieReader
from vision.temple_table_render import BOARD_AT, MARKED_TRAY, RolledDie, in_tray_place, on_board_place, temple_table
from vision.tray_area import WHOLE_PICTURE, TrayArea


@pytest.fixture(scope="module")
def rendered() -> TempleDieReader:
    return TempleDieReader.from_renders(per_face=2)


def fresh(rendered: TempleDieReader) -> TempleDieReader:
    """The rendered reader with no board remembered: each test its own table."""
    reader = TempleDieReader()
    reader.fill_from(rendered)
    return reader


def beside(rng: np.random.Generator, **table) -> np.ndarray:
    return temple_table(rng, RolledDie("1", "white", in_tray_place(rng), 55.0, float(rng.uniform(0, 360))), **table)


def onto_board(rng: np.random.Generator, value: str, colour: str, **table) -> tuple[np.ndarray, RolledDie]:
    die = RolledDie(value, colour, on_board_place(rng), 55.0, float(rng.uniform(0, 360)))
    return temple_table(rng, die, **table), die


def within(box: tuple[float, float, float, float], die: RolledDie) -> bool:
    return box[0] < die.centre[0] < box[2] and box[1] < die.centre[1] < box[3]


def arm_over(frame: np.ndarray, rows: slice, cols: slice) -> np.ndarray:
    """``frame`` with an arm held over part of it: motion between still views of the table."""
    shown = frame.copy()
    shown[rows, cols] = (120, 150, 200)
    return shown


def pawn_moved(rng: np.random.Generator) -> tuple[tuple[float, float], np.ndarray, np.ndarray]:
    """(where a red pawn stood, the table with the die beside the board, the same table with the pawn moved on)."""
    import cv2

    stood = on_board_place(rng, 14.0)
    before = beside(rng, pawns=((stood, "red"),))
    after = before.copy()
    cv2.circle(after, (round(stood[0]), round(stood[1])), 15, (120, 178, 214), -1)  # lifted off its cell
    cv2.circle(after, (300, 380), 14, (40, 40, 200), -1)  # and put down three cells on
    return stood, before, after


def test_a_die_rolled_onto_the_board_is_read_there(rendered) -> None:
    """The board was left out of the die's search: a die rolled onto it was not read at all, only its slot covered."""
    rng = np.random.default_rng(1)
    reader = fresh(rendered)
    ((first,),) = [reader.read(beside(rng))]
    assert (first.value, first.face) == (1, "white")
    for value, colour in [("5", "red"), ("X", "white"), ("7", "red"), ("2", "white")]:
        frame, die = onto_board(rng, value, colour)
        (reading,) = reader.read(frame)
        assert (str(reading.value), reading.face) == (value, colour) and within(reading.box, die)
        assert reading.confidence >= CONFIRM_BELOW


def test_without_a_board_seen_before_the_die_a_die_on_it_is_not_guessed(rendered) -> None:
    """What is new on the board is measured against the board seen with the die beside it; with none seen yet (the
    app started with the die lying on the board) nothing tells the die from the cards."""
    frame, _ = onto_board(np.random.default_rng(2), "5", "red")
    assert fresh(rendered).read(frame) == []


def test_the_first_roll_onto_the_board_is_read_after_a_table_seen_without_the_die(rendered) -> None:
    """The app started with the die in a hand: the board first seen without it serves until the die is read beside
    it, so the day's first roll may land on the board; on a table where every roll does, it serves all game."""
    rng = np.random.default_rng(9)
    reader = fresh(rendered)
    pawns = [(on_board_place(rng, 14.0), idol) for idol in ("red", "blue", "green", "yellow")]
    assert reader.read(temple_table(rng, None, tuple(pawns))) == []  # the die in a hand
    for value, colour in [("3", "red"), ("X", "white"), ("7", "red")]:
        pawns[1] = (on_board_place(rng, 14.0), "blue")
        assert reader.read(temple_table(rng, None, tuple(pawns))) == []  # a pawn moved: no roll
        frame, die = onto_board(rng, value, colour, pawns=tuple(pawns))
        (reading,) = reader.read(frame)
        assert (str(reading.value), reading.face) == (value, colour) and within(reading.box, die)


def test_pawns_moved_with_the_die_away_are_no_roll(rendered) -> None:
    """A pawn moved leaves a blob where it went and one where it stood, and a card seen where it stood was read
    as a face now and then; a pawn the size of the die too."""
    rng = np.random.default_rng(3)
    reader = fresh(rendered)
    for radius in (14.0, 50.0):
        for _ in range(12):
            pawns = [(on_board_place(rng, radius), idol) for idol in ("red", "blue", "green", "yellow")]
            assert reader.read(beside(rng, pawns=tuple(pawns), pawn_radius=radius))
            pawns[0] = (on_board_place(rng, radius), "red")
            pawns[2] = (on_board_place(rng, radius), "green")
            assert reader.read(temple_table(rng, None, tuple(pawns), pawn_radius=radius)) == []


def test_a_die_whose_blob_a_pawn_moved_joined_is_read(rendered) -> None:
    """The fourth die of `eval-temple-die --on-board` lands on the corner path where a pawn had stood, and the board
    the pawn uncovered joins its blob, whose middle is then off the die's: it was not read before the blob's
    thickest part was looked at too."""
    from vision.eval_temple_die import evaluate_on_board

    score = evaluate_on_board(fresh(rendered), frames=8, seed=11)
    assert (score.rolled, score.right, score.wrong, score.phantoms) == (4, 4, 0, 0)


def test_path_cards_changed_with_the_die_away_are_no_roll(rendered) -> None:
    rng = np.random.default_rng(4)
    reader = fresh(rendered)
    slots, deck = len(load_temple_board().slots), len(load_temple_cards())
    for _ in range(12):
        layout = [int(card) for card in rng.choice(deck, slots, replace=False)]
        assert reader.read(beside(rng, layout=tuple(layout)))
        layout[int(rng.integers(slots))] = int(rng.integers(deck))
        layout[int(rng.integers(slots))] = int(rng.integers(deck))
        assert reader.read(temple_table(rng, None, layout=tuple(layout))) == []


def test_a_board_moved_since_is_not_compared_with_its_old_place(rendered) -> None:
    """Markers found elsewhere than where they were remembered: the camera or the board moved, and what differs
    from the memory is the move, not a die. (Slid whole, the board also differs all over, in one blob too wide to
    be a die.)"""
    rng = np.random.default_rng(5)
    reader = fresh(rendered)
    assert reader.read(beside(rng))
    frame, die = onto_board(rng, "5", "red")
    view = TableView.of(frame)
    (cx, cy, _), *_ = reader.board.new_on_it(view.searched, view.quads, view.outline)
    assert np.hypot(cx - die.centre[0], cy - die.centre[1]) < 8
    moved = {marker: np.asarray(quad) + np.array([12.0, 0.0]) for marker, quad in view.quads.items()}
    assert reader.board.new_on_it(view.searched, moved, view.outline) == []
    slid = frame.copy()
    slid[:, :BOARD_AT[0] + 470] = np.roll(frame[:, :BOARD_AT[0] + 470], 12, axis=1)
    assert reader.read(slid) == []


def test_a_die_on_the_board_is_read_through_a_change_of_exposure(rendered) -> None:
    """A camera's exposure moves every colour a little between the two frames: that is no change on the board."""
    rng = np.random.default_rng(6)
    reader = fresh(rendered)
    assert reader.read(beside(rng))
    frame, die = onto_board(rng, "3", "white", light=0.85)
    (reading,) = reader.read(frame)
    assert (reading.value, reading.face) == (3, "white") and within(reading.box, die)


def test_the_feed_announces_a_die_rolled_onto_the_board() -> None:
    """From the camera to the session: a roll beside the board, then one onto it, each announced once."""
    rng = np.random.default_rng(7)
    first = beside(rng)
    second, _ = onto_board(rng, "6", "red")
    hand = arm_over(temple_table(rng, None), slice(100, 400), slice(200, 700))  # the die in its hand

    seen: list = []
    frames = [hand, hand, *[first] * 6, hand, hand, *[second] * 6]
    with CameraFeed(lambda: Frames(frames), seen.append, mode="temple-die", fps=None,
                    readers={"temple-die": TempleDieReader.from_renders(per_face=1)}) as feed:
        assert feed.ended.wait(30)
    assert [(o.value, (o.face or {}).get("colour")) for o in seen if isinstance(o, DieRead)] == [(1, "white"),
                                                                                                 (6, "red")]


def test_eval_temple_die_scores_the_die_rolled_onto_the_board(capsys) -> None:
    assert main(["vision", "eval-temple-die", "--on-board", "--frames", "12", "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert set(scores) == {"on_board_read", "on_board_wrong", "phantoms", "ms_per_frame", "frames"}
    assert scores["frames"] == 12 and scores["on_board_read"] >= 0.8
    assert scores["phantoms"] == scores["on_board_wrong"] == 0
    assert main(["vision", "eval-temple-die", "--on-board", "--shadow", "0.5"]) == 2
    assert "--on-board draws its table in even light" in capsys.readouterr().err


def test_eval_temple_die_scores_the_die_on_the_board_with_the_tray_marked(capsys) -> None:
    assert main(["vision", "eval-temple-die", "--on-board", "--tray-marked", "--frames", "12", "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["frames"] == 12 and scores["on_board_read"] >= 0.8
    assert scores["phantoms"] == scores["on_board_wrong"] == 0
    assert main(["vision", "eval-temple-die", "--tray-marked"]) == 2
    assert "add --on-board" in capsys.readouterr().err


@pytest.mark.parametrize("tray", [WHOLE_PICTURE, MARKED_TRAY], ids=["whole picture", "tray marked"])
def test_the_table_hears_the_slot_under_the_die_is_covered_by_the_die(tray: TrayArea) -> None:
    """In the temple game the same camera reads the die and the cards: the slot the die lies on reads covered, and
    the table said "something lies over the card (a cup, a hand?)" of it."""
    from companion.observations import LinkChanged
    from vision.card_reader import CardReader
    from vision.feed import COVERED_READS

    rng = np.random.default_rng(8)
    first = beside(rng)
    cards = CardReader(load_temple_cards(), load_temple_board())
    assert cards.read(first) is not None
    middle = np.mean(cards.last_outlines[6], axis=0)  # the die comes to rest on slot 6's card
    second = temple_table(rng, RolledDie("4", "white", (float(middle[0]), float(middle[1])), 55.0, 40.0))
    hand = arm_over(temple_table(rng, None), slice(100, 400), slice(200, 700))

    seen: list = []
    frames = [hand, hand, *[first] * 8, hand, hand, *[second] * (COVERED_READS + 10)]
    with CameraFeed(lambda: Frames(frames), seen.append, mode="temple", fps=None, card_interval=0, idle_card_interval=0,
                    readers={"temple-die": TempleDieReader.from_renders(per_face=1)}, tray=tray) as feed:
        assert feed.ended.wait(60)
    assert [o.value for o in seen if isinstance(o, DieRead)] == [1, 4]
    notes = [o.detail for o in seen if isinstance(o, LinkChanged) and "read covered" in o.detail]
    assert len(notes) == 1 and notes[0].startswith("slot 6 read covered: the die lies on it; the table keeps"), notes


def test_a_pawn_moved_while_the_die_lies_beside_the_board_tells_nothing() -> None:
    """The temple game's camera sees the board, so moving a pawn is motion to the die's reader too: the die, read
    again where it lay, was told "the dice lie where they lay ...: not taken as a new roll" after every move."""
    from companion.observations import LinkChanged, RollStarted

    rng = np.random.default_rng(10)
    _, before, after = pawn_moved(rng)
    throw = arm_over(before, slice(0, 480), slice(480, 800))  # the die thrown into the tray
    hand = arm_over(before, slice(60, 420), slice(120, 420))  # then a hand over the board alone
    frames = [throw, throw, *[before] * 6, hand, hand, *[after] * 6]
    seen: list = []
    with CameraFeed(lambda: Frames(frames), seen.append, mode="temple-die", fps=None,
                    readers={"temple-die": TempleDieReader.from_renders(per_face=1)}) as feed:
        assert feed.ended.wait(30)
    assert [type(o).__name__ for o in seen if isinstance(o, (DieRead, RollStarted))] == ["RollStarted", "DieRead"]
    assert not [o for o in seen if isinstance(o, LinkChanged) and "lie where they lay" in o.detail]


def test_watch_says_the_table_keeps_quiet_about_a_die_nothing_moved_over(tmp_path, capsys) -> None:
    import cv2

    rng = np.random.default_rng(10)
    still = beside(rng)
    throw = arm_over(still, slice(0, 480), slice(480, 800))  # the die thrown into the tray
    hand = arm_over(still, slice(60, 420), slice(120, 420))  # over the board, moving a pawn
    for n, frame in enumerate([throw, throw, *[still] * 6, hand, hand, *[still] * 6]):
        cv2.imwrite(str(tmp_path / f"{n:03d}.png"), frame)
    assert main(["vision", "watch", str(tmp_path), "--reader", "temple-die"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "settled" in line]
    assert len(lines) == 2 and lines[0].endswith("the table would take it")
    assert lines[1].endswith("the same dice where they lay, nothing moved over them: the table says nothing")


def test_a_path_card_changed_beside_the_die_on_the_board_is_taken() -> None:
    """The slots beside a covered one wait with it, for an arm over a slot hides a little of its neighbours; the
    die read on the board is no arm, and a card changed beside the die just rolled went untaken until it was
    lifted."""
    from companion.observations import CardsSeen
    from vision.card_reader import CardReader
    from vision.feed import COVERED_READS

    rng = np.random.default_rng(12)
    cards = CardReader(load_temple_cards(), load_temple_board())
    first = beside(rng)
    assert cards.read(first) is not None
    middle = np.mean(cards.last_outlines[6], axis=0)
    die = RolledDie("4", "white", (float(middle[0]), float(middle[1])), 55.0, 40.0)
    second = temple_table(rng, die)
    changed = temple_table(rng, die, layout=(0, 1, 2, 3, 30, 5, 6, 7, 8, 9, 10, 11))  # slot 5 now holds P31
    changed[:, :, :] = np.where(np.abs(changed.astype(int) - second).sum(2, keepdims=True) > 60, changed, second)
    hand = arm_over(temple_table(rng, None), slice(100, 400), slice(200, 700))
    frames = [hand, hand, *[first] * 8, hand, hand, *[second] * 8, hand, hand, *[changed] * (COVERED_READS + 6)]
    seen: list = []
    with CameraFeed(lambda: Frames(frames), seen.append, mode="temple", fps=None, card_interval=0,
                    idle_card_interval=0, readers={"temple-die": TempleDieReader.from_renders(per_face=1)}) as feed:
        assert feed.ended.wait(60)
    assert [o.value for o in seen if isinstance(o, DieRead)] == [1, 4]
    assert {5: "P31"} in [dict(o.slots) for o in seen if isinstance(o, CardsSeen)], seen


def announced(frames: list[np.ndarray], mode: str = "temple-die", **feed) -> list:
    seen: list = []
    feed.setdefault("tray", MARKED_TRAY)
    with CameraFeed(lambda: Frames(frames), seen.append, mode=mode, fps=None,
                    readers={"temple-die": TempleDieReader.from_renders(per_face=1)}, **feed) as running:
        assert running.ended.wait(60)
    return seen


def test_with_the_tray_marked_a_die_rolled_onto_the_board_is_read_there() -> None:
    """A marked tray is all the die's reader saw: a die rolled past it onto the board went unread, the slot under it
    covered, and the player heard nothing."""
    from companion.observations import LinkChanged

    rng = np.random.default_rng(7)
    first = beside(rng)
    second, _ = onto_board(rng, "6", "red")
    third, die = onto_board(rng, "X", "white")
    hand = arm_over(temple_table(rng, None), slice(100, 400), slice(200, 700))
    # A hand over the board away from the die lying there (moving a pawn): no roll, and nothing said of the die.
    away = arm_over(third, slice(20, 460), slice(300, 460) if die.centre[0] < 230 else slice(20, 180))
    last = beside(rng)
    seen = announced([hand, hand, *[first] * 6, hand, hand, *[second] * 6, hand, hand, *[third] * 6,
                      away, away, *[third] * 6, hand, hand, *[last] * 6])
    assert [(o.value, (o.face or {}).get("colour")) for o in seen if isinstance(o, DieRead)] == [
        (1, "white"), (6, "red"), ("X", "white"), (1, "white")]
    assert not [o for o in seen if isinstance(o, LinkChanged) and "lie where they lay" in o.detail]


def test_with_the_tray_marked_pawns_moved_on_the_board_are_no_roll() -> None:
    from companion.observations import LinkChanged, RollStarted

    rng = np.random.default_rng(10)
    stood, before, after = pawn_moved(rng)
    empty_tray = temple_table(rng, None, pawns=((stood, "red"),))
    moved = empty_tray.copy()
    moved[:] = np.where(np.abs(after.astype(int) - before).sum(2, keepdims=True) > 0, after, empty_tray)
    throw = arm_over(before, slice(100, 400), slice(500, 700))  # over the tray
    hand = arm_over(before, slice(60, 420), slice(120, 420))  # over the board alone
    seen = announced([throw, throw, *[before] * 6, hand, hand, *[after] * 6, *[empty_tray] * 8, hand, hand,
                      *[moved] * 8], mode="temple", card_interval=0, idle_card_interval=0)
    assert [type(o).__name__ for o in seen if isinstance(o, (DieRead, RollStarted))] == ["RollStarted", "DieRead"]
    assert not [o for o in seen if isinstance(o, LinkChanged) and "lie where they lay" in o.detail]


def test_watch_with_the_tray_marked_reads_the_die_on_the_board(tmp_path, capsys) -> None:
    """`vision watch --tray` reads as the table's feed does: a café trying its marked tray sees the die rolled onto
    the board read."""
    import cv2

    rng = np.random.default_rng(7)
    hand = arm_over(temple_table(rng, None), slice(100, 400), slice(200, 700))
    frames = [hand, hand, *[beside(rng)] * 6, hand, hand, *[onto_board(rng, "6", "red")[0]] * 6]
    for n, frame in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"{n:03d}.png"), frame)
    assert main(["vision", "watch", str(tmp_path), "--reader", "temple-die", "--tray", "0.6,0,1,1"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "settled" in line]
    assert len(lines) == 2 and "1 on white" in lines[0] and "6 on red" in lines[1], lines
    assert lines[1].endswith("the table would take it")


def discard_pile_beside() -> list[np.ndarray]:
    """A roll beside the board, the die lifted, another roll; a path card lies face up in the tray's far corner all
    along, read as a die (a 4 on white, 81% sure) while the die is away."""
    from vision.card_catalogue import load_temple_cards
    from vision.card_render import render_card

    rng = np.random.default_rng(5)
    card = render_card(load_temple_cards()[8], 66)[:, :, :3]

    def with_card(frame: np.ndarray) -> np.ndarray:
        frame = frame.copy()
        frame[380:446, 700:766] = card
        return frame

    lying = with_card(temple_table(rng, RolledDie("5", "red", (580.0, 150.0), 55.0, 30.0)))
    lifted = with_card(temple_table(rng, None))
    again = with_card(temple_table(rng, RolledDie("2", "red", (600.0, 260.0), 55.0, 75.0)))
    throw = arm_over(lifted, slice(60, 330), slice(500, 680))  # the hand over the die alone
    return [throw, throw, *[lying] * 6, throw, throw, *[lifted] * 8, throw, throw, *[again] * 6]


def test_something_read_where_nothing_moved_is_no_roll() -> None:
    """The table took the path card as a roll each time the die was lifted. Nothing moved over it: it lay there."""
    seen = announced(discard_pile_beside(), tray=WHOLE_PICTURE)
    assert [(o.value, (o.face or {}).get("colour")) for o in seen if isinstance(o, DieRead)] == [
        (5, "red"), (2, "red")]


def test_watch_says_the_table_keeps_quiet_about_what_nothing_moved_over(tmp_path, capsys) -> None:
    import cv2

    for n, frame in enumerate(discard_pile_beside()):
        cv2.imwrite(str(tmp_path / f"{n:03d}.png"), frame)
    assert main(["vision", "watch", str(tmp_path), "--reader", "temple-die"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "settled" in line]
    assert len(lines) == 3 and "4 on white" in lines[1], lines
    assert lines[1].endswith("nothing moved over it, so it lay there all along: the table says nothing")
    assert lines[2].endswith("the table would take it")


def test_a_throw_whose_hand_paused_above_the_tray_is_still_a_roll() -> None:
    """Where the die lands moved in the motion before the hand paused for a frame; the motion after the pause (the
    hand drawn back) did not cover it. Counted from the pause only, the die had lain there all along."""
    rng = np.random.default_rng(6)
    first = temple_table(rng, RolledDie("5", "red", (560.0, 120.0), 55.0, 30.0))
    landed = temple_table(rng, RolledDie("2", "red", (700.0, 330.0), 55.0, 75.0))
    throw = arm_over(first, slice(0, 480), slice(480, 800))
    paused = arm_over(landed, slice(0, 150), slice(650, 800))  # the hand above the tray's far corner
    drawn_back = arm_over(landed, slice(0, 150), slice(480, 600))
    frames = [throw, throw, *[first] * 6, paused, paused, drawn_back, *[landed] * 6]
    seen = announced(frames, tray=WHOLE_PICTURE)
    assert [(o.value, (o.face or {}).get("colour")) for o in seen if isinstance(o, DieRead)] == [(5, "red"), (2, "red")]
