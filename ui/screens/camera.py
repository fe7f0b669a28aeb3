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
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, InstructionGroup, Line
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.observations import CONFIRM_BELOW
from vision.readings import ASKED_RGB, TAKEN_RGB, dice_text

log = logging.getLogger(__name__)

PREVIEW_SECONDS = 0.25  # four pictures a second: enough to aim a camera, little CPU taken from the readers
TAKEN_COLOUR = (*(c / 255 for c in TAKEN_RGB), 1.0)  # as `vision watch --save` boxes the dice
ASKED_COLOUR = (*(c / 255 for c in ASKED_RGB), 1.0)


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


def shown_rectangle(box: Quad, frame_size: tuple[int, int], shown_pos: tuple[float, float],
                    shown_size: tuple[float, float]) -> Quad:
    """A box in frame pixels (x0, y0, x1, y1, rows from the top) as (x, y, w, h) over the picture as shown.

    The picture is the frame scaled to `shown_size` at `shown_pos`, rows from
    the bottom as Kivy counts them.
    """
    x0, y0, x1, y1 = box
    width, height = frame_size
    sx, sy = shown_size[0] / width, shown_size[1] / height
    return shown_pos[0] + x0 * sx, shown_pos[1] + (height - y1) * sy, (x1 - x0) * sx, (y1 - y0) * sy


class CameraScreen(Screen):
    note = StringProperty("")
    live = BooleanProperty(False)  # a camera is running and has sent a picture
    teaching = BooleanProperty(False)  # a teaching is on its thread: the teach buttons wait for its answer
    slots = ListProperty([])
    cards = ListProperty([])
    values = ListProperty([])
    _clock = None
    _boxes: InstructionGroup | None = None  # the dice drawn over the picture
    _dice_drawn: tuple[tuple[int, int], tuple[Any, ...]] | None = None  # (frame width and height, dice) boxed
    _here = False
    _told_away = False  # a teaching ended while the screen was left: its answer waits for the owner's return

    def on_pre_enter(self, *_args: Any) -> None:
        from vision.card_catalogue import catalogue_from_data, load_temple_board, load_temple_cards
        from vision.temple_die import die_faces

        cards, board = catalogue_from_data(self.data())
        self.slots = [str(s.slot) for s in (board or load_temple_board()).slots]
        self.cards = [c.id for c in (cards or load_temple_cards())]
        self.values = sorted({v for v, _ in die_faces()}, key=lambda v: (not v.isdigit(), v.zfill(2)))  # X last
        if not (self.teaching or self._told_away):  # "Teaching..." or an answer not yet seen stays up
            self.note = ""
        self._told_away = False
        self._here = True
        self.show_frame(0)
        self._clock = Clock.schedule_interval(self.show_frame, PREVIEW_SECONDS)

    def on_leave(self, *_args: Any) -> None:
        self._here = False
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
        card could be taught from a board that had changed since. So a lost
        camera shows its reason in place of the picture and teaches nothing. A
        video or folder that has played to its end keeps its last picture,
        which is still what the file shows, with the end said under it.
        """
        feed = self.feed()
        frame = getattr(feed, "latest", None)
        ended = feed is not None and feed.ended.is_set()
        lost = self.lost(feed)
        texture = preview_texture(frame, self.ids.preview.texture) if frame is not None and not lost else None
        self.ids.preview.texture = texture
        self.live = texture is not None
        dice = tuple(getattr(feed, "dice_in_view", ())) if self.live else ()
        if feed is None:
            self.ids.seen.text = "The camera is off: switch it on in Settings, with its source, and save."
        elif lost:
            self.ids.seen.text = f"No picture. {self.problem(feed)}"
        elif texture is None:
            self.ids.seen.text = "Waiting for a picture from the camera..."
        else:
            size = f"{frame.shape[1]}x{frame.shape[0]}, frame {feed.frames}"
            if dice:
                size = f"{size}: {dice_text(dice)}"
            self.ids.seen.text = f"{size}, the last. {self.problem(feed)}" if ended else size
        self.draw_dice(frame, dice)

    def draw_dice(self, frame: Any, dice: Any) -> None:
        """Each die the camera has settled on, boxed over the picture: green when the table would take it as read,
        amber when it would ask for a tap. An owner aiming the camera sees what is read where, and which dice are
        too small, too slanted or too dim to be sure of."""
        self._dice_drawn = ((frame.shape[1], frame.shape[0]), tuple(dice)) if dice else None
        self.redraw_dice()

    def redraw_dice(self) -> None:
        """The boxes again where the picture now is: the preview is laid out after its first picture, and again
        whenever the window changes size."""
        preview = self.ids.preview
        if self._boxes is None:
            self._boxes = InstructionGroup()
            preview.canvas.after.add(self._boxes)
        self._boxes.clear()
        if self._dice_drawn is None:
            return
        frame_size, dice = self._dice_drawn
        shown = preview.norm_image_size
        pos = (preview.x + (preview.width - shown[0]) / 2, preview.y + (preview.height - shown[1]) / 2)
        for die in dice:
            self._boxes.add(Color(*(TAKEN_COLOUR if die.confidence >= CONFIRM_BELOW else ASKED_COLOUR)))
            self._boxes.add(Line(rectangle=shown_rectangle(die.box, frame_size, pos, shown), width=2))

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
        return f"The camera is lost: {problem}." if problem else "The camera is lost."

    def teach_card(self) -> None:
        from vision.teaching import teach_card

        slot, card, data = self.ids.slot.text, self.ids.card.text, self.data()
        self._teach(lambda frame, folder: teach_card(frame, int(slot), card, folder, data), "this card")

    def teach_face(self) -> None:
        from vision.teaching import teach_die_face

        value, colour = self.ids.value.text, "red" if self.ids.red.state == "down" else "white"
        self._teach(lambda frame, folder: teach_die_face(frame, value, colour, folder), "this face")

    def _teach(self, teach: Callable[[Any, Any], Any], what: str) -> None:
        """Teach from the latest frame on a thread; the note says it is teaching, then what happened or why not.

        One teaching at a time: a second tap would teach the same card twice (two
        photos) or race the first on the die's file. Everything the teaching
        needs from the widgets is read here, on Kivy's thread, before it starts.
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
        worker = threading.Thread(target=self._work, args=(teach, frame, default_taught_dir()), name="camera-teach")
        worker.start()

    def _work(self, teach: Callable[[Any, Any], Any], frame: Any, folder: Any) -> None:
        """The teaching itself, off Kivy's thread; its answer goes back through the clock, which is thread-safe.

        Nothing may escape: a thread that died unanswered would leave the teach
        buttons off until the app restarts.
        """
        from vision.teaching import TeachRefused

        taught = False
        try:
            note = f"Taught {teach(frame, folder).what}. The camera reads with it from now on."
            taught = True
        except TeachRefused as error:
            note = f"Not taught: {error}"
        except ValueError as error:  # a slot or value not picked yet ('' from a spinner)
            note = f"Not taught: pick the slot, card or value first ({error})."
        except Exception as error:
            log.exception("teaching from the camera screen failed")
            note = f"Not taught: {str(error) or type(error).__name__} (the log has the details)."
        Clock.schedule_once(lambda _dt: self._answer(note, taught))

    def _answer(self, note: str, taught: bool) -> None:
        """On Kivy's thread: the buttons back, the note, and the running feed told to read with what was taught.

        The feed asked is the one running now, not the one at the tap: the
        camera may have been restarted on another source while it taught.
        """
        self.teaching = False
        self.note = note
        self._told_away = not self._here
        feed = self.feed()
        if taught and feed is not None:
            feed.reload_taught()
