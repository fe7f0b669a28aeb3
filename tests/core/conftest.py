from __future__ import annotations

import pytest

from companion import registry
from tests.core.race_game import Race


@pytest.fixture(autouse=True, scope="session")
def race_installed() -> None:
    registry.install(Race())
