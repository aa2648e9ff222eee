"""``boardbank doctor``: each check's status, what it saw and the fix; ``--json``; honest on this machine."""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.banker.pin import hash_pin
from engine.store.journal import Journal
from ui.cli import doctor_checks as dc
from ui.cli import doctor_journal as dj
from ui.settings import SettingsStore

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))

pytestmark = pytest.mark.timeout(180)


def test_the_json_form_says_pass_warn_fail() -> None:
    assert dc.Check("x", dc.OK, "seen").as_dict() == {"name": "x", "status": "pass", "detail": "seen", "fix": "",
                                                         "fault": None}
    assert dc.Check("x", dc.WARN, "a", "b").as_dict()["status"] == "warn"
    assert dc.Check("x", dc.FAIL, "a", "b").as_dict()["status"] == "fail"


class NoProbe:
    pass


class BoolProbe:
    answer = True

    @classmethod
    def probe(cls, url: str, timeout_s: float) -> bool:
        return cls.answer


class RecordProbe:
    @classmethod
    def probe(cls, url: str, timeout_s: float) -> object:
        return SimpleNamespace(ok=True, detail=f"bridge firmware 1.2 at {url}")


class BrokenProbe:
    @classmethod
    def probe(cls, url: str, timeout_s: float) -> bool:
        raise OSError("[Errno 16] Device or resource busy")


def test_a_probe_result_plugs_in_whatever_its_shape() -> None:
    assert dc.probe_reader(NoProbe, "serial:///dev/ttyACM0")[0] is None
    assert dc.probe_reader(BoolProbe, "serial:///dev/ttyACM0") == (True, "a device answered")
    assert dc.probe_reader(RecordProbe, "pn532:///dev/serial0") == (True, "bridge firmware 1.2 at pn532:///dev/serial0")
    answered, said = dc.probe_reader(BrokenProbe, "pcsc://ACR122")
    assert answered is False and "busy" in said


def test_a_reader_is_ok_only_when_a_device_answered() -> None:
    def answers(result: tuple[bool | None, str]):  # type: ignore[no-untyped-def]
        return lambda cls, url: result

    url = "serial:///dev/ttyACM7?baud=115200"
    [_, ok] = dc.check_readers([url], probe=answers((True, "bridge v1")))
    assert (ok.name, ok.status, ok.detail) == (f"reader {url}", dc.OK, "bridge v1")
    [_, silent] = dc.check_readers([url], probe=answers((False, "no answer within 2 s")))
    assert silent.status == dc.FAIL and silent.fix  # named with --reader: a failure
    [_, unknown] = dc.check_readers([url], probe=answers((None, "not probed")))
    assert unknown.status == dc.WARN and "seen" in unknown.detail
    [_, soft] = dc.check_readers(["mock://"], probe=answers((False, "never asked")))
    assert soft.status == dc.OK
    [_, bad] = dc.check_readers(["nfc9000://x"])
    assert bad.status == dc.FAIL


def test_pcscd_running_with_its_socket(tmp_path: Path) -> None:
    proc = tmp_path / "proc"
    (proc / "42").mkdir(parents=True)
    (proc / "42" / "comm").write_text("pcscd\n")
    socket = tmp_path / "pcscd.comm"
    socket.write_text("")
    if dc.shutil.which("pcscd") is None and not Path("/usr/sbin/pcscd").exists():
        pytest.skip("pcscd is not installed here (the test apt list installs it)")
    assert dc.check_pcscd(str(socket), str(proc)).status == dc.OK
    assert dc.check_pcscd(str(tmp_path / "none"), str(proc)).status == dc.WARN
    stopped = dc.check_pcscd(str(tmp_path / "none"), str(tmp_path / "empty"))
    assert stopped.status == dc.WARN and "systemctl enable --now pcscd.socket" in stopped.fix


def test_serial_ports_and_the_group(tmp_path: Path) -> None:
    port = tmp_path / "ttyACM0"
    port.write_text("")
    port.chmod(0o000)
    [check] = dc.check_serial((str(port),))
    assert check.status == (dc.OK if os.access(port, os.R_OK | os.W_OK) else dc.FAIL)  # root opens anything
    [none] = dc.check_serial((str(tmp_path / "none*"),))
    assert none.status == dc.WARN and "ttyACM0" in none.fix
    group = dc.check_serial_group()
    assert group.status in (dc.OK, dc.WARN) and group.name == "group dialout"


def test_gl_software_renderer_is_a_warning_and_on_a_pi_says_how_to_fix_it() -> None:
    def gl(renderer: str):  # type: ignore[no-untyped-def]
        return lambda env: {"renderer": renderer, "vendor": "Mesa", "version": "3.1"}

    soft = dc.check_gl({}, gl("llvmpipe (LLVM 15.0.6, 256 bits)"))
    assert soft.status == dc.WARN and "probed offscreen (no display)" in soft.detail
    pi = dc.check_gl({"DISPLAY": ":0"}, gl("llvmpipe"), model="Raspberry Pi 4 Model B Rev 1.4")
    assert pi.status == dc.WARN and "vc4-kms-v3d" in pi.fix and "Raspberry Pi 4" in pi.detail
    assert dc.check_gl({"WAYLAND_DISPLAY": "wayland-0"}, gl("V3D 4.2"), model="Raspberry Pi 4").status == dc.OK

    def no_gl(env: object) -> dict[str, str]:
        raise OSError("no GL context: Couldn't find matching EGL config")

    assert dc.check_gl({}, no_gl).status == dc.FAIL


