"""One game in progress: the action log, undo and redo, and the journal.

States are immutable, so the session keeps the state after every action; undo
steps back along that list and redo re-applies the withdrawn action. The
journal records the same steps, and resuming replays them through the rules,
so a resumed game is exactly the one the table last heard announced.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from companion.errors import (
    BadRequest,
    CompanionError,
    IllegalAction,
    InvalidAction,
    InvalidPosition,
    JournalNotWritten,
    NothingToUndo,
    quoted,
)
from companion.field_words import field_asked, odd_field, say_which
from companion.game import (
    Action,
    Event,
    Game,
    Pending,
    Ruling,
    State,
    action_keys,
    action_kinds,
    kind_words,
    normalize_action,
    not_json,
    one_stop,
    unknown_keys,
    wrong_kind,
)
from companion.journal import SEE_RECOVERING, Journal, JournalGame, card_state, in_memory, open_journal, room_note
from companion.journalled_start import journalled_note, read_journalled
from companion.phrases import after_colon
from companion.registry import create
from companion.schema import field_slip, unquote_hint
from companion.takeback import undone

RECORD_FORMAT = "table-companion-record"
RECORD_VERSION = 1  # the record layout this companion writes and reads; a newer one may mean its fields otherwise
_STEP_NEEDS = {"act": "action object", "redo": "undone step to redo"}  # what a journal row of each op must have
CHANCE_TYPES = frozenset({"roll", "draw"})
T = TypeVar("T")  # what the game answers: a ruling, or a step's next state and words


# What a write the journal's card refused leaves undone, said before why (`JournalNotWritten`): the card's words
# alone ("the journal /var/lib/... cannot be written: database or disk is full") left a table unsure whether the
# step it had tapped counted.
NOT_SAVED = {
    "act": "Not saved, so this step is not taken and the game stays at its last saved step",
    "undo": "Not saved, so nothing is taken back and the game stays at its last saved step",
    "redo": "Not saved, so nothing is put back and the game stays at its last saved step",
    "begin": "The new game could not be saved, so it is not begun (the game before stays as it was)",
}


def _say_not_saved(refusal: JournalNotWritten, op: str) -> None:
    """Word ``refusal`` as the table says it: what was not done (`NOT_SAVED`), then the card's fault and what to do."""
    refusal.message = f"{NOT_SAVED[op]}: {refusal.reason}."
    refusal.args = (refusal.message,)


@dataclass(frozen=True)
class Step:
    """The outcome of act, undo or redo, ready to announce."""

    action: Action | None
    events: list[Event]
    note: str = ""
    rules: tuple[str, ...] = ()  # an undo's: the clauses of what its note says was taken back


