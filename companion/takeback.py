"""What an undo took back besides the step's first announcement: points, the end of the game, the turn.

An undo said only the undone step's first line ("Taken back: Black places a pink camel on (0,4).") while the
camel had also closed an oasis for 5 points, or ended the game: the score afterwards was right, but nobody at
the table was told to hand the points back or that play goes on. These sentences come from comparing the
position before the undo with the one after, through what every game already has (``Game.score``,
``Game.pending``), so no game has to word its own undo; each cites the clause of what it takes back.

The players also hold the real pieces: undoing a runner's landing on Scared! left its piece at the start and
its 2 Lives lost on the table while the app had them back. Each game lists its pieces and counts
(``Game.on_table``), and the two lists compared say what to put back, in the game's words.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.game import Game, OnTable, Pending, State
from companion.phrases import LONG_WORDS, series
from companion.scoresheet import part_points

Said = tuple[str, tuple[str, ...]]  # a sentence and the clauses it rests on


def undone(
    game: Game,
    before: State,
    after: State,
    step_rules: tuple[str, ...] = (),
    step_words: str = "",
    correction: bool = False,
    step_told: Sequence[str] = (),
) -> list[Said]:
    """The sentences an undo from ``before`` back to ``after`` adds: points, what to put back on the real table
    by hand, the end, whose turn it is again. ``step_rules`` and ``step_words``: the undone step's clauses,
    which a thing put back cites when its game names none, and its first line, which may name a piece already;
    ``correction``: the step was a roll or draw entered, withdrawn as misread (``OnTable.dealt``);
    ``step_told``: all the undone step's announcements, in the order it made them (``unwound``)."""
    was, now = game.pending(before), game.pending(after)
    said = _points(game, before, after)
    said += put_back(game, before, after, step_rules, step_words, correction, step_told)
    if was.is_over and not now.is_over:
        rule = game.over_rule(before)
        said.append((_end_words(was), (rule,) if rule else ()))
    elif was.player != now.player and now.player is not None:
        said.append((f"Back to {_name(now.player)}'s turn.", (game.turn_rule,) if game.turn_rule else ()))
    return said


def held(game: Game, state: State) -> dict[str, dict[str, int]]:
    """Each player's points in the score parts a player wins during play and keeps (``Game.held_points``)."""
    if not game.held_points:
        return {}
    scored = game.score(state)
    if not isinstance(scored, Mapping):
        return {}
    players = scored.get("scores") if isinstance(scored.get("scores"), Mapping) else scored
    out: dict[str, dict[str, int]] = {}
    for player, parts in players.items():
        if isinstance(parts, Mapping):
            out[str(player)] = {key: _whole(part_points(parts.get(key))) for key in game.held_points}
    return out


def _points(game: Game, before: State, after: State) -> list[Said]:
    """Who gives back points the undone step scored, and who gets back points it cost, part by part."""
    was, now = held(game, before), held(game, after)
    said: list[Said] = []
    for player, parts in was.items():
        for key, points in parts.items():
            change = points - now.get(player, {}).get(key, points)
            if change:
                verb = "gives back" if change > 0 else "gets back"
                count = abs(change)
                words = f"{_name(player)} {verb} {count} point{'s' if count != 1 else ''} ({key.replace('_', ' ')})."
                said.append((words, tuple(game.score_rules.get(key, ()))))
    return said


Sentences = dict[tuple[str, str], tuple[list[str], list[str]]]  # (verb, piece) -> places, clauses
MOST_SAID = 4  # sentences of things to put back an undo says one by one; more are summed up in the last


