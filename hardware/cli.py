"""``companion hw ...``: play with table hardware, simulate a dice sensor, check wiring, teach tags, bench.

Registered through the ``companion.commands`` entry point, so the core CLI
never imports gpiozero or pyserial.
"""

from __future__ import annotations

import argparse
import functools
import json
import pkgutil
import queue
import random
import re
import shlex
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.cli import PLAYERS, add_play_arguments, cmd_play, tolerant_stdin, usage
from companion.errors import quoted
from companion.game import said_as
from companion.observations import LinkChanged, Observation, Update, link_text
from companion.option_types import count, file_path, named, seconds
from companion.phrases import series
from companion.registry import create, game_class, game_classes
from companion.session import Session
from companion.terminal import Terminal, split_players, start_reading
from hardware.pins import config_source, load_config
from hardware.tags import GameTags, TagMap, default_tags_path, tag_file_lines
from vision.cli import live_options, picture_options, picture_settings

if TYPE_CHECKING:
    from companion.game import Game
    from hardware.dice_protocol import Message


def _config(args: argparse.Namespace) -> dict[str, Any]:
    return load_config(Path(args.hardware_config) if args.hardware_config else None)


def attach_hardware(args: argparse.Namespace) -> Callable[[Terminal], Callable[[], None]]:
    """Wire the sensor and the button box to a terminal's controller; returns what undoes it."""
    # Here, not at the top: every `companion` command, the app too, loads this module to list its sub-commands,
    # and pyserial and gpiozero are needed only once a sensor or a button box is wired (docs/ui.md, "Start-up time").
    from hardware.dice_link import DiceLink
    from hardware.panel import Panel, make_pin_factory

    # The pins and their map, before the journal is opened: on a machine without GPIO, `hw play --buttons gpio`
    # said "Resuming the Blackpool game in progress" and only then refused, as if the game had been taken up.
    pins = (_config(args), make_pin_factory(args.buttons)) if args.buttons != "none" else None

    def attach(terminal: Terminal) -> Callable[[], None]:
        closers: list[Callable[[], None]] = []
        if pins is not None:
            panel = Panel(pins[0], terminal.controller.submit, pins[1])
            panel.lights.follow(terminal.controller)
            terminal.press = panel.press
            closers.append(panel.close)
        if args.dice_sensor:
            controller = terminal.controller  # the game on the table, whose tag file a slot report is read with

            def on_table() -> Game | None:
                """The game on the table; the terminal's before the controller is given it (`run_live`), so a
                broken tag file is told as play starts."""
                session = controller.session or terminal.session
                return session.game if session else None

            tags = GameTags(on_table, Path(args.tags) if args.tags else None)
            link = DiceLink(args.dice_sensor, controller.submit, tags=tags).start()
            closers.append(link.stop)
        if getattr(args, "camera", None):
            from vision.feed import start_camera
            from vision.view_check import IN_TERMINAL

            controller = terminal.controller
            picture = picture_settings(args)
            feed = start_camera(args.camera, controller.submit, lambda: controller.session,
                                orientation=picture.orientation, mains_hz=picture.mains_hz, tray=picture.tray,
                                mends=IN_TERMINAL)
            closers.append(feed.close)

        def detach() -> None:
            for close in reversed(closers):
                close()

        return detach

    return attach


def _unused(command: str, flags: list[str], what: str, missing: str, mend: str) -> int:
    """Refuse options that would do nothing in this run: ``flags`` ``what`` (said of one), and ``missing``, so
    ``mend`` (exit status 2, as argparse refuses a mistake, before the journal is opened)."""
    does = what if len(flags) == 1 else what.replace("s ", " ", 1)  # "--tray sets", "--turn, --mains set"
    print(f"companion {command}: {', '.join(flags)} {does}, and {missing}: {mend}", file=sys.stderr)
    return 2


def _no_buttons_config(args: argparse.Namespace, command: str) -> int | None:
    """`--hardware-config` with `--buttons none`: the pin map is read only for a button box, so it was passed
    over, and `hw play`'s goodbye named it as part of the table to resume."""
    if args.hardware_config is not None and args.buttons == "none":
        default = " (the default)" if command == "hw play" else ""
        return _unused(command, ["--hardware-config"], "maps the button box's pins", f"--buttons is none{default}",
                       "add --buttons gpio (or mock), or leave it out")
    return None


def cmd_hw_play(args: argparse.Namespace) -> int:
    # Passed over before: `hw play --tray ...` without a camera played on as if the tray were watched.
    mirror = "--mirror" if args.mirror else "--no-mirror"
    given = (("--turn", args.turn), (mirror, args.mirror), ("--mains", args.mains), ("--tray", args.tray))
    unread = [flag for flag, value in given if value is not None]
    if unread and not args.camera:
        them = "it" if len(unread) == 1 else "them"
        return _unused("hw play", unread, "sets the camera's picture", "no --camera is given",
                       f"add --camera SOURCE, or leave {them} out")
    if args.tags is not None and not args.dice_sensor:
        # The tag file is read only by the sensor's slot reports: `--tags FILE` alone was passed over in silence.
        return _unused("hw play", ["--tags"], "names the tag file the dice sensor's slot reports are read with",
                       "no --dice-sensor is given", "add --dice-sensor URL, or leave it out")
    refused = _no_buttons_config(args, "hw play")
    if refused is not None:
        return refused
    return cmd_play(args, attach_hardware(args), resume_command(args))


