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
    assert r.returncode == 2 and "1..22" in r.stderr
    r = run("enroll", "deed", "3", env={"BOARDBANK_DB": db})
    assert r.returncode == 2 and "--reader" in r.stderr


def test_default_path_matches_ui_paths() -> None:
    from reader.cli_cards import default_db_path
    from ui.paths import default_db_path as ui_default

    os.environ.pop("BOARDBANK_DB", None)
    assert default_db_path() == ui_default()
