"""House rules you can see: estimates of what an option set does to a game, cached, computed in the background.

The setup screen asks :meth:`Estimates.request` for each option or preset it shows; the call never plays a
game: it returns the cached :class:`~engine.sim.compare.Estimate` at once, or None after handing the work to
one background process (``multiprocessing``'s ``spawn``: a fresh interpreter that imports the engine only,
never Kivy, at a lower priority, ``os.nice``; it exits when nothing is left to estimate, so the kiosk holds
its memory only while estimating). The screen calls :meth:`Estimates.poll` from its clock (e.g.
every 0.5 s): finished estimates are written to the cache and each request's ``on_ready(estimate)`` is called
there, in the caller's thread. Words for an estimate in four languages: ui/estimate_text.py.

The cache: one JSON file per estimate in ``<cache_dir>/estimates/`` (ui.paths.cache_dir()), named by the
SHA-256 of its key (edition id, players, the canonical option set: the values that differ from the defaults,
and the engine's version hash: the SHA-256 of engine/'s sources, so a changed rule never shows an old
estimate). Budget: :data:`BUDGET_S` seconds of one core per estimate (engine/sim/estimate.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Final

from engine.editions import load_edition
from engine.sim.compare import Estimate, canonical_options, check_settings
from ui.paths import cache_dir

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

BUDGET_S: Final = 8.0  # seconds of play per estimate: within the 10 s on one core, with the start
NICENESS: Final = 10  # the worker's os.nice increment: the UI's process always runs first
ENGINE_DIR: Final = Path(__file__).resolve().parent.parent / "engine"

log = logging.getLogger(__name__)
Key = tuple[str, int, tuple[tuple[str, int | bool], ...], str]
OnReady = Callable[[Estimate], None]


@cache
def engine_version() -> str:
    """The SHA-256 (hex, 16 digits) of every engine source and edition file, by path: a new rule, a changed
    bot or edition gives another version and so other cache files."""
    digest = hashlib.sha256()
    for path in sorted(ENGINE_DIR.rglob("*")):
        if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(ENGINE_DIR).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_key(edition: str, players: int, options: Mapping[str, int | bool]) -> Key:
    """The key of an estimate; ``options`` must be canonical (:func:`engine.sim.compare.canonical_options`)."""
    return edition, players, tuple(sorted(options.items())), engine_version()


def cache_file(key: Key, root: Path | None = None) -> Path:
    """Where the estimate of ``key`` is kept (``root``: default ``cache_dir()/estimates``)."""
    name = hashlib.sha256(json.dumps(key).encode()).hexdigest()[:32]
    return (root if root is not None else cache_dir() / "estimates") / f"{name}.json"


def read_cached(key: Key, root: Path | None = None) -> Estimate | None:
    """The cached estimate of ``key``, or None (missing, unreadable, or another key: a damaged file is left
    to be overwritten)."""
    try:
        data = json.loads(cache_file(key, root).read_text(encoding="utf-8"))
        if data.get("key") != json.loads(json.dumps(key)):
            return None
        return Estimate.from_dict(data["estimate"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def write_cached(key: Key, estimate: Estimate, root: Path | None = None) -> None:
    """Keep ``estimate`` under ``key`` (written whole: a temporary file renamed over the old one); a cache
    that cannot be written is logged and skipped (the estimate is computed again next time)."""
    path = cache_file(key, root)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"key": key, "estimate": estimate.as_dict()}), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        log.warning("cannot keep an estimate in %s: %s", path, exc)


def _lower_priority() -> None:
    """The worker's initializer: run after everything else on the unit."""
    with contextlib.suppress(OSError):  # a platform without nice
        os.nice(NICENESS)


def compute(edition: str, players: int, options: dict[str, int | bool], games: int | None,
            budget_s: float) -> dict[str, object]:
    """Run one estimate (in the worker): ``games`` paired games, or as many as ``budget_s`` seconds allow."""
    import time

    from engine.sim.estimate import estimate

    ed = load_edition(edition)
    if games is not None:
        return estimate(ed, players, options, games=games).as_dict()
    return estimate(ed, players, options, budget_s=budget_s, clock=time.perf_counter).as_dict()


