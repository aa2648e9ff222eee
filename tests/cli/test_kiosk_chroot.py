"""The kiosk installed for real (bench/bench_kiosk_install.py): install.sh in a fresh Debian 12 root made by
debootstrap, updated, uninstalled and purged. A whole run takes minutes (debootstrap, the packages, pip), so
it runs only with ``BOARDBANK_KIOSK_CHROOT=1`` (as root, with Debian's archive and PyPI reachable); what
always runs is that the bench's mounts (/proc, /dev, /dev/pts in the root) are undone on every way out."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "bench_kiosk_install.py"

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="mount and chroot need root")

# the bench's main() with its run() replaced: mount, then leave the way the case says
LEAVE = """
import os, signal, sys, time
sys.path.insert(0, {bench_dir!r})
import bench_kiosk_install as b

def run(bench, args):
    (bench.root / "etc").mkdir(parents=True, exist_ok=True)
    bench.mount()
    print("mounted", len(bench.mounts), flush=True)
    if {case!r} == "error":
        raise RuntimeError("an install step failed")
    if {case!r} == "check":
        bench.check("a check that fails", False)
        return
    if {case!r} == "sigterm":
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(30)
    if {case!r} == "ctrl-c":
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(30)

b.run = run
sys.argv = ["bench_kiosk_install.py", "--root", {root!r}]
sys.exit(b.main())
"""


def mounts_under(folder: Path) -> list[str]:
    return [line for line in Path("/proc/self/mounts").read_text().splitlines() if f" {folder}/" in line]


@root_only
@pytest.mark.parametrize("case", ["error", "check", "sigterm", "ctrl-c"])
def test_the_bench_unmounts_the_root_on_every_way_out(tmp_path: Path, case: str) -> None:
    root = tmp_path / "root"
    code = LEAVE.format(bench_dir=str(BENCH.parent), case=case, root=str(root))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    if "mounted 3" not in done.stdout:
        pytest.skip(f"no mount here: {done.stderr[-300:]}")
    expected = {"error": 1, "check": 1, "sigterm": 128 + signal.SIGTERM, "ctrl-c": 130}[case]
    assert done.returncode == expected, (done.stdout, done.stderr)
    assert "mounts left under" in done.stdout and mounts_under(tmp_path) == [], mounts_under(tmp_path)
    assert not root.exists()  # removed (no --keep)


def test_the_bench_reads_apt_s_mirror(tmp_path: Path) -> None:
    sys.path.insert(0, str(BENCH.parent))
    import bench_kiosk_install

    (tmp_path / "sources.list.d").mkdir()
    (tmp_path / "sources.list").write_text("# nothing\ndeb [arch=arm64] http://mirror.example/raspbian bookworm main\n")
    assert bench_kiosk_install.apt_mirror(tmp_path) == "http://mirror.example/raspbian"
    (tmp_path / "sources.list").write_text("")
    (tmp_path / "sources.list.d" / "debian.sources").write_text(
        "Types: deb\nURIs: http://security.example/debian-security\nSuites: bookworm-security\n\n"
        "Types: deb\nURIs: http://deb.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\n")
    assert bench_kiosk_install.apt_mirror(tmp_path) == "http://deb.example/debian"
    (tmp_path / "sources.list.d" / "debian.sources").write_text("")
    with pytest.raises(SystemExit):
        bench_kiosk_install.apt_mirror(tmp_path)


@root_only
@pytest.mark.skipif(os.environ.get("BOARDBANK_KIOSK_CHROOT") != "1",
                    reason="minutes of debootstrap, apt and pip: set BOARDBANK_KIOSK_CHROOT=1")
@pytest.mark.timeout(1800)
def test_install_sh_installs_updates_uninstalls_and_purges_a_fresh_debian_root() -> None:
    done = subprocess.run([sys.executable, str(BENCH)], capture_output=True, text=True, timeout=1700, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert '"checks_failed": []' in done.stdout
