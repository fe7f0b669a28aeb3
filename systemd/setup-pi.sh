#!/usr/bin/env bash
# Install Table Companion as a kiosk on Raspberry Pi OS Bookworm (64-bit, Lite or desktop).
#   sudo ./systemd/setup-pi.sh            from a checkout; installs to /opt/table-companion
# Safe to run again: it is also how an update is applied (never on every boot).
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "run with sudo" >&2; exit 1; }
SRC=$(cd "$(dirname "$0")/.." && pwd)
DEST=/opt/table-companion
USER_NAME=companion

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# Python with venv, the OS GPIO library (the PyPI lgpio wheel is an empty placeholder),
# GL/EGL for Kivy's KMS/DRM window, speech, and SQLite.
apt-get install -y -qq --no-install-recommends \
    python3 python3-venv python3-lgpio libgl1 libegl1 libgl1-mesa-dri libgbm1 libdrm2 \
    libmtdev1 espeak-ng alsa-utils sqlite3 rsync
# The Pi camera ("picamera" as the camera source): the OS's picamera2 and its libcamera bindings.
if apt-cache show python3-picamera2 >/dev/null 2>&1; then
    apt-get install -y -qq --no-install-recommends python3-picamera2
fi

id "$USER_NAME" >/dev/null 2>&1 || useradd --system --create-home --home-dir /var/lib/table-companion \
    --shell /usr/sbin/nologin "$USER_NAME"
for group in video render input gpio dialout audio tty; do
    getent group "$group" >/dev/null && usermod -aG "$group" "$USER_NAME"
done

mkdir -p "$DEST"
rsync -a --delete --exclude .venv --exclude .git --exclude __pycache__ "$SRC"/ "$DEST"/
# --system-site-packages so the OS python3-lgpio is visible to gpiozero inside the venv.
[ -x "$DEST/.venv/bin/python" ] || python3 -m venv --system-site-packages "$DEST/.venv"
"$DEST/.venv/bin/python" -m pip install -q --upgrade pip
# [pi] adds simplejpeg built for the venv's numpy 2: the OS's copy, built for Bookworm's numpy 1.24,
# stops picamera2 importing inside the venv ("numpy.dtype size changed"), and the venv's copy comes first.
"$DEST/.venv/bin/python" -m pip install -q -c "$DEST/constraints.txt" "$DEST[pi]"
chown -R root:root "$DEST"
install -d -o "$USER_NAME" -g "$USER_NAME" /var/lib/table-companion
# The unit's COMPANION_CAFE_DIR: empty until a café copies its own data in (house data until then).
install -d -o "$USER_NAME" -g "$USER_NAME" /var/lib/table-companion/cafe

install -m 0644 "$DEST/systemd/table-companion.service" /etc/systemd/system/table-companion.service
# Bound the system log on the SD card (journald's default allows 10% of the card, up to 4 GB).
install -D -m 0644 "$DEST/systemd/journald-table-companion.conf" /etc/systemd/journald.conf.d/table-companion.conf
systemctl restart systemd-journald
# The kiosk owns the touchscreen's console: no login prompt and no desktop on tty1.
systemctl disable --now getty@tty1.service 2>/dev/null || true
if systemctl is-enabled lightdm.service >/dev/null 2>&1; then
    systemctl set-default multi-user.target
    systemctl disable lightdm.service
fi
systemctl daemon-reload
systemctl enable table-companion.service
systemctl restart table-companion.service
echo "Installed. Logs: journalctl -u table-companion -f"