class Session:
    def __init__(self, game: Game, start: dict[str, Any], initial: State, journal: Journal | None = None) -> None:
        self.game = game
        self.start = start
        self.journal = journal
        self._states: list[State] = [initial]
        self._log: list[Action] = []
        self._redo: list[Action] = []
        self._dropped = 0  # steps taken back that the last step entered ended (``_nothing_to_redo``)
        self._all_put_back = False  # redo has put back every step taken back since the last step entered
        self._game_id: int | None = None
        self._over = game.pending(initial).is_over
        self._pending_of: State | None = None  # the state ``_pending`` was worked out for
        self._pending: Pending | None = None
        self._legal_of: State | None = None  # the state ``_legal`` was worked out for
        self._where_of: State | None = None  # the state ``_where`` was worked out for
        self._where: dict[str, tuple[str, ...]] = {}  # per offered type: the clause allowing it (``_cite``)
        self._legal: list[Action] = []
        self._legal_keys: dict[str, frozenset[frozenset[str]]] = {}
        self._legal_kinds: dict[tuple[str, str], frozenset[str]] = {}
        self.reread = ""  # why a journalled start is read otherwise than journalled (``from_start``), if it is
        self.as_journalled = ""  # the table's note on a journalled start read past today's checks (``from_start``)

    # -- starting ---------------------------------------------------------
    @classmethod
    def new(
        cls,
        game_id: str,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        profile: str | None = None,
        journal: Journal | None = None,
        cafe_dir: Any = None,
    ) -> Session:
        game = create(game_id, cafe_dir)
        players = game.check_players(players)
        resolved = game.resolve_options(options, profile)
        state = game.setup(players, resolved)
        start = {"kind": "new", "players": players, "options": resolved, "profile": profile or "standard"}
        return cls(game, start, state)._begin(journal)

    @classmethod
    def load(
        cls, game_id: str, document: Mapping[str, Any], journal: Journal | None = None, cafe_dir: Any = None
    ) -> Session:
        game = create(game_id, cafe_dir)
        if not isinstance(document, Mapping):
            raise InvalidPosition(["the position document must be a JSON object"])
        if document.get("game", game_id) != game_id:
            raise InvalidPosition([f"the document is a {quoted(document.get('game'))} position, not {quoted(game_id)}"])
        # A field the game's own document does not hold would be dropped unread: Targi's "targii" loaded as though
        # no Targi stood on the board, without a word. Only the desert refused one; now every game does.
        # "profile" names the options' source, which every document may carry (the options are stored in full).
        fields = _document_fields(game)
        unread = [f"unknown field {quoted(key)}{field_slip(key, fields)}" for key in document if key not in fields]
        try:
            state = game.from_document(document)
        except InvalidPosition as refusal:
            # Named beside the reader's problems: a misspelt "turn" was refused as "turn: null is not playing"
            # alone, and the referee looked for the turn that was there, typed "turm".
            said = [p for p in unread if not any(q.startswith(p.partition(" (")[0]) for q in refusal.problems)]
            if not said:
                raise
            raise InvalidPosition([*said, *refusal.problems], refusal.rule) from None
        if unread:
            raise InvalidPosition(unread)
        start = {"kind": "load", "state": game.to_document(state)}
        return cls(game, start, state)._begin(journal)

    @classmethod
    def from_start(
        cls, game_id: str, start: Mapping[str, Any], cafe_dir: Any = None, played_on: bool = True
    ) -> Session:
        """Rebuild the opening position a journal or record describes (no journal attached).

        A loaded position an older companion accepted and this one refuses is read as the game says
        (``Game.old_start``; ``played_on``: steps follow it). Read otherwise than journalled, the session's
        ``start`` holds it as read now and ``reread`` why, so the game is journalled anew on it (``resume_game``).
        Any other start the loader refuses is read as journalled, past its checks, and ``as_journalled`` says so to
        the table: the checks are for a position typed now, and a game journalled before one was added is kept.
        """
        game = create(game_id, cafe_dir)
        if not isinstance(start, Mapping):
            raise BadRequest("the start of the game must be an object (players and options, or a loaded position)")
        reread = as_journalled = ""
        if start.get("kind") == "load":
            document = start.get("state")
            if not isinstance(document, Mapping):
                raise InvalidPosition(["the loaded position of the start must be a JSON object"])
            try:
                state = game.from_document(document)
            except InvalidPosition as refusal:
                old = game.old_start(document, played_on)
                if old is None:
                    # The loader's checks are for a position typed now: one journalled before a check refused it
                    # is read as journalled, and the table told what could not be (``companion.journalled_start``).
                    old = read_journalled(game, document)
                    if old is None:
                        raise
                    as_journalled = journalled_note(game, document, old, refusal)
                elif not played_on:
                    reread = refusal.message
                    start = {"kind": "load", "state": game.to_document(old)}
                state = old
        else:
            players = start.get("players")
            if not isinstance(players, list):
                raise BadRequest("the start of the game must list its players")
            state = game.setup(players, game.resolve_options(game.kept_options(start.get("options")), None))
        session = cls(game, dict(start), state)
        session.reread = reread
        session.as_journalled = as_journalled
        return session

    @classmethod
    def resume(cls, journal: Journal, cafe_dir: Any = None) -> Session | None:
        """The game in progress in the journal, replayed to its last announced step."""
        entry = journal.active_game()
        return cls.from_journal(entry, journal, cafe_dir) if entry else None

    @classmethod
    def from_journal(cls, entry: JournalGame, journal: Journal | None, cafe_dir: Any = None) -> Session:
        session, refusal, _ = cls.replayed(entry, cafe_dir)
        if refusal is not None:
            raise refusal
        return session.attach(journal, entry.id)

    @classmethod
    def replayed(cls, entry: JournalGame, cafe_dir: Any = None) -> tuple[Session, CompanionError | None, int]:
        """The journalled game replayed as far as its steps fit, the refusal that stopped it, and the steps that fit.

        A start that no longer loads is raised: nothing of the game fits then.
        """
        session = cls.from_start(entry.game, entry.start, cafe_dir, played_on=bool(entry.steps))
        for number, (op, action) in enumerate(entry.steps, 1):
            try:
                if op == "act" and isinstance(action, dict):
                    session._apply(action)
                elif op == "undo":
                    session._undo()
                elif op == "redo" and session._redo:
                    session._redo_step()
                else:  # only an edited or damaged row reads like this: name it rather than guess
                    needs = _STEP_NEEDS.get(op, "known op")
                    raise InvalidPosition([f"journal step {number} ({quoted(op)}) has no {needs}"])
            except CompanionError as refusal:
                return session, refusal, number - 1
        return session, None, len(entry.steps)

    def attach(self, journal: Journal | None, game_id: int | None) -> Session:
        """The replayed session, writing its next steps to the journal's game ``game_id``."""
        self.journal = journal
        self._game_id = game_id
        # Replay does not pass through `_record`: a finished game gone back into kept the opening's "not over",
        # and its first undo left the journal's row "over", so the reopened game was lost again at the next start.
        self._over = self.pending().is_over
        return self

    def _begin(self, journal: Journal | None) -> Session:
        self.journal = journal
        if journal is not None:
            data = self.game.data
            status = "over" if self._over else "active"  # with the game's row: one commit, see `_record`
            try:
                self._game_id = journal.begin_game(self.game.id, self.start, data.sources, data.digests, status)
            except JournalNotWritten as refusal:
                _say_not_saved(refusal, "begin")
                raise
        return self

    # -- reading ----------------------------------------------------------
    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def log(self) -> list[Action]:
        return list(self._log)

    @property
    def can_undo(self) -> bool:
        return bool(self._log)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def taken_back(self) -> tuple[Action, ...]:
        """The steps undo took back that redo may still put back, the last taken back last: kept through a
        restart, as the journal replays its undos. What they laid may still lie on the table (`Controller`)."""
        return tuple(self._redo)

    def pending(self) -> Pending:
        # Kept per state, as the legal actions are: every answer, refusal and clause asks for it again, and some
        # games work it out by trying moves (the desert names the rolls that would scare a camel).
        state = self.state
        if self._pending_of is not state or self._pending is None:
            self._pending, self._pending_of = self.game.pending(state), state
        return self._pending

    def legal(self) -> list[Action]:
        # Kept per state: the table lists them, then act and every "why not
        # here?" probe checks an action's keys against them.
        state = self.state
        if self._legal_of is not state:
            self._legal, self._legal_of = self.game.legal_actions(state), state
            self._legal_keys = action_keys(self._legal, self.game.action_shapes, self.game.offered_in_part)
            self._legal_kinds = action_kinds(self._legal)
        return list(self._legal)

    def check(self, action: object) -> Ruling:
        try:
            clean, not_now = self._well_formed(action)
            ruling = self._ruled(lambda: self.game.check(self.state, clean), not_now)
            if not_now is not None and ruling.legal:  # allowed, yet in a shape nothing offered now has
                raise not_now
            self._refuse_odd_kinds(clean, ruling.legal)
        except InvalidAction as refusal:
            self._say_which(refusal, action)
            self._cite(refusal, action)
            self._unquoted(refusal, action)
            raise
        return ruling

    def document(self) -> dict[str, Any]:
        return self.game.to_document(self.state)

    # -- changing ---------------------------------------------------------
    def act(self, action: object, journalled: bool = False) -> Step:
        """Apply, journal, then return what to announce: in that order, always.

        ``journalled`` marks a step read from a game record, which an older companion may have written: a step
        it took that this one no longer offers is then taken as it did (``Game.old_step``); at the table, never.
        """
        nobodys = self.pending().player is None
        try:
            clean, not_now = self._well_formed(action, journalled)
            state, events, old = self._ruled(lambda: self._step(clean, journalled), not_now)
            if not_now is not None:  # the game took it, yet nothing offered now has its shape: not taken
                raise not_now
            if not old:  # an older companion's step is not among the offered ones whose kinds this compares
                self._refuse_odd_kinds(clean, True)
        except InvalidAction as refusal:
            self._say_which(refusal, action)
            self._cite(refusal, action)
            self._unquoted(refusal, action)
            raise
        if nobodys and "player" in clean:
            # A card the table turns up for no one (Targi's centre, the temple's slots, Through the Desert's water
            # holes) is nobody's step: a player's name sent with it (the game has refused one nobody plays) is
            # dropped, so the answer and the journal say no one took it. It was journalled as that player's step.
            clean = {key: value for key, value in clean.items() if key != "player"}
        self._record("act", state, clean)
        self._states.append(state)
        self._log.append(clean)
        self._dropped, self._all_put_back = len(self._redo), False
        self._redo.clear()
        return Step(clean, events)

    def undo(self) -> Step:
        if not self._log:
            raise NothingToUndo("nothing to undo: the game is at its opening position")
        self._record("undo", self._states[-2])
        before = self.state
        action = self._undo()
        self._dropped, self._all_put_back = 0, False
        what, rules, told = self._what_it_did(action)
        try:
            besides = undone(self.game, before, self.state, rules, what, action.get("type") in CHANCE_TYPES, told)
        except Exception:  # only words, as `_what_it_did`'s: the undo is journalled and taken, and must say so
            besides = []
        note = " ".join([self._undo_note(action, what), *(text for text, _ in besides)])
        return Step(action, [], note, tuple(dict.fromkeys([*rules, *(r for _, cited in besides for r in cited)])))

    def redo(self) -> Step:
        if not self._redo:
            raise NothingToUndo(self._nothing_to_redo())
        action = self._redo[-1]
        state, events, _ = self._step(action, True)  # taken once already
        self._record("redo", state)
        self._redo.pop()
        self._all_put_back = not self._redo
        self._states.append(state)
        self._log.append(action)
        return Step(action, events, self._redo_note(events))

    def _nothing_to_redo(self) -> str:
        """Why redo has nothing: "nothing to redo" bare left a table that had just undone, then entered the real
        roll, wondering where the step it took back had gone."""
        if not self._log and not self._dropped:
            return "nothing to redo: no step has been entered yet"
        if self._dropped == 1:
            return "nothing to redo: the step taken back ended when a new step was entered in its place"
        if self._dropped:
            return f"nothing to redo: the {self._dropped} steps taken back ended when a new step was entered"
        if self._all_put_back:
            return "nothing to redo: every step taken back has been put back"
        return "nothing to redo: no step has been taken back since the last one was entered"

    def _well_formed(self, action: object, journalled: bool = False) -> tuple[Action, InvalidAction | None]:
        """A typed or sent action, refused if it carries keys its type does not take (``unknown_keys``); and the
        refusal it still gets if the game allows it, when its keys are one way its type takes (``Game.action_shapes``)
        that no action offered now has.

        That one is the game's to rule on first: a Targi use of a centre card while only border cards may be used
        was "a 'use' action has no 'slot'" (TG-A2), as though a use never names one, where the game says that the
        player has no tribe marker there (TG-A3). Only a refusal by the rules is the game's (``_ruled``); whatever the
        game allows is still refused, so nothing is taken in a shape the position does not offer.

        A step read from a game record (``journalled``) keeps keys an older companion let through, as journal replay
        (``_apply``) does: a journal resumed with such a row was exported to a record ``companion replay`` then
        refused at that step.
        """
        clean = normalize_action(action, self.game.turn_rule)
        self.legal()
        # What JSON cannot carry first: a key that is no text beside one that is cannot be named in order.
        foreign = not_json(clean)
        if foreign is not None:
            raise foreign
        kind = clean["type"]
        odd = None if journalled else unknown_keys(
            clean, self._legal_keys, self.game.action_shapes, lambda key: field_asked(self.game, kind, key),
            kind_words(kind, self.game.kind_names) if isinstance(kind, str) else None)
        if odd is None:
            return clean, None
        sent, ways = frozenset(clean) - {"type", "player"}, self.game.action_shapes.get(clean["type"], ())
        if clean["type"] in self._legal_keys and any(sent <= way for way in ways):
            return clean, odd
        raise odd

    @staticmethod
    def _ruled(ask: Callable[[], T], not_now: InvalidAction | None) -> T:
        """The game's answer, or the key refusal ``not_now`` where the game finds the action malformed too: its
        rule's refusal ("no tribe marker on centre 3-3", TG-A3) says more than the key's, a malformed value's
        ("this action needs a traveller") less than "a 'target' action has no 'opponent'"."""
        try:
            return ask()
        except InvalidAction:
            if not_now is not None:
                raise not_now from None
            raise

    def shape_rule(self) -> str | None:
        """The clause a malformed action cites when no offered action of its type names a closer one: once the
        game is over, the way it ended (``Game.over_rule``: BP-Q30, TG-END2), else what a turn may do
        (``Game.actions_rule``). The referee's missing action and the table's empty tap cite it too."""
        over = self.game.over_rule(self.state) if self.pending().is_over else None
        return over or self.game.actions_rule

    def _unquoted(self, refusal: InvalidAction, action: object) -> None:
        """Add ``; write 3 without quotes`` to the refusal of an action holding a number (or true/false) in quotes
        where the actions offered now hold it bare.

        '{"type": "roll", "value": "3"}' was "the oracle shows 1 to 6, not '3'" [BP-Q5], and a player who had
        typed a 3 could not see what was wrong with it. A text an offered action holds as it is (the temple's
        "X") is no slip; a key no offered action of that type has is left to the refusal.
        """
        kind = action.get("type") if isinstance(action, Mapping) else None
        if not isinstance(kind, str):
            return
        legal = self.legal()
        for key, value in action.items():
            known = self._legal_kinds.get((kind, key)) if isinstance(key, str) else None
            if not isinstance(value, str) or known is None or key in ("type", "player"):
                continue
            if any(a.get(key) == value for a in legal if a["type"] == kind):
                continue
            readings = [t for name, t in (("a whole number", int), ("a number", float), ("true or false", bool))
                        if name in known]
            hint = unquote_hint(value, *readings)
            if hint:
                told = hint[2:]  # "write 3 without quotes"
                refusal.message += f" {told[0].upper()}{told[1:]}." if refusal.message.endswith(".") else hint
                refusal.args = (refusal.message,)
                return

    def _say_which(self, refusal: InvalidAction, action: object) -> None:
        """Say the refusal of an action with a field left out, null or of a kind no offered action holds there in
        the game's words (``field_words.say_which``): "roll: say which number the oracle shows (1 to 6)", where
        it read "the oracle shows 1 to 6, not null", "unknown camel colour null" or '"hex" must be [q, r], two
        integers (axial coordinates)'. The values listed are those offered now; the clause is kept."""
        kind = action.get("type") if isinstance(action, Mapping) else None
        if not isinstance(kind, str) or kind not in self.game.action_shapes:
            return
        sent = {k: v for k, v in action.items() if k != "text"}
        offered = [a for a in self.legal() if a["type"] == kind]
        keys, either = odd_field(self.game, kind, sent, offered, self._legal_kinds)
        if keys:
            players = (self.start or {}).get("players") or ()
            refusal.message = say_which(self.game, self.state, kind, keys, offered, sent, players, either)
            refusal.args = (refusal.message,)

    def _cite(self, refusal: InvalidAction, action: object) -> None:
        """The refusal of a malformed action, with the clause it comes from when the game gave none.

        The brief asks every refusal for its clause, but a game's shape checks ("unknown action type
        'pass'", a slot of '7', a colour of null) cited nothing. A type offered now cites the clause that
        allows it here (``Game.where_rules``, as a `why` does); any other the game's clause on what a turn
        may do (``Game.actions_rule``). After the end any refusal cites the way the game ended: a 'pass' sent
        to a finished Targi cited TG-A1, as if actions were still taken.
        """
        over = self.game.over_rule(self.state) if self.pending().is_over else None
        if over:
            refusal.rule = over
            return
        if refusal.rule:
            return
        kind = action.get("type") if isinstance(action, Mapping) else None
        offered = next((a for a in self.legal() if a["type"] == kind), None)
        where = self._where_rules(offered) if offered is not None else ()
        refusal.rule = where[0] if where else self.shape_rule()

    def _where_rules(self, offered: Action) -> tuple[str, ...]:
        """The clause allowing the offered action now, kept per position and type: each refusal of a malformed
        action of that type asks, and the game rules on the offered action to answer."""
        state, kind = self.state, offered["type"]
        if self._where_of is not state:
            self._where, self._where_of = {}, state
        if kind not in self._where:
            try:
                self._where[kind] = self.game.where_rules(state, offered)
            except CompanionError:  # an offered action the game cannot rule on is its own bug; the turn clause stands
                self._where[kind] = ()
        return self._where[kind]

    def _refuse_odd_kinds(self, clean: Action, allowed: bool) -> None:
        """Refuse an action the game allowed although a value is of a kind no offered action holds there.

        Asked after the game, so a refusal the game gives keeps its clause
        (a die read as 3.0 is refused on the die's clause); this only stops
        what a game let through by comparing loosely, such as the temple's
        ``"slot": 1.0``, announced and journalled as "slot 1.0".
        """
        odd = wrong_kind(clean, self._legal_kinds) if allowed else None
        if odd is not None:
            raise odd

    def _apply(self, action: Action) -> None:
        action = normalize_action(action)  # a journal row is checked as a typed action is: it may be edited
        state, _, _ = self._step(action, True)
        self._states.append(state)
        self._log.append(action)
        self._redo.clear()

    def _undo(self) -> Action:
        if not self._log:
            raise NothingToUndo("the journal undoes more steps than the game has")
        self._states.pop()
        action = self._log.pop()
        self._redo.append(action)
        return action

    def _step(self, action: Action, journalled: bool) -> tuple[State, list[Event], bool]:
        """The game's next state and words for an action, and whether it was an older companion's step.

        An update can stop offering a step that changed nothing (a question whose answers all led to one
        position, or a card that did nothing now acts); a game journalled before still holds the older step, and
        refused, it could no longer be resumed, replayed or exported with its end. The game takes such a step as
        the older companion did and says so (``Game.old_step``); any other refusal stands.
        """
        try:
            state, events = self.game.apply(self.state, action)
        except IllegalAction:
            taken = self.game.old_step(self._states, self._log, action) if journalled else None
            if taken is None:
                raise
            return taken[0], taken[1], True
        return state, events, False

    def _redo_step(self) -> None:
        action = self._redo.pop()
        state, _, _ = self._step(action, True)
        self._states.append(state)
        self._log.append(action)

    def _what_it_did(self, action: Action) -> tuple[str, tuple[str, ...], list[str]]:
        """The first announcement the action made, replayed from the position before it, its clauses, and all
        its announcements in order (whose pieces an undo puts back the other way round, ``takeback.unwound``).

        "The last action is taken back" left a table asking which one; the
        game's own sentence ("Red moves pawn 2 to [4,5]") says it. Replaying is
        pure and cheap; a game that cannot replay it gives no sentence. What
        else the step did that the table must undo by hand (points, the end,
        the turn) is compared apart (`companion.takeback`).
        """
        try:
            _, events = self.game.apply(self.state, action)
        except Exception:  # only words for a note: the undo itself has happened
            return "", (), []
        told = [str(e.text) for e in events if e.text]
        first = next((e for e in events if e.text), None)
        return (str(first.text).rstrip("."), tuple(first.rules), told) if first else ("", (), told)

    @staticmethod
    def _redo_note(events: list[Event]) -> str:
        """A redo said as the step said when first taken, after "Put back:" as an undo's words start "Taken back:".

        Bare, the redone step read on the table's list, the terminal and a client's log as a new move nobody
        had made; every output takes these words from here.
        """
        return "Put back: " + (after_colon(" ".join(e.text for e in events)) or "Done.")

    @staticmethod
    def _undo_note(action: Action, what: str = "") -> str:
        said = f" ({what})" if what else ""
        if action.get("type") in CHANCE_TYPES:
            # A draw is not always a card: Through the Desert's is a water-hole token, and "the card entered
            # last (Water hole at (5,3): a token worth 3)" sent a table looking for a card it never had.
            kind = "the roll" if action["type"] == "roll" else "what was"
            return f"Correction: {kind} entered last{said} is withdrawn; enter what the table really shows."
        return one_stop(f"Taken back: {after_colon(what)}.") if what else "The last action is taken back."

    def _record(self, op: str, after: State, action: Action | None = None) -> None:
        """Journal a step leading to ``after``, with the game's new status in the same commit when it changes.

        Called before the session changes, so a refused write leaves it as it
        was; the status used to be a commit of its own after the step, and a
        full disk between the two refused a step that had in fact been taken.
        """
        over = self.game.pending(after).is_over
        if self.journal is not None and self._game_id is not None:
            status = ("over" if over else "active") if over != self._over else None
            try:
                self.journal.append(self._game_id, op, action, status)
            except JournalNotWritten as refusal:  # first what the table must know: the step is not taken
                _say_not_saved(refusal, op)
                raise
        self._over = over

    # -- records ----------------------------------------------------------
    def export(self) -> dict[str, Any]:
        """A self-contained game record: how it started, every action, and where it ended."""
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game.id,
            "start": self.start,
            "data": self.game.data.sources,
            "actions": self.log,
            "final": self.document(),
        }


