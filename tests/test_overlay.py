"""Overlay primitives: free-ball sight lines and drawing through a projector."""

from __future__ import annotations

import numpy as np

from calibration.camera import Camera, Intrinsics, Pose
from vision.overlay import (
    BAD_BGR,
    OK_BGR,
    Segment,
    d_outline,
    draw_primitives,
    free_ball_lines,
    reasons_for_call,
)


def test_free_ball_lines_mark_blocked_edges() -> None:
    # white at (1000, 889), red on at (2000, 889); blue squarely in the way on the left edge path
    positions = {"white": [1000.0, 889.0], "red1": [2000.0, 889.0], "blue": [1500.0, 889.0 + 52.0]}
    lines = [p for p in free_ball_lines(positions, ["red1"]) if isinstance(p, Segment)]
    assert len(lines) == 2
    assert sorted(line.colour for line in lines) == sorted([BAD_BGR, OK_BGR])


def test_clear_ball_has_two_green_lines() -> None:
    positions = {"white": [1000.0, 889.0], "red1": [2000.0, 889.0], "blue": [1500.0, 400.0]}
    lines = [p for p in free_ball_lines(positions, ["red1"]) if isinstance(p, Segment)]
    assert [line.colour for line in lines] == [OK_BGR, OK_BGR]


def test_draw_through_camera_changes_pixels() -> None:
    cam = Camera(Intrinsics.from_fov(640, 360, 70.0), Pose(height=3000.0))
    frame = np.zeros((360, 640, 3), np.uint8)
    prims = [d_outline(), *reasons_for_call({"call": "FOUL"}, {}, first_contact=(1784.0, 889.0))]
    draw_primitives(frame, prims, cam.project)
    assert frame.any()