def resume_command(args: argparse.Namespace) -> str:
    """The `hw play` that resumes this game at this table: the same journal, café data, sensor, buttons, tags,
    camera and picture settings given.

    The goodbye said `companion play --journal ...`, which resumes the game with no sensor, buttons or camera.
    """
    from companion.cli import default_journal_path

    words = ["companion", *(["--cafe", str(args.cafe)] if args.cafe else []), "hw", "play"]
    if args.journal and Path(args.journal).resolve() != default_journal_path().resolve():
        words += ["--journal", str(args.journal)]
    for flag, value in (("--dice-sensor", args.dice_sensor), ("--hardware-config", args.hardware_config),
                        ("--tags", args.tags), ("--camera", args.camera), ("--turn", args.turn),
                        ("--mains", args.mains)):
        if value is not None:
            words += [flag, str(value)]
    if args.buttons != "none":
        words += ["--buttons", args.buttons]
    if args.mirror is not None:
        words.append("--mirror" if args.mirror else "--no-mirror")
    if args.tray is not None:
        words += ["--tray", ",".join(f"{share:g}" for share in args.tray.as_list()) or "whole"]
    return shlex.join(words)


def cmd_simulate_dice(args: argparse.Namespace) -> int:
    """Play a dice sensor on a pty until interrupted (or until the script ends with --exit); 1 when a script step
    could not be played, though the others were.

    Ctrl-C ends it as it ends every other command, with exit 130 (`companion.cli.main` says it stopped), after
    saying how many of the random rolls were played when it came mid-way; it ended 0, so a script driving the
    simulator could not tell a run cut short from one played out.
    """
    from companion.cli import cafe_dir
    from hardware.dice_sim import SimulatedSensor, idle, random_face, run_script, script_refusals

    cafe = cafe_dir(args)  # the café's own die and board, which the table referees with
    if args.script and (refusals := script_refusals(args.script, cafe)):  # before a sensor is plugged in to play it
        for refusal in refusals:
            print(f"companion hw simulate-dice: {refusal}", file=sys.stderr)
        return 2
    unrolled = [flag for flag, value in (("--interval", args.interval), ("--seed", args.seed), ("--die", args.die))
                if value is not None]
    if unrolled and not args.random:  # passed over: `--seed 3` alone rolled nothing, and said nothing of it
        return _unused("hw simulate-dice", unrolled, "sets the --random rolls", "no --random N is given",
                       f"add --random N, or leave {'it' if len(unrolled) == 1 else 'them'} out")
    sensor = SimulatedSensor(Path(args.link) if args.link else None).plug()
    print(sensor.path, flush=True)
    bad = 0
    rolled = 0
    if args.link:
        print(f"  (a link to {sensor.tty_path}; it survives 'unplug'/'plug' in a script)", flush=True)
    try:
        idle(sensor, args.delay)
        if args.script:
            bad = run_script(sensor, args.script, lambda s: print(s, flush=True), cafe=cafe)
        rng = random.Random(args.seed)
        for _ in range(args.random):
            idle(sensor, RANDOM_INTERVAL if args.interval is None else args.interval)
            if args.die is None:
                value = rng.randint(1, 6)
                sensor.roll(value)
                print(f"sim: roll {value}", flush=True)
            else:  # the die named, as a script's `roll ? DIE` throws it: the temple's d20 rolled 1 to 6 here
                value, colour = random_face(args.die, None, rng, cafe)
                sensor.roll(value, args.die, 100, colour)
                print(f"sim: roll {value} {args.die}{f' 100 {colour}' if colour else ''}", flush=True)
            rolled += 1
        if not args.exit:
            while True:
                sensor.answer_queries(1.0)
        sensor.settle()  # the reader takes the script's last roll before the port goes
    except KeyboardInterrupt:
        if rolled < args.random:
            print(f"sim: stopped (Ctrl-C) after {rolled} of {args.random} random rolls", flush=True)
        raise
    finally:
        sensor.unplug()
    return 1 if bad else 0


