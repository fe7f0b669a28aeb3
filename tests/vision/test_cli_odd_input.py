"""The commands given odd values, flags that do nothing without another, and sources with nothing in them: each is
answered in one sentence that says what is wrong, never in silence or in words that say nothing."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.test_cli_robust import AS_SENT, WATCH
from tests.vision.test_feed import board_frame
from vision.cli import main
from vision.temple_die_render import render_temple_die


def die_photo(path: Path) -> Path:
    image, _ = render_temple_die(np.random.default_rng(3), "3", "red", size=(640, 480), edge=90.0)
    cv2.imwrite(str(path), image)
    return path


def test_teach_die_without_a_value_says_so(tmp_path: Path, capsys) -> None:
    """`--value ''` answered "the temple die has no  on red", which names nothing; the camera screen says this."""
    photo = die_photo(tmp_path / "die.png")
    for value in ("", "  "):
        assert main(["vision", "teach-die", str(photo), "--value", value, "--colour", "red",
                     "--out", str(tmp_path / "taught"), *AS_SENT]) == 2
        err = capsys.readouterr().err
        assert "vision: no value given: say which value the face shows; its faces are 1 on red" in err
        assert "has no  on" not in err
    assert not (tmp_path / "taught").exists()


def test_keep_without_save_is_refused(tmp_path: Path, capsys) -> None:
    """`--keep 50` without `--save` was passed over in silence: no frame was saved, and nothing said why."""
    photo = die_photo(tmp_path / "die.png")
    assert main(["vision", "watch", str(photo), "--keep", "50", *WATCH]) == 2
    captured = capsys.readouterr()
    assert "vision: --keep N counts the frames --save DIR keeps: add --save DIR, or leave --keep out" in captured.err
    assert "frame 1" not in captured.out


def test_a_tray_given_to_the_card_reader_is_refused(tmp_path: Path, capsys) -> None:
    """`--reader cards --tray ...` read the whole picture in silence, the owner sure the board was read in the
    tray alone."""
    board = tmp_path / "board.png"
    cv2.imwrite(str(board), board_frame({3: "P07"}))
    assert main(["vision", "watch", str(board), "--reader", "cards", *AS_SENT, "--mains", "0",
                 "--tray", "0.2,0.2,0.8,0.8"]) == 2
    assert "--tray marks where dice are read; the cards are read over the whole picture" in capsys.readouterr().err
    assert main(["vision", "watch", str(board), "--reader", "cards", *WATCH]) == 0  # `--tray whole` says no more


def test_the_card_reader_does_not_claim_the_saved_tray(tmp_path: Path, monkeypatch, capsys) -> None:
    """With a tray marked on the camera screen, `watch --reader cards` said "Dice read in the tray marked at
    20-80% across...", though it reads no dice and reads the board over the whole picture."""
    settings = tmp_path / "ui.json"
    settings.write_text(json.dumps({"tray_area": [0.2, 0.2, 0.8, 0.8]}))
    monkeypatch.setenv("COMPANION_UI_SETTINGS", str(settings))
    board = tmp_path / "board.png"
    cv2.imwrite(str(board), board_frame({3: "P07"}))
    assert main(["vision", "watch", str(board), "--reader", "cards", *AS_SENT, "--mains", "0"]) == 0
    out = capsys.readouterr().out
    assert "frame 1: slot" in out and "Dice read in" not in out
    photo = die_photo(tmp_path / "die.png")  # the dice readers still take it, and say so
    assert main(["vision", "watch", str(photo), "--reader", "temple-die", *AS_SENT, "--mains", "0"]) == 0
    assert "Dice read in the tray marked at 20-80% across" in capsys.readouterr().out