def put_back(
    game: Game,
    before: State,
    after: State,
    step_rules: tuple[str, ...] = (),
    step_words: str = "",
    correction: bool = False,
    step_told: Sequence[str] = (),
) -> list[Said]:
    """What the players must put back by hand, from the game's ``on_table`` of both positions, in its words.

    Pieces first, in the game's order, one sentence for each kind ("Put Red's pawn back on Twin Dunes (11).",
    "Take Black's tribe markers off centre 1-2 and centre 2-2.", "Move Black's tribe marker from centre 3-1
    back to centre 2-3."), then each owner's counts in one sentence ("Set Red's Lives back to 5."), a count one
    player handed another as handed back ("Purple gives 1 Life back to Teal."), cards counted as handed back
    ("Teal gives a Desert Flask card back to Brown."). Read aloud, a long list is lost
    on a table: past ``MOST_SAID`` sentences the rest are summed up ("Put the rest back as the board shows.").
    A piece the step's own line names with its place is not said again: "Taken back: Red 2 moves 3 from [12,5]
    to [13,7]." already says where Red 2 goes back to, and "Taken back: Black places a Targi on card 9." what
    to take back. Pieces the step's announcements moved one after another are put back the other way round
    (``unwound``).
    """
    was, now = game.on_table(before), game.on_table(after)
    player = game.pending(after).player  # whose step is undone
    now, to_hand = _back_to_hand(was, now, player)
    groups: dict[tuple[str, str], tuple[list[OnTable], list[OnTable]]] = {}  # (owner, name) -> was, now
    cited: dict[int, tuple[str, ...]] = {}  # id of a thing -> the clauses it cites
    counts: list[tuple[OnTable, int, int]] = []  # a count, as it was and as it is again
    for key in [*now, *(k for k in was if k not in now)]:
        old, new = was.get(key), now.get(key)
        thing = new or old
        assert thing is not None
        if correction and thing.dealt:
            continue
        rules = tuple(dict.fromkeys((*(old.rules if old else ()), *(new.rules if new else ())))) or step_rules
        if isinstance(thing.at, int):
            count, had = int(new.at) if new is not None else 0, int(old.at) if old is not None else 0
            if count != had:
                counts.append((thing, had, count))
            continue
        olds, news = groups.setdefault((thing.owner, thing.name), ([], []))
        for one, side in ((old, olds), (new, news)):
            if one is not None:
                side.append(one)
                cited[id(one)] = rules
    moves = [move for olds, news in groups.values() for move in _moves(olds, news)]
    moves = _replaced(moves, to_hand)
    sentences: Sentences = {}
    dealt: set[str] = set()  # the pieces that are cards or tokens
    owned: dict[str, tuple[str, str]] = {}  # a piece said with its owner's name ("Black's tribe marker") -> both
    for old, new, instead in moves:
        thing = new or old
        assert thing is not None
        if new is not None and old is not None and thing.alike:
            if _named(new, str(new.at), step_words) and _named(old, str(old.at), step_words):
                continue
            verb, place = "Move", f"from {_bare(str(old.at))} back to {_bare(str(new.at))}"
        elif new is not None:
            place = _where(str(new.at), old)
            if _named(new, place, step_words):
                continue
            verb = "Put"
            if instead is not None and new.name.startswith("a face-down"):
                verb, thing, place = "Turn", instead, place.removeprefix("face up ")
            elif instead is not None and id(instead) in to_hand:
                place += f" and {_the(_owned(instead))} back {instead.at}"
            elif instead is not None:
                place += f", in place of {_the(_owned(instead))}"
        else:
            assert old is not None
            if _named(old, str(old.at), step_words):
                continue
            verb, place = "Take", str(old.at)
        piece = _owned(thing)
        if piece != thing.name:
            owned[piece] = (thing.owner, thing.name)
        if thing.dealt:
            dealt.add(piece)
        places, clauses = sentences.setdefault((verb, piece), ([], []))
        places.append(place)
        for one in (old, new, instead):
            if one is not None:
                clauses.extend(cited.get(id(one), ()))
    said = _owners_joined(unwound(_by_place(sentences, dealt), step_told), owned, groups)
    said += _count_sentences(counts, step_rules, player)
    if len(said) <= MOST_SAID:
        return said
    rest = said[MOST_SAID - 1:]
    clauses = tuple(dict.fromkeys(r for _, cited_ in rest for r in cited_))
    return [*said[: MOST_SAID - 1], ("Put the rest back as the board shows.", clauses)]


Move = tuple[OnTable | None, OnTable | None, OnTable | None]  # as it stands now, as it goes back, what it replaces


def _back_to_hand(
    was: dict[Hashable, OnTable], now: dict[Hashable, OnTable], player: str | None
) -> tuple[dict[Hashable, OnTable], set[int]]:
    """The position gone back to, with each card played from a hand the game only counts (``OnTable.from_hand``)
    back in the hand of the player whose step is undone, and the ids of those: "Take card AK off the discard
    pile." did not say whose hand the card went back to, and "in place of card P39" left P39 by the board."""
    if not player:
        return now, set()
    back = {key: replace(old, at=f"in {_name(player)}'s hand", from_hand=False)
            for key, old in was.items() if old.from_hand and key not in now}
    return {**now, **back}, {id(thing) for thing in back.values()}


