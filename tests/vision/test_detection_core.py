"""A lone ball's refined centre is judged against its blob's round core: what touches the ball
(a strip of tinted cloth, a chalk line's stub) moves the blob's centroid, not the core's, and
no longer stops the refinement (a rendered green stood 12-16 mm off its spot)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detection.classical import Blobs, _core_centroids, learn_model, refine_centres

CENTRE = (30.0, 30.0)
RADIUS = 5.0


def _blob(extra: str) -> np.ndarray:
    """A working-scale mask: a ball's disc and what touches it."""
    mask = np.zeros((60, 60), np.uint8)
    cv2.circle(mask, (30, 30), int(RADIUS), 1, -1)
    if extra == "strip":  # two pixels thick, a ball's diameter long, to the right
        mask[29:31, 35:45] = 1
    elif extra == "wedge":  # three pixels thick, under the ball's lower right
        mask[33:36, 31:42] = 1
    elif extra == "line":  # one pixel thick, across the picture through the ball's foot
        mask[35, 5:55] = 1
    return mask


@pytest.mark.parametrize(
    ("extra", "pulled"), [("none", False), ("strip", True), ("wedge", True), ("line", True)]
)
def test_the_core_is_the_ball_whatever_touches_it(extra: str, pulled: bool) -> None:
    blobs = Blobs.of(_blob(extra))
    assert len(blobs) == 1
    core = _core_centroids(blobs, np.array([1]), np.array([RADIUS]))[0]
    assert np.hypot(*(core - CENTRE)) < 0.25
    # (The blob's own centroid is pulled where something touches the ball.)
    assert (np.hypot(*(blobs.centroids[1] - CENTRE)) > 0.5) == pulled


def test_a_blob_mostly_not_round_keeps_its_centroid() -> None:
    mask = np.zeros((60, 60), np.uint8)
    mask[20:23, 5:55] = 1  # a strip thinner than a ball: no core at all
    blobs = Blobs.of(mask)
    core = _core_centroids(blobs, np.array([1]), np.array([RADIUS]))[0]
    assert np.allclose(core, blobs.centroids[1])


def _ball_image() -> tuple[np.ndarray, tuple[float, float]]:
    """A green bed in a 720p frame with one purple ball (full-resolution centre returned)."""
    image = np.full((720, 1280, 3), (40, 30, 60), np.uint8)
    cv2.rectangle(image, (40, 60), (1240, 660), (30, 160, 20), -1)
    cv2.circle(image, (640, 360), 9, (160, 60, 200), -1, cv2.LINE_AA)
    noise = np.random.default_rng(3).integers(-3, 4, image.shape)
    return np.clip(image.astype(np.int32) + noise, 0, 255).astype(np.uint8), (640.0, 360.0)


@pytest.mark.parametrize(
    ("off", "with_core", "refined"),
    [
        ((0.4, 0.3), False, True),  # within reach of the blob's centroid: refined either way
        ((0.4, 0.3), True, True),
        ((1.3, 0.9), False, False),  # too far from the blob's centroid: it stands
        ((1.3, 0.9), True, True),  # ... but near the round core: refined
    ],
)
def test_a_refinement_near_the_core_is_taken(
    off: tuple[float, float], with_core: bool, refined: bool
) -> None:
    image, (u, v) = _ball_image()
    model = learn_model(image, 0.5)
    s = model.scale
    truth = np.array([[(u + 0.5) * s - 0.5, (v + 0.5) * s - 0.5]])
    rough = truth + np.array(off)
    core = truth + 0.1 if with_core else None
    assert s == 0.5
    # (A blob's radius is a little over the ball's: the window takes in its blurred rim.)
    out = refine_centres(image, model, rough, np.array([11.0 * s]), core)[0]
    if refined:
        assert np.hypot(*(out - truth[0])) < 0.1
    else:
        assert np.allclose(out, rough[0])
