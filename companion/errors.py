"""Typed errors with the stable codes of the referee protocol.

Every error subclasses a built-in too, so callers that do not know our types
still catch them sensibly (python-chess does the same with ``IllegalMoveError``).
"""

from __future__ import annotations

import json

SHOWN_CHARS = 40  # of a value quoted back in a refusal


def quoted(value: object) -> str:
    """A value as a refusal quotes it, cut short: a name pasted a megabyte long came back whole, a wall of
    text in the terminal and a megabyte answer from the referee.

    Names keep their quotes ('red'); anything else is written as the JSON it
    came as (null, true, [1, 2], {"v": 1}), since a client that sent null
    was told "not None" and a list of dicts came back in Python's spelling.
    """
    if isinstance(value, str):
        text = repr(value)
    elif isinstance(value, int) and value.bit_length() > 3 * SHOWN_CHARS:  # past Python's 4300-digit limit too
        text = f"a number of about {int(value.bit_length() * 0.30103)} digits"
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, default=repr)
        except ValueError:  # a whole number too long to write out, deep inside
            text = "a value too large to show"
        except RecursionError:
            text = "a value nested too deeply to show"
        except TypeError:  # a mapping keyed by what JSON cannot key by (a reader's tuple); raised out of a refusal
            text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


class CompanionError(Exception):
    """Base of every refusal the core gives; ``code`` is part of the protocol."""

    code = "error"

    def __init__(self, message: str, rule: str | None = None, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.details = details

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code, "message": self.message}
        if self.rule:
            out["rule"] = self.rule
        out.update(self.details)
        return out


class BadRequest(CompanionError, ValueError):
    """Not JSON, an unknown command, a missing or mistyped field."""

    code = "bad_request"


class UnknownGame(CompanionError, LookupError):
    code = "unknown_game"


class InvalidAction(CompanionError, ValueError):
    """The action is malformed for this game (wrong type, unknown piece...)."""

    code = "invalid_action"


class IllegalAction(CompanionError, ValueError):
    """The action is well formed but the rules do not allow it now."""

    code = "illegal_action"


class InvalidPosition(CompanionError, ValueError):
    """A position document describes an impossible game; ``problems`` lists every fault."""

    code = "invalid_position"

    def __init__(self, problems: list[str], rule: str | None = None) -> None:
        problems = list(problems) or ["unknown problem"]
        head = problems[0] if len(problems) == 1 else f"{len(problems)} problems: " + "; ".join(problems)
        super().__init__(head, rule, problems=problems)
        self.problems = problems


class NothingToUndo(CompanionError, LookupError):
    code = "nothing_to_undo"


class NoGame(CompanionError, RuntimeError):
    code = "no_game"


class JournalDamaged(CompanionError, OSError):
    """The journal file is not a database SQLite can read whole (disk full, a failing SD card)."""

    code = "journal_damaged"


class JournalUnavailable(CompanionError, OSError):
    """The journal cannot be opened or written where it is asked for (no such folder, a folder, read-only)."""

    code = "journal_unavailable"
    failure: Exception | None = None
    """SQLite's own refusal, where it opened the file and could not write it: what `journal.card_fault` reads
    the card by, when the journal was a new one the card refused (a damaged journal's replacement)."""


class JournalNotWritten(JournalUnavailable):
    """A write the journal's card refused (full, gone read-only, failing): nothing of it was written.

    ``reason`` says which, and what to do, without the file's path: the table
    says it aloud with the step it refuses (`Session`), where a path read out
    told the players nothing.
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"the journal {path} cannot be written: {reason}")
        self.reason = reason


class JournalForeign(JournalUnavailable):
    """The file is a database this companion must not write (another program's), or text: never moved or changed."""


class JournalInUse(JournalUnavailable):
    """Another companion (the kiosk, a terminal referee) is writing this journal now."""


class InvalidData(CompanionError, ValueError):
    """A board, deck or rulebook file breaks its schema; names file, entry and problem."""

    code = "invalid_data"

    def __init__(self, problems: list[str]) -> None:
        problems = list(problems) or ["unknown problem"]
        super().__init__("; ".join(problems), None, problems=problems)
        self.problems = problems
