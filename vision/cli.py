"""`companion vision ...`: the adapter's commands, registered into the main CLI as a plugin.

`register(subparsers)` adds the `vision` parser; each sub-command's handler takes
the parsed args and returns the exit code. Handlers print a sentence and return
non-zero on bad input instead of raising.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from companion.option_types import between, count, seconds


def register(subparsers: argparse._SubParsersAction) -> None:
    vision = subparsers.add_parser("vision", help="camera readers: dice, temple die, temple path cards")
    sub = vision.add_subparsers(dest="vision_command", metavar="COMMAND")
    vision.set_defaults(func=lambda args: _usage(vision))

    p = sub.add_parser("eval-dice", help="score the d6 reader on a folder in the photo sets' YOLO layout")
    p.add_argument("dir", help="a set (with <split>/images, <split>/labels) or one split")
    p.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    p.add_argument("--no-mirror", action="store_true", help="never reread an unsure crop mirrored")
    p.set_defaults(func=cmd_eval_dice)

    p = sub.add_parser("eval-cards", help="score the temple card reader on seeded rendered board photos")
    p.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    p.add_argument("--frames", type=count(1), default=200, help="board photos to render and read (default 200)")
    p.add_argument("--seed", type=count(0), default=8, help="seed of the photos: the same seed, the same photos")
    p.add_argument("--synthetic-deck", action="store_true", help="use a made-up deck instead of the temple data")
    p.set_defaults(func=cmd_eval_cards)

    p = sub.add_parser("eval-temple-die", help="score the temple die reader on seeded rendered faces")
    p.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    p.add_argument("--frames", type=count(1), default=320, help="die faces to render and read (default 320)")
    p.add_argument("--seed", type=count(0), default=11, help="seed of the renders: the same seed, the same faces")
    p.set_defaults(func=cmd_eval_temple_die)

    p = sub.add_parser("bench", help="ms per 640x480 frame for each reader, and settle latency on a recorded video")
    p.add_argument("--json", action="store_true", help="print the timings as one JSON object")
    p.add_argument("--repeat", type=count(1), default=30, help="reads timed per reader (default 30)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("watch", help="print readings live from a source (camera index, URL, video, image folder)")
    p.add_argument("source", help='0, "picamera", rtsp://..., video.avi, a folder of images or one image')
    p.add_argument("--reader", choices=["dice", "cards", "temple-die"], default="dice")
    p.add_argument("--taught", type=Path,
                   help="folder with taught cards / die (default: where the teach commands store them, if any)")
    p.add_argument("--frames", type=count(0), default=0, help="stop after this many frames (0: until the source ends)")
    p.add_argument("--every-frame", action="store_true",
                   help="print each frame's reading without waiting for stillness (photos rather than a camera)")
    p.add_argument("--timeout", type=seconds, default=0.0, help="give up after N s without a frame (0: never)")
    p.set_defaults(func=cmd_watch)

    p = sub.add_parser("markers", help="write the printable sheet of the four board markers")
    p.add_argument("out", type=Path, help="OUT.pdf")
    p.add_argument("--size-mm", type=between(15, 90, "millimetres"), default=50.0,
                   help="printed side of each marker, 15 to 90 mm (two to a row on A4)")
    p.set_defaults(func=cmd_markers)

    p = sub.add_parser("teach-card", help="photograph a café's card lying in a slot and link it to a card of the data")
    p.add_argument("source", help="where the board is seen: 0, picamera, a URL, a video, an image or a folder")
    p.add_argument("--slot", type=int, required=True, help="the slot the card lies in, 1-12 as on the board's data")
    p.add_argument("--card", required=True, help="card id from the deck's data, e.g. P07")
    p.add_argument("--out", type=Path, help="folder for taught photos (default: the one the camera feed reads)")
    p.set_defaults(func=cmd_teach_card)

    p = sub.add_parser("teach-die", help="show one face of the temple die to the camera and say what it is")
    p.add_argument("source", help="where the die is seen: 0, picamera, a URL, a video, an image or a folder")
    p.add_argument("--value", required=True, help="X or a number, as on the die's data (X, 1..7 for the house die)")
    p.add_argument("--colour", required=True, choices=["red", "white"])
    p.add_argument("--out", type=Path,
                   help="folder whose temple_die.json grows with each face (default: the one the camera feed reads)")
    p.set_defaults(func=cmd_teach_die)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _fail(message: str) -> int:
    print(f"vision: {message}", file=sys.stderr)
    return 2


# ---------------------------------------------------------------- eval


def _report(summary: dict[str, float | int], as_json: bool, details: list[str]) -> int:
    """An eval's numbers: exactly the summary as one JSON object, or one per line and then the details."""
    if as_json:
        print(json.dumps(summary))
        return 0
    for key, value in summary.items():
        print(f"{key:15} {value}")
    for line in details:
        print(line)
    return 0


