"""The synthetic camera: balls land on their true pixels, clips decode, truth files agree.

Renders are tiny (320x180 or 640x360, a second or two) and use hand-made Timelines, so the
file runs in seconds without the physics engine.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.eventlog import FrameStart, Strike, read_events
from calibration.calibrate import Calibration
from calibration.camera import Camera, Intrinsics, Pose
from calibration.fit import NOSE_HEIGHT
from calibration.markings import sample
from calibration.table import TABLE
from vision.synthetic.clip import frame_times, render_clip, sample_positions, truth_cover
from vision.synthetic.conditions import Conditions, broadcast, random_conditions
from vision.synthetic.cover import read_cover_csv
from vision.synthetic.occluders import capsules_at
from vision.synthetic.render import Renderer, cast_rays, render_background
from vision.synthetic.timeline import Action, Timeline
from vision.tracks import Tracks, TrackState


def _timeline(duration: float = 1.0) -> Timeline:
    """White rolling along the table; red1 at rest, lifted off (potted) at half time."""
    times = np.linspace(0.0, duration, 201)
    pos = np.zeros((len(times), 2, 2))
    pos[:, 0, 0] = np.linspace(600.0, 2600.0, len(times))
    pos[:, 0, 1] = 700.0
    pos[:, 1] = (2000.0, 1200.0)
    pos[times >= duration / 2, 1] = np.nan
    start = {"white": (600.0, 700.0), "red1": (2000.0, 1200.0)}
    events = (FrameStart(t=0.0, players=("A", "B"), striker=0, reds=1, positions=start), Strike(t=0.0))
    action = Action("stroke", 0.0, 0.4 * duration, "white", (600.0, 700.0), 0.0)
    return Timeline(("white", "red1"), times, pos, events, (action,))


@settings(max_examples=30, deadline=None)
@given(st.floats(0.0, 1.0))
def test_sample_positions_match_timeline(t: float) -> None:
    tl = _timeline()
    np.testing.assert_allclose(sample_positions(tl, [t])[0], tl.positions_at(t), equal_nan=True)


@pytest.mark.parametrize(
    "conditions",
    [broadcast(640, 360), random_conditions(3, 640, 360), random_conditions(8, 640, 360)],
    ids=["broadcast", "random3", "random8"],
)
def test_ball_drawn_at_its_true_pixel(conditions: Conditions) -> None:
    """The ball's coverage is centred on the truth pixel, and it changes the frame there."""
    quiet = replace(conditions, noise=0.0)
    renderer = Renderer(quiet)
    xy = np.array([[1500.0, 1000.0]])
    layer = renderer.painter.ball_layer("white", xy)
    assert layer is not None
    (x0, y0, _, _), alpha, _ = layer
    ys, xs = np.mgrid[0 : alpha.shape[0], 0 : alpha.shape[1]]
    a = alpha[..., 0]
    centroid = np.array([(xs * a).sum() / a.sum() + x0, (ys * a).sum() / a.sum() + y0])
    truth = quiet.camera.project(xy, TABLE.ball_radius)[0]
    assert np.hypot(*(centroid - truth)) < 0.5
    frame = renderer.frame(("white",), xy[None], None)
    u, v = np.round(truth).astype(int)
    assert np.abs(frame[v, u].astype(int) - renderer.background[v, u]).sum() > 60


_BROADCAST = Renderer(replace(broadcast(640, 360), noise=0.0))


@settings(max_examples=25, deadline=None)
@given(
    st.floats(TABLE.ball_radius, TABLE.length - TABLE.ball_radius),
    st.floats(TABLE.ball_radius, TABLE.width - TABLE.ball_radius),
)
def test_any_ball_on_the_bed_is_centred_on_its_truth_pixel(x: float, y: float) -> None:
    """Anywhere on the bed, the silhouette's centroid is within half a pixel of the
    projected centre (perspective moves a sphere's outline centre only slightly)."""
    layer = _BROADCAST.painter.ball_layer("red1", np.array([[x, y]]))
    assert layer is not None
    (x0, y0, _, _), alpha, _ = layer
    a = alpha[..., 0]
    ys, xs = np.mgrid[0 : a.shape[0], 0 : a.shape[1]]
    centroid = np.array([(xs * a).sum() / a.sum() + x0, (ys * a).sum() / a.sum() + y0])
    truth = _BROADCAST.conditions.camera.project([(x, y)], TABLE.ball_radius)[0]
    assert np.hypot(*(centroid - truth)) < 0.5


def test_a_ball_dropping_within_the_exposure_is_faded() -> None:
    """Present for half the exposure: drawn at about half its coverage."""
    xy = np.array([[1500.0, 900.0]])
    full = _BROADCAST.frame(("black",), np.repeat(xy[None], 4, axis=0), None).astype(int)
    half_track = np.repeat(xy[None], 4, axis=0)
    half_track[2:] = np.nan
    half = _BROADCAST.frame(("black",), half_track, None).astype(int)
    u, v = np.round(_BROADCAST.conditions.camera.project(xy, TABLE.ball_radius)[0]).astype(int)
    bg = _BROADCAST.background[v, u].astype(int)
    ratio = np.abs(half[v, u] - bg).sum() / np.abs(full[v, u] - bg).sum()
    assert 0.35 < ratio < 0.65


