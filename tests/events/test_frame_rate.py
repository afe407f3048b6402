"""Event inference is a function of the table's motion, not of the camera's frame rate.

Every threshold is derived in physical units (:class:`vision.events.config.EventConfig`), so
the same trajectory sampled at 30 and at 60 fps, with the same per-sample noise, must give
the same contacts in the same order at the same times (within a frame of the slower rate).
"""

from __future__ import annotations

import pytest

from adjudicator.eventlog import Collision, Cushion, InputEvent, Pot, Strike
from tests.events.scenes import R, simulate
from tests.events.test_infer import CENTRE_Y, run
from vision.synthetic.timeline import Timeline


def _contacts(events: list[InputEvent]) -> list[tuple[str, tuple[str, ...], float]]:
    out = []
    for e in events:
        if isinstance(e, Collision):
            out.append(("collision", tuple(sorted(e.balls)), e.t))
        elif isinstance(e, Cushion):
            out.append(("cushion", (e.ball,), e.t))
        elif isinstance(e, Pot):
            out.append(("pot", (e.ball,), e.t))
        elif isinstance(e, Strike):
            out.append(("strike", ("white",), e.t))
    return out


def _straight() -> Timeline:
    return simulate({"white": (900.0, CENTRE_Y), "red1": (1500.0, CENTRE_Y + 0.3 * R)}, (1500.0, 0.0))


def _cushion_then_ball() -> Timeline:
    return simulate({"white": (1000.0, 400.0), "red1": (1790.0, 400.0)}, (1200.0, -1200.0))


def _chain() -> Timeline:
    # The white sends red1 into red2 a few balls away: contacts of two balls in turn.
    y = CENTRE_Y
    return simulate(
        {"white": (700.0, y), "red1": (1300.0, y + 0.2 * R), "red2": (1500.0, y + 0.5 * R)}, (2000.0, 0.0)
    )


def _past_a_touching_pair() -> Timeline:
    # A pair of touching reds (a pack in miniature) the white never reaches: no contact of
    # theirs may come out of their noise while the white moves, at any frame rate.
    return simulate(
        {"white": (700.0, 400.0), "red1": (2500.0, 1300.0), "red2": (2500.0 + 2.0 * R, 1300.0)},
        (1400.0, 0.0),
    )


SCENES = {
    "straight": _straight,
    "cushion_then_ball": _cushion_then_ball,
    "chain": _chain,
    "past_a_touching_pair": _past_a_touching_pair,
}


@pytest.mark.parametrize("scene", sorted(SCENES))
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_same_contacts_at_30_and_60_fps(scene: str, seed: int) -> None:
    tl = SCENES[scene]()
    truth = [(k, b) for k, b, _ in _contacts(list(tl.events))]
    logs = {fps: _contacts(run(tl, fps=fps, noise=1.0, seed=seed)) for fps in (30.0, 60.0)}
    for fps, log in logs.items():
        assert [(k, b) for k, b, _ in log] == truth, f"{fps:.0f} fps"
    for (_, _, t30), (_, _, t60) in zip(logs[30.0], logs[60.0], strict=True):
        assert abs(t30 - t60) < 1.0 / 30.0
