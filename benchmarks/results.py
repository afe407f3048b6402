"""Shared writer for ``benchmarks/RESULTS.md``: each benchmark owns one marked section.

Several benchmarks write the same file; each replaces only the text between its own
``<!-- NAME:start -->`` and ``<!-- NAME:end -->`` markers, so re-running one never erases
another's figures.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import multiprocessing
import platform
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

_In = TypeVar("_In")
_Out = TypeVar("_Out")

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
HEADER = "# Benchmark results\n\nEach section is written by the benchmark named in it.\n"


def machine() -> str:
    """A short description of the machine the figures come from.

    ``BAULKLINE_MACHINE`` names a machine the CPU count does not tell apart (a lent
    many-core box whose accelerator the benchmark leaves unused), so its figures are never
    taken for this one's.
    """
    import os

    named = os.environ.get("BAULKLINE_MACHINE")
    cpu = f"{os.cpu_count()}-core {platform.machine()} CPU"
    return f"{named + ': ' if named else ''}{cpu}, no GPU, Python {platform.python_version()}"


def stamp(command: str) -> str:
    """The line every section starts with: date, machine and the command that reproduces it."""
    today = _dt.date.today().isoformat()
    return f"*{today} on {machine()}; reproduce with `{command}`*\n"


def update_section(name: str, markdown: str, path: Path = RESULTS) -> None:
    """Replace (or append) the section ``name`` of the results file with ``markdown``."""
    text = path.read_text() if path.exists() else HEADER
    block = f"<!-- {name}:start -->\n{markdown.rstrip()}\n<!-- {name}:end -->"
    pattern = re.compile(rf"<!-- {re.escape(name)}:start -->.*?<!-- {re.escape(name)}:end -->", re.S)
    text = (
        pattern.sub(lambda _: block, text) if pattern.search(text) else text.rstrip() + "\n\n" + block + "\n"
    )
    path.write_text(text)


def benchmark_parser(doc: str | None) -> argparse.ArgumentParser:
    """The command line every benchmark starts from: its docstring's first line as the
    description and ``--no-write`` (print the figures, leave RESULTS.md alone), so a trial
    run never overwrites the recorded figures."""
    parser = argparse.ArgumentParser(description=doc.strip().splitlines()[0] if doc else None)
    parser.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    return parser


def publish(name: str, markdown: str, write: bool = True, path: Path = RESULTS) -> None:
    """Print a benchmark's section and, when ``write``, make it the section ``name`` of the
    results file (:func:`update_section`)."""
    print(markdown)
    if write:
        update_section(name, markdown, path)


def in_processes(
    fn: Callable[[_In], _Out], items: Iterable[_In], jobs: int, per_process: int
) -> Iterator[_Out]:
    """``fn`` of each item, in the items' order, ``jobs`` processes side by side.

    Why processes: a clip's pipeline is one Python thread (the GIL), so a many-core machine
    runs a set of a hundred clips in minutes only with a process per core. Each result is
    yielded as soon as it and those before it are done; ``per_process`` items are worked
    before a process is replaced (its caches and memory released). A clip's frames/s is
    measured under the others' load.
    """
    if jobs <= 1:
        yield from map(fn, items)
        return
    with multiprocessing.get_context("fork").Pool(jobs, maxtasksperchild=per_process) as pool:
        yield from pool.imap(fn, items, chunksize=1)
