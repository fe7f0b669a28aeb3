"""The referee's Ctrl-C-proof input reads a real pipe as the plain one did: every line, in order, then the end.

Ctrl-C itself is typed at a pseudo-terminal in test_cli (`SIGINT_ELSEWHERE`).
"""

from __future__ import annotations

import io
import json
import os
import signal
from pathlib import Path

from companion.interruptible import interruptible_input
from companion.protocol import Referee, serve


def answers_to(data: bytes, max_line: int = 1 << 20) -> list[dict]:
    """What `serve` answers to ``data`` written into a real pipe, read through `interruptible_input`."""
    out, into = os.pipe()
    os.write(into, data)
    os.close(into)
    said = io.StringIO()
    with open(out, "rb") as pipe, interruptible_input(pipe) as stdin:  # type: ignore[arg-type]
        assert stdin is not pipe
        serve(Referee(), stdin, said, max_line=max_line)
    return [json.loads(line) for line in said.getvalue().splitlines()]


def test_lines_written_in_one_piece_are_each_answered_in_order_then_the_end() -> None:
    requests = [{"cmd": "new", "game": "blackpool", "players": ["red", "blue"]}, {"cmd": "nope"}, {"cmd": "pending"}]
    data = b"".join(json.dumps(r).encode() + b"\n" for r in requests) + b"\n" + b'{"cmd": "state"}'  # no last \n
    answers = answers_to(data)
    assert [a["ok"] for a in answers] == [True, False, True, True]
    assert answers[1]["error"]["code"] == "bad_request" and "state" in answers[3]


def test_a_line_past_the_limit_is_still_read_in_pieces_and_the_next_answered() -> None:
    answers = answers_to(b'{"cmd": "pending", "x": "' + b"y" * 5000 + b'"}\n{"cmd": "pending"}\n', max_line=100)
    assert [a["ok"] for a in answers] == [False, True] and "longer than 100 bytes" in answers[0]["error"]["message"]


def test_the_wake_up_pipe_is_put_back_as_it_was(tmp_path: Path) -> None:
    before = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(before)
    with (tmp_path / "lines").open("w+b") as file, interruptible_input(file) as stdin:  # type: ignore[arg-type]
        during = signal.set_wakeup_fd(-1)
        signal.set_wakeup_fd(during)  # set back at once: the reads below still need it
        assert during not in (-1, before)
        assert stdin.readline() == b""
    assert signal.set_wakeup_fd(before) == before


def test_a_stream_with_no_file_behind_it_is_read_as_it_is() -> None:
    memory = io.BytesIO(b'{"cmd": "pending"}\n')
    with interruptible_input(memory) as stdin:
        assert stdin is memory