def cmd_hw_test(args: argparse.Namespace) -> int:
    from hardware.panel import make_pin_factory
    from hardware.selftest import self_test

    refused = _no_buttons_config(args, "hw test")
    if refused is not None:
        return refused
    if args.auto and args.buttons != "mock":
        # With real pins nothing can press for you, and without a box there is nothing to press: it was passed
        # over, and `--buttons gpio --auto` waited on each button as if no --auto were given.
        mend = ("leave it out and press each button when asked" if args.buttons == "gpio" else
                "add --buttons mock, or leave it out")
        return _unused("hw test", ["--auto"], "presses the simulated buttons of --buttons mock for you",
                       f"--buttons is {args.buttons}", mend)
    timed = [flag for flag, value in (("--timeout", args.timeout), ("--dwell", args.dwell)) if value is not None]
    if timed and args.buttons == "none":  # passed over: no light is lit and no button waited for
        return _unused("hw test", timed, "times the lights and buttons", "--buttons is none",
                       f"add --buttons gpio (or mock), or leave {'it' if len(timed) == 1 else 'them'} out")
    if args.timeout == 0 and not args.auto:
        # Every button was "NOT PRESSED within 0 s - check the wiring", blaming wires nobody had a moment to test.
        print("companion hw test: --timeout 0 leaves no time to press a button: give the seconds to wait for each "
              f"(default {BUTTON_WAIT:g}), or add --auto with --buttons mock", file=sys.stderr)
        return 2
    ports = [args.dice_sensor] if args.dice_sensor else None
    tag_files = tag_file_lines(_carded_games(args))
    if args.buttons == "none":  # a table without a button box: its wiring and GPIO are no finding
        return self_test({}, None, ports, tag_files=tag_files)
    factory = functools.partial(make_pin_factory, args.buttons)  # made inside the check: no GPIO is one finding
    config = _config(args)
    print(config_source(Path(args.hardware_config) if args.hardware_config else None), flush=True)
    return self_test(config, factory, ports, timeout=BUTTON_WAIT if args.timeout is None else args.timeout,
                     dwell=LIGHT_DWELL if args.dwell is None else args.dwell, auto_press=args.auto, tag_files=tag_files)


def _carded_games(args: argparse.Namespace) -> list[Game]:
    """The games with cards, on the café's data as the table plays them; one whose café data is broken is left to
    `companion data validate` (starting it is refused with the same problems)."""
    from companion.cli import cafe_dir
    from companion.errors import CompanionError

    games = []
    for game_id in sorted(game_classes()):
        try:
            game = create(game_id, cafe_dir(args))
        except CompanionError:
            continue
        if game.card_copies():
            games.append(game)
    return games


def cmd_hw_bench(args: argparse.Namespace) -> int:
    from hardware.bench import bench_sensor

    game_cls = game_class(args.game)
    if not game_cls.dice:
        rolled = ", ".join(gid for gid, cls in sorted(game_classes().items()) if cls.dice)
        print(f"companion: {game_cls.title} ({game_cls.id}) has no die to roll; bench a game that has one: {rolled}",
              file=sys.stderr)
        return 2
    result = bench_sensor(args.game, args.rolls, journal=not args.no_journal, seed=args.seed)
    code = 130 if result["stopped"] else 0  # Ctrl-C: the rolls measured so far are still reported
    rolls = f"{result['rolls']} of {args.rolls} rolls (stopped by Ctrl-C)" if result["stopped"] else (
        f"{result['rolls']} rolls")
    if args.json:
        print(json.dumps(result))
        if result["stopped"]:  # said beside the JSON too, as every command stopped by Ctrl-C says it (README)
            print(f"companion: hw bench: partial: {rolls}", file=sys.stderr)
        return code
    where = "with the durable journal commit" if result["journal"] else "without a journal"
    print(f"serial line to action applied ({result['game']}, {rolls} over a pty, {where}):")
    print(f"  median {result['median_ms']:.2f} ms   p99 {result['p99_ms']:.2f} ms   max {result['max_ms']:.2f} ms")
    return code


