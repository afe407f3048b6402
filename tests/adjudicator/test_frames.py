"""Whole frames played end to end: a 147 clearance, and a frame with fouls."""

from __future__ import annotations

import json

from adjudicator.engine import adjudicate
from adjudicator.eventlog import read_events
from tests.adjudicator.builder import SPOT, Log


def _run(g: Log) -> list[dict]:
    return list(adjudicate(read_events([json.dumps(e) for e in g.events])))


def test_maximum_147() -> None:
    """15 Reds each with the Black (15 x 8 = 120), then the colours 2+3+4+5+6+7 = 27: 147."""
    g = Log("maximum")
    g.place("white", (600.0, 1000.0))
    for i in range(1, 16):
        g.shot(first=f"red{i}", pots=[f"red{i}"], white=(3000.0, 300.0))
        g.nominate("black")
        g.shot(first="black", pots=["black"], white=(2500.0, 300.0))
        g.spot("black")
    for colour in ("yellow", "green", "brown", "blue", "pink", "black"):
        g.shot(first=colour, pots=[colour], white=(1500.0, 300.0))
    outs = _run(g)
    scores = [o for o in outs if o["type"] == "score"]
    assert len(scores) == 36
    assert scores[-1]["scores"] == [147, 0] and scores[-1]["break"] == 147
    assert outs[-1] == {
        "type": "frame_end",
        "t": g.t,
        "winner": 0,
        "scores": [147, 0],
        "reason": "final_black",
    }
    assert [o["ball"] for o in outs if o["type"] == "respot"] == ["black"] * 15
    assert not [o for o in outs if o["type"] in ("call", "notice")]


def test_frame_with_fouls() -> None:
    """A red + green (1 + 3), B in-off (4 to A), A red + pink (1 + 6) then misses, B hits the Blue
    first with a clear path to the Reds (FOUL AND A MISS, 5 to A), then B concedes: 20-0."""
    g = Log("fouls")
    g.place("white", (600.0, 1000.0))
    g.shot(first="red1", pots=["red1"], white=(1000.0, 1300.0))
    g.nominate("green")
    g.shot(first="green", pots=["green"], white=(1000.0, 1350.0))
    g.spot("green")
    g.shot(first="red2", white=(1100.0, 1350.0))  # A's turn ends: 4-0
    g.shot(first="red3", pots=["white"], white=None)  # B in-off: 8-0
    g.place("white", (600.0, 1000.0))
    g.shot(first="red3", pots=["red3"], white=(2000.0, 300.0))
    g.shot(first="pink", pots=["pink"], white=(2000.0, 350.0))
    g.spot("pink")
    g.shot(first="red4", white=(1000.0, 1300.0))  # 15-0, B to play
    g.shot(first="blue", white=(1200.0, 1300.0))  # B: FOUL AND A MISS, 5 to A
    g.add({"type": "concede", "player": 1})
    outs = _run(g)
    calls = [(o["call"], o.get("penalty"), o.get("offender")) for o in outs if o["type"] == "call"]
    assert calls == [("FOUL", 4, 1), ("FOUL AND A MISS", 5, 1)]
    assert outs[-1]["type"] == "frame_end" and outs[-1]["winner"] == 0
    assert outs[-1]["scores"] == [1 + 3 + 4 + 1 + 6 + 5, 0]
    assert SPOT["green"] in [tuple(o["position"]) for o in outs if o["type"] == "respot"]
