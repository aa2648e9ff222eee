"""``boardbank diagram [--ruleset NAME|all] [--out DIR]``: the banker's state diagrams, generated from the machines.

The banker's machine is the shared rows with a ruleset's own in their places, so each ruleset has its
own. Without ``--out`` it prints the Mermaid source on stdout and writes nothing: with ``--ruleset all``
(the default) every ruleset's machine, each after a Mermaid comment line ``%% ruleset: NAME``; with
``--ruleset NAME`` only that one (a Mermaid file by itself). With ``--out DIR`` it writes
``banker.mmd`` (Mermaid, always: transitions' ``GraphMachine`` with ``graph_engine="mermaid"``) and,
when Graphviz's ``dot`` and the ``graphviz`` package are present, ``banker.svg`` and ``banker.png``. If
``flows.md`` exists in DIR, the Mermaid block between its ``<!-- banker-diagram:begin -->`` and
``<!-- banker-diagram:end -->`` markers is replaced, so the docs always embed the current machine. The
classic game's machine is written too (``banker-classic.mmd``, and the block between the
``<!-- banker-diagram:classic:begin -->`` and ``<!-- banker-diagram:classic:end -->`` markers when
``flows.md`` has them).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import types
from pathlib import Path
from typing import Any

from engine.banker.plugins import machine_kwargs_for
from engine.rulesets.registry import ruleset_names

BEGIN = "<!-- banker-diagram:begin -->"
END = "<!-- banker-diagram:end -->"
CLASSIC_BEGIN = "<!-- banker-diagram:classic:begin -->"
CLASSIC_END = "<!-- banker-diagram:classic:end -->"


def _graph_machine(engine: str, ruleset: str = "ultimate") -> Any:
    from transitions.extensions import GraphMachine

    kwargs = {k: v for k, v in machine_kwargs_for(ruleset).items() if k != "send_event"}
    title = "boardbank banker" if ruleset == "ultimate" else f"boardbank banker ({ruleset})"
    return GraphMachine(model=types.SimpleNamespace(), graph_engine=engine, show_conditions=True,
                        title=title, **kwargs)


def mermaid_source(ruleset: str = "ultimate") -> str:
    """The Mermaid ``stateDiagram-v2`` text of ``ruleset``'s banker machine (no state highlighted)."""
    text = str(_graph_machine("mermaid", ruleset).get_graph().draw(None))
    # the initial state is drawn "active"; the docs show the machine, not one run of it
    return text.replace("Class SETUP s_active", "Class SETUP s_default").rstrip() + "\n"


def stdout_source(ruleset: str = "all") -> str:
    """What ``boardbank diagram`` prints: ``ruleset``'s machine, or every ruleset's with a comment line each."""
    if ruleset != "all":
        return mermaid_source(ruleset)
    return "\n".join(f"%% ruleset: {name}\n{mermaid_source(name)}" for name in ("ultimate", *(
        n for n in ruleset_names() if n != "ultimate")))


def embed(markdown: str, source: str, begin: str = BEGIN, end: str = END) -> str:
    """``markdown`` with the block between the markers replaced by ``source`` in a mermaid fence."""
    if begin not in markdown or end not in markdown:
        raise ValueError(f"flows.md lacks the markers {begin} ... {end}")
    head, rest = markdown.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n```mermaid\n{source}```\n{end}{tail}"


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


def _fail(message: str) -> int:
    print(f"boardbank diagram: {message}", file=sys.stderr)
    return 2


def _oserror(exc: OSError) -> str:
    return f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc)


def main(args: argparse.Namespace) -> int:
    """Print the Mermaid source (no ``--out``) or write the diagram files into ``--out``; the exit status.

    Everything is checked before the first write: ``--out`` must be a folder (or creatable), and a
    ``flows.md`` in it must have the markers; a refusal is one line on stderr with status 2.
    """
    chosen = getattr(args, "ruleset", None) or "all"
    if chosen != "all" and chosen not in ruleset_names():
        return _fail(f"--ruleset expects all or one of {', '.join(ruleset_names())}, got {chosen!r}")
    if getattr(args, "out", None) is None:
        sys.stdout.write(stdout_source(chosen))
        return 0
    source = mermaid_source()
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        return _fail(f"--out expects a folder, and {out} is a file")
    flows = out / "flows.md"
    classic = mermaid_source("classic")
    try:
        embedded = embed(flows.read_text(encoding="utf-8"), source) if flows.is_file() else None
        if embedded is not None and CLASSIC_BEGIN in embedded:
            embedded = embed(embedded, classic, CLASSIC_BEGIN, CLASSIC_END)
        out.mkdir(parents=True, exist_ok=True)
        written = [out / "banker.mmd", out / "banker-classic.mmd"]
        written[0].write_text(source, encoding="utf-8")
        written[1].write_text(classic, encoding="utf-8")
        written += write_graphviz(out)
        if embedded is not None:
            flows.write_text(embedded, encoding="utf-8")
            written.append(flows)
    except ValueError as exc:
        return _fail(f"{flows}: {exc}")
    except OSError as exc:
        return _fail(f"cannot write into {out}: {_oserror(exc)}")
    for path in written:
        print(path)
    return 0
