"""Actions carrying keys their type does not take, across the five games (`companion.game.unknown_keys`).

A key a type does not take was refused only while that type was offered, with no word on what was likely
meant; keys that were each a type's but never go together (Targi's border "card" and centre "slot") were taken,
one of them unread; and a record exported from a journal with such a row could not be replayed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.errors import IllegalAction, InvalidAction
from companion.game import Action, kind_words
from companion.journal import Journal
from companion.registry import game_class
from companion.session import Session, replay_record

GAMES = ["blackpool", "desert", "targi", "temple", "ttd"]
RECORDS = sorted((Path(__file__).parents[1] / "games").glob("*/record*.json"))


def sent(action: Action) -> Action:
    return {k: v for k, v in action.items() if k != "text"}


def new_session(game_id: str, journal: Journal | None = None) -> Session:
    cls = game_class(game_id)
    return Session.new(game_id, list(cls.colours[: max(cls.min_players, 2)]), journal=journal)


def fits(game_id: str, action: Action) -> bool:
    """Whether the action's keys are one of the combinations its game declares for its type."""
    keys = frozenset(action) - {"type", "player", "text"}
    return any(keys <= way for way in game_class(game_id).action_shapes.get(action["type"], ()))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_offered_action_fits_its_games_declared_keys(game_id: str) -> None:
    """The declared shapes (`Game.action_shapes`) hold every action random play is offered, so the check
    refuses nothing the table's buttons, the terminal's numbers or the simulator send."""
    rng = random.Random(62)
    misfits: set[str] = set()
    for _ in range(3):
        session = new_session(game_id)
        for _ in range(300):
            if session.pending().is_over:
                break
            legal = session.legal()
            misfits.update(json.dumps(sent(a), sort_keys=True) for a in legal if not fits(game_id, a))
            session.act(sent(rng.choice(legal)))
    assert not misfits, sorted(misfits)[:5]


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_records_an_older_companion_wrote_fit_the_declared_keys_and_replay(record: Path) -> None:
    content = json.loads(record.read_text(encoding="utf-8"))
    records = [content] if "actions" in content else [r for r in content.values() if isinstance(r, dict)]
    for one in records:
        assert [a for a in one["actions"] if not fits(one["game"], a)] == []


@pytest.mark.parametrize("game_id", GAMES)
def test_a_key_sent_with_a_type_not_offered_now_is_named_and_changes_nothing(tmp_path: Path, game_id: str) -> None:
    """Before, a temple 'change' with "rotation" sent while the path is dealt was "Not now", the key unmentioned:
    sent again at its turn, the key was refused only then."""
    journal = Journal(tmp_path / "j.sqlite3")
    session = new_session(game_id, journal)
    offered = {a["type"] for a in session.legal()}
    kind = next(k for k in session.game.action_shapes if k not in offered)
    name = kind_words(kind, session.game.kind_names)
    before = session.document()
    for ask in (session.act, session.check):
        with pytest.raises(InvalidAction, match=rf"^{name}: 'rotation' is not asked for; (say|it asks)") as refused:
            ask({"type": kind, "rotation": 90})
        assert refused.value.rule == session.game.actions_rule
    assert session.document() == before and session.log == []
    assert journal.active_game() is not None and journal.active_game().steps == []


@pytest.mark.parametrize("game_id", GAMES)
def test_a_key_in_another_case_is_refused_with_the_key_meant(game_id: str) -> None:
    """"Value": 4 beside nothing else was refused for a key 'Value', with no word that 'value' was meant."""
    session = new_session(game_id)
    action = next(sent(a) for a in session.legal() if len(a) > 2)
    key = next(k for k in sorted(action) if k not in ("type", "player"))
    typo = {("type" if k == "type" else k.capitalize() if k == key else k): v for k, v in action.items()}
    with pytest.raises(InvalidAction, match=rf"'{key.capitalize()}' is not asked for \(is it '{key}'\?\); say "):
        session.act(typo)
    assert session.log == []


def targi_until(wanted: Callable[[Session], bool]) -> Session:
    """The first position of seeded random Targi games where ``wanted`` holds."""
    for seed in range(40):
        rng = random.Random(seed)
        session = new_session("targi")
        for _ in range(400):
            if session.pending().is_over:
                break
            if wanted(session):
                return session
            session.act(sent(rng.choice(session.legal())))
    raise AssertionError("no seeded Targi game reached the position wanted")


def _uses(session: Session) -> list[Action]:
    return [a for a in session.legal() if a["type"] == "use"]


def targi_with_card_and_slot_offered() -> tuple[Session, Action, Action]:
    """A Targi game where a border card and a centre card may both be used now."""
    session = targi_until(lambda s: any("card" in a for a in _uses(s)) and any("slot" in a for a in _uses(s)))
    uses = _uses(session)
    return session, sent(next(a for a in uses if "card" in a)), sent(next(a for a in uses if "slot" in a))


def test_targi_use_naming_both_a_border_card_and_a_centre_slot_is_refused() -> None:
    """Before, the border card was used and the slot went unread: the table thought the centre card was taken."""
    session, card, slot = targi_with_card_and_slot_offered()
    before = session.document()
    both = card | {"slot": slot["slot"]}
    both_said = r"^use: say which border card \('card'\), or which centre card \('slot'\), not 'card' and 'slot' "
    with pytest.raises(InvalidAction, match=both_said):
        session.act(both)
    with pytest.raises(InvalidAction, match="not 'card' and 'slot' together") as refused:
        session.check(both)
    assert refused.value.rule == "TG-A2"  # the clause allowing a use here, as any malformed offered type cites
    assert session.document() == before
    assert session.check(card).legal and session.check(slot).legal


