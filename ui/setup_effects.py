"""The setup screen's effect lines: which estimate each option row shows, and its words (no Kivy here).

Each rule option (a preset too) shows what it does to a game of the players' count chosen so far, against the
edition's defaults: a yes/no option its value other than the default ("the jackpot on"; for an option on by
default, turning it off), a whole-number option its current value when that differs from the default (at the
default there is nothing to say). Estimates come from :class:`ui.estimates.Estimates` (cached; computed in a
background process); the screen (ui/touch/screens/setup.py) asks through :class:`EffectLines`, which never
plays a game in the caller: a request is a dictionary and a small file's read.

Not estimated: ``max_players`` (who may sit, not how a game goes) and ``positions`` (who moves the tokens).
The players' count: the bank cards tapped so far (2..), or before any the ``max_players`` in force, within
2 and the edition's default ``max_players`` (the simulator's baseline is the defaults, which refuse more).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

from engine.editions import load_edition
from engine.errors import OptionError
from ui.i18n import Translator

if TYPE_CHECKING:  # engine.sim is imported on the setup screen's first line, not with the app (a resumed game)
    from engine.sim.compare import Estimate

NOT_ESTIMATED: frozenset[str] = frozenset({"max_players", "positions"})
"""Options whose rows show no effect line: not rules of how a game goes."""
SEPARATOR = "\n"
"""Between two effects of one row: each on its own line under the option."""


class Estimator(Protocol):
    """What :class:`EffectLines` needs of :class:`ui.estimates.Estimates` (tests inject a fast stub)."""

    def request(self, edition: str, players: int, options: Mapping[str, int | bool],
                on_ready: Callable[[Estimate], None] | None = None) -> Estimate | None: ...

    def pending(self) -> int: ...

    def cancel_except(self, wanted: Iterable[tuple[str, int, Mapping[str, int | bool]]]) -> int: ...

    def poll(self) -> list[Estimate]: ...

    def close(self) -> None: ...


def variant_of(edition_id: str, name: str, value: object) -> dict[str, int | bool] | None:
    """The option set row ``name`` (showing ``value``) is estimated with, canonical (a preset: the values it
    sets), or None: an option not estimated, a number at its default, an option the edition does not know."""
    if name in NOT_ESTIMATED or not isinstance(value, bool | int):
        return None
    from engine.sim.compare import canonical_options

    edition = load_edition(edition_id)
    try:
        if isinstance(value, bool):
            on = canonical_options(edition, {name: True})
            return on or canonical_options(edition, {name: False}) or None
        return canonical_options(edition, {name: value}) or None
    except OptionError:
        return None


def default_max_players(edition_id: str) -> int:
    """The edition's default ``max_players`` (8 when its ruleset has no such option)."""
    from engine.rulesets.registry import ruleset_of

    value = ruleset_of(load_edition(edition_id)).options().as_dict().get("max_players", 8)
    return value if isinstance(value, int) and not isinstance(value, bool) else 8


def players_for(seated: int, max_players: int, ceiling: int) -> int:
    """The players' count estimates are for: ``seated`` once two or more are (one seated: 2), else
    ``max_players``; within 2..``ceiling``."""
    count = seated if seated >= 2 else 2 if seated == 1 else max_players
    return max(2, min(count, ceiling))


class EffectLines:
    """The words of each option row's estimate, through one :class:`Estimator` made on first use.

    :meth:`line` asks for one row (never waits); :meth:`tick` (the screen's clock, every ~0.5 s) collects
    finished estimates and returns True when a row's words may have changed; :meth:`close` stops the
    worker. ``factory`` makes the estimator (None: no effect lines at all)."""

    def __init__(self, factory: Callable[[], Estimator] | None) -> None:
        self.factory = factory
        self.estimator: Estimator | None = None
        self.asked: list[tuple[str, int, dict[str, int | bool]]] = []  # the rows' estimates since begin()

    def begin(self) -> None:
        """A render of the rows starts: :meth:`end` drops what it did not ask for."""
        self.asked = []

    def end(self) -> None:
        """A render of the rows ended: estimates queued for other rows or another players' count are dropped
        (one being computed finishes and is cached)."""
        if self.estimator is not None and self.estimator.pending():
            self.estimator.cancel_except(self.asked)

    def line(self, edition_id: str, players: int, name: str, value: object, tr: Translator, lang: str,
             money: Callable[[int], str] = str) -> str:
        """Row ``name``'s effect lines: its effects joined by :data:`SEPARATOR`, "no clear change", "estimating…"
        while the estimate runs, or "" (nothing to estimate, or settings the simulator refuses)."""
        variant = variant_of(edition_id, name, value)
        if variant is None or self.factory is None:
            return ""
        from engine.sim.results import SimError
        from ui.estimate_text import effect_lines, pending_text

        if self.estimator is None:
            self.estimator = self.factory()
        self.asked.append((edition_id, players, variant))
        try:
            estimate = self.estimator.request(edition_id, players, variant)
        except (OptionError, SimError):
            return ""
        if estimate is None:
            return pending_text(tr, lang)
        return SEPARATOR.join(effect_lines(estimate, tr, lang, money))

    def busy(self) -> bool:
        """Whether an estimate is being computed."""
        return self.estimator is not None and self.estimator.pending() > 0

    def tick(self) -> bool:
        """Collect finished estimates (nothing when idle); True when one arrived (the rows' words change)."""
        if not self.busy():
            return False
        assert self.estimator is not None
        return bool(self.estimator.poll())

    def close(self) -> None:
        """Stop the worker (the screen is left: the game started); a later :meth:`line` starts another."""
        if self.estimator is not None:
            self.estimator.close()
            self.estimator = None
