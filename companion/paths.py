"""Where the companion keeps its files on this machine.

One place decides, so the journal, the café folder and taught hardware links
always sit together and a café backs up a single folder.
"""

from __future__ import annotations

import os
import tempfile
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


def _umask() -> int:
    """The process's umask, read without setting it (``os.umask`` sets it, for every thread at once)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


def _mode_for(path: Path, private: bool) -> int:
    """The permissions the written file gets: the replaced file's, else what a plain ``open`` would give."""
    if private:
        return 0o600
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        return 0o666 & ~_umask()


def write_whole(path: Path, content: bytes, private: bool = False) -> None:
    """Write ``content`` aside, flush it to the card, then rename it over ``path``: there whole, or not at all.

    A full SD card or a pulled plug mid-write would otherwise leave half a file
    under the name: a café file cut short, a settings file that loses the PIN,
    a die file that loses every face taught before. The aside file sits in the
    same folder, so the move is a rename, and it is dotted with a unique name,
    so no reader takes it for a real file and two writers never share it. The
    folder is flushed too, or a power cut just after could bring back the old
    file. ``OSError`` says nothing was changed.

    The aside file is made owner-only, so the written file is given the
    permissions the file it replaces had, or a new file's usual ones (a
    ``private`` one, such as settings holding a PIN, stays owner-only): a die
    taught with ``sudo`` was left unreadable to the service's own user.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _mode_for(path, private)
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            os.fchmod(file.fileno(), mode)
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def unused_name(kept: Path, companions: tuple[str, ...] = ("",)) -> Path:
    """``kept``, or ``kept-2``, ``kept-3``, ... when a file set aside before already has that name.

    Files set aside (a damaged journal, a broken settings file) are named by
    the clock, and a Pi without a clock of its own boots at the same time
    (1970, or fake-hwclock's last saved time) until the network or the owner
    sets it: the second copy took the first one's name, and the rename
    replaced the copy kept for recovery by hand. ``companions`` are the
    suffixes of files that go with it (a journal's ``-wal`` and ``-shm``):
    a name is used when any of them is.
    """
    candidate, number = kept, 1
    while any(Path(f"{candidate}{suffix}").exists() for suffix in companions):
        number += 1
        candidate = kept.with_name(f"{kept.name}-{number}")
    return candidate
