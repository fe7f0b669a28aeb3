"""`companion vision ...`: the adapter's commands, registered into the main CLI as a plugin.

`register(subparsers)` adds the `vision` parser; each sub-command's handler takes
the parsed args and returns the exit code. Handlers print a sentence and return
non-zero on bad input instead of raising: 2 for a mistake in the command line
itself (`_misused`, as argparse and `companion play --game nope` end), 1 for
what the machine, its files or the camera would not give (`_fail`, as
`companion` ends on a file it cannot read), 130 after Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from companion.cli import usage
from companion.errors import quoted
from companion.observations import CONFIRM_BELOW
from companion.option_types import between, count, folder_to_fill, one_of, seconds
from vision.ctrl_c import partial
from vision.mains import MAINS_HZ
from vision.orientation import TURNS, Orientation
from vision.tray_area import WHOLE_PICTURE, TrayArea, TrayAreaRefused

# The sizes the marker sheet prints a marker at: at 65 mm, two to a row and two rows under the instructions
# keep their cut lines 10 mm inside an A4 page, clear of the edge most printers cannot print on.
MARKER_MM = (15.0, 65.0)
KEEP_FRAMES = 1000  # the frames `watch --save` keeps without --keep
# The most renders an evaluation reads (a board photo takes about a quarter of a second, so an hour's worth),
# reads the bench times per reader, and dice a soak throws (ten café days): a million of any ran until Ctrl-C.
MAX_FRAMES = 10_000
MAX_REPEAT = 1_000
MAX_SOAK_ROLLS = 15_000


def register(subparsers: argparse._SubParsersAction) -> None:
    vision = subparsers.add_parser("vision", help="camera readers: dice, temple die, temple path cards")
    sub = vision.add_subparsers(dest="vision_command", metavar="COMMAND")
    vision.set_defaults(func=lambda args: usage(vision))

    p = sub.add_parser("eval-dice", help="score the d6 reader on a folder in the photo sets' YOLO layout")
    p.add_argument("dir", help="a set (with <split>/images, <split>/labels) or one split")
    p.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    p.add_argument("--no-mirror", action="store_true", help="never reread an unsure crop mirrored")
    p.add_argument("--models", metavar="FOLDER", type=named_folder,
                   help="score these d6 models (d6_detector.onnx, d6_classifier.onnx, d6_models.json and, if there, "
                   "d6_low_classifier.onnx and d6_low_detector.onnx; e.g. a rebuild's final/ folder) instead of the "
                   "shipped ones")
    p.add_argument("--shadow", type=between(0.0, 0.95, "shares (of the light)"), default=0.0,
                   help="lay a hard shadow's band across every photo, taking this share of the light away (a lamp "
                   "past the camera's arm; 0.75 leaves a quarter; default 0)")
    p.set_defaults(func=cmd_eval_dice, cafe_unread="")

    p = sub.add_parser("eval-cards", help="score the temple card reader on seeded rendered board photos")
    p.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    p.add_argument("--frames", type=count(1, MAX_FRAMES), default=200,
                   help=f"board photos to render and read (default 200, at most {MAX_FRAMES})")
    p.add_argument("--seed", type=count(0), default=8, help="seed of the photos: the same seed, the same photos")
    p.add_argument("--synthetic-deck", action="store_true",
                   help="use a made-up deck instead of the temple data's cards (on its board)")
    p.add_argument("--arm", action="store_true",
                   help="draw an arm held still over the board in every photo (a hand laying a card)")
    p.add_argument("--ink", type=between(0.0, 0.5, "shares (of the paper's light)"), default=0.0,
                   help="print board, cards and markers with black reflecting this share of the paper's light, as "
                   "real ink does (about 0.05; default 0, black as drawn)")
    p.add_argument("--veil", type=between(0.0, 0.9, "shares (of the picture's light)"), default=0.0,
                   help="see every photo through a veil of scattered light, this share of it (a smeared lens, a lamp "
                   "shining into it; default 0)")
    p.add_argument("--shadow", type=between(0.0, 0.95, "shares (of the light)"), default=0.0,
                   help="lay a hard shadow's band across every photo, taking this share of the light away (an arm "
                   "under a spotlight; 0.85 leaves a sixth; default 0)")
    p.set_defaults(func=cmd_eval_cards)

    p = sub.add_parser("eval-temple-die", help="score the temple die reader on seeded rendered faces")
    p.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    p.add_argument("--frames", type=count(1, MAX_FRAMES),
                   help=f"die faces to render and read (default 320; turns with --on-board, default 200; at most "
                   f"{MAX_FRAMES})")
    p.add_argument("--seed", type=count(0), default=11, help="seed of the renders: the same seed, the same faces")
    p.add_argument("--shadow", type=between(0.0, 0.95, "shares (of the light)"), default=0.0,
                   help="lay a hard shadow's band across every render, taking this share of the light away "
                   "(default 0)")
    p.add_argument("--on-board", action="store_true",
                   help="score the die rolled onto the board instead: turns of a drawn table, every other one the die "
                   "rolled onto the board, the others only pawns moved")
    p.add_argument("--tray-marked", action="store_true",
                   help="with --on-board: the drawn table's tray marked, as a café marks it on the camera screen")
    p.set_defaults(func=cmd_eval_temple_die, cafe_unread="")

    p = sub.add_parser("bench", help="ms per 640x480 frame for each reader, and settle latency on a recorded video")
    p.add_argument("--json", action="store_true", help="print the timings as one JSON object")
    p.add_argument("--repeat", type=count(1, MAX_REPEAT),
                   help=f"reads timed per reader (default 30, at most {MAX_REPEAT})")
    p.add_argument("--soak", type=count(1, MAX_SOAK_ROLLS), metavar="ROLLS",
                   help="instead: throw ROLLS dice through the feed, controller and a journalled game, "
                        f"memory after each hundred (1500 is about a café's day of rolls; at most {MAX_SOAK_ROLLS})")
    p.set_defaults(func=cmd_bench, cafe_unread="")

    p = sub.add_parser("watch", help="print readings live from a source (camera index, URL, video, image folder)")
    p.add_argument("source", help='0, "picamera", rtsp://..., video.avi, a folder of images or one image')
    p.add_argument("--reader", choices=["dice", "cards", "temple-die"], default="dice",
                   help="what to read: dice (default), cards (the temple's path cards) or temple-die")
    p.add_argument("--taught", type=named_folder,
                   help="folder with taught cards / die, with --reader cards or temple-die (default: where the teach "
                   "commands store them, if any)")
    p.add_argument("--frames", type=count(0), default=0, help="stop after this many frames (0: until the source ends)")
    p.add_argument("--every-frame", action="store_true",
                   help="print each frame's reading without waiting for stillness (photos rather than a camera)")
    p.add_argument("--timeout", type=seconds, default=0.0,
                   help="give up on a camera or stream after N s without a frame (0: never)")
    p.add_argument("--save", type=folder_to_write("a folder's path for the frames (. for the one you are in)"),
                   metavar="DIR",
                   help="also write each frame that gave a reading into DIR, what was read drawn on it (frame-N.jpg)")
    p.add_argument("--keep", type=count(1), default=None, metavar="N",
                   help=f"with --save, keep only the newest N frames this run wrote (default {KEEP_FRAMES}, 30-55 MB "
                   "at 640x480)")
    picture_options(p)
    live_options(p)
    p.set_defaults(func=cmd_watch)

    p = sub.add_parser("markers", help="write the printable sheet of the four board markers")
    p.add_argument("out", type=sheet_name, help="OUT.pdf")
    p.add_argument("--size-mm", type=between(*MARKER_MM, "millimetres"), default=50.0,
                   help=f"printed side of each marker, {MARKER_MM[0]:g} to {MARKER_MM[1]:g} mm (two to a row on A4)")
    p.set_defaults(func=cmd_markers, cafe_unread="")

    p = sub.add_parser("teach-card", help="photograph a café's card lying in a slot and link it to a card of the data")
    p.add_argument("source", help="where the board is seen: 0, picamera, a URL, a video, an image or a folder")
    p.add_argument("--slot", type=slot_number, required=True,
                   help="the slot the card lies in, 1-12 as on the board's data")
    p.add_argument("--card", required=True, help="card id from the deck's data, e.g. P07")
    p.add_argument("--as-printed", action="store_true",
                   help="a colour refused as lying on the card is printed on it: teach the card as it is")
    p.add_argument("--out", type=folder_to_write("a folder's path for the taught photos (. for the one you are in)"),
                   help="folder for taught photos (default: the one the camera feed reads)")
    picture_options(p)
    p.set_defaults(func=cmd_teach_card)

    p = sub.add_parser("teach-die", help="show one face of the temple die to the camera and say what it is")
    p.add_argument("source", help="where the die is seen: 0, picamera, a URL, a video, an image or a folder")
    p.add_argument("--value", required=True, help="X or a number, as on the die's data (X, 1..7 for the house die)")
    p.add_argument("--colour", required=True, choices=["red", "white"], help="the face's colour: red or white")
    p.add_argument("--out", type=folder_to_write("a folder's path for the taught die (. for the one you are in)"),
                   help="folder whose temple_die.json grows with each face (default: the one the camera feed reads)")
    picture_options(p)
    p.set_defaults(func=cmd_teach_die)

    p = sub.add_parser("untaught-face", help="take back the face of the temple die last taught as a value and colour")
    p.add_argument("--value", required=True, help="the value it was taught as (X or a number)")
    p.add_argument("--colour", required=True, choices=["red", "white"], help="the background it was taught on")
    p.add_argument("--out", type=folder_to_write("the folder holding the taught die (the teach commands' --out)"),
                   help="folder holding temple_die.json (default: the one the camera feed reads)")
    p.set_defaults(func=cmd_untaught_face, cafe_unread="")

    p = sub.add_parser("untaught-card", help="take back the photo last taught of a temple card, or one named photo")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--card", help="the card id it was taught as, e.g. P07: its photo taught last is taken back")
    which.add_argument("--photo", metavar="FILE",
                       help="the photo's file as teach-card named it (P07__1.png, or its whole path)")
    p.add_argument("--out", type=folder_to_write("the folder holding the taught photos (the teach commands' --out)"),
                   help="folder holding the taught photos (default: the one the camera feed reads)")
    p.set_defaults(func=cmd_untaught_card, cafe_unread="")


# A command marked `cafe_unread` reads no café data (its deck, board or die): `companion --cafe DIR` before it is
# refused (`companion.cli._cafe_passed_over`), naming eval-cards, watch, teach-card and teach-die, which read it.


def picture_options(p: argparse.ArgumentParser) -> None:
    """A camera mounted sideways or upside down, or sending its picture mirrored, as the app's camera screen sets it."""
    p.add_argument("--turn", type=one_of(TURNS, "degrees, clockwise"), default=None, metavar="DEGREES",
                   help="turn the picture clockwise by 0, 90, 180 or 270 degrees, until the table's far side is at "
                        "the top (default: as the app's camera screen saved it, the screen's Turn 90°)")
    p.add_argument("--mirror", action=argparse.BooleanOptionalAction, default=None,
                   help="mirror the picture left to right, or not (default: as the app's camera screen saved it)")