def test_pi_model(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert dc.pi_model(str(model)) == "Raspberry Pi 5 Model B Rev 1.0"
    model.write_bytes(b"QEMU Virtual Machine\x00")
    assert dc.pi_model(str(model)) is None
    assert dc.pi_model(str(tmp_path / "none")) is None


def test_sound_and_display(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    cards.write_text(" 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n")
    assert dc.check_sound(str(cards), {}).status == dc.OK
    assert dc.check_sound(str(cards), {"SDL_AUDIODRIVER": "dummy"}).status == dc.WARN
    assert dc.check_sound(str(tmp_path / "none"), {}).status == dc.WARN
    (tmp_path / "pulse").mkdir()
    (tmp_path / "pulse" / "native").write_text("")
    assert dc.check_sound(str(tmp_path / "none"), {"XDG_RUNTIME_DIR": str(tmp_path)}).status == dc.OK
    assert dc.check_display({"DISPLAY": ":0"}).status == dc.OK
    assert dc.check_display({"SDL_VIDEODRIVER": "offscreen"}).status == dc.WARN
    (tmp_path / "card1").write_text("")
    assert dc.check_display({}, str(tmp_path / "card*")).status == dc.OK
    assert dc.check_display({}, str(tmp_path / "none*")).status == dc.FAIL


def test_pin_not_set_default_or_set(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    assert dj.check_pin(db).status == dc.WARN
    Journal.open(db).close()
    assert dj.check_pin(db).detail.startswith("pin: not set")
    settings = SettingsStore.open(db)
    settings.save({"pin_hash": ""})  # no PIN: the menu opens without one
    assert dj.check_pin(db).status == dc.WARN
    settings.save({"pin_hash": hash_pin("8642", b"x" * 16)})
    settings.close()
    check = dj.check_pin(db)
    assert (check.status, check.detail) == (dc.OK, "pin: set")
    assert "8642" not in json.dumps(dj.check_pin(db).__dict__ if hasattr(check, "__dict__") else str(check))


def test_journal_space_and_wal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "new" / "bb.sqlite3"
    names = [c.name for c in dj.journal_checks(db, explicit=False)]
    assert names == ["space", "journal", "writer", "pin"]
    assert dj.check_journal(db, explicit=False).detail.endswith("(will be created)")  # the default data folder
    missing = dj.check_journal(db)  # a --db in a missing folder: refused by run and headless, so a FAIL here
    assert (missing.status, missing.fault) == (dc.FAIL, "missing_folder") and "create the folder" in missing.fix
    db.parent.mkdir()
    journal = Journal.open(db)
    journal.create_game("ultimate-uk", 7, {})
    checks = {c.name: c for c in dj.journal_checks(db)}
    assert list(checks) == ["space", "journal", "writer", "journal wal", "pin"]
    assert checks["journal"].status == dc.OK and "quick_check ok, 1 games" in checks["journal"].detail
    assert checks["journal wal"].status == dc.OK
    monkeypatch.setattr(dj, "WAL_WARN", 0)
    assert dj.check_wal(db).status == dc.WARN
    journal.close()
    monkeypatch.setattr(dj, "SPACE_WARN", 2**62)
    assert dj.check_space(db).status == dc.WARN
    monkeypatch.setattr(dj, "SPACE_FAIL", 2**62)
    assert dj.check_space(db).status == dc.FAIL


def test_doctor_json_on_this_machine_is_honest(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    Journal.open(db).close()
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env["KIVY_HOME"] = str(tmp_path / "kivy")
    done = subprocess.run([BOARDBANK, "doctor", "--json", "--db", str(db)], env=env, capture_output=True,
                          text=True, timeout=150, check=False)
    report = json.loads(done.stdout)
    checks = {c["name"]: c for c in report["checks"]}
    for c in report["checks"]:
        assert set(c) == {"name", "status", "detail", "fix", "fault"} and c["status"] in ("pass", "warn", "fail")
        assert c["status"] == "pass" or c["fix"] or c["name"].startswith("reader"), c
    for name in ("reader back-ends", "pcscd", "group dialout", "gl", "fonts", "sound", "display", "space",
                 "journal", "journal wal", "pin"):
        assert name in checks, name
    if not glob.glob("/dev/dri/card*"):
        assert checks["display"]["status"] == "fail"  # no screen here, and it says so
    gl = checks["gl"]
    if any(word in gl["detail"].lower() for word in dc.SOFTWARE_GL):
        assert gl["status"] == "warn"  # llvmpipe on this machine: not passed off as a GPU
    assert checks["pin"] == {"name": "pin", "status": "warn", "fix": checks["pin"]["fix"],
                             "detail": "pin: not set (the banker's menu opens without one)", "fault": None}
    assert report["summary"]["fail"] == sum(c["status"] == "fail" for c in report["checks"])
    assert done.returncode == (1 if report["summary"]["fail"] else 0)
    (tmp_path / "doctor.json").write_text(done.stdout, encoding="utf-8")


def test_plain_output_keeps_one_line_a_check(tmp_path: Path) -> None:
    done = subprocess.run([BOARDBANK, "doctor", "--no-gl", "--db", str(tmp_path / "bb.sqlite3")],
                          capture_output=True, text=True, timeout=60, check=False)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("OK    reader back-ends")
    assert any(line.startswith("WARN  gl") and "--no-gl" in line for line in lines)
    assert any(line.startswith("OK    journal") for line in lines)
