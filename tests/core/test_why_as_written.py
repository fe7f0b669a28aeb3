"""`why` (and the referee's `explain`) at a place as a café's data writes it, typed in any case or spacing.

`why` lower-cased what was typed and compared it with the data as written: a
café's desert space "Palm_Spring", a Blackpool square "C2" or a Targi border
card "The Salt  Pans" could never be asked about, and a desert space id "cool
cave" was taken for the space called "Cool Cave". Both sides are now read
alike (``companion.game.said_as``); words that name two places are refused
naming each, and data whose ids read as another place's name is refused by
the validator. Each test edits a template the validator wrote (``data template``).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion import registry
from companion.cli import main
from companion.protocol import Referee
from companion.session import Session
from companion.terminal import Terminal


@pytest.fixture(autouse=True)
def fresh_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's café data is read anew, not a game another test built from the same folder name."""
    monkeypatch.setattr(registry, "_instances", {})


def cafe(folder: Path, game: str, kind: str, change: Callable[[dict[str, Any]], None]) -> Path:
    """A café folder holding ``game``'s template with its ``kind`` file edited by ``change``."""
    assert main(["data", "template", game, str(folder)]) == 0
    path = folder / game / f"{kind}.json"
    content = json.loads(path.read_text(encoding="utf-8"))
    change(content)
    path.write_text(json.dumps(content, indent=1), encoding="utf-8")
    return folder


def whys(session: Session, *words: str) -> list[str]:
    """The terminal's answer to each `why <words>`, as a referee reads it."""
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter([*(f"why {w}" for w in words), "q"]))
    answers = [line for line in out.getvalue().splitlines() if "ALLOWED" in line or "Refused" in line]
    assert len(answers) == len(words), answers
    return answers


# Blackpool: a café's squares in capitals, Yellow 1 on b4 rolled 3 onto C2 where Yellow 2 stands.


def capital_c2(board: dict[str, Any]) -> None:
    """Square c2 written "C2" everywhere the board names it (its entry, paths, start circles)."""
    board.update(json.loads(json.dumps(board).replace('"c2"', '"C2"')))


def blocked_on_capital_c2(folder: Path) -> Session:
    travellers = {
        "yellow-1": {"at": "b4"}, "yellow-2": {"at": "C2"}, "yellow-3": {"at": "c3"},
        "red-1": {"at": "centre"}, "red-2": {"at": "centre"}, "red-3": {"at": "centre"},
    }  # fmt: skip
    document = {"game": "blackpool", "players": ["yellow", "red"], "turn": "yellow", "phase": "move", "roll": 3}
    return Session.load("blackpool", {**document, "travellers": travellers},
                        cafe_dir=cafe(folder, "blackpool", "board", capital_c2))  # fmt: skip


def test_a_blackpool_square_written_in_capitals_is_asked_about_in_any_case(tmp_path: Path) -> None:
    session = blocked_on_capital_c2(tmp_path)
    before = session.document()
    answers = whys(session, "c2", "C2", "c 2", " C2 ")
    assert answers[0] == ("  ALLOWED: Yellow 1 cannot land on C2 (ring 2): a traveller of its own colour is there. "
                          "Allowed: Yellow 2: forward 3 to f2 (ring 2).  [BP-7, BP-5]"), answers[0]
    assert answers == [answers[0]] * 4
    assert session.document() == before


def test_the_blackpool_centre_and_camp_and_travellers_in_capitals(tmp_path: Path) -> None:
    """`why Centre` and `why CAMP` were refused as places the board lacks; only "centre" and "camp" were known."""
    session = blocked_on_capital_c2(tmp_path)
    centre, camp, red, yellow = whys(session, "Centre", "CAMP", "RED 1", "Yellow-2")
    assert centre == ("  NOT ALLOWED: Red 1 is not Yellow's to move. The same rule holds for Red 2 and Red 3 "
                      "there.  [BP-6]")
    assert "no place called" not in camp and "camp" in camp, camp
    assert red == "  NOT ALLOWED: Red 1 is not Yellow's to move.  [BP-6]"
    assert "Yellow 2" in yellow and "no place called" not in yellow, yellow


