"""Players are named as names ("White") in every Targi refusal, announcement and prompt."""

from __future__ import annotations

from companion.session import Session
from tests.games.player_names import gather
from tests.games.targi.helpers import B, W


def test_no_lower_case_player_id_in_any_text_of_a_long_random_game() -> None:
    texts = gather(Session.new("targi", [W, B]), seed=5, restart=lambda: Session.new("targi", [B, W]))
    assert len(texts.refusals) > 150 and len(texts.events) > 150  # the probes reach far, not one sentence
    assert texts.lower_case_names([W, B]) == {}


def test_the_occupied_card_refusal_names_the_owner() -> None:
    session = Session.new("targi", [W, B])
    while session.pending().kind == "draw":
        session.act({k: v for k, v in session.legal()[0].items() if k != "text"})
    session.act({"type": "place", "card": 2})
    ruling = session.check({"type": "place", "card": 2})
    assert not ruling.legal and ruling.text == "Card 2 (Palm Grove) already holds White's Targi."
