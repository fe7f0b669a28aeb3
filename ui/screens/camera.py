"""Camera: what the table's camera sees, and teaching it the café's own temple cards and die.

Before this screen a café taught its cards and die with `companion vision
teach-card` over SSH, with the kiosk stopped to free the camera. Here the
owner lays a card in a slot (or a face up on the tray), picks what it is and
taps once; the running camera feed reads with it from the next frame.

A teaching runs on a thread of its own: the first card renders the deck's
references (a quarter of a second on a Pi) and a slow SD card or a large frame
takes longer, and on Kivy's thread the touchscreen would freeze for all of it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, InstructionGroup, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, ListProperty, StringProperty

from companion.observations import CONFIRM_BELOW
from ui.screens.upright import UprightScreen
from ui.widgets import BigSpinner  # noqa: F401  # the lists of camera.kv (and dispute.kv), by name
from vision.mains import MAINS_HZ
from vision.orientation import Orientation
from vision.readings import ASKED_RGB, SLOT_RGB, TAKEN_RGB, dice_text
from vision.tray_area import LEAST_SIDE, WHOLE_PICTURE, TrayArea, TrayAreaRefused

log = logging.getLogger(__name__)

PREVIEW_SECONDS = 0.25  # four pictures a second: enough to aim a camera, little CPU taken from the readers
TAKEN_COLOUR = (*(c / 255 for c in TAKEN_RGB), 1.0)  # as `vision watch --save` boxes the dice
ASKED_COLOUR = (*(c / 255 for c in ASKED_RGB), 1.0)
SLOT_COLOUR = (*(c / 255 for c in SLOT_RGB), 1.0)
TRAY_COLOUR = (1.0, 1.0, 1.0, 0.9)
MARK_FIRST = "Tap one corner of the dice tray on the picture, then the opposite one; Whole picture reads dice anywhere."
# A slip of the finger: the tray area's own refusal spoke of shares, sides and their order, which mean nothing to a tap.
TOO_CLOSE = (f"Not marked: the two corners are too close together; tap two opposite corners of the tray, "
             f"at least {LEAST_SIDE:.0%} of the picture apart.")
CAMERA_OFF = "The camera is off: switch it on in Settings, with its source, and save."
ENDED_EMPTY = "Replace the files with readable pictures or a video, or pick another source in Settings and save."
REFUSALS = ("Not ", "No ")  # how a note that did not do what was asked begins
LONGEST_WORD = 30  # characters of one word (a path, a URL) kept in the picture frame: its start and its end
LONGEST_TEXT = 300  # characters the empty picture frame holds in its smaller font, at any window size
# Dice seen at a slant are read best with their sides below their tops (vision/orientation.py).
UPRIGHT_HINT = "Turn it until the table's far side is at the top."
# A face taught under the wrong value, a card photo as the wrong card, in the app: the button, not the command line.
TAKE_BACK_HINT = "tap Take back"


def cut_middle(text: str, most: int) -> str:
    """`text` in `most` characters at most, its middle given up: what is wrong is said first and what to do
    last, and a path's or URL's start and end are what tell one from another."""
    if len(text) <= most:
        return text
    head = (most - 1) // 2
    return f"{text[:head]}…{text[len(text) - (most - 1 - head):]}"


def fitted(text: str) -> str:
    """Text that stays inside the picture frame: a 245-character stream URL ran over its border and the Turn
    button, and a 5000-character source covered the heading and the buttons."""
    return cut_middle(" ".join(cut_middle(word, LONGEST_WORD) for word in text.split(" ")), LONGEST_TEXT)


def mains_button_text(hz: int) -> str:
    return f"Mains {hz} Hz" if hz else "Mains: camera's own"


def preview_texture(frame: Any, texture: Texture | None) -> Texture | None:
    """The frame as a texture (the last one reused when the size holds); None for a frame that is no picture.

    Frames are BGR rows from the top, textures RGB rows from the bottom: both
    are turned by slicing, so the app needs no OpenCV of its own.
    """
    shape = getattr(frame, "shape", ())
    if len(shape) == 2:
        frame = frame[:, :, None].repeat(3, axis=2)  # a grey camera
    elif len(shape) != 3 or shape[2] < 3 or str(frame.dtype) != "uint8":
        return None
    h, w = frame.shape[:2]
    if texture is None or tuple(texture.size) != (w, h):
        texture = Texture.create(size=(w, h), colorfmt="rgb")
    texture.blit_buffer(frame[::-1, :, 2::-1].copy().tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    return texture


Quad = tuple[float, float, float, float]


def shown_point(point: tuple[float, float], frame_size: tuple[int, int], shown_pos: tuple[float, float],
                shown_size: tuple[float, float]) -> tuple[float, float]:
    """A point in frame pixels (rows from the top) where it lies over the picture as shown: the frame scaled
    to `shown_size` at `shown_pos`, rows from the bottom as Kivy counts them."""
    width, height = frame_size
    return (shown_pos[0] + point[0] * shown_size[0] / width,
            shown_pos[1] + (height - point[1]) * shown_size[1] / height)


def shown_rectangle(box: Quad, frame_size: tuple[int, int], shown_pos: tuple[float, float],
                    shown_size: tuple[float, float]) -> Quad:
    """A box in frame pixels (x0, y0, x1, y1) as (x, y, w, h) over the picture as shown."""
    left, bottom = shown_point((box[0], box[3]), frame_size, shown_pos, shown_size)
    right, top = shown_point((box[2], box[1]), frame_size, shown_pos, shown_size)
    return left, bottom, right - left, top - bottom


class CameraScreen(UprightScreen):
    """The picture with what the camera reads over it, and the controls that teach it a café's cards and die.

    Upright, the picture goes on top and the rest is sized in the screen's own unit (camera.kv).
    """

    note = StringProperty("")
    refused = BooleanProperty(False)  # the note says why something was not done: shown apart from a success
    mains_text = StringProperty(mains_button_text(0))
    live = BooleanProperty(False)  # a camera is running and has sent a picture
    teaching = BooleanProperty(False)  # a teaching is on its thread: the teach buttons wait for its answer
    # "slot:card" of a card refused for a colour on it that may be the café's own print (`TeachRefused`): while
    # the same slot and card are picked, the teach button takes the card as printed.
    printed_offer = StringProperty("")
    marking = BooleanProperty(False)  # the next taps on the picture mark the tray's corners
    can_take_back = BooleanProperty(False)  # a card photo or die face was taught in this visit and not taken back
    _corner: tuple[float, float] | None = None  # the tray's first corner tapped, as shares of the picture
    slots = ListProperty([])
    cards = ListProperty([])
    values = ListProperty([])
    _clock = None
    _overlay: InstructionGroup | None = None  # what the camera reads, drawn over its picture
    _drawn: tuple[tuple[int, int], tuple[Any, ...], dict[int, Any]] | None = None  # (frame size, dice, slots)
    _here = False
    _told_away = False  # a teaching ended while the screen was left: its answer waits for the owner's return
    _asked = ""  # "slot:card" of the last card taught, for `printed_offer`

    def __init__(self, **kwargs: Any) -> None:
        self._numbers: dict[tuple[int, int], Texture] = {}  # slot numbers rendered, by (number, font size)
        # What was taught in this visit, in order, each with what takes it back (`take_back`).
        self._taught: list[tuple[str, Callable[[], Any]]] = []
        super().__init__(**kwargs)

    def on_pre_enter(self, *_args: Any) -> None:
        from vision.card_catalogue import catalogue_from_data, load_temple_board, load_temple_cards
        from vision.teaching import die_faces_of

        data = self.data()
        cards, board = catalogue_from_data(data)
        self.slots = [str(s.slot) for s in (board or load_temple_board()).slots]
        self.cards = [c.id for c in (cards or load_temple_cards())]
        # The café's own die where it has one (an X on red, say), X last.
        self.values = sorted({v for v, _ in die_faces_of(data)}, key=lambda v: (not v.isdigit(), v.zfill(2)))
        orientation = App.get_running_app().camera_orientation()
        if not (self.teaching or self._told_away):  # "Teaching..." or an answer not yet seen stays up
            # A turn is not in sight, nor what the camera made of the mains frequency.
            told = [f"Picture {orientation.words()}"] * (not orientation.upright)
            tray = App.get_running_app().camera_tray()
            told += [f"Dice read in {tray.words()}"] * (not tray.whole)
            told += [getattr(self.feed(), "mains_note", "")]
            self.note = " ".join(f"{line[:1].upper()}{line[1:]}." for line in told if line)
            # Read off Kivy's thread: a café's deck of photos takes a moment, and the screen would freeze on entering.
            threading.Thread(target=self._look_for_clipped, args=(self.note,), name="camera-clipped",
                             daemon=True).start()
            self._taught.clear()  # a new visit: what was taught in the last one is not this owner's slip
            self.can_take_back = False
        self._told_away = False
        self._here = True
        self.ids.mirror.state = "down" if orientation.mirror else "normal"
        self.mains_text = mains_button_text(App.get_running_app().settings.mains_hz)
        self.show_frame(0)
        self._clock = Clock.schedule_interval(self.show_frame, PREVIEW_SECONDS)

    def _look_for_clipped(self, entry: str) -> None:
        """Which cards to teach again, their photos stored clipped by an older version (`card_reader.
        stored_clipped`), added to the note ``entry`` while it stands: the owner teaching here had no word of them,
        and the table read them on. On a thread of its own; nothing escapes it."""
        from vision.card_reader import clipped_photos, clipped_words
        from vision.taught import default_taught_dir

        try:
            clipped = clipped_photos(default_taught_dir())
        except Exception:  # a word the screen can do without: never a thread's traceback instead
            log.exception("looking for clipped card photos failed")
            return
        if clipped:
            said = clipped_words(None, clipped)
            Clock.schedule_once(lambda _dt: self._tell_clipped(entry, f"{said[:1].upper()}{said[1:]}."))

    def _tell_clipped(self, entry: str, said: str) -> None:
        """Added to the note only while it is still the one said on entering: an answer since is not covered."""
        if self._here and self.note == entry and not self.teaching:
            self.note = f"{entry} {said}" if entry else said

    def on_note(self, _screen: Any, note: str) -> None:
        """Kept here, not in the .kv: Kivy never re-ran the .kv's `root.note.startswith(...)`, so every
        refusal ("Not taught: ...") stayed in the colour of the success before it. A new note is shown from its
        start: the note scrolls past four lines, and one scrolled down began in mid-sentence."""
        self.refused = note.startswith(REFUSALS)
        if "note_scroll" in self.ids:
            self.ids.note_scroll.scroll_y = 1

    def on_leave(self, *_args: Any) -> None:
        self._here = False
        self.marking, self._corner = False, None
        if self._clock is not None:
            self._clock.cancel()
            self._clock = None

    def data(self) -> Any:
        """The temple data the table referees on: the game in progress's, else the café's (its own deck)."""
        from vision.teaching import temple_data

        app = App.get_running_app()
        session = app.controller.session
        if session is not None and session.game.id == "temple":
            return session.game.data
        return temple_data(app.cafe_dir)

    def feed(self) -> Any:
        app = App.get_running_app()
        running = app.running_inputs.get("camera") if app is not None else None
        return running[1] if running else None

    def show_frame(self, _dt: float) -> None:
        """The camera's latest picture, or why there is none.

        A camera that is lost keeps its last frame in `latest`: shown, it looked
        live ("frame 38") to an owner aiming a camera that was unplugged, and a
        card could be taught from a board that had changed since. So a camera
        that is down (not found, lost, or there but giving nothing) shows its
        reason in place of the picture and teaches nothing. A video or folder
        that has played to its end keeps its last picture, which is still what
        the file shows, with the end said under it; one that ended before its
        first picture (a folder of unreadable files) says why, or "Waiting"
        would stand for ever.
        """
        feed = self.feed()
        frame = getattr(feed, "latest", None)
        ended = feed is not None and feed.ended.is_set()
        lost = self.lost(feed)
        texture = preview_texture(frame, self.ids.preview.texture) if frame is not None and not lost else None
        self.ids.preview.texture = texture
        self.live = texture is not None
        dice = tuple(getattr(feed, "dice_in_view", ())) if self.live else ()
        if feed is None:  # switched off, or switched on with no source or one that could not start
            seen = App.get_running_app().input_problems.get("camera") or CAMERA_OFF
        elif lost:
            seen = f"No picture. {self.problem(feed)}"
        elif texture is None and ended:  # every file unreadable: no picture will ever come
            seen = f"No picture. {self.problem(feed).rstrip('.')}. {ENDED_EMPTY}"
        elif texture is None:
            seen = "Waiting for a picture from the camera..."
        else:
            seen = f"{frame.shape[1]}x{frame.shape[0]}, frame {feed.frames}"
            if dice:
                seen = f"{seen}: {dice_text(dice, each_sure=False)}"  # the boxes' colours say how sure
            seen = f"{seen}, the last. {self.problem(feed)}" if ended else seen
        self.ids.seen.text = fitted(seen)
        self.ids.advice.text = " ".join(f"{line}." for line in self.advice(feed)) if self.live else ""
        self.draw_over(frame, dice, getattr(feed, "slots_in_view", None) if self.live else None,
                       getattr(feed, "covered_in_view", frozenset()) if self.live else frozenset())

    @staticmethod
    def advice(feed: Any) -> list[str]:
        """What the café should mend at the camera, from what the feed measured (`vision.view_check`): said
        apart from the readings, in amber, so a camera being set up shows at a glance what is wrong with it."""
        # Here, not at the top: `vision.view_check` loads OpenCV and numpy, a sixth of the CPU time to the
        # home screen on a table with no camera (docs/ui.md, "Start-up time"); a running feed has loaded them.
        from vision.view_check import ON_SCREEN, SLOT_WANTED, restless_advice, small_slots

        lines = []
        small = getattr(feed, "small_dice", None)
        if small:
            what = getattr(feed, "small_what", "Dice")
            # The d6 reader sees a marked tray's dice at their own size rather than shrunk with the whole
            # picture, so marking it is a mend that needs no ladder; the temple die's face is read at the
            # camera's resolution, which only a closer camera raises.
            mend = "mark the tray, or " if what == "Dice" and App.get_running_app().camera_tray().whole else ""
            lines.append(f"{what} only {small[0]} px across: {mend}mount the camera closer ({small[1]} px or more)")
        if getattr(feed, "blurred_dice", None):
            lines.append("Dice out of focus: focus the camera on the tray")
        if getattr(feed, "blurred_board", None):
            lines.append("Board out of focus: focus the camera on the board")
        washed = getattr(feed, "washed_out_board", None)
        if washed:
            lines.append(f"Board washed out (its markers' black {washed:.0%} as bright as their white): wipe the "
                         "camera's lens, turn lamps away from it")
        slots = small_slots(getattr(feed, "slots_in_view", None))
        if slots is not None:
            lines.append(f"Slots only {slots} px across: mount the camera closer to the board "
                         f"({SLOT_WANTED} px or more)")
        dark = getattr(feed, "dark", None)
        if dark is not None:
            where = getattr(feed, "dark_where", "the tray")
            lines.append(f"Picture too dark (its brightest parts {dark} of 255): light {where}")
        shadow = getattr(feed, "shadow", None)
        if shadow is not None:
            lines.append(f"A lamp's shadow lies across the picture ({shadow:.0%} of the light in it): lifted off, "
                         "but read surer with the lamp or the camera's arm moved")
        restless = getattr(feed, "restless", None)
        if restless is not None:
            app = App.get_running_app()
            advice = restless_advice(getattr(feed, "banded", False), app.settings.mains_hz, ON_SCREEN,
                                     getattr(feed, "camera_rate", None), not app.camera_tray().whole)
            lines.append(f"Picture not still for {restless:.0f} s, so nothing is read: {advice}")
        return lines

    def draw_over(self, frame: Any, dice: Any = (), slots: Any = None, covered: Any = frozenset()) -> None:
        """What the camera reads, drawn over its picture. Each die it settled on is boxed, green when the table
        would take it as read and amber when it would ask for a tap; each slot of a board whose four markers it
        sees is outlined with its number, in amber where it reads covered (``covered``: a hand, a cup, or a card
        not taught); a marked tray is framed in white, and while one is being marked, its first corner is
        crossed. An owner aiming the camera sees what is read where, which dice it is unsure of, and whether the
        slots it reads lie on the board's."""
        slots = {number: (corners, number in covered) for number, corners in dict(slots or {}).items()}
        tray = App.get_running_app().camera_tray()
        tray_box = None if frame is None or tray.whole else tray.pixels(frame.shape)
        corner = None
        if frame is not None and self.marking and self._corner is not None:
            corner = (self._corner[0] * frame.shape[1], self._corner[1] * frame.shape[0])
        shown = frame is not None and (dice or slots or tray_box or corner)
        self._drawn = ((frame.shape[1], frame.shape[0]), tuple(dice), slots, tray_box, corner) if shown else None
        self.redraw()

    def shown_picture(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """Where the picture lies in the preview, (x, y) of its lower left corner and (width, height): the
        preview keeps the picture's proportions, so bands of it stay empty."""
        preview = self.ids.preview
        shown = preview.norm_image_size
        return (preview.x + (preview.width - shown[0]) / 2, preview.y + (preview.height - shown[1]) / 2), shown

    def redraw(self) -> None:
        """Draw again where the picture now is: the preview is laid out after its first picture, and again
        whenever the window changes size."""
        preview = self.ids.preview
        if self._overlay is None:
            self._overlay = InstructionGroup()
            preview.canvas.after.add(self._overlay)
        self._overlay.clear()
        if self._drawn is None:
            return
        frame_size, dice, slots, tray_box, corner = self._drawn
        pos, shown = self.shown_picture()
        scale = shown[0] / frame_size[0]
        if tray_box is not None:
            self._overlay.add(Color(*TRAY_COLOUR))
            self._overlay.add(Line(rectangle=shown_rectangle(tray_box, frame_size, pos, shown), width=1.5))
        if corner is not None:
            x, y = shown_point(corner, frame_size, pos, shown)
            reach = 14 * scale + 6
            self._overlay.add(Color(*TRAY_COLOUR))
            self._overlay.add(Line(points=[x - reach, y, x + reach, y], width=2))
            self._overlay.add(Line(points=[x, y - reach, x, y + reach], width=2))
        for number, (corners, hidden) in slots.items():
            points = [shown_point(corner, frame_size, pos, shown) for corner in corners]
            self._overlay.add(Color(*(ASKED_COLOUR if hidden else SLOT_COLOUR)))
            self._overlay.add(Line(points=[v for point in points for v in point], close=True, width=1))
            texture = self.number_texture(number, max(10, round(40 * scale)))
            middle = [sum(v) / len(points) for v in zip(*points, strict=True)]
            size = texture.size
            self._overlay.add(Rectangle(texture=texture, size=size,
                                        pos=(middle[0] - size[0] / 2, middle[1] - size[1] / 2)))
        for die in dice:
            self._overlay.add(Color(*(TAKEN_COLOUR if die.confidence >= CONFIRM_BELOW else ASKED_COLOUR)))
            self._overlay.add(Line(rectangle=shown_rectangle(die.box, frame_size, pos, shown), width=2))

    def number_texture(self, number: int, font_size: int) -> Texture:
        """A slot's number as a texture, rendered once per size: the outlines are drawn four times a second."""
        key = (number, font_size)
        if key not in self._numbers:
            from kivy.core.text import Label as TextLabel

            text = TextLabel(text=str(number), font_size=font_size, bold=True)
            text.refresh()
            self._numbers[key] = text.texture
        return self._numbers[key]

    @staticmethod
    def lost(feed: Any) -> bool:
        """Down and still retrying: its last frame is a picture of the past (an ended file's is not)."""
        return getattr(feed, "up", None) is False and not feed.ended.is_set()

    @staticmethod
    def problem(feed: Any) -> str:
        """Why the camera gives no picture, as settings says it (the feed's own words until the app has them)."""
        said = App.get_running_app().input_problems.get("camera")
        if said:
            return str(said)
        problem = getattr(feed.source, "problem", None)
        opened = getattr(feed, "opened", True)
        if not opened and feed.ended.is_set():  # a folder found, none of whose files is a picture: not "not found"
            from vision.sources import unreadable_note  # here: the feed running has loaded vision already

            nothing = unreadable_note(getattr(feed.source, "source", None))
            if nothing:
                return f"Camera: {nothing}."
        end = getattr(feed, "end_note", "")
        if end and feed.ended.is_set():  # a video or folder that played and ended: nothing was lost
            return f"Camera: {end}."
        if problem and getattr(feed.source, "unusable", False):  # an empty folder: it was found
            return f"Camera: {problem}."
        # As the controller words it: a camera that never gave a picture was not found, and was never lost.
        state = "lost" if opened else "not found"
        return f"The camera is {state}: {problem}." if problem else f"The camera is {state}."

    def turn_picture(self) -> None:
        app = App.get_running_app()
        self._turned(app, app.camera_orientation().turned_once_more())

    def mirror_picture(self) -> None:
        app = App.get_running_app()
        self._turned(app, app.camera_orientation().mirrored())

    def next_mains(self) -> None:
        """Camera's own, 50 Hz, 60 Hz, round again: the café knows its mains, the camera cannot guess it."""
        app = App.get_running_app()
        hz = MAINS_HZ[(MAINS_HZ.index(app.settings.mains_hz) + 1) % len(MAINS_HZ)]
        self.note = app.set_mains(hz)
        self.mains_text = mains_button_text(hz)

    def mark_tray(self) -> None:
        """Start marking the tray by two taps on the picture; pressed while marking, read the whole picture."""
        app = App.get_running_app()
        if self.marking:
            self.marking, self._corner = False, None
            self.note = app.mark_tray(WHOLE_PICTURE)
        else:
            self.marking, self._corner = True, None
            self.note = MARK_FIRST
        self.show_frame(0)

    def on_touch_down(self, touch: Any) -> bool:
        """While marking, a tap on the picture is a corner of the tray; every other touch goes to the widgets."""
        point = self.picture_share(self.to_window(*touch.pos)) if self.marking and self.live else None
        if point is None:
            return bool(super().on_touch_down(touch))
        self.tray_corner(point)
        return True

    def picture_share(self, window_pos: tuple[float, float]) -> tuple[float, float] | None:
        """A touch on the preview as shares of the picture across and down (a touch in the empty band beside
        the picture counts at its edge); None for a touch off the preview."""
        preview = self.ids.preview
        x, y = preview.to_widget(*window_pos)
        if not preview.collide_point(x, y):
            return None
        pos, shown = self.shown_picture()
        if shown[0] <= 0 or shown[1] <= 0:
            return None
        return (min(1.0, max(0.0, (x - pos[0]) / shown[0])), min(1.0, max(0.0, 1 - (y - pos[1]) / shown[1])))

    def tray_corner(self, point: tuple[float, float]) -> None:
        """The first tap keeps its corner; the second marks the tray, or says why it cannot be a tray."""
        if self._corner is None:
            self._corner = point
            self.note = "One corner marked: now tap the opposite corner of the tray."
        else:
            try:
                tray = TrayArea.from_corners(self._corner, point)
            except TrayAreaRefused:  # taps are clamped to the picture, so only a slip can be refused
                self._corner = None
                self.note = TOO_CLOSE
            else:
                self.marking, self._corner = False, None
                self.note = App.get_running_app().mark_tray(tray)
        self.show_frame(0)

    def _turned(self, app: Any, orientation: Orientation) -> None:
        self.ids.mirror.state = "down" if orientation.mirror else "normal"
        self.note = f"{app.turn_camera(orientation)} {UPRIGHT_HINT}"

    def teach_card(self) -> None:
        from vision.teaching import take_back_card, teach_card

        slot, card, data = self.ids.slot.text, self.ids.card.text, self.data()
        printed = self.printed_offer == f"{slot}:{card}"
        self._asked = f"{slot}:{card}"
        self._teach(lambda frame, folder: teach_card(frame, int(slot), card, folder, data, printed, TAKE_BACK_HINT),
                    "this card as printed" if printed else "this card",
                    lambda taught, folder: partial(take_back_card, taught.path, folder))

    def teach_face(self) -> None:
        from vision.teaching import take_back_face, teach_die_face

        value, colour = self.ids.value.text, "red" if self.ids.red.state == "down" else "white"
        data = self.data()  # checked against the die the table referees on, a café's own included
        self._teach(lambda frame, folder: teach_die_face(frame, value, colour, folder, data, TAKE_BACK_HINT),
                    "this face", lambda _taught, folder: lambda: take_back_face(value, colour, folder))

    def take_back(self) -> None:
        """Take back the last card photo or die face taught in this visit, on a thread as it was taught.

        Before, a photo taught from the wrong slot or a face under the wrong
        value was taken back only over SSH (`companion vision untaught-face`,
        or deleting the photo's file by hand). Taken back, or refused for what
        it is (a photo damaged since), it leaves the list: a refusal says why
        and what to do by hand, and the button moves on to what was taught
        before it. Refused for the folder alone (another teach step held it,
        it would not be written) it stays, and the button offers it again.
        """
        if self.teaching or not self._taught:
            return
        item = self._taught.pop()
        self.can_take_back = bool(self._taught)
        self.teaching = True
        self.note = f"Taking back {item[0].split(' (')[0]}..."  # "3 on red", without the count of faces then
        # Not a daemon, as a teaching: the app closing right after the tap still lets the file be written whole.
        threading.Thread(target=self._work_back, args=(item,), name="camera-take-back").start()

    def _work_back(self, item: tuple[str, Callable[[], Any]]) -> None:
        """The taking back itself, off Kivy's thread (it may wait on another teach step's lock); nothing escapes."""
        from vision.teaching import TeachRefused

        taken, kept = False, None
        try:
            said = item[1]().what  # "the photo of P07 (P07__1.png) taken back"
            note = f"{said[:1].upper()}{said[1:]}. The camera reads without it from now on."
            taken = True
        except TeachRefused as error:
            note = f"Not taken back: {error}."
            if error.again:  # untouched: offered again, where it was forgotten and the folder then kept it for good
                kept = item
                note = f"{note} Take back offers it again."
        except Exception as error:
            log.exception("taking back from the camera screen failed")
            note = f"Not taken back: {str(error) or type(error).__name__} (the log has the details)."
        Clock.schedule_once(lambda _dt: self._answer(note, taken, undone=kept))

    def _teach(self, teach: Callable[[Any, Any], Any], what: str,
               undo: Callable[[Any, Any], Callable[[], Any]]) -> None:
        """Teach from the latest frame on a thread; the note says it is teaching, then what happened or why not.

        One teaching at a time: a second tap would teach the same card twice (two
        photos) or race the first on the die's file. Everything the teaching
        needs from the widgets is read here, on Kivy's thread, before it starts.
        ``undo`` gives, for what was taught (`Taught`) and its folder, what takes it back (`take_back`).
        """
        from vision.taught import default_taught_dir

        if self.teaching:
            return
        feed = self.feed()
        frame = getattr(feed, "latest", None)
        if frame is None:
            self.note = "No picture to teach from: the camera is off or has sent nothing yet."
            return
        if self.lost(feed):  # the buttons are off, but a tap may land before the screen has redrawn
            self.note = f"No picture to teach from. {self.problem(feed)}"
            return
        self.teaching = True
        self.note = f"Teaching {what}..."
        # Not a daemon: the app closing right after the tap still lets the photo or face be stored.
        worker = threading.Thread(target=self._work, args=(teach, undo, frame, default_taught_dir()),
                                  name="camera-teach")
        worker.start()

    def _work(self, teach: Callable[[Any, Any], Any], undo: Callable[[Any, Any], Callable[[], Any]], frame: Any,
              folder: Any) -> None:
        """The teaching itself, off Kivy's thread; its answer goes back through the clock, which is thread-safe.

        Nothing may escape: a thread that died unanswered would leave the teach
        buttons off until the app restarts.
        """
        from vision.teaching import TeachRefused, take_back_card

        taught, printed, undone = False, False, []
        try:
            result = teach(frame, folder)
            kept = getattr(result, "kept", False)  # the same photo taught before: nothing new to take back
            note = (f"{result.what[:1].upper()}{result.what[1:]}." if kept
                    else f"Taught {result.what}. The camera reads with it from now on.")
            if result.advice:
                note = f"{note} But {result.advice}."
            taught = True
            if not kept:
                undone.append((result.what, undo(result, folder)))
            suspect = getattr(result, "suspect", None)
            if suspect is not None:  # the photo the advice says to take back: the next Take back takes it
                undone.append((f"the photo {suspect.name}", partial(take_back_card, suspect, folder)))
        except TeachRefused as error:
            note = f"Not taught: {error}"
            if error.may_be_printed:
                printed = True
                note = f"{note}. If that colour is printed on the card itself, tap Teach as printed."
        except ValueError as error:  # a slot or value not picked yet ('' from a spinner)
            note = f"Not taught: pick the slot, card or value first ({error})."
        except Exception as error:
            log.exception("teaching from the camera screen failed")
            note = f"Not taught: {str(error) or type(error).__name__} (the log has the details)."
        Clock.schedule_once(lambda _dt: self._answer(note, taught, printed, undone))

    def _answer(self, note: str, taught: bool, printed: bool = False,
                undone: list[tuple[str, Callable[[], Any]]] | tuple[str, Callable[[], Any]] | None = None) -> None:
        """On Kivy's thread: the buttons back, the note, and the running feed told to read with what was taught.

        The feed asked is the one running now, not the one at the tap: the
        camera may have been restarted on another source while it taught.
        """
        self.teaching = False
        self.note = note
        self.printed_offer = self._asked if printed else ""
        if undone:
            undone = undone if isinstance(undone, list) else [undone]
            # A photo of this visit named again (the slip a later teach found) is taken back once, at its new place.
            photos = {undo.args[0] for _, undo in undone if isinstance(undo, partial)}
            self._taught[:] = [item for item in self._taught
                               if not (isinstance(item[1], partial) and item[1].args[0] in photos)]
            self._taught.extend(undone)
            self.can_take_back = True
        self._told_away = not self._here
        feed = self.feed()
        if taught and feed is not None:
            feed.reload_taught()
