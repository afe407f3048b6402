"""Working inside the bed's box and refining all balls at once change no detection; a ball
joined to a pocket's shade is still found."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.balls_synthetic import read_tracks
from calibration.table import colour_of
from vision.detection.classical import Blobs, ClassicalDetector, learn_model, refine_centres
from vision.detection.cloth import ClothModel, _candidates, candidate_mask, downscale


def _table(offset: tuple[int, int], balls: list[tuple[int, int, tuple[int, int, int]]]) -> np.ndarray:
    """A green bed (offset inside a dark 720p frame) with balls and a chalk line on it."""
    image = np.full((720, 1280, 3), (40, 30, 60), np.uint8)
    x0, y0 = offset
    cv2.rectangle(image, (x0, y0), (x0 + 800, y0 + 400), (30, 160, 20), -1)
    cv2.line(image, (x0 + 200, y0), (x0 + 200, y0 + 400), (200, 220, 200), 1)
    for u, v, colour in balls:
        cv2.circle(image, (x0 + u, y0 + v), 11, colour, -1, cv2.LINE_AA)
    noise = np.random.default_rng(1).integers(-4, 5, image.shape)
    return np.clip(image.astype(np.int32) + noise, 0, 255).astype(np.uint8)


BALLS = [
    (100, 100, (20, 20, 170)),
    (122, 100, (20, 20, 170)),  # touching the first: a cluster
    (200, 250, (240, 240, 240)),  # on the chalk line
    (5, 200, (10, 10, 10)),  # against the bed's edge
    (600, 300, (160, 60, 200)),
]


@pytest.mark.parametrize("offset", [(240, 160), (241, 161), (0, 0), (470, 310)])
def test_the_boxed_mask_and_blobs_are_the_whole_pictures(offset: tuple[int, int]) -> None:
    image = _table(offset, BALLS)
    model = learn_model(image, 0.5)
    small = downscale(image, model.scale)
    mask = candidate_mask(small, model)
    whole = _candidates(small, model.reference, model)
    assert np.array_equal(mask, whole)
    boxed, full = Blobs.of(mask, model.box), Blobs.of(whole)
    assert np.array_equal(boxed.labels, full.labels)
    assert np.array_equal(boxed.stats[1:], full.stats[1:])
    assert np.allclose(boxed.centroids[1:], full.centroids[1:])


@cache
def _scene() -> tuple[np.ndarray, ClothModel]:
    """One picture and its model for every example (learning the model is the slow part)."""
    image = _table((240, 160), BALLS)
    return image, learn_model(image, 0.5)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, len(BALLS) - 1), min_size=1, max_size=len(BALLS), unique=True))
def test_refining_balls_together_is_refining_each_alone(picked: list[int]) -> None:
    image, model = _scene()
    s = model.scale
    centres = np.array(
        [((240 + BALLS[k][0] + 0.5) * s - 0.5, (160 + BALLS[k][1] + 0.5) * s - 0.5) for k in picked]
    )
    # A working pixel off, as a blob's centroid is: the refinement brings it back.
    rough = centres + 0.4
    radii = np.full(len(picked), 11.0 * s)
    together = refine_centres(image, model, rough, radii)
    alone = np.array(
        [refine_centres(image, model, rough[i : i + 1], radii[i : i + 1])[0] for i in range(len(picked))]
    )
    assert np.allclose(together, alone, atol=1e-6)
    assert np.all(
        np.linalg.norm(together - centres, axis=1) <= np.linalg.norm(rough - centres, axis=1) + 1e-9
    )


SAMPLES = Path(__file__).resolve().parents[2] / "sample_videos"


@pytest.mark.parametrize(("frame", "ball"), [(165, "white"), (195, "white")])
def test_a_ball_joined_to_a_pockets_shade_is_found(frame: int, ball: str) -> None:
    """08_leaning_over: the white rests a ball's width from the middle pocket's mouth, its blob
    joined to the pocket's shade on the cushion (the whole blob was dropped as the pocket)."""
    video = SAMPLES / "08_leaning_over.mp4"
    truth = read_tracks(video.with_name("08_leaning_over.tracks.csv"))[frame][ball]
    cap = cv2.VideoCapture(str(video))
    first = None
    image = None
    for _ in range(frame + 1):
        ok, image = cap.read()
        assert ok
        first = image if first is None else first
    cap.release()
    assert first is not None and image is not None
    detector = ClassicalDetector()
    detector.learn(np.asarray(first, np.uint8))
    found = detector.detect(np.asarray(image, np.uint8))
    d = np.linalg.norm(found.pixel - np.array(truth.pixel), axis=1)
    k = int(np.argmin(d))
    assert d[k] < found.radius[k]
    assert found.colour_names()[k] == colour_of(ball).value
