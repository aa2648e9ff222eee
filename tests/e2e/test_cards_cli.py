"""``boardbank cards`` through the real console script."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BOARDBANK, "cards", *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})}, check=False)


def test_enroll_list_forget(tmp_path: Path) -> None:
    db = str(tmp_path / "bb.sqlite3")
    r = run("enroll", "deed", "16", "--uid", "04:A2:2B:1C", "--db", db, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"enrolled": {"uid": "04A22B1C", "kind": "deed", "value": 16}}
    r = run("enroll", "player", "1", "--uid", "04A22B1C", "--db", db)
    assert r.returncode == 2 and "already enrolled as deed 16" in r.stderr
    r = run("list", "--db", db, "--json")
    assert json.loads(r.stdout)["cards"] == [{"uid": "04A22B1C", "kind": "deed", "value": 16}]
    r = run("forget", "04a22b1c", "--db", db)
    assert r.returncode == 0 and "deed 16" in r.stdout
    r = run("list", "--db", db)
    assert "no cards enrolled" in r.stdout


def test_env_var_db_and_bad_role(tmp_path: Path) -> None:
    db = str(tmp_path / "env.sqlite3")
    r = run("enroll", "banker", "--uid", "0A0B0C0D", env={"BOARDBANK_DB": db})
    assert r.returncode == 0, r.stderr
    assert Path(db).exists()
    r = run("enroll", "deed", "99", "--uid", "0A0B0C0E", env={"BOARDBANK_DB": db})
    assert r.returncode == 2 and "1..28" in r.stderr  # the largest box: the classic game's 28 deeds
    r = run("enroll", "deed", "23", "--uid", "0A0B0C0E", "--edition", "ultimate-uk", env={"BOARDBANK_DB": db})
    assert r.returncode == 2 and "ultimate-uk has deed cards 1..22" in r.stderr
    r = run("enroll", "deed", "3", env={"BOARDBANK_DB": db})
    assert r.returncode == 2 and "--reader" in r.stderr


def test_default_path_matches_ui_paths() -> None:
    from ui.cli.cards import default_db_path
    from ui.paths import default_db_path as ui_default

    os.environ.pop("BOARDBANK_DB", None)
    assert default_db_path() == ui_default()


def test_enroll_waits_for_a_tap_on_a_reader(tmp_path: Path) -> None:
    db = str(tmp_path / "bb.sqlite3")
    read_fd, write_fd = os.pipe()
    os.write(write_fd, b"tap 04:A2:2B:1D\n")
    proc = subprocess.run([BOARDBANK, "cards", "enroll", "player", "3", "--reader", f"stdin://?fd={read_fd}",
                           "--db", db, "--json", "--timeout", "20"], capture_output=True, text=True,
                          timeout=60, pass_fds=(read_fd,), check=False)
    os.close(read_fd)
    os.close(write_fd)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"enrolled": {"uid": "04A22B1D", "kind": "player", "value": 3}}


def test_enroll_times_out_without_a_tap(tmp_path: Path) -> None:
    read_fd, write_fd = os.pipe()
    proc = subprocess.run([BOARDBANK, "cards", "enroll", "banker", "--reader", f"stdin://?fd={read_fd}",
                           "--db", str(tmp_path / "bb.sqlite3"), "--timeout", "0.5"], capture_output=True,
                          text=True, timeout=60, pass_fds=(read_fd,), check=False)
    os.close(read_fd)
    os.close(write_fd)
    assert proc.returncode == 3 and "no card presented" in proc.stderr


def test_guided_enrolment_of_the_box(tmp_path: Path) -> None:
    db = str(tmp_path / "bb.sqlite3")
    assert run("enroll", "deed", "1", "--uid", "0A000001", "--db", db).returncode == 0  # skipped by the guide
    taps = [f"tap 0B0000{n:02X}" for n in range(1, 3)]  # players 1, 2
    taps.append("tap 0A000001")  # deed 2 offered a card that is deed 1: refused, asked again
    taps += [f"tap 0C0000{n:02X}" for n in range(2, 23)]  # deeds 2..22
    taps += [f"tap 0D0000{n:02X}" for n in range(1, 24)] + ["tap 0E000001"]  # events, banker
    read_fd, write_fd = os.pipe()
    os.write(write_fd, ("\n".join(taps) + "\n").encode())
    proc = subprocess.run([BOARDBANK, "cards", "enroll", "all", "2", "--reader", f"stdin://?fd={read_fd}",
                           "--db", db, "--json", "--timeout", "20"], capture_output=True, text=True,
                          timeout=120, pass_fds=(read_fd,), check=False)
    os.close(read_fd)
    os.close(write_fd)
    assert proc.returncode == 0, proc.stderr
    assert "tap the bank card of player 1" in proc.stderr and "already enrolled as deed 1" in proc.stderr
    listed = json.loads(run("list", "--db", db, "--json").stdout)["cards"]
    assert len(listed) == 2 + 22 + 23 + 1
    assert {"uid": "0E000001", "kind": "banker", "value": None} in listed


def test_guided_enrolment_of_the_classic_box(tmp_path: Path) -> None:
    """The classic box through the console script: 2 bank cards, 28 deeds, 32 Chance and Community Chest
    cards (--with-cards), the banker card; the cards' roles are event 1..32 (hardware/cards.md)."""
    db = str(tmp_path / "bb.sqlite3")
    taps = [f"tap 0B0000{n:02X}" for n in range(1, 3)] + [f"tap 0C0000{n:02X}" for n in range(1, 29)]
    taps += [f"tap 0D0000{n:02X}" for n in range(1, 33)] + ["tap 0E000001"]
    read_fd, write_fd = os.pipe()
    os.write(write_fd, ("\n".join(taps) + "\n").encode())
    proc = subprocess.run([BOARDBANK, "cards", "enroll", "all", "2", "--edition", "classic-uk", "--with-cards",
                           "--reader", f"stdin://?fd={read_fd}", "--db", db, "--timeout", "20"],
                          capture_output=True, text=True, timeout=120, pass_fds=(read_fd,), check=False)
    os.close(read_fd)
    os.close(write_fd)
    assert proc.returncode == 0, proc.stderr
    assert "tap title deed 28 — Mayfair (34 to go)" in proc.stderr
    assert "tap Community Chest card 16 — Inheritance (2 to go)" in proc.stderr
    listed = json.loads(run("list", "--db", db, "--json").stdout)["cards"]
    assert [c["value"] for c in listed if c["kind"] == "event"] == list(range(1, 33))
    assert {"uid": "0D000017", "kind": "event", "value": 23} in listed  # Community Chest card 7 = id 23
    assert len(listed) == 2 + 28 + 32 + 1
