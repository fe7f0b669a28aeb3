"""How a desert race moves from one step to the next.

Each function takes a state and the list of events being gathered, and
returns the next state, already waiting for the next input. Actions in
rules.py validate first and then call into here, so nothing here refuses.
"""

from __future__ import annotations

from dataclasses import replace

from companion.game import Event
from companion.games.desert.board import (
    BLESSING,
    CARD_NAMES,
    CLOAK,
    COLLECTION_CARDS,
    COMPASS,
    DUNE_SHIFT,
    FLASK,
    MYSTERY_CARDS,
    SNEAKERS,
    SUNSHIELD,
    THIEF,
    VORTEX,
    WHISPER,
    Board,
    Challenge,
    Space,
)
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
    State,
    Step,
)
from companion.phrases import series

MAX_LIVES = 10
DEFAULT_ATTEMPTS = 3  # the tries a challenge allows by the rules (DR-14)
RESTART_LIVES = 3


def title(player: str) -> str:
    return player[:1].upper() + player[1:]


def card_name(card: str) -> str:
    return CARD_NAMES.get(card, card)


def add(pile: tuple[int, ...], i: int, n: int) -> tuple[int, ...]:
    return (*pile[:i], pile[i] + n, *pile[i + 1 :])


def spaces_word(n: int) -> str:
    return "1 space" if n == 1 else f"{n} spaces"


# The clause of a space whose landing has no line of its own: a Life, Trading, Scared! or challenge space (and
# the Secret Passage) says what it does in the next line with its clause, but a red or blue space only asks
# for the draw and a safe space does nothing, so the line that puts the piece there cites it.
QUIET_SPACE_RULES: dict[str, tuple[str, ...]] = {
    "collection": ("DR-8",), "mystery": ("DR-9",), "safe": ("DR-7",), "start": ("DR-7", "DR-Q32"),
}


