"""``boardbank`` killed by itself inside the commit of an input (for tests/e2e/killanywhere.py).

``BOARDBANK_TEST_KILL_COMMIT=WHERE:N:FIRST`` (WHERE ``before`` or ``after``): at the N-th input of this
process that commits a command (engine/store/writes.py ``Writes.finish`` with its transaction open) with an
input id ``L<k>``, k >= FIRST (lines resent after the last restart do not count), SIGKILL
itself right before the ``COMMIT`` (the commands and the record written into the transaction, not
committed) or right after it (committed, nothing answered yet): the windows a kill from outside hits only
by chance. Without the variable it is ``boardbank`` itself. Run: ``python tests/e2e/killchild.py headless ...``.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parents[2]))  # (after $PYTHONPATH: the checkout under test)


def _arm_old(where: str, target: int, first: int) -> None:
    """An older unit without engine/store/writes.py: killed right after the N-th commit of a command (its
    record not yet saved), the window its own kill bench never hit."""
    from engine.store import journal

    append, seen = journal.Journal.append, [0]

    def killing_append(self: journal.Journal, game_id: int, command: Any, events: Any, input_id: Any = None) -> None:
        append(self, game_id, command, events, input_id)
        number = (input_id or "")[1:]
        if number.isdigit() and int(number) >= first:
            seen[0] += 1
            if seen[0] == target:
                os.kill(os.getpid(), signal.SIGKILL)

    journal.Journal.append = killing_append  # type: ignore[method-assign]


def _arm(spec: str) -> None:
    try:
        from engine.store import journal, writes
    except ImportError:
        where, count, first = spec.split(":")
        _arm_old(where, int(count), int(first))
        return

    where, count, first = spec.split(":")
    target, seen, last_id = int(count), [0], [""]
    finish, append = writes.Writes.finish, journal.Journal.append

    def noting_append(self: journal.Journal, game_id: int, command: Any, events: Any, input_id: Any = None) -> None:
        last_id[0] = input_id or ""
        append(self, game_id, command, events, input_id)

    def killing_finish(self: writes.Writes, also: Any) -> bool:
        number = last_id[0][1:]
        if not self.open or not number.isdigit() or int(number) < int(first):
            return finish(self, also)
        seen[0] += 1
        if seen[0] == target and where == "before":
            if also is not None:
                also(self.conn)
            os.kill(os.getpid(), signal.SIGKILL)
        done = finish(self, also)
        if seen[0] == target:
            os.kill(os.getpid(), signal.SIGKILL)
        return done

    writes.Writes.finish = killing_finish  # type: ignore[method-assign]
    journal.Journal.append = noting_append  # type: ignore[method-assign]


if __name__ == "__main__":
    spec = os.environ.pop("BOARDBANK_TEST_KILL_COMMIT", "")
    if spec:
        _arm(spec)
    from ui.cli.console import main

    raise SystemExit(main(sys.argv[1:]))
