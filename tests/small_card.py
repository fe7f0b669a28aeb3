"""A small card of a test's own: a tmpfs mounted in a user and mount namespace (``unshare``), never a real folder.

SQLite and the OS meet the kernel's real "No space left on device" on it, and
remounted read-only it refuses writes as a card the kernel remounted after
errors does. Where the machine allows no such namespace the test is skipped.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NO_NAMESPACE = 97  # the child's exit status when the tmpfs could not be mounted


def on_a_card(script: str, tmp_path: Path, size: str = "3m", *more: str) -> dict:
    """``script`` run with argv[1] a tmpfs of ``size`` mounted in namespaces of its own (``more`` after it); its
    JSON line."""
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        pytest.skip("unshare and mount are needed to make a small card of its own")
    card = tmp_path / "card"
    card.mkdir()
    shell = f'mount -t tmpfs -o size="$1" tmpfs "$2" || exit {NO_NAMESPACE}; shift 2; exec "$@"'
    argv = ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", shell, "sh", size, str(card),
            sys.executable, "-c", script, str(card), *more]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd=ROOT)
    if done.returncode == NO_NAMESPACE or done.stderr.startswith("unshare:"):
        pytest.skip(f"this machine lets no test mount a card of its own: {done.stderr.strip()[:200]}")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def fill_card(folder: Path) -> None:
    """Let a log in ``folder`` take the card's last bytes, as a service's chatty log fills a Pi's SD card.

    Called from the scripts run on the card."""
    with open(folder / "syslog", "wb", buffering=0) as log:
        try:
            while True:
                log.write(bytes(4096))
        except OSError:
            pass
