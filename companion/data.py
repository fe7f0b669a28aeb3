"""Where a game's data comes from, and the validator that names every fault.

House data ships inside each game package (``companion/games/<id>/data``).
A café folder holds replacements, file by file, at ``<cafe>/<id>/<kind>.json``;
whatever it does not replace comes from the house set.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.errors import InvalidData, quoted
from companion.game import Game, GameData
from companion.paths import env_or, user_data_dir
from companion.rulebook import rulebook_schema
from companion.schema import Obj, child, label, likely, look_up, meant_hint
from companion.screen_font import SHOWN_KEYS, font_problems, length_problems


def default_cafe_dir() -> Path:
    """The café folder: ``$COMPANION_CAFE_DIR``, else ``cafe`` in the user data dir."""
    return env_or("COMPANION_CAFE_DIR", user_data_dir() / "cafe")


def house_dir(game_cls: type[Game]) -> Path:
    """House data lives beside the game's package: ``companion/games/<id>/data``."""
    return Path(__file__).resolve().parent / "games" / game_cls.id / "data"


def schemas(game_cls: type[Game]) -> dict[str, Any]:
    found = {"rulebook": rulebook_schema(game_cls.id)}
    found.update(game_cls.data_schemas)
    return found


STDIN = "standard input"


def read_json(path: Path) -> Any:
    """A hand-edited JSON file, or ``InvalidData`` naming the file and what is wrong with it.

    Editors on a café's computer save UTF-8 with a byte order mark, or UTF-16
    ("Unicode" in Notepad): the text is the same, so both are read as JSON
    allows (RFC 8259 section 8.1). Anything else that is not text, or not
    JSON, is named in words a person editing the file can act on.
    """
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InvalidData([unreadable(path, exc)]) from None
    return parse_json(raw, str(path))


def parse_json(raw: bytes, path: str) -> Any:
    """``raw`` read as `read_json` reads a file, each problem named as of ``path`` (a record piped to
    ``replay -`` is "standard input")."""
    if not raw.strip():
        raise InvalidData([f"{path}: {'it is' if path == STDIN else 'the file is'} empty"])
    try:
        text = raw.decode(json.detect_encoding(raw))
    except UnicodeDecodeError as exc:
        raise InvalidData(
            [f"{path}: not UTF-8 text (byte {exc.start} is {raw[exc.start]:#04x}); save it with the UTF-8 encoding"]
        ) from None
    text = text.removeprefix("\ufeff")
    try:
        marked: list[bool] = []  # whether any object had a key written twice: only then is the tree walked

        def read_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
            made = _object(pairs)
            if isinstance(made, _Twice):
                marked.append(True)
            return made

        content = json.loads(text, object_pairs_hook=read_object, parse_constant=_not_a_number)
    except _NotJSONNumber as exc:
        where = _line_and_column(text, text.find(exc.word))
        said = f"{exc.word} is not a number JSON allows; write a number"
        raise InvalidData([f"{path}: not valid JSON at {where}: {said}"]) from None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise InvalidData([f"{path}: not valid JSON at {where}: {_json_fault(exc)}"]) from None
    except RecursionError:  # "[[[[..." thousands deep: the reader recurses once a level, and the referee crashed
        raise InvalidData([f"{path}: lists or objects nested too deeply to be game data or a record"]) from None
    except ValueError:  # a whole number thousands of digits long (a key held down): Python will not convert it
        digits = sys.get_int_max_str_digits()
        raise InvalidData([f"{path}: a number too long to read (more than {digits} digits)"]) from None
    twice = _written_twice(content, f"{path}:") if marked else []
    if twice:
        raise InvalidData(twice)
    return content


class _NotJSONNumber(ValueError):
    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.word = word


def _not_a_number(word: str) -> Any:
    """``NaN`` and ``Infinity`` are not JSON, though Python's reader takes them; a number field would get one."""
    raise _NotJSONNumber(word)


