"""The shape of the code, checked from its source (docs/architecture.md, section 2).

The import graph of our packages is built with ``ast`` from every module's ``import`` statements: at module
level, inside functions, and under ``if TYPE_CHECKING:`` too. A circle closed by an import inside a function
or one for the type checker is still a circle: the two modules cannot be understood, typed or moved apart,
and each of the three circles this check once missed (editions <-> the ruleset API and registry, the classic
state <-> its standings, the PC/SC driver <-> the reader probes) had exactly one of those on one side. Only
the registry's plug-in lookup by name (``importlib.import_module`` of a ruleset's module, and of its banker
plug-in) makes no edge: that is the seam. The checks: no import cycle; ``engine`` imports no ``reader``,
``ui``, Kivy, pyserial or pyscard; ``reader`` imports no ``engine`` or ``ui``; ``firmware_sim`` imports no
``engine``; a ruleset imports no other ruleset, and only its banker plug-in (``engine/rulesets/NAME/gestures/``)
imports the banker; the banker (``engine/banker``) imports no ruleset, only the seam
(``engine/rulesets/api.py``, ``registry.py``); no module of ours is longer than 400 lines. The checker is tested on small
planted trees too, so a check that cannot fail would show.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "reader", "ui", "firmware_sim")
MAX_LINES = 400
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "engine": ("reader", "ui", "kivy", "serial", "smartcard"),
    "reader": ("engine", "ui", "kivy"),
    "firmware_sim": ("engine", "ui"),
}


def modules(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file of ``packages`` under ``root``."""
    found: dict[str, Path] = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree``, wherever it is (module level, functions, ``if TYPE_CHECKING:``)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child
            stack.append(child)


def imported_names(name: str, path: Path) -> set[str]:
    """Every dotted name the module ``name`` imports (``from a import b`` gives ``a.b`` and ``a``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        out.add(base)
        out |= {f"{base}.{alias.name}" for alias in node.names}
    return out


def import_graph(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (names that are not our modules are dropped)."""
    mods = modules(root, packages)
    return {name: {n for n in imported_names(name, path) if n in mods and n != name} for name, path in mods.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}  # 1 = on the stack, 2 = done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def forbidden_imports(root: Path, packages: tuple[str, ...] = PACKAGES) -> list[str]:
    """Each import that breaks a package rule, as ``module -> imported``."""
    bad: list[str] = []
    for name, path in modules(root, packages).items():
        names = imported_names(name, path)
        top = name.split(".")[0]
        for target in sorted(names):
            head = target.split(".")[0]
            if head in FORBIDDEN.get(top, ()):
                bad.append(f"{name} -> {target}")
        parts = name.split(".")
        if parts[:2] == ["engine", "rulesets"] and len(parts) > 3:
            own = parts[2]
            for target in sorted(names):
                tp = target.split(".")
                other_ruleset = tp[:2] == ["engine", "rulesets"] and len(tp) > 2 and tp[2] not in (own, "api", "registry")
                plugin = len(parts) > 3 and parts[3] == "gestures"  # the ruleset's banker plug-in
                if other_ruleset or (tp[:2] == ["engine", "banker"] and not plugin):
                    bad.append(f"{name} -> {target}")
        if parts[:2] == ["engine", "banker"]:  # the banker names no ruleset: it takes them through the seam
            for target in sorted(names):
                tp = target.split(".")
                if tp[:2] == ["engine", "rulesets"] and len(tp) > 2 and tp[2] not in ("api", "registry"):
                    bad.append(f"{name} -> {target}")
    return bad


def long_modules(root: Path, packages: tuple[str, ...] = PACKAGES) -> list[str]:
    """Modules over :data:`MAX_LINES` lines, with their length."""
    out = []
    for name, path in modules(root, packages).items():
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            out.append(f"{name}: {n} lines")
    return out


# -- the project ------------------------------------------------------------------------------------

def test_no_import_cycle() -> None:
    graph = import_graph(ROOT)
    assert len(graph) > 100  # the walk found our modules
    assert find_cycle(graph) is None


def test_packages_import_only_what_they_may() -> None:
    assert forbidden_imports(ROOT) == []


