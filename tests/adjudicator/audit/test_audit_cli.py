"""Malformed lines through ``baulkline adjudicate``: one line naming the line; nothing written is lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.cli import main

GOOD = [
    {"type": "frame_start", "t": 0.0, "players": ["A", "B"], "striker": 0},
    {"type": "place", "t": 1.0, "ball": "white", "position": [700.0, 1000.0]},
    {"type": "strike", "t": 2.0},
    {"type": "collision", "t": 3.0, "balls": ["white", "red1"]},
    {"type": "pot", "t": 4.0, "ball": "white", "pocket": "top_left"},
]
REST = {"type": "rest", "t": 5.0, "positions": {"red1": [2800.0, 889.0]}}


@pytest.mark.parametrize(
    "bad",
    [
        "{not json",
        json.dumps({"type": "fly", "t": 5.0}),  # unknown type
        json.dumps({"type": "pot", "t": 5.0, "ball": "white"}),  # missing key
        json.dumps({"type": "pot", "t": 5.0, "ball": "red16", "pocket": "top_left"}),  # no such ball
        json.dumps({"type": "strike", "t": 1.0}),  # t goes backwards
    ],
)
def test_malformed_line_names_its_number(
    bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "events.jsonl"
    out = tmp_path / "calls.jsonl"
    log.write_text(
        "\n".join(
            [
                *map(json.dumps, GOOD[:2]),
                json.dumps(GOOD[2]),
                json.dumps(GOOD[3]),
                json.dumps(GOOD[4]),
                json.dumps(REST),
                bad,
            ]
        )
        + "\n"
    )
    rc = main(["adjudicate", str(log), "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert rc != 0
    assert len(err.splitlines()) == 1 and "7" in err, err
    written = [json.loads(x) for x in out.read_text().splitlines()]
    assert any(o["type"] == "call" and o.get("penalty") == 4 for o in written)  # kept