def test_occluders_cover_the_white_during_a_stroke() -> None:
    tl = _timeline()
    caps = capsules_at(tl.actions, 0.05)
    assert caps, "a stroke action puts a player at the table"
    assert not capsules_at(tl.actions, 0.9)


def test_clip_files_agree(tmp_path: Path) -> None:
    tl = _timeline(1.0)
    cond = broadcast(320, 180, fps=25.0)
    files = render_clip(tl, cond, tmp_path, "demo")
    n = len(frame_times(tl, cond.fps))
    cap = cv2.VideoCapture(str(files.video))
    count = 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        assert frame.shape == (180, 320, 3)
        count += 1
    assert count == n == files.frames
    tracks = Tracks.from_csv(files.tracks)
    assert tracks.position.shape == (n, 2, 2)
    red = tracks.ball_names.index("red1")
    # The potted red leaves the per-frame positions at its pot time and stays gone.
    gone = tracks.state[:, red] == int(TrackState.ABSENT)
    assert gone.any() and np.all(gone[np.argmax(gone) :])
    assert np.all(tracks.times[gone] >= 0.5)
    events = list(read_events(files.truth.read_text().splitlines(), str(files.truth)))
    assert [e.type for e in events] == ["frame_start", "strike"]
    cam = json.loads(files.camera.read_text())
    assert cam["image_size"] == [320, 180] and cam["frames"] == n
    # The cover the clip wrote is the one re-written later without rendering (its own painter).
    cover = read_cover_csv(files.cover, tracks.ball_names, n)
    again = truth_cover(tl, cond, frame_times(tl, cond.fps))
    again[again < 0.0005] = 0.0
    np.testing.assert_allclose(cover, np.nan_to_num(again), atol=5e-4)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["simulate", "--scenario", "no_such_shot", "--out", "{tmp}"], "unknown scenario"),
        (
            ["simulate", "--scenario", "break_off", "--out", "{tmp}", "--width", "0", "--height", "0"],
            "--width",
        ),
        (
            ["simulate", "--scenario", "break_off", "--out", "{tmp}", "--width", "641", "--height", "360"],
            "even",
        ),
        (["simulate", "--scenario", "break_off", "--out", "/proc/baulkline/out"], "/proc/baulkline/out"),
        (["samples", "--out", "{tmp}", "--only", "no_such_sample"], "unknown sample"),
        (["samples", "--out", "{tmp}", "--cover-only", "--only", "05_touching"], "render the clip first"),
    ],
    ids=["unknown-scenario", "zero-size", "odd-size", "unwritable", "unknown-sample", "cover-without-clip"],
)
def test_bad_input_is_one_line(
    argv: list[str], needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vision.cli import main

    status = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err
    assert status != 0
    assert len(err.strip().splitlines()) == 1 and needle in err and "Traceback" not in err


def _close_up(yaw: float, tilt: float) -> Conditions:
    """A camera 600 mm above the cloth looking at the left cushion's nose 600 mm from the middle
    pocket (about 0.3 mm a pixel there), tilted ``tilt`` degrees towards azimuth ``yaw``."""
    intr = Intrinsics(640, 360, 700.0, 700.0, 320.0, 180.0)
    pose = Pose(height=600.0, tilt=tilt, yaw=yaw, offset=(-600.0, -TABLE.width / 2.0))
    return replace(broadcast(640, 360), camera=Camera(intr, pose), noise=0.0)


@pytest.mark.parametrize(("yaw", "tilt"), [(180.0, 15.0), (180.0, 35.0), (150.0, 30.0), (210.0, 30.0)])
def test_a_seen_cushion_steps_up_to_its_top_at_the_nose(yaw: float, tilt: float) -> None:
    """Where the camera sees the left cushion's face, the step from the shadowed face up to the
    cushion top (the edge the calibration fits, :mod:`calibration.fit`) and the lit fold over
    the nose both lie on the nose line at the rules' nose height, as on the real broadcast
    frames (:mod:`vision.synthetic.render`, "The cushions")."""
    conditions = _close_up(yaw, tilt)
    cal = Calibration.from_camera(conditions.camera)
    assert cal.camera_centre[1] > 100.0, "the camera must be over the bed to see the cushion's face"
    grey = cv2.cvtColor(render_background(conditions, cast_rays(conditions)), cv2.COLOR_BGR2GRAY)
    outward = np.arange(-20.0, 30.0, 0.25)  # mm outside the nose line
    along = TABLE.length / 2.0 - 600.0 + np.linspace(-40.0, 40.0, 5)
    pts = np.stack(np.broadcast_arrays(along[:, None], -outward[None, :]), axis=-1).reshape(-1, 2)
    prof = sample(grey, cal.table_to_pixels(pts, NOSE_HEIGHT).reshape(len(along), len(outward), 2))
    behind = outward >= 0
    for row in prof:
        shade = int(np.argmin(np.where(outward < 0, row, np.inf)))  # in the face's shadow
        top = float(row[behind].max())
        up = (row > (row[shade] + top) / 2.0) & (np.arange(len(row)) > shade)
        step = outward[np.argmax(up)]  # first sample past half-way up from the shadow
        brightest = outward[behind][np.argmax(row[behind])]
        assert abs(step) <= 1.0, f"the step to the cushion top lies {step:+.2f} mm off the nose line"
        assert brightest <= 1.0, f"the cushion top is brightest {brightest:.2f} mm behind the nose"
