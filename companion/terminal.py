"""The terminal referee: the same session and journal, driven by typed lines.

Made for SSH or a laptop at the table: it shows the position and the pending
step, takes die values and card names as typed, lists the choices by number,
and offers undo, redo, disputes and the rulebook. While a roll or draw is asked
for, a bare number is what the table shows and a choice is typed '#7'.
"""

from __future__ import annotations

import contextlib
import json
import queue
import re
import textwrap
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any, TextIO

from companion.controller import Controller
from companion.errors import BadRequest, CompanionError, quoted
from companion.game import Action, Event
from companion.observations import ButtonPressed, Touch, Update
from companion.places import explain_place, typed_place
from companion.protocol import parse_json
from companion.registry import game_classes
from companion.schema import likely
from companion.scoresheet import score_lines
from companion.session import Session

# Updates after which the position and the choices are shown again.
CHANGES = frozenset({"step", "undo", "redo", "new_game"})
BUTTONS = ("confirm", "undo", "next", "menu", "settings")
QUIT = ("q", "quit", "exit")  # end the terminal, during play and at the new game's questions alike

HELP = """\
  <number>        take the numbered choice (while a roll or draw is asked for: see below)
  #<number>       take the numbered choice at any time (e.g. #7 beside a roll)
  <words>         take the one choice whose text has these words (e.g. green 3,0)
  all             list every choice, when there are too many to show each time
  <value>/<card>  when a roll or draw is pending: type what the table shows (e.g. 4, red 4, gust); 'rolled 4' is 4;
                  a bare number is then the roll, never a choice: choices are listed as #1, #2, ...
  u / undo        take back the last step (also corrects a misread roll); alone on its line
  redo            put it back; alone on its line
  check <n>       ruling on choice n (or on the choice with these words);  check {json}  ruling on any action
  why <place>     what may happen at a hex or cell (5,5), slot (3), space (dawn), card (noble),
                  square (c2) or piece (red-1), or why nothing may; names in any case or spacing
  do {json}       apply an action written as JSON; {json} alone does the same (e.g. {"type": "roll", "value": 3})
  rules [words]   the rulebook's clauses (those that mention the words);  rule <id>  one clause
  board           show the position again
  score           how each player's score so far is made up, part by part, with the clauses
                  (the protocol's score); in a race, where each player stands
  new             abandon this game and start another
  press <button>  press a table button: confirm, undo, next, menu, settings
  help / q        this text / quit (the game stays in the journal); q, quit or exit alone on its line"""

INPUT_THREAD = "terminal-input"
# Set from just before the typed-line reader starts until it has read its last line: a Ctrl-C landing while
# `Thread.start` waits for the new thread leaves a reader that runs but does not yet count as alive.
_reading = threading.Event()


def input_still_waiting() -> bool:
    """Whether the live referee's typed-line reader may still be blocked on its input.

    With stdin a pipe that stays open (a script, a test), that thread holds the
    pipe's buffer lock while it waits, and CPython aborts at shutdown when it
    cannot take that lock ("Fatal Python error: could not acquire lock for
    <stdin>"). A process whose referee has ended must then leave without the
    interpreter's shutdown; from a terminal, reading goes through readline and
    nothing of this happens.
    """
    return _reading.is_set()


def start_reading(read_line: Callable[[], str | None], inbox: queue.Queue[Any],
                  stopped: Callable[[Exception], None]) -> None:
    """Forward typed lines from ``read_line`` (which blocks) into ``inbox`` on a helper thread, None at the end.

    A command that also waits on a sensor must see a typed line as soon as it
    comes, not at its next question; the helper is marked for
    ``input_still_waiting``, so the process ends though it still waits.
    ``stopped`` hears an input source that broke, which ends the input too.
    """

    def forward() -> None:
        while True:
            try:
                line = read_line()
            except Exception as error:  # a broken input source ends the reading; it must not hang the command
                # Saying so can fail too: `hw demo | head` broke its script's print and then this report on the
                # closed pipe, and the thread died before the end below, leaving the command waiting for ever.
                with contextlib.suppress(Exception):
                    stopped(error)
                line = None
            inbox.put(line)
            if line is None:
                _reading.clear()
                return

    _reading.set()
    threading.Thread(target=forward, name=INPUT_THREAD, daemon=True).start()


# The words that take a step back or put one back, with what they do: alone on their line, or not taken.
STEPS_BACK = {"u": "take back the last step", "undo": "take back the last step", "redo": "put it back"}
LOOKUPS = frozenset({"h", "help", "?", "rules", "rule", "check", "why", "all", "score"})
SHOWN = 30  # choices listed after each step; Through the Desert offers hundreds, a wall no one reads
GAME_OVER = re.compile(r"\bgame (?:is )?over\b", re.IGNORECASE)
NUMBER_PAIR = re.compile(r"(?<=\d)\s*,\s*(?=\d)")  # the comma of '3, 0' or '3 ,0', spaces and all
TOKEN = re.compile(r"[\w,+\-]+")  # "(3,0)" is one token, so 3,0 never matches (13,0)


def _tokens(text: str) -> list[str]:
    return TOKEN.findall(text.lower())


def _number(text: str) -> int | None:
    """A typed whole number, else None.

    ``str.isdigit`` also takes '³', which ``int`` refuses, and ``int`` refuses thousands of
    digits; such a number is past every list of choices, so its first digits say as much.
    """
    if not text.removeprefix("-").isdecimal():
        return None
    return int(text[:19])


class NotUnderstood(ValueError):
    """A typed line the terminal cannot take, with the clause behind what it meant when a rule governs that
    (a face the die lacks, an action that is no JSON object); ``rule`` None: only the terminal's own words
    were not followed (an unknown command, a choice number past the list)."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule


def cited(rule: str | None) -> str:
    """A refusal's clause as the terminal writes it after the words ("  [BP-Q3]"); "" without one."""
    return f"  [{rule}]" if rule else ""


