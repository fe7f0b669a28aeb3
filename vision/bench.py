"""The numbers behind `companion vision bench`: ms per 640x480 frame for each reader,
and the latency from a die lying still to its reading and to its announcement.

Frames are rendered (`dice_render`, `board_photos`, `temple_die_render`) and the
latencies run on a recorded video, so the bench needs no camera and no photo set.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np

from companion.controller import Controller
from companion.journal import Journal
from companion.session import Session
from vision.board_photos import board_photo
from vision.card_catalogue import load_temple_board, load_temple_cards
from vision.card_reader import CardReader
from vision.ctrl_c import until_ctrl_c
from vision.d6_reader import D6Reader, ModelMissing
from vision.dice_render import render_dice_scene, render_far_dice_scene, render_far_tray_scene
from vision.feed import CameraFeed
from vision.motion import MotionGate
from vision.oblique_dice_render import render_oblique_scene
from vision.settle import dice_settler
from vision.sources import CaptureSource
from vision.temple_die import TempleDieReader
from vision.temple_die_render import render_temple_die
from vision.temple_table_render import RolledDie, in_tray_place, on_board_place, temple_table
from vision.tray_area import TrayArea, TrayReader


def time_ms(fn, frame, repeat: int) -> tuple[float, float]:
    """(median, best) ms per call: the best run is the one least disturbed by other work on the machine."""
    fn(frame)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(frame)
        times.append(1000 * (time.perf_counter() - start))
    return round(float(np.median(times)), 2), round(min(times), 2)


def record_roll_video(path: Path, fps: float = 30.0, seed: int = 3, count: int = 3) -> tuple[int, list[int]]:
    """A recorded roll: `count` dice tumble for 15 frames, then lie still. Returns (first still frame, values)."""
    # The tumbling frames are drawn after the still one: drawn from the start of the same seed, the first of them
    # was the still picture itself, the dice lying where they would land before the throw (`CameraFeed._dice`).
    rng = np.random.default_rng(seed)
    final, _, values = render_dice_scene(rng, 640, 480, count=count, size_range=(50, 60))
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
    times: list[float] = []
    right = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            video = Path(tmp) / f"roll{seed}.avi"
            still_at, values = record_roll_video(video, fps, seed=seed, count=1)
            journal = Journal(Path(tmp) / f"j{seed}.db")
            session = Session.new("blackpool", ["red", "blue"], journal=journal)
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
            try:
                deadline = time.monotonic() + 10
                while "said" not in marks and time.monotonic() < deadline:
                    ended = feed.ended.is_set()
                    controller.wait_and_pump(0.05)
                    if ended:  # everything the feed sent has been handled
                        controller.pump()
                        break
            finally:  # each roll's feed thread and journal end with it, whatever a step raised
                feed.close()
                journal.close()
            if "said" in marks and "still" in marks:
                times.append(1000 * (marks["said"] - marks["still"]))
                right += marks["value"] == values[0]
    if not times:
        return {"announce_ms": -1.0}
    return {"announce_ms": round(float(np.median(times)), 1), "announce_ms_max": round(max(times), 1),
            "announce_right": f"{right}/{len(seeds)}"}


def idle_cost(reader, fps: int = 30, seconds: int = 60) -> dict[str, float]:
    """What a still, empty tray costs through the settler: reads in a minute of frames, and ms of work a second.

    A café table's tray is empty and still most of the day; before the settler
    idled, every one of its 1800 frames a minute was read.
    """
    frame = render_dice_scene(np.random.default_rng(9), 640, 480, values=[])[0]  # the tray alone
    settler = dice_settler(reader)
    start = time.perf_counter()
    for _ in range(fps * seconds):
        settler.feed(frame)
    elapsed = time.perf_counter() - start
    return {"idle_reads_per_minute": settler.reads, "idle_ms_per_second": round(elapsed * 1000 / seconds, 1)}


def run_bench(repeat: int) -> tuple[dict[str, object], list[str], bool]:
    """(timings by name, readers skipped and why, whether a Ctrl-C stopped it); a timing is (median, best) ms.

    After a Ctrl-C the timings taken so far are kept: the command prints them as partial (`vision.ctrl_c`).
    """
    repeat = max(1, repeat)
    rng = np.random.default_rng(1)
    results: dict[str, object] = {}
    skipped: list[str] = []
    run = SimpleNamespace(stopped=False)
    with until_ctrl_c(run):
        gate = MotionGate()
        scene, _, _ = render_dice_scene(rng, 640, 480, count=4)
        results["motion_gate_ms"] = time_ms(gate.is_still, scene, repeat)
        try:
            d6 = D6Reader()
            results["d6_ms_1_die"] = time_ms(d6.read, render_dice_scene(rng, 640, 480, count=1)[0], repeat)
            results["d6_ms_4_dice"] = time_ms(d6.read, scene, repeat)
            many = render_dice_scene(rng, 640, 480, count=10, size_range=(28, 40))[0]
            results["d6_ms_10_dice"] = time_ms(d6.read, many, repeat)
            # One die filling a third of the frame: the reader also takes its second, near look.
            close = render_dice_scene(np.random.default_rng(2), 640, 480, count=1, size_range=(190, 210))[0]
            results["d6_ms_close_die"] = time_ms(d6.read, close, repeat)
            # Eight dice seen from 20-35 degrees above the table: the low-view nets read the frame again.
            low = render_oblique_scene(np.random.default_rng(12), elevation=(20, 35))[0]
            results["d6_ms_low_view"] = time_ms(d6.read, low, repeat)
            # Six dice in a photo squeezed from twice as wide, as photo sets store photos: read again stretched back.
            wide = render_dice_scene(np.random.default_rng(13), 1280, 480, count=6, size_range=(70, 90))[0]
            squeezed = cv2.resize(wide, (640, 480), interpolation=cv2.INTER_AREA)
            results["d6_ms_squeezed"] = time_ms(d6.read, squeezed, repeat)
            # Eight dice 10-13 px across: the reader also takes its second, 640 px look, over the whole
            # frame when they are strewn across it, over the tray and its surroundings when they lie in one.
            results["d6_ms_far_dice"] = time_ms(d6.read, render_far_dice_scene(np.random.default_rng(3))[0], repeat)
            far_tray, _, (x0, y0, x1, y1) = render_far_tray_scene(np.random.default_rng(4))
            results["d6_ms_far_tray"] = time_ms(d6.read, far_tray, repeat)
            # The same frame with its tray marked (vision/tray_area.py), a little wider than the tray, as a finger
            # marks it.
            marked = TrayArea.from_corners(((x0 - 12) / 640, (y0 - 12) / 480), ((x1 + 12) / 640, (y1 + 12) / 480))
            results["d6_ms_far_tray_marked"] = time_ms(TrayReader(d6).read, marked.cut(far_tray)[0], repeat)
            fast = D6Reader(mirror_below=0.0)
            results["d6_ms_1_die_no_mirror"] = time_ms(fast.read, render_dice_scene(rng, 640, 480, count=1)[0], repeat)
            results["d6_ms_4_dice_no_mirror"] = time_ms(fast.read, scene, repeat)
            results.update(settle_latency(d6))
            results.update(idle_cost(d6))
            results.update(announce_latency(d6))
        except ModelMissing as exc:
            skipped.append(f"d6 reader skipped: {exc}")
        cards, board = load_temple_cards(), load_temple_board()
        card_reader = CardReader(cards, board)
        photo = board_photo(rng, cards, board)
        results["cards_ms_12_slots"] = time_ms(card_reader.read, photo.image, repeat)
        temple = TempleDieReader.from_renders(per_face=1)
        die_img, _ = render_temple_die(rng, "5", "red")
        results["temple_die_ms"] = time_ms(temple.read, die_img, repeat)
        # The die rolled onto the board, on an 800x480 table with the board beside the tray (vision/die_on_board.py):
        # read against the board as it lay when the die was last read beside it.
        temple.read(temple_table(rng, RolledDie("2", "white", in_tray_place(rng))))
        on_board = temple_table(rng, RolledDie("5", "red", on_board_place(rng)))
        results["temple_die_on_board_ms"] = time_ms(temple.read, on_board, repeat)
        # A network camera's frame: the markers are searched shrunk (vision.markers), the slots cut at full size.
        hd_photo = board_photo(rng, cards, board, size=(1920, 1080))
        results["cards_ms_12_slots_1080p"] = time_ms(card_reader.read, hd_photo.image, repeat)
    return results, skipped, run.stopped
