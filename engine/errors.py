"""The engine's exception family: everything the engine raises on bad input derives from :class:`EngineError`.

Each concrete error also subclasses the built-in that fits it (``ValueError`` for a bad command, a bad
option, a broken edition file or a malformed record), so callers may catch either.
"""

from __future__ import annotations


class EngineError(Exception):
    """Root of the engine's exceptions."""


class IllegalCommand(EngineError, ValueError):
    """A command the rules refuse; the game is unchanged. The message says what was expected."""


class EditionError(EngineError, ValueError):
    """An edition file that cannot be loaded; the message names the file and the field."""


class OptionError(EngineError, ValueError):
    """An unknown rule option or a value of the wrong type or range."""


class RecordError(EngineError, ValueError):
    """A JSON record that is not a known event or command (journal import, corrupt data)."""


class LedgerError(EngineError, ValueError):
    """A transfer the ledger cannot post: a negative amount, an unknown account, a player's overdraft."""
