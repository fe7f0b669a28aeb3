"""Screenshots of every screen for review, and the start-up benchmark.

Both drive a real app through Kivy's clock (one step per frame) so what is
measured and photographed is exactly what a table sees.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from companion.controller import Controller
from companion.journal import Journal
from companion.places import place_of
from companion.registry import game_class, game_classes, game_infos
from companion.session import Session
from ui.choices import LIST_LIMIT

MAX_STEPS = 600


def default_players(game_id: str) -> list[str]:
    cls = game_infos()[game_id]  # by name alone: `ui bench` taps Start with these, and times the rules' load after
    count = min(cls.max_players, max(cls.min_players, 3))
    return list(cls.colours[:count]) if cls.colours else [f"Player {i}" for i in range(1, count + 1)]


def mid_game(game_id: str, journal: Journal | None = None, seed: int = 7, cafe_dir: Path | None = None) -> Session:
    """Halfway through a seeded random game, so drawings show pieces spread over the board (on ``cafe_dir``'s data)."""
    actions = halfway(game_id, seed, cafe_dir)
    session = Session.new(game_id, default_players(game_id), journal=journal, cafe_dir=cafe_dir)
    for action in actions:
        session.act(action)
    return session


def halfway(game_id: str, seed: int, cafe_dir: Path | None = None) -> list[dict[str, Any]]:
    """The first half of the actions of a seeded random game played to its end: ``mid_game``'s position.

    On the packaged data the same game and seed always play the same game, so
    its actions are played once a process (fresh copies each call): the whole
    game was four fifths of the cost of a ``mid_game``, which the UI tests ask
    for some four hundred times. A café's data may change: played each time.
    """
    if cafe_dir is not None:
        return played_half(game_id, seed, cafe_dir)
    return json.loads(packaged_half(game_id, game_class(game_id), seed))


@functools.cache
def packaged_half(game_id: str, rules: type, seed: int) -> str:
    """``played_half`` on the packaged data, as JSON; ``rules`` (the game's class) keys it, so a game installed
    under a packaged game's id (as tests install theirs) is played afresh."""
    return json.dumps(played_half(game_id, seed, None))


def played_half(game_id: str, seed: int, cafe_dir: Path | None) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    trial = Session.new(game_id, default_players(game_id), cafe_dir=cafe_dir)
    for _ in range(MAX_STEPS):
        legal = trial.legal()
        if trial.pending().is_over or not legal:
            break
        trial.act(trial.game.sim_choose(trial.state, legal, rng))
    return list(trial.log[: len(trial.log) // 2])


def long_list(game_id: str, players: list[str], journal: Journal | None = None, seed: int = 3) -> Session:
    """A seeded random game up to its first position offering more placed actions than the table lists.

    Through the Desert's is its leader placement (hundreds of colour x hex
    choices); the temple's a change of card (slot x card).
    """
    session = Session.new(game_id, players, journal=journal)
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        legal = session.legal()
        if len(legal) > LIST_LIMIT and any(place_of(a) is not None for a in legal):
            return session
        if session.pending().is_over or not legal:
            break
        session.act(session.game.sim_choose(session.state, legal, rng))
    raise ValueError(f"the seeded {game_id} game offered no long list of placed actions")


def time_steps_after_first_screen(app: Any, steps: int = 12, seed: int = 1) -> None:
    """For the benchmark: from the resumed position, time each step from the tap to the table rebuilt.

    The time covers the rules, the journal write, the buttons built and laid
    out and the board drawn: everything a player waits for after a tap.
    """
    from kivy.clock import Clock

    def run(_dt: float) -> bool | None:
        if app.first_screen_at is None:
            return None
        session = app.controller.session
        table = app.root.get_screen("table")
        app.show("table")
        rng = random.Random(seed)
        report: dict[str, list[float]] = {"ms": [], "legal": [], "buttons": [], "unmarked": []}
        for _ in range(steps):
            legal = session.legal()
            if session.pending().is_over or not legal:
                break
            action = session.game.sim_choose(session.state, legal, rng)
            began = time.perf_counter()
            app.act(action)
            table.ids.choices.do_layout()
            table.ids.board.redraw()
            report["ms"].append((time.perf_counter() - began) * 1000)
            report["legal"].append(len(legal))
            report["buttons"].append(len(table.ids.choices.children))
            # Of the list the buttons were built for, the choices with no place to mark on the board.
            report["unmarked"].append(sum(place_of(a) is None for a in session.legal()))
        print(json.dumps(report))
        sys.stdout.flush()
        app.stop()
        return False

    Clock.schedule_interval(run, 0)


def resident_mb() -> float:
    """Memory the process holds now (not its peak): Linux's VmRSS, as the Pi reports it; 0 where absent."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


HELD = ("rss_mb", "objects", "widgets", "clock_events", "open_files", "font_files", "other_files", "threads",
        "board_draws")  # after each game
FONT_SUFFIXES = (".ttf", ".otf", ".ttc")


def open_files() -> tuple[int, int]:
    """The files this process holds open, and how many of them are fonts (Linux's /proc; 0, 0 where absent).

    Kivy's SDL2 text keeps each font and size it has drawn open, up to 64 (then it closes the oldest):
    they rise over a kiosk's first games as the boards fit their texts at sizes of their own, and are no
    leak; any other file rising game after game would be (docs/ui.md, "Open files over a day")."""
    try:
        fds = os.listdir("/proc/self/fd")
    except OSError:
        return 0, 0
    fonts = 0
    for fd in fds:
        with contextlib.suppress(OSError):  # the listing's own, closed once listed
            fonts += os.readlink(f"/proc/self/fd/{fd}").endswith(FONT_SUFFIXES)
    return len(fds), fonts


def held_now() -> dict[str, float]:
    """What a kiosk holds now, each of which must stop growing once every game has been played.

    Memory alone hid a leak of 200 bytes a step (Kivy's scroll bar bindings): the Python objects showed it.
    Open files and threads are Linux's counts (0 where /proc is absent); the open files also split into the
    fonts Kivy keeps (64 at most) and the rest (`open_files`).
    """
    import gc
    import threading

    from kivy.clock import Clock
    from kivy.uix.widget import Widget

    gc.collect()
    objects = gc.get_objects()
    widgets = 0
    for thing in objects:
        with contextlib.suppress(ReferenceError):  # a weak proxy whose widget has gone
            widgets += isinstance(thing, Widget)
    files, fonts = open_files()
    return {"rss_mb": round(resident_mb(), 1), "objects": len(objects), "widgets": widgets,
            "clock_events": len(Clock.get_events()), "open_files": files, "font_files": fonts,
            "other_files": files - fonts, "threads": threading.active_count(),
            "board_draws": board_draws()}


def board_draws() -> int:
    """Draws on the table's board now (its canvas's vertex instructions): the GL driver keeps buffers for each,
    and the allocator keeps a game's peak (docs/ui.md, "Memory over a day"). 0 without a running app."""
    from kivy.app import App
    from kivy.graphics.instructions import VertexInstruction

    app = App.get_running_app()
    try:
        board = app.root.get_screen("table").ids.board
    except Exception:  # no app, or no table screen yet: nothing drawn
        return 0
    return sum(isinstance(instruction, VertexInstruction) for instruction in board.canvas.children)


def play_games_after_first_screen(app: Any, games: int, seed: int = 1) -> None:
    """For the soak benchmark: random games through the table, one step a frame, every game in turn.

    Prints what is held after each game (`held_now`) as a JSON line then (``{"soak_game": ...}``, `soak_games`),
    so a soak stopped by Ctrl-C still reports the games played (it printed one report at the end, lost with
    the rest): a kiosk plays all day without a restart, so growth per game is what counts.
    Each frame is finished (glFinish) as a real display's swap finishes it: the
    offscreen window's does not, and Mesa's llvmpipe then kept every frame's
    drawing (docs/ui.md, "Memory over a day"), which is no memory of the app's.
    """
    from kivy.clock import Clock
    from kivy.graphics.opengl import glFinish

    order = sorted(game_classes())
    rng = random.Random(seed)
    played = {"games": 0, "steps": 0}

    def tick(_dt: float) -> bool | None:
        if app.first_screen_at is None:
            return None
        glFinish()
        session = app.controller.session
        if session is not None and not session.pending().is_over:
            app.act(session.game.sim_choose(session.state, session.legal(), rng))
            played["steps"] += 1
            return None
        if session is not None:
            print(json.dumps({"soak_game": {"game": session.game.id, "steps": played["steps"], **held_now()}}))
            sys.stdout.flush()
        if played["games"] == games:
            app.stop()
            return False
        game_id = order[played["games"] % len(order)]
        played["games"] += 1
        app.new_game(game_id, default_players(game_id))
        return None

    Clock.schedule_interval(tick, 0)


def drive(app: Any, steps: Iterator[None]) -> None:
    """Advance ``steps`` one frame at a time, then stop the app."""
    from kivy.clock import Clock

    def tick(_dt: float) -> bool | None:
        try:
            next(steps)
        except StopIteration:
            app.stop()
            return False
        return None

    Clock.schedule_interval(tick, 0)


def _settle(frames: int = 3) -> Iterator[None]:
    yield from (None for _ in range(frames))


def render_all(
    out: Path,
    games: list[str] | None = None,
    sizes: Sequence[tuple[int, int]] = ((800, 480), (1280, 800)),
    cafe_dir: Path | None = None,
    scale: int = 100,
) -> list[Path]:
    """Every screen of every game (or ``games``) at each window size in ``sizes``, as PNGs in ``out``.

    Games are played on the data the table would use (``cafe_dir``'s files where it has them), so a
    café sees its own board drawn.

    Sizes beyond the usual two (a portrait 480x800) are how a layout fault
    that only shows on another screen is found before a table finds it, and
    ``scale`` (the owner's display scale, percent) how one that only shows on a
    small display drawn larger is.
    """
    from kivy.core.window import Window

    from ui.app import CompanionApp
    from ui.cli import stopping_on_signals
    from ui.settings import Settings
    from ui.voice import Voice

    out.mkdir(parents=True, exist_ok=True)
    ids = games or list(game_classes())
    app = CompanionApp(Controller(None), None, Settings(display_scale=scale), None, voice=Voice(enabled=False))
    written: list[Path] = []

    def shoot(name: str) -> Iterator[None]:
        yield from _settle()
        path = out / f"{name}.png"
        app.root.export_to_png(str(path))
        written.append(path)

    def steps() -> Iterator[None]:
        for width, height in sizes:
            Window.size = (width, height)
            size = f"{width}x{height}" + (f"-{scale}" if scale != 100 else "")
            yield from _settle()
            app.show("home")
            yield from shoot(f"home-{size}")
            for game_id in ids:
                try:
                    session = mid_game(game_id, cafe_dir=cafe_dir)
                except Exception as error:  # a game still being written must not stop the review of the rest
                    print(f"{game_id}: no mid-game position ({error})", file=sys.stderr)
                    continue
                app.controller.set_session(session)
                app.show("table")
                yield from shoot(f"{game_id}-table-{size}")
                app.show("dispute")
                yield from _settle(1)
                if app.choices:
                    app.check(app.choices[0])
                yield from shoot(f"{game_id}-dispute-{size}")
                app.show("rulebook")
                yield from shoot(f"{game_id}-rulebook-{size}")
            for screen in ("settings", "camera", "attract", "pin"):
                app.show(screen)
                yield from shoot(f"{screen}-{size}")

    drive(app, steps())
    with stopping_on_signals(app) as got:
        app.run()
    if signal.SIGINT in got:
        raise ShotsStopped(written)
    return written


class ShotsStopped(KeyboardInterrupt):
    """Ctrl-C stopped `render_all`; ``written`` are the screenshots drawn before it.

    Ctrl-C used to land as KeyboardInterrupt wherever Python was, often in a
    Kivy object's ``__dealloc__``, where it is printed as "Exception ignored"
    with a traceback and dropped: the review went on to the end and ended 0.
    """

    def __init__(self, written: list[Path]) -> None:
        super().__init__(f"{len(written)} screenshots drawn")
        self.written = written


# OpenCV and numpy are loaded only when a camera starts (`vision.feed`) or its screen reads a feed, pyserial when a
# dice sensor does: a table without them never needs them, and at start-up OpenCV and numpy were a sixth of the CPU
# time to the home screen and 55 MB of its memory (docs/ui.md, "Start-up time"). `ui bench` names any of them the
# first screen loaded, and a test holds it to none.
LOADED_WHEN_NEEDED = ("cv2", "numpy", "serial")


def start_figures() -> dict[str, Any]:
    """What the process has spent so far: peak memory, CPU time, modules imported, which of
    `LOADED_WHEN_NEEDED` are among them, and which of the games' modules (`game_modules`)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "max_rss_mb": usage.ru_maxrss / 1024,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "modules": len(sys.modules),
        "loaded_when_needed": [name for name in LOADED_WHEN_NEEDED if name in sys.modules],
        "game_modules": game_modules(),
    }


def game_modules() -> list[str]:
    """The games' modules this process has imported beyond their packages (`companion.game_info`): their rules,
    boards and documents, which home needs none of."""
    return sorted(name for name in sys.modules if name.startswith("companion.games.") and name.count(".") > 2)


def exit_after_first_screen(app: Any, start_game: bool = False) -> None:
    """For the benchmark: report when the first screen is drawn and how much memory it took.

    With ``start_game``, the first screen being home, it then starts the game home lit with
    `default_players` through home's own Start (as a tap) and reports too when the tap came and when a
    frame with the table's board drawn on it was shown: the wait a café's first table has after a boot.
    """
    from kivy.clock import Clock

    report: dict[str, Any] = {}

    def finish() -> bool:
        print(json.dumps(report))
        sys.stdout.flush()
        app.stop()
        return False

    def poll(_dt: float) -> bool | None:
        if app.first_screen_at is None:
            return None  # keep polling until the first screen has been drawn
        if not report:
            report.update(first_screen=app.first_screen_at, screens_built=app.screens_built_at,
                          screen=app.root.current, status=app.status, saving=app.saving_note, **start_figures(),
                          steps=len(app.controller.session.log) if app.controller.session else None,
                          unsaved=app.unsaved_line,
                          first_screen_cpu_s=app.first_screen_cpu)
            if not start_game or app.root.current != "home":
                return finish()
            home = app.root.get_screen("home")
            home.players = default_players(home.chosen_game)
            report.update(game=home.chosen_game, tapped=time.monotonic())
            home.start()
            return None
        if "board_shown" in report:  # the frame after the one the board was first drawn on: it is on screen
            report.update(drawn=time.monotonic(), after_start=start_figures(), table_status=app.status,
                          unsaved=app.unsaved_line)
            return finish()
        if app.root.current == "table" and board_draws():
            report["board_shown"] = True
        return None

    Clock.schedule_interval(poll, 0)


def bench_env(tmp: Path) -> dict[str, str]:
    """A benchmark's app runs offscreen with its own Kivy home and settings: nothing of this machine's."""
    return {
        **os.environ,
        "SDL_VIDEODRIVER": "offscreen",
        "KIVY_HOME": str(tmp / "kivy"),
        "COMPANION_UI_SETTINGS": str(tmp / "ui.json"),
    }


def run_ui(journal_path: Path, env: dict[str, str], *flags: str, timeout: float | None = 120) -> dict[str, Any]:
    """The real ``companion ui run`` in a fresh process on ``journal_path``; its last line, a JSON report."""
    done = subprocess.run(
        [sys.executable, "-m", "companion", "ui", "run", *flags, "--size", "800x480", "--journal", str(journal_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def bench(runs: int = 3) -> list[str]:
    """Start the real command in a fresh process, resuming a mid-game table, and time its first screen;
    then time table steps where hundreds of actions are legal (Through the Desert, the temple)."""
    lines = []
    game_id = "blackpool" if "blackpool" in game_classes() else next(iter(game_classes()))
    with tempfile.TemporaryDirectory() as tmp:
        journal_path = Path(tmp) / "journal.sqlite3"
        mid_game(game_id, Journal(journal_path))
        env = bench_env(Path(tmp))
        timings, memory, cpu = [], [], []
        for _ in range(runs):
            started = time.monotonic()  # the child's first screen is told on the same clock
            report = run_ui(journal_path, env, "--bench-exit")
            timings.append(report["first_screen"] - started)
            memory.append(report["max_rss_mb"])
            cpu.append(report["first_screen_cpu_s"])
        lines.append(f"game resumed: {game_id} (screen: {report['screen']})")
        lines.append(f"start to first screen: {min(timings):.2f} s best, {max(timings):.2f} s worst of {runs}")
        lines.append(
            f"CPU time to first screen: {min(cpu):.2f} s (load-independent; load average {os.getloadavg()[0]:.1f})"
        )
        lines.append(f"peak memory (max RSS): {max(memory):.0f} MB")
        lines.extend(first_boot(Path(tmp), env))
        for long_game, players in (("ttd", ["red", "black", "orange", "purple", "brown"]), ("temple", None)):
            if long_game not in game_classes():
                continue
            path = Path(tmp) / f"{long_game}.sqlite3"
            long_list(long_game, players or default_players(long_game), Journal(path))
            steps = run_ui(path, env, "--bench-steps")
            ms = sorted(steps["ms"])
            lines.append(
                f"table step, {long_game} from {max(steps['legal'])} legal actions: median {ms[len(ms) // 2]:.0f} ms,"
                f" worst {ms[-1]:.0f} ms over {len(ms)} steps ({buttons_words(steps)})"
            )
    return lines


def buttons_words(steps: dict[str, Any]) -> str:
    """What the table built beside the board over the timed steps (`time_steps_after_first_screen`'s report).

    Through the Desert marks every choice on the board, and the line read "(at most 0 buttons built)".
    """
    most = int(max(steps["buttons"], default=0))
    if most == 0 and not any(steps.get("unmarked", [1])):
        return "no button built: every choice was marked on the board"
    return f"at most {most} button{'' if most == 1 else 's'} built"


def first_boot(tmp: Path, env: dict[str, str], runs: int = 5) -> list[str]:
    """A table's first start of the day on an empty journal, ``runs`` times in fresh processes: from the launch to
    home drawn (and so touchable), then from a tap on Start to the board drawn; medians, as a busy machine's
    worst runs say nothing of the app."""
    env = {**env, "XDG_DATA_HOME": str(tmp / "data")}  # no café folder: the house data, as on a new table
    home, cpu, rest, board, board_cpu, reports = [], [], [], [], [], []
    for run in range(runs):
        started = time.monotonic()
        report = run_ui(tmp / f"first-boot-{run}.sqlite3", env, "--bench-start")
        home.append(report["first_screen"] - started)
        cpu.append(report["first_screen_cpu_s"])
        rest.append(report["screens_built"] - report["first_screen"])
        board.append(report["drawn"] - report["tapped"])
        board_cpu.append(report["after_start"]["cpu_s"] - report["cpu_s"])
        reports.append(report)
    last = reports[-1]
    loaded = sorted({name for report in reports for name in report["loaded_when_needed"]})
    return [
        f"start to home screen, empty journal: median {statistics.median(home):.2f} s"
        f" (CPU {statistics.median(cpu):.2f} s) of {runs}, {last['modules']} modules imported,"
        f" peak memory {max(r['max_rss_mb'] for r in reports):.0f} MB",
        f"  the other screens built after home was drawn: median {statistics.median(rest):.2f} s",
        f"  loaded only when needed ({', '.join(LOADED_WHEN_NEEDED)}): "
        + (f"{', '.join(loaded)} loaded at home" if loaded else "none loaded at home"),
        f"Start tapped to the board drawn, {last['game']}: median {statistics.median(board):.2f} s"
        f" (CPU {statistics.median(board_cpu):.2f} s) of {runs}",
    ]


def soak_games(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """What the soak's app held after each game, as it prints it (`play_games_after_first_screen`)."""
    for line in lines:
        if line.startswith('{"soak_game"'):
            yield json.loads(line)["soak_game"]


def soak(games: int) -> tuple[list[str], bool]:
    """Play ``games`` random games through the real app in a fresh process; memory after each, summed up; and
    whether a Ctrl-C stopped it, the games played until then reported (it printed only "stopped")."""
    report: dict[str, list[Any]] = {"games": [], "steps": [], **{what: [] for what in HELD}}
    stopped = False
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryFile("w+") as said:
        command = [sys.executable, "-m", "companion", "ui", "run", "--new", "--bench-games", str(games), "--size",
                   "800x480", "--journal", str(Path(tmp) / "journal.sqlite3")]
        began = time.perf_counter()
        # Kivy's log goes to a file, not a pipe: a pipe nobody read while the games went on would fill and stall it.
        with subprocess.Popen(command, env=bench_env(Path(tmp)), stdout=subprocess.PIPE, stderr=said,
                              text=True) as child:
            assert child.stdout is not None
            try:
                for held in soak_games(iter(child.stdout.readline, "")):
                    report["games"].append(held.pop("game"))
                    for what, count in held.items():
                        report.setdefault(what, []).append(count)
            except KeyboardInterrupt:  # the app got the Ctrl-C too, on a terminal; from elsewhere it is ended here
                stopped = True
                child.kill()
            code = child.wait()
            stopped = stopped or code == 130  # the app alone got the Ctrl-C, and said so by its exit
        took = time.perf_counter() - began
        if code and not stopped:
            said.seek(0)
            raise subprocess.CalledProcessError(code, command, stderr=said.read())
    return soak_lines(report, took, games if stopped else None), stopped


SOAK_WORDS = {"rss_mb": "memory (MB)", "objects": "Python objects", "widgets": "widgets",
              "clock_events": "Clock events", "open_files": "open files",
              "font_files": "open fonts (Kivy keeps 64 at most)", "other_files": "open files but fonts",
              "threads": "threads",
              "board_draws": "draws on the board"}


def soak_lines(report: dict[str, list[Any]], took: float, asked: int | None = None) -> list[str]:
    """What `ui bench --soak` prints of a report from `play_games_after_first_screen`: each count after each game,
    and its growth a game once every game has been played once (its data, drawings and caches are in).
    ``asked``: the games asked for, when a Ctrl-C stopped the soak before they were all played."""
    kinds = len(set(report["games"]))
    played = f"{len(report['games'])} games" if asked is None else (
        f"{len(report['games'])} of {asked} games (stopped by Ctrl-C)")
    steps = report["steps"][-1] if report["steps"] else 0
    lines = [f"soak: {played} ({steps} steps) in {took:.0f} s, every game in turn"]
    for what, words in SOAK_WORDS.items():
        counts = report.get(what) or []
        if not counts:
            continue
        lines.append(f"{words} after each game: " + " ".join(f"{count:.0f}" for count in counts))
        if len(counts) > kinds:
            per_game = (counts[-1] - counts[kinds - 1]) / (len(counts) - kinds)
            lines.append(f"  after the first {kinds} games: {counts[kinds - 1]:.0f}, then {per_game:+.2f} a game")
    return lines
