"""`companion results`: the games a table finished over the last few café days, who won each, and its id.

The journal keeps every game, but a café owner asking "who won on Saturday?"
could only export the latest game, or one by an id nothing listed, and read
its JSON record, which holds the final position but not the winner's words.
This lists the finished games of the last ``days`` café days (`cafe_day`: a
game ended after midnight belongs to its evening), in the order they were
begun (the journal's own order: a clock set wrong never shuffles them), each
with the sentence that named the winner at the table (`verdict`) and the id
that `companion export --id` takes for its whole record.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from companion.errors import CompanionError
from companion.finished import CAFE_DAY_STARTS, cafe_day, local_moment, read_time, verdict
from companion.journal import Journal, JournalGame
from companion.registry import title_of
from companion.session import replay_what_fits


@dataclass(frozen=True)
class Result:
    """One finished game as the list shows it."""

    id: int
    title: str
    players: tuple[str, ...]
    finished: datetime | None  # local time; None when the journal's time cannot be read
    said: str  # who won, in the table's words; or why that cannot be told

    def line(self, zone: str = "") -> str:
        """The game's line; its time in local time, naming its zone only where it is not ``zone``, the one the
        list's first line names (a game of summer time read in winter)."""
        named = self.finished.tzname() if self.finished else None
        other = f" {named}" if named and zone and named != zone else ""
        when = f"{self.finished:%a %d %b %H:%M}{other}" if self.finished else "(time unknown)  "
        # "Temple path-card race (Ruin) (red, blue)" read badly: the players as a sentence says them.
        names = list(self.players)
        players = f": {', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else "".join(f": {n}" for n in names)
        return f"  {when}  game {self.id}, {self.title}{players}. {self.said}".rstrip()


@dataclass(frozen=True)
class Results:
    """The finished games of the period, and how many others were begun in it without finishing."""

    since: datetime  # the first café day's start, local time
    finished: list[Result]
    abandoned: int  # set aside unfinished (Start new game over them)
    in_progress: list[int]  # ids of games still in play


def _said(entry: JournalGame, cafe_dir: object, journal_option: str = "") -> str:
    """The winner's sentence, replayed from the steps; a game whose café data changed since cannot say it.

    A game journalled before an update whose later steps no longer fit is told up to its last step that fits,
    as it would resume (`replay_what_fits`), with how far and where its original is.
    """
    try:
        session, cut = replay_what_fits(entry, cafe_dir)
    except CompanionError as refusal:
        return f"(its steps no longer replay with this café data or this version of the companion: {refusal.message})"
    pending = session.pending()
    if cut is not None:
        shown = cut.shown(entry.id, pending.is_over, journal_option=journal_option)
        return f"{verdict(pending.text)} {shown}" if pending.is_over else shown
    if not pending.is_over:
        return "(its steps no longer end the game with this café data)"
    return verdict(pending.text)


def results(
    journal: Journal, days: int, cafe_dir: object = None, now: datetime | None = None, journal_option: str = ""
) -> Results:
    """The games whose last step fell in the last ``days`` café days, today's included; ``journal_option``
    (`` --journal FILE``) goes into the export a game shown cut short names (`report`)."""
    moment = local_moment(now)
    first_day = cafe_day(moment) - timedelta(days=days - 1)
    since = datetime(first_day.year, first_day.month, first_day.day, CAFE_DAY_STARTS).astimezone()
    finished: list[Result] = []
    abandoned, in_progress = 0, []
    for summary in journal.summaries():
        game_id, game, status = summary.id, summary.game, summary.status
        at = read_time(summary.last_step_at)
        if status == "active":
            in_progress.append(game_id)
            continue
        if at is None and status != "over":
            continue
        if at is not None and cafe_day(at) < first_day:
            continue
        if status == "abandoned":
            abandoned += 1
            continue
        entry = journal.read_game(game_id)
        if entry is None:  # cannot happen in a journal only this process reads; a row deleted by hand
            continue
        players = entry.start.get("players") if isinstance(entry.start, dict) else None
        names = tuple(str(p) for p in players) if isinstance(players, list) else ()
        finished.append(Result(game_id, title_of(game), names, at, _said(entry, cafe_dir, journal_option)))
    return Results(since, finished, abandoned, in_progress)


def report(found: Results, days: int, journal_option: str = "") -> list[str]:
    """The lines `companion results` prints; ``journal_option`` (`` --journal FILE``) goes into the export it
    names when the journal listed is not the default one, or that export would read another journal."""
    period = "today's café day" if days == 1 else f"the last {days} café days"
    zone = found.since.tzname() or ""
    since = f"since {found.since:%a %d %b} {CAFE_DAY_STARTS:02d}:00{f' {zone}' if zone else ''}"
    if not found.finished:
        lines = [f"No game finished in {period} ({since})."]
    else:
        count = len(found.finished)
        lines = [f"{count} game{'' if count == 1 else 's'} finished in {period} ({since}):"]
        lines += [result.line(zone) for result in found.finished]
    if found.abandoned:
        # "1 more ... over them" under "No game finished" counted more than none, and one game as several.
        count = found.abandoned
        what = "more" if found.finished else "game" if count == 1 else "games"
        lines.append(f"{count} {what} set aside unfinished (a new game started over "
                     f"{'it' if count == 1 else 'them'}), not listed.")
    if found.in_progress:
        games = "game" if len(found.in_progress) == 1 else "games"
        lines.append(f"In play now: {games} {', '.join(str(i) for i in found.in_progress)}.")
    if found.finished:
        lines.append(f"A game's whole record: companion export game.json{journal_option} --id N "
                     "(N: the game's number above).")
    return lines
