"""`companion vision ...`: the adapter's commands, registered into the main CLI as a plugin.

`register(subparsers)` adds the `vision` parser; each sub-command's handler takes
the parsed args and returns the exit code. Handlers print a sentence and return
non-zero on bad input instead of raising.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path


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
    p.add_argument("--json", action="store_true")
    p.add_argument("--frames", type=int, default=200)
    p.add_argument("--seed", type=int, default=8)
    p.add_argument("--synthetic-deck", action="store_true", help="use a made-up deck instead of the temple data")
    p.set_defaults(func=cmd_eval_cards)

    p = sub.add_parser("eval-temple-die", help="score the temple die reader on seeded rendered faces")
    p.add_argument("--json", action="store_true")
    p.add_argument("--frames", type=int, default=320)
    p.add_argument("--seed", type=int, default=11)
    p.set_defaults(func=cmd_eval_temple_die)

    p = sub.add_parser("bench", help="ms per 640x480 frame for each reader, and settle latency on a recorded video")
    p.add_argument("--json", action="store_true")
    p.add_argument("--repeat", type=int, default=30)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("watch", help="print readings live from a source (camera index, URL, video, image folder)")
    p.add_argument("source", help='0, "picamera", rtsp://..., video.avi, a folder of images or one image')
    p.add_argument("--reader", choices=["dice", "cards", "temple-die"], default="dice")
    p.add_argument("--taught", type=Path, help="folder with taught cards / die (from the teach commands)")
    p.add_argument("--frames", type=int, default=0, help="stop after this many frames (0: until the source ends)")
    p.add_argument("--every-frame", action="store_true",
                   help="print each frame's reading without waiting for stillness (photos rather than a camera)")
    p.add_argument("--timeout", type=float, default=0.0, help="give up after N s without a frame (0: never)")
    p.set_defaults(func=cmd_watch)

    p = sub.add_parser("markers", help="write the printable sheet of the four board markers")
    p.add_argument("out", type=Path, help="OUT.pdf")
    p.add_argument("--size-mm", type=float, default=50.0, help="printed side of each marker")
    p.set_defaults(func=cmd_markers)

    p = sub.add_parser("teach-card", help="photograph a café's card lying in a slot and link it to a card of the data")
    p.add_argument("source")
    p.add_argument("--slot", type=int, required=True)
    p.add_argument("--card", required=True, help="card id from the deck's data, e.g. P07")
    p.add_argument("--out", type=Path, required=True, help="café folder for taught images")
    p.set_defaults(func=cmd_teach_card)

    p = sub.add_parser("teach-die", help="show one face of the temple die to the camera and say what it is")
    p.add_argument("source")
    p.add_argument("--value", required=True, help="X or a number, as on the die's data (X, 1..7 for the house die)")
    p.add_argument("--colour", required=True, choices=["red", "white"])
    p.add_argument("--out", type=Path, required=True, help="café folder; temple_die.json grows with each face")
    p.set_defaults(func=cmd_teach_die)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _fail(message: str) -> int:
    print(f"vision: {message}", file=sys.stderr)
    return 2


# ---------------------------------------------------------------- eval


def cmd_eval_dice(args: argparse.Namespace) -> int:
    from vision.d6_reader import D6Reader, ModelMissing
    from vision.eval_dice import evaluate_folder
    from vision.yolo_labels import list_images

    root = Path(args.dir)
    if not root.is_dir():
        return _fail(f"{root} is not a folder")
    if not list_images(root):
        return _fail(f"no images under {root} (expected <split>/images/*.jpg with <split>/labels/*.txt)")
    try:
        reader = D6Reader(mirror_below=0.0) if args.no_mirror else D6Reader()
    except ModelMissing as exc:
        return _fail(str(exc))
    score = evaluate_folder(root, reader)
    summary = score.summary()
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key:15} {value}")
        for line in score.breakdown():
            print(line)
        if score.unreadable:
            print(f"skipped {score.unreadable} unreadable image files")
    return 0


def cmd_eval_cards(args: argparse.Namespace) -> int:
    from vision.card_catalogue import load_temple_board, load_temple_cards, synthetic_catalogue
    from vision.card_reader import CardReader
    from vision.eval_cards import evaluate_cards

    if args.frames <= 0:
        return _fail("--frames must be at least 1")
    cards = synthetic_catalogue() if args.synthetic_deck else load_temple_cards()
    board = load_temple_board()
    reader = CardReader(cards, board)
    score = evaluate_cards(reader, cards, board, frames=args.frames, seed=args.seed)
    summary = score.summary()
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key:15} {value}")
        print(f"frames without all four markers: {score.unread_frames}")
        by_laid = ", ".join(f"{laid}: {acc}" for laid, acc in score.accuracy_by_laid().items())
        print(f"slot accuracy by cards laid: {by_laid}")
    return 0


def cmd_eval_temple_die(args: argparse.Namespace) -> int:
    from vision.eval_temple_die import evaluate_temple_die
    from vision.temple_die import TempleDieReader

    if args.frames <= 0:
        return _fail("--frames must be at least 1")
    score = evaluate_temple_die(TempleDieReader.from_renders(), frames=args.frames, seed=args.seed)
    summary = score.summary()
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key:15} {value}")
        misreads = ", ".join(f"{shown} as {read} x{n}" for (shown, read), n in score.confusions.most_common())
        print(f"values read wrong: {misreads or 'none'}")
    return 0


# ---------------------------------------------------------------- bench


def _time_ms(fn, frame, repeat: int) -> tuple[float, float]:
    """(median, best) ms per call: the best run is the one least disturbed by other work on the machine."""
    import numpy as np
    fn(frame)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(frame)
        times.append(1000 * (time.perf_counter() - start))
    return round(float(np.median(times)), 2), round(min(times), 2)


def record_roll_video(path: Path, fps: float = 30.0, seed: int = 3, count: int = 3) -> tuple[int, list[int]]:
    """A recorded roll: `count` dice tumble for 15 frames, then lie still. Returns (first still frame, values)."""
    import cv2
    import numpy as np

    from vision.dice_render import render_dice_scene

    rng = np.random.default_rng(seed)
    final, _, values = render_dice_scene(np.random.default_rng(seed), 640, 480, count=count, size_range=(50, 60))
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (640, 480))
    if not writer.isOpened():
        raise RuntimeError("this OpenCV cannot write MJPG video")
    for _ in range(15):
        moving, _, _ = render_dice_scene(rng, 640, 480, count=count, size_range=(50, 60))
        writer.write(moving)
    for _ in range(15):
        writer.write(final)
    writer.release()
    return 15, values


def settle_latency(reader, fps: float = 30.0) -> dict[str, float]:
    """Die stopped -> settled reading, on a recorded MJPG video read back through CaptureSource."""
    from vision.settle import dice_settler
    from vision.sources import CaptureSource

    with tempfile.TemporaryDirectory() as tmp:
        video = Path(tmp) / "roll.avi"
        still_at, values = record_roll_video(video, fps)
        source = CaptureSource(str(video))
        settler = dice_settler(reader)
        index = 0
        result = None
        while (frame := source.read()) is not None:
            start = time.perf_counter()
            settled = settler.feed(frame)
            compute = time.perf_counter() - start
            if settled is not None and index >= still_at:
                result = (index, compute, settled)
                break
            index += 1
        source.close()
    if result is None:
        return {"settle_ms": -1.0}
    index, compute, settled = result
    latency = 1000 * ((index - still_at) / fps + compute)
    right = sorted(r.value for r in settled.reading) == sorted(values)
    return {"settle_ms": round(latency, 1), "settle_frames": index - still_at + 1, "settle_right": right}


def announce_latency(reader, fps: float = 30.0, seeds: tuple[int, ...] = (1, 4, 5)) -> dict[str, object]:
    """Die stopped -> announcement, end to end: a recorded one-die roll played at its frame rate
    through `CameraFeed` (its own thread) into a real Controller and a Blackpool session with a
    journal on disk; the clock runs from the feed taking the first still frame to the "step"
    update reaching the outputs (screen, voice) on the pumping thread."""
    import numpy as np

    from companion.controller import Controller
    from companion.journal import Journal
    from companion.session import Session
    from vision.feed import CameraFeed

    times: list[float] = []
    right = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            video = Path(tmp) / f"roll{seed}.avi"
            still_at, values = record_roll_video(video, fps, seed=seed, count=1)
            session = Session.new("blackpool", ["red", "blue"], journal=Journal(Path(tmp) / f"j{seed}.db"))
            marks: dict[str, float] = {}

            def on_frame(n: int, marks: dict[str, float] = marks, still_at: int = still_at) -> None:
                if n == still_at + 1:  # frames are counted from 1
                    marks["still"] = time.perf_counter()

            def announced(update, marks: dict[str, float] = marks) -> None:
                if update.kind in ("step", "confirm") and "said" not in marks:
                    marks["said"] = time.perf_counter()
                    marks["value"] = (update.action or {}).get("value")

            controller = Controller(session, outputs=[announced])
            feed = CameraFeed(str(video), controller.submit, mode="d6", fps=fps, readers={"d6": reader},
                              on_frame=on_frame).start()
            deadline = time.monotonic() + 10
            while "said" not in marks and time.monotonic() < deadline:
                ended = feed.ended.is_set()
                controller.wait_and_pump(0.05)
                if ended:  # everything the feed sent has been handled
                    controller.pump()
                    break
            feed.close()
            if "said" in marks and "still" in marks:
                times.append(1000 * (marks["said"] - marks["still"]))
                right += marks["value"] == values[0]
    if not times:
        return {"announce_ms": -1.0}
    return {"announce_ms": round(float(np.median(times)), 1), "announce_ms_max": round(max(times), 1),
            "announce_right": f"{right}/{len(seeds)}"}


def cmd_bench(args: argparse.Namespace) -> int:
    import numpy as np

    from vision.board_photos import board_photo
    from vision.card_catalogue import load_temple_board, load_temple_cards
    from vision.card_reader import CardReader
    from vision.d6_reader import D6Reader, ModelMissing
    from vision.dice_render import render_dice_scene, render_far_dice_scene
    from vision.motion import MotionGate
    from vision.temple_die import TempleDieReader, render_temple_die

    repeat = max(1, args.repeat)
    rng = np.random.default_rng(1)
    results: dict[str, object] = {}
    gate = MotionGate()
    scene, _, _ = render_dice_scene(rng, 640, 480, count=4)
    results["motion_gate_ms"] = _time_ms(gate.is_still, scene, repeat)
    try:
        d6 = D6Reader()
        results["d6_ms_1_die"] = _time_ms(d6.read, render_dice_scene(rng, 640, 480, count=1)[0], repeat)
        results["d6_ms_4_dice"] = _time_ms(d6.read, scene, repeat)
        many = render_dice_scene(rng, 640, 480, count=10, size_range=(28, 40))[0]
        results["d6_ms_10_dice"] = _time_ms(d6.read, many, repeat)
        # One die filling a third of the frame: the reader also takes its second, near look.
        close = render_dice_scene(np.random.default_rng(2), 640, 480, count=1, size_range=(190, 210))[0]
        results["d6_ms_close_die"] = _time_ms(d6.read, close, repeat)
        # Eight dice 10-13 px across: the reader also takes its second, 640 px look.
        results["d6_ms_far_dice"] = _time_ms(d6.read, render_far_dice_scene(np.random.default_rng(3))[0], repeat)
        fast = D6Reader(mirror_below=0.0)
        results["d6_ms_1_die_no_mirror"] = _time_ms(fast.read, render_dice_scene(rng, 640, 480, count=1)[0], repeat)
        results["d6_ms_4_dice_no_mirror"] = _time_ms(fast.read, scene, repeat)
        results.update(settle_latency(d6))
        results.update(announce_latency(d6))
    except ModelMissing as exc:
        print(f"d6 reader skipped: {exc}", file=sys.stderr)
    cards, board = load_temple_cards(), load_temple_board()
    card_reader = CardReader(cards, board)
    photo = board_photo(rng, cards, board)
    results["cards_ms_12_slots"] = _time_ms(card_reader.read, photo.image, repeat)
    temple = TempleDieReader.from_renders(per_face=1)
    die_img, _ = render_temple_die(rng, "5", "red")
    results["temple_die_ms"] = _time_ms(temple.read, die_img, repeat)
    if args.json:
        print(json.dumps(results))
    else:
        print("timings: median ms, best ms per 640x480 frame")
        for key, value in results.items():
            shown = f"{value[0]:8.2f} {value[1]:8.2f}" if isinstance(value, tuple) else value
            print(f"{key:20} {shown}")
    return 0


# ---------------------------------------------------------------- live


def _make_reader(kind: str, taught: Path | None):
    """(read(frame) -> readings, settler or tracker, printer)."""
    if kind == "cards":
        from vision.card_reader import CardReader

        return CardReader(taught_dir=taught)
    if kind == "temple-die":
        from vision.temple_die import TempleDieReader

        if taught and (taught / "temple_die.json").exists():
            return TempleDieReader.load(taught)
        return TempleDieReader.from_renders()
    from vision.d6_reader import D6Reader

    return D6Reader()


def _dice_text(readings) -> str:
    texts = [f"{r.value}{'/' + r.face if r.face else ''} ({r.confidence:.2f})" for r in readings]
    return "[" + (", ".join(texts) or "no dice") + "]"


def _frame_text(reader, kind: str, frame) -> str:
    """One frame's reading on its own, for photos (each its own scene) rather than a moving view."""
    if kind == "cards":
        board = reader.read(frame)
        if board is None:
            return reader.last_problem
        return " ".join(f"{slot.slot}:{slot.card or '-'}" for slot in board.slots)
    return _dice_text(reader.read(frame))


