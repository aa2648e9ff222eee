"""The kiosk's files: install.sh passes ShellCheck, the unit passes ``systemd-analyze verify`` (or, where
that is missing, a parser of its keys), the watchdog is on, and updating and uninstalling run dry."""

from __future__ import annotations

import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KIOSK = ROOT / "hardware" / "kiosk"
UNIT = KIOSK / "boardbank-kiosk.service"

pytestmark = pytest.mark.timeout(120)

# the keys the unit may use, per section (systemd.unit(5), systemd.service(5), systemd.exec(5))
KNOWN_KEYS = {
    "Unit": {"Description", "Documentation", "After", "Before", "Wants", "Requires", "Conflicts"},
    "Service": {"Type", "NotifyAccess", "WatchdogSec", "TimeoutStartSec", "User", "Group",
                "SupplementaryGroups", "PAMName", "TTYPath", "TTYReset", "TTYVHangup", "TTYVTDisallocate",
                "StandardInput", "StandardOutput", "StandardError", "UtmpIdentifier", "UtmpMode",
                "EnvironmentFile", "Environment", "StateDirectory", "WorkingDirectory", "ExecStart",
                "Restart", "RestartSec"},
    "Install": {"WantedBy"},
}
CHOICES = {"Type": {"simple", "exec", "forking", "oneshot", "dbus", "notify", "idle"},
           "NotifyAccess": {"none", "main", "exec", "all"},
           "Restart": {"no", "on-success", "on-failure", "on-abnormal", "on-watchdog", "on-abort", "always"}}


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """A systemd unit's sections -> key -> values; raises ValueError for a line that is not one."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if m := re.fullmatch(r"\[(\w+)\]", line):
            current = sections.setdefault(m[1], {})
            continue
        key, sep, value = line.partition("=")
        if current is None or not sep or not re.fullmatch(r"[A-Za-z]+", key):
            raise ValueError(f"line {number}: not a key=value line in a section: {line!r}")
        current.setdefault(key, []).append(value)
    return sections


def check_keys(sections: dict[str, dict[str, list[str]]]) -> list[str]:
    """What is wrong with the unit's keys (empty when nothing is)."""
    problems = [f"unknown section [{s}]" for s in sections if s not in KNOWN_KEYS]
    for section, keys in sections.items():
        for key, values in keys.items():
            if key not in KNOWN_KEYS.get(section, set()):
                problems.append(f"[{section}] unknown key {key}")
            if key in CHOICES and values[-1] not in CHOICES[key]:
                problems.append(f"[{section}] {key}={values[-1]}: expected one of {sorted(CHOICES[key])}")
    service = sections.get("Service", {})
    exec_start = service.get("ExecStart", [""])[-1]
    if not exec_start.startswith("/"):
        problems.append(f"ExecStart must start with an absolute path, got {exec_start!r}")
    for key in ("WatchdogSec", "TimeoutStartSec", "RestartSec"):
        if key in service and not re.fullmatch(r"\d+(s|min)?", service[key][-1]):
            problems.append(f"{key}={service[key][-1]}: expected seconds")
    return problems


