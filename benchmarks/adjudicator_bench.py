"""Benchmark of the referee: a 2,000-stroke log end to end, and the 22-ball snookered test.

Run ``python -m benchmarks.adjudicator_bench``. The log comes from
:mod:`adjudicator.loggen` (fixed seed); "end to end" is reading and validating every JSON line
plus the reducer, as ``baulkline adjudicate`` does (writing excluded). Figures are the best of
a few repeats, since this machine is shared.
"""

from __future__ import annotations

import json
import random
import time

from adjudicator import snookered as geo
from adjudicator.engine import adjudicate
from adjudicator.eventlog import read_events
from adjudicator.loggen import generate_log
from benchmarks.results import stamp, update_section
from calibration.table import TABLE


def _best(fn: object, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    """Measure, print and record the figures."""
    events, strokes = generate_log(random.Random(2022), 2000)
    lines = [json.dumps(e) for e in events]
    parsed = list(read_events(lines))
    outputs = list(adjudicate(parsed))
    end_to_end = _best(lambda: list(adjudicate(read_events(lines))), 3)
    engine_only = _best(lambda: list(adjudicate(parsed)), 3)

    pos = TABLE.standard_positions(15)
    reds = [v for k, v in pos.items() if k.startswith("red")]
    colours = [v for k, v in pos.items() if not k.startswith("red")]
    white = (1000.0, 1300.0)
    n = 2000
    snooker_ms = _best(lambda: [geo.snookered(white, reds, colours) for _ in range(n)], 3) / n * 1e3
    in_hand_ms = _best(lambda: geo.snookered_in_hand(reds, colours), 5) * 1e3
    corner_ms = (
        _best(lambda: geo.snookered_in_hand([(3500.0, 60.0)], [(3447.5, 60.0), (3500.0, 112.5)]), 5) * 1e3
    )
    calls = sum(1 for o in outputs if o["type"] == "call")

    text = (
        "## Adjudicator (issue 3)\n\n"
        + stamp("python -m benchmarks.adjudicator_bench")
        + "\n| measure | figure | requirement |\n|---|---|---|\n"
        + f"| {strokes}-stroke log ({len(lines)} events, {calls} calls), read + validate + referee "
        f"| {end_to_end:.3f} s | < 1 s |\n"
        + f"| same log, reducer only (events already parsed) | {engine_only:.3f} s | |\n"
        + f"| snookered test, 22 balls, white in play | {snooker_ms:.3f} ms | < 1 ms |\n"
        + f"| snookered from the D (in hand), 22 balls, open position | {in_hand_ms:.2f} ms | |\n"
        + f"| snookered from the D, red hidden in a corner (full D scan) | {corner_ms:.2f} ms | |\n"
    )
    print(text)
    update_section("adjudicator", text)


if __name__ == "__main__":
    main()