def export_game(entry: JournalGame, cafe_dir: Any = None) -> tuple[dict[str, Any], str]:
    """A journalled game's record, and why it lacks a final position when its steps no longer replay, or that its
    start was read past checks added since it was journalled (``Session.as_journalled``).

    The record then holds the actions as journalled and the data sources the
    game began on, so it replays where that data is back.
    """
    try:
        session = Session.from_journal(entry, None, cafe_dir)
        return session.export(), session.as_journalled
    except CompanionError as refusal:
        record = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": entry.game,
            "start": entry.start,
            "data": entry.data,
            "actions": entry.actions(),
            "final": None,
        }
        why = f"its steps do not replay with this café data or this version of the companion ({refusal.message})"
        return record, f"{why}, so it has no final position"


@dataclass(frozen=True)
class Cut:
    """Where a game journalled before an update stops fitting: its steps that still replay, of how many, and the
    step refused. Resuming goes on from there; the results list and the finished game are shown up to there."""

    fits: int  # the journal's rows that replay, undos and redos included: what a copy of the game takes
    total: int  # the steps the game as journalled stands at (`JournalGame.standing`), as a person counts them
    step: str  # the refused step as journalled, quoted
    refusal: CompanionError
    stands: int  # the steps the game stands at after the rows that fit: where it is shown, or goes on, from
    acted: bool = True  # the refused row is a step played, not an undo or redo

    @property
    def refused(self) -> str:
        """Which step was refused, counted as the game stands: "step 11", or "the undo after step 10"."""
        return f"step {self.stands + 1}" if self.acted else f"the {self.step.strip(chr(34))} after step {self.stands}"

    def shown(self, game_id: int, over: bool, detail: bool = True, journal_option: str = "") -> str:
        """The sentence a view adds: how far the game is shown, why no further, and where the original is.

        Shown all-or-nothing, one step that no longer fitted left the results list and the home screen saying
        only that the steps no longer replay: who won was gone, though nearly every step still fitted.
        ``detail`` adds the refused step and its refusal (the terminal's, not the home screen's one line).
        """
        where = "where it ended" if over else "where it was not over yet, so no winner can be told"
        what = f"{self.refused}, {self.step}" if self.acted else self.refused
        why = f" ({what}: {self.refusal.message})" if detail else ""
        return (f"Shown up to step {self.stands} of {self.total}, {where}: the rest no longer fits this version of"
                f" the companion{why}; companion export game.json{journal_option} --id {game_id} keeps the"
                " original.")