def test_install_sh_passes_shellcheck() -> None:
    assert shutil.which("shellcheck"), "ShellCheck is missing: bash scripts/install-system-deps.sh test installs it"
    scripts = [KIOSK / "install.sh", ROOT / "scripts" / "install-system-deps.sh", ROOT / ".ci" / "run"]
    done = subprocess.run(["shellcheck", "--shell=bash", *map(str, scripts)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stdout


def test_the_unit_verifies(tmp_path: Path) -> None:
    text = UNIT.read_text(encoding="utf-8")
    assert check_keys(parse_unit(text)) == []
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        warnings.warn("systemd-analyze is not installed here: the unit was checked by tests/cli/test_kiosk.py's "
                      "parser of its keys only", stacklevel=1)
        return
    # verify checks that ExecStart's program exists: cage is on the kiosk, not on a test machine, so the
    # copy verified here starts /bin/true with the same arguments (test_the_unit_runs_the_app checks cage)
    copy = tmp_path / UNIT.name
    copy.write_text(text.replace("ExecStart=/usr/bin/cage ", "ExecStart=/bin/true "), encoding="utf-8")
    done = subprocess.run([analyze, "verify", "--man=no", str(copy)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


def test_the_key_parser_finds_mistakes() -> None:
    good = UNIT.read_text(encoding="utf-8")
    assert check_keys(parse_unit(good.replace("NotifyAccess=all", "NotifyAcess=all")))
    assert check_keys(parse_unit(good.replace("Type=notify", "Type=notified")))
    assert check_keys(parse_unit(good.replace("WatchdogSec=30", "WatchdogSec=soon")))
    with pytest.raises(ValueError):
        parse_unit("Description=outside any section\n")


def test_the_unit_runs_the_app_with_the_watchdog() -> None:
    service = parse_unit(UNIT.read_text(encoding="utf-8"))["Service"]
    assert service["Type"] == ["notify"] and service["NotifyAccess"] == ["all"]  # the app is cage's child
    assert int(service["WatchdogSec"][0]) >= 10
    assert service["ExecStart"][0].startswith("/usr/bin/cage ")
    assert "cage" in (KIOSK / "install.sh").read_text(encoding="utf-8")


def dry_run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(KIOSK / "install.sh"), "--dry-run", "--root", str(root), *args],
                          capture_output=True, text=True, timeout=60, check=False)


def installed_before(root: Path) -> None:
    venv = root / "opt" / "boardbank" / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "boardbank").write_text("#!/bin/sh\n")
    (venv / "boardbank").chmod(0o755)
    (root / "var" / "lib" / "boardbank").mkdir(parents=True)
    (root / "var" / "lib" / "boardbank" / "boardbank.sqlite3").write_bytes(b"")


def test_install_compiles_the_modules(tmp_path: Path) -> None:
    done = dry_run(tmp_path)
    assert done.returncode == 0, done.stderr
    assert "+ /opt/boardbank/.venv/bin/python -m compileall -q -j 0 /opt/boardbank/.venv/lib" in done.stdout
    assert "== update" not in done.stdout and "backup" not in done.stdout


def test_an_update_backs_the_games_up_first_and_restarts_the_kiosk(tmp_path: Path) -> None:
    installed_before(tmp_path)
    out = dry_run(tmp_path, "--readers", "bridge").stdout.splitlines()
    backup = next(i for i, line in enumerate(out) if " backup --db /var/lib/boardbank/boardbank.sqlite3 " in line)
    assert out[backup].startswith("+ runuser -u boardbank -- /opt/boardbank/.venv/bin/boardbank backup")
    assert "/var/lib/boardbank/backups/before-update-" in out[backup]
    assert backup < out.index("+ apt-get update")
    assert out[-2] == "+ systemctl try-restart boardbank-kiosk.service" and out[-1] == "done"


def test_uninstall_keeps_the_games_and_purge_saves_them_first(tmp_path: Path) -> None:
    installed_before(tmp_path)
    done = dry_run(tmp_path, "--uninstall")
    assert done.returncode == 0, done.stderr
    for line in ("+ systemctl disable --now boardbank-kiosk.service",
                 "+ rm -f /etc/systemd/system/boardbank-kiosk.service",
                 "+ rm -f /etc/udev/rules.d/99-boardbank-readers.rules", "+ rm -rf /opt/boardbank",
                 "+ systemctl enable getty@tty1.service"):
        assert line in done.stdout.splitlines(), line
    assert "/var/lib/boardbank" not in "".join(x for x in done.stdout.splitlines() if x.startswith("+ rm"))
    assert "apt-get" not in done.stdout.replace("apt-get autoremove", "")
    purge = dry_run(tmp_path, "--uninstall", "--purge").stdout.splitlines()
    saved = next(i for i, line in enumerate(purge) if " backup --db " in line)
    removed = purge.index("+ rm -rf /opt/boardbank /var/lib/boardbank /etc/default/boardbank")
    assert saved < removed and any(x.startswith("+ mv /var/lib/boardbank/backups/") for x in purge[saved:removed])
    refused = dry_run(tmp_path, "--purge")
    assert refused.returncode == 2 and "--purge goes with --uninstall" in refused.stderr


def test_the_kiosk_readme_says_how_to_back_up_restore_update_and_uninstall() -> None:
    readme = (KIOSK / "README.md").read_text(encoding="utf-8")
    for text in ("boardbank backup", "boardbank restore", "--uninstall", "--purge", "sudo -u boardbank",
                 "install.sh --dry-run"):
        assert text in readme, text


def test_purge_after_uninstall_saves_the_games_without_the_program(tmp_path: Path) -> None:
    installed_before(tmp_path)
    (tmp_path / "opt" / "boardbank" / ".venv" / "bin" / "boardbank").unlink()  # --uninstall took it
    purge = dry_run(tmp_path, "--uninstall", "--purge").stdout.splitlines()
    saved = next(i for i, line in enumerate(purge) if line.startswith("+ runuser -u boardbank -- python3 -c "))
    assert "source.backup(copy)" in "\n".join(purge[saved:saved + 8])
    removed = purge.index("+ rm -rf /opt/boardbank /var/lib/boardbank /etc/default/boardbank")
    assert saved < removed


def test_where_systemd_and_udev_do_not_run_nothing_is_started_and_the_units_are_enabled(tmp_path: Path) -> None:
    """In a chroot (an image being built) install.sh enables for the next boot instead of failing: checked
    here on the script's text, and for real by bench/bench_kiosk_install.py."""
    text = (KIOSK / "install.sh").read_text(encoding="utf-8")
    assert "[ -d /run/systemd/system ]" in text and "switch enable pcscd.socket" in text
    assert "live systemctl daemon-reload" in text and "live systemctl try-restart" in text
    assert "udevadm control --reload 2>/dev/null" in text
    assert "run systemctl enable --now" not in text and "run udevadm control" in text  # (dry runs print it)
