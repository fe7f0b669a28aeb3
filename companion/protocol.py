"""The referee protocol: one JSON request per line in, one JSON answer per line out.

Everything outside the core (the app, tests, other front ends) talks through
this. ``Referee.handle_line`` never raises: every input, however broken, gets
an answer, and a refused request leaves the game exactly as it was.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from companion.errors import BadRequest, CompanionError, InvalidData, NoGame, quoted
from companion.finished import finished_game
from companion.journal import Journal
from companion.places import explain_place, known_place, place_from_json, typed_place
from companion.registry import create, game_classes
from companion.schema import likely
from companion.session import Session, Step, resume_game

Answer = dict[str, Any]

# A position document is a few kB; a line past this is a stuck or hostile client, and reading it
# whole (then echoing it back) could take a Raspberry Pi's memory with it.
MAX_LINE_BYTES = 1 << 20
# The keys each command reads besides "cmd". Any other is refused rather than ignored: `{"cmd": "legal", "game":
# "ttd"}` answered with Blackpool's actions (the game in progress) and `{"cmd": "undo", "n": 3}` took one step back,
# each as if the key had been read.
REQUEST_KEYS: dict[str, tuple[str, ...]] = {
    "new": ("game", "players", "options", "profile"),
    "load": ("game", "state"),
    "act": ("action",),
    "check": ("action",),
    "explain": ("place",),
    "rules": ("game", "clause", "search"),
}
TYPE_NAMES = {str: "a string", list: "a list", dict: "an object", int: "a whole number", bool: "true or false"}


def _no_constant(name: str) -> float:
    raise BadRequest(f"{name} is not a JSON number (JSON has no NaN or Infinity)")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses as Infinity, which no JSON reader downstream accepts
        raise BadRequest(f"the number {text} is too large")
    return value


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are each given once: Python keeps the last of a key given twice, so
    ``{"type": "roll", "value": 3, "value": 5}`` was taken as a 5 and ``{"cmd": "pending", "cmd": "legal"}`` as
    ``legal``, the first said nowhere."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise BadRequest(f"the line gives the key {quoted(key)} twice in one object; give each key once")
        out[key] = value
    return out


def parse_json(text: str) -> Any:
    """Strict JSON: Python's reader also takes NaN and Infinity, which would be journalled and echoed
    back in answers that strict JSON readers then refuse.

    Raises ``BadRequest`` naming what is wrong and where.
    """
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_once_each)
    except BadRequest:
        raise
    except json.JSONDecodeError as error:
        if error.msg.startswith("Unexpected UTF-8 BOM"):  # Python's advice ("decode using utf-8-sig") is for Python
            raise BadRequest("the line starts with a byte order mark (U+FEFF); send the JSON without it") from None
        # Some of Python's messages end in "at" themselves: "Unterminated string starting at at column 8".
        what = error.msg.removesuffix(" at")
        raise BadRequest(f"the line is not valid JSON: {what} at column {error.colno}") from None
    except RecursionError:
        raise BadRequest("the line is not valid JSON: it nests too deeply") from None
    except ValueError:  # an integer of thousands of digits: Python refuses to convert it
        digits = sys.get_int_max_str_digits()
        raise BadRequest(f"the line holds a number too long to read (more than {digits} digits)") from None


def _field(request: Mapping[str, Any], key: str, kind: type | tuple[type, ...], required: bool = True) -> Any:
    if key not in request:
        if required:
            raise BadRequest(f"the request needs {key!r}")
        return None
    value = request[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        kinds = kind if isinstance(kind, tuple) else (kind,)
        names = " or ".join(TYPE_NAMES.get(k, k.__name__) for k in kinds)
        raise BadRequest(f"{key!r} must be {names}, not {quoted(value)}")
    return value


def _only_known_keys(cmd: str, request: Mapping[str, Any]) -> None:
    """Refuse a key the command does not read, naming it (and the key most likely meant) and the keys it takes,
    before anything is done: a front end's misspelt or imagined key must not pass as if it had been read."""
    takes = REQUEST_KEYS.get(cmd, ())
    extra = [key for key in request if key != "cmd" and key not in takes]
    if extra:
        named = ", ".join(quoted(k) + (f" (is it {quoted(m)}?)" if (m := likely(k, takes)) else "") for k in extra)
        what = f"it takes only {', '.join(takes)} besides cmd" if takes else "it takes only cmd"
        raise BadRequest(f"{quoted(cmd)} has no key {named}; {what}")
    if cmd == "rules" and "clause" in request and "search" in request:  # the clause was given, the search unread
        raise BadRequest("a 'rules' request takes 'clause' or 'search', not 'clause' and 'search' together")


