"""Home left showing while the journal's card fills, and while room is made on it again: a real small card.

The card is a tmpfs in a user and mount namespace (`tests.small_card`), the
journal on it; the app runs offscreen in the child that mounted it, its clock
one the script moves on (no test waits half a minute), and a log takes the
card's last bytes while home shows. Skipped where the machine allows no namespace.
"""

from __future__ import annotations

from pathlib import Path

from tests.small_card import on_a_card

HOME_WHILE_THE_CARD_FILLS = """
import json, sys
from pathlib import Path
from tests.ui.conftest import advance, until
from companion.controller import Controller
from companion.journal import Journal
from tests.small_card import fill_card
from ui.app import CARD_LOOK_SECONDS, CompanionApp
from ui.settings import Settings
from ui.voice import Voice
card = Path(sys.argv[1])
now = [1000.0]
app = CompanionApp(Controller(None), Journal(card / "journal.sqlite3"), Settings(), card / "ui.json",
                   voice=Voice(enabled=False), clock=lambda: now[0])
app._run_prepare()
advance(3)
home = app.root.get_screen("home")
found = {"screen": app.root.current, "before": home.ids.note.text}
fill_card(card)
now[0] += CARD_LOOK_SECONDS - 1
advance(3)
found["early"] = app.saving_note  # not looked at again yet: no busy poll
now[0] += 1
until(lambda: bool(app.saving_note), 10)  # the idle check's own timer, once a second
advance(3)
found["full"] = home.ids.note.text
(card / "syslog").unlink()  # the owner makes room
now[0] += CARD_LOOK_SECONDS
until(lambda: not app.saving_note, 10)
advance(3)
found["room"] = home.ids.note.text
found["started"] = app.new_game("blackpool", ["yellow", "red"])
print(json.dumps(found))
"""


def test_home_says_a_card_that_filled_while_it_showed_before_start_is_tapped(tmp_path: Path) -> None:
    """Home looked at the card only as it opened: a kiosk left on home for hours while a log filled the card
    said nothing, and the next table heard of it only as its Start was refused."""
    found = on_a_card(HOME_WHILE_THE_CARD_FILLS, tmp_path, "3m")
    assert found["screen"] == "home" and found["before"] == ""
    assert found["early"] == ""
    assert found["full"] == "New games and moves cannot be saved: the card is full. Owner: make room on the card."
    assert found["room"] == "" and found["started"]  # room made: home says so too, and a game begins saved
