"""A camera source as it may be shown or logged, its login starred (no OpenCV here: the app names a camera that
could not start, perhaps for want of OpenCV, with it)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

# A login written into the address after the host, as many network cameras and recorders take it:
# .../videostream.cgi?user=admin&pwd=..., ...?password=..., rtsp://host/user=admin&password=...&channel=1,
# ...?access_token=... . The value runs to the next parameter (or the address's end).
SECRET_PARAMETER = re.compile(
    r"(?<![a-z0-9])((?:pass(?:word|wd|phrase)?|pwd|psw|loginpas\w*|\w*token|secret|(?:api_?)?key|auth\w*|"
    r"sig(?:nature)?)=)[^&;#]*", re.IGNORECASE)

# A login before a host where the address lacks its "://": the name and password before the first "@", with no
# "/" in them (a path's folders are no login).
BARE_LOGIN = re.compile(r"^([a-z][a-z0-9+.-]*:/?)?([^/:@\s]+):[^/@\s]*@", re.IGNORECASE)


def shown(spec: str) -> str:
    """A source as it may be shown or logged: a stream's password (rtsp://admin:secret@..., or a parameter such
    as ?pwd=secret) replaced by stars.

    Its messages reach the players' table, the settings screen, the log and
    the feed thread's name, none of which is the place for a camera's login.
    """
    if "://" not in spec:  # 'rtsp:/admin:pw@host/...' or 'admin:pw@host/...', a scheme mistyped or left out
        return BARE_LOGIN.sub(r"\1\2:***@", spec)
    try:
        parts = urlsplit(spec)
    except ValueError:  # a malformed address is shown as typed, but for what looks like a password in it
        return SECRET_PARAMETER.sub(r"\1***", spec)
    hidden = parts._replace(path=SECRET_PARAMETER.sub(r"\1***", parts.path),
                            query=SECRET_PARAMETER.sub(r"\1***", parts.query),
                            fragment=SECRET_PARAMETER.sub(r"\1***", parts.fragment))
    if "@" in parts.netloc:
        user, host = parts.netloc.rsplit("@", 1)
        login = f"{user.split(':', 1)[0]}:***" if ":" in user else "***"
        hidden = hidden._replace(netloc=f"{login}@{host}")
    return spec if hidden == parts else hidden.geturl()  # an address with no login is shown as typed
