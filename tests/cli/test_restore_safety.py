"""A restore that cannot destroy, a backup that cannot overwrite the live file (engine/store/backup.py;
issue: a 0-byte file, a broken JSON row, a backup without its log table, a tampered amount and an unknown
command type were all restored with --force, and ``backup --db LIVE LIVE-wal --force`` was accepted).

Each bad backup is refused with one line and the live file (with its WAL) stays byte-identical.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.commands import BuyDeed, PassGo, PayRent, PlayerSpec, StartGame
from engine.editions import load_edition
from engine.store.backup import backup, restore
from engine.store.durable import DurableGame
from engine.store.journal import Journal, JournalError
from engine.store.migrate import migrate_chain

ROOT = Path(__file__).resolve().parents[2]


def _live(path: Path) -> Journal:
    """The live file with a game, its journal left open (the WAL holds the game)."""
    journal = Journal.open(path)
    game = DurableGame.start(journal, load_edition("ultimate-uk"), StartGame((PlayerSpec("p1"), PlayerSpec("p2")), {}, 5))
    game.apply(PassGo("p1"))
    game.apply(BuyDeed("p1", 2))
    game.apply(PayRent("p2", 2))
    return journal


def _digest(path: Path) -> str:
    parts = [p.read_bytes() if p.is_file() else b"-" for p in (path, Path(f"{path}-wal"))]
    return hashlib.sha256(b"|".join(parts)).hexdigest()


def _edit(good: Path, bad: Path, *sql: str, rechain: bool = False) -> None:
    """``bad``: a copy of the good backup changed by ``sql`` (``rechain``: its links made right again, so
    only the decoding or the replay can tell)."""
    bad.write_bytes(good.read_bytes())
    with sqlite3.connect(bad, isolation_level=None) as conn:
        for statement in sql:
            conn.execute(statement)
        if rechain:
            conn.execute("UPDATE log SET chain = NULL")
            migrate_chain(conn)
    conn.close()


def _bad_backups(good: Path, live: Path, folder: Path) -> dict[str, Path]:
    out: dict[str, Path] = {}

    def make(name: str, build: Callable[[Path], None]) -> None:
        path = folder / f"{name}.sqlite3"
        build(path)
        out[name] = path

    make("empty", lambda p: p.write_bytes(b""))
    make("text", lambda p: p.write_text("my holiday photos\n"))
    make("zeros", lambda p: p.write_bytes(bytes(8192)))
    make("truncated", lambda p: p.write_bytes(good.read_bytes()[: good.stat().st_size // 2]))

    def foreign(p: Path) -> None:
        with sqlite3.connect(p) as conn:
            conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
        conn.close()

    make("foreign", foreign)

    def ours_but_empty(p: Path) -> None:
        with sqlite3.connect(p) as conn:
            conn.execute("PRAGMA application_id=1111640651")  # boardbank's, but no tables
        conn.close()

    make("no_tables", ours_but_empty)
    make("no_log", lambda p: _edit(good, p, "DROP VIEW events", "DROP VIEW commands", "DROP TABLE log"))
    make("broken_json", lambda p: _edit(good, p, "UPDATE log SET payload = '{\"command\":' WHERE number = 2"))
    make("tampered_amount", lambda p: _edit(good, p, "UPDATE log SET payload = replace(payload, '\"price\":60', "
                                                     "'\"price\":6') WHERE number = 3"))
    make("unknown_command", lambda p: _edit(good, p, "UPDATE log SET payload = replace(payload, '\"PassGo\"', "
                                                     "'\"PrintMoney\"') WHERE number = 2", rechain=True))
    make("unknown_deed", lambda p: _edit(good, p, "UPDATE log SET payload = replace(payload, '\"deed\":2', "
                                                  "'\"deed\":99') WHERE number = 3", rechain=True))
    make("newer_schema", lambda p: _edit(good, p, "UPDATE meta SET value = '99' WHERE key = 'schema_version'"))

    def pages(p: Path) -> None:
        data = bytearray(good.read_bytes())
        for page in range(4096, len(data), 4096):
            data[page] = 0x42  # not a b-tree page type
        p.write_bytes(bytes(data))

    make("corrupt_pages", pages)
    out["the_live_file"] = live
    out["the_live_wal"] = Path(f"{live}-wal")
    out["a_folder"] = folder
    out["missing"] = folder / "nothing-here.sqlite3"
    return out


def test_fourteen_bad_backups_are_refused_and_the_live_file_is_untouched(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    journal = _live(live)
    good = tmp_path / "good-backup.sqlite3"
    backup(live, good)
    journal.close()
    journal = _live(tmp_path / "other.sqlite3")  # keep a writer's WAL next to a file: reopen the live one
    journal.close()
    journal = Journal.open(live)
    bads = tmp_path / "bad"
    bads.mkdir()
    cases = _bad_backups(good, live, bads)
    assert len(cases) >= 14
    journal.close()
    before = _digest(live)
    for name, path in cases.items():
        with pytest.raises(JournalError) as refused:
            restore(path, live, force=True)
            pytest.fail(f"{name} was restored")
        assert "\n" not in str(refused.value), name
        assert _digest(live) == before, f"{name}: the live file changed"
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("live")) == [
            "live.sqlite3", "live.sqlite3.lock"] + (["live.sqlite3-shm", "live.sqlite3-wal"]
                                                   if Path(f"{live}-wal").exists() else []), name
    done = subprocess.run([sys.executable, "-m", "ui.cli", "restore", str(cases["unknown_command"]), "--force",
                           "--db", str(live)], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert restore(good, live, force=True).games == 1  # the good one goes back, the replaced file is kept


def test_restore_is_refused_while_a_unit_holds_the_file(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    _live(live).close()
    good = tmp_path / "good.sqlite3"
    backup(live, good)
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from pathlib import Path; "
                               "from engine.store.journal import Journal; j = Journal.open(Path(sys.argv[1])); "
                               "print('held', flush=True); time.sleep(60)", str(live)],
                              cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        before = _digest(live)
        with pytest.raises(JournalError, match=f"in use by pid {holder.pid}"):
            restore(good, live, force=True)
        assert _digest(live) == before
    finally:
        holder.kill()
        holder.wait()


def test_backup_refuses_every_destination_that_belongs_to_the_live_file(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    journal = _live(live)  # open: the WAL holds the game
    (tmp_path / "sub").mkdir()
    os.symlink(live, tmp_path / "link.sqlite3")
    os.link(live, tmp_path / "hard.sqlite3")
    os.link(f"{live}-wal", tmp_path / "hard-wal")
    os.symlink(f"{live}-wal", tmp_path / "link-wal")
    before = _digest(live)
    wal_before = Path(f"{live}-wal").read_bytes()
    dests = [live, tmp_path / "sub" / ".." / "live.sqlite3", Path(os.path.relpath(live)), tmp_path / "link.sqlite3",
             tmp_path / "hard.sqlite3", Path(f"{live}-wal"), Path(f"{live}-shm"), Path(f"{live}-journal"),
             Path(f"{live}.lock"), tmp_path / "hard-wal", tmp_path / "link-wal",
             tmp_path / "sub" / ".." / "live.sqlite3-wal"]
    for dest in dests:
        with pytest.raises(JournalError, match="name another file"):
            backup(live, dest, force=True)
        assert _digest(live) == before and Path(f"{live}-wal").read_bytes() == wal_before, dest
    assert not Path(f"{live}-journal").exists()
    journal.close()
