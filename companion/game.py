"""The game contract every rule set implements.

A game is a rules object bound to its data (board, decks, rulebook) with pure
methods over an immutable state. Nothing here performs IO or randomness: dice
rolls and card draws arrive as actions (``{"type": "roll", "value": 4}``), so a
replay of the same actions always reaches the same position.
"""

from __future__ import annotations

import json
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.errors import BadRequest, CompanionError, IllegalAction, InvalidAction, quoted
from companion.phrases import series
from companion.rulebook import Rulebook
from companion.schema import Check, is_known, likely

State = Any
Action = dict[str, Any]

EVENT_KINDS = frozenset({"info", "move", "penalty", "reward", "warning", "win"})
PENDING_KINDS = frozenset({"roll", "draw", "choose", "over"})

# A full stop straight after a "!", "?" or a lone "." that already ended the sentence, before a space or the end.
_DOUBLED_STOP = re.compile(r"(?<=[!?])\.(?=\s|$)|(?<=[^.]\.)\.(?=\s|$)")


def one_stop(text: str) -> str:
    """The text with each sentence ended once.

    Sentences end with a name more often than not ("... goes to Cobra Pit."), and a
    café may name a space "Scared!" or "Who Knows?": the sentence's own full
    stop then read "goes to Scared!." on the screen and in the voice's pauses. Events,
    prompts, rulings and refusals pass through here, so no game has to remember.
    """
    if not isinstance(text, str) or ("!." not in text and "?." not in text and ".." not in text):
        return text  # no doubled stop can be in it: most texts, and every event, prompt and refusal comes here
    return _DOUBLED_STOP.sub("", text)


@dataclass(frozen=True)
class Event:
    """Something to announce: a sentence plus the clauses it rests on."""

    kind: str
    text: str
    rules: tuple[str, ...]
    players: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:
            raise ValueError(f"unknown event kind {self.kind!r}")
        object.__setattr__(self, "text", one_stop(self.text))

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "players": list(self.players), "text": self.text, "rules": list(self.rules)}


@dataclass(frozen=True)
class Pending:
    """What the table must do next: exactly one roll, draw, choice or the end."""

    kind: str
    player: str | None
    text: str
    die: str | None = None
    deck: str | None = None
    result: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.kind not in PENDING_KINDS:
            raise ValueError(f"unknown pending kind {self.kind!r}")
        if (self.kind == "roll") != (self.die is not None):
            raise ValueError("a roll, and only a roll, names its die")
        if (self.kind == "draw") != (self.deck is not None):
            raise ValueError("a draw, and only a draw, names its deck")
        object.__setattr__(self, "text", one_stop(self.text))

    @property
    def is_over(self) -> bool:
        return self.kind == "over"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "player": self.player, "text": self.text}
        if self.die is not None:
            out["die"] = self.die
        if self.deck is not None:
            out["deck"] = self.deck
        if self.result is not None:
            out["result"] = dict(self.result)
        return out


@dataclass(frozen=True)
class Ruling:
    """The answer to a dispute: legal or not, why, and on which clauses."""

    legal: bool
    text: str
    rules: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", one_stop(self.text))

    def to_dict(self) -> dict[str, Any]:
        return {"legal": self.legal, "text": self.text, "rules": list(self.rules)}


@dataclass(frozen=True)
class OptionSpec:
    """A rule option: its key, default, allowed values and the decision behind it."""

    key: str
    default: Any
    choices: tuple[Any, ...]
    text: str
    decision: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "default": self.default,
            "choices": list(self.choices),
            "text": self.text,
            "decision": self.decision,
        }


