"""The user-facing pages read as a new user and a café owner read them: literally.

A café owner types the command lines as printed (README, docs/operations.md, docs/hardware.md,
docs/ui.md, docs/vision.md, docs/architecture.md, docs/games/*.md): a page naming an option or a
sub-command the parser does not have, or a value it refuses, leaves the reader with a usage error
instead of a table. So each line, its ``[optional]`` parts included and its ``a|b`` alternatives taken
in turn, must parse with the real parser here. A game page's position document, options table and
profiles, the Targi page's card tables, the error codes docs/architecture.md lists and the environment
variables the pages name are held to the code the same way (docs/protocol.md has its own test,
test_protocol_doc.py); so are a few things README promises the user at the keyboard: empty names refused
by name, and the terminal's first questions answered as they list their choices, `q` quitting.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from companion import errors
from companion.cli import build_parser
from companion.registry import create, game_classes

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))]
PAGES.remove("docs/protocol.md")  # its requests are JSON lines, checked by test_protocol_doc.py

# What a reader puts where a page writes a placeholder (folders that exist, as the parser checks some).
FILL = {
    "PATH": str(ROOT / "companion/games/blackpool/data"), "DIR": str(ROOT / "docs"), "OUT": str(ROOT / "docs"),
    "FOLDER": str(ROOT / "vision/models"), "FILE": "journal.sqlite3", "TOML": str(ROOT / "hardware/pins.toml"),
    "URL": "loop://", "PORT": "loop://", "SOURCE": "0", "GAME": "blackpool", "ID": "blackpool", "NAME": "standard",
    "WORDS": "six", "N": "1", "S": "1", "V": "4", "D": "0.8", "HZ": "50", "ROLLS": "100", "GAMES": "2",
    "DEGREES": "90", "WxH": "800x480", "OUT.pdf": "sheet.pdf", "L,T,R,B": "0.25,0.2,0.75,0.8", "PERCENT": "120",
    "<command>": "data which",
}


def _code(text: str) -> list[tuple[str, bool]]:
    """The page's command lines, each with whether it is whole: indented code (a trailing backslash
    continues it) is a line to type as it stands; an inline code span may name a command in passing
    (`companion export`), so it need not carry the arguments the command requires."""
    lines, held = [], ""
    for line in text.splitlines():
        if not line.startswith("    "):
            held = ""
            continue
        line = held + line.strip()
        held = line[:-1] + " " if line.endswith("\\") else ""
        if not held:
            lines.append((line, True))
    prose = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
    lines += [(span.replace("\n", " "), False) for span in re.findall(r"`([^`]+)`", prose)]
    return lines


# A span naming a sub-command with an option in passing, without `companion` before it (`hw bench --rolls`,
# `vision eval-dice SET --shadow 0.75`): `bench --soak 500` on the vision page was the main `bench`, which has
# no --soak, where `vision bench` was meant.
SUB_COMMAND_IN_PASSING = re.compile(
    r"^(?:play|referee|simulate|bench|rules|data|export|results|replay|hw|ui|vision) [^`]*--[a-z]"
)


def _command(line: str) -> str | None:
    """The ``companion`` part of a line (after a path, ``sudo`` and ``env``; before a comment or a pipe)."""
    line = re.split(r"\s{2,}#|\s{3,}(?![-\[])|\s+\|\s|\s>\s", line)[0]
    if SUB_COMMAND_IN_PASSING.match(line) and "..." not in line:
        return line
    # `sudo -u companion sqlite3 ...`, `install -o companion -g companion ...`: the service's user, not the command.
    found = re.search(r"^.*(?:^|(?<!\s-[ugo])\s|/)companion((?: [^\s].*)?)$", line)
    if found is None or not found.group(1).strip() or "..." in found.group(1):
        return None
    rest = found.group(1).strip()
    prose = ("as ", "is ", "says ", "then ", "this ")  # "the companion says ...", not a command
    if not re.match(r"(--cafe |\[--cafe )?\[?-?-?[a-z]", rest) or rest.startswith(prose):
        return None
    return rest


def _variants(command: str) -> list[list[str]]:
    """The argument lists a reader may type from one documented line."""
    command = command.replace("--[no-]", "--").replace("--card ID", "--card P07")  # a card id, not a game id
    for placeholder, value in sorted(FILL.items(), key=lambda kv: -len(kv[0])):
        command = re.sub(rf"(?<![\w-]){re.escape(placeholder)}(?![\w-])", value, command)
    command = command.replace("[", " ").replace("]", " ")
    words = shlex.split(command)
    choices = [word.split("|") if "|" in word and " " not in word else [word] for word in words]
    return [list(pick) for pick in itertools.product(*choices)]


def documented() -> list[tuple[str, str, bool]]:
    found = []
    for page in PAGES:
        for line, whole in _code((ROOT / page).read_text(encoding="utf-8")):
            command = _command(line)
            if command is not None and (page, command, whole) not in found:
                found.append((page, command, whole))
    return found


COMMANDS = documented()
# Said of a span naming a command in passing; anything else (a wrong option, sub-command or value) is not.
INCOMPLETE = re.compile(r"the following arguments are required|expected one argument$|required: COMMAND")


@pytest.fixture(scope="module")
def parser() -> argparse.ArgumentParser:
    return build_parser()  # once: it loads every adapter's commands


def test_the_pages_show_the_commands_a_user_types() -> None:
    shown = {command.split()[0] for _, command, _ in COMMANDS}
    assert {"play", "referee", "simulate", "bench", "rules", "data", "export", "replay", "hw", "ui", "vision"} <= shown
    assert sum(whole for _, _, whole in COMMANDS) > 40


@pytest.mark.parametrize(("page", "command", "whole"), COMMANDS, ids=[f"{p}: {c}"[:70] for p, c, _ in COMMANDS])
def test_each_documented_command_line_parses(
    page: str, command: str, whole: bool, parser: argparse.ArgumentParser
) -> None:
    for argv in _variants(command):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            try:
                parser.parse_args(argv)
            except SystemExit as ended:
                if ended.code == 0:  # `companion --help`, `companion vision --help`: printed, not refused
                    continue
                said = err.getvalue().strip().splitlines()[-1]
                if whole or not INCOMPLETE.search(said):
                    pytest.fail(f"{page}: `companion {' '.join(argv)}` is refused: {said}")


def test_the_setup_script_takes_the_two_commands_the_readme_shows() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"^    \./tc (\w+)", readme, re.M))
    branches = set(re.findall(r"^\s+(\w+)\) setup;", (ROOT / "tc").read_text(encoding="utf-8"), re.M))
    assert shown == {"start", "test"} and shown <= branches, (shown, branches)



@pytest.mark.parametrize("asked", ["-h", "--help", "help"])
def test_the_setup_script_says_what_its_two_commands_do_when_asked(asked: str) -> None:
    """`./tc --help` answered "usage: ./tc start | ./tc test" on stderr with exit status 2, as for a mistake,
    and said nothing of what either does. Asked, it names both with what each does; nothing is set up."""
    said = subprocess.run(["bash", str(ROOT / "tc"), asked], capture_output=True, text=True, timeout=30)
    assert said.returncode == 0 and said.stderr == "", said
    assert "./tc start" in said.stdout and "./tc test" in said.stdout and "test suite" in said.stdout


def test_the_setup_script_names_a_command_it_does_not_know() -> None:
    said = subprocess.run(["bash", str(ROOT / "tc"), "strat"], capture_output=True, text=True, timeout=30)
    assert said.returncode == 2 and said.stdout == "", said
    assert said.stderr.startswith("./tc: no command 'strat'\n") and "./tc start" in said.stderr

def test_the_setup_script_names_a_python_older_than_the_readme_asks_for_before_setting_up(tmp_path: Path) -> None:
    """README asks for Python 3.11 or newer. With 3.10, `./tc start` installed OS packages, made .venv and ran
    pip for minutes before pip said "requires a different Python"; it now says so first, touching nothing."""
    older = tmp_path / "python3.10"
    older.write_text('#!/bin/bash\n[ "$1" = -V ] && { echo "Python 3.10.12"; exit 0; }\nexit 1\n')
    older.chmod(0o755)
    shutil.copy(ROOT / "tc", tmp_path / "tc")
    tools = tmp_path / "tools"  # no dpkg or apt-get on the path: nothing could be installed, whatever tc did
    tools.mkdir()
    for tool in ("bash", "dirname"):
        (tools / tool).symlink_to(shutil.which(tool))
    for python, named in ((older, "Python 3.10.12"), (tmp_path / "none", "not there")):
        said = subprocess.run(["bash", str(tmp_path / "tc"), "start"], capture_output=True, text=True, timeout=30,
                              env={"PATH": str(tools), "PYTHON": str(python)})
        assert said.returncode == 1 and said.stdout == "", said
        assert said.stderr == (f"./tc: needs Python 3.11 or newer; {python} is {named}: name a newer one, e.g. "
                               "PYTHON=python3.11 ./tc start\n"), said.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["python3.10", "tc", "tools"]  # no .venv made

def test_the_setup_script_installs_without_the_build_backends_notes() -> None:
    """`./tc start` on a fresh clone printed setuptools' "BuildBackendWarning: Editable installation. ...
    Please be careful with folders in your working directory ..." (pip repeats a build backend's warnings as
    UserWarnings, -q or not) before the app: a new user's first sight, and nothing for them to do. Checked
    on a fresh clone by hand: with the filter the setup prints nothing; a real install is too slow for here."""
    script = (ROOT / "tc").read_text(encoding="utf-8")
    installs = re.findall(r"^\s*\.venv/bin/python (.*)-m pip install (.*)$", script, re.M)
    assert installs and all("-q" in args.split() for _, args in installs), installs
    editable = [flags for flags, args in installs if " -e " in f" {args} "]
    assert editable and all("-W ignore::UserWarning" in flags for flags in editable), installs

# -- docs/games/<id>.md -----------------------------------------------------------------------------------

def _page(game_id: str) -> str:
    return (ROOT / "docs" / "games" / f"{game_id}.md").read_text(encoding="utf-8")


def _section(text: str, title: str) -> str:
    return text.split(f"\n## {title}", 1)[1].split("\n## ", 1)[0]


def _written_out(document: dict, game) -> dict:
    """The page's abbreviated document made whole as its text says: `"...": ...` in the options stands
    for the rest (resolved when left out); in a Targi pile, for the deck's cards not shown elsewhere."""
    document["options"].pop("...", None)
    for kind, deck in document.get("decks", {}).items():
        for pile in deck.get("piles", ()):
            if pile["cards"].pop("...", None) is None:
                continue
            try:
                game.from_document(document)
            except errors.InvalidPosition as refused:
                for card, counted, held in re.findall(
                    rf"{kind} card (\w+): (\d+) counted in the position, the deck has (\d+)", str(refused)
                ):
                    pile["cards"][card] = pile["cards"].get(card, 0) + int(held) - int(counted)
    return document


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_the_position_document_on_each_game_page_loads_and_reads_back(game_id: str) -> None:
    section = _section(_page(game_id), "Position document")
    shown = json.loads(re.search(r"```json\n(.*?)```", section, re.S).group(1))
    game = create(game_id)
    document = _written_out(shown, game)
    state = game.from_document(document)  # raises InvalidPosition with every problem if the page is wrong
    back = game.to_document(state)
    assert {key: back[key] for key in document if key != "options"} == {
        key: value for key, value in document.items() if key != "options"
    }
    assert all(back["options"][key] == value for key, value in document["options"].items())


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_the_options_table_on_each_game_page_is_the_games_own(game_id: str) -> None:
    section = _section(_page(game_id), "Options and profiles")
    table = {}
    for row in section.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].startswith("`"):
            table[cells[0].strip("`")] = re.match(r"`([^`]*)`", cells[1]).group(1)
    metadata = game_classes()[game_id].metadata()
    options = {option["key"]: option["default"] for option in metadata["options"]}
    assert set(table) == set(options)
    for key, default in options.items():  # a page writes `opposite` or `"ride"` for the same string
        assert table[key] in (json.dumps(default), str(default)), (key, table[key], default)
    profiles = set(re.findall(r"`([\w-]+)`", section.split("Profiles", 1)[1].split("\n\n", 1)[0]))
    assert set(metadata["profiles"]) <= profiles


