"""The teach steps used clumsily: damaged or foreign taught files, odd folders and card ids, poor pictures, the
same face or card taught twice under different answers. Each gets a sentence, and what was taught stays.

Every picture is a real image file written by the test and read back with OpenCV, as a café's photo would be.
"""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from tests.vision.test_feed import board_frame
from vision.card_catalogue import TEMPLE_DATA, load_temple_board, load_temple_cards
from vision.card_reader import CardReader
from vision.card_render import render_board
from vision.taught import DIE_FILE, temple_die_reader
from vision.teaching import TeachRefused, teach_card, teach_die_face
from vision.temple_die import GLYPH_SIZE, TaughtDieUnreadable, TempleDieReader
from vision.temple_die_render import render_temple_die

AS_SENT = ["--turn", "0", "--no-mirror"]  # the picture as the camera sends it, whatever a settings file says


def photo(path: Path, image: np.ndarray, flags: int = cv2.IMREAD_COLOR) -> np.ndarray:
    """``image`` written to ``path`` and read back as a café's photo file is."""
    assert cv2.imwrite(str(path), image)
    read = cv2.imread(str(path), flags)
    assert read is not None
    return read


def die_photo(tmp_path: Path, value: str = "3", colour: str = "red", seed: int = 5, **kwargs) -> np.ndarray:
    image, _ = render_temple_die(np.random.default_rng(seed), value, colour, edge=60, **kwargs)
    return photo(tmp_path / f"die_{value}_{colour}_{seed}.png", image)


def one_face_file(folder: Path, **extra: object) -> bytes:
    """A taught die of one face (a 5 on white) as `save` writes it, with ``extra`` keys beside: its bytes."""
    folder.mkdir(parents=True, exist_ok=True)
    glyph = np.zeros((GLYPH_SIZE, GLYPH_SIZE))
    glyph[8:24, 12:20] = 1.0
    doc = {**extra, "glyphs": {"5": [glyph.tolist()]}, "colours": {"white": [[225.0, 228.0, 230.0]]}}
    (folder / DIE_FILE).write_text(json.dumps(doc))
    return (folder / DIE_FILE).read_bytes()


# ---------------------------------------------------------------- the taught die's file


def test_each_face_taught_says_what_is_left_to_teach_until_the_die_is_done(tmp_path: Path) -> None:
    """A die taught face by face answered "(1 faces taught so far)": neither that a value is taught once for both
    colours, nor what was still read by its drawings, nor when the owner could stop."""
    folder = tmp_path / "taught"
    said = [teach_die_face(die_photo(tmp_path, value, colour), value, colour, folder).what
            for value, colour in (("4", "red"), ("4", "white"), ("X", "white"), ("1", "red"), ("2", "white"),
                                  ("3", "red"), ("5", "red"), ("6", "white"), ("7", "red"))]
    assert said[0] == "4 on red (1 face taught so far; still read by their drawings: values X, 1, 2, 3, 5, 6 and 7, " \
                      "and the white colour)"
    assert said[1] == "4 on white (2 faces taught so far; still read by their drawings: values X, 1, 2, 3, 5, 6 and 7)"
    assert said[7] == "6 on white (8 faces taught so far; still read by their drawings: value 7)"
    assert said[8] == "7 on red (9 faces taught so far: every value and colour of the die is taught)"


def test_a_value_or_colour_stored_with_no_examples_is_one_not_taught(tmp_path: Path) -> None:
    """An empty colour list was averaged into NaN: teaching and every reading of the die raised a numpy
    ValueError ("cannot reshape array of size 1"), the table's die reader with it."""
    folder = tmp_path / "taught"
    folder.mkdir()
    (folder / DIE_FILE).write_text('{"glyphs": {"3": []}, "colours": {"red": []}}')
    die = die_photo(tmp_path)
    reader, note = temple_die_reader(folder)
    assert note is None
    (reading,) = reader.read(die)
    assert (reading.value, reading.face) == (3, "red")  # the 3 read by its rendered glyphs, not by none
    taught = teach_die_face(die, "3", "red", folder)
    assert taught.what == ("3 on red (1 face taught so far; still read by their drawings: "
                           "values X, 1, 2, 4, 5, 6 and 7, and the white colour)")
    assert TempleDieReader.load(folder).colours["red"][0].shape == (3,)


