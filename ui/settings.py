"""The app's own settings, kept apart from the journal so a reset table keeps its café setup."""

from __future__ import annotations

import difflib
import errno
import json
import logging
import os
import re
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.errors import quoted
from companion.paths import unused_name, write_whole, xdg_base
from vision.mains import MAINS_HZ
from vision.orientation import TURNS
from vision.tray_area import TrayArea, TrayAreaRefused

log = logging.getLogger(__name__)

INPUT_SOURCES = ("touch", "buttons", "serial", "camera")
# Words a minute the settings screen's slider offers. A hand-edited 1500 (for 150) made espeak-ng gabble each
# sentence in a fifth of a second and 100000 say nothing at all, while the slider's knob sat off its track.
VOICE_SPEEDS = (80, 260)
# espeak-ng's loudness (its -a, 100 its own default) the settings screen's - and + offer: up to twice as loud
# for a noisy café, and never down to nothing, which would be Silent without saying so.
VOICE_VOLUMES = (20, 200)
VOLUME_STEP = 20  # the settings screen's - and + move by this, on a grid from 20: 100 is a step, nine up to 200
# The scale over the screen's own unit, in percent (Settings, `display_scale`): 100 for the 7 inch 800x480 display
# and the larger ones; more for a smaller display of as many pixels. A 5 inch 800x480 would want 140 to match the
# 7 inch, but from 130 the screens no longer fit (settings' camera hint and dispute's "Rules: ..." cut at 130; at 150
# home's heading over its players' line, the attract title, the table's Dispute: docs/ui.md, "Why the limit stays
# 120%"); at 120 every screen was checked whole (tests/ui/test_display_scale.py).
DISPLAY_SCALES = (100, 120)
SCALE_STEP = 10  # the settings screen's - and + beside "Scale"
# Seconds without play before the kiosk's attract screen (`idle_seconds`, set in ui.json only); 0 never shows it.
# A hand-edited 1 put the attract screen over the table a second after every tap, and -5 turned it off unsaid.
IDLE_SECONDS = (30, 86_400)


def scale_step(percent: int, steps: int) -> int:
    """``percent`` moved ``steps`` places of ``SCALE_STEP``, kept in ``DISPLAY_SCALES``."""
    low, high = DISPLAY_SCALES
    return max(low, min(high, percent + steps * SCALE_STEP))


def volume_step(volume: int, steps: int) -> int:
    """``volume`` moved ``steps`` places on the screen's grid of loudness, kept in ``VOICE_VOLUMES``.

    A hand-edited level off the grid (150) goes to the step beside it (160 up, 140 down), not 20 past it.
    """
    low, high = VOICE_VOLUMES
    below = (volume - low) // VOLUME_STEP  # the step at or under it
    on_grid = (volume - low) % VOLUME_STEP == 0
    place = below + steps if steps > 0 or on_grid else below + steps + 1
    return max(low, min(high, low + place * VOLUME_STEP))
VALID = {  # beyond the type: a PIN the pad cannot type would lock staff out, a picture turns by quarters only
    "kiosk_pin": lambda pin: pin.isascii() and pin.isdigit(),  # the pad has 0-9 alone: no "", " 1234" or "abcd"
    "camera_turn": lambda turn: turn in TURNS,
    "mains_hz": lambda hz: hz in MAINS_HZ,
    "voice_speed": lambda speed: VOICE_SPEEDS[0] <= speed <= VOICE_SPEEDS[1],
    "voice_volume": lambda volume: VOICE_VOLUMES[0] <= volume <= VOICE_VOLUMES[1],
    "display_scale": lambda scale: DISPLAY_SCALES[0] <= scale <= DISPLAY_SCALES[1],
    "idle_seconds": lambda seconds: seconds == 0 or IDLE_SECONDS[0] <= seconds <= IDLE_SECONDS[1],
    "tray_area": lambda area: _tray_area_ok(area),
    "last_players": lambda players: all(isinstance(player, str) for player in players),  # colours' names
}
NUMBER_AS_TEXT = frozenset({"kiosk_pin", "camera_source"})  # text fields a number spells: a PIN, a camera index


def default_settings_path() -> Path:
    """``$COMPANION_UI_SETTINGS``, else ``ui.json`` under ``$XDG_CONFIG_HOME`` (a relative one is ignored)."""
    explicit = os.environ.get("COMPANION_UI_SETTINGS")
    if explicit:
        return Path(explicit)
    return xdg_base("XDG_CONFIG_HOME", ".config") / "table-companion" / "ui.json"


