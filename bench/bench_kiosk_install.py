"""The kiosk installed for real: hardware/kiosk/install.sh in a fresh Debian 12 (bookworm) root, as on a new Pi.

Run as root (debootstrap, chroot and mount need it)::

    sudo .venv/bin/python bench/bench_kiosk_install.py [--root DIR] [--keep] [--base-tar FILE] [--save-base FILE]

Steps, each timed (seconds) and checked:

1. ``debootstrap --variant=minbase bookworm ROOT MIRROR`` (MIRROR: the first Debian mirror apt is configured
   with on this machine, read from /etc/apt/sources.list and sources.list.d), or unpack ``--base-tar``;
   then what Raspberry Pi OS already has and a minbase root lacks: systemd, udev, kmod, procps.
2. ``install.sh --readers bridge,pn532,acr122u`` inside the root (``/proc``, ``/dev`` and ``/dev/pts``
   mounted; a ``policy-rc.d`` keeps the packages' daemons from starting): the user and its groups, the
   venv, every module compiled, the unit passing ``systemd-analyze verify`` inside the root, the udev rule,
   the modprobe file and /etc/default/boardbank in place, the service and pcscd enabled, tty1's getty off,
   ``boardbank readers`` working as the kiosk's user.
3. A game played as the kiosk's user (``boardbank headless`` with tests/engine/taps/whole_game.tap into
   /var/lib/boardbank/boardbank.sqlite3), a line added to the checkout, then ``install.sh`` again as an
   update: a backup taken first, the new line installed, the game replays the same after it, and from the
   backup.
4. ``install.sh --uninstall``: the program, the unit, the udev and modprobe files gone, the games, the
   settings and the user kept. ``install.sh --uninstall --purge``: the games saved to /var/backups (they
   replay the same), then the data, the settings and the user gone.

The mounts are unmounted on every way out (an error, a failed check, Ctrl+C, SIGTERM), after every process
still running inside the root is ended; the root is removed unless ``--keep``. Prints one line per step and
check and a summary; exit status 1 if a check failed. A few minutes (the packages and pip's downloads).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SRC_IN_ROOT = "/root/boardbank"  # the checkout install.sh runs from, inside the root
DB = "/var/lib/boardbank/boardbank.sqlite3"
READERS = "bridge,pn532,acr122u"
PI_OS_HAS = ["systemd", "udev", "kmod", "procps"]  # Raspberry Pi OS Lite has these; a minbase root does not
ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
       "HOME": "/root", "DEBIAN_FRONTEND": "noninteractive", "TERM": "dumb"}


class Bench:
    """The run's root, its mounts, timings and checks."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.mounts: list[Path] = []
        self.times: dict[str, float] = {}
        self.failed: list[str] = []
        self.passed = 0

    # -- steps and checks ------------------------------------------------------------------------------------
    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        print(f"== {name}", flush=True)
        began = time.monotonic()
        try:
            yield
        finally:
            self.times[name] = time.monotonic() - began
            print(f"   {name}: {self.times[name]:.1f} s", flush=True)

    def check(self, what: str, ok: bool, detail: object = "") -> bool:
        if ok:
            self.passed += 1
        else:
            self.failed.append(what)
        print(f"   [{'ok' if ok else 'FAILED'}] {what}{f': {detail}' if detail and not ok else ''}", flush=True)
        return ok

    def host(self, *argv: str, **kw: object) -> subprocess.CompletedProcess[str]:
        return subprocess.run(argv, text=True, check=False, **kw)  # type: ignore[call-overload, no-any-return]

    def inside(self, *argv: str, stdin: str | None = None, log: Path | None = None,
               user: str | None = None) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` in the root (as ``user`` through runuser), with a clean environment."""
        command = ["chroot", str(self.root), "/usr/bin/env", "-i", *[f"{k}={v}" for k, v in ENV.items()]]
        if user:
            command += ["runuser", "-u", user, "--"]
        done = subprocess.run([*command, *argv], input=stdin, capture_output=True, text=True, check=False)
        if log is not None:
            with log.open("a", encoding="utf-8") as f:
                f.write(f"$ {' '.join(argv)}\n{done.stdout}{done.stderr}[exit {done.returncode}]\n")
        return done

    def path(self, inside: str) -> Path:
        return self.root / inside.lstrip("/")

    # -- mounts ----------------------------------------------------------------------------------------------
    def mount(self) -> None:
        for target, argv in (("proc", ["-t", "proc", "proc"]), ("dev", ["--bind", "/dev"]),
                             ("dev/pts", ["--bind", "/dev/pts"])):
            where = self.root / target
            where.mkdir(parents=True, exist_ok=True)
            subprocess.run(["mount", *argv, str(where)], check=True)
            self.mounts.append(where)

    def unmount(self) -> None:
        """End what still runs inside the root (by process id), then unmount in reverse order."""
        self.end_processes_inside()
        for where in reversed(self.mounts):
            if subprocess.run(["umount", str(where)], check=False).returncode != 0:
                subprocess.run(["umount", "-l", str(where)], check=False)  # busy: detached now, freed when idle
        self.mounts.clear()
        leftover = [line for line in Path("/proc/self/mounts").read_text().splitlines()
                    if f" {self.root}/" in line or f" {self.root} " in line]
        print(f"   mounts left under {self.root}: {len(leftover)}", flush=True)

    def end_processes_inside(self) -> None:
        mine = []
        for proc in Path("/proc").iterdir():
            if proc.name.isdigit():
                try:
                    if os.readlink(proc / "root") == str(self.root):
                        mine.append(int(proc.name))
                except OSError:
                    continue
        for pid in mine:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        if mine:
            print(f"   ended {len(mine)} process(es) left in the root: {mine}", flush=True)
            time.sleep(1)


def apt_mirror(etc_apt: Path = Path("/etc/apt")) -> str:
    """The first Debian bookworm mirror in apt's configuration (one-line or deb822 sources; not security)."""
    files = [etc_apt / "sources.list", *sorted((etc_apt / "sources.list.d").glob("*"))]
    for f in files:
        if not f.is_file():
            continue
        text = f.read_text(encoding="utf-8", errors="replace")
        for m in re.finditer(r"^deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+(bookworm)\s", text, re.M):
            return m[1]
        for block in re.split(r"\n\s*\n", text):
            uris = re.search(r"^URIs:\s*(\S+)", block, re.M)
            suites = re.search(r"^Suites:(.*)$", block, re.M)
            if uris and suites and "bookworm" in suites[1].split() and "security" not in uris[1]:
                return uris[1]
    raise SystemExit("no Debian bookworm mirror in /etc/apt/sources.list*: give one with --mirror")


def pass_host_pip_settings(root: Path) -> None:
    """pip inside the root as on this machine: its timeout, and the certificates it trusts when this
    machine names a bundle (a network whose HTTPS goes through a proxy with its own authority)."""
    for name in ("PIP_DEFAULT_TIMEOUT", "PIP_DISABLE_PIP_VERSION_CHECK"):
        if os.environ.get(name):
            ENV[name] = os.environ[name]
    bundle = os.environ.get("PIP_CERT") or os.environ.get("SSL_CERT_FILE")
    if bundle and Path(bundle).is_file():
        (root / "etc/ssl").mkdir(parents=True, exist_ok=True)
        shutil.copy2(bundle, root / "etc/ssl/bench-host-ca.crt")
        ENV["PIP_CERT"] = "/etc/ssl/bench-host-ca.crt"


def copy_checkout(dest: Path) -> int:
    """The checkout's files (tracked and new, not ignored, as they are now) into ``dest``; returns the count."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                            capture_output=True, check=True).stdout.decode().split("\0")
    count = 0
    for name in filter(None, listed):
        source = REPO / name
        if not source.is_file() or source.is_symlink():
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
        count += 1
    return count


def uncompiled(site: Path) -> list[str]:
    """boardbank's modules in the venv without a compiled file of the venv's Python."""
    missing = []
    for package in ("engine", "reader", "ui", "firmware_sim"):
        for py in (site / package).rglob("*.py"):
            if not list((py.parent / "__pycache__").glob(f"{py.stem}.cpython-*.pyc")):
                missing.append(str(py.relative_to(site)))
    return missing


def replay_json(bench: Bench, db: str, user: str | None = "boardbank") -> str:
    done = bench.inside("/opt/boardbank/.venv/bin/boardbank", "replay", db, "--json", user=user)
    return done.stdout if done.returncode == 0 else f"exit {done.returncode}: {done.stderr.strip()}"


def replay_on_host(path: Path) -> str:
    """Replay a file with this checkout (the root's program is gone after --uninstall)."""
    copy = Path(tempfile.mkdtemp(prefix="bench-kiosk-")) / "copy.sqlite3"
    shutil.copy2(path, copy)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-m", "ui.cli", "replay", str(copy), "--json"], cwd=REPO, env=env,
                          capture_output=True, text=True, check=False)
    shutil.rmtree(copy.parent, ignore_errors=True)
    return done.stdout if done.returncode == 0 else f"exit {done.returncode}: {done.stderr.strip()}"


def install(bench: Bench, log: Path, *options: str) -> subprocess.CompletedProcess[str]:
    done = bench.inside(f"{SRC_IN_ROOT}/hardware/kiosk/install.sh", *options, log=log)
    if done.returncode != 0:
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n", flush=True)
    return done


def run(bench: Bench, args: argparse.Namespace) -> None:
    root, log = bench.root, bench.root.with_name(bench.root.name + ".log")
    log.write_text("", encoding="utf-8")
    print(f"root {root}; install.sh's output in {log}", flush=True)
    with bench.step("debootstrap"):
        if args.base_tar:
            root.mkdir(parents=True)
            subprocess.run(["tar", "-xpf", args.base_tar, "-C", str(root)], check=True)
        else:
            mirror = args.mirror or apt_mirror()
            print(f"   mirror {mirror}", flush=True)
            subprocess.run(["debootstrap", "--variant=minbase", "bookworm", str(root), mirror], check=True,
                           stdout=subprocess.DEVNULL)
            if args.save_base:
                subprocess.run(["tar", "-cpf", args.save_base, "-C", str(root), "."], check=True)
    shutil.copy2("/etc/resolv.conf", root / "etc/resolv.conf")
    pass_host_pip_settings(root)
    policy = root / "usr/sbin/policy-rc.d"  # a root being built starts no daemon
    policy.write_text("#!/bin/sh\nexit 101\n", encoding="utf-8")
    policy.chmod(0o755)
    bench.mount()
    with bench.step("what Raspberry Pi OS already has (" + ", ".join(PI_OS_HAS) + ")"):
        for argv in (["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", *PI_OS_HAS]):
            done = bench.inside(*argv, log=log)
            if not bench.check(" ".join(argv[:2]), done.returncode == 0, done.stderr[-500:]):
                return
    files = copy_checkout(bench.path(SRC_IN_ROOT))
    print(f"   {files} files of the checkout in {SRC_IN_ROOT}", flush=True)

    with bench.step("install.sh (first install)"):
        done = install(bench, log, "--readers", READERS)
    if not bench.check("install.sh exits 0", done.returncode == 0, f"exit {done.returncode}"):
        return
    check_installed(bench)

    with bench.step("a game as the kiosk's user"):
        tap = bench.path(SRC_IN_ROOT) / "tests/engine/taps/whole_game.tap"
        played = bench.inside("/opt/boardbank/.venv/bin/boardbank", "headless", "--db", DB,
                              stdin=tap.read_text(encoding="utf-8"), user="boardbank")
        events = sum('"type": "event"' in line for line in played.stdout.splitlines())
        bench.check(f"headless played whole_game.tap ({events} events)", played.returncode == 0 and events > 20,
                    played.stderr[-500:])
    before = replay_json(bench, DB)
    bench.check("the game replays", before.startswith("{"), before[:300])

    marker = f"# bench_kiosk_install: an update {time.time_ns()}\n"  # the update must install the new code
    with (bench.path(SRC_IN_ROOT) / "ui" / "__init__.py").open("a", encoding="utf-8") as f:
        f.write(marker)
    with bench.step("install.sh again (update)"):
        done = install(bench, log, "--readers", READERS)
    bench.check("the update exits 0", done.returncode == 0, f"exit {done.returncode}")
    bench.check("the update says so", "== update of an existing installation" in done.stdout)
    backups = sorted(bench.path("/var/lib/boardbank/backups").glob("before-update-*.sqlite3"))
    bench.check("a backup taken before the update", len(backups) == 1, backups)
    bench.check("the game replays the same after the update", replay_json(bench, DB) == before)
    if backups:
        bench.check("the backup replays the same", replay_json(bench, f"/var/lib/boardbank/backups/{backups[0].name}")
                    == before)
    site = next(bench.path("/opt/boardbank/.venv/lib").glob("python3*/site-packages"), None)
    installed = site / "ui" / "__init__.py" if site is not None else None
    bench.check("the update installed the checkout's new code",
                installed is not None and installed.read_text(encoding="utf-8").endswith(marker))
    check_installed(bench, again=True)

    with bench.step("install.sh --uninstall"):
        done = install(bench, log, "--uninstall")
    bench.check("--uninstall exits 0", done.returncode == 0, f"exit {done.returncode}")
    for gone in ("/opt/boardbank", "/etc/systemd/system/boardbank-kiosk.service",
                 "/etc/udev/rules.d/99-boardbank-readers.rules", "/etc/modprobe.d/boardbank-blacklist-pn533.conf",
                 "/etc/systemd/system/graphical.target.wants/boardbank-kiosk.service"):
        bench.check(f"--uninstall removed {gone}", not bench.path(gone).exists() and not bench.path(gone).is_symlink())
    for kept in (DB, "/etc/default/boardbank"):
        bench.check(f"--uninstall kept {kept}", bench.path(kept).is_file())
    bench.check("--uninstall kept the user", bench.inside("id", "-u", "boardbank").returncode == 0)
    bench.check("the kept game replays the same", replay_on_host(bench.path(DB)) == before)

    with bench.step("install.sh --uninstall --purge"):
        done = install(bench, log, "--uninstall", "--purge")
    bench.check("--purge exits 0", done.returncode == 0, f"exit {done.returncode}")
    saved = sorted(bench.path("/var/backups").glob("boardbank-*.sqlite3"))
    bench.check("--purge saved the games in /var/backups", len(saved) == 1, saved)
    if saved:
        bench.check("the saved games replay the same", replay_on_host(saved[0]) == before)
    for gone in ("/var/lib/boardbank", "/etc/default/boardbank", "/opt/boardbank"):
        bench.check(f"--purge removed {gone}", not bench.path(gone).exists())
    bench.check("--purge removed the user", bench.inside("id", "-u", "boardbank").returncode != 0)
    bench.check("--purge removed the group", bench.inside("getent", "group", "boardbank").returncode != 0)


def check_installed(bench: Bench, again: bool = False) -> None:
    """What a first install (and an update) leaves in the root."""
    note = " (after the update)" if again else ""
    groups = bench.inside("id", "-nG", "boardbank").stdout.split()
    bench.check(f"user boardbank in its groups{note}",
                {"dialout", "video", "render", "input", "audio", "plugdev"} <= set(groups), groups)
    site = next(bench.path("/opt/boardbank/.venv/lib").glob("python3*/site-packages"), None)
    bench.check(f"the venv{note}", site is not None and bench.path("/opt/boardbank/.venv/bin/boardbank").is_file())
    if site is not None:
        missing = uncompiled(site)
        bench.check(f"every boardbank module compiled{note}", not missing, missing[:5])
        for lib in ("kivy", "aiohttp", "smartcard", "segno"):
            bench.check(f"{lib} in the venv{note}", (site / lib).is_dir())
    verify = bench.inside("systemd-analyze", "verify", "/etc/systemd/system/boardbank-kiosk.service")
    bench.check(f"systemd-analyze verify of the unit{note}", verify.returncode == 0 and not verify.stderr.strip(),
                verify.stderr.strip()[-800:])
    kiosk = REPO / "hardware" / "kiosk"
    for src, dest in (("99-boardbank-readers.rules", "/etc/udev/rules.d/99-boardbank-readers.rules"),
                      ("blacklist-pn533.conf", "/etc/modprobe.d/boardbank-blacklist-pn533.conf"),
                      ("boardbank-kiosk.service", "/etc/systemd/system/boardbank-kiosk.service"),
                      ("boardbank.env", "/etc/default/boardbank")):
        placed = bench.path(dest)
        bench.check(f"{dest} in place{note}", placed.is_file() and placed.read_bytes() == (kiosk / src).read_bytes())
    rule = bench.inside("udevadm", "verify", "/etc/udev/rules.d/99-boardbank-readers.rules")
    if "Unknown command" not in rule.stderr and "unknown command" not in rule.stderr.lower():
        bench.check(f"udevadm verify of the rule{note}", rule.returncode == 0, rule.stderr.strip()[-500:])
    for unit, state in (("boardbank-kiosk.service", "enabled"), ("pcscd.socket", "enabled"),
                        ("getty@tty1.service", "disabled")):
        got = bench.inside("systemctl", "is-enabled", unit).stdout.strip()
        bench.check(f"{unit} {state}{note}", got == state, got)
    default = bench.inside("systemctl", "get-default").stdout.strip()
    bench.check(f"graphical.target the default{note}", default == "graphical.target", default)
    readers = bench.inside("/opt/boardbank/.venv/bin/boardbank", "readers", user="boardbank")
    bench.check(f"boardbank readers as the kiosk's user{note}", readers.returncode == 0, readers.stderr[-500:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, help="where to build the root (default: a new folder in /var/tmp)")
    parser.add_argument("--keep", action="store_true", help="keep the root afterwards (for a look inside)")
    parser.add_argument("--mirror", help="the Debian mirror (default: apt's own, from /etc/apt/sources.list*)")
    parser.add_argument("--base-tar", help="unpack this tar of a minbase root instead of running debootstrap")
    parser.add_argument("--save-base", help="save the fresh minbase root as this tar (for --base-tar)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("bench_kiosk_install: run as root (debootstrap, chroot, mount)", file=sys.stderr)
        return 2
    root = (args.root or Path(tempfile.mkdtemp(prefix="boardbank-kiosk-", dir="/var/tmp")) / "root").resolve()
    if root.exists() and any(root.iterdir()):
        print(f"bench_kiosk_install: {root} is not empty", file=sys.stderr)
        return 2

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)  # through the finally below: the mounts are undone

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop)
    bench = Bench(root)
    began = time.monotonic()
    interrupted = False
    try:
        run(bench, args)
    except KeyboardInterrupt:
        interrupted = True
        print("   interrupted (Ctrl+C)", flush=True)
    finally:
        bench.unmount()
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    total = time.monotonic() - began
    print(json.dumps({"seconds": {k: round(v, 1) for k, v in bench.times.items()}, "total_s": round(total, 1),
                      "checks_passed": bench.passed, "checks_failed": bench.failed}, indent=1))
    return 130 if interrupted else 1 if bench.failed else 0


if __name__ == "__main__":
    sys.exit(main())