def test_a_video_without_a_frame_is_named_as_such(tmp_path: Path, capsys) -> None:
    """A recording stopped before its first frame: `watch` said only "0 frames read", the teach steps "no frame
    from empty.avi", and neither said why."""
    video = tmp_path / "empty.avi"
    cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 30, (640, 480)).release()
    assert video.stat().st_size > 0  # a header, no frame
    said = f"video file {video} holds no frame this OpenCV can decode (empty, or cut short before its first frame)"
    assert main(["vision", "watch", str(video), *WATCH]) == 1
    assert f"vision: {said}" in capsys.readouterr().err
    assert main(["vision", "teach-die", str(video), "--value", "3", "--colour", "red",
                 "--out", str(tmp_path / "taught"), *AS_SENT]) == 1
    assert f"vision: {said}" in capsys.readouterr().err
    one = tmp_path / "one.avi"  # a video of one frame still gives it
    writer = cv2.VideoWriter(str(one), cv2.VideoWriter_fourcc(*"MJPG"), 30, (640, 480))
    writer.write(cv2.imread(str(die_photo(tmp_path / "die.png"))))
    writer.release()
    assert main(["vision", "watch", str(one), "--reader", "temple-die", "--every-frame", *WATCH]) == 0
    out = capsys.readouterr().out
    assert "frame 1: die shows 3 on red" in out and "1 frame read" in out


def test_a_taught_folder_that_is_no_folder_is_said_by_the_die_reader_and_watch(tmp_path: Path, monkeypatch,
                                                                                  capsys) -> None:
    """The taught folder a link to a drive not plugged in, or a file: the card reader said so, but the temple die
    reader and `watch` read the die by its drawings in silence, the café's taught die unused and nobody told."""
    from vision.taught import temple_die_reader

    photo = die_photo(tmp_path / "die.png")
    unplugged = tmp_path / "unplugged"
    unplugged.symlink_to(tmp_path / "usb" / "taught")
    a_file = tmp_path / "a-file"
    a_file.write_bytes(b"")
    for folder, why in ((unplugged, f"it is a link to {tmp_path / 'usb' / 'taught'}, which is not there (a drive "
                                    "not plugged in?)"),
                        (a_file, "it is a file, not a folder"),
                        (a_file / "taught", f"{a_file} is a file, not a folder")):
        reader, note = temple_die_reader(folder)
        assert note == f"the taught folder {folder}: {why}; reading the die with its rendered faces"
        assert reader.read(cv2.imread(str(photo)))[0].value == 3  # read on by the drawings
        monkeypatch.setenv("COMPANION_TAUGHT_DIR", str(folder))
        assert main(["vision", "watch", str(photo), "--reader", "temple-die", *WATCH]) == 0
        captured = capsys.readouterr()
        assert f"the taught folder {folder}: {why}; reading by the drawings" in captured.err
        assert "frame 1: die shows 3 on red" in captured.out
    assert temple_die_reader(tmp_path / "nothing-taught-yet")[1] is None  # no folder yet: nothing to say


def test_a_float_tiff_is_read_and_opencv_says_nothing_of_its_own(tmp_path: Path, capfd) -> None:
    """A TIFF of 32-bit float samples was "not a readable image", under OpenCV's own "[ WARN ...] Sorry, can not
    handle images with 32-bit samples" on stderr; it is a picture like a deep camera's frame."""
    photo = cv2.imread(str(die_photo(tmp_path / "die.png")))
    cv2.imwrite(str(tmp_path / "die.tiff"), photo.astype(np.float32) / 255)
    assert main(["vision", "watch", str(tmp_path / "die.tiff"), "--reader", "temple-die", *WATCH]) == 0
    out, err = capfd.readouterr()
    assert "frame 1: die shows 3 on red" in out and err == ""


def test_a_video_without_a_frame_gets_our_sentence_alone(tmp_path: Path, capfd) -> None:
    video = tmp_path / "empty.avi"
    cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 30, (640, 480)).release()
    assert main(["vision", "watch", str(video), *WATCH]) == 1
    err = capfd.readouterr().err
    assert err.startswith("vision: video file") and len(err.splitlines()) == 1, err


BAD_ADDRESSES = [
    ("htp://192.168.1.20/stream", "htp:// begins no camera's stream: give rtsp://, http:// or https://"),
    ("ftp://nas.local/clip.avi", "ftp:// begins no camera's stream"),
    ("http://", "http:// names no camera: give its address after http://, e.g. rtsp://192.168.1.20/stream"),
    ("rtsp://admin:secret@", "rtsp://admin:***@ names no camera"),
    ("http://[::1", "http://[::1 is not a whole address"),
]