def cmd_eval_dice(args: argparse.Namespace) -> int:
    from vision.d6_reader import D6Reader, ModelMissing
    from vision.eval_dice import evaluate_folder
    from vision.yolo_labels import list_images

    root = Path(args.dir)
    if not root.is_dir():
        return _fail(f"{root} is not a folder")
    images = list_images(root)
    if not images:
        return _fail(f"no images under {root} (expected <split>/images/*.jpg with <split>/labels/*.txt)")
    if all(item.label is None for item in images):
        # Scored anyway, every die found would count as a false detection and the scores would mean nothing.
        return _fail(f"none of the {len(images)} images under {root} has a label file "
                     "(expected <split>/labels/<image name>.txt beside <split>/images)")
    try:
        reader = D6Reader(mirror_below=0.0) if args.no_mirror else D6Reader()
    except ModelMissing as exc:
        return _fail(str(exc))
    score = evaluate_folder(root, reader)
    skipped = _first_few(score.unreadable_files)
    if not score.images:
        return _fail(f"none of the {score.unreadable} image files under {root} could be used: {skipped}")
    details = score.breakdown()
    if score.unlabelled_files:
        details.append(f"{score.unlabelled_files} images have no label file (scored as showing no die)")
    if score.unreadable:
        details.append(f"skipped {score.unreadable} unreadable image files: {skipped}")
    return _report(score.summary(), args.json, details)


def cmd_eval_cards(args: argparse.Namespace) -> int:
    from vision.card_catalogue import load_temple_board, load_temple_cards, synthetic_catalogue
    from vision.card_reader import CardReader
    from vision.eval_cards import evaluate_cards

    cards = synthetic_catalogue() if args.synthetic_deck else load_temple_cards()
    board = load_temple_board()
    reader = CardReader(cards, board)
    score = evaluate_cards(reader, cards, board, frames=args.frames, seed=args.seed)
    by_laid = ", ".join(f"{laid}: {acc}" for laid, acc in score.accuracy_by_laid().items())
    details = [f"frames without all four markers: {score.unread_frames}", f"slot accuracy by cards laid: {by_laid}"]
    return _report(score.summary(), args.json, details)


def cmd_eval_temple_die(args: argparse.Namespace) -> int:
    from vision.eval_temple_die import evaluate_temple_die
    from vision.temple_die import TempleDieReader

    score = evaluate_temple_die(TempleDieReader.from_renders(), frames=args.frames, seed=args.seed)
    misreads = ", ".join(f"{shown} as {read} x{n}" for (shown, read), n in score.confusions.most_common())
    return _report(score.summary(), args.json, [f"values read wrong: {misreads or 'none'}"])


# ---------------------------------------------------------------- bench


def cmd_bench(args: argparse.Namespace) -> int:
    from vision.bench import run_bench

    results, skipped = run_bench(args.repeat)
    for note in skipped:
        print(note, file=sys.stderr)
    if args.json:
        print(json.dumps(results))
    else:
        print("timings: median ms, best ms per 640x480 frame")
        for key, value in results.items():
            shown = f"{value[0]:8.2f} {value[1]:8.2f}" if isinstance(value, tuple) else value
            print(f"{key:20} {shown}")
    return 0


