"""``boardbank backup`` / ``restore``: SQLite's online backup, consistent while another process plays."""

from __future__ import annotations

import os
import queue
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.editions import load_edition
from engine.game import Game
from engine.store.backup import backup, restore
from engine.store.journal import Journal, JournalError

ROOT = Path(__file__).resolve().parents[2]
WRITER = ROOT / "tests" / "engine" / "durability_child.py"  # bots play through a DurableGame until killed
BOARDBANK = str(Path(sys.executable).with_name("boardbank"))

pytestmark = pytest.mark.timeout(120)


class Writer:
    """The writer child and a count of the commands it has acknowledged (each is on disk)."""

    def __init__(self, db: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, str(WRITER), str(db), "11"], stdout=subprocess.PIPE,
                                     text=True, cwd=ROOT)
        self.lines: queue.Queue[str] = queue.Queue()
        self.acknowledged = 0
        threading.Thread(target=self._pump, daemon=True).start()
        assert self.lines.get(timeout=30) == "ready"

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.strip() != "ready":
                self.acknowledged += 1
            self.lines.put(line.strip())

    def wait_for(self, commands: int, timeout_s: float = 30) -> None:
        deadline = time.monotonic() + timeout_s
        while self.acknowledged < commands:
            assert time.monotonic() < deadline, f"the writer acknowledged only {self.acknowledged} commands"
            time.sleep(0.01)

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=10)


def games_of(path: Path) -> dict[int, list[object]]:
    """Every game's decoded events."""
    with Journal.open(path, read_only=True) as journal:
        return {info.id: journal.load(info.id)[1] for info in journal.games()}


def test_a_backup_while_a_game_is_written_is_a_consistent_prefix(tmp_path: Path) -> None:
    db = tmp_path / "live.sqlite3"
    writer = Writer(db)
    copies = []
    try:
        writer.wait_for(40)
        for n in range(3):
            before = writer.acknowledged
            copy = tmp_path / f"copy{n}.sqlite3"
            done = subprocess.run([BOARDBANK, "backup", str(copy), "--db", str(db)], capture_output=True,
                                  text=True, timeout=60, check=False)
            after = writer.acknowledged
            assert done.returncode == 0, done.stderr
            assert "quick_check ok" in done.stdout
            copies.append((copy, before, after))
            writer.wait_for(after + 30)
    finally:
        writer.stop()
    assert writer.acknowledged > copies[-1][2], "the writer kept writing while the backups ran"
    edition = load_edition("ultimate-uk")
    live = games_of(db)
    for copy, before, after in copies:
        assert not Path(f"{copy}-wal").exists() and not Path(f"{copy}-journal").exists()  # one file
        saved = games_of(copy)
        commands = 0
        for game_id, events in saved.items():
            known = live[game_id][: len(events)]
            assert events == known, f"{copy}: game {game_id} is not a prefix of the live journal"
            upto = events[-1].command if events else 0  # the known point: the copy's last command
            assert all(e.command <= upto for e in known)
            assert Game.replay(edition, events).state == Game.replay(
                edition, [e for e in live[game_id] if e.command <= upto]).state
            commands += upto
        # every command acknowledged before the backup began is in it; at most one beyond the last ack
        assert before <= commands <= after + 1, (before, commands, after)


def journal_with_a_game(path: Path) -> None:
    with Journal.open(path) as journal:
        journal.create_game("ultimate-uk", 5, {"start_money": 2000})


def test_backup_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    db, dest = tmp_path / "bb.sqlite3", tmp_path / "backup.sqlite3"
    journal_with_a_game(db)
    dest.write_bytes(b"my holiday photos")
    with pytest.raises(JournalError, match="exists; pass --force"):
        backup(db, dest)
    assert dest.read_bytes() == b"my holiday photos"
    report = backup(db, dest, force=True)
    assert report.games == 1 and report.size == dest.stat().st_size
    with Journal.open(dest, read_only=True) as journal:
        assert journal.game(1).options == {"start_money": 2000}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.sqlite3", "bb.sqlite3"] + (
        ["bb.sqlite3-shm", "bb.sqlite3-wal"] if Path(f"{db}-wal").exists() else []) + [
        "bb.sqlite3.lock"]  # the writer's lock file (engine/store/lock.py); no partial copy is left