def _action(request: Mapping[str, Any], session: Session) -> Any:
    """The request's action object; missing or not an object, refused citing the clause a malformed action
    cites (what a turn may do; once the game is over, the way it ended), as every refusal names its clause."""
    try:
        return _field(request, "action", dict)
    except BadRequest as error:
        error.rule = session.shape_rule()
        raise


class Referee:
    def __init__(self, journal: Journal | None = None, cafe_dir: Path | None = None) -> None:
        self.journal = journal
        self.cafe_dir = cafe_dir
        self.session: Session | None = None
        self.note = ""  # why the journal's game in progress could not be resumed, if it could not
        if journal is not None:
            self.session, self.note = resume_game(journal, cafe_dir)
        self._commands: dict[str, Callable[[Mapping[str, Any]], Answer]] = {
            "games": self._games,
            "new": self._new,
            "load": self._load,
            "state": self._state,
            "pending": lambda r: {},
            "legal": self._legal,
            "act": self._act,
            "check": self._check,
            "explain": self._explain,
            "undo": lambda r: self._step(self._need().undo()),
            "redo": lambda r: self._step(self._need().redo()),
            "rules": self._rules,
            "score": self._score,
            "export": lambda r: {"record": self._need().export()},
            "last": self._last,
            "reopen": self._reopen,
        }

    # -- entry points -----------------------------------------------------
    def handle_line(self, line: str | bytes, cut: bool = False) -> Answer:
        """``cut``: the input ended before this line did (no newline), as when a client closes stdin mid-line."""
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                return self._error(BadRequest("the line is not UTF-8 text"))
        try:
            request = parse_json(line)
        except BadRequest as error:
            if cut:  # said, or the client's author hunts a fault in a line that was only cut short
                error.message += "; the input ended before the line did (no newline), so it may be cut short"
            return self._error(error)
        return self.handle(request)

    def handle(self, request: object) -> Answer:
        try:
            if not isinstance(request, dict):
                raise BadRequest('a request must be a JSON object such as {"cmd": "pending"}')
            cmd = request.get("cmd")
            if not isinstance(cmd, str) or cmd not in self._commands:
                meant = likely(cmd, self._commands)
                slip = f" (is it {quoted(meant)}?)" if meant is not None else ""
                raise BadRequest(f"unknown command {quoted(cmd)}{slip}; commands: {', '.join(self._commands)}")
            _only_known_keys(cmd, request)
            answer = self._commands[cmd](request)
            return {"ok": True, "pending": self._pending(), **answer}
        except CompanionError as error:
            return self._error(error)
        except Exception as error:  # the referee must answer every line, even after a bug
            return {"ok": False, "error": {"code": "internal_error", "message": f"{type(error).__name__}: {error}"}}

    @staticmethod
    def _error(error: CompanionError) -> Answer:
        return {"ok": False, "error": error.to_dict()}

    # -- commands ---------------------------------------------------------
    def _need(self) -> Session:
        if self.session is None:
            raise NoGame(f'no game in progress: start one with {{"cmd": "new", ...}}{self._reopen_hint()}')
        return self.session

    def _reopen_hint(self) -> str:
        """How to go back into the journal's finished last game, when it may be: said on stderr alone at start,
        which a front end on the other side of the pipe does not show, it left a misread winning roll unfixable."""
        last = finished_game(self.journal, self.cafe_dir) if self.journal is not None else None
        if last is None or not last.reopenable:
            return ""
        return f'; or go back into the last game, {last.title}, which is over, with {{"cmd": "reopen"}}'

    def _pending(self) -> dict[str, Any] | None:
        return self.session.pending().to_dict() if self.session else None

    def _games(self, request: Mapping[str, Any]) -> Answer:
        """Every game; one whose café data is broken is listed with its problems, so the others stay playable."""
        games = []
        for game_id, game_cls in game_classes().items():
            try:
                game = create(game_id, self.cafe_dir)
            except InvalidData as error:
                games.append({**game_cls.metadata(), "data": None, "problems": error.problems})
                continue
            games.append({**game.metadata(), "data": game.data.sources})
        return {"games": games}

    def _new(self, request: Mapping[str, Any]) -> Answer:
        game_id = _field(request, "game", str)
        players = _field(request, "players", list)
        options = _field(request, "options", dict, required=False)
        profile = _field(request, "profile", str, required=False)
        self.session = Session.new(game_id, players, options, profile, self.journal, self.cafe_dir)
        return {"game": game_id}

    def _load(self, request: Mapping[str, Any]) -> Answer:
        game_id = _field(request, "game", str)
        document = _field(request, "state", dict)
        self.session = Session.load(game_id, document, self.journal, self.cafe_dir)
        return {"game": game_id}

    def _last(self, request: Mapping[str, Any]) -> Answer:
        """The journal's latest game when it is finished, with whether it may be gone back into (else null)."""
        last = finished_game(self.journal, self.cafe_dir)
        return {"last": last.to_dict() if last is not None else None}

    def _reopen(self, request: Mapping[str, Any]) -> Answer:
        """Go back into the finished last game, so undo takes back its last steps (a misread winning roll)."""
        last = finished_game(self.journal, self.cafe_dir)
        if last is None:
            raise NoGame("no finished last game to go back into: the journal's latest game is not over")
        self.session = last.reopen(self.journal)
        return {"game": last.entry.game}

    def _state(self, request: Mapping[str, Any]) -> Answer:
        return {"state": self._need().document()}

    def _legal(self, request: Mapping[str, Any]) -> Answer:
        return {"legal": self._need().legal()}

    def _act(self, request: Mapping[str, Any]) -> Answer:
        session = self._need()
        return self._step(session.act(_action(request, session)))

    def _check(self, request: Mapping[str, Any]) -> Answer:
        session = self._need()
        return {"ruling": session.check(_action(request, session)).to_dict()}

    def _explain(self, request: Mapping[str, Any]) -> Answer:
        session = self._need()
        game, state = session.game, session.state
        raw = _field(request, "place", (list, int, str))
        if isinstance(raw, str):
            # As the terminal's `why` reads it: the game's own words ("Salt Pans", "c 2"), else "5,3" or "(5, 3)"
            # for a hex and "3" for a slot or card. Only the names were read: Through the Desert's "(2,0)", as
            # its own texts write a hex, was no place, and Targi's "3" none beside its card 3.
            place = typed_place(game, state, raw)
        else:
            place = place_from_json(raw)
            if isinstance(place, int) and game.unknown_place(state, place) is not None:
                # A place numbered on the board view but named by an id (the desert's spaces): its refusal said
                # "a space is named by its number on the board view, 0 to 39" of the 3 it refused.
                named = game.place_named(state, str(place))
                place = place if named is None else named
            known_place(game, state, place, json.dumps(raw))
        return {"ruling": explain_place(session, place).to_dict()}

    def _rules(self, request: Mapping[str, Any]) -> Answer:
        game_id = _field(request, "game", str, required=False)
        if game_id is None:
            game_id = self._need().game.id
        playing = self.session.game if self.session is not None else None
        # The game in progress is refereed on the rulebook it began with, even after a café edit.
        game = playing if playing is not None and playing.id == game_id else create(game_id, self.cafe_dir)
        rulebook = game.rulebook
        clause = _field(request, "clause", str, required=False)
        search = _field(request, "search", str, required=False)
        if clause is not None:
            return {"clause": rulebook.typed(clause).to_dict()}  # any case, as the terminal and `rules` take it
        if search is not None:
            found = rulebook.lookup(search)
            return {"clauses": [c.to_dict() for c in found.clauses], "every": found.every}
        return {"rules": rulebook.to_dict()}

    def _score(self, request: Mapping[str, Any]) -> Answer:
        session = self._need()
        return {"score": session.game.score(session.state)}

    @staticmethod
    def _step(step: Step) -> Answer:
        answer: Answer = {"events": [e.to_dict() for e in step.events]}
        if step.action is not None:
            answer["action"] = step.action
        if step.note:
            answer["note"] = step.note
        if step.rules:  # an undo's: the clauses of what its note says was taken back
            answer["rules"] = list(step.rules)
        return answer


def _lines(stdin: BinaryIO, limit: int) -> Iterator[bytes | None]:
    """Each line as read, or None for one longer than ``limit`` bytes, whose rest is read and dropped.

    Reading in pieces of at most ``limit`` bytes keeps memory bounded however long the line.
    """
    while raw := stdin.readline(limit + 1):
        if len(raw) <= limit or raw.endswith(b"\n"):
            yield raw
            continue
        while raw and not raw.endswith(b"\n"):
            raw = stdin.readline(limit + 1)
        yield None


def serve(referee: Referee, stdin: BinaryIO, stdout: TextIO, max_line: int = MAX_LINE_BYTES) -> None:
    """Answer each line until end of input; blank lines are skipped, never fatal."""
    for raw in _lines(stdin, max_line):
        if raw is None:
            answer = referee._error(BadRequest(f"the line is longer than {max_line} bytes; it was skipped"))
        elif not raw.strip():
            continue
        else:
            answer = referee.handle_line(raw.rstrip(b"\r\n"), cut=not raw.endswith(b"\n"))
        stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        stdout.flush()