@dataclass(frozen=True)
class DieSpec:
    """A die the table rolls; ``faces`` are the action payloads it can produce."""

    id: str
    name: str
    faces: tuple[Mapping[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "faces": [dict(f) for f in self.faces]}


@dataclass(frozen=True)
class OnTable:
    """One physical thing on the real table as the app keeps it, for an undo to say what to put back by hand.

    ``at`` is where a piece stands, with the word English puts before the place ("on Twin Dunes (11)", "in
    the centre", "on d6 (ring 4), frozen"), or how many of something its owner holds (5 Lives, 2 salt).
    An undo that said only "Taken back: Red moves to Scared!" left the runner sent back to the start and the
    2 Lives lost where the app no longer had them. ``rules``: the clause of the part; none cites the step's.
    """

    owner: str  # the player it belongs to, or "" for a thing of the board (the robber, a centre card)
    name: str  # the piece as the table calls it ("Red 2", "runner", "Targi", "salt")
    at: str | int
    rules: tuple[str, ...] = ()
    # A card or token whose face the table reads and enters (a card drawn, a token turned up): when that entry
    # is withdrawn as misread, the thing stays where it really lies and only its name is entered again, so a
    # correction does not have it put back; a pawn it moved, Lives or goods it gave, are put back all the same.
    dealt: bool = False
    # Pieces of one owner and name told apart only by where they stand (Targi's tribe markers): an undo that
    # moves one back says where from, "Move Black's tribe marker from centre 3-1 back to centre 2-3.", where
    # "take back" one and "put back" another left the table guessing that it was a single marker moved.
    alike: bool = False
    many: str = ""  # the name for several of them ("tribe markers"), when not the name itself ("Targi")
    # A count of cards (a desert racer's Mirage Cloak cards, the temple's draw pile): an undo says the cards
    # handed back, "Black gives back a Mirage Cloak card.", "Red puts the card drawn back on the draw pile.", as a
    # table says it, where "Set the draw pile back to 32." had the players count a pile.
    cards: bool = False
    # The word for one of a count a player hands to and takes from the supply ("date" for dates, "salt", "gold"):
    # an undo says the difference as it is handed, "Black gives back 1 date.", "Give Black 2 salt back.", where
    # "Set Black's dates back to 3." had the player count a heap and work out how many to return.
    one: str = ""
    # A card played from a hand the app only counts (the temple's hidden hands, RU-H2): on the table after the
    # step and nowhere before it, it goes back to the hand of the player whose step is undone, "Put card AK back
    # in Yellow's hand.", where "Take card AK off the discard pile." left the table asking whose.
    from_hand: bool = False
    # The word for one of a count players hand to each other (a desert racer's "Life"): an undone hand-over is said
    # as handed back, "Purple gives 1 Life back to Teal.", where "Set Teal's Lives back to 4. Set Purple's Lives
    # back to 7." read as two counts to redo, not one trade. A change no other player matches (Lives lost to a
    # hazard, a Life past the cap) is still set back.
    passed: str = ""


@dataclass
class GameData:
    """The parsed data files a game runs on, with where each came from."""

    files: dict[str, Any]
    sources: dict[str, str] = field(default_factory=dict)
    digests: dict[str, str] = field(default_factory=dict)  # kind -> a short hash of the parsed content
    warnings: tuple[str, ...] = ()  # what reads worse but plays (``Game.board_warnings``): shown, not refused

    def __getitem__(self, kind: str) -> Any:
        return self.files[kind]


def normalize_action(action: object, who_rule: str | None = None) -> Action:
    """Accept an action as offered by ``legal`` (with its ``text``) or typed by hand.

    ``who_rule`` is the game's clause on who may act, cited when ``player`` is not a name.
    """
    if not isinstance(action, Mapping):
        raise InvalidAction("an action must be a JSON object")
    if not isinstance(action.get("type"), str):
        raise InvalidAction('an action needs a string "type"')
    if "player" in action and not (isinstance(action["player"], str) and action["player"]):
        # Left out, the player is whoever is to act; named, it must be a name, or a null would pass every
        # game's turn check as "no player said" while the journal keeps a key that means nothing.
        who = action["player"]
        if who is None:  # "not null" was JSON's word for a name left empty
            raise InvalidAction('say which player acts by name, or leave "player" out to mean whoever is to act',
                                who_rule)
        raise InvalidAction(
            f'"player" names a player, not {quoted(who)}; leave it out to mean whoever is to act', who_rule
        )
    return {k: v for k, v in action.items() if k != "text"}


def kind_words(kind: str, names: Mapping[str, str] | None = None) -> str:
    """An action's kind as the table says it: the game's own name for it (``Game.kind_names``: the temple's "Ah
    Kinchil" for "ahkinchil"), else its id with spaces, "bring out" for "bring_out"."""
    return (names or {}).get(kind) or kind.replace("_", " ")


def unknown_type(kind: object, kinds: Iterable[str], why: str = "", rule: str | None = None,
                 names: Mapping[str, str] | None = None) -> InvalidAction:
    """The refusal of an action of a type the game has none of, naming its types in words, each written as an
    action carries it where that differs: "there is no 'fly' action; the actions are roll, move, bring out
    ('bring_out'), ...". It listed the ids alone ("types: roll, move, bring_out"), on the dispute screen too.
    ``why``: what the game says of that type besides (Blackpool's pass)."""
    named = [kind_words(k, names) + ("" if kind_words(k, names) == k else f" ({quoted(k)})") for k in kinds]
    return InvalidAction(f"there is no {quoted(kind)} action{why}; the actions are {series(named)}", rule)


def not_playing(who: object, players: Sequence[str], who_rule: str | None) -> InvalidAction:
    """The refusal of an action whose ``player`` names nobody in this game, citing the game's clause on who may act.

    Said as the table says it, "'green' is not playing; players: red, blue": two games answered "unknown player
    'green'" and three "'green' is not playing", which a player reads without knowing what the program "knows".
    One helper, so the five cannot drift apart again.
    """
    return InvalidAction(not_playing_words(who, players), who_rule)


def not_playing_words(who: object, players: Sequence[str]) -> str:
    """"'green' is not playing; players: red, blue": the words of ``not_playing``, which a position document's
    loader puts after the field naming nobody playing ("turn: 'green' is not playing; players: red, blue").

    The five loaders said it five ways ("unknown player 'green'", "'green' is not a player", "who is not
    playing", "unknown player or caravan colour"), some without the players to choose from.
    """
    if who is None:  # a field left out or null read "turn: null is not playing", as if a player were named "null"
        return f"no player is named; players: {', '.join(players)}"
    return f"{quoted(who)} is not playing; players: {', '.join(players)}"


def players_listed(
    raw: list[Any], players: Sequence[str], where: str, problems: list[str], once: str = ""
) -> list[str]:
    """The players a position document lists (those finished, a roll-off's contenders, trade partners), each
    entry at fault named by its place ("finished[1]"), with why a name may come only ``once``.

    Three loaders each wrote this loop, naming a name given twice in three ways.
    """
    out: list[str] = []
    for i, value in enumerate(raw):
        if not is_known(value, players):
            problems.append(f"{where}[{i}]: {not_playing_words(value, players)}")
        elif value in out:
            problems.append(f"{where}[{i}]: {quoted(value)} is listed twice{once}")
        else:
            out.append(value)
    return out


def not_json(action: Action) -> InvalidAction | None:
    """The refusal for a value no JSON can hold (bytes, a set, any other Python object), or a key that is no text,
    if the action has one. Asked before the key check (``unknown_keys``), which names keys in order.

    Only a Python caller can send one, and a game that reads no deeper than it needs let it through: a temple
    X roll with ``"face": b"roll"`` was ruled legal, then raised TypeError as the journal wrote it. A number
    too long to write or a list nested too deep is left to the game, whose refusal names what it expected.
    """
    keyed = [k for k in action if not isinstance(k, str)]
    if keyed:  # 1 or (1, 2) beside "value": the key check sorted the keys it names and raised TypeError
        return InvalidAction(f"{_an(action['type'])} {quoted(action['type'])} action is keyed by something other "
                             f"than text (a Python {type(keyed[0]).__name__}), which JSON cannot carry")
    found: list[str] = []

    def foreign(value: object) -> object:
        found.append(f"a Python {type(value).__name__}")
        raise TypeError

    for key, value in action.items():
        try:
            json.dumps(value, default=foreign)
        except TypeError:  # what `default` met, else an object keyed by what JSON cannot key by
            what = found[0] if found else "an object keyed by something other than text"
            return InvalidAction(f"{quoted(key)} of a {quoted(action['type'])} action holds {what}, which JSON "
                                 "cannot carry")
        except (ValueError, RecursionError):
            continue
    return None


Shape = frozenset[str]


def shapes(**kinds: str) -> dict[str, tuple[Shape, ...]]:
    """Each type's keys besides ``type`` and ``player``, as a game declares them: ``target="traveller square |
    opponent"`` is a ``target`` naming a traveller (and a square), or an opponent; ``"keys"`` and ``""`` one way.
    A type spelt as a Python word is written with an underscore after it (``pass_=""``, ``return_="goods"``).

    Written once per game (``Game.action_shapes``), so the shared ``unknown_keys`` can name the keys a type takes
    while none of it is offered, and refuse keys that are each a type's but never go together.
    """
    return {kind.rstrip("_"): tuple(frozenset(way.split()) for way in ways.split("|")) for kind, ways in kinds.items()}


def action_keys(
    legal: Sequence[Action], declared: Mapping[str, tuple[Shape, ...]] | None = None, in_part: Iterable[str] = ()
) -> dict[str, frozenset[Shape]]:
    """The sets of keys each type of offered action comes with, ``type``, ``player`` and ``text`` aside; for a
    type offered only in part (``Game.offered_in_part``), every shape ``declared`` for it as well."""
    keys: dict[str, set[Shape]] = {}
    for action in legal:
        keys.setdefault(action["type"], set()).add(frozenset(action) - {"type", "player", "text"})
    for kind in in_part:
        if kind in keys:
            keys[kind].update((declared or {}).get(kind, ()))
    return {kind: frozenset(ways) for kind, ways in keys.items()}


def unknown_keys(
    action: Action, offered: Mapping[str, frozenset[Shape]], declared: Mapping[str, tuple[Shape, ...]] | None = None,
    asked: Callable[[str], str] | None = None, name: str | None = None,
) -> InvalidAction | None:
    """The refusal for a key this type of action does not take now, or keys it never takes together, if any.

    Games read only the keys they need, so ``{"type": "roll", "value": 6,
    "extra": 1}`` would otherwise be applied and journalled with a key that
    means nothing, and a typo such as ``"valeu"`` beside a right key would
    pass unnoticed (it is named: "is it 'value'?"). A type offered now takes
    the keys its offered actions carry (``offered``, from ``action_keys``), in
    one of their combinations or one the game declares (``declared``,
    ``Game.action_shapes``: a desert trade may both give and get, though each
    offered one does one): Targi's ``use`` naming a border ``card`` and a
    centre ``slot`` used the card, saying nothing of the slot it left unread
    (both keys were offered, on two uses). A type not offered now takes
    what the game declares for it, so a temple ``change`` with ``"rotation"``
    sent while a pawn moves is refused for the key, not only as "Not now". A
    type neither offered nor declared is left to the game, whose refusal cites
    the clause. ``player`` is allowed on every action (docs/protocol.md):
    naming the wrong one gets the game's turn refusal with its clause.

    Said in the game's words, each key in quotes as what to type: "target: 'opponent' is not asked for now; say
    which square ('square') and which traveller ('traveller')", where it read "a 'target' action has no
    'opponent'; it takes only square, traveller". ``asked``: what a key asks to be said ("which traveller",
    ``field_words.field_asked``); ``name``: the type as the table calls it (``kind_words``).
    """
    kind = action["type"]
    ways = tuple(offered.get(kind, ())) or tuple((declared or {}).get(kind, ()))
    if not ways:
        return None
    takes = frozenset().union(*ways)
    sent = frozenset(action) - {"type", "player"}
    extra = sorted(sent - takes)
    name = name or kind_words(kind)
    if extra:
        # "now": a key the type takes in another position (Blackpool's target names an opponent, or a traveller)
        now = " now" if set(extra) & frozenset().union(*(declared or {}).get(kind, ())) else ""
        if len(extra) == 1:
            named = f"{quoted(extra[0])} is not asked for{now}{_meant(extra[0], takes)}"
        else:
            named = f"{series([quoted(k) + _meant(k, takes) for k in extra])} are not asked for{now}"
        widest = sorted((w for w in set(ways) if not any(w < other for other in ways)), key=sorted)
        say = _said_ways(widest, asked)
        return InvalidAction(f"{name}: {named}; " + (f"say {say}" if say else "it asks for nothing more"))
    if any(sent <= way for way in (*ways, *(declared or {}).get(kind, ()))):
        return None
    together = series([quoted(k) for k in sorted(sent)])
    return InvalidAction(f"{name}: say {_said_ways(_widest(ways, declared, kind), asked)}, not {together} together")


def _said_ways(ways: Sequence[Shape], asked: Callable[[str], str] | None) -> str:
    """Each way a type is taken as what is said for it, the key to type after each: "which border card ('card'),
    or which centre card ('slot')"; "" when the type takes nothing but itself."""
    def said(key: str) -> str:
        return f"{asked(key) if asked else 'the ' + key.replace('_', ' ')} ({quoted(key)})"

    return ", or ".join(series([said(k) for k in sorted(way)]) for way in ways if way)


def _an(word: str) -> str:
    """The article before a type's name: "an 'order' action", "a 'use' action" (said "you")."""
    return "an" if word[:1].lower() in "aeio" and word[:1] else "a"


def _meant(key: str, takes: Iterable[str]) -> str:
    """`` (is it 'value'?)`` when a key the type takes is most likely the one typed, else nothing."""
    meant = likely(key, takes)
    return f" (is it {quoted(meant)}?)" if meant is not None else ""


def _widest(ways: Iterable[Shape], declared: Mapping[str, tuple[Shape, ...]] | None, kind: str) -> list[Shape]:
    """The combinations a refusal names: the declared ones, else the offered ones, each not inside another."""
    pool = set((declared or {}).get(kind, ())) or set(ways)
    return sorted((w for w in pool if not any(w < other for other in pool)), key=lambda w: sorted(w))


_KIND_OF_TYPE = {type(None): "null", bool: "true or false", int: "a whole number", float: "a number", str: "a string",
                 list: "a list", tuple: "a list", dict: "an object"}


def json_kind(value: object) -> str:
    """A value's kind in JSON's words, as a refusal names it to a client that sent JSON."""
    kind = _KIND_OF_TYPE.get(type(value))  # the plain types at once: every offered action's values are asked
    if kind is not None:
        return kind
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, (list, tuple)) else "an object"