class _Twice(dict):  # type: ignore[type-arg]
    """An object in which a key was written again with another value: each such key, with all its values."""

    twice: dict[str, list[Any]]


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object as JSON reads it (the last value of a key), marked when a key was written again differently.

    A JSON reader keeps the last of two values of one key without a word: a
    café that wrote ``"golden_compass": 1`` and, further down the object,
    ``"golden_compass": 0`` was told nobody could ever win, looking at its 1.
    A key written twice with one value (a line pasted twice) reads the same
    either way and passes.
    """
    made = dict(pairs)
    if len(made) == len(pairs):  # no key twice: nearly every object
        return made
    values: dict[str, list[Any]] = {}
    for key, value in pairs:
        made[key] = value
        values.setdefault(key, []).append(value)
    twice = {key: found for key, found in values.items() if len({_spelling(v) for v in found}) > 1}
    if not twice:
        return made
    marked = _Twice(made)
    marked.twice = twice
    return marked


def _spelling(value: Any) -> str:
    """A value as JSON writes it, so ``true`` and ``1`` (equal in Python) differ."""
    return json.dumps(value, sort_keys=True)


def _written_twice(content: Any, path: str) -> list[str]:
    """Each key written again with another value in one object, by its place in the file and all its values."""
    problems: list[str] = []
    if isinstance(content, _Twice):
        for key, found in content.twice.items():
            times = "twice" if len(found) == 2 else f"{len(found)} times"
            written = ", then ".join(map(quoted, found))
            problems.append(
                f"{label(path)}: {quoted(key)} is written {times} in one object ({written}); a JSON reader keeps "
                "only the last, so keep only the one meant"
            )
    if isinstance(content, dict):
        for key, value in content.items():
            problems.extend(_written_twice(value, child(path, key)))
    elif isinstance(content, list):
        for i, value in enumerate(content):
            problems.extend(_written_twice(value, f"{path}[{i}]"))
    return problems


def _line_and_column(text: str, index: int) -> str:
    return f"line {text.count(chr(10), 0, index) + 1}, column {index - text.rfind(chr(10), 0, index)}"


def unreadable(path: Path | str, exc: OSError) -> str:
    """Why a café file or folder cannot be read, and what to do about it.

    The system's reason alone ("Is a directory", "No such file or directory"
    for a file the café can see listed) left the café to guess the remedy.
    """
    said = f"{path}: cannot be read ({exc.strerror or exc})"
    if isinstance(exc, IsADirectoryError):
        return f"{said}: a folder has this file's name; put the file itself here, or take the folder away"
    if isinstance(exc, PermissionError):
        return (
            f"{said}: the table's user may not read it; let everyone read it (chmod a+r on a file, a+rx on a "
            "folder), or copy it in again as that user"
        )
    if isinstance(exc, FileNotFoundError) and Path(path).is_symlink():
        return f"{said}: it is a link to {os.readlink(path)}, which is not there; put the file itself here"
    return said


def composed(content: Any) -> Any:
    """A data file with every text in Unicode's composed form (NFC): "ü" one character, not "u" and an accent.

    Names copied out of a PDF rulebook, or saved by some editors, arrive
    decomposed; the screen's font has no glyph for a lone accent and drew
    "Düne" as "Du" and an empty box. Composed, the text reads the same and
    the screen draws it.
    """
    if isinstance(content, str):
        return unicodedata.normalize("NFC", content)
    if isinstance(content, list):
        return [composed(item) for item in content]
    if isinstance(content, dict):
        return {composed(key): composed(value) for key, value in content.items()}
    return content


def _json_fault(exc: json.JSONDecodeError) -> str:
    """The decoder's complaint, with the usual hand-editing slips said plainly.

    A comma before ``]`` or ``}``; a tab typed, or a line broken, inside a
    name, which the decoder called "Invalid control character at" and no more.
    """
    if exc.msg.startswith("Invalid control character"):
        found = exc.doc[exc.pos : exc.pos + 1]
        fixes = {
            "\t": "a tab inside quotes, which JSON text cannot hold; type a space (or \\t) instead",
            "\n": "a line break inside quotes, which JSON text cannot hold; join the text onto one line, or close "
            "the quotes left open before it",
        }
        fixes["\r"] = fixes["\n"]
        other = f"control character {ord(found):#04x} inside quotes, which JSON text cannot hold; delete it"
        return fixes.get(found, other)
    before = exc.doc[: exc.pos].rstrip()
    if exc.doc[exc.pos : exc.pos + 1] in ("]", "}") and before.endswith(","):
        return f"a comma before {quoted(exc.doc[exc.pos])} (JSON allows no comma after the last entry)"
    return exc.msg


def file_problems(game_cls: type[Game], kind: str, content: Any, where: str) -> list[str]:
    """Schema problems of one file; the header must say which game and kind it is."""
    schema = look_up(schemas(game_cls), kind)
    if schema is None:
        return [f"{where}: {game_cls.id} has no data kind {quoted(kind)}; kinds: {', '.join(schemas(game_cls))}"]
    problems = schema(content, f"{where}:")
    if kind == "rulebook" and not problems:
        problems = _rulebook_problems(game_cls, content, where)
    if not problems:
        shown = (*SHOWN_KEYS, "id") if kind in game_cls.ids_shown else SHOWN_KEYS
        problems = font_problems(content, where, shown) + length_problems(content, where)
    if isinstance(content, dict) and (content.get("game"), content.get("kind")) != (game_cls.id, kind):
        found = f"game {quoted(content.get('game'))} kind {quoted(content.get('kind'))}"
        problems.insert(0, f"{where}: header says {found}, expected {quoted(game_cls.id)} {quoted(kind)}")
    return problems


def _rulebook_problems(game_cls: type[Game], content: Mapping[str, Any], where: str) -> list[str]:
    """A café rulebook must keep every clause id of the house one, and its "see" must name its own clauses.

    Rulings cite the house ids: a café that dropped one while rewording had
    its refusals cite a clause the dispute screen and ``rules`` could not
    show, which the validator called valid.
    """
    ids = [clause["id"] for clause in content["clauses"]]
    house = read_json(house_dir(game_cls) / "rulebook.json")
    missing = [clause["id"] for clause in house["clauses"] if clause["id"] not in ids]
    problems = []
    if missing:
        shown = ", ".join(missing[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
        problems.append(f"{where}: clauses: no clause {shown}, which rulings cite; keep each id and reword its text")
    for i, clause in enumerate(content["clauses"]):
        for ref in (ref for ref in clause.get("see", []) if ref not in ids):
            problems.append(f"{where}: clauses[{i}] (id {clause['id']!r}).see: no clause {ref}{meant_hint(ref, ids)}")
    return problems


def set_problems(game_cls: type[Game], files: Mapping[str, Any], sources: Mapping[str, str]) -> list[str]:
    problems: list[str] = []
    for kind, content in files.items():
        problems.extend(file_problems(game_cls, kind, content, sources.get(kind, f"{kind}.json")))
    if not problems:
        problems.extend(game_cls.cross_check(files))
    return problems


def _present(path: Path) -> bool:
    """Whether the café put anything at ``path``: a folder, a broken link or a file it cannot open counts.

    Such an entry is read (and refused with its reason, as the validator
    refuses it) rather than quietly replaced by the house file, which would
    referee a board the café does not have.
    """
    try:
        return path.exists() or path.is_symlink()
    except OSError:  # a folder on the way that cannot be searched: reading the file says so
        return True


def cafe_signature(game_cls: type[Game], cafe_dir: Path | None) -> tuple[tuple[int, ...], ...]:
    """What a stat of each café file the game would read says about it, without reading any.

    Two equal signatures mean ``load_data`` would read the same files, so the
    data bound to a game can be kept; an edit, a file put in or taken away,
    or one replaced by a folder or an unreadable file each change it. A saved
    file gets a new modification time (and, saved by renaming a new copy over
    it, a new inode), and its change time follows any write, even one that
    sets the modification time back.
    """
    if cafe_dir is None:
        return ()
    folder = cafe_dir / game_cls.id
    return tuple(_stat_signature(folder / f"{kind}.json") for kind in schemas(game_cls))


def _stat_signature(path: Path) -> tuple[int, ...]:
    try:
        found = path.stat()
    except OSError as exc:
        try:
            found = path.lstat()  # a link to nothing: read, it is refused, so it must count as there
        except OSError:
            return (exc.errno or -1,)  # nothing there, or a folder on the way that cannot be searched
    return (found.st_mode, found.st_ino, found.st_dev, found.st_size, found.st_mtime_ns, found.st_ctime_ns)


def load_data(game_cls: type[Game], cafe_dir: Path | None = None) -> GameData:
    """The game's data set: café files where present, house files otherwise."""
    files: dict[str, Any] = {}
    sources: dict[str, str] = {}
    cafe_game = (cafe_dir / game_cls.id) if cafe_dir else None
    for kind in schemas(game_cls):
        cafe_file = cafe_game / f"{kind}.json" if cafe_game else None
        path = cafe_file if cafe_file is not None and _present(cafe_file) else house_dir(game_cls) / f"{kind}.json"
        files[kind] = composed(read_json(path))
        sources[kind] = str(path) if path == cafe_file else f"house:{game_cls.id}/{kind}.json"
    problems = set_problems(game_cls, files, sources)
    if problems:
        raise InvalidData(problems)
    digests = {kind: content_digest(content) for kind, content in files.items()}
    cafe_sources = {kind: where for kind, where in sources.items() if not where.startswith("house:")}
    warnings = game_cls.board_warnings({k: files[k] for k in cafe_sources}, cafe_sources) if cafe_sources else []
    return GameData(files, sources, digests, tuple(warnings))