def test_a_taught_die_nested_too_deep_is_named_and_kept(tmp_path: Path) -> None:
    """Lists nested 100000 deep made the JSON parser raise RecursionError out of teach-die and the reader."""
    folder = tmp_path / "taught"
    folder.mkdir()
    (folder / DIE_FILE).write_text("[" * 100_000 + "]" * 100_000)
    before = (folder / DIE_FILE).read_bytes()
    with pytest.raises(TeachRefused, match=r"cannot be read \(nested too deep\); move the file aside"):
        teach_die_face(die_photo(tmp_path), "3", "red", folder)
    reader, note = temple_die_reader(folder)
    assert note is not None and "nested too deep" in note and reader.read(die_photo(tmp_path))
    assert (folder / DIE_FILE).read_bytes() == before


def test_a_stored_colour_out_of_range_is_named_not_cast(tmp_path: Path) -> None:
    """A red of (1e9, -5, 3) was cast to bytes as whatever it wrapped to: the café's red die then looked white,
    and teach-die blamed the die on the tray ("the face shown looks white, not red")."""
    folder = tmp_path / "taught"
    folder.mkdir()
    glyph = np.zeros((GLYPH_SIZE, GLYPH_SIZE))
    glyph[8:24, 12:20] = 1.0  # something drawn: an empty glyph is refused first
    (folder / DIE_FILE).write_text(json.dumps({"glyphs": {"3": [glyph.tolist()]}, "colours": {"red": [[1e9, -5, 3]]}}))
    before = (folder / DIE_FILE).read_bytes()
    with pytest.raises(TaughtDieUnreadable, match=r"colours\.red: expected a list of 3 numbers from 0 to 255"):
        TempleDieReader.load(folder)
    with pytest.raises(TeachRefused, match=r"colours\.red: expected .*; move the file aside"):
        teach_die_face(die_photo(tmp_path), "3", "red", folder)
    assert (folder / DIE_FILE).read_bytes() == before


@pytest.mark.parametrize("content", ["{}", '{"version": 0, "faces": [{"value": "3", "colour": "red"}]}'])
def test_a_file_that_is_no_taught_die_is_not_taught_over(tmp_path: Path, content: str) -> None:
    """Another file under the name (an empty object, another layout) was read as a die taught nothing, and
    the first face taught was saved over it."""
    folder = tmp_path / "taught"
    folder.mkdir()
    (folder / DIE_FILE).write_text(content)
    with pytest.raises(TeachRefused, match='expected an object with "glyphs" and "colours" objects; move the file'):
        teach_die_face(die_photo(tmp_path), "3", "red", folder)
    assert (folder / DIE_FILE).read_text() == content


def test_what_a_later_version_stored_beside_the_faces_is_kept(tmp_path: Path) -> None:
    """A key this version does not write was dropped by the next face taught."""
    folder = tmp_path / "taught"
    one_face_file(folder, version=3, taught_by="the counter")
    teach_die_face(die_photo(tmp_path), "3", "red", folder)
    doc = json.loads((folder / DIE_FILE).read_text())
    assert (doc["version"], doc["taught_by"]) == (3, "the counter") and sorted(doc["glyphs"]) == ["3", "5"]


def test_a_die_file_linked_to_nothing_is_not_taught_over(tmp_path: Path) -> None:
    """A link to a taught die on a drive not plugged in was replaced by a file of one face: the link to the
    café's whole teaching was gone when the drive came back."""
    folder = tmp_path / "taught"
    folder.mkdir()
    (folder / DIE_FILE).symlink_to(tmp_path / "stick" / DIE_FILE)
    with pytest.raises(TeachRefused, match=r"is a link to .*stick/temple_die\.json, which is not there"):
        teach_die_face(die_photo(tmp_path), "3", "red", folder)
    assert (folder / DIE_FILE).is_symlink()
    reader, note = temple_die_reader(folder)
    assert note is not None and "which is not there" in note and reader.read(die_photo(tmp_path))
    before = one_face_file(tmp_path / "stick")  # the drive is back: teaching goes on in its file
    teach_die_face(die_photo(tmp_path), "3", "red", folder)
    assert (folder / DIE_FILE).is_symlink() and (tmp_path / "stick" / DIE_FILE).read_bytes() != before
    assert sorted(TempleDieReader.load(tmp_path / "stick").examples) == ["3", "5"]


