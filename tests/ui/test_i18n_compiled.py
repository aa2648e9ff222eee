"""ui/i18n.py compiles each .po once into a cached .mo named by the .po's hash and reads that .mo later
without importing babel.messages; a changed .po is compiled again (never a stale text)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ui import i18n

ROOT = Path(__file__).resolve().parents[2]


def test_the_compiled_path_does_not_import_babel_messages(tmp_path: Path) -> None:
    """A second run reads every catalog from the cache without babel.messages, with the same messages."""
    env = {**os.environ, "BOARDBANK_CACHE": str(tmp_path), "PYTHONPATH": str(ROOT)}
    code = ("import sys, json; from ui import i18n; "
            "print(json.dumps([dict(i18n.load_catalog(l)) for l in i18n.LANGUAGES])); "
            "print('babel.messages' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            for _ in range(2)]
    assert runs[0].stdout.splitlines()[1] == "True"  # compiled with Babel the first time
    assert runs[1].stdout.splitlines()[1] == "False"
    assert json.loads(runs[0].stdout.splitlines()[0]) == json.loads(runs[1].stdout.splitlines()[0])
    assert len(list((tmp_path / "locale").glob("*.mo"))) == len(i18n.LANGUAGES)


def test_a_changed_po_is_picked_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Editing a .po changes its hash: the new text is read, not the .mo of the old one."""
    monkeypatch.setenv("BOARDBANK_CACHE", str(tmp_path / "cache"))
    locale = tmp_path / "locale"
    po = locale / "en" / "LC_MESSAGES" / "boardbank.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgid "a.key"\nmsgstr "Old {name}"\n\nmsgid "b.key"\nmsgstr ""\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    assert i18n._read_catalog("en") == {"a.key": "Old {name}"}  # compiled
    assert i18n._read_catalog("en") == {"a.key": "Old {name}"}  # from the .mo; untranslated left out
    po.write_text(po.read_text(encoding="utf-8").replace("Old", "New"), encoding="utf-8")
    assert i18n._read_catalog("en") == {"a.key": "New {name}"}


def test_a_broken_mo_is_compiled_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A truncated cached .mo is not trusted: the .po is read again and the .mo rewritten."""
    monkeypatch.setenv("BOARDBANK_CACHE", str(tmp_path))
    expected = dict(i18n._read_catalog("ro"))
    (mo,) = (tmp_path / "locale").glob("*.mo")
    mo.write_bytes(mo.read_bytes()[:40])
    assert i18n._read_catalog("ro") == expected
    assert i18n._read_mo(mo.read_bytes()) == expected