def cmd_watch(args: argparse.Namespace) -> int:
    from vision.card_reader import SlotTracker
    from vision.settle import dice_settler
    from vision.sources import IMAGE_SUFFIXES, RetryingSource, open_source

    try:
        reader = _make_reader(args.reader, args.taught)
    except Exception as exc:
        return _fail(f"cannot start the {args.reader} reader: {exc}")
    source = RetryingSource(lambda: open_source(args.source), args.source)
    # A single photo never holds still for several frames: read it as it is.
    one_photo = Path(args.source).is_file() and Path(args.source).suffix.lower() in IMAGE_SUFFIXES
    every_frame = args.every_frame or one_photo
    settler = dice_settler(reader) if args.reader != "cards" else None
    tracker = SlotTracker() if args.reader == "cards" else None
    frames = reports = 0
    last_problem = None
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
            if every_frame:
                lines.append(_frame_text(reader, args.reader, frame))
            elif tracker is not None:
                reading = reader.read(frame)
                if reading is None:
                    lines.append(reader.last_problem)
                changed = tracker.update(reading)
                lines += [f"slot {slot.slot} -> {slot.card} ({slot.confidence:.2f})" for slot in changed]
            else:
                settled = settler.feed(frame)
                if settled is not None:
                    tag = "confirm?" if settled.needs_confirm else "apply"
                    lines.append(f"{_dice_text(settled.reading)} confidence {settled.confidence:.2f} {tag}")
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
    if frames and not reports:
        print("no reading: the view never held still for long enough (a reading waits for several steady frames);"
              " for a folder of separate photos add --every-frame")
    return 0 if frames else 1