# ---------------------------------------------------------------- live


def _make_reader(kind: str, taught: Path | None, cafe: Path | None = None):
    """The reader `watch` reads with: the one the table's camera feed would use for that kind.

    Cards are read by the deck and board of the café's own data where it has
    them, as `teach-card` teaches and the feed reads them: with the house deck,
    a café's own cards were read by house ids and the photos taught for them
    were passed over.
    """
    if kind == "cards":
        from vision.card_catalogue import catalogue_from_data
        from vision.card_reader import CardReader
        from vision.teaching import temple_data

        return CardReader(*catalogue_from_data(temple_data(cafe)), taught_dir=taught)
    if kind == "temple-die":
        from vision.taught import temple_die_reader

        reader, note = temple_die_reader(taught)
        if note:
            print(note, file=sys.stderr)
        return reader
    from vision.d6_reader import D6Reader

    return D6Reader()


def _taught_lines(reader, kind: str, taught: Path) -> list[str]:
    """What `watch` uses of the taught folder, so a mistyped folder or a photo passed over is seen at once."""
    if kind == "cards":
        cards = sorted(set(reader.taught_cards))
        photos = len(reader.taught_cards)
        lines = [f"taught cards in {taught}: {photos} photo{'s' * (photos > 1)} of {_first_few(cards, 10)}" if cards
                 else f"no taught card photos in {taught}: every card is read by its drawing"]
        if reader.taught_skipped:
            skipped = len(reader.taught_skipped)
            lines.append(f"passed over {skipped} photo{'s' * (skipped > 1)} there: {_first_few(reader.taught_skipped)}")
        return lines
    if kind == "temple-die":
        from vision.taught import DIE_FILE
        from vision.temple_die import TaughtDieUnreadable, TempleDieReader

        if not (taught / DIE_FILE).exists():
            return [f"no taught die in {taught}: every face is read by its drawing"]
        try:
            values = sorted(TempleDieReader.load(taught).examples)
        except TaughtDieUnreadable:
            return []  # temple_die_reader has said why already
        return [f"taught die in {taught}: faces showing {', '.join(values)} (the others by their drawings)"]
    return []


def _sure(confidence: float) -> str:
    return f"{round(100 * confidence)}% sure"


def _dice_text(readings, each_sure: bool = True) -> str:
    """Dice in the words of the table: "die shows 5 (97% sure)", "2 dice show 4 (..), 6 (..)", "no die in view"."""
    texts = [f"{r.value}{' on ' + r.face if r.face else ''}" + (f" ({_sure(r.confidence)})" if each_sure else "")
             for r in readings]
    if not texts:
        return "no die in view"
    return ("die shows " if len(texts) == 1 else f"{len(texts)} dice show ") + ", ".join(texts)


def _card_text(reader, card: str | None) -> str:
    """A card as a person checks it against the table: cards drawn alike ("P15 or P48") are named together,
    since the reader names such a group by its first card whichever of them lies there."""
    if card is None:
        return "empty"
    return " or ".join((card, *reader.twins.get(card, ())))


def _unusable_text(frame) -> str:
    """What a frame no reader can use is, so a 1 px photo or a camera in a wrong mode is not read as "no dice"."""
    shape = "x".join(map(str, getattr(frame, "shape", ()))) or "no shape"
    kind = getattr(frame, "dtype", type(frame).__name__)
    return f"no usable frame ({shape}, {kind}): empty, too small or not an image"


def _skipped_text(source) -> str | None:
    from vision.sources import skipped_note

    return skipped_note(source)


def _first_few(names: list[str], shown: int = 5) -> str:
    from vision.sources import first_few

    return first_few(names, shown)


