"""Teaching stores a card's photo whole or not at all, under a name no photo kept before holds."""

from __future__ import annotations

import errno
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.card_catalogue import load_temple_board, load_temple_cards
from vision.card_reader import CardReader
from vision.card_render import render_board
from vision.cli import main
from vision.teaching import TeachRefused, teach_card


@pytest.fixture(scope="module")
def board() -> np.ndarray:
    cards, board = load_temple_cards(), load_temple_board()
    return render_board(board, {s.slot: cards[0] for s in board.slots}, cell_px=20)[0]


def test_a_write_cut_short_leaves_no_photo_behind(board: np.ndarray, tmp_path: Path, monkeypatch) -> None:
    """A full SD card mid-write leaves part of a file; no cut photo may hold the card's name."""

    def card_full(_handle: int) -> None:  # the bytes are written aside; flushing them to the card fails
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("companion.paths.os.fsync", card_full)
    with pytest.raises(TeachRefused, match=r"cannot write to .*No space left on device"):
        teach_card(board, 3, "P01", tmp_path / "taught")
    assert list((tmp_path / "taught").iterdir()) == []  # nothing under the card's name, nothing left aside


def test_a_photo_is_stored_whole_under_the_first_free_name(board: np.ndarray, tmp_path: Path) -> None:
    folder = tmp_path / "taught"
    folder.mkdir()
    (folder / "P01__0.png").symlink_to(tmp_path / "unplugged" / "P01__0.png")  # a link, even to nothing, is kept
    (folder / "P01__1.png").write_bytes(b"kept")
    taught = teach_card(board, 3, "P01", folder)
    assert taught.path == folder / "P01__2.png" and taught.what == "P01 from slot 3"
    assert sorted(p.name for p in folder.iterdir()) == ["P01__0.png", "P01__1.png", "P01__2.png"]
    assert (folder / "P01__0.png").is_symlink() and (folder / "P01__1.png").read_bytes() == b"kept"
    assert CardReader().load_taught(folder) == 1  # the new photo reads; the link and the odd file are skipped


def test_a_bare_slot_is_not_taught_as_a_card(tmp_path: Path) -> None:
    """Taught from an empty slot (a card laid in another slot than the one named), P07 became the reading
    of every empty slot on the board."""
    cards, board = load_temple_cards(), load_temple_board()
    layout = {s.slot: (None if s.slot in (4, 5) else cards[s.slot]) for s in board.slots}
    image = render_board(board, layout, cell_px=20)[0]
    photo = tmp_path / "board.png"
    cv2.imwrite(str(photo), image)
    folder = tmp_path / "taught"
    with pytest.raises(TeachRefused, match="slot 4 looks empty: lay P07 in slot 4"):
        teach_card(cv2.imread(str(photo)), 4, "P07", folder)
    assert not folder.exists() or list(folder.iterdir()) == []
    taught = teach_card(cv2.imread(str(photo)), 3, cards[3].id, folder)  # a card lying there still teaches
    assert taught.path.exists()
    assert CardReader(cards, board, taught_dir=folder).read(image).cards()[5] is None


def test_teaching_from_a_camera_too_far_away_is_done_with_advice(tmp_path: Path) -> None:
    """A café that teaches from afar gets its card or face stored, and told what would make readings surer."""
    from tests.vision.test_feed import BY_ID, board_frame
    from tests.vision.test_view_check import far_board
    from vision.teaching import teach_die_face
    from vision.temple_die_render import render_temple_die

    card = sorted(BY_ID)[4]
    near = teach_card(board_frame({3: card}), 3, card, tmp_path / "cards")
    far = teach_card(far_board(), 3, card, tmp_path / "cards")
    assert near.advice == "" and far.path.exists()
    assert far.advice.startswith("the board's slots are only 2") and "(30 px or more)" in far.advice
    rng = np.random.default_rng(5)
    close = teach_die_face(render_temple_die(rng, "3", "red", edge=60)[0], "3", "red", tmp_path / "die")
    small = teach_die_face(render_temple_die(rng, "3", "red", edge=22)[0], "3", "red", tmp_path / "die")
    assert close.advice == "" and small.path.exists()
    assert small.advice.startswith("the die is only ") and "mount the camera closer (80 px or more)" in small.advice


def test_teaching_through_a_smeared_lens_is_done_with_advice(tmp_path: Path) -> None:
    """The photo is stored, and the café hears what else the veil costs it and how to mend it."""
    from tests.vision.test_feed import BY_ID, board_frame
    from vision.board_photos import veiled

    card = sorted(BY_ID)[4]
    taught = teach_card(veiled(board_frame({3: card}), 0.6), 3, card, tmp_path / "cards")
    assert taught.path.exists()
    assert taught.advice.startswith("the board looks washed out in this view (its markers' black ")
    assert "misread through so thick a veil: wipe the camera's lens and turn lamps away from it" in taught.advice


