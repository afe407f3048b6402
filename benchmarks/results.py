"""Shared writer for ``benchmarks/RESULTS.md``: each benchmark owns one marked section.

Several benchmarks write the same file; each replaces only the text between its own
``<!-- NAME:start -->`` and ``<!-- NAME:end -->`` markers, so re-running one never erases
another's figures.
"""

from __future__ import annotations

import datetime as _dt
import platform
import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
HEADER = "# Benchmark results\n\nEach section is written by the benchmark named in it.\n"


def machine() -> str:
    """A short description of the machine the figures come from."""
    import os

    return f"{os.cpu_count()}-core {platform.machine()} CPU, no GPU, Python {platform.python_version()}"


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