def _moves(olds: list[OnTable], news: list[OnTable]) -> list[Move]:
    """One owner's pieces of one name, as they stand and as they go back: those already where they go back
    stay; the rest are paired, each taken from where it stands to where it goes back, and any left over are
    taken off or put back. Matched by place, not by key: two Salt Slabs cards on the centre were keyed by their
    order, and taking the first had the table told to put the second "back" where it already lay."""
    olds, news = list(olds), list(news)
    for new in list(news):
        same = next((old for old in olds if old.at == new.at), None)
        if same is not None:
            olds.remove(same)
            news.remove(new)
    pairs: list[Move] = [(old, new, None) for old, new in zip(olds, news, strict=False)]
    pairs += [(old, None, None) for old in olds[len(news):]]
    pairs += [(None, new, None) for new in news[len(olds):]]
    return pairs


def _replaced(moves: list[Move], to_hand: set[int]) -> list[Move]:
    """A piece put back where another is taken off, said as one: "Put Salt Slabs back face up on centre 1-1, in
    place of the face-down tribe card.", "Put card P10 back in slot 12 and card P39 back in Red's hand." (the
    other goes back to a hand, ``to_hand``), "Turn Pepper Pouch face down again on centre 1-2." (a face-down card
    put back where a card lies face up is the card turned up, turned down again)."""
    out: list[Move] = []
    taken = [m for m in moves if m[1] is None or id(m[1]) in to_hand]
    for move in moves:
        old, new, _ = move
        if new is None or id(new) in to_hand:
            if move in taken:
                out.append(move)
            continue
        gone = next((t for t in taken if t[0] is not None and not t[0].owner and not new.owner
                     and _bare(str(t[0].at)) == _bare(str(new.at))), None)
        if gone is not None and gone[0] is not None:
            taken.remove(gone)
            out = [m for m in out if m is not gone]
            out.append((old, new, gone[1] if gone[1] is not None else gone[0]))
        else:
            out.append(move)
    return out


def unwound(sentences: Sentences, told: Sequence[str]) -> Sentences:
    """The sentences of pieces the step's announcements name, in the reverse of the order they first named them:
    the last piece moved is the first put back, as an undo unwinds the step. The others keep their places.

    Audit: a temple card change sends the pawns left on holes back colour by colour from the player whose turn it
    is, and within a colour the pawn further along first (RU-Q14): "Blue 1 goes back ...", then "Green 1 goes
    back ...". The undo listed them in seat order ("Put Green 1 back ... Put Blue 1 back ..."), the same order
    in one game and its reverse in the next. Every put-back place is free in either order (the pawns left cells
    of the changed card); the reverse is chosen because it is how an undo reads everywhere: the step unwound.
    """
    text = "\n".join(told)
    first = {key: _first_named(key[1], text) for key in sentences}
    named = sorted((key for key in sentences if first[key] >= 0), key=lambda key: -first[key])
    if len(named) < 2:
        return sentences
    keys = iter(named)
    order = [next(keys) if first[key] >= 0 else key for key in sentences]
    return {key: sentences[key] for key in order}


def _first_named(piece: str, text: str) -> int:
    """Where ``text`` first names ``piece`` as a whole ("Red 1", not the "Red 1" of "Red 12"), or -1."""
    found = re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", text)
    return found.start() if found else -1


def _by_place(sentences: Sentences, cards: set[str]) -> Sentences:
    """Several pieces put back in or taken from one place, in one sentence: "Put Pepper Pouch and Salt Block back
    on the goods discard pile." Cards reshuffled into a deck came back one sentence each, and the card the step
    took was lost in "Put the rest back as the board shows."."""
    out: Sentences = {}
    where: dict[tuple[str, str], tuple[str, str]] = {}  # (verb, place) -> the key it joined
    for (verb, piece), (places, clauses) in sentences.items():
        key = (verb, places[0]) if len(set(places)) == 1 and verb in ("Put", "Take") else None
        if key is not None and key in where:
            first = where[key]
            out[(first[0], f"{first[1]}\n{piece}")] = out.pop(first)
            out[(first[0], f"{first[1]}\n{piece}")][1].extend(clauses)
            where[key] = (first[0], f"{first[1]}\n{piece}")
            continue
        if key is not None:
            where[key] = (verb, piece)
        out[(verb, piece)] = (places, clauses)
    return {(verb, _listed(piece.split("\n"), cards)): said for (verb, piece), said in out.items()}


