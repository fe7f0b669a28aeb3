"""The desert lap race: pending steps, legal actions and their effects.

Validation happens here, before any change; the transitions themselves live
in flow.py. Every refusal names the clause of our rulebook it rests on.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from companion.errors import BadRequest, quoted
from companion.game import (
    Action,
    DieSpec,
    Event,
    Game,
    GameData,
    OnTable,
    Pending,
    malformed,
    normalize_action,
    not_playing,
    place_called,
    refuse,
    said_as,
    shapes,
    unknown_type,
)
from companion.games.desert import INFO, document
from companion.games.desert.board import (
    BLESSING,
    BOARD_SCHEMA,
    CARD_NAMES,
    CARDS_SCHEMA,
    CLOAK,
    COLLECTION_CARDS,
    COMPASS,
    DECKS,
    DUNE_SHIFT,
    FLASK,
    MYSTERY_CARDS,
    SNEAKERS,
    SUNSHIELD,
    THIEF,
    VORTEX,
    WHISPER,
    Board,
    cross_check,
    safe_name_notes,
)
from companion.games.desert.flow import MAX_LIVES, Flow, add, card_name, title
from companion.games.desert.options import OPTION_SPECS, PROFILES, Options
from companion.games.desert.standing import Standing, standing
from companion.games.desert.state import (
    CLOAK_STEP,
    DRAW,
    DUNE,
    END,
    OFFER,
    OVER,
    ROLL,
    ROLLOFF,
    SAVE,
    SHIELD,
    SNEAKERS_STEP,
    STEAL,
    VORTEX_STEP,
    Piece,
    State,
    Step,
)
from companion.phrases import series

D6 = DieSpec("d6", "six-sided die", tuple({"value": v} for v in range(1, 7)))
ROLL_STEPS = (ROLLOFF, ROLL, DUNE, SAVE)
# A held card may be spent "later on your turn" (DR-16, DR-Q23): the Flask is taken at every step where the
# mover is the one to answer, not only before the roll and at the end. A challenge offer declined, or a
# failed attempt, ends the turn at once without an end step, so these are the player's last chances.
FLASK_STEPS = (ROLL, END, OFFER, SNEAKERS_STEP, SHIELD, CLOAK_STEP)
CARD_RULE = {COMPASS: "DR-17", FLASK: "DR-18", SUNSHIELD: "DR-19", SNEAKERS: "DR-20", CLOAK: "DR-21"}
# Each Mystery card's own clause, cited with its draw as a Collection card's is: a Dune Shift drawn cited DR-9 and
# DR-22 alone until its roll came, and the table asking what the card does found no clause saying.
MYSTERY_RULE = {THIEF: "DR-23", WHISPER: "DR-24", DUNE_SHIFT: "DR-25", VORTEX: "DR-26", BLESSING: "DR-27"}



def _vortex_choice(space: Any) -> str:
    """A space on a Vortex choice: its name, number and kind in words ("secret_passage" was shown as spelt in
    the board file), the kind left out where the name says it already ("Secret Passage (37)")."""
    kind = space.type.replace("_", " ")
    return space.label if kind in space.name.lower() else f"{space.name} ({space.index}, {kind})"

def _lost_above_ten(extra: int) -> str:
    """The Lives a trade would carry past the cap of ten, counted in a sentence that agrees with its
    number: a player told "the 1 above 10 are lost" hears a slip, not a ruling."""
    return "the one above 10 is lost" if extra == 1 else f"the {extra} above 10 are lost"


class DesertRace(Game):
    id = INFO.id
    win_rules = ("DR-28", "DR-Q29")
    title = INFO.title
    min_players = INFO.min_players
    max_players = INFO.max_players
    first_by_roll = INFO.first_by_roll
    players_rule = "DR-Q36"
    actions_rule = "DR-3"  # the turn: roll, move, deal with the space
    turn_rule = "DR-3"
    action_shapes = shapes(roll="value", draw="deck card", use="card", decline="", attempt="", stop="",
                           steal="card", relocate="space", trade="with give get", end="")
    field_words: ClassVar[Mapping[str, str]] = {"value": "which number the die shows", "deck": "which pile"}
    offered_in_part = frozenset({"trade"})  # single transfers are offered, any agreed exchange is taken (DR-Q22)
    colours = INFO.colours
    dice = (D6,)
    decks = ("collection", "mystery")
    deck_names: ClassVar[Mapping[str, str]] = {"collection": "Collection pile", "mystery": "Mystery pile"}  # as
    # "The Collection pile is empty: ..." and "No Sand Thief card is left in the Mystery pile." say them
    option_specs = OPTION_SPECS
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = PROFILES
    data_schemas: ClassVar[Mapping[str, Any]] = {"board": BOARD_SCHEMA, "cards": CARDS_SCHEMA}
    sim_max_steps = 20000

    def __init__(self, data: GameData) -> None:
        super().__init__(data)
        self.board = Board(data["board"], data["cards"])
        self.flow = Flow(self.board)
        self._pending_memo: tuple[State, Pending] | None = None  # see `pending`

    @classmethod
    def cross_check(cls, files: Mapping[str, Any]) -> list[str]:
        return cross_check(files, cls.colours)

    @classmethod
    def board_warnings(cls, files: Mapping[str, Any], sources: Mapping[str, str]) -> list[str]:
        return safe_name_notes(files, sources)

    # -- setup and documents -------------------------------------------------------
    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> State:
        players = self.check_players(players)
        if not isinstance(options, Mapping):
            raise BadRequest("options must be an object")
        resolved = self.resolve_options(options)
        return State(
            players=tuple(players),
            options=Options.from_mapping(resolved),
            pieces=tuple(Piece() for _ in players),
            step=Step(ROLLOFF, mode="order", contenders=tuple(players)),
            collection=self.board.counts["collection"],
            collection_discard=(0,) * len(COLLECTION_CARDS),
            mystery=self.board.counts["mystery"],
            mystery_discard=(0,) * len(MYSTERY_CARDS),
        )

    def to_document(self, state: State) -> dict[str, Any]:
        return document.to_document(self.board, state)

    def from_document(self, doc: Mapping[str, Any]) -> State:
        return document.from_document(self, doc)

    def invariants(self, state: State) -> list[str]:
        return document.state_problems(self.board, state)

    # -- what happens next --------------------------------------------------------------
    def pending(self, state: State) -> Pending:
        """What the position asks for, kept for the last position asked about: `apply` and every check ask again for
        the position just shown, and a roll to move tries all six rolls to name those that scare the camel
        (``_scared_rolls``), most of a random game's time."""
        memo = self._pending_memo
        if memo is not None and memo[0] is state:
            return memo[1]
        pending = self._pending(state)
        self._pending_memo = (state, pending)
        return pending

    def _pending(self, state: State) -> Pending:
        step = state.step
        kind = step.kind
        if kind == OVER:
            result = {"winner": state.winner} if state.winner else {"winner": None, "reason": "round limit reached"}
            text = f"{title(state.winner)} wins." if state.winner else "The game ended at the round limit, no winner."
            return Pending("over", None, text, result=result)  # nobody is to act; the winner is in `result`
        if kind == ROLLOFF:
            who = step.contenders[len(step.rolls)]
            why = {"order": "highest goes first", "thief": "highest takes the card",
                   "vortex": f"highest chooses where {title(step.victim)} goes"}[step.mode]
            label = {"order": "Order roll-off", "thief": "Sand Thief roll-off", "vortex": "Desert Vortex roll-off"}
            return Pending("roll", who, f"{label[step.mode]}: {title(who)} rolls the die ({why}).", die="d6")
        mover = state.mover
        piece = state.piece(mover)
        space = self.board.spaces[piece.space]
        if kind == ROLL:
            if step.mode == "move":
                scared = self._scared_rolls(state)  # then 'roll to move': at 120% at 800x480 four lines were too many
                extra = self._roll_extras(state) + scared
                return Pending("roll", mover, f"{title(mover)}: roll {'' if scared else 'the die '}to move from "
                               f"{space.label}{extra}.", die="d6")
            challenge = space.challenge
            assert challenge is not None
            if challenge.limit is None:
                tries = "no attempt limit"
            elif piece.failures < challenge.limit:
                tries = f"attempt {piece.failures + 1} of {challenge.limit}"
            else:  # tried again after the free exit (DR-Q6): "attempt 4 of 3" read as a miscount
                tries = f"an extra attempt after {piece.failures} failed"
            shield = "; Sunshield Amulet redeemed, this attempt passes" if step.shield else ""
            extra = self._roll_extras(state)
            return Pending("roll", mover, f"{title(mover)}: roll for {space.label}, needing {challenge.wording} "
                           f"({tries}{shield}){extra}.", die="d6")
        if kind == OFFER:
            challenge = space.challenge
            assert challenge is not None
            return Pending("choose", mover, f"{title(mover)} is on {space.label}, needing {challenge.wording}: "
                           "attempt it now, or stop here and end the turn?")
        if kind == SNEAKERS_STEP:
            v = step.value
            if step.mode == "test":  # "to count for the challenge 6 instead?" read as a challenge numbered 6
                return Pending("choose", mover, f"{title(mover)} rolled {v} at {space.label}: redeem Sandstorm "
                               f"Sneakers so the challenge judges {2 * v} (and a pass moves {2 * v}) instead?")
            what = {"move": "move", "chain": "move", "dune": "shift"}[step.mode]
            return Pending("choose", mover, f"{title(mover)} rolled {v}: redeem Sandstorm Sneakers to "
                           f"{what} {2 * v} instead?")
        if kind == SHIELD:
            return Pending("choose", mover, f"{title(mover)} failed {space.label} with {step.value}: redeem the "
                           "Sunshield Amulet to pass anyway?")
        if kind == CLOAK_STEP:
            return Pending("choose", mover, f"{title(mover)} is Scared! on {space.label}: redeem the Mirage Cloak "
                           f"to ignore the penalty ({self._scare_cost(piece)})?")
        if kind == DRAW:
            name = "Collection" if step.mode == "collection" else "Mystery"
            return Pending("draw", mover, f"{title(mover)}: draw a {name} card and enter it.", deck=step.mode)
        if kind == DUNE:
            return Pending("roll", mover, f"Dune Shift: {title(mover)} rolls (even: forward, odd: back that many).",
                           die="d6")
        if kind == STEAL:
            return Pending("choose", step.actor, f"Sand Thief: {title(step.actor)} takes one of "
                           f"{title(step.victim)}'s Collection cards unseen; which card was taken?")
        if kind == SAVE:
            return Pending("roll", step.victim, f"{title(step.victim)} rolls to keep the Golden Compass from "
                           f"{title(step.actor)} (4-6 keeps it, 1-3 loses it).", die="d6")
        if kind == VORTEX_STEP:
            whom = "to move to" if step.actor == step.victim else f"{title(step.victim)} is moved to"
            return Pending("choose", step.actor, f"Desert Vortex: {title(step.actor)} chooses the space {whom}.")
        assert kind == END
        parts = []
        if step.trading:
            parts.append("agree trades")
        if piece.holds(FLASK):
            parts.append("redeem a Desert Flask")
        # A Flask drunk here leaves the step with nothing else on offer: then ending the turn is all there is.
        choices = f"{', '.join(parts)}, or end the turn" if parts else "end the turn"
        return Pending("choose", mover, f"{title(mover)} on {space.label}: {choices}.")

    def where_rules(self, state: State, action: Action) -> tuple[str, ...]:
        """A roll to move rests on DR-4, a roll at a challenge on DR-13 (at the Guardian's Test DR-15): the first
        roll's ruling led with the Sneakers' DR-20 whenever the mover held them, as though the roll were asked
        for by the card."""
        step = state.step
        if step.kind == ROLL and action.get("type") == "roll":
            if step.mode == "move":
                return ("DR-4",)
            return (self.board.spaces[state.piece(state.mover).space].challenge_rule,)
        return super().where_rules(state, action)

    def _scared_rolls(self, state: State) -> str:
        """The rolls whose move ends Scared! and what that costs, said before the roll (DR-12, DR-6, DR-Q18) to the
        player the prompt opens with (`_scared_told`): 'Purple: roll to move from Nomad Camp (13); a 3 lands on
        Scared!: lose 2 Lives and go back to Desert Dawn (0).' The roll buttons name where each roll goes, but the
        cost (up to 390 px of words) does not fit beside it on a button at 800x480 (208 px); the prompt's third
        line has room, and the voice says it too."""
        costs: dict[str, list[str]] = {}
        for value in range(1, 7):
            scared = self._scared_by(state, value, True, "move")
            if scared is not None:
                costs.setdefault(self._scared_told(scared), []).append(str(value))
        return "".join(f"; a {' or '.join(values)} lands on Scared!: {cost}" for cost, values in costs.items())

    def _scared_told(self, piece: Piece) -> str:
        """What Scared! costs, told to the mover the roll prompt opens with ('Purple: roll ...; a 3 lands on
        Scared!: lose 2 Lives and go back to Desert Dawn (0)'), in a sentence a first-time table follows and the
        voice says whole: 'a 3 is Scared!: loses the Cloak, or 2 Lives and goes back' was read as a riddle. The
        Cloak comes first as the way out (DR-Q18); with 2 Lives or fewer the price is the round (DR-6)."""
        cloak = "redeem the Cloak or " if piece.holds(CLOAK) else ""
        if piece.lives > 2:
            return f"{cloak}lose 2 Lives, back to start" if cloak else f"lose 2 Lives and go back to {self.board.start}"
        if cloak:
            return f"{cloak}sit out this round"
        last = "the last Life" if piece.lives == 1 else f"the last {piece.lives} Lives"
        return f"lose {last}{' and all cards' if piece.items else ''}: out this round"

    def _roll_extras(self, state: State) -> str:
        names = [card_name(a["card"]) for a in self._roll_step_uses(state) if a["type"] == "use"]
        if any(a["type"] == "attempt" for a in self._roll_step_uses(state)):
            names.append("another attempt at the challenge")
        return f" (or first: {', '.join(names)})" if names else ""

    def _no_sunshield(self, state: State) -> tuple[str, str]:
        """Why the Amulet is not taken now, in words, with its clause: the option's value ("(either)") was read
        out as it is spelt, and a second Amulet for an attempt already set aside was told the timing rule, though
        the player stood exactly where the timing allows one."""
        opts = state.options
        space = self.board.spaces[state.piece(state.mover).space]
        if state.step.kind == ROLL and state.step.mode == "attempt" and state.step.shield:
            return (f"{title(state.mover)} has already redeemed a Sunshield Amulet for this attempt at {space.label}: "
                    "it passes whatever the roll, and one Amulet sets aside one challenge.", "DR-19")
        facing = state.step.kind == OFFER or state.step.mode == "attempt"
        if facing and space.is_guardian and not opts.sunshield_on_guardian:
            return f"At this table a Sunshield Amulet does not work on {space.label}.", "DR-Q8"
        if state.step.kind == OFFER and opts.sunshield_timing in ("before", "either"):
            # Told "only before the attempt roll" while standing before it, the player heard a rule that
            # did not hold: the attempt is chosen first, and the Amulet is then offered with its roll.
            return (f"{title(state.mover)} has not chosen to attempt {space.label} yet: choose the attempt, and the "
                    "Sunshield Amulet is then redeemed before its roll.", "DR-Q8")
        when = {"before": "before the attempt roll", "after": "after a failed attempt roll"}.get(
            opts.sunshield_timing, "before the attempt roll or after a failed one")
        return f"A Sunshield Amulet is redeemed only for a challenge attempt, {when}.", "DR-Q8"

    def _no_sneakers(self, state: State) -> str:
        """Why the Sneakers are not taken at this step, in words: the roll they double is not known yet (they are
        asked about once it is), or this turn's move is made.

        Audit: before the roll the refusal read "Sandstorm Sneakers are redeemed once your roll is known, before
        you move." [DR-Q9], while the card says it may be redeemed at any time on the turn: it gave no reason and
        read as a rule the card breaks. The card's "any time, after the roll too" means a player never has to
        commit before seeing the die; taken before it, the card could only double a roll not yet seen, so the
        companion asks once the die shows (DR-Q9) and waiting loses nothing. After the move, "before you move"
        was said to a player who had moved.
        """
        mover = title(state.mover)
        step = state.step
        space = self.board.spaces[state.piece(state.mover).space]
        if step.kind == ROLL and step.mode == "move":
            return (f"{mover} has not rolled yet: Sandstorm Sneakers double the roll, so {mover} is asked once the "
                    "die shows it. The card may be redeemed after the roll, so waiting loses nothing.")
        if step.kind in (ROLL, OFFER):
            if state.options.sneakers_affect_challenge_test:
                return (f"{mover} has not rolled for {space.label} yet: once the die shows the roll, {mover} is "
                        "asked whether to double it, before the challenge judges it.")
            return (f"{mover} has not rolled for {space.label} yet. The challenge judges the face shown; Sandstorm "
                    f"Sneakers double how far the move goes if it passes, and {mover} is asked then.")
        if step.kind == DUNE:  # sneakers_affect_dune_shift: the Shift's roll is doubled
            return (f"{mover} has not rolled the Dune Shift yet: once the die shows it, {mover} is asked whether to "
                    "double it.")
        return (f"{mover} has made this turn's move. Sandstorm Sneakers double a roll before its move, and are "
                f"offered at {mover}'s next roll.")

    def _roll_step_uses(self, state: State) -> list[Action]:
        """Non-roll choices offered while the turn's roll is awaited."""
        opts = state.options
        mover = state.mover
        piece = state.piece(mover)
        out: list[Action] = self._flask_offer(piece)
        space = self.board.spaces[piece.space]
        if (state.step.mode == "attempt" and not state.step.shield and piece.holds(SUNSHIELD)
                and opts.sunshield_timing in ("before", "either") and (opts.sunshield_on_guardian
                                                                       or not space.is_guardian)):
            out.append({"type": "use", "card": SUNSHIELD, "text": f"Redeem Sunshield Amulet: pass {space.label} "
                        "with the coming roll"})
        if state.step.mode == "move" and opts.free_exit_optional and self.flow.free_exit(state, mover):
            out.append({"type": "attempt", "text": f"Try {space.label} again instead of moving on"})
        return out

    def _among(self, deck: str, alike: int) -> str:
        """How many cards like the one drawn its pile holds, naming the pile: "(4 in the pile)" on a Mystery draw
        left a first-time table asking which pile, and 4 of what (this card, or all the cards)."""
        pile = self.deck_names[deck]
        return f"the last one in the {pile}" if alike == 1 else f"one of {alike} in the {pile}"

    def legal_actions(self, state: State) -> list[Action]:
        step = state.step
        kind = step.kind
        if kind == OVER:
            return []
        if kind in ROLL_STEPS:
            return [{"type": "roll", "value": v, "text": self._roll_text(state, v)} for v in range(1, 7)] + (
                self._roll_step_uses(state) if kind == ROLL else [])
        if kind == DRAW:
            pile = state.collection if step.mode == "collection" else state.mystery
            return [{"type": "draw", "deck": step.mode, "card": c,
                     "text": f"Drew {card_name(c)} ({self._among(step.mode, n)})"}
                    for c, n in zip(DECKS[step.mode], pile, strict=True) if n]
        mover = state.mover
        piece = state.piece(mover)
        if kind in (OFFER, SNEAKERS_STEP, SHIELD, CLOAK_STEP):
            return self._prompt_actions(state) + self._flask_offer(piece)
        if kind == STEAL:
            return [{"type": "steal", "card": c, "text": f"{title(step.actor)} took the {card_name(c)}"}
                    for c in sorted(set(state.piece(step.victim).items))]
        if kind == VORTEX_STEP:
            return [{"type": "relocate", "space": s.id,
                     "text": f"Send {title(step.victim)} to {_vortex_choice(s)}{self._vortex_effect(state, s)}"}
                    for s in self.board.spaces if self._vortex_allowed(state, s.index)]
        assert kind == END
        out: list[Action] = [{"type": "end", "text": "End the turn"}, *self._flask_offer(piece)]
        if step.trading:
            out.extend(self._trade_offers(state))
        return out

    def _prompt_actions(self, state: State) -> list[Action]:
        """The answers to the mover's own prompts: a challenge offer and the three card questions."""
        step = state.step
        kind = step.kind
        if kind == OFFER:
            name = self.board.label(state.piece(state.mover).space)
            return [{"type": "attempt", "text": f"Attempt {name} now"},
                    {"type": "stop", "text": "Stop here; the turn ends (no attempt counted)"}]
        if kind == SNEAKERS_STEP:
            v = step.value
            what = {"move": "move", "chain": "move", "test": "the roll counts as", "dune": "shift"}[step.mode]
            return [{"type": "use", "card": SNEAKERS, "text": f"Redeem Sandstorm Sneakers: {what} {2 * v}"
                     f"{self._sneakers_end(state, 2 * v, SNEAKERS)}"},
                    {"type": "decline", "text": f"Keep the Sneakers: {what} {v}{self._sneakers_end(state, v)}"}]
        if kind == SHIELD:
            dest = (state.piece(state.mover).space + step.value) % self.board.size
            return [{"type": "use", "card": SUNSHIELD, "text": f"Redeem Sunshield Amulet: pass and move {step.value} "
                     f"to {self._to(state, step.value, dest, 'chain')}"
                     f"{self._move_cost(state, step.value, True, 'chain', SUNSHIELD)}"},
                    {"type": "decline", "text": "Keep the Amulet: the attempt fails"}]
        assert kind == CLOAK_STEP
        piece = state.piece(state.mover)
        # "Keep the Cloak" at 2 Lives or fewer promised a card the knockout then discarded with the rest (DR-6).
        keep = "Keep the Cloak" if piece.lives > 2 else "Decline"
        return [{"type": "use", "card": CLOAK, "text": "Redeem Mirage Cloak: ignore Scared!"},
                {"type": "decline", "text": f"{keep}: {self._scare_cost(piece)}"}]

    def _sneakers_end(self, state: State, value: int, card: str = "") -> str:
        """Where a Sneakers answer leaves the mover, as the roll buttons say it (" to Twin Dunes (11)"): "Keep the
        Sneakers: move 2" did not say the move ended on a Scared! space. With the doubled roll judging the
        challenge (DR-Q9's option) the answer says whether it passes, and where it then goes. Ending on a Scared!
        space, it says what that costs (`_move_cost`); ``card`` is the Sneakers when the answer redeems them."""
        step = state.step
        pos = state.piece(state.mover).space
        if step.mode == "test":
            challenge = self.flow.challenge_here(state, state.mover)
            assert challenge is not None
            if not challenge.passes(value):
                return ", fails"
            return (f", passes, to {self._to(state, value, (pos + value) % self.board.size, 'chain')}"
                    f"{self._move_cost(state, value, True, 'chain', card)}")
        forward = step.mode != "dune" or step.value % 2 == 0  # a Dune Shift's face says which way (DR-25)
        dest = (pos + value if forward else pos - value) % self.board.size
        way = "" if step.mode != "dune" else " forward" if forward else " back"
        via = {"move": "move", "chain": "chain", "dune": "dune"}[step.mode]
        cost = self._move_cost(state, value, forward, via, card)
        return f"{way} to {self._to(state, value, dest, via, forward)}{cost}"

    def _move_cost(self, state: State, value: int, forward: bool, via: str, card: str = "") -> str:
        """What a card answer's move costs the mover when it ends on a Scared! space, in the Vortex's words
        (`_scared_cost`): 'Keep the Sneakers: move 1 to Sandstorm Wall (16)' named the space and not that the
        mover then loses 2 Lives and runs back (DR-12), or is out with the last of them (DR-6), unless a Cloak is
        spent (DR-Q18). The move is played on a copy with ``card`` (the card the answer redeems) already spent, so
        a Dune Shift whose space is not resolved (DR-Q12) or a move that wins on the way costs nothing, and a
        knockout's 'cards and all' counts only the cards still held."""
        scared = self._scared_by(state, value, forward, via, card)
        return "" if scared is None else self._scared_cost(state.mover, scared)

    def _scared_by(self, state: State, value: int, forward: bool, via: str, card: str = "") -> Piece | None:
        """The mover's piece as it stands before a Scared! space it ends on costs it anything, or None when the move
        ends elsewhere (or the space costs nothing: `_move_cost`)."""
        mover = state.mover
        spent = self.flow.spend(state, mover, card) if card else state
        events: list[Event] = []
        moved = self.flow.move(spent, mover, value, forward, via, events)
        if moved.step.kind != CLOAK_STEP and not any("DR-12" in e.rules for e in events):
            return None
        return spent.piece(mover)

    def _vortex_effect(self, state: State, space: Any) -> str:
        """What a Vortex choice does to the piece sent, only where it hurts or ends the game: 'Send Pink to
        Scorpion Nest (7, scared)' named the kind of space and not that Pink then loses 2 Lives and runs back to
        Desert Dawn (DR-12, the space is resolved: DR-26, DR-Q13), or is out for the round with 2 Lives or fewer
        (DR-6, DR-Q20), cards and all; a Cloak in hand may still set it aside (DR-21, DR-Q18). A piece with the lap
        and the Compass sent onto an open Secret Passage wins (DR-28)."""
        victim = state.step.victim
        who = title(victim)
        if space.index == self.board.passage:
            placed = state.with_piece(victim, space=space.index, failures=0)
            return f": {who} wins" if self.flow.land(placed, victim, "vortex", []).winner == victim else ""
        if space.type != "scared":
            return ""
        return self._scared_cost(victim, state.piece(victim))

    def _scared_cost(self, player: str, piece: Piece) -> str:
        """What a Scared! space costs ``piece`` when a choice puts it there, said after the choice's space: the
        Vortex's choices and the Sneakers and Sunshield answers use these words (DR-12, DR-6, DR-Q18)."""
        who = title(player)
        # Short enough for three lines of a button at 800x480 and upright: a Cloak in hand is the one card asked
        # about first (DR-Q18), so it is named as the other thing the piece may lose.
        if piece.lives > 2:
            cost = "loses the Cloak, or 2 Lives and goes back" if piece.holds(CLOAK) else (
                f"loses 2 Lives, back to {self.board.start}")
        elif piece.holds(CLOAK):
            cost = "loses the Cloak, or is out this round"
        else:
            last = "the last Life" if piece.lives == 1 else f"the last {piece.lives} Lives"
            cost = f"loses {last}: out{', cards and all' if piece.items else ' this round'}"
        return f": {who} {cost}"

    def _scare_cost(self, piece: Piece) -> str:
        """What Scared! costs this piece if the Cloak stays in hand: with 2 Lives or fewer it is the last of them,
        the round, and every Collection card, the Cloak itself too (DR-6), not just "lose 2 Lives"."""
        if piece.lives > 2:
            return f"lose 2 Lives and go back to {self.board.start}"
        last = "the last Life" if piece.lives == 1 else f"the last {piece.lives} Lives"
        return f"lose {last}, sit out the round and discard every card, the Cloak too"

    @staticmethod
    def _flask_offer(piece: Piece) -> list[Action]:
        """The Flask's button says what the Lives become, in the announcement's words: "(+2 Lives, now 5)" was
        read as "5 after", the table could not tell whether it had 3 or 5 before the tap (DR-18, DR-5)."""
        if not piece.holds(FLASK):
            return []
        after = min(MAX_LIVES, piece.lives + 2)
        gain = (f"from {piece.lives} to {after} Lives" + (f" ({MAX_LIVES} at most)" if after < piece.lives + 2 else "")
                if after > piece.lives else f"Lives stay at {MAX_LIVES}, the most")  # fmt: skip
        return [{"type": "use", "card": FLASK, "text": f"Redeem Desert Flask: {gain}"}]

    def _to(self, state: State, value: int, dest: int, via: str, forward: bool = True) -> str:
        """Where a roll moves the mover, and ", wins" when that move wins (DR-28): a runner with the lap and the
        Compass saw "4: to Secret Passage (37)" on the button that ended the game, like any other space. The move
        is made on a copy, so passing the Passage under ``passage_entry: land_or_pass`` is seen too."""
        moved = self.flow.move(state, state.mover, value, forward, via, [])
        if moved.winner == state.mover:
            return f"{self.board.passage_label}, wins"
        return self.board.label(dest)

    def _roll_text(self, state: State, value: int) -> str:
        step = state.step
        kind = step.kind
        if kind == ROLL and step.mode == "move":
            dest = (state.piece(state.mover).space + value) % self.board.size
            return f"{value}: to {self._to(state, value, dest, 'move')}"
        if kind == ROLL:
            challenge = self.flow.challenge_here(state, state.mover)
            assert challenge is not None
            dest = (state.piece(state.mover).space + value) % self.board.size
            if step.shield or challenge.passes(value):
                return f"{value}: pass, to {self._to(state, value, dest, 'chain')}"
            piece = state.piece(state.mover)
            if (state.options.sneakers_affect_challenge_test and piece.holds(SNEAKERS)
                    and challenge.passes(2 * value)):
                # Here the Sneakers are asked before the roll is judged (DR-Q9's option): "3: fail" was wrong
                # for a roll the doubled 6 then passed.
                return f"{value}: fail; {2 * value} with Sneakers passes"
            return f"{value}: fail"
        if kind == DUNE:
            pos = state.piece(state.mover).space
            dest = (pos + value if value % 2 == 0 else pos - value) % self.board.size
            way = "forward" if value % 2 == 0 else "back"
            return f"{value}: {way} to {self._to(state, value, dest, 'dune', value % 2 == 0)}"
        if kind == SAVE:
            return f"Rolled {value}: {'keeps' if value >= 4 else 'loses'} the Compass"
        return f"Rolled {value}"

    def _trade_offers(self, state: State) -> list[Action]:
        """Single transfers; any combined exchange may be entered by hand as one action."""
        mover = state.mover
        me = state.piece(mover)
        out: list[Action] = []
        for other, piece in zip(state.players, state.pieces, strict=True):
            if other == mover or piece.out or (state.options.trade_partners == "one" and state.partners
                                               and other not in state.partners):
                continue
            who = title(other)
            for card in sorted(set(me.items)):
                out.append({"type": "trade", "with": other, "give": {"items": [card]},
                            "text": f"Trade with {who}: give your {card_name(card)}"})
            for card in sorted(set(piece.items)):
                out.append({"type": "trade", "with": other, "get": {"items": [card]},
                            "text": f"Trade with {who}: receive their {card_name(card)}"})
            # A Life handed to a player at the cap of ten is lost (DR-5, DR-Q22): the choice says so, as the
            # trade's warning did only once it was agreed ("Pink would hold 11 Lives; the one above 10 is lost.").
            if me.lives > 1:
                lost = f" (lost: {who} already holds {MAX_LIVES})" if piece.lives >= MAX_LIVES else ""
                out.append({"type": "trade", "with": other, "give": {"lives": 1},
                            "text": f"Trade with {who}: give 1 Life{lost}"})
            if piece.lives > 1:
                lost = f" (lost: you already hold {MAX_LIVES})" if me.lives >= MAX_LIVES else ""
                out.append({"type": "trade", "with": other, "get": {"lives": 1},
                            "text": f"Trade with {who}: receive 1 Life{lost}"})
        return out

    def _vortex_allowed(self, state: State, index: int) -> bool:
        return index != self.board.passage or state.options.vortex_allow_passage

    # -- applying actions ---------------------------------------------------------------
    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        action = normalize_action(action, self.turn_rule)
        kind = action["type"]
        handler = getattr(self, f"_do_{kind}", None)
        if handler is None:
            raise unknown_type(kind, self.action_shapes)
        if state.step.kind == OVER:
            raise refuse(*self._over_refusal(state))
        pending = self.pending(state)
        if "player" in action:
            who = action["player"]
            if who not in state.players:
                raise not_playing(who, state.players, self.turn_rule)
            if who != pending.player:
                raise refuse(f"It is not {title(who)}'s move: {pending.text}", "DR-3")
        events: list[Event] = []
        new = handler(state, action, events)
        return new, events

    def over_rule(self, state: State) -> str | None:
        return self._over_refusal(state)[1]

    @staticmethod
    def _over_refusal(state: State) -> tuple[str, str]:
        """Why nothing may be done after the end, with the clause of the way this game ended.

        DR-28 (the win through the Secret Passage) was cited after a game stopped at the round limit,
        which nobody won: the table asking why looked up a win that never happened. The limit is DR-Q35.
        """
        if state.winner:
            return (f"The game is over: {title(state.winner)} entered the Secret Passage with the Golden "
                    "Compass after a full lap and won; no more actions.", "DR-28")
        limit = state.options.max_rounds
        rounds = f" ({limit})" if limit is not None else ""
        return (f"The game is over: the round limit{rounds} was reached with no winner; no more actions.",
                "DR-Q35")

    def _not_now(self, state: State, what: str, rule: str = "DR-3") -> Exception:
        return refuse(f"{what} is not possible now. {self.pending(state).text}", rule)

    def _do_roll(self, state: State, action: Action, events: list[Event]) -> State:
        value = action.get("value")
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            # In the table's words, as Blackpool's oracle: a die read off its faces heard the action's spelling.
            raise malformed(f"the six-sided die shows 1 to 6, not {quoted(value)}", "DR-Q28")
        step = state.step
        if step.kind not in ROLL_STEPS:
            raise self._not_now(state, "A roll")
        flow = self.flow
        if step.kind == ROLLOFF:
            return self._rolloff(state, value, events)
        if step.kind == ROLL:
            if step.mode == "move":
                return flow.movement_roll(state, value, events)
            return flow.attempt_roll(state, value, events)
        if step.kind == DUNE:
            if state.options.sneakers_affect_dune_shift and state.piece(state.mover).holds(SNEAKERS):
                return self.flow.ask_sneakers(state, "dune", value, events)
            return self._dune_move(state, value, value, events)
        assert step.kind == SAVE
        if value >= 4:
            events.append(Event("reward", f"{title(step.victim)} rolls {value} and keeps the Golden Compass.",
                                ("DR-23",), (step.victim, step.actor)))
            return flow.after(state, events)
        events.append(Event("info", f"{title(step.victim)} rolls {value}: the Compass is lost.", ("DR-23",),
                            (step.victim,)))
        return flow.hand_over(state, step.actor, COMPASS, events)

    def _dune_move(self, state: State, face: int, distance: int, events: list[Event]) -> State:
        forward = face % 2 == 0
        events.append(Event("info", f"Dune Shift: {title(state.mover)} rolled {face} ({'even' if forward else 'odd'})"
                            f" and shifts {'forward' if forward else 'back'} {distance}.", ("DR-25",),
                            (state.mover,)))
        return self.flow.move(state, state.mover, distance, forward, "dune", events)

    def _rolloff(self, state: State, value: int, events: list[Event]) -> State:
        step = state.step
        who = step.contenders[len(step.rolls)]
        rolls = (*step.rolls, value)
        rule = {"order": "DR-3", "thief": "DR-23", "vortex": "DR-26"}[step.mode]
        events.append(Event("info", f"{title(who)} rolls {value}.", (rule,), (who,)))
        if len(rolls) < len(step.contenders):
            return replace(state, step=replace(step, rolls=rolls))
        top = max(rolls)
        tied = tuple(p for p, r in zip(step.contenders, rolls, strict=True) if r == top)
        if len(tied) > 1:
            # Each roll-off's re-roll rests on its own decision: DR-Q24 settles ties for the first player
            # only; a Sand Thief tie re-rolls under DR-Q14 and a Desert Vortex tie under DR-Q13.
            decision = {"order": "DR-Q24", "thief": "DR-Q14", "vortex": "DR-Q13"}[step.mode]
            events.append(Event("info", f"{series([title(p) for p in tied])} tie with {top} and roll again.",
                                (rule, decision), tied))
            return replace(state, step=replace(step, contenders=tied, rolls=()))
        winner = tied[0]
        if step.mode == "order":
            i = state.index(winner)
            events.append(Event("info", f"{title(winner)} goes first; play passes in seat order.", ("DR-3", "DR-Q24"),
                                (winner,)))
            return self.flow.begin_turn(replace(state, first=i, round=1), i)
        if step.mode == "thief":
            return self.flow.thief_found(state, winner, events)
        return self.flow.vortex_chooser(state, winner, events)

    def _do_draw(self, state: State, action: Action, events: list[Event]) -> State:
        deck, card = action.get("deck"), action.get("card")
        if not isinstance(deck, str) or deck not in DECKS:
            raise malformed(f"unknown deck {quoted(deck)}; decks: collection, mystery")
        if not isinstance(card, str) or card not in DECKS[deck]:
            raise malformed(f"{quoted(card)} is not a {deck} card; cards: {', '.join(DECKS[deck])}")
        step = state.step
        if step.kind != DRAW:
            raise self._not_now(state, "A draw", "DR-8" if deck == "collection" else "DR-9")
        if deck != step.mode:
            raise refuse(f"The draw now is from the {step.mode} deck, not the {deck} deck.",
                         "DR-8" if step.mode == "collection" else "DR-9")
        mover = state.mover
        i = DECKS[deck].index(card)
        if deck == "collection":
            if not state.collection[i]:
                raise refuse(f"No {card_name(card)} card is left in the Collection pile.", "DR-Q16")
            state = replace(state, collection=add(state.collection, i, -1))
            state = state.with_piece(mover, items=state.piece(mover).adding(card))
            # A card's name, never "a" before it: the table heard "draws a Sandstorm Sneakers".
            events.append(Event("reward", f"{title(mover)} draws {card_name(card)} and keeps the card.",
                                ("DR-8", "DR-16", CARD_RULE[card]), (mover,)))
            return self.flow.after(state, events)
        if not state.mystery[i]:
            raise refuse(f"No {card_name(card)} card is left in the Mystery pile.", "DR-Q16")
        state = replace(state, mystery=add(state.mystery, i, -1), mystery_discard=add(state.mystery_discard, i, 1))
        events.append(Event("info", f"{title(mover)} draws {card_name(card)}.", ("DR-9", "DR-22", MYSTERY_RULE[card]),
                            (mover,)))
        return self.flow.mystery(state, card, events)

    def _do_use(self, state: State, action: Action, events: list[Event]) -> State:
        card = action.get("card")
        if card not in COLLECTION_CARDS:
            raise malformed(f"{quoted(card)} is not a Collection card; cards: {', '.join(COLLECTION_CARDS)}")
        rule = CARD_RULE[card]
        if card == COMPASS:
            raise refuse("The Golden Compass is never redeemed: it is held to win.", "DR-Q17")
        step = state.step
        mover = state.mover if state.current >= 0 else None
        if mover is None or step.kind in (ROLLOFF, STEAL, SAVE, VORTEX_STEP):
            # "redeemed only by the player whose turn it is" was said to that very player while their own Sand
            # Thief or Vortex was settled: say what is being settled instead.
            if mover is None:
                text = ("No card is redeemed during the order roll-off: cards are redeemed on the owner's own turn, "
                        "and play has not begun.")
            else:
                mystery = "Desert Vortex" if VORTEX_STEP in (step.kind, step.mode) else "Sand Thief"
                text = (f"No card is redeemed while {title(mover)}'s {mystery} is settled: it takes effect at once, "
                        "and the turn goes on after it.")
            raise refuse(text, "DR-Q23")
        if not state.piece(mover).holds(card):
            raise refuse(f"{title(mover)} holds no {card_name(card)}.", rule)
        flow = self.flow
        if card == FLASK:
            if step.kind not in FLASK_STEPS:
                raise refuse("A Desert Flask is redeemed on your own turn when you have the choice, not while a "
                             "card or roll is being entered.", "DR-Q23")
            state = flow.spend(state, mover, FLASK)
            return flow.gain(state, mover, 2, "Desert Flask", ("DR-18",), events)
        if card == SUNSHIELD:
            if step.kind == SHIELD:
                state = flow.spend(state, mover, SUNSHIELD)
                events.append(Event("reward", f"{title(mover)} redeems the Sunshield Amulet: the attempt passes.",
                                    ("DR-19", "DR-Q8"), (mover,)))
                return flow.passed(state, step.value, step.mode != "doubled", events)
            offered = any(a["type"] == "use" and a["card"] == SUNSHIELD for a in self._roll_step_uses(state)) \
                if step.kind == ROLL else False
            if not offered:
                raise refuse(*self._no_sunshield(state))
            state = flow.spend(state, mover, SUNSHIELD)
            events.append(Event("reward", f"{title(mover)} redeems the Sunshield Amulet: the coming attempt passes.",
                                ("DR-19", "DR-Q8"), (mover,)))
            return replace(state, step=replace(step, shield=True))
        if card == SNEAKERS:
            if step.kind == DUNE and not state.options.sneakers_affect_dune_shift:
                # Told "once your roll is known", a player rolled the Shift and was never asked (DR-Q9).
                raise refuse("Sandstorm Sneakers double a movement roll, never a Dune Shift.", "DR-Q9")
            if step.kind == SHIELD and step.mode == "doubled":
                # The Sneakers were asked about as this roll came in (the judged value, DR-Q9's option): told they
                # are "redeemed once your roll is known, before you move", the player stood exactly there.
                raise refuse("The Sandstorm Sneakers question for this roll was answered when it was rolled; one "
                             "roll is doubled once, before it is judged.", "DR-Q9")
            if step.kind == SHIELD and not state.options.sneakers_affect_challenge_test:
                # "once your roll is known, before you move" was said with the roll known and no move made.
                raise refuse("Sandstorm Sneakers double how far a move goes, never the roll a challenge judges; if "
                             "the Sunshield Amulet passes this attempt, they are offered for its move.", "DR-Q9")
            if step.kind != SNEAKERS_STEP:
                raise refuse(self._no_sneakers(state), "DR-Q9")
            state = flow.spend(state, mover, SNEAKERS)
            v = step.value
            events.append(Event("reward", f"{title(mover)} redeems Sandstorm Sneakers: {v} counts as {2 * v}.",
                                ("DR-20", "DR-Q9"), (mover,)))
            return self._after_sneakers(state, v, 2 * v, events)
        assert card == CLOAK
        if step.kind != CLOAK_STEP:
            raise refuse("A Mirage Cloak is redeemed when you land on a Scared! space.", "DR-Q18")
        state = flow.spend(state, mover, CLOAK)
        events.append(Event("reward", f"{title(mover)} redeems the Mirage Cloak: Scared! has no effect.",
                            ("DR-21", "DR-Q18"), (mover,)))
        return flow.after(state, events)

    def _after_sneakers(self, state: State, face: int, value: int, events: list[Event]) -> State:
        """Carry on with the roll the Sneakers question interrupted.

        The step's mode says what kind of move the roll was for ("move" a normal roll, "chain" the move
        after a passed challenge), so the move keeps its own clause in the announcement.
        """
        mode = state.step.mode
        if mode in ("move", "chain"):
            return self.flow.move(state, state.mover, value, True, mode, events)
        if mode == "test":
            return self.flow.judge(state, value, False, events)  # asked once per roll: not again for its move
        return self._dune_move(state, face, value, events)

    def _do_decline(self, state: State, action: Action, events: list[Event]) -> State:
        step = state.step
        if step.kind == SNEAKERS_STEP:
            return self._after_sneakers(state, step.value, step.value, events)
        if step.kind == SHIELD:
            return self.flow.failed(state, step.value, events)
        if step.kind == CLOAK_STEP:
            return self.flow.scare(state, state.mover, events)
        raise self._not_now(state, "Declining a card")

    def _do_attempt(self, state: State, action: Action, events: list[Event]) -> State:
        step = state.step
        if step.kind == OFFER:
            # The attempt at the Guardian's Test rests on its own clause (DR-15), not on DR-13's challenges.
            space = self.board.spaces[state.piece(state.mover).space]
            where = space.label
            events.append(Event("info", f"{title(state.mover)} attempts {where}.", (space.challenge_rule, "DR-Q4"),
                                (state.mover,)))
            return replace(state, step=Step(ROLL, mode="attempt"))
        if step.kind == ROLL and any(a["type"] == "attempt" for a in self._roll_step_uses(state)):
            events.append(Event("info", f"{title(state.mover)} tries the challenge again.", ("DR-Q6",),
                                (state.mover,)))
            return replace(state, step=Step(ROLL, mode="attempt"))
        if step.kind == ROLL and step.mode == "move" and self.flow.free_exit(state, state.mover):
            raise refuse("After three failed attempts the next roll is a normal move.", "DR-Q6")
        if step.kind == ROLL and step.mode == "attempt":
            # "An attempt is not possible now", followed by the prompt to roll for the attempt, contradicted itself.
            space = self.board.spaces[state.piece(state.mover).space]
            raise refuse(f"{title(state.mover)} is already attempting {space.label}: the roll now is the attempt.",
                         space.challenge_rule)
        raise self._not_now(state, "An attempt", "DR-13")

    def _do_stop(self, state: State, action: Action, events: list[Event]) -> State:
        if state.step.kind == ROLL and state.step.mode == "attempt":
            # On a later turn the roll is the attempt: only the attempt on landing may be declined (DR-Q4).
            where = self.board.label(state.piece(state.mover).space)
            raise refuse(f"Only the attempt on landing may be declined; {title(state.mover)} now rolls for {where}.",
                         "DR-Q4")
        if state.step.kind != OFFER:
            raise self._not_now(state, "Stopping at a challenge", "DR-Q4")
        events.append(Event("info", f"{title(state.mover)} stops at {self.board.label(state.piece(state.mover).space)}"
                            " without an attempt; the turn ends.", ("DR-Q4",), (state.mover,)))
        return self.flow.advance(state, events)

    def _do_steal(self, state: State, action: Action, events: list[Event]) -> State:
        card = action.get("card")
        if card not in COLLECTION_CARDS:
            raise malformed(f"{quoted(card)} is not a Collection card; cards: {', '.join(COLLECTION_CARDS)}")
        step = state.step
        if step.kind != STEAL:
            raise self._not_now(state, "Taking a card", "DR-23")
        if not state.piece(step.victim).holds(card):
            raise refuse(f"{title(step.victim)} holds no {card_name(card)} to take.", "DR-23")
        return self.flow.steal(state, step.actor, card, events)

    def _do_relocate(self, state: State, action: Action, events: list[Event]) -> State:
        space_id = action.get("space")
        if not isinstance(space_id, str) or space_id not in self.board.by_id:
            raise malformed(f"unknown space {quoted(space_id)}")
        step = state.step
        if step.kind != VORTEX_STEP:
            raise self._not_now(state, "Relocating a piece", "DR-26")
        index = self.board.by_id[space_id]
        if not self._vortex_allowed(state, index):
            raise refuse(f"The Desert Vortex may not send a piece onto {self.board.passage_label}.", "DR-Q13")
        if step.actor == step.victim:  # the drawer chose for themself (DR-Q13): one name, not "Black sends Black"
            text, who = f"{title(step.actor)} chooses to go to {self.board.label(index)}.", (step.victim,)
        else:
            text, who = f"{title(step.actor)} sends {title(step.victim)} to {self.board.label(index)}.", (
                step.victim, step.actor)
        events.append(Event("move", text, ("DR-26", "DR-Q13", *self.flow.landing_rules(state, index, "vortex")), who))
        state = state.with_piece(step.victim, space=index, failures=0)
        return self.flow.land(state, step.victim, "vortex", events)

    def _do_end(self, state: State, action: Action, events: list[Event]) -> State:
        if state.step.kind != END:
            raise self._not_now(state, "Ending the turn")
        events.append(Event("info", f"{title(state.mover)} ends the turn.", ("DR-3",), (state.mover,)))
        return self.flow.advance(state, events)

    def _bundle(self, raw: object, label: str) -> tuple[tuple[str, ...], int]:
        if raw is None:
            return (), 0
        # Said in words, each key and card id in quotes as what to type: '{"give": {"items": null}}' was
        # "'give.items' must list Collection cards: golden_compass, desert_flask, ...".
        done = "given" if label == "give" else "received"
        if not isinstance(raw, Mapping) or set(raw) - {"items", "lives"}:
            odd = sorted(map(str, set(raw) - {"items", "lives"})) if isinstance(raw, Mapping) else []
            given = f", not {quoted(odd[0])}" if odd else f", not {quoted(raw)}" if not isinstance(raw, Mapping) else ""
            raise malformed(f"trade: say what is {done} as Collection cards ('items') and Lives ('lives'){given}")
        items = raw.get("items", [])
        lives = raw.get("lives", 0)
        if not isinstance(items, list) or any(c not in COLLECTION_CARDS for c in items):
            wrong = items if not isinstance(items, list) else next(c for c in items if c not in COLLECTION_CARDS)
            cards = series([f"{card_name(c)} ({quoted(c)})" for c in COLLECTION_CARDS], "or")
            given = f", not {quoted(wrong)}" if wrong is not None else ""
            raise malformed(f"trade: say which Collection cards are {done}: {cards}{given}")
        if isinstance(lives, bool) or not isinstance(lives, int) or lives < 0:
            given = f", not {quoted(lives)}" if lives is not None else ""
            raise malformed(f"trade: say how many Lives are {done} (0 or more){given}")
        return tuple(items), lives

    def _do_trade(self, state: State, action: Action, events: list[Event]) -> State:
        partner = action.get("with")
        if partner not in state.players:
            raise malformed(f"a trade names its partner in 'with', one of {', '.join(state.players)}")
        give, give_lives = self._bundle(action.get("give"), "give")
        get, get_lives = self._bundle(action.get("get"), "get")
        if not (give or get or give_lives or get_lives):
            # Well formed, but a trade is a swap of items and/or Lives (DR-11): one of nothing is no trade.
            raise refuse("A trade must exchange at least one card or Life.", "DR-11")
        step = state.step
        if step.kind != END or not step.trading:
            # With trade_any_time the refusal named only the green space, which this table does not need.
            when = ("At this table trades are agreed at the end of a turn, once its move is dealt with."
                    if state.options.trade_any_time
                    else "Trades are agreed only at the end of a turn that stops on a green Trading space.")
            raise refuse(when, "DR-Q22")
        mover = state.mover
        if partner == mover:
            raise refuse("A player cannot trade with themself.", "DR-11")
        other = state.piece(partner)
        if other.out:
            raise refuse(f"{title(partner)} is out for the rest of this round and cannot trade.", "DR-6")
        if state.options.trade_partners == "one" and state.partners and partner not in state.partners:
            raise refuse(f"This trading window is with {title(state.partners[0])} only.", "DR-Q22")
        me = state.piece(mover)
        for who, piece, cards in ((mover, me, give), (partner, other, get)):
            for card in set(cards):
                if piece.items.count(card) < cards.count(card):
                    # "does not hold 1 Sandstorm Sneakers card" read as a count gone wrong: say what is held.
                    n, has = cards.count(card), piece.items.count(card)
                    held = (f"holds no {card_name(card)} to trade" if not has
                            else f"holds {has} {card_name(card)}, not the {n} in this trade")
                    raise refuse(f"{title(who)} {held}.", "DR-11")
        mine = me.lives - give_lives + get_lives
        theirs = other.lives - get_lives + give_lives
        for who, lives, had, handed in ((mover, mine, me.lives, give_lives), (partner, theirs, other.lives, get_lives)):
            # Lives handed over must be held: 'gives 2 Lives and receives 2' from 1 Life was agreed, as only the
            # totals after the trade were checked, and Lives nobody holds changed hands (DR-11).
            if lives < 1 or handed > had:
                # "would be left with -2 Lives" counted Lives nobody can hold: say what is held instead.
                left = (f"would be left with {lives} Lives" if lives == 0
                        else f"holds {had} {'Life' if had == 1 else 'Lives'}, fewer than this trade takes")
                raise refuse(f"{title(who)} {left}; no trade may take a player below 1 Life.", "DR-11")
        items_me = list(me.items)
        for card in give:
            items_me.remove(card)
        items_other = list(other.items)
        for card in get:
            items_other.remove(card)
        state = state.with_piece(mover, items=tuple(sorted(items_me + list(get))), lives=min(10, mine))
        state = state.with_piece(partner, items=tuple(sorted(items_other + list(give))), lives=min(10, theirs))
        state = replace(state, partners=tuple(dict.fromkeys((*state.partners, partner))))

        def describe(cards: tuple[str, ...], lives: int) -> str:
            parts = [card_name(c) for c in cards] + ([f"{lives} Life" if lives == 1 else f"{lives} Lives"]
                                                     if lives else [])
            return ", ".join(parts) or "nothing"

        events.append(Event("info", f"Trade agreed: {title(mover)} gives {describe(give, give_lives)} and receives "
                            f"{describe(get, get_lives)} from {title(partner)}.", ("DR-11", "DR-Q22"),
                            (mover, partner)))
        for who, lives in ((mover, mine), (partner, theirs)):
            if lives > 10:
                events.append(Event("warning", f"{title(who)} would hold {lives} Lives; "
                                    f"{_lost_above_ten(lives - 10)}.", ("DR-5", "DR-Q22"), (who,)))
        return state

    # -- views and random play ------------------------------------------------------------
    def card_copies(self) -> Mapping[str, int]:
        """The Collection and Mystery decks' cards, as the café's cards.json counts them."""
        ids = (*COLLECTION_CARDS, *MYSTERY_CARDS)
        counts = (*self.board.counts["collection"], *self.board.counts["mystery"])
        return {card: count for card, count in zip(ids, counts, strict=True) if count > 0}

    def card_names(self) -> Mapping[str, str]:
        """"Golden Compass" for golden_compass, "Camel's Blessing" for camels_blessing."""
        return {card: card_name(card) for card in self.card_copies()}

    def field_values(self, state: State, key: str) -> Sequence[Any]:
        """A card is one of the race's ten: before any was drawn, Build's card list was empty, and "Pink
        plays a Mirage Cloak it does not hold" could not be put together."""
        return tuple(CARD_NAMES) if key == "card" else ()

    def value_words(self, state: State, key: str, value: Any) -> str | None:
        """A field's value as the race's texts write it: a card "Mirage Cloak", what a trade hands over "1 Life"
        or "Mirage Cloak" ("Trade with Pink: give 1 Life")."""
        if key == "card" and isinstance(value, str) and value in CARD_NAMES:
            return card_name(value)
        if key in ("give", "get") and isinstance(value, Mapping) and value and set(value) <= {"lives", "items"}:
            lives, items = value.get("lives", 0), value.get("items", [])
            if type(lives) is not int or lives < 0 or not isinstance(items, list) or not all(
                    isinstance(i, str) and i in CARD_NAMES for i in items):
                return None
            parts = [f"{lives} {'Life' if lives == 1 else 'Lives'}"] if lives else []
            return ", ".join([*parts, *map(card_name, items)]) or None
        return None

    def place_named(self, state: State, words: str) -> Hashable | None:
        """A space as the board view shows it: its number ("12") or its name ("Cool Cave"), or its id typed
        with spaces ("cool cave"); the view never shows the ids the actions carry. Names and ids are read
        case, spacing and underscores aside on both sides (``said_as``): a café's "Palm_Spring" or "The  Oasis"
        could not be asked about, and words naming two spaces are refused naming both."""
        said = said_as(words)
        if said.isdecimal() and len(said) < 4:
            return self.board.spaces[int(said)].id if int(said) < self.board.size else None
        spaces = ((space.id, (space.name, space.id), space.label) for space in self.board.spaces)
        return place_called(words, spaces, "name one by its number on the board view", self.board_rule(state))

    def place_words(self, state: State, place: Hashable) -> str | None:
        """A space by the name the board prints: the walk said "space merchants_stall" for Merchant's Stall."""
        if isinstance(place, str) and place in self.board.by_id:
            return self.board.spaces[self.board.by_id[place]].label
        return None

    def board_rule(self, state: State) -> str | None:
        """DR-Q1: the board is the loop of spaces of the board file, each with its id and name."""
        return "DR-Q1"

    def unknown_place(self, state: State, place: Hashable) -> str | None:
        if isinstance(place, str) and place in self.board.by_id:
            return None
        first, last = self.board.spaces[0], self.board.spaces[-1]
        return (f"a space is named by its number on the board view, 0 to {self.board.size - 1}, by its name, "
                f"such as {first.name} or {last.name}, or by its id, such as {first.id}")

    def on_table(self, state: State) -> dict[Hashable, OnTable]:
        """Each pawn's space (DR-4), Lives (DR-5) and Collection cards held (DR-16): what an undo has the table
        put back by hand ("Put Red's pawn back on Twin Dunes (11).", "Set Red's Lives back to 5.")."""
        out: dict[Hashable, OnTable] = {}
        for player, piece in zip(state.players, state.pieces, strict=True):
            out[("pawn", player)] = OnTable(player, "pawn", f"on {self.board.label(piece.space)}", ("DR-4",))
        for player, piece in zip(state.players, state.pieces, strict=True):
            out[("lives", player)] = OnTable(player, "Lives", piece.lives, ("DR-5",), passed="Life")
            for card in sorted(set(piece.items)):
                held = piece.items.count(card)
                out[("card", player, card)] = OnTable(player, card_name(card), held, ("DR-16",), dealt=True, cards=True)
        return out

    def standing(self, state: State, player: str) -> Standing:
        """Where ``player`` stands in the race, as the text view and the board's row both say it."""
        piece = state.piece(player)
        return standing(self.board, piece.space, piece.lap, piece.holds(COMPASS), state.winner == player)

    def describe(self, state: State) -> list[str]:
        turn = title(state.mover) if state.current >= 0 else "(order roll-off)"
        if state.step.kind == OVER:  # "turn: Black" under a finished game read as Black still to play
            turn = f"{title(state.winner)} has won" if state.winner else "over, no winner (round limit)"
        lines = [f"Round {state.round or '-'}; {'' if state.step.kind == OVER else 'turn: '}{turn}"]
        # As wide as the longest name stood on: a café's long space name pushed its row's columns out of line.
        width = max([20] + [len(self.board.spaces[piece.space].name) for piece in state.pieces])
        for player, piece in zip(state.players, state.pieces, strict=True):
            space = self.board.spaces[piece.space]
            flags = [self.standing(state, player).text]
            if piece.out:
                flags.append("OUT this round")
            if piece.skip:
                flags.append(f"misses {piece.skip} turn{'' if piece.skip == 1 else 's'}")
            if space.challenge is not None and piece.failures:
                flags.append(f"{piece.failures} failed attempt{'' if piece.failures == 1 else 's'} here")
            items = ", ".join(card_name(c) for c in piece.items) or "no items"
            extra = f" [{'; '.join(flags)}]" if flags else ""
            where = f"{piece.space:>2} {space.name:<{width}}"
            lives = f"{piece.lives:>2} {'Life ' if piece.lives == 1 else 'Lives'}"  # the column stays lined up
            lines.append(f"  {title(player):<7} {where} {lives}  {items}{extra}")
        lines.append("  Collection pile: " + ", ".join(f"{card_name(c)} {n}" for c, n in
                                                       zip(COLLECTION_CARDS, state.collection, strict=True)))
        lines.append("  Mystery pile: " + ", ".join(f"{card_name(c)} {n}" for c, n in
                                                    zip(MYSTERY_CARDS, state.mystery, strict=True)))
        return lines

    def sim_choose(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        """Random play that ends its trading windows and does not trade forever."""
        if state.step.kind == END and rng.random() < 0.6:
            return legal[0]
        return rng.choice(legal)


__all__ = ["DesertRace"]