class Flow:
    """The transitions; holds the board so the state need not."""

    def __init__(self, board: Board) -> None:
        self.board = board

    # -- small helpers ---------------------------------------------------------
    def challenge_here(self, state: State, player: str) -> Challenge | None:
        return self.board.spaces[state.piece(player).space].challenge

    def own_limit(self, space: Space) -> tuple[str, ...]:
        """DR-Q3 where a challenge's attempt limit is the board's own, not the three tries of DR-14.

        A café's two-try challenge said "failed attempt 2 of 2 ... Next turn Black rolls as normal and moves
        on" citing DR-14 and DR-Q5 only, both of which say three tries: the referee looking the ruling up
        read a limit the ruling did not keep. The limit comes from the board data (DR-Q3)."""
        limit = space.challenge.limit if space.challenge is not None else None
        return ("DR-Q3",) if limit is not None and limit != DEFAULT_ATTEMPTS else ()

    def free_exit(self, state: State, player: str) -> bool:
        challenge = self.challenge_here(state, player)
        return challenge is not None and challenge.limit is not None and state.piece(player).failures >= challenge.limit

    def roll_mode(self, state: State, player: str) -> str:
        if self.challenge_here(state, player) is not None and not self.free_exit(state, player):
            return "attempt"
        return "move"

    def return_card(self, state: State, card: str) -> State:
        """A redeemed or discarded Collection card goes back (DR-Q16)."""
        i = COLLECTION_CARDS.index(card)
        if state.options.collection_return_to == "bottom":
            return replace(state, collection=add(state.collection, i, 1))
        return replace(state, collection_discard=add(state.collection_discard, i, 1))

    def spend(self, state: State, player: str, card: str) -> State:
        state = state.with_piece(player, items=state.piece(player).without(card))
        return self.return_card(state, card)

    def gain(
        self, state: State, player: str, amount: int, why: str, rules: tuple[str, ...], events: list[Event]
    ) -> State:
        before = state.piece(player).lives
        after = min(MAX_LIVES, before + amount)
        lost = before + amount - after
        note = f" (capped at {MAX_LIVES}; {lost} ignored)" if lost else ""
        # Already at the cap: "goes from 10 to 10 Lives" named a change that is none, heard as a misread number.
        change = f"stays at {after}" if after == before else f"goes from {before} to {after}"
        # A gain cut at 10 cites DR-Q27, the decision that caps Life spaces, the Blessing and the Flask alike: an
        # Orange space or a Blessing at 10 cited only its own clause and DR-5, the Flask DR-Q27 even uncapped.
        capped = ("DR-5", "DR-Q27") if lost else ("DR-5",)
        events.append(Event("reward", f"{why}: {title(player)} {change} Lives{note}.", (*rules, *capped), (player,)))
        return state.with_piece(player, lives=after)

    # -- turns and rounds -------------------------------------------------------
    def begin_turn(self, state: State, i: int) -> State:
        player = state.players[i]
        state = replace(state, current=i, tried=0, partners=())
        return replace(state, step=Step(ROLL, mode=self.roll_mode(state, player)))

    def advance(self, state: State, events: list[Event]) -> State:
        """End the mover's turn and find who plays next, handling rounds, knockouts and missed turns."""
        n = len(state.players)
        i = state.current
        for _ in range(n * 200):
            i = (i + 1) % n
            if i == state.first:
                state = self.new_round(state, events)
                if state.step.kind == OVER:
                    return state
            player = state.players[i]
            piece = state.pieces[i]
            if piece.out:
                events.append(Event("info", f"{title(player)} is out for the rest of this round.", ("DR-6",),
                                    (player,)))
                continue
            if piece.skip:
                state = state.with_piece(player, skip=piece.skip - 1)
                events.append(Event("info", f"{title(player)} misses this turn (Desert Whisper).",
                                    ("DR-24", "DR-Q26"), (player,)))
                continue
            return self.begin_turn(state, i)
        raise RuntimeError("no player can take a turn")  # pragma: no cover - skips always run down

    def new_round(self, state: State, events: list[Event]) -> State:
        number = state.round + 1
        limit = state.options.max_rounds
        if limit is not None and number > limit:
            events.append(Event("warning", f"The round limit ({limit}) is reached: the game ends with no winner.",
                                ("DR-Q35",), state.players))
            return replace(state, step=Step(OVER), winner=None)
        state = replace(state, round=number)
        for player, piece in zip(state.players, state.pieces, strict=True):
            if piece.out:
                state = state.with_piece(player, out=False, lives=RESTART_LIVES, space=0, items=(), failures=0)
                # A runner knocked out by the round's last turn heard "Back next round with 3 Lives." and at once
                # "Round 12: Brown is back ... with 3 Lives ...": the knockout's promise is kept by the next line.
                back = f" Back next round with {RESTART_LIVES} Lives."
                if events and events[-1].players == (player,) and events[-1].text.endswith(back):
                    events[-1] = replace(events[-1], text=events[-1].text.removesuffix(back))
                events.append(Event("info", f"Round {number}: {title(player)} is back at {self.board.start} with "
                                    f"{RESTART_LIVES} Lives and no items.", ("DR-6", "DR-Q20"), (player,)))
        return state

    def after(self, state: State, events: list[Event], trading: bool = False) -> State:
        """The space is resolved: offer the end-of-turn step if there is a choice, else pass the turn."""
        player = state.mover
        trading = trading or state.options.trade_any_time
        partners = any(not p.out for q, p in zip(state.players, state.pieces, strict=True) if q != player)
        if state.piece(player).holds(FLASK) or (trading and partners):
            return replace(state, step=Step(END, trading=trading))
        return self.advance(state, events)

    # -- movement --------------------------------------------------------------
    def landing_rules(self, state: State, index: int, via: str) -> tuple[str, ...]:
        """The clause of the space a piece is put on, for the line that puts it there (``QUIET_SPACE_RULES``).

        Without it a Vortex placement on a red space cited only DR-26 and DR-Q13, while one on a Life
        space went on to cite DR-10. A Dune Shift whose space is not resolved cites DR-Q12 in its own line.
        """
        if via == "dune" and not state.options.dune_shift_resolve:
            return ()
        kind = self.board.spaces[index].type
        # A chain that reaches a card space draws there and stops (DR-Q34): the line cited the draw's clause only,
        # and a table asking why no further attempt came found nothing on the chain in it.
        chain_ends = ("DR-Q34",) if via == "chain" and kind in ("collection", "mystery") else ()
        return (*QUIET_SPACE_RULES.get(kind, ()), *chain_ends)

    def move(self, state: State, player: str, distance: int, forward: bool, via: str, events: list[Event]) -> State:
        """Walk the piece space by space so laps and passing the Secret Passage are seen (DR-Q10, DR-Q2)."""
        opts = state.options
        piece = state.piece(player)
        pos, lap, size = piece.space, piece.lap, self.board.size
        notes: list[Event] = []
        rules = {"move": ("DR-4",), "chain": ("DR-13",), "dune": ("DR-25",)}.get(via, ("DR-4",))
        for step in range(1, distance + 1):
            if forward:
                pos = (pos + 1) % size
                if pos == 0 and not lap and (step < distance or opts.lap_count_landing_on_start):
                    lap = True
                    notes.append(self.lap_done(player, piece.holds(COMPASS), step == distance, opts.passage_entry))
                elif pos == 0 and not lap and step == distance:  # lap_count_landing_on_start is off
                    notes.append(Event("info", f"{title(player)} stops on {self.board.start} without passing it: at "
                                       "this table the lap is not complete until a move goes past it.", ("DR-Q10",),
                                       (player,)))
                if (step < distance and pos == self.board.passage and opts.passage_entry == "land_or_pass"
                        and lap and piece.holds(COMPASS)):
                    state = state.with_piece(player, space=pos, lap=lap, failures=0)
                    events.append(Event("move", f"{title(player)} moves into {self.board.passage_label}.",
                                        (*rules, "DR-Q2"), (player,)))
                    events.extend(notes)
                    return self.win(state, player, events)
            else:
                pos = (pos - 1) % size
                if pos == size - 1 and lap and opts.lap_backward_undo:
                    lap = False
                    notes.append(Event("warning", f"{title(player)} goes back over {self.board.start}: the lap no "
                                       "longer counts.", ("DR-Q10",), (player,)))
        state = state.with_piece(player, space=pos, lap=lap, failures=0)
        way = "forward" if forward else "back"
        events.append(Event("move", f"{title(player)} moves {spaces_word(distance)} {way} to "
                            f"{self.board.label(pos)}.", (*rules, *self.landing_rules(state, pos, via)), (player,)))
        events.extend(notes)
        return self.land(state, player, via, events)

    def lap_done(self, player: str, compass: bool, landed: bool, entry: str) -> Event:
        """The lap completed, and what still wins: at a lap race "the lap is complete" alone read as the end.
        ``entry`` is the ``passage_entry`` option: passing over the Passage enters it too with ``land_or_pass``."""
        move = "a move ending on or passing" if entry == "land_or_pass" else "a move ending on"
        passage = self.board.passage_label
        then = (f"holding the Golden Compass, {move} {passage} now wins" if compass
                else f"to win, a Golden Compass is still needed, then {move} {passage}")
        # Landed on, the move's own line just named the space ("... to Desert Dawn (0). Teal reaches Desert Dawn
        # (0): ..." said the place twice in a row): the lap is said as the runner's.
        done = (f"{title(player)}'s lap is complete" if landed
                else f"{title(player)} passes {self.board.start}: the lap is complete")
        return Event("reward", f"{done}; {then}.",
                     ("DR-1", "DR-Q10", "DR-28", *(("DR-Q2",) if entry == "land_or_pass" else ())), (player,))

    def win(self, state: State, player: str, events: list[Event]) -> State:
        # The move there just named the Passage ("... forward to Secret Passage (37). Pink enters Secret Passage (37)
        # with ...", the place twice in a row in each desert win of seeded play): the win says "it".
        passage = self.board.passage_label
        moved = bool(events) and events[-1].players == (player,) and events[-1].text.endswith(f" {passage}.")
        events.append(Event("win", f"{title(player)} enters {'it' if moved else passage} with the Golden Compass after "
                            "a full lap and wins!", ("DR-28", "DR-Q29"), (player,)))
        return replace(state, step=Step(OVER), winner=player)

    def land(self, state: State, player: str, via: str, events: list[Event]) -> State:
        """Resolve the space the piece ended on (DR-3 step 3)."""
        opts = state.options
        piece = state.piece(player)
        space = self.board.spaces[piece.space]
        if space.type == "secret_passage":
            if piece.lap and piece.holds(COMPASS) and (via != "vortex" or opts.passage_via_vortex):
                return self.win(state, player, events)
            needs = (("a full lap", piece.lap), ("the Golden Compass", piece.holds(COMPASS)))
            missing = [m for m, ok in needs if not ok]
            why = f"without {' and '.join(missing)}" if missing else "by a Vortex placement, which does not count"
            events.append(Event("info", f"{self.board.passage_label} stays shut for {title(player)} ({why}); it "
                                "acts as a safe space.", ("DR-28", "DR-Q2"), (player,)))
            return self.after(state, events)
        if via == "dune" and not opts.dune_shift_resolve:
            events.append(Event("info", f"{space.label} is not resolved after a Dune Shift.", ("DR-Q12",), (player,)))
            return self.after(state, events)
        kind = space.type
        if kind == "life":
            state = self.gain(state, player, 1, space.label, ("DR-10",), events)
            return self.after(state, events)
        if kind == "collection":
            return self.ask_draw(state, "collection", events)
        if kind == "mystery":
            return self.ask_draw(state, "mystery", events)
        if kind == "trade":
            events.append(Event("info", f"{title(player)} is on a Trading space: trades may be agreed before the "
                                "turn ends.", ("DR-11",), (player,)))
            return self.after(state, events, trading=True)
        if kind == "scared":
            if piece.holds(CLOAK):
                # The roll onto Scared! with a Cloak in hand cited only DR-4: no line said the space's penalty
                # was due or that the Cloak is asked for (DR-Q18), so the ruling on the roll named neither.
                events.append(Event("warning", f"{title(player)} is Scared! on {space.label}: the Mirage Cloak may "
                                    "be redeemed to ignore the penalty.", ("DR-12", "DR-21", "DR-Q18"), (player,)))
                return replace(state, step=Step(CLOAK_STEP))
            return self.scare(state, player, events)
        if kind == "challenge":
            return self.face_challenge(state, player, via, events)
        return self.after(state, events)

    def face_challenge(self, state: State, player: str, via: str, events: list[Event]) -> State:
        """A challenge landed on: attempt it at once (or offer to), or leave the first attempt to the next turn.

        ``attempt_on_landing: next_turn`` reads DR-Q4's open question, a challenge reached by an ordinary
        move; a challenge reached by a passed one is the chain, which the rules let the player try at once
        (DR-13), so it is never put off: the chain stopped there and the turn passed.
        """
        opts = state.options
        space = self.board.spaces[state.piece(player).space]
        challenge = space.challenge
        assert challenge is not None
        # A café's one-try challenge read "(up to 1 attempts)".
        limit = ("no attempt limit" if challenge.limit is None
                 else "one attempt only" if challenge.limit == 1 else f"up to {challenge.limit} attempts")
        rules: tuple[str, ...] = (space.challenge_rule, *self.own_limit(space))
        if opts.attempt_on_landing == "immediate":
            # Why the attempt comes at once: DR-13 says so only for the chain. An ordinary move rests on DR-Q4,
            # a Dune Shift or a Vortex placement on DR-Q38, neither of which the ruling cited.
            rules += {"move": ("DR-Q4",), "dune": ("DR-Q38",), "vortex": ("DR-Q38",)}.get(via, ())
        events.append(Event("info", f"{space.label} is a challenge: roll {challenge.wording} to go on ({limit}).",
                            rules, (player,)))
        state = replace(state, tried=0)
        if opts.attempt_on_landing == "next_turn" and via != "chain":
            events.append(Event("info", f"{title(player)} makes the first attempt next turn.", ("DR-Q4",), (player,)))
            return self.after(state, events)
        if opts.chain_optional:
            return replace(state, step=Step(OFFER))
        return replace(state, step=Step(ROLL, mode="attempt"))

    def scare(self, state: State, player: str, events: list[Event]) -> State:
        """Scared!: two Lives are due, but Lives stop at 0 (DR-Q21), so the text says what was really lost."""
        piece = state.piece(player)
        lives = max(0, piece.lives - 2)
        lost = piece.lives - lives
        floor = lost < 2
        lost_text = f"{lost} Life" if lost == 1 else f"{lost} Lives"
        note = "; Lives stop at 0" if floor else ""
        rules = ("DR-12", "DR-Q19", "DR-Q21") if floor else ("DR-12", "DR-Q19")
        kept = ""
        if piece.lap and not (lives == 0 and state.options.lap_reset_on_knockout):  # the knockout says it goes
            kept, rules = "; the lap still counts", (*rules, "DR-Q10")  # the pawn is back at the start
        events.append(Event("penalty", f"Scared! {title(player)} loses {lost_text} ({lives} left{note}) and runs "
                            f"back to {self.board.start}{kept}.", rules, (player,)))
        state = state.with_piece(player, lives=lives, space=0, failures=0)
        if lives == 0:
            return self.knockout(state, player, events)
        return self.after(state, events)

    def knockout(self, state: State, player: str, events: list[Event]) -> State:
        piece = state.piece(player)
        for card in piece.items:
            state = self.return_card(state, card)
        lap = piece.lap and not state.options.lap_reset_on_knockout
        state = state.with_piece(player, items=(), out=True, lap=lap, failures=0)
        # "Collection cards discarded (no cards)" said a discard that did not happen, in the words of a log
        lost = (f"Collection cards discarded ({', '.join(card_name(c) for c in piece.items)})" if piece.items
                else "no Collection card to discard")
        wiped = piece.lap and not lap  # lap_reset_on_knockout: the board's row went back to "lap 0/40" unsaid
        events.append(Event("penalty", f"{title(player)} has no Lives left: out for the rest of this round; "
                            f"{lost}{'; the lap no longer counts' if wiped else ''}. "
                            f"Back next round with {RESTART_LIVES} Lives.",
                            ("DR-6", "DR-Q20", "DR-Q10") if wiped else ("DR-6", "DR-Q20"), (player,)))
        return self.advance(state, events)

    # -- challenges --------------------------------------------------------------
    def movement_roll(self, state: State, value: int, events: list[Event]) -> State:
        player = state.mover
        if self.challenge_here(state, player) is not None:
            space = self.board.spaces[state.piece(player).space]
            events.append(Event("info", f"{title(player)} moves on from {space.label} with a normal roll after the "
                                "failed attempts.", ("DR-14", "DR-Q5", *self.own_limit(space)), (player,)))
        if state.piece(player).holds(SNEAKERS):
            return self.ask_sneakers(state, "move", value, events)
        return self.move(state, player, value, True, "move", events)

    def ask_sneakers(self, state: State, mode: str, value: int, events: list[Event]) -> State:
        """Stop to ask about the Sneakers, saying so: an entered roll that announced nothing gave the table no
        line to read and the referee's ruling on it no clause to cite."""
        player = state.mover
        events.append(Event("info", f"{title(player)} rolled {value}; Sandstorm Sneakers could make it {2 * value}.",
                            ("DR-20", "DR-Q9"), (player,)))
        return replace(state, step=Step(SNEAKERS_STEP, mode=mode, value=value))

    def attempt_roll(self, state: State, value: int, events: list[Event]) -> State:
        player = state.mover
        shielded = state.step.shield
        state = replace(state, tried=state.tried + 1)
        if shielded:
            events.append(Event("reward", f"{title(player)} rolls {value}; the Sunshield Amulet sets the "
                                "requirement aside.", ("DR-19", "DR-Q8"), (player,)))
            return self.passed(state, value, True, events)
        if state.options.sneakers_affect_challenge_test and state.piece(player).holds(SNEAKERS):
            return self.ask_sneakers(state, "test", value, events)
        return self.judge(state, value, True, events)

    def judge(self, state: State, value: int, sneakers_ok: bool, events: list[Event]) -> State:
        player = state.mover
        space = self.board.spaces[state.piece(player).space]
        challenge = space.challenge
        assert challenge is not None
        rules = (space.challenge_rule,)
        if challenge.passes(value):
            events.append(Event("reward", f"{title(player)} rolls {value}: {space.label} is passed.", rules, (player,)))
            return self.passed(state, value, sneakers_ok, events)
        opts = state.options
        if (state.piece(player).holds(SUNSHIELD) and opts.sunshield_timing in ("after", "either")
                and (opts.sunshield_on_guardian or not space.is_guardian)):
            events.append(Event("info", f"{title(player)} rolls {value}: not {challenge.wording}.", rules, (player,)))
            return replace(state, step=Step(SHIELD, value=value, mode="" if sneakers_ok else "doubled"))
        return self.failed(state, value, events)

    def passed(self, state: State, distance: int, sneakers_ok: bool, events: list[Event]) -> State:
        player = state.mover
        state = state.with_piece(player, failures=0)
        if sneakers_ok and state.piece(player).holds(SNEAKERS):
            # Mode "chain", not "move": the question must not lose where the move comes from, so the
            # announcement after it still cites the challenge clause (DR-13) rather than plain movement.
            return self.ask_sneakers(state, "chain", distance, events)
        return self.move(state, player, distance, True, "chain", events)

    def failed(self, state: State, value: int, events: list[Event]) -> State:
        player = state.mover
        space = self.board.spaces[state.piece(player).space]
        challenge = space.challenge
        assert challenge is not None
        failures = state.piece(player).failures + 1
        state = state.with_piece(player, failures=failures)
        if space.is_guardian:
            # The space by its board name: a café's unlimited challenge ("Sphinx Gate") was called "the
            # Guardian's Test", a space its board does not have.
            events.append(Event("penalty", f"{title(player)} rolls {value}: {space.label} needs a "
                                f"{challenge.k}; {title(player)} stays and the turn ends.", ("DR-15", "DR-14"),
                                (player,)))
            return self.advance(state, events)
        limit = challenge.limit or 0
        count = f"failed attempt {failures} of {limit}" if failures <= limit else "another failed attempt"
        if failures >= limit:
            # With free_exit_optional the next turn also offers another try (DR-Q6): "rolls as normal and
            # moves on" told the player the choice was gone.
            then, rules = ((f"{title(player)} may roll as normal and move on, or try again", ("DR-14", "DR-Q6"))
                           if state.options.free_exit_optional
                           else (f"{title(player)} rolls as normal and moves on", ("DR-14", "DR-Q5")))
            rules += self.own_limit(space)
            events.append(Event("penalty", f"{title(player)} rolls {value}: {count} at {space.label}. Next turn "
                                f"{then}.", rules, (player,)))
            return self.advance(state, events)
        if state.options.attempts_per_turn > 1 and state.tried < state.options.attempts_per_turn:
            events.append(Event("penalty", f"{title(player)} rolls {value}: {count} at {space.label}; another "
                                "attempt this turn.", ("DR-14", "DR-Q5", *self.own_limit(space)), (player,)))
            return replace(state, step=Step(ROLL, mode="attempt"))
        events.append(Event("penalty", f"{title(player)} rolls {value}: {count} at {space.label}; the turn ends "
                            "here.", ("DR-14", "DR-Q5", *self.own_limit(space)), (player,)))
        return self.advance(state, events)

    # -- cards -------------------------------------------------------------------
    def ask_draw(self, state: State, deck: str, events: list[Event]) -> State:
        """Wait for the card the table draws, turning a discard into a new pile when the pile is empty."""
        pile, discard = (("collection", "collection_discard") if deck == "collection"
                         else ("mystery", "mystery_discard"))
        name = "Collection" if deck == "collection" else "Mystery"
        rule = "DR-8" if deck == "collection" else "DR-9"
        if sum(getattr(state, pile)) == 0:
            if sum(getattr(state, discard)) == 0:
                events.append(Event("info", f"The {name} pile is empty: nothing to draw.", (rule, "DR-Q16"),
                                    (state.mover,)))
                return self.after(state, events)
            state = replace(state, **{pile: getattr(state, discard), discard: tuple(0 for _ in getattr(state, pile))})
            events.append(Event("info", f"The {name} pile is empty: shuffle its discards into a new pile.",
                                (rule, "DR-Q16"), (state.mover,)))
        return replace(state, step=Step(DRAW, mode=deck))

    def mystery(self, state: State, card: str, events: list[Event]) -> State:
        """Resolve a Mystery card at once (DR-22); the card itself is already on the discard."""
        player = state.mover
        if card == WHISPER:
            state = state.with_piece(player, skip=state.piece(player).skip + 1)
            events.append(Event("warning", f"Desert Whisper: {title(player)} will miss the next turn.",
                                ("DR-24", "DR-Q26"), (player,)))
            return self.after(state, events)
        if card == BLESSING:
            state = self.gain(state, player, 1, "Camel's Blessing", ("DR-27",), events)
            return self.after(state, events)
        if card == DUNE_SHIFT:
            return replace(state, step=Step(DUNE))
        if card == THIEF:
            return self.thief(state, events)
        assert card == VORTEX and card in MYSTERY_CARDS
        return self.vortex(state, events)

    def most_lives(self, state: State, include: str | None) -> list[str]:
        """Players tied for most Lives among those in the round (and ``include`` or not the mover)."""
        pool = [p for p, piece in zip(state.players, state.pieces, strict=True)
                if not piece.out and (p != state.mover or include == state.mover)]
        if not pool:
            return []
        top = max(state.piece(p).lives for p in pool)
        return [p for p in pool if state.piece(p).lives == top]

    def thief(self, state: State, events: list[Event]) -> State:
        player = state.mover
        if not state.piece(player).items:
            events.append(Event("info", f"Sand Thief: {title(player)} holds no Collection card, so nothing is "
                                "taken.", ("DR-23", "DR-Q14"), (player,)))
            return self.after(state, events)
        tied = self.most_lives(state, player if state.options.thief_include_drawer else None)
        if not tied:
            events.append(Event("info", "Sand Thief: nobody else is in the round to take a card.", ("DR-23",),
                                (player,)))
            return self.after(state, events)
        if not state.options.thief_include_drawer and state.piece(player).lives >= state.piece(tied[0]).lives:
            # thief_include_drawer = false (DR-Q14's option): the drawer had as many Lives as the thief or more,
            # and "Pink takes Black's Desert Flask" cited only DR-23, which gives the card to whoever has most.
            # Tied others are named by the roll-off line that follows.
            others = f"; of the others {title(tied[0])} has the most Lives" if len(tied) == 1 else ""
            events.append(Event("info", f"Sand Thief: {title(player)} is not counted for most Lives at this "
                                f"table{others}.", ("DR-23", "DR-Q14"), (player,)))
        if len(tied) == 1:
            return self.thief_found(state, tied[0], events)
        names = series([title(p) for p in tied])  # "Pink and Teal tie": "Pink, Teal tie" read as no sentence
        events.append(Event("info", f"Sand Thief: {names} tie for most Lives and roll off for the card.",
                            ("DR-23", "DR-Q14"), tuple(tied)))
        return replace(state, step=Step(ROLLOFF, mode="thief", contenders=tuple(tied), victim=player))

    def thief_found(self, state: State, thief: str, events: list[Event]) -> State:
        player = state.mover
        if thief == player:
            # After a tie the drawer won the roll-off: "has the most Lives" was said of a player who only tied.
            why = "wins the roll-off" if state.step.kind == ROLLOFF else "has the most Lives"
            events.append(Event("info", f"Sand Thief: {title(player)} {why}, so nothing is taken.",
                                ("DR-23", "DR-Q14"), (player,)))
            return self.after(state, events)
        kinds = sorted(set(state.piece(player).items))
        if state.options.thief_compass_save == "only_item" and kinds == [COMPASS]:
            return self.ask_save(state, thief, events)
        if len(kinds) == 1:
            return self.steal(state, thief, kinds[0], events)
        events.append(Event("info", f"Sand Thief: {title(thief)} takes one of {title(player)}'s Collection cards "
                            "without looking; enter the card taken.", ("DR-23", "DR-Q15"), (thief, player)))
        return replace(state, step=Step(STEAL, victim=player, actor=thief))

    def ask_save(self, state: State, thief: str, events: list[Event]) -> State:
        player = state.mover
        events.append(Event("warning", f"Sand Thief: {title(thief)} reaches for {title(player)}'s Golden Compass; "
                            f"{title(player)} rolls to keep it (4-6 keeps it).", ("DR-23", "DR-Q14"),
                            (thief, player)))
        return replace(state, step=Step(SAVE, victim=player, actor=thief))

    def steal(self, state: State, thief: str, card: str, events: list[Event]) -> State:
        if card == COMPASS and state.options.thief_compass_save == "when_selected":
            return self.ask_save(state, thief, events)
        return self.hand_over(state, thief, card, events)

    def hand_over(self, state: State, thief: str, card: str, events: list[Event]) -> State:
        player = state.mover
        state = state.with_piece(player, items=state.piece(player).without(card))
        state = state.with_piece(thief, items=state.piece(thief).adding(card))
        events.append(Event("penalty", f"Sand Thief: {title(thief)} takes {title(player)}'s {card_name(card)}.",
                            ("DR-23",), (thief, player)))
        return self.after(state, events)

    def vortex(self, state: State, events: list[Event]) -> State:
        player = state.mover
        tied = self.most_lives(state, player)
        if len(tied) == 1:
            return self.vortex_chooser(state, tied[0], events)
        if state.options.vortex_tie == "seat_order":
            n = len(state.players)
            order = [state.players[(state.current + k) % n] for k in range(n)]
            return self.vortex_chooser(state, next(p for p in order if p in tied), events)
        names = series([title(p) for p in tied])  # "Pink and Teal tie": "Pink, Teal tie" read as no sentence
        events.append(Event("info", f"Desert Vortex: {names} tie for most Lives and roll off to choose.",
                            ("DR-26", "DR-Q13"), tuple(tied)))
        return replace(state, step=Step(ROLLOFF, mode="vortex", contenders=tuple(tied), victim=player))

    def vortex_chooser(self, state: State, chooser: str, events: list[Event]) -> State:
        player = state.mover
        # The drawer may be the chooser (DR-Q13): then they are named once, in words and in ``players``.
        whom, who = ("to go", (player,)) if chooser == player else (f"{title(player)} goes", (chooser, player))
        why = "wins the roll-off" if state.step.kind == ROLLOFF else "has the most Lives"  # a tie was rolled off
        events.append(Event("info", f"Desert Vortex: {title(chooser)} {why} and chooses where {whom}.",
                            ("DR-26", "DR-Q13"), who))
        return replace(state, step=Step(VORTEX_STEP, victim=player, actor=chooser))
