"""Touching balls are counted and placed from their caps, on drawn tables with known answers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detection.classical import ClassicalDetector, _on_bed
from vision.detection.cloth import learn_cloth
from vision.detection.cluster import ClusterPrior, cap_peaks
from vision.detection.occlusion import cloth_shade, stand_out

RADIUS = 11.0
LONE = [(300.0, 250.0), (900.0, 260.0), (420.0, 520.0), (820.0, 540.0)]


def _table(balls: list[tuple[float, float]]) -> np.ndarray:
    """A green bed inside dark cushions, red balls with a white cap above each centre."""
    image = np.full((720, 1280, 3), (40, 30, 60), np.uint8)
    cv2.rectangle(image, (140, 60), (1140, 660), (30, 160, 20), -1)
    for u, v in balls:
        cv2.circle(image, (round(u), round(v)), round(RADIUS), (20, 20, 170), -1, cv2.LINE_AA)
        cv2.circle(image, (round(u), round(v - 0.45 * RADIUS)), 2, (235, 235, 245), -1, cv2.LINE_AA)
    return np.asarray(cv2.GaussianBlur(image, (3, 3), 0.8), np.uint8)


def _row(n: int, start: tuple[float, float]) -> list[tuple[float, float]]:
    return [(start[0] + 2 * RADIUS * i, start[1]) for i in range(n)]


def _triangle(rows: int, apex: tuple[float, float]) -> list[tuple[float, float]]:
    out = []
    for k in range(rows):
        for j in range(k + 1):
            out.append((apex[0] + (2 * j - k) * RADIUS, apex[1] + k * np.sqrt(3) * RADIUS))
    return out


@pytest.mark.parametrize(
    ("name", "cluster"),
    [
        ("pair", _row(2, (600.0, 360.0))),
        ("row of three", _row(3, (580.0, 360.0))),
        ("triangle of three", _triangle(2, (640.0, 330.0))),
        ("triangle of six", _triangle(3, (640.0, 320.0))),
        ("triangle of ten", _triangle(4, (640.0, 300.0))),
    ],
)
def test_cluster_count_and_places(name: str, cluster: list[tuple[float, float]]) -> None:
    truth = np.array(LONE + cluster)
    det = ClassicalDetector(classifier=None)
    found = det.detect(_table(list(map(tuple, truth))))
    assert len(found) == len(truth), name
    # Every true ball has a detection within half a radius (each matched once).
    d = np.linalg.norm(found.pixel[:, None, :] - truth[None, :, :], axis=2)
    assert np.all(d.min(axis=0) < 0.5 * RADIUS), name
    assert len(set(np.argmin(d, axis=0).tolist())) == len(truth), name


@pytest.mark.parametrize(
    ("gap", "squash", "expected"),
    [
        (2.0, 1.0, 2),  # touching side by side: two caps
        (0.5, 1.0, 1),  # one ball's doubled cap
        (0.8, 0.4, 2),  # touching one behind the other, foreshortened rows
        (0.4, 0.4, 1),  # still one ball's cap, even foreshortened
    ],
)
def test_caps_separation_on_the_cloth_plane(gap: float, squash: float, expected: int) -> None:
    caps = np.zeros((80, 80), np.float32)
    caps[30, 40] = 100.0
    caps[30 + round(gap * RADIUS), 40] = 90.0
    blurred = np.asarray(cv2.GaussianBlur(caps, (0, 0), 1.0), np.float32)
    peaks = cap_peaks(blurred, np.ones(blurred.shape, bool), RADIUS, 1.0, squash)
    assert len(peaks) == expected


@pytest.mark.parametrize(
    ("dx", "dy", "expected"),
    [
        (0.7, 0.45, 2),  # rack neighbours a row apart, radius inflated by the blur (Task1 still 27)
        (0.3, 0.1, 1),  # one ball's doubled cap
    ],
)
def test_caps_of_diagonal_rack_neighbours(dx: float, dy: float, expected: int) -> None:
    caps = np.zeros((80, 80), np.float32)
    caps[30, 30] = 100.0
    caps[30 + round(dy * RADIUS), 30 + round(dx * RADIUS)] = 90.0
    blurred = np.asarray(cv2.GaussianBlur(caps, (0, 0), 1.0), np.float32)
    peaks = cap_peaks(blurred, np.ones(blurred.shape, bool), RADIUS, 1.0, 0.4)
    assert len(peaks) == expected


@pytest.mark.parametrize(("index", "half"), [(0, 40), (1, 40), (2, 25), (3, 60)])
def test_roi_detection_agrees_with_the_full_frame(index: int, half: int) -> None:
    image = _table(LONE + _row(2, (600.0, 360.0)))
    det = ClassicalDetector(classifier=None)
    det.learn(image)
    full = det.detect(image)
    u, v = LONE[index]
    roi = det.detect(image, (int(u) - half, int(v) - half, int(u) + half, int(v) + half))
    assert len(roi) == 1
    nearest = np.linalg.norm(full.pixel - roi.pixel[0], axis=1).min()
    assert nearest < 0.5
    assert np.hypot(roi.pixel[0, 0] - u, roi.pixel[0, 1] - v) < 0.5 * RADIUS


def _occluded(ball: tuple[int, int] | None, cue: bool, hand: bool) -> np.ndarray:
    """A working-scale blob: a ball (radius 6), a cue's tip touching it, a hand beside it."""
    blob = np.zeros((60, 90), np.uint8)
    if ball is not None:
        cv2.circle(blob, ball, 6, 1, -1)
    if cue:
        cv2.line(blob, (0, 5), (30, 28), 1, 2)
    if hand:
        cv2.rectangle(blob, (44, 10), (85, 50), 1, -1)
    return blob.astype(bool)