def _no_choice(typed: str, legal: list[Action], mark: str = "") -> str:
    """Why a typed number is no choice, with the numbers that are, written as they are typed (``mark``: '#')."""
    shown = typed if len(typed) <= 12 else typed[:9] + "..."
    if not legal:
        return f"no choice {mark}{shown}: there is nothing to choose now"
    return f"no choice {mark}{shown}: the choices are numbered {mark}1 to {mark}{len(legal)}"


def _fits(typed: list[str], text: str) -> bool:
    """Every typed token is a word of the choice's text; a typed word may stop short ('gre' for green)."""
    words = _tokens(text)
    return all(any(w == t or (t.isalpha() and w.startswith(t)) for w in words) for t in typed)


def choices_with_words(text: str, legal: list[Action]) -> list[Action]:
    """The offered actions whose words hold every word of ``text`` ("green 3, 0", "end the turn"): how a line of
    words takes a choice here, and how the dispute screen reads words typed in its field (ui/app.py)."""
    typed = list(dict.fromkeys(_tokens(NUMBER_PAIR.sub(",", text.lower()))))
    return [a for a in legal if typed and _fits(typed, str(a.get("text", "")))]


def _keys(action: Action) -> set[str]:
    """Words a player might type for a roll or draw: '4', 'red 4' or '4 red', a card id or its name."""
    keys = set()
    for field in ("value", "card"):
        if field in action:
            keys.add(str(action[field]).lower())
            keys.add(str(action[field]).lower().replace("_", " "))  # 'gust of force', as the prompt lists it
    face = action.get("face")
    if isinstance(face, dict) and "value" in action:
        faces = [str(v) for v in face.values()]
        keys.add(" ".join([str(action["value"]), *faces]).lower())
        # 'red 1' as the prompt lists it: read as words it also fitted "Play the Ah Kinchil card: Red 1 ..."
        keys.add(" ".join([*faces, str(action["value"])]).lower())
    keys.add(str(action.get("text", "")).lower())
    return keys


# The words before a roll said as a sentence: "roll 3", "rolled a 3", "we got 5", "shows red 4". Read as a face,
# "roll 3" was "the die has no face 'roll 3'", beside a die that has a 3.
ROLLED = re.compile(r"^(?:(?:i|we|they|he|she)\s+)?(?:(?:roll(?:ed|s)?|got|shows?|showing)\s+(?:an?\s+)?)+")
CHOICE_MARK = "#"  # '#7' is choice 7 whatever is pending; a bare 7 is the roll while a roll is asked for
CHANCE = ("roll", "draw")


def _label(number: int, chance: bool) -> str:
    """How a choice is typed: '#7' while the table is asked for a roll or draw, where a bare 7 is the roll."""
    return f"{CHOICE_MARK}{number}" if chance else str(number)


def _marked(text: str) -> str | None:
    """What follows the choice mark in '#7' or '# 7', else None: the mark says a number is a choice's."""
    return text.removeprefix(CHOICE_MARK).strip() if text.startswith(CHOICE_MARK) else None


def _reported(legal: list[Action], kind: str) -> list[str]:
    """What the table may report for a pending roll or draw, each once.

    The temple die shows 1 on a red face and on a white one, which listed '1, 1';
    and a card one may play instead of rolling (the desert's Flask) is no value
    the die shows, though it was listed among them.
    """
    return list(dict.fromkeys(_shows(a) for a in legal if a.get("type") == kind))


def _shows(action: Action) -> str:
    """What the table shows for a roll or draw: the die's value or the card, a card id spelt as words.

    The prompt listed "desert_flask, sunshield_amulet" and "gust_of_force": the
    data's ids, not anything printed on a card; "gust of force" is typed as is.
    """
    return str(action.get("value", action.get("card"))).replace("_", " ")


def _listed(legal: list[Action], kind: str) -> list[str]:
    """What the table may report, each as it is typed: a value shown on several faces with its face.

    The temple die's prompt listed "X, 1, 2, ..., 7"; each number typed as listed
    fitted a red face and a white one, and every roll took a second line.
    """
    actions = [a for a in legal if a.get("type") == kind]
    counts = Counter(_shows(a) for a in actions)
    shown = []
    for action in actions:
        value = _shows(action)
        face = action.get("face")
        if counts[value] > 1 and isinstance(face, dict) and "value" in action:
            value = " ".join([*(str(v) for v in face.values()), value])  # 'red 4', as the choice reads
        shown.append(value)
    return list(dict.fromkeys(shown))


def _instead_example(legal: list[Action], kind: str) -> int:
    """The choice the mark is most likely wanted for: the first that is not a roll or draw (a card played
    instead), else the first."""
    return next((i for i, a in enumerate(legal, 1) if a.get("type") != kind), 1)


def _not_reported(typed: str, number: int, legal: list[Action], kind: str) -> str:
    """Why a bare number is neither the roll nor a card here, and the exact forms that would be.

    While the table is asked for a roll, '8' used to take choice 8 when no face
    showed 8: on the temple die that was 'red 4', and beside a desert roll '7'
    spent the Desert Flask. A bare number now never takes a choice then; this
    says what it was not, and what '#8' would take, so nothing happens unasked.
    """
    shown = typed if len(typed) <= 12 else typed[:9] + "..."
    values = _reported(legal, kind)
    listed = ", ".join(values[:12]) + (", ..." if len(values) > 12 else "")
    if kind == "roll":
        head = f"{shown} is not a value the die can show now ({listed})"
    else:
        like = [v for v in values if number >= 0 and re.fullmatch(r"\D*0*" + str(number), v)]
        hint = f"'{like[0]}'" if len(like) == 1 else "its name or id"
        head = f"{shown} names no card of this draw: type the card as it shows, {hint}"
    if 1 <= number <= len(legal):
        tail = f"'{CHOICE_MARK}{number}' takes choice {number} ({legal[number - 1]['text']})"
    elif legal:
        tail = f"the choices are {CHOICE_MARK}1 to {CHOICE_MARK}{len(legal)}"
    else:
        tail = "there is nothing to choose now"
    return f"{head}; {tail}"