def card_refused(error: OSError, path: Path | None) -> tuple[str, str]:
    """Why a settings file was not written, and what to do ("" when the OS's words are all there is to say).

    The OS's words alone ("No space left on device", "Read-only file system") did not say that the card
    holding the settings was the trouble, nor what to do about it.
    """
    said = error.strerror or str(error)
    name = path.name if path is not None else "the settings"
    see = "(docs/operations.md, Recovering a table)"
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"the card holding {name} is full: {said}", f"make room on it, then save again {see}"
    if error.errno == errno.EROFS:
        return f"the card holding {name} has turned read-only, as a failing SD card does: {said}", f"check it {see}"
    return said, ""


def not_saved(error: OSError, path: Path | None) -> str:
    """The settings screen's answer to a Save the card refused: the changes hold for this run only, and why."""
    why, then = card_refused(error, path)
    return f"Not saved ({why}): the changes hold until the app restarts{f'; {then}' if then else ''}."


def existing_folder(text: str) -> Path | None:
    """A typed folder, spelled out absolute so its meaning does not hang on the working directory.

    None when it is not a folder, including text no path can be made of
    (``~nobody``), since a typo on the settings screen must not crash the kiosk.
    """
    try:
        folder = Path(text.strip()).expanduser().absolute()
        return folder if text.strip() and folder.is_dir() else None
    except (RuntimeError, ValueError, OSError):
        return None


