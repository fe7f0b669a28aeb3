"""The ``companion`` command: terminal referee, protocol, simulation, benchmarks, data.

Adapter packages (hardware, vision, ui) add their own sub-commands through the
``companion.commands`` entry point group, so the core never imports them.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import logging
import os
import shlex
import sys
import time
from collections import Counter
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from companion.bench import bench_game
from companion.data import STDIN, default_cafe_dir, house_dir, parse_json, read_json, validate_path
from companion.errors import CompanionError, InvalidData, JournalDamaged, UnknownGame, quoted
from companion.finished import FinishedGame, finished_game, local_moment, read_time
from companion.interruptible import interruptible_input
from companion.journal import SQLITE_HEADER, Journal, kept_journals, open_journal, reading
from companion.option_types import count, folder, folder_to_fill, named, no_stream, positive
from companion.paths import env_or, user_data_dir, write_whole
from companion.phrases import how_many
from companion.protocol import Referee, serve
from companion.registry import create, game_class, game_classes
from companion.registry import unknown_game as registry_unknown_game
from companion.session import Session, export_game, open_table, replay_record
from companion.simulate import SimulationError, outcome, play_random_game
from companion.terminal import Terminal, ask_new_game, cited, input_still_waiting, split_players


def default_journal_path() -> Path:
    return env_or("COMPANION_JOURNAL", user_data_dir() / "journal.sqlite3")


def cafe_dir(args: argparse.Namespace) -> Path | None:
    """The café folder if it exists; house data alone otherwise.

    The default folder is absent until a café makes one, so its absence is
    quiet; a folder named by ``$COMPANION_CAFE_DIR`` that is not there is a
    typo the café would otherwise never see (``--cafe`` is checked by argparse).
    """
    folder = Path(args.cafe) if getattr(args, "cafe", None) else default_cafe_dir()
    if folder.is_dir():
        return folder
    if not getattr(args, "cafe", None) and os.environ.get("COMPANION_CAFE_DIR"):
        print(f"companion: $COMPANION_CAFE_DIR {folder} is not a folder; using the house data", file=sys.stderr)
    return None


def _read(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        if prompt:  # the input ended at a question: what is said next starts on a line of its own
            print()
        return None


def tolerant_stdin() -> None:
    """Typed bytes that are not UTF-8 (a terminal left on Latin-1) become U+FFFD, so the line is answered
    'Not understood' instead of raising out of ``input`` and ending the session.

    Under a UTF-8 locale such as Raspberry Pi OS's en_GB.UTF-8, Python reads stdin strictly.
    """
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")


Attach = Callable[[Terminal], Callable[[], None]]


def _not_resumed_with(args: argparse.Namespace, session: Session) -> str:
    """The --players and --profile given that the game resumed was not begun with, said, or "".

    `play --game blackpool --players yellow,green` over a Blackpool game of red and blue resumed red and blue's
    game without a word, and the table played on as if the colours it named were at the table.
    """
    start = session.start
    begun = [str(colour) for colour in start.get("players", ())]
    players = getattr(args, "players", None)
    given = []
    if players and begun and [p.lower() for p in split_players(players)] != [p.lower() for p in begun]:
        given.append(f"--players {players}")
    if args.profile and args.profile != start.get("profile", args.profile):
        given.append(f"--profile {args.profile}")
    if not given:
        return ""
    begun_with = ", ".join(filter(None, (", ".join(begun), f"profile {start.get('profile')}" if begun else "")))
    return (f"{' and '.join(given)} not used: the game in progress was begun with {begun_with}; add --new to set it "
            "aside and start one with them.")


def cmd_play(args: argparse.Namespace, attach: Attach | None = None, resume_as: str | None = None) -> int:
    """The terminal referee; ``attach`` wires table inputs (an adapter's ``hw play``) to its controller, and
    ``resume_as`` is the command that resumes with them (a bare `companion play` would resume without)."""
    if args.game is not None and args.game not in game_classes():
        # Refused before anything is opened or asked: `--game nope` asked "Which game?" on a pipe that may never
        # answer, and a script went on as if it had started a game (exit 0).
        print(f"companion: {unknown_game(args.game)}", file=sys.stderr)
        return 2
    tolerant_stdin()
    cafe = cafe_dir(args)
    journal, session, note = open_table(Path(args.journal or default_journal_path()), cafe, resume=not args.new)
    if note:
        print(note)
    named = args.journal and Path(args.journal).resolve() != default_journal_path().resolve()
    # The café folder too: without it the game resumed on the house data ("its data changed since it began").
    cafe_given = getattr(args, "cafe", None)  # None from a parser of play's options alone
    play = f"companion --cafe {shlex.quote(cafe_given)} play" if cafe_given else "companion play"
    resume = resume_as or (f"{play} --journal {shlex.quote(args.journal)}" if named else play)
    if session is not None and args.game in game_classes() and session.game.id != args.game:
        # Starting another game sets this one aside for good; only --new says so (the help, README).
        title = game_class(args.game).title
        print(f"A {session.game.title} game is in progress ({how_many(len(session.log))}); it is kept. "
              f"'{resume}' resumes it; add --new to set it aside and start {title} instead.")
        journal.close()
        return 1
    if session is not None and args.game and session.game.id != args.game:
        session = None  # no such game: named as such below, and the game in progress stays as it is
    if session is not None:
        print(f"Resuming the {session.game.title} game in progress ({how_many(len(session.log))} so far).")
        unused = _not_resumed_with(args, session)
        if unused:
            print(unused)
    wanted = [args.game]
    profiles = [args.profile]  # the command line's, for its first game only: 'new' later asks again
    players = getattr(args, "players", None)
    listed = [players]  # --players without --game: taken once the game is chosen, as --profile is
    offer = _last_game_offer(journal, cafe) if session is None and not args.new else []

    def make_session() -> Session | None:
        while True:
            game_id = wanted.pop() if wanted else None
            profile = profiles.pop() if profiles else None
            named_players = listed.pop() if listed else None
            if players and game_id:
                spec = {"game": game_id, "players": split_players(players), "profile": args.profile or "standard"}
            else:
                # Live (hw play), the terminal's own reader of typed lines answers; a second one raced it.
                back = offer[0].title if offer and game_id is None else None
                spec = ask_new_game(terminal.ask or _read, print, game_id, back, profile, named_players)
            if spec is None:
                return None
            try:
                if spec.get("last") and offer:
                    back = offer.pop().reopen(journal)  # the café day judged now: the question may have waited
                    print("  Back in the last game: 'u' takes back its last steps.")
                    return back
                made = Session.new(spec["game"], spec["players"], None, spec["profile"], journal, cafe)
            except CompanionError as error:
                if players and game_id:  # all given on the command line: nobody is there to answer a question
                    journal.close()
                    raise
                print(f"  {error.message}{cited(error.rule)}")  # the clause, as the table's Start shows it
                continue
            offer.clear()  # the journal's last game is this one now
            return made

    terminal = Terminal(session, make_session, sys.stdout)
    if named or resume_as or cafe_given:  # a bare `companion play` opens the default journal and café folder
        terminal.resume_command = resume
    try:
        if attach is None:
            code = terminal.run(iter(lambda: _read("? "), None))
        else:
            detach = attach(terminal)
            try:
                code = terminal.run_live(lambda: _read(""), prompt="? ")  # the helper reading lines writes no prompt
            finally:
                detach()
    except KeyboardInterrupt:
        # Ctrl-C at the prompt: the same goodbye as 'q' (the game is kept, how to resume it), on a line of its own.
        print()
        if terminal.session is not None:
            print(terminal.goodbye())
        else:  # stopped at the start's questions: it said nothing, so nobody knew whether a game had begun
            print(f"companion: {command_name(args)} stopped (Ctrl-C); no game was started", file=sys.stderr)
        journal.close()
        return 130
    if terminal.session is None:  # the questions went unanswered (input closed) or named no game
        print("companion: no game was started; 'companion play --game ID --players A,B' starts one "
              "without questions.", file=sys.stderr)
        journal.close()
        return 1
    journal.close()  # let its file go now: the terminal and its session hold each other, so the collector would
    # close it at a moment of its own, checkpointing the log under whatever opens the journal next
    if code == 0 and not journal.kept_on_disk:
        return 1  # the goodbye said the game ended with the process: no journal file could be written
    return code


def unknown_game(game_id: str) -> str:
    """Why ``game_id`` names no game, every game listed a line each, by id and by name (`registry.unknown_game`)."""
    return registry_unknown_game(game_id, columns=True)


def _last_game_offer(journal: Journal, cafe: Path | None) -> list[FinishedGame]:
    """Name the journal's finished last game; it is offered (as a one-item list) when it may be gone back into.

    A finished game is never resumed into play, but after a restart its misread
    winning roll could not be taken back any more (`companion.finished`).
    """
    last = finished_game(journal, cafe)
    if last is None:
        return []
    print(last.words())
    if not last.reopenable:
        print(f"  It cannot be gone back into: {last.why_not}.")
        return []
    return [last]


JOURNAL_FILE = "a journal file's path (leave --journal out for the default one)"
PLAYERS = "the players' colours in turn order, such as red,blue"


def add_play_arguments(play: argparse.ArgumentParser) -> None:
    """The options of ``play``, shared with adapters that start the referee with their inputs attached."""
    play.add_argument("--game", help=f"game id ({GAME_IDS}); asked when missing")
    # Named: an empty --players or --profile (a shell variable left unset) was taken as left out, and the players
    # asked for or the standard rules played without a word.
    play.add_argument("--players", type=named(PLAYERS),
                      help="comma-separated players in turn order (with --game: no questions asked; "
                      "without, taken once the game is chosen)")
    play.add_argument("--profile", type=named("a rule profile's name (leave --profile out for standard)"),
                      help="rule profile for a new game (default: standard)")
    play.add_argument("--journal", type=no_stream(JOURNAL_FILE),
                      help="journal file (default: $COMPANION_JOURNAL or the user data dir)")
    play.add_argument("--new", action="store_true", help="start a new game even if one is in progress")


def cmd_referee(args: argparse.Namespace) -> int:
    journal, note = open_journal(Path(args.journal)) if args.journal else (None, "")
    referee = Referee(journal, cafe_dir(args))
    last = finished_game(journal, referee.cafe_dir) if referee.session is None else None
    told = last.words() if last is not None else ""
    if last is not None and last.reopenable:
        told += ' {"cmd": "reopen"} goes back into it.'
    for line in (note, referee.note, told):  # stdout carries the protocol only
        if line:
            print(f"companion: {line}", file=sys.stderr)
    try:
        with interruptible_input(sys.stdin.buffer) as stdin:  # a Ctrl-C landing just before a read stops it too
            serve(referee, stdin, sys.stdout)
    except KeyboardInterrupt:  # "referee stopped" alone left a driver's author to guess whether the game was kept
        print(f"companion: referee stopped (Ctrl-C){_referee_left(referee, journal, args.journal)}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The front end stopped reading (an app closed, a page reloaded): the step last answered is journalled
        # though its answer was lost. It ended 141 saying nothing, where Ctrl-C says whether the game is kept.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python flushes stdout again at exit
        left = _referee_left(referee, journal, args.journal)
        print(f"companion: referee stopped (stdout was closed: the front end stopped reading){left}", file=sys.stderr)
        return 141  # 128 + SIGPIPE, as main's own handler ends
    if journal is not None and not journal.kept_on_disk:
        # As play does: the note above said the game lives in memory only; a script must not take it as journalled.
        print(f"companion: nothing was journalled in {args.journal}: the game ended with the process", file=sys.stderr)
        return 1
    return 0


def _referee_left(referee: Referee, journal: Journal | None, named: str | None) -> str:
    """What became of the referee's game when it stopped, as `play`'s goodbye says it ("" for no game)."""
    if referee.session is None:
        return ""
    if journal is not None and journal.kept_on_disk and named:
        return f"; the game is kept: 'companion referee --journal {shlex.quote(named)}' resumes it"
    why = "no journal file could be written" if named else "no --journal was given"
    return f"; the game was kept in memory only ({why}), so it ends here"


def cmd_simulate(args: argparse.Namespace) -> int:
    import random

    ids = list(game_classes()) if args.game == "all" else [game_class(args.game).id]
    if args.profile is not None:
        # A profile one game lacks was tried once per game, each try an ERROR line, and ended 1 as if the rules
        # had failed; with all games, it is played where it exists and the others are named.
        lacking = [gid for gid in ids if args.profile not in game_class(gid).profiles]
        if lacking == ids:
            one = game_class(ids[0])
            said = (f"{one.title} has no profile {quoted(args.profile)}; its profiles: {', '.join(one.profiles)}"
                    if len(ids) == 1 else f"no game has the profile {quoted(args.profile)}")
            print(f"companion: {said}", file=sys.stderr)
            return 2
        if lacking:
            print(f"not simulated (no profile {quoted(args.profile)}): {', '.join(lacking)}")
        ids = [gid for gid in ids if gid not in lacking]
    failed = stopped = False
    for game_id in ids:
        game = create(game_id, cafe_dir(args))
        rng = random.Random(args.seed)
        started = time.perf_counter()
        errors: list[str] = []
        steps: list[int] = []
        winners: Counter[str] = Counter()
        try:
            for _ in range(args.games):
                try:
                    run = play_random_game(game, rng, profile=args.profile)
                except (SimulationError, CompanionError) as error:
                    errors.append(str(error))
                    continue
                except Exception as error:  # a crash in the rules is a finding, not a reason to stop
                    errors.append(f"{type(error).__name__}: {error}")
                    continue
                steps.append(run.steps)
                winners[outcome(run.result)] += 1
        except KeyboardInterrupt:  # the games played so far are reported, not thrown away with a bare exit
            stopped = True
        elapsed = time.perf_counter() - started
        mean = sum(steps) / len(steps) if steps else 0
        played = f"{len(steps) + len(errors)} of {args.games} games (stopped by Ctrl-C)" if stopped else (
            f"{args.games} games")
        print(f"{game_id}: {played}, {len(errors)} errors, {mean:.0f} actions per game, {elapsed:.1f} s")
        print(f"  results: {', '.join(f'{ending}: {n}' for ending, n in winners.most_common(8)) or 'none finished'}")
        for error in errors[:5]:
            print(f"  ERROR: {error}")
        failed = failed or bool(errors)
        if stopped:
            if game_id != ids[-1]:
                print(f"  not simulated: {', '.join(ids[ids.index(game_id) + 1:])}")
            return 130
    return 1 if failed else 0


def cmd_bench(args: argparse.Namespace) -> int:
    ids = list(game_classes()) if args.game == "all" else [game_class(args.game).id]
    cafe = cafe_dir(args)  # the data the table referees on, a café's own included
    report: dict[str, dict[str, Any]] = {}
    try:
        for game_id in ids:
            report[game_id] = bench_game(create(game_id, cafe), games=args.games, seed=args.seed)
    except KeyboardInterrupt:  # the games timed so far are reported; only the one cut short is lost
        if not report:
            raise
        print(f"companion: bench stopped (Ctrl-C); not timed: {', '.join(ids[len(report):])}", file=sys.stderr)
        _print_bench(report, args.json)
        return 130
    _print_bench(report, args.json)
    return 0


def _print_bench(report: dict[str, dict[str, Any]], as_json: bool) -> None:
    if as_json:
        print(json.dumps({"games": report}, indent=2))
        return
    print(f"{'game':<10} {'call':<6} {'median ms':>10} {'p99 ms':>8} {'max ms':>8} {'calls':>7}")
    for game_id, numbers in report.items():
        for call in ("legal", "act", "check", "final_score"):
            if call not in numbers:
                continue
            n = numbers[call]
            figures = f"{n['median_ms']:>10.3f} {n['p99_ms']:>8.3f} {n['max_ms']:>8.3f} {n['calls']:>7}"
            print(f"{game_id:<10} {call:<6} {figures}")
        print(f"{game_id:<10} random games per second: {numbers['games_per_s']}")


def _cafe_or_given(args: argparse.Namespace, given: str | None, what: str, does: str, inside: bool) -> str | None:
    """The path `data validate` or `data template` works on: ``given`` (PATH, DIR), else the ``--cafe`` folder;
    None, said, when both are given and ``given`` is not the café folder (nor, with ``inside``, in it).

    `companion --cafe DIR data validate OTHER` checked OTHER and `data template GAME OTHER` filled OTHER, the
    café folder named first taken in silence. ``what`` names the argument, ``does`` what the command does to it.
    """
    cafe = getattr(args, "cafe", None)
    if given is None:
        if cafe is None:
            args.parser.error(f"give {what}, or put --cafe DIR before data for the café folder")
        return cafe
    if cafe is None:
        return given
    place = Path(given).resolve()
    if Path(cafe).resolve() == place or (inside and Path(cafe).resolve() in place.parents):
        return given
    print(f"companion: data {args.data_command} {does} {given}, which is not {'in ' if inside else ''}the --cafe "
          f"folder {cafe}: leave --cafe out, or leave {given} out for the café folder", file=sys.stderr)
    return None


def cmd_data(args: argparse.Namespace) -> int:
    if args.data_command == "validate":
        path = _cafe_or_given(args, args.path, "a data file or folder to check (PATH)", "checks", inside=True)
        if path is None:
            return 2
        warnings: list[str] = []
        problems = validate_path(Path(path), game_classes(), warnings)
        for problem in problems:
            print(problem)
        for warning in warnings:  # the data plays the same: a warning leaves it valid
            print(f"warning: {warning}")
        if not problems:
            counted = f" ({len(warnings)} warning{'s' if len(warnings) > 1 else ''})" if warnings else ""
            print(f"{path}: valid{counted}")
        return 1 if problems else 0
    if args.data_command == "which":
        refused = False
        # Checked first: an unknown name was printed whole as a heading ("NAME:") before it was refused.
        for game_id in [game_class(args.game).id] if args.game is not None else list(game_classes()):
            print(f"{game_id}:")
            try:
                sources = create(game_id, cafe_dir(args)).data.sources
            except InvalidData as error:  # one game's broken file must not hide what the others use
                refused = True
                for problem in error.problems:
                    print(f"  cannot be used: {problem}")
                continue
            for kind, source in sources.items():
                print(f"  {kind:<10} {source}")
        return 1 if refused else 0
    if args.data_command == "template":
        game_cls = game_class(args.game)
        folder = _cafe_or_given(args, args.dir, "the café folder to copy into (DIR)", "copies into", inside=False)
        if folder is None:
            return 2
        target = Path(folder) / game_cls.id
        if target.exists() and not target.is_dir():  # "File exists (DIR/ttd)", as if the folder were the fault
            print(f"companion: {target} is a file where the game's folder goes: move it away, or give another "
                  "café folder", file=sys.stderr)
            return 1
        target.mkdir(parents=True, exist_ok=True)
        for file in sorted(house_dir(game_cls).glob("*.json")):
            if (target / file.name).exists():
                print(f"kept {target / file.name} (already there)")
                continue
            write_whole(target / file.name, file.read_bytes())  # a crash mid-copy leaves no cut-off café file
            print(f"wrote {target / file.name}")
        print("Edit these files to match your own copy, then run: companion data validate " + str(target))
        return 0
    return 2


def cmd_rules(args: argparse.Namespace) -> int:
    if args.clause is not None and args.search is not None:  # the search was passed over: the clause alone showed
        args.parser.error(f"a clause id ({args.clause}) shows that clause, and --search lists the clauses holding "
                          "its words: give one or the other")
    game = create(args.game, cafe_dir(args))
    rulebook = game.rulebook
    if args.clause is not None:  # an empty one ("") is refused by name; it listed the whole book
        clause = rulebook.typed(args.clause)
        print(f"{clause.id}  {clause.title}\n\n{clause.text}")
        return 0
    lookup = rulebook.lookup(args.search or "")
    found = lookup.clauses
    if found and not lookup.every:  # on stderr: the list itself stays one clause a line
        print("companion: no clause holds every word; the closest first:", file=sys.stderr)
    for clause in found:
        print(f"{clause.id:<10} {clause.title}")
    if not found:  # a search that matched nothing printed nothing and succeeded, as if the book were empty
        print(f"companion: no {game.title} clause mentions {quoted(args.search or '')}", file=sys.stderr)
        return 1
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    if args.out is None and not args.list:  # argparse's own usage error (exit 2), as when OUT was required
        args.parser.error("give the record's file (- for stdout), or --list to see the journal's games")
    if args.list and (args.out is not None or args.id is not None):
        args.parser.error("--list lists every game and writes no file: leave out " +
                          " and ".join(filter(None, ("--id" if args.id is not None else "", args.out))))
    path = Path(args.journal or default_journal_path())
    if path.is_dir():  # it said "No journal at DIR.", as if nothing were there
        print(f"companion: {path} is a folder, not a journal file: name the journal file in it", file=sys.stderr)
        return 1
    if not path.is_file():  # exporting reads; it must not leave an empty journal behind
        print(f"No journal at {path}.", file=sys.stderr)
        return 1
    unwritable = _record_refusal(args.out, path) if args.out not in (None, "-") else None
    if unwritable:  # said before the journal is read, as `vision markers` names a file it cannot write
        print(f"companion: {unwritable}", file=sys.stderr)
        return 1
    try:
        with path.open("rb"):
            pass
    except PermissionError as error:  # SQLite said only "unable to open database file"
        print(f"companion: the journal {path} cannot be read ({error.strerror}): export it as the user that owns it "
              "(the service's: sudo -u companion, docs/operations.md)", file=sys.stderr)
        return 1
    try:
        # Writes nothing: a journal on a card gone read-only is read too, and one set aside for a damaged header
        # or log through a copy, as the start reads it (`companion.journal.reading`).
        with reading(path) as (journal, how):
            if how:
                print(f"companion: {how}", file=sys.stderr)
            return _export_from(journal, path, args)
    except JournalDamaged as damage:
        print(f"companion: {damage.message}{_damage_advice(path, damage.message)}", file=sys.stderr)
        return 1


def _export_from(journal: Journal, path: Path, args: argparse.Namespace) -> int:
    """Write the record of the game ``--id`` names (the latest without one) from ``journal``, read at ``path``;
    with ``--list``, name every game in it instead."""
    if args.list:
        return _list_games(journal, path)
    # `--id 0` is an id, not "none given": it exported the latest game instead of saying there is no game 0.
    entry = journal.read_game(args.id) if args.id is not None else journal.latest_game()
    if entry is None:
        # An id mistyped, or taken from another journal's list: said with where to find the right one.
        which = f" {args.id} (--list names the games it holds)" if args.id is not None else ""
        print(f"The journal holds no game{which}.{_kept_beside(path)}", file=sys.stderr)
        return 1
    record, note = export_game(entry, cafe_dir(args))
    text = json.dumps(record, indent=1)
    if args.out == "-":
        print(text)
    else:
        out = Path(args.out)
        new = not out.exists()
        try:
            out.write_text(text + "\n", encoding="utf-8")
        except OSError as error:  # a folder that may not be written to, a full or read-only card
            if new:  # a record cut off by a full card must not be left to replay as a shorter game
                out.unlink(missing_ok=True)
            print(f"companion: cannot write the record to {args.out}: {error.strerror or error}; give a file in a "
                  "folder you may write to, with room for it", file=sys.stderr)
            return 1
        print(f"wrote {args.out}: {record['game']}, {how_many(len(record['actions']), 'action')}")
    if note:
        print(f"companion: game {entry.id}: {note}", file=sys.stderr)
    return 0


def _record_refusal(out: str, journal: Path) -> str | None:
    """Why the record cannot go to the file ``out``, said with what to do, or None when it can.

    A folder not there ended in a bare "No such file or directory (PATH)", and
    the journal itself named as the record's file (``export --journal j.sqlite3
    j.sqlite3``) was written over with the record: every game in it lost.
    """
    target = Path(out)
    if target.is_dir():
        return f"{out} is a folder: give the record a file's name in it, e.g. {target / 'game.json'}"
    meant_folder = out.endswith(("/", os.sep))  # `records/`: a folder meant, where the record would be a file
    folder = target if meant_folder else target.parent
    if folder.exists() and not folder.is_dir():
        return f"cannot write the record to {out}: {folder} is a file, not a folder; give the record a name in a folder"
    if not folder.is_dir():
        then = f", then give the record a file's name in it, e.g. {folder / 'game.json'}" if meant_folder else ""
        return (f"cannot write the record to {out}: there is no folder {folder}; make it first "
                f"(mkdir -p {shlex.quote(str(folder))}){then}, or give a name in a folder that is there")
    try:
        with target.open("rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError:  # not there yet (the usual case), or not readable: writing it says which
        return None
    if head == SQLITE_HEADER:  # the journal read, or another: a record over it would replace its games
        which = ("the journal being exported from" if target.resolve() == journal.resolve() else
                 "an SQLite database, as a journal is")
        return f"{out} is {which}: the record would replace what it holds; give the record another name, e.g. game.json"
    return None


STATUS_WORDS = {"active": "in progress", "over": "finished", "abandoned": "set aside"}


def _list_games(journal: Journal, path: Path) -> int:
    """Every game in the journal, a line each: a café after last month's results knew no game's id to export."""
    games = journal.summaries()
    if not games:
        print(f"The journal holds no game.{_kept_beside(path)}", file=sys.stderr)
        return 1
    zone = local_moment(None).tzname() or "local"
    times = [tuple(_listed_time(when, zone) for when in (game.started, game.last_step_at)) for game in games]
    width = max(17, *(len(when) for pair in times for when in pair))
    began_head, last_head = f"began ({zone})", f"last step ({zone})"
    print(f"{'id':>5}  {'game':<10} {began_head:<{width}} {last_head:<{width}} {'steps':>5}  {'status':<11} players")
    for game, (began, last) in zip(games, times, strict=True):
        status = STATUS_WORDS.get(game.status, game.status)
        print(f"{game.id:>5}  {game.game:<10} {began:<{width}} {last:<{width}} {game.steps:>5}  {status:<11} "
              f"{', '.join(game.players)}")
    named = f" --journal {shlex.quote(str(path))}" if path != default_journal_path() else ""
    print(f"'companion export FILE{named} --id ID' writes one out.{_kept_beside(path)}")
    return 0


def _listed_time(journalled: str, zone: str) -> str:
    """A journalled time (UTC) as `export --list` shows it: in local time, as `results` and the home screen
    show theirs, naming its zone where it is not the one the header names (a summer game read in winter).

    The list alone gave UTC: a game `results` listed as finished at 22:14 was listed as last moving at 21:14.
    A time that cannot be read (a row edited by hand) is shown as journalled.
    """
    moment = read_time(journalled)
    if moment is None:
        return journalled[:16].replace("T", " ")
    named = moment.tzname()
    return f"{moment:%Y-%m-%d %H:%M}" + (f" {named}" if named and named != zone else "")


def _damage_advice(path: Path, said: str) -> str:
    """How to get the games out of a journal export cannot read, for the damage ``said`` names."""
    if "write-ahead log" in said:  # read through a copy as far as SQLite reads the log, and that failed too
        return (f". The file without its log holds every game but those writes: move {path.name}-wal and "
                f"{path.name}-shm out of its folder (keep them), then export again")
    return (". What it still holds can be saved with the sqlite3 tool (docs/operations.md, \"Recovering a "
            "table\", the journal damaged row), then exported from the saved copy")


def cmd_results(args: argparse.Namespace) -> int:
    """Who won what over the last days: the journal lists no games by itself, and export takes an id."""
    from companion.results import report, results

    path = Path(args.journal or default_journal_path())
    if path.is_dir():
        print(f"companion: {path} is a folder, not a journal file: name the journal file in it", file=sys.stderr)
        return 1
    if not path.is_file():  # reading only: no empty journal is left behind
        print(f"No journal at {path}.", file=sys.stderr)
        return 1
    journal = Journal.for_reading(path)
    try:
        named = f" --journal {shlex.quote(str(path))}" if path != default_journal_path() else ""
        for line in report(results(journal, args.days, cafe_dir(args), journal_option=named), args.days, named):
            print(line)
    finally:
        journal.close()
    kept = _kept_beside(path)
    if kept:
        print(kept.strip())
    return 0


def _kept_beside(path: Path) -> str:
    """Where older games went (a journal grown past its size, or set aside as damaged): a fresh journal's export
    would say only "none"."""
    kept = [p.name for p in kept_journals(path)]
    return f" Its older games are in {', '.join(kept)} (--journal that file)." if kept else ""


def cmd_replay(args: argparse.Namespace) -> int:
    if args.record == "-":  # as `export -` writes it: `companion export - | companion replay -`
        if sys.stdin is None:
            print("companion: replay - reads the record from its standard input, which is closed; give it a pipe, "
                  "a file (< game.json) or the record's path", file=sys.stderr)
            return 1
        stream = getattr(sys.stdin, "buffer", None)
        record = parse_json(stream.read() if stream is not None else sys.stdin.read().encode("utf-8"), STDIN)
    else:
        record = read_json(Path(args.record))
    session = replay_record(record, cafe_dir(args))
    if session.as_journalled:  # its start is one a check added since refuses: said, as resume and export say it
        print(f"companion: {session.as_journalled}", file=sys.stderr)
    if record.get("final") is None:
        # A record exported from steps that no longer replayed has no final position; saying it matched
        # one vouched for an end nobody recorded.
        print(f"{record['game']}: {len(session.log)} actions replayed; the record has no final position to confirm.")
    else:
        print(f"{record['game']}: {len(session.log)} actions replayed; the final position matches the record.")
    print(session.pending().text)
    return 0


def journal_id(text: str) -> int:
    """A journal game id: SQLite's integers stop at 2**63 - 1, and a larger ``--id`` ended in an OverflowError
    traceback."""
    value = positive(text)
    if value > 2**63 - 1:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a game id this journal could hold")
    return value


# The most random games one run takes: about ten a second per game here (fewer on a Pi), so 10000 is a night's
# soak and a hundred million ran until Ctrl-C. The bench times every call of each game, a lot slower.
MAX_SIMULATED = 10_000
# Named in the help as examples: listing the registry there would import every game for each `--help`.
GAME_IDS = "blackpool, desert, targi, temple, ttd"
MAX_BENCHED = 1_000
# Each finished game listed is replayed for its winner's words; a year of a café's days is the most asked.
MAX_RESULT_DAYS = 366


def usage(parser: argparse.ArgumentParser) -> int:
    """A command group given without its command (`companion hw`): its commands and what each does, exit 2.

    argparse said only "the following arguments are required: hw_command", a name from the code.
    """
    parser.print_help(sys.stderr)
    return 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Table Companion: a referee beside the board.")
    parser.add_argument(
        "--cafe", type=folder, help="café data folder (default: $COMPANION_CAFE_DIR or the user data dir)"
    )
    sub = parser.add_subparsers(dest="command")

    play = sub.add_parser("play", help="the terminal referee (resumes the game in progress)")
    add_play_arguments(play)
    play.set_defaults(func=cmd_play, reads_input=True)

    referee = sub.add_parser("referee", help="JSON lines protocol on stdin/stdout")
    referee.add_argument("--journal", type=no_stream(JOURNAL_FILE),
                         help="journal file; the game in progress there is resumed")
    referee.set_defaults(func=cmd_referee, reads_input=True)

    simulate = sub.add_parser("simulate", help="random complete games with contract checks")
    simulate.add_argument("--game", default="all", help=f"game id ({GAME_IDS}), or all (the default)")
    simulate.add_argument("--games", type=count(1, MAX_SIMULATED), default=100,
                          help=f"random games per game (default 100, at most {MAX_SIMULATED})")
    simulate.add_argument("--seed", type=int, default=1, help="the same seed plays the same games (default 1)")
    simulate.add_argument("--profile", help="rule profile (default: a random one per game)")
    simulate.set_defaults(func=cmd_simulate)

    bench = sub.add_parser("bench", help="latency of legal/act/check and games per second")
    bench.add_argument("--game", default="all", help=f"game id ({GAME_IDS}), or all (the default)")
    bench.add_argument("--games", type=count(1, MAX_BENCHED), default=30,
                       help=f"random games whose positions are timed (default 30, at most {MAX_BENCHED})")
    bench.add_argument("--seed", type=int, default=1, help="the same seed times the same positions (default 1)")
    bench.add_argument("--json", action="store_true", help="print the timings as one JSON object")
    bench.set_defaults(func=cmd_bench)

    data = sub.add_parser("data", help="validate, locate or copy game data files")
    data_sub = data.add_subparsers(dest="data_command")
    data.set_defaults(func=lambda args: usage(data))
    validate = data_sub.add_parser("validate", help="check a data file or folder")
    # Not "-" (stdin): a data file is checked as the game its folder names and by its own name, which a pipe has
    # not; "data validate -" said "-: cannot be read (No such file or directory)".
    validate.add_argument("path", nargs="?",
                          type=no_stream("a data file's or folder's path (. for the one you are in)"),
                          help="a game's data file, or a café folder (one folder per game inside); left out: the "
                          "--cafe folder")
    which = data_sub.add_parser("which", help="say which data each game uses")
    which.add_argument("game", nargs="?", help=f"game id ({GAME_IDS}); every game when left out")
    template = data_sub.add_parser("template", help="copy a game's house data into a café folder to edit")
    template.add_argument("game", help=f"game id ({GAME_IDS})")
    template.add_argument("dir", nargs="?", type=folder_to_fill("the café folder's path (. for the one you are in)"),
                          help="the café folder: the files go into DIR/GAME (left out: the --cafe folder)")
    for command in (validate, which, template):
        command.set_defaults(func=cmd_data, parser=command)

    rules = sub.add_parser("rules", help="browse a game's rulebook")
    rules.add_argument("game", help=f"game id ({GAME_IDS})")
    rules.add_argument("clause", nargs="?", help="a clause id such as BP-C5; every clause is listed without one")
    # An empty --search (a shell variable left unset) listed the whole book, as if no search had been asked.
    rules.add_argument("--search", metavar="WORDS", type=named("the words to look for, such as 'tie'"),
                       help="the clauses that mention these words, best first (the closest when none holds them all)")
    rules.set_defaults(func=cmd_rules, parser=rules)

    export = sub.add_parser("export", help="write a game record from the journal")
    export.add_argument("out", nargs="?", type=named("a file's path, or - for stdout"),
                        help="file, or - for stdout (left out with --list)")
    export.add_argument("--journal", type=no_stream(JOURNAL_FILE),
                        help="journal file (default: $COMPANION_JOURNAL or the user data dir); one kept beside it, "
                        "grown (journal-DATE.sqlite3) or set aside as damaged (journal.sqlite3.damaged-DATE), is "
                        "read too, never written")
    export.add_argument("--id", type=journal_id, help="journal game id (default: the latest)")
    export.add_argument("--list", action="store_true",
                        help="list the journal's games (id, game, when, steps, players) instead of writing one")
    # The list names the journal's games and reads no café data; a record written replays on it.
    export.set_defaults(func=cmd_export, parser=export,
                        cafe_unread=lambda args: " with --list (a record written does)" if args.list else None)

    results_cmd = sub.add_parser("results", help="the games finished over the last days, and who won each")
    results_cmd.add_argument("--days", type=count(1, MAX_RESULT_DAYS), default=7,
                             help=f"café days back, today's included (default 7, at most {MAX_RESULT_DAYS})")
    results_cmd.add_argument("--journal", type=no_stream(JOURNAL_FILE),
                             help="journal file (default: $COMPANION_JOURNAL or the user data dir)")
    results_cmd.set_defaults(func=cmd_results)

    replay = sub.add_parser("replay", help="replay a game record and confirm its final position")
    replay.add_argument("record", type=named("a game record's path (companion export writes one), or - for stdin"),
                        help="a game record's file, as companion export writes it, or - for stdin "
                        "(companion export - | companion replay -)")
    replay.set_defaults(func=cmd_replay)

    for plugin in entry_points(group="companion.commands"):
        try:
            plugin.load()(sub)
        except ModuleNotFoundError as error:
            if error.name and plugin.value.startswith(error.name):
                continue  # that adapter is not part of this install
            print(f"companion: command {plugin.name!r} unavailable: {error}", file=sys.stderr)
        except Exception as error:  # a broken adapter must not take the referee down with it
            print(f"companion: command {plugin.name!r} unavailable: {error}", file=sys.stderr)
    return parser


class _GivenOnce(argparse.Action):
    """An option that takes one value, refused when given again with another (`--game blackpool --game ttd`).

    argparse keeps the last in silence: the first was passed over, and a table played the game named last.
    Given again alike (`--new --new`) it changes nothing and is taken. ``seen`` is shared by every option of
    one command line (`_refuse_given_twice`), so `ui --journal A run --journal B` is caught across the two.
    """

    seen: dict[str, tuple[str, Any]]

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        super().__call__(parser, namespace, values, option_string)
        value = getattr(namespace, self.dest, None)
        said = option_string or self.dest
        if self.nargs != 0:  # a flag (--new, --mirror) is said by its name alone
            # A value read into a tray or a size has no words of its own to quote.
            said = f"{said} {values}" if isinstance(values, str | int | float) else ""
        before = self.seen.get(self.dest)
        if before is not None and before[1] != value:
            which = f" ({before[0]}, then {said})" if before[0] and said else " with different values"
            raise argparse.ArgumentError(self, f"given twice{which}: give it once")
        self.seen[self.dest] = (said, value)


ONCE = (argparse._StoreAction, argparse._StoreConstAction, argparse.BooleanOptionalAction)


@functools.cache
def _once(kind: type[argparse.Action]) -> type[argparse.Action]:
    """``kind`` refused when given again with another value: one class for each kind, however many options."""
    return type(f"Once{kind.__name__}", (_GivenOnce, kind), {})


def _refuse_given_twice(parser: argparse.ArgumentParser, seen: dict[str, tuple[str, Any]]) -> None:
    """Make every one-value option of ``parser`` and its sub-commands' parsers a `_GivenOnce` sharing ``seen``.

    Their classes are swapped after they are made, as the adapters' parsers (hw, vision, ui) are built by
    their own code; an option given several times on purpose (`append`, `count`) is left as it is.
    """
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):  # aliases name the same parser
                _refuse_given_twice(child, seen)
        elif action.option_strings and isinstance(action, ONCE):
            if not isinstance(action, _GivenOnce):
                action.__class__ = _once(type(action))
            action.seen = seen  # type: ignore[attr-defined]  # a parser parsed again starts afresh


DRI = "/dev/dri"  # where a screen driven without X or Wayland (the Pi's KMS) shows


NO_SCREEN = "companion: no screen here (no DISPLAY, WAYLAND_DISPLAY or /dev/dri)"


def screen_here() -> bool:
    """Whether the app has somewhere to show: a display server, a video driver chosen by hand (offscreen, for
    tests), or the Pi's own screen. Without one the app runs where nobody sees it."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("SDL_VIDEODRIVER")
                or Path(DRI).exists())


