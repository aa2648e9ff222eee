"""The record codec reads a compiled class's field types from the source kept beside its module.

mypyc (scripts/build_fast.py) leaves a compiled dataclass only erased runtime annotations (``tuple`` for
``tuple[int, ...]``), which cannot decode a nested record. Here a module is made to look compiled (its
``__file__`` a ``.so`` with the ``.py`` beside it, its class's annotations erased) and the codec must still
find the written types.
"""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass
from pathlib import Path

from engine import records

SOURCE = '''
from __future__ import annotations
from dataclasses import dataclass

@dataclass(frozen=True)
class Fake:
    seq: int
    deeds: tuple[int, ...]
'''


def _fake_compiled_module(tmp_path: Path) -> type:
    (tmp_path / "fakecompiled.py").write_text(SOURCE)
    module = types.ModuleType("fakecompiled")
    module.__file__ = str(tmp_path / "fakecompiled.cpython-311-x86_64-linux-gnu.so")

    @dataclass(frozen=True)
    class Fake:
        seq: int
        deeds: tuple  # type: ignore[type-arg]  # erased, as mypyc leaves it

    Fake.__module__ = "fakecompiled"
    Fake.__annotations__ = {"seq": int, "deeds": tuple}
    module.Fake = Fake  # type: ignore[attr-defined]
    sys.modules["fakecompiled"] = module
    return Fake


def test_a_compiled_class_gets_its_written_types(tmp_path: Path) -> None:
    cls = _fake_compiled_module(tmp_path)
    try:
        assert records._hints(cls) == {"seq": int, "deeds": tuple[int, ...]}
    finally:
        del sys.modules["fakecompiled"]


def test_without_the_source_the_runtime_annotations_are_used(tmp_path: Path) -> None:
    cls = _fake_compiled_module(tmp_path)
    (tmp_path / "fakecompiled.py").unlink()
    try:
        assert records._hints(cls)["deeds"] is tuple
    finally:
        del sys.modules["fakecompiled"]


def test_a_python_module_is_read_as_always() -> None:
    from engine.rulesets.classic.events import AssetsSeized
    assert records._hints(AssetsSeized)["deeds"] == tuple[int, ...]
