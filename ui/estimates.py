"""House rules you can see: estimates of what an option set does to a game, cached, computed in the background.

The setup screen asks :meth:`Estimates.request` for each option or preset it shows; the call never plays a
game: it returns the cached :class:`~engine.sim.compare.Estimate` at once, or None after handing the work to
one background process (a plain child, ``python -m ui.estimates``: a fresh interpreter that imports the
engine only, never Kivy, at a lower priority, ``os.nice``; it reads one request a line of JSON on its stdin
and writes each estimate a line of JSON on its stdout, and exits at the end of its stdin, which the app
closes when nothing is left to estimate, so the kiosk holds its memory only while estimating; the app
imports no ``multiprocessing`` and keeps no thread for it). The screen calls :meth:`Estimates.poll` from its clock (e.g.
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
import sys
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Final

from engine.editions import load_edition
from engine.sim.compare import Estimate, canonical_options, check_settings
from ui.paths import cache_dir

if TYPE_CHECKING:
    import subprocess

BUDGET_S: Final = 8.0  # seconds of play per estimate: within the 10 s on one core, with the start
NICENESS: Final = 10  # the worker's os.nice increment: the UI's process always runs first
ROOT: Final = Path(__file__).resolve().parent.parent
ENGINE_DIR: Final = ROOT / "engine"

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
    Requests wait in the app in their order; the worker is handed one at a time, the next once it answered.
    """

    def __init__(self, root: Path | None = None, *, games: int | None = None, budget_s: float = BUDGET_S) -> None:
        self.root = root
        self.games = games
        self.budget_s = budget_s
        self._memory: dict[Key, Estimate] = {}
        self._pending: dict[Key, Future[dict[str, object]]] = {}
        self._waiting: dict[Key, list[OnReady]] = {}
        self._queue: list[Key] = []  # asked for, not yet handed to the worker
        self._running: Key | None = None  # handed to the worker, its answer not read yet
        self._proc: subprocess.Popen[bytes] | None = None
        self._out = b""  # the worker's answer read so far (a line of JSON may come in pieces)
        self._leaving: list[subprocess.Popen[bytes]] = []  # workers told to stop (their stdin closed)

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
            self._pending[key] = Future()
            self._queue.append(key)
            self._feed()
        return None

    def cancel_except(self, wanted: Iterable[tuple[str, int, Mapping[str, int | bool]]]) -> int:
        """Drop the queued estimates that are not ``wanted`` (edition, players, options), e.g. those of a
        players' count or a page of options the screen no longer shows: a slow unit then spends its core only
        on the lines shown. One already handed to the worker finishes (and is cached).
        Returns how many were dropped."""
        keep = {self.key(*w) for w in wanted}
        dropped = 0
        for key, future in list(self._pending.items()):
            if key not in keep and future.cancel():
                del self._pending[key]
                self._waiting.pop(key, None)
                if key in self._queue:
                    self._queue.remove(key)
                dropped += 1
        return dropped

    def pending(self) -> int:
        """Estimates asked for and not finished yet."""
        return len(self._pending)

    def poll(self) -> list[Estimate]:
        """Collect the finished estimates (never waits): cache them, call their ``on_ready``; returns them.
        An estimate that failed is logged and dropped (asked again, it is tried again)."""
        self._read()
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
                continue
            self._memory[key] = estimate
            write_cached(key, estimate, self.root)
            done.append(estimate)
            for callback in callbacks:
                callback(estimate)
        self._feed()
        self._leaving = [proc for proc in self._leaving if proc.poll() is None]
        return done

    def _feed(self) -> None:
        """Hand the next queued estimate to the worker (started if need be) when it has none; with nothing
        left to estimate, close the worker's stdin: it exits and its memory goes back to the unit."""
        if self._running is not None:
            return
        if not self._queue:
            if self._proc is not None:
                self._stop_worker()
            return
        key = self._queue.pop(0)
        future = self._pending[key]
        if not future.set_running_or_notify_cancel():  # cancelled meanwhile
            self._feed()
            return
        proc = self._proc or self._start_worker()
        line = json.dumps({"edition": key[0], "players": key[1], "options": dict(key[2]), "games": self.games,
                           "budget_s": self.budget_s}) + "\n"
        try:
            assert proc.stdin is not None
            proc.stdin.write(line.encode())
            proc.stdin.flush()
        except OSError as exc:  # the worker died
            future.set_exception(RuntimeError(f"the estimates worker went away: {exc}"))
            self._stop_worker()
            return
        self._running = key

    def _read(self) -> None:
        """Read what the worker wrote so far (never waits): its answer settles the running estimate's
        future; a worker that exited fails it and those queued (asked again, they are tried again)."""
        proc = self._proc
        if proc is None or proc.stdout is None:
            return
        try:
            while chunk := os.read(proc.stdout.fileno(), 65536):
                self._out += chunk
        except BlockingIOError:
            chunk = b"?"  # nothing more for now; the worker is alive
        while b"\n" in self._out and self._running is not None:
            line, self._out = self._out.split(b"\n", 1)
            future = self._pending.get(self._running)
            self._running = None
            if future is None:
                continue
            try:
                answer = json.loads(line)
                if "error" in answer:
                    future.set_exception(RuntimeError(answer["error"]))
                else:
                    future.set_result(answer["estimate"])
            except (ValueError, KeyError, TypeError) as exc:
                future.set_exception(RuntimeError(f"the estimates worker's answer is not one: {exc}"))
        if not chunk:  # the end of its output: the worker exited
            code = proc.wait()
            for key in [*([self._running] if self._running is not None else []), *self._queue]:
                future = self._pending.get(key)
                if future is not None and (future.running() or future.set_running_or_notify_cancel()):
                    future.set_exception(RuntimeError(f"the estimates worker exited (code {code})"))
            self._queue.clear()
            self._running = None
            self._proc = None
            self._out = b""

    def _start_worker(self) -> subprocess.Popen[bytes]:
        import subprocess  # with the first estimate: the app may not have it yet

        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
        proc = subprocess.Popen([sys.executable, "-m", "ui.estimates"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, env=env)
        assert proc.stdout is not None
        os.set_blocking(proc.stdout.fileno(), False)
        self._proc, self._out = proc, b""
        return proc

    def _stop_worker(self) -> None:
        proc, self._proc, self._running, self._out = self._proc, None, None, b""
        if proc is not None:
            with contextlib.suppress(OSError):
                assert proc.stdin is not None
                proc.stdin.close()
            self._leaving.append(proc)

    def close(self) -> None:
        """Stop the worker (an estimate under way is abandoned; the cache keeps the finished ones)."""
        procs = [*([self._proc] if self._proc is not None else []), *self._leaving]
        self._stop_worker()
        for proc in procs:
            import subprocess  # imported already: a worker was started

            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(5)
            for pipe in (proc.stdin, proc.stdout):
                if pipe is not None:
                    pipe.close()
        self._leaving = []
        for future in self._pending.values():
            future.cancel()
        self._pending.clear()
        self._waiting.clear()
        self._queue.clear()


def _lower_priority() -> None:
    """The worker runs after everything else on the unit."""
    with contextlib.suppress(OSError):  # a platform without nice
        os.nice(NICENESS)


def main() -> None:
    """The worker (``python -m ui.estimates``): for each line of JSON on stdin (edition, players, options,
    games, budget_s), one line on stdout: ``{"estimate": ...}`` or ``{"error": "..."}``; exits at the end of
    stdin. What the engine might print goes to stderr, so stdout carries only the answers."""
    _lower_priority()
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    try:
        for line in sys.stdin:
            try:
                asked = json.loads(line)
                answer: dict[str, object] = {"estimate": compute(asked["edition"], asked["players"],
                                                                 asked["options"], asked["games"],
                                                                 asked["budget_s"])}
            except Exception as exc:  # said to the app, which logs it; the worker goes on
                answer = {"error": f"{type(exc).__name__}: {exc}"}
            answers.write(json.dumps(answer) + "\n")
            answers.flush()
    except (KeyboardInterrupt, BrokenPipeError):  # the app stopped
        pass


if __name__ == "__main__":
    main()