def _listed(names: list[str], cards: set[str]) -> str:
    """"Pepper Pouch", "Pepper Pouch and Salt Block"; past three, how many: "29 cards" (a discard pile
    reshuffled into the draw pile, taken back), "5 pieces"."""
    if len(names) > 3:
        return f"{len(names)} {'cards' if set(names) <= cards else 'pieces'}"
    return series(names)


def _bare(place: str) -> str:
    """A place without the way a card lies there: "face up on centre 1-2" is "centre 1-2"."""
    place = place.removeprefix("face up ")
    return place.partition(" ")[2] if place.split(" ")[0] in ("on", "in", "at") else place


def _the(name: str) -> str:
    return "the " + name[2:] if name.startswith("a ") else name


def _many(groups: dict[tuple[str, str], tuple[list[OnTable], list[OnTable]]], piece: str) -> str:
    """The name for several of ``piece`` ("Black's tribe markers"), from its game's ``OnTable.many``."""
    for olds, news in groups.values():
        for thing in (*olds, *news):
            if _owned(thing) == piece and thing.many:
                return piece[: len(piece) - len(thing.name)] + thing.many
    return piece


def _owners_joined(
    sentences: Sentences,
    owned: dict[str, tuple[str, str]],
    groups: dict[tuple[str, str], tuple[list[OnTable], list[OnTable]]],
) -> list[Said]:
    """The sentences of ``sentences``, those in a row alike but for whose pieces they are joined as the voice
    joins reports (`ui.voice._gapped`), each owner's places kept: "Take Black's tribe markers off centre 1-1 and
    centre 3-1, and White's off centre 2-2 and centre 2-3." A Targi placement undone read "Take Black's tribe
    markers off ... Take White's tribe markers off ...", the same words twice over. ``owned``: a piece said with
    its owner's name, its owner and name; a sentence past ``LONG_WORDS`` is not made."""
    said: list[tuple[list[str], tuple[str, ...]]] = []  # each sentence's parts, without its stop, and clauses
    last: tuple[str, str, str] | None = None  # the verb, owner and name of the sentence joined onto
    for (verb, piece), (places, clauses) in sentences.items():
        owner, name = owned.get(piece, ("", ""))
        rules = tuple(dict.fromkeys(clauses))
        lead, where, several = _piece_where(verb, places)
        if last is not None and owner and (verb, name) == (last[0], last[2]) and owner != last[1]:
            parts = [*said[-1][0], f"{_name(owner)}'s {where}"]
            if len(_sentence(parts).split()) <= LONG_WORDS:
                said[-1] = (parts, tuple(dict.fromkeys((*said[-1][1], *rules))))
                last = (verb, owner, name)
                continue
        said.append(([f"{verb} {_many(groups, piece) if several else piece} {lead}{where}"], rules))
        last = (verb, owner, name) if owner else None
    return [(_sentence(parts), rules) for parts, rules in said]


def _sentence(parts: list[str]) -> str:
    """"Take Black's tribe markers off centre 1-1.", "..., and White's off centre 2-2.", "..., White's ..., and
    Green's ..."."""
    return f"{parts[0]}." if len(parts) == 1 else f"{', '.join(parts[:-1])}, and {parts[-1]}."


def _piece_where(verb: str, places: list[str]) -> tuple[str, str, bool]:
    """What a sentence of one kind of piece says after the piece: the words that go with its verb ("back ",
    "face down again "), the places, each said once ("off centre 1-2 and centre 2-2"), and whether they are
    listed, the piece named as several ("tribe markers")."""
    places = list(dict.fromkeys(places))
    if verb == "Take":
        places = [_off(p) for p in places]
    if len(places) > MOST_SAID:
        where = "as the board shows"
    elif len(places) == 1:
        where = places[0]
    else:
        first = {p.split(" ")[0] for p in places}
        shared = next(iter(first)) if len(first) == 1 and verb != "Move" else ""
        bare = [p[len(shared) + 1:] if shared else p for p in places]
        where = (f"{shared} " if shared else "") + series(bare)
    return {"Put": "back ", "Turn": "face down again "}.get(verb, ""), where, 1 < len(places) <= MOST_SAID


