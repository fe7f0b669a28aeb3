"""``companion ui ...``: run the app, render screenshots, measure start-up.

Kivy is imported only inside the commands: every ``companion`` invocation
loads this plugin, and the terminal referee must not pay for a window system.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from companion.errors import quoted
from companion.option_types import count, folder_to_fill, named, no_stream
from ui.settings import DISPLAY_SCALES

SIZES = ((800, 480), (1280, 800))
MAX_SOAK_GAMES = 1_000  # games a soak plays through the app, seconds each: a million ran until Ctrl-C


def register(subparsers: argparse._SubParsersAction) -> None:
    ui = subparsers.add_parser("ui", help="the touchscreen app (same as `ui run` without a sub-command)")
    _run_options(ui)
    sub = ui.add_subparsers(dest="ui_command")
    # Only what is given after `run` is set there: its defaults replaced what was given before it, so
    # `companion ui --kiosk run` started in a window, and `ui --journal FILE run` on the default journal.
    _run_options(sub.add_parser("run", help="start the app (resumes the game in progress)"), given_only=True)
    shots = sub.add_parser("screenshots", help="render every screen of every game in both sizes to PNG")
    shots.add_argument("dir", type=folder_to_fill("a folder's path for the screenshots (. for the one you are in)"),
                       help="the folder the PNG files are written into")
    shots.add_argument("--game", action="append", help="only these games (repeatable)")
    shots.add_argument(
        "--size",
        dest="sizes",  # not the app's --size, which `ui --size WxH screenshots` would otherwise hide
        type=window_size,
        action="append",
        metavar="WxH",
        help="window sizes instead of 800x480 and 1280x800 (repeatable), e.g. a portrait 480x800",
    )
    shots.add_argument("--scale", type=count(*DISPLAY_SCALES), default=100, metavar="PERCENT",
                       help=f"the owner's display scale (Settings) to draw at, {DISPLAY_SCALES[0]} to "
                       f"{DISPLAY_SCALES[1]} (default 100); files are named ...-WxH-PERCENT.png unless 100")
    shots.set_defaults(func=cmd_screenshots, output_optional=False)  # it says what it wrote
    bench = sub.add_parser("bench", help="time from start to first screen, memory, and table steps")
    bench.add_argument("--soak", type=count(1, MAX_SOAK_GAMES), metavar="GAMES",
                       help="instead: play GAMES random games through the app and report memory after each "
                       f"(at most {MAX_SOAK_GAMES})")
    # It times the house data: `companion --cafe DIR ui bench` is refused (`companion.cli._cafe_passed_over`).
    bench.set_defaults(func=cmd_bench, output_optional=False, cafe_unread="")  # its report is all it gives


def window_size(text: str) -> tuple[int, int]:
    """'800x480' as (800, 480), checked before Kivy starts: argparse names the option in its usage line."""
    width, sep, height = str(text).lower().partition("x")
    if not (sep and width.isdigit() and height.isdigit() and 200 <= int(width) <= 8000 and 200 <= int(height) <= 8000):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a window size such as 800x480 (200 to 8000 each way)")
    return int(width), int(height)


def _run_options(parser: argparse.ArgumentParser, given_only: bool = False) -> None:
    """The app's options, on `ui` and on `ui run`; ``given_only``: no defaults, so the sub-command's parser leaves
    what `ui` was given before it as it is (argparse lets a sub-command's defaults replace the values set)."""
    def unless(default: Any) -> Any:
        return argparse.SUPPRESS if given_only else default

    parser.add_argument("--kiosk", action="store_true", default=unless(False),
                        help="full screen, exits only with the PIN, attract screen")
    parser.add_argument("--journal", type=no_stream("a journal file's path (leave --journal out for the default one)"),
                        default=unless(None), help="journal file (default: $COMPANION_JOURNAL or the user data dir)")
    parser.add_argument("--size", type=window_size, default=unless(WINDOW),
                        help="window size when not full screen, WxH (default: 1280x800)")
    parser.add_argument("--new", action="store_true", default=unless(False),
                        help="start at the home screen; the game stays in the journal")
    parser.add_argument(
        "--buttons",
        choices=("mock", "gpio", "none"),
        default=unless(None),
        help="button box for this run: simulated, real GPIO, or none (default: simulated, on or off as in settings)",
    )
    parser.add_argument("--dice-sensor", type=named("a serial port such as /dev/ttyUSB0"), default=unless(None),
                        help="serial port of the dice sensor, switched on for this run "
                        "(default: the port and switch in settings)")
    parser.add_argument("--camera", metavar="SOURCE", default=unless(None),
                        type=named("a camera source: 0, picamera, a URL, a video or a folder"),
                        help="camera reading dice and cards, switched on for this run: 0, picamera, a URL, "
                        "a video or a folder (default: the source and switch in settings)")
    parser.add_argument("--bench-exit", action="store_true", default=unless(False), help=argparse.SUPPRESS)
    parser.add_argument("--bench-start", action="store_true", default=unless(False), help=argparse.SUPPRESS)
    parser.add_argument("--bench-steps", action="store_true", default=unless(False), help=argparse.SUPPRESS)
    parser.add_argument("--bench-games", type=int, default=unless(0), help=argparse.SUPPRESS)
    parser.set_defaults(func=cmd_run, output_optional=True)  # a window: its words go to the screen


WINDOW = (1280, 800)  # the app's window when not full screen


def _app_options_given(args: argparse.Namespace) -> str | None:
    """Why the app's options given to `ui` before another sub-command than `run` are refused, if any were.

    `companion ui --kiosk screenshots DIR` drew the screenshots as without it, and `ui --journal FILE bench`
    timed a journal of its own: the options were passed over in silence.
    """
    defaults = argparse.ArgumentParser(add_help=False)
    _run_options(defaults)
    given = [action.option_strings[0] for action in defaults._actions
             if action.option_strings and getattr(args, action.dest, action.default) != action.default]
    if not given:
        return None
    them = "it" if len(given) == 1 else "them"
    return (f"{', '.join(given)} {'is an option' if len(given) == 1 else 'are options'} of the app (ui run), "
            f"not of ui {args.ui_command}: leave {them} out")


def use_writable_kivy_home() -> None:
    """Point Kivy at a folder it can write when ``~/.kivy`` cannot be made or written, and keep it from writing
    one a bad card refuses.

    Kivy writes its config and logs there at import, and with a home it
    cannot write (a locked-down account, HOME pointing at a file) the app
    died with "Permission denied" before the first screen. The service sets
    ``KIVY_HOME`` itself; a set one is always kept (see `_kivy_can_write_its_folder`).
    """
    if not os.environ.get("KIVY_HOME"):
        home = Path(os.path.expanduser("~")) / ".kivy"
        try:
            home.mkdir(parents=True, exist_ok=True)
            if not os.access(home, os.W_OK | os.X_OK):
                os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="table-companion-kivy-")
        except OSError:
            os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="table-companion-kivy-")
    home = Path(os.path.expanduser(os.environ.get("KIVY_HOME") or "~/.kivy"))
    why = _kivy_can_write_its_folder(home)
    if why:
        os.environ["KIVY_NO_CONFIG"] = "1"
        print(f"companion: Kivy's folder {home} cannot be written ({why}): the screen starts on Kivy's "
              "own defaults, which is all the table uses, and Kivy writes its folder at the next start "
              "with room", file=sys.stderr)


