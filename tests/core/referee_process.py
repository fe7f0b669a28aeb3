"""A real ``companion referee`` subprocess, spoken to line by line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class RefereeProcess:
    def __init__(self, *args: str, with_race: bool = True) -> None:
        module = "tests.core.run_with_race" if with_race else "companion"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", module, "referee", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
            env=env,
        )

    def send_raw(self, line: bytes) -> dict[str, Any]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer, f"the referee gave no answer to {line!r} (exit code {self.proc.poll()})"
        return json.loads(answer)

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.send_raw(json.dumps(request).encode())

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=10)

    def close(self) -> int:
        assert self.proc.stdin
        self.proc.stdin.close()
        return self.proc.wait(timeout=10)