def test_a_stream_address_that_can_name_no_camera_is_refused_at_once(tmp_path: Path, capsys) -> None:
    """`watch htp://...`, `ftp://...` or a bare `http://` was tried as a stream every 2 s for ever ("cannot open
    stream ... (wrong address, camera off, or network down)"), and the teach commands ended 1 as if the network
    were down: a typo in the command line, exit status 2, and no retry."""
    out = str(tmp_path / "taught")
    for address, said in BAD_ADDRESSES:
        for argv in (["watch", address, "--timeout", "5", *WATCH],
                     ["teach-card", address, "--slot", "3", "--card", "P01", "--out", out, *AS_SENT],
                     ["teach-die", address, "--value", "3", "--colour", "red", "--out", out, *AS_SENT]):
            assert main(["vision", *argv]) == 2, argv
            captured = capsys.readouterr()
            assert captured.err.startswith("vision: ") and said in captured.err, captured.err
            assert "secret" not in captured.err and "source problem" not in captured.out, argv
    assert not (tmp_path / "taught").exists()


def test_a_stream_address_a_camera_may_have_is_still_taken() -> None:
    from vision.sources import SourceRefused, misnamed, open_source, stream_address

    for address in ("rtsp://admin:pw@192.168.1.20:554/stream1", "HTTPS://cam.local/video.mjpg",
                    "http://[::1]:8080/video", "udp://@:1234", "srt://10.0.0.5:9000"):
        assert stream_address(address) == address and misnamed(address) is None
    with pytest.raises(SourceRefused):  # the app's feed too: told that waiting will not mend it
        open_source("htp://192.168.1.20/stream")


def test_a_taught_folder_given_to_the_dice_reader_is_refused(tmp_path: Path, monkeypatch, capsys) -> None:
    """`watch --taught DIR` with the dice reader (the default) was passed over in silence: the dice reader reads by
    its models alone, and the owner believed the café's taught folder was being tried. Left unnamed, a taught
    folder the dice reader never reads is not spoken of either."""
    photo = die_photo(tmp_path / "die.png")
    (tmp_path / "taught").mkdir()
    for reader in ([], ["--reader", "dice"]):
        assert main(["vision", "watch", str(photo), *reader, "--taught", str(tmp_path / "taught"), *WATCH]) == 2
        captured = capsys.readouterr()
        assert captured.err == ("vision: --taught names the folder of the taught temple cards and die; the dice "
                                "reader reads by its models alone: leave --taught out, or add --reader cards or "
                                "--reader temple-die\n") and "frame 1" not in captured.out
    a_file = tmp_path / "a-file"
    a_file.write_bytes(b"")
    monkeypatch.setenv("COMPANION_TAUGHT_DIR", str(a_file))
    assert main(["vision", "watch", str(photo), *WATCH]) == 0
    captured = capsys.readouterr()
    assert "taught folder" not in captured.err and "frame 1: " in captured.out
    assert main(["vision", "watch", str(photo), "--reader", "temple-die", *WATCH]) == 0  # read there, so said
    assert f"the taught folder {a_file}: it is a file" in capsys.readouterr().err