def default_command() -> list[str]:
    """What ``companion`` with no arguments starts: the app when present, else the terminal referee.

    Over SSH without a display the terminal referee is the one that can work,
    and so it is on a machine with no screen at all (a container, a server):
    the app started there showed nothing and seemed to hang.
    """
    import importlib.util

    display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if os.environ.get("SSH_CONNECTION") and not display:
        return ["play"]
    if not screen_here():
        print(f"{NO_SCREEN}, so the terminal referee starts; 'companion ui run' starts the app anyway.",
              file=sys.stderr)  # fmt: skip
        return ["play"]
    if importlib.util.find_spec("ui") is None or importlib.util.find_spec("kivy") is None:
        return ["play"]
    return ["ui", "run"]


def main(argv: list[str] | None = None) -> int:
    """The ``companion`` command; ``argv`` None means this is the process itself, not a caller in it."""
    try:
        code = _run(argv)
    except KeyboardInterrupt:
        # A second Ctrl-C, in the command's own "stopped" handling: Ctrl-C sent to each of a command's threads
        # (as a test does) can arrive as one interrupt per thread when the machine is slow to run the first. It
        # left here as a traceback, past the quick exit below that spares the line reader's stdin lock.
        if argv is not None:
            raise
        print("companion: stopped (Ctrl-C)", file=sys.stderr)
        code = 130
    if argv is None and input_still_waiting():
        # Ended while the referee's line reader still waits on a pipe: see `input_still_waiting`.
        sys.stdout.flush()
        sys.stderr.flush()
        logging.shutdown()
        os._exit(code)
    return code