def action_kinds(legal: Sequence[Action]) -> dict[tuple[str, str], frozenset[str]]:
    """The JSON kinds each key of each type of offered action holds, ``text`` aside."""
    kinds: dict[tuple[str, str], set[str]] = {}
    for action in legal:
        for key, value in action.items():
            if key != "text":
                kinds.setdefault((action["type"], key), set()).add(json_kind(value))
    return {where: frozenset(names) for where, names in kinds.items()}


def wrong_kind(action: Action, kinds: Mapping[tuple[str, str], frozenset[str]]) -> InvalidAction | None:
    """The refusal for a value of a kind no offered action of this type holds there, if any.

    Games read values with ``.get`` and compare, so ``{"slot": 1.0}`` equalled
    slot 1 and was applied, announced and journalled as "slot 1.0". The
    offered actions show each key's kinds, as they show its keys for
    ``unknown_keys``; a type not offered now is left to the game, and
    ``player`` to ``normalize_action``.
    """
    for key, value in action.items():
        known = kinds.get((action["type"], key))
        if key in ("type", "player") or known is None or json_kind(value) in known:
            continue
        wanted = " or ".join(sorted(known))
        return InvalidAction(f'"{key}" of a {quoted(action["type"])} action must be {wanted}, not {json_kind(value)}')
    return None


