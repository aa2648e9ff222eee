"""``boardbank doctor`` reports the share's address and whether it answers (docs/share.md)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from ui.settings import SettingsStore
from ui.share.doctor import check_share
from ui.share.wiring import start_share, stop_share

ROOT = Path(__file__).resolve().parents[2]


class FakeBanker:
    durable = None
    view = None


def test_doctor_says_off_running_and_not_answering(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOARDBANK_SHARE", raising=False)
    db = tmp_path / "b.sqlite3"
    settings = SettingsStore.open(db)
    assert check_share(db).status == "OK" and "off" in check_share(db).detail
    built = SimpleNamespace(banker=FakeBanker(), settings=settings, share=None)
    share = start_share(argparse.Namespace(share="127.0.0.1:0"), built, print)
    try:
        result = check_share(db)
        assert result.status == "OK" and f"127.0.0.1:{share.server.port}" in result.detail and "answers" in result.detail
        before = db.read_bytes()
        check_share(db)
        assert db.read_bytes() == before  # doctor writes nothing
    finally:
        port = share.server.port
        share.stop()  # a share that stopped without its note (a crash)
    result = check_share(db)
    assert result.status == "WARN" and f"127.0.0.1:{port}" in result.detail and "nothing answers" in result.detail
    built.share = share
    stop_share(built)
    assert "off" in check_share(db).detail
    monkeypatch.setenv("BOARDBANK_SHARE", "on")
    assert check_share(db).status == "WARN"
    settings.close()


def test_doctor_json_has_the_share_check(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BOARDBANK_DB": str(tmp_path / "b.sqlite3"), "BOARDBANK_SHARE": ""}
    done = subprocess.run([sys.executable, "-m", "ui.cli", "doctor", "--json", "--no-gl"], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120)
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    assert checks["share"]["status"] == "pass" and "off" in checks["share"]["detail"]
