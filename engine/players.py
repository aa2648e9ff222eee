"""The players of a ``StartGame``, checked the same way by every ruleset: how many, unique ids that are not
an account name (the Bank, a ruleset's pot), text for names and tokens, an integer seed."""

from __future__ import annotations

from collections.abc import Sequence

from engine.commands import PlayerSpec
from engine.errors import Refusal, refuse
from engine.ledger import BANK


def check_players(players: Sequence[PlayerSpec], max_players: int, seed: object, what: str,
                  reserved: tuple[str, ...] = (BANK,)) -> Refusal | None:
    """Why these players (and ``seed``) cannot start a game of at most ``max_players``, or None."""
    ids = [p.id for p in players]
    if not 2 <= len(ids) <= max_players:
        return refuse("bad_player_count",
                      f"{what}: expected 2..{max_players} players (option max_players), got {len(ids)}: {ids}",
                      command=what, min=2, max=max_players, count=len(ids), players=", ".join(map(str, ids)))
    if len(set(ids)) != len(ids):
        dup = next(pid for i, pid in enumerate(ids) if pid in ids[:i])
        return refuse("duplicate_players", f"{what}: expected unique player ids, got {ids}",
                      command=what, player=dup, players=", ".join(map(str, ids)))
    names = " and ".join(repr(r) for r in reserved)
    for spec in players:
        pid = spec.id
        if not isinstance(pid, str) or not pid.strip() or pid in reserved:
            return refuse("bad_player_id", f"{what}: expected a non-empty player id other than {names}, got {pid!r}",
                          command=what, player=pid, bank=BANK)
        if not isinstance(spec.name, str) or not isinstance(spec.token, str):
            return refuse("bad_player_text",
                          f"{what}: expected text for the name and token of {pid}, got {spec.name!r}, {spec.token!r}",
                          command=what, player=pid, name=spec.name, token=spec.token)
    if isinstance(seed, bool) or not isinstance(seed, int):
        return refuse("bad_seed", f"{what}: expected an integer seed, got {seed!r}", command=what, seed=seed)
    return None
