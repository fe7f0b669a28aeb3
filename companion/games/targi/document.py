"""The position document: readable JSON that round-trips, and a loader naming every fault.

A table can start mid-game or correct the app after a misread by editing
this document, so the loader checks the whole position (every card counted
exactly once, pieces where the phase allows them, supplies not negative)
and lists every problem it finds rather than the first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.errors import BadRequest, InvalidPosition, quoted
from companion.game import not_playing_words
from companion.games.targi import effects as fx
from companion.games.targi.board import EDGE_CARDS, OPPOSITE, same_line
from companion.games.targi.cards import CORNERS, RESOURCES, Catalog, goods_count
from companion.games.targi.state import (
    CHOICE_WHY,
    DRAW_WHY,
    STAGES,
    TASK_KINDS,
    Deck,
    Pile,
    Rules,
    Slot,
    State,
    Supply,
    Task,
    slot_index,
)
from companion.journalled_start import refuse_position
from companion.schema import is_known, whole_hint

OPTION_FIELDS = {
    "placement.forbid": "forbid",
    "raid.partialPayment": "partial_payment",
    "fataMorgana.allowFaceDown": "allow_face_down",
    "limits.applyAtGameEnd": "limits_at_end",
    "end.finishOwnActions": "finish_own",
    "tribe.reshuffle": "tribe_reshuffle",
}


def rules_from_options(options: Mapping[str, Any]) -> Rules:
    return Rules(**{field: options[key] for key, field in OPTION_FIELDS.items() if key in options})


def options_of(rules: Rules) -> dict[str, Any]:
    return {key: getattr(rules, field) for key, field in OPTION_FIELDS.items()}


def _ms(ms: tuple[tuple[str, int], ...]) -> dict[str, int]:
    return dict(ms)


def to_document(s: State) -> dict[str, Any]:
    def slot_doc(slot: Slot) -> Any:
        if slot.empty:
            return None
        if slot.face_down:
            return {"face_down": slot.deck, "pile": slot.gen}
        return {"card": slot.card}

    def task_doc(t: Task) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": t.kind}
        if t.kind == "draw":
            out.update(deck=t.deck, why=t.why)
            if t.slot is not None:
                out["slot"] = [t.slot // 3 + 1, t.slot % 3 + 1]
        if t.kind == "tribe":
            out.update(cards=list(t.cards), source=t.source)
        if t.kind == "goods":
            out.update(n=t.n, source=t.source)
            if t.why:
                out["why"] = t.why
        return out

    return {
        "game": "targi",
        "players": list(s.players),
        "options": options_of(s.rules),
        "profile": s.profile,
        "round": s.round,
        "robber": s.robber,
        "start": s.start,
        "stage": s.stage,
        "actor": s.actor,
        "queue": list(s.queue),
        "done": list(s.done),
        "ender": s.ender,
        "supplies": {
            p: {
                "dates": sup.dates, "salt": sup.salt, "pepper": sup.pepper, "gold": sup.gold, "vp": sup.vp,
                "hand": list(sup.hand), "rows": [list(r) for r in sup.rows],
            }
            for p, sup in zip(s.players, s.supplies, strict=True)
        },
        "targi": [{"card": n, "player": p} for n, p in s.targi],
        "markers": [{"slot": [i // 3 + 1, i % 3 + 1], "player": p} for i, p in s.markers],
        "centre": [[slot_doc(s.centre[r * 3 + c]) for c in range(3)] for r in range(3)],
        "decks": {
            name: {
                "piles": [{"pile": p.gen, "cards": _ms(p.cards), "face_down": p.down} for p in deck.piles],
                "discard": _ms(deck.discard),
            }
            for name, deck in (("goods", s.goods), ("tribe", s.tribe))
        },
        "tasks": [task_doc(t) for t in s.tasks],
    }


class _Reader:
    """Collects problems while reading, so one pass reports them all."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def fail(self, message: str) -> None:
        self.problems.append(message)

    def int_(self, value: Any, where: str, lo: int = 0, hi: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{where}: expected a whole number, found {quoted(value)}{whole_hint(value)}")
            return lo
        if hi is None and value < lo:  # "outside 1..any" named no bound a referee could read
            self.fail(f"{where}: {value} is below {lo}, the least it may be")
        elif hi is not None and not lo <= value <= hi:
            self.fail(f"{where}: {value} is outside {lo}..{hi}")
        return value

    def obj(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.fail(f"{where}: expected an object")
            return {}
        return value

    def list_(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            self.fail(f"{where}: expected a list")
            return []
        return value


def from_document(cat: Catalog, doc: Mapping[str, Any], resolve_options: Any, check_players: Any) -> State:
    """The position ``doc`` describes; ``check_players`` is the game's shared check, so the players are refused in
    the words a new game and the other four loaders use ("'white' is named twice: ...")."""
    r = _Reader()
    doc = r.obj(doc, "document")
    if doc.get("game") != "targi":
        r.fail(f"game: expected 'targi', found {quoted(doc.get('game'))}")
    try:
        players = check_players(doc.get("players"))
    except BadRequest as exc:
        r.fail(f"players: {exc.message}")
        raise InvalidPosition(r.problems) from None
    pl: tuple[str, str] = (players[0], players[1])
    profile = doc.get("profile", "standard")
    try:
        options = resolve_options(doc.get("options") or {}, profile if isinstance(profile, str) else None)
    except Exception as exc:  # a bad option or profile is one more problem to list
        r.fail(f"options: {getattr(exc, 'message', exc)}")
        options = resolve_options({}, None)
        profile = "standard"
    rules = rules_from_options(options)

    stage = doc.get("stage")
    if stage not in STAGES:
        r.fail(f"stage: {quoted(stage)} is not one of {', '.join(STAGES)}")
        stage = "actions"
    rnd = r.int_(doc.get("round"), "round", 0, 12)
    robber = r.int_(doc.get("robber"), "robber", 1, 16)
    if robber in CORNERS and stage not in ("raid", "over"):
        r.fail(f"robber: it stands on corner {robber} only while a raid is paid or after the game")
    expected_robber = rnd + (rnd - 1) // 3 if rnd >= 1 else 1
    # Only a round and robber on the board are compared: round 1000000 had the robber "on card 1333333".
    in_range = 0 <= rnd <= 12 and 1 <= robber <= 16
    # The robber moves once a round and once more onto each raid corner (TG-R1): until the next round begins
    # (the reveal after a round) it stands where the round had it, and in a raid one card on. A round number
    # out of step with it was loaded at the reveal or raid, and play went on past the twelfth round.
    if in_range and stage in ("place", "actions", "limits", "reveal") and robber != expected_robber:
        r.fail(f"robber: in round {rnd} it stands on card {expected_robber}, not {robber} (TG-R1)")
    raid = in_range and stage == "raid"
    if raid and expected_robber + 1 not in CORNERS:
        r.fail(f"round: no raid follows round {rnd}; the robber reaches a corner after rounds 3, 6, 9 and 12 (TG-R1)")
    elif raid and robber != expected_robber + 1:
        r.fail(f"robber: the raid after round {rnd} is on card {expected_robber + 1}, not {robber} (TG-R1, TG-R2)")

    def player_field(value: Any, where: str, optional: bool = True) -> str | None:
        if value is None and optional:
            return None
        if not is_known(value, pl):
            r.fail(f"{where}: {not_playing_words(value, pl)}")
            return None
        return value

    start = player_field(doc.get("start"), "start", optional=False) or pl[0]
    actor = player_field(doc.get("actor"), "actor")
    ender = player_field(doc.get("ender"), "ender")
    queue = _player_list(r, doc.get("queue", []), "queue", player_field)
    done = _player_list(r, doc.get("done", []), "done", player_field)
    if stage in ("place", "actions") and actor is None:
        r.fail(f"actor: the {stage} stage needs the player whose turn it is")
    if stage in ("raid", "limits") and not queue:
        r.fail(f"queue: the {stage} stage needs the players still to decide")

    # supplies
    supplies: list[Supply] = []
    sup_docs = r.obj(doc.get("supplies"), "supplies")
    for key in sup_docs:
        if not is_known(key, pl):
            r.fail(f"supplies: {not_playing_words(key, pl)}")
    for p in pl:
        sd = r.obj(sup_docs.get(p), f"supplies.{p}")
        vals = {k: r.int_(sd.get(k), f"supplies.{p}.{k}", 0) for k in RESOURCES}
        hand = tuple(r.list_(sd.get("hand", []), f"supplies.{p}.hand"))
        rows_doc = r.list_(sd.get("rows", [[], [], []]), f"supplies.{p}.rows")
        if len(rows_doc) != 3:
            r.fail(f"supplies.{p}.rows: a display has exactly 3 rows")
            rows_doc = ([*list(rows_doc), [], [], []])[:3]
        rows = tuple(tuple(r.list_(row, f"supplies.{p}.rows[{k}]")) for k, row in enumerate(rows_doc))
        for k, row in enumerate(rows):
            if len(row) > 4:
                r.fail(f"supplies.{p}.rows[{k}]: a row holds at most 4 cards, not {len(row)}")
        unknown = [c for c in (*hand, *(c for row in rows for c in row)) if not is_known(c, cat.tribe)]
        for c in unknown:
            r.fail(f"supplies.{p}: {quoted(c)} is not a tribe card")
        if unknown:  # reported above; the checks below count the known cards only
            hand = tuple(c for c in hand if is_known(c, cat.tribe))
            rows = tuple(tuple(c for c in row if is_known(c, cat.tribe)) for row in rows)
        sup = Supply(**vals, hand=hand, rows=rows)
        if not unknown and len(hand) > fx.hand_size(cat, sup):
            r.fail(f"supplies.{p}.hand: holds {len(hand)} cards; the hand limit is {fx.hand_size(cat, sup)}")
        supplies.append(sup)

    # TG-END2: laying a twelfth tribe card ends the game with its round, and the first to lay one is the ender;
    # an ender without a full display ended a game early, a full display without an ender let it run on
    full = [p for p, sup in zip(pl, supplies, strict=False) if len(sup.cards) >= 12]
    if ender is not None and ender in pl and ender not in full:
        cards = len(supplies[pl.index(ender)].cards) if len(supplies) == len(pl) else 0
        r.fail(f"ender: {ender} has {cards} tribe cards in the display; only the player who laid a twelfth card "
               "ends the game")
    if ender is None and full:
        r.fail(f"ender: {full[0]}'s display is full (12 tribe cards), so the game ends with this round; "
               "name the player who laid the twelfth card as ender")

    # pieces
    targi: list[tuple[int, str]] = []
    for k, t in enumerate(r.list_(doc.get("targi", []), "targi")):
        t = r.obj(t, f"targi[{k}]")
        n = r.int_(t.get("card"), f"targi[{k}].card", 1, 16)
        p = player_field(t.get("player"), f"targi[{k}].player", False)
        if 1 <= n <= 16 and n not in EDGE_CARDS:  # off the border, said once above: card 99 was "a corner" too
            r.fail(f"targi[{k}]: card {n} is a corner; no Targi stands there")
        if p:
            targi.append((n, p))
    if len({n for n, _ in targi}) != len(targi):
        r.fail("targi: two Targi stand on the same card")
    _placement_problems(r, targi, rules)
    markers: list[tuple[int, str]] = []
    for k, m in enumerate(r.list_(doc.get("markers", []), "markers")):
        m = r.obj(m, f"markers[{k}]")
        at = _slot(r, m.get("slot"), f"markers[{k}].slot")
        p = player_field(m.get("player"), f"markers[{k}].player", False)
        if at is not None and p:
            markers.append((at, p))
    if len({i for i, _ in markers}) != len(markers):
        r.fail("markers: two tribe markers on the same central card")
    for p in pl:
        if sum(1 for _, o in targi if o == p) > fx.TARGI:
            r.fail(f"targi: {p} has more than {fx.TARGI} Targi on the board")
        if sum(1 for _, o in markers if o == p) > fx.MARKERS:
            r.fail(f"markers: {p} has more than {fx.MARKERS} tribe markers out")
    if stage not in ("place", "actions") and (targi or markers):
        r.fail(f"targi/markers: no pieces stand on the board in the {stage} stage")
    if stage == "place" and markers:
        r.fail("markers: tribe markers are placed only after all Targi")
    if stage == "place" and actor is not None and sum(1 for _, o in targi if o == actor) >= fx.TARGI:
        # TG-P1: the placing player must still have a Targi in hand, or the next placement is a fourth
        r.fail(f"actor: {actor} has all {fx.TARGI} Targi on the board already and cannot be the one placing")
    if stage == "raid" and robber not in CORNERS:
        # TG-R2: a raid is paid only when the robber stands on a corner (raid) card
        r.fail(f"robber: a raid is paid only with the robber on a corner (4, 8, 12, 16), not on card {robber}")
    if stage == "limits":
        for p in queue:
            sup = supplies[pl.index(p)]
            if sup.goods <= fx.goods_limit(cat, sup):
                # TG-E2: only a player above the goods limit has goods to give back
                r.fail(f"queue: {p} holds {goods_count(sup.goods)}, within the limit, and has nothing to return")

    # centre
    centre: list[Slot] = []
    rows_c = r.list_(doc.get("centre"), "centre")
    cells = [c for row in rows_c for c in (row if isinstance(row, list) else [])]
    if len(rows_c) != 3 or len(cells) != 9:
        r.fail("centre: expected 3 rows of 3 slots")
        cells = (cells + [None] * 9)[:9]
    for i, cell in enumerate(cells):
        where = f"centre {i // 3 + 1}-{i % 3 + 1}"
        if cell is None:
            centre.append(Slot())
        elif isinstance(cell, Mapping) and "card" in cell:
            c = cell["card"]
            deck = "goods" if is_known(c, cat.goods) else "tribe" if is_known(c, cat.tribe) else None
            if deck is None:
                r.fail(f"{where}: unknown card {quoted(c)}")
                centre.append(Slot())
            else:
                centre.append(Slot(deck, c, 0))
        elif isinstance(cell, Mapping) and cell.get("face_down") in ("goods", "tribe"):
            centre.append(Slot(cell["face_down"], None, r.int_(cell.get("pile", 0), f"{where}.pile", 0)))
        else:
            r.fail(f'{where}: expected null, {{"card": id}} or {{"face_down": "goods"|"tribe", "pile": n}}')
            centre.append(Slot())
    # TG-Q25: the final raid follows the last round with its face-down cards left unturned (nothing uses them)
    final_raid = stage == "raid" and robber == cat.last_raid
    if stage in ("raid", "place") and not final_raid and any(s.face_down for s in centre):
        r.fail(f"centre: every central card is face up by the {stage} stage")

    # tasks
    tasks: list[Task] = []
    for k, t in enumerate(r.list_(doc.get("tasks", []), "tasks")):
        t = r.obj(t, f"tasks[{k}]")
        kind = t.get("kind")
        if kind not in TASK_KINDS:
            r.fail(f"tasks[{k}].kind: {quoted(kind)} is not one of {', '.join(TASK_KINDS)}")
            continue
        if kind == "draw":
            deck = t.get("deck")
            why = t.get("why")
            if deck not in ("goods", "tribe") or why not in DRAW_WHY:
                r.fail(f"tasks[{k}]: a draw names deck goods/tribe and why {'/'.join(DRAW_WHY)}")
                continue
            # Only a face-down card used draws for a slot, from its own deck: a slot off the centre
            # crashed the loader, and a goods draw for a face-down tribe card loaded.
            slot = _slot(r, t.get("slot"), f"tasks[{k}].slot") if "slot" in t or why == "use" else None
            if why != "use" and "slot" in t:
                r.fail(f"tasks[{k}].slot: only a draw for a face-down card used (why 'use') names a slot")
                continue
            if why == "use" and slot is None:
                continue
            if slot is not None and not centre[slot].face_down:
                r.fail(f"tasks[{k}].slot: centre {slot // 3 + 1}-{slot % 3 + 1} holds no face-down card to use")
                continue
            if slot is not None and centre[slot].deck != deck:
                r.fail(f"tasks[{k}].deck: the face-down card at centre {slot // 3 + 1}-{slot % 3 + 1} is a "
                       f"{centre[slot].deck} card, so the draw is from the {centre[slot].deck} deck, not {deck}")
                continue
            tasks.append(Task("draw", deck=deck, why=why, slot=slot))
        elif kind == "tribe":
            cards = tuple(r.list_(t.get("cards"), f"tasks[{k}].cards"))
            source = t.get("source")
            if source not in ("expansion", "centre", "noble") or not cards or any(
                not is_known(c, cat.tribe) for c in cards
            ):
                r.fail(f"tasks[{k}]: a tribe decision names tribe cards and a source (expansion, centre, noble)")
                continue
            tasks.append(Task("tribe", cards=cards, source=source))
        elif kind == "goods":
            why = t.get("why", "")
            if why not in CHOICE_WHY:
                r.fail(f"tasks[{k}].why: a choice of goods comes from {'/'.join(w for w in CHOICE_WHY if w)}")
                continue
            n = r.int_(t.get("n"), f"tasks[{k}].n", 1, 5)
            tasks.append(Task("goods", why=why, n=n, source=str(t.get("source", ""))))
        else:
            tasks.append(Task(kind))
    if tasks and stage != "actions":
        r.fail("tasks: actions in progress exist only in the action phase")
    if any(t.kind == "draw" for t in tasks[1:]):
        r.fail("tasks: a draw can only be the next thing to do")
    noble_cards: Counter[str] = Counter()
    for t in tasks:
        if t.kind == "tribe" and t.source == "noble" and actor is not None:
            noble_cards.update(t.cards)
            hand = supplies[pl.index(actor)].hand
            if any(c not in hand for c in t.cards):
                r.fail("tasks: the Noble decides only on cards in the acting player's hand")
    hand = supplies[pl.index(actor)].hand if actor is not None else ()
    if noble_cards and actor is not None and (len(tasks) != 1 or noble_cards != Counter(hand)):
        # Play sets it alone, naming the hand as it is (TG-B1): a second copy loaded, and deciding on a card the
        # hand had already given up crashed the referee.
        r.fail(f"tasks: the Noble is decided alone and on {actor}'s whole hand ({', '.join(hand) or 'no card'}), "
               "each card once (TG-B1)")

    # decks and card conservation
    decks: dict[str, Deck] = {}
    dd = r.obj(doc.get("decks"), "decks")
    for name in ("goods", "tribe"):
        d = r.obj(dd.get(name), f"decks.{name}")
        piles = []
        for k, pd in enumerate(r.list_(d.get("piles"), f"decks.{name}.piles")):
            pd = r.obj(pd, f"decks.{name}.piles[{k}]")
            cards = _read_ms(r, pd.get("cards"), f"decks.{name}.piles[{k}].cards", cat.deck_cards[name])
            piles.append(Pile(r.int_(pd.get("pile"), f"decks.{name}.piles[{k}].pile", 0), cards,
                              r.int_(pd.get("face_down", 0), f"decks.{name}.piles[{k}].face_down", 0)))  # fmt: skip
        if not piles:
            r.fail(f"decks.{name}.piles: needs at least the current draw pile")
            piles = [Pile(0, ())]
        gens = [p.gen for p in piles]
        if gens != sorted(set(gens)):
            r.fail(f"decks.{name}.piles: pile numbers must rise and not repeat")
        discard = _read_ms(r, d.get("discard", {}), f"decks.{name}.discard", cat.deck_cards[name])
        for p in piles:
            down = sum(1 for s in centre if s.face_down and s.deck == name and s.gen == p.gen)
            if down != p.down:
                r.fail(f"decks.{name} pile {p.gen}: says {p.down} cards lie face down, the centre shows {down}")
            if p.down > sum(n for _, n in p.cards):
                r.fail(f"decks.{name} pile {p.gen}: more face-down cards than unrevealed cards")
            if p is not piles[-1] and p.in_pile != 0:
                r.fail(f"decks.{name} pile {p.gen}: an older pile holds only cards lying face down")
        for s in centre:
            if s.face_down and s.deck == name and s.gen not in gens:
                r.fail(f"centre: a face-down {name} card names pile {s.gen}, which decks.{name} lacks")
        decks[name] = Deck(tuple(piles), discard)
        counted: Counter[str] = Counter()
        for p in piles:
            counted.update(dict(p.cards))
        counted.update(dict(discard))
        counted.update(s.card for s in centre if s.card and s.deck == name)
        if name == "tribe":
            for sup in supplies:
                counted.update(sup.hand)
                counted.update(sup.cards)
            for t in tasks:
                if t.kind == "tribe" and t.source != "noble":
                    counted.update(t.cards)
        if counted != Counter(dict(cat.full_deck[name])):
            for cid, card in cat.deck_cards[name].items():
                if counted[cid] != card.count:
                    r.fail(f"{name} card {cid}: {counted[cid]} counted in the position, the deck has {card.count}")
            for cid in counted:
                if cid not in cat.deck_cards[name]:
                    r.fail(f"{name} card {quoted(cid)}: not in the {name} deck")

    if r.problems:
        refuse_position(r.problems)  # noted instead while a journalled start is read back
    return State(
        players=pl, profile=profile, rules=rules, round=rnd, robber=robber, start=start, stage=stage, actor=actor,
        queue=queue, supplies=(supplies[0], supplies[1]), targi=tuple(sorted(targi)), markers=tuple(sorted(markers)),
        centre=tuple(centre), goods=decks["goods"], tribe=decks["tribe"], tasks=tuple(tasks), done=done, ender=ender,
    )  # fmt: skip


def _placement_problems(r: _Reader, targi: list[tuple[int, str]], rules: Rules) -> None:
    """Targi where no placement puts one: facing the other player's Targi across the board (TG-P5), or in its row
    or column as written (TG-Q5). Loaded, such a pair played on, and the table heard no word of the rule broken.

    A Targi on the robber's card (TG-P2) is let be: the tests' hand-made positions put one there freely.
    """
    for k, (n, p) in enumerate(targi):
        for m, q in targi[:k]:
            if q == p:
                continue
            if OPPOSITE.get(m) == n:
                r.fail(f"targi[{k}]: card {n} faces {q}'s Targi on card {m} across the board (TG-P5)")
            elif rules.forbid == "line" and same_line(m, n):
                r.fail(f"targi[{k}]: card {n} shares a row or column with {q}'s Targi on card {m} (placement.forbid "
                       "line, TG-Q5)")


def _slot(r: _Reader, value: Any, where: str) -> int | None:
    """The centre card ``[row, column]`` names, each from 1 to 3, or None with the problem said.

    ``[true, 1]`` was centre 1-1 (JSON's true is Python's 1), and a task's slot off the centre crashed the loader.
    """
    if not (isinstance(value, list) and len(value) == 2
            and all(type(v) is int and 1 <= v <= 3 for v in value)):  # fmt: skip
        r.fail(f"{where}: expected [row, column] from 1 to 3, found {quoted(value)}")
        return None
    return slot_index(value[0], value[1])


def _player_list(r: _Reader, raw: Any, where: str, player_field: Any) -> tuple[str, ...]:
    """A list of players (those still to decide, those done with their actions), each named once.

    An entry was named "queue[]", not by its place in the list, and a player listed twice loaded.
    """
    out: list[str] = []
    for i, value in enumerate(r.list_(raw, where)):
        p = player_field(value, f"{where}[{i}]", False)
        if p in out:
            r.fail(f"{where}[{i}]: {quoted(p)} is listed twice")
        elif p:
            out.append(p)
    return tuple(out)


def _read_ms(r: _Reader, value: Any, where: str, known: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    if isinstance(value, dict) and all(k in known and type(n) is int and n > 0 for k, n in value.items()):
        return tuple(sorted(value.items()))  # the common, well-formed case, read without per-entry checks
    value = r.obj(value, where)
    out = []
    for cid, n in value.items():
        if cid not in known:
            r.fail(f"{where}: {quoted(cid)} is not a card of this deck")
            continue
        n = r.int_(n, f"{where}.{cid}", 1)
        if n > 0:
            out.append((cid, n))
    return tuple(sorted(out))
