"""Targi (two players) bound to the Table Companion game contract."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from companion.errors import CompanionError, IllegalAction
from companion.game import (
    Action,
    Event,
    Game,
    GameData,
    OnTable,
    OptionSpec,
    Pending,
    Ruling,
    State,
    place_called,
    said_as,
    shapes,
)
from companion.games.targi import INFO, card_decisions, document
from companion.games.targi import cards as cardmod
from companion.games.targi import effects as fx
from companion.games.targi.card_words import LETTER, too_small
from companion.games.targi.cards import CARD_WORDS, CENTRE_WORDS, CORNERS, Catalog
from companion.games.targi.engine import KIND_NAMES, Engine
from companion.games.targi.recount import recount
from companion.games.targi.scoring import result, score_words
from companion.games.targi.state import slot_name


def sentence(text: str) -> str:
    """Every text the table reads opens with a capital.

    The engine already names players with ``phrasing.cap`` wherever they stand; this is the last guard
    for a text that opens with something else in lower case.
    """
    return text[:1].upper() + text[1:]


def said(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """The engine's events as the table reads them: each a sentence."""
    return state, [replace(event, text=sentence(event.text)) for event in events]


def _one(resource: str) -> str:
    """The word for one of a good or gold, as the engine's texts say it ("1 date", "1 salt"): an undo hands
    back the difference with it (``OnTable.one``)."""
    return cardmod.bundle_text({resource: 1}).removeprefix("1 ")

