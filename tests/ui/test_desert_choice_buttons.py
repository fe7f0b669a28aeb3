"""The desert race's choices that say their consequence (a Vortex onto a Scared! space, where a Sneakers answer
moves and what it costs) still read whole on their buttons at 800x480 and 480x800."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.desert.board import CLOAK, COMPASS, FLASK, SNEAKERS
from companion.registry import create
from companion.session import Session
from tests.games.desert.helpers import B, act, draw, position, roll
from tests.ui.conftest import advance, tap, tap_at
from tests.ui.test_layout import buttons_at_each_size, lines_of, shown_whole, text_height
from tests.ui.test_pointing import spot_of
from tests.ui.test_portrait import window_size  # noqa: F401  (a fixture)

pytestmark = pytest.mark.usefixtures("undrawn")  # sizes and places are measured, never the window's pixels

# What being sent onto Sandstorm Wall costs Purple, by Lives and cards held: each said in the button's last lines.
COSTS = [
    (5, [CLOAK, COMPASS], "Purple loses the Cloak, or 2 Lives and goes back"),
    (5, [COMPASS], "Purple loses 2 Lives, back to Desert Dawn (0)"),
    (2, [COMPASS], "Purple loses the last 2 Lives: out, cards and all"),
    (1, [], "Purple loses the last Life: out this round"),
    (2, [CLOAK], "Purple loses the Cloak, or is out this round"),
]
# The same costs told to Purple in the roll prompt, which opens with Purple: a sentence a first-time table follows.
TOLD = [
    (5, [CLOAK, COMPASS], "redeem the Cloak or lose 2 Lives, back to start"),
    (5, [COMPASS], "lose 2 Lives and go back to Desert Dawn (0)"),
    (2, [COMPASS], "lose the last 2 Lives and all cards: out this round"),
    (1, [], "lose the last Life: out this round"),
    (2, [CLOAK], "redeem the Cloak or sit out this round"),
]


def vortex_on(lives: int, items: list[str]) -> Session:
    """Purple (the longest colour name) draws the Desert Vortex; Pink, with most Lives, chooses where it goes."""
    house = create("desert")
    state = position(house, {"purple": {"space": 4, "lives": lives, "items": items}, B: {"lives": 8}},
                     step={"kind": "draw", "mode": "mystery"}, turn="purple", players=("purple", B))
    state, _ = act(house, state, draw("mystery", "desert_vortex"))
    return Session(house, house.to_document(state), state)


@pytest.mark.parametrize(("lives", "items", "cost"), COSTS)
def test_a_vortex_choice_onto_a_scared_space_says_what_it_costs_and_fits(
    lives: int, items: list[str], cost: str, start: Any, window_size: Any  # noqa: F811
) -> None:
    """'Send Purple to Sandstorm Wall (16, scared)' did not say Purple then loses 2 Lives and runs back to Desert
    Dawn, or is out for the round, unless the Mirage Cloak is spent (DR-12, DR-26, DR-6, DR-Q18). With the cost
    said, the button a tap on the space opens reads whole in three lines at most and shows without scrolling,
    and so do the three scared ones in the full list, at 800x480 and upright."""
    longest = f"Send Purple to Sandstorm Wall (16, scared): {cost}"
    session = vortex_on(lives, items)
    assert longest in [a["text"] for a in session.legal()]
    app = start(session)
    table = app.root.get_screen("table")
    board = table.ids.board
    for size in ((800, 480), (480, 800)):
        window_size(size)
        tap_at(board, *spot_of(board, "sandstorm_wall"))
        advance(3)
        (button,) = table.buttons()
        assert button.text == longest, size
        assert lines_of(button) <= 3, (size, lines_of(button))
        assert text_height(button) <= button.height, size
        assert shown_whole(button, table.ids.choice_scroll), size
        tap(table.ids.go_back)
        tap(table.ids.list_all)
        advance(3)
        costly = [b for b in table.buttons() if "loses" in b.text]
        assert len(costly) == 3, size
        for long in costly:
            assert lines_of(long) <= 3, (size, long.text, lines_of(long))
            assert text_height(long) <= long.height, (size, long.text)
        tap(table.ids.go_back)



def sneakers_question(judged: bool) -> Session:
    """Purple on Twin Dunes (11) rolls 1 holding Sandstorm Sneakers and a Desert Flask: with the doubled roll judged
    (DR-Q9's option) the answers are the longest the Sneakers give, and the Flask's choice stands beside them."""
    house = create("desert")
    options = {"sneakers_affect_challenge_test": True} if judged else {}
    state = position(house, {"purple": {"space": 11 if judged else 14, "items": [SNEAKERS, FLASK]}},
                     step={"kind": "roll", "mode": "attempt" if judged else "move"}, turn="purple",
                     players=("purple", B), options=options)
    state, _ = act(house, state, roll(1))
    return Session(house, house.to_document(state), state)


@pytest.mark.parametrize("judged", [False, True], ids=["move", "judged"])
def test_the_sneakers_answers_with_their_destination_fit(judged: bool, start: Any, window_size: Any) -> None:  # noqa: F811
    """The Sneakers' answers grew by where the move ends ('Keep the Sneakers: move 1 to Sheer Cliff (15)'): each
    still reads whole in two lines (three with a Scared! space's cost) and shows without scrolling, at 800x480 and
    upright."""
    session = sneakers_question(judged)
    offered = [a["text"] for a in session.legal()]
    assert any(" to " in t for t in offered), offered
    app = start(session)
    table = app.root.get_screen("table")
    for size, buttons in buttons_at_each_size(table, window_size, offered):
        for button in buttons:
            most = 3 if "loses" in button.text else 2  # a move onto Sandstorm Wall says its cost: a line more
            assert lines_of(button) <= most, (size, button.text, lines_of(button))
            assert text_height(button) <= button.height, size
            # the two answers; the Flask's choice under them already needed a scroll under the judged question's
            # four-line prompt at 800x480 before the answers grew (left as found)
            assert shown_whole(button, table.ids.choice_scroll) or "Flask" in button.text, size


# What Purple's move onto Sandstorm Wall costs, by Lives and cards held beside the Sneakers: said on the answer that
# redeems them (the redeemed Sneakers are no longer held when a knockout discards the rest).
SNEAKERS_COSTS = [
    (5, [FLASK], "Purple loses 2 Lives, back to Desert Dawn (0)"),
    (5, [CLOAK, FLASK], "Purple loses the Cloak, or 2 Lives and goes back"),
    (2, [FLASK], "Purple loses the last 2 Lives: out, cards and all"),
    (2, [CLOAK], "Purple loses the Cloak, or is out this round"),
]


@pytest.mark.parametrize("percent", (100, 120))
@pytest.mark.parametrize(("lives", "items", "cost"), SNEAKERS_COSTS)
def test_a_sneakers_answer_onto_a_scared_space_says_its_cost_and_fits(
    lives: int, items: list[str], cost: str, percent: int, start: Any, window_size: Any  # noqa: F811
) -> None:
    """'Redeem Sandstorm Sneakers: move 2 to Sandstorm Wall (16)' did not say Purple then loses 2 Lives and runs
    back, or is out for the round, unless a Mirage Cloak is spent (DR-12, DR-6, DR-Q18). With the cost said in
    the Vortex's words, both answers read whole in three lines at most, level with each other, and show without
    scrolling at 800x480 and upright, at 100% and 120%."""
    from kivy.app import App

    from tests.ui import test_portrait
    from tests.ui.test_display_scale import scaled, uneven_choices

    house = create("desert")
    state = position(house, {"purple": {"space": 14, "lives": lives, "items": [SNEAKERS, *items]}},
                     turn="purple", players=("purple", B))
    state, _ = act(house, state, roll(1))
    session = Session(house, house.to_document(state), state)
    offered = [a["text"] for a in session.legal()]
    assert offered[:2] == [f"Redeem Sandstorm Sneakers: move 2 to Sandstorm Wall (16): {cost}",
                           "Keep the Sneakers: move 1 to Sheer Cliff (15)"], offered
    app = start(session)
    scaled(App.get_running_app(), percent)
    table = app.root.get_screen("table")
    for size, buttons in buttons_at_each_size(table, window_size, offered):
        assert not test_portrait.faults(table), (size, test_portrait.faults(table))
        most = 4 if (percent, size) == (120, (800, 480)) else 3  # some 30 letters a line there
        for button in buttons[:2]:
            assert lines_of(button) <= most, (size, button.text, lines_of(button))
            assert text_height(button) <= button.height, (size, button.text)
            assert shown_whole(button, table.ids.choice_scroll), (size, button.text)
        # the Flask's choice under the answers may need a scroll, as under the judged question's prompt
        uneven = [fault for fault in uneven_choices(table) if not fault.startswith("'Redeem Desert Flask")]
        assert not uneven, (size, uneven)


@pytest.mark.parametrize("percent", (100, 120))
@pytest.mark.parametrize(("lives", "items", "cost"), TOLD)
def test_the_roll_prompt_says_a_scared_spaces_cost_and_every_roll_still_shows(
    lives: int, items: list[str], cost: str, percent: int, start: Any, window_size: Any  # noqa: F811
) -> None:
    """'3: to Sandstorm Wall (16)' on its button, the cost in the prompt over the rolls (390 px of words, where a
    button at 800x480 shows 208): the prompt reads whole, and the six rolls show whole without scrolling, at
    800x480 and upright, at 100% and 120%. Sized by its length (over 100 letters: four lines' room for three),
    the prompt left the last row of rolls under the announcements at 120% at 800x480; 'Purple: roll the die to
    move ...; a 3 is Scared!: Purple loses the Cloak, ...' took four lines there, the last row 12 px under. Told
    as a sentence to the player who rolls ('a 3 lands on Scared!: lose 2 Lives and go back to Desert Dawn (0)',
    where 'a 3 is Scared!: loses the Cloak, or 2 Lives and goes back' read as a riddle), it fits as well."""
    from kivy.app import App

    from tests.ui import test_portrait
    from tests.ui.test_display_scale import scaled

    house = create("desert")
    state = position(house, {"purple": {"space": 13, "lives": lives, "items": items}}, turn="purple",
                     players=("purple", B))
    session = Session(house, house.to_document(state), state)
    assert session.pending().text.endswith(f"; a 3 lands on Scared!: {cost}."), session.pending().text
    offered = [a["text"] for a in session.legal()]
    assert offered[2] == "3: to Sandstorm Wall (16)" and len(offered) == 6, offered
    app = start(session)
    scaled(App.get_running_app(), percent)
    table = app.root.get_screen("table")
    for size, buttons in buttons_at_each_size(table, window_size, offered):
        assert not test_portrait.faults(table), (size, test_portrait.faults(table))
        prompt = table.ids.prompt
        assert text_height(prompt) <= prompt.height + 0.5, (size, prompt.text, text_height(prompt), prompt.height)
        hidden = [b.text for b in buttons if not shown_whole(b, table.ids.choice_scroll)]
        assert not hidden, (size, hidden)


@pytest.mark.parametrize("mode", ("mystery", "collection"))
@pytest.mark.parametrize("percent", (100, 120))
def test_a_draws_buttons_name_the_pile_and_read_whole(
    percent: int, mode: str, start: Any, window_size: Any  # noqa: F811
) -> None:
    """A Mystery draw's buttons said 'Drew Camel's Blessing (4 in the pile)': a first-time table asked which pile,
    and 4 of what. Each now says it is one of so many such cards in the Mystery pile (or the last one there),
    and reads whole in its button at 800x480 and upright, at 100% and 120%."""
    from kivy.app import App

    from tests.ui.test_display_scale import scaled

    house = create("desert")
    state = position(house, {"purple": {"space": 4}}, step={"kind": "draw", "mode": mode}, turn="purple",
                     players=("purple", B))
    session = Session(house, house.to_document(state), state)
    offered = [a["text"] for a in session.legal()]
    counts = state.mystery if mode == "mystery" else state.collection
    pile = house.deck_names[mode]
    assert len(offered) == len(counts) and all(n > 1 for n in counts), counts
    assert offered == [f"{text.split(' (')[0]} (one of {n} in the {pile})" for text, n in zip(offered, counts,
                                                                                              strict=True)]
    app = start(session)
    scaled(App.get_running_app(), percent)
    table = app.root.get_screen("table")
    for size, buttons in buttons_at_each_size(table, window_size, offered):
        cut = [b.text for b in buttons if lines_of(b) > 3 or text_height(b) > b.height + 0.5]
        assert not cut, (size, cut)
