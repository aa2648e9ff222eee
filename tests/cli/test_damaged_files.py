"""Every command that opens the installation file refuses a damaged or foreign one: one line
``boardbank COMMAND: ...``, exit status 2, and the file (and its -wal/-shm) byte-identical afterwards.
The damages: a text file, zeros, another application's SQLite file, a file cut in the middle of a page,
journals with one and with two b-tree pages zeroed (SQLite's check answers several lines for each), a
freelist pointing past the end, and a table's schema cut short."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine.store.journal import Journal
from reader.registry import CardRegistry

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))
ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(240)


def _text(path: Path) -> None:
    path.write_text("player,balance\nalice,1500\n", encoding="utf-8")


def _zeros(path: Path) -> None:
    path.write_bytes(bytes(8192))


def _foreign(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA application_id=1234567")
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        db.execute("INSERT INTO notes (text) VALUES ('not a bank')")
    db.close()


def _truncated(path: Path) -> None:
    _a_journal(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])  # cut in the middle of a page


def _a_journal(path: Path) -> None:
    """A journal with 3 games and 8 cards, checkpointed into the file (no -wal) in rollback mode."""
    with Journal.open(path) as journal:
        for n in range(3):
            journal.create_game("ultimate-uk", n, {"start_money": 1500 + n})
    registry = CardRegistry.open(path)
    for n in range(1, 9):
        registry.enroll(f"04AA00{n:02X}", "player", n)
    registry.close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("PRAGMA journal_mode=DELETE")
    db.close()


def _quick_check(data: bytes, folder: Path) -> list[str]:
    probe = folder / "probe.sqlite3"
    probe.write_bytes(data)
    try:
        with sqlite3.connect(probe) as db:
            return [row[0] for row in db.execute("PRAGMA quick_check")]
    except sqlite3.DatabaseError:
        return []
    finally:
        db.close()
        probe.unlink()


def _zero_pages(path: Path, count: int) -> None:
    """Zero ``count`` pages of a journal, each one whose zeroing makes SQLite's quick_check answer a row of
    several lines (``*** in database main ***``, then ``Page N: btreeInitPage() returns error code 11``)."""
    _a_journal(path)
    data = bytearray(path.read_bytes())
    size = 4096
    zeroed = 0
    for page in range(2, len(data) // size + 1):
        trial = bytearray(data)
        trial[(page - 1) * size: page * size] = bytes(size)
        if any("\n" in row for row in _quick_check(bytes(trial), path.parent)):
            data, zeroed = trial, zeroed + 1
            if zeroed == count:
                break
    assert zeroed == count, f"only {zeroed} pages found to damage"
    path.write_bytes(bytes(data))


def _page(path: Path) -> None:
    _zero_pages(path, 1)


def _pages(path: Path) -> None:
    _zero_pages(path, 2)


def _freelist(path: Path) -> None:
    """The header's freelist points past the file's end (quick_check: one line, no banner)."""
    _a_journal(path)
    data = bytearray(path.read_bytes())
    data[32:36] = (99999).to_bytes(4, "big")  # the first freelist trunk page
    data[36:40] = (5).to_bytes(4, "big")  # free pages
    path.write_bytes(bytes(data))


def _schema(path: Path) -> None:
    """A table's CREATE statement cut short in sqlite_master (SQLite refuses the schema when it reads it)."""
    _a_journal(path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA writable_schema=ON")
        db.execute("UPDATE sqlite_master SET sql = 'CREATE TABLE games(' WHERE name = 'games'")
    db.close()


DAMAGES = {"text": _text, "zeros": _zeros, "foreign": _foreign, "truncated": _truncated, "page": _page,
           "pages": _pages, "freelist": _freelist, "schema": _schema}

COMMANDS: list[list[str]] = [
    ["cards", "list", "--db", "{db}"],
    ["cards", "list", "--json", "--db", "{db}"],
    ["cards", "enroll", "player", "1", "--uid", "04A1B2C3", "--db", "{db}"],
    ["cards", "forget", "04AA0001", "--db", "{db}"],
    ["doctor", "--no-gl", "--db", "{db}"],
    ["doctor", "--no-gl", "--json", "--db", "{db}"],
    ["headless", "--db", "{db}"],
    ["replay", "{db}"],
    ["export", "{db}", "--format", "csv"],
    ["backup", "{tmp}/copy.sqlite3", "--db", "{db}"],
    ["restore", "{db}", "--db", "{tmp}/restored.sqlite3"],
    ["run", "--db", "{db}"],
]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def boardbank(args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_HOME=str(tmp / "kivy"),
               KIVY_LOG_MODE="PYTHON", BOARDBANK_DB=str(tmp / "unused.sqlite3"))
    return subprocess.run([BOARDBANK, *args], cwd=ROOT, env=env, input="tap 04AA0001\n", capture_output=True,
                          text=True, timeout=120, check=False)


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_every_command_refuses_a_damaged_file_and_leaves_it_alone(tmp_path: Path, damage: str) -> None:
    folder = tmp_path / "install"
    folder.mkdir()
    db = folder / "boardbank.sqlite3"
    DAMAGES[damage](db)
    before = snapshot(folder)
    for template in COMMANDS:
        args = [a.format(db=db, tmp=tmp_path) for a in template]
        done = boardbank(args, tmp_path)
        command = args[0]
        assert done.returncode == 2, (args, done.stdout[-500:], done.stderr[-1500:])
        # Kivy's own notice when it writes a fresh KIVY_HOME's config (run only) is not ours to count
        lines = [x for x in done.stderr.strip().splitlines() if not x.startswith("Config: ")]
        assert len(lines) == 1, (args, done.stderr)  # SQLite's own words never start a line of their own
        assert lines[0].startswith(f"boardbank {command}: "), (args, lines)
        assert len(lines[0]) < 400 + len(str(db)), lines
        assert str(db) in lines[0], lines
        assert "Traceback" not in done.stderr
        assert snapshot(folder) == before, f"{args} changed {db} or its sidecar files"
    assert not (tmp_path / "copy.sqlite3").exists()
    assert not (tmp_path / "restored.sqlite3").exists()
    assert not (tmp_path / "unused.sqlite3").exists()
