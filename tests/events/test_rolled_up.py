"""A white nudged into a ball too gently to time: the contact read from where it came to rest."""

from __future__ import annotations

import numpy as np
import pytest

from adjudicator.eventlog import Collision, InputEvent, Strike
from calibration.table import TABLE
from tests.events.scenes import R, keyframes
from vision.events.infer import infer_tracks
from vision.events.synthetic import CameraNoise, tracks_from_timeline

CY = TABLE.centre_line_y
GREEN = (737.0, CY + 300.0)

Position = tuple[float, float]


def _run(
    white_to: Position, green_moves: float, white_from: Position = (600.0, CY + 300.0)
) -> list[InputEvent]:
    """The white rolls from ``white_from`` to ``white_to`` in 0.6 s, from t = 1 s; the green is
    moved ``green_moves`` mm straight on by t = 1.7 s (a nudge, or nothing)."""
    d = np.subtract(white_to, white_from)
    d = d / np.hypot(*d)
    green_to = (GREEN[0] + d[0] * green_moves, GREEN[1] + d[1] * green_moves)
    paths: dict[str, list[tuple[float, Position | None]]] = {
        "white": [(0.0, white_from), (1.0, white_from), (1.6, white_to)],
        "green": [(0.0, GREEN), (1.6, GREEN), (1.7, green_to)],
        "red1": [(0.0, (2500.0, 600.0))],
    }
    tl = keyframes(paths, [], end=5.0)
    tracks = tracks_from_timeline(tl, CameraNoise(fps=30.0, noise_mm=1.0), np.random.default_rng(7))
    return infer_tracks(tracks, noise_mm=1.0)


def _white_hits(events: list[InputEvent]) -> list[Collision]:
    return [e for e in events if isinstance(e, Collision) and "white" in e.balls]


@pytest.mark.parametrize(
    ("name", "white_to", "green_moves", "hit"),
    [
        # Rolled up to the green and resting against it; the green moved 3 mm (under the noise
        # a velocity could show): one contact, once.
        ("rolled up, nudged", (GREEN[0] - 2 * R - 0.3, GREEN[1]), 3.0, True),
        ("rolled up, green unmoved", (GREEN[0] - 2 * R - 0.3, GREEN[1]), 0.0, True),
        # Stopped a ball's width short: no contact.
        ("stopped short", (GREEN[0] - 3 * R, GREEN[1]), 0.0, False),
    ],
)
def test_a_white_rolled_up_to_a_ball_hit_it(
    name: str, white_to: Position, green_moves: float, hit: bool
) -> None:
    events = _run(white_to, green_moves)
    assert len([e for e in events if isinstance(e, Strike)]) == 1, name
    hits = _white_hits(events)
    assert [set(h.balls) for h in hits] == ([{"white", "green"}] if hit else []), name


def test_a_white_touching_before_the_stroke_is_not_rolled_up() -> None:
    """Touching the green where it rested, played straight away from it: no contact is made up
    from the two balls' closeness (the rule asks that the white came from clear of it)."""
    start = (GREEN[0] - 2 * R - 0.3, GREEN[1])
    events = _run((start[0] - 200.0, start[1]), 0.0, white_from=start)
    assert _white_hits(events) == []


def test_a_contact_is_logged_once() -> None:
    """The white resting against the green it rolled into gives a candidate contact in every
    frame; however they are timed and snapped, the log holds that contact once."""
    events = _run((GREEN[0] - 2 * R - 0.3, GREEN[1]), 3.0)
    hits = _white_hits(events)
    assert len(hits) == len({(round(h.t, 6), frozenset(h.balls)) for h in hits})
