"""Which physical tag sits on which card: the result of a café's teach step.

Tags are stuck on a café's own cards, so the link from tag id to the game's
card id cannot ship with the game; it is taught once and kept in the user data
dir, next to (not inside) the café data folder, whose JSON files are all game
data checked by ``companion data validate``.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from pathlib import Path

from companion.data import read_json
from companion.errors import CompanionError, InvalidData
from companion.paths import env_or, user_data_dir, write_whole


def default_tags_path(game_id: str = "temple") -> Path:
    """Each game's tags in a file of its own, ``<game>-tags.json``: `hw teach --game G` writes it, and the table
    reads the file of the game it plays (`GameTags`)."""
    return env_or("COMPANION_TAGS", user_data_dir() / "hardware" / f"{game_id}-tags.json")


class TagMap:
    """Tag id -> card id, saved atomically after every change so a teach step survives a power cut."""

    teach_command = "companion hw teach"  # what an unknown tag's log line tells the owner to run

    def __init__(self, path: Path, links: dict[str, str] | None = None) -> None:
        self.path = path
        self.links: dict[str, str] = dict(links or {})

    @classmethod
    def load(cls, path: Path) -> TagMap:
        """The taught links; an empty map when there is no file yet, or a broken one (teach again).

        A file of the wrong shape counts as broken too: ``{"tags": null}`` or a
        list ended ``hw play`` and the app's dice sensor with an AttributeError,
        and deeply nested brackets with a RecursionError. A link whose card is
        not text is left out rather than becoming the card "None". A byte-order
        mark (the file edited in Windows Notepad) is read past: it made the whole
        file "broken", every tag unknown, and the next teach step overwrote it.
        """
        try:
            content = json.loads(path.read_text(encoding="utf-8-sig"))
        except (OSError, ValueError, RecursionError):
            return cls(path)
        links = content.get("tags") if isinstance(content, dict) else None
        if not isinstance(links, dict):
            return cls(path)
        return cls(path, {tag: card for tag, card in links.items() if isinstance(card, str)})

    @classmethod
    def to_teach(cls, path: Path) -> TagMap:
        """The taught links to add to, or ``CompanionError`` naming why the file there is no tag file to write over.

        `load` reads a broken file as no links, which is right for reading
        (the table plays on, each tag asked again), but teaching then wrote its
        one new link over the file: ``hw teach --tags notes.txt`` (a mistyped
        path) replaced the notes, and a tag file mended wrongly by hand lost
        every link it held, both with exit 0. A file not there yet, or empty, has nothing to lose.
        """
        try:
            if not path.exists() or path.stat().st_size == 0:
                return cls(path)
            content = read_json(path)
        except InvalidData as error:
            why = error.message.removeprefix(f"{path}: ")
            raise CompanionError(f"{path} cannot be read as a tag file ({why}); it is left as it is: mend it, "
                                 "or name another file with --tags") from None
        except OSError as error:
            raise CompanionError(f"{path} cannot be read as a tag file ({error.strerror or error}); it is left as it "
                                 "is") from None
        links = content.get("tags") if isinstance(content, dict) else None
        if not isinstance(links, dict) or not all(isinstance(card, str) for card in links.values()):
            raise CompanionError(f'{path} is not a tag file (one holds {{"tags": {{"04A1": "P05", ...}}}}); it is '
                                 "left as it is: mend it, or name another file with --tags")
        return cls(path, links)

    def card(self, tag: str) -> str | None:
        """The card of ``tag``, its letters in any case: a tag id is hex, which readers and phone apps print in
        capitals or small letters alike, and one taught as ``04a1b2`` was unknown when the reader sent ``04A1B2``."""
        found = self.links.get(tag)
        if found is None:
            found = next((c for t, c in self.links.items() if t.upper() == tag.upper()), None)
        return found

    def teach(self, tag: str, card: str, copies: int = 1) -> None:
        """Link ``tag`` to ``card``, which keeps its ``copies`` newest tags: a re-stickered card drops its old
        sticker, and each of a deck's copies keeps its own ("one card, one tag" dropped the first Date Basket's
        tag when Targi's second was taught, and the desert's Golden Compass knew one of its three). A tag taught
        again leaves its old card and its old case."""
        for old in [t for t in self.links if t.upper() == tag.upper()]:
            del self.links[old]
        self.links[tag] = card  # last: the links are kept (and saved) in the order taught, oldest first
        for old in [t for t, c in self.links.items() if c == card][:-max(copies, 1)]:
            del self.links[old]
        self.save()

    def save(self) -> None:
        """Written whole (``write_whole``): a file of its own beside the tag file, named ``<stem>.tmp``, was left
        behind when the rename failed (``--tags`` naming a folder), and with no suffix to swap ``--tags /tmp``
        wrote ``/tmp.tmp``."""
        write_whole(self.path, (json.dumps({"tags": self.links}, indent=1) + "\n").encode())  # in taught order


class GameTags:
    """The tags of the game on the table: that game's own file, read at each slot report, or ``path`` for every
    game when one is named (``hw play --tags``).

    `hw play` and the app read the temple's file whatever the game, while `hw teach --game targi` saved to
    targi-tags.json: tags taught for any game but the temple were never read, each card "not one the sensor
    knows". Read at each report (a card laid now and then), a new game of another kind reads its own file, and
    a tag taught while the table plays is known at once.
    """

    def __init__(self, game_id: Callable[[], str | None], path: Path | None = None) -> None:
        self.game_id = game_id
        self.path = path

    def _path(self) -> Path | None:
        game = self.game_id()
        return self.path if self.path is not None else default_tags_path(game) if game else None

    def card(self, tag: str) -> str | None:
        """The card of ``tag`` in the current game's tag file; None when no game is on the table."""
        path = self._path()
        return TagMap.load(path).card(tag) if path is not None else None

    @property
    def teach_command(self) -> str:
        """`hw teach` for this game and file: plain `companion hw teach` taught the temple's tags whatever the game."""
        game = self.game_id()
        words = ["companion", "hw", "teach", *(["--game", game] if game else [])]
        return shlex.join([*words, *(["--tags", str(self.path)] if self.path is not None else [])])
