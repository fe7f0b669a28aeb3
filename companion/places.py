"""Where on the board an action happens, and why nothing may happen at a place a player points at.

A table's commonest dispute is a finger on the board: "why can't my camel go
here?". The game answers any one action through ``check``, but the player
names a place, not an action. So the question becomes: each kind of action
the position offers somewhere (this colour of camel, that card for a slot),
moved to the place pointed at and checked there. The answers are the game's
own refusals with their clauses; nothing here knows a rule.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Protocol

from companion.errors import BadRequest, CompanionError, quoted
from companion.game import Action, Game, Pending, Ruling, State

# Action fields naming where it happens, in the order an action with two is read. A card counts only
# by its number on the board (Targi's border cards); a card id such as "P07" or "desert_flask" is a card
# in hand or drawn, not a place. A traveller is Blackpool's piece by its id ("red-1"): its actions name
# the piece, not a square (the roll decides where it goes), so a finger on the piece is the question.
# A move's end ("to": a temple pawn's cell, a Targi marker's new crossing) is where it happens too: without it a
# finger on a temple cell heard "Nothing is placed on the board at this point" while a pawn was to be moved there.
PLACE_FIELDS = {"hex": "hexes", "slot": "slots", "space": "spaces", "card": "cards", "traveller": "travellers",
                "to": "spaces"}
# The way to an action's place (a temple move's "route"): it belongs to that place, so a move put elsewhere goes
# without it and the game judges the new end by every way there, not by a route that ends somewhere else.
WAY_FIELDS = {"route"}
NUMBERED_ONLY = {"card"}
NAMED_ONLY = {"traveller"}  # a piece is named by its id: slot 3 asked about is never moved onto a "traveller"
# How an answer speaks of a place, per field: (allowed, refused, the rest refused). A piece is not somewhere,
# and the game's own refusal names it ("Red 2 is frozen..."), so nothing is put before that.
SPOKEN = {"traveller": ("Allowed", "", "for it")}
PLAIN = ("Allowed there", "Nothing may be done there.", "there")
LONG_LIST = 24  # more actions than this and places come first: on the table's map and in the button box's walk
SHOWN_GROUPS = 3  # distinct reasons spelt out; a table cannot read more at a glance
SHOWN_ALLOWED = 5  # allowed actions named; the table's buttons list them all
SHOWN_CHOICES = 5  # other choices one reason rules out, named; the rest are counted


class Checks(Protocol):
    """What the answer needs of a session: the offered actions, a ruling on any action, and (for a game
    that has ended) what is pending and the steps taken."""

    game: Game

    @property
    def state(self) -> State: ...

    def legal(self) -> list[Action]: ...

    def check(self, action: object) -> Ruling: ...

    def pending(self) -> Pending: ...

    @property
    def log(self) -> list[Action]: ...


def place_of(action: Mapping[str, Any]) -> Hashable | None:
    """The board place an action happens at, hashable (a hex ``[q, r]`` becomes a tuple), or None."""
    for name in PLACE_FIELDS:
        value = action.get(name)
        if name in NUMBERED_ONLY:
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            continue
        if name in NAMED_ONLY:
            if isinstance(value, str) and value:
                return value
            continue
        if isinstance(value, list) and all(isinstance(v, int | str) for v in value):
            return tuple(value)
        if isinstance(value, int | str) and not isinstance(value, bool):
            return value
    return None


def place_field(action: Mapping[str, Any]) -> str | None:
    """The field ``place_of`` reads the place from: the first of PLACE_FIELDS that holds one."""
    return next((name for name in PLACE_FIELDS if place_of({name: action.get(name)}) is not None), None)


def place_to_json(place: Hashable | None) -> Any:
    """A place as an action spells it: a hex back to ``[q, r]``, anything else as it is."""
    return list(place) if isinstance(place, tuple) else place


def place_from_json(value: object) -> Hashable:
    """A place as JSON spells it (``[q, r]``, a slot number, a space or traveller id); BadRequest for anything else."""
    if isinstance(value, list) and value and all(isinstance(v, int | str) and not isinstance(v, bool) for v in value):
        return tuple(value)
    if isinstance(value, int | str) and not isinstance(value, bool) and value != "":
        return value
    raise BadRequest(
        "a place is a hex [q, r], a slot or card number, a space or a traveller id,"
        ' such as [5, 5], 3, "dawn" or "red-1"'
    )


def place_from_text(text: str) -> Hashable:
    """A place as a player types it: '5,5' or '(5, 5)' for a hex, '3' for a slot, else a space or traveller id."""
    text = text.strip()
    parts = [part.strip() for part in text.strip("()[] ").split(",")]
    try:
        if len(parts) > 1 and all(p.lstrip("-").isdecimal() for p in parts):
            return tuple(int(p) for p in parts)
        if text.isdecimal():
            return int(text)
    except ValueError:  # thousands of digits: `int` refuses them, and its message tells a player to call Python
        raise BadRequest("that number is far too long to be a place on any board") from None
    if not text:
        raise BadRequest("say which place: a hex such as 5,5, a slot or card number, a space or a traveller id")
    return text


def typed_place(game: Game, state: State, text: str) -> Hashable:
    """A place as typed after `why`: in the game's own words first ("noble", "Cool Cave"), else as
    ``place_from_text`` reads it; refused when the board has no such place (``known_place``)."""
    if not text.strip():  # the general "a hex such as 5,5, a slot ..." named places no board of this game has
        raise BadRequest(f"say which place: {game.unknown_place(state, '') or 'a place as the board names it'}")
    named = game.place_named(state, text)
    try:
        place = named if named is not None else place_from_text(text)
    except BadRequest as error:  # a number thousands of digits long: a place off the board, as 99 is
        raise BadRequest(error.message, game.board_rule(state)) from None
    known_place(game, state, place, text.strip())
    return place


def known_place(game: Game, state: State, place: Hashable, said: str) -> None:
    """Refuse a place the game's board does not have, saying how its places are named.

    Without this, `why xyz` got the answer for a real place where nothing may
    happen now ("first, roll the die"), and a mistyped name looked like a rule.
    The refusal cites the clause saying what the board is (``Game.board_rule``):
    which places a board has is a rule of the game, and a place off it cited none.
    """
    how = game.unknown_place(state, place)
    if how is not None:
        raise BadRequest(f"there is no place called {quoted(said)} on the {game.title} board; {how}",
                         game.board_rule(state))


def same_kind(here: Hashable | None, there: Hashable) -> bool:
    """Whether an action placed at ``here`` may be moved to ``there``: a pair to a pair, a number to a number.

    Targi names centre cards by (row, col) and border cards by number; moving
    a centre card's action onto card 7 asked the game about "slot 7", and the
    table heard how a slot is spelt instead of a rule.
    """
    if isinstance(here, tuple) or isinstance(there, tuple):
        return isinstance(here, tuple) and isinstance(there, tuple) and len(here) == len(there)
    return type(here) is type(there)


def moved_to(offered: Sequence[Mapping[str, Any]], place: Hashable) -> list[Action]:
    """Each kind of offered action that happens somewhere, moved to ``place``; one of each kind."""
    moved: dict[str, Action] = {}
    for action in offered:
        field = place_field(action)
        if field is None or not same_kind(place_of(action), place) or place_of({field: place_to_json(place)}) is None:
            continue  # no such place for this action: a card's number is never a (row, col) centre card
        candidate = {key: value for key, value in action.items() if key != "text" and key not in WAY_FIELDS}
        candidate[field] = place_to_json(place)
        moved.setdefault(json.dumps(candidate, sort_keys=True), candidate)
    return list(moved.values())


def explain_place(session: Checks, place: Hashable) -> Ruling:
    """The ruling on a place: what may happen there, or each distinct reason nothing may.

    Refusals are grouped by the clauses they rest on, so five camel colours
    refused by one adjacency rule read as one reason, not five sentences.
    """
    offered = session.legal()
    if not offered:
        return _nothing_offered(session)
    here = [action for action in offered if place_of(action) == place]
    if here:
        rules = _union(session.check(action).rules for action in here)
        listed = "; ".join(str(action.get("text") or action.get("type")) for action in here[:SHOWN_ALLOWED])
        more = f" and {len(here) - SHOWN_ALLOWED} more" if len(here) > SHOWN_ALLOWED else ""
        allowed = SPOKEN.get(place_field(here[0]) or "", PLAIN)[0]
        return Ruling(True, f"{allowed}: {listed}{more}.", rules)
    pieces = session.game.pieces_at(session.state, place) if any(place_of(a) is not None for a in offered) else None
    if pieces:  # a square on a board whose actions name pieces: the answer for each piece it concerns
        return _pieces_ruling(session, pieces)
    candidates = moved_to(offered, place) if pieces is None else []  # [] here: nothing stands or lands there
    if not candidates:
        placed = [action for action in offered if place_of(action) is not None]
        if not placed:  # a roll or draw comes first: say so, with the clause that asks for it (``where_rules``)
            # The clauses every answer shared, else the first answer's: the temple's "roll the die" cited what
            # an X does (RU-9, RU-Q27) and Targi's last raid the scoring clauses its payment sets off.
            kind_of = {action.get("type"): action for action in offered}
            rules = _union(session.game.where_rules(session.state, action) for action in kind_of.values())
            # "Nothing is placed on the board" read as a contradiction while the board was being laid (the
            # temple's "first, draw a card for slot 1", Targi's "turn up the goods card at centre 1-1"): the
            # draw decides where, so no place is the player's to choose.
            said = f"No place is chosen on the board at this point of the game{_first(session.pending())}"
            return Ruling(False, said, rules)
        within = session.game.place_within(session.state, place)
        if within is not None and any(same_kind(place_of(action), within[0]) for action in placed):
            # A temple cell while cards are changed: the answer is its slot's, said as the slot's.
            inner = explain_place(session, within[0])
            return Ruling(inner.legal, f"{within[1]}. {inner.text}", inner.rules)
        own = session.game.place_elsewhere(session.state, place, placed)
        if own is not None:
            return own
        # The offered places are of another kind ("2,2" asked while Targi go on border cards 1-16):
        # the clauses that allow them say where things go now.
        kinds = sorted({place_field(action) or "" for action in placed})
        own = getattr(session.game, "place_kinds", {})
        where = " or ".join(own.get(kind) or PLACE_FIELDS[kind] for kind in kinds)
        # The clauses that say what may be done now and where, one ruling per kind of action: every clause of
        # five sample actions ("Place a Targi" with the tribe-marker clauses its last placement sets off) gave
        # a list of ids that did not explain the answer.
        kind_of = {(action.get("type"), place_field(action)): action for action in placed}
        rules = _union(session.game.where_rules(session.state, action) for action in kind_of.values())
        closed = session.game.closed_place(session.state, place)
        # Each example is an offered action in the game's own words: a place spelt as JSON ("[2, 1]") was shown
        # and spoken where Targi's table says "centre 2-1".
        first_at: dict[Hashable, Action] = {}
        for action in placed:
            first_at.setdefault(place_of(action), action)
        examples = "; ".join(str(action.get("text") or place_to_json(place))
                             for place, action in list(first_at.items())[:3])  # fmt: skip
        if closed is not None:  # the place's own reason first, then where play goes now
            text = (f"Nothing may be done there now: {closed.text.rstrip('.')}. What may be done now happens on "
                    f"{where}, such as: {examples}.")
            return Ruling(False, text, _union((closed.rules, rules)))
        text = f"Nothing may be done there now: what may be done now happens on {where}, such as: {examples}."
        return Ruling(False, text, rules)
    _, refused, rest = SPOKEN.get(place_field(candidates[0]) or "", PLAIN)
    names = choice_names(session, candidates)
    groups: dict[tuple[str, ...], list[str]] = {}
    named: dict[tuple[str, ...], list[str]] = {}
    allowed: list[tuple[Ruling, str]] = []
    for candidate, name in zip(candidates, names, strict=True):
        try:
            ruling = session.check(candidate)
        except CompanionError as error:  # a place this game's actions cannot name (slot 13 of 12)
            ruling = Ruling(False, error.message, (error.rule,) if error.rule else ())
        if ruling.legal:
            allowed.append((ruling, name))
            continue
        groups.setdefault(ruling.rules, []).append(ruling.text)
        named.setdefault(ruling.rules, []).append(name)
    if allowed:  # the game allows it though it was not offered: say so rather than hide it
        if len(allowed) == 1:
            return allowed[0][0]
        # Each allowed choice: the first one's outcome alone ("Allowed. Water hole at (6,11): a token worth 1.")
        # read as though the site held a 1, when any token the table lays there would do.
        said = SPOKEN.get(place_field(candidates[0]) or "", PLAIN)[0]
        return Ruling(True, f"{said}: {_listed([name for _, name in allowed])}.", _union(r.rules for r, _ in allowed))
    reasons = []
    for rules, texts, first in _said_once(groups, session.game.place_words(session.state, place))[:SHOWN_GROUPS]:
        others = named[rules][1:]
        # Refusals that cite no clause (a place the game cannot even name) share a reason, not a rule.
        same = "rule" if rules else "reason"
        # Each other choice by name: "rules out 3 other choices" after a reason that named one camel left a
        # referee counting four (the colour refused by another rule too) and asking which three were meant.
        if len(set(texts)) == 1 and place_field(candidates[0]) in NAMED_ONLY:
            also = ""  # a piece's one answer for every kind of move: "both choices for it: bring out and move" is noise
        elif len(set(texts)) == 1 and others:  # one sentence for each: it names none of them, so name them all
            every = f"both choices {rest}" if len(texts) == 2 else f"all {len(texts)} choices {rest}"
            also = f" That rules out {every}: {_listed(named[rules])}."
        elif others:
            # Said again for the next reason, "The same rule rules out 1 other choice there too" came twice in one
            # answer (Through the Desert's camels refused by two rules at a hex): the second names its rule, as
            # "It rules out" left a listener, who hears no clause id, asking what "it" was.
            opening = (_rule_named(session.game, rules, same) if any(" rules out " in reason for reason in reasons)
                       else f"The same {same}")
            also = (f" {opening} rules out {len(others)} other {'choice' if len(others) == 1 else 'choices'}"
                    f" {rest} too: {_listed(others)}.")
        else:
            also = ""
        cited = f" [{', '.join(rules)}]" if rules and len(groups) > 1 else ""  # one reason: cited once, below
        reasons.append(f"{first.rstrip('.')}.{cited}{also}")
    if len(groups) > SHOWN_GROUPS:
        reasons.append(f"And {len(groups) - SHOWN_GROUPS} more reasons.")
    return Ruling(False, " ".join([refused, *reasons]).strip(), _union(groups))


def _said_once(
    groups: Mapping[tuple[str, ...], list[str]], place: str | None
) -> list[tuple[tuple[str, ...], list[str], str]]:
    """Each reason's clauses, its refusals and the sentence said for it, the place pointed at named once.

    Every refusal names its place, as it must when heard alone; read one after another they said it again and
    again ("(5,2) does not touch Black's pink caravan. ... A blue camel on (5,2) would touch ..."). A reason that
    opens with the place (``place``: how the game's texts name it, ``Game.place_words``) goes first; after it,
    "on", "at" or "to" the place is said "there". Reasons keep their order otherwise.
    """
    order = sorted(groups.items(), key=lambda item: not (place and item[1][0].startswith(place)))
    out: list[tuple[tuple[str, ...], list[str], str]] = []
    said = False
    for rules, texts in order:
        first = texts[0]
        if place and said:
            first = re.sub(rf"\b(?:on|at|to) {re.escape(place)}(?!\w)", "there", first)
        said = said or bool(place and place in texts[0])
        out.append((rules, texts, first))
    return out


def _rule_named(game: Game, rules: tuple[str, ...], same: str) -> str:
    """A reason's rule by its clause's title ("The rule 'Keeping colours apart'"), so a second reason in one answer
    says which rule rules the other choices out; "That rule" (or "That reason") when no one titled clause is cited."""
    if len(rules) == 1 and rules[0] in game.rulebook:
        title = game.rulebook.clause(rules[0]).title.removeprefix("Decision: ").removesuffix(" (house)")
        if title and not re.search(r"[:;.?!']", title):
            return f"The rule '{title}'"
    return f"That {same}"


def choice_names(session: Checks, candidates: Sequence[Action]) -> list[str]:
    """Each candidate (``moved_to``) named as the table tells it from the others moved to the same place.

    The game names it where it can (``Game.choice_words``: "green camel"); otherwise by the values of the
    fields in which the candidates differ ("Blue 2" for a pawn "blue2", "P05" for a card), since the place
    they share says nothing about which choice is meant.
    """
    keys = dict.fromkeys(key for candidate in candidates for key in candidate)
    differ = [key for key in keys
              if len({json.dumps(c.get(key), sort_keys=True) for c in candidates}) > 1]  # fmt: skip
    names = []
    for candidate in candidates:
        words = session.game.choice_words(session.state, candidate)
        if not words:
            words = " ".join(_value_words(candidate.get(key)) for key in differ if key in candidate)
        names.append(words or str(candidate.get("type", "choice")).replace("_", " "))
    return names


def _value_words(value: object) -> str:
    """An action field's value as words: a piece id "blue2" or "red-1" as "Blue 2", "bring_out" as "bring out"."""
    if isinstance(value, str):
        piece = re.fullmatch(r"([a-z]+)-?(\d+)", value)
        return f"{piece[1].capitalize()} {piece[2]}" if piece else value.replace("_", " ")
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def _listed(names: Sequence[str]) -> str:
    """Names as a sentence lists them ("a, b and c"), the first SHOWN_CHOICES of them and a count of the rest."""
    shown = list(names[:SHOWN_CHOICES])
    if len(names) > SHOWN_CHOICES:
        return f"{', '.join(shown)} and {len(names) - SHOWN_CHOICES} more"
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def _pieces_ruling(session: Checks, pieces: Sequence[Hashable]) -> Ruling:
    """The answer for a square as the answers for the pieces it concerns (``Game.pieces_at``), grouped.

    Every piece's answer, allowed or not: "why can't Yellow 1 land here?" is the question even when
    Yellow 2, standing there, may move. Three rivals' pieces refused by one clause for one reason read as
    one ("Red 1 is not Yellow's to move. The same rule holds for Red 2 and Red 3 there."), and pieces
    allowed read "Allowed: A; B; C", not "Allowed: A. Allowed: B. Allowed: C."

    Refusals are one reason only when they read alike but for the piece's name: grouped by clause alone,
    "Yellow 1 cannot land on c2 ... The same rule holds for Yellow 2 there." was said of a Yellow 2 whose
    own move was stopped on another square (f2), so each such piece has its own sentence.
    """
    rulings = [explain_place(session, piece) for piece in pieces]
    by_reason: dict[tuple[bool, tuple[str, ...], str], list[Ruling]] = {}
    for ruling, piece in zip(rulings, pieces, strict=True):
        reason = "" if ruling.legal else _unnamed(ruling.text, _value_words(piece))
        by_reason.setdefault((ruling.legal, ruling.rules, reason), []).append(ruling)
    named = dict(zip((id(ruling) for ruling in rulings), pieces, strict=True))
    texts = []
    for (legal, _, _), same in list(by_reason.items())[:SHOWN_GROUPS]:
        if legal:
            shown = [same[0].text.rstrip("."), *(r.text.removeprefix("Allowed: ").rstrip(".") for r in same[1:])]
            texts.append("; ".join(shown) + ".")
            continue
        # Each other piece by name: "holds for 2 other pieces there" left the table asking which two.
        others = [_value_words(named[id(ruling)]) for ruling in same[1:]]
        also = f" The same rule holds for {_listed(others)} there." if others else ""
        texts.append(f"{same[0].text.rstrip('.')}.{also}")
    return Ruling(any(ruling.legal for ruling in rulings), " ".join(texts), _union(r.rules for r in rulings))


def _unnamed(text: str, name: str) -> str:
    """``text`` with the piece ``name`` ("Yellow 2") taken out: what its answer says of any piece."""
    return re.sub(rf"\b{re.escape(name)}\b", "<piece>", text) if name else text


def _first(pending: Pending) -> str:
    """What comes first, to follow "No place is chosen on the board at this point of the game".

    A roll or draw reads ": first, Black: roll the die ...". A choice is the game's own question
    as a sentence of its own: after "first, " the desert's "Black on Caravan Market: redeem a
    Desert Flask, or end the turn" read as a broken sentence, and "Black is on Rocky Ridge ...:
    attempt it now ...?" ended a statement with a question mark.
    """
    if pending.kind in ("roll", "draw"):
        return f": first, {_after_first(pending)}."
    text = pending.text.strip()
    return f"; a choice comes first. {text if text[-1:] in '.?!' else text + '.'}"


def _after_first(pending: Pending) -> str:
    """What is asked now, worded to follow "first, ": an opening verb in lower case ("first, set up the
    centre"), a name kept as it is ("first, Black: roll", "first, Dune Shift: Black rolls").

    "first, Set up the centre" read as a capital in mid-sentence. A name is the player asked, a word
    before a colon, or a capitalised word followed by another.
    """
    text = pending.text.rstrip(".")
    words = text.split(maxsplit=2)
    if not words:
        return text
    named = (
        (pending.player is not None and words[0].rstrip(":").lower() == str(pending.player).lower())
        or words[0].endswith(":")
        or (len(words) > 1 and words[1][:1].isupper())
    )
    return text if named else text[:1].lower() + text[1:]


def _nothing_offered(session: Checks) -> Ruling:
    """The ruling when the position offers nothing at all: after the last step, the game is over.

    Said as "nothing is placed on the board at this point", a finished game's
    table heard neither that the game had ended nor the clause that ends it.
    The game's own refusal of the last action taken again gives both, without
    this module knowing any rule.
    """
    pending = session.pending()
    if not pending.is_over:
        return Ruling(False, "Nothing may be done at this point of the game.", ())
    log = session.log
    try:
        ruling = session.check(log[-1]) if log else None
    except CompanionError:
        ruling = None
    if ruling is not None and not ruling.legal and ruling.rules:
        return Ruling(False, f"Nothing may be done there. {ruling.text}", ruling.rules)
    return Ruling(False, f"Nothing may be done there: the game is over. {pending.text}", ())


def _union(rule_lists: Any) -> tuple[str, ...]:
    """Clause ids in first-seen order, each once."""
    seen: dict[str, None] = {}
    for rules in rule_lists:
        seen.update(dict.fromkeys(rules))
    return tuple(seen)
