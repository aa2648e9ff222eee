"""Share benchmark (prints numbers; not a test): the tap path with 20 phones on the live page vs sharing off.

* tap -> journal: the banker with its journal on disk (bench/bench_banker.py's gestures), each gesture
  timed from its first input to the reaction with its events committed, plus the hand-over to the share
  (``Share.publish_reaction``) when sharing; blocks of gestures alternate sharing off / on (the server
  idle, nothing published) so the machine's load drifts the same for both. p50/p99 in microseconds.
* reader event -> frame: bench/bench_ui.py's child (the touch app at 800x480, mock reader taps from a
  reader thread, each frame finished by the GPU) once with sharing off and once with ``--share`` on loopback
  and 20 phones reading the stream. p50/p99 in milliseconds.
* phone latency: the journal's commit (the reaction returned) -> the event received by each phone.

The phones are another process (``--phones URL N``: N Server-Sent Events streams through aiohttp's
client), as phones are other devices. Need: both p99 within 10 % of sharing off (``BENCH_STRICT=1``
makes a miss exit 1), the phones' p99 under 200 ms. Only loopback addresses are used.
Usage: ``SDL_VIDEODRIVER=offscreen python bench/bench_share.py [--gestures N] [--phones-count N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
BLOCK = 50  # gestures per block (sharing off and on alternate)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the phones (a process of their own) ---------------------------------------------------------------
async def _phones(url: str, count: int) -> None:
    import aiohttp

    received: dict[int, float] = {}
    connected = 0
    done = asyncio.Event()

    async def phone(index: int, first: bool) -> None:
        nonlocal connected
        # each phone a device of its own (a loopback address): the share lets one device hold 16 connections
        connector = aiohttp.TCPConnector(local_addr=(f"127.0.0.{10 + index}", 0))
        async with aiohttp.ClientSession(connector=connector) as session, \
                session.get(url, timeout=aiohttp.ClientTimeout(total=None)) as response:
            assert response.status == 200, response.status
            connected += 1
            if connected == count:
                print("PHONES connected", flush=True)
            if not first:  # the others only read (cheaply: this process shares the machine with the unit)
                async for _chunk in response.content.iter_any():
                    if done.is_set():
                        return
                return
            async for line in response.content:
                if line.startswith(b"id: "):
                    received.setdefault(int(line[4:]), time.time())
                if done.is_set():
                    return

    tasks = [asyncio.create_task(phone(i, i == 0)) for i in range(count)]
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    done.set()
    for task in tasks:
        task.cancel()
    print("RECEIVED " + json.dumps(received), flush=True)


class Phones:
    """``count`` phones on ``url``'s event stream in a child process."""

    def __init__(self, url: str, count: int) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__, "--phones", url + "events", str(count)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line.startswith("PHONES connected"), line

    def close(self) -> dict[int, float]:
        out, _ = self.proc.communicate("", timeout=60)
        lines = [x for x in out.splitlines() if x.startswith("RECEIVED ")]
        return {int(k): v for k, v in json.loads(lines[-1][9:]).items()} if lines else {}