def test_a_record_holding_a_key_an_older_companion_journalled_replays() -> None:
    """A journal row with an extra key resumes (journal replay never checked keys); its export could not be
    replayed, refused at that step."""
    session = new_session("blackpool")
    session.act(sent(next(a for a in session.legal() if a.get("value") == 3)))
    record = session.export()
    record["actions"][0] = record["actions"][0] | {"extra": 1}
    replayed = replay_record(record)
    assert replayed.document() == record["final"] and replayed.log == record["actions"]
    with pytest.raises(InvalidAction, match="'extra' is not asked for"):  # at the table it is still refused
        new_session("blackpool").act(record["actions"][0])


@pytest.mark.parametrize("game_id", GAMES)
def test_a_key_that_is_no_text_beside_one_that_is_is_refused_not_raised(game_id: str) -> None:
    """A Python caller's ``{"type": "roll", "value": 3, 1: 2}`` raised TypeError out of `act` and `check` (the
    refusal sorted the keys it names, 1 beside 'value'), where a value JSON cannot carry is refused with a clause."""
    session = new_session(game_id)
    offered = sent(session.legal()[0])
    declared = next(k for k in session.game.action_shapes if k not in {a["type"] for a in session.legal()})
    before = session.document()
    for action in (offered | {1: 2}, offered | {(1, 2): 2, "extra": 1}, {"type": declared, None: 1, "x": 2}):
        for ask in (session.act, session.check):
            with pytest.raises(InvalidAction, match=r"keyed by something other than text") as refused:
                ask(action)
            assert refused.value.rule in session.game.rulebook
    assert session.document() == before and session.log == []


def test_a_key_its_type_takes_though_none_offered_now_carries_it_gets_the_games_reason() -> None:
    """A Targi use of a centre card while only border cards may be used was "a 'use' action has no 'slot'; it
    takes only card" citing TG-A2, as though a use never named a centre card; the game's own answer says why
    this one may not be used now, with its clause. Nothing is taken that the game would not offer."""
    session = targi_until(lambda s: bool(_uses(s)) and all("card" in a for a in _uses(s)))
    uses = _uses(session)
    before = session.document()
    centre = {"type": "use", "slot": [2, 2]}
    ruling = session.check(centre)
    assert not ruling.legal and ruling.rules == ("TG-A3",) and "no tribe marker on centre 2-2" in ruling.text
    with pytest.raises(IllegalAction, match="no tribe marker on centre 2-2") as refused:
        session.act(centre)
    assert refused.value.rule == "TG-A3" and session.document() == before
    # a key no use takes, as before
    with pytest.raises(InvalidAction, match=r"^use: 'row' is not asked for; say which border card \('card'\)$"):
        session.act({"type": "use", "card": uses[0]["card"], "row": 1})


def desert_trading_with_nothing_to_give() -> Session:
    """Black on a green space with 1 Life and no card: every trade offered only gets (`"get"`), none gives."""
    document = new_session("desert").document()
    document.update(round=1, first="black", turn="black", step={"kind": "end", "trading": True})
    document["pieces"]["black"].update(space="caravan_market", lives=1, items=[])
    document["pieces"]["purple"].update(lives=4, items=["desert_flask"])
    document["collection"]["pile"]["desert_flask"] -= 1
    session = Session.load("desert", document)
    assert {frozenset(a) - {"text"} for a in session.legal() if a["type"] == "trade"} == {
        frozenset({"type", "with", "get"})}
    return session


def test_a_desert_trade_giving_too_while_only_gets_are_offered_is_the_games_to_rule_on() -> None:
    """The desert race lists single transfers but takes any agreed exchange (DR-Q22). With only "get" trades
    offered, any trade with a "give" was "a 'trade' action has no 'give'; it takes only get, with": the same trade
    with an empty give, an exchange the rules allow and one they refuse alike. The game now says which."""
    session = desert_trading_with_nothing_to_give()
    before = session.document()
    flask = {"type": "trade", "with": "purple", "get": {"items": ["desert_flask"]}}
    with pytest.raises(IllegalAction, match=r"^Black holds no Mirage Cloak to trade\.$") as refused:
        session.act(flask | {"give": {"items": ["mirage_cloak"]}})
    assert refused.value.rule == "DR-11"
    with pytest.raises(IllegalAction, match=r"^Black would be left with 0 Lives; no trade may take a player below"):
        session.act({"type": "trade", "with": "purple", "give": {"lives": 1}})
    gift = (r"^trade: 'gift' is not asked for; say what is received \('get'\), what is given \('give'\) and who the "
            r"trade is with \('with'\)$")
    with pytest.raises(InvalidAction, match=gift):  # still no such key
        session.act(flask | {"gift": {"lives": 1}})
    assert session.document() == before and session.log == []
    session.act(flask | {"give": {}})  # the very trade offered, its give left empty
    assert session.document()["pieces"]["black"]["items"] == ["desert_flask"]
    swap = {"type": "trade", "with": "purple", "give": {"lives": 1}, "get": {"lives": 2}}
    assert session.check(swap).legal  # Black's 1 Life for 2 of Purple's: no one goes below 1 (DR-AT15)
    session.act(swap)
    assert [session.document()["pieces"][p]["lives"] for p in ("black", "purple")] == [2, 3]