def replay_what_fits(entry: JournalGame, cafe_dir: Any = None) -> tuple[Session, Cut | None]:
    """The journalled game replayed, and where it was cut when an update changed the rules' code under it.

    A game is cut at its first step that no longer fits only when its café data is unchanged, at least one step
    fits, and the step was refused as a move (not a damaged or edited row): otherwise the refusal is raised, and
    the game waits whole in the journal for its old data to come back. One path for resuming, the results list
    and the finished game, so each shows the same game.
    """
    session, refusal, fits = Session.replayed(entry, cafe_dir)
    if refusal is None:
        return session, None
    if fits and isinstance(refusal, IllegalAction | InvalidAction) and not changed_kinds(entry, session):
        op, action = entry.steps[fits]
        acted = op == "act"
        return session, Cut(fits, entry.standing(), quoted(action) if acted else quoted(op), refusal,
                            stands=entry.standing(fits), acted=acted)  # fmt: skip
    raise refusal


def adopt_what_fits(journal: Journal, entry: JournalGame, cut: Cut) -> int:
    """Copy the steps of ``entry`` that fit into a new game of the journal, the latest; its id. The game as
    journalled stays whole, set aside under its own id."""
    return journal.adopt(what_fits(entry, cut))


def what_fits(entry: JournalGame, cut: Cut) -> JournalGame:
    """``entry`` up to its steps that fit (`Cut.fits`), their times kept."""
    kept = len(entry.times) == len(entry.steps)
    fits = cut.fits
    return replace(entry, steps=entry.steps[:fits], times=entry.times[:fits] if kept else [])


