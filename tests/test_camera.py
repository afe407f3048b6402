"""Camera model: projections and their inverses agree (property tests)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.camera import Camera, Intrinsics, Pose
from calibration.homography import Homography
from calibration.table import TABLE, Colour

poses = st.builds(
    Pose,
    height=st.floats(2500, 6000),
    tilt=st.floats(0, 35),
    yaw=st.floats(-180, 180),
    roll=st.floats(-10, 10),
    offset=st.tuples(st.floats(-200, 200), st.floats(-150, 150)),
)
lenses = st.tuples(
    st.floats(-0.25, 0.1),
    st.floats(-0.05, 0.05),
    st.floats(-0.002, 0.002),
    st.floats(-0.002, 0.002),
    st.just(0.0),
)
points = st.tuples(st.floats(0, TABLE.length), st.floats(0, TABLE.width))


def _camera(pose: Pose, dist: tuple[float, ...]) -> Camera:
    return Camera(Intrinsics.from_fov(1280, 720, 70.0, dist), pose)


@settings(max_examples=60, deadline=None)
@given(pose=poses, dist=lenses, xy=points, z=st.sampled_from([0.0, TABLE.ball_radius]))
def test_project_then_back_is_identity(pose: Pose, dist: tuple[float, ...], xy, z: float) -> None:
    cam = _camera(pose, dist)
    px = cam.project(np.array([xy]), z=z)
    back = cam.pixels_to_table(px, z=z)
    assert back[0] == pytest.approx(xy, abs=0.05)


@settings(max_examples=40, deadline=None)
@given(pose=poses, xy=points)
def test_homography_agrees_with_projection_without_distortion(pose: Pose, xy) -> None:
    cam = _camera(pose, (0.0,) * 5)
    assert cam.table_to_image().apply(xy)[0] == pytest.approx(cam.project([xy])[0], abs=1e-6)


def test_vertical_camera_puts_table_centre_at_image_centre() -> None:
    cam = _camera(Pose(height=4000.0), (0.0,) * 5)
    centre = cam.project([(TABLE.length / 2, TABLE.width / 2)])[0]
    assert centre == pytest.approx((640.0, 360.0), abs=1e-6)
    # table x runs to the image right and, as on a real table seen from above (yellow on
    # the right looking up from baulk), y runs to the image bottom
    right = cam.project([(TABLE.length / 2 + 100, TABLE.width / 2 + 100)])[0]
    assert right[0] > 640 and right[1] > 360


@pytest.mark.parametrize("yaw", [0.0, 37.0, 90.0, 180.0, -120.0])
@pytest.mark.parametrize("tilt", [0.0, 30.0])
def test_images_are_never_mirrored(yaw: float, tilt: float) -> None:
    """Looking up the table from baulk, the yellow spot is on the right (Section 1 Rule 1(f)),
    whatever the camera's pose: the image of (baulk -> top, green -> yellow) keeps its
    orientation, i.e. the projected frame has the same handedness as a real table seen from
    above (counter-clockwise from +x to +y in the image, whose y axis points down)."""
    cam = _camera(Pose(height=3500.0, tilt=tilt, yaw=yaw), (0.0,) * 5)
    brown, black, yellow = (
        cam.project([TABLE.spots[c]])[0] for c in (Colour.BROWN, Colour.BLACK, Colour.YELLOW)
    )
    up_table, to_yellow = black - brown, yellow - brown
    cross = up_table[0] * to_yellow[1] - up_table[1] * to_yellow[0]
    assert cross > 0  # in image coordinates (v down), a clockwise turn: yellow to the right


def test_camera_height_is_above_the_cloth() -> None:
    cam = _camera(Pose(height=3500.0, tilt=25.0, yaw=40.0), (0.0,) * 5)
    assert cam.centre[2] == pytest.approx(3500.0)
    assert (cam.depth([(1000.0, 500.0)]) > 0).all()


def test_ball_centre_plane_differs_from_cloth_under_tilt() -> None:
    cam = _camera(Pose(height=3500.0, tilt=30.0), (0.0,) * 5)
    cloth = cam.project([(300.0, 300.0)], z=0.0)[0]
    ball = cam.project([(300.0, 300.0)], z=TABLE.ball_radius)[0]
    assert np.linalg.norm(cloth - ball) > 0.5


def test_serialisation_round_trip() -> None:
    cam = _camera(Pose(3800.0, 20.0, 30.0, 2.0, (10.0, -5.0)), (-0.1, 0.01, 0.0, 0.0, 0.0))
    again = Camera.from_dict(cam.to_dict())
    assert again == cam


@pytest.mark.parametrize(
    "matrix", [np.zeros((3, 3)), np.ones((2, 3)), np.array([[1, 0, 0], [0, 1, 0], [0, 0, np.nan]])]
)
def test_homography_rejects_bad_matrices(matrix: np.ndarray) -> None:
    with pytest.raises(ValueError):
        Homography(matrix)


def test_homography_rejects_bad_points() -> None:
    with pytest.raises(ValueError, match=r"shape \(N, 2\)"):
        Homography(np.eye(3)).apply(np.zeros((3, 3)))


@pytest.mark.parametrize(("kwargs", "message"), [({"height": 0}, "height"), ({"tilt": 85}, "tilt")])
def test_pose_validates(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Pose(**kwargs)
