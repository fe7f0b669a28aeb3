"""Voice, watchdog, settings, the systemd unit and the default command: no window needed."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import Spoken
from ui import watchdog
from ui.settings import Settings
from ui.voice import KEYS_KEPT, MAX_WAITING, Voice, render_wav

ROOT = Path(__file__).resolve().parents[2]


def test_voice_speaks_each_event_once_and_repeats_on_request() -> None:
    spoken = Spoken()
    voice = Voice(runner=spoken)
    assert voice.say("Yellow 1 moves to d6.", key=1)
    assert not voice.say("Yellow 1 moves to d6.", key=1)  # the same event again: silent
    voice.repeat_last()
    voice.wait()
    voice.stop()
    assert spoken.lines == ["Yellow 1 moves to d6.", "Yellow 1 moves to d6."]


def test_a_flood_of_sentences_is_not_spoken_for_hours() -> None:
    """A sensor repeating a reading the game cannot take queued one sentence per line, each seconds long."""
    busy = threading.Event()
    release = threading.Event()
    spoken = Spoken()

    def slow(cmd: Any) -> None:
        busy.set()
        release.wait(10)
        spoken(cmd)

    voice = Voice(runner=slow)
    voice.say("Red rolled 4.", key=0)
    assert busy.wait(10)  # the first sentence is being said
    for key in range(1, 2001):
        voice.say("A die showing 9 was read, but no roll is expected now.", key=key)
        voice.say(f"Reading number {key}.", key=key + 10_000)
    release.set()
    voice.wait()
    voice.stop()
    assert spoken.lines[0] == "Red rolled 4." and len(spoken.lines) == 1 + MAX_WAITING
    assert spoken.lines[-1] == "Reading number 2000."  # the newest are said, not the stalest
    assert len(voice._spoken) <= KEYS_KEPT  # a day of announcements does not grow it without end


def test_silent_voice_queues_nothing() -> None:
    spoken = Spoken()
    voice = Voice(enabled=False, runner=spoken)
    assert not voice.say("Red wins.", key=1)
    assert voice.last == "Red wins."  # still remembered for the screen
    assert spoken.lines == []


def test_missing_espeak_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    voice = Voice()
    assert not voice.available and "not installed" in voice.note()
    assert not voice.say("Red wins.")


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (apt install espeak-ng)")
def test_espeak_writes_speech(tmp_path: Path) -> None:
    wav = render_wav("Yellow rolls a six.", tmp_path / "say.wav")
    data = wav.read_bytes()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE" and len(data) > 8000


def test_watchdog_pings_the_notify_socket(tmp_path: Path) -> None:
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))
        assert watchdog.notify("WATCHDOG=1", {"NOTIFY_SOCKET": str(path)})
        assert server.recv(64) == b"WATCHDOG=1"
    assert not watchdog.notify("READY=1", {})
    assert watchdog.ping_interval({"WATCHDOG_USEC": "30000000"}) == 15
    assert watchdog.ping_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog.ping_interval({}) is None


def test_a_notify_socket_nobody_reads_never_blocks_the_screen(tmp_path: Path) -> None:
    path = tmp_path / "notify"
    answers: list[bool] = []
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))

        def ping() -> None:  # far more than the socket's queue holds
            answers.extend(watchdog.notify("WATCHDOG=1", {"NOTIFY_SOCKET": str(path)}) for _ in range(5000))

        pinger = threading.Thread(target=ping, daemon=True)
        pinger.start()
        pinger.join(20)
        assert not pinger.is_alive(), "a full notify socket held the main loop"
    assert answers[0] and not answers[-1]


def test_settings_survive_a_restart_and_a_damaged_file(tmp_path: Path) -> None:
    path = tmp_path / "ui.json"
    Settings(voice=False, kiosk_pin="9876", inputs={"camera": True}).save(path)
    loaded = Settings.load(path)
    assert not loaded.voice and loaded.kiosk_pin == "9876"
    assert loaded.inputs["camera"] and loaded.inputs["touch"]
    assert path.stat().st_mode & 0o777 == 0o600  # it holds the kiosk's PIN
    path.write_text("{not json")
    assert Settings.load(path) == Settings()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_unit_verifies_clean(tmp_path: Path) -> None:
    """verify only prints (it exits 0 on faults), so any output fails; ExecStart must exist, so point it at the
    `companion` of the Python running the tests (a git worktree has no .venv of its own: the check failed there
    on the missing command, not on the unit)."""
    unit = (ROOT / "systemd" / "table-companion.service").read_text()
    command = Path(sys.executable).parent / "companion"
    assert command.is_file(), f"{command}: the tests' Python has no companion command (pip install -e .)"
    unit = unit.replace("/opt/table-companion/.venv/bin/companion", str(command))
    unit = unit.replace("/opt/table-companion", str(ROOT))

    def verify(text: str) -> str:
        target = tmp_path / "table-companion.service"
        target.write_text(text)
        done = subprocess.run(["systemd-analyze", "verify", str(target)], capture_output=True, text=True, timeout=60)
        return (done.stdout + done.stderr).strip()

    if not verify(unit.replace("[Service]", "[Service]\nBogusKey=1")):
        pytest.skip("systemd-analyze here does not report faults")
    assert verify(unit) == ""
    assert "Type=notify" in unit and "Restart=always" in unit and "WatchdogSec=" in unit


def test_setup_script_parses() -> None:
    subprocess.run(["bash", "-n", str(ROOT / "systemd" / "setup-pi.sh")], check=True)


def test_companion_without_arguments_starts_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.cli import default_command

    monkeypatch.delenv("SSH_CONNECTION", raising=False)
    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")
    assert default_command() == ["ui", "run"]
    monkeypatch.setenv("SSH_CONNECTION", "10.0.0.2 5000 10.0.0.1 22")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert default_command() == ["play"]  # over SSH without a display: the terminal referee


def test_companion_without_arguments_on_a_machine_with_no_screen_referees_in_the_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With no display, no video driver named and no /dev/dri, the app started invisible and seemed to hang."""
    import companion.cli
    from companion.cli import default_command

    for variable in ("SSH_CONNECTION", "DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(companion.cli, "DRI", str(tmp_path / "no-dri"))
    assert default_command() == ["play"]
    assert "no screen here" in capsys.readouterr().err
    (tmp_path / "no-dri").mkdir()  # a Pi's KMS screen: the app, as on the kiosk
    assert default_command() == ["ui", "run"]



@pytest.mark.parametrize("dri", [False, True])
def test_the_app_asked_for_by_name_where_no_screen_is_says_it_runs_unseen(
    dri: bool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`companion ui run` on a server or in a container started an app nobody could see and said nothing, so
    it looked hung. It says so and runs offscreen; on a Pi's own screen (/dev/dri) it says nothing."""
    import argparse

    import companion.cli
    import ui.cli

    class Prepared(Exception):
        pass

    def prepare(width: int, height: int, fullscreen: bool = False, offscreen: bool = False) -> None:
        raise Prepared(offscreen)

    for variable in ("SSH_CONNECTION", "DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(companion.cli, "DRI", str(tmp_path / "dri"))
    if dri:
        (tmp_path / "dri").mkdir()
    monkeypatch.setattr(ui.cli, "_prepare_kivy", prepare)
    with pytest.raises(Prepared) as prepared:
        ui.cli.cmd_run(argparse.Namespace(size=(800, 480), kiosk=False))
    said = capsys.readouterr().err
    assert prepared.value.args == (not dri,)
    if dri:
        assert said == ""
    else:
        assert said.startswith("companion: no screen here") and "nobody sees it; Ctrl-C ends it" in said

def test_ui_commands_are_registered() -> None:
    env = {**os.environ, "KIVY_NO_ARGS": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "companion", "ui", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=ROOT,
        check=True,
    )
    assert "screenshots" in done.stdout and "bench" in done.stdout


def test_start_log_has_no_clipboard_probe_noise(tmp_path: Path) -> None:
    """A café reads the start log in journalctl: a traceback about xclip there looks like a fault."""
    code = (
        "import logging, sys\n"
        "logging.basicConfig(stream=sys.stderr, level=logging.INFO)\n"
        "from ui.cli import _prepare_kivy\n"
        "_prepare_kivy(320, 240, offscreen=True)\n"
        "from kivy.core.clipboard import CutBuffer\n"
        "print('cutbuffer', CutBuffer)\n"
    )
    env = {**os.environ, "HOME": str(tmp_path), "KIVY_HOME": str(tmp_path / "kivy"), "PATH": os.environ["PATH"]}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert "cutbuffer None" in done.stdout
    assert "FileNotFoundError" not in done.stderr and "Traceback" not in done.stderr
    assert "Cutbuffer" not in done.stderr


def test_a_window_size_is_checked_before_kivy_starts() -> None:
    import argparse

    from ui.cli import window_size

    assert window_size("800x480") == (800, 480) and window_size("1280X800") == (1280, 800)
    for bad in ("abc", "800", "10x10", "800x-480", "99999x480"):
        with pytest.raises(argparse.ArgumentTypeError, match="is not a window size"):
            window_size(bad)


def test_the_kiosk_stops_on_sigterm_though_it_refuses_to_close(tmp_path: Path) -> None:
    """`systemctl stop` sends SIGTERM; SDL made it a close request the kiosk refused, so stops took 90 s."""
    notify = tmp_path / "notify"
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "KIVY_HOME": str(tmp_path / "kivy"),
        "SDL_VIDEODRIVER": "offscreen",
        "NOTIFY_SOCKET": str(notify),
    }
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(notify))
        server.settimeout(90)
        app = subprocess.Popen(
            [sys.executable, "-m", "companion", "ui", "run", "--kiosk"], env=env, cwd=ROOT,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        try:
            while b"READY=1" not in server.recv(256):
                pass
            app.send_signal(signal.SIGTERM)
            assert app.wait(timeout=15) == 0
        finally:
            if app.poll() is None:
                app.kill()
                app.wait()
    assert "Traceback" not in app.stderr.read()


def app_env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "KIVY_HOME": str(tmp_path / "kivy"),
        "SDL_VIDEODRIVER": "offscreen",
    }


def default_sigint() -> None:
    """Ctrl-C's default action in the child: a run started in the background ignores SIGINT, and so would it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_ends_the_app_with_130_saying_the_game_is_kept(tmp_path: Path) -> None:
    """Ctrl-C ended `ui run` as `systemctl stop` does, with 0 and not a word, unlike every other command."""
    from companion.journal import Journal
    from companion.session import Session

    journal = Journal(tmp_path / "j.sqlite3")
    session = Session.new("blackpool", ["red", "blue"], journal=journal)
    session.act(session.legal()[0])
    journal.close()
    notify = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(notify))
        server.settimeout(90)
        app = subprocess.Popen(
            [sys.executable, "-m", "companion", "ui", "run", "--journal", str(tmp_path / "j.sqlite3")],
            env={**app_env(tmp_path), "NOTIFY_SOCKET": str(notify)}, cwd=ROOT, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint,
        )
        try:
            while b"READY=1" not in server.recv(256):
                pass
            app.send_signal(signal.SIGINT)
            code = app.wait(timeout=30)
        finally:
            if app.poll() is None:
                app.kill()
                app.wait()
    said = app.stderr.read()
    assert code == 130, said
    assert said.endswith("companion: ui run stopped (Ctrl-C); the game is kept: the next start resumes it\n"), said
    assert "Traceback" not in said


def test_ctrl_c_over_a_game_kept_in_memory_says_it_ends_though_the_tables_file_is_on_disk(tmp_path: Path) -> None:
    """A full card that refused a game's copy left the table's journal on disk and the game's steps in memory:
    the goodbye looked at the table's file and promised the next start would resume a game it never could."""
    from types import SimpleNamespace

    from companion.journal import Journal, in_memory
    from companion.session import Session
    from ui.cli import _left_behind

    on_disk = Journal(tmp_path / "j.sqlite3")
    session = Session.new("blackpool", ["red", "blue"], journal=in_memory("the card is full"))
    app = SimpleNamespace(controller=SimpleNamespace(session=session), journal=on_disk)
    try:
        assert _left_behind(app) == ("; the game was kept in memory only (no journal file could be written), "
                                     "so it ends here")
        app.controller.session = Session.new("blackpool", ["red", "blue"], journal=on_disk)
        assert _left_behind(app) == "; the game is kept: the next start resumes it"
    finally:
        on_disk.close()


def test_ctrl_c_stops_the_screenshots_and_says_how_many_were_drawn(tmp_path: Path) -> None:
    """Ctrl-C landed in a Kivy object's __dealloc__, printed as "Exception ignored" with a traceback and dropped:
    every screenshot was still drawn and the command ended 0."""
    shots = tmp_path / "shots"
    with subprocess.Popen(
        [sys.executable, "-m", "companion", "ui", "screenshots", str(shots)], env=app_env(tmp_path), cwd=ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint,
    ) as running:
        guard = threading.Timer(120, running.kill)
        guard.start()
        try:
            while not (shots.is_dir() and any(shots.glob("*.png"))) and running.poll() is None:
                time.sleep(0.05)  # polling for the first file; no outcome rests on the pause
            running.send_signal(signal.SIGINT)
            out, err = running.communicate(timeout=60)
        finally:
            guard.cancel()
            running.kill()
    drawn = len(list(shots.glob("*.png")))
    assert running.returncode == 130, (out, err[-800:])
    assert out == f"{drawn} screenshots in {shots} (stopped by Ctrl-C; the others not drawn)\n", out
    assert 0 < drawn < 40 and "Traceback" not in err and "KeyboardInterrupt" not in err


def test_screenshots_into_a_file_are_refused_by_name_before_kivy_starts(tmp_path: Path, capsys) -> None:
    """It said "File exists (notes.txt)" once the window system had started."""
    from companion.cli import main

    notes = tmp_path / "notes.txt"
    notes.write_text("notes\n")
    with pytest.raises(SystemExit) as usage:
        main(["ui", "screenshots", str(notes)])
    assert usage.value.code == 2 and notes.read_text() == "notes\n"
    assert capsys.readouterr().err.endswith(f"argument dir: {str(notes)!r} cannot be a folder: it is a file; give a "
                                            "folder's path for the screenshots (. for the one you are in)\n")


def test_screenshots_of_a_game_that_does_not_exist_are_refused(tmp_path: Path, capsys) -> None:
    """`--game nosuch` rendered nothing for it and exited 0, so a typo passed for a finished review."""
    import argparse

    from ui.cli import cmd_screenshots

    assert cmd_screenshots(argparse.Namespace(dir=str(tmp_path), game=["blackpool", "nosuch"])) == 2
    assert "no game 'nosuch'; the games are:" in capsys.readouterr().err and not list(tmp_path.iterdir())


def test_screenshots_draw_the_cafe_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`companion --cafe DIR ui screenshots` drew the house boards: a café checking its own board saw ours."""
    import argparse
    import json

    import ui.cli
    import ui.shots
    from companion import registry
    from companion.cli import main
    from ui.shots import mid_game

    monkeypatch.setattr(registry, "_instances", {})
    cafe = tmp_path / "cafe"
    assert main(["data", "template", "ttd", str(cafe)]) == 0
    board_file = cafe / "ttd" / "board.json"
    board = json.loads(board_file.read_text(encoding="utf-8"))
    board["cells"] = [c for c in board["cells"] if c["r"] < 9]  # a café board four rows shorter
    board_file.write_text(json.dumps(board), encoding="utf-8")
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(ui.cli, "_prepare_kivy", lambda *a, **k: None)
    monkeypatch.setattr(ui.shots, "render_all", lambda *a: calls.append(a) or [])
    shots = argparse.Namespace(dir=str(tmp_path / "shots"), game=["ttd"], sizes=None, cafe=str(cafe), scale=100)
    assert ui.cli.cmd_screenshots(shots) == 0
    assert calls and calls[0][3] == cafe and calls[0][4] == 100  # the folder, then the display scale
    session = mid_game("ttd", cafe_dir=cafe)
    assert session.game.data.sources["board"] == str(board_file)
    assert session.game.data["board"]["cells"] == board["cells"] and len(session.log) > 10


def test_the_apps_options_given_before_run_are_kept(tmp_path: Path) -> None:
    """`companion ui --journal FILE run` started on the default journal, and `ui --kiosk run` in a window: the
    sub-command's defaults replaced what `ui` was given before it."""
    journal = tmp_path / "before-run.sqlite3"
    env = {**app_env(tmp_path), "COMPANION_JOURNAL": str(tmp_path / "default.sqlite3")}
    done = subprocess.run(
        [sys.executable, "-m", "companion", "ui", "--journal", str(journal), "--new", "run", "--bench-exit"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=env,
    )
    assert done.returncode == 0, done.stderr
    assert journal.is_file() and not (tmp_path / "default.sqlite3").exists()
    from companion.cli import build_parser

    given = build_parser().parse_args(["ui", "--kiosk", "--size", "800x480", "run", "--camera", "0"])
    assert (given.kiosk, given.size, given.camera, given.journal) == (True, (800, 480), "0", None)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["ui", "--kiosk", "screenshots", "{t}/shots"], "--kiosk is an option of the app (ui run), not of ui "
                                                        "screenshots: leave it out"),
        (["ui", "--journal", "{t}/j.sqlite3", "--size", "800x480", "bench"],
         "--journal, --size are options of the app (ui run), not of ui bench: leave them out"),
    ],
)
def test_the_apps_options_before_another_ui_command_are_refused(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ui --kiosk screenshots DIR` drew the screenshots as without it, and `ui --journal FILE bench` timed a
    journal of its own, the option passed over in silence."""
    from companion.cli import main

    assert main([word.format(t=tmp_path) for word in argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == f"companion: {said}\n"
    assert list(tmp_path.iterdir()) == []
