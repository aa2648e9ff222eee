"""The journal's load on its usual path (engine/store/fastload.py, issue 22: the load near a bare read and
``json.loads`` of the rows): the same events as the exact path, every check kept, damage still named by the
exact path, and ``boardbank replay`` loading neither the simulator nor ``importlib.metadata``.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import frozen, records
from engine.commands import Command
from engine.editions import load_edition
from engine.errors import RecordError
from engine.game import Game
from engine.records import event_decoder, event_from_record, event_loaders, event_to_record, record_types
from engine.rulesets.registry import get_ruleset
from engine.rulesets.ultimate.sim import GameRunner
from engine.store import fastload
from engine.store.durable import DurableGame
from engine.store.fastload import fast_events
from engine.store.journal import Journal, JournalError

ROOT = Path(__file__).resolve().parents[2]


def _played(path: Path, seed: int = 3) -> tuple[int, Game]:
    """A bots' game written through the journal as the unit writes it (with input ids on some commands)."""
    edition = load_edition("ultimate-uk")
    played, sent = Game(edition), []

    def apply(cmd: Command) -> object:
        sent.append(cmd)
        return played.apply(cmd)

    GameRunner(edition, 3, seed, game=played, apply=apply, check_invariants=False,  # type: ignore[arg-type]
               turn_cap=80).play()
    with Journal.open(path) as journal:
        durable = DurableGame.start(journal, edition, sent[0], "s")  # type: ignore[arg-type]
        for n, cmd in enumerate(sent[1:], start=2):
            durable.apply(cmd, f"i{n}" if n % 3 == 0 else None)
        return durable.game_id, durable.game


def test_the_usual_path_gives_the_exact_paths_events(tmp_path: Path) -> None:
    path = tmp_path / "bank.db"
    gid, game = _played(path)
    with Journal.open(path, read_only=True) as journal:
        _, loaded = journal.load(gid)
        exact = [event_from_record(r) for r in journal.event_records(gid)]
        journal._conn.execute("BEGIN")
        fast = fast_events(journal._conn, gid, True, {})  # no constructor: not regular, the caller's turn
        journal._conn.execute("COMMIT")
    assert fast is None
    assert loaded == exact == list(game.events)
    assert [type(e) for e in loaded] == [type(e) for e in game.events]


def test_a_row_taken_out_is_named_as_before(tmp_path: Path) -> None:
    path = tmp_path / "bank.db"
    gid, _ = _played(path)
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM log WHERE number = 4")
    conn.close()
    with Journal.open(path, read_only=True) as journal:
        with pytest.raises(JournalError, match=r"expected command 4, found command 5"):
            journal.load(gid)
        _, intact, problem = journal.salvage(gid)
    assert problem is not None and len(intact) > 0


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["seq", "command", "type", "player", "amount"]),
       st.one_of(st.none(), st.booleans(), st.text(max_size=3), st.integers(-2, 2), st.lists(st.integers())))
def test_the_compiled_decoder_refuses_as_the_general_one(field: str, value: object) -> None:
    records = [event_to_record(e) for e in Game.replay(load_edition("ultimate-uk"), _sample_events()).events]
    decode = event_decoder("ultimate")
    for record in records:
        changed = {**record, field: value} if field in record else record
        try:
            expected: object = event_from_record(changed)
        except RecordError as exc:
            expected = str(exc)
        try:
            got: object = decode(changed)
        except RecordError as exc:
            got = str(exc)
        assert got == expected


_EVENTS: list[object] = []


def _sample_events() -> list:  # type: ignore[type-arg]
    if not _EVENTS:
        edition = load_edition("ultimate-uk")
        game = Game(edition)
        GameRunner(edition, 2, 1, game=game, check_invariants=False, turn_cap=15).play()
        _EVENTS.extend(game.events[:200])
    return _EVENTS


def _parsers() -> list[object]:
    """The JSON parsers the usual path may use: the standard library's, and orjson's where it is installed."""
    try:
        import orjson
    except ImportError:
        return [json.loads]
    return [json.loads, orjson.loads]


