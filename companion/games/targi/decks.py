"""The goods and tribe decks: draws, the discard piles and their reshuffle (TG-D1, TG-Q28), and the face-down
centre cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.game import Event
from companion.games.targi.action_fields import Events
from companion.games.targi.state import Deck, Pile, Slot, State, evolve, ms_add, ms_remove, ms_size, slot_name

if TYPE_CHECKING:
    from companion.games.targi.engine import Engine


def first_face_down(s: State) -> int:
    for i, slot in enumerate(s.centre):
        if slot.face_down:
            return i
    raise AssertionError("no face-down card")


def reshuffle(s: State, name: str, ev: Events) -> State:
    """Make the discard pile the new draw pile when the pile is physically empty."""
    deck = s.deck(name)
    if deck.current.in_pile > 0 or not deck.discard:
        return s
    if name == "tribe" and not s.rules.tribe_reshuffle:
        return s
    keep = tuple(p for p in deck.piles if ms_size(p.cards) > 0)
    gen = max(p.gen for p in deck.piles) + 1
    s = s.with_deck(name, Deck((*keep, Pile(gen, deck.discard, 0)), ()))
    ev.append(Event("info", f"The {name} deck is empty: its discard pile becomes the new draw pile.",
                    ("TG-D1", "TG-Q28")))  # fmt: skip
    return s


def deck_out(s: State, name: str) -> str:
    """Why a deck gives no card: both it and its discard ran out, or (tribe.reshuffle off, TG-Q28) its discard
    is not reused; "its discard is empty" was said of a tribe discard pile holding cards."""
    if s.deck(name).discard:
        return f"The {name} deck is empty and its discard pile is not reused (option tribe.reshuffle is off)"
    return f"The {name} deck and its discard are empty"


def take_face_down(eng: Engine, s: State, name: str, index: int, ev: Events) -> State:
    """Lay a card of deck ``name`` face down on a central slot (or leave it empty)."""
    s = reshuffle(s, name, ev)
    deck = s.deck(name)
    if deck.current.in_pile <= 0:
        ev.append(Event("warning", f"{deck_out(s, name)}: no card to lay on centre {slot_name(index)}, so "
                        "it stays empty.", ("TG-D1", "TG-Q28")))  # fmt: skip
        return s.with_slot(index, Slot())
    cur = deck.current
    s = s.with_deck(name, evolve(deck, piles=(*deck.piles[:-1], evolve(cur, down=cur.down + 1))))
    return s.with_slot(index, Slot(name, None, cur.gen))


def late_reveal(eng: Engine, s: State) -> bool:
    """Whether a face-down centre card may still be entered after the last round, though none is asked for.

    Nothing uses it then (TG-Q25), but the table may turn the cards up as TG-E1 has it, and a game journalled
    before the companion stopped asking entered them before the final raid: its steps must still replay to
    the same end, for the results, an export and a resumed game.
    """
    return (s.ender is None and s.robber == eng.cat.last_raid and s.stage in ("raid", "over")
            and any(slot.face_down for slot in s.centre))  # fmt: skip


def candidates(eng: Engine, s: State) -> tuple[str, tuple[tuple[str, int], ...]]:
    """The deck the table draws from now, and the cards that could come."""
    if s.stage == "reveal" or late_reveal(eng, s):
        slot = s.centre[first_face_down(s)]
        pile = s.deck(slot.deck or "goods").pile(slot.gen)
        return slot.deck or "goods", pile.cards if pile else ()
    task = s.tasks[0]
    deck = s.deck(task.deck or "goods")
    if task.why == "use":
        pile = deck.pile(s.centre[task.slot or 0].gen)
        return task.deck or "goods", pile.cards if pile else ()
    return task.deck or "goods", deck.current.cards


def remove_drawn(s: State, name: str, gen: int, card: str, face_down: bool) -> State:
    deck = s.deck(name)
    piles = []
    for p in deck.piles:
        if p.gen == gen:
            p = Pile(p.gen, ms_remove(p.cards, card), p.down - (1 if face_down else 0))
            if ms_size(p.cards) == 0 and gen != deck.current.gen:
                continue  # an older generation whose last face-down card is now known
        piles.append(p)
    return s.with_deck(name, Deck(tuple(piles), deck.discard))


def discard(s: State, name: str, card: str) -> State:
    deck = s.deck(name)
    return s.with_deck(name, evolve(deck, discard=ms_add(deck.discard, card)))
