from __future__ import annotations

import contextlib
import queue
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion import registry
from companion.controller import Controller
from companion.game import Action
from companion.observations import Update
from companion.session import Session
from hardware.dice_link import THROW_SECONDS, DiceLink
from hardware.dice_sim import SimulatedSensor
from hardware.tags import TagMap
from tests.controller_loop import pump_until, pump_until_done
from tests.core.race_game import Race

FAST = (0.02, 0.2)  # a link's back-off between reopenings, first and longest: seconds, not a real sensor's


def clocked_link(path: str, submit: Callable[..., None]) -> tuple[DiceLink, list[float]]:
    """A link on a clock the test sets (``now[0]``): the gaps between throws and drops, without waiting for them."""
    now = [1000.0]
    link = DiceLink(path, submit, backoff=FAST)
    link.clock = lambda: now[0]
    return link, now


def open_a_while(link: DiceLink) -> DiceLink:
    """The link's clock moved on past the burst a sensor tells as its port opens (`THROW_SECONDS`): a card reported
    now was laid at the table, not lying in its slot when the link began (`DiceLink._lay_there`), as a table lays
    its cards long after the app opened the port."""
    clock = link.clock
    link.clock = lambda: clock() + THROW_SECONDS
    return link


@pytest.fixture(autouse=True, scope="package")
def race_installed() -> Iterator[None]:
    """The test race for these tests only: left installed, later tests in the process (the UI's, the voice's)
    met a sixth game that no café has."""
    registry.install(Race())
    yield
    registry.uninstall(Race.id)


@pytest.fixture(autouse=True)
def own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The machine's own wiring file, tags and journal must not change what a test sees, nor be written by one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for variable in ("COMPANION_HARDWARE_CONFIG", "COMPANION_TAGS", "COMPANION_JOURNAL", "GPIOZERO_PIN_FACTORY"):
        monkeypatch.delenv(variable, raising=False)
    return tmp_path / "data"


@pytest.fixture
def sensor(tmp_path: Path) -> Iterator[SimulatedSensor]:
    """A simulated dice tower on a real pty, behind a stable symlink like udev's by-id names."""
    sim = SimulatedSensor(tmp_path / "dice").plug()
    yield sim
    sim.unplug()


def until_link(up: bool) -> Callable[[Update], bool]:
    return lambda u: u.kind == "link" and u.detail.get("up") is up


def drain(q: queue.Queue) -> list:
    items = []
    while not q.empty():
        items.append(q.get_nowait())
    return items


def temple_tagged(tmp_path: Path) -> tuple[Session, Controller, TagMap]:
    """A two-player temple game on a controller, every card of its deck tagged "T" + its id."""
    session = Session.new("temple", ["red", "blue"])
    cards = [a["card"] for a in session.legal() if a["type"] == "draw"]
    return session, Controller(session), TagMap(tmp_path / "tags.json", {f"T{card}": card for card in cards})


def laid_out_to_a_change(sensor: SimulatedSensor, controller: Controller, session: Session) -> Action:
    """The twelve slots laid through the sensor, one draw each, then the game played on (rolls from the app) until
    a change of a path card is due; that change."""
    for slot in range(1, 13):
        card = next(a["card"] for a in session.legal() if a["type"] == "draw")
        sensor.slot(slot, f"T{card}")
        pump_until(controller, lambda u: u.kind == "step")
    assert session.pending().kind != "draw"
    rng = random.Random(5)
    for _ in range(500):
        if any(a["type"] == "change" for a in session.legal()):
            break
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return next(a for a in session.legal() if a["type"] == "change")


def replugged_and_told_again(sensor: SimulatedSensor, controller: Controller, link: DiceLink, now: list[float],
                             said: list) -> None:
    """The sensor's cable moved, then, long after its port opened again (30 s on the link's clock, when a die is
    taken as a throw unless it lay there), its last die, a 3 still lying in the tray, told again, as firmware that
    tells its state on reconnecting does; back once the link has taken it."""
    connects, settled = link.counts["connects"], link.counts["DieSettled"]
    sensor.unplug()
    sensor.plug()
    pump_until_done(controller, lambda: link.counts["connects"] == connects + 1, said)
    now[0] += 30
    sensor.send("DIE", "d6", 3, 100)
    pump_until_done(controller, lambda: link.counts["DieSettled"] == settled + 1, said)


def blackpool_on(sensor: SimulatedSensor) -> tuple[Controller, DiceLink, list[float]]:
    """A Blackpool table fed by ``sensor``'s link, the link on the test's clock (``now[0]``, moved by hand)."""
    controller = Controller(Session.new("blackpool", ["red", "blue"]))
    link, now = clocked_link(sensor.path, controller.submit)
    return controller, link, now


@contextlib.contextmanager
def red_rolled_3(sensor: SimulatedSensor) -> Iterator[tuple[Controller, DiceLink, list[float]]]:
    """`blackpool_on`, its link up, and Red's 3 thrown on the sensor and taken; the link runs until the block ends."""
    controller, link, now = blackpool_on(sensor)
    with link:
        pump_until(controller, until_link(True))
        sensor.roll(3)
        pump_until(controller, lambda u: u.kind == "step")
        yield controller, link, now