def resume_game(journal: Journal, cafe_dir: Any = None) -> tuple[Session | None, str]:
    """The game in progress, or None and the reason when it can no longer be replayed.

    Its steps may not replay after the café data it was played on changed, or
    when a row was damaged. The game stays in the journal as it is (with the
    old data back it resumes again) and the table starts without it instead
    of not at all. On unchanged data the companion itself changed (an update
    that no longer takes a step it once offered): the game goes on from the
    last step that fits (`replay_what_fits`, `resume_what_fits`).
    """
    entry: JournalGame | None = None
    try:
        entry = journal.active_game()
        if entry is None:
            return None, ""
        session, cut = replay_what_fits(entry, cafe_dir)
    except CompanionError as refusal:
        return None, _not_resumed(refusal, entry)
    if cut is not None:
        resumed = resume_what_fits(journal, entry, session, cut)
        if resumed is None:
            return None, _not_resumed(cut.refusal, entry)
        return resumed[0], _notes(session.as_journalled, resumed[1])
    if session.reread:
        reread = resume_reread(journal, entry, session)
        if reread is not None:
            return reread
        return None, _not_resumed(InvalidPosition([session.reread]), entry)
    return session.attach(journal, entry.id), _notes(session.as_journalled, changed_data_note(entry, session))


