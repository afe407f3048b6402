"""The ``baulkline`` command: one entry point, one subcommand per job.

Subcommands live in their own modules and are imported only when used, so ``baulkline
--help`` stays instant and a missing optional extra (training, simulation) only affects the
subcommand that needs it. Each module exposes ``add_arguments(parser)`` and ``run(args) ->
int``; heavy imports belong inside ``run``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from calibration.errors import BaulklineError


@dataclass(frozen=True)
class Subcommand:
    """A subcommand: its name, the module implementing it and its one-line summary."""

    name: str
    module: str
    summary: str


SUBCOMMANDS: tuple[Subcommand, ...] = (
    Subcommand("referee", "vision.referee_cli", "watch a video or camera and referee the frame live"),
    Subcommand("calibrate", "calibration.cli", "find the table homography from its markings"),
    Subcommand("detect", "vision.detect_cli", "detect and name the balls in one image"),
    Subcommand("track", "vision.track_cli", "track every ball through a video; write the event log"),
    Subcommand("adjudicate", "adjudicator.cli", "apply the Rules of Snooker to an event log"),
    Subcommand("validate", "adjudicator.validate_cli", "check an event log against the JSON Schema"),
    Subcommand("simulate", "vision.synthetic.cli", "render synthetic match footage with ground truth"),
    Subcommand("samples", "vision.synthetic.samples_cli", "regenerate the bundled sample videos"),
    Subcommand("train", "vision.train_cli", "train the ball detector and export it to ONNX"),
)


def _parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    parser = argparse.ArgumentParser(
        prog="baulkline",
        description="Baulkline: an automatic snooker referee watching a table through one camera.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    parsers = {}
    for cmd in SUBCOMMANDS:
        parsers[cmd.name] = sub.add_parser(cmd.name, help=cmd.summary, description=cmd.summary)
    return parser, parsers


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (also used by the console script)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser, parsers = _parser()
    name = next((a for a in args_list if not a.startswith("-")), None)
    chosen = next((c for c in SUBCOMMANDS if c.name == name), None)
    module = None
    if chosen is not None:
        try:
            module = importlib.import_module(chosen.module)
        except ModuleNotFoundError as exc:
            missing = exc.name
            print(f"baulkline {chosen.name}: not available (missing {missing})", file=sys.stderr)
            return 2
        module.add_arguments(parsers[chosen.name])
    args = parser.parse_args(args_list)
    if module is None:
        parser.print_help()
        return 0 if not args_list else 2
    label = f"baulkline {args.command}"
    try:
        status: int = module.run(args)
    except BaulklineError as exc:
        print(f"{label}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"{label}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    raise SystemExit(main())
