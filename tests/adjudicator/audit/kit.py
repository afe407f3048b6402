"""A compact scenario builder for the audit suite and a partial-match comparator.

Expected outputs are written from the rules and the contract; the engine is not consulted.
A ``reason`` key is compared only where a scenario names one (reason codes are the engine's
own vocabulary, not the contract's), and a ``notice`` message only has to be non-empty.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from calibration.table import TABLE

SPOT: dict[str, tuple[float, float]] = {c.value: xy for c, xy in TABLE.spots.items()}
COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")
R = 26.25


def colours_only(**extra: tuple[float, float]) -> dict[str, tuple[float, float]]:
    """The six colours on their spots plus any extra balls (the white included)."""
    pos = {c: SPOT[c] for c in COLOURS}
    pos.update(extra)
    return pos


@dataclass
class Scenario:
    """One scenario: input events and the outputs a referee must give, in order."""

    name: str
    players: int = 0
    reds: int | None = None
    positions: dict[str, tuple[float, float]] | None = None
    scores: tuple[int, int] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    expected: list[dict[str, Any]] = field(default_factory=list)
    t: float = 0.0
    pos: dict[str, tuple[float, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        start: dict[str, Any] = {
            "type": "frame_start",
            "t": 0.0,
            "players": ["A", "B"],
            "striker": self.players,
        }
        if self.reds is not None:
            start["reds"] = self.reds
        if self.positions is not None:
            start["positions"] = {k: list(v) for k, v in self.positions.items()}
            self.pos = dict(self.positions)
        else:
            self.pos = dict(TABLE.standard_positions(self.reds or 15))
        if self.scores is not None:
            start["scores"] = list(self.scores)
        self.events.append(start)

    # ---- inputs ----------------------------------------------------------------------------
    def ev(self, type_: str, same_t: bool = False, **keys: Any) -> Scenario:
        if not same_t:
            self.t = round(self.t + 1.0, 3)
        self.events.append({"type": type_, "t": self.t, **keys})
        return self

    def place(self, ball: str, xy: tuple[float, float]) -> Scenario:
        self.pos[ball] = xy
        return self.ev("place", ball=ball, position=list(xy))

    def nominate(self, ball: str) -> Scenario:
        return self.ev("nominate", ball=ball)

    def strike(self) -> Scenario:
        return self.ev("strike")

    def hit(self, *balls: str) -> Scenario:
        """The white's first contact; several balls mean a simultaneous hit."""
        for i, b in enumerate(balls):
            self.ev("collision", same_t=i > 0, balls=["white", b])
        return self

    def cushion(self, ball: str = "white") -> Scenario:
        return self.ev("cushion", ball=ball)

    def pot(self, *balls: str) -> Scenario:
        for b in balls:
            self.pos.pop(b, None)
            self.ev("pot", ball=b, pocket="top_right")
        return self

    def off(self, ball: str) -> Scenario:
        self.pos.pop(ball, None)
        return self.ev("off_table", ball=ball)

    def infr(self, kind: str, **keys: Any) -> Scenario:
        return self.ev("infringement", kind=kind, **keys)

    def rest(self, touching: list[list[str]] | None = None, **moved: tuple[float, float]) -> Scenario:
        self.pos.update(moved)
        keys: dict[str, Any] = {"positions": {k: list(v) for k, v in self.pos.items()}}
        if touching is not None:
            keys["touching"] = touching
        return self.ev("rest", **keys)

    def choice(self, option: str) -> Scenario:
        return self.ev("choice", option=option)

    def concede(self, player: int) -> Scenario:
        return self.ev("concede", player=player)

    # ---- expected outputs ------------------------------------------------------------------
    def out(self, type_: str, **keys: Any) -> Scenario:
        self.expected.append({"type": type_, "t": self.t, **keys})
        return self

    def score(self, a: int, b: int, striker: int | str, brk: int | str, on: str, reds: int | str) -> Scenario:
        return self.out("score", scores=[a, b], striker=striker, ball_on=on, reds=reds, **{"break": brk})

    def foul(self, penalty: int, offender: int, miss: bool = False, **keys: Any) -> Scenario:
        call = "FOUL AND A MISS" if miss else "FOUL"
        return self.out(
            "call", call=call, penalty=penalty, offender=offender, awarded_to=1 - offender, **keys
        )

    def call(self, name: str, **keys: Any) -> Scenario:
        return self.out("call", call=name, **keys)

    def respot(self, ball: str, spot: str | None, position: tuple[float, float] | None = None) -> Scenario:
        where = position if position is not None else SPOT[spot or ball]
        return self.out("respot", ball=ball, spot=spot, position=list(where))

    def lines(self) -> list[str]:
        return [json.dumps(e) for e in self.events]


def matches(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    """Whether ``actual`` has every key of ``expected`` with the same value (positions to 0.5 mm)."""
    for key, want in expected.items():
        if key not in actual:
            return False
        got = actual[key]
        if want == "*":
            continue
        if key == "position":
            if got is None or any(abs(float(a) - float(b)) > 0.5 for a, b in zip(want, got, strict=True)):
                return False
        elif key == "message":
            if not (isinstance(got, str) and got):
                return False
        elif key == "t":
            if abs(float(got) - float(want)) > 1e-9:
                return False
        elif want != got:
            return False
    if actual.get("type") == "call" and "reason" in actual and "reason" not in expected:
        return isinstance(actual["reason"], str)
    return True
