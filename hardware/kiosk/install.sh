#!/usr/bin/env bash
# boardbank kiosk installer for Raspberry Pi OS Bookworm (64-bit, Lite or Desktop). Run as root:
#
#   sudo hardware/kiosk/install.sh [--readers bridge,pn532,acr122u] [--no-service] [--dry-run] [--root DIR]
#   sudo hardware/kiosk/install.sh --uninstall [--purge] [--dry-run] [--root DIR]
#
# It: installs the Debian packages; creates the system user `boardbank` (groups dialout, video, render,
# input, audio, plugdev); copies this checkout to /opt/boardbank/src and installs it with the UI and PC/SC
# extras into the venv /opt/boardbank/.venv, then compiles every module (python -m compileall) so the
# kiosk's cold start does not; installs the udev rule for the serial readers, the pn533 blacklist (for
# the ACR122U) and /etc/default/boardbank; enables pcscd; for a PN532 enables the UART and removes the
# serial login console; installs and enables boardbank-kiosk.service on tty1 (with a systemd watchdog).
#
# Run it again to update: it backs the installation file up first (boardbank backup, into
# /var/lib/boardbank/backups/) and restarts a running kiosk at the end. --uninstall removes the service,
# the udev and modprobe files and /opt/boardbank, and keeps the games (/var/lib/boardbank) and
# /etc/default/boardbank; --purge also backs the games up to /var/backups and removes them and the user.
#
# --dry-run prints every command instead of running it and writes files under --root (default: a
# temporary directory), so the script can be checked anywhere.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SRC="$(cd "$HERE/../.." && pwd)"
PREFIX=/opt/boardbank
USER_NAME=boardbank
READERS="bridge,acr122u"
SERVICE=1
DRY=0
ROOT=""
UNINSTALL=0
PURGE=0
DATA=/var/lib/boardbank
DB="$DATA/boardbank.sqlite3"
UNIT=/etc/systemd/system/boardbank-kiosk.service

usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --readers) READERS="${2:?--readers needs a list such as bridge,pn532,acr122u}"; shift 2 ;;
    --no-service) SERVICE=0; shift ;;
    --dry-run) DRY=1; shift ;;
    --root) ROOT="${2:?--root needs a directory}"; shift 2 ;;
    --uninstall) UNINSTALL=1; shift ;;
    --purge) PURGE=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option '$1' (expected --readers, --no-service, --uninstall, --purge, --dry-run, --root, --help)" >&2; exit 2 ;;
  esac
done

for r in ${READERS//,/ }; do
  case "$r" in bridge|pn532|acr122u) ;; *)
    echo "install.sh: unknown reader '$r' in --readers (expected bridge, pn532, acr122u)" >&2; exit 2 ;;
  esac
done
if [ "$PURGE" = 1 ] && [ "$UNINSTALL" = 0 ]; then
  echo "install.sh: --purge goes with --uninstall" >&2; exit 2
fi
has_reader() { [[ ",$READERS," == *",$1,"* ]]; }

if [ "$DRY" = 1 ]; then
  [ -n "$ROOT" ] || ROOT="$(mktemp -d)"
  echo "# dry run: commands are printed, files go under $ROOT"
elif [ "$(id -u)" != 0 ]; then
  echo "install.sh: run as root (sudo), or use --dry-run" >&2; exit 1
fi

run() {  # a system command: printed in a dry run, executed otherwise
  if [ "$DRY" = 1 ]; then printf '+ %s\n' "$*"; else "$@"; fi
}
put() {  # put FILE into DEST (an absolute path) with MODE, under --root in a dry run
  local file="$1" dest="$ROOT$2" mode="$3"
  mkdir -p "$(dirname "$dest")"
  install -m "$mode" "$file" "$dest"
  echo "installed $2"
}
stamp() { date -u +%Y%m%d-%H%M%S; }
backup_as_user() {  # an online backup of the games into $1, as the kiosk's user (so the -shm it may
  # create next to the journal stays the kiosk's own)
  run install -d -o "$USER_NAME" -g "$USER_NAME" -m 0750 "$DATA/backups"
  if [ -x "$ROOT$PREFIX/.venv/bin/boardbank" ]; then
    run runuser -u "$USER_NAME" -- "$PREFIX/.venv/bin/boardbank" backup --db "$DB" "$1"
  else  # --uninstall removed the program already: SQLite's online backup through Debian's python3, checked
    run runuser -u "$USER_NAME" -- python3 -c "$SQLITE_BACKUP" "$DB" "$1"
  fi
}
SQLITE_BACKUP='import sqlite3, sys
source = sqlite3.connect(sys.argv[1])
copy = sqlite3.connect(sys.argv[2])
source.backup(copy)
ok = copy.execute("PRAGMA quick_check").fetchone()[0] == "ok"
copy.close()
source.close()
sys.exit(0 if ok else "the copy of " + sys.argv[1] + " fails quick_check")'
booted() {  # systemd runs this system (not so in a chroot or an image being built: units are enabled
  # there for the next boot, and nothing is started, stopped or reloaded)
  [ "$DRY" = 1 ] || [ -d /run/systemd/system ]
}
live() {  # a command for the running system's systemd; skipped where systemd does not run
  if booted; then run "$@"; else echo "systemd is not running here (a chroot?): skipped '$*'"; fi
}
switch() {  # systemctl enable|disable UNIT, and start|stop it now where systemd runs
  if booted; then run systemctl "$1" --now "$2"; else run systemctl "$1" "$2"; fi
}
udev_reload() {  # udev rereads its rules; "trigger" also applies them to the devices plugged in now. Where
  # udev does not run (a chroot, an image being built) the rules apply at the next boot.
  if [ "$DRY" = 1 ]; then
    run udevadm control --reload
    [ "${1:-}" != trigger ] || run udevadm trigger --subsystem-match=tty --subsystem-match=usb
  elif udevadm control --reload 2>/dev/null; then
    [ "${1:-}" != trigger ] || udevadm trigger --subsystem-match=tty --subsystem-match=usb
  else
    echo "udev is not running here (a chroot?): the rules apply at the next boot"
  fi
}