def test_a_face_cut_short_or_refused_leaves_the_taught_die_as_it_was(tmp_path: Path, monkeypatch) -> None:
    """Ctrl-C while the file is written, or a folder gone read-only, keeps every face taught before."""
    folder = tmp_path / "taught"
    before = one_face_file(folder)

    def interrupted(_handle: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("companion.paths.os.fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        teach_die_face(die_photo(tmp_path), "3", "red", folder)
    assert [p.name for p in folder.iterdir()] == [DIE_FILE] and (folder / DIE_FILE).read_bytes() == before

    def read_only(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr("companion.paths.tempfile.mkstemp", read_only)
    with pytest.raises(TeachRefused, match=r"cannot write to .*: Read-only file system"):
        teach_die_face(die_photo(tmp_path), "3", "red", folder)
    assert [p.name for p in folder.iterdir()] == [DIE_FILE] and (folder / DIE_FILE).read_bytes() == before


# ---------------------------------------------------------------- folders and names


def test_a_folder_named_past_the_limit_is_refused_by_name(tmp_path: Path, capsys) -> None:
    """A --out or $COMPANION_TAUGHT_DIR longer than a file name may be raised OSError out of both teach steps
    ("companion: File name too long", exit 1) and out of the table's die reader."""
    folder = tmp_path / ("a" * 300)
    die = die_photo(tmp_path)
    with pytest.raises(TeachRefused, match=r"cannot read .*temple_die\.json: File name too long"):
        teach_die_face(die, "3", "red", folder)
    board = photo(tmp_path / "board.png", board_frame({3: "P05"}))
    with pytest.raises(TeachRefused, match=r"cannot write to .*: File name too long"):
        teach_card(board, 3, "P05", folder)
    reader, note = temple_die_reader(folder)
    assert note is not None and "File name too long" in note and reader.read(die)
    assert (
        main(
            [
                "vision",
                "teach-die",
                str(tmp_path / "die_3_red_5.png"),
                "--value",
                "3",
                "--colour",
                "red",
                "--out",
                str(folder),
                *AS_SENT,
            ]
        )
        == 1
    )
    assert capsys.readouterr().err.startswith("vision: cannot read ")


def cafe_deck(ids: dict[str, str]) -> dict[str, object]:
    """The house data with cards renamed as ``ids`` says: a café's cards.json may call a card anything."""
    cards = json.loads((TEMPLE_DATA / "cards.json").read_text())
    for card in cards["cards"]:
        card["id"] = ids.get(card["id"], card["id"])
    return {"cards": cards, "board": json.loads((TEMPLE_DATA / "board.json").read_text())}


@pytest.mark.parametrize(
    ("card_id", "why"),
    [
        ("a/b", "it holds a /"),
        ("../P05", "it holds a /"),
        ("P\0 5", "it holds a NUL character"),
        ("P" * 240, "it is 240 bytes long, 230 at most"),
        ("P\ud8005", "it holds characters no file name can"),
    ],
)
def test_a_card_id_that_cannot_name_a_photo_file_is_refused(tmp_path: Path, card_id: str, why: str) -> None:
    """ "a/b" was stored in a folder of its own and "../P05" beside the taught folder, both said taught and
    never read; a NUL raised ValueError out of teach-card, a long id failed as a bare "File name too long"."""
    cards, board = load_temple_cards(), load_temple_board()
    image = photo(tmp_path / "board.png", render_board(board, {3: cards[4]}, cell_px=20)[0])
    folder = tmp_path / "box" / "taught"
    with pytest.raises(TeachRefused, match=r"rename the card in the café's cards\.json") as refused:
        teach_card(image, 3, card_id, folder, cafe_deck({cards[4].id: card_id}))
    assert f"cannot name a photo file ({why})" in str(refused.value)
    assert sorted(p.name for p in (tmp_path / "box").rglob("*")) == []


def test_a_cafe_card_id_with_a_slash_is_refused_by_teach_card(tmp_path: Path, monkeypatch, capsys) -> None:
    cafe = tmp_path / "cafe" / "temple"
    cafe.mkdir(parents=True)
    for name in ("board.json", "die.json", "rulebook.json"):
        (cafe / name).write_bytes((TEMPLE_DATA / name).read_bytes())
    (cafe / "cards.json").write_text(json.dumps(cafe_deck({"P05": "5/a"})["cards"]))
    monkeypatch.setenv("COMPANION_CAFE_DIR", str(tmp_path / "cafe"))
    board = tmp_path / "board.png"
    cv2.imwrite(str(board), board_frame({3: "P05"}))
    assert (
        main(
            [
                "vision",
                "teach-card",
                str(board),
                "--slot",
                "3",
                "--card",
                "5/a",
                "--out",
                str(tmp_path / "taught"),
                *AS_SENT,
            ]
        )
        == 1
    )
    assert "the card id '5/a' cannot name a photo file (it holds a /)" in capsys.readouterr().err
    assert not (tmp_path / "taught" / "5").exists()


# ---------------------------------------------------------------- pictures


def test_a_face_too_blurred_to_show_its_value_is_not_taught_blank(tmp_path: Path) -> None:
    """Out of focus, the die was still found but its value was not: "taught 3 on red" stored an empty glyph
    that no face can ever match, and a blurred red that pulled the red faces' colour astray."""
    folder = tmp_path / "taught"
    before = one_face_file(folder)
    image, _ = render_temple_die(np.random.default_rng(5), "3", "red", edge=60)
    blurred = photo(tmp_path / "blurred.png", cv2.GaussianBlur(image, (0, 0), 6))
    with pytest.raises(TeachRefused, match=r"no value could be made out on the die's top face .*out of focus"):
        teach_die_face(blurred, "3", "red", folder)
    assert (folder / DIE_FILE).read_bytes() == before
    assert not TempleDieReader().teach(blurred, "3", "red")


def test_a_black_picture_is_no_die_not_a_grey_camera(tmp_path: Path) -> None:
    """A lens cap's black frame was answered "set the camera to colour"."""
    black = photo(tmp_path / "black.png", np.zeros((480, 640, 3), np.uint8))
    with pytest.raises(TeachRefused, match=r"^no die found in the frame"):
        teach_die_face(black, "3", "red", tmp_path / "taught")
    assert not (tmp_path / "taught").exists()


@pytest.mark.parametrize("kind", ["16-bit", "BGRA", "huge"])
def test_deep_four_channel_and_huge_photos_teach_the_face_they_show(tmp_path: Path, kind: str) -> None:
    image, _ = render_temple_die(np.random.default_rng(5), "3", "red", edge=60)
    made = {
        "16-bit": image.astype(np.uint16) * 257,
        "BGRA": cv2.cvtColor(image, cv2.COLOR_BGR2BGRA),
        "huge": cv2.resize(image, (6000, 4500), interpolation=cv2.INTER_CUBIC),
    }[kind]
    frame = photo(tmp_path / "face.png", made, cv2.IMREAD_UNCHANGED)
    taught = teach_die_face(frame, "3", "red", tmp_path / "taught")
    assert taught.what.startswith("3 on red (1 face taught so far; ")
    reader, _ = temple_die_reader(tmp_path / "taught")
    (reading,) = reader.read(frame)
    assert (reading.value, reading.face) == (3, "red")


def test_an_empty_value_is_asked_for(tmp_path: Path) -> None:
    """The camera screen's value not picked yet was answered "the temple die has no  on red"."""
    with pytest.raises(TeachRefused, match=r"^no value given: say which value the face shows; its faces are 1 on"):
        teach_die_face(die_photo(tmp_path), "  ", "red", tmp_path / "taught")


# ---------------------------------------------------------------- the same face or card, another answer


def test_a_face_taught_again_under_another_value_is_said(tmp_path: Path) -> None:
    """The same face taught as 3 and then as 5 went without a word, and read as either from then on."""
    folder = tmp_path / "taught"
    first = teach_die_face(die_photo(tmp_path, seed=7), "3", "red", folder)
    again = teach_die_face(die_photo(tmp_path, seed=8), "3", "red", folder)
    assert first.advice == again.advice == ""  # the same answer twice is more of the same face
    other = teach_die_face(die_photo(tmp_path, seed=9), "5", "red", folder)
    assert other.advice.startswith("this face matches the 3 taught before (")
    assert other.advice.endswith(
        f"if it shows 3, it is now taught as both and reads as either: take this face back alone (companion "
        f"vision untaught-face --value 5 --colour red), or move {folder / DIE_FILE} aside and teach the die again"
    )
    white = teach_die_face(die_photo(tmp_path, "5", "white", seed=10), "5", "white", folder)
    assert white.advice == ""  # a 5 after a 5 taught by mistake is the 5's own


def test_every_face_taught_once_draws_no_word_of_a_mix_up(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    folder = tmp_path / "taught"
    for value, colour in [("X", "white"), *((str(v), c) for v in range(1, 8) for c in ("red", "white"))]:
        image, _ = render_temple_die(rng, value, colour, edge=70)
        taught = teach_die_face(photo(tmp_path / "face.png", image), value, colour, folder)
        assert "matches the" not in taught.advice, (value, colour, taught.advice)


def test_a_cafe_print_taught_again_as_another_card_is_said(tmp_path: Path) -> None:
    """A café's own print, which the drawings read as nothing surely, taught as P05 and then as P30 went without
    a word: the slot was read before by the drawings alone, not as the camera reads it with the photos taught.
    (P30 prints plain path where P05 shows its stairs, so the second photo is refused, with what the slot read as.)"""
    image = board_frame({3: "P05"})
    reader = CardReader()
    assert reader.read(image) is not None and reader.last_outlines is not None
    corners = np.round(np.array(reader.last_outlines[3])).astype(np.int32)
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, corners, 1)
    own = image.copy()
    own[inside > 0] = own[inside > 0][:, [2, 0, 1]]  # the café printed it in its own colours
    frame = photo(tmp_path / "own_print.png", own)
    seen = {s.slot: s for s in CardReader().read(frame).slots}[3]
    assert seen.confidence < 0.5  # the drawings cannot tell it
    folder = tmp_path / "taught"
    assert teach_card(frame, 3, "P05", folder).advice == ""
    with pytest.raises(TeachRefused, match=r"plain on P30, .*; slot 3 read as P05 before \(\d+% sure\)$"):
        teach_card(frame, 3, "P30", folder)
    assert not (folder / "P30__0.png").exists()


def test_broken_photos_in_the_taught_folder_are_passed_over_quietly(tmp_path: Path, capfd) -> None:
    """Teaching reads the photos taught so far; a cut-short one made OpenCV print its own errors beside the
    answer, as though teaching had failed."""
    folder = tmp_path / "taught"
    folder.mkdir()
    good = cv2.imencode(".png", board_frame({3: "P05"}))[1].tobytes()
    (folder / "P06__0.png").write_bytes(good[:3000])
    (folder / "P07__0.png").write_bytes(good[:8])
    capfd.readouterr()
    taught = teach_card(photo(tmp_path / "board.png", board_frame({3: "P05"})), 3, "P05", folder)
    assert taught.path == folder / "P05__0.png"
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize(("code", "said"), [
    (errno.EROFS, "Read-only file system; its drive has turned read-only (an SD card that is failing does so; "
                  "docs/operations.md says how to check): what was taught before is still read"),
    (errno.ENOSPC, "No space left on device; its drive is full: make room on it (pictures kept by vision watch "
                   "--save, copies of journals) and try again"),
])
def test_a_drive_gone_read_only_or_full_is_said_with_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, said: str
) -> None:
    """"Read-only file system" alone told a café owner at the touchscreen nothing of what to do next."""
    folder = tmp_path / "taught"
    before = one_face_file(folder)
    board = photo(tmp_path / "board.png", board_frame({3: "P05"}))

    def refused(*_args: object, **_kwargs: object) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr("companion.paths.tempfile.mkstemp", refused)
    for teach in (lambda: teach_die_face(die_photo(tmp_path), "3", "red", folder),
                  lambda: teach_card(board, 3, "P05", folder)):
        with pytest.raises(TeachRefused, match=f"^cannot write to {re.escape(str(folder))}: {re.escape(said)}$"):
            teach()
    assert [p.name for p in folder.iterdir()] == [DIE_FILE] and (folder / DIE_FILE).read_bytes() == before
