"""The kiosk set-up that makes the readers reachable: the installer's dry run, the udev rule, the unit."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

KIOSK = Path(__file__).resolve().parents[2] / "hardware" / "kiosk"

pytestmark = pytest.mark.timeout(60)


def dry_run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(KIOSK / "install.sh"), "--dry-run", "--root", str(tmp_path), *args],
                          capture_output=True, text=True, timeout=30)


def test_installer_dry_run_installs_files_and_prints_commands(tmp_path: Path) -> None:
    done = dry_run(tmp_path, "--readers", "bridge,pn532,acr122u")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for expected in ["+ apt-get update", "libpcsclite-dev", "+ useradd --system", "dialout",
                     "/opt/boardbank/.venv/bin/pip install /opt/boardbank/src[ui,pcsc,speech]", "espeak-ng",
                     "+ systemctl enable --now pcscd.socket", "+ raspi-config nonint do_serial_cons 1",
                     "+ systemctl enable boardbank-kiosk.service", "+ systemctl disable getty@tty1.service"]:
        assert expected in out
    for path in ["etc/udev/rules.d/99-boardbank-readers.rules", "etc/modprobe.d/boardbank-blacklist-pn533.conf",
                 "etc/default/boardbank", "etc/systemd/system/boardbank-kiosk.service"]:
        assert (tmp_path / path).is_file(), path


def test_installer_skips_what_the_readers_do_not_need(tmp_path: Path) -> None:
    done = dry_run(tmp_path, "--readers", "bridge", "--no-service")
    assert done.returncode == 0, done.stderr
    assert "raspi-config" not in done.stdout
    assert not (tmp_path / "etc/modprobe.d/boardbank-blacklist-pn533.conf").exists()
    assert not (tmp_path / "etc/systemd/system/boardbank-kiosk.service").exists()


def test_installer_keeps_the_users_settings(tmp_path: Path) -> None:
    settings = tmp_path / "etc/default/boardbank"
    settings.parent.mkdir(parents=True)
    settings.write_text("BOARDBANK_ARGS=mine\n")
    assert dry_run(tmp_path).returncode == 0
    assert settings.read_text() == "BOARDBANK_ARGS=mine\n"


def test_installer_refuses_an_unknown_reader_and_says_which(tmp_path: Path) -> None:
    done = dry_run(tmp_path, "--readers", "bridge,nfc9000")
    assert done.returncode == 2
    assert "unknown reader 'nfc9000'" in done.stderr


def test_udev_rule_names_the_pico_bridge_and_the_unit_runs_the_kiosk() -> None:
    rules = (KIOSK / "99-boardbank-readers.rules").read_text()
    bridge = next(line for line in rules.splitlines() if "idVendor}==\"2e8a\"" in line)
    assert 'ATTRS{idProduct}=="0005"' in bridge and 'SYMLINK+="boardbank-bridge"' in bridge
    assert 'GROUP="dialout"' in bridge and 'ENV{ID_MM_DEVICE_IGNORE}="1"' in bridge
    unit = (KIOSK / "boardbank-kiosk.service").read_text()
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    assert "boardbank run --fullscreen" in exec_start and "$BOARDBANK_ARGS" in exec_start
    assert "EnvironmentFile=/etc/default/boardbank" in unit
    env = (KIOSK / "boardbank.env").read_text()
    assert "serial:///dev/boardbank-bridge?baud=115200" in env
    blacklist = (KIOSK / "blacklist-pn533.conf").read_text().split()
    assert {"pn533_usb", "pn533", "nfc"} <= set(blacklist)
