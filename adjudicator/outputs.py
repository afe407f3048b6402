"""Builders of the output events of the contract (``shared/spec/event-log.md``).

One function per output ``type`` so that every key is spelled in exactly one place and every
output validates against :data:`adjudicator.schema.OUTPUT_SCHEMA`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from adjudicator.fouls import Foul
from adjudicator.respot import Respot
from adjudicator.state import FrameState

Output = dict[str, Any]


def foul_call(t: float, foul: Foul, offender: int, miss: bool = False, call: str | None = None) -> Output:
    """``FOUL`` / ``FOUL AND A MISS`` / ``PENALTY`` with its penalty, reason and players."""
    name = call or ("FOUL AND A MISS" if miss else "FOUL")
    return {
        "type": "call",
        "t": t,
        "call": name,
        "penalty": foul.penalty,
        "reason": foul.reason.value,
        "offender": offender,
        "awarded_to": 1 - offender,
    }


def plain_call(t: float, call: str, balls: Iterable[str] | None = None) -> Output:
    """``FREE BALL``, ``RE-SPOTTED BLACK`` or ``TOUCHING BALL`` (with its balls)."""
    out: Output = {"type": "call", "t": t, "call": call}
    if balls is not None:
        out["balls"] = list(balls)
    return out


def respot_out(t: float, r: Respot) -> Output:
    """Where a colour must be put back."""
    return {
        "type": "respot",
        "t": t,
        "ball": r.ball,
        "spot": r.spot,
        "position": [r.position[0], r.position[1]],
    }


def score_out(t: float, state: FrameState) -> Output:
    """The scoreboard after a stroke (or an election that changes who plays)."""
    return {
        "type": "score",
        "t": t,
        "scores": [state.scores[0], state.scores[1]],
        "striker": state.striker,
        "break": state.brk,
        "ball_on": state.on,
        "reds": state.reds,
    }


def warning_out(t: float, player: int, reason: str) -> Output:
    """A referee's Warning."""
    return {"type": "warning", "t": t, "player": player, "reason": reason}


def frame_end_out(t: float, scores: tuple[int, int], reason: str, winner: int | None = None) -> Output:
    """The end of the frame; the winner is the higher score unless given."""
    if winner is None and scores[0] != scores[1]:
        winner = 0 if scores[0] > scores[1] else 1
    return {"type": "frame_end", "t": t, "winner": winner, "scores": [scores[0], scores[1]], "reason": reason}


def notice_out(t: float, message: str, ball: str | None = None) -> Output:
    """An inconsistency in the log and what the referee assumed."""
    out: Output = {"type": "notice", "t": t, "message": message}
    if ball is not None:
        out["ball"] = ball
    return out