def test_the_marker_sheet_never_writes_over_a_file_of_the_cafes(tmp_path: Path, capsys) -> None:
    """`markers menu.pdf` wrote the sheet over the café's menu without a word; a folder named sheets.pdf ended 1
    ("cannot write sheets.pdf: Is a directory; give a name in a folder that is there"), `sheets.pdf/` wrote the
    file sheets.pdf, and ` .pdf` a file named by its suffix alone. A sheet written before is written over, as a café
    prints its markers again at another size."""
    menu = tmp_path / "menu.pdf"
    menu.write_bytes(b"%PDF-1.4 the cafe's menu")
    assert main(["vision", "markers", str(menu)]) == 2
    assert capsys.readouterr().err == (f"vision: {menu} is there already and is no marker sheet; nothing was "
                                       "written: give the sheet a new name, or move that file away first\n")
    assert menu.read_bytes() == b"%PDF-1.4 the cafe's menu"
    (tmp_path / "sheets.pdf").mkdir()
    assert main(["vision", "markers", str(tmp_path / "sheets.pdf")]) == 2
    assert capsys.readouterr().err == (f"vision: {tmp_path / 'sheets.pdf'} is a folder: give the sheet a file's name "
                                       f"in it, ending in .pdf (e.g. {tmp_path / 'sheets.pdf' / 'markers.pdf'})\n")
    for name, said in ((f"{tmp_path / 'new.pdf'}/", "names a folder: give the sheet a file's name in it"),
                       (str(tmp_path / " .pdf"), "the file name is empty: give the sheet's name, ending in .pdf")):
        with pytest.raises(SystemExit) as usage:
            main(["vision", "markers", name])
        assert usage.value.code == 2 and said in capsys.readouterr().err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["menu.pdf", "sheets.pdf"]
    sheet = tmp_path / "sheet.pdf"
    sheet.write_bytes(b"")  # nothing to lose
    for size in ("50", "30"):  # a sheet of its own is written again
        assert main(["vision", "markers", str(sheet), "--size-mm", size]) == 0
        assert f"black square is then {size} mm a side".encode() in sheet.read_bytes()


def test_an_empty_value_or_card_and_a_file_for_the_taught_folder_are_mistakes_in_the_command_line(
        tmp_path: Path, capsys) -> None:
    """`untaught-face --value ''` ended 1, "no face was taught as ''", as if the die held the fault; `teach-card
    --card ''` listed all 49 ids of the deck as "unknown card ''"; and a file given as the taught folder of the take-
    back commands ended 1, "cannot write to notes.txt" or "cannot read notes.txt", where the teach commands refuse
    it as the command line is read (exit status 2). Nothing is taken back, and no folder is made."""
    photo = die_photo(tmp_path / "die.png")
    notes = tmp_path / "notes.txt"
    notes.write_text("x")
    for argv, said in (
            (["untaught-face", "--value", " ", "--colour", "red", "--out", str(tmp_path)],
             "vision: --value is empty: give the value the face was taught as (X or a number)"),
            (["teach-card", str(photo), "--slot", "3", "--card", "", "--out", str(tmp_path / "taught"), *AS_SENT],
             "vision: --card is empty: give the card's id from the deck's data, e.g. P07")):
        assert main(["vision", *argv]) == 2
        assert capsys.readouterr().err == f"{said}\n"
    for argv, what in ((["untaught-face", "--value", "3", "--colour", "red"], "taught die"),
                       (["untaught-card", "--card", "P01"], "taught photos"),
                       (["untaught-card", "--photo", "P01__0.png"], "taught photos")):
        for out, why in ((notes, "it is a file"), (notes / "taught", f"{str(notes)!r} in it is a file")):
            with pytest.raises(SystemExit) as usage:
                main(["vision", *argv, "--out", str(out)])
            err = capsys.readouterr().err.splitlines()[-1]
            assert usage.value.code == 2 and err.endswith(
                f"argument --out: {str(out)!r} cannot be a folder: {why}; give the folder holding the {what} (the "
                "teach commands' --out)"), err
    assert notes.read_text() == "x" and sorted(p.name for p in tmp_path.iterdir()) == ["die.png", "notes.txt"]