def test_no_module_over_400_lines() -> None:
    assert long_modules(ROOT) == []


# -- the checker on planted trees -----------------------------------------------------------------

def _plant(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_planted_cycle_is_found(tmp_path: Path) -> None:
    _plant(tmp_path, {
        "engine/__init__.py": "",
        "engine/a.py": "from engine import b\n",
        "engine/b.py": "def f():\n    from engine.c import g\n",
        "engine/c.py": "from engine.a import x\n",
        "engine/d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.a import x\n",
    })
    cycle = find_cycle(import_graph(tmp_path, ("engine",)))
    assert cycle is not None and cycle[0] == cycle[-1] and set(cycle) == {"engine.a", "engine.b", "engine.c"}


@pytest.mark.parametrize("files", [
    {"engine/a.py": "from engine.b import y\n",
     "engine/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.a import x\n"},
    # the shape of the circles that once slipped through: a function's import one way, a type's the other
    {"engine/a.py": "def f():\n    from engine.b import y\n",
     "engine/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.a import x\n"},
    {"engine/a.py": "def f():\n    from engine.b import y\n", "engine/b.py": "def g():\n    import engine.a\n"},
], ids=["type-checking", "function-and-type", "two-functions"])
def test_every_kind_of_import_closes_a_cycle(tmp_path: Path, files: dict[str, str]) -> None:
    _plant(tmp_path, {"engine/__init__.py": "", **files})
    cycle = find_cycle(import_graph(tmp_path, ("engine",)))
    assert cycle is not None and set(cycle) == {"engine.a", "engine.b"}


def test_a_plug_in_looked_up_by_name_makes_no_cycle(tmp_path: Path) -> None:
    _plant(tmp_path, {"engine/__init__.py": "", "engine/a.py": "import importlib\nM = importlib.import_module('engine.b')\n",
                      "engine/b.py": "from engine.a import M\n"})
    assert find_cycle(import_graph(tmp_path, ("engine",))) is None


@pytest.mark.parametrize(("files", "expected"), [
    ({"engine/x.py": "import kivy\n"}, "engine.x -> kivy"),
    ({"engine/x.py": "def f():\n    from reader.base import open_reader\n"}, "engine.x -> reader.base"),
    ({"reader/x.py": "from engine import game\n"}, "reader.x -> engine"),
    ({"engine/rulesets/classic/x.py": "from engine.rulesets.ultimate.state import GameState\n"},
     "engine.rulesets.classic.x -> engine.rulesets.ultimate.state"),
    ({"engine/rulesets/classic/x.py": "from engine.banker.machine import Banker\n"},
     "engine.rulesets.classic.x -> engine.banker.machine"),
    ({"engine/banker/x.py": "from engine.rulesets.ultimate import events as uev\n"},
     "engine.banker.x -> engine.rulesets.ultimate"),
    ({"engine/banker/x.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                            "    from engine.rulesets.classic.state import ClassicState\n"},
     "engine.banker.x -> engine.rulesets.classic.state"),
])
def test_a_planted_forbidden_import_is_found(tmp_path: Path, files: dict[str, str], expected: str) -> None:
    _plant(tmp_path, files)
    assert expected in forbidden_imports(tmp_path, ("engine", "reader"))


def test_a_ruleset_may_use_the_seam(tmp_path: Path) -> None:
    _plant(tmp_path, {"engine/rulesets/classic/x.py": "from engine.rulesets.api import Ruleset\nfrom engine.events import Event\n",
                      "engine/banker/y.py": "from engine.rulesets.registry import get_ruleset\n",
                      "engine/rulesets/classic/gestures/build.py": "from engine.banker.context import Context\n"})
    assert forbidden_imports(tmp_path, ("engine",)) == []


def test_a_planted_long_module_is_found(tmp_path: Path) -> None:
    _plant(tmp_path, {"engine/long.py": "x = 1\n" * (MAX_LINES + 1), "engine/ok.py": "x = 1\n" * MAX_LINES})
    assert long_modules(tmp_path, ("engine",)) == [f"engine.long: {MAX_LINES + 1} lines"]
