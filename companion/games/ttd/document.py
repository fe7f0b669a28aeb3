"""The position document: readable JSON a table can write by hand, and its loader.

The loader lists every fault at once (a piece on a mountain, a caravan split in
two, two players' pink camels touching...) so a table correcting a misread
position sees everything to fix in one go.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.errors import BadRequest, InvalidPosition, quoted
from companion.game import not_playing_words
from companion.games.ttd.board import Board, bits, hex_label
from companion.games.ttd.options import OPTION_SPECS, Rules, profile_of
from companion.games.ttd.recount import unclaimed_areas
from companion.games.ttd.state import COLOURS, EMPTY, GUIDE, PHASES, SLOTS, TtdState, derive, slot
from companion.journalled_start import refuse_position
from companion.schema import is_known, look_up, whole_hint

if TYPE_CHECKING:
    from companion.games.ttd.rules import ThroughTheDesert

GUIDE_ID = "guide"


def _name(game: ThroughTheDesert, colour: int) -> str:
    return GUIDE_ID if colour == GUIDE else game.colour_ids[colour]


def to_document(game: ThroughTheDesert, state: TtdState) -> dict[str, Any]:
    board = game.board_of(state)
    players = state.players
    pieces = []
    for h, code in enumerate(state.cells):
        if code == EMPTY:
            continue
        p, c = divmod(code, SLOTS)
        pieces.append(
            {"hex": board.hex_json(h), "player": players[p], "colour": _name(game, c), "leader": h in state.leaders}
        )
    return {
        "game": game.id,
        "players": list(players),
        "options": state.rules.to_dict(),
        "profile": profile_of(state.rules),
        "phase": state.phase,
        "turn": state.player,
        "placed_this_turn": state.placed,
        "round": state.round,
        "passes": state.passes,
        "waterholes": [{"hex": board.hex_json(h), "value": state.values[h] or None} for h in board.sites],
        "pieces": pieces,
        "leaders_in_hand": {players[p]: [_name(game, c) for c in left] for p, left in enumerate(state.leaders_left)},
        "first_leaders": {players[p]: (_name(game, c) if c >= 0 else None) for p, c in enumerate(state.first_leaders)},
        "water": {players[p]: list(tokens) for p, tokens in enumerate(state.water)},
        "oases": [
            {"player": players[p], "caravan": game.colour_ids[c], "oasis": board.hex_json(palm)}
            for p, c, palm in sorted(state.oases)
        ],
        "claimed_areas": [
            {
                "player": players[p],
                "caravan": _name(game, c) if c >= 0 else None,
                "hexes": [board.hex_json(h) for h in sorted(hexes)],
            }
            for p, c, hexes in state.claimed
        ],
        "supply": {game.colour_ids[c]: state.supply[c] for c in range(COLOURS)},
        "end": state.end or None,
    }


class _Reader:
    """Collects problems while parsing, so the loader can report all of them."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def add(self, message: str) -> None:
        self.problems.append(message)