def _no_face(typed: str, legal: list[Action]) -> str:
    """Why a typed face ('red 9' beside the temple die) is no roll, and the faces that are.

    It was answered "Not understood. Type 'help' for the commands.", as if the
    line were no roll at all, while a bare '9' is told the values the die shows.
    """
    shown = typed if len(typed) <= 12 else typed[:9] + "..."
    faces = list(dict.fromkeys(_face_words(a) for a in legal if a.get("type") == "roll"))
    listed = ", ".join(faces[:16]) + (", ..." if len(faces) > 16 else "")
    return f"the die has no face '{shown}'; it shows {listed}"


def _face_words(action: Action) -> str:
    """A roll as the prompt lists it: 'red 4' (the face's colour, then its value), 'X', '5'."""
    face, value = action.get("face"), str(action.get("value"))
    if isinstance(face, dict) and value != "X":
        return " ".join([*map(str, face.values()), value])
    return value


def _which(matches: list[Action], typed: str, legal: list[Action]) -> str:
    """What to type for each face a value fits: 'red 1' or 'white 1'; '#N' for a face no words single out.

    The example used to be any one key of the first face, picked in set order, so
    a table that typed '1' was often told to type '1' again; and "type its
    number" then meant a bare number, which is the roll itself.
    """
    keys = [_keys(action) - {typed} for action in matches]
    shown = []
    for i, mine in enumerate(keys):
        others = set().union(*(k for j, k in enumerate(keys) if j != i))
        own = sorted(mine - others, key=lambda key: (len(key), key[:1].isdigit(), key))  # "red 1", as listed
        number = next((n for n, a in enumerate(legal, 1) if a is matches[i]), None)
        if own:
            shown.append(f"'{own[0]}'")
        elif number is not None:
            shown.append(f"'{CHOICE_MARK}{number}'")
    return " or ".join(shown[:6]) if shown else f"'{CHOICE_MARK}' and its number"


def _unknown_line(line: str, legal: list[Action]) -> str:
    """Why a line is neither a command nor words of a choice, saying which it was taken for.

    Everything else was "Not understood. Type 'help' for the commands.": an action pasted as JSON without
    'do', the protocol's 'explain' and a misspelt card alike, with nothing said back of what was typed.
    """
    text = line.strip()
    word = text.split()[0]
    if word.lower() == "explain":  # the referee protocol's command for what the terminal asks with 'why'
        return "here a place is asked about with 'why', e.g. 'why' and the place as the board names it"
    command = f"{quoted(word)} is no command{_command_meant(word)}"
    if not legal:
        return f"{command}, and there is nothing to choose now; 'help' lists the commands"
    words = f"the words {quoted(text)}" if text != word else "that word"
    return f"{command}, and no choice has {words}; 'all' lists every choice, 'help' the commands"


COMMANDS = ("help", "undo", "redo", "check", "why", "rules", "rule", "board", "score", "all", "press", "new", "quit",
            "exit", "do")


def _command_meant(word: str) -> str:
    """`` (is it 'help'?)`` for a slip of a command ('hlep', 'udno', 'socre'), never taken for it: an undo
    guessed from a typo would change the game unasked. Words under four letters are left alone ('red' is
    a colour, not a slip of 'redo')."""
    meant = likely(word.lower(), COMMANDS) if len(word) >= 4 and word.isalpha() else None
    return f" (is it {quoted(meant)}?)" if meant is not None else ""


def _example(legal: list[Action], kind: str | None) -> str:
    """Words that take the last choice and no other, to show under a long list.

    Its first word and last number ("white 13,12") used to be shown whether or not
    they singled it out: beside Targi's 45 tribe cards "drawn 1" fitted 40 of them.
    Beside a draw the card as the table shows it ("T45") comes first.
    """
    last = legal[-1]
    words = list(dict.fromkeys(_tokens(last["text"]))) or ["..."]
    numbers = [w for w in words if any(c.isdigit() for c in w)]
    candidates = [" ".join(dict.fromkeys([words[0], *numbers[-1:]]))]
    if kind is not None and last.get("type") == kind:
        candidates.insert(0, _shows(last))
    candidates += [*words, *(f"{a} {b}" for i, a in enumerate(words) for b in words[i + 1 :])]
    for candidate in candidates:
        typed = candidate.lower()
        if kind is not None and any(typed in _keys(a) for a in legal):
            if sum(typed in _keys(a) for a in legal) == 1:
                return candidate
            continue
        if sum(_fits(_tokens(typed), a["text"]) for a in legal) == 1 and _number(typed) is None:
            return candidate
    return candidates[0]


