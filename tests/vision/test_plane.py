"""The cloth plane from the bed's outline, for any orientation of the table in the image."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.camera import Camera, Intrinsics, Pose
from calibration.homography import Homography
from calibration.table import TABLE
from vision.detection.plane import (
    bed_quad,
    foreshortening,
    jacobians,
    plane_from_quad,
    radius_map,
    width_along_rows,
)

SHAPE = (360, 640)
CENTRE = np.array([[TABLE.length / 2, TABLE.width / 2]])
CORNERS = np.array([[0.0, 0.0], [TABLE.length, 0.0], [TABLE.length, TABLE.width], [0.0, TABLE.width]])


def half_scale_plane(yaw: float, tilt: float) -> Homography:
    """Table millimetres to half-scale pixels of a 1280x720 camera above the table's centre."""
    cam = Camera(Intrinsics.from_fov(1280, 720, 60.0), Pose(height=7500.0, tilt=tilt, yaw=yaw))
    half = Homography(np.diag([0.5, 0.5, 1.0]))
    return cam.table_to_image(0.0).then(half)


def outline(plane: Homography) -> npt.NDArray[np.uint8]:
    """The bed's filled outline (straight edges: the quad fit's own job is tested on footage)."""
    region = np.zeros(SHAPE, np.uint8)
    cv2.fillConvexPoly(region, np.round(plane.apply(CORNERS)).astype(np.int32), 1)
    return region


@settings(max_examples=12, deadline=None)
@given(yaw=st.floats(-180.0, 180.0), tilt=st.floats(0.0, 20.0))
def test_radius_at_the_centre_matches_the_true_plane(yaw: float, tilt: float) -> None:
    truth = half_scale_plane(yaw, tilt)
    quad = bed_quad(outline(truth))
    assert quad is not None
    plane = plane_from_quad(quad, SHAPE)
    assert plane is not None
    expected = float(np.linalg.svd(jacobians(truth, CENTRE)[0], compute_uv=False)[0]) * TABLE.ball_radius
    u, v = truth.apply(CENTRE)[0]
    assert float(radius_map(plane, SHAPE)[int(v), int(u)]) == pytest.approx(expected, rel=0.05)


@pytest.mark.parametrize(("yaw", "along_rows"), [(0.0, False), (90.0, True), (30.0, False), (-90.0, True)])
def test_orientation_of_a_straight_down_view(yaw: float, along_rows: bool) -> None:
    truth = half_scale_plane(yaw, 0.0)
    quad = bed_quad(outline(truth))
    assert quad is not None
    plane = plane_from_quad(quad, SHAPE)
    assert plane is not None
    assert foreshortening(plane) == pytest.approx(1.0, abs=0.05)
    assert width_along_rows(plane) is along_rows