class Game(ABC):
    """Base of every rule set; subclasses declare metadata and the pure methods."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    first_by_roll: ClassVar[bool] = False  # the game's opening roll picks who starts (`GameInfo.first_by_roll`)
    # The clause that fixes the player count, cited when a count outside it is refused, so the table
    # sees the decision behind "needs 2 to 6 players" as it does for every other refusal.
    players_rule: ClassVar[str | None] = None
    # The clause naming the colours players take, one each, cited when a player list names a colour twice, a
    # colour the game lacks or an empty one; None: ``players_rule`` says it too (the desert's DR-Q36 gives count
    # and colours in one clause). "each player must be named once" came with no clause at all.
    colours_rule: ClassVar[str | None] = None
    # The clause naming what may be done on a turn, cited when an action is refused as malformed (an unknown
    # type, a missing or mistyped field) and no action of its type is offered now to name a closer one: the
    # brief asks every refusal for its clause, and "unknown action type 'pass'" came without one.
    actions_rule: ClassVar[str | None] = None
    # Each type of action's keys besides "type" and "player", in the combinations it takes them (``shapes``):
    # the shared check (``unknown_keys``) names a key a type does not take even while none of that type is
    # offered, and refuses keys that are each the type's but never go together (Targi's border "card" and
    # centre "slot"). tests/core/test_action_keys.py holds every offered action of random games to them.
    action_shapes: ClassVar[Mapping[str, tuple[frozenset[str], ...]]] = {}
    # Types whose offered actions are only some of those the game takes: while one is offered, it takes every
    # shape declared for it, and the game rules on the rest. The desert race lists single transfers but accepts
    # any agreed trade (DR-Q22): with only "get" trades offered (the mover holding no card and 1 Life), a trade
    # giving something as well was refused for its "give" key, where the game says what is wrong with it.
    offered_in_part: ClassVar[frozenset[str]] = frozenset()
    # What a refusal asks to be said for a field left out, null or mistyped, by field or "kind.field", where the
    # shared words (``companion.field_words.FIELD_WORDS``) are not the table's: "which number the oracle shows".
    field_words: ClassVar[Mapping[str, str]] = {}
    # Each kind of action as the table calls it, where its id with spaces is not that (``kind_words``).
    kind_names: ClassVar[Mapping[str, str]] = {}
    # The clause saying who may act, cited when an action's "player" names nobody playing.
    turn_rule: ClassVar[str | None] = None
    # The clause by which a game's slots are dealt afresh at its start (the temple's path), cited when cards still
    # lie in them from the last game (``Controller``'s "not taken as draws").
    slots_dealt_rule: ClassVar[str | None] = None
    colours: ClassVar[tuple[str, ...]] = ()
    dice: ClassVar[tuple[DieSpec, ...]] = ()
    decks: ClassVar[tuple[str, ...]] = ()
    # Each deck as the game's own texts name it ("The Collection pile is empty", "The draw pile is empty"): the
    # dispute screen's Build listed the ids an action carries, "collection" and "path", words no text uses.
    deck_names: ClassVar[Mapping[str, str]] = {}
    # Decks of tokens, not cards (Through the Desert's water-hole tokens, drawn as a deck is): no tag names one,
    # so `hw teach` offered "1 to 3" as Through the Desert's cards, a game with none (TD rules, DECISIONS.md).
    token_decks: ClassVar[frozenset[str]] = frozenset()
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {"standard": {}}
    # Data files besides the rulebook, each with its schema (see companion.schema).
    data_schemas: ClassVar[Mapping[str, Check]] = {}
    # Data kinds whose entries' ids the screen shows as they are (the temple's card ids on its card buttons), so
    # the validator checks them against the screen's font as it does names.
    ids_shown: ClassVar[frozenset[str]] = frozenset()
    # Random play stops with an error after this many actions: a game that
    # never ends is a rule bug the simulator must report.
    sim_max_steps: ClassVar[int] = 5000
    # The clauses each part of ``score`` rests on, by its key ("water", "rows", "total"), so a table asking
    # how a score came about hears the rule beside each number (companion/scoresheet.py).
    score_rules: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    # The parts of ``score`` a player wins during play and keeps (a water-hole token, an oasis, VP tokens, tribe
    # cards), which an undo names when it takes them back (companion/takeback.py). Parts counted as if the game
    # ended now (areas, longest caravans, row bonuses) move with every camel or card and are left out: a leader
    # taken back is no 10 points handed back.
    held_points: ClassVar[tuple[str, ...]] = ()
    # A race keeps no score: the clauses that say who wins, cited beside where each player stands.
    win_rules: ClassVar[tuple[str, ...]] = ()

    def __init__(self, data: GameData) -> None:
        self.data = data
        self.rulebook = Rulebook.from_data(self.id, data["rulebook"], self.title)

    # -- metadata -----------------------------------------------------------
    @classmethod
    def metadata(cls) -> dict[str, Any]:
        return {
            "id": cls.id,
            "title": cls.title,
            "players": {"min": cls.min_players, "max": cls.max_players},
            "colours": list(cls.colours),
            "dice": [d.to_dict() for d in cls.dice],
            "decks": list(cls.decks),
            "options": [o.to_dict() for o in cls.option_specs],
            "profiles": {name: dict(values) for name, values in cls.profiles.items()},
        }

    @classmethod
    def resolve_options(cls, options: Mapping[str, Any] | None = None, profile: str | None = None) -> dict[str, Any]:
        """Defaults, then the profile, then explicit options; refuse unknown keys and values.

        A value the option cannot take cites the clause the option changes (its ``decision``), as a refusal
        of play does: the table reads there what each value means. A value is one of the choices only as the
        same JSON kind: ``1.0`` or ``1`` equalled ``true`` in Python, so a boolean option took a number and
        ``attempts_per_turn: true`` was one attempt, journalled as ``true``. An unknown option, profile or a
        non-object names no clause, since no rule speaks of it (docs/protocol.md, "Refusals without a clause").
        """
        if isinstance(profile, str) and not profile.strip():
            # An empty name was quietly the standard profile, so a front end whose profile picker sent nothing
            # started a game it did not ask for; leaving the key out (None) is how standard is asked for.
            raise BadRequest(f"{cls.title} has no profile {quoted(profile)}: name one or leave the profile out for "
                             f"the standard one; profiles: {', '.join(cls.profiles)}")
        profile = "standard" if profile is None else profile
        if not isinstance(profile, str) or profile not in cls.profiles:  # a list or object: no profile, not a crash
            raise BadRequest(f"{cls.title} has no profile {quoted(profile)}{_meant(profile, cls.profiles)}; "
                             f"profiles: {', '.join(cls.profiles)}")
        if options is not None and not isinstance(options, Mapping):
            raise BadRequest("options must be an object of option -> value")
        specs = {o.key: o for o in cls.option_specs}
        resolved = {o.key: o.default for o in cls.option_specs}
        resolved.update(cls.profiles[profile])
        for key, value in (options or {}).items():
            spec = specs.get(key)
            if spec is None:
                known = ", ".join(specs) or "none"
                # By the game's title, as the profile's refusal names it ("ttd has no option" left "ttd" to look
                # up), with the slip of a key most likely meant, as an action's key and a command are named.
                raise BadRequest(f"{cls.title} has no option {quoted(key)}{_meant(key, specs)}; options: {known}")
            if not any(value == c and json_kind(value) == json_kind(c) for c in spec.choices):
                allowed = ", ".join(quoted(c) for c in spec.choices)
                raise BadRequest(f"option {quoted(key)} cannot be {quoted(value)}; allowed: {allowed}", spec.decision)
            resolved[key] = value
        return resolved

    @classmethod
    def kept_options(cls, options: object) -> object:
        """Options as a journal or game record kept them, each value that equals a choice read as that choice.

        Before ``resolve_options`` compared JSON kinds, ``1`` or ``1.0`` was taken for ``true`` and ``20.0`` for
        ``20``, and journalled as sent: refused now, such a game could no longer be resumed or replayed. A value
        that equals no choice is left for ``resolve_options`` to refuse.
        """
        if not isinstance(options, Mapping):
            return options
        specs = {o.key: o for o in cls.option_specs}
        kept = dict(options)
        for key, value in options.items():
            spec = specs.get(key)
            if spec is not None:
                kept[key] = next((c for c in spec.choices if c == value), value)
        return kept

    @classmethod
    def check_players(cls, players: Sequence[str]) -> list[str]:
        """Shared checks on a player list; games with free names skip the colour test.

        The count cites ``players_rule``; a colour named twice, one the game lacks and an empty one cite
        ``colours_rule`` (or ``players_rule`` where one clause says both). A list that is no list of strings
        is a malformed request, before any rule is asked.
        """
        if isinstance(players, str | bytes) or not isinstance(players, Sequence) or not all(
            isinstance(p, str) for p in players
        ):
            raise BadRequest("players must be a list of strings, one a player")
        players = list(players)
        if not cls.min_players <= len(players) <= cls.max_players:
            low, high = cls.min_players, cls.max_players
            wanted = str(low) if low == high else f"{low} to {high}"  # "takes 2-2 players" read as a typo
            raise BadRequest(f"{cls.title} needs {wanted} players, not {len(players)}", cls.players_rule)
        rule = cls.colours_rule or cls.players_rule
        said = f"; colours: {', '.join(cls.colours)}" if cls.colours else ""
        if not all(players):
            raise BadRequest(f"player {players.index('') + 1} is empty: each player is named by a colour{said}"
                             if cls.colours else f"player {players.index('') + 1} is empty: give each a name", rule)
        twice = next((p for i, p in enumerate(players) if p in players[:i]), None)
        if twice is not None:
            each = "a colour of their own" if cls.colours else "a name of their own"
            raise BadRequest(f"{quoted(twice)} is named twice: each player plays {each}", rule)
        if cls.colours:
            unknown = [p for p in players if p not in cls.colours]
            if unknown:
                raise BadRequest(f"unknown colour {quoted(unknown[0])}; colours: {', '.join(cls.colours)}", rule)
        return players

    @classmethod
    def cross_check(cls, files: Mapping[str, Any]) -> list[str]:
        """Problems between files or entries (a path naming a missing square, say).

        Runs only after every file passed its schema, so it may index freely.
        """
        return []

    @classmethod
    def board_warnings(cls, files: Mapping[str, Any], sources: Mapping[str, str]) -> list[str]:
        """What of a valid set plays the same but reads worse: texts the board would draw under its readable
        size at 800x480, or cut; a card entry that is a copy of another (``schema.copy_warnings``).

        Warnings, not problems: the game plays the same, only the table reads
        worse. Texts are measured with the screen font's own widths (``companion.screen_font``),
        so no screen is needed; ``sources`` name each kind's file.
        """
        return []

    # -- the contract ---------------------------------------------------------
    @abstractmethod
    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> State:
        """The opening position; ``options`` are already resolved."""

    @abstractmethod
    def to_document(self, state: State) -> dict[str, Any]:
        """The JSON position document; ``from_document`` must give back an equal state."""

    @abstractmethod
    def from_document(self, document: Mapping[str, Any]) -> State:
        """Parse a position, raising ``InvalidPosition`` that lists every problem found."""

    @abstractmethod
    def pending(self, state: State) -> Pending:
        """What the table must do next."""

    @abstractmethod
    def legal_actions(self, state: State) -> list[Action]:
        """Every action the pending player may take now, each with a ``text``."""

    @abstractmethod
    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        """The next state and what to announce; raise typed errors, never mutate ``state``."""

    def old_step(
        self, states: Sequence[State], log: Sequence[Action], action: Action
    ) -> tuple[State, list[Event]] | None:
        """An older companion's step, refused now: the position after it and the words saying so, or None to refuse.

        ``states`` are the positions from the opening (the last is the current one) and ``log`` the steps between
        them. An update that stops asking a question whose answers all led to one position leaves games journalled
        before holding the answer; accepted as changing nothing, they still resume, replay and export to their
        end. Games override for the steps they stopped offering; everything else stays refused.
        """
        return None

    def old_start(self, document: Mapping[str, Any], played_on: bool) -> State | None:
        """A loaded opening an older companion accepted and this one refuses, or None to refuse it.

        Read only from a journal or a game record (``Session.from_start``), never for a position loaded now: a
        game started on it could otherwise no longer be resumed, replayed or exported with its end.
        ``played_on``: steps taken on it follow, as that companion took them, so it is read as that companion
        read it; with none yet, a game may read it as its rules now have it.
        """
        return None

    def check(self, state: State, action: Action) -> Ruling:
        """A ruling on any well-formed action; games override for richer reasons."""
        try:
            _, events = self.apply(state, normalize_action(action, self.turn_rule))
        except IllegalAction as refusal:
            return Ruling(False, refusal.message, (refusal.rule,) if refusal.rule else ())
        rules = tuple(dict.fromkeys(r for e in events for r in e.rules))
        text = " ".join(e.text for e in events)
        return Ruling(True, f"Allowed. {text}" if text else "Allowed.", rules)  # not "Allowed. Allowed."

    # -- optional views -------------------------------------------------------
    def describe(self, state: State) -> list[str]:
        """Lines that show the position in a terminal; games override with a readable view."""
        return [f"{k}: {v}" for k, v in self.to_document(state).items()]

    def place_named(self, state: State, words: str) -> Hashable | None:
        """The board place a player names in the game's own words, or None where the words name none.

        A typed "why" names a place as the table calls it: Targi's players say
        "Noble", not "card 1". Games whose places are their ids need nothing here.
        """
        return None

    # How the game's texts call each kind of place (an action's field: "slot", "card"), where the plain word
    # of `companion.places` is not the table's: Targi's centre cards are "slot"s in its actions, and "what may
    # be done now happens on slots" named nothing on its board.
    place_kinds: ClassVar[Mapping[str, str]] = {}

    def place_words(self, state: State, place: Hashable) -> str | None:
        """A board place as the table calls it, where its id is no name: the button box's walk says (and the
        voice reads) it. None: the place's field and value say it ("(5,5)", "slot 3")."""
        return None

    def value_words(self, state: State, key: str, value: Any) -> str | None:
        """One value of an action's field as the game's own texts write it: a traveller "Green 2", goods "2 dates,
        1 pepper", a die face "red". The dispute screen's Build lists each field's values to pick from, and showed
        them as the action spells them ('[1, 1]', '{"colour": "red"}', "green-2"), which no table reads. A place
        is said by ``place_words`` first, a deck by ``deck_names``. None: the value says itself (a number, a colour)."""
        return None

    def player_words(self, player: str) -> str:
        """A player as every game's texts name them, "Red" for the colour "red" an action carries ("Red: roll the
        die."): the dispute screen's Build listed the players as the action spells them."""
        return player[:1].upper() + player[1:]

    def field_numbers(self, state: State, key: str) -> Sequence[int] | None:
        """Every number a field can hold on this board, where a board has fewer than anyone may insist on (the
        temple's slots, Targi's display rows): Build offers these, and a number off the board is refused with
        its clause when typed. None: any number may be argued over (a die "showing 9"), and Build offers 0 to 12."""
        return None

    def field_values(self, state: State, key: str) -> Sequence[Any]:
        """The values a field can name in this game whether or not any is in play yet, where they are a short
        fixed list a table argues over (Through the Desert's camel colours, the race's cards). Build lists the values
        offered now and taken before, and these after them: early in a game a field had none to pick (a leader's
        colour while the water holes were entered, a Mirage Cloak before any card was drawn). Empty: what is in
        play is the list (a place is tapped on the board)."""
        return ()

    def card_copies(self) -> Mapping[str, int]:
        """Each card id of the game's decks with the copies its data (house or café) holds: the cards tags are
        stuck on, one tag per copy (`hw teach`). They were read off the opening's legal moves, which offered
        Targi's goods cards only (its first draw), and none of Blackpool's or the desert race's cards. Empty: a
        game that draws no card."""
        return {}

    def card_names(self) -> Mapping[str, str]:
        """Each card id of `card_copies` with the name printed on the card, where the two differ ("golden_compass":
        "Golden Compass"): `hw teach` takes either, as the owner reads the card in hand. Empty: a card shows its
        id."""
        return {}

    def choice_words(self, state: State, action: Action) -> str | None:
        """An action named without its place, as the table tells it from others at the same place ("green
        camel"), for a `why` that lists the other choices one rule rules out there; None: the fields in which
        those choices differ name them ("Blue 2", "P05")."""
        return None

    def place_within(self, state: State, place: Hashable) -> tuple[Hashable, str] | None:
        """The place of another kind that holds ``place``, and how the table says so, or None.

        A temple cell lies on the card in a slot: `why 6,13` while cards are changed was answered
        "what may be done now happens on slots" without saying which slot the cell belongs to.
        """
        return None

    def place_elsewhere(self, state: State, place: Hashable, offered: Sequence[Action]) -> Ruling | None:
        """The answer at ``place`` when what is ``offered`` now goes to places of another kind, or None.

        None gives the general answer ("what may be done now happens on slots, such as ..."), citing the
        clauses of a few examples. The temple says more: a corner cell asked about while cards are changed
        is on no slot, and its clauses gathered from sample moves ("sending Blue 2 back", a stairway) were
        cited as where moves go.
        """
        return None

    def over_rule(self, state: State) -> str | None:
        """The clause of the way this finished game ended, which every refusal after the end cites.

        A malformed action sent to a finished game ("pass", a missing field) cited the clause on what a
        turn may do, as if play went on; the game's own refusal of a well-formed one already named how it
        ended (BP-Q30, TG-END2). Asked only once the game is over; None: the game names no such clause.
        """
        return None

    def where_rules(self, state: State, action: Action) -> tuple[str, ...]:
        """The clause(s) saying that an offered action may be done now, and where: what a `why` at a place
        no offered action goes to cites for what may be done instead.

        Every clause of the game's ruling on a few sample actions was cited there: Targi's "Place a Targi on
        3" brought the tribe-marker clauses its last placement sets off, a Blackpool move the riding and
        heavy-table clauses, and the referee got a list of ids that did not say where play goes now. Each
        game's ruling names the clause that allows the action first; a game whose first clause is not that
        one says so here.
        """
        return self.check(state, action).rules[:1]

    def closed_place(self, state: State, place: Hashable) -> Ruling | None:
        """The game's own reason nothing may be done at ``place`` itself, when no action offered now goes to a
        place of its kind ("Black has no tribe marker on centre 3-2"), or None.

        Without it a centre card asked about while only border cards may be used heard where play goes
        now, never why the card pointed at is closed.
        """
        return None

    def pieces_at(self, state: State, place: Hashable) -> list[Hashable] | None:
        """For a game whose actions name pieces, not squares: the pieces a finger on square ``place`` asks
        about (those whose move now would end there, then those standing there); None when ``place`` is
        no such square, or the game's actions name their places themselves.

        Blackpool's moves name a traveller (the roll decides where it goes), so `why c2` was put to the
        game as a traveller called 'c2' and answered "no traveller 'c2' in this game", with no clause.
        """
        return None

    def unknown_place(self, state: State, place: Hashable) -> str | None:
        """How this game's places are named, when ``place`` is none of them; None when it is one.

        A typed `why xyz` at a name the board does not have was answered as if
        it were a place where nothing may happen now, and the table never
        learnt that the name was wrong. Games that cannot tell answer None.
        """
        return None

    def board_rule(self, state: State) -> str | None:
        """The clause saying what this game's board is, which a place it does not have is refused citing.

        `why xyz`, or an `explain` of a place off the board, was refused with no clause, as if the board's
        extent were no rule; a place off the map is what that clause settles. None: the game names none.
        """
        return None

    def score(self, state: State) -> dict[str, Any] | None:
        """A provisional score breakdown for games with scoring; None when there is none."""
        return None

    def on_table(self, state: State) -> Mapping[Hashable, OnTable]:
        """The physical pieces and counts of the real table, keyed so the same piece has the same key in
        every position: an undo compares two positions and says what the players must put back by hand
        (``companion.takeback``). Points a game keeps in ``held_points`` are said apart and left out here;
        so are things the undone step's own line already names, such as a camel placed. Empty: nothing."""
        return {}

    def invariants(self, state: State) -> list[str]:
        """Extra consistency checks the simulator runs after every step."""
        return []

    def sim_choose(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        """How random play picks among legal actions; override for weighted dice."""
        return rng.choice(legal)


def refuse(message: str, rule: str) -> IllegalAction:
    """Build the refusal a game raises; kept short so rule code reads as rules."""
    return IllegalAction(one_stop(message), rule)


def malformed(message: str, rule: str | None = None) -> InvalidAction:
    return InvalidAction(one_stop(message), rule)


def said_as(words: str) -> str:
    """A place's name or id as a player says it: case, spacing, underscores and an opening "the" aside.

    `why` was typed in lower case against a café's ids and names as written: a desert space
    "Palm_Spring", a Blackpool square "C2" or a Targi card "The Salt  Pans" could never be asked
    about. Both sides are read this way before they are compared (``place_called``).
    """
    return " ".join(words.replace("_", " ").split()).casefold().removeprefix("the ")


def place_called(
    words: str,
    places: Iterable[tuple[Hashable, Iterable[str], str]],
    how: str,
    rule: str | None,
    key: Callable[[str], str] = said_as,
) -> Hashable | None:
    """The one place of ``places`` (each: the place, the names and ids it goes by, how the table says it) that
    ``words`` name, ``key`` reading both sides alike; None when none does.

    Words that name two places (a desert space's id read as another's name, two Date Baskets face up in
    Targi's centre) are refused naming each, with ``how`` to say which, citing ``rule`` (the board's
    clause): the first found was answered, and the table heard a ruling on a place nobody pointed at.
    """
    said = key(words)
    found: dict[Hashable, str] = {}
    for place, names, spoken in places:
        if said and any(key(name) == said for name in names):
            found.setdefault(place, spoken)
    if len(found) > 1:
        *first, last = found.values()
        raise BadRequest(f"{quoted(words.strip())} names more than one place: {', '.join(first)} and {last}; {how}",
                         rule)
    return next(iter(found), None)


__all__ = [
    "Action",
    "CompanionError",
    "DieSpec",
    "Event",
    "Game",
    "GameData",
    "OptionSpec",
    "Pending",
    "Ruling",
    "State",
    "action_keys",
    "action_kinds",
    "json_kind",
    "kind_words",
    "malformed",
    "normalize_action",
    "not_playing",
    "not_playing_words",
    "place_called",
    "refuse",
    "said_as",
    "shapes",
    "unknown_keys",
    "unknown_type",
    "wrong_kind",
]
