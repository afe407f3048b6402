"""A lost ball's grown gate does not take a blob that looks like the cloth round the ball."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.table import Colour
from vision.detection.detections import COLOURS, BallDetections
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracks import TrackState

R = 4.4  # a 720p view's ball radius (px)
#: Lab (OpenCV 8-bit) of a rendered green ball on green cloth, and of that cloth (red-then-colour,
#: seed 107, 720p30): 14 levels of lightness apart, the chroma the same.
BALL_LOOK = (121.0, 84.0, 161.0)
CLOTH_LOOK = (107.0, 84.0, 162.0)
#: A white at rest, its streak when struck (mostly cloth in colour: test_hard_stroke's 3.2 m/s
#: at 30 fps), and the cloth round it.
WHITE_LOOK = (235.0, 127.0, 129.0)
STREAK_LOOK = (185.0, 92.0, 154.0)
CLOTH_UNDER_WHITE = (147.0, 71.0, 178.0)


@pytest.mark.parametrize(
    ("ball", "ball_look", "blob_look", "cloth", "taken"),
    [
        # A patch of cloth 10 radii behind the lost green.
        ("green", BALL_LOOK, CLOTH_LOOK, CLOTH_LOOK, False),
        ("green", BALL_LOOK, (119.0, 84.0, 161.0), CLOTH_LOOK, True),  # the green itself, found there
        ("green", BALL_LOOK, CLOTH_LOOK, None, True),  # the cloth not known: the grown gate admits it
        # A ball that stands out from its cloth keeps its streak, however much cloth is in it.
        ("white", WHITE_LOOK, STREAK_LOOK, CLOTH_UNDER_WHITE, True),
    ],
    ids=["cloth", "ball", "cloth-unknown", "white-streak"],
)
def test_a_lost_ball_takes_no_cloth_blob(
    ball: str,
    ball_look: tuple[float, float, float],
    blob_look: tuple[float, float, float],
    cloth: tuple[float, float, float] | None,
    taken: bool,
) -> None:
    v = np.array([-2.7, 5.6])
    start = np.array([570.0, 300.0])
    colour = COLOURS.index(Colour(ball))
    state = TrackerState.seed([ball], start[None], [R], colour=[colour], appearance=[ball_look])
    tracker = Tracker(state)
    look = np.array([ball_look])
    for f in range(1, 6):
        tracker.update(BallDetections.build((start + f * v)[None], [R], colour=[colour]), look)
    for _ in range(3):
        tracker.update(BallDetections.empty())
    # Behind the ball and to one side (where a cue's shadow or the cloth's shading lies), unnamed.
    blob = start + 5 * v + np.array([47.0, -29.5])
    cloth_at = None if cloth is None else np.array([cloth])
    st = tracker.update(BallDetections.build(blob[None], [R]), np.array([blob_look]), cloth=cloth_at)
    assert bool(st.state[0] == TrackState.SEEN and np.allclose(st.pos[0], blob)) is taken