def content_digest(content: Any) -> str:
    """A short hash of a data file's content, not its bytes: re-saving with other spacing changes nothing.

    The journal keeps it with each game, so a game resumed on a café file
    edited since it began says so instead of refereeing on in silence.
    """
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _json_files(folder: Path, problems: list[str]) -> list[Path]:
    """Every ``*.json`` under ``folder``; a sub-folder that cannot be read is a problem, not an empty folder.

    ``Path.rglob`` skips such a folder in silence, and a validator saying
    "valid" or "no files" about files it never saw would mislead the café.
    """

    def refused(error: OSError) -> None:
        problems.append(unreadable(error.filename, error))

    found: list[Path] = []
    for root, folders, files in os.walk(folder, onerror=refused):
        # A folder named like a data file is listed too, so it is reported rather than passed over; so is a
        # "board.JSON", or the "board.json.txt" Notepad saves, which the game would pass over for the house file.
        found.extend(Path(root) / name for name in folders + files if name.lower().endswith((".json", ".json.txt")))
    return sorted(found)


def _never_read(file: Path, game_cls: type[Game]) -> str | None:
    """Why a file in a game's folder of a café is passed over by the game (it uses the house file instead)."""
    names = [f"{kind}.json" for kind in schemas(game_cls)]
    if file.name in names:
        return None
    meant = likely(file.name, names)
    hint = f"; is it {meant}? rename it" if meant else ""
    if meant and file.name.lower().endswith(".txt"):
        hint += " (Notepad adds .txt, and Windows hides it unless file name extensions are shown)"
    return f"{file}: never read; the {game_cls.id} game reads only {', '.join(names)} from this folder{hint}"


