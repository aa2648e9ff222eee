"""The diagram is generated from the machine and docs/flows.md embeds the current one."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.banker.plugins import table_for
from engine.banker.table import BankerState
from engine.banker.table import triggers as _triggers
from ui.cli.diagram import BEGIN, END, embed, main, mermaid_source


def triggers() -> list[str]:
    return _triggers(table_for("ultimate"))

DOCS = Path(__file__).parents[2] / "docs"


def test_mermaid_names_every_state_and_trigger() -> None:
    source = mermaid_source()
    assert source.splitlines()[3] == "stateDiagram-v2"
    for state in BankerState:
        assert f'state "{state.name}"' in source
    for trigger in triggers():
        assert trigger in source


def test_docs_embed_the_current_machine() -> None:
    flows = (DOCS / "flows.md").read_text(encoding="utf-8")
    assert f"{BEGIN}\n```mermaid\n{mermaid_source()}```\n{END}" in flows, "run: boardbank diagram --out docs"
    assert (DOCS / "banker.mmd").read_text(encoding="utf-8") == mermaid_source()


def test_embed_replaces_only_the_block() -> None:
    text = f"intro\n{BEGIN}\nold\n{END}\noutro\n"
    assert embed(text, "new\n") == f"intro\n{BEGIN}\n```mermaid\nnew\n```\n{END}\noutro\n"


def test_command_writes_the_files(tmp_path: Path) -> None:
    (tmp_path / "flows.md").write_text(f"x\n{BEGIN}\n{END}\n", encoding="utf-8")
    assert main(argparse.Namespace(out=str(tmp_path))) == 0
    assert (tmp_path / "banker.mmd").read_text(encoding="utf-8") == mermaid_source()
    assert mermaid_source() in (tmp_path / "flows.md").read_text(encoding="utf-8")
    (tmp_path / "flows.md").write_text("no markers\n", encoding="utf-8")
    assert main(argparse.Namespace(out=str(tmp_path))) == 2