def command_name(args: argparse.Namespace) -> str:
    """The command as typed: "hw bench", not "hw"."""
    return " ".join(filter(None, (args.command, getattr(args, f"{args.command}_command", None))))


def _closed_streams(args: argparse.Namespace) -> str | None:
    """Why the command cannot run with the standard streams it was given (a shell's ``<&-`` or ``>&-``), if so.

    Python sets a closed stream to None: `play` and `referee` then ended in a traceback at their first
    read ("lost sys.stdin") or write, and every other command printed into nothing and succeeded. A command
    marked ``reads_input`` needs its input; all but one marked ``output_optional`` (the app) need their output.
    """
    command = command_name(args)
    if sys.stdin is None and getattr(args, "reads_input", False):
        return (f"{command} reads its standard input, which is closed; give it a terminal, a pipe or a file "
                "(</dev/null for no input)")
    if sys.stdout is None and not getattr(args, "output_optional", False):
        return f"{command} writes to its standard output, which is closed; give it a terminal, a pipe or a file"
    return None


def _cafe_passed_over(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str | None:
    """Why ``companion --cafe DIR`` is refused before this command, or None when the command reads the folder.

    A command marked ``cafe_unread`` (`set_defaults`) reads no café data: `--cafe DIR hw bench` timed the house
    data and `--cafe DIR ui bench` the house boards, the folder taken in silence, and a café believed its own had
    been. The mark is a hint for the line ("" for none; in a command group, the commands that do read it are
    named), or a function of the arguments giving one, or None when this run reads the folder after all.
    """
    unread = getattr(args, "cafe_unread", None)
    if not getattr(args, "cafe", None) or unread is None:
        return None
    if callable(unread):
        unread = unread(args)
        if unread is None:
            return None
    if not unread and getattr(args, f"{args.command}_command", None):
        group = _typed_to(parser, argparse.Namespace(command=args.command))
        choices = next(a.choices for a in group._actions if isinstance(a, argparse._SubParsersAction))
        marks = {name: sub._defaults.get("cafe_unread") for name, sub in choices.items()}
        readers = [name for name, mark in marks.items() if mark is None or callable(mark)]  # in some runs at least
        if readers:
            them = readers[0] if len(readers) == 1 else f"{', '.join(readers[:-1])} and {readers[-1]}"
            unread = f" (of the {args.command} commands, only {them} {'does' if len(readers) == 1 else 'do'})"
    return f"{command_name(args)} does not read café data{unread}: leave --cafe out"


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """The arguments, a word no command takes refused by the command it was typed to.

    argparse refuses such a word at the top: `companion referee --bogus` printed the usage of `companion` and
    its twelve commands, not of `referee`, leaving the reader to find which options `referee` has.
    """
    seen: dict[str, tuple[str, Any]] = {}
    _refuse_given_twice(parser, seen)
    args, extra = parser.parse_known_args(argv)
    if extra:
        _typed_to(parser, args).error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def _typed_to(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub-)command chosen: `hw bench`'s for `companion hw bench ...`."""
    names = (getattr(args, "command", None), getattr(args, f"{getattr(args, 'command', None)}_command", None))
    for name in names:
        groups = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
        if name is None or not groups or name not in groups[0].choices:
            break
        parser = groups[0].choices[name]
    return parser


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    given = argv if argv is not None else sys.argv[1:]
    args = _parse(parser, given or default_command())
    if args.command is None and given:  # `companion --cafe DIR` alone: what `companion` alone starts, on DIR
        args = _parse(parser, [*given, *default_command()])
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    closed = _closed_streams(args)
    if closed:
        print(f"companion: {closed}", file=sys.stderr)
        return 1
    passed_over = _cafe_passed_over(parser, args)
    if passed_over:  # exit 2, as argparse refuses a command line, before anything is opened or written
        print(f"companion: {passed_over}", file=sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except UnknownGame as error:  # a --game or GAME argument naming none: every game by id and name, as play says
        given = getattr(args, "game", None)
        wrong = isinstance(given, str) and given not in game_classes()
        print(f"companion: {unknown_game(given) if wrong else error.message}", file=sys.stderr)
        # A bad argument ends 2, as `play --game nope` and argparse do; a game named inside a file (a record) ends 1.
        return 2 if wrong else 1
    except CompanionError as error:
        # With its clause: `play --players red,red` said "each player must be named once" and no rule.
        print(f"companion: {error.message}{cited(error.rule)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # said, so a café owner who pressed it knows the command heard it and stopped
        command = command_name(args)
        print(f"companion: {command} stopped (Ctrl-C)", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of a pipe (`| head`) stopped early: nothing went wrong here, so no traceback.
        # Python still flushes stdout at exit, which would raise again: point it at /dev/null.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell tool ends
    except OSError as error:  # a file or folder given on the command line that cannot be read or written
        where = f" ({error.filename})" if error.filename else ""
        print(f"companion: {error.strerror or error}{where}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
