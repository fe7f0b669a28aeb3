"""A café's own print, die and taught folder, as the teach steps and the card reader meet them.

- A card printed far from the house colours (pale mint) matched the bare slot's colours best and was refused
  by `teach-card` as an empty slot, so such a café could not teach it at all.
- A card printed in nearly the bare slot's own grey, with one or two holes, was refused so one time in three:
  its marks were no more than a pawn's on a bare slot.
- `teach-die` checked faces against the house die.json, not the café's own.
- A taught folder that cannot be read (a name past the file system's limit) raised OSError out of
  `CardReader`, so the feed and `watch`, which make theirs from `$COMPANION_TAUGHT_DIR`, did not start.

Every picture is an image the test renders, writes as a PNG and reads back with OpenCV, as a café's photo.
"""

from __future__ import annotations

import copy
import json
import queue
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main as companion_main
from companion.observations import CardsSeen, LinkChanged
from vision.board_photos import board_photo
from vision.card_catalogue import TEMPLE_DATA, BoardSpec, load_temple_board, load_temple_cards
from vision.card_reader import EMPTY, CardReader
from vision.card_render import EMPTY_SLOT, HOLE, SAND, SAND_EDGE, render_board
from vision.feed import CameraFeed
from vision.slot_tracker import SlotTracker
from vision.teaching import TeachRefused, teach_card, teach_die_face, temple_data
from vision.temple_die_render import render_temple_die

AS_SENT = ["--turn", "0", "--no-mirror"]  # the picture as the camera sends it, whatever a settings file says
CARDS = load_temple_cards()
BOARD = load_temple_board()
BY_ID = {c.id: c for c in CARDS}
MINT = {SAND: (190, 235, 170), SAND_EDGE: (150, 200, 130), HOLE: (90, 110, 60)}  # house colour -> the café's (BGR)
GREY = {SAND: (78, 86, 82), SAND_EDGE: (62, 68, 66), HOLE: (40, 44, 42)}  # paper a shade off EMPTY_SLOT (70, 78, 74)
PALE_BARE = {EMPTY_SLOT: (200, 212, 216)}  # a café board whose bare slots are printed pale, not dark grey
LONG = "x" * 300  # past the 255 bytes a file name may hold


def photo(path: Path, image: np.ndarray) -> np.ndarray:
    """``image`` written to ``path`` and read back as a café's photo file is."""
    assert cv2.imwrite(str(path), image)
    read = cv2.imread(str(path))
    assert read is not None
    return read


def slot_mask(board: BoardSpec, to_img: np.ndarray, shape: tuple[int, ...], slots: set[int]) -> np.ndarray:
    """Where the given slots lie on a `render_board` image."""
    mask = np.zeros(shape[:2], np.uint8)
    for slot in board.slots:
        if slot.slot in slots:
            corners = [to_img @ slot.card_to_board() @ np.array([u, v, 1.0])
                       for u, v in ((0, 0), (3, 0), (3, 3), (0, 3))]
            cv2.fillConvexPoly(mask, np.round(np.array(corners)[:, :2]).astype(np.int32), 1)
    return mask


def printed_board(layout: dict[int, str | None], recolour: dict[int, dict] | None = None,
                  cell_px: int = 20) -> tuple[np.ndarray, np.ndarray]:
    """The board drawn flat with the cards of ``layout`` (slot -> card id, None for bare), the slots of
    ``recolour`` printed in their own colours (slot -> {house colour: the café's}); and its cells-to-pixels matrix.

    A slot's drawing is pasted whole (nearest neighbour), so its colours are the house colours exactly and can be
    swapped for a café's.
    """
    image, to_img = render_board(BOARD, {s.slot: BY_ID.get(layout.get(s.slot) or "") for s in BOARD.slots}, cell_px)
    for slot, colours in (recolour or {}).items():
        inside = slot_mask(BOARD, to_img, image.shape, {slot}) > 0
        before = image.copy()
        for house, own in colours.items():
            image[inside & np.all(before == np.array(house, np.uint8), axis=2)] = own
    return image, to_img