def test_backup_refuses_bad_sources_and_destinations(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    with pytest.raises(JournalError, match="no installation file"):
        backup(db, tmp_path / "b.sqlite3")
    journal_with_a_game(db)
    with pytest.raises(JournalError, match="installation file itself"):
        backup(db, db, force=True)
    with pytest.raises(JournalError, match="is a folder"):
        backup(db, tmp_path)
    with pytest.raises(JournalError, match="does not exist"):
        backup(db, tmp_path / "no" / "b.sqlite3")
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("bb.sqlite3")) == []


def test_a_copy_that_fails_quick_check_is_not_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.store.backup as module

    db, dest = tmp_path / "bb.sqlite3", tmp_path / "b.sqlite3"
    journal_with_a_game(db)

    def corrupting_copy(source: Path, target: Path) -> None:
        real_copy(source, target)
        data = bytearray(target.read_bytes())
        for page in range(4096, len(data), 4096):
            data[page] = 0x42  # not a b-tree page type: every table but sqlite_master is damaged
        target.write_bytes(bytes(data))

    real_copy = module._copy
    monkeypatch.setattr(module, "_copy", corrupting_copy)
    with pytest.raises(JournalError):
        backup(db, dest)
    assert not dest.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith((".b", "b."))] == []


def test_restore_creates_replaces_and_moves_a_damaged_file_aside(tmp_path: Path) -> None:
    db, saved = tmp_path / "bb.sqlite3", tmp_path / "saved.sqlite3"
    journal_with_a_game(db)
    backup(db, saved)
    fresh = tmp_path / "fresh" / "bb.sqlite3"
    fresh.parent.mkdir()
    assert restore(saved, fresh).games == 1
    with Journal.open(db) as journal:
        journal.create_game("ultimate-uk", 6, {})
    with pytest.raises(JournalError, match="exists; pass --force"):
        restore(saved, db)
    report = restore(saved, db, force=True)
    assert report.games == 1 and report.moved_aside == tmp_path / "bb.sqlite3.before-restore"
    with Journal.open(db) as journal:
        assert [g.id for g in journal.games()] == [1]
    with Journal.open(report.moved_aside, read_only=True) as kept:  # the replaced file, kept beside it
        assert [g.id for g in kept.games()] == [1, 2]
    broken = tmp_path / "broken.sqlite3"
    broken.write_text("scribbles")
    report = restore(saved, broken, force=True)
    assert report.moved_aside == tmp_path / "broken.sqlite3.damaged"
    assert report.moved_aside.read_text() == "scribbles"
    with Journal.open(broken, read_only=True) as journal:
        assert journal.latest_game() == 1
    with pytest.raises(JournalError):
        restore(tmp_path / "broken.sqlite3.damaged", tmp_path / "other.sqlite3")
    assert not (tmp_path / "other.sqlite3").exists()


def test_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    journal_with_a_game(db)
    env = dict(os.environ, BOARDBANK_DB=str(db))

    def bb(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([BOARDBANK, *args], env=env, capture_output=True, text=True, timeout=60, check=False)

    dest = tmp_path / "b.sqlite3"
    assert bb("backup", str(dest)).returncode == 0
    again = bb("backup", str(dest))
    assert again.returncode == 2 and again.stderr == f"boardbank backup: {dest} exists; pass --force to replace it\n"
    assert bb("backup", str(dest), "--force").returncode == 0
    refused = bb("restore", str(dest))
    assert refused.returncode == 2 and refused.stderr.startswith("boardbank restore: ")
    done = bb("restore", str(dest), "--force")
    assert done.returncode == 0 and "1 games" in done.stdout
    with sqlite3.connect(f"file:{dest}?mode=ro", uri=True) as ro:
        assert ro.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
