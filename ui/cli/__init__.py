"""The ``boardbank`` console script and its subcommands (``console`` dispatches to the others)."""

from ui.cli.console import main

__all__ = ["main"]