def cmd_hw_teach(args: argparse.Namespace) -> int:
    """Link tags to cards: one pair from the command line, or each tag the reader reports, asked in turn."""
    from hardware.dice_link import DiceLink
    from hardware.dice_protocol import SlotReport

    if args.dice_sensor and (args.tag is not None or args.card is not None):
        # The board's teaching began and --tag/--card were passed over; with --tag, the sensor was.
        given = [flag for flag, value in (("--tag", args.tag), ("--card", args.card)) if value is not None]
        return _unused("hw teach", given, "links one tag to a card without the board",
                       "--dice-sensor teaches each tag laid on the board", "give one or the other")
    from companion.cli import cafe_dir

    game_cls = game_class(args.game)
    game = create(args.game, cafe_dir(args))
    copies = game.card_copies()  # every card of the café's decks, not the opening's
    known = set(copies)
    if not known:  # `--game ttd --tag 04A1 --card P05` said "No card 'P05' in the Through the Desert data." (exit 1)
        carded = ", ".join(g for g in sorted(game_classes()) if create(g, cafe_dir(args)).card_copies())
        tokens = [game_cls.deck_names.get(d, d) for d in sorted(game_cls.token_decks)]
        not_cards = f" (its {series(tokens)} are no cards)" if tokens else ""
        print(f"companion: hw teach: argument --game: {game_cls.title} has no cards for tags to name{not_cards}; "
              f"the games with cards: {carded} (--game temple, the default)", file=sys.stderr)
        return 2
    if args.tag and not args.card:
        print(f"Give the card of tag {args.tag} with --card CARD.", file=sys.stderr)
        return 2
    names = game.card_names()
    card = card_named(args.card, known, names) if args.card else None
    if args.tag and card is None:
        # It said "No card 'P5' in the ... data." and ended 1, as if the machine were at fault, naming no card.
        print(f"companion: hw teach: argument --card: {no_such_card(args.card, known, names)} in the "
              f"{game_cls.title} data; its cards: {card_ids(known)}", file=sys.stderr)
        return 2
    tags = TagMap.to_teach(Path(args.tags) if args.tags else default_tags_path(args.game))  # never over a non-tag file
    if args.tag:
        tags.teach(args.tag, card, copies[card])  # type: ignore[arg-type,index]  # found above
        print(f"tag {args.tag} -> card {card}{f' ({names[card]})' if card in names else ''}  ({tags.path})")
        return 0
    if not args.dice_sensor:
        print("Give --tag TAG --card CARD, or --dice-sensor URL to teach from the board.", file=sys.stderr)
        return 2
    if sys.stdin is None:  # `<&-`: it said "input stopped: input(): lost sys.stdin" and ended 0, having taught nothing
        print("companion: hw teach reads the card ids typed in answer from its standard input, which is closed; "
              "run it at a terminal, or link one tag with --tag TAG --card CARD", file=sys.stderr)
        return 1
    tolerant_stdin()  # card ids are typed in answer; a stray non-UTF-8 byte must not end the teaching
    # Tags and typed lines in one queue, so a 'q' typed while no card lies on the board ends the teaching then,
    # not once a tag is next laid (its answer was read only after a tag's question).
    inbox: queue.Queue[SlotReport | str | None] = queue.Queue()

    shown: list[bool | None] = [None]

    def link_state(observation: Observation) -> None:
        """Without this a port that cannot be opened would leave the café owner waiting on a silent prompt."""
        if isinstance(observation, LinkChanged) and not observation.note and observation.up is not shown[0]:
            # In play's words (`link_text`): teaching said "[sensor connected: ...]", play "[dice sensor ...]".
            text = link_text(observation, shown[0])
            shown[0] = observation.up
            print(f"  [{text}]{'' if observation.up else ' - Ctrl-C to stop'}", flush=True)

    # Targi's 57 cards are 64 to sticker: "(57 cards)" counted kinds, and an owner stopping at 57 left 7 copies bare.
    total = sum(copies.values())
    counted = (f"{len(known)} cards" if total == len(known) else
               f"{len(known)} different cards, {total} in the deck with their copies: each copy takes a tag of its own")
    print(f"Lay each card on any slot; type its card id{' or name' if names else ''} ({counted}), or q to stop.",
          flush=True)
    def slot_report(message: Message) -> None:
        """Only what the prompt asks about is queued: on a garbage stream every bad line piled up for as long
        as the prompt stood open (tens of megabytes an hour at 115200 baud)."""
        if isinstance(message, SlotReport) and message.tag is not None:
            inbox.put(message)

    asked: list[SlotReport] = []  # the tag whose card is asked for, then those laid meanwhile
    taught = 0  # this run's links: an input that ends before any taught nothing, which must not end 0

    def ask_next() -> None:
        if asked:
            tag, slot = asked[0].tag, asked[0].slot
            current = tags.card(tag)  # type: ignore[arg-type]  # only tagged reports are queued
            print(f"tag {tag} (slot {slot}){' is ' + current if current else ''}: card? ", end="", flush=True)

    link = DiceLink(args.dice_sensor, link_state, on_message=slot_report)
    try:
        link.start()  # inside the try: a Ctrl-C right after the port's first report still ends quietly
        start_reading(_typed_line, inbox, lambda error: print(f"  input stopped: {error}", flush=True))
        while True:
            try:
                # Not a bare get(): the kernel may hand Ctrl-C to the link's thread, and a main thread
                # blocked without a timeout would then never run Python's handler and never end.
                item = inbox.get(timeout=0.5)
            except queue.Empty:
                continue
            if item is None:  # the input ended
                if taught:
                    return 0
                if asked:  # the card question stands unanswered on stdout: the reason starts a line of its own
                    print(flush=True)
                print(f"companion: hw teach: the input ended before any card id was typed, so no tag was taught "
                      f"({tags.path} is as it was); type the ids at a terminal, or link one tag with "
                      "--tag TAG --card CARD", file=sys.stderr)
                return 1
            if isinstance(item, SlotReport):
                asked.append(item)
                if len(asked) == 1:
                    ask_next()
                continue
            answer = item.strip()
            if answer.lower() == "q":
                return 0
            if not asked:
                if answer:
                    print(f"  no card lies on a slot yet: lay {answer} on one first (q to stop)", flush=True)
                continue
            if (card := card_named(answer, known, names)) is not None:
                tags.teach(asked[0].tag, card, copies[card])  # type: ignore[arg-type]
                taught += 1
                tagged = sum(1 for c in tags.links.values() if c in known)  # the owner sees when the deck is done
                print(f"  saved ({tagged} of {total} cards tagged; {tags.path})")
            elif answer:
                # The same tag is asked again: a mistyped id ("P5") moved on to the next tag, or to none, and the
                # card whose id was mistyped stayed untaught until it was lifted and laid again.
                print(f"  {no_such_card(answer, known, names)}; the cards: {card_ids(known)} (Enter passes this tag "
                      "over)")
                ask_next()
                continue
            asked.pop(0)
            ask_next()
    except KeyboardInterrupt:
        # Ended 0, so a setup script could not tell a teaching cut short from one the café ended with 'q'; now
        # 130 as every command (`companion.cli` says it stopped), after what this run taught.
        if asked:  # the card question stands unanswered on stdout: the summary starts a line of its own
            print(flush=True)
        done = (f"{taught} tag{'' if taught == 1 else 's'} taught this run, saved in {tags.path}" if taught else
                f"no tag taught this run ({tags.path} is as it was)")  # fmt: skip
        print(f"  stopped (Ctrl-C): {done}", flush=True)
        raise
    finally:
        link.stop()