@dataclass
class Settings:
    """Everything a café owner may change on the settings screen."""

    inputs: dict[str, bool] = field(
        default_factory=lambda: {"touch": True, "buttons": True, "serial": False, "camera": False}
    )
    voice: bool = True
    voice_speed: int = 150
    voice_volume: int = 100  # espeak-ng's -a; 100 as loud as espeak-ng speaks by itself
    display_scale: int = 100  # percent over the screen's own unit: buttons and words larger on a small display
    cafe_dir: str = ""
    serial_port: str = ""  # the dice sensor's port when the command line names none
    camera_source: str = ""  # the camera's source word (0, picamera, a URL, a folder) likewise
    camera_turn: int = 0  # degrees clockwise that put the camera's picture upright (vision/orientation.py)
    camera_mirror: bool = False  # the picture comes mirrored (a phone's front camera as a network camera)
    mains_hz: int = 0  # told to the camera against flickering lamps (vision/mains.py); 0 leaves the camera be
    tray_area: list[float] = field(default_factory=list)  # where dice are read (vision/tray_area.py); empty: all
    kiosk_pin: str = "1234"
    idle_seconds: int = 120
    last_game: str = ""
    last_players: list[str] = field(default_factory=list)

    # What loading set aside or ignored, in a sentence for the screen; not a field, so never saved.
    note = ""
    skipped = ()  # likewise not saved: the settings whose values loading left at their defaults
    # Why ``save`` must not write: the file is there but this user may not read it (`_not_readable_here`).
    unsaved = ""

    @classmethod
    def load(cls, path: Path | None, set_aside: bool = True) -> Settings:
        """A damaged or missing file falls back to defaults: a kiosk must always start.

        A file that cannot be read whole is renamed ``ui.json.broken-<date>``
        beside itself, since the next save (every new game saves the last
        players) would otherwise write the defaults over a café's hand edit
        that only lacked a comma. A value of the wrong type keeps its default
        alone; either is logged (journald) by name. ``set_aside=False`` only
        reads: a command that never saves leaves the file for the app.
        """
        if path is None:
            return cls()
        try:
            if not path.is_file():
                # A folder named by $COMPANION_UI_SETTINGS (the one meant to hold ui.json) was passed over without
                # a word, and every save then failed. Not set aside: it is no file a hand edit broke.
                return cls._unusable(path, "is a folder, not a settings file") if path.is_dir() else cls()
        except PermissionError as exc:  # a folder on the way this user may not enter
            return cls._not_readable_here(path, exc)
        except OSError as exc:  # a name past the file system's limit raised out of the kiosk's start
            return cls._unusable(path, f"cannot be read ({exc.strerror or exc})")
        try:
            data = path.read_bytes()
        except PermissionError as exc:
            return cls._not_readable_here(path, exc)
        except OSError as exc:
            return cls._defaults_for(path, f"cannot be read ({exc})", set_aside)
        try:
            raw = json.loads(data.decode("utf-8-sig"))
        except ValueError as exc:
            return cls._defaults_for(path, f"cannot be read ({exc})", set_aside, _readable(data, cls))
        if not isinstance(raw, dict):
            return cls._defaults_for(path, "is not a JSON object", set_aside)
        return cls._from(path, raw)

    @classmethod
    def _from(cls, path: Path, raw: dict[str, Any]) -> Settings:
        """The settings ``raw`` holds, each value of the wrong type or range (or under no setting's name) left
        at its default and named in ``note``."""
        defaults = cls()
        kept: dict[str, Any] = {}
        ignored: list[str] = []
        unknown = [str(name) for name in raw if name not in {f.name for f in fields(cls)}]
        for f in fields(cls):
            if f.name not in raw:
                continue
            value = _as_type(raw[f.name], getattr(defaults, f.name), f.name in NUMBER_AS_TEXT)
            if value is None or (f.name in VALID and not VALID[f.name](value)):
                log.warning("settings %s: %s = %s ignored; the default %s is used",
                            path, f.name, quoted(raw[f.name]), quoted(getattr(defaults, f.name)))
                ignored.append(f.name)
                continue
            kept[f.name] = value
        settings = cls(**kept)
        switches = {str(k): v for k, v in settings.inputs.items()}
        # An input no table has ("laser", "Camera") was kept and saved back, and switched nothing, unsaid.
        unknown += [f"inputs.{name}" for name in switches if name not in defaults.inputs]
        switches = {name: on for name, on in switches.items() if name in defaults.inputs}
        # "false" is not off, nor 1 on; said like any other value of the wrong type, not dropped unexplained.
        for name, on in switches.items():
            if not isinstance(on, bool):
                log.warning("settings %s: inputs.%s = %s ignored; the default is used", path, name, quoted(on))
                ignored.append(f"inputs.{name}")
        settings.inputs = {**defaults.inputs, **{k: v for k, v in switches.items() if isinstance(v, bool)}}
        settings.skipped = tuple(ignored)
        notes = []
        if ignored:
            notes.append(f"{', '.join(ignored)} ignored, the defaults used{_pin(ignored)}")
        if unknown:
            log.warning("settings %s: no setting is called %s; ignored, and left out of the next save",
                        path, ", ".join(unknown))
            notes.append(_unknown(unknown, [f.name for f in fields(cls)], list(defaults.inputs)))
        if notes:
            settings.note = f"Settings file {path.name}: {'; '.join(notes)}."
        return settings

    @classmethod
    def _defaults_for(cls, path: Path, why: str, set_aside: bool, found: dict[str, Any] | None = None) -> Settings:
        """The defaults for a file that cannot be read whole, with each setting ``found`` whole in its text.

        A missing comma or a file cut short put every setting back to its default, the PIN too (to
        the ``1234`` these docs print), though the café's PIN and scale stood whole in the text.
        """
        settings = cls._from(path, found) if found else cls()
        read = [name for name in found or {} if name not in settings.skipped]
        # A command that only reads still says so: its picture would otherwise differ from the app's unexplained.
        told = (_set_aside(path, why, read) if set_aside else
                f"Settings file {path} {why}; {_used(read)} (the app sets it aside at its start).")
        settings.note = " ".join(filter(None, (told, settings.note)))
        if set_aside and read and not path.exists():
            # What was read is written at once: a restart before the next save (a power cut) found no file
            # and started on the defaults, the PIN 1234 again, with no word at all.
            try:
                settings.save(path)
            except OSError as exc:
                log.warning("settings %s: what was read could not be saved (%s)", path, exc)
        return settings

    @classmethod
    def _unusable(cls, path: Path, why: str) -> Settings:
        """The defaults, for a settings path no file can be read or saved at; said, and logged, by its whole path."""
        log.warning("settings %s %s; defaults are used", path, why)
        settings = cls()
        settings.note = (f"Settings file {path} {why}; the defaults are used, and changes on the settings screen "
                         "hold only until the app restarts.")
        return settings

    @classmethod
    def _not_readable_here(cls, path: Path, exc: PermissionError) -> Settings:
        """The defaults, for a file this user may not read, which is left as it is and never saved over.

        A ``ui.json`` owned by root (edited with ``sudo nano`` and mode 600) was
        set aside as broken, and the home screen spoke of a hand edit's
        mistake: the owner mended JSON that had none, and the café's settings
        went on the defaults. The file is whole; only its owner is wrong.
        """
        pin = _pin(["kiosk_pin"])
        log.warning("settings %s cannot be read by this user (%s); it is left as it is, the defaults are used and "
                    "nothing is saved over it until its owner is mended and the app restarted", path, exc)
        settings = cls()
        settings.unsaved = f"{path.name} cannot be read by this user, so it is not written over"
        settings.note = (f"Settings file {path} cannot be read by the user the app runs as ({exc.strerror or exc}): "
                         f"a permission problem, not a broken file. It is left as it is and the defaults are used"
                         f"{pin}; changes on the settings screen are not saved over it. Give it back to that user "
                         f"(for the service: sudo chown companion:companion {path}), then restart the app.")
        return settings

    def save(self, path: Path | None) -> None:
        """Write the whole file or nothing (`write_whole`); ``OSError`` tells the caller the change is not kept."""
        if path is None:
            return
        if self.unsaved:  # the café's own file, whole but unreadable here: the defaults must not replace it
            raise PermissionError(errno.EACCES, self.unsaved)
        write_whole(path, json.dumps(asdict(self), indent=2).encode("utf-8"), private=True)  # it holds the PIN