# ---------------------------------------------------------------- setup


def cmd_markers(args: argparse.Namespace) -> int:
    from vision.marker_sheet import write_marker_sheet

    if not 15 <= args.size_mm <= 90:
        return _fail("--size-mm must be between 15 and 90 (two markers per row on A4)")
    try:
        path = write_marker_sheet(args.out, args.size_mm)
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {exc.strerror or exc}")
    print(f"wrote {path}: print at 100%, stick marker 0 at the north-west corner, then clockwise")
    return 0


def _first_frame(spec: str, tries: int = 30):
    from vision.sources import SourceError, open_source

    try:
        source = open_source(spec)
    except SourceError as exc:
        return None, str(exc)
    try:
        for _ in range(tries):
            frame = source.read()
            if frame is not None:
                return frame, None
            if getattr(source, "finished", False):
                break
            time.sleep(0.05)
    except SourceError as exc:
        return None, str(exc)
    finally:
        source.close()
    return None, f"no frame from {spec}"


def cmd_teach_card(args: argparse.Namespace) -> int:
    from vision.card_reader import CardReader

    frame, problem = _first_frame(args.source)
    if frame is None:
        return _fail(problem or "no frame")
    reader = CardReader()
    try:
        image = reader.teach(frame, args.slot, args.card)
    except ValueError as exc:
        return _fail(str(exc))
    path = reader.save_taught(args.out, args.card, image)
    print(f"taught {args.card} from slot {args.slot}: {path}")
    return 0


def cmd_teach_die(args: argparse.Namespace) -> int:
    from vision.temple_die import TempleDieReader, die_faces, top_face

    value = args.value.upper()
    faces = die_faces()
    if (value, args.colour) not in faces:
        listed = ", ".join(f"{v} on {c}" for v, c in sorted(faces))
        return _fail(f"the temple die has no {value} on {args.colour}; its faces are {listed}")
    frame, problem = _first_frame(args.source)
    if frame is None:
        return _fail(problem or "no frame")
    reader = TempleDieReader.load(args.out) if (args.out / "temple_die.json").exists() else TempleDieReader()
    face = top_face(frame)
    if face is None:
        return _fail("no die found in the frame; put it on the tray under the camera")
    seen = reader.colour_of(face.bgr)
    if seen != args.colour:
        # Taught under the wrong colour, a face would pull every later reading of that colour astray.
        return _fail(f"the face shown looks {seen}, not {args.colour}: check --colour and the die on the tray")
    reader.learn(face, value, args.colour)
    path = reader.save(args.out)
    taught = sum(len(v) for v in reader.examples.values())
    print(f"taught {value} on {args.colour} ({taught} faces taught so far): {path}")
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
