"""Kiosk rules that need no screen: the PIN gate and the idle clock."""

from __future__ import annotations

import hmac

ESCAPE_KEYS = frozenset({27, 1073742094})  # Escape and Android back: both would leave the app


class PinGate:
    """Compares PINs in constant time and counts failures (shown to staff, never locks the table)."""

    def __init__(self, pin: str) -> None:
        self.pin = pin
        self.failures = 0

    def check(self, attempt: str) -> bool:
        ok = bool(self.pin) and hmac.compare_digest(attempt.encode(), self.pin.encode())
        if not ok:
            self.failures += 1
        return ok


class IdleClock:
    """Seconds since the last touch, from a clock passed in so tests need no sleeping."""

    def __init__(self, limit: float, now: float) -> None:
        self.limit = limit
        self.last = now

    def touched(self, now: float) -> None:
        self.last = now

    def expired(self, now: float) -> bool:
        return self.limit > 0 and now - self.last >= self.limit