@pytest.mark.parametrize(
    ("ball", "cue", "hand", "expected"),
    [
        ((34, 30), True, False, 1),  # the white at the cue's tip (still 28)
        ((37, 30), False, True, 1),  # a ball touching the bridge hand
        ((34, 30), True, True, 1),
        (None, True, True, 0),  # the cue and the hand alone hold no ball
        (None, False, True, 0),
    ],
)
def test_a_ball_stands_out_of_the_cue_and_hand_it_touches(
    ball: tuple[int, int] | None, cue: bool, hand: bool, expected: int
) -> None:
    found = stand_out(_occluded(ball, cue, hand), (100, 200), 6.0, ClusterPrior())
    assert len(found) == expected
    if ball is not None and expected:
        assert np.hypot(found[0, 0] - 100 - ball[0], found[0, 1] - 200 - ball[1]) < 1.5


def _on_strip(ball_below: int | None, use_dark: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """A strip of cushion shade (4 px, the whole blob's width) with a black ball (radius 4.5)
    half on it, its centre ``ball_below`` pixels under the strip's top; and the dark mask."""
    blob = np.zeros((20, 120), np.uint8)
    blob[0:4, :] = 1
    dark = np.zeros_like(blob)
    if ball_below is not None:
        cv2.circle(blob, (60, ball_below), 4, 1, -1)
        cv2.circle(dark, (60, ball_below), 4, 1, -1)
    return blob.astype(bool), (dark.astype(bool) if use_dark else None)


@pytest.mark.parametrize(
    ("ball_below", "use_dark", "expected"),
    [
        (4, True, 1),  # the black against the far cushion (still 4): found by its darkness
        (4, False, 0),  # by shape alone the strip holds it (the opening keeps them joined)
        (None, True, 0),  # the strip alone holds no ball
        (None, False, 0),
    ],
)
def test_a_black_on_the_cushion_strip_stands_out_by_its_darkness(
    ball_below: int | None, use_dark: bool, expected: int
) -> None:
    blob, dark = _on_strip(ball_below, use_dark)
    found = stand_out(blob, (10, 20), 4.3, ClusterPrior(), None, dark)
    assert len(found) == expected
    if ball_below is not None and expected:
        assert np.hypot(found[0, 0] - 70, found[0, 1] - 20 - ball_below) < 1.0


@pytest.mark.parametrize(
    ("hue_off", "near_pocket", "cut", "expected"),
    [
        (0.5, True, False, True),  # the cloth in a pocket's shade
        (0.5, False, True, True),  # a stretch of cushion cut from its strip
        (0.5, False, False, False),  # open cloth is never judged by colour alone
        (8.0, True, False, False),  # the green ball by a pocket is bluer than the cloth
        (8.0, False, True, False),
    ],
)
def test_cloth_coloured_detections_by_pockets_and_cushions(
    hue_off: float, near_pocket: bool, cut: bool, expected: bool
) -> None:
    model = learn_cloth(_table([]))
    assert model.pockets is not None
    a, b = float(model.lab[1]) - 128.0, float(model.lab[2]) - 128.0
    hue = np.degrees(np.arctan2(b, a)) % 360.0 + hue_off
    chroma = 0.8 * np.hypot(a, b)
    feats = np.array([[0.6, chroma * np.cos(np.radians(hue)), chroma * np.sin(np.radians(hue)), chroma, hue]])
    r = 5.5
    centre = model.pockets[0] + (-2.0 * r, 2.0 * r) if near_pocket else np.array([320.0, 180.0])
    shade = cloth_shade(model, centre[None], np.array([r]), feats, np.array([cut]))
    assert bool(shade[0]) is expected


@pytest.mark.parametrize(
    ("hue_off", "light", "expected"),
    [
        (0.5, 0.9, True),  # a piece of the cloth (a chalk line's stub split off a ball on the baulk line)
        (-4.0, 0.7, True),  # the cloth in a pocket's jaws, warmed by the leather
        (8.0, 0.9, False),  # the green ball: bluer than the cloth round it
        (-12.0, 0.9, False),  # the white's side: yellower than any shade of the cloth
        (-3.0, 1.6, False),  # the white, as green as the cloth blurred into it, but far lighter
    ],
)
def test_cloth_coloured_detections_against_the_cloth_round_them(
    hue_off: float, light: float, expected: bool
) -> None:
    """In open cloth (no pocket, nothing cut) a detection is judged against the cloth round it,
    here 5 degrees off the bed's overall hue (a render's uneven light)."""
    model = learn_cloth(_table([]))
    a, b = float(model.lab[1]) - 128.0, float(model.lab[2]) - 128.0
    local_hue = np.degrees(np.arctan2(b, a)) % 360.0 + 5.0
    local = np.array([[local_hue, np.hypot(a, b), 1.0]])
    hue = local_hue + hue_off
    chroma = 0.8 * np.hypot(a, b)
    a_b = (chroma * np.cos(np.radians(hue)), chroma * np.sin(np.radians(hue)))
    feats = np.array([[light, *a_b, chroma, hue]])
    centre = np.array([[320.0, 180.0]])
    assert bool(cloth_shade(model, centre, np.array([5.5]), feats, np.array([False]), local)[0]) is expected
    assert not cloth_shade(model, centre, np.array([5.5]), feats, np.array([False]))[0]


@pytest.mark.parametrize("first", [LONE, LONE + _row(3, (580.0, 360.0)), _row(2, (600.0, 360.0))])
def test_a_still_is_detected_alike_after_any_other(first: list[tuple[float, float]]) -> None:
    """A detector with no video's cloth model treats each picture on its own: a still with
    one lone ball (too few to measure the cluster prior) is split as by a fresh detector."""
    still = _table([LONE[0], *_triangle(3, (640.0, 320.0))])
    reused = ClassicalDetector(classifier=None)
    reused.detect(_table(first))
    again = reused.detect(still)
    fresh = ClassicalDetector(classifier=None).detect(still)
    assert np.allclose(again.pixel, fresh.pixel)


@pytest.mark.parametrize(
    ("colour", "depth", "named"),
    [
        ((40, 140, 40), 1.6, False),  # a patch of the cloth's own hue by the cushion: its nose
        ((40, 140, 40), 6.0, False),  # the same in open cloth: the cloth round it is its colour
        ((60, 140, 30), 6.0, True),  # the green ball in open cloth, 7 degrees bluer than the cloth
        ((200, 60, 20), 1.6, True),  # a blue ball against the cushion is a ball
    ],
)
def test_cloth_coloured_blobs_by_the_cushion_are_not_balls(
    colour: tuple[int, int, int], depth: float, named: bool
) -> None:
    image = _table(LONE)
    place = (400.0, 60.0 + depth * RADIUS)  # the bed's top edge is at row 60
    cv2.circle(image, (round(place[0]), round(place[1])), round(RADIUS), colour, -1, cv2.LINE_AA)
    found = ClassicalDetector().detect(image)
    assert bool(np.any(np.hypot(*(found.pixel - np.array(place)).T) < RADIUS)) == named


@pytest.mark.parametrize(
    ("hue_off", "light", "chroma", "expected"),
    [
        (3.7, 1.01, 0.95, True),  # cloth and chalk at the D's corner, split off the yellow (1280x720)
        (-6.1, 0.96, 0.97, True),  # the brown's bare spot, the brown's blur rolling off it
        (7.0, 0.93, 0.88, False),  # the green nearest the cloth's colour over the Task1 stills
        (3.0, 0.82, 0.86, False),  # the green nearest the cloth's hue over the Task1 stills
        (8.0, 1.34, 1.04, False),  # a render's green, lit brighter than the cloth
    ],
)
def test_a_detection_of_the_cloths_own_colour_is_cloth(
    hue_off: float, light: float, chroma: float, expected: bool
) -> None:
    """Lightness, chroma and hue all the cloth's round it: a piece of cloth, on either side of
    its hue (past the shade test's limits, which allow one side only a few degrees)."""
    model = learn_cloth(_table([]))
    a, b = float(model.lab[1]) - 128.0, float(model.lab[2]) - 128.0
    local_hue = np.degrees(np.arctan2(b, a)) % 360.0
    local = np.array([[local_hue, np.hypot(a, b), 1.0]])
    hue = local_hue + hue_off
    c = chroma * np.hypot(a, b)
    feats = np.array([[light, c * np.cos(np.radians(hue)), c * np.sin(np.radians(hue)), c, hue]])
    centre = np.array([[320.0, 180.0]])
    assert bool(cloth_shade(model, centre, np.array([5.5]), feats, np.array([False]), local)[0]) is expected


@pytest.mark.parametrize(
    ("centre", "expected"),
    [
        ((640.0, 360.0), True),  # mid-bed
        ((640.0, 60.0 + 1.5 * RADIUS), True),  # a ball against the top cushion
        ((640.0, 60.0 + 0.4 * RADIUS), False),  # a piece of the cushion's nose
        ((140.0 + 0.2 * RADIUS, 360.0), False),
    ],
)
def test_the_cluster_prior_is_measured_on_the_bed_only(centre: tuple[float, float], expected: bool) -> None:
    model = learn_cloth(_table([]))
    s = model.scale
    work = (np.array([centre]) + 0.5) * s - 0.5
    assert bool(_on_bed(model, work, np.array([RADIUS * s]))[0]) is expected
