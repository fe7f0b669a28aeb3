"""Run the ``companion`` command with the test race installed, for subprocess tests."""

from __future__ import annotations

import sys

from companion import registry
from companion.cli import main
from tests.core.race_game import Race

if __name__ == "__main__":
    registry.install(Race())
    raise SystemExit(main(sys.argv[1:]))
