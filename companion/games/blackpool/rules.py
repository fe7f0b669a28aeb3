"""Blackpool: the rules engine (turns, the oracle, moves, sixes, coins and cards).

The turn is a small state machine. ``roll`` waits for the oracle; after a
roll the engine either passes the turn (nothing can move), re-rolls a six
with nothing to do, or waits for the player's choice (``move`` or ``six``).
A coin leads to ``draw`` (the table reports the top card) and, when the card
needs a target, ``target``. ``over`` ends the game.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar

from companion.errors import BadRequest, CompanionError, InvalidAction, InvalidPosition, quoted
from companion.game import (
    Action,
    DieSpec,
    Event,
    Game,
    GameData,
    OnTable,
    OptionSpec,
    Pending,
    Ruling,
    normalize_action,
    not_playing,
    place_called,
    refuse,
    said_as,
    shapes,
    unknown_type,
)
from companion.games.blackpool import INFO, effects
from companion.games.blackpool.board import CAMP, CENTRE, Board
from companion.games.blackpool.cards import DECK_SERVES, DECKS, Catalogue
from companion.games.blackpool.data_schema import DATA_SCHEMAS, copy_notes, cross_check
from companion.games.blackpool.document import SIX_IN_MOVE, document_of, position_problems, state_of
from companion.games.blackpool.moves import CARRIER_BACK, CARRIER_FORWARD, Plan, Work, execute, landing_problem, plan
from companion.games.blackpool.state import (
    START_COINS,
    TRAVELLERS_PER_COLOUR,
    State,
    Traveller,
    traveller_id,
    traveller_name,
)
from companion.games.blackpool.view import describe_state
from companion.journalled_start import refuse_position
from companion.phrases import series

COLOURS = INFO.colours


def _squeezed(words: str) -> str:
    """A square or traveller as typed or written, spaces dropped too: "c 2" is c2, "red 2" red2 (``said_as``)."""
    return "".join(said_as(words).split())

OPTION_SPECS = (
    OptionSpec("oracle.faces", 6, (6,), "The oracle is an ordinary six-sided die.", "BP-Q5"),
    OptionSpec(
        "variant.glossaryDraft",
        False,
        (False, True),
        "Play the glossary's earlier draft: all pulls one lower (centre 4, rings 3, 2, 1); a 5 brings one out.",
        "BP-Q6",
    ),
    OptionSpec(
        "six.carrierUsesTable",
        True,
        (True, False),
        "A carrier that takes the move-six option moves by the heavy table (3), not a full 6.",
        "BP-Q10",
    ),
    OptionSpec(
        "capacity.countsArrivingStack",
        True,
        (True, False),
        "A carrier with its rider may not land where one traveller already stands (it would make three).",
        "BP-Q12",
    ),
    OptionSpec(
        "edge.landing",
        "ride",
        ("ride", "coexist", "forbidden"),
        "Landing on another colour on the edge: ride it, share the square without riding, or not allowed.",
        "BP-Q13",
    ),
    OptionSpec(
        "six.noMoveCoinAllowed",
        True,
        (True, False),
        "A six that gives no move still lets the player spend a coin rather than roll again.",
        "BP-Q18",
    ),
    OptionSpec(
        "six.maxChain",
        None,
        (None, 1, 2, 3),
        "Most sixes in one turn, the last one included (none: unlimited): with 2, only the first six rolls again; "
        "the six that reaches the limit still gives its choice, then the turn ends instead of rolling again.",
        "BP-Q19",
    ),
    OptionSpec(
        "cards.targetChooser", "player", ("player",), "The player who plays a card chooses its target.", "BP-Q23"
    ),
    OptionSpec(
        "freeze.resetMoves",
        False,
        (False, True),
        "Reset also sends frozen travellers back (and thaws them).",
        "BP-Q26",
    ),
    OptionSpec(
        "awaken.anyFrozen",
        False,
        (False, True),
        "Awaken may thaw any frozen traveller, not only one of your own.",
        "BP-Q27",
    ),
    OptionSpec(
        "continueForPlacings",
        False,
        (False, True),
        "Keep playing after the first player wins, to settle second and third places.",
        "BP-Q30",
    ),
)

PROFILES: Mapping[str, Mapping[str, Any]] = {
    "standard": {},
    "glossary-draft": {"variant.glossaryDraft": True},
    "placings": {"continueForPlacings": True},
    "alternatives": {
        "six.carrierUsesTable": False,
        "capacity.countsArrivingStack": False,
        "edge.landing": "coexist",
        "six.noMoveCoinAllowed": False,
        "six.maxChain": 3,
        "freeze.resetMoves": True,
        "awaken.anyFrozen": True,
    },
    "strict-edge": {"edge.landing": "forbidden", "six.maxChain": 2},
}

ORACLE = DieSpec("oracle", "Oracle (d6)", tuple({"value": v} for v in range(1, 7)))


def cap(colour: str) -> str:
    return colour.capitalize()


class Blackpool(Game):
    id: ClassVar[str] = INFO.id
    win_rules: ClassVar[tuple[str, ...]] = ("BP-1",)
    title: ClassVar[str] = INFO.title
    min_players: ClassVar[int] = INFO.min_players
    max_players: ClassVar[int] = INFO.max_players
    players_rule: ClassVar[str | None] = "BP-Q31"
    colours_rule: ClassVar[str | None] = "BP-Q3"  # the four colours, each with its own camp
    actions_rule: ClassVar[str | None] = "BP-3"  # a turn: the oracle's roll, then what it allows
    turn_rule: ClassVar[str | None] = "BP-Q31"
    action_shapes = shapes(roll="value", move="traveller", bring_out="traveller", coin="deck", reroll="",
                           draw="deck card", target="traveller square | opponent", order="travellers")
    field_words: ClassVar[Mapping[str, str]] = {"value": "which number the oracle shows",
                                                 "order.travellers": "the order the travellers move in"}
    colours: ClassVar[tuple[str, ...]] = COLOURS
    dice: ClassVar[tuple[DieSpec, ...]] = (ORACLE,)
    decks: ClassVar[tuple[str, ...]] = DECKS
    deck_names: ClassVar[Mapping[str, str]] = {d: f"{d} deck" for d in DECKS}  # "spends a coin on the charm deck"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = OPTION_SPECS
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = PROFILES
    data_schemas: ClassVar[Mapping[str, Any]] = DATA_SCHEMAS

    def __init__(self, data: GameData) -> None:
        super().__init__(data)
        self.board = Board(data["board"])
        self.catalogue = Catalogue(data["cards"])
        self._handlers = {
            "roll": self._act_roll,
            "move": self._act_move,
            "bring_out": self._act_bring_out,
            "coin": self._act_coin,
            "reroll": self._act_reroll,
            "draw": self._act_draw,
            "target": self._act_target,
            "order": self._act_order,
        }

    @classmethod
    def cross_check(cls, files: Mapping[str, Any]) -> list[str]:
        return cross_check(files, COLOURS)

    @classmethod
    def board_warnings(cls, files: Mapping[str, Any], sources: Mapping[str, str]) -> list[str]:
        return copy_notes(files, sources)

    # -- setup and documents ---------------------------------------------------
    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> State:
        """Players act in the order given; the table draws the first player and lists them first (BP-Q31)."""
        players = self.check_players(players)
        resolved = self.resolve_options(dict(options))
        travellers = []
        for colour in players:
            for n in range(1, TRAVELLERS_PER_COLOUR + 1):
                circle = self.board.start_circles[colour][n - 1]
                at = CENTRE if circle in (CENTRE, self.board.centre_square) else circle
                travellers.append(Traveller(traveller_id(colour, n), colour, n, at))
        state = State(
            players=tuple(players),
            options=tuple(sorted(resolved.items())),
            turn=players[0],
            phase="roll",
            travellers=tuple(travellers),
            coins=tuple(START_COINS for _ in players),
            decks=self.catalogue.initial_counts(),
        )
        work = Work(state)
        self._seat_riders(work)
        return state.evolve(travellers=work.travellers())

    def _seat_riders(self, work: Work) -> None:
        """Starting circles on water squares shared by two colours: the later arrival rides (rule 7)."""
        seen: dict[str, str] = {}
        for tid in work.order:
            t = work.t[tid]
            if t.at in (CENTRE, CAMP):
                continue
            if t.at in seen:
                if work.t[seen[t.at]].colour == t.colour:
                    raise BadRequest(f"board data puts two {t.colour} travellers on starting circle {t.at}", "BP-Q4")
                work.set(tid, on=seen[t.at])
            seen[t.at] = tid

    def to_document(self, state: State) -> dict[str, Any]:
        return document_of(self, state)

    def from_document(self, document: Mapping[str, Any]) -> State:
        state, problems = state_of(self, document)
        if state is None:
            raise InvalidPosition(problems)
        if problems:
            refuse_position(problems)  # noted instead while a journalled start is read back
        return state

    def old_start(self, document: Mapping[str, Any], played_on: bool) -> State | None:
        """A position in phase "move" with a 6 in hand, loaded before bbc8013 refused it (BP-8), read back.

        That companion offered only forward-6 moves on it, with no roll again, bring-out or coin, and ended the
        turn; a game journalled on it could no longer start. Played on, its steps were taken that way and are
        replayed that way (the rolls name no player, so read as a six they would go to the wrong one). Not yet
        played on, the six is decided as the rules have it: phase "six", counting this six at least. None when
        the position has any other fault.
        """
        state, problems = state_of(self, document)
        if state is None or SIX_IN_MOVE not in problems:
            return None
        if played_on:
            return state if problems == [SIX_IN_MOVE] else None
        if [p for p in problems if p not in position_problems(self, state)]:
            return None  # a fault of the document itself, not of what its phase needs
        six = state.evolve(phase="six", six_chain=max(1, state.six_chain))
        return None if position_problems(self, six) else six

    # -- what happens next -------------------------------------------------------
    def pending(self, state: State) -> Pending:
        who = cap(state.turn)
        if state.phase == "over":
            return Pending("over", None, self._result_text(state), result=self.result(state))
        if state.phase == "roll":
            again = " again" if state.six_chain else ""
            return Pending("roll", state.turn, f"{who}: roll the oracle{again}.", die="oracle")
        if state.phase == "move":
            return Pending("choose", state.turn, f"{who} rolled {state.roll}: choose the traveller to move.")
        if state.phase == "six":
            return Pending("choose", state.turn, f"{who} rolled a six: {self._six_choices(state)}.")
        if state.phase == "draw":
            return Pending("draw", state.turn, f"{who}: turn over the top {state.deck} card.", deck=state.deck)
        card = self.catalogue[state.card or ""]
        if card.effect == "gust":  # it blows every one of them: "choose what Gust of Force acts on" asked for one
            return Pending("choose", state.turn, f"{who}: choose the order {card.name} blows your travellers in.")
        return Pending("choose", state.turn, f"{who}: choose what {card.name} acts on.")

    def _six_choices(self, state: State) -> str:
        """What this six allows, in the order of the rule (BP-8, BP-C7): only the choices on offer.

        "move six, bring one out, or spend a coin" was said on every six: at the opening, with every traveller
        in the centre, beside a player without coins, and in the glossary draft, where a six brings none out.
        """
        moves = self.six_moves(state)
        choices = []
        if any(p.kind == "six" for p in moves):
            choices.append("move six")
        if any(p.kind == "out" for p in moves):
            choices.append("bring one out")
        if self._coin_offers(state):
            choices.append("spend a coin")
        if not moves:
            choices.append("roll again" if self._may_roll_again(state) else "end the turn")
        if len(choices) == 1:
            return choices[0]
        return ", ".join(choices[:-1]) + (", or " if len(choices) > 2 else " or ") + choices[-1]

    def result(self, state: State) -> dict[str, Any]:
        out: dict[str, Any] = {"winner": state.finished[0] if state.finished else None}
        if state.opts["continueForPlacings"]:
            out["placings"] = list(state.finished)
        if self._ended_stranded(state):
            out["reason"] = "no player still racing can finish"
        return out

    def _ended_stranded(self, state: State) -> bool:
        """Whether the game ended because nobody still racing could finish (BP-Q30), not by a win (BP-1).

        A player who brought all three home ends the game (without placings) even when the rival left is
        frozen for good; that win was announced as "No player still racing can finish: Red 2 is frozen ...
        Yellow wins; the places already taken stand", with that reason in the result.
        """
        if state.phase != "over":
            return False
        placings = state.opts["continueForPlacings"]
        won = len(state.finished) == len(state.players) if placings else bool(state.finished)
        return not won and self._all_stranded(state)

    def _result_text(self, state: State) -> str:
        if self._ended_stranded(state):
            return self._stranded_text(state)
        if not state.finished:
            return "The game is over."
        text = f"{cap(state.finished[0])} has all three travellers in camp and wins."
        if state.opts["continueForPlacings"] and len(state.finished) > 1:
            text += " Placings: " + ", ".join(cap(p) for p in state.finished) + "."
        return text

    # -- legal actions -------------------------------------------------------------
    def legal_actions(self, state: State) -> list[Action]:
        phase = state.phase
        if phase == "roll":
            return [{"type": "roll", "value": v, "text": f"Oracle shows {v}"} for v in range(1, 7)]
        if phase == "move":
            return [self._offer(p) for p in self.roll_choices(state)]
        if phase == "six":
            again = self._may_roll_again(state)
            offers = [self._offer(p, again and not self._finishes(state, p)) for p in self.six_moves(state)]
            if not offers:
                offers.append(self._reroll_offer(state))
            offers.extend(self._coin_offers(state))
            return offers
        if phase == "draw":
            deck = state.deck
            return [
                {"type": "draw", "deck": deck, "card": cid, "text": f"Top card: {self.catalogue[cid].name}"}
                for cid, n in state.decks
                if n > 0 and self.catalogue[cid].deck == deck
            ]
        if phase == "target":
            return self._target_offers(state)
        return []

    def _offer(self, p: Plan, again: bool = True) -> Action:
        name = traveller_name(p.traveller)
        dest = self.board.label(p.dest)
        if p.kind == "out":
            return {"type": "bring_out", "traveller": p.traveller, "text": f"Bring {name} out of the centre to {dest}"}
        if p.kind == "six":
            then = "roll again" if again else "then the turn ends"
            text = f"{name}: forward {p.steps} to {dest}, {then}"  # as every other move reads (not "6 forward")
            return {"type": "move", "traveller": p.traveller, "text": text}
        word = "forward" if p.kind == "forward" else "back"
        return {"type": "move", "traveller": p.traveller, "text": f"{name}: {word} {p.steps} to {dest}"}

    @staticmethod
    def _finishes(state: State, p: Plan) -> bool:
        """Whether the move brings the mover's last traveller into camp: a six that does so rolls no more
        (BP-Q30), and offering it with "roll again" promised a roll the game would never ask for."""
        moved = {p.traveller, *p.carried}
        return p.dest == CAMP and all(t.at == CAMP or t.id in moved for t in state.own(state.turn))

    def _reroll_offer(self, state: State) -> Action:
        if self._may_roll_again(state):
            return {"type": "reroll", "text": "Nothing to move: roll again"}
        return {"type": "reroll", "text": "Nothing to move and no more re-rolls: end the turn"}

    def _coin_offers(self, state: State) -> list[Action]:
        if state.coins_of(state.turn) <= 0:
            return []
        out = []
        for deck in DECKS:
            left = state.deck_size(self.catalogue, deck)
            if left:
                # "(n left)" counts the cards here and the coins in the spending's announcement: say which. Whom
                # the deck's cards serve is said before the tap (BP-8): a first game's table read "charm" and
                # "curse" as two names for one card pile, and learnt only from the card played which was which.
                cards = f"{left} card{'s' if left != 1 else ''} left"
                out.append({"type": "coin", "deck": deck,
                            "text": f"Spend a coin on the {deck} deck ({DECK_SERVES[deck]}; {cards})"})
        return out

    def _target_offers(self, state: State) -> list[Action]:
        card = self.catalogue[state.card or ""]
        effect = card.effect
        if effect == "gust":
            return [
                {
                    "type": "order",
                    "travellers": list(order),
                    "text": "Blow " + ", then ".join(map(traveller_name, order)),
                }
                for order in effects.gust_orders(self.board, state)
            ]
        if effect == "awaken":
            return [
                {"type": "target", "traveller": tid, "text": f"Awaken {traveller_name(tid)}"}
                for tid in effects.awaken_targets(state)
            ]
        if effect == "freeze":
            return [
                {
                    "type": "target",
                    "traveller": tid,
                    "text": f"Freeze {traveller_name(tid)} on {self._where(state, tid)}",
                }
                for tid in effects.freeze_targets(state)
            ]
        if effect == "reset":
            return [
                {"type": "target", "opponent": colour,
                 "text": f"Reset {cap(colour)}: {self._reset_does(state, colour)}"}
                for colour in effects.opponents(state)
            ]
        verb = "up" if effect == "step_out" else "down"
        return [
            {
                "type": "target",
                "traveller": tid,
                "square": square,
                "text": f"Step {traveller_name(tid)} {verb} to {self.board.label(square)}",
            }
            for tid, square in effects.step_targets(self.board, state, effect == "step_out")
        ]

    def _reset_does(self, state: State, colour: str) -> str:
        """What a Reset on ``colour`` does, for its choice: "Reset Green" named no traveller, and the table
        learnt only once it was played that Green 2 and Green 3 went back, or that Yellow had nothing to send
        back (BP-Q28). Worked out by the card's own resolution, so it says what playing it does."""
        after = {t.id: t for t in effects.resolve_reset(self.board, state, colour)[0]}
        moved = [traveller_name(t.id) for t in state.own(colour) if after[t.id].at != t.at]
        thawed = [traveller_name(t.id) for t in state.own(colour) if t.frozen and not after[t.id].frozen
                  and after[t.id].at == t.at]
        said = [f"{series(moved)} back to {'its' if len(moved) == 1 else 'their'} starting "
                f"circle{'' if len(moved) == 1 else 's'}"] if moved else []
        said += [f"{series(thawed)} thawed"] if thawed else []
        return ", ".join(said) if said else "nothing goes back"

    def _where(self, state: State, tid: str) -> str:
        return self.board.label(state.by_id[tid].at)

    # -- moves a roll allows ------------------------------------------------------------
    def _draft(self, state: State) -> bool:
        return bool(state.opts["variant.glossaryDraft"])

    def roll_plan(self, state: State, work: Work, t: Traveller, roll: int) -> Plan | str:
        """The move a roll gives one traveller, or why it gives none (a sentence)."""
        name = traveller_name(t.id)
        if t.at == CAMP:
            return f"{name} is already in camp."
        if t.at == CENTRE:
            exit_roll = self.board.exit_roll(self._draft(state))
            if roll == exit_roll:  # the glossary draft's 5: the bring-out is the move
                return f"{name} is in the centre: the {roll} brings it out, as a bring-out, not a move."
            return f"{name} is in the centre, and a roll of {roll} cannot move it: only a {exit_roll} brings it out."
        if t.frozen:
            return f"{name} is frozen and stays until it is awakened."
        pull = self.board.pull(t.at, self._draft(state))
        heavy = work.carrying(t.id)
        if roll > pull:
            steps = CARRIER_FORWARD.get(roll, roll) if heavy else roll
            if steps == 0:
                return f"{name} carries a rider, and a roll of {roll} moves a carrier forward 0."
            return plan(self.board, work, t.id, "forward", steps, state.opts)
        if roll < pull:
            steps = CARRIER_BACK.get(roll, roll) if heavy else roll
            return plan(self.board, work, t.id, "back", -steps, state.opts)
        return f"{name} stays: the roll equals the pull of {self.board.label(t.at)}."

    def roll_plans(self, state: State) -> tuple[list[Plan], list[Plan], list[Plan]]:
        """Forward, back and bring-out plans (legal or not) for the roll in hand; cached on the immutable state."""
        cached = state.__dict__.get("_roll_plans")
        if cached is None:
            cached = state.__dict__["_roll_plans"] = self._roll_plans(state)
        return cached

    def _roll_plans(self, state: State) -> tuple[list[Plan], list[Plan], list[Plan]]:
        work = Work(state)
        roll = state.roll or 0
        forward: list[Plan] = []
        back: list[Plan] = []
        for t in state.own(state.turn):
            p = self.roll_plan(state, work, t, roll)
            if isinstance(p, Plan):
                (forward if p.kind == "forward" else back).append(p)
        outs = self.bring_out_plans(state, work) if self._draft(state) and roll == self.board.exit_roll(True) else []
        return forward, back, outs

    def roll_choices(self, state: State) -> list[Plan]:
        """Rule 6 with BP-Q8: only legal forward moves count; back moves only when none exists."""
        forward, back, outs = self.roll_plans(state)
        legal_forward = [p for p in forward if p.legal]
        chosen = legal_forward or [p for p in back if p.legal]
        return [p for p in outs if p.legal] + chosen

    def bring_out_plans(self, state: State, work: Work) -> list[Plan]:
        steps = self.board.exit_roll(self._draft(state))
        return [
            plan(self.board, work, t.id, "out", steps, state.opts)
            for t in state.own(state.turn)
            if t.at == CENTRE and not t.frozen
        ]

    def six_plan(self, state: State, work: Work, t: Traveller) -> Plan | str:
        name = traveller_name(t.id)
        if t.at == CAMP:
            return f"{name} is already in camp."
        if t.at == CENTRE:
            if self._draft(state):  # a six brings nobody out in the draft, so "bring it out" would mislead
                exit_roll = self.board.exit_roll(True)
                return f"{name} is in the centre; in the glossary draft only a {exit_roll} brings it out."
            return f"{name} is in the centre: bring it out instead."
        if t.frozen:
            return f"{name} is frozen and stays until it is awakened."
        steps = 6
        if work.carrying(t.id) and state.opts["six.carrierUsesTable"]:
            steps = CARRIER_FORWARD[6]
        return plan(self.board, work, t.id, "six", steps, state.opts)

    def six_moves(self, state: State) -> list[Plan]:
        """Options (a) and (b) of a six that can be made (clarification 7); cached on the immutable state."""
        cached = state.__dict__.get("_six_moves")
        if cached is None:
            cached = state.__dict__["_six_moves"] = self._six_moves(state)
        return cached

    def _six_moves(self, state: State) -> list[Plan]:
        work = Work(state)
        out = self.bring_out_plans(state, work) if not self._draft(state) else []
        for t in state.own(state.turn):
            p = self.six_plan(state, work, t)
            if isinstance(p, Plan):
                out.append(p)
        return [p for p in out if p.legal]

    def _may_roll_again(self, state: State) -> bool:
        limit = state.opts["six.maxChain"]
        return limit is None or state.six_chain < limit

    def _coin_possible(self, state: State) -> bool:
        return state.coins_of(state.turn) > 0 and any(
            n > 0 for cid, n in state.decks if self.catalogue[cid].deck in DECKS
        )

    def over_rule(self, state: State) -> str | None:
        return "BP-Q30"  # as the refusal of a well-formed action after the end (apply)

    # -- apply ------------------------------------------------------------------------
    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        action = normalize_action(action, self.turn_rule)
        handler = self._handlers.get(action["type"])
        if handler is None:
            # A mistyped action, not a rule: BP-Q31 (player count and turn order) was cited here. A pass is the
            # one the rules speak of: a move is compulsory (BP-Q33), and a turn with none passes by itself (BP-C2).
            if action["type"] == "pass":
                raise unknown_type("pass", self._handlers, ": nobody may pass while a move exists, and a turn with no "
                                   "move passes by itself", "BP-Q33")
            raise unknown_type(action["type"], self._handlers)
        if state.phase == "over":
            raise refuse("The game is over: " + self._result_text(state), "BP-Q30")
        player = action.get("player")
        if player is not None:
            if player not in state.players:
                raise not_playing(player, state.players, self.turn_rule)
            if player != state.turn:
                raise refuse(f"It is {cap(state.turn)}'s turn, not {cap(player)}'s.", "BP-Q31")
        after, events = handler(state, action)
        return self._end_if_stranded(after, events)

    def _end_if_stranded(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        """End the game when no player still racing can finish (BP-Q30), instead of rolling for ever.

        Checked only when a turn is to start: a card being drawn with the last
        coin may be the Awaken that thaws the traveller.
        """
        if state.phase != "roll" or not self._all_stranded(state):
            return state, events
        rules = ("BP-Q30", "BP-Q26", "BP-Q21")
        if effects.blocked_exits(self.board, state, self.catalogue):
            rules += ("BP-Q20", "BP-7")
        events.append(Event("win", self._stranded_text(state), rules))
        return state.evolve(phase="over", roll=None, deck=None, card=None, six_chain=0), events

    def _all_stranded(self, state: State) -> bool:
        racing = [p for p in state.players if p not in state.finished]
        return bool(racing) and effects.stranded(self.board, state, self.catalogue) == racing

    def _stranded_text(self, state: State) -> str:
        frozen = [traveller_name(t.id) for t in state.travellers if t.frozen and t.colour not in state.finished]
        names = ", ".join(frozen)
        verb = "is" if len(frozen) == 1 else "are"
        ending = f"{cap(state.finished[0])} wins; the places already taken stand." if state.finished else "Nobody wins."
        thaw = "no card, or no coin that can still be spent, left to thaw"
        shut = []
        for colour, square in effects.blocked_exits(self.board, state, self.catalogue).items():
            waiting = ", ".join(traveller_name(t.id) for t in state.own(colour) if t.at == CENTRE)
            shut.append(
                f"{waiting} can never leave the centre: {self.board.label(square)}, where it would come out, "
                "is held by frozen travellers"
            )
        blocked = "".join(f"; {line}" for line in shut)
        return f"No player still racing can finish: {names} {verb} frozen with {thaw} them{blocked}. {ending}"

    def _expect(self, state: State, *phases: str) -> None:
        if state.phase in phases:
            return
        wanted = {
            "roll": f"{cap(state.turn)} must roll the oracle first",
            "move": f"{cap(state.turn)} must choose a traveller to move for the roll of {state.roll}",
            "six": f"{cap(state.turn)} must choose what to do with the six",
            "draw": f"the table must turn over the top {state.deck} card first",
            "target": f"{cap(state.turn)} must choose what the card acts on first",
        }[state.phase]
        rule = {"roll": "BP-3", "move": "BP-6", "six": "BP-C7", "draw": "BP-C8", "target": "BP-Q23"}[state.phase]
        raise refuse(f"Not now: {wanted}.", rule)

    def _traveller(self, state: State, action: Action, key: str = "traveller") -> Traveller:
        tid = action.get(key)
        if not isinstance(tid, str):
            raise InvalidAction(f'this action needs a "{key}" such as "{state.turn}-1"')
        t = state.by_id.get(tid)
        if t is None:
            raise InvalidAction(f"no traveller {quoted(tid)} in this game; travellers are named like {state.turn}-1")
        return t

    def _act_roll(self, state: State, action: Action) -> tuple[State, list[Event]]:
        value = action.get("value")
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise InvalidAction(f"the oracle shows 1 to 6, not {quoted(value)}", "BP-Q5")
        self._expect(state, "roll")
        who = cap(state.turn)
        events = [Event("info", f"{who} rolls {value}.", ("BP-3",), (state.turn,))]
        if value == 6:
            state = state.evolve(roll=6, six_chain=state.six_chain + 1, phase="six")
            if self.six_moves(state):
                return state, events
            if self._coin_possible(state) and state.opts["six.noMoveCoinAllowed"]:
                # With six.maxChain reached there is no roll again to offer: "roll again or spend a coin" was
                # said beside the one other choice, "no more re-rolls: end the turn".
                if self._may_roll_again(state):
                    text, rules = f"{who} has no move for the six: roll again or spend a coin.", ("BP-C7", "BP-Q18")
                else:
                    text = f"{who} has no move for the six and no re-roll left: spend a coin or end the turn."
                    rules = ("BP-Q18", "BP-Q19")
                events.append(Event("info", text, rules))
                return state, events
            return self._after_six_without_move(state, events)
        state = state.evolve(roll=value, phase="move")
        if self.roll_choices(state):
            return state, events
        # A traveller whose pull equals the roll stays, and that is no move (BP-Q9): the pass cited BP-C2 alone,
        # and a table whose traveller "could stay" asked why that did not count as the turn's move.
        equal = any(self.board.pull(t.at, self._draft(state)) == value for t in state.own(state.turn)
                    if t.at not in (CENTRE, CAMP) and not t.frozen)
        rules = ("BP-C2", "BP-Q9") if equal else ("BP-C2",)
        events.append(Event("info", f"Nothing of {who}'s can move with a {value}: the turn passes.", rules))
        return self._end_turn(state), events

    def _after_six_without_move(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        who = cap(state.turn)
        if self._may_roll_again(state):
            events.append(Event("info", f"{who} has no move for the six and rolls again.", ("BP-C7",), (state.turn,)))
            return state.evolve(phase="roll", roll=None), events
        events.append(
            Event("info", f"{who} has no move for the six and has used every re-roll: the turn passes.", ("BP-Q19",))
        )
        return self._end_turn(state), events

    def _act_reroll(self, state: State, action: Action) -> tuple[State, list[Event]]:
        if state.phase == "move":
            raise refuse(f"Only a six gives another roll; {cap(state.turn)} rolled {state.roll}.", "BP-C7")
        self._expect(state, "six")
        if self.six_moves(state):
            # The six's own choices, not all three: "choose a move, a bring-out or a coin" was said to a player
            # without coins, or with nobody in the centre.
            raise refuse(
                "A roll again comes only with the move-six option while a move is possible; this six allows: "
                f"{self._six_choices(state)}.",
                "BP-C7",
            )
        return self._after_six_without_move(state, [])

    def _act_move(self, state: State, action: Action) -> tuple[State, list[Event]]:
        self._expect(state, "move", "six")
        t = self._traveller(state, action)
        if t.colour != state.turn:
            raise refuse(f"{traveller_name(t.id)} is not {cap(state.turn)}'s to move.", "BP-6")
        work = Work(state)
        if state.phase == "six":
            p = self.six_plan(state, work, t)
            if isinstance(p, str):
                # The clause is the reason the traveller cannot go, as on any other roll: frozen (BP-C10),
                # home (BP-Q7); only a traveller in the centre is answered by the six's own options.
                centre_rule = "BP-Q6" if self._draft(state) else "BP-C7"
                rule = "BP-C10" if t.frozen else ("BP-Q7" if t.at == CAMP else centre_rule)
                self._refuse_shut_exit(state, work, t)
                raise refuse(p, rule)
        else:
            p = self.roll_plan(state, work, t, state.roll or 0)
            if isinstance(p, str):
                self._refuse_shut_exit(state, work, t)
                rule = "BP-C10" if t.frozen else ("BP-5" if t.at not in (CENTRE, CAMP) else "BP-Q7")
                if "forward 0" in p:
                    rule = "BP-C6"
                raise refuse(p, rule)
            if p.legal and p.kind == "back":
                forward = [f for f in self.roll_plans(state)[0] if f.legal]
                if forward:
                    names = ", ".join(traveller_name(f.traveller) for f in forward)
                    raise refuse(
                        f"{traveller_name(t.id)} would be pulled back, but {names} can go forward; "
                        "a traveller is pulled back only when none can go forward.",
                        "BP-C2",
                    )
        if not p.legal:
            raise refuse(p.problem or "That move cannot be made.", p.rule or "BP-7")
        return self._do_move(state, work, p)

    def _refuse_shut_exit(self, state: State, work: Work, t: Traveller) -> None:
        """On the exit roll (a six; the glossary draft's 5), refuse a move of a traveller in the centre whose exit
        square is shut with the landing rule that shuts it.

        "Bring it out instead" (or "the 5 brings it out, as a bring-out") was said while its exit square held
        its own colour or two travellers, and the table looked for a bring-out that was not offered.
        """
        draft = self._draft(state)
        exit_roll = self.board.exit_roll(draft)
        if t.at != CENTRE or t.frozen or state.roll != exit_roll or (state.phase == "six") == draft:
            return
        out = plan(self.board, work, t.id, "out", exit_roll, state.opts)
        if not out.legal:
            raise refuse(f"{traveller_name(t.id)} is in the centre, and the {exit_roll} cannot bring it out: "
                         f"{out.problem}", self._shut_exit_rule(draft, out))

    @staticmethod
    def _shut_exit_rule(draft: bool, out: Plan) -> str:
        """The one clause a bring-out onto a blocked square is refused on.

        A refusal cites one clause, the most specific: BP-Q20 says that a six brings a traveller out onto
        square 6 by the landing rules and that a blocked square takes the option away, so it is cited
        rather than the landing rule behind it (BP-7), which the refusal's words already state ("a
        traveller of its own colour is there"). In the glossary draft the 5 onto square 5 is BP-Q6, and
        BP-Q20 speaks of the six: there the landing rule is the clause.
        """
        return (out.rule or "BP-7") if draft else "BP-Q20"

    def _do_move(self, state: State, work: Work, p: Plan) -> tuple[State, list[Event]]:
        t = work.t[p.traveller]
        before = self.board.label(t.at)
        # Heavy is what it was when it set off: a rider left behind on the edge still made it go by the table.
        heavy = bool(work.above(p.traveller)) and p.kind != "out"
        # A rider taking the move-six option is BP-Q39's case: cited with the stepping off (BP-C5, BP-Q17),
        # the table asking why a rider might take the six found only the clauses of a rider's ordinary move.
        rider_six = p.kind == "six" and t.on is not None
        cited: list[str] = []
        notes = execute(self.board, work, p.traveller, p.dest, True, state.opts, cited)
        name = traveller_name(p.traveller)
        dest = self.board.label(p.dest)
        if p.kind == "out":
            text = f"{name} comes out of the centre to {dest}."
            # The draft's 5 onto path square 5 is its own clause: BP-8, BP-Q20 and BP-D4 speak of a six and the
            # sixth square, and were cited beside a traveller brought out by a 5 onto the fifth.
            rules: tuple[str, ...] = ("BP-Q6",) if self._draft(state) else ("BP-8", "BP-Q20", "BP-D4")
        elif p.kind == "back":
            text = f"The water pulls {name} back {p.steps} from {before} to {dest}."
            rules = ("BP-5", "BP-C3") if p.dest == CENTRE else ("BP-5",)
            if p.dest in (CENTRE, self.board.paths[t.colour][0]):
                rules = (*rules, "BP-Q34")  # only going past the first square ends in the centre
            # BP-Q8: a roll that beats a traveller's pull where it cannot land is no move ahead, so one is pulled
            # back. Said so: the table saw a traveller that "could go forward" and a pull back allowed, citing
            # only the pull (BP-5), and asked which rule let it.
            blocked = [traveller_name(f.traveller) for f in self.roll_plans(state)[0]]
            if blocked:
                text += f" {series(blocked)} cannot land ahead, so a pull back is allowed."
                rules = (*rules, "BP-Q8")
            # BP-Q38: a frozen traveller the roll would send ahead is no candidate; the pull back beside it was
            # announced with the pull alone, and the table pointing at it asked why it did not have to go ahead.
            frozen = [traveller_name(f.id) for f in state.own(state.turn) if f.frozen and f.at not in (CENTRE, CAMP)
                      and (state.roll or 0) > self.board.pull(f.at, self._draft(state))]
            if frozen:
                verb = "is" if len(frozen) == 1 else "are"
                text += f" {series(frozen)} {verb} frozen and cannot go ahead."
                rules = (*rules, "BP-Q38")
        else:
            text = f"{name} goes forward {p.steps} from {before} to {dest}."
            rules = ("BP-5", "BP-C3") if p.dest == CAMP else ("BP-5",)
            if p.kind == "six":  # a six that runs past the camp ends there too (BP-C3), as any other move
                rules = ("BP-C7", "BP-C3") if p.dest == CAMP else ("BP-C7",)
                rules = (*rules, "BP-Q39") if rider_six else rules
            elif t.at != CAMP and self.board.zone(t.at) == "edge":
                rules = (*rules, "BP-Q36")  # the edge pulls nothing: any roll goes ahead
            if p.dest == CAMP and any(o.at == CAMP for o in state.own(t.colour)):
                rules = (*rules, "BP-Q35")  # the camp takes every traveller of its colour
        if heavy and p.kind == "six":
            # BP-Q10 is the carrier's six either way: by the heavy table (BP-C6), or a full six with the option off.
            rules = (*rules, "BP-C6", "BP-Q10") if state.opts["six.carrierUsesTable"] else (*rules, "BP-Q10")
        elif heavy:
            rules = (*rules, "BP-C6")
        if self._passes_occupied(state, p):
            rules = (*rules, "BP-Q11")  # only the landing square counts
        rules = (*rules, *cited)
        events = [Event("move", " ".join([text, *notes]), tuple(dict.fromkeys(rules)), (state.turn,))]
        new = state.evolve(travellers=work.travellers())
        new, won = self._check_finish(new, events)
        if p.kind == "six" and not won:
            if self._may_roll_again(new):
                events.append(Event("info", f"{cap(state.turn)} rolls again.", ("BP-C7",), (state.turn,)))
                return new.evolve(phase="roll", roll=None), events
            events.append(Event("info", "No more re-rolls this turn.", ("BP-Q19",), (state.turn,)))
        if new.phase == "over":
            return new, events
        return self._end_turn(new), events

    def _passes_occupied(self, state: State, p: Plan) -> bool:
        """Whether the move goes over a square someone stands on (BP-Q11: passing is free, only the landing
        counts), so the move says which clause let it past the travellers in its way.

        A traveller brought out of the centre counts path square 1 as its first (BP-Q20): it passes the squares
        before the one it lands on, and one brought out over travellers on squares 1 to 5 cited no BP-Q11.
        """
        t = state.by_id[p.traveller]
        path = self.board.paths[t.colour]
        if p.kind == "out":
            return any(o.at in path[: self.board.index[t.colour][p.dest]] for o in state.travellers)
        if t.at in (CENTRE, CAMP):
            return False
        start = self.board.index[t.colour][t.at]
        end = len(path) if p.dest == CAMP else -1 if p.dest == CENTRE else self.board.index[t.colour][p.dest]
        passed = set(path[min(start, end) + 1 : max(start, end)])
        return any(o.at in passed for o in state.travellers)

    def _act_bring_out(self, state: State, action: Action) -> tuple[State, list[Event]]:
        draft = self._draft(state)
        exit_roll = self.board.exit_roll(draft)
        if state.phase == "move" and not (draft and state.roll == exit_roll):
            # The draft's exit roll is its own clause: BP-D4 speaks of a six, which would contradict "a 5" here.
            rule = "BP-Q6" if draft else "BP-D4"
            raise refuse(f"Only a roll of {exit_roll} brings a traveller out of the centre.", rule)
        self._expect(state, "six", "move")
        if state.phase == "six" and draft:
            raise refuse(f"In the glossary draft a {exit_roll}, not a six, brings a traveller out.", "BP-Q6")
        t = self._traveller(state, action)
        if t.colour != state.turn:
            raise refuse(f"{traveller_name(t.id)} is not {cap(state.turn)}'s to move.", "BP-6")
        if t.at != CENTRE:
            # Which travellers may come out is BP-D4 (those waiting in the centre); BP-Q20 is where they land.
            raise refuse(f"{traveller_name(t.id)} is not in the centre.", "BP-D4")
        if t.frozen:
            raise refuse(f"{traveller_name(t.id)} is frozen and stays until it is awakened.", "BP-C10")
        work = Work(state)
        p = plan(self.board, work, t.id, "out", exit_roll, state.opts)
        if not p.legal:
            raise refuse(p.problem or "blocked", self._shut_exit_rule(draft, p))
        return self._do_move(state, work, p)

    def _act_coin(self, state: State, action: Action) -> tuple[State, list[Event]]:
        deck = action.get("deck")
        if deck not in DECKS:
            raise InvalidAction(f'"deck" must be "charm" or "curse", not {quoted(deck)}')
        if state.phase == "move":
            # The roll in hand is not a six; the reason is the coin rule, not "choose a traveller".
            raise refuse(f"A coin is spent only on a six; {cap(state.turn)} rolled {state.roll}.", "BP-Q21")
        self._expect(state, "six")
        coins = state.coins_of(state.turn)
        if coins <= 0:
            raise refuse(f"{cap(state.turn)} has no coins left.", "BP-Q21")
        if not state.deck_size(self.catalogue, deck):
            raise refuse(f"The {deck} deck is empty: each card is played only once.", "BP-Q21")
        index = state.players.index(state.turn)
        new_coins = tuple(c - 1 if i == index else c for i, c in enumerate(state.coins))
        left = f"{coins - 1} coin{'s' if coins - 1 != 1 else ''} left"
        text = f"{cap(state.turn)} spends a coin on the {deck} deck ({left})."
        events = [Event("info", text, ("BP-8", "BP-Q21"), (state.turn,))]
        return state.evolve(coins=new_coins, phase="draw", deck=deck, roll=None, six_chain=0), events

    def _act_draw(self, state: State, action: Action) -> tuple[State, list[Event]]:
        deck, cid = action.get("deck"), action.get("card")
        if deck not in DECKS:
            raise InvalidAction(f'"deck" must be "charm" or "curse", not {quoted(deck)}')
        if cid not in self.catalogue:
            raise InvalidAction(f"no card {quoted(cid)}; cards: {', '.join(self.catalogue.order)}")
        self._expect(state, "draw")
        card = self.catalogue[cid]
        if deck != state.deck:
            raise refuse(f"{cap(state.turn)} chose the {state.deck} deck, not the {deck} deck.", "BP-C8")
        if card.deck != deck:
            raise refuse(f"{card.name} is a {card.deck} card; it cannot come from the {deck} deck.", "BP-C8")
        if state.remaining.get(cid, 0) <= 0:
            raise refuse(f"{card.name} has already been played; each card is played only once.", "BP-C8")
        decks = tuple((c, n - 1 if c == cid else n) for c, n in state.decks)
        state = state.evolve(decks=decks, deck=None, card=cid, phase="target")
        events = [Event("info", f"{cap(state.turn)} plays {card.name} ({card.deck}).", ("BP-8", "BP-C8"))]
        if not effects.has_targets(self.board, state, card.effect):
            events.append(Event("info", f"{card.name} has nothing to act on and is spent.", ("BP-C8",)))
            return self._end_turn(state), events
        if card.effect == "gust":
            movers = effects.gust_movers(self.board, state)
            if len(movers) == 1:
                return self._finish_gust(state, tuple(movers), events)
        return state, events

    def _finish_gust(self, state: State, order: tuple[str, ...], events: list[Event]) -> tuple[State, list[Event]]:
        card = self.catalogue[state.card or ""]
        travellers, notes, cited = effects.resolve_gust(self.board, state, order, card.distance)
        rules = tuple(dict.fromkeys(("BP-C9", "BP-Q24", *cited)))  # a rider left behind: BP-Q16, and the rest
        events.append(Event("move", " ".join(notes), rules, (state.turn,)))
        return self._close_card(state.evolve(travellers=travellers), events)

    @staticmethod
    def _among_opponents(state: State) -> tuple[str, ...]:
        """BP-Q29 when a curse had more than one opponent to hit: the player chose which, and the curse said
        only its own clause, so a table of three asking why Green, not Red, was hit found no answer."""
        return ("BP-Q29",) if len(effects.opponents(state)) > 1 else ()

    def _close_card(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        state, _ = self._check_finish(state, events)
        if state.phase == "over":
            return state, events
        return self._end_turn(state), events

    def _step_refusal(self, state: State, t: Traveller, square: str, outward: bool, rule: str) -> tuple[str, str]:
        """Why a diagonal step may not go to ``square``, the one reason that holds, with its clause.

        "must be a free diagonal square one ring in on its path" named three conditions and left the
        table to find which failed, and which squares the step could reach instead.
        """
        name, direction = traveller_name(t.id), "out" if outward else "in"
        table = self.board.diagonal_out if outward else self.board.diagonal_in
        diagonals = [CENTRE if sq == self.board.centre_square else sq for sq in table.get(t.at, ())]
        target = self.board.label(square)
        if square not in diagonals:
            if not diagonals:  # "a step in reaches only no square" was said from a square no step leaves
                return (f"{name} cannot step to {target}: no square lies diagonally one ring {direction} from "
                        f"{self._where(state, t.id)}.", rule)
            reach = " or ".join(self.board.label(d) for d in diagonals)
            return (f"{name} cannot step to {target}: from {self._where(state, t.id)} a step {direction} "
                    f"reaches only {reach}.", rule)
        if square != CENTRE and (self.board.zone(square) == "camp" or not self.board.on_path(t.colour, square)):
            return f"{name} cannot step to {target}: it is not on {cap(t.colour)}'s path.", rule
        problem = landing_problem(self.board, Work(state), t.id, square, (), state.opts)
        return problem or (f"{name} cannot step to {target}.", rule)

    def _act_order(self, state: State, action: Action) -> tuple[State, list[Event]]:
        order = action.get("travellers")
        if not isinstance(order, list) or not all(isinstance(x, str) for x in order):
            raise InvalidAction('"travellers" must be a list of traveller ids')
        for tid in order:
            if tid not in state.by_id:
                raise InvalidAction(f"no traveller {quoted(tid)} in this game")
        self._expect(state, "target")
        card = self.catalogue[state.card or ""]
        if card.effect != "gust":
            raise refuse(f"{card.name} needs a target, not an order of travellers.", "BP-Q23")
        movers = effects.gust_movers(self.board, state)
        if sorted(order) != sorted(movers):
            names = ", ".join(traveller_name(m) for m in movers)
            raise refuse(f"Gust of Force moves exactly these travellers, once each: {names}.", "BP-Q24")
        return self._finish_gust(state, tuple(order), [])

    def old_step(
        self, states: Sequence[State], log: Sequence[Action], action: Action
    ) -> tuple[State, list[Event]] | None:
        """The step after a Diagonal Step Down that the companion before eed0d92 spent on nothing (BP-Q25).

        That companion stepped in from fewer squares (none from e3, c5, e7 or g5; one of two from sixteen
        others), so the card it drew could find nothing to act on and was spent; now it may step a traveller in
        and asks which. A game journalled then goes straight on to its next step: refused, it could no longer be
        resumed. The card is spent as it was at the table, said so, and the step is taken after it. Only right
        after the draw, while the card waits for a target, and for a step that is not an answer to it (an answer
        that older companion gave is still offered, the squares it reached being a part of today's).
        """
        state = states[-1]
        card = self.catalogue[state.card] if state.phase == "target" and state.card in self.catalogue else None
        if card is None or card.effect != "step_in" or action.get("type") in ("target", "order"):
            return None
        if not log or log[-1].get("type") != "draw" or log[-1].get("card") != card.id:
            return None
        spent = [Event("info", f"{card.name} is spent on nothing, as the companion this game was journalled on had"
                       " it: it stepped in from fewer squares then.", ("BP-C8", "BP-Q25"))]  # fmt: skip
        try:
            after, events = self.apply(self._end_turn(state), action)
        except CompanionError:
            return None
        return after, spent + events

    def _act_target(self, state: State, action: Action) -> tuple[State, list[Event]]:
        self._expect(state, "target")
        card = self.catalogue[state.card or ""]
        effect = card.effect
        rule = effects.EFFECT_RULE[effect]
        who = cap(state.turn)
        if effect == "gust":
            raise refuse("Gust of Force needs the order of its travellers (an order action).", "BP-Q24")
        if effect == "reset":
            colour = action.get("opponent")
            if colour not in self.colours:
                raise InvalidAction(f'Reset needs an "opponent" colour, not {quoted(colour)}')
            if colour == state.turn:  # the card's own clause says an opponent is picked (BP-Q28); BP-Q29, cited
                # here before, is the choice among several opponents, which a two-player table does not have
                raise refuse(f"{card.name} is played on an opponent, not on {who}.", rule)
            if colour not in effects.opponents(state):
                raise refuse(f"{card.name} must be played on an opponent still in the game.", "BP-Q29")
            travellers, notes = effects.resolve_reset(self.board, state, colour)
            events = [
                Event(
                    "penalty",
                    f"{who} resets {cap(colour)}. " + " ".join(notes),
                    ("BP-C9", "BP-Q28", "BP-D4", *self._among_opponents(state)),
                    (colour,),
                )
            ]
            return self._close_card(state.evolve(travellers=travellers), events)
        t = self._traveller(state, action)
        name = traveller_name(t.id)
        if effect == "awaken":
            if t.id not in effects.awaken_targets(state):
                # Whose it is comes first: "Awaken cannot act on Red 1: it is not frozen" let the table think a
                # rival's frozen traveller could be awakened (only with awaken.anyFrozen, BP-Q27).
                rival = t.colour != state.turn and not state.opts["awaken.anyFrozen"]
                why = f"is not {who}'s" if rival else "is not frozen"
                raise refuse(f"Awaken cannot act on {name}: it {why}.", rule)
            events = [Event("reward", f"{name} is awakened and may move again.", ("BP-C10", rule), (t.colour,))]
            return self._close_card(state.evolve(travellers=effects.set_frozen(state, t.id, False)), events)
        if effect == "freeze":
            if t.id not in effects.freeze_targets(state):
                # Each reason on its own: "...on the board that is not frozen; not Red 3" left the table
                # guessing which of the three Red 3 had failed (it was waiting in the centre).
                if t.colour == state.turn:
                    raise refuse(f"Freeze acts on an opponent's traveller, not {name}.", rule)
                if t.frozen:
                    raise refuse(f"{name} is already frozen.", rule)
                where = "waits in the centre" if t.at == CENTRE else "is home in camp"
                raise refuse(f"{name} {where}: Freeze acts only on a traveller out on the board.", rule)
            events = [
                Event("penalty", f"{name} is frozen on {self._where(state, t.id)}.",
                      ("BP-C10", rule, *self._among_opponents(state)), (t.colour,))
            ]
            return self._close_card(state.evolve(travellers=effects.set_frozen(state, t.id, True)), events)
        square = action.get("square")
        if not isinstance(square, str):
            raise InvalidAction(f'{card.name} needs a "square" to step to')
        if square == self.board.centre_square:
            square = CENTRE
        if square != CENTRE and square not in self.board.squares:
            raise InvalidAction(f"no square {quoted(square)} on this board")
        outward = effect == "step_out"
        side_ok = (t.colour == state.turn) if outward else (t.colour in effects.opponents(state))
        if not side_ok:
            whose = f"one of {who}'s own travellers" if outward else "an opponent's traveller"
            raise refuse(f"{card.name} acts on {whose}, not {name}.", "BP-Q23")
        # Name the real reason before blaming the square: a frozen traveller or one off the board had every
        # square refused as "not a free diagonal square", which the table could see was untrue.
        if t.frozen:
            raise refuse(f"{name} is frozen: a diagonal step does not move it until it is awakened.", "BP-Q26")
        if not effects.on_board(t):
            where = "in the centre" if t.at == CENTRE else "in camp"
            raise refuse(f"{name} is {where}: a diagonal step moves a traveller on the board.", rule)
        if square not in effects.step_squares(self.board, state, t.id, outward):
            raise refuse(*self._step_refusal(state, t, square, outward, rule))
        travellers, notes = effects.resolve_step(self.board, state, t.id, square)
        kind = "move" if outward else "penalty"
        among = () if outward else self._among_opponents(state)
        events = [Event(kind, " ".join(notes), ("BP-C9", rule, *among), (t.colour,))]
        return self._close_card(state.evolve(travellers=travellers), events)

    # -- turn end and the win ------------------------------------------------------
    def _check_finish(self, state: State, events: list[Event]) -> tuple[State, bool]:
        """Record players whose three travellers are all in camp (rule 1, BP-Q30)."""
        newly = [p for p in state.players if p not in state.finished and all(t.at == CAMP for t in state.own(p))]
        if not newly:
            return state, False
        finished = state.finished + tuple(newly)
        for p in newly:
            place = len(state.finished) + 1 + newly.index(p)
            text = (
                f"{cap(p)} has all three travellers in camp and wins!"
                if place == 1
                else f"{cap(p)} finishes in place {place}."
            )
            events.append(Event("win", text, ("BP-1", "BP-Q30"), (p,)))
        state = state.evolve(finished=finished)
        left = [p for p in state.players if p not in finished]
        if not state.opts["continueForPlacings"] or len(left) <= 1:
            state = state.evolve(finished=finished + tuple(left) if state.opts["continueForPlacings"] else finished)
            return state.evolve(phase="over", roll=None, deck=None, card=None, six_chain=0), True
        return state, state.turn in newly

    def _end_turn(self, state: State) -> State:
        order = state.players
        i = order.index(state.turn)
        for k in range(1, len(order) + 1):
            nxt = order[(i + k) % len(order)]
            if nxt not in state.finished:
                break
        return state.evolve(turn=nxt, phase="roll", roll=None, six_chain=0, deck=None, card=None)

    # -- views and checks ---------------------------------------------------------
    def on_table(self, state: State) -> dict[Hashable, OnTable]:
        """Each traveller's square, what it rides and whether it is frozen (BP-2, BP-C10), each player's coins
        (BP-Q21) and the cards in the decks or being played (BP-C8): what an undo has the table put back by hand
        ("Put Red 2 back on d6 (ring 4), not frozen.", "Give Red 1 coin back.")."""
        out: dict[Hashable, OnTable] = {}
        for t in state.travellers:
            at = [f"{'in' if t.at in (CENTRE, CAMP) else 'on'} {self.board.label(t.at)}"]
            if t.on:
                at.append(f"riding {traveller_name(t.on)}")
            if t.frozen:
                at.append("frozen")
            out[("traveller", t.id)] = OnTable(t.colour, traveller_name(t.id), ", ".join(at),
                                               ("BP-C10",) if t.frozen else ("BP-2",))
        for player in state.players:
            out[("coins", player)] = OnTable(player, "coins", state.coins_of(player), ("BP-Q21",), one="coin")
        for cid, count in state.decks:
            card = self.catalogue[cid]
            for k in range(count):
                out[("card", cid, k)] = OnTable("", card.name, f"in the {card.deck} deck", ("BP-C8",), dealt=True)
        if state.card:
            # Keyed as the card was in its deck, so an undone draw says "Put Reset back in the curse deck." once.
            out[("card", state.card, state.remaining.get(state.card, 0))] = OnTable("", self.catalogue[state.card].name,
                                                         f"face up in front of {state.turn.capitalize()}", ("BP-C8",),
                                                                  dealt=True)
        return out

    def card_copies(self) -> Mapping[str, int]:
        """The charm and curse decks' cards (BP-C8), as the café's cards.json counts them."""
        return {card.id: card.count for card in self.catalogue.cards.values() if card.count > 0}

    def card_names(self) -> Mapping[str, str]:
        """"Diagonal Step Up" for diagonal_step_up, as the café's cards.json names it."""
        return {card.id: card.name for card in self.catalogue.cards.values() if card.count > 0}

    def value_words(self, state: State, key: str, value: Any) -> str | None:
        """A field's value as Blackpool's texts write it: a traveller "Green 2", a card "Diagonal Step Down", a
        square "d6 (ring 4)", the travellers of an order "Red 1 then Red 2" (a refusal listing two orders read
        "Yellow 1, Yellow 2 or Yellow 2, Yellow 1", four travellers to the ear)."""
        if key == "traveller" and isinstance(value, str) and value in state.by_id:
            return traveller_name(value)
        if key == "travellers" and isinstance(value, list) and value and all(
                isinstance(t, str) and t in state.by_id for t in value):
            return " then ".join(map(traveller_name, value))
        if key == "square" and isinstance(value, str) and value in self.board.squares:
            return self.board.label(value)
        if key == "card" and isinstance(value, str) and value in self.catalogue:
            return self.catalogue[value].name
        return None

    def place_named(self, state: State, words: str) -> Hashable | None:
        """A traveller as the table reads it ("Red 2", "red2"), a square in any case or spacing ("D4" for d4,
        "c2" for a café's "C2"), the centre or camp. Both sides are read alike (``said_as``, spaces dropped):
        a café's square ids in capitals could never be asked about, and words naming two are refused."""
        pieces = ((t, (t, t.replace("-", "")), traveller_name(t)) for t in state.by_id)
        squares = ((sq, (sq,), self.board.label(sq)) for sq in (*self.board.squares, CENTRE, CAMP))
        how = "name a square as the board marks it, a traveller by its colour and number"
        return place_called(words, (*pieces, *squares), how, self.board_rule(state), _squeezed)

    def pieces_at(self, state: State, place: Hashable) -> list[Hashable] | None:
        """A square asked about stands for the travellers it concerns: first the player's own whose move for
        the roll in hand (or a six's move, bring-out or card step) would end there, then any standing there."""
        if not isinstance(place, str) or place not in (*self.board.squares, CENTRE, CAMP):
            return None
        if place in self.board.squares and self.board.squares[place].zone == "centre":
            place = CENTRE  # the middle square is where the centre's travellers wait
        # A camp's corner square is where its colour's travellers go home: `why a1` at Blue's camp heard
        # "nothing may be done there" while a Blue traveller's roll took it home, and nothing of those home.
        home = self.board.camp_colour.get(place) if isinstance(place, str) else None
        work = Work(state)
        plans: list[Plan | str] = []
        if state.phase == "move" and state.roll is not None:
            plans = [self.roll_plan(state, work, t, state.roll) for t in state.own(state.turn)]
        elif state.phase == "six":
            plans = [self.six_plan(state, work, t) for t in state.own(state.turn)]
            plans += self.bring_out_plans(state, work) if not self._draft(state) else []
        landing = [p.traveller for p in plans
                   if isinstance(p, Plan) and (p.dest == place or (p.dest == CAMP and home == state.turn))]
        stepping = [a["traveller"] for a in self.legal_actions(state) if a.get("square") == place]
        standing = sorted((t for t in state.travellers if t.at == place or (t.at == CAMP and t.colour == home)),
                          key=lambda t: t.colour != state.turn)
        return list(dict.fromkeys(landing + stepping + [t.id for t in standing]))

    def where_rules(self, state: State, action: Action) -> tuple[str, ...]:
        """A six's three options (a six-square move, a bring-out, a card) all rest on BP-C7; otherwise the
        clause the ruling leads with (a roll's move BP-5, a card's own clause)."""
        return ("BP-C7",) if state.phase == "six" else super().where_rules(state, action)

    def closed_place(self, state: State, place: Hashable) -> Ruling | None:
        """A square where no traveller stands and none of the player's would end now: moves name travellers
        and the roll decides where each goes, so the square is nobody's to choose.

        `why c3` there heard "what may be done now happens on travellers" and every clause of a few sample
        moves (riding, the heavy table, the camp), none saying why c3 was out of reach.
        """
        if place == CAMP:  # `why camp` heard only where play goes, not that nobody is home or gets there
            nobody, name = "no traveller is in camp", state.turn.capitalize()
        elif isinstance(place, str) and place in self.board.squares:
            nobody, name = f"no traveller stands on {self.board.label(place)}", state.turn.capitalize()
        else:
            return None
        if state.phase == "move" and state.roll is not None:
            return Ruling(False, f"{nobody}, and none of {name}'s would end its move there: with the {state.roll} "
                                 f"rolled each goes as far as the roll and its ring's pull send it", ("BP-5",))
        if state.phase == "six":
            if self._draft(state):  # the draft's six brings nobody out: "or comes out of the centre onto it" did
                exit_roll = self.board.exit_roll(True)
                return Ruling(False, f"{nobody}, and none of {name}'s would end there with the six: a traveller "
                                     f"moves six squares along its path; in the glossary draft only a {exit_roll} "
                                     "brings one out of the centre", ("BP-C7", "BP-Q6"))
            return Ruling(False, f"{nobody}, and none of {name}'s would end there with the six: a traveller moves "
                                 f"six squares along its path or comes out of the centre onto it", ("BP-C7",))
        if state.phase == "target":
            return Ruling(False, f"{nobody} for the card to act on", ("BP-C9",))
        return None

    def board_rule(self, state: State) -> str | None:
        """BP-Q1: the board's squares (its grid, rings, centre and camps); a traveller id is named on it too."""
        return "BP-Q1"

    def unknown_place(self, state: State, place: Hashable) -> str | None:
        """Moves name travellers; a square (or the centre, or camp) is a place on the board too."""
        if isinstance(place, str) and (place in state.by_id or place in self.board.squares or place in (CENTRE, CAMP)):
            return None
        first = next(iter(state.by_id))
        square = next(iter(self.board.squares))
        return (f"a traveller is named by its colour and number, such as {first}, and a square as the board marks it, "
                f"such as {square}")

    def describe(self, state: State) -> list[str]:
        return describe_state(self, state)

    def invariants(self, state: State) -> list[str]:
        return position_problems(self, state)

    def sim_choose(self, state: State, legal: list[Action], rng: Any) -> Action:
        return rng.choice(legal)
