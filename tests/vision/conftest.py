"""Shared fixtures: the d6 reader (loaded once) and where the shared photo sets live."""

from __future__ import annotations

from pathlib import Path

import pytest

DATASETS = Path(__file__).resolve().parents[3] / "shared" / "datasets"


@pytest.fixture(scope="session")
def d6_reader():
    from vision.d6_reader import D6Reader, ModelMissing

    try:
        return D6Reader()
    except ModelMissing as exc:  # pragma: no cover - the model is committed
        pytest.fail(str(exc))


@pytest.fixture(scope="session")
def datasets() -> Path:
    if not DATASETS.is_dir():
        pytest.skip(f"shared photo sets not found at {DATASETS} (they live outside the repo)")
    return DATASETS