def _off(place: str) -> str:
    """Where a piece is taken from: "on centre 1-1" is taken "off centre 1-1", "in slot 12" "out of slot 12"."""
    place = place.removeprefix("face up ")
    word, _, rest = place.partition(" ")
    return {"on": "off", "in": "out of", "at": "from"}.get(word, word) + f" {rest}" if rest else place


def _named(thing: OnTable, where: str, words: str) -> bool:
    """Whether the step's line names this piece, its owner and its place ("Red 2 ... from [12,5] (slot 4)")."""
    place = where.partition(" ")[2]
    owner = _name(thing.owner) if thing.owner else ""
    return bool(words and place) and all(part in words for part in (place, thing.name, owner))


def _owned(thing: OnTable) -> str:
    """"Red's runner", "Red 2" (a piece whose name says its owner), "the robber"."""
    if not thing.owner or thing.name.lower().startswith(thing.owner.lower()):
        return thing.name
    return f"{_name(thing.owner)}'s {thing.name}"


def _where(now: str, old: OnTable | None) -> str:
    """Where a piece goes back, saying what it no longer is: undoing a freeze put "Red 2 back on d6 (ring 4)",
    where it already stood, frozen, so "not frozen" is said when only that part of the place differs."""
    was = str(old.at) if old is not None else ""
    if was.startswith(now + ", "):
        return f"{now}, not {was[len(now) + 2:]}"
    return now


def _count_sentences(
    counts: list[tuple[OnTable, int, int]], step_rules: tuple[str, ...], player: str | None = None
) -> list[Said]:
    """Each owner's counts set back in one sentence ("Set Red's Lives back to 5."); cards
    counted are said as handed back, one player's to another's as one ("Teal gives a Desert Flask card back
    to Brown."), the temple's pile as "Red puts the card drawn back on the draw pile." (``player``: whose step
    is undone, who drew it); goods from a supply
    (``OnTable.one``) as the difference handed, each owner's in one sentence ("Give Black 2 salt back.", "Give
    Red 1 coin back.")."""
    said: list[Said] = []
    numbers: dict[str, list[tuple[OnTable, int]]] = {}
    handed: dict[str, list[tuple[OnTable, int]]] = {}  # a card's name -> who holds how many more again
    supplied: dict[str, list[tuple[OnTable, int]]] = {}  # an owner -> goods they hold how many more of again
    passed = _passed_back(counts, step_rules)
    for thing, had, count in counts:
        if any(thing is t for t, _ in passed):
            continue
        if thing.cards and not thing.owner and count < had:
            said.append((f"Take {had - count} cards off {thing.name}.", thing.rules or step_rules))
        elif thing.cards:
            handed.setdefault(thing.name, []).append((thing, count - had))
        elif thing.one and thing.owner:
            supplied.setdefault(thing.owner, []).append((thing, count - had))
        else:
            numbers.setdefault(thing.owner, []).append((thing, count))
    for changed in numbers.values():
        first, *others = changed
        parts = [f"{_owned(first[0])} back to {first[1]}", *(f"{t.name} to {n}" for t, n in others)]
        words = series(parts)
        said.append((f"Set {words}.", tuple(dict.fromkeys(r for t, _ in changed for r in (t.rules or step_rules)))))
    said += [words for _, words in passed[::2]]
    for changes in handed.values():
        said += _handed(changes, step_rules, player)
    for owner, changes in supplied.items():
        said.append(_supplied(owner, changes, step_rules))
    return said


