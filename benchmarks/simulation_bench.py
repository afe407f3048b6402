"""Shot-simulation speed: pooltool's JIT start-up, strokes per second (dense, as rendered, and
sparse, as the outcome searches judge candidates), scenario planning time (search, simulation
and the referee's dry runs).

Run ``python -m benchmarks.simulation_bench`` (add ``--cold`` to measure the JIT with an
empty numba cache, about 40-50 s). Writes the ``simulation`` section of RESULTS.md.
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
import time


def main(argv: list[str] | None = None) -> int:
    """Measure and write the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cold", action="store_true", help="compile with an empty numba cache")
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args(argv)
    if args.cold:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-cold-")

    from benchmarks.results import stamp, update_section
    from calibration.table import TABLE, Colour
    from vision.synthetic.physics import CueStroke, simulate_shot
    from vision.synthetic.scenarios import SCENARIOS, simulate_sequence

    rack = TABLE.standard_positions(15, white=True)
    w, r = rack["white"], rack["red15"]
    brk = CueStroke(math.atan2(r[1] - w[1] + 40.0, r[0] - w[0]), 7.0, side=-0.2)
    t0 = time.perf_counter()
    simulate_shot(rack, brk)
    first = time.perf_counter() - t0

    def timed(
        positions: dict[str, tuple[float, float]], stroke: CueStroke, dense: bool = True
    ) -> tuple[float, float]:
        t = time.perf_counter()
        res = simulate_shot(positions, stroke, dense=dense)
        return time.perf_counter() - t, res.duration

    breaks = [timed(rack, brk) for _ in range(args.repeats)]
    sparse_breaks = [timed(rack, brk, dense=False) for _ in range(args.repeats)]
    single = {"white": (800.0, 600.0), "red1": (2000.0, 1200.0), "blue": TABLE.spots[Colour.BLUE]}
    pot = CueStroke(math.atan2(1200.0 - 600.0, 2000.0 - 800.0), 2.0)
    singles = [timed(single, pot) for _ in range(args.repeats)]
    sparse_singles = [timed(single, pot, dense=False) for _ in range(args.repeats)]
    scen = {}
    for name in SCENARIOS:
        t = time.perf_counter()
        simulate_sequence(name, seed=0)
        scen[name] = time.perf_counter() - t

    def rate(xs: list[tuple[float, float]]) -> str:
        wall = sum(x for x, _ in xs) / len(xs)
        sim = sum(d for _, d in xs) / len(xs)
        return f"{wall * 1000:.0f} ms per stroke ({1 / wall:.1f} strokes/s) for {sim:.1f} s of motion"

    cache = "empty numba cache (cold JIT)" if args.cold else "warm numba cache in .cache/numba"
    lines = [
        "## Shot simulation (pooltool 0.6.0)",
        "",
        stamp("python -m benchmarks.simulation_bench" + (" --cold" if args.cold else "")),
        f"- first stroke of the process ({cache}): {first:.1f} s",
        f"- break-off, 22 balls, 1 ms sampling and overlap check: {rate(breaks)}",
        f"- the same break-off, sparse (start and rest only, as searches judge it): {rate(sparse_breaks)}",
        f"- a three-ball stroke: {rate(singles)}",
        f"- the same three-ball stroke, sparse: {rate(sparse_singles)}",
        "- whole scenarios (search + simulation + Timeline), seed 0:",
        *(f"  - `{n}`: {s:.2f} s" for n, s in scen.items()),
    ]
    text = "\n".join(lines)
    print(text)
    update_section("simulation", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
