"""A ball pushed too gently to time, with the white's track overlapping it a frame early.

Found from its result (:func:`vision.events.unseen.pushes`): a ball still before the stroke and
measurably elsewhere after it was pushed by the ball that came closest to it. The white's
measured centre is pulled onto a ball it rolls up to (the two make one blob) a frame or two
before the contact, where its path cannot have touched it yet; taken as the closest approach,
that frame hid the push (a rendered 1080p60 free ball: the green pushed 6.5 mm, no contact
logged, "no ball hit" called). The closest approach that can have reached it is the one.
"""

from __future__ import annotations

import numpy as np
import pytest

from adjudicator.eventlog import Collision, InputEvent
from calibration.table import TABLE
from tests.events.scenes import R, keyframes
from vision.events.infer import infer_tracks
from vision.events.synthetic import CameraNoise, tracks_from_timeline

CY = TABLE.centre_line_y
GREEN = (737.0, CY + 300.0)
START = (600.0, CY + 300.0)
TOUCH = GREEN[0] - 2 * R  # the white's x when it meets the green

Position = tuple[float, float]


def _run(pulled_at: float | None, green_moves: float) -> list[InputEvent]:
    """The white rolls up to the green from t = 1 s and meets it at t = 1.6 s, the green moving
    ``green_moves`` mm on by t = 1.9 s; with ``pulled_at``, the white's track jumps onto the
    green for one frame at that time."""
    white: list[tuple[float, Position | None]] = [(0.0, START), (1.0, START), (1.6, (TOUCH, GREEN[1]))]
    if pulled_at is not None:
        on_path = START[0] + (TOUCH - START[0]) * (pulled_at - 1.0) / 0.6
        white = [
            (0.0, START),
            (1.0, START),
            (pulled_at - 0.02, (on_path, GREEN[1])),
            (pulled_at, (GREEN[0] - 0.6 * R, GREEN[1])),
            (pulled_at + 0.02, (on_path, GREEN[1])),
            (1.6, (TOUCH, GREEN[1])),
        ]
    paths: dict[str, list[tuple[float, Position | None]]] = {
        "white": white,
        "green": [(0.0, GREEN), (1.6, GREEN), (1.9, (GREEN[0] + green_moves, GREEN[1]))],
        "red1": [(0.0, (2500.0, 600.0))],
    }
    tl = keyframes(paths, [], end=5.0)
    tracks = tracks_from_timeline(tl, CameraNoise(fps=60.0, noise_mm=1.0), np.random.default_rng(3))
    return infer_tracks(tracks, noise_mm=1.0)


@pytest.mark.parametrize(
    ("name", "pulled_at", "moves", "hit"),
    [
        ("pushed 8 mm", None, 8.0, True),
        ("pushed 8 mm, the white's track pulled onto it early", 1.3, 8.0, True),
        ("unmoved, the white's track pulled onto it early", 1.3, 0.0, True),
    ],
)
def test_the_push_is_found_past_an_early_overlap(
    name: str, pulled_at: float | None, moves: float, hit: bool
) -> None:
    events = _run(pulled_at, moves)
    hits = [e for e in events if isinstance(e, Collision) and set(e.balls) == {"white", "green"}]
    assert bool(hits) is hit, name
