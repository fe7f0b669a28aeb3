"""Which function takes each action type; ``Engine.apply`` checks whose turn it is and then hands on."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.games.targi.action_fields import Action, Events
from companion.games.targi.card_decisions import do_discard, do_hold, do_play, do_take
from companion.games.targi.card_use import do_draw, do_use
from companion.games.targi.exchanges import do_finish, do_move_marker, do_trade
from companion.games.targi.limits import do_return
from companion.games.targi.placement import do_place
from companion.games.targi.raids import do_pay
from companion.games.targi.rounds import do_done
from companion.games.targi.state import State

if TYPE_CHECKING:
    from companion.games.targi.engine import Engine


Handler = Callable[["Engine", State, Action, str, Events], State]

HANDLERS: dict[str, Handler] = {
    "draw": do_draw,
    "pay": do_pay,
    "place": do_place,
    "use": do_use,
    "done": do_done,
    "take": do_take,
    "play": do_play,
    "hold": do_hold,
    "discard": do_discard,
    "move_marker": do_move_marker,
    "trade": do_trade,
    "finish": do_finish,
    "return": do_return,
}
