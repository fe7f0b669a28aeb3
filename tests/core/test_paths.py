"""Where the table's files go when the environment is odd: relative or missing XDG folders, an empty HOME."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.paths import user_data_dir, write_whole

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("given", ["data", "~/data", "./x"])
def test_a_relative_xdg_data_home_is_ignored_as_the_xdg_spec_says(
    given: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Taken as given it put the journal under whatever folder the command started in (systemd expands no ~)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", given)
    assert user_data_dir() == tmp_path / ".local" / "share" / "table-companion"


def test_an_empty_home_falls_back_to_the_password_database(monkeypatch: pytest.MonkeyPatch) -> None:
    """``HOME=`` made Path.home() answer "/", and the journal went to /.local/share."""
    import pwd

    monkeypatch.setenv("HOME", "")
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert user_data_dir() == Path(pwd.getpwuid(os.getuid()).pw_dir) / ".local" / "share" / "table-companion"


def test_a_missing_xdg_data_home_is_made_and_the_game_kept_there(tmp_path: Path) -> None:
    """A folder that does not exist yet is created with its parents, by a real `companion play`."""
    data = tmp_path / "not" / "yet" / "there"
    env = {**os.environ, "HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(data)}
    env.pop("COMPANION_JOURNAL", None)
    command = [sys.executable, "-m", "companion", "play", "--game", "blackpool", "--players", "red,blue"]
    done = subprocess.run(command, input="1\nquit\n", capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert (data / "table-companion" / "journal.sqlite3").is_file()
    assert "only until the app closes" not in done.stdout + done.stderr


def test_a_file_written_whole_keeps_the_permissions_a_plain_write_would_give(tmp_path: Path) -> None:
    """The aside file is owner-only: a die taught with sudo was left unreadable to the service's user."""
    before = os.umask(0o022)
    try:
        fresh = tmp_path / "temple_die.json"
        write_whole(fresh, b"{}")
        assert fresh.stat().st_mode & 0o777 == 0o644
        shared = tmp_path / "cards.json"
        shared.write_bytes(b"old")
        shared.chmod(0o664)
        write_whole(shared, b"new")
        assert (shared.read_bytes(), shared.stat().st_mode & 0o777) == (b"new", 0o664)
        secret = tmp_path / "settings.json"
        write_whole(secret, b"{}", private=True)
        assert secret.stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(before)
