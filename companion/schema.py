"""A small schema language for the data files a café may replace.

JSON Schema would need a third-party validator; this keeps the core on the
standard library while still naming the file, the entry and the problem.
Each schema node is a callable ``(value, path) -> list[str]``.
"""

from __future__ import annotations

import difflib
import json
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
    scored = []
    for name in names:
        matcher = difflib.SequenceMatcher(None, word, name)
        # The quick ratios bound the ratio from above: a name that cannot reach 0.75 is neither the guess nor its
        # tie, and every refused key of every action is looked up here.
        if matcher.real_quick_ratio() >= 0.75 and matcher.quick_ratio() >= 0.75:
            scored.append((matcher.ratio(), name))
    scored.sort(reverse=True)
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


def field_slip(key: Any, fields: Iterable[str]) -> str:
    """`` (is it 'travellers'?)`` after "unknown field 'travelers'" when a field is most likely the one misspelt, else
    nothing: a loaded position's unknown field, named alike by the desert's reader and the load of the other four."""
    meant = likely(key, fields)
    return f" (is it {quoted(meant)}?)" if meant is not None else ""


def unquote_hint(value: Any, *readings: type) -> str:
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


def whole_hint(value: Any) -> str:
    """``; write 3 without quotes`` for ``"3"``, ``; write 2, without the decimal point`` for ``2.0``, else nothing:
    what a hand-typed position document or spreadsheet most often puts where a whole number belongs."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return f"; write {int(value)}, without the decimal point"
    return unquote_hint(value, int)


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
            hint = unquote_hint(value, int)
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
            return [f"{label(path)}: expected a number, found {_type_name(value)}{unquote_hint(value, int, float)}"]
        if not minimum <= value <= maximum:
            return [f"{label(path)}: {value} is outside {minimum} to {maximum}"]
        return []

    return check


def Bool() -> Check:  # noqa: N802
    def check(value: Any, path: str) -> list[str]:
        if isinstance(value, bool):
            return []
        return [f"{label(path)}: expected true or false, found {_type_name(value)}{unquote_hint(value, bool)}"]

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
    item: Check,
    min_len: int = 0,
    max_len: int | None = None,
    unique_by: str | None = None,
    distinct: str | None = None,
    copies: tuple[str, ...] = (),
) -> Check:
    """A list; ``unique_by`` names the id field no two entries share, ``distinct`` a shown name no two may share.

    Names are compared as a player reads them, case and spacing aside: two
    desert spaces both called "Oasis" left "move to Oasis" naming neither.
    ``distinct`` may be the id field itself, for ids a player types or hears.
    A deck's entries may share a name as copies of one card: ``copies`` names
    the fields (a count, say) besides the id in which such copies may differ.
    Entries alike in every other field pass (``copy_warnings`` says so); two
    that differ are two cards under one name, and are refused.
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
            problems.extend(_same_names(value, path, distinct, unique_by, copies))
        return problems

    return check


def _place(path: str, i: int, entry: Mapping[str, Any], unique_by: str | None) -> str:
    """``cards[3] (id 'gust_2')``: an entry by its index, and by its id where it has one."""
    ident = entry.get(unique_by) if unique_by else None
    return f"{path}[{i}]" + (f" ({unique_by} {quoted(ident)})" if isinstance(ident, str | int) else "")


def _named_alike(
    entries: list[Any], path: str, field: str, unique_by: str | None
) -> list[tuple[int, str, int, str]]:
    """Each entry whose ``field`` reads as an earlier entry's (case and spacing aside): its index and place, then
    the first such entry's index and place."""
    found: list[tuple[int, str, int, str]] = []
    named: dict[str, tuple[int, str]] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or not isinstance(entry.get(field), str):
            continue
        place = _place(path, i, entry, unique_by)
        key = " ".join(entry[field].split()).casefold()
        if key in named:
            found.append((i, place, *named[key]))
        else:
            named[key] = (i, place)
    return found


def _differing(a: Mapping[str, Any], b: Mapping[str, Any], alike: Container[str]) -> list[str]:
    """The fields, but those in ``alike``, in which two entries differ as JSON writes them (true is not 1)."""
    keys = sorted(k for k in {*a, *b} if k not in alike)
    return [k for k in keys if json.dumps(a.get(k), sort_keys=True) != json.dumps(b.get(k), sort_keys=True)]


def _and(words: list[str]) -> str:
    """``deck, effect and params``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _same_names(
    entries: list[Any], path: str, field: str, unique_by: str | None, copies: tuple[str, ...] = ()
) -> list[str]:
    problems: list[str] = []
    for i, place, first, first_place in _named_alike(entries, path, field, unique_by):
        if field == unique_by and entries[i][field] == entries[first][field]:
            continue  # the same id twice: said once, as appearing twice
        other = first_place.rpartition(": ")[2]
        if copies:
            differ = _differing(entries[i], entries[first], {field, unique_by, *copies})
            if not differ:
                continue  # a copy of the first: warned of (copy_warnings), not refused
            problems.append(
                f"{label(place)}.{field}: {quoted(entries[i][field])} is also the {field} of {other}, a different "
                f"card (its {_and(differ)} {'differs' if len(differ) == 1 else 'differ'}); the table's texts and "
                "buttons tell cards apart by "
                f"{field}, so give each its own (copies of one card are one entry with a count)"
            )
            continue
        problems.append(
            f"{label(place)}.{field}: {quoted(entries[i][field])} is also the {field} of {other}; the "
            f"table's texts and buttons tell entries apart by {field}, so give each its own"
        )
    return problems


def copy_warnings(entries: list[Any], path: str, field: str, unique_by: str, copies: tuple[str, ...]) -> list[str]:
    """Each entry of a valid deck that is a copy of an earlier one: the same ``field`` (a name) and alike but for
    its ``unique_by`` and ``copies`` fields.

    Such copies play the same, but the game lists and offers each under its
    own id: a Blackpool deck with two "Gust of Force" entries offered two
    buttons both saying "Top card: Gust of Force". A warning, as the play is
    the same; one entry with the copies' count says it plainly.
    """
    warnings: list[str] = []
    for i, place, first, first_place in _named_alike(entries, path, field, unique_by):
        if _differing(entries[i], entries[first], {field, unique_by, *copies}):
            continue  # two cards under one name: refused by the schema (ListOf's copies)
        group = [first] + [j for j, _, f, _ in _named_alike(entries, path, field, unique_by) if f == first]
        group = [j for j in group if not _differing(entries[j], entries[first], {field, unique_by, *copies})]
        total = sum(entries[j].get("count", 1) for j in group) if "count" in copies else len(group)
        warnings.append(
            f"{label(place)}: a copy of {first_place.rpartition(': ')[2]} ({quoted(entries[first][field])}), alike "
            f"but for its {unique_by}: it plays the same, but the table lists and offers each on its own under one "
            f"name (a draw offers both); write that card once with \"count\": {total} and take this entry out"
        )
    return warnings


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