def straight_view(flat: np.ndarray, seed: int = 0) -> np.ndarray:
    """The flat board seen from above on a 640x480 frame, a little noise."""
    frame = np.full((480, 640, 3), 90, np.uint8)
    frame[10:470, 90:550] = cv2.resize(flat, (460, 460), interpolation=cv2.INTER_AREA)
    noise = np.random.default_rng(seed).normal(0, 2, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def camera_view(flat: np.ndarray, rng: np.random.Generator, light: np.ndarray | None = None) -> np.ndarray:
    """The flat board as a café's camera sees it: turned and a little oblique, lit unevenly with a colour cast
    (one side up to twice as bright as the other), blurred and noisy, as `eval-cards`' board photos are.
    ``light``: the light's gains on a 3 x 3 grid over the frame, spread smoothly between them; random when None."""
    side = flat.shape[0]
    angle = np.deg2rad(rng.uniform(-10, 10))
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) @ turn.T + rng.normal(0, 0.03, (4, 2))
    quad = corners * 215 + np.array([320, 240])
    flat_corners = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    warp = cv2.getPerspectiveTransform(flat_corners, quad.astype(np.float32))
    table = np.full((480, 640, 3), 110, np.uint8)
    image = cv2.warpPerspective(flat, warp, (640, 480), dst=table, borderMode=cv2.BORDER_TRANSPARENT,
                                flags=cv2.INTER_AREA).astype(np.float32)
    grid = rng.uniform(0.65, 1.25, (3, 3)) if light is None else light
    gain = cv2.resize(np.asarray(grid, np.float32), (640, 480), interpolation=cv2.INTER_CUBIC)
    image = image * gain[:, :, None] * rng.uniform(0.9, 1.1, 3)
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.4, 1.1)) + rng.normal(0, rng.uniform(2, 5), image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- a card printed in the café's own colours


def test_a_card_printed_in_pale_mint_is_taught_and_then_read(tmp_path: Path) -> None:
    """Taught with teach-card, a mint print got "slot 3 looks empty" at 100%: its colours match the grey bare
    slot's better than any sand card's once each slot is brought to one brightness. Paper is brighter than the
    bare slot, which no print lacks; a bare slot beside it is still refused."""
    layout = {3: "P07", 8: "P20"}
    frame = photo(tmp_path / "mint.png", straight_view(printed_board(layout, {3: MINT})[0]))
    before = CardReader().read(frame)
    assert before is not None
    seen = next(s for s in before.slots if s.slot == 3)
    # The drawings took it for a bare slot, surely; its look (paper brighter than a bare slot's) says it is none, and
    # the nearest drawing is read, too unsurely for the tracker to count (0.16): the card still wants teaching.
    assert seen.card is not None and seen.confidence < SlotTracker().min_confidence, seen
    folder = tmp_path / "taught"
    taught = teach_card(frame, 3, "P07", folder)
    assert taught.what == "P07 from slot 3" and taught.path == folder / "P07__0.png" and taught.advice == ""
    with pytest.raises(TeachRefused, match="slot 4 looks empty: lay P07 in slot 4"):
        teach_card(frame, 4, "P07", folder)  # the bare slot beside it
    again = photo(tmp_path / "again.png", straight_view(printed_board(layout, {3: MINT})[0], seed=9))
    read = CardReader(taught_dir=folder).read(again)
    assert read is not None
    assert read.cards() == {s.slot: layout.get(s.slot) for s in BOARD.slots}  # the bare slots read bare still


def test_in_uneven_light_bare_slots_are_refused_and_mint_prints_taught(tmp_path: Path) -> None:
    """What tells a print from a bare slot holds in a café's light: one side of the board up to twice as bright as
    the other, a colour cast, blur and noise. Every bare slot is still refused, and every mint card taught but those
    the camera clips near the lamp."""
    rng = np.random.default_rng(4)
    clipped = 0
    ids = sorted(BY_ID)
    for n in range(4):
        cards = {slot: ids[int(i)] for slot, i in zip((1, 5, 9, 11), rng.choice(len(ids), 4, replace=False),
                                                        strict=True)}
        flat = printed_board(cards, {slot: MINT for slot in cards})[0]
        frame = photo(tmp_path / f"board{n}.png", camera_view(flat, rng))
        reader = CardReader()
        assert reader.read(frame) is not None
        for slot in (2, 3, 4, 6, 7, 8, 10, 12):
            with pytest.raises(ValueError, match=f"slot {slot} looks empty"):
                reader.teach(frame, slot, "P07")
        for slot, card in cards.items():
            try:
                assert reader.teach(frame, slot, card).shape == (60, 60, 3), (n, slot, card)
            except ValueError as error:  # a mint print near the lamp, clipped (test_teach_clipped), and only that
                assert str(error).startswith(f"slot {slot} is too brightly lit in this view"), (n, slot, card, error)
                clipped += 1
    assert clipped <= 5, clipped  # of 16 prints: those lit 1.1 times or more, their green past 255


def test_cards_printed_in_the_bare_slots_grey_are_taught_and_bare_slots_still_refused() -> None:
    """A café deck printed in nearly the bare slot's own grey matches the bare slot best by its colours, and is
    no brighter: its marks alone tell it. A card with one or two holes shows no more marked pixels than a bare
    slot under a pawn, and 60 of these 180 grey cards were refused as "looks empty" (one in three); the lines
    between its cells, which every path cell is printed with and no pawn lies along, tell it now. 60 of
    `eval-cards`' board photos (uneven light, casts, blur, noise, up to four pawns), six grey cards and six bare
    slots in each, three of each taught: every card is taught but those with a pawn on them (refused for the pawn,
    `vision.card_cover`), and every bare slot, pawns on some, refused."""
    reader = CardReader()
    rng = np.random.default_rng(101)
    refused, taught_bare, tried, covered = [], [], [], []
    for n in range(60):
        empty = frozenset(int(s) for s in rng.choice(np.arange(1, 13), 6, replace=False))
        shot = board_photo(rng, CARDS, BOARD, empty_slots=empty, palette=GREY)
        laid = [slot for slot in sorted(shot.truth) if shot.truth[slot]]
        bare = [slot for slot in sorted(shot.truth) if not shot.truth[slot]]
        for slot in laid[n % 2::2] + bare[n % 2::2]:
            card = shot.truth[slot]
            tried.append(card)
            trial = copy.copy(reader)
            trial.refs = copy.deepcopy(reader.refs)  # each teach step meets the drawings alone
            try:
                trial.teach(shot.image, slot, card or "P07")
            except ValueError as error:
                if f"something lies on the card in slot {slot}" in str(error):
                    covered.append((n, slot, slot in shot.pawned))
                    continue
                assert f"slot {slot} looks empty" in str(error), error
                if card is not None:
                    refused.append((n, slot, card))
            else:
                if card is None:
                    taught_bare.append((n, slot))
    cards = sum(card is not None for card in tried)
    assert (cards, len(tried) - cards) == (180, 180)
    assert refused == [], f"{len(refused)} of {cards} grey cards refused as bare: {refused[:10]}"
    assert len(covered) == 35 and all(pawned for _, _, pawned in covered), covered  # each with a pawn on it
    assert taught_bare == [], f"{len(taught_bare)} bare slots taught as a card: {taught_bare[:10]}"


def test_a_board_with_pale_bare_slots_is_held_against_its_taught_bare_slot(tmp_path: Path) -> None:
    """A café whose bare slots are printed pale teaches a photo of one as "<empty>": a bare slot is then refused
    by its likeness to that photo, and a mint card, paler still and printed on, is taught. Before that photo, a
    bare slot paler than the house one is told from it by nothing but its brightness, and the answer says so."""
    bare_everywhere = {s.slot: PALE_BARE for s in BOARD.slots}
    layout = {3: "P07"}
    frame = photo(tmp_path / "pale.png", straight_view(printed_board(layout, {**bare_everywhere, 3: MINT})[0]))
    folder = tmp_path / "taught"
    slip = teach_card(frame, 4, "P07", folder)
    assert slip.advice == (
        f"slot 4 matches a bare slot by its colours and shows no printed marks, only paper brighter than a bare "
        f"slot: if no card lies there, take this photo back (companion vision untaught-card --photo "
        f"{folder / 'P07__0.png'}) and teach a photo of a bare slot as {EMPTY}"
    )
    slip.path.unlink()
    assert teach_card(frame, 5, EMPTY, folder).path == folder / f"{EMPTY}__0.png"
    with pytest.raises(TeachRefused, match="slot 4 looks empty"):
        teach_card(frame, 4, "P07", folder)
    mint = teach_card(frame, 3, "P07", folder)
    assert mint.path == folder / "P07__0.png" and mint.advice == ""
    read = CardReader(taught_dir=folder).read(frame)
    assert read is not None and read.cards() == {s.slot: layout.get(s.slot) for s in BOARD.slots}


# ---------------------------------------------------------------- the café's own die


def cafe_with_own_die(tmp_path: Path) -> Path:
    """A café folder whose die has an X on a red face where the house die has its 7 on white."""
    doc = json.loads((TEMPLE_DATA / "die.json").read_text())
    faces = doc["faces"]
    faces[faces.index({"value": 7, "colour": "white"})] = {"value": "X", "colour": "red"}
    cafe = tmp_path / "cafe"
    (cafe / "temple").mkdir(parents=True)
    (cafe / "temple" / "die.json").write_text(json.dumps(doc))
    return cafe


def test_teach_die_takes_the_faces_of_the_cafes_own_die(tmp_path: Path, monkeypatch, capsys) -> None:
    """teach-die checked faces against the house die.json, both before opening the camera and in the teach step,
    so the X on red of a café's die was refused as a face the die has not."""
    monkeypatch.delenv("COMPANION_CAFE_DIR", raising=False)
    cafe = cafe_with_own_die(tmp_path)
    face = tmp_path / "x_red.png"
    assert cv2.imwrite(str(face), render_temple_die(np.random.default_rng(3), "X", "red", edge=60)[0])
    out = tmp_path / "taught"
    teach = ["vision", "teach-die", str(face), "--value", "X", "--colour", "red", "--out", str(out), *AS_SENT]
    assert companion_main(["--cafe", str(cafe), *teach]) == 0
    assert capsys.readouterr().out.startswith("taught X on red (1 face taught so far; ")
    assert companion_main(teach) == 2  # the house die has no X on red
    assert "the temple die has no X on red" in capsys.readouterr().err
    seven = tmp_path / "7_white.png"
    assert cv2.imwrite(str(seven), render_temple_die(np.random.default_rng(3), "7", "white", edge=60)[0])
    assert companion_main(["--cafe", str(cafe), "vision", "teach-die", str(seven), "--value", "7", "--colour",
                           "white", "--out", str(out), *AS_SENT]) == 2
    err = capsys.readouterr().err
    assert "the temple die has no 7 on white" in err and "X on red" in err and "7 on red" in err


def test_the_teach_step_checks_faces_against_the_die_of_the_data_given(tmp_path: Path) -> None:
    """The app's camera screen teaches through `teach_die_face` too, with the game's data."""
    data = temple_data(cafe_with_own_die(tmp_path))
    image = photo(tmp_path / "x_red.png", render_temple_die(np.random.default_rng(3), "X", "red", edge=60)[0])
    taught = teach_die_face(image, "X", "red", tmp_path / "taught", data)
    assert taught.what.startswith("X on red (1 face taught so far; ")
    with pytest.raises(TeachRefused, match="the temple die has no X on red"):
        teach_die_face(image, "X", "red", tmp_path / "house")  # no data: the house die
    with pytest.raises(TeachRefused, match="the temple die has no 7 on white"):
        teach_die_face(image, "7", "white", tmp_path / "taught", data)


# ---------------------------------------------------------------- a taught folder that cannot be read


def test_a_taught_folder_that_cannot_be_read_leaves_the_drawings_and_says_why(tmp_path: Path) -> None:
    """The reader's glob raised OSError ("File name too long") out of `CardReader`; a file where the folder should
    be, or a link to a drive not plugged in, was passed over in silence."""
    frame = photo(tmp_path / "board.png", straight_view(printed_board({3: "P07"})[0]))
    (tmp_path / "a_file").write_text("not a folder")
    (tmp_path / "unplugged").symlink_to(tmp_path / "drive" / "taught")
    for folder, why in [(tmp_path / LONG, "(File name too long)"), (tmp_path / LONG / "taught", "(File name too long)"),
                        (tmp_path / "a_file", "(Not a directory)"),
                        (tmp_path / "unplugged", f"is a link to {tmp_path / 'drive' / 'taught'}, which is not there")]:
        reader = CardReader(taught_dir=folder)
        assert reader.taught_problem is not None and why in reader.taught_problem, (folder, reader.taught_problem)
        assert reader.taught_problem.startswith(f"the taught folder {folder} ")
        assert reader.taught_problem.endswith("the cards are read by their drawings")
        read = reader.read(frame)
        assert read is not None and read.cards()[3] == "P07"
    nothing_yet = CardReader(taught_dir=tmp_path / "not_made_yet")
    assert nothing_yet.taught_problem is None and nothing_yet.taught_cards == []


def test_teach_card_into_a_folder_that_cannot_be_read_says_why(tmp_path: Path) -> None:
    frame = photo(tmp_path / "board.png", straight_view(printed_board({3: "P07"})[0]))
    with pytest.raises(TeachRefused, match=r"cannot write to .*: File name too long"):
        teach_card(frame, 3, "P07", tmp_path / LONG)
    (tmp_path / "unplugged").symlink_to(tmp_path / "drive" / "taught")
    with pytest.raises(TeachRefused, match=r"it is a link to .*drive/taught, which is not there \(a drive not"):
        teach_card(frame, 3, "P07", tmp_path / "unplugged")


def test_the_feed_reads_the_cards_with_a_taught_folder_past_the_name_limit(tmp_path: Path) -> None:
    """The feed makes its card reader from `$COMPANION_TAUGHT_DIR`: the OSError passed every frame over, and
    no card was ever read."""
    folder = tmp_path / "frames"
    folder.mkdir()
    frame = straight_view(printed_board({3: "P07", 9: "P20"})[0])
    for n in range(5):
        assert cv2.imwrite(str(folder / f"{n:04d}.png"), frame)
    seen: queue.Queue = queue.Queue()
    with CameraFeed(str(folder), seen.put, mode="cards", fps=None, card_interval=0,
                    taught_dir=tmp_path / LONG) as feed:
        assert feed.ended.wait(15)
    assert feed.errors == 0
    cards = [o for o in seen.queue if isinstance(o, CardsSeen)]
    assert {s: c for o in cards for s, c in o.slots.items()} == {3: "P07", 9: "P20"}
    notes = [o.detail for o in seen.queue if isinstance(o, LinkChanged) and "taught folder" in o.detail]
    assert len(notes) == 1 and "cannot be read (File name too long)" in notes[0]  # the table hears why


def test_watch_says_why_a_taught_folder_cannot_be_read(tmp_path: Path, monkeypatch, capsys) -> None:
    """`watch` raised "File name too long" for `$COMPANION_TAUGHT_DIR` or `--taught` past the name limit: it now
    reads by the drawings for the one the café did not name, and refuses the one it named, saying why."""
    board = tmp_path / "board.png"
    assert cv2.imwrite(str(board), straight_view(printed_board({3: "P07"})[0]))
    monkeypatch.setenv("COMPANION_TAUGHT_DIR", str(tmp_path / LONG))
    assert companion_main(["vision", "watch", str(board), "--reader", "cards", *AS_SENT]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("frame 1: slot 1 empty, slot 2 empty, slot 3 P07, ")
    assert f"the taught folder {tmp_path / LONG} cannot be read (File name too long)" in err
    monkeypatch.delenv("COMPANION_TAUGHT_DIR")
    assert companion_main(["vision", "watch", str(board), "--reader", "cards", "--taught", str(tmp_path / LONG),
                           *AS_SENT]) == 1
    assert capsys.readouterr().err == f"vision: --taught {tmp_path / LONG} cannot be read: File name too long\n"
