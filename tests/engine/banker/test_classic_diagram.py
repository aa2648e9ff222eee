"""The classic machine's diagram is generated from its table, and docs/flows.md embeds the current one
(docs/flows.md, "The classic game"; docs/architecture.md 5.4: never drawn by hand)."""

from __future__ import annotations

from pathlib import Path

from engine.banker.plugins import table_for
from engine.banker.table import triggers
from ui.cli.diagram import CLASSIC_BEGIN, CLASSIC_END, mermaid_source

DOCS = Path(__file__).parents[3] / "docs"


def test_the_classic_diagram_names_its_states_and_triggers() -> None:
    source = mermaid_source("classic")
    assert source.splitlines()[1] == "boardbank banker (classic)"
    for state in ("OWN", "DICE", "BUILD", "TAX", "CARD_SPACE", "TRADE", "TRADE_OPEN", "PLACE"):
        assert f'state "{state}"' in source
    for trigger in triggers(table_for("classic")):
        assert trigger in source


def test_docs_embed_the_current_classic_machine() -> None:
    flows = (DOCS / "flows.md").read_text(encoding="utf-8")
    source = mermaid_source("classic")
    assert f"{CLASSIC_BEGIN}\n```mermaid\n{source}```\n{CLASSIC_END}" in flows, "run: boardbank diagram --out docs"
    assert (DOCS / "banker-classic.mmd").read_text(encoding="utf-8") == source