# What Kivy writes into a folder of its own the first time: config.ini (5 kB) and its icons (70 kB), with room over.
KIVY_FIRST_WRITE = 128 * 1024


def _kivy_can_write_its_folder(home: Path) -> str:
    """"" when Kivy can start in ``home``, else why not (the OS's words).

    A folder Kivy filled on an earlier start is only read. Otherwise its
    import makes the folder, copies its icons and writes config.ini: on the
    kiosk's card gone read-only before Kivy's first start that raised
    "Read-only file system" out of the start (a restart loop every 5 s, the
    screen black), and on a full card it logged "Unable to write the
    config" with a traceback. What it would write is tried first (a file of
    that size, removed again); where it fails Kivy is started with
    ``KIVY_NO_CONFIG``, on its built-in defaults, writing nothing.
    """
    if all((home / name).exists() for name in ("config.ini", "icon", "mods")) and _kivy_config_current(home):
        return ""
    probe = home / ".room-for-kivy"
    try:
        home.mkdir(parents=True, exist_ok=True)
        with open(probe, "wb") as file:
            file.write(bytes(KIVY_FIRST_WRITE))
            file.flush()
            os.fsync(file.fileno())
    except OSError as exc:
        return exc.strerror or str(exc)
    finally:
        with suppress(OSError):
            probe.unlink(missing_ok=True)
    return ""