class Estimates:
    """The setup screen's estimates: cached, computed one at a time in a background process.

    ``games`` fixes the paired games per estimate (tests); by default each takes :data:`BUDGET_S` seconds.
    ``root`` is the cache folder (default ``cache_dir()/estimates``). Call :meth:`close` when done.
    """

    def __init__(self, root: Path | None = None, *, games: int | None = None, budget_s: float = BUDGET_S) -> None:
        self.root = root
        self.games = games
        self.budget_s = budget_s
        self._memory: dict[Key, Estimate] = {}
        self._pending: dict[Key, Future[dict[str, object]]] = {}
        self._waiting: dict[Key, list[OnReady]] = {}
        self._pool: ProcessPoolExecutor | None = None

    def key(self, edition: str, players: int, options: Mapping[str, int | bool]) -> Key:
        """The cache key of these settings (raises ``OptionError`` for an unknown option or a bad value)."""
        return cache_key(edition, players, canonical_options(load_edition(edition), options))

    def request(self, edition: str, players: int, options: Mapping[str, int | bool],
                on_ready: OnReady | None = None) -> Estimate | None:
        """The estimate of ``options`` for ``players`` players of ``edition`` if known (memory, then the cache
        file), else None, the work started (once per key) and ``on_ready`` kept for :meth:`poll`. Plays no
        game here: a tap is never delayed by more than a small file's read. Settings that cannot be played
        raise at once (``OptionError``, ``SimError``), nothing started."""
        key = self.key(edition, players, options)
        check_settings(load_edition(edition), players, dict(key[2]))  # e.g. more players than max_players
        known = self._memory.get(key) or read_cached(key, self.root)
        if known is not None:
            self._memory[key] = known
            return known
        if on_ready is not None:
            self._waiting.setdefault(key, []).append(on_ready)
        if key not in self._pending:
            self._pending[key] = self._worker().submit(compute, key[0], key[1], dict(key[2]), self.games,
                                                       self.budget_s)
        return None

    def cancel_except(self, wanted: Iterable[tuple[str, int, Mapping[str, int | bool]]]) -> int:
        """Drop the queued estimates that are not ``wanted`` (edition, players, options), e.g. those of a
        players' count or a page of options the screen no longer shows: a slow unit then spends its core only
        on the lines shown. One already running, or already handed to the worker, finishes (and is cached).
        Returns how many were dropped."""
        keep = {self.key(*w) for w in wanted}
        dropped = 0
        for key, future in list(self._pending.items()):
            if key not in keep and future.cancel():
                del self._pending[key]
                self._waiting.pop(key, None)
                dropped += 1
        return dropped

    def pending(self) -> int:
        """Estimates asked for and not finished yet."""
        return len(self._pending)

    def poll(self) -> list[Estimate]:
        """Collect the finished estimates (never waits): cache them, call their ``on_ready``; returns them.
        An estimate that failed is logged and dropped (asked again, it is tried again)."""
        done: list[Estimate] = []
        for key, future in list(self._pending.items()):
            if not future.done():
                continue
            del self._pending[key]
            callbacks = self._waiting.pop(key, [])
            try:
                estimate = Estimate.from_dict(future.result())
            except Exception as exc:  # the worker's error, or a worker that died
                log.warning("the estimate of %s failed: %s", key, exc)
                self._pool = None if "broken" in type(exc).__name__.lower() else self._pool
                continue
            self._memory[key] = estimate
            write_cached(key, estimate, self.root)
            done.append(estimate)
            for callback in callbacks:
                callback(estimate)
        if not self._pending and self._pool is not None:
            self._pool.shutdown(wait=False)  # idle: the worker exits and its memory goes back to the unit
            self._pool = None
        return done

    def _worker(self) -> ProcessPoolExecutor:
        if self._pool is None:  # multiprocessing is imported only now: ~1.5 MiB the idle app does not hold
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_lower_priority)
        return self._pool

    def close(self) -> None:
        """Stop the worker (an estimate under way is abandoned; the cache keeps the finished ones)."""
        if self._pool is not None:
            workers = list((self._pool._processes or {}).values())  # no public way to stop one under way
            self._pool.shutdown(wait=False, cancel_futures=True)
            for process in workers:
                process.terminate()
                process.join(5)
            self._pool = None
        self._pending.clear()
        self._waiting.clear()