def _frame_text(reader, kind: str, frame) -> str:
    """One frame's reading on its own, for photos (each its own scene) rather than a moving view."""
    if kind == "cards":
        board = reader.read(frame)
        if board is None:
            return _markers_text(reader.last_problem)
        return ", ".join(f"slot {slot.slot} {_card_text(reader, slot.card)}" for slot in board.slots)
    return _dice_text(reader.read(frame))


def _markers_text(problem: str | None) -> str:
    """The card reader's problem with what to do about it: the reader says only which markers it misses."""
    if problem and problem.startswith("board markers not seen"):
        return f"{problem} (the whole board and the four markers round it must be in view)"
    return problem or "all four board markers in view"


def _settled_text(settled, lay_still: bool) -> str:
    """A settled roll and what the table would do with it."""
    if lay_still:
        what = "the same dice where they lay: not a new roll"
    elif settled.needs_confirm:
        what = "the table would ask a player to confirm it"
    else:
        what = "the table would take it"
    return f"{_dice_text(settled.reading, each_sure=False)}, settled {_sure(settled.confidence)}: {what}"


def cmd_watch(args: argparse.Namespace) -> int:
    from companion.cli import cafe_dir
    from vision.card_reader import SlotTracker
    from vision.feed import lying_still
    from vision.frames import as_bgr
    from vision.settle import dice_settler
    from vision.sources import (
        IMAGE_SUFFIXES,
        FrameSource,
        RetryingSource,
        SourceError,
        is_device,
        open_source,
    )
    from vision.taught import default_taught_dir

    if not args.source.strip():  # retried every 2 s for ever otherwise: a typo, not a camera to wait for
        return _fail("SOURCE is empty: give 0 (a camera index), picamera, a URL, a video file or a folder")
    if args.taught is None and default_taught_dir().is_dir():
        args.taught = default_taught_dir()  # what the café taught is what the table's camera uses
    if args.taught is not None and not args.taught.is_dir():
        # Ignored in silence, a mistyped folder would leave the café's taught cards or die unused.
        return _fail(f"--taught {args.taught} is not a folder (give the --out folder of the teach commands)")
    opened: list[FrameSource] = []  # kept past close, to name the files a folder skipped
    if not is_device(args.source):
        # A file or folder that cannot be read now never will: retried, it hung watch on one repeated line.
        try:
            opened.append(open_source(args.source))
        except SourceError as exc:
            return _fail(str(exc))
    try:
        reader = _make_reader(args.reader, args.taught, cafe_dir(args))
    except Exception as exc:
        for source in opened:
            source.close()
        return _fail(f"cannot start the {args.reader} reader: {exc}")
    if args.taught is not None:
        for line in _taught_lines(reader, args.reader, args.taught):
            print(line, flush=True)
    first = list(opened)

    def opener() -> FrameSource:
        opened.append(first.pop() if first else open_source(args.source))
        return opened[-1]

    source = RetryingSource(opener, args.source)
    # A single photo never holds still for several frames: read it as it is.
    one_photo = Path(args.source).is_file() and Path(args.source).suffix.lower() in IMAGE_SUFFIXES
    every_frame = args.every_frame or one_photo
    settler = dice_settler(reader) if args.reader != "cards" else None
    tracker = SlotTracker() if args.reader == "cards" else None
    last_dice = None
    frames = reports = unusable = 0
    last_problem = None
    markers: str | None = ""  # what the card reader last said of the markers, told again only when it changes
    last_frame_at = time.monotonic()
    try:
        while True:
            frame = source.read()
            if source.problem != last_problem:
                last_problem = source.problem
                if last_problem:
                    print(f"source problem: {last_problem} (retrying every {source.retry_seconds:.0f} s)", flush=True)
            if frame is None:
                if source.finished:
                    break
                if args.timeout and time.monotonic() - last_frame_at > args.timeout:
                    print(f"no frame for {args.timeout:g} s; giving up", flush=True)
                    break
                time.sleep(0.02)
                continue
            frames += 1
            last_frame_at = time.monotonic()
            lines = []
            if as_bgr(frame) is None:
                unusable += 1
                if every_frame or unusable == 1:  # a camera in a wrong mode would repeat it every frame
                    lines.append(_unusable_text(frame))
            elif every_frame:
                lines.append(_frame_text(reader, args.reader, frame))
            elif tracker is not None:
                reading = reader.read(frame)
                if reader.last_problem != markers:  # every frame of a live camera, it flooded the screen
                    markers = reader.last_problem
                    lines.append(_markers_text(markers))
                changed = tracker.update(reading)
                lines += [f"slot {slot.slot} now holds {_card_text(reader, slot.card)} ({_sure(slot.confidence)})"
                          if slot.card else f"slot {slot.slot} is now empty" for slot in changed]
            else:
                settled = settler.feed(frame)
                if settled is not None:
                    same = lying_still(last_dice, settled.reading)  # as the table's feed takes it
                    last_dice = settled.reading or last_dice
                    lines.append(_settled_text(settled, same))
            for line in lines:
                print(f"frame {frames}: {line}", flush=True)
            reports += len(lines)
            if args.frames and frames >= args.frames:
                break
    except KeyboardInterrupt:
        pass
    finally:
        source.close()
    print(f"{frames} frames read")
    skipped = _skipped_text(opened[-1]) if opened else None
    if skipped:
        print(skipped)
    if frames and not reports:
        print("no reading: the view never held still for long enough (a reading waits for several steady frames);"
              " for a folder of separate photos add --every-frame")
    return 0 if frames > unusable else 1


