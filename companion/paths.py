"""Where the companion keeps its files on this machine.

One place decides, so the journal, the café folder and taught hardware links
always sit together and a café backs up a single folder.
"""

from __future__ import annotations

import os
from pathlib import Path


def user_data_dir() -> Path:
    """``$XDG_DATA_HOME/table-companion``, normally ``~/.local/share/table-companion``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "table-companion"


def env_or(variable: str, default: Path) -> Path:
    """An explicit path from the environment wins over the default."""
    explicit = os.environ.get(variable)
    return Path(explicit) if explicit else default
