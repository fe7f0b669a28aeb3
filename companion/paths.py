"""Where the companion keeps its files on this machine.

One place decides, so the journal, the café folder and taught hardware links
always sit together and a café backs up a single folder.
"""

from __future__ import annotations

import os
from pathlib import Path


def home() -> Path:
    """The user's home, from ``$HOME`` or, when that is empty or relative, the password database.

    ``Path.home()`` gives ``.`` for ``HOME=`` and the data would land in
    whatever folder the command happened to start in.
    """
    given = Path(os.environ.get("HOME", ""))
    if given.is_absolute():
        return given
    import pwd

    try:
        return Path(pwd.getpwuid(os.getuid()).pw_dir)
    except KeyError:  # a uid with no entry: nowhere better than the root folder's view of it
        return Path("/")


def xdg_base(variable: str, fallback: str) -> Path:
    """An XDG base folder: the variable when it holds an absolute path, else ``~/<fallback>``.

    The XDG spec says a relative path there is invalid and to be ignored;
    taken as given it would put the journal under the working directory
    (``/opt/table-companion`` for the service, read-only) or wherever a shell
    stood, e.g. a unit's ``Environment=XDG_DATA_HOME=~/data``, in which systemd
    expands no ``~``.
    """
    given = os.environ.get(variable, "")
    return Path(given) if given and Path(given).is_absolute() else home() / fallback


def user_data_dir() -> Path:
    """``$XDG_DATA_HOME/table-companion``, normally ``~/.local/share/table-companion``."""
    return xdg_base("XDG_DATA_HOME", ".local/share") / "table-companion"


def env_or(variable: str, default: Path) -> Path:
    """An explicit path from the environment wins over the default."""
    explicit = os.environ.get(variable)
    return Path(explicit) if explicit else default
