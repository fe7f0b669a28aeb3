"""What the companion waits for now (``pending``), each prompt saying why a way is shut."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.game import Pending
from companion.games.targi import effects as fx
from companion.games.targi.cards import goods_count
from companion.games.targi.decks import first_face_down
from companion.games.targi.phrasing import cap
from companion.games.targi.rounds import final_sentence
from companion.games.targi.rule_queries import display_full, trades, tribe_choices
from companion.games.targi.scoring import result
from companion.games.targi.state import State, Task, slot_name

if TYPE_CHECKING:
    from companion.games.targi.engine import Engine


def pending(eng: Engine, s: State) -> Pending:
    if s.stage == "over":
        res = result(eng.cat, s)
        return Pending("over", None, f"The game is over. {final_sentence(res, s.players)}", result=res)
    if s.stage == "reveal":
        i = first_face_down(s)
        what = "Set up the centre: turn" if s.round == 0 else "End of round: turn"
        return Pending("draw", None, f"{what} up the {s.centre[i].deck} card at centre {slot_name(i)} "
                       "and enter it.", deck=s.centre[i].deck)  # fmt: skip
    if s.stage == "raid":
        card = eng.cat.border[s.robber]
        return Pending("choose", s.queue[0], f"{cap(s.queue[0])}: choose how to pay the raid ({card.label}).")
    if s.stage == "place":
        return Pending("choose", s.actor, f"{cap(s.actor)}: place a Targi on a border card.")
    if s.stage == "limits":
        p = s.queue[0]
        extra = s.supply(p).goods - fx.goods_limit(eng.cat, s.supply(p))
        return Pending("choose", p, f"{cap(p)}: return {goods_count(extra)} to the supply (end-of-round limit).")
    task = s.tasks[0] if s.tasks else None
    if task is None:
        return Pending("choose", s.actor, f"{cap(s.actor)}: carry out an action, or finish your actions.")
    if task.kind == "draw":
        where = "top of the" if task.why != "use" else f"face-down card at centre {slot_name(task.slot or 0)} from"
        # A full display can take no card, so the table asked why it should turn one up: the action does (TG-B3).
        why = " (Tribal Expansion turns one up even with a full display)" if (
            task.why == "expansion" and display_full(s, s.actor or "")) else ""  # fmt: skip
        # Named as every other prompt with a player names them: "Turn up the top of the goods deck" alone left a
        # first game asking whose card it was (the goods or the tribe card goes to the player using the action).
        return Pending("draw", s.actor, f"{cap(s.actor)}: turn up the {where} {task.deck} deck and enter it{why}.",
                       deck=task.deck)  # fmt: skip
    if task.kind == "tribe":
        return Pending("choose", s.actor, tribe_prompt(eng, s, s.actor or "", task))
    if task.kind == "goods":
        return Pending("choose", s.actor, f"{cap(s.actor)}: choose {goods_count(task.n)}.")
    return Pending("choose", s.actor, exchange_prompt(s, s.actor or "", task.kind))


# Each ends with its finishing button's words.
EXCHANGE_PROMPTS = {
    "fata": "move a tribe marker (Fata Morgana), or leave the markers where they are",
    "silversmith": "make one exchange at the Silversmith, or make no exchange",
    "trader": "exchange at the Trader, or stop trading",
}


def exchange_prompt(s: State, p: str, kind: str) -> str:
    """The Fata Morgana's, Silversmith's or Trader's prompt, in its finishing button's words.

    Audit (a first game): "White: exchange at the Trader, or finish." stood over a lone "Stop trading" button
    once White had traded down to too few goods, and "or finish" over "Make no exchange" and "Leave the markers
    where they are": the table looked for exchanges it was told to make, and for a "finish" no button said.
    (Using the Trader, Silversmith or Fata Morgana with nothing to do opens no choice: it is announced.)
    """
    if kind == "trader" and not trades(s, p, kind):
        return f"{cap(p)}: too few of any good for another exchange at the Trader (2 of one at least): stop trading."
    return f"{cap(p)}: {EXCHANGE_PROMPTS[kind]}."


def tribe_prompt(eng: Engine, s: State, p: str, task: Task) -> str:
    """What may be done with the tribe card at hand, and why a way is shut: "play, hold or discard" was asked
    at the Noble (where a held card is not held again, TG-B1), with a full hand (TG-T2) and of a card the
    player cannot pay for (TG-Q20), so the table tried what it was told and was refused."""
    cards = " or ".join(eng.cat.tribe[c].label for c in dict.fromkeys(task.cards))
    what = f"the card in hand, {cards}" if task.source == "noble" else cards
    kinds = {a["type"] for a in tribe_choices(eng, s, p, task)}
    verbs = [v for v in ("play", "hold", "discard") if v in kinds]
    said = verbs[0] if len(verbs) == 1 else f"{', '.join(verbs[:-1])} or {verbs[-1]}"
    why = []
    if "play" not in kinds:
        why.append("the display is full" if display_full(s, p) else f"{cap(p)} cannot pay for it")
    if "hold" not in kinds and task.source != "noble":
        why.append("the hand is full")
    tail = f" ({' and '.join(why)})" if why else ""
    return f"{cap(p)}: {said} {what}{tail}."