def _notes(*notes: str) -> str:
    """The table's notes on one resumed game, in one line."""
    return " ".join(filter(None, notes))


def resume_reread(journal: Journal, entry: JournalGame, session: Session) -> tuple[Session, str] | None:
    """The game in progress carried on from its loaded start as this version reads it, with no step taken yet.

    Journalled as it was, the next start would read it the older way once steps follow it (``Game.old_start``)
    and replay them on another position. The game is copied with the start as read now, and goes on; the game
    as journalled is kept (abandoned, exported by its number). None when the copy cannot be written.
    """
    why = (f"The game in progress began on a position this version of the companion reads otherwise"
           f" ({session.reread}): it goes on as read now")  # fmt: skip
    kept = f"The game as it was journalled is kept as game {entry.id} (companion export game.json --id {entry.id})."
    copy = replace(entry, start=session.start)
    try:
        game_id = journal.adopt(copy)
    except JournalNotWritten as refusal:
        return _go_on_in_memory(journal, copy, session), f"{why}, {_in_memory_only(refusal)} {kept}"
    except CompanionError:
        return None
    return session.attach(journal, game_id), f"{why}, so check the prompt against the table. {kept}"


def _not_resumed(refusal: CompanionError, entry: JournalGame | None) -> str:
    """The table's note for a game in progress left in the journal, with how to get it out.

    "it stays in the journal" alone left staff to find how to read it back (export, by its number).
    """
    kept = f" as game {entry.id} (companion export game.json --id {entry.id} writes it out)" if entry else ""
    return f"The game in progress could not be resumed ({refusal.message}); it stays in the journal{kept}."


