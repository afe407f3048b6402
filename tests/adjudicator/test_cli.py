"""``baulkline adjudicate`` and ``baulkline validate`` through the real entry point."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from vision.cli import main

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def test_adjudicate_writes_the_scenario_calls(tmp_path: Path) -> None:
    out = tmp_path / "calls.jsonl"
    assert main(["adjudicate", str(SCENARIOS / "red_then_colour.events.jsonl"), "--out", str(out)]) == 0
    got = [json.loads(line) for line in out.read_text().splitlines()]
    want = [json.loads(line) for line in (SCENARIOS / "red_then_colour.calls.jsonl").read_text().splitlines()]
    assert got == want


def test_malformed_line_stops_with_its_number_and_keeps_what_was_written(tmp_path: Path, capsys) -> None:
    lines = (SCENARIOS / "red_then_colour.events.jsonl").read_text().splitlines()
    bad = [*lines[:8], '{"type": "pot", "t": 99.0, "ball": "red1"}', *lines[8:]]
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join(bad) + "\n")
    out = tmp_path / "calls.jsonl"
    assert main(["adjudicate", str(log), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{log}:9:" in err and "pocket" in err
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert written and written[0]["type"] == "score"  # the first stroke's score survived


def test_stdin_streams_to_stdout(monkeypatch, capsys) -> None:
    text = (SCENARIOS / "in_off.events.jsonl").read_text()
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["adjudicate", "-"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert json.loads(lines[0])["call"] == "FOUL"


def test_streams_line_by_line_through_a_pipe() -> None:
    """A live pipeline: the call of the first stroke comes out before the input is closed."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "vision.cli", "adjudicate", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.stdin is not None and proc.stdout is not None
    for line in (SCENARIOS / "in_off.events.jsonl").read_text().splitlines():
        proc.stdin.write(line + "\n")
    proc.stdin.flush()
    first = json.loads(proc.stdout.readline())
    proc.stdin.close()
    proc.wait(timeout=30)
    assert first["call"] == "FOUL" and proc.returncode == 0


@pytest.mark.parametrize("outputs", [False, True])
def test_validate(outputs: bool, capsys) -> None:
    name = "red_then_colour.calls.jsonl" if outputs else "red_then_colour.events.jsonl"
    args = ["validate", str(SCENARIOS / name)] + (["--outputs"] if outputs else [])
    assert main(args) == 0
    assert "valid" in capsys.readouterr().out


def test_validate_reports_the_line(tmp_path: Path, capsys) -> None:
    log = tmp_path / "calls.jsonl"
    log.write_text('{"type": "score", "t": 1.0, "scores": [0, 0]}\n')
    assert main(["validate", str(log), "--outputs"]) == 2
    assert f"{log}:1:" in capsys.readouterr().err


def test_dump_schema(capsys) -> None:
    assert main(["validate", "--dump-schema"]) == 0
    assert json.loads(capsys.readouterr().out)["title"].startswith("Baulkline")
