"""Markings that mislead the joint fit: a cue beside the baulk-line, a forearm over a middle
pocket, and the checks that refuse or doubt a fit its own markings disagree with."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from calibration.calibrate import (
    DISAGREE_FREE_MM,
    MAX_HFOV_DEG,
    Calibration,
    check_lens,
    disagreement_mm,
)
from calibration.camera import Camera, Intrinsics, Pose
from calibration.errors import BaulklineError
from calibration.fit import (
    NARROWEST_HFOV_DEG,
    NEAR_VERTICAL_DEG,
    CameraFit,
    Observations,
    _narrow_lens_prior,
    initial_params,
    prior_focal,
    project_fit,
)
from calibration.pockets import AGREE_MM, _agreeing
from calibration.rectified import Patch, marking_score
from calibration.table import TABLE

DX, DY, REACH = 2.0, 3.0, 280.0


def _patch(line_at: float | None, arc_at: float | None, cue_at: float | None, hidden: float) -> Patch:
    """An end patch (chalk-line response) with a baulk-line and its D ``line_at``/``arc_at`` mm
    from where they belong, a cue (a wider, brighter straight line) ``cue_at`` mm off, and the
    first ``hidden`` share of the baulk-line's length under a player's arm."""
    x0 = TABLE.baulk_line - TABLE.d_radius - REACH
    xs = np.arange(x0, TABLE.baulk_line + REACH, DX)
    ys = np.arange(100.0, TABLE.width - 100.0, DY)
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    resp = np.zeros_like(gx)
    if line_at is not None:
        line = 3.0 * np.exp(-0.5 * ((gx - TABLE.baulk_line - line_at) / 2.0) ** 2)
        resp += np.where(gy > 100.0 + hidden * (TABLE.width - 200.0), line, 0.0)
    if arc_at is not None:
        cx = TABLE.baulk_line + arc_at
        r = np.hypot(gx - cx, gy - TABLE.centre_line_y)
        resp += np.where(gx <= cx, 3.0 * np.exp(-0.5 * ((r - TABLE.d_radius) / 2.0) ** 2), 0.0)
    if cue_at is not None:
        resp += 8.0 * np.exp(-0.5 * ((gx - TABLE.baulk_line - cue_at) / 5.0) ** 2)
    return Patch(resp, float(xs[0]), float(ys[0]), DX, DY, False)


@pytest.mark.parametrize(
    ("line_at", "arc_at", "cue_at", "hidden", "expect"),
    [
        pytest.param(0.0, 0.0, None, 0.0, 0.0, id="clear-markings"),
        pytest.param(-40.0, -40.0, 100.0, 0.4, -40.0, id="cue-beside-half-hidden-line"),
        pytest.param(30.0, 30.0, -120.0, 0.3, 30.0, id="cue-on-the-other-side"),
        pytest.param(0.0, None, None, 0.0, 0.0, id="d-hidden-line-decides"),
        pytest.param(None, 20.0, None, 0.0, 20.0, id="line-hidden-d-decides"),
    ],
)
def test_marking_score_wants_line_and_arc_together(
    line_at: float | None, arc_at: float | None, cue_at: float | None, hidden: float, expect: float
) -> None:
    score, shift = marking_score(_patch(line_at, arc_at, cue_at, hidden))
    assert abs(shift - expect) <= 2 * DX
    assert score > 0.0


def test_a_cue_alone_outshines_a_hidden_line_without_the_arc() -> None:
    """Why the arc is needed: the line's own contrast prefers the cue (the case the product of
    the two contrasts is there for)."""
    patch = _patch(-40.0, -40.0, 100.0, 0.4)
    flat = _patch(-40.0, None, 100.0, 0.4)
    assert abs(marking_score(patch)[1] + 40.0) <= 2 * DX
    assert abs(marking_score(flat)[1] - 100.0) <= 2 * DX


def _side(x: float, n: int = 4) -> np.ndarray:
    return np.stack([np.full(n, x), np.linspace(-8.0, -38.0, n)], axis=1)


MID = TABLE.length / 2.0


@pytest.mark.parametrize(
    ("xs", "kept"),
    [
        pytest.param([], [], id="none"),
        pytest.param([MID + 3.0], [MID + 3.0], id="one-side"),
        pytest.param([MID - 2.0, MID + 4.0], [MID - 2.0, MID + 4.0], id="agreeing"),
        pytest.param([MID + 65.0, MID - 2.0], [MID - 2.0], id="forearm-over-one"),
        pytest.param([MID + 1.0, MID - 50.0], [MID + 1.0], id="forearm-over-other"),
    ],
)
def test_middle_pockets_must_agree(xs: list[float], kept: list[float]) -> None:
    out = _agreeing([_side(x) for x in xs])
    assert sorted(set(out[:, 0].round(6).tolist())) == sorted(kept)


@settings(max_examples=40, deadline=None)
@given(st.floats(-80.0, 80.0), st.floats(-80.0, 80.0))
def test_middle_pocket_choice_ignores_order(a: float, b: float) -> None:
    assume(abs(abs(a) - abs(b)) > 1e-6)  # equally near the middle: no pocket to prefer
    one, two = _agreeing([_side(MID + a), _side(MID + b)]), _agreeing([_side(MID + b), _side(MID + a)])
    assert sorted(one[:, 0].tolist()) == sorted(two[:, 0].tolist())
    if abs(a - b) > AGREE_MM:
        assert len(one) == 4
        assert abs(one[0, 0] - MID) == pytest.approx(min(abs(a), abs(b)), abs=1e-9)


@pytest.mark.parametrize(
    ("hfov", "refused"),
    [(10.0, False), (80.0, False), (MAX_HFOV_DEG - 1.0, False), (MAX_HFOV_DEG + 1.0, True), (166.0, True)],
)
def test_an_impossible_lens_is_refused(hfov: float, refused: bool) -> None:
    width = 960
    focal = width / 2.0 / math.tan(math.radians(hfov) / 2.0)
    if refused:
        with pytest.raises(BaulklineError, match="disagree"):
            check_lens(focal, width)
    else:
        check_lens(focal, width)


def _fit_of(camera: Camera) -> CameraFit:
    cal = Calibration.from_camera(camera)
    return CameraFit(cal.camera_matrix, 0.0, cal.rvec, cal.tvec, 0.0, 1.0)


@settings(max_examples=25, deadline=None)
@given(st.floats(0.0, 30.0), st.floats(0.0, 360.0), st.floats(-150.0, 150.0))
def test_disagreement_measures_how_far_the_markings_lie(tilt: float, yaw: float, shift: float) -> None:
    """A baulk-line drawn ``shift`` mm along the table and a D ``shift`` mm wider than theirs are
    found that far (within a millimetre) from where a camera that never saw them puts them."""
    camera = Camera(Intrinsics.from_fov(960, 540, 60.0), Pose(height=4500.0, tilt=tilt, yaw=yaw))
    fit = _fit_of(camera)
    along = np.stack([np.full(12, TABLE.baulk_line + shift), np.linspace(200, TABLE.width - 200, 12)], 1)
    centre = np.array([TABLE.baulk_line, TABLE.centre_line_y])
    arc = centre + (TABLE.d_arc(12) - centre) * (1.0 + abs(shift) / TABLE.d_radius)
    obs = Observations(cushion={}, baulk=project_fit(fit, along), d_arc=project_fit(fit, arc))
    assert disagreement_mm(fit, obs) == pytest.approx(abs(shift), abs=1.0)


def test_too_few_markings_say_nothing() -> None:
    camera = Camera(Intrinsics.from_fov(960, 540, 60.0), Pose(height=4500.0))
    fit = _fit_of(camera)
    pts = project_fit(fit, np.array([[TABLE.baulk_line + 300.0, 500.0]]))
    obs = Observations(cushion={}, baulk=pts, d_arc=np.zeros((0, 2)))
    assert disagreement_mm(fit, obs) == 0.0
    assert DISAGREE_FREE_MM > 0.0


@pytest.mark.parametrize(
    ("hfov", "tilt", "charged"),
    [
        pytest.param(60.0, 2.0, False, id="wide-and-vertical"),
        pytest.param(NARROWEST_HFOV_DEG + 2.0, 2.0, False, id="inside-the-band"),
        pytest.param(20.0, 2.0, True, id="narrow-and-vertical"),
        pytest.param(20.0, NEAR_VERTICAL_DEG + 5.0, False, id="narrow-but-tilted"),
        pytest.param(10.0, 60.0, False, id="broadcast-telephoto"),
    ],
)
def test_only_a_narrow_lens_looking_straight_down_is_charged(hfov: float, tilt: float, charged: bool) -> None:
    """Perspective sets a tilted view's lens; looking straight down, nothing but the prior does."""
    camera = Camera(Intrinsics.from_fov(960, 540, hfov), Pose(height=4500.0, tilt=tilt, yaw=40.0))
    params = initial_params(camera.table_to_image().matrix, (960, 540))
    params[0] = math.log(camera.intrinsics.fx)
    cal = Calibration.from_camera(camera)
    params[1:4], params[4:7] = cal.rvec, cal.tvec
    row = _narrow_lens_prior(params[None], prior_focal((960, 540)))
    assert row.shape == (1, 1)
    assert bool(row[0, 0] > 0.0) is charged
