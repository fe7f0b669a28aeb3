"""Why a camera's device node cannot be opened, found before OpenCV is asked, which gives no reason of its own.

OpenCV's open of camera 0 only answers yes or no: a camera that is not
plugged in and one the service's user may not open (not in the ``video``
group) both read "cannot open camera 0 (unplugged, busy, or not a camera)",
and the café owner looked for a cable when the fix was a group. On Linux a
camera index N is the node /dev/videoN, so opening that node ourselves, as
OpenCV would (read and write, not waiting), tells the two apart.
"""

from __future__ import annotations

import grp
import os
import pwd
import stat
import sys
from pathlib import Path

from vision.mains import device_path

DEVICES = "/dev"  # where the kernel's device nodes are; tests give a temporary folder instead
CAMERA_GROUP = "video"  # the group udev gives camera nodes on Debian and Raspberry Pi OS (crw-rw---- root video)


def camera_node(target: int | str, devices: str = DEVICES) -> Path | None:
    """The node a capture target opens: /dev/videoN for index N on Linux, a path in ``devices`` as it is; None for
    a URL, a file, or an index on a system whose cameras are no /dev/videoN (there OpenCV alone can say)."""
    if isinstance(target, int) and not sys.platform.startswith("linux"):
        return None
    if isinstance(target, str) and "://" in target:
        return None
    node = device_path(target, devices)
    return Path(node) if node else None


def missing_note(node: Path) -> str | None:
    """"no camera at NODE (...)" when nothing is there; None when the node is there."""
    if node.exists():  # a by-id link left by an unplugged camera points at nothing: no camera either
        return None
    return f"no camera at {node} (unplugged, or another number: see ls /dev/video*)"


def refused_note(node: Path) -> str | None:
    """Why this user may not open ``node`` and what mends it, or None when it opens (or fails for another reason,
    which OpenCV's open then meets and says)."""
    try:
        handle = os.open(node, os.O_RDWR | os.O_NONBLOCK)
    except PermissionError:
        return permission_note(node)
    except OSError:
        return None
    os.close(handle)
    return None


def permission_note(node: Path) -> str:
    """The user, the group that opens cameras and the fix, in the words of ``docs/vision.md`` ("Sources")."""
    user = _user_name()
    group, gid = _camera_group(node)
    said = f"cannot open {node}: permission denied"
    if gid is not None and (gid == os.getegid() or gid in os.getgroups()):
        return (f"{said} to the user {user}, though it is in the {group} group: see the node's owner and mode with "
                f"ls -l {node} (a camera's is crw-rw---- root {CAMERA_GROUP})")
    # Short enough for the camera screen's empty frame (300 characters), which would cut the fix out of the middle.
    return (f"{said}: the user {user} is not in the {group} group; add it with sudo usermod -aG {group} {user}, then "
            f"log in again or restart the service (a unit of your own needs SupplementaryGroups={group}, as the one in "
            "systemd/ has)")


def _camera_group(node: Path) -> tuple[str, int | None]:
    """The group that may open ``node`` (its own when its mode lets its group read and write it, else ``video``),
    and that group's id (None when this system has no such group)."""
    try:
        status = node.stat()
        if status.st_mode & (stat.S_IRGRP | stat.S_IWGRP) == stat.S_IRGRP | stat.S_IWGRP:
            return grp.getgrgid(status.st_gid).gr_name, status.st_gid
    except (OSError, KeyError):
        pass
    try:
        return CAMERA_GROUP, grp.getgrnam(CAMERA_GROUP).gr_gid
    except KeyError:
        return CAMERA_GROUP, None


def _user_name() -> str:
    """Who this program runs as, by name (a container's user may have none: then its number)."""
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())