def _hex(board: Board, raw: Any, where: str, reader: _Reader) -> int | None:
    if (
        not isinstance(raw, list)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        reader.add(f"{where}: expected [q, r], two whole numbers, found {quoted(raw)}")
        return None
    h = look_up(board.index, (raw[0], raw[1]))
    if h is None:
        reader.add(f"{where}: {hex_label(raw[0], raw[1])} is not on the board")
    return h


def _parse_rules(game: ThroughTheDesert, doc: Mapping[str, Any], reader: _Reader) -> Rules:
    raw = doc.get("options", {})
    if not isinstance(raw, Mapping):
        reader.add("options: expected an object")
        raw = {}
    try:
        return Rules.from_options(game.resolve_options(dict(raw)))
    except BadRequest:
        pass  # find every faulty key below
    good: dict[str, Any] = {}
    for key, value in raw.items():
        try:
            game.resolve_options({key: value})
        except BadRequest as exc:
            reader.add(f"options: {exc.message}")
            continue
        good[key] = value
    return Rules.from_options({**{o.key: o.default for o in OPTION_SPECS}, **good})


def from_document(game: ThroughTheDesert, doc: Mapping[str, Any]) -> TtdState:
    reader = _Reader()
    if not isinstance(doc, Mapping):
        raise InvalidPosition(["the position must be a JSON object"])
    if doc.get("game") != game.id:
        reader.add(f"game: expected {quoted(game.id)}, found {quoted(doc.get('game'))}")
    raw_players = doc.get("players")
    try:
        players = tuple(game.check_players(raw_players if isinstance(raw_players, list) else []))
    except BadRequest as exc:
        raise InvalidPosition([*reader.problems, f"players: {exc.message}"]) from None
    n = len(players)
    pindex = {p: i for i, p in enumerate(players)}
    rules = _parse_rules(game, doc, reader)
    board = game.board(n)
    phase = doc.get("phase")
    if phase not in PHASES:
        reader.add(f"phase: {quoted(phase)} is not one of {', '.join(PHASES)}")
        phase = "camels"

    values = _read_waterholes(game, board, doc, phase, reader)
    cells, leaders = _read_pieces(game, board, doc, players, rules, phase, reader)
    start_supply = game.supply_by_players[n]
    masks, reach, occupied, supply = derive(board, cells, leaders, start_supply, n)
    for c in range(COLOURS):
        if supply[c] < 0:
            reader.add(
                f"pieces: {start_supply - supply[c]} {game.colour_ids[c]} camels, but only {start_supply} are used"
            )
    _check_caravans(game, board, players, rules, cells, leaders, masks, reach, reader)

    _by_player(doc, players, reader)
    leaders_left, first_leaders = _read_hands(game, doc, players, rules, cells, leaders, phase, reader)
    camels = sum(1 for h, code in enumerate(cells) if code != EMPTY and h not in leaders)
    current, placed, round_, passes = _read_turn(doc, players, rules, phase, camels, reader)

    water = _read_water(game, board, doc, players, values, cells, reader)
    oases = _read_oases(game, board, doc, players, pindex, cells, reader)
    claimed = _read_claimed(game, board, doc, pindex, rules, cells, reader)
    end = doc.get("end")
    if end is not None and not isinstance(end, str):
        reader.add("end: expected text or null")
        end = None
    if phase == "over" and not end:
        reader.add("end: a finished game must say why it ended")
    if phase in ("waterholes", "leaders") and end:
        reader.add("end: the game cannot be ending before camels are placed")
    doc_supply = doc.get("supply")
    if isinstance(doc_supply, Mapping):
        for c, cid in enumerate(game.colour_ids):
            if cid in doc_supply and doc_supply[cid] != max(supply[c], 0):
                reader.add(f"supply: {cid} says {quoted(doc_supply[cid])}, but the pieces leave {supply[c]}")
    if phase == "camels" and not end and any(s == 0 for s in supply) and rules.end_timing == "immediate":
        reader.add("phase: a colour's supply is empty, so the game should be over")
    if reader.problems:
        refuse_position(reader.problems)  # noted instead while a journalled start is read back
    state = TtdState(
        players=players,
        rules=rules,
        phase=phase,
        values=values,
        cells=cells,
        leaders=leaders,
        leaders_left=leaders_left,
        first_leaders=first_leaders,
        current=current,
        placed=placed,
        round=round_,
        passes=passes,
        water=water,
        oases=oases,
        claimed=claimed,
        end=end or "",
        masks=masks,
        reach=reach,
        occupied=occupied,
        supply=supply,
    )
    # Under area_timing immediate the placement closing a wall claims the area (TD-Q16), and walls stay: an area
    # enclosed with no claim (the option switched mid-game, a claim left out) was never scored by the referee.
    unclaimed = []
    if rules.area_timing == "immediate":
        unclaimed = unclaimed_areas(game, json.loads(json.dumps(to_document(game, state))))
    if unclaimed:
        refuse_position(
            [
                f"claimed_areas: {problem.removeprefix('recount: ')}; under area_timing immediate an area is "
                "claimed as its wall closes (TD-Q16)"
                for problem in unclaimed
            ]
        )
    return state


def _read_waterholes(game, board: Board, doc, phase: str, reader: _Reader) -> tuple[int, ...]:
    values = [0] * board.size
    raw = doc.get("waterholes", [])
    if not isinstance(raw, list):
        reader.add("waterholes: expected a list")
        raw = []
    for i, entry in enumerate(raw):
        where = f"waterholes[{i}]"
        if not isinstance(entry, Mapping):
            reader.add(f"{where}: expected an object with hex and value")
            continue
        h = _hex(board, entry.get("hex"), f"{where}.hex", reader)
        value = entry.get("value")
        if h is None:
            continue
        if not (board.site_mask >> h) & 1:
            reader.add(f"{where}: {board.label(h)} is not a water-hole site in use with {board.players} players")
            continue
        if value is None:
            continue
        if isinstance(value, bool) or not is_known(value, game.token_counts):  # JSON's true is Python's 1
            values_named = ", ".join(map(str, game.token_counts))
            reader.add(f"{where}: value {quoted(value)} is not a token value ({values_named})")
            continue
        if values[h]:
            reader.add(f"{where}: {board.label(h)} is listed twice")
        values[h] = value
    for v, count in game.token_counts.items():
        used = values.count(v)
        if used > count:
            reader.add(f"waterholes: {used} tokens worth {v}, but the box holds {count}")
    if phase != "waterholes":
        missing = [board.label(h) for h in board.sites if not values[h]]
        if missing:
            reader.add(f"waterholes: no value for {', '.join(missing)} although setup is over")
    elif board.sites and all(values[h] for h in board.sites):
        # Loaded so, the referee asked for a water hole past the last one and offered nothing to enter.
        reader.add(
            "phase: every water hole has its value, so setup is over and leader placement has begun "
            "(phase 'leaders', TTD-1c)"
        )
    return tuple(values)


def _read_pieces(game, board: Board, doc, players, rules: Rules, phase: str, reader: _Reader):
    cells = [EMPTY] * board.size
    leaders: set[int] = set()
    raw = doc.get("pieces", [])
    if not isinstance(raw, list):
        reader.add("pieces: expected a list")
        raw = []
    leader_seen: dict[tuple[int, int], int] = {}
    for i, entry in enumerate(raw):
        where = f"pieces[{i}]"
        if not isinstance(entry, Mapping):
            reader.add(f"{where}: expected an object")
            continue
        h = _hex(board, entry.get("hex"), f"{where}.hex", reader)
        player = entry.get("player")
        colour = entry.get("colour")
        is_leader = entry.get("leader", False)
        ok = True
        if not is_known(player, players):
            reader.add(f"{where}.player: {not_playing_words(player, players)}")
            ok = False
        if colour == GUIDE_ID:
            c = GUIDE
            if not rules.guide:
                reader.add(f"{where}: a guide exists only with the one_guide option")
                ok = False
            if is_leader is not True:
                reader.add(f"{where}: a guide must be marked leader: true")
                is_leader = True
        elif is_known(colour, game.colour_index):
            c = game.colour_index[colour]
            if rules.guide and is_leader:
                reader.add(f"{where}: with one_guide leaders a coloured camel cannot be a leader")
                ok = False
        else:
            colours = ", ".join((*game.colour_ids, GUIDE_ID) if rules.guide else game.colour_ids)
            reader.add(f"{where}.colour: unknown colour {quoted(colour)}; colours: {colours}")
            ok = False
        if not isinstance(is_leader, bool):
            reader.add(f"{where}: leader must be true or false")
            ok = False
        if h is None or not ok:
            continue
        label = board.label(h)
        if not (board.in_play >> h) & 1:
            reader.add(f"{where}: {label} is in the region not used with {len(players)} players")
        elif (board.mountain >> h) & 1:
            reader.add(f"{where}: {label} is a mountain")
        elif (board.palm_mask >> h) & 1:
            reader.add(f"{where}: {label} holds an oasis")
        if cells[h] != EMPTY:
            reader.add(f"{where}: {label} already holds another piece")
            continue
        p = players.index(player)
        if phase == "waterholes":
            reader.add(f"{where}: no piece can be on the board while water holes are being entered")
        if phase == "leaders" and not is_leader:
            reader.add(f"{where}: a camel on the board before every leader is placed")
        if is_leader:
            key = (p, c)
            if key in leader_seen:
                what = "guide" if c == GUIDE else f"{colour} leader"
                reader.add(f"{where}: {player} has a second {what} (first at pieces[{leader_seen[key]}])")
            leader_seen.setdefault(key, i)
            if c not in game.initial_leaders(rules, len(players), p):
                reader.add(f"{where}: {player} has no {colour} leader in a {len(players)}-player game")
            leaders.add(h)
        cells[h] = slot(p, c)
    for h in sorted(leaders):
        _check_leader_spot(game, board, rules, cells, leaders, h, reader)
    return tuple(cells), frozenset(leaders)


def _check_leader_spot(game, board: Board, rules: Rules, cells, leaders, h: int, reader: _Reader) -> None:
    label = board.label(h)
    if (board.palm_adjacent >> h) & 1:
        reader.add(f"pieces: the leader on {label} stands next to an oasis")
    if not rules.leader_on_waterhole and (board.site_mask >> h) & 1:
        reader.add(f"pieces: the leader on {label} stands on a water hole")
    if not rules.leader_near_waterhole and (board.site_adjacent >> h) & 1:
        reader.add(f"pieces: the leader on {label} stands next to a water hole")
    if not rules.leader_near_leader:
        for n in board.neighbours[h]:
            if n in leaders and n > h:
                reader.add(f"pieces: the leaders on {label} and {board.label(n)} touch")


def _check_caravans(game, board: Board, players, rules: Rules, cells, leaders, masks, reach, reader: _Reader) -> None:
    for p, player in enumerate(players):
        guide_mask = masks[slot(p, GUIDE)]
        for c in range(COLOURS):
            mask = masks[slot(p, c)]
            if not mask:
                continue
            cid = game.colour_ids[c]
            if rules.guide:
                if not guide_mask:
                    reader.add(f"pieces: {player} has {cid} camels but no guide on the board")
                elif not mask & reach[slot(p, GUIDE)]:
                    reader.add(f"pieces: {player}'s {cid} caravan does not touch {player}'s guide")
            elif not any(h in leaders for h in bits(mask)):
                reader.add(f"pieces: {player} has {cid} camels but no {cid} leader")
            if len(_groups(board, mask)) > 1:
                reader.add(f"pieces: {player}'s {cid} camels form more than one caravan")
            for q in range(len(players)):
                if q > p and mask & reach[slot(q, c)]:
                    reader.add(f"pieces: {player}'s and {players[q]}'s {cid} pieces touch")


def _groups(board: Board, mask: int) -> list[int]:
    groups = []
    todo = mask
    while todo:
        low = todo & -todo
        group = low
        frontier = low
        while frontier:
            grow = 0
            for h in bits(frontier):
                grow |= board.nbr_mask[h]
            frontier = grow & mask & ~group
            group |= frontier
        groups.append(group)
        todo &= ~group
    return groups


def _read_hands(game, doc, players, rules: Rules, cells, leaders, phase: str, reader: _Reader):
    n = len(players)
    placed = [set() for _ in players]
    for h in leaders:
        p, c = divmod(cells[h], SLOTS)
        placed[p].add(c)
    raw = doc.get("leaders_in_hand")
    hands: list[tuple[int, ...]] = []
    for p, player in enumerate(players):
        start = game.initial_leaders(rules, n, p)
        if not isinstance(raw, Mapping):
            hand = tuple(c for c in start if c not in placed[p]) if phase in ("waterholes", "leaders") else ()
        else:
            hand_raw = raw.get(player, [])
            hand_list: list[int] = []
            if not isinstance(hand_raw, list):
                reader.add(f"leaders_in_hand.{player}: expected a list")
                hand_raw = []
            for cid in hand_raw:
                c = GUIDE if cid == GUIDE_ID else look_up(game.colour_index, cid)
                if c is None or c not in start:
                    reader.add(f"leaders_in_hand.{player}: {quoted(cid)} is not one of {player}'s leaders")
                elif c in placed[p]:
                    reader.add(f"leaders_in_hand.{player}: the {cid} leader is also on the board")
                elif c in hand_list:
                    reader.add(f"leaders_in_hand.{player}: {quoted(cid)} listed twice")
                else:
                    hand_list.append(c)
            hand = tuple(c for c in start if c in hand_list)
        if phase in ("camels", "over") and hand:
            reader.add(f"leaders_in_hand.{player}: leaders still in hand after leader placement ended")
        if phase == "waterholes" and hand != start:
            reader.add(f"leaders_in_hand.{player}: every leader is in hand while water holes are entered")
        hands.append(hand)
    raw_first = doc.get("first_leaders")
    firsts: list[int] = []
    for p, player in enumerate(players):
        cid = raw_first.get(player) if isinstance(raw_first, Mapping) else None
        if cid is None:
            c = -1
            if placed[p] and isinstance(raw_first, Mapping):
                reader.add(f"first_leaders.{player}: null, but {player} has leaders on the board, so one of them "
                           f"was placed first: name its colour")
            elif placed[p]:
                # Not given (a hand-written position): any opening colour not taken by an earlier seat.
                free = sorted(placed[p] - set(firsts))
                c = free[0] if free else min(placed[p])
        else:
            c = GUIDE if cid == GUIDE_ID else look_up(game.colour_index, cid, -2)
            if c == -2 or c not in placed[p]:
                reader.add(f"first_leaders.{player}: {quoted(cid)} is not a leader {player} has on the board")
                c = -1
        firsts.append(c)
    if rules.leader_first_round_unique and not rules.guide and phase == "leaders":
        chosen = [c for c in firsts if c >= 0]
        if len(set(chosen)) != len(chosen):
            reader.add("first_leaders: two players opened with the same colour")
    if phase == "leaders" and all(not h for h in hands):
        reader.add("phase: every leader is placed, so camel placement has begun")
    return tuple(hands), tuple(firsts)


def _int_field(doc, key: str, low: int, high: int, default: int, reader: _Reader) -> int:
    value = doc.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        reader.add(f"{key}: expected an integer from {low} to {high}, found {quoted(value)}{whole_hint(value)}")
        return default
    return value


def _read_turn(doc, players, rules: Rules, phase: str, camels: int, reader: _Reader) -> tuple[int, int, int, int]:
    """Whose turn, and how far it and the game have gone: only what a sequence of turns can leave.

    Loaded past its quota, a single-camel opening turn asked for its "only camel" again and then moved on
    after two; passes beside a camel placed this turn ended the game before every seat had passed.
    """
    turn = doc.get("turn")  # no default: left out, it was the first player's turn, whoever's it was at the table
    if not is_known(turn, players):
        reader.add(f"turn: {not_playing_words(turn, players)}")
        turn = players[0]
    current = players.index(turn)
    placed = _int_field(doc, "placed_this_turn", 0, 2 if phase == "over" else 1, 0, reader)
    round_ = _int_field(doc, "round", 0, 10_000, 0, reader)
    passes = _int_field(doc, "passes", 0, len(players), 0, reader)
    if phase != "camels" and phase != "over" and (placed or round_ or passes):
        reader.add("placed_this_turn, round and passes stay 0 before camel placement")
    if phase == "camels" and passes >= len(players):
        reader.add("passes: when every player has passed the game is over")
    if phase == "camels" and placed and passes:
        reader.add(
            f"passes: {passes}, but {turn} has placed a camel this turn, which ends a run of passes: "
            "it must be 0 (TTD-3f)"
        )
    quota = rules.camels_per_turn(round_, current)
    if phase == "camels" and placed >= quota:
        nxt = players[(current + 1) % len(players)]
        reader.add(
            f"placed_this_turn: {turn} places a single camel in the opening round (opening: first_two_one, TD-Q9), "
            f"so with it placed the turn has passed to {nxt}"
        )
    if phase == "camels" and rules.opening == "first_two_one" and round_ == 0:
        most = sum(rules.camels_per_turn(0, seat) for seat in range(current)) + placed
        if camels > most:
            reader.add(
                f"round: 0 is the opening round, where the turns so far place at most {most} camels, "
                f"but {camels} are on the board (opening: first_two_one, TD-Q9)"
            )
    return current, placed, round_, passes


def _collected(board: Board, values, cells, player: int) -> tuple[int, ...]:
    return tuple(
        sorted(values[h] for h in board.sites if values[h] and cells[h] != EMPTY and cells[h] // SLOTS == player)
    )


def _read_water(game, board: Board, doc, players, values, cells, reader: _Reader) -> tuple[tuple[int, ...], ...]:
    derived = tuple(_collected(board, values, cells, p) for p in range(len(players)))
    raw = doc.get("water")
    if raw is None:
        return derived
    if not isinstance(raw, Mapping):
        reader.add("water: expected an object of player -> token values")
        return derived
    for p, player in enumerate(players):
        given = raw.get(player, [])
        if not isinstance(given, list) or tuple(sorted(v for v in given if isinstance(v, int))) != derived[p]:
            reader.add(f"water.{player}: says {quoted(given)}, but the pieces on water holes give {list(derived[p])}")
    return derived


def reached_oases(board: Board, cells) -> frozenset[tuple[int, int, int]]:
    found = set()
    for palm in board.palms:
        for n in board.neighbours[palm]:
            code = cells[n]
            if code != EMPTY and code % SLOTS != GUIDE:
                found.add((code // SLOTS, code % SLOTS, palm))
    return frozenset(found)


def _read_oases(game, board: Board, doc, players, pindex, cells, reader: _Reader):
    derived = reached_oases(board, cells)
    raw = doc.get("oases")
    if raw is None:
        return derived
    given = set()
    if not isinstance(raw, list):
        reader.add("oases: expected a list")
        return derived
    for i, entry in enumerate(raw):
        if not isinstance(entry, Mapping):
            reader.add(f"oases[{i}]: expected an object")
            continue
        h = _hex(board, entry.get("oasis"), f"oases[{i}].oasis", reader)
        p = _player_of(entry.get("player"), f"oases[{i}].player", players, pindex, reader)
        c = look_up(game.colour_index, entry.get("caravan"))
        if c is None:
            reader.add(f"oases[{i}].caravan: unknown colour {quoted(entry.get('caravan'))}; "
                       f"colours: {', '.join(game.colour_ids)}")
        if h is None or p is None or c is None:
            continue
        given.add((p, c, h))
    for p, c, h in sorted(given - derived):
        reader.add(
            f"oases: {players[p]}'s {game.colour_ids[c]} caravan is listed at {board.label(h)} but does not touch it"
        )
    for p, c, h in sorted(derived - given):
        reader.add(
            f"oases: {players[p]}'s {game.colour_ids[c]} caravan touches the oasis at {board.label(h)} "
            "but is not listed"
        )
    return derived


def _player_of(value: Any, where: str, players, pindex, reader: _Reader) -> int | None:
    """The seat of the player ``value`` names, or None with the problem said: "unknown player or caravan colour"
    left the table to find which of the two was wrong, and with whom it could be."""
    p = look_up(pindex, value)
    if p is None:
        reader.add(f"{where}: {not_playing_words(value, players)}")
    return p


def _by_player(doc, players, reader: _Reader) -> None:
    """A colour nobody plays, as a key of the fields kept by player, was dropped unread."""
    for key in ("leaders_in_hand", "first_leaders", "water"):
        raw = doc.get(key)
        for who in raw if isinstance(raw, Mapping) else ():
            if who not in players:
                reader.add(f"{key}: {not_playing_words(who, players)}")


def _read_claimed(game, board: Board, doc, pindex, rules: Rules, cells, reader: _Reader):
    raw = doc.get("claimed_areas", [])
    if not isinstance(raw, list):
        reader.add("claimed_areas: expected a list")
        return ()
    if raw and rules.area_timing != "immediate":
        reader.add("claimed_areas: areas are claimed during play only with area_timing immediate")
    out = []
    taken: set[int] = set()
    for i, entry in enumerate(raw):
        where = f"claimed_areas[{i}]"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("hexes"), list) or not entry["hexes"]:
            reader.add(f"{where}: expected an object with player, caravan and a list of hexes")
            continue
        p = _player_of(entry.get("player"), f"{where}.player", tuple(pindex), pindex, reader)
        cid = entry.get("caravan")
        if cid is None:
            c = -1  # the player's pieces of several colours
        elif cid == GUIDE_ID and rules.guide:
            c = GUIDE  # the guide alone walled it in (area_by player, TD-Q6)
        else:
            c = look_up(game.colour_index, cid, -2)
        if c == -2:
            named = (*game.colour_ids, GUIDE_ID) if rules.guide else game.colour_ids
            reader.add(f"{where}.caravan: unknown colour {quoted(cid)}; colours: {', '.join(named)}, or null for "
                       "a wall of several colours")
        if p is None or c == -2:
            continue
        hexes = set()
        for j, raw_hex in enumerate(entry["hexes"]):
            h = _hex(board, raw_hex, f"{where}.hexes[{j}]", reader)
            if h is not None:
                hexes.add(h)
        if hexes & taken:
            reader.add(f"{where}: overlaps an earlier claimed area")
        taken |= hexes
        out.append((p, c, frozenset(hexes)))
    return tuple(out)


def consistency(game: ThroughTheDesert, state: TtdState) -> list[str]:
    """Cheap checks the simulator runs after every step."""
    board = game.board_of(state)
    problems = []
    n = len(state.players)
    masks, reach, occupied, supply = derive(board, state.cells, state.leaders, game.supply_by_players[n], n)
    if (masks, reach, occupied, supply) != (state.masks, state.reach, state.occupied, state.supply):
        problems.append("derived masks or supply differ from a rebuild from the cells")
    if any(s < 0 for s in supply):
        problems.append("a colour's supply went below zero")
    for c in range(COLOURS):
        for p in range(n):
            for q in range(p + 1, n):
                if masks[slot(p, c)] & reach[slot(q, c)]:
                    problems.append(
                        f"{state.players[p]} and {state.players[q]} have touching {game.colour_ids[c]} pieces"
                    )
    for p in range(n):
        if _collected(board, state.values, state.cells, p) != state.water[p]:
            problems.append(f"{state.players[p]}'s water holes differ from the pieces on water-hole sites")
    if state.phase != "waterholes" and reached_oases(board, state.cells) != state.oases:
        problems.append("the oases rewarded differ from the caravans touching palms")
    return problems
