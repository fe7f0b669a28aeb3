"""The Kivy app: owns the view state, forwards every intent to the controller.

Screens only bind to the properties here and call the intent methods; the
rules are reached through the controller alone, so a button, a camera and a
finger all go through the same queue.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.controller import Controller
from companion.errors import CompanionError, quoted
from companion.finished import FinishedGame, finished_game, same_cafe_day, verdict
from companion.game_info import GameInfo
from companion.journal import Journal, card_state
from companion.observations import WHILE_DOWN, Touch, Update
from companion.phrases import how_many
from companion.places import place_of
from companion.registry import game_infos
from companion.rulebook import Found
from companion.session import Session
from ui import inputs, watchdog
from ui.boards import BoardView, namer_for
from ui.kiosk import ESCAPE_KEYS, IdleClock, PinGate
from ui.settings import Settings, card_refused, existing_folder, not_saved
from ui.voice import Voice, spoken_form, spoken_step
from vision.login import shown
from vision.orientation import Orientation
from vision.tray_area import TrayArea

log = logging.getLogger(__name__)

SPOKEN_KINDS = frozenset({"step", "undo", "redo", "ruling", "refused", "confirm", "new_game", "unapplied", "select"})
# Updates after which nothing said before still holds: an undo took back the step being announced (the table
# heard it out, seconds long, and then that it was taken back), a redo the undo, a new game the old one.
STALE_AFTER = frozenset({"undo", "redo", "new_game"})
MAX_ANNOUNCEMENTS = 30
TOUCH_OFF = "Touch is off: use the buttons (owner: Settings)."  # short: players read it mid-game
INPUT_DOWN = "{} not reading: " + WHILE_DOWN + "."  # short: players read it mid-game
CLOSING_SECONDS = inputs.CLOSE_SECONDS  # at exit, for every input together and the cameras Save let go
# The owner's screens, behind the PIN in a kiosk: a button press there is refused, the screen left as it is.
OWNER_SCREENS = {"settings": "settings", "pin": "PIN", "camera": "camera"}
BACK_TO_TABLE = "Back to the table: that press of {} was not taken, as the game was not on screen. Press again to play."
OFF_TABLE = ("The button box plays only while the table shows: that press of {} changed nothing while the {} screen "
             "was open. Leave it to play on.")
# Home while someone taps a game or colours: bringing the table back lost the new game's choices half made.
CHOOSING = ("The button box plays only while the table shows: that press of {} changed nothing while a new game "
            "was being chosen. Resume goes back to the game; Start new game begins the one chosen.")
# What the owner does about a journal that cannot be written, by its reason in the players' words (`Journal.not_kept`,
# `card_state`); anything else is in the log and docs/operations.md.
OWNER_MENDS = {
    "the card is full": "make room on the card",
    "the card has turned read-only": "check the card",
    "another companion is using this table's journal": "stop the other companion",
}
NOT_SAVING = ("Games are not being saved: {why}. A game played now is lost when the app closes or the power goes "
              "off. Owner: {mend}, then restart the table.")
CANNOT_SAVE = "New games and moves cannot be saved: {why}. Owner: {mend}."
UNSAVED_GAME = "This game is not being saved: {why}."
# How often home, while it shows, looks again at the journal's card (`CompanionApp._look_at_card`): a kiosk sits on
# home for hours, and a card that filled meanwhile was told only when home was opened again.
CARD_LOOK_SECONDS = 30
BOTH_OFF = (
    "Touch and the button box cannot both be off: the dice sensor and the camera only read dice and cards, "
    "so nobody could choose a move. Nothing saved."
)


class CompanionApp(App):
    title = "Table Companion"
    u = NumericProperty(1.0)  # layout unit: 1.0 at 800x480, so one .kv fits 7 and 10 inch screens
    # The owner's scale over that unit (Settings, `display_scale`): 800x480 is a 7 inch display's, 130 px an
    # inch, and a 5 inch display of as many pixels (190 px an inch) drew every button and word a third smaller.
    scale = NumericProperty(1.0)
    game_id = StringProperty("")
    game_title = StringProperty("")
    prompt = StringProperty("")
    status = StringProperty("")
    choices = ListProperty([])
    announcements = ListProperty([])  # newest first: {"text", "rules", "kind"}
    board = ObjectProperty(None, allownone=True)
    highlighted = ObjectProperty(None, allownone=True)  # the choice the button box's next pointed at, if any
    highlighted_place = ObjectProperty(None, allownone=True)  # or the place it pointed at, in a long list
    ruling = DictProperty({})
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    game_over = BooleanProperty(False)  # the table then offers the next game instead of moves
    resume_text = StringProperty("")
    last_game_text = StringProperty("")  # home: the last game's result when it is over, on the table or in the journal
    kiosk = BooleanProperty(False)
    voice_note = StringProperty("")
    last_spoken = StringProperty("")  # as espeak-ng was given it (`spoken_form`), not as the screen shows it
    input_problems = DictProperty({})  # input name -> why it is not working, for the settings screen
    inputs_note = StringProperty("")
    inputs_down = StringProperty("")  # a running camera or dice sensor that reads nothing, for the table
    pin_note = StringProperty("")  # wrong PINs typed before the right one, for the settings screen it opened
    saving_note = StringProperty("")  # home: why games are not being saved (`check_saving`), before one begins
    unsaved_line = StringProperty("")  # the table, while nothing else is said: the game on it is not being saved

    def __init__(
        self,
        controller: Controller,
        journal: Journal | None = None,
        settings: Settings | None = None,
        settings_path: Path | None = None,
        hardware: Iterable[Any] = (),
        kiosk: bool = False,
        voice: Voice | None = None,
        cafe_dir: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        input_sources: Mapping[str, str | None] | None = None,
        default_cafe_dir: Path | None = None,
        last_game: FinishedGame | None = None,
        **kwargs: Any,
    ) -> None:
        """``input_sources`` are the command line's words for this run (``buttons``, ``serial``, ``camera``):
        each given one wins over the saved settings until the next start. ``default_cafe_dir`` is
        what an empty café setting means (the standard café folder, or None for house data).
        ``last_game`` is the journal's finished last game, shown at home while no game is on the table.
        """
        super().__init__(**kwargs)
        self.controller = controller
        self.journal = journal
        self.settings = settings or Settings()
        self.settings_path = settings_path
        self.hardware = list(hardware)
        self.kiosk = kiosk
        self.cafe_dir = cafe_dir
        self.default_cafe_dir = default_cafe_dir
        self.last_game = last_game
        self.input_sources = {name: str(word) for name, word in (input_sources or {}).items() if word}
        self.inputs_on = dict(self.settings.inputs)  # this run's switches: the saved ones, flags laid over
        for name in ("serial", "camera"):
            if name in self.input_sources:
                self.inputs_on[name] = True
        if "buttons" in self.input_sources:
            self.inputs_on["buttons"] = self.input_sources["buttons"] != "none"
        self.running_inputs: dict[str, tuple[str, Any]] = {}  # name -> (the source it runs from, the object)
        self._closing: list[threading.Thread] = []  # cameras let go of, closing on threads of their own
        self.voice = voice or Voice(self.settings.voice, self.settings.voice_speed, volume=self.settings.voice_volume)
        self.voice.on_problem = self._voice_problem
        self.voice_note = self.voice.note()
        self.pin = PinGate(self.settings.kiosk_pin)
        self.scale = self.settings.display_scale / 100
        self.clock = clock
        self.idle = IdleClock(self.settings.idle_seconds, clock())
        self.started_at = clock()
        # When the first screen was drawn, on the machine's monotonic clock (not ``clock``), which `ui bench`'s
        # own process reads too: timed on the wall clock, a start-up during a clock set came out negative.
        self.first_screen_at: float | None = None
        self.screens_built_at: float | None = None  # and when the other screens were built, right after it
        self.first_screen_cpu: float | None = None
        self._over_since: float | None = None  # when the game on the table finished (`clock`), while it is over
        self._card_looked_at = self.started_at  # when `check_saving` last looked at the journal's card (`clock`)
        self._seq = 0
        self._lit_by_reading = False  # `highlighted` is a reading waiting for its tap
        self._checking = False
        self._ping_every = watchdog.ping_interval()
        controller.add_output(self.on_update)
        controller.button_gate = self._button_gate

    # -- lifecycle ---------------------------------------------------------
    def build(self) -> ScreenManager:
        from ui import screens  # loads each screen's .kv once

        manager = screens.manager(transition=NoTransition())
        Window.bind(size=self._resize, on_request_close=self._on_request_close, on_keyboard=self._on_keyboard)
        Window.bind(on_touch_down=self._on_any_touch)
        self._resize(Window, Window.size)
        self.refresh()
        manager.current = "table" if self.controller.session else "home"
        return manager

    def on_start(self) -> None:
        self._events = [
            Clock.schedule_interval(self._tick, 1 / 20),
            Clock.schedule_interval(self._check_idle, 1),
            Clock.schedule_once(self._first_frame, 0),
        ]
        if self._ping_every:
            self._events.append(Clock.schedule_interval(self._ping, self._ping_every))

    def _ping(self, _dt: float) -> None:
        watchdog.notify("WATCHDOG=1")  # from the main loop: a hung screen stops the pings

    def on_stop(self) -> None:
        for event in getattr(self, "_events", []):
            event.cancel()
        if self.root is not None and self.root.current_screen is not None:
            # The screen showing at quit lets go of what it holds, as when it is left: the camera screen's
            # picture refresh ran on after the app had stopped.
            self.root.current_screen.dispatch("on_leave")
        Window.unbind(size=self._resize, on_request_close=self._on_request_close, on_keyboard=self._on_keyboard)
        Window.unbind(on_touch_down=self._on_any_touch)
        self.voice.stop()
        # One deadline for everything still open and everything Save let go of: each input waited for in
        # turn, two dice sensors stuck in connect() held the exit 9 s. A camera let go of is still freed.
        deadline = time.monotonic() + CLOSING_SECONDS
        inputs.close(self.hardware, CLOSING_SECONDS)
        for closer in self._closing:
            closer.join(max(0.0, deadline - time.monotonic()))
        watchdog.notify("STOPPING=1")

    def _first_frame(self, _dt: float) -> None:
        Clock.schedule_once(self._first_drawn, 0)  # callbacks run before drawing: wait one more frame

    def _first_drawn(self, _dt: float) -> None:
        self.first_screen_at = time.monotonic()
        self.first_screen_cpu = time.process_time()  # for `ui bench`: the CPU time it took, on a busy machine too
        watchdog.notify("READY=1")
        self.root.build_rest()  # the screens not needed for the first (`ui.screens.Screens`)
        self.screens_built_at = time.monotonic()

    def _tick(self, _dt: float) -> None:
        """Hardware and camera observations arrive on their threads; they are applied here."""
        self.controller.pump()

    def _resize(self, _window: Any, size: tuple[int, int]) -> None:
        self.u = min(size[0] / 800, size[1] / 480) * self.scale

    def on_scale(self, *_args: Any) -> None:
        self._resize(Window, Window.size)

    # -- kiosk -------------------------------------------------------------
    def _on_request_close(self, *_args: Any, **_kwargs: Any) -> bool:
        return self.kiosk  # True refuses: only the PIN exit leaves a kiosk

    def _on_keyboard(self, _window: Any, key: int, *_args: Any) -> bool:
        return self.kiosk and key in ESCAPE_KEYS

    def _on_any_touch(self, *_args: Any) -> None:
        self.idle.touched(self.clock())

    def _check_idle(self, _dt: float) -> None:
        self._close_cafe_day()
        self._look_at_card()
        if self.kiosk and self.root and self.root.current not in ("attract",) and self.idle.expired(self.clock()):
            self.show("attract")

    def _close_cafe_day(self, now: datetime | None = None) -> None:
        """A finished game still on the table once its café day is over (05:00, on the wall clock's ``now``)
        is set aside as a restart would set it aside: home names it, dated, as a result only.

        The café day was judged only at start: a kiosk left running overnight
        kept last night's finished game on the table, and the morning's first
        table could take its winning roll back with one tap on Undo (or the
        button box's), from the attract screen's "finished" too. How long ago
        it finished is told on the app's monotonic clock, so the owner setting
        the wall clock forward does not end a game that finished minutes ago.
        """
        if self._over_since is None or self.controller.session is None:
            return
        moment = (now or datetime.now(UTC)).astimezone()
        if same_cafe_day(moment - timedelta(seconds=self.clock() - self._over_since), moment):
            return
        self.controller.set_aside()
        self.last_game = finished_game(self.journal, self.cafe_dir, now)  # a result only now
        self.announcements, self.status = [], ""  # home's line names the game and when it finished
        self.refresh()
        if self.root is not None and self.root.current in ("table", "dispute"):
            self.show("home")

    def wake(self) -> None:
        """Leave the attract screen where the game left off: nothing of the game was touched."""
        self.idle.touched(self.clock())
        self.show("table" if self.controller.session else "home")

    def unlock(self, attempt: str) -> bool:
        """The staff PIN, checked; wrong ones logged and, once the right one is typed, told on the screen it opens.

        The gate counted wrong PINs for staff to see, and nothing showed or logged them: a guest trying
        PINs at an unminded table in the afternoon left no trace for the owner that evening.
        """
        if not self.pin.check(attempt):
            log.warning("a wrong staff PIN was typed (%d in a row)", self.pin.wrong)
            if self.pin.wrong == 1:
                self._first_wrong_pin = datetime.now().astimezone()
            return False
        if self.pin.wrong_before:
            count = self.pin.wrong_before
            first = getattr(self, "_first_wrong_pin", None)
            since = f", the first at {first:%H:%M}" if first is not None else ""
            self.pin_note = (f"{count} wrong PIN{'s were' if count > 1 else ' was'} typed before this one{since}.")
        return True

    def exit_with_pin(self, attempt: str) -> bool:
        if not self.unlock(attempt):
            self.status = "Wrong PIN."
            return False
        self.kiosk = False
        self.stop()
        return True

    def request_exit(self) -> None:
        if not self.kiosk:
            self.stop()
            return
        self.root.get_screen("pin").ask(self._leave, back=self.root.current)
        self.show("pin")

    def _leave(self) -> None:
        self.kiosk = False
        self.stop()

    def request(self, screen: str) -> None:
        """Screens that change the setup ask for the PIN in a kiosk.

        The settings opened from outside (Menu, the button box) show what is saved: edits kept for a visit to the
        PIN keypad or the camera screen that the attract screen cut short do not come back on the next visit.
        """
        if screen == "settings":
            self.root.get_screen("settings").afresh()
        if self.kiosk and screen == "settings":
            self.root.get_screen("pin").ask(lambda: self.show("settings"), back=self.root.current)
            self.show("pin")
        else:
            self.show(screen)

    def show(self, screen: str) -> None:
        if self.root is not None:
            self.root.current = screen

    # -- intents -----------------------------------------------------------
    def act(self, action: Mapping[str, Any]) -> None:
        self._submit(Touch("act", dict(action)))

    def check(self, action: Mapping[str, Any]) -> None:
        self._checking = True  # a malformed action is refused, and that refusal is the ruling
        try:
            self._submit(Touch("check", dict(action)))
        finally:
            self._checking = False

    def explain(self, place: Hashable) -> None:
        """A finger on a board place: what may happen there, or why nothing may, with the clauses."""
        self._submit(Touch("explain", place=place))

    def check_text(self, raw: str) -> None:
        """**Check** on what the dispute field holds as typed: an action in JSON, or words of an offered action.

        Words were read as JSON too: "roll a seven", or a field emptied, was
        answered "Not an action: Expecting value.", Python's words for a JSON
        slip. Words are now the offered action whose words hold them all, as
        the terminal takes a line of words ("end the turn"), else an answer
        saying what to do: tap the one meant, or put the action together with
        Build, whose lists hold what nobody is offered (a roll of 7).
        """
        if self._touch_refused():  # before parsing: a JSON complaint would hide why nothing is checked
            return
        text = raw.strip()
        if not text:
            self._not_an_action("nothing is typed. Tap an offered action, or Build to put one together.")
            return
        if text[:1] not in "{[":  # words ("6" among them: the race's "6: to Pyramid's Base (19)"), not JSON
            self._check_words(text)
            return
        try:
            action = json.loads(raw)
        except ValueError as error:
            self._not_an_action(f"{error.msg}.")
            return
        except RecursionError:  # "[[[[..." a thousand deep (a held key) raised out of Check and closed the app
            self._not_an_action("nested too deeply.")
            return
        if not isinstance(action, dict):  # 4, "roll" or [..] parse as JSON too, yet name no action
            self._not_an_action(f"type an object, such as {self._an_action()}.")
            return
        self.check(action)

    def _check_words(self, text: str) -> None:
        # The terminal's reading of a line of words, loaded when words are first typed: with it, the first screen
        # loaded two modules more (companion.terminal, companion.protocol) for what a kiosk's table seldom does.
        from companion.terminal import choices_with_words

        fitting = choices_with_words(text, list(self.choices))
        if len(fitting) == 1:
            self.check(fitting[0])
            return
        shown = quoted(text if len(text) <= 40 else text[:37] + "...")
        if fitting:
            listed = "; ".join(str(a["text"]) for a in fitting[:3]) + ("; ..." if len(fitting) > 3 else "")
            self._not_an_action(f"{shown} fits {len(fitting)} offered actions ({listed}). Tap the one meant, or "
                                "add a word.")
            return
        self._not_an_action(f"no action offered now has the words {shown}. Tap Build to put the action together "
                            "from lists, or tap an offered one.")

    def _an_action(self) -> str:
        """An action of the game on the table as JSON, for the hint to a referee who typed no object: the first
        one offered now, else the game's first kind. The hint named a roll, '{"type": "roll", "value": 4}', in
        Targi and Through the Desert, which have none, and a referee who typed it was refused for that too."""
        session = self.controller.session
        offered = session.legal() if session is not None else []
        if offered:
            return json.dumps({k: v for k, v in offered[0].items() if k != "text"})
        kinds = list(getattr(session.game, "action_shapes", {})) if session is not None else []
        return json.dumps({"type": kinds[0]}) if kinds else '{"type": ...}'

    def _not_an_action(self, why: str) -> None:
        """What the field held was no action: shown and said, beside the clause on what may be done now (a refusal
        carries its clause, as the terminal's does for an action that is no object).

        It was shown only: at a table listening to the voice the Check went
        unanswered, and **Say again** then said the ruling before it, "Yellow
        rolls 1 ...", under a screen answering "Not an action".
        """
        session = self.controller.session
        rule = session.shape_rule() if session is not None else None
        rules = [rule] if rule else []
        text = f"Not an action: {why}"
        self.ruling = {"legal": False, "text": text, "rules": rules, "clauses": self._clauses(rules)}
        self.last_spoken = spoken_form(text)
        self.voice.say(self.last_spoken)

    def undo(self) -> None:
        self._submit(Touch("undo"))

    def redo(self) -> None:
        self._submit(Touch("redo"))

    def confirm(self) -> None:
        self._submit(Touch("confirm"))

    def repeat_last(self) -> None:
        """**Say again**: the last announcement spoken again (the prompt, when nothing has been said yet), or on
        the status line why nothing is heard.

        With the voice Silent (or espeak-ng missing, said once already) the tap
        did nothing at all, and a table took the button for broken.
        """
        if not self.voice.last and self.prompt and self.voice.enabled:  # nothing said yet: the question asked now
            if self.voice.say(spoken_form(self.prompt)):
                return
        elif self.voice.repeat_last():
            return
        if not self.voice.enabled:
            self.status = "The voice is Silent (owner: Settings), so nothing is said: the announcements are below."
        elif not self.voice.available:
            self.status = self.voice.note()

    def touch_blocked(self) -> bool:
        """Taps leave the game alone only while the button box runs, so a box that failed to start
        (no GPIO, ``--buttons none``) never leaves a table nobody can play."""
        return not self.inputs_on.get("touch", True) and "buttons" in self.running_inputs

    def _touch_refused(self) -> bool:
        """Says why a tap did nothing; the ruling too, since the dispute screen shows rulings, not the status."""
        if not self.touch_blocked():
            return False
        self.status = TOUCH_OFF
        self.ruling = {"legal": False, "text": TOUCH_OFF, "rules": [], "clauses": []}
        return True

    def _submit(self, touch: Touch) -> None:
        """Every tap that changes or queries the game passes here, so the touch switch is kept in one place."""
        if self._touch_refused():
            return
        self.controller.submit(touch)
        self.controller.pump()  # a tap is answered in the same frame

    def _look_at_card(self) -> None:
        """Home, while it shows, says a card that filled (or was made room on) since it opened, looked at every
        `CARD_LOOK_SECONDS` on the app's clock from the idle check's own second timer: two system calls
        (`card_state`) a half minute, no timer of its own.

        Home looked only as it opened: a table left on home all afternoon while a
        log filled the card said nothing of it, and the next table's Start was
        refused as the first word of it.
        """
        if self.root is None or self.root.current != "home":
            return
        if self.clock() - self._card_looked_at >= CARD_LOOK_SECONDS:
            self.check_saving()

    def check_saving(self) -> str:
        """Whether a game begun now would be kept, told on home before it begins (``saving_note``); "" when it would.

        A table whose journal could not be opened at start (a full card, one
        gone read-only) referees in memory, and a new game began there with
        nothing said after the start-up note was gone: the table played an
        evening's game the next power cut would lose. A journal on a card that
        has filled since refuses the new game, which home now says before it.
        """
        self._card_looked_at = self.clock()
        journal = self.journal
        if journal is None:
            self.saving_note = ""
        elif not journal.kept_on_disk:
            why = journal.not_kept or "the journal file cannot be written"
            mend = OWNER_MENDS.get(why, "see the log (docs/operations.md, Recovering a table)")
            self.saving_note = NOT_SAVING.format(why=why, mend=mend)
        else:
            why = card_state(journal.path)
            self.saving_note = CANNOT_SAVE.format(why=why, mend=OWNER_MENDS[why]) if why else ""
        return self.saving_note

    def new_game(self, game_id: str, players: list[str], profile: str | None = None) -> bool:
        try:
            session = Session.new(game_id, players, None, profile, self.journal, self.cafe_dir)
        except CompanionError as error:
            # With its clause, as home's own check of the colours tapped shows it (a profile's option, a colour).
            self.status = error.message + (f" [{error.rule}]" if error.rule else "")
            self.check_saving()
            return False
        self.last_game = None  # the journal's latest game is this one now
        self.settings.last_game, self.settings.last_players = game_id, list(players)
        try:
            self.settings.save(self.settings_path)
        except OSError as error:  # only the "same players again" shortcut is lost; the game goes on
            log.warning("remembering the last game: %s", error)
        self.announcements = []
        self.controller.set_session(session)
        self.show("table")
        self.status = board_warning(session.game.data.warnings) or self.status
        if self.unsaved_line:  # told and said as the game begins, by whichever button began it
            self.status = " ".join(filter(None, (self.unsaved_line, self.status)))
            self.voice.say(spoken_form(self.unsaved_line))
        return True

    def new_game_same_players(self) -> bool:
        """The one-tap "next table" for a café: same game, same colours, fresh board."""
        game_id = self.settings.last_game or self.game_id
        players = self.settings.last_players or (
            self.controller.session.start.get("players") if self.controller.session else []
        )
        if not game_id or not players:
            self.show("home")
            return False
        if self.new_game(game_id, list(players)):
            return True
        # Refused (the café's data for it broken since, colours the game no longer takes): home says why and
        # offers the games. Tapped on the attract screen, the refusal went to a status line it does not show,
        # and the button seemed dead.
        self.show("home")
        return False

    def play_again(self) -> bool:
        """The game on the table is over: the same game, players and rule profile on a fresh board."""
        session = self.controller.session
        if session is None or not session.start.get("players"):
            return self.new_game_same_players()
        start = session.start
        return self.new_game(session.game.id, list(start["players"]), start.get("profile"))

    def resume(self) -> None:
        """Back to the game on the table, or into the journal's finished last game, where undo takes back its
        last steps: after a restart, a misread winning roll could otherwise never be corrected."""
        finished = self.last_game
        if self.controller.session is None and finished is not None:
            try:
                session = finished.reopen(self.journal)
            except CompanionError as refusal:
                self.status = refusal.message[:1].upper() + refusal.message[1:] + "."
                self.last_game = finished.as_of()  # past its café day now: home shows it dated, with no way back
                self._refresh_home(None)
                return
            self.last_game = None
            self.announcements = []
            self.controller.set_session(session)
            if finished.finished is not None:  # its café day is the one it finished in, not the one it came back
                self._over_since = self.clock() - (datetime.now(UTC) - finished.finished).total_seconds()
            self.status = "The last game is back: Undo takes back its last steps."
        self.show("table" if self.controller.session else "home")

    def save_settings(self, **changes: Any) -> str:
        """Save and apply at once; returns the sentence for the settings screen.

        A café folder that does not exist refuses the whole save, as a bad PIN
        does, so the file never holds a value the next start would ignore.
        Input switches apply now; only the switches that differ from what is
        running are stored, so a source given on the command line for this run
        does not become the saved choice behind the owner's back. Touch and
        the button box both off is refused whole: only they can choose a move.
        """
        cafe = self.cafe_dir
        if "cafe_dir" in changes:
            text = str(changes["cafe_dir"]).strip()
            if text:
                folder = existing_folder(text)
                if folder is None:
                    empty = f"the café folder {self.default_cafe_dir}" if self.default_cafe_dir else "the house data"
                    return f"No folder {text}: nothing saved. Give a folder that exists, or leave it empty for {empty}."
                changes["cafe_dir"] = str(folder)
                cafe = folder
            else:
                changes["cafe_dir"] = ""
                cafe = self.default_cafe_dir
        switches = changes.pop("inputs", None)
        after = {**self.inputs_on, **{name: bool(on) for name, on in dict(switches or {}).items()}}
        # Refused only when this save is what turns one of them off: a run started with
        # --buttons none over saved touch-off already shows both off, and must still save the rest.
        turning_off = any(self.inputs_on.get(name, True) and not after[name] for name in ("touch", "buttons"))
        if turning_off and not after.get("touch", True) and not after.get("buttons"):
            return BOTH_OFF
        if switches is not None:
            for name, on in dict(switches).items():
                if bool(on) != bool(self.inputs_on.get(name)):
                    self.inputs_on[name] = self.settings.inputs[name] = bool(on)
        for key, value in changes.items():
            setattr(self.settings, key, value)
        try:
            self.settings.save(self.settings_path)
            saved = "Saved."
        except OSError as error:  # a full or read-only card: the table still gets the change for this run
            log.warning("saving settings: %s", error)
            saved = not_saved(error, self.settings_path)
        self.cafe_dir = cafe
        self.voice.enabled, self.voice.speed = self.settings.voice, self.settings.voice_speed
        self.voice.volume = self.settings.voice_volume
        self.scale = self.settings.display_scale / 100
        self.pin.pin = self.settings.kiosk_pin
        self.idle.limit = self.settings.idle_seconds
        self.apply_inputs()
        data = f"the café data in {cafe}" if cafe else "the house data"
        return f"{saved} Inputs are switched as shown; the next new game uses {data}."

    # -- inputs ------------------------------------------------------------
    def input_source(self, name: str) -> str:
        """The command line's word wins for this run, so a unit file naming a port is not undone from the screen."""
        given = self.input_sources.get(name)
        if given:
            return given
        if name == "buttons":
            return "mock"
        if name == "serial":
            return self.settings.serial_port.strip()
        if name == "camera":
            return self.settings.camera_source.strip()
        return ""

    def apply_inputs(self) -> None:
        """Brings the running inputs in line with the switches, so a saved change acts without a restart.

        An input whose source changed is restarted on the new one. One that
        cannot start is skipped with its reason in ``input_problems`` rather
        than raising: touch alone still runs a game, and does even when
        switched off if the button box is not running (see ``touch_blocked``).
        """
        problems: dict[str, str] = {}
        for name in inputs.NAMES:
            wanted, source = bool(self.inputs_on.get(name)), self.input_source(name)
            running = self.running_inputs.get(name)
            if running is not None and (not wanted or running[0] != source):
                del self.running_inputs[name]
                if running[1] in self.hardware:
                    self.hardware.remove(running[1])
                self._stop_input(name, running[1])
            elif running is not None:
                if name in self.input_problems:  # still running: its last link report still holds
                    problems[name] = self.input_problems[name]
                continue
            if not wanted:
                continue
            problem = self._missing_source(name, source)
            if problem:
                problems[name] = problem
                continue
            try:
                thing = inputs.start(self.controller, name, source, self.camera_orientation(), self.settings.mains_hz,
                                     self.camera_tray(), self._tray_followed)
            except Exception as error:  # e.g. no GPIO, no OpenCV: report it, keep the rest running
                # A camera's login is never shown nor logged (`vision.login`, which needs no OpenCV).
                named, said = shown(source), str(error).replace(source, shown(source)) if source else str(error)
                log.warning("%s (%s) did not start: %s", name, named, said)
                problems[name] = f"{inputs.LABELS[name]} could not start ({named}): {said}"
                continue
            self.running_inputs[name] = (source, thing)
            self.hardware.append(thing)
        if not self.inputs_on.get("touch", True) and "buttons" not in self.running_inputs:
            problems["touch"] = "Touch: still on for this run, since the button box is not running."
        self._set_input_problems(problems)

    def _stop_input(self, name: str, thing: Any) -> None:
        """A camera is closed on a thread of its own, so Save returns at once.

        Closing joins the feed's thread, which a stream that never answers
        holds inside OpenCV for up to 5 s: on Kivy's thread the touchscreen
        froze on Save for all of it. The feed submits nothing once close()
        is called, so one still closing never speaks for its successor.
        """
        if name != "camera":
            inputs.stop(self.controller, thing)
            return
        self._closing = [closer for closer in self._closing if closer.is_alive()]
        closer = threading.Thread(target=inputs.close_one, args=(thing,), name="camera-close", daemon=True)
        closer.start()
        self._closing.append(closer)

    def camera_orientation(self) -> Orientation:
        """How the café's camera picture is put upright, from the settings."""
        return Orientation(self.settings.camera_turn, self.settings.camera_mirror)

    def camera_tray(self) -> TrayArea:
        """Where the camera reads dice, from the settings (checked when they were loaded)."""
        return TrayArea.from_list(self.settings.tray_area)

    def turn_camera(self, orientation: Orientation) -> str:
        """Turn or mirror the camera's picture at once and keep it; the sentence for the camera screen.

        The running feed takes the new orientation with its next frame, so the
        owner sees the preview turn while pressing, with no camera restart. A
        marked tray turns with the picture, so it stays on the tray.
        """
        tray = self.camera_tray().moved(self.camera_orientation(), orientation)
        self.settings.camera_turn, self.settings.camera_mirror = orientation.turn, orientation.mirror
        self.settings.tray_area = tray.as_list()
        running = self.running_inputs.get("camera")
        if running is not None:
            running[1].orientation, running[1].tray = orientation, tray
        return self._kept(f"Picture {orientation.words()}", "the camera's orientation")

    def mark_tray(self, tray: TrayArea) -> str:
        """Read dice in this part of the picture from the next frame on, and keep it; the sentence for the screen."""
        self.settings.tray_area = tray.as_list()
        running = self.running_inputs.get("camera")
        if running is not None:
            running[1].tray = tray
        return self._kept(f"Dice read in {tray.words()}", "the tray area")

    def _voice_problem(self, problem: str) -> None:
        """Speech failed (or works again), told from the voice's thread: shown on Kivy's. The table's status
        line says a failure once, when it is found; the settings screen says it until a sentence is heard."""
        def show(_dt: float) -> None:
            self.voice_note = self.voice.note()
            if problem:
                self.status = problem

        Clock.schedule_once(show, 0)

    def _tray_followed(self, tray: TrayArea) -> None:
        """The camera moved the marked tray with its knocked picture (`CameraFeed._follow_knock`): kept, on
        Kivy's thread, so the next start reads dice where the tray lies now, not where it lay before the knock."""
        def keep(_dt: float) -> None:
            self.settings.tray_area = tray.as_list()
            log.info("%s", self._kept(f"Dice read in {tray.words()}, moved with the knocked camera", "the tray area"))

        Clock.schedule_once(keep, 0)

    def set_mains(self, hz: int) -> str:
        """Tell the running camera the mains frequency and keep it; the sentence for the camera screen."""
        self.settings.mains_hz = hz
        running = self.running_inputs.get("camera")
        told = running[1].set_mains(hz) if running is not None else ""
        waiting = f"Mains {hz} Hz, told to the camera when it opens" if hz else "Mains left to the camera's own setting"
        return self._kept(told or waiting, "the mains frequency")

    def _kept(self, done: str, what: str) -> str:
        """Save a camera setting changed on the camera screen: ``done`` and whether it outlasts a restart."""
        try:
            self.settings.save(self.settings_path)
        except OSError as error:
            log.warning("saving %s: %s", what, error)
            why, then = card_refused(error, self.settings_path)
            return f"{done}; not saved ({why}): it holds until a restart{f'; {then}' if then else ''}."
        return f"{done}: saved."

    def _missing_source(self, name: str, source: str) -> str:
        if name == "buttons" and source == "none":
            return "Button box: off for this run (--buttons none on the command line)."
        if name == "serial" and not source:
            return "Dice sensor: type its serial port (e.g. /dev/ttyACM0) and save."
        if name == "camera" and not source:
            return "Camera: type its source (0, picamera, a URL, a video or a folder) and save."
        return ""

    def _set_input_problems(self, problems: Mapping[str, str]) -> None:
        """The settings screen gets every reason in full; the table one short line per reader that is down.

        A running input has a problem only while its link is down (`_link_changed`). The table
        said so once, in the status line the next step cleared, and then rolls went unread with
        nothing on the screen to say why; the details stay on the settings screen, behind the PIN.
        """
        self.input_problems = dict(problems)
        self.inputs_note = "\n".join(problems[name] for name in (*inputs.NAMES, "touch") if name in problems)
        down = [name for name in inputs.READERS if name in problems and name in self.running_inputs]
        self.inputs_down = " ".join(INPUT_DOWN.format(inputs.LABELS[name]) for name in down)

    def _link_changed(self, update: Update) -> None:
        """A sensor or camera that opens, fails or recovers after it was started shows on the settings screen, and
        so does a standing problem of one that works (`LinkChanged.standing`) until it next comes up.

        A passing word from a link that stays up (a garbled line, a knock) leaves the list as it is: it cleared a
        standing problem, and "the dice sensor does not notice throws" never reached the list at all.
        """
        name = inputs.LINK_SOURCES.get(str(update.detail.get("source")))
        if name is None or name not in self.running_inputs:
            return  # a late report from an input switched off since
        if update.detail.get("note"):
            return  # a word from a sensor whose connection is still unstable: its problem still holds
        problems = dict(self.input_problems)
        if not update.detail.get("up") or update.detail.get("standing"):
            problems[name] = update.text[:1].upper() + update.text[1:]
        elif update.detail.get("came_up"):
            problems.pop(name, None)
        else:
            return
        self._set_input_problems(problems)

    def clauses(self, words: str = "") -> Found:
        """The rulebook screen's clauses for the words typed; all of them, in the book's order, for none."""
        session = self.controller.session
        if session is None:
            return Found([], True)
        book = session.game.rulebook
        return book.lookup(words) if words.strip() else Found(list(book.clauses), True)

    def games(self) -> list[GameInfo]:
        """The games home lists, by name, player counts and colours: no game's rules are loaded for them."""
        return list(game_infos().values())

    def _button_gate(self, intent: str) -> tuple[str, str] | None:
        """Whether a press of confirm, undo or next may play now: only while the table shows the game.

        The buttons acted on the game behind the home or settings screen, so a
        press while the owner edited the settings changed a game nobody was
        looking at. On a players' screen (home, the attract screen, the rules,
        a dispute) the press brings the table back instead (`on_update`); on
        the owner's screens it is refused and the screen is left alone.
        """
        # A press is someone at the table, as a touch is: a game played on the box alone went to the attract
        # screen mid-game after idle_seconds, and the next press only brought it back.
        self.idle.touched(self.clock())
        screen = self.root.current if self.root is not None else "table"
        if screen == "table":
            return None
        if screen in OWNER_SCREENS:
            return "refused", OFF_TABLE.format(intent, OWNER_SCREENS[screen])
        if screen == "home" and self.root.get_screen("home").choosing:
            return "refused", CHOOSING.format(intent)  # on home's note line (`_off_table`), the choices kept
        return "info", BACK_TO_TABLE.format(intent)

    def _off_table(self, update: Update) -> None:
        """A press not played because the game was not on screen: the table back, or the owner's screen told."""
        if update.kind == "info":
            self.wake()
            return
        self._screen_note(update.text)

    def _screen_note(self, text: str) -> None:
        """Say ``text`` on the note line of the screen shown, for a screen that has one."""
        screen = self.root.current_screen if self.root is not None else None
        if screen is not None and hasattr(screen, "note"):  # the camera and home screens' own line
            screen.note = text
        elif screen is not None and "note" in screen.ids:  # the settings screen's
            screen.ids.note.text = text

    # -- the output --------------------------------------------------------
    def on_update(self, update: Update) -> None:
        """Every controller result lands here (main loop), whatever input caused it."""
        self._seq += 1
        if update.kind == "link":
            self._link_changed(update)
        if "off_table" in update.detail:
            self._off_table(update)
        if update.kind == "menu":  # the button box's menu key
            self.request("settings" if update.detail.get("intent") == "settings" else "home")
        if "held" in update.detail and self.root is not None and self.root.current in OWNER_SCREENS:
            # The menu button resting pressed opened the settings and said it seemed held only on the table's
            # status line, behind the screen the owner was looking at.
            self._screen_note(update.text)
        if update.kind == "select":  # shown, so a player pressing next sees what confirm will take
            self.highlighted = dict(update.action or {}) or None
            place = update.detail.get("place")
            self.highlighted_place = tuple(place) if isinstance(place, list) else place
        elif update.kind == "confirm":
            # An unsure reading waits for one tap: its choice is lit and brought on screen, so the tap that
            # takes it is the one the status line asks for, not a search through the list.
            self.highlighted = self._offered(update.action)
            self.highlighted_place = None
        elif update.kind in ("step", "undo", "redo", "new_game"):
            self.highlighted = self.highlighted_place = None  # a new list
            self.ruling = {}  # a ruling on the last position says nothing about this one
        elif update.kind == "info" and self._lit_by_reading and self.controller.proposal is None:
            # A reading dropped (undo while it waited) said "enter the value by hand" with its choice still
            # lit, as if one tap would take it.
            self.highlighted = None
        self._lit_by_reading = update.kind == "confirm" or (
            self._lit_by_reading and update.kind != "select" and self.controller.proposal is not None
        )  # a button box's pick, lit by "select", is the player's own and stays
        asked = update.kind == "ruling" or (update.kind == "refused" and self._checking)
        if asked:
            self.ruling = self._ruling(update)
        pointed = update.kind == "ruling" and "place" in update.detail  # asked at the table, answered there
        # A question asked on the dispute screen leaves the table's status line and list as they were: the oracle's
        # 7 checked there (refused as no roll, not ruled on) came back as the table's newest line and its status in
        # red, "the oracle shows 1 to 6, not 7", as if the table had entered a 7; any ruling there blanked the
        # status line, a reading's question waiting for its tap among them.
        disputed = asked and not pointed
        # A reading waiting for its tap keeps its question on the status line: a camera's passing note ("the
        # dice lie where they lay ...: roll again or enter the value by hand", from the hand on its way to the
        # screen) replaced it and told the player to do something else while the choice stayed lit.
        waiting = update.kind in ("info", "link") and self.controller.proposal is not None
        shown = ("refused", "unapplied", "confirm", "info")
        if update.kind == "link":
            # The owner's words (a port, a protocol line, the fix) go to the log and the settings screen
            # (`_link_changed`); the players read theirs (`observations.table_text`), or nothing new.
            # A warning, as the service's log keeps only those: a link back up is news, not a problem, unless it
            # comes with something for the owner to mend (a sensor found only by its udev name).
            news = update.detail.get("came_up") and not update.detail.get("standing")
            log.log(logging.INFO if news else logging.WARNING, "%s", update.text)
            table = str(update.detail.get("table", update.text))
            if waiting:
                self.status = self.controller.proposal_text
            elif table:
                self.status = table[:1].upper() + table[1:]
        elif not disputed:
            self.status = self.controller.proposal_text if waiting else update.text if update.kind in shown else ""
        if update.detail.get("owner"):  # an unsure reading: how sure, for the owner (`Controller._unsure_text`)
            log.warning("%s", update.detail["owner"])
        if "off_table" in update.detail and self.root is not None and self.root.current == "home":
            self.status = ""  # home's own note says it: on the table's status line it would outlive the choosing
        if (update.kind in ("step", "redo", "undo", "refused", "confirm") and not disputed) or pointed:
            entry = {"text": update.text, "rules": list(update.rules), "kind": update.kind}
            self.announcements = [entry, *self.announcements][:MAX_ANNOUNCEMENTS]
        # A reading repeated (a sensor sending the same line again and again) is shown, but said once.
        said_already = update.kind == "unapplied" and spoken_form(update.text) == self.last_spoken
        if update.kind in SPOKEN_KINDS and not said_already:
            spoken = update.text
            if update.kind in ("step", "undo", "redo") and update.pending is not None:
                # the prompt without what the step said
                spoken = spoken_step(update.text, update.pending.text, update.pending.is_over)
            spoken = spoken_form(spoken)  # the screen's words as espeak-ng should say them
            if update.kind in STALE_AFTER:
                self.voice.hush()  # what is being said, and what waits, speaks of a position no longer there
            self.voice.say(spoken, key=self._seq)
            self.last_spoken = spoken
        self.refresh()

    def _offered(self, action: Mapping[str, Any] | None) -> dict[str, Any] | None:
        """The legal action, with its text, that ``action`` (as the controller spells it, without one) is."""
        session = self.controller.session
        if not action or session is None:
            return None
        return next((a for a in session.legal() if {k: v for k, v in a.items() if k != "text"} == dict(action)), None)

    def _ruling(self, update: Update) -> dict[str, Any]:
        ruling = {"legal": bool(update.detail.get("legal")), "text": update.text, "rules": list(update.rules)}
        if "place" in update.detail:  # asked by a tap on the board: the dispute screen opens on it
            ruling["place"] = update.detail["place"]
        return {**ruling, "clauses": self._clauses(update.rules)}

    def _clauses(self, rules: Iterable[str]) -> list[str]:
        """Each cited clause as the ruling shows it: its id, title and summary (the id alone when unknown)."""
        session = self.controller.session
        clauses = []
        for rule in rules:
            try:
                clause = session.game.rulebook.clause(rule) if session else None
            except CompanionError:
                clause = None
            clauses.append(f"{rule} {clause.title}: {clause.text}" if clause else rule)
        return clauses

    def refresh(self) -> None:
        session = self.controller.session
        if session is None:
            self.game_id = self.game_title = self.prompt = ""
            self.choices, self.board = [], None
            self.can_undo = self.can_redo = self.game_over = False
            self._over_since = None
        else:
            pending = session.pending()
            self.game_id, self.game_title = session.game.id, session.game.title
            self.prompt = pending.text
            self.choices = session.legal()
            last = place_of(session.log[-1]) if session.log else None  # "where did Red just go?"
            self.board = BoardView(
                session.game, session.document(), session.game.describe(session.state), last=last,
                named=self._named(session.game.id, pending.text),
            )
            self.can_undo, self.can_redo = session.can_undo, session.can_redo
            self.game_over = pending.is_over
            if not pending.is_over:
                self._over_since = None
            elif self._over_since is None:
                self._over_since = self.clock()
        self.unsaved_line = self._unsaved(session)
        self._refresh_home(session)

    def _unsaved(self, session: Session | None) -> str:
        """`UNSAVED_GAME` for a game on the table journalled in memory only (`Journal.not_kept`), else ""."""
        journal = session.journal if session is not None else None
        if journal is None or journal.kept_on_disk:
            return ""
        return UNSAVED_GAME.format(why=journal.not_kept or "the journal file cannot be written")

    def _named(self, game_id: str, prompt: str) -> tuple[Hashable, ...]:
        """The places the newest refusal or "why not here?" answer names, then the prompt's: a player told "(0,3)
        touches Black at (1,3)" by the screen or the voice finds both on the map, which shows their names."""
        namer = namer_for(game_id)
        if namer is None:
            return ()
        newest = self.announcements[0] if self.announcements else {}
        texts = [newest.get("text", ""), prompt] if newest.get("kind") in ("refused", "ruling") else [prompt]
        return tuple(dict.fromkeys(place for text in texts for place in namer(str(text))))

    def _refresh_home(self, session: Session | None) -> None:
        """Home's way back: Resume for a game in play; for a finished one (on the table, or the journal's last
        after a restart) its result and a way back into it, never into play on its own."""
        finished = self.last_game if session is None else None
        if session is not None and not self.game_over:
            self.resume_text = f"Resume {self.game_title} ({how_many(len(session.log))})"
            self.last_game_text = ""
        elif session is not None:
            self.resume_text = f"Back to {self.game_title} (finished)"
            self.last_game_text = f"Last game: {self.game_title}. {verdict(self.prompt)}"
        elif finished is not None:
            self.resume_text = f"Back to {finished.title} (finished)" if finished.reopenable else ""
            self.last_game_text = finished.headline()
        else:
            self.resume_text = self.last_game_text = ""


def board_warning(warnings: Sequence[str]) -> str:
    """The start's word on café data that plays but reads worse: the first warning, the rest counted ("" for none).

    The game plays the same, so it starts; the café learns which card to
    mend without a terminal (``companion data validate`` lists them all).
    """
    if not warnings:
        return ""
    more = f" (and {len(warnings) - 1} more: companion data validate lists them)" if len(warnings) > 1 else ""
    return f"Warning: {warnings[0]}{more}"