def test_a_card_named_in_other_case_is_the_decks_and_a_slot_read_as_another_card_is_said(
        board: np.ndarray, tmp_path: Path) -> None:
    """"p01" was refused as unknown; P05 taught from a slot that plainly held P01 went without a word.

    A name whose card prints plain path where P01 shows its idol is refused (`vision.card_cover`), saying what the
    slot read as; one with its own idol or stairs where P01 has its idol is taught (P13), and that is said."""
    cards = load_temple_cards()
    folder = tmp_path / "taught"
    taught = teach_card(board, 3, f" {cards[0].id.lower()} ", folder)
    assert taught.path == folder / f"{cards[0].id}__0.png" and taught.advice == ""
    other = next(c.id for c in cards if c.cells[1][0] == "path")
    with pytest.raises(TeachRefused, match=rf"plain on {other}, .*; slot 3 read as {cards[0].id} before \("):
        teach_card(board, 3, other, folder)
    assert sorted(p.name for p in folder.iterdir()) == [f"{cards[0].id}__0.png"]
    alike = next(c.id for c in cards if c.cells != cards[0].cells and c.cells[1][0] not in ("path", "hole"))
    assert alike == "P13"
    slip = teach_card(board, 3, alike, folder)
    assert slip.path.exists()
    assert slip.advice.startswith(f"slot 3 read as {cards[0].id} before (")
    assert slip.advice.endswith(f"if {cards[0].id} lies there, take this photo back (companion vision untaught-card "
                                f"--photo {slip.path}) and teach it as {cards[0].id} instead")
    # Taught as P01 on top of the slip, both photos would be read: the command the advice names takes it back.
    command = slip.advice.split("(companion ")[-1].split(")")[0].split()
    assert main(command) == 0 and not slip.path.exists()
    assert sorted(p.name for p in folder.iterdir()) == [f"{cards[0].id}__0.png"]


def test_a_die_face_is_not_taught_from_a_grey_picture(tmp_path: Path) -> None:
    """A mono camera's grey was stored as the colour of red faces, pulling every later reading astray."""
    from vision.teaching import teach_die_face
    from vision.temple_die_render import render_temple_die

    grey = cv2.cvtColor(render_temple_die(np.random.default_rng(5), "3", "red", edge=60)[0], cv2.COLOR_BGR2GRAY)
    with pytest.raises(TeachRefused, match="the picture has no colour"):
        teach_die_face(grey, "3", "red", tmp_path / "die")
    assert not (tmp_path / "die").exists()


def test_a_cafe_deck_taught_card_by_card_is_not_told_each_card_may_be_a_slip(tmp_path: Path) -> None:
    """A café's own print (mint paper) taught in slot order: an untaught card reads as the nearest card taught so
    far, surely (its paper is nearer those photos than the drawings), and teaching it got "slot 4 read as P01
    before (100% sure); if P01 lies there, take this photo back ... and teach it as P01 instead", for a P04 whose
    green idol lies where P01 prints plain path: advice that undid a right teaching. It came for 2 of 12 cards."""
    cards, board = load_temple_cards(), load_temple_board()
    by_id = {card.id: card for card in cards}
    laid = {slot.slot: by_id[f"P{slot.slot:02d}"] for slot in board.slots}
    mint = {(120, 178, 214): (150, 205, 165)}  # the house path colour (BGR) printed as the café's mint
    flat = render_board(board, laid, cell_px=24, palette=mint)[0]
    frame = np.full((480, 640, 3), 90, np.uint8)
    frame[5:475, 85:555] = cv2.resize(flat, (470, 470), interpolation=cv2.INTER_AREA)
    folder = tmp_path / "taught"
    for slot in (3, 2, 1):
        assert teach_card(frame, slot, f"P{slot:02d}", folder).advice == ""
    reader = CardReader(cards, board, taught_dir=folder)
    before = next(s for s in reader.read(frame).slots if s.slot == 4)
    assert before.card == "P01" and before.confidence >= 0.5  # what the advice was given on
    taught = teach_card(frame, 4, "P04", folder)
    assert "read as P01" not in taught.advice, taught.advice
    # A slot that does show the card read before still says so (P01 lying in slot 4, P13 named for it).
    laid[4] = by_id["P01"]
    slip_frame = frame.copy()
    slip_frame[5:475, 85:555] = cv2.resize(render_board(board, laid, cell_px=24, palette=mint)[0], (470, 470),
                                           interpolation=cv2.INTER_AREA)
    assert teach_card(slip_frame, 4, "P13", folder).advice.startswith("slot 4 read as P01 before (")
