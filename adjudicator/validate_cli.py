"""``baulkline validate FILE [--outputs] [--dump-schema]``: check a log against the contract.

Input logs are checked line by line with the same reader the referee uses (schema, ball names
of the frame, time order); ``--outputs`` checks a file of output events instead. The first
problem stops with a one-line error naming the line. ``--dump-schema`` prints the JSON Schema
(input, or output with ``--outputs``) and exits.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``baulkline validate``."""
    parser.add_argument("file", nargs="?", default=None, help="a JSON Lines log, or - for standard input")
    parser.add_argument("--outputs", action="store_true", help="the file holds output events (calls)")
    parser.add_argument("--dump-schema", action="store_true", help="print the JSON Schema and exit")


def run(args: argparse.Namespace) -> int:
    """Validate the file; returns the exit status."""
    from adjudicator.eventlog import LogReader, validate_output
    from adjudicator.schema import INPUT_SCHEMA, OUTPUT_SCHEMA
    from calibration.errors import BaulklineError

    if args.dump_schema:
        print(json.dumps(OUTPUT_SCHEMA if args.outputs else INPUT_SCHEMA, indent=2))
        return 0
    if args.file is None:
        raise BaulklineError("validate: give a FILE (or - for standard input), or --dump-schema")
    if args.file == "-":
        lines = sys.stdin
        name = "<stdin>"
    else:
        path = Path(args.file)
        try:
            lines = path.open(encoding="utf-8")
        except OSError as exc:
            raise BaulklineError(f"{path}: cannot read ({exc.strerror})") from None
        name = str(path)
    count = 0
    with lines:
        if args.outputs:
            for lineno, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise BaulklineError(f"{name}:{lineno}: not valid JSON ({exc.msg})") from None
                problem = validate_output(obj) if isinstance(obj, dict) else "an event must be a JSON object"
                if problem:
                    raise BaulklineError(
                        f"{name}:{lineno}: invalid {obj.get('type', 'event')} event: {problem}"
                    )
                count += 1
        else:
            reader = LogReader(name)
            for line in lines:
                if reader.parse_line(line) is not None:
                    count += 1
    kind = "output" if args.outputs else "input"
    print(f"{name}: {count} valid {kind} events")
    return 0