def _tray_area_ok(values: list[Any]) -> bool:
    try:
        TrayArea.from_list(values)
    except TrayAreaRefused:
        return False
    return True


def _unknown(names: list[str], settings: list[str], inputs: list[str]) -> str:
    """Keys no setting has, with the one each was likely meant to be: a typo ("display_scael": 120) was
    passed over in silence, the screens stayed as they were, and the next save wrote the key away."""
    words = []
    for name in names:
        inside = name.startswith("inputs.")  # an input's switch, named so by `_from`; a top-level key otherwise
        key = name.removeprefix("inputs.") if inside else name
        near = difflib.get_close_matches(key, inputs if inside else settings, n=1, cutoff=0.6)
        words.append(f"{name} (meant {'inputs.' if inside else ''}{near[0]}?)" if near else name)
    which = "is no setting" if len(words) == 1 else "are no settings"
    return f"{', '.join(words)} {which}, ignored and left out of the next save"


def _pin(names: list[str]) -> str:
    """Staff locked out by a PIN they did not set must be told which one opens the settings now."""
    return f" (the settings PIN is {Settings.kiosk_pin} again)" if "kiosk_pin" in names else ""


def _as_type(value: Any, default: Any, number_as_text: bool) -> Any:
    """``value`` as the default's type, or None when a hand edit gave something else.

    A number where text belongs (``"kiosk_pin": 4321``, ``"camera_source": 0``)
    is what a person editing the file writes, and is taken as its digits; a
    ``true`` is never a number of seconds.
    """
    if isinstance(default, bool) or isinstance(value, bool):
        return value if type(value) is type(default) else None
    if number_as_text and isinstance(value, int):
        return str(value)
    return value if isinstance(value, type(default)) else None


def _set_aside(path: Path, why: str, read: list[str]) -> str:
    """Rename a broken file beside itself and log it; the sentence for the screen."""
    kept = unused_name(path.with_name(f"{path.name}.broken-{datetime.now(UTC):%Y%m%d-%H%M%S}"))
    try:
        path.rename(kept)
    except OSError as exc:
        log.warning("settings %s %s; %s (it could not be set aside: %s)", path, why, _used(read), exc)
        return f"Settings file {path.name} {why}; {_used(read)}."
    log.warning("settings %s %s; %s, and the file is kept as %s", path, why, _used(read), kept.name)
    return f"Settings file {path.name} {why}; it is kept as {kept.name}, and {_used(read)}."


def _used(read: list[str]) -> str:
    """What a file that could not be read whole still gave, and that the rest are defaults."""
    pin = "" if "kiosk_pin" in read else _pin(["kiosk_pin"])
    if not read:
        return f"the defaults are used{pin}"
    return f"{', '.join(read)} {'was' if len(read) == 1 else 'were'} read from it and the rest are defaults{pin}"


def _readable(data: bytes, settings: type[Settings]) -> dict[str, Any]:
    """Each setting that stands whole in a file JSON cannot read: a missing comma, a file cut short.

    A value counts only when a comma, the closing brace or the next key follows it, so a number cut short at the end
    ("idle_seconds": 30 of 300) is not taken for the café's. Its name is looked for as a key, a quote before
    and a colon after, which text inside a value (a folder's name) spells with backslashes.
    """
    text = data.decode("utf-8-sig", errors="replace")
    decoder = json.JSONDecoder()
    found: dict[str, Any] = {}
    for f in fields(settings):
        for key in re.finditer(rf'"{f.name}"\s*:\s*', text):
            try:
                value, end = decoder.raw_decode(text, key.end())
            except ValueError:
                continue
            if re.match(r'\s*[,}"]', text[end:]):  # a comma, the end, or the next key after a missing comma
                found[f.name] = value
                break
    return found