def test_the_error_codes_the_architecture_page_lists_are_every_one() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`([a-z]+(?:_[a-z]+)+)`", text.split("Errors are typed", 1)[1].split("\n\n", 1)[0]))
    codes = {cls.code for cls in vars(errors).values()
             if isinstance(cls, type) and issubclass(cls, errors.CompanionError) and cls is not errors.CompanionError}
    assert listed == codes, (sorted(codes - listed), sorted(listed - codes))


def test_the_targi_page_lists_the_house_cards_as_the_data_has_them() -> None:
    """A café transcribing its own deck starts from these tables: every border, goods and tribe card, as shipped."""
    section = _section(_page("targi"), "House data (our own design)")
    data = {kind: {card.get("id", card.get("no")): card for card in create("targi").data[kind]["cards"]}
            for kind in ("border", "goods", "tribe")}
    shown: dict[str, set] = {"border": set(), "goods": set(), "tribe": set()}
    for row in section.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if cells[0].isdigit():
            card = data["border"][int(cells[0])]
            action = {key: value for key, value in card["action"].items() if key != "code"}
            assert (cells[1], cells[2].strip("`"), action) == (
                card["label"], card["action"]["code"], json.loads(cells[3]) if cells[3] else {})
            shown["border"].add(int(cells[0]))
        elif re.fullmatch(r"G\d+", cells[0]):
            card = data["goods"][cells[0]]
            shown_card = (cells[1], json.loads(cells[2].strip("`")), int(cells[3]))
            assert shown_card == (card["label"], card["yield"], card.get("count", 1)), cells[0]
            shown["goods"].add(cells[0])
        elif re.fullmatch(r"T\d+", cells[0]):
            card = data["tribe"][cells[0]]
            costs = [json.loads(cost) for cost in cells[3].strip("`").split(" / ")]
            effects = [json.loads(span) for span in re.findall(r"`(\{[^`]*\})`", cells[5])]
            assert (cells[1], cells[2], costs, int(cells[4]), effects) == (
                card["label"], card["symbol"], card["cost"], card["vp"], card.get("effects", [])), cells[0]
            shown["tribe"].add(cells[0])
    assert shown == {kind: set(cards) for kind, cards in data.items()}


