"""A small ball joined to a cue's tip and the hand holding it is cut out at the frame's own
resolution (:func:`vision.detection.occlusion.stand_out_fine`).

Why: a 1080p frame is worked on at a third of its width, where balls are 3 to 4 pixels in
radius and the candidate mask's opening and closing widen a cue's tip to nearly a ball's
width; a rendered white put down in hand and addressed for two seconds was never found.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.table import TABLE
from vision.detection.classical import Blobs, learn_model
from vision.detection.cloth import ClothModel, candidate_mask, downscale
from vision.detection.cluster import ClusterPrior
from vision.detection.occlusion import FINE_RADIUS, stand_out, stand_out_fine

WIDTH = 760  # bed pixels: a ball 5.6 px in radius, under FINE_RADIUS at the working scale
RADIUS = WIDTH * TABLE.ball_radius / TABLE.length
REDS = [(0.2, 0.3), (0.5, 0.5), (0.8, 0.7), (0.35, 0.75), (0.15, 0.8)]
WHITE = (0.7, 0.35)
CUE = max(2, round(0.45 * RADIUS))  # the cue's width near its tip (pixels)


def _frame(white: bool, cue_gap: float) -> tuple[np.ndarray, tuple[float, float]]:
    """A green bed with red balls, maybe the white, and a cue whose tip lies ``cue_gap`` pixels
    from the white's edge, held by a hand that reaches in over the bed's right border."""
    h = WIDTH // 2
    image = np.full((h + h // 2, WIDTH + WIDTH // 4, 3), (40, 30, 60), np.uint8)
    x0, y0 = WIDTH // 8, h // 4
    cv2.rectangle(image, (x0, y0), (x0 + WIDTH, y0 + h), (30, 160, 20), -1)
    for u, v in REDS:
        cv2.circle(
            image, (round(x0 + u * WIDTH), round(y0 + v * h)), round(RADIUS), (20, 20, 170), -1, cv2.LINE_AA
        )
    cu, cv = x0 + WHITE[0] * WIDTH, y0 + WHITE[1] * h
    if white:
        cv2.circle(image, (round(cu), round(cv)), round(RADIUS), (245, 245, 245), -1, cv2.LINE_AA)
    tip = (round(cu + RADIUS + cue_gap), round(cv))
    butt = (x0 + WIDTH + 40, round(cv + 30))
    cv2.line(image, tip, butt, (150, 200, 225), CUE, cv2.LINE_AA)  # the cue's light wood
    cv2.rectangle(
        image, (x0 + WIDTH - 60, round(cv + 10)), (x0 + WIDTH + 60, round(cv + 60)), (90, 120, 200), -1
    )  # the hand
    return np.asarray(cv2.GaussianBlur(image, (3, 3), 0.8), np.uint8), (cu, cv)


def _blob(
    image: np.ndarray, at: tuple[float, float]
) -> tuple[ClothModel, np.ndarray, tuple[int, int], float]:
    """The working-scale blob round ``at`` (grown by a pixel, as a blurred frame's ball and
    tip are one blob), its model, box origin and the ball radius there."""
    model = learn_model(image, 0.5)
    s = model.scale
    mask = cv2.dilate(candidate_mask(downscale(image, s), model), np.ones((2, 2), np.uint8))
    blobs = Blobs.of(mask, model.box)
    u, v = int((at[0] + 0.5) * s), int((at[1] + 0.5) * s)
    k = int(blobs.labels[v, u])
    assert k > 0
    x0, y0, w, h, _ = (int(q) for q in blobs.stats[k])
    r = float(model.radius_at(np.array([[u, v]], float))[0])
    return model, blobs.labels[y0 : y0 + h, x0 : x0 + w] == k, (x0, y0), r


@pytest.mark.parametrize(
    ("white", "cue_gap", "found"),
    [
        (True, 0.0, True),  # addressed: the tip touches the white
        (True, 1.0, True),  # a pixel short of it
        (False, 0.0, False),  # the cue and the hand alone hold no ball
    ],
)
def test_the_addressed_white_is_cut_from_the_cue_at_full_resolution(
    white: bool, cue_gap: float, found: bool
) -> None:
    image, at = _frame(white, cue_gap)
    model, blob, origin, r = _blob(image, (at[0] + 2.0 * RADIUS, at[1]) if not white else at)
    fine = stand_out_fine(image, model, blob, origin, r, ClusterPrior())
    s = model.scale
    work = np.array([(at[0] + 0.5) * s - 0.5, (at[1] + 0.5) * s - 0.5])
    near = np.hypot(*(fine - work).T) < 0.25 * r if len(fine) else np.zeros(0, bool)
    assert bool(near.any()) == found
    assert len(fine) == int(found)  # no piece of the cue or the hand is taken for a ball


def test_the_working_scale_alone_cannot_cut_it() -> None:
    """The case the fine cut is for: the same blob gives nothing at the working scale."""
    image, at = _frame(True, 0.0)
    _, blob, origin, r = _blob(image, at)
    assert r < FINE_RADIUS  # where the detector cuts again at full resolution
    assert len(stand_out(blob, origin, r, ClusterPrior())) == 0
