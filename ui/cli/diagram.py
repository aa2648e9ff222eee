"""``boardbank diagram [--out DIR]``: the banker's state diagram, generated from the machine itself.

Writes ``banker.mmd`` (Mermaid, always: transitions' ``GraphMachine`` with ``graph_engine="mermaid"``) and,
when Graphviz's ``dot`` and the ``graphviz`` package are present, ``banker.svg`` and ``banker.png``. If
``flows.md`` exists in DIR, the Mermaid block between its ``<!-- banker-diagram:begin -->`` and
``<!-- banker-diagram:end -->`` markers is replaced, so the docs always embed the current machine.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import types
from pathlib import Path
from typing import Any

from engine.banker.table import MACHINE_KWARGS

BEGIN = "<!-- banker-diagram:begin -->"
END = "<!-- banker-diagram:end -->"


def _graph_machine(engine: str) -> Any:
    from transitions.extensions import GraphMachine

    kwargs = {k: v for k, v in MACHINE_KWARGS.items() if k != "send_event"}
    return GraphMachine(model=types.SimpleNamespace(), graph_engine=engine, show_conditions=True,
                        title="boardbank banker", **kwargs)


def mermaid_source() -> str:
    """The Mermaid ``stateDiagram-v2`` text of the banker machine (no state highlighted)."""
    text = str(_graph_machine("mermaid").get_graph().draw(None))
    # the initial state is drawn "active"; the docs show the machine, not one run of it
    return text.replace("Class SETUP s_active", "Class SETUP s_default").rstrip() + "\n"


def embed(markdown: str, source: str) -> str:
    """``markdown`` with the block between the markers replaced by ``source`` in a mermaid fence."""
    if BEGIN not in markdown or END not in markdown:
        raise ValueError(f"flows.md lacks the markers {BEGIN} ... {END}")
    head, rest = markdown.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n```mermaid\n{source}```\n{END}{tail}"


def write_graphviz(out: Path) -> list[Path]:
    """``banker.svg`` and ``banker.png`` via Graphviz; [] when ``dot`` or the package is missing."""
    if shutil.which("dot") is None:
        return []
    try:
        import graphviz  # noqa: F401
    except ImportError:
        return []
    graph = _graph_machine("graphviz").get_graph()
    written = []
    for fmt in ("svg", "png"):
        path = out / f"banker.{fmt}"
        graph.draw(str(path), format=fmt, prog="dot")
        written.append(path)
    return written


def main(args: argparse.Namespace) -> int:
    """Write the diagram files into ``--out`` (default ``docs``); returns the exit status."""
    out = Path(getattr(args, "out", None) or "docs")
    out.mkdir(parents=True, exist_ok=True)
    source = mermaid_source()
    written = [out / "banker.mmd"]
    written[0].write_text(source, encoding="utf-8")
    written += write_graphviz(out)
    flows = out / "flows.md"
    if flows.exists():
        try:
            flows.write_text(embed(flows.read_text(encoding="utf-8"), source), encoding="utf-8")
        except ValueError as exc:
            print(f"boardbank diagram: {exc}", file=sys.stderr)
            return 2
        written.append(flows)
    for path in written:
        print(path)
    return 0