def live_options(p: argparse.ArgumentParser) -> None:
    """The camera settings of a command that reads dice live, as the app's camera screen sets them."""
    p.add_argument("--mains", type=one_of(MAINS_HZ, "Hz, or 0 to leave the camera be"), default=None, metavar="HZ",
                   help="tell the camera the mains frequency, 50 or 60, so flickering lamps do not band its "
                        "picture; 0 leaves the camera be (default: as the app's camera screen saved it)")
    p.add_argument("--tray", type=tray_area, default=None, metavar="L,T,R,B",
                   help="read dice only in this part of the upright picture, as shares of its width and height "
                        "(0.25,0.2,0.75,0.8 or 25%%,20%%,75%%,80%%), or 'whole' (default: as the app's camera "
                        "screen's Mark tray saved it)")


def named_folder(text: str) -> Path:
    """A folder the user named: an empty name is the working folder, which was then written into unasked."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the folder name is empty: give a folder's path (. for the one you are in)")
    return Path(text)


def folder_to_write(what: str) -> Callable[[str], Path]:
    """A folder a command writes into (``watch --save``, the teach commands' ``--out``): named, and neither a
    file nor in one, refused as the command line is read (`folder_to_fill`, as ``data template`` and ``ui
    screenshots`` refuse it) rather than with exit status 1 once the picture had been read."""
    fill = folder_to_fill(what)

    def parse(text: str) -> Path:
        path = named_folder(text)  # "the folder name is empty", as every vision folder option says it
        try:
            unplugged = any(place.is_symlink() and not place.exists() for place in (path, *path.parents))
        except OSError:
            unplugged = False
        # A link to a drive not plugged in is no mistake in the command line: the command names it (exit 1).
        return path if unplugged else Path(fill(text))

    return parse


def slot_number(text: str) -> int:
    """A slot's number, as a whole number: which slots the board has is the board's data's to say
    (`teaching.card_refused`), once the command line is read. argparse said only "invalid int value: 'x'"."""
    try:
        return int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a slot's number: give the slot the card lies in as a "
                                         "whole number (1-12 on the house board)") from None


def sheet_name(text: str) -> Path:
    """The marker sheet's file: an empty name was taken for the working folder and refused as "." not being a PDF;
    ``sheets.pdf/`` (a folder meant) wrote the file sheets.pdf, and `` .pdf`` a file named by its suffix alone."""
    if not text.strip() or not Path(text).stem.strip():
        raise argparse.ArgumentTypeError("the file name is empty: give the sheet's name, ending in .pdf")
    if text.endswith(("/", os.sep)):
        raise argparse.ArgumentTypeError(f"{text} names a folder: give the sheet a file's name in it, ending in .pdf "
                                         f"(e.g. {Path(text) / 'markers.pdf'})")
    return Path(text)


def tray_area(text: str) -> TrayArea:
    try:
        return TrayArea.parse(text)
    except TrayAreaRefused as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class Picture(NamedTuple):
    """How a command sees the camera's picture: put upright, the mains told, and where dice are read."""

    orientation: Orientation
    mains_hz: int
    tray: TrayArea


def picture_settings(args: argparse.Namespace) -> Picture:
    """The flags' turn, mirror, mains frequency (`vision.mains`) and tray area (`vision.tray_area`), each left
    out taken from the app's settings.

    The camera screen is where a café sets the picture upright, names its
    mains and marks its tray, so a setup command run at the same table must
    see the picture the same way, or the board is "seen mirrored" and a die
    taught upside down. The settings file is read once and only read: a
    damaged one is left for the app to set aside. A command without
    ``--mains`` leaves the camera be; one without ``--tray`` reads the whole
    picture.
    """
    turn, mirror = args.turn, args.mirror
    mains, tray = getattr(args, "mains", 0), getattr(args, "tray", WHOLE_PICTURE)
    if turn is not None and mirror is not None and mains is not None and tray is not None:
        return Picture(Orientation(turn, mirror), mains, tray)
    from ui.settings import Settings, default_settings_path

    path = default_settings_path()
    saved = Settings.load(path, set_aside=False)
    if saved.note:  # a damaged file: the picture is taken as the camera sends it, which must not go unsaid
        print(saved.note, file=sys.stderr, flush=True)
    orientation = Orientation(saved.camera_turn if turn is None else turn,
                              saved.camera_mirror if mirror is None else mirror)
    if orientation != Orientation(turn or 0, bool(mirror)):
        print(f"Picture {orientation.words()}, as the camera screen saved it in {path}; "
              "--turn 0 --no-mirror takes it as the camera sends it.", flush=True)
    if tray is None:
        tray = TrayArea.from_list(saved.tray_area)
        if not tray.whole:
            print(f"Dice read in {tray.words()}, as the camera screen saved it in {path}; "
                  "--tray whole reads the whole picture.", flush=True)
    return Picture(orientation, saved.mains_hz if mains is None else mains, tray)


def _warn(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _fail(message: str) -> int:
    """A problem met while running: a folder without images, a file that cannot be read or written, a camera that
    gives no frame, nothing seen to teach. Said, and exit status 1, as every other command ends on one: the 2 it
    ended with told a script (and the café owner reading `$?`) to mend a command line that was not at fault."""
    print(f"vision: {message}", file=sys.stderr)
    return 1


def _misused(message: str) -> int:
    """A mistake in the command line itself (a name left empty, flags that do not go together, a value the die or
    deck has not): said, and exit status 2, as argparse ends on one."""
    print(f"vision: {message}", file=sys.stderr)
    return 2


# ---------------------------------------------------------------- eval


def _said_partial(stopped: str, as_json: bool) -> int:
    """Say first that the figures are of a part (`vision.ctrl_c.partial`), on stderr beside JSON, whose keys are
    fixed; the exit status: 130 after a Ctrl-C, as `simulate` and `hw bench` end, else 0."""
    if stopped:
        print(f"{'vision: ' if as_json else ''}partial: {stopped}", file=sys.stderr if as_json else sys.stdout)
    return 130 if stopped else 0


def _report(summary: dict[str, float | int | None], as_json: bool, details: list[str], stopped: str = "") -> int:
    """An eval's numbers: exactly the summary as one JSON object (null for a share of nothing), or one per line
    and then the details. ``stopped`` (`vision.ctrl_c.partial`): the numbers are of the part measured before a
    Ctrl-C, said first (on stderr beside JSON, whose keys are fixed), and the exit status is 130."""
    code = _said_partial(stopped, as_json)
    if as_json:
        print(json.dumps(summary))
        return code
    for key, value in summary.items():
        print(f"{key:15} {'none to count' if value is None else value}")
    for line in details:
        print(line)
    return code


def cmd_eval_dice(args: argparse.Namespace) -> int:
    from vision.d6_reader import D6Reader, ModelMissing
    from vision.eval_dice import evaluate_folder, progress_line
    from vision.sources import counted, first_few
    from vision.yolo_labels import list_images, unreadable_folders

    if not args.dir.strip():
        return _misused("eval-dice DIR is empty; give the folder of a photo set (\".\" for this one)")
    root = Path(args.dir)
    if not root.is_dir():
        return _fail(f"{root} is {'a file, ' if root.is_file() else ''}not a folder: give the folder of a photo set "
                     "(holding <split>/images and <split>/labels) or of one split")
    tell = progress_line(sys.stderr)
    images = list_images(root, tell)
    if not images:
        if shut := unreadable_folders(root):
            return _fail(f"no images could be listed under {root}: this user may not look into {first_few(shut, 3)}; "
                         "give it leave to read them (ls -ld shows a folder's owner and mode)")
        return _fail(f"no images under {root} (expected <split>/images/*.jpg with <split>/labels/*.txt)")
    if all(item.label is None for item in images):
        # Scored anyway, every die found would count as a false detection and the scores would mean nothing.
        return _fail(f"none of the {len(images)} images under {root} has a label file "
                     "(expected <split>/labels/<image name>.txt beside <split>/images)")
    models = Path(args.models) if args.models else None
    if models is not None and not models.is_dir():
        return _fail(f"--models {models} is not a folder: give the folder holding d6_detector.onnx, "
                     "d6_classifier.onnx and d6_models.json (a rebuild's final/ folder), or leave --models out")
    try:
        reader = D6Reader(model_dir=models, **({"mirror_below": 0.0} if args.no_mirror else {}))
    except ModelMissing as exc:  # missing, or unusable (`ModelUnusable`): a file cut short, settings unreadable
        return _fail(str(exc))
    score = evaluate_folder(root, reader, tell, images, args.shadow)
    stopped = partial(score.images + score.unreadable, len(images), "images") if score.stopped else ""
    if not score.images and not score.stopped:
        return _fail(f"none of the {score.unreadable} image files under {root} could be used: "
                     f"{first_few(score.unreadable_files)}")
    if score.bad_labels and not score.dice and not score.stopped:
        # Scored, every photo counted as an empty table read right: image_accuracy 1.0 of a set of other things.
        return _fail(f"no label line under {root} is a d6 die ({counted(len(score.bad_labels), 'line')} read), so "
                     f"nothing was scored (another set's objects, or another label format?): {score.bad_labels[0]}; "
                     "a line is 'class cx cy w h', class 0-5 for one to six pips")
    if args.json:  # its keys are fixed, so what was left out goes to stderr
        for line in score.skips():
            print(line, file=sys.stderr)
    return _report(score.summary(), args.json, score.breakdown() + score.skips(), stopped)


def cmd_eval_cards(args: argparse.Namespace) -> int:
    """Scores the deck and board of the café folder (``companion --cafe DIR``, ``$COMPANION_CAFE_DIR`` or the
    default one) where it has its own, as the camera reads them: a café checks the reader on its own print."""
    from companion.cli import cafe_dir
    from vision.card_reader import CardReader
    from vision.eval_cards import deck_to_score, evaluate_cards

    deck = deck_to_score(cafe_dir(args), args.synthetic_deck, _warn)
    reader = CardReader(deck.cards, deck.board)
    score = evaluate_cards(reader, deck.cards, deck.board, frames=args.frames, seed=args.seed, arm=args.arm,
                           ink=args.ink, veil=args.veil, shadow=args.shadow)
    by_laid = ", ".join(f"{laid}: {acc}" for laid, acc in score.accuracy_by_laid().items())
    details = [deck.line(), f"frames whose board was not found: {score.unread_frames}; found with a marker hidden: "
               f"{score.markers_hidden}",
               f"slot accuracy by cards laid: {by_laid}",
               f"slots read right surely enough to be taken: {score.sure_right}; wrong so surely: {score.sure_wrong}; "
               f"read as covered: {score.covered}"]
    if args.json:  # its keys are fixed, so which deck was scored goes to stderr
        print(deck.line(), file=sys.stderr)
    stopped = partial(score.frames, args.frames, "board photos") if score.stopped else ""
    return _report(score.summary(), args.json, details, stopped)


def cmd_eval_temple_die(args: argparse.Namespace) -> int:
    from vision.eval_temple_die import MarkedTrayReader, evaluate_on_board, evaluate_temple_die
    from vision.temple_die import TempleDieReader

    if args.on_board and args.shadow:
        return _misused("--on-board draws its table in even light: leave --shadow out")
    if args.tray_marked and not args.on_board:
        return _misused("--tray-marked marks the tray of --on-board's drawn table: add --on-board")
    if args.on_board:
        reader = TempleDieReader.from_renders()
        turns = args.frames or 200
        board = evaluate_on_board(MarkedTrayReader(reader) if args.tray_marked else reader, frames=turns,
                                  seed=args.seed)
        return _report(board.summary(), args.json, [
            f"of {board.rolled} dice rolled onto the board: {board.right} read right, {board.wrong} wrong, "
            f"{board.rolled - board.right - board.wrong} not read (enter those by hand)",
            f"of {board.moves} turns where only pawns moved: {board.phantoms} read a die on the board"],
            partial(board.rolled + board.moves, turns, "turns") if board.stopped else "")
    faces = args.frames or 320
    score = evaluate_temple_die(TempleDieReader.from_renders(), frames=faces, seed=args.seed, shadow=args.shadow)
    misreads = ", ".join(f"{shown} as {read} x{n}" for (shown, read), n in score.confusions.most_common())
    return _report(score.summary(), args.json, [f"values read wrong: {misreads or 'none'}",
                                                f"faces read wrong surely enough to be applied: {score.applied_wrong}",
                                                f"faces read right but asked for a tap (under {CONFIRM_BELOW:.0%} "
                                                f"sure): {score.asked_right}"],
                   partial(score.frames, faces, "die faces") if score.stopped else "")


# ---------------------------------------------------------------- bench


def cmd_bench(args: argparse.Namespace) -> int:
    from vision.bench import run_bench
    from vision.d6_reader import ModelMissing
    from vision.soak import soak_lines

    if args.soak:
        # Taken in silence before: `--soak 1500 --json` printed the soak's lines, no JSON, and ended 0.
        if args.json or args.repeat is not None:
            given = " and ".join(flag for flag, on in (("--json", args.json), ("--repeat", args.repeat)) if on)
            return _misused(f"--soak prints its report of the throws as lines and times no reader: leave out {given}")
        try:
            lines, stopped = soak_lines(args.soak)
        except ModelMissing as exc:
            return _fail(str(exc))
        print("\n".join(lines))
        return 130 if stopped else 0
    results, skipped, stopped = run_bench(args.repeat or 30)
    for note in skipped:
        print(note, file=sys.stderr)
    code = _said_partial(f"{len(results)} timings taken (stopped by Ctrl-C; the others not)" if stopped else "",
                         args.json)
    if args.json:
        print(json.dumps(results))
        return code
    print("timings: median ms, best ms per 640x480 frame")
    for key, value in results.items():
        shown = f"{value[0]:8.2f} {value[1]:8.2f}" if isinstance(value, tuple) else value
        print(f"{key:23} {shown}")
    return code


# ---------------------------------------------------------------- live

def cmd_watch(args: argparse.Namespace) -> int:
    from vision.watch import WatchRefused, watch

    try:
        return watch(args)
    except WatchRefused as exc:
        return (_misused if exc.misused else _fail)(str(exc))


# ---------------------------------------------------------------- setup


def cmd_markers(args: argparse.Namespace) -> int:
    from vision.marker_sheet import may_write_over, write_marker_sheet

    if args.out.suffix.lower() != ".pdf":  # a PDF named sheet.png opens as a broken picture, or not at all
        return _misused(f"{args.out}: the sheet is a PDF; give a name ending in .pdf")
    if args.out.is_dir():  # "cannot write DIR.pdf: Is a directory; give a name in a folder that is there"
        return _misused(f"{args.out} is a folder: give the sheet a file's name in it, ending in .pdf (e.g. "
                        f"{args.out / 'markers.pdf'})")
    if not may_write_over(args.out):  # a café's menu.pdf was written over unasked
        return _misused(f"{args.out} is there already and is no marker sheet; nothing was written: give the sheet "
                        "a new name, or move that file away first")
    try:
        path = write_marker_sheet(args.out, args.size_mm)
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {exc.strerror or exc}; give a name in a folder that is there and "
                     "may be written to (. for the one you are in)")
    print(f"wrote {path}: print at 100%, stick marker 0 at the north-west corner, then clockwise")
    return 0


def _first_frame(spec: str, orientation: Orientation, tries: int = 30):
    """The frame a teach command teaches from: a file's first, or a live camera's first lit one.

    A USB camera starts dark while its exposure settles, and its first frame
    showed "board markers not seen"; up to `tries` frames (a second of a
    camera's) are read until one is lit, and the last is taken if none is.
    """
    from vision.frames import as_bgr, unusable_text
    from vision.sources import SourceError, open_source, shown, skipped_note
    from vision.view_check import too_dark

    try:
        source = open_source(spec)
    except SourceError as exc:
        return None, str(exc)
    frame = None
    try:
        for _ in range(tries):
            read = orientation.apply(source.read())
            if read is not None:
                frame = as_bgr(read)
                if frame is None:
                    where = getattr(source, "current", None) or shown(spec)  # a folder's photo by its own name
                    return None, f"{where}: {unusable_text(read)}"
                if not source.live or too_dark(frame) is None:
                    return frame, None
                continue
            if getattr(source, "finished", False):
                break
            time.sleep(0.05)
    except SourceError as exc:
        if frame is None:
            return None, str(exc)
    finally:
        source.close()
    if frame is not None:
        return frame, None
    skipped = skipped_note(source)
    if skipped:
        return None, f"no frame from {shown(spec)} ({skipped})"
    if source.live:  # a camera that opened and sent nothing: in use by the app, or not quite plugged in
        return None, (f"no frame from {shown(spec)}: check that the camera is plugged in and that nothing else "
                      "(the app: sudo systemctl stop companion) is using it, then try again")
    return None, f"no frame from {shown(spec)}"  # a stream's login never printed


def _teach_refused(problem: object, frame) -> int:
    """A teach refusal, with the dark picture named where it was dark: the markers or die were then not seen
    for want of light, not because they were missing."""
    from vision.view_check import DARK_BELOW, too_dark

    level = too_dark(frame)
    dark = (f"; the picture was dark (its brightest parts reach {level} of 255; {DARK_BELOW} or more wanted): "
            "light the table, or give the camera a moment to settle") if level is not None else ""
    return _fail(f"{problem}{dark}")


def _said_taught(taught) -> int:
    """What a teach command stored and where, and what to mend at the camera when the view was poor; or, where
    the card's photo was all but taught before (`Taught.kept`), that nothing was stored and which photo was kept."""
    print(f"{taught.what}: {taught.path}" if getattr(taught, "kept", False) else f"taught {taught.what}: {taught.path}")
    if taught.advice:
        print(taught.advice)
    return 0


def _stored_among(args: argparse.Namespace, out: Path) -> str | None:
    """Why teach-card may not store its photo in ``out``: the folder of photos SOURCE names, or the one its photo
    lies in. The taught photo lay among the board's photos, and a later teach from that folder could take it (a
    card alone, no markers) as the board's picture: a folder is read in name order, and P07__1.png sorts before
    board.png."""
    from vision.sources import local_path

    source = Path(local_path(args.source))
    try:
        folder = source if source.is_dir() else source.parent if source.is_file() else None
        same = folder is not None and out.is_dir() and folder.samefile(out)
    except OSError:  # either not readable: the teach step says so in its own words
        return None
    if not same:
        return None
    where = f"--out {args.out}" if args.out is not None else f"the taught folder the camera feed reads, {out},"
    what = "the folder of photos SOURCE reads" if source.is_dir() else "the folder SOURCE's photo lies in"
    return (f"{where} is {what}: the taught photo would lie among the board's photos, where a later teach could "
            f"take it for the board; give --out another folder{'' if args.out is None else ' (or leave it out)'}")


def cmd_teach_card(args: argparse.Namespace) -> int:
    from companion.cli import cafe_dir
    from vision.sources import misnamed
    from vision.taught import default_taught_dir
    from vision.teaching import TeachRefused, card_refused, teach_card, temple_data

    if not args.card.strip():  # "unknown card ''; the deck has P01, ..., P49"
        return _misused("--card is empty: give the card's id from the deck's data, e.g. P07")
    data = temple_data(cafe_dir(args), _warn)  # a café's own deck is taught by its own ids
    out = args.out or default_taught_dir()
    wrong = card_refused(args.slot, args.card, data) or misnamed(args.source) or _stored_among(args, out)
    if wrong:  # before the camera is opened for nothing
        return _misused(wrong)
    frame, problem = _first_frame(args.source, picture_settings(args).orientation)
    if frame is None:
        return _fail(problem or "no frame")
    try:
        taught = teach_card(frame, args.slot, args.card, out, data, args.as_printed)
    except TeachRefused as exc:
        if exc.misused:  # a card or slot the deck and board have not: nothing in the picture would mend it
            return _misused(str(exc))
        printed = "; if that colour is printed on the card itself, teach it with --as-printed"
        return _teach_refused(f"{exc}{printed if exc.may_be_printed else ''}", frame)
    return _said_taught(taught)


def cmd_teach_die(args: argparse.Namespace) -> int:
    """Teaches a face of the die of the café folder (``companion --cafe DIR``, ``$COMPANION_CAFE_DIR`` or the
    default one) where it has its own die.json, as its games are refereed on: checked against the house die, a
    café's X on red was refused."""
    from companion.cli import cafe_dir
    from vision.sources import misnamed
    from vision.taught import default_taught_dir
    from vision.teaching import TeachRefused, die_faces_of, face_refused, teach_die_face, temple_data

    value = args.value.strip().upper()
    data = temple_data(cafe_dir(args), _warn)
    refused = face_refused(value, args.colour, die_faces_of(data))
    if refused:  # before the camera is opened for nothing
        return _misused(refused)
    wrong_source = misnamed(args.source)
    if wrong_source:
        return _misused(wrong_source)
    frame, problem = _first_frame(args.source, picture_settings(args).orientation)
    if frame is None:
        return _fail(problem or "no frame")
    try:
        taught = teach_die_face(frame, value, args.colour, args.out or default_taught_dir(), data)
    except TeachRefused as exc:
        return _teach_refused(exc, frame)
    return _said_taught(taught)


def _no_folder(named: Path | None, option: str) -> str | None:
    """Why a take-back cannot look in the folder the user named, when it is not there at all: "no face was taught
    as '3' in nope/temple_die.json" sent a café looking for a face in a folder it had mistyped. The camera feed's
    own folder, left unnamed, is not there until something is taught, which "none taught" says rightly."""
    from vision.teaching import never_made

    if named is None or not never_made(named):
        return None
    unnamed = ", or leave --out out for the folder the camera feed reads" if option == "--out" else ""
    return f"there is no folder {named} ({option}); nothing was taken back: check its name{unnamed}"


def cmd_untaught_face(args: argparse.Namespace) -> int:
    """Takes one face back out of the café's die (`teaching.take_back_face`): a face taught under the wrong value
    was undone only by teaching the whole die again."""
    from vision.taught import default_taught_dir
    from vision.teaching import TeachRefused, take_back_face

    if not args.value.strip():  # "no face was taught as ''", exit status 1, as if the die held the fault
        return _misused("--value is empty: give the value the face was taught as (X or a number)")
    if (missing := _no_folder(args.out, "--out")) is not None:
        return _fail(missing)
    try:
        taken = take_back_face(args.value, args.colour, args.out or default_taught_dir())
    except TeachRefused as exc:
        return _fail(str(exc))
    print(f"{taken.what}: {taken.path}")
    return 0


def same_folder(one: Path, other: Path) -> bool:
    """Whether two names are one folder (``taught`` and ``./taught/``, or a link and where it leads)."""
    try:
        return one.resolve() == other.resolve()
    except (OSError, RuntimeError):  # a loop of links: told apart by name
        return one == other


def cmd_untaught_card(args: argparse.Namespace) -> int:
    """Takes one card photo back out of the taught folder (`teaching.take_back_card`): a photo taught from the
    wrong slot or as the wrong card was undone only by finding and deleting its file by hand."""
    from vision.taught import default_taught_dir
    from vision.teaching import TeachRefused, last_photo_of, photo_card, take_back_card

    folder = args.out or default_taught_dir()
    option = "--out" if args.out is not None else None
    try:
        path: Path | None = None
        if args.photo is not None:
            named = Path(args.photo)
            if not args.photo.strip():
                return _misused("--photo is empty: give the photo's file name, as teach-card named it (P07__1.png)")
            # The whole path teach-card printed names its folder; a bare name lies in the taught folder.
            path = named if named.parent != Path() else folder / named
            if args.out is not None and named.parent != Path() and photo_card(named.name) is not None:
                if not same_folder(named.parent, args.out):
                    # "is not a card photo a teach step stored in OTHER" (exit 1), as if the photo were at fault
                    return _misused(f"--photo names a photo in {named.parent}, --out another folder, {args.out}: "
                                    "give the photo's whole path alone, or its name alone with --out")
                path = folder / named.name  # the same folder named two ways (taught/../taught, a link)
            if args.out is None and named.parent != Path():
                folder, option = path.parent, "--photo"
        elif not args.card.strip():
            return _misused("--card is empty: give the card id the photo was taught as (P07)")
        # Said after what is wrong with the names themselves (a file that is no photo a teach step names).
        photo_named = path is None or (path.parent == folder and photo_card(path.name) is not None)
        if option is not None and photo_named and (missing := _no_folder(folder, option)) is not None:
            return _fail(missing)
        path = path if path is not None else last_photo_of(args.card, folder)
        taken = take_back_card(path, folder)
    except TeachRefused as exc:
        return _fail(str(exc))
    card = photo_card(path.name)
    try:
        left = sum(photo_card(other.name) == card for other in folder.iterdir())
    except OSError:
        left = None
    after = ("" if left is None else f" ({left} photo{'s' * (left != 1)} of {card} left)" if left
             else f" (no photo of {card} left: it is read by its drawing)")
    print(f"{taken.what}{after}: {taken.path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the vision commands alone (`python -m vision.cli vision ...`), without the rest of the companion CLI."""
    parser = argparse.ArgumentParser(prog="companion")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
