"""Kiosk rules that need no screen: the PIN gate and the idle clock."""

from __future__ import annotations

import hmac

ESCAPE_KEYS = frozenset({27, 1073742094})  # Escape and Android back: both would leave the app


class PinGate:
    """Compares PINs in constant time and counts failures (shown to staff, never locks the table)."""

    def __init__(self, pin: str) -> None:
        self.pin = pin
        self.failures = 0  # wrong PINs since the app started
        self.wrong = 0  # wrong PINs since the last right one: the pad says how many in a row
        self.wrong_before = 0  # how many came before the last right one: told to the staff it let in

    def check(self, attempt: str) -> bool:
        ok = bool(self.pin) and hmac.compare_digest(attempt.encode(), self.pin.encode())
        if ok:
            self.wrong_before, self.wrong = self.wrong, 0
        else:
            self.failures += 1
            self.wrong += 1
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
