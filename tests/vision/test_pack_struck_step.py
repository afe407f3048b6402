"""A pack struck: the look of a blob must not choose between two reds, only their motion.

Recorded: the tracker's state and one frame's detections from a rendered 1080p60 break-off
(broadcast camera, seed 102, the frame the white met the pack), replayed through
:func:`vision.tracking.tracker.step`. The red the white is predicted to strike (``red4``) and
the back-row red behind it (``red6``, unseen one frame) lie a diameter apart; the back-row red's
blob is darker than the reds' shared look. With the blur allowance of ``red4``'s predicted speed
making that blob cheaper for it than for ``red6``, the two took each other's blobs: three red
identity switches in that clip.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.detection.detections import BallDetections
from vision.tracking.tracker import TrackerConfig, TrackerState, step

RECORDED = Path(__file__).parent / "recorded" / "pack_struck_step.npz"


def _replay() -> tuple[TrackerState, BallDetections, TrackerState]:
    z = np.load(RECORDED)
    state = TrackerState(
        names=tuple(str(n) for n in z["names"]),
        colour=z["colour"],
        pos=z["pos"],
        vel=z["vel"],
        radius=z["radius"],
        appearance=z["appearance"],
        unseen=z["unseen"],
        state=z["state"],
        frame=int(z["frame"]),
    )
    det = BallDetections(z["det_pixel"], z["det_radius"], z["det_colour"], z["det_confidence"])
    new = step(
        state,
        det,
        z["det_appearance"],
        TrackerConfig().at_fps(60.0),
        pockets=z["pockets"],
        hidden=z["hidden"],
        table=z["table"] if len(z["table"]) else None,
        cloth=z["cloth"],
    )
    return state, det, new


def test_each_red_of_the_struck_pack_keeps_its_own_blob() -> None:
    state, _, new = _replay()
    for name in ("red4", "red6"):
        i = state.names.index(name)
        moved = float(np.hypot(*(new.pos[i] - state.pos[i])))
        # Each blob lies within a few pixels of its own red; the other's is 18 px off.
        assert moved < 0.5 * float(state.radius[i]), (name, state.pos[i], new.pos[i])