def test_the_validator_names_a_wrong_value_as_the_cafe_file_spells_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/operations.md: `companion data validate` quotes a wrong value as the file spells it (`null`, `true`).
    A board's `"width": null` was answered "expected an integer, found NoneType", Python's word for it."""
    from companion.cli import main

    assert main(["data", "template", "blackpool", str(tmp_path)]) == 0
    board = tmp_path / "blackpool" / "board.json"
    data = json.loads(board.read_text(encoding="utf-8"))
    data["width"], data["height"] = None, False
    board.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert main(["data", "validate", str(tmp_path)]) == 1
    said = capsys.readouterr().out
    assert "width: expected an integer, found null" in said, said
    assert "height: expected an integer, found false" in said, said
    assert "NoneType" not in said


def test_every_environment_variable_the_code_reads_is_in_the_docs_and_no_other() -> None:
    """A café sets these in a unit file or a shell: one the pages never name cannot be found, one they name
    that nothing reads is set in vain."""
    read = set()
    for package in ("companion", "hardware", "vision", "ui"):
        for source in (ROOT / package).rglob("*.py"):
            read |= set(re.findall(r"[\"'](COMPANION_[A-Z_]+)[\"']", source.read_text(encoding="utf-8")))
    named = set()
    for page in PAGES:
        named |= set(re.findall(r"\b(COMPANION_[A-Z_]+)\b", (ROOT / page).read_text(encoding="utf-8")))
    assert read and read == named, (sorted(read - named), sorted(named - read))


def test_a_command_run_as_the_service_user_sees_the_files_the_service_sees() -> None:
    """docs/operations.md's commands over SSH (`sudo -u companion ... companion ...`) must set the unit's own
    XDG_DATA_HOME, XDG_CONFIG_HOME and COMPANION_CAFE_DIR: without XDG_CONFIG_HOME, `vision teach-card` and
    `teach-die` read the settings from the companion user's ~/.config, not the ui.json the camera screen
    saved its Turn 90°, Mirror and tray in, and taught a sideways camera's card or die upside down; without
    XDG_DATA_HOME, `hw test` checked the default pins, not the café's hardware.toml beside the journal."""
    unit = (ROOT / "systemd/table-companion.service").read_text(encoding="utf-8")
    service = dict(re.findall(r"^Environment=((?:XDG_\w+|COMPANION_\w+))=(\S+)$", unit, re.M))
    assert {"XDG_DATA_HOME", "XDG_CONFIG_HOME", "COMPANION_CAFE_DIR"} <= set(service), service
    lines = [
        " ".join(span.split())
        for page in PAGES
        for span in re.findall(r"`([^`]+)`", (ROOT / page).read_text(encoding="utf-8"))
        if re.match(r"sudo -u companion .*/companion \w", " ".join(span.split()))
    ]
    assert len(lines) >= 5, lines
    for line in lines:
        given = dict(re.findall(r"\b(XDG_\w+|COMPANION_\w+)=(\S+)", line.split("/companion ", 1)[0]))
        assert given == service, f"{line!r} runs with {given}, the service with {service}"