def _read_as(file: Path, content: Any, game_classes: Mapping[str, type[Game]]) -> tuple[type[Game], str] | list[str]:
    """The game and kind a file is checked as, or the problems that stop it being checked.

    A file in a game's folder of a café (``<cafe>/desert/board.json``) is
    checked as that game reads it, whatever its header claims: a Blackpool
    board copied there was called valid while the desert game refused to
    start on it, and a board saved as ``board (1).json`` was called valid
    while the game went on with the house board. Elsewhere (a draft) the
    header says what the file is.
    """
    located = look_up(game_classes, file.parent.name)
    if located is not None:
        never = _never_read(file, located)
        if never:
            return [never]
        return located, file.stem
    head_problems = Obj({"game": lambda v, p: [], "kind": lambda v, p: []}, extra=True)(content, str(file))
    if head_problems:
        return head_problems
    game_cls = look_up(game_classes, content["game"])
    if game_cls is None:
        return [f"{file}: unknown game {quoted(content['game'])}; games: {', '.join(game_classes)}"]
    return game_cls, content["kind"]


def validate_path(
    path: Path, game_classes: Mapping[str, type[Game]], warnings: list[str] | None = None
) -> list[str]:
    """Validate a data file, or every JSON file under a folder, against its game.

    Each file is checked on its own and then together with the rest of its
    game's set (house files filling the gaps), so a café sees cross-file
    faults such as a path naming a square its board lacks. What of a valid
    set reads worse (``Game.board_warnings``: texts the board would draw too
    small, a card written again as a copy) goes into ``warnings``: the data is
    valid and plays the same.
    """
    problems: list[str] = []
    paths = _json_files(path, problems) if path.is_dir() else [path]
    if not paths and not problems:
        return [f"{path}: no JSON data files found"]
    by_game: dict[str, dict[str, tuple[Any, str]]] = {}
    for file in paths:
        located = look_up(game_classes, file.parent.name)
        never = _never_read(file, located) if located is not None else None
        if never:  # said before its content: the game passes over the file, whatever it holds
            problems.append(never)
            continue
        try:
            content = composed(read_json(file))
        except InvalidData as exc:
            problems.extend(exc.problems)
            continue
        read_as = _read_as(file, content, game_classes)
        if isinstance(read_as, list):
            problems.extend(read_as)
            continue
        game_cls, kind = read_as
        own = file_problems(game_cls, kind, content, str(file))
        problems.extend(own)
        if not own:
            by_game.setdefault(game_cls.id, {})[kind] = (content, str(file))
    for game_id, given in by_game.items():
        game_cls = game_classes[game_id]
        files = {kind: read_json(house_dir(game_cls) / f"{kind}.json") for kind in schemas(game_cls)}
        sources = {kind: f"house:{game_id}/{kind}.json" for kind in files}
        for kind, (content, where) in given.items():
            files[kind] = content
            sources[kind] = where
        crossed = game_cls.cross_check(files)
        problems.extend(f"{game_id} set ({', '.join(sorted(given))} given): {p}" for p in crossed)
        if warnings is not None and not crossed:
            own = {kind: content for kind, (content, _) in given.items()}
            warnings.extend(game_cls.board_warnings(own, {kind: where for kind, (_, where) in given.items()}))
    return problems