def resume_what_fits(journal: Journal, entry: JournalGame, session: Session, cut: Cut) -> tuple[Session, str] | None:
    """The game in progress carried on from its last step that still fits, after an update changed the rules' code.

    A fix that changes what a game offers can leave a game journalled before it with a step the companion no
    longer takes (a card that now acts where it did nothing). Left unresumed, the table lost its game at the
    next new game. Its steps up to the one refused are copied into a new game that goes on, and the game as
    journalled is kept whole (abandoned, exported by its number). None when the copy cannot be written.
    """
    kept = f"The game as it was journalled is kept as game {entry.id} (companion export game.json --id {entry.id})."
    what = f"its {cut.refused} of {cut.total} ({cut.step})" if cut.acted else f"{cut.refused} of {cut.total}"
    why = (f"The game in progress could not be resumed whole: {what} no longer fits this version of the companion"
           f" ({cut.refusal.message}). It goes on from the step before, with {cut.stands} of its steps")  # fmt: skip
    try:
        game_id = adopt_what_fits(journal, entry, cut)
    except JournalNotWritten as refusal:
        going_on = _go_on_in_memory(journal, what_fits(entry, cut), session)
        return going_on, f"{why}, {_in_memory_only(refusal)} {kept}"
    except CompanionError:
        return None
    return session.attach(journal, game_id), f"{why}: check the board against it. {kept}"


