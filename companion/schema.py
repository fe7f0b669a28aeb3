"""A small schema language for the data files a café may replace.

JSON Schema would need a third-party validator; this keeps the core on the
standard library while still naming the file, the entry and the problem.
Each schema node is a callable ``(value, path) -> list[str]``.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Container, Iterable, Mapping
from typing import Any

from companion.errors import quoted

Check = Callable[[Any, str], list[str]]


def child(path: str, key: object) -> str:
    """The path of a field: ``board.json: squares`` at the top of a file, ``a.b`` below it."""
    return f"{path} {key}" if path.endswith(":") else f"{path}.{key}"


def label(path: str) -> str:
    return path[:-1] if path.endswith(":") else path


def is_known(value: Any, known: Container[Any]) -> bool:
    """Whether a value read from JSON is one of ``known`` (a set or dict of ids, say).

    A list or object where an id belongs (or a tuple holding one) is simply
    unknown: asking a set or a dict about it raises TypeError, and a damaged
    position document or data file must get a refusal that names the field,
    not an internal error.
    """
    try:
        return value in known
    except TypeError:
        return False


def look_up(table: Mapping[Any, Any], key: Any, default: Any = None) -> Any:
    """``table.get(key, default)`` for a key read from JSON, which may be a list or object."""
    return table[key] if is_known(key, table) else default


def _type_name(value: Any) -> str:
    """What was found, in the file's words: ``null`` and ``false`` as written there, not Python's NoneType."""
    if value is None or isinstance(value, bool):
        return quoted(value)
    return {dict: "object", list: "list", str: "text", int: "integer", float: "number"}.get(
        type(value), type(value).__name__
    )


def likely(word: Any, choices: Iterable[Any]) -> str | None:
    """The choice a hand-typed ``word`` most likely meant: the same letters in another case, or a near spelling.

    A café typing ``"nmae"`` for ``"name"`` was told both "missing field
    'name'" and "unknown field 'nmae'", and left to see they were one slip.
    """
    if not isinstance(word, str):
        return None
    names = [c for c in choices if isinstance(c, str) and c != word]
    same = [c for c in names if c.lower() == word.strip().lower()]
    if same:
        return same[0]
    scored = sorted(((difflib.SequenceMatcher(None, word, c).ratio(), c) for c in names), reverse=True)
    if not scored or scored[0][0] < 0.75 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None  # nothing near, or two as near (TD-Q2O for TD-Q20 or TD-Q27): a guess would mislead
    return scored[0][1]


def no_such(what: str, value: Any, known: Iterable[Any]) -> str:
    """``no square 'C5'; is it 'c5'?``: a reference to an id the file lacks, with the id most likely meant."""
    return f"no {what} {quoted(value)}{meant_hint(value, known)}"


def meant_hint(value: Any, known: Iterable[Any]) -> str:
    """``; is it 'c5'?`` when one of ``known`` is most likely what ``value`` was typed for, else nothing."""
    meant = likely(value, known)
    return f"; is it {quoted(meant)}?" if meant is not None else ""


def _unquote_hint(value: Any, *readings: type) -> str:
    """``; write 3 without quotes`` when text holds what the field wants (``"3"``, ``"true"``), else nothing."""
    if not isinstance(value, str):
        return ""
    text = value.strip()
    if bool in readings and text in ("true", "false"):
        return f"; write {text} without quotes"
    for reading in (r for r in readings if r is not bool):
        try:
            reading(text)
        except ValueError:
            continue
        return f"; write {text} without quotes" if text and len(text) <= 20 else ""
    return ""


def Str(nonempty: bool = True) -> Check:  # noqa: N802 - schema constructors read like types
    def check(value: Any, path: str) -> list[str]:
        if not isinstance(value, str):
            return [f"{label(path)}: expected text, found {_type_name(value)}"]
        if nonempty and not value.strip():
            return [f"{label(path)}: must not be empty"]
        return []

    return check


def Int(minimum: int | None = None, maximum: int | None = None) -> Check:  # noqa: N802
    def check(value: Any, path: str) -> list[str]:
        if isinstance(value, bool) or not isinstance(value, int):
            hint = _unquote_hint(value, int)
            if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:  # 2.0, as a spreadsheet saves
                hint = f" {value!r}; write {int(value)}, without the decimal point"
            return [f"{label(path)}: expected an integer, found {_type_name(value)}{hint}"]
        if minimum is not None and value < minimum:
            return [f"{label(path)}: {value} is below the minimum {minimum}"]
        if maximum is not None and value > maximum:
            return [f"{label(path)}: {value} is above the maximum {maximum}"]
        return []

    return check


def Number(minimum: float, maximum: float) -> Check:  # noqa: N802
    """An integer or decimal in a range (seconds, say), written either way in a hand-edited file."""

    def check(value: Any, path: str) -> list[str]:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return [f"{label(path)}: expected a number, found {_type_name(value)}{_unquote_hint(value, int, float)}"]
        if not minimum <= value <= maximum:
            return [f"{label(path)}: {value} is outside {minimum} to {maximum}"]
        return []

    return check


def Bool() -> Check:  # noqa: N802
    def check(value: Any, path: str) -> list[str]:
        if isinstance(value, bool):
            return []
        return [f"{label(path)}: expected true or false, found {_type_name(value)}{_unquote_hint(value, bool)}"]

    return check


def Enum(*choices: Any) -> Check:  # noqa: N802
    def check(value: Any, path: str) -> list[str]:
        # true == 1 in Python: a bool is one of the choices only when a bool is among them
        if value in choices and (not isinstance(value, bool) or any(isinstance(c, bool) for c in choices)):
            return []
        meant = likely(value, choices)
        hint = f"; is it {quoted(meant)}?" if meant is not None else ""
        return [f"{label(path)}: {quoted(value)} is not one of {', '.join(map(quoted, choices))}{hint}"]

    return check


def HexColour() -> Check:  # noqa: N802
    """A colour a screen can draw, written ``#rrggbb`` as every paint program shows it.

    Names ("lilac", "sand") would need a table of our own that a café cannot
    see or extend; six hex digits say exactly what is meant.
    """

    def check(value: Any, path: str) -> list[str]:
        if not isinstance(value, str):
            return [f"{label(path)}: expected a colour written #rrggbb, found {_type_name(value)}"]
        digits = value[1:]
        if len(value) != 7 or value[0] != "#" or any(ch not in "0123456789abcdefABCDEF" for ch in digits):
            return [f"{label(path)}: {quoted(value)} is not a colour written #rrggbb (such as \"#c8a2c8\")"]
        return []

    return check


def OneOf(*checks: Check, expected: str | None = None) -> Check:  # noqa: N802
    """Accept a value any one alternative accepts.

    A refused value is reported as not being ``expected`` (every alternative
    in words) when given: the first alternative's complaint alone misleads, as
    "expected an integer, found text" would for ``"x"`` where ``"X"`` is also
    allowed. Without it, the first alternative's problems are reported.
    """

    def check(value: Any, path: str) -> list[str]:
        first: list[str] | None = None
        for alternative in checks:
            problems = alternative(value, path)
            if not problems:
                return []
            first = first if first is not None else problems
        if expected is not None:
            return [f"{label(path)}: {quoted(value)} is not {expected}"]
        return first or []

    return check


def ListOf(  # noqa: N802
    item: Check, min_len: int = 0, max_len: int | None = None, unique_by: str | None = None, distinct: str | None = None
) -> Check:
    """A list; ``unique_by`` names the id field no two entries share, ``distinct`` a shown name no two may share.

    Names are compared as a player reads them, case and spacing aside: two
    desert spaces both called "Oasis" left "move to Oasis" naming neither.
    """

    def check(value: Any, path: str) -> list[str]:
        if not isinstance(value, list):
            return [f"{label(path)}: expected a list, found {_type_name(value)}"]
        problems: list[str] = []
        if len(value) < min_len:
            problems.append(
                f"{label(path)}: needs at least {min_len} {'entry' if min_len == 1 else 'entries'}, has {len(value)}"
            )
        if max_len is not None and len(value) > max_len:
            problems.append(f"{label(path)}: holds at most {max_len} entries, has {len(value)}")
        seen: set[Any] = set()
        for i, entry in enumerate(value):
            entry_path = f"{path}[{i}]"
            if unique_by and isinstance(entry, Mapping) and isinstance(entry.get(unique_by), str | int):
                key = entry[unique_by]
                entry_path = f"{path}[{i}] ({unique_by} {quoted(key)})"
                if key in seen:
                    problems.append(f"{entry_path}: {unique_by} {quoted(key)} appears twice")
                seen.add(key)
            problems.extend(item(entry, entry_path))
        if distinct:
            problems.extend(_same_names(value, path, distinct, unique_by))
        return problems

    return check


def _same_names(entries: list[Any], path: str, field: str, unique_by: str | None) -> list[str]:
    problems: list[str] = []
    named: dict[str, str] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or not isinstance(entry.get(field), str):
            continue
        ident = entry.get(unique_by) if unique_by else None
        place = f"{path}[{i}]" + (f" ({unique_by} {quoted(ident)})" if isinstance(ident, str | int) else "")
        key = " ".join(entry[field].split()).casefold()
        if key in named:
            problems.append(
                f"{label(place)}.{field}: {quoted(entry[field])} is also the {field} of "
                f"{named[key].rpartition(': ')[2]}; the "
                f"table's texts and buttons tell entries apart by {field}, so give each its own"
            )
        else:
            named[key] = place
    return problems


def MapOf(value_check: Check, key_check: Check | None = None) -> Check:  # noqa: N802
    def check(value: Any, path: str) -> list[str]:
        if not isinstance(value, dict):
            return [f"{label(path)}: expected an object, found {_type_name(value)}"]
        problems: list[str] = []
        for key, entry in value.items():
            if key_check:
                problems.extend(key_check(key, f"{path} key {quoted(key)}"))
            problems.extend(value_check(entry, child(path, key)))
        return problems

    return check


def Obj(required: Mapping[str, Check], optional: Mapping[str, Check] | None = None, extra: bool = False) -> Check:  # noqa: N802
    optional = optional or {}

    def check(value: Any, path: str) -> list[str]:
        if not isinstance(value, dict):
            return [f"{label(path)}: expected an object, found {_type_name(value)}"]
        absent = [key for key in (*required, *optional) if key not in value]
        meant: dict[str, str] = {}  # an unknown field: the absent one it is most likely a slip for
        if not extra:
            for key in value:
                if key not in required and key not in optional:
                    guess = likely(key, [a for a in absent if a not in meant.values()])
                    if guess is not None:
                        meant[key] = guess
        renamed = set(meant.values())
        problems = [
            f"{label(path)}: missing field {quoted(key)}" for key in required if key not in value and key not in renamed
        ]
        for key, entry in value.items():
            sub = required.get(key) or optional.get(key)
            if sub is not None:
                problems.extend(sub(entry, child(path, key)))
            elif key in meant:
                which = ", which is missing" if meant[key] in required else ""
                problems.append(
                    f"{label(path)}: unknown field {quoted(key)}: is it {quoted(meant[key])}{which}? rename it"
                )
            elif not extra:
                problems.append(f"{label(path)}: unknown field {quoted(key)}")
        return problems

    return check


def header(game: str, kind: str) -> dict[str, Check]:
    """The fields every data file starts with, so a file says what it is."""
    return {"game": Enum(game), "kind": Enum(kind), "schema": Int(1, 1)}