def _kivy_config_current(home: Path) -> bool:
    """Whether Kivy will only read ``home``'s config.ini: it holds the config version this Kivy writes.

    Kivy rewrites a config.ini of any other version at import (an older
    Kivy's, or one a failed write left empty): on a full card that rewrite
    logged "Unable to write the config" with a traceback at every start, the
    folder being whole. The version is read from Kivy's source, as importing
    it is what writes; a file or a version that cannot be read counts as not
    current, so the write is tried first (`_kivy_can_write_its_folder`).
    """
    import configparser
    import importlib.util
    import re

    spec = importlib.util.find_spec("kivy")  # finds the package without importing it
    origin = spec.origin if spec is not None else None
    try:
        source = (Path(origin).parent / "config.py").read_text(encoding="utf-8") if origin else ""
        parser = configparser.RawConfigParser()
        parser.read(home / "config.ini", encoding="utf-8")
        found = parser.get("kivy", "config_version", fallback="")
    except (OSError, UnicodeError, configparser.Error):
        return False
    wanted = re.search(r"^KIVY_CONFIG_VERSION = (\d+)$", source, re.MULTILINE)
    return wanted is not None and found.strip() == wanted.group(1)


# Kivy log lines that tell a café nothing to do. Middle-click paste: see `_prepare_kivy`. The config upgrade is
# Kivy writing its config.ini the first time it starts in a home (every fresh install, every new user): two
# warnings on stderr ("Config: Older configuration version detected (0 instead of 27)") read as a fault.
KIVY_NOISE = ("Cutbuffer: Unable", "Config: Older configuration version detected", "Config: Upgrading configuration")


def _not_kivy_noise(record: logging.LogRecord) -> bool:
    """Whether a Kivy log line is worth a café's reading (`KIVY_NOISE` are not)."""
    return not record.getMessage().startswith(KIVY_NOISE)