def test_the_referee_explains_a_square_as_the_table_types_it(tmp_path: Path) -> None:
    referee = Referee()
    referee.session = blocked_on_capital_c2(tmp_path)
    for said in ("c2", "C2", "c 2"):
        ruling = referee.handle({"cmd": "explain", "place": said})["ruling"]
        assert "Yellow 1 cannot land on C2" in ruling["text"] and "BP-7" in ruling["rules"], (said, ruling)
    assert referee.handle({"cmd": "explain", "place": "Centre"})["ok"]


# The desert race: ids and names as a café writes them.


def odd_desert_spellings(board: dict[str, Any]) -> None:
    board["spaces"][1]["id"] = "Palm_Spring"
    board["spaces"][3]["name"] = "The  Oasis   Alcove"  # its id stays oasis_alcove: the same space either way


def test_a_desert_space_id_in_capitals_or_a_name_spaced_oddly_is_asked_about(tmp_path: Path) -> None:
    folder = cafe(tmp_path, "desert", "board", odd_desert_spellings)
    session = Session.new("desert", ["black", "pink"], cafe_dir=folder)
    game, state = session.game, session.state
    for said in ("palm spring", "Palm_Spring", "palm_spring", "PALM  SPRING", "1"):
        assert game.place_named(state, said) == "Palm_Spring", said
    for said in ("the oasis alcove", "Oasis Alcove", "oasis_alcove", "3"):
        assert game.place_named(state, said) == "oasis_alcove", said
    answers = whys(session, "palm_spring", "the oasis alcove")
    assert not any("no place called" in answer for answer in answers), answers


