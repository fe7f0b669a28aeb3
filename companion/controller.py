"""The one place where observations become session actions.

Every input (camera, serial sensor, buttons, touch) goes through one queue, so
confidence, confirmation and duplicate readings are handled once, and every
output (screen, voice, lights) hears about the result through one fan-out. It
is thread safe at its edge: adapters call ``submit`` from their own threads;
the owner of the session calls ``pump`` from its main loop.
"""

from __future__ import annotations

import json
import logging
import numbers
import queue
import random
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from companion.choice_walk import ChoiceWalk, Pick, Words
from companion.errors import CompanionError, NoGame, quoted
from companion.field_words import allowed_words
from companion.game import Action, Pending, normalize_action
from companion.observations import (
    CONFIRM_BELOW,
    DOWN_PREFIX,
    HELD_PREFIX,
    ButtonPressed,
    CardsSeen,
    DieRead,
    LinkChanged,
    Observation,
    RollStarted,
    Touch,
    Update,
    link_text,
    malformed,
    table_text,
)
from companion.phrases import number_runs
from companion.places import explain_place, known_place, place_to_json
from companion.session import Session

Output = Callable[[Update], None]
log = logging.getLogger(__name__)


def _same_action(offered: Mapping[str, Any], wanted: Mapping[str, Any]) -> bool:
    """Whether a reading is this offered action, value for value and of the same type.

    With == alone a die read as 3.0 or True was the offered 3 or 1, and was
    applied although the same value typed is refused ("not 3.0").
    """
    return all(type(offered.get(k)) is type(v) and offered.get(k) == v for k, v in wanted.items()) and all(
        k in wanted for k in offered if k != "text"
    )


GAME_TAPS = frozenset({"act", "confirm", "reject", "undo", "redo"})  # Touch intents that change the game
GAME_PRESSES = frozenset({"confirm", "roll", "undo"})  # ButtonPressed intents that change the game
PLAYING_PRESSES = GAME_PRESSES | {"next"}  # and those that play, moving the highlight confirm takes


def _changes_the_game(observation: Observation) -> bool:
    """Whether a player's tap or press would change the game or its waiting reading (a check or a "next" does
    not), and so must have been made on the game the screen showed."""
    if isinstance(observation, Touch):
        return observation.intent in GAME_TAPS
    return isinstance(observation, ButtonPressed) and observation.intent in GAME_PRESSES


def _plain(value: Any) -> Any:
    """A reader's whole number as the int the game offers (numpy's int64 is one); anything else as it came."""
    return int(value) if isinstance(value, numbers.Integral) and not isinstance(value, bool) else value


def _shown(value: Any, face: Mapping[str, Any] | None) -> str:
    """A roll as the table says it: the value, then its face's data ("4", "X red")."""
    return f"{value}" + (" " + " ".join(str(v) for v in face.values()) if face else "")


def _joined(first: CardsSeen | None, then: CardsSeen | None) -> CardsSeen | None:
    """Cards seen at two moments as one reading: the later card for a slot, and the less sure confidence."""
    if first is None or then is None:
        return then or first
    return replace(then, slots={**first.slots, **then.slots}, confidence=min(first.confidence, then.confidence),
                   twins={**first.twins, **then.twins},
                   first_seen=(first.first_seen - then.slots.keys()) | then.first_seen)