def _prepare_kivy(width: int, height: int, fullscreen: bool = False, offscreen: bool = False) -> None:
    """Kivy reads its configuration once, at import: set it all before the first import."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")  # skips probing for xsel/xclip processes at start
    if offscreen:
        os.environ["SDL_VIDEODRIVER"] = "offscreen"
    use_writable_kivy_home()
    # SDL would turn SIGTERM into a window-close request, which the kiosk refuses: `systemctl stop`
    # then waited out its 90 s timeout and killed the app. The signals are handled by `stopping_on_signals`.
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
    # Before the import, which is when Kivy reads (and on a first start writes) its config.
    logging.getLogger("kivy").addFilter(_not_kivy_noise)
    import kivy
    from kivy.config import Config

    # Middle-click paste (X11's cut buffer) is no use on a touchscreen; left in, Kivy runs xclip
    # and xsel at start to look for it and logs a traceback where neither is installed.
    kivy.kivy_options["cutbuffer"] = ()
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "resizable", "1")
    Config.set("kivy", "exit_on_escape", "0" if fullscreen else "1")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")


def build_app(args: argparse.Namespace, kiosk: bool = False, journal_path: Path | None = None) -> Any:
    """The app wired to a journal, a controller and the saved settings (Kivy must be prepared)."""
    from companion.cli import cafe_dir, default_journal_path
    from companion.controller import Controller
    from companion.finished import finished_game
    from companion.session import open_table
    from ui.app import CompanionApp
    from ui.settings import Settings, default_settings_path, existing_folder

    settings_path = default_settings_path()
    settings = Settings.load(settings_path)
    standard = cafe_dir(args)
    cafe = existing_folder(settings.cafe_dir) or standard  # a removed stick must not stop the kiosk
    gone = _missing_cafe(settings.cafe_dir, standard)
    journal_path = journal_path or Path(getattr(args, "journal", None) or default_journal_path())
    resume = not getattr(args, "new", False)
    journal, session, note = open_table(journal_path, cafe, resume=resume)
    # A finished game is never resumed into play: home names it and offers to go back into it (the same café day)
    last = finished_game(journal, cafe) if resume and session is None else None
    controller = Controller(session)
    given = {
        "buttons": getattr(args, "buttons", None),
        "serial": getattr(args, "dice_sensor", None),
        "camera": getattr(args, "camera", None),
    }
    app = CompanionApp(
        controller,
        journal,
        settings,
        settings_path,
        kiosk=kiosk,
        cafe_dir=cafe,
        input_sources=given,
        default_cafe_dir=standard,
        last_game=last,
    )
    app.apply_inputs()  # the same path a saved switch takes, so start-up and the settings screen agree
    note = " ".join(filter(None, (settings.note, note, gone)))
    if note:  # on the home screen the table starts on, and in the service's log
        app.status = note
        print(f"companion: {note}", file=sys.stderr)
    return app


def _missing_cafe(saved: str, standard: Path | None) -> str:
    """What a saved café folder that is not there means, for the start-up note; "" when it is there.

    The fallback was silent: every game went on the house data while the café believed its own board was
    in use, and the settings screen showed the saved folder and then refused every Save ("No folder ...").
    """
    from ui.settings import existing_folder

    if not saved.strip() or existing_folder(saved) is not None:
        return ""
    used = f"the café folder {standard}" if standard else "the house data"
    return (f"The café data folder {saved.strip()} is missing: new games use {used} until it is back "
            "(or clear it in Settings).")


@contextmanager
def stopping_on_signals(app: Any) -> Iterator[list[int]]:
    """SIGTERM (systemctl stop, restart) and SIGINT end the app cleanly, kiosk or not; yields the signals that
    came, so Ctrl-C is told apart from a stop (it ends the command with 130, as every command; it ended 0).

    Only a person at the screen is held to the PIN; the service manager is not.
    The handlers before are put back on leaving, so a Ctrl-C while the app
    closes still ends the process.
    """
    from kivy.clock import Clock

    got: list[int] = []

    def stop(signum: int, _frame: Any) -> None:
        got.append(signum)
        Clock.schedule_once(lambda _dt: app.stop(), 0)

    before = {number: signal.signal(number, stop) for number in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield got
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def cmd_run(args: argparse.Namespace) -> int:
    from companion.cli import NO_SCREEN, screen_here

    width, height = args.size
    # Asked for by name where nothing can show it (a server, a container, SSH): said, as it looked hung.
    unseen = not screen_here()
    if unseen:
        print(f"{NO_SCREEN}, so the app runs offscreen, where nobody sees it; Ctrl-C ends it "
              "('companion play' is the referee in this terminal).", file=sys.stderr)  # fmt: skip
    _prepare_kivy(width, height, fullscreen=args.kiosk, offscreen=unseen)
    app = build_app(args, kiosk=args.kiosk)
    if args.bench_exit or args.bench_start:
        from ui.shots import exit_after_first_screen

        exit_after_first_screen(app, start_game=args.bench_start)
    if args.bench_steps:
        from ui.shots import time_steps_after_first_screen

        time_steps_after_first_screen(app)
    if args.bench_games:
        from ui.shots import play_games_after_first_screen

        play_games_after_first_screen(app, args.bench_games)
    with stopping_on_signals(app) as got:
        app.run()
    if signal.SIGINT in got:
        print(f"companion: ui run stopped (Ctrl-C){_left_behind(app)}", file=sys.stderr)
        return 130
    return 0


def _left_behind(app: Any) -> str:
    """What became of the game on the table when the app stopped, as `play`'s goodbye says it ("" for none)."""
    session = app.controller.session
    if session is None:
        return ""
    # The game's own journal, not the table's: a full card may have refused the game's copy, and then its steps
    # were kept in memory though the table's file is on disk.
    journal = session.journal if session.journal is not None else app.journal
    if journal is not None and journal.kept_on_disk:
        return "; the game is kept: the next start resumes it"
    return "; the game was kept in memory only (no journal file could be written), so it ends here"


def cmd_screenshots(args: argparse.Namespace) -> int:
    from companion.cli import cafe_dir
    from companion.registry import game_classes

    passed_over = _app_options_given(args)
    if passed_over:
        print(f"companion: {passed_over}", file=sys.stderr)
        return 2

    unknown = sorted(set(args.game or ()) - set(game_classes()))
    if unknown:  # rendered nothing for them and still succeeded, so a typo looked like a review done
        from companion.cli import unknown_game

        print(f"companion: {unknown_game(unknown[0])}", file=sys.stderr)
        return 2
    sizes = args.sizes or list(SIZES)
    _prepare_kivy(*sizes[0], offscreen=True)
    from ui.shots import ShotsStopped, render_all

    try:
        written = render_all(Path(args.dir), args.game, sizes, cafe_dir(args), args.scale)
    except ShotsStopped as stop:  # the ones drawn are whole on disk; the rest were never begun
        print(f"{len(stop.written)} screenshots in {args.dir} (stopped by Ctrl-C; the others not drawn)")
        return 130
    print(f"{len(written)} screenshots in {args.dir}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    passed_over = _app_options_given(args)
    if passed_over:
        print(f"companion: {passed_over}", file=sys.stderr)
        return 2
    _prepare_kivy(*SIZES[0], offscreen=True)
    from ui.shots import bench, soak

    lines, stopped = soak(args.soak) if args.soak else (bench(), False)
    for line in lines:
        print(line)
    return 130 if stopped else 0  # Ctrl-C: the games played until then are reported