def test_the_referee_explains_a_desert_space_by_its_id_in_any_case(tmp_path: Path) -> None:
    referee = Referee()
    referee.session = Session.new("desert", ["black", "pink"],
                                  cafe_dir=cafe(tmp_path, "desert", "board", odd_desert_spellings))  # fmt: skip
    for said in ("Palm_Spring", "palm_spring", "Oasis Alcove"):
        assert referee.handle({"cmd": "explain", "place": said})["ok"], said


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda spaces: spaces[2].update(id="cool cave"),
         "board.json spaces[29] ('cool_cave'): id 'cool_cave' reads as the id of spaces[2] ('cool cave')"),
        (lambda spaces: spaces[2].update(id="Cool_Cave_2", name="The Cool Cave"),
         "board.json spaces[29] ('cool_cave'): id 'cool_cave' reads as the name of spaces[2] ('Cool_Cave_2'), "
         "'The Cool Cave'"),
        (lambda spaces: spaces[2].update(id="PALM_SPRING"),
         "board.json spaces[2] ('PALM_SPRING'): id 'PALM_SPRING' reads as the id of spaces[1] ('palm_spring')"),
        (lambda spaces: spaces[5].update(name="12"),
         "board.json spaces[5] ('rocky_ridge'): name '12' reads as a number, and `why 12` asks about the space of "
         "that number on the loop; give it a word"),
    ],
)  # fmt: skip
def test_desert_spaces_a_typed_why_could_not_tell_apart_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Callable[[list[dict[str, Any]]], None], message: str
) -> None:
    """A space id "cool cave" beside the space called "Cool Cave": `why cool cave` named them both."""
    folder = cafe(tmp_path, "desert", "board", lambda board: change(board["spaces"]))
    capsys.readouterr()
    assert main(["data", "validate", str(folder / "desert")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and message in out[0], out


# Targi: border labels as written, and two copies of one card face up in the centre.


def spaced_salt_pans(border: dict[str, Any]) -> None:
    border["cards"][4]["label"] = "The Salt  Pans"


def test_a_targi_border_label_spaced_oddly_is_asked_about(tmp_path: Path) -> None:
    session = Session.new("targi", ["white", "black"], cafe_dir=cafe(tmp_path, "targi", "border", spaced_salt_pans))
    for said in ("salt pans", "The Salt Pans", "SALT  PANS", "the_salt_pans"):
        assert session.game.place_named(session.state, said) == 5, said


def test_two_copies_of_a_targi_card_face_up_are_named_both(tmp_path: Path) -> None:
    """`why date basket` with two Date Baskets face up answered for the first one only."""
    session = Session.new("targi", ["white", "black"])
    for card in ("G01", "T41", "G01", "T42", "G03", "T43", "G04", "T44", "G06"):
        session.act({"type": "draw", "deck": "goods" if card.startswith("G") else "tribe", "card": card})
    before = session.document()
    basket, workshop = whys(session, "date basket", "LEATHER  workshop")
    assert basket == ("  Refused: 'date basket' names more than one place: centre 1-1 (Date Basket) and centre 1-3 "
                      "(Date Basket); name the card by its number or centre row-column  [TG-1]"), basket
    assert "no place called" not in workshop and "Refused" not in workshop, workshop
    assert session.document() == before
    referee = Referee()
    referee.session = session
    error = referee.handle({"cmd": "explain", "place": "Date Basket"})["error"]
    assert error["code"] == "bad_request" and "centre 1-1 (Date Basket) and centre 1-3" in error["message"]
    assert error["rule"] == "TG-1"


# Through the Desert and the temple name places by numbers only: spacing aside, as before.


@pytest.mark.parametrize(("game", "players", "spaced", "plain"), [
    ("ttd", ["red", "black", "orange"], "( 5 , 5 )", "5,5"),
    ("temple", ["red", "blue"], " 3 ", "3"),
])  # fmt: skip
def test_numbered_places_read_alike_however_spaced(game: str, players: list[str], spaced: str, plain: str) -> None:
    session = Session.new(game, players)
    first, second = whys(session, spaced, plain)
    assert first == second and "no place called" not in first, first


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda squares: squares[20].update(id="Centre"),
         "board.json: square 'Centre' reads as the centre, which `why` and the texts name so; give the square "
         "another id"),
        (lambda squares: squares[20].update(id="RED 1"),
         "board.json: square 'RED 1' reads as traveller red-1, which `why` and the texts name so; give the square "
         "another id"),
        (lambda squares: squares[11].update(id="b 2"),
         "board.json: square 'b 2' reads as square 'b2', spaces aside, as `why` is typed; give each its own id"),
    ],
)  # fmt: skip
def test_blackpool_squares_a_typed_why_reads_as_another_place_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Callable[[list[dict[str, Any]]], None], message: str
) -> None:
    """A square "Centre" on a ring, "RED 1" or "b 2" beside b2: `why` could not say which place was meant."""
    folder = cafe(tmp_path, "blackpool", "board", lambda board: change(board["squares"]))
    capsys.readouterr()
    assert main(["data", "validate", str(folder / "blackpool")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(message in line for line in out), out


@pytest.mark.parametrize(
    ("kind", "change", "message"),
    [
        ("border", lambda cards: cards[2].update(label="7"),
         "border.json card no 3: label '7' reads as a card's number or centre place, which `why` takes before any "
         "name; give it a word"),
        ("tribe", lambda cards: cards[0].update(label="Centre 2-1"),
         "tribe.json card 'T01': label 'Centre 2-1' reads as a card's number or centre place"),
        ("tribe", lambda cards: cards[0].update(label="The Salt  Pans"),
         "tribe.json card 'T01': label 'The Salt  Pans' is also the label of border.json card no 5"),
    ],
)  # fmt: skip
def test_targi_labels_a_typed_why_reads_as_another_place_are_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    change: Callable[[list[dict[str, Any]]], None],
    message: str,
) -> None:
    """A border card labelled "7" was card 7 to `why 7`; a tribe card "The Salt Pans" beside border card 5 "Salt
    Pans" passed, and `why the salt pans` could not say which was meant."""
    folder = cafe(tmp_path, "targi", kind, lambda content: change(content["cards"]))
    capsys.readouterr()
    assert main(["data", "validate", str(folder / "targi")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(message in line for line in out), out
