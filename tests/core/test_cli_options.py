"""Options the command line takes that a command would pass over: refused by name, or used where they mean
something (`companion.cli._cafe_passed_over`, `companion.cli._cafe_or_given`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.journal import Journal
from companion.session import Session


@pytest.fixture
def cafe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty café folder, and a user data folder of the test's own (no default journal or settings)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("COMPANION_JOURNAL", raising=False)
    monkeypatch.delenv("COMPANION_CAFE_DIR", raising=False)
    folder = tmp_path / "cafe"
    folder.mkdir()
    return folder


@pytest.mark.parametrize(("command", "said"), [
    ("hw test --buttons none", "hw test does not read café data (of the hw commands, only play, simulate-dice and "
     "teach do)"),
    ("hw bench --rolls 1", "hw bench does not read café data (it times the house data)"),
    ("hw demo --pause 0", "hw demo does not read café data (the demo plays on the house data)"),
    ("ui bench", "ui bench does not read café data (of the ui commands, only run and screenshots do)"),
    ("export --list", "export does not read café data with --list (a record written does)"),
    ("hw simulate-dice --random 1 --exit", "hw simulate-dice does not read café data without --script or --die (a "
     "script's steps are checked, and --die thrown, on the café's die)"),
])
def test_commands_that_read_no_cafe_data_refuse_cafe(
    cafe: Path, command: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`companion --cafe DIR hw bench` timed the house data, `hw demo` played it and `ui bench` drew it, the folder
    taken in silence, so a café believed its own board had been: each says so, exit 2, before doing anything."""
    assert main(["--cafe", str(cafe), *command.split()]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [f"companion: {said}: leave --cafe out"]
    assert captured.out == ""


def test_export_list_without_cafe_and_a_record_with_it_still_run(
    cafe: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "journal.sqlite3"
    Session.new("race", ["red", "blue"], journal=Journal(journal)).journal.close()  # type: ignore[union-attr]
    assert main(["export", "--list", "--journal", str(journal)]) == 0
    assert main(["--cafe", str(cafe), "export", "-", "--journal", str(journal)]) == 0  # the record replays on it
    assert '"game": "race"' in capsys.readouterr().out


def test_data_template_and_validate_take_the_cafe_folder(cafe: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`companion --cafe DIR data template GAME` and `data validate` work on the café folder named."""
    assert main(["--cafe", str(cafe), "data", "template", "targi"]) == 0
    assert (cafe / "targi" / "border.json").is_file()
    assert main(["--cafe", str(cafe), "data", "validate"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"{cafe}: valid"
    for inside in (cafe, cafe / "targi", cafe / "targi" / "border.json"):  # the folder, or a game or file in it
        assert main(["--cafe", str(cafe), "data", "validate", str(inside)]) == 0
    assert main(["--cafe", str(cafe), "data", "template", "targi", str(cafe)]) == 0  # the same folder twice


def test_data_template_and_validate_refuse_another_folder_than_the_cafes(
    cafe: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`companion --cafe DIR data validate OTHER` checked OTHER and `data template GAME OTHER` filled it, the café
    folder taken in silence: refused, exit 2, nothing written."""
    other = tmp_path / "other"
    assert main(["--cafe", str(cafe), "data", "template", "targi", str(other)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"companion: data template copies into {other}, which is not the --cafe folder {cafe}: leave --cafe out, "
        f"or leave {other} out for the café folder"]
    assert not other.exists()
    # It would fill cafe/targi/targi.
    assert main(["--cafe", str(cafe), "data", "template", "targi", str(cafe / "targi")]) == 2
    assert not (cafe / "targi").exists()
    capsys.readouterr()
    other.mkdir()
    assert main(["--cafe", str(cafe), "data", "validate", str(other)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"companion: data validate checks {other}, which is not in the --cafe folder {cafe}: leave --cafe out, "
        f"or leave {other} out for the café folder"]


@pytest.mark.parametrize("command", [["validate"], ["template", "targi"]])
def test_data_without_a_folder_or_cafe_is_told_to_give_one(
    cafe: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["data", *command])
    assert ended.value.code == 2
    assert "or put --cafe DIR before data for the café folder" in capsys.readouterr().err.splitlines()[-1]


@pytest.mark.parametrize(("command", "said"), [
    (["--cafe", "{cafe}", "--cafe", "{tmp}", "rules", "race"],
     "companion: error: argument --cafe: given twice (--cafe {cafe}, then --cafe {tmp}): give it once"),
    (["play", "--game", "race", "--players", "red,blue", "--game", "blackpool"],
     "companion play: error: argument --game: given twice (--game race, then --game blackpool): give it once"),
    (["export", "-", "--id", "1", "--id", "2"],
     "companion export: error: argument --id: given twice (--id 1, then --id 2): give it once"),
    (["ui", "--journal", "{tmp}/a.sqlite3", "run", "--journal", "{tmp}/b.sqlite3"],
     "companion ui run: error: argument --journal: given twice (--journal {tmp}/a.sqlite3, then --journal "
     "{tmp}/b.sqlite3): give it once"),
    (["hw", "play", "--camera", "{tmp}", "--mirror", "--no-mirror"],
     "companion hw play: error: argument --mirror/--no-mirror: given twice (--mirror, then --no-mirror): give it "
     "once"),
    (["hw", "play", "--camera", "{tmp}", "--tray", "0.1,0.1,0.9,0.9", "--tray", "0.2,0.1,0.9,0.9"],
     "companion hw play: error: argument --tray: given twice with different values: give it once"),
])
def test_an_option_given_twice_with_another_value_is_refused(
    cafe: Path, tmp_path: Path, command: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse kept the last in silence: `play --game race ... --game blackpool` started Blackpool, the game named
    first passed over. Refused with exit 2 as argparse refuses a command line, before anything is opened."""
    words = {"cafe": str(cafe), "tmp": str(tmp_path)}
    with pytest.raises(SystemExit) as ended:
        main([word.format(**words) for word in command])
    assert ended.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == said.format(**words)
    assert not (tmp_path / "data").exists()  # no journal was opened


def test_an_option_given_twice_alike_or_meant_to_repeat_is_taken(
    cafe: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import _parse, build_parser

    assert main(["--cafe", str(cafe), "--cafe", str(cafe), "simulate", "--game", "race", "--game", "race",
                 "--games", "2"]) == 0
    assert "race: 2 games, 0 errors" in capsys.readouterr().out
    # A tray read twice alike is taken: the game named is what is refused then.
    assert main(["hw", "play", "--camera", str(cafe), *["--tray", "0.1,0.1,0.9,0.9"] * 2, "--game", "nope"]) == 2
    assert capsys.readouterr().err.startswith("companion: no game 'nope'")
    parser = build_parser()
    assert _parse(parser, ["ui", "screenshots", str(cafe), "--game", "ttd", "--game", "targi"]).game == [
        "ttd", "targi"]  # --game is repeatable there
    assert _parse(parser, ["rules", "race", "--search", "a"]).search == "a"  # a parser parsed again starts afresh
    assert _parse(parser, ["rules", "race", "--search", "b"]).search == "b"
