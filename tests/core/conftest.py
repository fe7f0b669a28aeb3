from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion import registry
from tests.core.race_game import Race


@pytest.fixture(autouse=True, scope="package")
def race_installed() -> Iterator[None]:
    """The test race for these tests only: left installed, later tests in the process (the UI's, the voice's)
    met a sixth game that no café has."""
    registry.install(Race())
    yield
    registry.uninstall(Race.id)
