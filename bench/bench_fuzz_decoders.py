"""Fuzz the two frame decoders: 100,000 random and damaged frames each (firmware_sim/fuzz.py).

Prints, per decoder, inputs per second, the decoder's verdicts (rejects by kind), exceptions escaped
and taps invented (a tap decoded from an input that does not hold that tap's intact frame). The bridge
protocol v2 (CRC-16) must invent none under any damage. The PN532's own frame checks are 8-bit sums
(UM0701-02 §6.2.1): they catch every single-byte damage and random garbage, but not two compensating
changes, so damaged PN532 answers can invent taps at the decoder; the figure is printed per damage
kind, and the run fails only if garbage or a single-byte flip invents one. (The ``pn532://`` driver
therefore reads a new card twice before reporting it: see reader/pn532.py.)

Run: ``.venv/bin/python bench/bench_fuzz_decoders.py [--frames N] [--seed S]``; exit status 1 on a failure.
"""

from __future__ import annotations

import argparse
import sys

from firmware_sim.fuzz import DAMAGE, fuzz_bridge, fuzz_bridge_v1, fuzz_pn532


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=100_000, help="inputs per decoder (default 100,000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    failures: list[str] = []
    bridge = fuzz_bridge(args.frames, args.seed)
    print("\n".join(bridge.lines()))
    if bridge.escaped or bridge.taps_invented:
        failures.append(f"bridge: {bridge.escaped} exceptions, {bridge.taps_invented} invented taps")
    v1 = fuzz_bridge_v1(args.frames, args.seed)
    print(f"{v1.decoder}: {v1.frames:,} TAP frames with one bit flipped in 2-3 bytes: "
          f"{v1.taps_invented} taken as another card")
    pn532 = fuzz_pn532(args.frames, args.seed)
    print("\n".join(pn532.lines()))
    strict = pn532.invented_by_damage["random"] + pn532.invented_by_damage["flip"]
    if pn532.escaped or strict:
        failures.append(f"pn532: {pn532.escaped} exceptions, {strict} taps from garbage or one flipped byte")
    print(f"damage kinds: {', '.join(DAMAGE)} (and random bytes: a quarter of the inputs)")
    for failure in failures:
        print(f"FAIL {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
