"""The journal's last game when it finished: shown at start-up, and gone back into only the same café day.

A finished game is never resumed into play: the table starts at home (the
terminal at its question). Yet when the winning roll was misread and the app
then restarted (the kiosk's watchdog, a power cut, the owner), nobody could
take that roll back any more, and the result was gone from the screen. So the
start names the last game, who won and when it finished, and offers to go
back into it, where undo takes back its last steps as during play (the
game's first undo marks it in play again in the journal).

Only a game of this café day may be gone back into; an older one is shown as
a result alone, so the morning's first table does not inherit last night's
dispute. The café day begins at `CAFE_DAY_STARTS` local time, so a game that
ended after midnight still belongs to its evening. A finishing time later than
the clock (a Pi without a clock of its own keeps its last saved time until the
network sets it, which is what it shows right after a power cut) counts as
this café day, up to `CLOCK_BEHIND_AT_MOST` ahead of it; one further ahead
was written by a clock set wrong (a year typed ahead, then corrected), and one
that cannot be read, are shown as a result only. The day is judged again
when the game is gone back into, on the clock of that moment: a table that
started at 23:00 (or on a clock the owner set forward since) and stood at
home overnight let the morning's first table into last night's game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

from companion.errors import CompanionError, JournalDamaged, NoGame
from companion.journal import Journal, JournalGame
from companion.phrases import how_many
from companion.registry import title_of
from companion.session import Cut, Session, adopt_what_fits, replay_what_fits

CAFE_DAY_STARTS = 5  # the hour (local time) a café day begins: before it, it is still the evening before
# How far a finishing time may lie ahead of the clock and still count as this café day. A power cut sets a
# Pi's clock back to its last hourly save (fake-hwclock), so the evening's last game ends up to an hour
# "in the future"; a clock set an hour or a few wrong (a timezone slip) and corrected is covered too. A time
# further ahead was stamped by a clock set wrong by days or a year: counted as today, that game stayed open
# to Undo on every start until the next game began.
CLOCK_BEHIND_AT_MOST = timedelta(hours=12)


@dataclass(frozen=True)
class FinishedGame:
    """The last game, finished: what to show, and the replayed game to go back into when that is allowed."""

    entry: JournalGame
    title: str
    result: str  # the game's own closing words (who won); "" when its steps no longer replay
    finished: datetime | None  # local time; None when the journal's time cannot be read
    when: str  # "at 22:14", or "on Tue 3 Dec at 22:14" before this café day
    why_not: str  # why it cannot be gone back into; "" when it can
    _session: Session | None = field(default=None, repr=False, compare=False)
    cut: Cut | None = None  # where a game journalled before an update stops fitting: it is shown up to there

    def cut_words(self, detail: bool = True) -> str:
        """How far the game is shown when its later steps no longer fit, and where the original is; else ""."""
        return self.cut.shown(self.entry.id, bool(self.result), detail) if self.cut is not None else ""

    @property
    def reopenable(self) -> bool:
        return not self.why_not

    def words(self) -> str:
        """One line for the home screen and the terminal: which game, when it finished, who won."""
        said = "".join(f" {words}" for words in (self.result, self.cut_words()) if words)
        return f"Last game: {self.title}, finished {self.when} ({how_many(self.entry.standing())}).{said}"

    def headline(self) -> str:
        """The home screen's shorter line: which game, when it finished, and the sentence naming who won."""
        said = "".join(f" {words}" for words in (verdict(self.result) if self.result else "", self.cut_words(False))
                       if words)
        return f"Last game: {self.title}, finished {self.when}.{said}"

    def to_dict(self) -> dict[str, Any]:
        """For the referee protocol's ``last`` command."""
        finished = self.finished.isoformat(timespec="seconds") if self.finished else None
        return {"game": self.entry.game, "title": self.title, "steps": self.entry.standing(), "result": self.result,
                "finished": finished, "reopen": self.reopenable, "why_not": self.why_not,
                "cut": self.cut_words()}  # fmt: skip

    def as_of(self, now: datetime | None = None) -> FinishedGame:
        """This game as judged at ``now`` (the clock's time when None): after the café day it finished in,
        a result only, with its date in ``when``."""
        moment = local_moment(now)
        if self.why_not or same_cafe_day(self.finished, moment):
            return self
        why_not = _too_old(self.finished, moment)
        return replace(self, when=_when(self.finished, False, moment), why_not=why_not, _session=None)

    def reopen(self, journal: Journal | None, now: datetime | None = None) -> Session:
        """The finished game, on its last position, journalling into ``journal`` from its next step on.

        Raises `NoGame` saying why when it is shown as a result only, the café
        day judged at ``now`` (the clock's time when None), not when the game
        was first named.
        """
        judged = self.as_of(now)
        if judged.why_not or judged._session is None:
            raise NoGame(f"the last game ({self.title}) cannot be gone back into: {judged.why_not}")
        game_id = self.entry.id
        if self.cut is not None and journal is not None:  # as a resume goes on: its steps that fit, as a new game
            game_id = adopt_what_fits(journal, self.entry, self.cut)
        return judged._session.attach(journal, game_id)