class Controller:
    def __init__(
        self,
        session: Session | None = None,
        outputs: list[Output] | None = None,
        confidence_threshold: float = CONFIRM_BELOW,
        app_dice: random.Random | None = None,
        wake: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session = session
        self.outputs: list[Output] = list(outputs or [])
        self._outputs_failed: set[str] = set()  # the outputs already logged as failing
        self.confidence_threshold = confidence_threshold
        self.app_dice = app_dice
        self.wake = wake
        self.proposal: Action | None = None
        self.proposal_text = ""  # the prompt of a proposal, repeated while it waits
        self.selected = 0
        self.walk = ChoiceWalk()  # the button box's place in a long list, by place
        self.links: dict[str, bool] = {}
        self._inbox: queue.Queue[Observation] = queue.Queue()
        self._settled: dict[str, tuple[Any, Any]] = {}
        # The readers whose settled dice were lying there when a step was taken back, or a new game began, with
        # which ("the undo", "the new game"): the same dice told again are named as lying since then, not taken
        # (`_die_read`), until a throw or a redo.
        self._lay_at: dict[str, str] = {}
        # Cards seen together with one that now waits for its tap: taken up once that tap is given.
        self._cards_later: CardsSeen | None = None
        # The table was told this game to clear the cards lying in its slots before its first draw (`_before_text`).
        self._before_said = False
        self._changes = 0  # changes of the game or of the waiting reading, for taps made before they showed
        self._change_text = ""  # what the last change was, when it was a step
        self._lit = 0  # moves of the button box's highlight, for a confirm pressed before the screen showed one
        self._lit_text = ""  # what the last move lit
        self.clock = clock  # the readers' clock: a throw's start (`DieRead.thrown_at`) is told on it
        self._rolling_since: dict[str, float] = {}  # a sensor's throw in the air: when it said it began
        self._by_hand: tuple[float, str] | None = None  # the last roll, when it was entered by hand: when, and what
        self._taken_at: dict[int, float] = {}  # when each step of the game was taken here, by its place in the log
        # The last undo's span: from when the earliest step it took back was taken to when it was made. A throw
        # that began in it was meant for the game as it stood before the undo (`_die_read`).
        self._went_back: tuple[float, float] | None = None
        self._undone = 0  # steps taken back since, and not put back by a redo: none, and the game is as it was
        # Asked before a button press may play (`_button`): None lets it, else the answer's kind and words. The
        # app's, as only it knows whether the game is on screen; a terminal referee always shows the game.
        self.button_gate: Callable[[str], tuple[str, str] | None] | None = None

    # -- the edge ---------------------------------------------------------
    def submit(self, observation: Observation) -> None:
        """Queue an observation from any thread, and wake the owner's loop if it asked to be woken.

        The wake hook lets a loop that also waits on something else (typed lines,
        a UI clock) sleep on its own queue instead of polling this one.
        """
        self._inbox.put(observation)
        if self.wake is not None:
            self.wake()

    def pump(self, limit: int | None = None) -> list[Update]:
        """Handle queued observations in order, on the caller's thread."""
        return self._batch(None, limit)

    def wait_and_pump(self, timeout: float) -> list[Update]:
        """Block until one observation arrives (or timeout), then handle all queued."""
        try:
            first = self._inbox.get(timeout=timeout)
        except queue.Empty:
            return []
        return self._batch(first, None)

    def _batch(self, first: Observation | None, limit: int | None) -> list[Update]:
        """Handle what is queued as one batch, whose answers no player sees before the batch ends.

        The screen shows an answer only once the loop that pumps gets back to
        drawing, so a tap queued behind a reading that changed the game (a die
        applied, a new reading waiting for its tap) was given to what the screen
        showed before: taken, a confirm tapped for a 4 took the re-rolled 5
        nobody had seen, and a roll entered by hand while the camera's reading
        of the same throw waited was applied twice, to two players. Such a tap
        is answered, not taken (`_unseen`).
        """
        shown = self._changes  # the game and the waiting reading as the players last saw them
        lit = self._lit  # and the choice the button box had lit
        updates: list[Update] = []
        while limit is None or len(updates) < limit:
            if first is not None:
                observation, first = first, None
            else:
                try:
                    observation = self._inbox.get_nowait()
                except queue.Empty:
                    break
            unseen = self._changes != shown and _changes_the_game(observation)
            # Next and confirm pressed together (or confirm before the screen redrew): confirm took the choice
            # next had just lit, which nobody had seen. Only what confirm takes moved; other taps stand.
            relit = not unseen and self._lit != lit and isinstance(observation, ButtonPressed) and (
                observation.intent in ("confirm", "roll")) and self.proposal is None
            updates.append(self._answer(observation, unseen, relit))
        return updates

    def add_output(self, output: Output) -> None:
        self.outputs.append(output)

    def set_session(self, session: Session) -> Update:
        late: list[Observation] = []
        if self.session is not session:
            # What is queued was read, or pressed, for the game (or the screen) before this one.
            late = self._drop_queued_readings(readings=self.session is not None)
        self.session = session
        self.proposal = self._cards_later = self._by_hand = self._went_back = None
        self._before_said = False
        self._taken_at.clear()
        self._undone = 0
        self._new_list()
        # The dice told last still lie there: told again with no throw between (a sensor's state sent again once
        # its port reopens), they were taken as the new game's first roll, nobody having thrown. Named instead.
        since = "the new game" if not session.log else "the game was opened again"
        self._lay_at = dict.fromkeys(self._settled, since)
        self._changed("a new game began")
        update = self._publish(Update("new_game", session.pending().text, pending=session.pending()))
        self._refuse_late(late)
        return update

    def set_aside(self) -> None:
        """No game on the table any more, as after a restart over a finished game: what was queued or
        waiting for it is dropped with it, link reports aside. Nothing is published: the owner of the
        session (the app) shows what comes instead."""
        if self.session is None:
            return
        late = self._drop_queued_readings()
        self.session = None
        self.proposal = self._cards_later = self._by_hand = self._went_back = None
        self._taken_at.clear()
        self._undone = 0
        self._new_list()
        # The dice told last are kept (they still lie there): the next game names them (`set_session`).
        self._lay_at.clear()
        self._changed("the game was set aside")
        self._refuse_late(late)

    def _drop_queued_readings(self, readings: bool = True) -> list[Observation]:
        """Forget what was queued for the game before, so its die does not become the new game's first roll;
        the taps and presses that would have changed that game are returned, to be answered (`_refuse_late`).

        The terminal asks a new game's questions without pumping, so a die read
        meanwhile waited in the queue. Link reports are kept: they describe the
        sensors, which stay the same from game to game; with ``readings`` False
        (no game before) everything else is kept too.
        A confirm pressed just as a new game started was dropped here without a
        word, and the player could not tell whether the box had heard it.
        """
        kept, late = [], []
        while True:
            try:
                observation = self._inbox.get_nowait()
            except queue.Empty:
                break
            if _changes_the_game(observation):
                late.append(observation)
            elif isinstance(observation, LinkChanged) or not readings:
                kept.append(observation)
        for observation in kept:
            self._inbox.put(observation)
        return late

    def _refuse_late(self, late: list[Observation]) -> None:
        """Say, for each tap or press made for the game just replaced, that it was not taken and why."""
        for observation in late:
            self._publish(Update("refused", self._unseen(observation), pending=self._pending()))

    # -- dispatch ---------------------------------------------------------
    def handle(self, observation: Observation) -> Update:
        """One observation's answer, published; whatever it is, the loop that sent it goes on.

        Every state change happens only once the session has taken the action,
        so a refusal leaves the game, and a question waiting for its tap, as
        they were. An observation whose handling fails in a way nobody foresaw
        is refused by the type of that failure: one bad reading must not stop
        the referee with the game in the middle.
        """
        return self._answer(observation)

    def _answer(self, observation: Observation, unseen: bool = False, relit: bool = False) -> Update:
        """`handle`, for a tap that came after a change the screen had not yet shown (`unseen`) too, or a
        confirm pressed after the button box lit another choice the screen had not shown (`relit`)."""
        problem = malformed(observation)
        if unseen and not problem:
            problem = self._unseen(observation)
        elif relit and not problem:
            problem = (f"This press of {quoted(getattr(observation, 'intent', ''))} was not taken: the button box lit "
                       f"{self._lit_text} just before it, and the screen had not shown that yet. Look again, "
                       "then press confirm again if that is the choice meant.")
        try:
            update = Update("refused", problem, pending=self._pending()) if problem else self._dispatch(observation)
        except CompanionError as error:
            rules = (error.rule,) if error.rule else ()
            update = Update("refused", error.message, pending=self._pending(), rules=rules)
        except Exception as error:  # the last guard: the session changes atomically, only after all checks
            failure = f"{type(error).__name__}: {error}"
            text = f"this {type(observation).__name__} could not be handled ({failure}); nothing was changed"
            update = Update("refused", text, pending=self._pending())
        if self.proposal is not None and update.kind in ("refused", "unapplied"):
            # A refusal must not hide the reading that still waits for its tap, nor make it look dropped. One
            # without a stop of its own ("... shows 1 to 6, not 9", a clause cited after it) gets one: run on into
            # "not 9 Still waiting:", the screen read as one sentence and the voice said it without a pause.
            said = update.text.rstrip()
            said = said if said[-1:] in ".!?" else f"{said}."
            update = replace(update, text=f"{said} Still waiting: {self.proposal_text}")
        return self._publish(update)

    def _unseen(self, observation: Observation) -> str:
        """Why a tap or button press was not taken: the game changed just before it, before any screen showed it."""
        tap = isinstance(observation, Touch)
        what = "tap" if tap else f"press of {quoted(getattr(observation, 'intent', ''))}"
        change = f"the game changed just before it ({self._change_text})" if self._change_text else (
            "a new reading came just before it")
        return (f"This {what} was not taken: {change}, and the screen had not shown that yet. "
                f"Look again, then {'tap' if tap else 'press'} again if it is still meant.")

    def _changed(self, text: str = "") -> None:
        """Count a change of the game or of the reading that waits for its tap (`_batch`); `text` says what
        changed, when it was a step rather than a new question."""
        self._changes += 1
        self._change_text = text

    def _dispatch(self, observation: Observation) -> Update:
        if isinstance(observation, LinkChanged):
            was_up = self.links.get(observation.source)
            # The owner's words are the update's text (settings screen, log, the terminal's hw commands); the
            # players' are its detail's "table" (the app's status line): `observations.table_text`.
            text, table = link_text(observation, was_up), table_text(observation, was_up)
            if observation.note and observation.detail:  # the link stays as last told (`LinkChanged.note`)
                return Update("link", text, pending=self._pending(),
                              detail={"source": observation.source, "up": was_up, "note": True, "table": table})
            self.links[observation.source] = observation.up
            came_up = observation.up and not was_up  # news of the link itself, not of a problem
            standing = {"standing": True} if observation.standing else {}  # the owner's to mend (`LinkChanged`)
            return Update("link", text, pending=self._pending(), detail={
                "source": observation.source, "up": observation.up, "table": table, "came_up": came_up, **standing})
        if isinstance(observation, RollStarted):
            self._settled.pop(observation.source, None)
            self._lay_at.pop(observation.source, None)
            self._rolling_since[observation.source] = self.clock()
            return Update("info", "Dice rolling.", pending=self._pending())
        if isinstance(observation, ButtonPressed) and observation.intent.startswith(HELD_PREFIX):
            return self._held(observation.intent.removeprefix(HELD_PREFIX))
        if isinstance(observation, ButtonPressed) and observation.intent.startswith(DOWN_PREFIX):
            return self._down_at_start(observation.intent.removeprefix(DOWN_PREFIX))
        session = self._need_session()
        if isinstance(observation, DieRead):
            return self._die_read(session, observation)
        if isinstance(observation, CardsSeen):
            return self._cards_seen(session, observation)
        if isinstance(observation, ButtonPressed):
            return self._button(session, observation.intent)
        assert isinstance(observation, Touch)  # malformed() has refused anything else
        return self._touch(session, observation)

    def _need_session(self) -> Session:
        if self.session is None:
            raise NoGame("no game in progress")
        return self.session

    def _pending(self) -> Pending | None:
        return self.session.pending() if self.session else None

    # -- readings ---------------------------------------------------------
    def _die_read(self, session: Session, read: DieRead) -> Update:
        value = _plain(read.value)
        key = (value, tuple(sorted((read.face or {}).items())))
        since = self._rolling_since.pop(read.source, None)
        pending = session.pending()
        lay = self._lay_at.get(read.source)
        if self._settled.get(read.source) == key and lay is not None and pending.kind == "roll":
            return self._lay_before(pending, _shown(read.value, read.face), lay)
        if self._settled.get(read.source) == key and lay is None:
            return Update("info", "Same dice as before; waiting for a new roll.", pending=pending)
        # Dice lying since an undo or a new game, told where no roll is awaited: answered as any die then (a game
        # without dice says to take it away), not as a roll still to come.
        wanted: dict[str, Any] = {"type": "roll", "value": value}
        # A colour matters only to a die whose faces have one; a sensor that also names a plain die's colour
        # still rolled its value.
        if read.face and any("face" in a for a in session.legal() if a.get("type") == "roll"):
            wanted["face"] = dict(read.face)
        elif not read.face:
            # A value only one face shows needs no colour read: the temple's X is white, as the game itself
            # takes it, and `hw simulate-dice` sends it so ("roll X d20"); the table was told its colour was not read.
            faces = [a["face"] for a in session.legal() if a.get("type") == "roll" and "face" in a
                     and _same_action({"value": a.get("value")}, {"value": value})]
            if faces and all(face == faces[0] for face in faces):
                wanted["face"] = dict(faces[0])
        shown = _shown(read.value, read.face)
        thrown = read.thrown_at if read.thrown_at is not None else since
        if self._by_hand is not None and thrown is not None and thrown < self._by_hand[0]:
            return self._entered_already(session, shown, self._by_hand[1])
        if pending.kind != "roll":
            # A game without dice never waits for one: "no roll is expected now" promised a roll to come.
            later = "no roll is expected now" if session.game.dice else "this game rolls no dice: take it away"
            return Update(
                "unapplied",
                f"A die showing {shown} was read, but {later} ({pending.text}).",
                pending=pending,
                detail={"source": read.source, "value": read.value},
            )
        if self._went_back is not None and thrown is not None and self._went_back[0] < thrown < self._went_back[1]:
            # Red's roll taken back while Blue's die was in the air: Blue's throw became Red's roll. The undone
            # roll's own throw, read late, began before that roll was taken and still counts.
            return Update("unapplied", f"The die reads {shown}, but that throw began before the undo, so it was "
                          "meant for the game as it stood then and is not taken now. Throw again, or enter the roll "
                          f"by hand ({pending.text}).", pending=pending,
                          detail={"source": read.source, "value": read.value})  # fmt: skip
        other_die = self._other_die(session, read.die, pending.die)
        if other_die:
            return Update("unapplied", other_die, pending=pending, detail={"source": read.source, "die": read.die})
        if read.dice > 1:
            return Update(
                "unapplied",
                f"{read.dice} dice are in the tray, but this game rolls one die at a time. "
                "Take the extra dice out so only the rolled one stays.",
                pending=pending,
                detail={"source": read.source, "dice": read.dice},
            )
        match = next((a for a in session.legal() if _same_action(a, wanted)), None)
        shows = self._die_shows(session, pending.die, value) if match is None else ""
        if shows:  # before its colour: a temple die read as "Y" was asked for the colour it was not read with
            _, rules = self._why_not(session, wanted, "")
            return Update("unapplied", f"The die reads {shown}: {shows}; not applied.", pending=pending, rules=rules)
        colours = sorted({str(a["face"].get("colour")) for a in session.legal()
                          if a.get("type") == "roll" and isinstance(a.get("face"), dict) and "colour" in a["face"]})
        if match is None and colours and "face" not in wanted:
            # The game would answer with how its action is spelt ('a roll needs "face": ...'), which the
            # table heard aloud; what it lacks is a reading of the colour.
            return Update("unapplied", f"The die reads {shown}, but its colour ({' or '.join(colours)}) was not "
                          "read: roll again, or enter it by hand.", pending=pending)  # fmt: skip
        said = read.face.get("colour", colours[0]) if read.face and colours else None
        if match is None and said is not None and str(said) not in colours:
            # A colour the die has not (a misread, a reader taught another die): the game's answer spelt the
            # action ('a roll needs "face": {"colour": "red"} ...') at the table.
            return Update("unapplied", f"The die reads {shown}, but this game's die is {' or '.join(colours)}: roll "
                          "again, or enter it by hand.", pending=pending)  # fmt: skip
        if match is None:
            text, rules = self._why_not(session, wanted, "this game's die has no such face.")
            return Update("unapplied", f"The die reads {shown}, not applied: {text}", pending=pending, rules=rules)
        if self._unsure(read.confidence):
            update = self._propose(session, match, f"The die looks like {shown}. Tap to confirm or correct it.",
                                   self._unsure_text(read.source, f"{shown}", read.confidence))
        else:
            update = self._act(session, match)
        # Only now: a roll the journal refused, remembered as taken, made the same die "Same dice as before".
        self._settled[read.source] = key
        self._lay_at.pop(read.source, None)
        return update

    @staticmethod
    def _lay_before(pending: Pending, shown: str, since: str) -> Update:
        """The dice a reader told last, told again after an undo or a new game (``since``) with no throw between:
        they lie as they lay.

        Undo forgot the dice seen, so a sensor that tells its state again (on
        reconnecting, or firmware repeating itself) had the 3 whose roll was
        just taken back as a misread taken as the roll again; a new game
        forgot them too, and took the last game's die as its first roll.
        Named as the camera names dice lying in view when it comes back; a
        roll that is meant is thrown again, or entered by hand (or put back
        with redo).
        """
        return Update("info", f"{shown} already lay there before {since}: not taken as a roll. Throw the die to "
                      f"roll, or enter {shown} by hand if that is the roll ({pending.text.rstrip('.')}).",
                      pending=pending)

    @staticmethod
    def _entered_already(session: Session, shown: str, entered: str) -> Update:
        """A reading of a throw that began before the roll last entered by hand: that throw, read late.

        A hand over the tray keeps the camera from settling, so a player who
        entered the roll meanwhile had it applied twice: the late reading was
        taken as the next player's throw. Only a throw that began after the
        entry is a new one.
        """
        if shown == entered:
            return Update("info", f"The die reads {shown}, as this throw was entered by hand.",
                          pending=session.pending())
        return Update("unapplied", f"The die reads {shown}, but this throw was entered by hand as {entered} before "
                      f"it was read, so it is not taken as another roll. If {entered} was wrong, undo it and enter "
                      f"{shown}.", pending=session.pending())  # fmt: skip

    def _unsure(self, confidence: float) -> bool:
        """Whether a reading waits for a tap. A confidence that is no number from 0 to 1 (NaN, a reader's
        percent) says nothing about the reading, so it is asked, never taken as sure."""
        return not self.confidence_threshold <= confidence <= 1

    @staticmethod
    def _die_shows(session: Session, rolled: str | None, value: object) -> str:
        """What the rolled die shows, "the Oracle (d6) shows 1 to 6", when ``value`` is none of its faces; else "".

        The table was told what a typist is told: "The die reads X, not applied: roll: say which number the die
        shows (1 to 6), not 'X'", an instruction to type a field, run on after the reading, for a die that only
        read wrong. Compared by kind as well as value: a reading of 3.0 or True is no face of a die showing 3 or 1.
        """
        spec = next((d for d in getattr(session.game, "dice", ()) if d.id == rolled), None)
        values = [face.get("value") for face in spec.faces] if spec is not None else []
        if not values or any(type(v) is type(value) and v == value for v in values):
            return ""
        return f"the {spec.name} shows {allowed_words(session.game, session.state, 'value', values)}"

    @staticmethod
    def _other_die(session: Session, read: str | None, rolled: str | None) -> str:
        """Why a reading from another kind of die is not this roll ("" when it may be).

        A sensor names dice by their sides (d6, d20) and a game by its own name
        (Blackpool's "oracle"), so only a side count that differs is known to be
        wrong: a d20's 4 dropped in the tower is not the oracle's 4.
        """
        sides = re.fullmatch(r"d(\d+)", (read or "").lower())
        spec = next((d for d in getattr(session.game, "dice", ()) if d.id == rolled), None)
        faces = len(spec.faces) if spec is not None else 0
        if sides is None or not faces or int(sides[1]) == faces:
            return ""
        return f"A {read} was read, but this roll needs the {spec.name}, which has {faces} sides; roll that die."

    def _cards_seen(self, session: Session, seen: CardsSeen) -> Update:
        """A card laid in a slot: a change of that slot, or, while the game waits for a draw, the card drawn.

        An emptied slot (None) is only the first half of a change (card lifted,
        new card laid), so it is never an action by itself. A card the game
        cannot take is answered as a typed one is, with the game's reason and
        clause; a drawn card laid in another slot than the one the game fills
        is refused, or the game's board and the table's would part.
        """
        asked = self._asked_slot(session)
        if asked is not None:
            # A card waits for its tap: cards laid in other slots meanwhile wait with it. Judged now, a draw laid
            # in the next slot was told "goes into slot 10: move it there", where the card asked about lay, and
            # was never read again once the tap was given.
            others = {s: c for s, c in seen.slots.items() if s != asked and c is not None}
            if others:
                self._cards_later = _joined(self._cards_later, replace(seen, slots=others))
            if asked not in seen.slots:
                cards = ", ".join(f"slot {s} {c}" for s, c in sorted(others.items())) or "An emptied slot"
                return Update("info", f"Seen: {cards}; taken up once slot {asked}'s card is confirmed.",
                              pending=session.pending())
            seen = replace(seen, slots={asked: seen.slots[asked]})
        legal = session.legal()
        pending = session.pending()
        drawing = pending.kind == "draw"
        slots = self._slots(session)
        if not drawing and slots is None:  # a game without slots takes a card only as a draw
            cards = ", ".join(str(c) for c in seen.slots.values() if c is not None) or "An emptied slot"
            return Update("unapplied", f"{cards} was seen, but no card is expected now ({pending.text})",
                          pending=pending)  # fmt: skip
        refusal: tuple[str, tuple[str, ...]] | None = None
        kept: list[int] = []  # slots holding what the game has there (a card laid back, a board seen afresh)
        left = ""  # a card of a step taken back, lying where it was laid when the readers began (`_left_lying`)
        before: list[int] = []  # cards lying in a new game's slots before its first draw (`_laid_before_the_game`)
        opening = drawing and self._laid_before_the_game(slots)
        for slot, read in sorted(seen.slots.items()):
            if read is None:
                continue
            alike = (read, *seen.twins.get(read, ()))  # a camera cannot tell twins apart: any of them is meant
            if slots is not None and 0 < slot <= len(slots) and slots[slot - 1] in alike:
                kept.append(slot)
                continue
            if slot in seen.first_seen:
                lying = self._left_lying(session, slot, alike, slots)
                if lying:
                    left = left or lying
                    continue
                if opening and slots is not None and 0 < slot <= len(slots) and slots[slot - 1] is None:
                    before.append(slot)
                    continue
            def offered(card: str, slot: int = slot) -> tuple[str, Action, Action | None]:
                # A draw names its deck: without it a desert card from a tag reader was "unknown deck None".
                wanted = ({"type": "draw", "deck": pending.deck, "card": card} if drawing
                          else {"type": "change", "slot": slot, "card": card})
                return card, wanted, next((a for a in legal if all(a.get(k) == v for k, v in wanted.items())), None)

            # The first twin the game can take; refused under the name read.
            card, wanted, match = next((o for o in map(offered, alike) if o[2] is not None), offered(read))
            lands = self._draw_lands(session, match) if drawing and match is not None else None
            if lands is not None and lands[0] != slot:
                refusal = refusal or (f"{card} was laid in slot {slot}, but the card drawn now goes into slot "
                                      f"{lands[0]}: move it there.", lands[1])
                continue
            if match is None:
                if refusal is None:
                    why, rules = self._why_not(session, wanted, "no change the game is waiting for.")
                    refusal = (f"Slot {slot} shows {card}, not applied: {why}", rules)
                continue
            # Cards laid while hands hid the board come in one reading; one step takes one of them and
            # the rest are taken up after it, or every card after the first was lost.
            rest = {s: c for s, c in seen.slots.items() if s != slot and c is not None and s not in kept}
            later = replace(seen, slots=rest) if rest else None
            if self._unsure(seen.confidence):
                update = self._propose(session, match, f"Slot {slot} looks like card {card}. Tap to confirm.",
                                       self._unsure_text(seen.source, f"card {card} in slot {slot}", seen.confidence))
                self._cards_later = _joined(self._cards_later, later)
                return update
            update = self._act(session, match)
            if later is not None:
                self._inbox.put(later)
            return update
        if refusal is not None:  # a question waiting for its tap is repeated after it (handle)
            return Update("unapplied", refusal[0], pending=session.pending(), rules=refusal[1])
        if left:
            return Update("info", left, pending=session.pending())
        if before:
            # Said whole once a game: a tag sensor tells each slot on its own line, and the same advice twelve
            # times over filled the voice's queue for a minute.
            text = self._before_text(before, seen.slots, self._before_said)
            kind = "info" if self._before_said else "unapplied"
            self._before_said = True
            dealt = session.game.slots_dealt_rule
            return Update(kind, text, pending=session.pending(), rules=(dealt,) if dealt else ())
        if kept:
            if len(kept) == 1:
                held = slots[kept[0] - 1] if slots else seen.slots[kept[0]]  # the game's name for a twin
                text = f"Slot {kept[0]} holds {held}, as the game has it."
            else:
                text = f"Slots {', '.join(map(str, kept))} hold the cards the game has there."
            return Update("info", text, pending=session.pending())
        return Update("unapplied", "The cards seen match no change the game is waiting for.", pending=session.pending())

    @staticmethod
    def _left_lying(session: Session, slot: int, alike: tuple[str, ...], slots: list[Any] | None) -> str:
        """What the table is told of a card read in ``slot`` when the readers began (`CardsSeen.first_seen`) that
        a step taken back laid there (a change of that slot, or a draw); "" when no such step was taken back.

        The card tracker starts afresh when the camera restarts (Settings' Save
        with another source, the camera switched off and on, the app started
        again over its journal, a game reopened) and tells every card in view.
        A temple card change taken back with undo, its new card still lying in
        the slot until the old one is put back as the undo asked, was taken
        again as the change made anew, the undo lost. The game's own position
        says what lies in each slot; a card that differs from it because undo
        took it back is named here, and Redo puts the step back. A card laid
        afresh later (the slot seen another way first) is a change, as before.
        """
        for action in reversed(session.taken_back):
            card = action.get("card")
            if card not in alike or action.get("type") not in ("change", "draw"):
                continue
            if action.get("type") == "change" and action.get("slot") != slot:
                continue
            if action.get("type") == "draw" and (Controller._draw_lands(session, action) or (None,))[0] != slot:
                continue
            step = "change" if action.get("type") == "change" else "draw"
            held = slots[slot - 1] if slots is not None and 0 < slot <= len(slots) else None
            mend = f"Put {held} back in slot {slot}" if held else f"Take {card} off slot {slot}"
            return (f"Slot {slot} still shows {card}, from the {step} taken back: not taken again. {mend} as the "
                    f"undo asked, or Redo puts the {step} back.")
        return ""

    @staticmethod
    def _laid_before_the_game(slots: list[Any] | None) -> bool:
        """Whether cards read lying in their slots when the readers began (`CardsSeen.first_seen`) lay there
        before this game's first draw: the game is laying its first path and no slot holds a card yet.

        A new temple game begun with the last game's cards still in the slots
        (the camera's readers made afresh for it, the camera or the app started
        again, a tag sensor telling its slots as its port opened) had every
        card read told, and each was taken as the new game's draw, slot after
        slot: the last game's path, never shuffled, became the
        new one's. The opening draws are cards drawn now and pushed into empty
        slots; a card that lay in its slot through the game's start and never
        moved was drawn for no game of this one. Once the first card is drawn,
        a card read for the first time is judged as before (laid while the
        camera was off, it is evidence).
        """
        return slots is not None and all(card is None for card in slots)

    @staticmethod
    def _before_text(before: list[int], read: Mapping[int, Any], told: bool = False) -> str:
        """The table's words for cards lying in a new game's slots before its first draw: not draws, and what
        to do (the game's ``slots_dealt_rule``: the deck shuffled, a card drawn for each slot), unless ``told``
        already this game."""
        if len(before) == 1:
            named = (f"Slot {before[0]} holds {read[before[0]]}, which lay there before this game began: not "
                     "taken as a draw.")
        else:
            named = (f"Slots {number_runs(before, 'and')} hold cards that lay there before this game began: not "
                     "taken as draws.")
        if told:
            return named
        return (f"{named} Clear the last game's cards off the board and shuffle them into the deck, then lay each "
                "card drawn in its slot.")

    def _asked_slot(self, session: Session) -> int | None:
        """The slot of the card that waits for its tap, if a card's reading waits."""
        proposal = self.proposal
        if proposal is None:
            return None
        if proposal.get("type") == "change" and isinstance(proposal.get("slot"), int):
            return proposal["slot"]
        if proposal.get("type") == "draw":
            lands = self._draw_lands(session, proposal)
            return lands[0] if lands is not None else None
        return None

    @staticmethod
    def _slots(session: Session) -> list[Any] | None:
        """The cards in the game's slots by its position document (slot n at n - 1), for games that keep slots."""
        try:
            slots = session.document().get("slots")
        except Exception:  # a document is the game's to build; a reading must not fail on it
            return None
        return slots if isinstance(slots, list) else None

    @staticmethod
    def _draw_lands(session: Session, action: Action) -> tuple[int, tuple[str, ...]] | None:
        """The slot a draw would fill (and the clauses it cites), from the position it leads to; None if unknown."""
        before = Controller._slots(session)
        try:
            state, events = session.game.apply(session.state, normalize_action(action))
            after = session.game.to_document(state).get("slots")
        except Exception:  # only a check: the act itself reports any refusal
            return None
        if before is None or not isinstance(after, list) or len(after) != len(before):
            return None
        filled = [i + 1 for i, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
        rules = tuple(dict.fromkeys(r for e in events for r in e.rules))
        return (filled[0], rules) if len(filled) == 1 else None

    @staticmethod
    def _why_not(session: Session, wanted: Action, fallback: str) -> tuple[str, tuple[str, ...]]:
        """The game's own refusal of a reading and its clause (a 7 on the oracle: BP-Q5), as a typed roll gets.

        Only a check: nothing is applied or journalled. The fallback covers a reading the rules
        would take but that matches no offered face exactly (a colour the die does not have).
        """
        try:
            ruling = session.check(wanted)
        except CompanionError as refusal:
            return refusal.message, (refusal.rule,) if refusal.rule else ()
        return (fallback, ()) if ruling.legal else (ruling.text, ruling.rules)

    def _propose(self, session: Session, action: Action, text: str, owner: str = "") -> Update:
        """Hold a reading for a player's tap; the question is shown, so the change needs no words of its own.

        ``owner`` is what the café owner's log is told of it (`_unsure_text`): the players read only the question.
        """
        self.proposal = {k: v for k, v in action.items() if k != "text"}
        self.proposal_text = text
        self._changed()
        detail = {"owner": owner} if owner else {}
        return Update("confirm", text, pending=session.pending(), action=self.proposal, detail=detail)

    def _unsure_text(self, source: str, shown: str, confidence: float) -> str:
        """The owner's words for a reading asked rather than taken: which reader, how sure, and the bar it missed.

        The table asks "The die looks like 5. Tap to confirm": a sensor or camera
        asking at every throw needs looking at, and only the log can say so.
        """
        sure = f"{confidence:.0%} sure" if 0 <= confidence <= 1 else f"confidence {confidence!r} (not 0 to 1)"
        return (f"{source}: read {shown} at {sure}, below the {self.confidence_threshold:.0%} taken without a "
                "tap, so the table is asked to confirm it")

    # -- intents ----------------------------------------------------------
    def _button(self, session: Session, intent: str) -> Update:
        pending = session.pending()
        if intent in PLAYING_PRESSES and self.button_gate is not None:
            barred = self.button_gate(intent)
            if barred is not None:  # the game is not on screen: nobody would see what the press did
                return Update(barred[0], barred[1], pending=pending, detail={"off_table": intent})
        if intent in ("confirm", "roll"):
            if self.proposal is not None:
                return self._confirm(session)
            legal = session.legal()
            if pending.kind == "roll" and self.app_dice is not None:
                return self._act(session, session.game.sim_choose(session.state, legal, self.app_dice), by_hand=True)
            if pending.kind == "choose" and ChoiceWalk.by_place(legal):
                return self._walk(session, self.walk.confirm(legal, self._place_words(session)))
            if pending.kind == "choose" and legal:
                return self._act(session, legal[self.selected % len(legal)])
            return Update("info", pending.text, pending=pending)
        if intent == "next":
            if self.proposal is not None:
                # Confirm takes the reading that waits, not a highlighted choice: "slot 2 ... confirm to open"
                # lit here, and confirm then took the waiting card.
                return Update("info", f"A reading waits for its tap: confirm takes it, undo drops it. "
                              f"{self.proposal_text}", pending=pending)  # fmt: skip
            legal = session.legal()
            if not legal or pending.kind != "choose":  # confirm takes only a choice; a face or card would be a lie
                return Update("info", pending.text, pending=pending)
            if ChoiceWalk.by_place(legal):
                return self._walk(session, self.walk.next(legal, self._place_words(session)))
            self.selected = (self.selected + 1) % len(legal)
            self._relit(legal[self.selected]["text"])
            return Update("select", legal[self.selected]["text"], pending=pending, action=legal[self.selected])
        if intent == "undo":
            return self._undo(session)
        if intent in ("menu", "settings"):
            return Update("menu", intent, pending=pending, detail={"intent": intent})
        return Update("refused", f"Unknown button intent {quoted(intent)}", pending=pending)

    def _held(self, button: str) -> Update:
        """A button still down seconds after its press (something resting on it): said once, changing nothing."""
        once = "its hold opened the settings once" if button == "menu" else "that counts as one press"
        return Update("info", f"The {button} button seems held down (is something resting on it?): {once}, and it "
                      "does nothing more until it is let go. The other buttons still work.",
                      pending=self._pending(), detail={"held": button})

    def _down_at_start(self, button: str) -> Update:
        """A button already down when the box started: said once, changing nothing.

        gpiozero tells only changes, so such a button (a cup on it at power-up, a normally-closed switch, a wire
        touching ground) did nothing and said nothing; a normally-closed one even took its press when let go.
        """
        return Update("info", f"The {button} button was already down when the button box started (is something "
                      "resting on it, or is it wired the wrong way round?): that is not taken as a press, and it "
                      "works once it is let go. The other buttons still work.",
                      pending=self._pending(), detail={"held": button, "at_start": True})

    @staticmethod
    def _place_words(session: Session) -> Words:
        return lambda place: session.game.place_words(session.state, place)

    def _relit(self, text: str) -> None:
        """Count a move of the highlight that confirm takes (`_batch`), and say what it lit."""
        self._lit += 1
        self._lit_text = quoted(text)

    def _new_list(self) -> None:
        self.selected = 0
        self.walk.reset()

    def _walk(self, session: Session, pick: Pick | None) -> Update:
        """A long list walked place by place: the pick shown (a place or one of its actions), or taken."""
        pending = session.pending()
        if pick is None:
            return Update("info", pending.text, pending=pending)
        if pick.take and pick.action is not None:
            return self._act(session, pick.action)
        detail = {"place": place_to_json(pick.place)}
        self._relit(pick.text)
        return Update("select", pick.text, pending=pending, action=pick.action, detail=detail)

    def _touch(self, session: Session, touch: Touch) -> Update:
        # The session refuses an action that is no object ("roll 3") in its own words.
        if touch.intent == "act" and touch.action is not None:
            return self._act(session, touch.action, by_hand=True)
        if touch.intent == "check" and touch.action is not None:
            ruling = session.check(touch.action)
            return Update("ruling", ruling.text, pending=session.pending(), rules=ruling.rules, detail=ruling.to_dict())
        if touch.intent == "explain" and touch.place is not None:
            # A place off the board is refused citing the board's clause, as the referee's `explain` and `why` are.
            said = touch.place if isinstance(touch.place, str) else json.dumps(place_to_json(touch.place))
            known_place(session.game, session.state, touch.place, said)
            ruling = explain_place(session, touch.place)
            detail = {**ruling.to_dict(), "place": place_to_json(touch.place)}
            return Update("ruling", ruling.text, pending=session.pending(), rules=ruling.rules, detail=detail)
        if touch.intent == "undo":
            return self._undo(session)
        if touch.intent == "redo":
            step = session.redo()
            self._taken_at[len(session.log)] = self.clock()
            self._undone = max(self._undone - 1, 0)
            if not self._undone:  # every step taken back is put back: a throw made before the undo fits again
                self._went_back = None
            text = step.note  # "Put back: " and what the step said when first taken (`Session._redo_note`)
            if self.proposal is not None:
                # Said, as undo says it: a 5 read after a roll of 3 was undone vanished in silence when redo put
                # the 3 back, and a confirm then tapped for the 5 was told no reading waited.
                text += f" The reading that waited for its tap ({_first_sentence(self.proposal_text)}) is dropped."
            # A reading made for the position before no longer fits.
            self.proposal = self._cards_later = self._by_hand = None
            self._lay_at.clear()  # the roll put back is theirs again: "Same dice as before"
            self._new_list()
            self._changed(text)
            # With the step's clauses, as when first taken: the table's line for it had lost its [TTD-1c].
            rules = tuple(dict.fromkeys(r for e in step.events for r in e.rules))
            return Update("redo", text, tuple(step.events), session.pending(), step.action, rules)
        if touch.intent == "confirm" and self.proposal is not None:
            return self._confirm(session)
        if touch.intent == "reject" and self.proposal is not None:
            return self._drop_reading(session, "Reading dropped; enter the value by hand.")
        if touch.intent in ("confirm", "reject"):
            # A tap on a question the game no longer asks: "nothing to do for 'confirm'" left the player
            # wondering whether the roll went in.
            return Update("refused", f"No reading waits for a tap, so nothing was {touch.intent}ed: a reading "
                          "waiting for its tap is dropped once the game moves on (the roll entered by hand, an "
                          f"undo or redo, a new game). Now: {session.pending().text}", pending=session.pending())
        if touch.intent in ("act", "check"):
            # A tap to act or check that names no action is the referee's missing action: it cites the same
            # clause (what a turn may do, or how a finished game ended), where it cited none.
            rule = session.shape_rule()
            return Update("refused", f"Nothing to do for {quoted(touch.intent)}: the tap names no action",
                          pending=session.pending(), rules=(rule,) if rule else ())
        # An intent the table does not know, or "explain" with no place, is a fault of the screen's software, not
        # a move the rules judge: no clause fits, and none is made up (docs/protocol.md, "Refusals without a clause").
        return Update("refused", f"Nothing to do for {quoted(touch.intent)}", pending=session.pending())

    def _drop_reading(self, session: Session, text: str) -> Update:
        """Forget the reading that waited for its tap, and the cards read with it."""
        self.proposal = self._cards_later = None
        self._settled.clear()
        self._lay_at.clear()
        self._changed("the reading waiting for its tap was dropped")
        return Update("info", text, pending=session.pending())

    def _confirm(self, session: Session) -> Update:
        assert self.proposal is not None
        return self._act(session, self.proposal)  # kept if refused (the journal locked): the tap can be given again

    def _undo(self, session: Session) -> Update:
        """Take back the last step, or first drop a reading that waits for its tap.

        The button box has no reject button: undo was its only way out of a
        doubtful reading, and it took back the step before the reading too.
        """
        if self.proposal is not None:
            return self._drop_reading(session, "Reading dropped; nothing was taken back. Enter the value by hand, "
                                               "or undo again to take back the last step.")
        steps = len(session.log)
        step = session.undo()
        now, taken = self.clock(), self._taken_at.pop(steps, None)
        if taken is not None:  # undos in a row: the span reaches back to the earliest step taken back
            earlier = self._went_back is not None and self._went_back[1] >= taken
            self._went_back = (min(self._went_back[0], taken) if earlier and self._went_back else taken, now)
            self._undone += 1
        self._cards_later = self._by_hand = None  # a roll taken back is no longer entered: its reading may come
        self._new_list()  # a new list of legal actions: next starts again at its first
        # The dice told last still lie there: told again with no throw between, they are named, not taken as the
        # roll again (`_lay_before`). They were forgotten here, and a sensor's state sent again was taken.
        self._lay_at.update(dict.fromkeys(self._settled, "the undo"))
        self._changed(step.note)
        # With the clauses of what the note says was taken back (the step itself, its points, the end), as the
        # step's own line cited them: the list on the screen showed the undo bare.
        return Update("undo", step.note, pending=session.pending(), action=step.action, rules=step.rules)

    def _act(self, session: Session, action: Mapping[str, Any], by_hand: bool = False) -> Update:
        """Take an action; `by_hand` when no reader gave it (a tap, a typed line, the app's own die)."""
        step = session.act(action)  # first: a refused action leaves the question waiting and the list as they were
        self._taken_at[len(session.log)] = self.clock()
        self._undone = 0  # a new step: what was taken back can no longer be put back
        taken = step.action or {}
        if taken.get("type") == "roll":
            face = taken.get("face")
            entered = _shown(taken.get("value"), face if isinstance(face, Mapping) else None)
            self._by_hand = (self.clock(), entered) if by_hand else None
        self.proposal = None
        self._new_list()
        if self._cards_later is not None:  # the tap on a card that waited: the cards read with it come next
            self._inbox.put(self._cards_later)
            self._cards_later = None
        text = " ".join(e.text for e in step.events) or "Done."
        self._changed(text)
        rules = tuple(dict.fromkeys(r for e in step.events for r in e.rules))
        return Update("step", text, tuple(step.events), session.pending(), step.action, rules)

    def _publish(self, update: Update) -> Update:
        for output in self.outputs:
            try:
                output(update)
            except Exception:  # a broken speaker or LED must never stop the game
                # Said once per output: a screen whose refresh raised was left half drawn with no word anywhere,
                # and a speaker unplugged all day must not write a traceback per step.
                name = getattr(output, "__qualname__", repr(output))
                if name not in self._outputs_failed:
                    self._outputs_failed.add(name)
                    log.exception("output %s failed on a %r update; the game goes on without it", name, update.kind)
        return update


def _first_sentence(text: str) -> str:
    """A reading's question without what to tap: "the die looks like 5", from "The die looks like 5. Tap to ..."."""
    first = text.split(". ")[0].rstrip(".")
    return first[:1].lower() + first[1:]
