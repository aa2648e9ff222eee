"""The banker's shape: small modules, no import cycle, no UI, and a table whose every name is bound."""

from __future__ import annotations

import ast
import types
from pathlib import Path

import pytest

from engine.banker import gestures
from engine.banker.binding import handler_functions
from engine.banker.gestures import SHARED_HANDLERS
from engine.banker.machine import Banker, BankerError
from engine.banker.plugins import ruleset_part, table_for
from engine.banker.table import SHARED_ROWS, build_table
from engine.banker.tapscript import CardTable, ManualClock
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

ULTIMATE_ROWS, ULTIMATE_HANDLERS = ruleset_part("ultimate")
TABLE = table_for("ultimate")

ROOT = Path(__file__).parents[2]
BANKER = ROOT / "engine" / "banker"
MODULES = sorted(BANKER.rglob("*.py"))


def _name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module imported anywhere at module level (also under ``if TYPE_CHECKING``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_every_module_is_small() -> None:
    for path in MODULES:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= 400, f"{path.relative_to(ROOT)} has {lines} lines"


def test_no_import_cycle_and_no_ui() -> None:
    names = {_name(p): p for p in MODULES}
    graph = {name: {m for m in _imports(path) if m in names and m != name} for name, path in names.items()}
    for name, path in names.items():
        bad = {m for m in _imports(path) if m.split(".")[0] in ("ui", "reader", "kivy")}
        assert not bad, f"{name} imports {bad}"
    done: set[str] = set()

    def visit(node: str, trail: list[str]) -> None:
        if node in trail:
            raise AssertionError(f"import cycle: {' -> '.join([*trail[trail.index(node):], node])}")
        if node in done:
            return
        for nxt in sorted(graph[node]):
            visit(nxt, [*trail, node])
        done.add(node)

    for name in sorted(graph):
        visit(name, [])


def test_the_table_is_the_shared_rows_and_the_ultimate_rows() -> None:
    assert build_table(ULTIMATE_ROWS) == TABLE
    ruleset = [*ULTIMATE_ROWS.gestures, *ULTIMATE_ROWS.phases, *ULTIMATE_ROWS.landings]
    assert len(TABLE) == len(SHARED_ROWS) + len(ruleset)


def test_every_name_of_the_table_is_a_handler() -> None:
    bound = handler_functions([*SHARED_HANDLERS, *ULTIMATE_HANDLERS])
    for row in TABLE:
        for key in ("conditions", "after"):
            value = row.get(key) or []
            for name in [value] if isinstance(value, str) else value:
                assert name in bound, name
    assert gestures.SHARED_HANDLERS and ULTIMATE_HANDLERS


def _banker(tmp_path: Path, **kwargs: object) -> Banker:
    store = JournalStore(Journal.open(tmp_path / "bb.sqlite3"))
    return Banker(store, CardTable(), ManualClock(), seed_source=lambda: 7, **kwargs)  # type: ignore[arg-type]


def test_a_name_defined_twice_is_refused(tmp_path: Path) -> None:
    twice = types.ModuleType("twice")
    exec("def can_buy(ctx, event):\n    return True\n", twice.__dict__)
    with pytest.raises(BankerError, match="defined twice"):
        _banker(tmp_path, handlers=[*ULTIMATE_HANDLERS, twice])


def test_a_missing_handler_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BankerError, match="no module defines"):
        _banker(tmp_path, handlers=ULTIMATE_HANDLERS[1:])