# ---------------------------------------------------------------- setup


def cmd_markers(args: argparse.Namespace) -> int:
    from vision.marker_sheet import write_marker_sheet

    try:
        path = write_marker_sheet(args.out, args.size_mm)
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {exc.strerror or exc}")
    print(f"wrote {path}: print at 100%, stick marker 0 at the north-west corner, then clockwise")
    return 0


def _first_frame(spec: str, tries: int = 30):
    from vision.frames import as_bgr
    from vision.sources import SourceError, open_source

    try:
        source = open_source(spec)
    except SourceError as exc:
        return None, str(exc)
    try:
        for _ in range(tries):
            frame = source.read()
            if frame is not None:
                return (frame, None) if as_bgr(frame) is not None else (None, f"{spec}: {_unusable_text(frame)}")
            if getattr(source, "finished", False):
                break
            time.sleep(0.05)
    except SourceError as exc:
        return None, str(exc)
    finally:
        source.close()
    skipped = _skipped_text(source)
    return None, f"no frame from {spec}" + (f" ({skipped})" if skipped else "")


def cmd_teach_card(args: argparse.Namespace) -> int:
    from companion.cli import cafe_dir
    from vision.taught import default_taught_dir
    from vision.teaching import TeachRefused, teach_card, temple_data

    frame, problem = _first_frame(args.source)
    if frame is None:
        return _fail(problem or "no frame")
    try:
        data = temple_data(cafe_dir(args))  # a café's own deck is taught by its own ids
        taught = teach_card(frame, args.slot, args.card, args.out or default_taught_dir(), data)
    except TeachRefused as exc:
        return _fail(str(exc))
    print(f"taught {taught.what}: {taught.path}")
    return 0


def cmd_teach_die(args: argparse.Namespace) -> int:
    from vision.taught import default_taught_dir
    from vision.teaching import TeachRefused, teach_die_face
    from vision.temple_die import die_faces

    if (args.value.upper(), args.colour) not in die_faces():  # before the camera is opened for nothing
        return _fail(f"the temple die has no {args.value.upper()} on {args.colour}; "
                     f"its faces are {', '.join(f'{v} on {c}' for v, c in sorted(die_faces()))}")
    frame, problem = _first_frame(args.source)
    if frame is None:
        return _fail(problem or "no frame")
    try:
        taught = teach_die_face(frame, args.value, args.colour, args.out or default_taught_dir())
    except TeachRefused as exc:
        return _fail(str(exc))
    print(f"taught {taught.what}: {taught.path}")
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