def _passed_back(counts: list[tuple[OnTable, int, int]], step_rules: tuple[str, ...]) -> list[tuple[OnTable, Said]]:
    """Counts one player handed another (``OnTable.passed``), matched giver to getter by the amount: each pair
    twice, giver then getter, with its sentence, "Purple gives 1 Life back to Teal." (a desert trade undone)."""
    out: list[tuple[OnTable, Said]] = []
    for name in dict.fromkeys(t.name for t, _, _ in counts if t.passed and t.owner):
        changes = [(t, count - had) for t, had, count in counts if t.passed and t.owner and t.name == name]
        givers = [(t, -d) for t, d in changes if d < 0]
        getters = [(t, d) for t, d in changes if d > 0]
        if len(givers) != 1 or len(getters) != 1 or givers[0][1] != getters[0][1]:
            continue  # not one hand-over: each count is set back
        (giver, n), (getter, _) = givers[0], getters[0]
        amount = f"{n} {giver.passed if n == 1 else giver.name}"
        words = f"{_name(giver.owner)} gives {amount} back to {_name(getter.owner)}."
        said = (words, tuple(dict.fromkeys((*(giver.rules or step_rules), *(getter.rules or step_rules)))))
        out += [(giver, said), (getter, said)]
    return out


def _supplied(owner: str, changes: list[tuple[OnTable, int]], step_rules: tuple[str, ...]) -> Said:
    """One player's goods handed back to or taken again from the supply, as the difference: "Black gives back
    1 date and 2 pepper.", "Give Black 2 salt back.", "White gives back 1 gold, then gets 3 salt back." (a
    trade: "gives back 1 date and gets 1 salt and 1 pepper back" ran the first list into the second)."""
    gives = [_amount(t, -d) for t, d in changes if d < 0]
    gets = [_amount(t, d) for t, d in changes if d > 0]
    who = _name(owner)
    if gives and gets:
        words = f"{who} gives back {series(gives)}, then gets {series(gets)} back."
    elif gives:
        words = f"{who} gives back {series(gives)}."
    else:
        words = f"Give {who} {series(gets)} back."
    return words, tuple(dict.fromkeys(r for t, _ in changes for r in (t.rules or step_rules)))


def _amount(thing: OnTable, n: int) -> str:
    """"1 date", "2 dates", "3 salt": ``OnTable.one`` for one, its name for more."""
    return f"{n} {thing.one if n == 1 else thing.name}"


def _handed(changes: list[tuple[OnTable, int]], step_rules: tuple[str, ...], player: str | None = None) -> list[Said]:
    """Cards of one name handed back: from whoever holds more than before the step to whoever holds fewer; cards
    drawn onto a pile of no owner are put back by the player whose step drew them: the temple's hands are hidden
    (RU-H2), and "Put the card drawn back on the draw pile." left the table asking whose hand it was in."""
    givers = [(t, -d) for t, d in changes if d < 0]
    getters = [(t, d) for t, d in changes if d > 0]
    said: list[Said] = []
    while givers and getters and givers[0][1] == getters[0][1]:
        (giver, n), (getter, _) = givers.pop(0), getters.pop(0)
        said.append((f"{_name(giver.owner)} gives {_cards(giver, n)} back to {_name(getter.owner)}.",
                     tuple(dict.fromkeys((*(giver.rules or step_rules), *(getter.rules or step_rules))))))
    for giver, n in givers:
        said.append((f"{_name(giver.owner)} gives back {_cards(giver, n)}.", giver.rules or step_rules))
    for getter, n in getters:
        if getter.owner:
            words = f"{_name(getter.owner)} gets {_cards(getter, n)} back."
        else:
            drawn = "the card drawn" if n == 1 else f"the {n} cards drawn"
            who = f"{_name(player)} puts" if player else "Put"
            words = f"{who} {drawn} back on {getter.name}."
        said.append((words, getter.rules or step_rules))
    return said


def _cards(thing: OnTable, n: int) -> str:
    return f"a {thing.name} card" if n == 1 else f"{n} {thing.name} cards"


def _end_words(was: Pending) -> str:
    """The end taken back, with the win it gave: "Brown's win" is what a table would otherwise go on believing."""
    result: Mapping[str, Any] = was.result or {}
    winners = result.get("winners")
    if not isinstance(winners, Sequence) or isinstance(winners, str) or not winners:
        winner = result.get("winner")
        winners = [winner] if isinstance(winner, str) else []
    if len(winners) == 1:
        return f"The game's end is taken back, and {_name(winners[0])}'s win with it."
    if winners:
        names = [_name(w) for w in winners]
        return f"The game's end is taken back, and the win {', '.join(names[:-1])} and {names[-1]} shared with it."
    return "The game's end is taken back; play goes on."


def _whole(points: object) -> int:
    return points if isinstance(points, int) and not isinstance(points, bool) else 0


def _name(player: object) -> str:
    return str(player).capitalize()
