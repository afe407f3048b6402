"""``baulkline adjudicate EVENTS.jsonl|- [--out CALLS.jsonl]``: referee an event log.

Reads input events line by line (``-`` is standard input, so a live pipeline can pipe into
it), validates each, feeds it to the pure reducer :func:`adjudicator.engine.step` and writes
the output events at once, one flushed JSON line each. A malformed line stops with a one-line
error naming the file and line number; everything decided before it is already written.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import IO


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``baulkline adjudicate``."""
    parser.add_argument("events", help="input event log (JSON Lines), or - for standard input")
    parser.add_argument("--out", type=Path, default=None, help="write the calls here instead of stdout")


def run(args: argparse.Namespace) -> int:
    """Referee the log; returns the exit status."""
    from adjudicator.engine import initial_state, step
    from adjudicator.eventlog import JsonlWriter, LogReader
    from calibration.errors import BaulklineError

    with ExitStack() as stack:
        source: IO[str]
        if args.events == "-":
            source, name = sys.stdin, "<stdin>"
        else:
            path = Path(args.events)
            try:
                source = stack.enter_context(path.open(encoding="utf-8"))
            except OSError as exc:
                raise BaulklineError(f"{path}: cannot read ({exc.strerror})") from None
            name = str(path)
        if args.out is not None:
            try:
                sink: IO[str] = stack.enter_context(args.out.open("w", encoding="utf-8"))
            except OSError as exc:
                raise BaulklineError(f"{args.out}: cannot write ({exc.strerror})") from None
        else:
            sink = sys.stdout
        writer = JsonlWriter(sink)
        reader = LogReader(name)
        state = initial_state()
        for line in source:
            event = reader.parse_line(line)
            if event is None:
                continue
            state, outs = step(state, event)
            for out in outs:
                writer.write(out)
    return 0
