"""sd_notify over the NOTIFY_SOCKET datagram socket, stdlib only.

The ping comes from the app's main loop, so a frozen screen (not just a dead
process) makes systemd restart the kiosk.
"""

from __future__ import annotations

import os
import socket


def _address(raw: str) -> str:
    return "\0" + raw[1:] if raw.startswith("@") else raw  # '@' marks an abstract socket


def notify(message: str, environ: dict[str, str] | None = None) -> bool:
    """Send one message; False when not running under systemd (nothing to tell) or it could not be sent.

    The send never waits: it runs on the main loop, and a datagram socket
    whose reader has stopped reading (systemd busy or wedged) blocks a full
    queue's sender for ever, which would freeze the screen it is meant to
    watch. A ping dropped that way is what a hung screen looks like anyway.
    """
    env = os.environ if environ is None else environ
    raw = env.get("NOTIFY_SOCKET")
    if not raw:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.setblocking(False)
            sock.connect(_address(raw))
            sock.sendall(message.encode())
    except OSError:
        return False
    return True


def ping_interval(environ: dict[str, str] | None = None) -> float | None:
    """Half the watchdog timeout systemd grants, in seconds; None when there is no watchdog."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or not usec.isdigit() or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 2_000_000