class Terminal:
    """Typed lines and table inputs share one controller, so every input lights, speaks and journals alike."""

    def __init__(
        self,
        session: Session | None,
        make_session: Callable[[], Session | None],
        out: TextIO,
        controller: Controller | None = None,
        press: Callable[[str], bool] | None = None,
    ) -> None:
        self.session = session
        self.make_session = make_session
        self.out = out
        self.farewell: str | None = None  # said on quitting instead of the journal's promise (a demo's)
        self.resume_command: str | None = None  # set when a bare `companion play` would not find this journal
        self.controller = controller or Controller()
        self.controller.add_output(self.report)
        self.press = press
        # Set by `run_live` while it runs: how a new game's questions are asked, through its one reader of
        # the typed lines. A second reader beside it raced it for each line (see `run_live`).
        self.ask: Callable[[str], str | None] | None = None

    def report(self, update: Update) -> None:
        """The terminal as a controller output: say what happened, whoever caused it."""
        if update.kind == "redo" and update.events:
            # Said as the touchscreen says it: bare, the redone step's lines read as a new move.
            self.say("  Put back:")
            self.announce(list(update.events))
        elif update.kind in ("step", "redo"):
            if update.events:
                self.announce(list(update.events))
            else:
                self.say(f"  {update.text}")
        elif update.kind == "undo":  # the clauses of what was taken back, as the step's own line cited them
            self.say(f"  {update.text}" + (f"  [{', '.join(update.rules)}]" if update.rules else ""))
        elif update.kind == "refused":
            cite = f"  [{', '.join(update.rules)}]" if update.rules else ""
            self.say(f"  Refused: {update.text}{cite}")
        elif update.kind == "unapplied" and update.rules:  # a reading the rules refuse names its clause
            self.say(f"  {update.text}  [{', '.join(update.rules)}]")
        elif update.kind == "link":
            self.say(f"  [{update.text}]")
        elif update.kind == "select":
            self.say(f"  -> {update.text}  (confirm takes it)")
        elif update.kind == "menu":  # the touchscreen opens a screen; said bare here, it read only "menu"
            self.say(f"  The {update.text} button opens the touchscreen's {update.text}; the terminal has none: "
                     "'new' starts another game, 'help' lists the commands.")
        elif update.kind != "new_game":
            self.say(f"  {update.text}")

    def start(self, session: Session) -> None:
        self.session = session
        self.controller.set_session(session)

    def pump(self) -> bool:
        """Handle what the table reported; True when the position changed."""
        updates = self.controller.pump()
        if self.controller.session is not self.session and self.controller.session is not None:
            self.session = self.controller.session
        return any(u.kind in CHANGES for u in updates)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def announce(self, events: list[Event]) -> None:
        for event in events:
            cite = f"  [{', '.join(event.rules)}]" if event.rules else ""
            self.say(f"  * {event.text}{cite}")

    def show(self) -> list[Action]:
        assert self.session is not None
        game = self.session.game
        self.say("")
        for line in game.describe(self.session.state):
            self.say("  " + line)
        pending = self.session.pending()
        self.say("")
        self.say(f"> {pending.text}")
        if pending.is_over:
            # Through the Desert's and Targi's own words already say the game is over: not twice in a row.
            over = "" if GAME_OVER.search(pending.text) else "The game is over. "
            self.say(f"  {over}'u' takes back the last step, 'new' starts another, 'q' quits.")
            return []
        legal = self.session.legal()
        if pending.kind in CHANCE:
            values = _listed(legal, pending.kind)
            shown = ", ".join(values[:40]) + (", ..." if len(values) > 40 else "")
            bare = "A bare number is the roll; a" if pending.kind == "roll" else "A"
            example = _label(_instead_example(legal, pending.kind), True)
            how = f"{bare} choice below is '{CHOICE_MARK}' and its number, e.g. '{example}'"
            self.say(f"  Type what the table shows ({shown}). {how}.")
        self.list_choices(legal, SHOWN)
        if len(legal) > SHOWN:
            example = _example(legal, pending.kind if pending.kind in CHANCE else None)
            self.say(f"  ... and {len(legal) - SHOWN} more: 'all' lists them; or type words of one, e.g. '{example}'.")
        return legal

    def chance(self) -> str | None:
        """The pending roll or draw ('roll', 'draw'), else None: then a bare number is what the table shows."""
        if self.session is None:
            return None
        kind = self.session.pending().kind
        return kind if kind in CHANCE else None

    def list_choices(self, legal: list[Action], limit: int | None = None) -> None:
        """The choices as they are typed: '#7' while a roll or draw is asked for, where a bare 7 is the roll."""
        if not legal:  # 'all' after the last step printed nothing at all
            assert self.session is not None
            self.say(f"  There is nothing to choose now. {self.session.pending().text}")
            return
        chance = self.chance() is not None
        for i, action in enumerate(legal[:limit], 1):
            self.say(f"  {_label(i, chance):>3}. {action['text']}")

    def numbered(self, typed: str, legal: list[Action], mark: str = "") -> Action | None:
        """Choice ``typed`` (its digits), or None after saying which numbers there are, written as typed."""
        number = _number(typed)
        if number is not None and 1 <= number <= len(legal):
            return legal[number - 1]
        if number is None:
            self.say(f"  Not understood: '{CHOICE_MARK}' takes a choice's number, e.g. '{CHOICE_MARK}1'.")
        else:
            self.say(f"  Not understood: {_no_choice(typed, legal, mark)}.{cited(self.ended_rule(legal))}")
        return None

    def alike(self, actions: list[Action]) -> bool:
        """Whether these actions come to the very same thing: the same position after, announced alike.

        The temple's first-player roll compares numbers only, and '5' was answered "That fits several
        faces; say which: 'red 5' or 'white 5'" for every player at every game's start.
        """
        assert self.session is not None
        game, state = self.session.game, self.session.state
        outcomes = set()
        for action in actions:
            try:
                after, events = game.apply(state, {k: v for k, v in action.items() if k != "text"})
            except CompanionError:
                return False
            document = json.dumps(game.to_document(after), sort_keys=True, default=str)
            outcomes.add((document, tuple((e.kind, e.text, e.rules) for e in events)))
        return len(outcomes) == 1

    def pick(self, line: str, legal: list[Action]) -> Action | None:
        """The action a typed line names: a choice by its number, what the table shows, or words of a choice.

        While a roll or draw is asked for, a bare number is only ever what the
        table shows; a choice then needs the mark ('#8'). Before, '8' beside the
        temple die (which shows 1 to 7) took choice 8, 'red 4', unasked.
        """
        kind = self.chance()
        # '3, 0' as the board writes it, '3,0': typed with a space, the numbers of a hex or cell fitted no choice.
        lowered = NUMBER_PAIR.sub(",", line.strip().lower())
        marked = _marked(lowered)
        if marked is not None:
            return self.numbered(marked, legal, CHOICE_MARK)
        number = _number(lowered)
        if kind is not None:
            typed = lowered if number is None or any(lowered in _keys(a) for a in legal) else str(number)
            matches = [a for a in legal if typed in _keys(a)]  # '04' is the 4 the die shows
            if len(matches) == 1 or (len(matches) > 1 and self.alike(matches)):
                return matches[0]
            if len(matches) > 1:
                self.say(f"  That fits several faces; say which: {_which(matches, typed, legal)}.")
                return None
            if number is not None:
                rule = self.chance_rule(number if kind == "roll" else lowered)
                self.say(f"  Not understood: {_not_reported(lowered, number, legal, kind)}.{cited(rule)}")
                return None
        elif number is not None:  # a number past the list is no choice's words
            return self.numbered(lowered, legal)
        typed_words = list(dict.fromkeys(_tokens(lowered)))  # a word pasted thousands of times is matched once
        fitting = [(i, a) for i, a in enumerate(legal, 1) if typed_words and _fits(typed_words, a["text"])]
        if len(fitting) == 1:
            return fitting[0][1]
        if fitting:
            chance = kind is not None
            listed = "; ".join(f"{_label(i, chance)}. {a['text']}" for i, a in fitting[:6])
            more = f" and {len(fitting) - 6} more" if len(fitting) > 6 else ""
            how = f"'{_label(fitting[0][0], chance)}'" if chance else "its number"
            self.say(f"  That fits {len(fitting)} choices ({listed}{more}): add a word, or type {how}.")
            return None
        if line.split()[0].lower() == "explain":  # the protocol's word, not a face or card ('explain 5' beside a roll)
            self.say(f"  Not understood: {_unknown_line(line, legal)}.")
            return None
        if kind == "draw":
            said = self.not_drawn(line.strip(), legal)
            if said is not None:
                self.say(said)
                return None
        said = ROLLED.sub("", lowered, count=1).strip() if kind == "roll" else lowered
        if said and said != lowered:  # 'roll 3', 'rolled a red 4': what the die shows, said as a sentence
            return self.pick(said, legal)
        if kind == "roll" and re.search(r"\d", lowered):  # 'red 9', 'white 0': a face this die does not have
            value = _number(re.findall(r"\d+", lowered)[0])
            self.say(f"  Not understood: {_no_face(lowered, legal)}.{cited(self.chance_rule(value))}")
            return None
        self.say(f"  Not understood: {_unknown_line(line, legal)}.{cited(self.ended_rule(legal))}")
        return None

    def not_drawn(self, typed: str, legal: list[Action]) -> str | None:
        """Why typed words are no card of the pending draw: the game's refusal of the card they name, in the
        spelling its data uses ('p07' as P07, 'sand thief' as sand_thief); else, for words that look like a
        card (a digit, or a near spelling of one offered: 'p7', 'sand thef'), that they name none, with the
        deck's clause. None for other words, which are said back as no command (no rule governs them).

        A card drawn already was "'P07' is no command, and no choice has that word", as if it were no card, and
        with no clause, where the game says "P07 is already in slot 1." [RU-3].
        """
        assert self.session is not None
        session = self.session
        offered = next((a for a in legal if a.get("type") == "draw"), None)
        if offered is None:
            return None
        action = {k: v for k, v in offered.items() if k not in ("text", "card")}
        for card in dict.fromkeys([typed, typed.upper(), typed.lower(), "_".join(typed.lower().split())]):
            try:
                ruling = session.check({**action, "card": card})
            except CompanionError:  # no card of that spelling: the next one
                continue
            if not ruling.legal:
                return f"  Refused: {ruling.text}{cited(', '.join(ruling.rules) or None)}"
        cards = sorted({_shows(a).lower() for a in legal if a.get("type") == "draw"})
        meant = likely(" ".join(typed.lower().split()), cards)
        if not re.search(r"\d", typed) and meant is None:
            return None
        shown = typed if len(typed) <= 24 else typed[:21] + "..."
        hint = f" (is it {quoted(meant)}?)" if meant is not None else ""
        return (f"  Not understood: {quoted(shown)} names no card of this draw{hint}: type the card as it shows; 'all' "
                f"lists every choice.{cited(self.chance_rule(typed))}")

    def ended_rule(self, legal: list[Action]) -> str | None:
        """The clause of the way the game ended, when it has and nothing may be chosen (``Game.over_rule``), else
        None. A choice typed after the end ('1', 'check 1', 'roll 3') was "there is nothing to choose now" with no
        clause, where the same action sent as JSON is refused citing how the game ended (DR-28, TG-END1)."""
        assert self.session is not None
        if legal or not self.session.pending().is_over:
            return None
        return self.session.game.over_rule(self.session.state)

    def chance_rule(self, value: object) -> str | None:
        """The clause behind a typed roll or card that is none the table may enter now: the game's own refusal
        of it as the action asked for (the oracle shows 1 to 6: BP-Q5; a card the deck lacks: RU-2), else the
        clause asking for this roll or draw. A typed '9' beside the oracle was "Not understood" with no clause,
        while `do {"type": "roll", "value": 9}` cited BP-Q5."""
        assert self.session is not None
        session = self.session
        kind = session.pending().kind
        offered = next((a for a in session.legal() if a["type"] == kind), None)
        if offered is None:
            return session.shape_rule()
        action = {k: v for k, v in offered.items() if k != "text"}
        try:
            ruling = session.check({**action, "value" if kind == "roll" else "card": value})
            if not ruling.legal and ruling.rules:
                return ruling.rules[0]
            where = session.game.where_rules(session.state, action)
        except CompanionError as refusal:
            return refusal.rule or session.shape_rule()
        return where[0] if where else session.shape_rule()

    def rules(self, words: str) -> None:
        assert self.session is not None
        rulebook = self.session.game.rulebook
        lookup = rulebook.lookup(words) if words.strip() else None
        found = lookup.clauses if lookup is not None else rulebook.clauses
        shown = found[:12] if lookup is not None else found  # without words: the whole index, not cut at 12 unsaid
        if found and lookup is not None and not lookup.every:
            self.say("  No clause holds every word; the closest first:")
        for clause in shown:
            self.say(f"  {clause.id}  {clause.title}")
        if len(found) > len(shown):
            self.say(f"  ... and {len(found) - len(shown)} more: add a word to narrow them; 'rules' alone lists every "
                     "clause.")
        if not found:
            self.say("  No clause mentions that.")

    def rule(self, clause_id: str) -> None:
        """One clause by its id, however it is capitalised: 'rule bp-1' is as clear as 'rule BP-1'."""
        assert self.session is not None
        rulebook = self.session.game.rulebook
        if not clause_id:
            example = rulebook.clauses[0].id if rulebook.clauses else "1"
            self.say(f"  Which clause? e.g. 'rule {example}'; 'rules WORDS' finds clauses that mention WORDS.")
            return
        try:
            clause = rulebook.typed(clause_id)
        except BadRequest as error:  # an id looked up is no rule to cite: say how clauses are found instead
            raise NotUnderstood(f"{error.message}; 'rules WORDS' finds the clauses that mention WORDS, 'rules' "
                                "lists them all") from None
        self.say(f"  {clause.id}  {clause.title}")
        for line in textwrap.wrap(clause.text, 76):
            self.say("    " + line)

    def parse_action(self, text: str, legal: list[Action], word: str = "check") -> dict[str, Any]:
        """A choice number or an action in JSON; ValueError says which of the two was meant and what is wrong.

        ``word`` "" is a line typed as JSON alone, which 'do' takes: only JSON then, and the usage says so.
        """
        text = text.strip()
        if word:
            usage = (f"'{word}' takes a choice's number or words, or an action in JSON, e.g. '{word} 1' or "
                     f"'{word} {{\"type\": ...}}'")
        else:
            usage = "an action typed as JSON is one object, e.g. {\"type\": ...}, and is taken as 'do' takes it"
        if not text:
            raise ValueError(usage)
        number = _number(_marked(text) or text) if word else None  # 'check #3' as '#3' takes choice 3 beside a roll
        if number is not None:
            if 1 <= number <= len(legal):
                return legal[number - 1]
            raise NotUnderstood(_no_choice(text, legal), self.ended_rule(legal))
        if word and text[:1] not in '{["' and not text[:1].isdigit():
            return self.worded(text, legal, word)
        try:
            value = parse_json(text)
        except BadRequest as error:  # strict JSON: a NaN typed here must not reach the journal either
            raise ValueError(f"{usage} ({error.message})") from None
        assert self.session is not None
        if not isinstance(value, dict):  # cited as the referee cites an action that is no object
            raise NotUnderstood(f"an action is a JSON object; {usage}", self.session.shape_rule())
        if "type" not in value and "cmd" in value:
            # A request of `companion referee` pasted whole: its action, if any, is what was meant, not the request.
            inner = value.get("action")
            example = f" ({json.dumps(inner)[:60]})" if isinstance(inner, dict) else ""
            raise NotUnderstood(f"that is a request of the referee protocol ('companion referee'); here type the "
                                f"action alone{example}", self.session.shape_rule())
        return value

    def worded(self, text: str, legal: list[Action], word: str) -> Action:
        """The one choice whose text has the words after 'check' or 'do', as a line of words takes one.

        'check green 3,0' was "'check' takes a choice number or an action in JSON ... (the line is not valid
        JSON: Expecting value at column 1)", while 'green 3,0' alone took that choice.
        """
        words = choices_with_words(text, legal)
        fitting = [(i, a) for i, a in enumerate(legal, 1) if any(a is w for w in words)]
        if len(fitting) == 1:
            return fitting[0][1]
        chance = self.chance() is not None
        if fitting:
            listed = "; ".join(f"{_label(i, chance)}. {a['text']}" for i, a in fitting[:6])
            more = f" and {len(fitting) - 6} more" if len(fitting) > 6 else ""
            raise ValueError(f"{quoted(text)} fits {len(fitting)} choices ({listed}{more}): add a word, or type "
                             f"'{word}' and its number")
        usage = (f"'{word}' takes a choice's number or words, or an action in JSON, e.g. '{word} 1' or "
                 f"'{word} {{\"type\": ...}}'")
        raise ValueError(f"no choice has the words {quoted(text)}; {usage}")

    def handle(self, line: str, legal: list[Action]) -> bool:
        """Run one typed line; False means quit."""
        assert self.session is not None
        if not line.strip():  # nothing typed: the readers skip such lines, and the words' checks read a first word
            return True
        word, _, rest = line.strip().partition(" ")
        word = word.lower()
        if word in QUIT:
            if not rest.strip():
                return False
            # 'q anything' ended the game's session unasked, most likely a line begun with a slip of the finger;
            # quitting, like an undo, is taken only from a line that says nothing else.
            raise NotUnderstood(f"{quoted(word)} quits only typed alone (here {quoted(rest.strip())} came after "
                                f"it), so play goes on; type {quoted(word)} alone to quit.")
        if word in STEPS_BACK and rest.strip():
            # 'u 2 to [0,12]' or 'undo shows 4', a choice's words pasted after a 'u', took the last step back
            # unasked: a line that changes the game must say only that.
            raise NotUnderstood(f"{quoted(word)} takes nothing after it (here {quoted(rest.strip())}); type "
                                f"{quoted(word)} alone to {STEPS_BACK[word]}.")
        if word in ("h", "help", "?"):
            self.say(HELP)
        elif word in ("u", "undo"):
            self.controller.handle(Touch("undo"))
        elif word == "redo":
            self.controller.handle(Touch("redo"))
        elif word == "press":
            self.press_button(rest.strip().lower())
        elif word == "board":
            pass
        elif word == "score":
            for text in score_lines(self.session.game, self.session.state, self.session.pending().is_over):
                self.say(f"  {text}")
        elif word == "all":
            self.list_choices(legal)
        elif word == "rules":
            self.rules(rest)
        elif word == "rule":
            self.rule(rest.strip())
        elif word == "check":
            ruling = self.session.check(self.parse_action(rest, legal, word))
            verdict = "LEGAL" if ruling.legal else "NOT LEGAL"
            self.say(f"  {verdict}: {ruling.text}  [{', '.join(ruling.rules)}]")
        elif word == "why":
            if not rest.strip():  # the terminal's own word left short, not a place off the board: no clause to cite
                how = self.session.game.unknown_place(self.session.state, "") or "a place as the board names it"
                raise ValueError(f"say which place after 'why': {how}")
            place = typed_place(self.session.game, self.session.state, rest)
            ruling = explain_place(self.session, place)
            verdict = "ALLOWED" if ruling.legal else "NOT ALLOWED"
            cite = f"  [{', '.join(ruling.rules)}]" if ruling.rules else ""
            self.say(f"  {verdict}: {ruling.text}{cite}")
        elif word == "do":
            self.controller.handle(Touch("act", self.parse_action(rest, legal, word)))
        elif word == "new":
            replacement = self.make_session()
            if replacement is not None:
                self.start(replacement)
        elif line.strip().startswith("{"):
            # An action pasted as JSON is taken as 'do' takes it. Beside a roll it was read as a face the die
            # lacks ("the die has no face '{"type": ...'"), elsewhere told to type 'do' first: what it meant is plain.
            self.controller.handle(Touch("act", self.parse_action(line, legal, "")))
        else:
            action = self.pick(line, legal)
            if action is not None:
                self.controller.handle(Touch("act", action))
        return True

    def press_button(self, intent: str) -> None:
        """A button from the keyboard: through the (mock) pins when wired, else straight to the controller."""
        if intent not in BUTTONS:
            meant = likely(intent, BUTTONS) if len(intent) >= 4 else None  # 'press confim': named, not pressed
            hint = f" (is it {quoted(meant)}?)" if meant is not None else ""
            self.say(f"  No button {quoted(intent)}{hint}; buttons: {', '.join(BUTTONS)}.")
            return
        if self.press is None or not self.press(intent):
            self.controller.submit(ButtonPressed(intent, "keyboard"))
        self.pump()

    def _line(self, line: str, legal: list[Action]) -> bool:
        """One typed line, never raising; False means quit."""
        if "\ufffd" in line:  # bytes stdin could not decode: guessing at the rest ("\xff4" as 4) would be worse
            self.say("  Not understood: the line holds bytes that are not UTF-8 text; is the terminal set to UTF-8?")
            return True
        try:
            return self.handle(line, legal)
        except CompanionError as error:
            cite = f"  [{error.rule}]" if error.rule else ""
            self.say(f"  Refused: {error.message}{cite}")
        except ValueError as error:
            self.say(f"  Not understood: {error}{cited(getattr(error, 'rule', None))}")
        return True

    def _position(self) -> tuple[Any, ...]:
        """What tells one position from another here: the session, its steps, what redo would restore."""
        session = self.session
        if session is None:
            return (None,)
        return (id(session), len(session.log), session.log[-1:], session.can_redo)

    def _refresh(self, line: str, legal: list[Action], before: tuple[Any, ...]) -> list[Action]:
        """Show the position again after a change or on 'board'; else only the prompt, so answers stay on screen."""
        self.pump()
        word = line.strip().partition(" ")[0].lower()
        if word in LOOKUPS or (word != "board" and self._position() == before):
            assert self.session is not None
            self.say(f"> {self.session.pending().text}   ('board' shows the choices again)")
            return legal
        return self.show()

    def _begin(self) -> bool:
        if self.session is None:
            self.session = self.make_session()
            if self.session is None:
                return False
        self.start(self.session)
        self.pump()
        return True

    def run(self, lines: Any) -> int:
        """Typed lines only (scripts, tests); table inputs queued meanwhile are handled between lines."""
        if not self._begin():
            return 0
        legal = self.show()
        for line in lines:
            self.pump()
            if not line.strip():
                continue
            before = self._position()
            if not self._line(line, legal):
                break
            legal = self._refresh(line, legal, before)
        self.say(self.goodbye())
        return 0

    def goodbye(self) -> str:
        """Promise a resume only when the journal is a file: one kept in memory ends with the process."""
        if self.farewell is not None:
            return self.farewell
        journal = self.session.journal
        if journal is not None and journal.kept_on_disk and self.session.pending().is_over:
            # Never resumed into play: the next start names it and offers to go back into it, this café day.
            command = self.resume_command or "companion play"
            return f"Bye. The finished game is kept; '{command}' shows its result and can go back into it today."
        if journal is not None and journal.kept_on_disk:
            if self.resume_command is not None:
                return f"Bye. The game is kept; to resume it: {self.resume_command}"
            return "Bye. The game is kept; 'companion play' resumes it."
        return "Bye. This game was kept in memory only (no journal file could be written), so it ends here."

    def run_live(self, read_line: Callable[[], str | None], prompt: str = "") -> int:
        """Typed lines and table inputs as they come: one loop sleeps on both, so neither waits for the other.

        ``read_line`` blocks (it is ``input``), so it runs on a helper thread that
        only forwards lines; all game work stays on this thread. That thread writes
        nothing: ``prompt`` is written here, once the answer to a line is on screen.
        Written by the helper each time it began to wait, it stood before a new
        game's questions ("Which game? ? ") and above the answers to every line.
        """
        inbox: queue.Queue[str | object | None] = queue.Queue()
        wake = object()
        self.controller.wake = lambda: inbox.put(wake)

        def ready() -> None:
            if prompt:
                self.out.write(prompt)
                self.out.flush()

        def ask(prompt: str) -> str | None:
            """The next typed line, for a question asked on this thread (a new game's): the reader's, not
            stdin's. Read by a second reader, the answer to "Which game?" raced the first one, which took
            the '1' for a roll of 1 in the game going on. Table inputs meanwhile wait in the controller."""
            self.out.write(prompt)
            self.out.flush()
            while True:
                try:
                    item = inbox.get(timeout=0.5)  # with a timeout, for Ctrl-C as below
                except queue.Empty:
                    continue
                if item is None:
                    inbox.put(None)  # the input ended: the referee ends too, after this question
                if item is None or isinstance(item, str):
                    return item

        if not self._begin():
            return 0
        start_reading(read_line, inbox, lambda error: self.say(f"  input stopped: {error}"))
        self.ask = ask
        legal = self.show()
        ready()
        while True:
            try:
                # With a timeout: Ctrl-C may land on the input or a sensor thread, and Python runs its
                # handler only when this (main) thread wakes; blocked for good, `play` would never end.
                item = inbox.get(timeout=0.5)
            except queue.Empty:
                continue
            if item is wake:
                if self.pump():
                    legal = self.show()
                    ready()
                continue
            if item is None or not isinstance(item, str):
                if prompt:  # the input ended at the prompt: the goodbye goes on a line of its own, not after '? '
                    self.out.write("\n")
                break
            if not item.strip():
                ready()
                continue
            before = self._position()
            if not self._line(item, legal):
                break
            legal = self._refresh(item, legal, before)
            ready()
        self.controller.wake = None
        self.ask = None
        self.say(self.goodbye())
        return 0