def cards_called(text: str, known: set[str], names: Mapping[str, str]) -> list[str]:
    """The cards of ``known`` that ``text`` names: its id in any case, blanks around it dropped ("p05" is P05), or
    the name printed on it (``names``, `Game.card_names`) in any case, with or without its apostrophes and
    underscores ("Golden Compass", "camels blessing" for camels_blessing). More than one: a name two cards share.

    A café reads the card in hand and types it as it comes: "p05" was "no card 'p05'", and Blackpool's and the
    desert race's cards, whose faces show a name, were taught by their data ids alone ('golden_compass').
    """
    said = text.strip()
    if said in known:
        return [said]
    if by_id := [card for card in known if card.lower() == said.lower()]:
        return by_id
    key = _name_key(said)
    return sorted(card for card in known if key and key in (_name_key(card), _name_key(names.get(card, ""))))


def _name_key(words: str) -> str:
    """A card's name or id as typed: `said_as` (case, spacing, underscores), and its apostrophes aside."""
    return said_as(words).replace("'", "").replace("\u2019", "")


def card_named(text: str, known: set[str], names: Mapping[str, str]) -> str | None:
    """The one card ``text`` names (`cards_called`), or None."""
    found = cards_called(text, known, names)
    return found[0] if len(found) == 1 else None


def no_such_card(text: str, known: set[str], names: Mapping[str, str]) -> str:
    """Why ``text`` names no one card: a name two cards share, named with their ids; else none of the cards."""
    found = cards_called(text, known, names)
    if len(found) > 1:
        return f"{quoted(text.strip())} is the name of {series(found)}: type the id of the one in hand"
    return f"no card {quoted(text)}"


def card_ids(cards: set[str]) -> str:
    """Card ids as a refusal lists them, each run of one prefix and width as its ends: "AK, P01 to P49" (fifty
    ids written out were a paragraph of them)."""
    runs: list[tuple[str, str, str]] = []  # prefix and digits of the run's first id, digits of its last
    for card in sorted(cards):
        found = re.fullmatch(r"(.*?)([0-9]+)", card)
        if found and runs and runs[-1][0] == found[1] and len(runs[-1][2]) == len(found[2]) \
                and int(runs[-1][2]) + 1 == int(found[2]):
            runs[-1] = (runs[-1][0], runs[-1][1], found[2])
        else:
            runs.append((found[1], found[2], found[2]) if found else (card, "", ""))
    return ", ".join(f"{p}{first}" if first == last else f"{p}{first} to {p}{last}" for p, first, last in runs)


def _typed_line() -> str | None:
    """A line typed in answer, None when the input ends (the prompt is written by the teaching loop)."""
    try:
        return input()
    except EOFError:
        return None


def _demo_players(game_id: str) -> list[str]:
    """Red and blue where the game has them (Blackpool's demo, as the README shows it), else its first two colours."""
    colours = list(game_class(game_id).colours)
    return ["red", "blue"] if {"red", "blue"} <= set(colours) else colours[:2]


def _demo_refusal(game_id: str, players: list[str] | None = None, roll: int = 6) -> str | None:
    """Why the demo's script (a roll, then confirm on the choice it brings) cannot play ``game_id``, if it cannot.

    Played on a new game without a journal, before anything is shown. A roll
    the game refuses is left to the script, which names the referee's reason.
    """
    session = Session.new(game_id, players or _demo_players(game_id))
    if session.pending().kind != "roll":
        return "does not begin with a roll"
    rolled = [a for a in session.legal() if a.get("value") == roll]
    if not rolled:
        return None
    session.act({key: value for key, value in rolled[0].items() if key != "text"})
    after = session.pending()
    if after.kind == "choose":
        return None
    return f"asks for no choice after its first roll (next: {after.text.rstrip('.')})"