def verdict(text: str) -> str:
    """The sentences of a game's closing words that say who won (or that nobody did), else all of them.

    Through the Desert's and Targi's closing words give the whole score first:
    on the home screen, beside the colours, the winner fell off the end.
    """
    sentences = re.split(r"(?<=[.!?])\s+", text.strip())
    return " ".join(s for s in sentences if re.search(r"\bwin|\bdraw", s, re.IGNORECASE)) or text.strip()


def cafe_day(moment: datetime) -> date:
    """The café day a moment belongs to, in local time: from `CAFE_DAY_STARTS` to the same hour next day."""
    return (moment.astimezone() - timedelta(hours=CAFE_DAY_STARTS)).date()


def local_moment(now: datetime | None) -> datetime:
    """``now`` (the clock when None) in local time: café days begin at a local hour."""
    return (now or datetime.now(UTC)).astimezone()


def same_cafe_day(finished: datetime | None, moment: datetime) -> bool:
    """Whether a game that finished at ``finished`` may be gone back into at ``moment`` (both aware): the
    same café day, or a finishing time later than the clock by at most `CLOCK_BEHIND_AT_MOST` (a clock that
    went back since, as after a power cut)."""
    if finished is None:
        return False
    return cafe_day(finished) == cafe_day(moment) or timedelta(0) < finished - moment <= CLOCK_BEHIND_AT_MOST


def _too_old(finished: datetime | None, moment: datetime) -> str:
    if finished is None:
        return "the journal does not say when it finished, so it is shown as a result only"
    if finished - moment > CLOCK_BEHIND_AT_MOST:
        ahead = finished - moment
        by = f"{ahead.days} days" if ahead.days > 1 else f"{ahead.total_seconds() / 3600:.0f} hours"
        return (f"its finishing time is {by} ahead of the clock (set wrong then, or now), "
                "so it is shown as a result only")  # fmt: skip
    return f"it finished before this café day began (at {CAFE_DAY_STARTS:02d}:00), so it is shown as a result only"


def read_time(text: str | None) -> datetime | None:
    """A journalled time, aware; None for one that cannot be read, so a hand-edited row is passed over."""
    try:
        moment = datetime.fromisoformat(text or "")
    except ValueError:  # a row edited by hand
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone()


def _when(finished: datetime | None, today: bool, now: datetime) -> str:
    if finished is None:
        return "at a time the journal does not say"
    clock = f"{finished:%H:%M}"
    year = f" {finished.year}" if finished.year != now.year else ""
    return f"at {clock}" if today else f"on {finished:%a} {finished.day} {finished:%b}{year} at {clock}"


def finished_game(journal: Journal | None, cafe_dir: Any = None, now: datetime | None = None) -> FinishedGame | None:
    """The journal's latest game when it is finished (no newer game began since), else None.

    Its steps are replayed here, once: for who won, and as the game to go
    back into. A game whose steps no longer replay (its café data changed)
    is still named, without a result, and cannot be gone back into. One
    journalled before an update whose later steps no longer fit is shown up
    to its last step that fits, as a resume would go on (`replay_what_fits`),
    saying so; when it ended there it may be gone back into, as a copy of
    those steps (the original stays whole under its own id).
    """
    if journal is None:
        return None
    try:
        entry = journal.latest_game()
        if entry is None or entry.status != "over":
            return None
        finished = read_time(journal.last_step_at(entry.id))
    except JournalDamaged:  # a damaged row is the resume's to report, in its words
        return None
    title = title_of(entry.game)
    moment = local_moment(now)
    today = same_cafe_day(finished, moment)
    session, result, why_not, cut = None, "", "", None
    try:
        session, cut = replay_what_fits(entry, cafe_dir)
        pending = session.pending()
        result = pending.text if pending.is_over else ""
        if not pending.is_over:
            why_not = ("its steps that still fit this version of the companion do not end the game" if cut else
                       "its steps no longer end the game with this café data")  # fmt: skip
    except CompanionError as refusal:
        why_not = f"its steps no longer replay with this café data or this version of the companion ({refusal.message})"
    if not why_not and not today:
        why_not = _too_old(finished, moment)
    kept = session if not why_not else None
    return FinishedGame(entry, title, result, finished, _when(finished, today, moment), why_not, kept, cut)