if [ "$UNINSTALL" = 1 ]; then
  echo "== uninstall"
  switch disable boardbank-kiosk.service || true
  for f in "$UNIT" /etc/udev/rules.d/99-boardbank-readers.rules /etc/modprobe.d/boardbank-blacklist-pn533.conf; do
    run rm -f "$f"
  done
  live systemctl daemon-reload
  udev_reload
  run systemctl enable getty@tty1.service
  if [ "$PURGE" = 1 ]; then
    if [ -e "$ROOT$DB" ]; then  # the games are backed up before they are removed: nothing is lost
      saved="boardbank-$(stamp).sqlite3"
      backup_as_user "$DATA/backups/$saved"
      run mkdir -p /var/backups
      run mv "$DATA/backups/$saved" "/var/backups/$saved"
      echo "the games are saved in /var/backups/$saved (boardbank restore puts them back)"
    fi
    run rm -rf "$PREFIX" "$DATA" /etc/default/boardbank
    if id -u "$USER_NAME" >/dev/null 2>&1 || [ "$DRY" = 1 ]; then run userdel "$USER_NAME"; fi
  else
    run rm -rf "$PREFIX"
    echo "kept $DATA (the games, cards and settings) and /etc/default/boardbank; --purge removes them"
  fi
  echo "uninstalled (Debian packages stay: apt-get autoremove cage pcscd ... if nothing else needs them)"
  exit 0
fi

UPDATE=0
if [ -x "$ROOT$PREFIX/.venv/bin/boardbank" ]; then
  UPDATE=1
  echo "== update of an existing installation"
  if [ -e "$ROOT$DB" ]; then
    backup_as_user "$DATA/backups/before-update-$(stamp).sqlite3"
  fi
fi

echo "== packages"
PKGS=(python3 python3-venv python3-dev build-essential git
      pcscd libpcsclite1 libpcsclite-dev pcsc-tools libccid
      cage xwayland libgl1 libegl1 libgles2 libgl1-mesa-dri libmtdev1
      fonts-noto-cjk alsa-utils rsync espeak-ng)  # espeak-ng: the voice of BOARDBANK_SPEAK=1 (run --speak)
run apt-get update
run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${PKGS[@]}"

echo "== user $USER_NAME"
if ! id -u "$USER_NAME" >/dev/null 2>&1; then
  run useradd --system --create-home --home-dir /var/lib/boardbank --shell /usr/sbin/nologin "$USER_NAME"
fi
run usermod -a -G dialout,video,render,input,audio,plugdev "$USER_NAME"

echo "== boardbank into $PREFIX"
run mkdir -p "$PREFIX"
run rsync -a --delete --exclude .venv --exclude .git --exclude '__pycache__' "$SRC/" "$PREFIX/src/"
run python3 -m venv "$PREFIX/.venv"
run "$PREFIX/.venv/bin/pip" install --upgrade pip
run "$PREFIX/.venv/bin/pip" install "$PREFIX/src[ui,pcsc,speech]"
# every module compiled now, as root: the service's user cannot write __pycache__ under /opt, and a cold
# start that compiles Kivy and boardbank would take seconds on a Pi
run "$PREFIX/.venv/bin/python" -m compileall -q -j 0 "$PREFIX/.venv/lib"

echo "== readers"
put "$HERE/99-boardbank-readers.rules" /etc/udev/rules.d/99-boardbank-readers.rules 0644
udev_reload trigger
if has_reader acr122u; then
  put "$HERE/blacklist-pn533.conf" /etc/modprobe.d/boardbank-blacklist-pn533.conf 0644
  for m in pn533_usb pn533 nfc; do  # unloaded now if loaded (never another machine's, from a chroot)
    if [ "$DRY" = 1 ] || [ -d "/sys/module/$m" ]; then run modprobe -r "$m" || true; fi
  done
fi
switch enable pcscd.socket
if has_reader pn532; then
  if command -v raspi-config >/dev/null 2>&1 || [ "$DRY" = 1 ]; then
    run raspi-config nonint do_serial_cons 1   # no login console on the UART
    run raspi-config nonint do_serial_hw 0     # the UART enabled (enable_uart=1)
  else
    echo "no raspi-config: add enable_uart=1 to /boot/firmware/config.txt and remove console=serial0,115200 from /boot/firmware/cmdline.txt"
  fi
  echo "PN532: set its interface switches to HSU (see hardware/wiring.md); a reboot is needed for the UART"
fi

echo "== settings"
if [ -e "$ROOT/etc/default/boardbank" ]; then
  echo "kept /etc/default/boardbank (yours); the template is $HERE/boardbank.env"
else
  put "$HERE/boardbank.env" /etc/default/boardbank 0644
fi

if [ "$SERVICE" = 1 ]; then
  echo "== kiosk service"
  put "$HERE/boardbank-kiosk.service" "$UNIT" 0644
  live systemctl daemon-reload
  run systemctl disable getty@tty1.service
  run systemctl set-default graphical.target
  run systemctl enable boardbank-kiosk.service
  echo "start it now with: systemctl start boardbank-kiosk (or reboot)"
fi

echo "== check"
run "$PREFIX/.venv/bin/boardbank" readers
if [ "$UPDATE" = 1 ] && [ "$SERVICE" = 1 ]; then
  live systemctl try-restart boardbank-kiosk.service  # a game in progress resumes from its journal
fi
echo "done"