def _faces_text(faces: list[Any]) -> str:
    """A die's faces as a refusal names them: "1 to 6" when they run on, else each once ("X, 1, 2, 7")."""
    shown = list(dict.fromkeys(faces))
    numbers = [f for f in shown if isinstance(f, int)]
    if numbers == shown and numbers == list(range(min(numbers), max(numbers) + 1)):
        return f"{min(numbers)} to {max(numbers)}"
    return ", ".join(str(f) for f in shown)


def cmd_hw_demo(args: argparse.Namespace) -> int:
    """A turn (Blackpool's unless --game) through the terminal referee from a simulated roll and button press.

    Its players are red and blue, or the game's first two colours where it has
    not those, unless --players names them:
    "red,blue" for every game ended Through the Desert's demo at once on an
    unknown colour. A game that does not begin with a roll is refused by name,
    as is one whose first roll brings no choice for the confirm button: the demo
    ended 1 after the board was shown, or waited 10 s for a step that never came.
    """
    import tempfile

    from companion.journal import Journal
    from hardware.dice_link import DiceLink
    from hardware.dice_sim import SimulatedSensor
    from hardware.panel import Panel, make_pin_factory

    game_cls = game_class(args.game)
    # as `play` reads them: "red, blue" too
    players = split_players(args.players) if args.players else _demo_players(game_cls.id)
    faces = [face["value"] for die in game_cls.dice for face in die.faces]
    # A game the demo cannot play is said first, whatever the roll: mending the roll alone would not do.
    refusal = _demo_refusal(game_cls.id, players, args.roll if args.roll in faces else 6)
    if not refusal and faces and args.roll not in faces:
        # The board was shown and the demo then stopped on the referee's "the oracle shows 1 to 6, not 9" (exit 1).
        print(f"companion: hw demo: argument --roll: {game_cls.title}'s die shows {_faces_text(faces)}, "
              f"not {args.roll}", file=sys.stderr)
        return 2
    if refusal:
        plays = ", ".join(gid for gid in sorted(game_classes()) if not _demo_refusal(gid))
        print(f"companion: the demo rolls a die, then confirm takes the first choice the roll brings; "
              f"{game_cls.title} {refusal}. The demo plays: {plays}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder, SimulatedSensor() as sensor:
        session = Session.new(args.game, players, journal=Journal(Path(folder) / "demo.sqlite3"))
        terminal = Terminal(session, lambda: None, sys.stdout)
        terminal.farewell = "Bye. The demo played on a scratch journal, which is gone with it."
        steps: queue.Queue[Update] = queue.Queue()
        kinds = ("step", "link", "unapplied", "refused")
        terminal.controller.add_output(lambda u: steps.put(u) if u.kind in kinds else None)
        finished: list[bool] = []
        panel = Panel(load_config(), terminal.controller.submit, make_pin_factory("mock"))
        panel.lights.follow(terminal.controller)
        terminal.press = panel.press
        link = DiceLink(sensor.path, terminal.controller.submit)

        def wait_for(kind: str) -> Update:
            """The next update of ``kind``; a refusal or a silence ends the demo through the terminal's input guard."""
            while True:
                try:
                    update = steps.get(timeout=10)
                except queue.Empty:
                    raise TimeoutError(f"the demo waited 10 s for a {kind} and none came") from None
                if update.kind == kind:
                    return update
                if update.kind in ("unapplied", "refused"):
                    raise RuntimeError(f"the demo stops here, its scripted step was not taken: {update.text}")

        def script() -> Iterator[str]:
            wait_for("link")
            time.sleep(args.pause)  # let the referee finish showing the board before each scripted step
            print(f"\n[demo] the dice sensor on {sensor.tty_path} reports a roll of {args.roll}", flush=True)
            sensor.roll(args.roll)
            wait_for("step")
            time.sleep(args.pause)
            print("\n[demo] the confirm button is pressed (mock GPIO pin driven low)", flush=True)
            panel.press("confirm")
            wait_for("step")
            time.sleep(args.pause)
            print("\n[demo] q", flush=True)
            finished.append(True)
            yield "q"

        lines = script()
        link.start()
        try:
            code = terminal.run_live(lambda: next(lines, None))
            return code if finished else 1
        finally:
            link.stop()
            panel.close()
            if session.journal is not None:
                session.journal.close()


PORT = "a serial port such as /dev/ttyUSB0, or a pyserial URL such as loop://"
TAG_FILE = "a tag file's path (leave --tags out for the default one)"
CAMERA = "a camera source: 0, picamera, a URL, a video or a folder"
BUTTON_WAIT = 10.0  # seconds `hw test` waits for each button to be pressed
LIGHT_DWELL = 0.5  # seconds `hw test` keeps each light on
RANDOM_INTERVAL = 3.0  # seconds between `simulate-dice --random` rolls: time to read each one as it comes
# The most rolls one run plays: a bench roll takes about 30 ms over a pty, so this is minutes; ten million ran
# until Ctrl-C.
MAX_ROLLS = 10_000


def port(text: str) -> str:
    """A serial port (or what will be one once the sensor is plugged in), or a URL whose kind pyserial knows:
    `--dice-sensor bogus://x` played on, the table told "dice sensor not found: ... protocol 'bogus' not known;
    will keep looking", for a port no wait would bring, and so did a file or a folder named as the port."""
    named(PORT)(text)
    path = Path(text)
    if path.is_dir() or path.is_file():  # a port is a device (a tty, or a link to one), or not there yet
        # `hw test` said "Could not configure port: (25, 'Inappropriate ioctl for device')" of a file.
        raise argparse.ArgumentTypeError(f"{text!r} is a {'folder' if path.is_dir() else 'file'}, not a serial "
                                         f"port: give {PORT}")
    scheme, url, _ = text.partition("://")
    if url and (known := _url_kinds()) and f"{scheme.lower()}://" not in known:
        raise argparse.ArgumentTypeError(f"{text!r} is a URL of a kind pyserial has not ({', '.join(known)}): give "
                                         f"{PORT}")
    return text


def _url_kinds() -> list[str]:
    """The URL kinds pyserial opens (loop://, socket://, ...), read from its package only when a URL is given."""
    try:
        import serial.urlhandler
    except ImportError:  # no pyserial: the link says so when it starts
        return []
    modules = pkgutil.iter_modules(serial.urlhandler.__path__)
    return sorted(f"{m.name.removeprefix('protocol_')}://" for m in modules if m.name.startswith("protocol_"))


def camera(text: str) -> str:
    """A camera source that can name one on some machine (`vision.sources.misnamed`, as `vision watch` reads it):
    `hw play --camera 99999` and a file:// URL of another host played on, the table told the camera was not
    found and would be looked for again, for a camera no wait brings."""
    named(CAMERA)(text)
    from vision.sources import misnamed  # OpenCV is loaded only when a camera is named

    if (why := misnamed(text)) is not None:
        raise argparse.ArgumentTypeError(why)
    return text


LINK = "the path of the link to make (a link there is replaced, never a file or folder)"


def die_type(text: str) -> str:
    """A die `simulate-dice --random` can throw: one of the games' dice, or dN (`hardware.dice_sim.random_faces`)."""
    from hardware.dice_sim import known_dice, random_faces, wire_refusal

    if wire_refusal("roll", [named("a die such as d20")(text)]) or isinstance(random_faces(text, None), str):
        raise argparse.ArgumentTypeError(f"{text!r} is no die whose faces are known: give {known_dice()}")
    return text


def link_path(text: str) -> str:
    """Where `simulate-dice --link` may make its link: not over a file or a folder, which it never replaces.

    `--link notes.txt` was refused only once the command ran (exit 1), and `--link DIR` as "a file that is not a
    link is there", of a folder.
    """
    path = Path(named(LINK)(text))
    if path.exists() and not path.is_symlink():
        raise argparse.ArgumentTypeError(f"{text!r} is a {'folder' if path.is_dir() else 'file'}: give {LINK}")
    return text


TAG_ID = "a tag id as the sensor reports it, such as 04A1"


def tag_id(text: str) -> str:
    """A tag id the sensor can report, without the blanks around it (the reader drops those from a field).

    `--tag 04,A1`, `--tag tagé` and `--tag -` were taught, and no slot report could ever name them: the wire is
    printable ASCII, a ',' parts its fields, a '$' starts a line, and '-' is the report of an empty slot.
    """
    tag = named(TAG_ID)(text).strip()
    if tag == "-" or not (tag.isascii() and tag.isprintable()) or "," in tag or "$" in tag:
        raise argparse.ArgumentTypeError(
            f"{quoted(text)} is no tag id the sensor can report (printable ASCII without ',' or '$'; '-' is an empty "
            f"slot): give {TAG_ID}")
    return tag


def register(subparsers: Any) -> None:
    hw = subparsers.add_parser("hw", help="table hardware: buttons, lights, the serial dice sensor")
    sub = hw.add_subparsers(dest="hw_command")
    hw.set_defaults(func=lambda args: usage(hw))

    def hardware_options(parser: argparse.ArgumentParser, buttons: str) -> None:
        parser.add_argument("--dice-sensor", metavar="URL", type=port,
                            help="serial port or pyserial URL (/dev/ttyUSB0, loop://)")
        parser.add_argument("--buttons", choices=("gpio", "mock", "none"), default=buttons, help="button box pins")
        parser.add_argument("--hardware-config", metavar="TOML", type=file_path("a pin map file's path"),
                            help="pin map (default: the user data dir)")

    play = sub.add_parser("play", help="the terminal referee with the sensor and buttons attached")
    add_play_arguments(play)
    hardware_options(play, "none")
    play.add_argument("--tags", type=file_path(TAG_FILE),
                      help="one tag file for every game (default: each game's own, in the user data dir)")
    play.add_argument("--camera", metavar="SOURCE", type=camera,
                      help="camera reading dice and cards: 0, picamera, a URL, a video or a folder (default: none)")
    picture_options(play)
    live_options(play)
    play.set_defaults(func=cmd_hw_play, reads_input=True)

    sim = sub.add_parser("simulate-dice", help="play a dice sensor on a new pty and print its path")
    sim.add_argument("--script", help="steps like 'roll 4; roll ? d20; wait 1; slot 3 04A1; unplug; wait 2; plug' "
                                      "(docs/hardware.md); each is checked before any is played")
    sim.add_argument("--random", type=count(0, MAX_ROLLS), default=0, metavar="N",
                     help=f"then N random rolls, of a d6 unless --die names another (at most {MAX_ROLLS})")
    sim.add_argument("--die", type=die_type,
                     help="the die the --random rolls throw: d20 (the temple's, with its colours), oracle, d6 or dN "
                          "(default: a d6 sent as d6)")
    sim.add_argument("--interval", type=seconds,
                     help=f"seconds between the --random rolls (default {RANDOM_INTERVAL:g})")
    sim.add_argument("--delay", type=seconds, default=0.0, help="seconds to wait before the script")
    sim.add_argument("--link", type=link_path,
                     help="also make this symlink to the pty (a stable name across unplug/plug)")
    sim.add_argument("--seed", type=int,
                     help="the same seed rolls the same --random values (default: a new one)")
    sim.add_argument("--exit", action="store_true", help="exit after the script instead of staying plugged in")
    # The café's die and board are read to check a script's steps and to throw --die: without either, plain d6
    # rolls, and `companion --cafe DIR` is refused (`companion.cli._cafe_passed_over`).
    sim.set_defaults(func=cmd_simulate_dice, cafe_unread=lambda args: None if args.script or args.die else (
        " without --script or --die (a script's steps are checked, and --die thrown, on the café's die)"))

    test = sub.add_parser("test", help="wiring self-test: each light, each button, the serial sensor")
    hardware_options(test, "gpio")
    test.add_argument("--timeout", type=seconds, help=f"seconds to wait for each button (default {BUTTON_WAIT:g})")
    test.add_argument("--dwell", type=seconds, help=f"seconds each light stays on (default {LIGHT_DWELL:g})")
    test.add_argument("--auto", action="store_true", help="with --buttons mock: press the buttons for you")
    test.set_defaults(func=cmd_hw_test, cafe_unread="")

    bench = sub.add_parser("bench", help="serial line to action applied: median and p99 over a real pty")
    bench.add_argument("--game", default="blackpool", help="a game with a die: blackpool (default), desert, temple")
    bench.add_argument("--rolls", type=count(1, MAX_ROLLS), default=300, help=f"default 300, at most {MAX_ROLLS}")
    bench.add_argument("--seed", type=int, default=1, help="the same seed rolls the same values (default 1)")
    bench.add_argument("--no-journal", action="store_true", help="leave out the durable journal commit")
    bench.add_argument("--json", action="store_true", help="print the timings as one JSON object")
    bench.set_defaults(func=cmd_hw_bench, cafe_unread=" (it times the house data)")

    teach = sub.add_parser("teach", help="link tag ids to a game's card ids (kept in the user data dir)")
    teach.add_argument("--game", default="temple", help="the game whose cards carry tags (default: temple)")
    teach.add_argument("--dice-sensor", metavar="URL", type=port, help="teach from slot reports on this port")
    # Named: an empty --tag (a shell variable left unset) was told to give --tag, as if none were typed.
    teach.add_argument("--tag", type=tag_id,
                       help="a tag id as the sensor reports it, linked to --card without the board")
    teach.add_argument("--card", type=named("the card id of --tag, as in the game's data (e.g. P07)"),
                       help="the card id of --tag, as in the game's data (e.g. P07)")
    teach.add_argument("--tags", type=file_path(TAG_FILE), help="tag file (default: the user data dir)")
    teach.set_defaults(func=cmd_hw_teach)

    demo = sub.add_parser("demo", help="a scripted Blackpool turn: simulated sensor roll, simulated button press")
    demo.add_argument("--game", default="blackpool", help="a game that begins with a roll (default: blackpool)")
    demo.add_argument("--players", type=named(PLAYERS),
                      help="comma-separated players (default: red,blue, or the game's first two colours)")
    demo.add_argument("--roll", type=int, default=6,
                      help="the sensor's roll, a face of the game's die (a 6 brings a runner out)")
    demo.add_argument("--pause", type=seconds, default=0.5, help="seconds between the scripted steps")
    demo.set_defaults(func=cmd_hw_demo, cafe_unread=" (the demo plays on the house data)")
