"""Pieces of English the referee's sentences share."""

from __future__ import annotations

from collections.abc import Sequence


def series(words: Sequence[str], last: str = "and") -> str:
    """Words as a sentence lists them: "Red", "Red and Black", "Red, Black and Orange" (never "Red and Black and
    Orange", which a shared win once read); ``last`` "or" for a choice: "2 dates, 2 salt or 2 pepper"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} {words[-1]}"


def number_runs(numbers: Sequence[int], last: str = "or") -> str:
    """Whole numbers as a sentence lists them, each run of three or more in a row as its ends: "2 to 12", "1 to 4
    or 6 to 12", "3, 7 or 9". Written out, "slot 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 or 12" was a 30-word sentence
    aloud and a line of figures to read on the screen."""
    runs: list[list[int]] = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    said = [f"{run[0]} to {run[-1]}" if len(run) >= 3 else ", ".join(map(str, run)) for run in runs]
    return series(", ".join(said).split(", "), last)


def how_many(count: int, noun: str = "step") -> str:
    """``count`` of ``noun``, singular for one: "1 step", "2 steps". A game resumed after its first step said
    "(1 steps so far)"; one place for every count of steps a person reads."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