def split_players(text: str) -> list[str]:
    """Players as typed or given on the command line: 'red, blue', 'red blue' and 'red,blue' alike.

    ``--players "red, blue"`` was split on commas alone and refused ' blue' as no colour,
    while the same words typed at the question were taken.
    """
    # 'red and blue', 'red & blue': the joining word is no colour ("unknown colour 'and'").
    return [p.strip() for p in text.replace(" ", ",").split(",") if p.strip() and p.strip().lower() not in ("and", "&")]


def ask_new_game(
    ask: Callable[[str], str | None], say: Callable[[str], None], game_id: str | None, last: str | None = None,
    profile: str | None = None, players: str | None = None,
) -> dict[str, Any] | None:
    """Ask which game, which players and which profile; None when the player gives up.

    With ``last`` (the title of the journal's finished last game) the answer
    'last' goes back into that game instead, given as ``{"last": True}``.
    A ``profile`` or ``players`` already given (``play --profile``,
    ``--players``) is not asked again: the question stood beside it, and the
    answer typed (an Enter: standard) replaced the option in silence.
    """
    classes = game_classes()
    if game_id is None:
        ids = list(classes)
        for i, gid in enumerate(ids, 1):
            say(f"  {i}. {classes[gid].title} ({gid})")
        if last is not None:
            say(f"  last: back into the last game ({last}), to take back its last steps")
        while game_id not in classes:  # a typo is asked again: it ended `play` with "no game was started"
            if game_id is not None:
                say(f"  No game {quoted(game_id)}: type its number (1 to {len(ids)}) or its id.")
            answer = ask("Which game? ")
            if answer is None:
                return None
            answer = answer.strip()
            # The game as the list shows it, its name or its id in any case: "Targi" was "No game 'Targi'." and
            # the end.
            by_name = {name.lower(): gid for gid in ids for name in (gid, classes[gid].title)}
            # The title's first words as people shorten it ('desert lap race', 'temple path-card race'), where
            # they begin one title only: they were "No game 'desert lap race'".
            begun = [gid for gid in ids if len(answer) >= 4 and classes[gid].title.lower().startswith(answer.lower())]
            answer = by_name.get(answer.lower(), begun[0] if len(begun) == 1 else answer)
            if answer.lower() in QUIT:  # as during play, not a game mistyped ("No game 'q'.")
                return None
            if last is not None and answer.lower() == "last":
                return {"last": True}
            number = _number(answer)
            game_id = ids[number - 1] if number is not None and 1 <= number <= len(ids) else answer
    if game_id not in classes:
        say(f"  No game {quoted(game_id)}.")
        return None
    game_cls = classes[game_id]
    colours = f" from {', '.join(game_cls.colours)}" if game_cls.colours else ""
    low, high = game_cls.min_players, game_cls.max_players
    count = str(low) if low == high else f"{low} to {high}"  # Targi's "2-2" read as a typo, as check_players says
    answer = players if players is not None else ask(f"Players in turn order, {count}{colours} (comma separated): ")
    if answer is None or answer.strip().lower() in QUIT:
        return None
    # The colours as the question lists them, in any case: "Red, Blue" was refused as unknown colour 'Red'.
    named = [next((c for c in game_cls.colours if c.lower() == name.lower()), name) for name in split_players(answer)]
    if profile is not None:
        return {"game": game_id, "players": named, "profile": profile}
    profile = "standard"
    if len(game_cls.profiles) > 1:
        answer = ask(f"Profile ({', '.join(game_cls.profiles)}) [standard]: ")
        # Unanswered (input closed) or 'q', as at the questions before it: no game. The input's end started a
        # standard game, and 'q' was refused as "no profile 'q'" and the questions asked again from the top.
        if answer is None or answer.strip().lower() in QUIT:
            return None
        profile = answer.strip() or "standard"
        profile = next((name for name in game_cls.profiles if name.lower() == profile.lower()), profile)
    return {"game": game_id, "players": named, "profile": profile}
