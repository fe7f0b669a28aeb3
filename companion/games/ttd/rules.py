"""Through the Desert: setup inputs, leader placement, camel placement, the end and scoring.

Flow: the table enters the water-hole token lying on each site (a ``draw`` from
the token box, since the layout is the game's only chance), then players place
their leaders in turn order, then each turn places two camels, one action per
camel. The game ends when a colour's supply runs out (never at setup, TD-AT09)
or when nobody can place a camel any more.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.errors import InvalidAction, quoted
from companion.game import (
    Action,
    Event,
    Game,
    GameData,
    OnTable,
    Pending,
    not_playing,
    refuse,
    shapes,
    unknown_type,
)
from companion.games.ttd import INFO, document, scoring, view
from companion.games.ttd.board import Board, bits, build_board, hex_label
from companion.games.ttd.datafiles import PLAYER_COLOURS, SCHEMAS, cross_problems
from companion.games.ttd.options import OPTION_SPECS, PROFILES, Rules
from companion.games.ttd.recount import recount_problems
from companion.games.ttd.state import COLOURS, EMPTY, GUIDE, SLOTS, TtdState, derive, slot, with_piece
from companion.phrases import series

# Why a game ended, as stored in ``state.end``, for the two ends that are not a colour selling out.
END_NOBODY_CAN_PLACE = "no player can place a camel any more"
END_TOKENS_GONE = "no water-hole token is left on the board"


def final_sentence(result: dict[str, Any]) -> str:
    """The final scores and the winner (or the shared win), for the last announcement and the over screen."""
    totals = ", ".join(f"{p.capitalize()} {t}" for p, t in result["totals"].items())
    winners = result["winners"]
    who = (
        f"{winners[0].capitalize()} wins"
        if len(winners) == 1
        else "Shared win: " + series([w.capitalize() for w in winners])
    )
    return f"Final scores: {totals}. {who}."


@dataclass(frozen=True)
class ActionTexts:
    """Button texts per colour and hex, built once per board."""

    leader: tuple[tuple[str, ...], ...]
    camel: tuple[tuple[str, ...], ...]
    guide: tuple[str, ...]


class ThroughTheDesert(Game):
    id: ClassVar[str] = INFO.id
    score_rules: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "total": ("TTD-4", "TTD-4e"), "water": ("TTD-4a",), "oases": ("TTD-4b", "TD-Q14"),
        "areas": ("TTD-4c", "TD-Q16"), "longest": ("TTD-4d", "TD-Q17"),
    }
    held_points: ClassVar[tuple[str, ...]] = ("water", "oases")  # taken as the camel arrives; the rest at the end
    title: ClassVar[str] = INFO.title
    min_players: ClassVar[int] = INFO.min_players
    max_players: ClassVar[int] = INFO.max_players
    players_rule: ClassVar[str | None] = "TD-Q3"
    actions_rule: ClassVar[str | None] = "TTD-3"  # a turn: two camels from the supply
    turn_rule: ClassVar[str | None] = "TTD-T"
    action_shapes = shapes(draw="deck card hex", leader="colour hex", camel="colour hex", pass_="")
    field_words: ClassVar[Mapping[str, str]] = {"colour": "which camel colour", "card": "which token",
                                                 "deck": "which pile", "draw.hex": "which water hole"}
    colours: ClassVar[tuple[str, ...]] = PLAYER_COLOURS
    decks: ClassVar[tuple[str, ...]] = ("waterholes",)
    # the draw's texts: "enter the value of the token lying there"
    deck_names: ClassVar[Mapping[str, str]] = {"waterholes": "water-hole tokens"}
    token_decks: ClassVar[frozenset[str]] = frozenset({"waterholes"})  # the game has no cards to carry tags
    option_specs = OPTION_SPECS
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = PROFILES
    data_schemas = SCHEMAS
    sim_max_steps: ClassVar[int] = 3000

    def __init__(self, data: GameData) -> None:
        super().__init__(data)
        camels = data["camels"]
        self.colour_ids: tuple[str, ...] = tuple(c["id"] for c in camels["colours"])
        self.colour_names: tuple[str, ...] = tuple(c["name"] for c in camels["colours"])
        self.colour_letters: tuple[str, ...] = tuple(c.get("letter", c["id"][0]).upper() for c in camels["colours"])
        self.colour_index = {cid: i for i, cid in enumerate(self.colour_ids)}
        self.supply_by_players = {int(k): v for k, v in camels["supply_by_players"].items()}
        self.token_counts: dict[int, int] = {t["value"]: t["count"] for t in data["waterholes"]["tokens"]}
        self.token_ids: dict[str, int] = {t["id"]: t["value"] for t in data["waterholes"]["tokens"]}
        self.token_id_of: dict[int, str] = {v: k for k, v in self.token_ids.items()}
        self._boards: dict[int, Board] = {}
        self._texts: dict[int, ActionTexts] = {}

    @classmethod
    def cross_check(cls, files: Mapping[str, Any]) -> list[str]:
        return cross_problems(files)

    # -- helpers ----------------------------------------------------------------
    def board(self, players: int) -> Board:
        found = self._boards.get(players)
        if found is None:
            found = self._boards[players] = build_board(self.data["board"], players)
        return found

    def board_of(self, state: TtdState) -> Board:
        return self.board(len(state.players))

    def piece_name(self, state: TtdState, code: int) -> str:
        player, colour = divmod(code, SLOTS)
        name = state.players[player].capitalize()
        return f"{name}'s guide" if colour == GUIDE else f"{name}'s {self.colour_names[colour]}"

    def initial_leaders(self, rules: Rules, players: int, seat: int) -> tuple[int, ...]:
        """Leader colours a player starts with (TD-Q6, TD-Q7 five-player return)."""
        if rules.guide:
            return (GUIDE,)
        if players == 5 and rules.five_player_leaders == "return_one":
            return tuple(c for c in range(COLOURS) if c != seat)
        return tuple(range(COLOURS))

    def turn_quota(self, state: TtdState) -> int:
        """Camels this turn: two, except the opening reading of TD-Q9."""
        return state.rules.camels_per_turn(state.round, state.current)

    def token_left(self, state: TtdState, value: int) -> int:
        return self.token_counts.get(value, 0) - sum(1 for v in state.values if v == value)

    def next_site(self, state: TtdState) -> int | None:
        board = self.board_of(state)
        for h in board.sites:
            if not state.values[h]:
                return h
        return None

    # -- setup ---------------------------------------------------------------------
    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> TtdState:
        names = tuple(self.check_players(players))
        rules = Rules.from_options(self.resolve_options(dict(options)))
        board = self.board(len(names))
        n = len(names)
        cells = (EMPTY,) * board.size
        start_supply = self.supply_by_players[n]
        masks, reach, occupied, supply = derive(board, cells, frozenset(), start_supply, n)
        state = TtdState(
            players=names,
            rules=rules,
            phase="waterholes" if board.sites else "leaders",
            values=(0,) * board.size,
            cells=cells,
            leaders=frozenset(),
            leaders_left=tuple(self.initial_leaders(rules, n, seat) for seat in range(n)),
            first_leaders=(-1,) * n,
            current=0,
            placed=0,
            round=0,
            passes=0,
            water=((),) * n,
            oases=frozenset(),
            claimed=(),
            end="",
            masks=masks,
            reach=reach,
            occupied=occupied,
            supply=supply,
        )
        return state

    # -- documents -----------------------------------------------------------------
    def to_document(self, state: TtdState) -> dict[str, Any]:
        return document.to_document(self, state)

    def from_document(self, doc: Mapping[str, Any]) -> TtdState:
        return document.from_document(self, doc)

    # -- what next -------------------------------------------------------------------
    def pending(self, state: TtdState) -> Pending:
        if state.phase == "over":
            result = self.result(state)
            return Pending("over", None, f"The game is over: {state.end}. {final_sentence(result)}", result=result)
        if state.phase == "waterholes":
            h = self.next_site(state)
            board = self.board_of(state)
            done = sum(1 for s in board.sites if state.values[s])
            label = board.label(h) if h is not None else "?"
            return Pending(
                "draw",
                None,
                f"Water hole {done + 1} of {len(board.sites)} at {label}: enter the value of the token lying there.",
                deck="waterholes",
            )
        name = state.player.capitalize()
        if state.phase == "leaders":
            masks = self.leader_masks(state)
            if not masks:
                return Pending("choose", state.player, f"{name} cannot place a leader anywhere: pass.")
            return Pending("choose", state.player, self.leader_prompt(state, [c for c, _ in masks]))
        if not self.camel_masks(state):
            if state.placed:
                return Pending("choose", state.player, f"{name} cannot place a second camel: pass.")
            return Pending("choose", state.player, f"{name} cannot place any camel: pass.")
        quota = self.turn_quota(state)
        if quota == 1:
            return Pending("choose", state.player, f"{name}: place your only camel this turn (opening round).")
        # "your first camel" read oddly on a board full of them: it is the first of this turn's two
        return Pending("choose", state.player, f"{name}: place camel {state.placed + 1} of 2 this turn.")

    def leader_prompt(self, state: TtdState, placeable: list[int]) -> str:
        """Which leader to place now: the colours that may go out, when fewer than the leaders in hand.

        "Red: place a leader (left: green, yellow, blue, white)" was said to the first of five players, who
        may place only the white leader (TD-Q7), and to a player in the first round, whom the colours already
        opened rule out: the colours the table reads must be the ones it may choose.
        """
        name = state.player.capitalize()
        if state.rules.guide:
            return f"{name}: place the guide."
        hand = state.leaders_left[state.current]
        left = ", ".join(self.colour_names[c] for c in hand)
        if len(placeable) == len(hand):
            return f"{name}: place a leader (in hand: {left})."  # "left:" read as a side of the board
        names = [self.colour_names[c] for c in placeable]
        choice = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        opening = self.five_player_opening(state)
        if opening is not None:
            why = f"with five players the first leader is the colour {state.players[4].capitalize()} gave back"
        elif state.rules.leader_first_round_unique and state.first_leaders[state.current] == -1:
            why = "first round: a colour nobody has opened yet"
        else:
            why = "no hex is left for the others"
        return f"{name}: place the {choice} leader ({why}; in hand: {left})."

    def result(self, state: TtdState) -> dict[str, Any]:
        out = scoring.breakdown(self.board_of(state), state, self.colour_ids)
        out["end"] = state.end
        return out

    def score(self, state: TtdState) -> dict[str, Any]:
        """The breakdown as if the game ended now (provisional until the end)."""
        out = self.result(state)
        out["provisional"] = state.phase != "over"
        return out

    # -- legal choices -------------------------------------------------------------------
    def camel_masks(self, state: TtdState) -> list[tuple[int, int]]:
        """(colour, mask of hexes) the current player may place a camel on now (TTD-3a, 3b, 3c)."""
        if state.phase != "camels":
            return []
        board = self.board_of(state)
        p = state.current
        free = board.open_mask & ~state.occupied
        out: list[tuple[int, int]] = []
        n = len(state.players)
        reach = state.reach
        for c in range(COLOURS):
            if state.supply[c] <= 0:
                continue
            if state.masks[p * SLOTS + c]:
                near = reach[p * SLOTS + c]
            elif state.rules.guide:
                near = reach[p * SLOTS + GUIDE]
            else:
                continue
            cand = near & free
            if not cand:
                continue
            for q in range(n):
                if q != p:
                    cand &= ~reach[q * SLOTS + c]
            if cand:
                out.append((c, cand))
        return out

    def camel_moves(self, state: TtdState) -> list[tuple[int, int]]:
        """(colour, hex) pairs the current player may place now."""
        return [(c, h) for c, mask in self.camel_masks(state) for h in bits(mask)]

    def leader_base(self, state: TtdState, board: Board) -> int:
        """Hexes any leader of the current player may take, before colour rules (TTD-1e, TD-Q7)."""
        rules = state.rules
        mask = board.open_mask & ~state.occupied & ~board.palm_adjacent
        if not rules.leader_on_waterhole:
            mask &= ~board.site_mask
        if not rules.leader_near_waterhole:
            mask &= ~board.site_adjacent
        if not rules.leader_near_leader:
            for h in state.leaders:
                mask &= ~board.nbr_mask[h]
        return mask

    def leader_colours(self, state: TtdState) -> list[int]:
        """Colours the current player may place now, with first-round uniqueness kept completable."""
        p = state.current
        left = state.leaders_left[p]
        rules = state.rules
        if rules.guide or not rules.leader_first_round_unique or state.first_leaders[p] != -1:
            return list(left)
        opening = self.five_player_opening(state)
        if opening is not None:
            return [c for c in left if c == opening]
        used = {c for c in state.first_leaders if c != -1}
        others = [
            set(state.leaders_left[q]) - used
            for q in range(len(state.players))
            if q != p and state.first_leaders[q] == -1 and state.leaders_left[q]
        ]
        return [c for c in left if c not in used and matchable(others, used | {c})]

    def five_player_opening(self, state: TtdState) -> int | None:
        """The one colour the game's first leader may be under TD-Q7's five-player rule, else None.

        With five players each seat gives a colour back, and the first leader placed must be the colour the
        fifth player gave back: that leaves every later seat a colour of its own in the first round.
        """
        rules = state.rules
        if (
            len(state.players) != 5
            or rules.guide
            or rules.five_player_leaders != "return_one"
            or not rules.leader_first_round_unique
            or any(c != -1 for c in state.first_leaders)
        ):
            return None
        kept = self.initial_leaders(rules, 5, 4)
        return next(c for c in range(COLOURS) if c not in kept)

    def leader_masks(self, state: TtdState) -> list[tuple[int, int]]:
        """(colour, mask of hexes) for the leaders the current player may place now."""
        if state.phase != "leaders":
            return []
        board = self.board_of(state)
        base = self.leader_base(state, board)
        p = state.current
        out: list[tuple[int, int]] = []
        for c in self.leader_colours(state):
            mask = base
            if c != GUIDE:
                for q in range(len(state.players)):
                    if q != p:
                        mask &= ~state.reach[slot(q, c)]
            if mask:
                out.append((c, mask))
        return out

    def leader_moves(self, state: TtdState) -> list[tuple[int, int]]:
        return [(c, h) for c, mask in self.leader_masks(state) for h in bits(mask)]

    def legal_actions(self, state: TtdState) -> list[Action]:
        if state.phase == "over":
            return []
        board = self.board_of(state)
        if state.phase == "waterholes":
            h = self.next_site(state)
            if h is None:
                return []
            label = board.label(h)
            return [
                {
                    "type": "draw",
                    "deck": "waterholes",
                    "card": self.token_id_of[v],
                    "hex": board.hex_json(h),
                    "text": f"Water hole at {label} worth {v}",
                }
                for v in sorted(self.token_counts)
                if self.token_left(state, v) > 0
            ]
        name = state.player
        cap = name.capitalize()
        coords = board.coords
        texts = self.texts(board)
        # Built in one flat loop with cached texts: leader placement offers colour x hex, several
        # hundred actions, and this list is rebuilt on every call.
        out: list[Action] = []
        append = out.append
        if state.phase == "leaders":
            masks = self.leader_masks(state)
            if not masks:
                return [{"type": "pass", "player": name, "text": f"{cap} passes (no hex for a leader)"}]
            for c, mask in masks:
                if c == GUIDE:
                    text = texts.guide
                    for h in bits(mask):
                        q, r = coords[h]
                        append({"type": "leader", "player": name, "hex": [q, r], "text": text[h]})
                    continue
                cid, text = self.colour_ids[c], texts.leader[c]
                for h in bits(mask):
                    q, r = coords[h]
                    append({"type": "leader", "player": name, "colour": cid, "hex": [q, r], "text": text[h]})
            return out
        for c, mask in self.camel_masks(state):
            cid, text = self.colour_ids[c], texts.camel[c]
            for h in bits(mask):
                q, r = coords[h]
                append({"type": "camel", "player": name, "colour": cid, "hex": [q, r], "text": text[h]})
        if not out:
            return [{"type": "pass", "player": name, "text": f"{cap} passes (no camel can be placed)"}]
        return out

    def texts(self, board: Board) -> ActionTexts:
        found = self._texts.get(board.players)
        if found is None:
            labels = board.labels
            found = self._texts[board.players] = ActionTexts(
                leader=tuple(tuple(f"{n.capitalize()} leader to {x}" for x in labels) for n in self.colour_names),
                camel=tuple(tuple(f"{n.capitalize()} camel to {x}" for x in labels) for n in self.colour_names),
                guide=tuple(f"Guide to {x}" for x in labels),
            )
        return found

    # -- parsing ---------------------------------------------------------------------
    def parse_hex(self, board: Board, action: Mapping[str, Any], rule: str) -> int:
        raw = action.get("hex")
        if (
            not isinstance(raw, list | tuple)
            or len(raw) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
        ):
            raise InvalidAction('"hex" must be [q, r], two integers (axial coordinates)')
        h = board.index.get((raw[0], raw[1]))
        if h is None:
            raise refuse(f"{hex_label(raw[0], raw[1])} is not a hex of this board.", rule)
        return h

    def parse_colour(self, action: Mapping[str, Any]) -> int:
        raw = action.get("colour")
        if not isinstance(raw, str) or raw not in self.colour_index:
            raise InvalidAction(f"unknown camel colour {quoted(raw)}; colours: {', '.join(self.colour_ids)}")
        return self.colour_index[raw]

    def check_turn(self, state: TtdState, action: Mapping[str, Any]) -> None:
        who = action.get("player")
        if who is None:
            return
        if who not in state.players:
            raise not_playing(who, state.players, self.turn_rule)
        if state.phase in ("leaders", "camels") and who != state.player:
            raise refuse(f"It is {state.player.capitalize()}'s turn, not {str(who).capitalize()}'s.", "TTD-T")

    # -- apply ---------------------------------------------------------------------------
    def apply(self, state: TtdState, action: Action) -> tuple[TtdState, list[Event]]:
        kind = action.get("type")
        handler = {
            "draw": self.apply_draw,
            "leader": self.apply_leader,
            "camel": self.apply_camel,
            "pass": self.apply_pass,
        }.get(kind)  # type: ignore[arg-type]
        if handler is None:
            raise unknown_type(kind, self.action_shapes)
        self.check_turn(state, action)
        return handler(state, action)

    @staticmethod
    def end_rules(state: TtdState) -> tuple[str, ...]:
        """The clauses behind the reason this game ends (``state.end``).

        TTD-5 is only the end by a colour's last camel. A game that stopped because every player in a row
        had to pass ended under TTD-3f, and the optional no-tokens-left end is TD-Q18's alone; the
        announcement of such an end, its warning one turn ahead and any refusal after it must cite that
        clause, not the sold-out colour's.
        """
        if state.end == END_NOBODY_CAN_PLACE:
            return ("TTD-3f",)
        if state.end == END_TOKENS_GONE:
            return ("TD-Q18",)
        return ("TTD-5", "TD-Q18")

    @classmethod
    def end_clause(cls, state: TtdState) -> str:
        """The one clause a refusal after the end cites: the first of ``end_rules``."""
        return cls.end_rules(state)[0]

    def over_rule(self, state: TtdState) -> str | None:
        return self.end_clause(state)

    def refuse_if_over(self, state: TtdState) -> None:
        if state.phase == "over":
            raise refuse(f"The game is over: {state.end}.", self.end_clause(state))

    def apply_draw(self, state: TtdState, action: Mapping[str, Any]) -> tuple[TtdState, list[Event]]:
        if action.get("deck") != "waterholes":
            raise InvalidAction(f"unknown deck {quoted(action.get('deck'))}; the only deck is 'waterholes'")
        card = action.get("card")
        if not isinstance(card, str) or card not in self.token_ids:
            raise InvalidAction(f"unknown water-hole token {quoted(card)}; tokens: {', '.join(self.token_ids)}")
        value = self.token_ids[card]
        if state.phase != "waterholes":
            self.refuse_if_over(state)
            raise refuse("Every water-hole site already has its token.", "TTD-1c")
        board = self.board_of(state)
        if "hex" in action:
            h = self.parse_hex(board, action, "TTD-1c")
            if not (board.site_mask >> h) & 1:
                self.no_site_refusal(state, board, h)
            if state.values[h]:
                raise refuse(f"The water hole at {board.label(h)} already holds a {state.values[h]}.", "TTD-1c")
        else:
            h = self.next_site(state)
            assert h is not None
        if self.token_left(state, value) <= 0:
            raise refuse(f"No water-hole token worth {value} is left in the box.", "TTD-1c")
        values = list(state.values)
        values[h] = value
        new = replace(state, values=tuple(values))
        events = [Event("info", f"Water hole at {board.label(h)}: a token worth {value}.", ("TTD-1c", "TD-Q23"))]
        if self.next_site(new) is None:
            new = replace(new, phase="leaders")
            what = "guides" if state.rules.guide else "leaders"
            events.append(
                Event(
                    "info",
                    f"Every water hole is filled; the game does not end here. Players now place their {what}, "
                    f"{state.players[0].capitalize()} first.",
                    ("TTD-1", "TD-Q18", "TD-Q8"),
                )
            )
        return new, events

    def leader_refusal(self, state: TtdState, c: int, h: int) -> None:
        """Raise the reason a leader (guide) may not go on ``h``; return quietly if it may (TTD-1e)."""
        board = self.board_of(state)
        rules = state.rules
        p = state.current
        label = board.label(h)
        # A leader needs a free sand hex: that is TTD-1e, the leader's clause; TTD-3c is about camels.
        self.hex_refusal(state, board, h, "TTD-1e")
        what = "guide" if rules.guide else "leader"
        if (board.palm_adjacent >> h) & 1:
            raise refuse(f"A {what} may not stand next to an oasis, and {label} touches one.", "TTD-1e")
        if not rules.leader_on_waterhole and (board.site_mask >> h) & 1:
            # Said as the oasis refusal is: "a water hole ((2,0))" read two brackets deep.
            raise refuse(f"A {what} may not stand on a water hole, and {label} is one.", "TD-Q7")
        if not rules.leader_near_waterhole and (board.site_adjacent >> h) & 1:
            raise refuse(f"A {what} may not stand next to a water hole, and {label} touches one.", "TD-Q7")
        if not rules.leader_near_leader:
            for n in board.neighbours[h]:
                if n in state.leaders:
                    # piece_name says "Red's guide" or "Red's pink": only the latter wants " leader" after it
                    who = self.piece_name(state, state.cells[n]) + ("" if rules.guide else " leader")
                    raise refuse(f"{label} touches {who} at {board.label(n)}; {what}s keep apart.", "TD-Q7")
        if c != GUIDE:
            self.rival_refusal(state, board, p, c, h, what)

    def no_site_refusal(self, state: TtdState, board: Board, h: int) -> None:
        """Why no token goes on hex ``h``, which is no water-hole site in use, and where the next one goes.

        One sentence served every such hex: "(-6,12) is not a water-hole site in
        use with this many players" was said of bare sand in the middle of the
        map, and a table looked for a water hole that the player count had hidden.
        """
        label, players = board.label(h), len(state.players)
        now = self.sites_left_sentence(state, board)
        if not (board.in_play >> h) & 1:
            raise refuse(f"{label} lies in the region not used with {players} players: no token goes there.{now}",
                         "TTD-1a")
        if (board.palm_mask >> h) & 1:
            raise refuse(f"{label} holds an oasis with {players} players: no token goes there.{now}", "TTD-1b")
        raise refuse(f"{label} has no water hole: tokens go only on the water-hole sites.{now}", "TTD-1c")

    def sites_left_sentence(self, state: TtdState, board: Board) -> str:
        """Where a token may go instead, as the draw takes it: any empty site, in any order (a ``hex``).

        "The token to enter now is the one at (2,0)" was said while a token for any other empty site was
        accepted too, and a table filling the sites as the tokens lay believed it had to follow the list.
        """
        empty = [s for s in board.sites if not state.values[s]]
        if not empty:
            return ""
        first = board.label(empty[0])
        if len(empty) == 1:
            return f" The one water-hole site still empty is {first}."
        return (f" The token may go on any of the {len(empty)} water-hole sites still empty, in any order; {first} "
                "is asked for next.")

    def hex_refusal(self, state: TtdState, board: Board, h: int, rule: str = "TTD-3c") -> None:
        """Hexes no piece may take at all: ``rule`` is TTD-3c for a camel, TTD-1e for a leader; TTD-1a for both."""
        label = board.label(h)
        if not (board.in_play >> h) & 1:
            raise refuse(f"{label} lies in the region not used with {len(state.players)} players.", "TTD-1a")
        if (board.mountain >> h) & 1:
            raise refuse(f"{label} is a mountain; nothing may be placed there.", rule)
        if (board.palm_mask >> h) & 1:
            raise refuse(f"{label} holds an oasis; nothing may be placed on it.", rule)
        if (state.occupied >> h) & 1:
            raise refuse(f"{label} is already taken by {self.piece_name(state, state.cells[h])} piece.", rule)

    def rival_refusal(self, state: TtdState, board: Board, p: int, c: int, h: int, what: str) -> None:
        """Refuse a piece of colour ``c`` next to another player's piece of that colour (TTD-3b, TD-Q11)."""
        for q in range(len(state.players)):
            if q != p and (state.reach[slot(q, c)] >> h) & 1:
                near = next(n for n in board.neighbours[h] if state.cells[n] == slot(q, c))
                raise refuse(
                    f"A {self.colour_names[c]} {what} on {board.label(h)} would touch "
                    f"{state.players[q].capitalize()}'s {self.colour_names[c]} piece at {board.label(near)}.",
                    "TTD-3b",
                )

    def apply_leader(self, state: TtdState, action: Mapping[str, Any]) -> tuple[TtdState, list[Event]]:
        rules = state.rules
        board = self.board_of(state)
        if rules.guide:
            if action.get("colour") is not None:
                raise InvalidAction('a guide has no colour under one_guide leaders; leave out "colour"')
            c = GUIDE
        else:
            c = self.parse_colour(action)
        h = self.parse_hex(board, action, "TTD-1e")
        if state.phase != "leaders":
            self.refuse_if_over(state)
            when = "after the water holes are entered" if state.phase == "waterholes" else "before any camel"
            raise refuse(f"Leaders are placed {when}, not now.", "TTD-1")
        p = state.current
        name = state.player.capitalize()
        if c not in state.leaders_left[p]:
            raise refuse(f"{name} has no {self.colour_names[c]} leader left to place.", "TTD-1d")
        if c not in self.leader_colours(state):
            opening = self.five_player_opening(state)
            if opening is not None:
                raise refuse(
                    f"With five players the first leader must be {self.colour_names[opening]}, the "
                    f"colour the fifth player gave back, not {self.colour_names[c]}.",
                    "TD-Q7",
                )
            raise refuse(
                f"In the first round each leader must be of a colour nobody has placed yet "
                f"(and leave every later player a colour): {self.colour_names[c]} is not possible now.",
                "TD-Q7",
            )
        self.leader_refusal(state, c, h)
        new = with_piece(state, board, h, p, c, leader=True)
        left = list(state.leaders_left)
        left[p] = tuple(x for x in left[p] if x != c)
        firsts = state.first_leaders
        if firsts[p] == -1:
            firsts = tuple(c if i == p else x for i, x in enumerate(firsts))
        new = replace(new, leaders_left=tuple(left), first_leaders=firsts)
        what = "guide" if rules.guide else f"{self.colour_names[c]} leader"
        events = [
            Event("move", f"{name} places the {what} on {board.label(h)}.", ("TTD-1d", "TTD-1e"), (state.player,))
        ]
        if state.values[h]:
            # Only the leader_on_waterhole option (TD-Q7) lets a leader stand here: TTD-3d is the camel's clause.
            new, more = self.take_water(new, board, p, h, ("TTD-3d", "TD-Q7", "TD-Q13"))
            events.extend(more)
        # A leader (or guide) is a piece of the wall like any camel (TD-Q6), so it can close an area by itself
        # against the edge or a mountain; under immediate timing that area is claimed now, as a camel's would be.
        new, more = self.claim_areas(new, board, h, p, ("TTD-4c", "TD-Q16", "TD-Q6"))
        events.extend(more)
        new, more = self.after_leader(new)
        return new, events + more

    def claim_areas(
        self, state: TtdState, board: Board, h: int, p: int, rules: tuple[str, ...]
    ) -> tuple[TtdState, list[Event]]:
        """Under ``area_timing: immediate``, claim for player ``p`` every area the piece just put on ``h`` closes.

        Both leader and camel placements come through here: an area counted at the end whenever its wall stands
        (TD-Q16) must be claimed the moment the last piece of that wall goes down, whichever kind of piece it is,
        or the two timings would score the same board differently. ``rules`` are the clauses the reward cites.
        """
        if state.rules.area_timing != "immediate":
            return state, []
        found = scoring.new_areas(board, state, h)
        if not found:
            return state, []
        new = replace(state, claimed=state.claimed + tuple((a.player, a.colour, a.hexes) for a in found))
        player = state.players[p]
        events = []
        for a in found:
            size = len(a.hexes)
            text = (
                f"{player.capitalize()} encloses an area of {size} hex{'es' if size != 1 else ''}: "
                f"{a.points} point{'s' if a.points != 1 else ''}."
            )
            events.append(Event("reward", text, rules, (player,)))
        return new, events

    def after_leader(self, state: TtdState) -> tuple[TtdState, list[Event]]:
        """Next player with a leader in hand, or the start of camel placement (TD-Q8)."""
        n = len(state.players)
        for step in range(1, n + 1):
            q = (state.current + step) % n
            if state.leaders_left[q]:
                return replace(state, current=q), []
        new = replace(state, phase="camels", current=0, placed=0, round=0, passes=0)
        what = "guides" if state.rules.guide else "leaders"
        first = state.players[0].capitalize()
        if state.rules.opening == "first_two_one":
            # The opening reading of TD-Q9: "two per turn" was said to a first seat about to place one.
            second = state.players[1].capitalize()
            text = (
                f"All {what} are placed. {first} begins placing camels: {first} and {second} place one each "
                "this first round, then every turn places two."
            )
            events = [Event("info", text, ("TTD-3", "TD-Q20", "TD-Q9"))]
        else:
            text = f"All {what} are placed. {first} begins placing camels, two per turn."
            events = [Event("info", text, ("TTD-3", "TD-Q20"))]
        board = self.board_of(new)
        if state.rules.end_when_tokens_gone and not self.tokens_left(new, board):
            # Set-up never ends the game (TTD-5), so the no-token end waits for the first camel (tokens_gone_end):
            # said now, or a game over after one camel would come as a surprise.
            after = "the first turn" if state.rules.end_timing == "end_of_turn" else "the first camel placed"
            why = f"the {what} took the last ones" if any(new.values[s] for s in board.sites) else "none was laid"
            text = f"No water-hole token is left on the board ({why}): the game ends after {after}."
            events.append(Event("warning", text, ("TD-Q18", "TTD-5")))
        return new, events

    def take_water(
        self, state: TtdState, board: Board, p: int, h: int, rules: tuple[str, ...] = ("TTD-3d", "TD-Q13")
    ) -> tuple[TtdState, list[Event]]:
        """The piece just put on ``h`` takes its token; ``rules`` are a camel's clauses unless a leader took it."""
        value = state.values[h]
        water = list(state.water)
        water[p] = tuple(sorted((*water[p], value)))
        new = replace(state, water=tuple(water))
        worth = f"{value}" if state.rules.waterhole_value == "printed" else f"{value} (scoring 1 under flat values)"
        text = f"{state.players[p].capitalize()} takes the water hole at {board.label(h)} worth {worth}."
        return new, [Event("reward", text, rules, (state.players[p],))]

    @staticmethod
    def tokens_left(state: TtdState, board: Board) -> bool:
        """Whether any water-hole token still lies on the board (a site with a value and no piece on it)."""
        return any(state.values[s] and not (state.occupied >> s) & 1 for s in board.sites)

    def tokens_gone_end(self, state: TtdState, board: Board) -> TtdState:
        """After a camel placement: with ``end_when_tokens_gone``, no token left on the board ends the game.

        Checked after every camel, not only one that took a token: when the leaders took the last tokens in
        set-up (``leader_on_waterhole``), set-up could not end the game (TTD-5), and the end waited for a taker
        that could never come, so the option the table chose never fired. The first placement is the first
        moment the game may end, as every other end comes after a placement (TD-Q18).
        """
        if state.rules.end_when_tokens_gone and not self.tokens_left(state, board):
            return replace(state, end=state.end or END_TOKENS_GONE)
        return state

    def camel_refusal(self, state: TtdState, board: Board, c: int, h: int) -> None:
        """Raise why a camel of colour ``c`` may not go on ``h`` now (TTD-3a/3b/3c)."""
        p = state.current
        name = state.player.capitalize()
        cname = self.colour_names[c]
        if state.supply[c] <= 0:
            raise refuse(f"No {cname} camel is left in the supply.", "TTD-1f")
        self.hex_refusal(state, board, h)
        self.rival_refusal(state, board, p, c, h, "camel")
        label = board.label(h)
        if state.masks[slot(p, c)]:
            if not (state.reach[slot(p, c)] >> h) & 1:
                # Beside the guide the table expects a camel to be welcome; say why not (TD-Q6: once per colour).
                guide = state.rules.guide and (state.reach[slot(p, GUIDE)] >> h) & 1
                more = f"; the guide starts a colour only once, and the {cname} caravan is begun" if guide else ""
                raise refuse(f"{label} does not touch {name}'s {cname} caravan{more}.", "TTD-3a")
            return
        if state.rules.guide:
            if not (state.reach[slot(p, GUIDE)] >> h) & 1:
                raise refuse(
                    f"{name} has no {cname} caravan yet, so a {cname} camel must start next to "
                    f"{name}'s guide, and one on {label} would not touch it.",
                    "TD-Q6",
                )
            return
        raise refuse(f"{name} has no {cname} caravan: no {cname} leader of {name}'s is on the board.", "TTD-3a")

    def apply_camel(self, state: TtdState, action: Mapping[str, Any]) -> tuple[TtdState, list[Event]]:
        c = self.parse_colour(action)
        board = self.board_of(state)
        h = self.parse_hex(board, action, "TTD-3c")
        if state.phase != "camels":
            self.refuse_if_over(state)
            raise refuse("Camels are placed only once every leader is on the board.", "TTD-1")
        self.camel_refusal(state, board, c, h)
        p = state.current
        player = state.player
        name = player.capitalize()
        cname = self.colour_names[c]
        starts = not state.masks[slot(p, c)]
        new = with_piece(state, board, h, p, c, leader=False)
        new = replace(new, placed=state.placed + 1, passes=0)
        text = f"{name} places a {cname} camel on {board.label(h)}"
        text += f", starting the {cname} caravan next to the guide." if starts else "."
        events = [Event("move", text, ("TTD-3", "TTD-3a") + (("TD-Q6",) if starts else ()), (player,))]
        if state.values[h]:
            new, more = self.take_water(new, board, p, h)
            events.extend(more)
        new = self.tokens_gone_end(new, board)
        reached = [palm for palm in board.palms if (board.nbr_mask[palm] >> h) & 1 and (p, c, palm) not in new.oases]
        if reached:
            new = replace(new, oases=new.oases | {(p, c, palm) for palm in reached})
            for palm in reached:
                events.append(
                    Event(
                        "reward",
                        f"{name}'s {cname} caravan reaches the oasis at {board.label(palm)}: 5 points.",
                        ("TTD-3e", "TD-Q14"),
                        (player,),
                    )
                )
        new, more = self.claim_areas(new, board, h, p, ("TTD-4c", "TD-Q16"))
        events.extend(more)
        if new.supply[c] == 0 and not state.end:
            # The sold-out colour is the standard end (TTD-5); when the same camel also took the last token
            # (end_when_tokens_gone), both are said, and the end cites TTD-5 rather than the option alone.
            sold_out = f"the last {cname} camel has been placed"
            new = replace(new, end=sold_out + (f" and {new.end}" if new.end else ""))
        if new.end and (state.rules.end_timing == "immediate" or new.placed >= self.turn_quota(new)):
            return self.finish(new, events)
        if new.end and not state.end:
            events.append(
                Event("warning", f"The game ends after this turn: {new.end}.", self.end_rules(new), (player,))
            )
        if new.placed >= self.turn_quota(new):
            new = self.next_turn(new)
        return new, events

    def next_turn(self, state: TtdState) -> TtdState:
        n = len(state.players)
        nxt = (state.current + 1) % n
        return replace(state, current=nxt, placed=0, round=state.round + (1 if nxt == 0 else 0))

    def finish(self, state: TtdState, events: list[Event]) -> tuple[TtdState, list[Event]]:
        """End the game for the reason in ``state.end``, announced with that reason's clauses (``end_rules``)."""
        over = replace(state, phase="over")
        result = self.result(over)
        events = [
            *events,
            Event("info", f"The game ends: {state.end}.", self.end_rules(state)),
            Event("win", final_sentence(result), ("TTD-4", "TTD-4e", "TD-Q25"), tuple(result["winners"])),
        ]
        return over, events

    def apply_pass(self, state: TtdState, action: Mapping[str, Any]) -> tuple[TtdState, list[Event]]:
        name = state.player.capitalize() if state.phase in ("leaders", "camels") else ""
        board = self.board_of(state)
        if state.phase == "leaders":
            moves = self.leader_moves(state)
            if moves:
                c, h = moves[0]
                what = "guide" if c == GUIDE else f"{self.colour_names[c]} leader"
                raise refuse(f"{name} can still place a leader, e.g. the {what} on {board.label(h)}.", "TTD-1d")
            left = list(state.leaders_left)
            left[state.current] = ()
            new, more = self.after_leader(replace(state, leaders_left=tuple(left)))
            text = f"{name} can place no leader anywhere; the rest go back to the box."
            # Where a leader may stand (TTD-1e) is what left it no hex; TTD-3f and TD-Q12 are about camels.
            return new, [Event("warning", text, ("TTD-1d", "TTD-1e"), (state.player,)), *more]
        if state.phase != "camels":
            self.refuse_if_over(state)
            # Only the water-hole setup is left here: it is the table's input, and nobody's turn to pass.
            raise refuse("There is nothing to pass now: the water-hole tokens are being entered.", "TTD-1")
        moves = self.camel_moves(state)
        if moves:
            c, h = moves[0]
            raise refuse(
                f"{name} must place a camel while one fits, e.g. {self.colour_names[c]} on {board.label(h)}.", "TD-Q12"
            )
        passes = state.passes + (0 if state.placed else 1)
        text = f"{name} cannot place {'a second' if state.placed else 'any'} camel; the turn passes."
        events = [Event("info", text, ("TTD-3f", "TD-Q12"), (state.player,))]
        new = replace(state, passes=passes)
        if passes >= len(state.players):
            # Ending because nobody can place is our TTD-3f, not the sold-out colour of TTD-5, unless an end
            # was already due (end_of_turn) and that is the reason given, with its own clauses.
            new = replace(new, end=new.end or END_NOBODY_CAN_PLACE)
            return self.finish(new, events)
        if new.end:
            return self.finish(new, events)
        return self.next_turn(new), events

    # -- views and checks --------------------------------------------------------------
    def board_rule(self, state: TtdState) -> str | None:
        """The clause each phase's own refusal of a hex off the map cites (``parse_hex``): a water-hole site
        TTD-1c, a leader's hex TTD-1e, a camel's TTD-3c (also once the game is over: no clause says more of
        the map than that a hex off it takes no camel)."""
        return {"waterholes": "TTD-1c", "leaders": "TTD-1e"}.get(state.phase, "TTD-3c")

    def place_words(self, state: TtdState, place: Hashable) -> str | None:
        """A hex by the name every text gives it (``hex_label``), so the button box's walk says "(5,1)" as the
        refusals, the prompts and the map's tags do, from the one spelling."""
        if isinstance(place, tuple) and place in self.board_of(state).index:
            return hex_label(*place)
        return None

    def unknown_place(self, state: TtdState, place: Hashable) -> str | None:
        """Every place is a hex of the board file, in play at this player count or not."""
        board = self.board_of(state)
        if isinstance(place, tuple) and place in board.index:
            return None
        q, r = board.coords[len(board.coords) // 2]
        return f"a hex is named by its two numbers as the board view shows them, such as {q},{r}"

    def value_words(self, state: TtdState, key: str, value: Any) -> str | None:
        """A water-hole token by its worth, as the draw's own text says it ("Water hole at (2,0) worth 1")."""
        if key == "card" and isinstance(value, str) and value in self.token_ids:
            return f"water hole worth {self.token_ids[value]}"
        return None

    def field_values(self, state: TtdState, key: str) -> Sequence[Any]:
        """A camel's or leader's colour is one of the five: while the water holes were entered, none was
        offered or placed yet, and Build's colour list was empty."""
        return self.colour_ids if key == "colour" else ()

    def choice_words(self, state: TtdState, action: Action) -> str | None:
        """A camel or leader by colour ("green camel"), a water-hole token by its worth: what `why` at a hex
        lists as the other choices one rule rules out there."""
        kind, colour, card = action.get("type"), action.get("colour"), action.get("card")
        if kind in ("camel", "leader") and isinstance(colour, str):
            return f"{colour} {kind}"
        if kind == "draw" and isinstance(card, str) and card in self.token_ids:
            return f"water hole worth {self.token_ids[card]}"
        return None

    def on_table(self, state: TtdState) -> dict[Hashable, OnTable]:
        """The water-hole tokens still lying on their holes (TTD-4a): an undo that gives a token's points back
        has it put back by hand ("Put the 3-point water-hole token back on (5,3)."). A camel taken back is named
        by its step's own line; a token taken by a piece now on its hole is in its player's pile."""
        board, out = self.board(len(state.players)), {}
        for h in board.sites:
            value = state.values[h]
            if value and state.cells[h] == EMPTY:
                out[("token", h)] = OnTable("", f"the {value}-point water-hole token", f"on {board.label(h)}",
                                            ("TTD-4a",), dealt=True)
        return out

    def describe(self, state: TtdState) -> list[str]:
        return view.describe(self, state)

    def invariants(self, state: TtdState) -> list[str]:
        problems = document.consistency(self, state)
        if state.phase == "over":
            problems.extend(recount_problems(self, state))
        return problems

    def sim_choose(self, state: TtdState, legal: list[Action], rng: random.Random) -> Action:
        """Deal water holes in proportion to the tokens left in the box, as a shuffled pile would."""
        if state.phase == "waterholes" and legal:
            weights = [self.token_left(state, self.token_ids[a["card"]]) for a in legal]
            return rng.choices(legal, weights=weights)[0]
        return rng.choice(legal)


def matchable(players: list[set[int]], used: set[int]) -> bool:
    """Can each remaining player still take a distinct unused colour? (tiny bipartite search)"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(matchable(rest, used | {c}) for c in first - used)
