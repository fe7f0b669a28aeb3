"""Which physical tag sits on which card: the result of a café's teach step.

Tags are stuck on a café's own cards, so the link from tag id to the game's
card id cannot ship with the game; it is taught once and kept in the user data
dir, next to (not inside) the café data folder, whose JSON files are all game
data checked by ``companion data validate``.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from companion.data import read_json
from companion.errors import CompanionError, InvalidData, quoted
from companion.paths import env_or, user_data_dir, write_whole

if TYPE_CHECKING:
    from companion.game import Game


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
        if not path.exists() or path.stat().st_size == 0:
            return cls(path)
        links, why = _read(path)
        if why is not None:
            raise CompanionError(f"{path} {why}; it is left as it is: mend it, or name another file with --tags")
        return cls(path, links)

    @classmethod
    def problem(cls, path: Path, cards: Collection[str] | None = None, title: str = "") -> str | None:
        """What is wrong with the tag file at ``path``, in the owner's words naming it; None when it reads whole.

        A broken file is read as no tags (`load`), so play goes on, but nothing said so: every card laid was "not
        one the sensor knows" and the owner was sent to teach tags that were taught. ``cards``: the card ids of
        the game on the table (its café data), so a tag naming a card that data lacks (the café renamed or took
        out a card after teaching) is named too; it was read as that card, which the game then could not use.
        A file not there yet is no problem: nothing was taught.
        """
        if not path.exists() and not path.is_symlink():
            return None
        if path.is_file() and path.stat().st_size == 0:
            return f"{path} is empty: no tag is read from it"
        links, why = _read(path)
        if why is not None:
            return f"{path} {why}: no tag is read from it"
        stale = {tag: card for tag, card in links.items() if cards is not None and card not in cards}
        if not stale:
            return None
        tag, card = next(iter(stale.items()))
        more = f" (and {len(stale) - 1} more tag{'' if len(stale) == 2 else 's'} a card not there)" if len(
            stale) > 1 else ""
        them = "those cards" if more else "that card"
        return (f"{path}: tag {tag} names card {quoted(card)}{more}, which is not among the cards of "
                f"{title or 'the game'} in the data it plays with: teach {them} again")

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


def _read(path: Path) -> tuple[dict[str, str], str | None]:
    """The links of the tag file at ``path``, or why it is none ("cannot be read as a tag file (...)", "is not a
    tag file (...)"): one wording for `hw teach`, which refuses to write over it, and the table, which plays on."""
    try:
        content = read_json(path)
    except InvalidData as error:
        why = error.message.removeprefix(f"{path}: ")  # "cannot be read (Is a directory): ...", "not valid JSON ..."
        return {}, why if why.startswith("cannot be read") else f"cannot be read as a tag file ({why})"
    except OSError as error:
        return {}, f"cannot be read as a tag file ({error.strerror or error})"
    links = content.get("tags") if isinstance(content, dict) else None
    if not isinstance(links, dict) or not all(isinstance(card, str) for card in links.values()):
        return {}, 'is not a tag file (one holds {"tags": {"04A1": "P05", ...}})'
    return links, None


class GameTags:
    """The tags of the game on the table: that game's own file, read at each slot report, or ``path`` for every
    game when one is named (``hw play --tags``).

    `hw play` and the app read the temple's file whatever the game, while `hw teach --game targi` saved to
    targi-tags.json: tags taught for any game but the temple were never read, each card "not one the sensor
    knows". Read at each report (a card laid now and then), a new game of another kind reads its own file, and
    a tag taught while the table plays is known at once.
    """

    def __init__(self, game: Callable[[], Game | None], path: Path | None = None) -> None:
        self.game = game
        self.path = path
        self._told: set[str] = set()  # the problems said already: each once, not at every card laid
        self._looked_at: Game | None = None  # the game whose file `untold(new_game_only=True)` last read

    def _path(self, game: Game | None) -> Path | None:
        return self.path if self.path is not None else default_tags_path(game.id) if game else None

    def card(self, tag: str) -> str | None:
        """The card of ``tag`` in the current game's tag file; None when no game is on the table, or when the card
        taught is none of the game's (its café data changed since): it went to the referee as a card of the game."""
        game = self.game()
        path = self._path(game)
        card = TagMap.load(path).card(tag) if path is not None else None
        return card if card is None or game is None or card in game.card_copies() else None

    def problem(self) -> str | None:
        """What is wrong with the tag file of the game on the table (`TagMap.problem`), or None."""
        game = self.game()
        path = self._path(game)
        if path is None or game is None:
            return None
        return TagMap.problem(path, set(game.card_copies()), game.title)

    def untold(self, new_game_only: bool = False) -> str | None:
        """`problem`, the first time it is so: the table tells it once (as play starts, as a new game begins, or
        at the first card laid once it broke), and each card laid then names it in the owner's log alone.

        ``new_game_only``: looked at only when the game on the table is another than at the last look, so a
        reader may ask at every line it reads without reading the file each time.
        """
        if new_game_only:
            game = self.game()
            if game is self._looked_at:
                return None
            self._looked_at = game
        problem = self.problem()
        if problem is None or problem in self._told:
            return None
        self._told.add(problem)
        return problem

    @property
    def teach_command(self) -> str:
        """`hw teach` for this game and file: plain `companion hw teach` taught the temple's tags whatever the game."""
        game = self.game()
        words = ["companion", "hw", "teach", *(["--game", game.id] if game else [])]
        return shlex.join([*words, *(["--tags", str(self.path)] if self.path is not None else [])])


def tag_file_lines(games: Sequence[Game]) -> list[tuple[str, bool]]:
    """What `hw test` says of the tag files of ``games`` (the games with cards, on the café's data): one line a
    file there, and whether it is a problem (`TagMap.problem`). Nothing checked them, and a broken file was found
    only at the table, card by card; one file named by ``$COMPANION_TAGS`` for every game is checked once, against
    all their cards."""
    by_path: dict[Path, list[Game]] = {}
    for game in games:
        by_path.setdefault(default_tags_path(game.id), []).append(game)
    lines: list[tuple[str, bool]] = []
    for path, its in by_path.items():
        if not path.exists() and not path.is_symlink():
            continue
        cards = {card for game in its for card in game.card_copies()}
        problem = TagMap.problem(path, cards, " and ".join(game.title for game in its))
        count = len(TagMap.load(path).links)
        lines.append((problem, True) if problem else (f"{path}: {count} tag{'' if count == 1 else 's'}", False))
    return lines or [("none taught yet (companion hw teach --game GAME)", False)]
