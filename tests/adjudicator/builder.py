"""A small builder for recorded referee scenarios: an input log and the calls expected.

The expected outputs are written by hand in :mod:`tests.adjudicator.scenario_defs`, reasoned
from the rules; the builder only keeps the ball positions and the clock so that each
scenario reads like a referee's notebook.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from calibration.table import TABLE, Colour

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
SPOT = {c.value: xy for c, xy in TABLE.spots.items()}


class Log:
    """Events of one scenario and the outputs a referee would give."""

    def __init__(
        self,
        name: str,
        reds: int = 15,
        striker: int = 0,
        positions: dict[str, tuple[float, float]] | None = None,
        scores: tuple[int, int] | None = None,
    ) -> None:
        self.name = name
        self.t = 0.0
        self.events: list[dict[str, Any]] = []
        self.expected: list[dict[str, Any]] = []
        start: dict[str, Any] = {
            "type": "frame_start",
            "t": 0.0,
            "players": ["Ann", "Bob"],
            "striker": striker,
        }
        if reds != 15:
            start["reds"] = reds
        if positions is not None:
            start["positions"] = {k: list(v) for k, v in positions.items()}
        if scores is not None:
            start["scores"] = list(scores)
        self.events.append(start)
        self.pos: dict[str, tuple[float, float]] = dict(
            positions if positions is not None else TABLE.standard_positions(reds)
        )

    def _tick(self, dt: float = 1.0) -> float:
        self.t = round(self.t + dt, 3)
        return self.t

    def add(self, obj: dict[str, Any]) -> float:
        """Append a raw input event at the next tick."""
        t = self._tick()
        self.events.append({"t": t, **obj})
        return t

    def place(self, ball: str, xy: tuple[float, float]) -> float:
        self.pos[ball] = xy
        return self.add({"type": "place", "ball": ball, "position": list(xy)})

    def nominate(self, ball: str) -> float:
        return self.add({"type": "nominate", "ball": ball})

    def spot(self, ball: str, xy: tuple[float, float] | None = None, place: bool = True) -> None:
        """Put a colour back (as the referee does after the respot call)."""
        where = xy if xy is not None else SPOT[ball]
        if place:
            self.place(ball, where)
        else:
            self.pos[ball] = where

    def shot(
        self,
        first: str | list[str] | None = None,
        white: tuple[float, float] | None = (1000.0, 1300.0),
        pots: list[str] = (),  # type: ignore[assignment]
        off: list[str] = (),  # type: ignore[assignment]
        moves: dict[str, tuple[float, float]] | None = None,
        cushion_first: bool = False,
        white_cushion: bool = False,
        infringements: list[dict[str, Any]] = (),  # type: ignore[assignment]
        touching: list[list[str]] | None = None,
        rest: bool = True,
        extra: list[dict[str, Any]] = (),  # type: ignore[assignment]
    ) -> float:
        """One stroke; returns the ``t`` of its rest."""
        self.add({"type": "strike"})
        if cushion_first or white_cushion:
            self.add({"type": "cushion", "ball": Colour.WHITE.value})
        if first is not None:
            firsts = [first] if isinstance(first, str) else first
            t = self._tick()
            for ball in firsts:
                self.events.append({"type": "collision", "t": t, "balls": ["white", ball]})
        for inf in infringements:
            self.add({"type": "infringement", **inf})
        for obj in extra:
            self.add(obj)
        for ball in pots:
            self.add({"type": "pot", "ball": ball, "pocket": "top_left"})
            self.pos.pop(ball, None)
        for ball in off:
            self.add({"type": "off_table", "ball": ball})
            self.pos.pop(ball, None)
        if white is None:
            self.pos.pop("white", None)
        elif "white" not in pots and "white" not in off:
            self.pos["white"] = white
        for ball, xy in (moves or {}).items():
            self.pos[ball] = xy
        if not rest:
            return self.t
        rest_obj: dict[str, Any] = {
            "type": "rest",
            "positions": {k: [round(v[0], 3), round(v[1], 3)] for k, v in self.pos.items()},
        }
        if touching is not None:
            rest_obj["touching"] = touching
        return self.add(rest_obj)

    # ---- expected outputs -------------------------------------------------------------------
    def expect(self, obj: dict[str, Any], t: float | None = None) -> None:
        self.expected.append({"type": obj.pop("type"), "t": self.t if t is None else t, **obj})

    def score(self, scores: tuple[int, int], striker: int, brk: int, on: str, reds: int) -> None:
        self.expect(
            {
                "type": "score",
                "scores": list(scores),
                "striker": striker,
                "break": brk,
                "ball_on": on,
                "reds": reds,
            }
        )

    def foul(
        self, penalty: int, reason: str, offender: int, miss: bool = False, call: str | None = None
    ) -> None:
        self.expect(
            {
                "type": "call",
                "call": call or ("FOUL AND A MISS" if miss else "FOUL"),
                "penalty": penalty,
                "reason": reason,
                "offender": offender,
                "awarded_to": 1 - offender,
            }
        )

    def call(self, name: str, balls: list[str] | None = None) -> None:
        obj: dict[str, Any] = {"type": "call", "call": name}
        if balls is not None:
            obj["balls"] = balls
        self.expect(obj)

    def respot(self, ball: str, spot: str | None, position: tuple[float, float] | None = None) -> None:
        where = position if position is not None else SPOT[spot or ball]
        self.expect({"type": "respot", "ball": ball, "spot": spot, "position": [where[0], where[1]]})

    def notice(self, ball: str | None = None) -> None:
        obj: dict[str, Any] = {"type": "notice", "message": "*"}
        if ball is not None:
            obj["ball"] = ball
        self.expect(obj)

    def warning(self, player: int, reason: str) -> None:
        self.expect({"type": "warning", "player": player, "reason": reason})

    def frame_end(self, winner: int | None, scores: tuple[int, int], reason: str) -> None:
        self.expect({"type": "frame_end", "winner": winner, "scores": list(scores), "reason": reason})

    def write(self) -> None:
        SCENARIOS.mkdir(exist_ok=True)
        with (SCENARIOS / f"{self.name}.events.jsonl").open("w") as f:
            for e in self.events:
                f.write(json.dumps(e) + "\n")
        with (SCENARIOS / f"{self.name}.calls.jsonl").open("w") as f:
            for e in self.expected:
                f.write(json.dumps(e) + "\n")