def test_a_photo_set_whose_labels_are_no_dice_is_not_scored(tmp_path: Path, capsys) -> None:
    """A set labelled for other things (classes past 5) or in another format scored every photo as an empty table
    read right: image_accuracy 1.0, exit status 0, the skipped lines listed below the scores. Photos of an empty
    table with empty label files are still scored."""
    for name, line in (("other", "9 0.5 0.5 0.1 0.1"), ("format", "die 12 40 30 60"), ("empty", "")):
        for part in ("images", "labels"):
            (tmp_path / name / "valid" / part).mkdir(parents=True)
        for index in range(2):
            cv2.imwrite(str(tmp_path / name / "valid" / "images" / f"{index}.jpg"), np.full((96, 128, 3), 90, np.uint8))
            (tmp_path / name / "valid" / "labels" / f"{index}.txt").write_text(line + "\n" if line else "")
    for name, why in (("other", "0.txt line 1 '9 0.5 0.5 0.1 0.1': class 9 is no d6 face"),
                      ("format", "0.txt line 1 'die 12 40 30 60': not 'class cx cy w h'")):
        assert main(["vision", "eval-dice", str(tmp_path / name), "--json"]) == 1
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.startswith(
            f"vision: no label line under {tmp_path / name} is a d6 die (2 lines read), so nothing was scored (another "
            f"set's objects, or another label format?): {why}"), captured.err
    assert main(["vision", "eval-dice", str(tmp_path / "empty"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["images"] == 2


def test_a_folder_that_may_not_be_looked_into_is_said_so(tmp_path: Path, monkeypatch, capsys) -> None:
    """A folder of photos this user may not read (copied by another user, a card mounted for root): `watch` and the
    teach steps ended in a PermissionError traceback, and `eval-dice` said "no images under" a set full of them.
    (Tests run as root, whom no mode stops, so the refusal is stood in for.)"""
    import os

    shut = tmp_path / "shut"
    for part in ("images", "labels"):
        (shut / "valid" / part).mkdir(parents=True)
    die_photo(shut / "valid" / "images" / "a.png")
    scandir, iterdir = os.scandir, Path.iterdir

    def refused(path: object) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(os, "scandir", lambda path=".": refused(path) if Path(path).name == "images" else scandir(path))
    monkeypatch.setattr(Path, "iterdir", lambda self: refused(self) if self.name == "images" else iterdir(self))
    folder = shut / "valid" / "images"
    said = (f"vision: folder {folder} cannot be looked into (Permission denied): give the user running this leave "
            "to read it (ls -ld shows its owner and mode)\n")
    for argv in (["watch", str(folder), *WATCH],
                 ["teach-die", str(folder), "--value", "3", "--colour", "red", "--out", str(tmp_path / "t"), *AS_SENT]):
        assert main(["vision", *argv]) == 1
        assert capsys.readouterr().err == said
    assert main(["vision", "eval-dice", str(shut)]) == 1
    assert capsys.readouterr().err == (f"vision: no images could be listed under {shut}: this user may not look into "
                                       f"{folder} (Permission denied); give it leave to read them (ls -ld shows a "
                                       "folder's owner and mode)\n")
    assert not (tmp_path / "t").exists()


def test_a_video_that_may_not_be_read_is_said_so(tmp_path: Path, monkeypatch, capsys) -> None:
    """A recording this user may not read was "cannot read video file ... (damaged, not a video, or a format this
    OpenCV cannot decode)", and the café re-recorded a good video. (Root, whom no mode stops, runs the tests, so
    the refusal is stood in for.)"""
    video = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 30, (640, 480))
    writer.write(cv2.imread(str(die_photo(tmp_path / "die.png"))))
    writer.release()
    opened = Path.open

    def refused(self: Path, *args: object, **kwargs: object):
        if self == video:
            raise PermissionError(13, "Permission denied", str(self))
        return opened(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refused)
    said = (f"vision: video file {video} cannot be read (Permission denied): give the user running this leave to "
            "read it (ls -l shows its owner and mode)\n")
    for argv in (["watch", str(video), *WATCH],
                 ["teach-die", str(video), "--value", "3", "--colour", "red", "--out", str(tmp_path / "t"), *AS_SENT]):
        assert main(["vision", *argv]) == 1
        assert capsys.readouterr().err == said


def test_a_timeout_given_with_a_file_is_refused(tmp_path: Path, capsys) -> None:
    """`watch clip.avi --timeout 10` played the video to its end: a file never keeps watch waiting for a frame, so
    the café's "stop after 10 s" was passed over in silence."""
    photo = die_photo(tmp_path / "die.png")
    for source in (photo, tmp_path):
        assert main(["vision", "watch", str(source), "--timeout", "10", *WATCH]) == 2
        captured = capsys.readouterr()
        assert captured.err == (f"vision: --timeout gives up on a camera or stream that sends nothing; {source} is a "
                                "file or folder, which never keeps watch waiting: leave --timeout out (--frames N "
                                "stops after N frames)\n") and "frame 1" not in captured.out
    assert main(["vision", "watch", str(photo), "--timeout", "0", *WATCH]) == 0  # never give up: as without it


@pytest.mark.parametrize(("argv", "said"), [
    (["watch", "die.png", "--turn", "x"], "argument --turn: 'x' is not 0, 90, 180 or 270 (degrees, clockwise)"),
    (["watch", "die.png", "--turn", "-90"], "argument --turn: '-90' is not 0, 90, 180 or 270 (degrees, clockwise)"),
    (["watch", "die.png", "--mains", "fifty"], "argument --mains: 'fifty' is not 0, 50 or 60 (Hz, or 0 to leave the "
                                               "camera be)"),
    (["teach-card", "die.png", "--slot", "three", "--card", "P07"],
     "argument --slot: 'three' is not a slot's number: give the slot the card lies in as a whole number (1-12 on the "
     "house board)"),
    (["teach-die", "die.png", "--value", "3", "--colour", "red", "--turn", "1/2"],
     "argument --turn: '1/2' is not 0, 90, 180 or 270 (degrees, clockwise)"),
])
def test_a_word_where_a_number_goes_names_the_numbers_allowed(argv: list[str], said: str, capsys) -> None:
    """argparse said "argument --turn: invalid int value: 'x'", naming neither the turns, the mains frequencies nor
    the slots a café may give."""
    with pytest.raises(SystemExit) as usage:
        main(["vision", *argv])
    assert usage.value.code == 2 and capsys.readouterr().err.splitlines()[-1].endswith(f"error: {said}")


def test_a_folder_of_one_photo_is_read_as_one_photo(tmp_path: Path, capsys) -> None:
    """`watch FOLDER` with one photo in it read it once and ended 0 with "no reading: the view never held still",
    as a single photo never holds still for several frames: it is read as that photo given alone is."""
    die_photo(tmp_path / "die.png")
    assert main(["vision", "watch", str(tmp_path), "--reader", "temple-die", *WATCH]) == 0
    out = capsys.readouterr().out
    assert "frame 1: die shows 3 on red" in out and "never held still" not in out


def test_a_photo_named_in_one_folder_and_out_naming_another_is_refused(tmp_path: Path, capsys) -> None:
    """`untaught-card --photo A/P07__0.png --out B` ended 1, "A/P07__0.png is not a card photo a teach step stored
    in B", as if the photo were at fault; the same folder named two ways (A/../A, A/) was told so too."""
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    photo = tmp_path / "a" / "P07__0.png"
    cv2.imwrite(str(photo), np.full((60, 40, 3), 120, np.uint8))
    assert main(["vision", "untaught-card", "--photo", str(photo), "--out", str(tmp_path / "b")]) == 2
    assert capsys.readouterr().err == (f"vision: --photo names a photo in {tmp_path / 'a'}, --out another folder, "
                                       f"{tmp_path / 'b'}: give the photo's whole path alone, or its name alone with "
                                       "--out\n")
    assert main(["vision", "untaught-card", "--photo", str(tmp_path / "b" / ".." / "a" / photo.name),
                 "--out", f"{tmp_path / 'a'}/"]) == 1  # the photo itself is looked at: a flat grey, no card
    assert "is not the card photo taught (one flat colour" in capsys.readouterr().err
    assert photo.is_file()


def test_frames_are_not_saved_into_the_folder_being_played(tmp_path: Path, capsys) -> None:
    """`watch photos --save photos` wrote its frames, boxes drawn on them, among the café's photos, and the next
    watch of the folder played them as photos of the table."""
    photos = tmp_path / "photos"
    photos.mkdir()
    die_photo(photos / "die.png")
    for save in (photos, tmp_path / "x" / ".." / "photos"):
        assert main(["vision", "watch", str(photos), "--save", str(save), "--every-frame", *WATCH]) == 2
        captured = capsys.readouterr()
        assert captured.err == (f"vision: --save {save} is the folder SOURCE plays: the frames saved there would be "
                                "played as photos the next time: give --save another folder\n"), captured.err
        assert "frame 1" not in captured.out
    assert sorted(p.name for p in photos.iterdir()) == ["die.png"]
    assert main(["vision", "watch", str(photos), "--save", str(photos / "seen"), "--every-frame", *WATCH]) == 0