class Targi(Game):
    id = INFO.id
    score_rules = {"total": ("TG-S1", "TG-S3"), "tokens": ("TG-S1",), "cards": ("TG-S1",),
                   "card_bonuses": ("TG-S1", "TG-T5"), "rows": ("TG-S2", "TG-Q22")}
    held_points = ("tokens", "cards")  # VP tokens and the tribe cards' own VP; bonuses are counted at the end
    title = INFO.title
    min_players = INFO.min_players
    max_players = INFO.max_players
    colours = INFO.colours
    decks = ("goods", "tribe")
    # "The card to enter now comes from the goods deck, not the tribe deck."
    deck_names: ClassVar[Mapping[str, str]] = {"goods": "goods deck", "tribe": "tribe deck"}
    actions_rule = "TG-A1"  # the actions a player takes: one per own Targi and per own tribe marker
    turn_rule = "TG-TURN"
    action_shapes = shapes(draw="deck card", pay="pay", place="card", use="card | slot", done="", take="goods",
                           play="card pay row", hold="card", discard="card", move_marker="from to",
                           trade="give get", finish="", return_="goods")
    field_words: ClassVar[Mapping[str, str]] = {
        "place.card": "which border card", "use.card": "which border card", "slot": "which centre card",
        "from": "which centre card the tribe marker leaves", "to": "which centre card it moves to",
        "row": "which row of the display"}
    kind_names: ClassVar[Mapping[str, str]] = KIND_NAMES
    players_rule = "TG-1"  # two players, White and Black: a third, or one alone, is refused citing it
    # As the table's texts call them; Fata Morgana's move ("to") ends on a centre card, not on "spaces".
    place_kinds = {"card": "border cards", "slot": "centre cards", "to": "centre cards"}
    option_specs = (
        OptionSpec("placement.forbid", "opposite", ("opposite", "line"),
                   "Which border cards an opponent's Targi forbids: only the one directly opposite, or (as written) "
                   "every card in the same row or column.", "TG-Q5"),
        OptionSpec("raid.partialPayment", False, (False, True),
                   "A player who can pay neither raid option in full hands over the VP tokens they have, and the "
                   "opponent gains only the rest.", "TG-Q3"),
        OptionSpec("fataMorgana.allowFaceDown", False, (False, True),
                   "Fata Morgana may move a marker onto a face-down central card (turned up when used).", "TG-Q11"),
        OptionSpec("limits.applyAtGameEnd", True, (True, False),
                   "The 10 goods / 3 gold limits also apply at the end of the last round, before scoring.", "TG-Q18"),
        OptionSpec("end.finishOwnActions", True, (True, False),
                   "A player who plays their twelfth tribe card still finishes their own remaining actions.",
                   "TG-Q24"),
        OptionSpec("tribe.reshuffle", True, (True, False),
                   "When the tribe deck runs out, its discard pile becomes the new draw pile.", "TG-Q28"),
    )  # fmt: skip
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "standard": {},
        "as-written": {"placement.forbid": "line"},
    }
    data_schemas = cardmod.DATA_SCHEMAS
    sim_max_steps = 3000

    def __init__(self, data: GameData) -> None:
        super().__init__(data)
        self.cat = Catalog(data.files)
        self.engine = Engine(self.cat)

    @classmethod
    def cross_check(cls, files: Mapping[str, Any]) -> list[str]:
        return cardmod.cross_check(files)

    @classmethod
    def board_warnings(cls, files: Mapping[str, Any], sources: Mapping[str, str]) -> list[str]:
        return too_small(files, sources) + cardmod.copy_notes(files, sources)

    # -- the contract -------------------------------------------------------
    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> State:
        players = self.check_players(players)  # exactly two (min_players = max_players = 2), citing TG-1
        profile = "standard"
        for name, values in self.profiles.items():
            if all(options.get(k) == v for k, v in values.items()) and values:
                profile = name
        resolved = self.resolve_options(options, None)
        return self.engine.new_state((players[0], players[1]), profile, document.rules_from_options(resolved))

    def to_document(self, state: State) -> dict[str, Any]:
        return document.to_document(state)

    def from_document(self, doc: Mapping[str, Any]) -> State:
        return document.from_document(self.cat, doc, self.resolve_options, self.check_players)

    def pending(self, state: State) -> Pending:
        pending = self.engine.pending(state)
        return replace(pending, text=sentence(pending.text))

    def legal_actions(self, state: State) -> list[Action]:
        return self.engine.legal(state)

    def over_rule(self, state: State) -> str | None:
        return self.engine.over_refusal(state)[1]

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        return said(*self.engine.apply(state, action))

    def old_step(
        self, states: Sequence[State], log: Sequence[Action], action: Action
    ) -> tuple[State, list[Event]] | None:
        """Games journalled before TG-Q25 skipped the last round's reveal entered its face-down centre cards during
        the final raid, or after the raid had ended the game: taken as changing nothing, and said so."""
        if action.get("type") != "draw" or not self.engine.late_reveal(states[-1]):
            return None
        try:
            return said(*self.engine.apply(states[-1], action, old=True))
        except IllegalAction:
            return None

    # -- views -------------------------------------------------------------
    def score(self, state: State) -> dict[str, Any]:
        """The breakdown as if the game ended now, in the shape every scoring game answers (docs/protocol.md):
        ``scores`` per player and part, ``totals``, ``winners`` (who wins, ties broken by TG-S3, if it ended
        now) and ``provisional``. It was the per-player breakdown alone, while Through the Desert wrapped its
        own in ``scores``, so a front end read the two games' answers differently."""
        res = result(self.cat, state)
        return {"scores": res["breakdown"], "totals": res["scores"],
                "winners": list(state.players) if res["winner"] is None else [res["winner"]],
                "provisional": state.stage != "over"}

    def card_copies(self) -> Mapping[str, int]:
        """The goods and tribe cards laid in the centre (border cards are printed on the board's edge)."""
        return {card: count for deck in self.cat.full_deck.values() for card, count in deck if count > 0}

    def card_names(self) -> Mapping[str, str]:
        """"Date Basket" for G01, as the café's cards.json labels it."""
        return {card: (self.cat.goods.get(card) or self.cat.tribe[card]).label for card in self.card_copies()}

    def value_words(self, state: State, key: str, value: Any) -> str | None:
        """A field's value as Targi's texts write it: a centre card "centre 2-1", a border card "card 9 (Trader)",
        a drawn or held card "Salt Block (G02)", goods "2 dates and 1 pepper". A card keeps its id here alone of
        the screen's texts (``Catalog.catalogued``): Build's list sits beside the action's JSON, which names it."""
        if key in ("slot", "from", "to") and isinstance(value, list) and len(value) == 2 and all(
                type(v) is int for v in value):
            return f"centre {value[0]}-{value[1]}"
        if key == "card" and type(value) is int and value in self.cat.border:
            return f"card {value} ({self.cat.border[value].label})"
        if key == "card" and isinstance(value, str) and (value in self.cat.goods or value in self.cat.tribe):
            return self.cat.catalogued(value)
        if key in ("pay", "goods", "give", "get") and isinstance(value, Mapping) and value and all(
                k in LETTER and type(n) is int and n > 0 for k, n in value.items()):
            return cardmod.bundle_text(value)
        return None

    def field_numbers(self, state: State, key: str) -> Sequence[int] | None:
        """A tribe card is played into row 1, 2 or 3 of the display (TG-T4): Build offered 0 to 12."""
        return card_decisions.DISPLAY_ROWS if key == "row" else None

    def place_named(self, state: State, words: str) -> Hashable | None:
        """A border card by its name ("noble", "the Salt Pans", "card 5"); a central card as the table shows
        it ("centre 2-1", "2-1") or by the name of the card face up there.

        The table reads names, not numbers: "why noble" got the answer meant
        for a place no action could be moved to, even where Noble was open.
        """
        said = said_as(words).replace("center", "centre")
        centre = CENTRE_WORDS.fullmatch(said)
        if centre:
            return int(centre[1]), int(centre[2])
        numbered = CARD_WORDS.fullmatch(said)
        if numbered:
            return int(numbered[1])
        # Labels and ids as a café writes them, read as typed (``said_as``): "Salt  Pans" with two spaces, or a
        # tribe id "t41", could not be asked about; two copies of a goods card face up are named both.
        border = ((n, (card.label,), f"card {n} ({card.label})") for n, card in self.cat.border.items())
        shown = ((i, self.cat.goods.get(slot.card) or self.cat.tribe.get(slot.card)) for i, slot in
                 enumerate(state.centre) if slot.card)  # fmt: skip
        centre_cards = (((i // 3 + 1, i % 3 + 1), (card.label, card.id), f"centre {slot_name(i)} ({card.label})")
                        for i, card in shown if card)  # fmt: skip
        return place_called(words, (*border, *centre_cards), "name the card by its number or centre row-column",
                            self.board_rule(state))

    def closed_place(self, state: State, place: Hashable) -> Ruling | None:
        """While actions are carried out: the game's refusal to use the card asked about ("Black has no tribe
        marker on centre 3-2" [TG-A3], "no Targi on card 2" [TG-A2]), when nothing offered goes to its kind.

        A centre card asked about while only border cards could be used heard where play goes now and
        the border clauses, never that a centre card is used only under one's own tribe marker.
        """
        if state.stage != "actions" or state.tasks:  # a card turned up or a trade comes first (TG-A4)
            return None
        if isinstance(place, tuple):
            action: Action = {"type": "use", "slot": list(place)}
        elif isinstance(place, int):  # a raid corner says so (TG-P4), as the use of any card does
            action = {"type": "use", "card": place}
        else:
            return None
        try:
            ruling = self.check(state, action)
        except CompanionError:  # no card of the board (`explain_place` without `known_place`): no reason of its own
            return None
        return None if ruling.legal else ruling

    def board_rule(self, state: State) -> str | None:
        """TG-1: sixteen border cards in a numbered ring round a 3x3 centre."""
        return "TG-1"

    def unknown_place(self, state: State, place: Hashable) -> str | None:
        """Border cards go by number, centre cards by (row, column) from 1 to 3; anything else is named wrong."""
        if isinstance(place, int) and place in self.cat.border:
            return None
        if isinstance(place, tuple) and len(place) == 2 and all(v in (1, 2, 3) for v in place):
            return None
        first, last = min(self.cat.border), max(self.cat.border)
        names = " or ".join(self.cat.border[n].label for n in (first, first + 4) if n in self.cat.border)
        return (f"a border card is named by its number, {first} to {last}, or its name, such as {names}; "
                "a centre card as centre 1-1 to centre 3-3, or by the name of the card face up there")

    def on_table(self, state: State) -> dict[Hashable, OnTable]:
        """The robber (TG-R1), each Targi (TG-P1) and tribe marker (TG-M1), the central cards face up or down
        (TG-A3, TG-Q29), a tribe card taken and not yet decided on (TG-T1), each player's display (TG-T4), hand
        (TG-T2), goods and gold, and the discard piles:
        what an undo has the table put back by hand. VP tokens are points, said apart (``held_points``)."""
        border, out = self.cat.border, {}
        out[("robber",)] = OnTable("", "the robber", f"on card {state.robber} ({border[state.robber].label})",
                                   ("TG-R1",))
        for n, owner in state.targi:
            out[("targi", n, owner)] = OnTable(owner, "Targi", f"on card {n} ({border[n].label})", ("TG-P1",),
                                               alike=True)
        for i, owner in state.markers:
            out[("marker", i, owner)] = OnTable(owner, "tribe marker", f"on centre {slot_name(i)}", ("TG-M1",),
                                                alike=True, many="tribe markers")
        seen: Counter[str] = Counter()  # a card keeps its key wherever it goes: centre, display, hand, discard

        def card(card_id: str, at: str, rules: tuple[str, ...]) -> None:
            out[("card", card_id, seen[card_id])] = OnTable("", self._card_name(card_id), at, rules, dealt=True)
            seen[card_id] += 1

        for i, slot in enumerate(state.centre):
            if slot.face_down:
                out[("centre", i, "down")] = OnTable("", f"a face-down {slot.deck} card", f"on centre {slot_name(i)}",
                                                     ("TG-Q29",), dealt=True)
            elif slot.card:
                card(slot.card, f"face up on centre {slot_name(i)}", ("TG-A3",))
        for task in state.tasks:
            # A tribe card just taken or turned up, which its player holds until it is played, kept or discarded:
            # unlisted, undoing the decision had the card taken off the discard pile to nowhere.
            if task.kind == "tribe" and task.source != "noble" and state.actor:
                for held in task.cards:
                    card(held, f"by {state.actor.capitalize()}'s display, to be played, kept or discarded", ("TG-T1",))
        for p in state.players:
            supply, who = state.supply(p), p.capitalize()
            for r, row in enumerate(supply.rows):
                for held in row:
                    card(held, f"in {who}'s display, row {r + 1}", ("TG-T4",))
            for held in supply.hand:
                card(held, f"in {who}'s hand", ("TG-T2",))
            for resource in ("dates", "salt", "pepper", "gold"):
                out[(resource, p)] = OnTable(p, resource, supply.amount(resource), one=_one(resource))
        for deck in ("goods", "tribe"):
            for card_id, count in state.deck(deck).discard:
                for _ in range(count):
                    card(card_id, f"on the {deck} discard pile", ("TG-D1",))
        return out

    def _card_name(self, card: str) -> str:
        found = self.cat.goods.get(card) or self.cat.tribe.get(card)
        return found.label if found else card

    def describe(self, state: State) -> list[str]:
        cat = self.cat
        lines = [f"Targi - round {state.round}, robber on card {state.robber} ({cat.border[state.robber].label}), "
                 f"start player {state.start}, stage {state.stage}"]  # fmt: skip
        on = {n: p for n, p in state.targi}
        lines.append("Border: " + "  ".join(
            f"{n}:{cat.border[n].label}" + (f"[{on[n]}]" if n in on else "") + ("[robber]" if n == state.robber else "")
            for n in range(1, 17)))  # fmt: skip
        marks = {i: p for i, p in state.markers}
        for r in range(3):
            cells = []
            for c in range(3):
                i = r * 3 + c
                slot = state.centre[i]
                text = "(empty)" if slot.empty else f"(face-down {slot.deck})" if slot.face_down else cat.catalogued(
                    slot.card or "")
                cells.append(f"{slot_name(i)} {text}" + (f" <{marks[i]}>" if i in marks else ""))
            lines.append("Centre: " + " | ".join(cells))
        for p in state.players:
            sup = state.supply(p)
            dates = f"{sup.dates} date{'' if sup.dates == 1 else 's'}"  # "1 dates" read as a slip
            tokens = f"{sup.vp} VP token{'' if sup.vp == 1 else 's'}"
            lines.append(f"{p}: {dates}, {sup.salt} salt, {sup.pepper} pepper, {sup.gold} gold, "
                         f"{tokens}; hand: {', '.join(cat.catalogued(c) for c in sup.hand) or 'empty'}")
            for k, row in enumerate(sup.rows):
                lines.append(f"  row {k + 1}: " + (", ".join(f"{cat.tribe[c].label} ({cat.tribe[c].symbol})"
                                                              for c in row) or "-"))  # fmt: skip
            lines.append(f"  {'final score' if state.stage == 'over' else 'score so far'}: {score_words(cat, sup)}")
        # No "Next: ..." line: the terminal's prompt and the table screen's say what is pending right under the
        # board, and the text board said it a second time after every step.
        return lines

    def invariants(self, state: State) -> list[str]:
        problems: list[str] = []
        cat = self.cat
        for p in state.players:
            sup = state.supply(p)
            for name in ("dates", "salt", "pepper", "gold", "vp"):
                if sup.amount(name) < 0:
                    problems.append(f"{p} has {sup.amount(name)} {name}")
            if len(sup.hand) > fx.hand_size(cat, sup):
                problems.append(f"{p} holds {len(sup.hand)} cards")
            if any(len(r) > 4 for r in sup.rows):
                problems.append(f"{p} has a display row of more than 4 cards")
        if state.robber in CORNERS and state.stage not in ("raid", "over"):
            problems.append(f"robber on corner {state.robber} during {state.stage}")
        if state.round > 12:
            problems.append(f"round {state.round} is beyond the twelfth")
        if len({i for i, _ in state.markers}) != len(state.markers):
            problems.append("two markers share a central card")
        for name in ("goods", "tribe"):
            counted: Counter[str] = Counter()
            deck = state.deck(name)
            for pile in deck.piles:
                counted.update(dict(pile.cards))
                down = sum(1 for s in state.centre if s.face_down and s.deck == name and s.gen == pile.gen)
                if down != pile.down or pile.in_pile < 0:
                    problems.append(f"{name} pile {pile.gen}: face-down count {pile.down}, centre shows {down}")
            counted.update(dict(deck.discard))
            counted.update(s.card for s in state.centre if s.card and s.deck == name)
            if name == "tribe":
                for sup in state.supplies:
                    counted.update(sup.hand)
                    counted.update(sup.cards)
                for t in state.tasks:
                    if t.kind == "tribe" and t.source != "noble":
                        counted.update(t.cards)
            if dict(counted) != dict(cat.full_deck[name]):
                problems.append(f"{name} cards are not all accounted for exactly once")
        if state.stage == "over":
            res = result(cat, state)
            again = recount(self.to_document(state), self.data.files)
            if again != res["scores"]:
                problems.append(f"final score {res['scores']} differs from the recount {again}")
        return problems

    def sim_choose(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        """Random play that leans towards tribe cards, so displays fill and the twelfth-card end occurs too."""
        plays = [a for a in legal if a["type"] == "play"]
        if plays and rng.random() < 0.9:
            return rng.choice(plays)
        if legal[0]["type"] == "place" and rng.random() < 0.5:
            keen = [a for a in legal if self.cat.border[a["card"]].code in ("TRIBAL_EXPANSION", "NOBLE", "TRADER")]
            if keen:
                return rng.choice(keen)
        uses = [a for a in legal if a["type"] == "use"]
        if uses and rng.random() < 0.9:
            return rng.choice(uses)
        return rng.choice(legal)
