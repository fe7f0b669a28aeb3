"""Pieces of English the referee's sentences share."""

from __future__ import annotations

from collections.abc import Sequence


def series(words: Sequence[str]) -> str:
    """Words as a sentence lists them: "Red", "Red and Black", "Red, Black and Orange" (never "Red and Black and
    Orange", which a shared win once read)."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"
