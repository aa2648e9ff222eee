"""The classic fold's functions read only fields their events have.

The fold's event parameters are typed ``Any`` (the simulator folds light named tuples with the events'
fields, and a mypyc-compiled fold would refuse them), so mypy no longer checks the attribute names; this
test does, from the source: for every event class in ``FOLD``, each ``e.NAME`` its function reads must be a
field of that class other than ``seq`` and ``command`` (the journal's two, which the light events leave out).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import fields
from pathlib import Path

import pytest

from engine.rulesets.classic import fold

ROOT = Path(__file__).resolve().parents[3]
SOURCE = ROOT / "engine" / "rulesets" / "classic" / "fold.py"
"""Read from the repository, so the test also runs against the compiled build (scripts/build_fast.py)."""
MODULES = sorted({f.__module__ for f in fold.FOLD.values()})
"""The modules the fold's functions are defined in (fold.py, and the variants' and the tokens' folds)."""
FUNCTIONS = {(name, node.name): node for name in MODULES
             for node in ast.parse((ROOT / (name.replace(".", "/") + ".py")).read_text()).body
             if isinstance(node, ast.FunctionDef)}
JOURNAL = {"seq", "command"}  # every event's first two fields, which the lean table's light events leave out


def _reads(func: object, param: str = "e") -> set[str]:
    """The attribute names read from ``param`` in ``func`` (a fold function, found by name in the source
    file, or any Python function)."""
    name = (getattr(func, "__module__", ""), getattr(func, "__name__", ""))
    tree: ast.AST = FUNCTIONS[name] if name in FUNCTIONS else ast.parse(
        textwrap.dedent(inspect.getsource(func)))  # type: ignore[arg-type]
    return {node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == param}


@pytest.mark.parametrize("cls", sorted(fold.FOLD, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_each_fold_function_reads_only_its_events_fields(cls: type) -> None:
    func = fold.FOLD[cls]
    names = {f.name for f in fields(cls)} - JOURNAL
    unknown = _reads(func) - names
    assert not unknown, f"{func.__name__} reads {sorted(unknown)} which {cls.__name__} does not have"


def test_the_check_sees_a_wrong_field() -> None:
    """The check itself: a function reading a field its event lacks is caught."""
    def _wrong(s: object, e: object) -> None:
        print(e.nonexistent)  # type: ignore[attr-defined]

    from engine import events as ev
    assert _reads(_wrong) - {f.name for f in fields(ev.SalaryPaid)} == {"nonexistent"}


def test_the_named_event_class_is_the_mapped_one() -> None:
    """The class named in each function's comment is the one ``FOLD`` maps to it (the comment stays true)."""
    source = SOURCE.read_text()
    for cls, func in fold.FOLD.items():
        if func is fold._nothing or func.__module__ != fold.__name__:  # defined in another module
            continue
        line = next(x for x in source.splitlines() if x.startswith(f"def {func.__name__}("))
        named = line.rsplit("#", 1)[1].strip()
        assert named.split(".")[-1] == cls.__name__ or any(
            c.__name__ == named.split(".")[-1] for c, f in fold.FOLD.items() if f is func), (func.__name__, named)