@pytest.mark.parametrize("edition_id", ["ultimate-uk", "classic-us"])
@pytest.mark.parametrize("parser", _parsers(), ids=lambda f: getattr(f, "__module__", "?"))
def test_the_loaded_events_are_the_written_ones(tmp_path: Path, edition_id: str, parser: object,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Each event of both rulesets comes back of its own class, equal, hashed alike, frozen, and built on the
    usual path (not read again on the exact one), whichever parser that path uses."""
    monkeypatch.setattr(fastload, "LOADS", parser)
    edition = load_edition(edition_id)
    path = tmp_path / "bank.db"
    played, sent = Game(edition), []

    def apply(cmd: Command) -> object:
        sent.append(cmd)
        return played.apply(cmd)

    get_ruleset(edition.ruleset).runner(edition, 3, 4, game=played, apply=apply, check_invariants=False,
                                        turn_cap=60).play()
    with Journal.open(path) as journal:
        durable = DurableGame.start(journal, edition, sent[0])  # type: ignore[arg-type]
        for cmd in sent[1:]:
            durable.apply(cmd)
    exact = []
    monkeypatch.setattr(Journal, "_rows", lambda *a: exact.append(a) or iter(()))  # the exact path: not taken
    with Journal.open(path, read_only=True) as journal:
        _, loaded = journal.load(durable.game_id)
    assert not exact
    assert loaded == list(played.events) and len(loaded) > 100
    assert [type(e) for e in loaded] == [type(e) for e in played.events]
    assert [_hash(e) for e in loaded] == [_hash(e) for e in played.events]
    assert {type(e).__name__ for e in loaded} >= {"GameStarted", "TurnEnded"}
    for event in loaded[:50]:
        with pytest.raises(dataclasses.FrozenInstanceError):
            event.seq = 0  # type: ignore[misc]


def _hash(event: object) -> int | str:
    """The event's hash, or the error of an event that has none (a mapping among its fields)."""
    try:
        return hash(event)
    except TypeError as exc:
        return str(exc)


def test_the_events_are_built_as_twins() -> None:
    """Every plain Python event of both rulesets is built as a twin (engine/frozen.py, twin: its slots set by
    plain assignment), the cheap way; a compiled build (make fast) keeps its native constructor."""
    for ruleset in ("ultimate", "classic"):
        for cls in record_types(ruleset)[0].values():
            if str(getattr(sys.modules[cls.__module__], "__file__", "")).endswith(".py"):
                assert frozen.twin(cls) is not None, cls
        assert set(event_loaders(ruleset)) == set(record_types(ruleset)[0])


def test_a_class_unlike_its_twin_is_built_by_its_constructor() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        seq: int
        command: int

        def __post_init__(self) -> None:
            if self.seq < 0:
                raise ValueError("seq")

    @dataclasses.dataclass(frozen=True)
    class Unslotted:
        seq: int
        command: int

    assert frozen.twin(Checked) is None and frozen.twin(Unslotted) is None
    build = records._builder(Checked, checked=True)
    assert build({"seq": 1, "command": 2}, 1, 2) == Checked(1, 2)
    with pytest.raises(ValueError):
        build({"seq": -1, "command": 2}, -1, 2)
    with pytest.raises(records._Slow):
        build({"seq": 1, "command": 2}, 2, 2)  # not the seq expected there


def test_replay_loads_no_simulator_nor_package_metadata(tmp_path: Path) -> None:
    """``boardbank replay`` imports what rebuilding and printing the game need, and nothing of the simulator,
    the bots, the exporters, the screens, the translations, the optional extras, or the banker's handlers and
    state machine (the ruleset's view hooks are all it reads of the banker's plug-in)."""
    path = tmp_path / "bank.db"
    _played(path, seed=1)
    unwanted = ("engine.sim", "engine.rulesets.ultimate.sim", "engine.rulesets.ultimate.bots",
                "engine.rulesets.classic.sim", "engine.rulesets.classic.bots", "engine.rulesets.classic.table",
                "engine.store.export", "importlib.metadata", "ui.touch", "ui.i18n", "babel", "kivy", "matplotlib",
                "aiohttp", "reportlab", "csv", "transitions", "engine.banker.context",
                "engine.rulesets.ultimate.gestures.rows")
    code = ("import sys\nfrom ui.cli.console import main\nstatus = main(['replay', '--json', sys.argv[1]])\n"
            f"print(sorted(m for m in sys.modules if m.startswith({unwanted!r})), file=sys.stderr)\n"
            "sys.exit(status)")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, cwd=ROOT,
                          check=True)
    assert json.loads(done.stdout)["game"] == 1
    assert done.stderr.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("enabled", [True, False])
def test_the_load_leaves_the_collector_as_it_found_it(tmp_path: Path, enabled: bool) -> None:
    """Paused during the load and resumed as it was; the events handed to the oldest generation, so no young
    pass over them waits at the next allocation (engine/store/fastload.py, promote_young)."""
    import gc

    path = tmp_path / "bank.db"
    gid, _ = _played(path)
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        with Journal.open(path, read_only=True) as journal:
            _, events = journal.load(gid)
        assert gc.isenabled() is enabled
        if enabled:
            assert gc.get_count()[0] < gc.get_threshold()[0]  # no young pass pending over the load's objects
            oldest = {id(o) for o in gc.get_objects(generation=2)}
            assert id(events[-1]) in oldest and id(events) in oldest
    finally:
        (gc.enable if was else gc.disable)()


def test_the_load_leaves_frozen_objects_frozen(tmp_path: Path) -> None:
    """Something else's frozen objects (``gc.freeze``, as ``boardbank replay`` does) stay frozen: the load
    then only resumes the collector."""
    import gc

    path = tmp_path / "bank.db"
    gid, game = _played(path)
    gc.freeze()
    try:
        frozen_before = gc.get_freeze_count()
        with Journal.open(path, read_only=True) as journal:
            _, events = journal.load(gid)
        assert gc.get_freeze_count() == frozen_before and list(events) == list(game.events)
    finally:
        gc.unfreeze()