@pytest.mark.parametrize(("argv", "said"), [
    (["--cafe", "", "data", "which"], "argument --cafe: it is empty: give a café folder's path"),
    (["vision", "markers", ""], "argument out: the file name is empty: give the sheet's name, ending in .pdf"),
])
def test_an_empty_file_or_folder_name_is_refused_by_name_as_the_readme_says(
    argv: list[str], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """README: a file or folder given empty (a shell variable left unset) is refused by name, not read as left
    out. `companion --cafe "" data which` named the default café folder's files as the ones in use, and
    `vision markers ""` refused "." as no PDF."""
    from companion.cli import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as usage:
        main(argv)
    assert usage.value.code == 2
    assert said in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("typed", ["Targi", "TARGI", " targi ", "3"])
def test_the_game_menu_takes_a_game_as_it_lists_it(typed: str) -> None:
    """`companion play` lists "3. Targi (targi)": the name as shown was answered "No game 'Targi'." and the
    command ended, where the number and the id were taken."""
    from companion.terminal import ask_new_game

    answers = iter([typed, "white,black", ""])
    said: list[str] = []
    spec = ask_new_game(lambda _prompt: next(answers), said.append, None)
    assert spec is not None and spec["game"] == "targi", said


def test_the_game_menu_takes_a_long_title_as_listed_too() -> None:
    from companion.terminal import ask_new_game

    answers = iter(["through the desert", "red,black", ""])
    assert ask_new_game(lambda _prompt: next(answers), lambda _line: None, None)["game"] == "ttd"


def test_the_players_and_profile_questions_take_what_they_list_in_any_case() -> None:
    """The questions list "yellow, red, green, blue" and "standard, ..., strict-edge": "Red, Blue" was "unknown
    colour 'Red'" and "Standard" "no profile 'Standard'", each time back to the game menu."""
    from companion.terminal import ask_new_game

    answers = iter(["Red, BLUE", "Strict-Edge"])
    said: list[str] = []
    spec = ask_new_game(lambda _prompt: next(answers), said.append, "blackpool")
    assert spec == {"game": "blackpool", "players": ["red", "blue"], "profile": "strict-edge"}, said


def test_the_cafe_option_alone_starts_what_companion_alone_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """README: `companion --cafe DIR <command>`; with no command, `companion` starts the app (or the terminal
    referee). `companion --cafe DIR` printed the usage and ended with status 2 instead of starting on DIR."""
    import companion.cli
    from companion.cli import main

    assert main(["data", "template", "targi", str(tmp_path)]) == 0
    monkeypatch.setattr(companion.cli, "default_command", lambda: ["data", "which", "targi"])  # the start, seen
    capsys.readouterr()
    assert main(["--cafe", str(tmp_path)]) == 0
    assert str(tmp_path / "targi" / "border.json") in capsys.readouterr().out


@pytest.mark.parametrize("typed", ["q", "Quit"])
def test_q_at_the_game_menu_quits_as_help_says_q_does(typed: str) -> None:
    """`help` says q quits; at "Which game?" it was answered "No game 'q'." as if it were a game mistyped."""
    from companion.terminal import ask_new_game

    said: list[str] = []
    assert ask_new_game(lambda _prompt: typed, said.append, None) is None
    assert not any("No game" in line for line in said), said


def test_q_at_the_players_question_quits_too() -> None:
    """It was read as one player, "needs 2 to 4 players, not 1", and the game menu came back."""
    from companion.terminal import ask_new_game

    said: list[str] = []
    assert ask_new_game(lambda _prompt: "q", said.append, "blackpool") is None
    assert said == []


def test_the_setup_script_says_it_installs_once_and_on_stderr(tmp_path: Path) -> None:
    """A fresh clone's `./tc start` sat silent for minutes while pip (-q) installed, and looked hung. It says
    what it does, once, on stderr (stdout may be `./tc start referee`'s JSON lines). Run on a copy of the
    script with a stand-in Python and no dpkg on the path, so nothing is installed for real."""
    import shutil
    import stat
    import subprocess

    for name in ("tc", "pyproject.toml", "constraints.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    tools = tmp_path / "tools"
    tools.mkdir()
    for tool in ("bash", "cat", "sha256sum", "cut", "dirname", "id", "env"):
        (tools / tool).symlink_to(shutil.which(tool))
    stand_in = "#!/bin/bash\necho \"$0 $*\" >> \"$(dirname \"$0\")/../../calls\"\n"
    venv_bin = tmp_path / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    for name, text in (("python", stand_in), ("companion", "#!/bin/bash\necho \"companion $*\"\n")):
        (venv_bin / name).write_text(text)
        (venv_bin / name).chmod(stat.S_IRWXU)
    env = {"PATH": str(tools), "PYTHON": str(venv_bin / "python"), "HOME": str(tmp_path)}

    def start() -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", str(tmp_path / "tc"), "start", "rules"], capture_output=True, text=True,
                              env=env, timeout=60)

    first, again = start(), start()
    assert first.returncode == 0 and first.stdout == "companion rules\n", first
    assert first.stderr.startswith("Installing the Python packages into .venv/") and "first time" in first.stderr
    assert "pip install" in (tmp_path / "calls").read_text()
    assert again.stdout == "companion rules\n" and again.stderr == ""  # installed: nothing to say


def test_the_hardware_demo_quotes_the_referee_on_a_sensor_not_there_yet(tmp_path: Path) -> None:
    """README's two-terminal demo quoted "[dice sensor lost: cannot open /tmp/dice: ...]", the words of a sensor
    that was there and went; `hw play` started before the simulator says the port is not found and that it
    keeps looking, so a reader comparing the two screens took the demo for broken."""
    from companion.controller import Controller
    from companion.session import Session
    from hardware.dice_link import DiceLink
    from hardware.dice_sim import SimulatedSensor
    from tests.controller_loop import pump_until

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    quoted = re.findall(r"`\[(dice sensor [^`\]]*)\]`", readme)
    assert len(quoted) == 2, quoted  # not there yet, then connected
    port = tmp_path / "dice"
    controller = Controller(Session.new("blackpool", ["red", "blue"]))
    sensor = SimulatedSensor(port)
    with DiceLink(str(port), controller.submit, backoff=(0.02, 0.2)):
        down = pump_until(controller, lambda u: u.kind == "link" and u.detail.get("up") is False)[-1]
        with sensor:
            up = pump_until(controller, lambda u: u.kind == "link" and u.detail.get("up") is True)[-1]
    assert [text.replace(str(port), "/tmp/dice") for text in (down.text, up.text)] == quoted


@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="no sqlite3 tool (setup-pi.sh installs it)")
def test_the_backup_command_copies_a_journal_in_use_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/operations.md had no way to back the journal up; its command, run on a journal a table holds open
    (its last steps in the WAL), gives a copy `export --list` reads with every step."""
    from companion.cli import main
    from companion.journal import Journal
    from companion.session import Session

    page = (ROOT / "docs/operations.md").read_text(encoding="utf-8")
    line = next(line.strip() for line in page.splitlines() if line.startswith("    ") and ".backup" in line)
    words = shlex.split(line)
    assert words[:3] == ["sudo", "-u", "companion"] and words[3] == "sqlite3"
    live, copy = tmp_path / "journal.sqlite3", tmp_path / "journal-backup.sqlite3"
    assert words[4] == "/var/lib/table-companion/table-companion/journal.sqlite3"  # where the unit keeps it
    assert words[5] == ".backup /tmp/journal-backup.sqlite3" and f"cp {words[5].split()[1]} " in page
    session = Session.new("blackpool", ["red", "blue"], journal=Journal(live))
    session.act({"type": "roll", "value": 6})
    session.act(session.legal()[0])
    assert (tmp_path / "journal.sqlite3-wal").stat().st_size > 0  # the table still holds it: steps in its log
    subprocess.run(["sqlite3", str(live), f".backup {copy}"], check=True, timeout=60)
    assert main(["export", "--list", "--journal", str(copy)]) == 0
    rows = capsys.readouterr().out.splitlines()[1:-1]
    assert [row.split()[:2] + row.split()[6:8] for row in rows] == [["1", "blackpool", "2", "in"]]


def test_the_readme_names_the_sizes_ui_screenshots_draws_by_default() -> None:
    """README said "both screen sizes" without naming them; a café with a 1024x600 panel could not tell whether
    its own was among them."""
    from ui.cli import SIZES

    line = next(line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
                if "companion ui screenshots /tmp/shots" in line)
    assert re.findall(r"\b(\d+x\d+)\b", line.split("#", 1)[1])[:len(SIZES)] == [f"{w}x{h}" for w, h in SIZES]


def test_the_forgotten_pin_row_edits_the_settings_file_the_service_reads(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The row names the file under the unit's XDG_CONFIG_HOME, edits it with sudoedit (which leaves it the
    service's; an editor under sudo may hand it to root, and the table then reads no settings), and the value it
    gives is one the PIN pad takes."""
    from ui.settings import Settings, default_settings_path

    unit = (ROOT / "systemd/table-companion.service").read_text(encoding="utf-8")
    config = re.search(r"^Environment=XDG_CONFIG_HOME=(\S+)$", unit, re.M)
    assert config is not None
    monkeypatch.delenv("COMPANION_UI_SETTINGS", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", config.group(1))
    row = next(line for line in (ROOT / "docs/operations.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| forgotten PIN |"))
    assert f"`sudoedit {default_settings_path()}`" in row
    setting = re.search(r'`("kiosk_pin": "\d+")`', row)
    assert setting is not None, row
    (tmp_path / "ui.json").write_text("{" + setting.group(1) + "}")
    assert Settings.load(tmp_path / "ui.json").kiosk_pin == "1234"


def test_the_readme_lists_each_games_colours_and_player_counts_as_the_game_takes_them() -> None:
    """A new user had `--players red,blue` for Blackpool alone, and learnt the other games' colours from a refusal
    ("unknown colour 'red'; colours: black, purple, ...")."""
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    said = re.search(r"`--players` names each player by a colour of the game \([^)]*\): (.*?)\. Each game's page",
                     readme)
    assert said is not None
    listed = {}
    for part in said.group(1).split("; "):
        found = re.fullmatch(r".*?\(`(\w+)`\) (\d+)(?: to (\d+))? of (.*)", part)
        assert found is not None, part
        game_id, low, high, colours = found.groups()
        listed[game_id] = (int(low), int(high or low), tuple(colours.split(", ")))
    shipped = {game_id: cls for game_id, cls in game_classes().items() if (ROOT / f"docs/games/{game_id}.md").exists()}
    assert listed == {game_id: (cls.min_players, cls.max_players, cls.colours) for game_id, cls in shipped.items()}


@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="no sqlite3 tool (setup-pi.sh installs it)")
def test_the_recipe_for_a_damaged_journal_saves_what_it_still_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/operations.md, the journal damaged row: its sqlite3 pipeline, typed as printed on a journal with a page
    of garbage, gives a journal `export` reads, with the games before the damage whole."""
    from companion.cli import main
    from companion.journal import Journal
    from companion.session import Session

    page = (ROOT / "docs/operations.md").read_text(encoding="utf-8")
    recipe = next(span for span in re.findall(r"`([^`]+)`", page) if span.startswith("sqlite3 journal.sqlite3.damaged"))
    recipe = recipe.replace("\\|", "|").replace("<date>", "20261206")  # a table cell escapes its pipes
    journal = Journal(tmp_path / "journal.sqlite3")
    for _ in range(12):
        session = Session.new("blackpool", ["red", "blue"], journal=journal)
        for _ in range(40):
            session.act(session.legal()[-1])
    journal.close()
    raw = bytearray((tmp_path / "journal.sqlite3").read_bytes())
    pages = len(raw) // 4096
    raw[(pages - 2) * 4096 : (pages - 2) * 4096 + 200] = b"\xff" * 200  # a page near the end, as a failing card
    (tmp_path / "journal.sqlite3.damaged-20261206").write_bytes(raw)
    subprocess.run(["bash", "-c", recipe], cwd=tmp_path, check=True, timeout=120, capture_output=True)
    assert main(["export", "--list", "--journal", str(tmp_path / "recovered.sqlite3")]) == 0
    rows = capsys.readouterr().out.splitlines()[1:-1]
    assert len(rows) >= 6 and rows[0].split()[:2] == ["1", "blackpool"] and rows[0].split()[6] == "40", rows[:2]


def test_the_kiosk_buttons_operations_names_are_the_screens_own() -> None:
    """docs/operations.md sent the café owner to an **Exit** button: home has none, and the settings screen's
    says "Exit app (PIN)" in kiosk mode."""
    page = (ROOT / "docs/operations.md").read_text(encoding="utf-8")
    screens = "".join(path.read_text(encoding="utf-8") for path in (ROOT / "ui/screens").glob("*.kv"))
    for name in ("Settings", "Exit app (PIN)", "New PIN", "Save", "Back", "Teach", "Mark tray", "Turn 90°", "Mirror"):
        assert f"**{name}**" in page and f"'{name}'" in screens, name
    assert "**Exit**" not in page