def _go_on_in_memory(journal: Journal, copy: JournalGame, session: Session) -> Session:
    """``session`` going on in a journal in memory holding ``copy``, which the card refused to ``journal``.

    It went on with no journal at all, so nothing but the start-up note said the game was not being saved: the
    table's line that says so for a table started on a full card (`Journal.not_kept`) never came.
    """
    memory = in_memory(card_state(journal.path))
    return session.attach(memory, memory.adopt(copy))


def _in_memory_only(refusal: JournalNotWritten) -> str:
    """The rest of a note for a game that goes on as a copy the card refused (`resume_what_fits`,
    `resume_reread`): in memory, the card's trouble, and what to do (the journal's own game, untouched, is
    copied again at the next start).

    The copy refused on a full card left the game behind at home with the rules' reason alone ("could not be
    resumed (Blue 1 cannot reach ...)"), though the card, not the game, was at fault.
    """
    card = refusal.reason.split("; ", 1)[0]
    mend = ("make room on it (older journals beside it, or whatever filled it: df -h)" if " is full" in card
            else "check the card (dmesg)")  # fmt: skip
    return (f"in memory only, as the copy it goes on in could not be written: {card}. Check the board against it; "
            f"{mend}, then restart the table between games, since the steps played until then end with the app "
            f"({SEE_RECOVERING}).")


def changed_kinds(entry: JournalGame, session: Session) -> list[str]:
    """The kinds of data (board, cards...) whose content changed since the game began."""
    now = session.game.data
    return [kind for kind, digest in entry.digests.items() if kind in now.digests and now.digests[kind] != digest]


def changed_data_note(entry: JournalGame, session: Session) -> str:
    """What changed in the data since the game began, when its steps still replay on the new data.

    A café that edits its board mid-game (a cost, a space) would otherwise be
    refereed on the new file from the next step without anyone noticing.
    """
    now = session.game.data
    changed = changed_kinds(entry, session)
    if not changed:
        return ""
    files = ", ".join(f"{kind} ({now.sources.get(kind, kind)})" for kind in changed)
    return f"The game in progress resumed, but its data changed since it began: {files}. It goes on with the new data."


def open_table(journal_path: Path, cafe_dir: Any = None, resume: bool = True) -> tuple[Journal, Session | None, str]:
    """The journal and the game in progress at start-up, and a note for the table when either failed."""
    journal, note = open_journal(journal_path)
    session, resume_note = resume_game(journal, cafe_dir) if resume else (None, "")
    copy_refused = session is not None and session.journal is not journal  # in memory (`_go_on_in_memory`)
    room = room_note(journal_path, copy_refused) if journal.kept_on_disk else ""
    return journal, session, " ".join(filter(None, (note, resume_note, room)))


def _check_record_version(version: object) -> None:
    """A record from a newer companion is refused by its version, not replayed as this one's layout: read so,
    it was confirmed or refused on fields this version does not know. A hand-made record without one is read
    as this version's."""
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise BadRequest(f"the game record's version must be a whole number 1 or more, not {quoted(version)}")
    if version > RECORD_VERSION:
        raise BadRequest(f"the game record was written by a newer Table Companion (record version {version}; this "
                         f"one reads version {RECORD_VERSION}): replay it there")


def replay_record(record: Mapping[str, Any], cafe_dir: Any = None) -> Session:
    """Rebuild a session from an exported record; refuses one whose end does not match."""
    if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
        raise BadRequest(f"not a game record (expected format {quoted(RECORD_FORMAT)})")
    _check_record_version(record.get("version", RECORD_VERSION))
    for key in ("game", "start", "actions"):
        if key not in record:
            raise BadRequest(f"the game record lacks {quoted(key)}")
    if not isinstance(record["actions"], list):
        raise BadRequest("the game record's actions must be a list")
    session = Session.from_start(record["game"], record["start"], cafe_dir, played_on=bool(record["actions"]))
    total = len(record["actions"])
    for number, action in enumerate(record["actions"], 1):
        try:
            session.act(action, journalled=True)
        except CompanionError as refusal:  # "a d6 shows 1 to 6" alone left a table searching hundreds of actions
            refusal.message = f"action {number} of {total} in the record ({quoted(action)}): {refusal.message}"
            refusal.args = (refusal.message,)
            raise
    final = record.get("final")
    if final is not None and session.document() != final:
        raise InvalidPosition(["replaying the record does not reach its recorded final position"])
    return session


_FIELDS: dict[str, frozenset[str]] = {}


def _document_fields(game: Game) -> frozenset[str]:
    """The fields of a game's position document, read off an opening position (every game writes each field in
    every position), and "profile", which any document may carry."""
    if game.id not in _FIELDS:
        state = game.setup(list(game.colours[: game.min_players]), game.resolve_options({}))
        _FIELDS[game.id] = frozenset(game.to_document(state)) | {"profile"}
    return _FIELDS[game.id]
