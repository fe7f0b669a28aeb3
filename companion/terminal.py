"""The terminal referee: the same session and journal, driven by typed lines.

Made for SSH or a laptop at the table: it shows the position and the pending
step, takes die values and card names as typed, lists the choices by number,
and offers undo, redo, disputes and the rulebook.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from typing import Any, TextIO

from companion.errors import CompanionError
from companion.game import Action, Event
from companion.registry import game_classes
from companion.session import Session

HELP = """\
  <number>        take the numbered choice
  <value>/<card>  when a roll or draw is pending: type what the table shows (e.g. 4, x red, gust)
  u / undo        take back the last step (also corrects a misread roll)
  redo            put it back
  check <n>       ruling on choice n;  check {json}  ruling on any action
  do {json}       apply an action written as JSON
  rules [words]   search the rulebook;  rule <id>  one clause
  board           show the position again
  new             abandon this game and start another
  help / q        this text / quit (the game stays in the journal)"""


def _keys(action: Action) -> set[str]:
    """Words a player might type for a roll or draw: '4', 'x red', a card id or its name."""
    keys = set()
    for field in ("value", "card"):
        if field in action:
            keys.add(str(action[field]).lower())
    face = action.get("face")
    if isinstance(face, dict) and "value" in action:
        keys.add(" ".join([str(action["value"])] + [str(v) for v in face.values()]).lower())
    keys.add(str(action.get("text", "")).lower())
    return keys


class Terminal:
    def __init__(self, session: Session | None, make_session: Callable[[], Session | None], out: TextIO) -> None:
        self.session = session
        self.make_session = make_session
        self.out = out

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
            self.say("  The game is over. 'u' takes back the last step, 'new' starts another, 'q' quits.")
            return []
        legal = self.session.legal()
        if pending.kind in ("roll", "draw"):
            shown = ", ".join(str(a.get("value", a.get("card"))) for a in legal[:40])
            self.say(f"  Type what the table shows ({shown}) or a number below.")
        for i, action in enumerate(legal, 1):
            self.say(f"  {i:>3}. {action['text']}")
        return legal

    def pick(self, line: str, legal: list[Action]) -> Action | None:
        pending_kind = self.session.pending().kind if self.session else "choose"
        lowered = line.strip().lower()
        if pending_kind in ("roll", "draw"):
            matches = [a for a in legal if lowered in _keys(a)]
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1:
                self.say("  That fits several faces; say which, e.g. '" + str(next(iter(_keys(matches[0])))) + "'.")
                return None
        if lowered.isdigit() and 1 <= int(lowered) <= len(legal):
            return legal[int(lowered) - 1]
        self.say("  Not understood. Type 'help' for the commands.")
        return None

    def rules(self, words: str) -> None:
        assert self.session is not None
        rulebook = self.session.game.rulebook
        found = rulebook.search(words) if words else rulebook.clauses
        for clause in found[:12]:
            self.say(f"  {clause.id}  {clause.title}")
        if not found:
            self.say("  No clause mentions that.")

    def rule(self, clause_id: str) -> None:
        assert self.session is not None
        clause = self.session.game.rulebook.clause(clause_id)
        self.say(f"  {clause.id}  {clause.title}")
        for line in textwrap.wrap(clause.text, 76):
            self.say("    " + line)

    def parse_action(self, text: str, legal: list[Action]) -> dict[str, Any]:
        text = text.strip()
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        value = json.loads(text)
        if not isinstance(value, dict):
            raise ValueError("an action is a JSON object")
        return value

    def handle(self, line: str, legal: list[Action]) -> bool:
        """Run one typed line; False means quit."""
        assert self.session is not None
        word, _, rest = line.strip().partition(" ")
        word = word.lower()
        if word in ("q", "quit", "exit"):
            return False
        if word in ("h", "help", "?"):
            self.say(HELP)
        elif word in ("u", "undo"):
            step = self.session.undo()
            self.say(f"  {step.note}")
        elif word == "redo":
            self.announce(self.session.redo().events)
        elif word == "board":
            pass
        elif word == "rules":
            self.rules(rest)
        elif word == "rule":
            self.rule(rest.strip())
        elif word == "check":
            ruling = self.session.check(self.parse_action(rest, legal))
            verdict = "LEGAL" if ruling.legal else "NOT LEGAL"
            self.say(f"  {verdict}: {ruling.text}  [{', '.join(ruling.rules)}]")
        elif word == "do":
            self.announce(self.session.act(self.parse_action(rest, legal)).events)
        elif word == "new":
            replacement = self.make_session()
            if replacement is not None:
                self.session = replacement
        else:
            action = self.pick(line, legal)
            if action is not None:
                self.announce(self.session.act(action).events)
        return True

    def run(self, lines: Any) -> int:
        if self.session is None:
            self.session = self.make_session()
            if self.session is None:
                return 0
        legal = self.show()
        for line in lines:
            if not line.strip():
                continue
            try:
                if not self.handle(line, legal):
                    break
            except CompanionError as error:
                cite = f"  [{error.rule}]" if error.rule else ""
                self.say(f"  Refused: {error.message}{cite}")
            except ValueError as error:
                self.say(f"  Not understood: {error}")
            legal = self.show()
        self.say("Bye. The game is kept; 'companion play' resumes it.")
        return 0


def ask_new_game(
    ask: Callable[[str], str | None], say: Callable[[str], None], game_id: str | None
) -> dict[str, Any] | None:
    """Ask which game, which players and which profile; None when the player gives up."""
    classes = game_classes()
    if game_id is None:
        ids = list(classes)
        for i, gid in enumerate(ids, 1):
            say(f"  {i}. {classes[gid].title} ({gid})")
        answer = ask("Which game? ")
        if answer is None:
            return None
        answer = answer.strip()
        game_id = ids[int(answer) - 1] if answer.isdigit() and 1 <= int(answer) <= len(ids) else answer
    if game_id not in classes:
        say(f"  No game {game_id!r}.")
        return None
    game_cls = classes[game_id]
    colours = f" from {', '.join(game_cls.colours)}" if game_cls.colours else ""
    answer = ask(f"Players in turn order, {game_cls.min_players}-{game_cls.max_players}{colours} (comma separated): ")
    if answer is None:
        return None
    players = [p.strip() for p in answer.replace(" ", ",").split(",") if p.strip()]
    profile = "standard"
    if len(game_cls.profiles) > 1:
        answer = ask(f"Profile ({', '.join(game_cls.profiles)}) [standard]: ")
        profile = (answer or "").strip() or "standard"
    return {"game": game_id, "players": players, "profile": profile}