# -- tap -> journal ------------------------------------------------------------------------------------
def tap_to_journal(gestures: int, phones: int, gap_s: float) -> dict[str, object]:
    from bench_banker import ROUND, _banker

    from engine.store.gamestore import JournalStore
    from engine.store.journal import Journal
    from ui.share.address import Address
    from ui.share.share import Share

    results: dict[str, list[float]] = {"off": [], "on": [], "publish": []}
    committed: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal.open(Path(tmp) / "bench.sqlite3")
        banker = _banker(JournalStore(journal))
        share = Share(Address("127.0.0.1", 0)).start(banker)
        crowd = Phones(share.url, phones)
        for i in range(gestures):
            sharing = (i // BLOCK) % 2 == 1
            _name, inputs, _cmd = ROUND[i % len(ROUND)]
            calls = {"tap": banker.tap, "press": banker.press}
            t0 = time.perf_counter_ns()
            for verb, arg in inputs:
                reaction = calls[verb](arg)
                if sharing:
                    p0 = time.perf_counter_ns()
                    share.publish_reaction(banker, reaction)
                    results["publish"].append((time.perf_counter_ns() - p0) / 1000)
            results["on" if sharing else "off"].append((time.perf_counter_ns() - t0) / 1000)
            if sharing:
                for event in reaction.events:
                    committed[event.seq] = time.time()
            assert reaction.error is None and reaction.events
            if gap_s:
                time.sleep(gap_s)
        time.sleep(1.0)
        received = crowd.close()
        share.stop()
        journal.close()
    delays = [(received[s] - t) * 1000 for s, t in committed.items() if s in received]
    return {k: {"p50": _pct(v, 0.5), "p99": _pct(v, 0.99)} for k, v in results.items()} | {
        "phone_ms": {"p50": _pct(delays, 0.5), "p99": _pct(delays, 0.99), "seen": len(delays),
                     "sent": len(committed)}}


# -- reader event -> frame -----------------------------------------------------------------------------
def ui_child(t0: float, phones: int) -> None:
    """bench_ui's child; with sharing (``BOARDBANK_SHARE`` set) the app follows the share as ``boardbank
    run --share`` does, and waits for ``phones`` phones before it measures."""
    import bench_ui

    import ui.touch.screens.root as root

    base = root.BoardBankApp
    crowd: list[Phones] = []

    class SharingApp(base):  # type: ignore[misc, valid-type]
        def __init__(self, session: object = None, **kwargs: object) -> None:
            super().__init__(session=session, **kwargs)
            share = getattr(session, "share", None)
            if share is not None:
                from ui.touch.share_hook import follow

                follow(self, share, session.banker)  # type: ignore[attr-defined]
                crowd.append(Phones(share.url, phones))

    root.BoardBankApp = SharingApp  # type: ignore[misc]
    bench_ui.child(t0)
    for c in crowd:
        c.close()


def reader_to_frame(phones: int) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for label, extra in (("off", {}), ("on", {"BOARDBANK_SHARE": "127.0.0.1:0"})):
        env = {**os.environ, "SDL_VIDEODRIVER": os.environ.get("SDL_VIDEODRIVER", "offscreen"), "KIVY_WINDOW": "sdl2",
               "KIVY_NO_ARGS": "1", "KIVY_LOG_MODE": "PYTHON", "KIVY_NO_FILELOG": "1",
               "KIVY_HOME": tempfile.mkdtemp(prefix="bench-share-kivy-"), **extra}
        env.pop("BOARDBANK_SHARE", None) if not extra else None
        done = subprocess.run([sys.executable, __file__, "--ui-child", repr(time.time()), str(phones)], env=env,
                              capture_output=True, text=True, timeout=600, check=False)
        lines = [x for x in done.stdout.splitlines() if x.startswith("BENCH ")]
        if not lines:
            raise SystemExit(f"the UI child failed: {done.stderr[-3000:]}")
        result = json.loads(lines[-1][6:])
        ms = result["completed_ms"]
        out[label] = {"p50": _pct(ms, 0.5), "p99": _pct(ms, 0.99), "load": result["load"], "rss": result["rss_mb"]}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gestures", type=int, default=2000)
    parser.add_argument("--phones-count", type=int, default=20)
    parser.add_argument("--gap-ms", type=float, default=20.0,
                        help="pause between gestures (a table taps a few times a second at most; 0: back to back)")
    parser.add_argument("--phones", nargs=2, metavar=("URL", "N"), help=argparse.SUPPRESS)
    parser.add_argument("--ui-child", nargs=2, metavar=("T0", "N"), help=argparse.SUPPRESS)
    parser.add_argument("--skip-ui", action="store_true", help="only the banker's tap -> journal")
    args = parser.parse_args()
    if args.phones:
        asyncio.run(_phones(args.phones[0], int(args.phones[1])))
        return 0
    if args.ui_child:
        ui_child(float(args.ui_child[0]), int(args.ui_child[1]))
        return 0
    n = args.phones_count
    tj = tap_to_journal(args.gestures, n, args.gap_ms / 1000)
    off, on, phone = tj["off"], tj["on"], tj["phone_ms"]  # type: ignore[index]
    ok_tap = on["p99"] <= off["p99"] * 1.10  # type: ignore[index]
    print(f"tap -> journal, {args.gestures} gestures {args.gap_ms:g} ms apart in blocks of {BLOCK}: sharing off p50 {off['p50']:.0f} us, "  # type: ignore[index]
          f"p99 {off['p99']:.0f} us; sharing on with {n} phones p50 {on['p50']:.0f} us, p99 {on['p99']:.0f} us "  # type: ignore[index]
          f"({(on['p99'] / off['p99'] - 1) * 100:+.1f} %, need within 10 %) {'OK' if ok_tap else 'TOO SLOW'}")  # type: ignore[index]
    pub = tj["publish"]  # type: ignore[index]
    print(f"  of which the hand-over to the share (Share.publish_reaction on the banker's thread): "
          f"p50 {pub['p50']:.1f} us, p99 {pub['p99']:.1f} us")  # type: ignore[index]
    print(f"journal commit -> phone: p50 {phone['p50']:.1f} ms, p99 {phone['p99']:.1f} ms, "  # type: ignore[index]
          f"{phone['seen']}/{phone['sent']} events seen (need p99 < 200 ms) "  # type: ignore[index]
          f"{'OK' if phone['p99'] < 200 else 'TOO SLOW'}")  # type: ignore[index]
    ok_ui = True
    if not args.skip_ui:
        ui = reader_to_frame(n)
        ok_ui = ui["on"]["p99"] <= ui["off"]["p99"] * 1.10
        print(f"reader event -> frame: sharing off p50 {ui['off']['p50']:.1f} ms, p99 {ui['off']['p99']:.1f} ms "
              f"(load {ui['off']['load']:.1f}); sharing on with {n} phones p50 {ui['on']['p50']:.1f} ms, "
              f"p99 {ui['on']['p99']:.1f} ms (load {ui['on']['load']:.1f}) "
              f"({(ui['on']['p99'] / ui['off']['p99'] - 1) * 100:+.1f} %, need within 10 %) "
              f"{'OK' if ok_ui else 'TOO SLOW'}; RSS {ui['off']['rss']:.0f} -> {ui['on']['rss']:.0f} MiB")
    print(f"(machine load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return 1 if os.environ.get("BENCH_STRICT") == "1" and not (ok_tap and ok_ui) else 0


if __name__ == "__main__":
    sys.exit(main())
