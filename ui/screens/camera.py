"""Camera: what the table's camera sees, and teaching it the café's own temple cards and die.

Before this screen a café taught its cards and die with `companion vision
teach-card` over SSH, with the kiosk stopped to free the camera. Here the
owner lays a card in a slot (or a face up on the tray), picks what it is and
taps once; the running camera feed reads with it from the next frame.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

PREVIEW_SECONDS = 0.25  # four pictures a second: enough to aim a camera, little CPU taken from the readers


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


class CameraScreen(Screen):
    note = StringProperty("")
    live = BooleanProperty(False)  # a camera is running and has sent a picture
    slots = ListProperty([])
    cards = ListProperty([])
    values = ListProperty([])
    _clock = None

    def on_pre_enter(self, *_args: Any) -> None:
        from vision.card_catalogue import catalogue_from_data, load_temple_board, load_temple_cards
        from vision.temple_die import die_faces

        cards, board = catalogue_from_data(self.data())
        self.slots = [str(s.slot) for s in (board or load_temple_board()).slots]
        self.cards = [c.id for c in (cards or load_temple_cards())]
        self.values = sorted({v for v, _ in die_faces()}, key=lambda v: (not v.isdigit(), v.zfill(2)))  # X last
        self.note = ""
        self.show_frame(0)
        self._clock = Clock.schedule_interval(self.show_frame, PREVIEW_SECONDS)

    def on_leave(self, *_args: Any) -> None:
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
        running = App.get_running_app().running_inputs.get("camera")
        return running[1] if running else None

    def show_frame(self, _dt: float) -> None:
        feed = self.feed()
        frame = getattr(feed, "latest", None)
        texture = preview_texture(frame, self.ids.preview.texture) if frame is not None else None
        self.ids.preview.texture = texture
        self.live = texture is not None
        if feed is None:
            self.ids.seen.text = "The camera is off: switch it on in Settings, with its source, and save."
        elif texture is None:
            self.ids.seen.text = "Waiting for a picture from the camera..."
        else:
            self.ids.seen.text = f"{frame.shape[1]}x{frame.shape[0]}, frame {feed.frames}"

    def teach_card(self) -> None:
        from vision.teaching import teach_card

        slot, card, data = self.ids.slot.text, self.ids.card.text, self.data()
        self._teach(lambda frame, folder: teach_card(frame, int(slot), card, folder, data))

    def teach_face(self) -> None:
        from vision.teaching import teach_die_face

        colour = "red" if self.ids.red.state == "down" else "white"
        self._teach(lambda frame, folder: teach_die_face(frame, self.ids.value.text, colour, folder))

    def _teach(self, teach: Any) -> None:
        """Teach from the latest frame; the feed then reads with it, and the note says what happened or why not."""
        from vision.taught import default_taught_dir
        from vision.teaching import TeachRefused

        feed = self.feed()
        frame = getattr(feed, "latest", None)
        if frame is None:
            self.note = "No picture to teach from: the camera is off or has sent nothing yet."
            return
        try:
            taught = teach(frame, default_taught_dir())
        except TeachRefused as error:
            self.note = f"Not taught: {error}"
            return
        except ValueError as error:  # a slot or value not picked yet ('' from a spinner)
            self.note = f"Not taught: pick the slot, card or value first ({error})."
            return
        feed.reload_taught()
        self.note = f"Taught {taught.what}. The camera reads with it from now on."
