"""Targi's transitions: the round flow, the actions and every refusal with its clause.

``Engine`` is what ``Targi`` (rules.py) asks: a new position, what is pending, the actions allowed and
``apply``, which checks whose turn it is and hands the action on (``handlers``). The rules live in modules
named for what they hold: ``prompts``, ``offers``, ``placement``, ``card_use``, ``card_decisions``,
``exchanges``, ``raids``, ``limits``, ``rounds`` (with ``settle``, the steps nobody decides), ``decks``
and ``rule_queries``; ``action_fields`` reads an action's fields, ``phrasing`` names players and refusals.
Each takes the engine as its first argument and imports ``Engine`` only for type hints, so none imports
this module.
"""

from __future__ import annotations

from typing import Any

from companion.errors import InvalidAction, quoted
from companion.game import Pending, not_playing, unknown_type
from companion.games.targi.action_fields import Action, Events, goods_combos
from companion.games.targi.cards import LAYOUT, Catalog
from companion.games.targi.decks import late_reveal
from companion.games.targi.handlers import HANDLERS
from companion.games.targi.offers import legal
from companion.games.targi.phrasing import cap, refuse
from companion.games.targi.prompts import pending
from companion.games.targi.raids import raid_amounts
from companion.games.targi.rounds import settle
from companion.games.targi.state import Deck, Pile, Slot, State

KIND_NAMES = {"move_marker": "move tribe marker"}  # each kind of action as the table calls it (``Game.kind_names``)


class Engine:
    """Targi's rules bound to one catalogue of cards: what ``Targi`` asks of them."""

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat

    # ------------------------------------------------------------------ setup
    def new_state(self, players: tuple[str, str], profile: str, rules: Any) -> State:
        from companion.games.targi.state import Supply

        goods = Deck((Pile(0, self.cat.full_deck["goods"], down=LAYOUT.count("goods")),))
        tribe = Deck((Pile(0, self.cat.full_deck["tribe"], down=LAYOUT.count("tribe")),))
        centre = tuple(Slot(deck, None, 0) for deck in LAYOUT)
        return State(
            players=players, profile=profile, rules=rules, round=0, robber=1, start=players[0], stage="reveal",
            actor=None, queue=(), supplies=(Supply(), Supply()), targi=(), markers=(), centre=centre,
            goods=goods, tribe=tribe,
        )  # fmt: skip

    def turn_reason(self, s: State) -> str:
        """Why the player named is the one to decide, for "why is it not my turn?": the start player places
        first and alternates, and carries out every action before the other player acts (TG-P1, TG-A1)."""
        start = cap(s.start)
        if s.stage == "place":
            return f" Targi go down one at a time in turn, {start} (the start player this round) first."
        if s.stage == "actions" and s.actor == s.start:
            return f" {start} is the start player this round and carries out every action first."
        if s.stage == "actions":
            return f" {start}, the start player this round, has finished; now {cap(s.actor)} acts."
        return ""

    # ------------------------------------------------------------------ apply
    def apply(self, s: State, a: Action, old: bool = False) -> tuple[State, Events]:
        """``old``: a step read from a game journalled before TG-Q25's skipped reveal (``Targi.old_step``), where a
        face-down centre card entered after the last round is taken as the table's; at the table it is refused."""
        kind = a["type"]
        handler = HANDLERS.get(kind)
        if handler is None:
            raise unknown_type(kind, HANDLERS, names=KIND_NAMES)
        late = old and kind == "draw" and late_reveal(self, s)
        if s.stage == "over" and not late:
            raise refuse(*self.over_refusal(s))
        pend = pending(self, s)
        who = a.get("player")
        if who is not None and who not in s.players:  # also on a card the table turns up: nobody plays 'red'
            raise not_playing(who, s.players, "TG-TURN")
        if who is not None and pend.kind == "choose" and who != pend.player and not late:  # a card is the table's
            raise refuse(f"It is {cap(pend.player)}'s turn to decide, not {cap(who)}'s.{self.turn_reason(s)}",
                         "TG-TURN")
        if who is not None and pend.kind == "draw" and pend.player not in (None, who) and not late:
            # A card the table turns up for a player (the Caravan's goods card) is that player's: naming the other
            # was taken, journalled with the wrong name, as no other game takes a draw for the wrong player.
            raise refuse(f"The card to enter now is turned up for {cap(pend.player)}, not {cap(who)}.", "TG-TURN")
        if kind == "draw":
            deck, card = a.get("deck"), a.get("card")
            if deck not in ("goods", "tribe"):
                raise InvalidAction(f'"deck" must be "goods" or "tribe", not {quoted(deck)}')  # as Blackpool's says
            if not isinstance(card, str) or card not in self.cat.deck_cards[deck]:
                raise InvalidAction(f"{quoted(card)} is not a card of the {deck} deck")
            if pend.kind != "draw" and not late:
                raise refuse("No card is waiting to be turned up now.", "TG-DRAW")
        elif pend.kind == "draw":
            raise refuse(f"First turn up the {pend.deck} card and enter it.", "TG-DRAW")
        ev: Events = []
        s = handler(self, s, a, pend.player or "", ev)
        s = settle(self, s, ev)
        return s, ev

    def over_refusal(self, s: State) -> tuple[str, str]:
        """Why nothing may be done after the end, with the clause of the way this game ended.

        TG-S1 (the final count) was cited, which says how the score is made, not that play has stopped:
        a full display ends the game under TG-END2, the robber's lap under TG-END1.
        """
        if s.ender is not None:
            return (f"The game is over: {cap(s.ender)} laid their twelfth tribe card; no more actions.", "TG-END2")
        if s.robber == self.cat.last_raid:
            return "The game is over: the robber has completed its lap; no more actions.", "TG-END1"
        return "The game is over; no more actions.", "TG-END1"  # a position loaded as over, the robber elsewhere

    def pending(self, s: State) -> Pending:
        return pending(self, s)

    def legal(self, s: State) -> list[Action]:
        return legal(self, s)

    def late_reveal(self, s: State) -> bool:
        return late_reveal(self, s)

    def raid_amounts(self, s: State, p: str) -> tuple[str, int, int]:
        """What the raid at the robber's corner takes from ``p``: kind, amount, VP (``raids.raid_amounts``)."""
        return raid_amounts(self, s, p)


__all__ = ["Engine", "goods_combos"]
