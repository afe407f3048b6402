"""Pots read from a ball's path into a mouth, with the camera's view of the pocket as evidence.

The detector loses a ball in a pocket's shade some way short of the mouth; a ball lost
behind a player's arm is lost the same way. These tests give the inferer the two kinds of
evidence the real pipeline has (the track, and how much of each pocket's approach was
hidden: :mod:`vision.events.pocket_view`) and check that only a ball rolling into a pocket in
plain view is potted.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.eventlog import Pot
from calibration.table import TABLE
from tests.events.scenes import simulate
from vision.events.config import EventConfig
from vision.events.exits import speeds_up
from vision.events.geometry import at_mouth, pocket_entry
from vision.events.infer import infer_tracks
from vision.events.kinematics import Motion
from vision.events.pocket_view import GRID_MM, PocketView, approach_points, occluders
from vision.events.synthetic import CameraNoise, tracks_from_timeline
from vision.synthetic.timeline import Timeline
from vision.tracks import Tracks, TrackState

FPS = 30.0
NOISE = 1.0
POCKETS = list(TABLE.pockets)


def pot_scene(speed: float) -> Timeline:
    """The white straight at a red lined up with the top-right pocket (a full-ball hit sends
    the red on at about the white's speed, less the cloth's slowing)."""
    p = TABLE.pockets["top_right"]
    mx, my = p.mouth_midpoint
    d = np.array([mx - p.centre[0], my - p.centre[1]]) / math.hypot(mx - p.centre[0], my - p.centre[1])
    red = np.array(p.centre) + d * 500.0
    white = red + d * 700.0
    return simulate({"white": tuple(white), "red1": tuple(red)}, tuple(-d * speed), t_strike=1.5, tail=1.5)


def lose_short(tracks: Tracks, ball: str, short_mm: float, state: TrackState) -> tuple[Tracks, int]:
    """The tracks with ``ball`` unmeasured from when it comes within ``short_mm`` of the
    top-right mouth on; and the first such frame."""
    b = tracks.ball_names.index(ball)
    mouth = np.array(TABLE.pockets["top_right"].mouth_midpoint)
    d = np.hypot(*(tracks.position[:, b] - mouth).T)
    near = np.flatnonzero(~(d > short_mm))  # NaN (off the cloth) counts as near
    k = int(near[0])
    pos, st_ = tracks.position.copy(), tracks.state.copy()
    st_[k:, b] = state
    if state == TrackState.ABSENT:
        pos[k:, b] = np.nan
    else:
        pos[k:, b] = pos[k - 1, b]
    return Tracks(tracks.ball_names, tracks.times, pos, tracks.pixel, st_.astype(np.int8)), k


def view(n: int, hidden_from: int | None = None, share: float = 0.6) -> np.ndarray:
    """Per frame hidden shares: all clear, or top-right covered from ``hidden_from`` on."""
    out = np.zeros((n, len(POCKETS)))
    if hidden_from is not None:
        out[hidden_from:, POCKETS.index("top_right")] = share
    return out


def pots(events: list) -> list[tuple[str, str]]:
    return [(e.ball, e.pocket) for e in events if isinstance(e, Pot)]


@pytest.mark.parametrize("state", [TrackState.ABSENT, TrackState.PREDICTED])
@pytest.mark.parametrize(("speed", "short_mm"), [(1800.0, 200.0), (2500.0, 200.0), (1200.0, 150.0)])
def test_ball_lost_short_of_a_mouth_in_view_is_potted(
    state: TrackState, speed: float, short_mm: float
) -> None:
    """Lost 15-20 cm short of the mouth (its last sighting up to a frame's travel further),
    rolling into it, the pocket's approach in view and the ball never seen again: potted in
    that pocket."""
    tracks = tracks_from_timeline(
        pot_scene(speed), CameraNoise(fps=FPS, noise_mm=NOISE, dropout=0.0), np.random.default_rng(3)
    )
    lost, _ = lose_short(tracks, "red1", short_mm, state)
    events = infer_tracks(lost, noise_mm=NOISE, hidden=view(len(lost.times)))
    assert pots(events) == [("red1", "top_right")]


@pytest.mark.parametrize("covered", [True, False])
def test_ball_lost_short_of_a_covered_or_unwatched_pocket_is_not_potted(covered: bool) -> None:
    """The same ball, but a player covers the pocket's approach as it is lost (or nothing is
    known of the view): vanishing is no evidence of a pot."""
    tracks = tracks_from_timeline(
        pot_scene(1800.0), CameraNoise(fps=FPS, noise_mm=NOISE, dropout=0.0), np.random.default_rng(4)
    )
    lost, k = lose_short(tracks, "red1", 200.0, TrackState.ABSENT)
    hidden = view(len(lost.times), hidden_from=k - 2) if covered else None
    assert pots(infer_tracks(lost, noise_mm=NOISE, hidden=hidden)) == []


def test_ball_lost_further_short_than_the_blind_stretch_is_not_potted() -> None:
    """Lost 34 cm short, further than the stretch of bed whose view is measured: nothing
    vouches for the rest of its way, so no pot even with the approach in view."""
    tracks = tracks_from_timeline(
        pot_scene(2500.0), CameraNoise(fps=FPS, noise_mm=NOISE, dropout=0.0), np.random.default_rng(5)
    )
    lost, _ = lose_short(tracks, "red1", 340.0, TrackState.ABSENT)
    assert pots(infer_tracks(lost, noise_mm=NOISE, hidden=view(len(lost.times)))) == []


def test_track_into_a_covered_pocket_is_not_potted() -> None:
    """Tracked all the way to the mouth, but the pocket's approach covered from the frame it
    vanished: the track may be riding an arm over the pocket (a ball under it stays put)."""
    tracks = tracks_from_timeline(
        pot_scene(1800.0), CameraNoise(fps=FPS, noise_mm=NOISE, dropout=0.0), np.random.default_rng(6)
    )
    b = tracks.ball_names.index("red1")
    k = int(np.flatnonzero(tracks.state[:, b] == TrackState.ABSENT)[0])
    assert pots(infer_tracks(tracks, noise_mm=NOISE, hidden=view(len(tracks.times)))) == [
        ("red1", "top_right")
    ]
    assert pots(infer_tracks(tracks, noise_mm=NOISE, hidden=view(len(tracks.times), hidden_from=k))) == []


@pytest.mark.parametrize("clear_before", [1, 2, 3])
def test_track_into_a_pocket_covered_while_it_was_seen_is_not_potted(clear_before: int) -> None:
    """Tracked to the mouth while a player covered the approach, the player gone a frame or
    few before the track vanished: the sightings the path was read from were made under the
    player (a track riding a sleeve out of the approach as the player straightens up)."""
    tracks = tracks_from_timeline(
        pot_scene(1800.0), CameraNoise(fps=FPS, noise_mm=NOISE, dropout=0.0), np.random.default_rng(6)
    )
    b = tracks.ball_names.index("red1")
    k = int(np.flatnonzero(tracks.state[:, b] == TrackState.ABSENT)[0])
    hidden = view(len(tracks.times), hidden_from=k - 12)
    hidden[k - clear_before :] = 0.0
    assert pots(infer_tracks(tracks, noise_mm=NOISE, hidden=hidden)) == []


@pytest.mark.parametrize(
    ("start", "velocity", "pocket"),
    [
        ((360.0, 1744.0), (-3300.0, 1020.0), None),  # into the side rail 30 cm short of the corner
        ((600.0, 1700.0), (-3000.0, 0.0), None),  # along the rail, clear of it: meets the baulk cushion
        ((400.0, 1751.0), (-3000.0, 120.0), "baulk_right"),  # running in along the rail
        ((200.0, 1600.0), (-1500.0, 1500.0), "baulk_right"),  # straight at the mouth
    ],
)
def test_a_path_through_a_cushion_enters_no_pocket_beyond_it(
    start: tuple[float, float], velocity: tuple[float, float], pocket: str | None
) -> None:
    """A line extrapolated from a ball's last sighting meets the pocket it rolls into, not
    one behind a cushion its centre would have to pass through."""
    coef = np.array([start, velocity, (0.0, 0.0)])
    path = Motion(t0=0.0, coef=coef, t_first=-0.1, t_last=0.0, n=4)
    entry = pocket_entry(path, 0.0, 0.3, TABLE, 1000.0)
    assert (entry.pocket if entry else None) == pocket


@pytest.mark.parametrize(
    ("point", "velocity", "pocket"),
    [
        ((3485.0, 1770.0), (400.0, 700.0), "top_right"),  # by the near jaw, heading in
        ((3530.0, 1735.0), (500.0, 500.0), "top_right"),  # square in the mouth
        ((3485.0, 1770.0), (-400.0, -700.0), None),  # by the jaw, coming out
        ((3380.0, 1745.0), (400.0, 700.0), None),  # against the rail, five radii short of the jaw
        ((1784.5, 1760.0), (0.0, 600.0), "middle_right"),
        ((1784.5, 1700.0), (0.0, 600.0), None),  # three radii short of a middle mouth
    ],
)
def test_a_centre_at_a_mouth_heading_in_is_at_that_mouth(
    point: tuple[float, float], velocity: tuple[float, float], pocket: str | None
) -> None:
    assert at_mouth(np.array(point), np.array(velocity), TABLE) == pocket


def test_a_ball_struck_at_a_mouth_and_seen_once_is_potted() -> None:
    """A red at rest three radii from the top-right mouth, struck in, unmeasured in its blur
    until it is seen once at the jaws, its centre misplaced along the mouth towards a jaw
    (the jaw's shade), never again: potted there though one sighting since the contact is
    no path to fit; with the approach covered, not."""
    p = TABLE.pockets["top_right"]
    mx, my = p.mouth_midpoint
    d = np.array([mx - p.centre[0], my - p.centre[1]]) / math.hypot(mx - p.centre[0], my - p.centre[1])
    red = np.array([mx, my]) + d * 3.0 * TABLE.ball_radius
    white = red + d * 600.0
    scene = simulate({"white": tuple(white), "red1": tuple(red)}, tuple(-d * 1500.0), t_strike=1.5, tail=1.5)
    tracks = tracks_from_timeline(
        scene, CameraNoise(fps=FPS, noise_mm=NOISE, dropout=0.0), np.random.default_rng(7)
    )
    b = tracks.ball_names.index("red1")
    moved = np.hypot(*(tracks.position[:, b] - red).T) > 10.0
    k0 = int(np.flatnonzero(moved)[0])  # the first frame it is away from its spot
    at_jaws = np.flatnonzero(np.hypot(*(tracks.position[:, b] - np.array([mx, my])).T) <= TABLE.ball_radius)
    k = int(at_jaws[0]) if len(at_jaws) else k0 + 1
    pos, st_ = tracks.position.copy(), tracks.state.copy()
    jaw = np.asarray(p.jaws[0]) - np.array([mx, my])
    pos[k, b] += 45.0 * jaw / math.hypot(*jaw)
    st_[k0:k, b] = TrackState.PREDICTED
    st_[k + 1 :, b] = TrackState.ABSENT
    pos[k + 1 :, b] = np.nan
    assert st_[k, b] == TrackState.SEEN and k - k0 <= 3
    seen_once = Tracks(tracks.ball_names, tracks.times, pos, tracks.pixel, st_.astype(np.int8))
    assert pots(infer_tracks(seen_once, noise_mm=NOISE, hidden=view(len(tracks.times)))) == [
        ("red1", "top_right")
    ]
    covered = view(len(tracks.times), hidden_from=k0 - 1)
    assert pots(infer_tracks(seen_once, noise_mm=NOISE, hidden=covered)) == []


def _standing_at_the_mouth(gap_radii: float, seed: int) -> tuple[Tracks, int]:
    """A red standing ``gap_radii`` radii short of the top-right mouth line, the white sent
    straight at it along the pocket's line; the red never measured once it moves (it drops
    within two frames, blurred in the jaws' shade); and the first frame it is away."""
    p = TABLE.pockets["top_right"]
    mx, my = p.mouth_midpoint
    d = np.array([mx - p.centre[0], my - p.centre[1]]) / math.hypot(mx - p.centre[0], my - p.centre[1])
    red = np.array([mx, my]) + d * gap_radii * TABLE.ball_radius
    white = red + d * 600.0
    scene = simulate({"white": tuple(white), "red1": tuple(red)}, tuple(-d * 1500.0), t_strike=1.5, tail=1.5)
    tracks = tracks_from_timeline(
        scene, CameraNoise(fps=FPS, noise_mm=NOISE, dropout=0.0), np.random.default_rng(seed)
    )
    b = tracks.ball_names.index("red1")
    k0 = int(np.flatnonzero(np.hypot(*(tracks.position[:, b] - red).T) > 10.0)[0])
    pos, st_ = tracks.position.copy(), tracks.state.copy()
    st_[k0:, b] = TrackState.ABSENT
    pos[k0:, b] = np.nan
    return Tracks(tracks.ball_names, tracks.times, pos, tracks.pixel, st_.astype(np.int8)), k0


@pytest.mark.parametrize(("gap_radii", "seed"), [(1.0, 8), (1.5, 9), (2.0, 10)])
def test_a_ball_standing_at_a_mouth_knocked_in_unseen_is_potted(gap_radii: float, seed: int) -> None:
    """The red at the mouth is never measured moving, but the white touches it just as it
    vanishes, along a line of centres into the mouth, the approach in view: potted there.
    With the approach covered from then on, no evidence: not potted."""
    tracks, k0 = _standing_at_the_mouth(gap_radii, seed)
    assert pots(infer_tracks(tracks, noise_mm=NOISE, hidden=view(len(tracks.times)))) == [
        ("red1", "top_right")
    ]
    covered = view(len(tracks.times), hidden_from=k0)
    assert pots(infer_tracks(tracks, noise_mm=NOISE, hidden=covered)) == []


def test_a_ball_vanishing_at_a_mouth_with_nothing_near_is_not_potted() -> None:
    """The same red lost by the tracker with the white still half a table away: no ball
    touched it, so nothing sent it in (a hand may have picked it up)."""
    tracks, k0 = _standing_at_the_mouth(1.5, 11)
    b = tracks.ball_names.index("red1")
    pos, st_ = tracks.position.copy(), tracks.state.copy()
    early = k0 - int(0.3 * FPS)  # lost 0.3 s before the white arrives
    st_[early:, b] = TrackState.ABSENT
    pos[early:, b] = np.nan
    lost = Tracks(tracks.ball_names, tracks.times, pos, tracks.pixel, st_.astype(np.int8))
    assert pots(infer_tracks(lost, noise_mm=NOISE, hidden=view(len(tracks.times)))) == []


@settings(max_examples=60, deadline=None)
@given(
    v0=st.floats(300.0, 6000.0),
    decel=st.floats(0.0, 3000.0),
    seed=st.integers(0, 10_000),
)
def test_a_slowing_ball_never_speeds_up(v0: float, decel: float, seed: int) -> None:
    """A ball that only slows, its measured centre anywhere along its blurred streak (a
    frame's travel long) and noisy besides, is never taken for a track gaining speed."""
    cfg = EventConfig.derive(fps=FPS, noise_mm=NOISE)
    rng = np.random.default_rng(seed)
    t = np.arange(16) / FPS
    v = np.maximum(v0 - decel * t, 0.0)
    s = np.cumsum(np.r_[0.0, 0.5 * (v[1:] + v[:-1]) * np.diff(t)])
    along = s + rng.uniform(-0.5, 0.5, len(t)) * v / FPS + rng.normal(0.0, NOISE, len(t))
    p = np.stack([along, rng.normal(0.0, NOISE, len(t))], axis=1)
    assert not speeds_up(t, p, cfg)


@pytest.mark.parametrize("gain", [3000.0, 6000.0, 12000.0])
def test_a_track_gaining_speed_is_found(gain: float) -> None:
    """A track from rest gaining metres per second over half a second (an arm, a cue) is."""
    cfg = EventConfig.derive(fps=FPS, noise_mm=NOISE)
    t = np.arange(16) / FPS
    p = np.stack([0.5 * gain * t * t, np.zeros_like(t)], axis=1)
    assert speeds_up(t, p, cfg)


@pytest.mark.parametrize(
    ("block", "occluder"),
    [
        ((3, 3), False),  # one ball
        ((5, 6), False),  # a ball blurred along its path, with its shadow: under four balls
        ((10, 12), True),  # an arm
    ],
)
def test_only_patches_larger_than_a_few_balls_are_occluders(block: tuple[int, int], occluder: bool) -> None:
    cells = np.stack(np.meshgrid(np.arange(20), np.arange(20), indexing="ij"), axis=-1).reshape(-1, 2)
    hidden = (cells[:, 0] < block[0]) & (cells[:, 1] < block[1])
    hidden |= (cells[:, 0] == 19) & (cells[:, 1] == 19)  # a lone speck elsewhere
    min_points = 4.0 * math.pi * TABLE.ball_radius**2 / GRID_MM**2
    found = occluders(hidden, cells, min_points)
    assert int(found.sum()) == (block[0] * block[1] if occluder else 0)


def test_pocket_view_sees_an_arm_over_an_approach_and_not_a_ball() -> None:
    """A plain green image seen through a scaling projection: a ball on an approach hides
    nothing, a dark block over it (an arm) hides most of it, and only that pocket."""
    scale = 0.3  # pixels per mm

    def to_pixels(xy: np.ndarray) -> np.ndarray:
        return np.asarray(xy, dtype=np.float64) * scale + 20.0

    h, w = int(TABLE.width * scale) + 40, int(TABLE.length * scale) + 40
    cloth = np.zeros((h, w, 3), np.uint8)
    cloth[:] = (30, 150, 40)  # BGR green
    pv = PocketView(to_pixels)
    assert np.allclose(pv.update(cloth), 0.0)
    centre = approach_points()["top_left"].mean(axis=0)
    u, v = to_pixels(centre[None])[0].astype(int)
    ball = cloth.copy()
    r = int(TABLE.ball_radius * scale)
    ball[v - r : v + r, u - r : u + r] = (20, 20, 200)
    assert np.allclose(pv.update(ball), 0.0)
    arm = cloth.copy()
    arm[v - 40 : v + 40, u - 60 : u + 60] = (40, 40, 40)
    # An arm is an arm once it stays: in the frame it appears it could be a ball's streak.
    assert np.allclose(pv.update(arm), 0.0)
    shares = dict(zip(pv.pockets, pv.update(arm), strict=True))
    assert shares["top_left"] > EventConfig.derive().hidden_fraction
    assert all(s == 0.0 for name, s in shares.items() if name != "top_left")


def _green(scale: float) -> tuple[np.ndarray, Callable[[np.ndarray], np.ndarray]]:
    def to_pixels(xy: np.ndarray) -> np.ndarray:
        return np.asarray(xy, dtype=np.float64) * scale + 20.0

    h, w = int(TABLE.width * scale) + 40, int(TABLE.length * scale) + 40
    cloth = np.zeros((h, w, 3), np.uint8)
    cloth[:] = (30, 150, 40)  # BGR green
    return cloth, to_pixels


@pytest.mark.parametrize("step_mm", [120.0, 160.0])
def test_a_fast_streak_passing_through_an_approach_hides_nothing(step_mm: float) -> None:
    """A dark patch larger than the occluder size (a ball blurred over a frame at the speed
    of a pot, with its shadow) that moves on by its own length every frame is no player."""
    scale = 0.3
    cloth, to_pixels = _green(scale)
    pv = PocketView(to_pixels)
    pv.update(cloth)
    mouth = np.asarray(TABLE.pockets["top_left"].mouth_midpoint)
    length, width = 120.0, 90.0  # mm: over four balls' area
    for k in range(6):
        x = mouth[0] - 300.0 + k * step_mm
        u0, v0 = to_pixels(np.array([[x, mouth[1] + 60.0]]))[0].astype(int)
        img = cloth.copy()
        img[v0 : v0 + int(width * scale), u0 : u0 + int(length * scale)] = (20, 20, 60)
        assert np.allclose(np.nan_to_num(pv.update(img)), 0.0)


def test_a_cloth_shade_near_the_tolerance_is_measured_against_itself() -> None:
    """Cloth lit differently in part of an approach (within the table-wide tolerance, near
    its edge) that flickers just past it with the codec's noise stays cloth: each point is
    compared with its own cloth colour once it has one."""
    scale = 0.3
    cloth, to_pixels = _green(scale)
    pv = PocketView(to_pixels)
    pts = to_pixels(approach_points()["top_left"]).astype(int)
    u0, v0 = pts.min(axis=0)
    u1, v1 = pts.max(axis=0)
    um = (u0 + u1) // 2
    shaded = cloth.copy()
    shaded[v0 : v1 + 1, um : u1 + 1] = (30, 140, 52)  # bluer green, inside the tolerance
    flicker = cloth.copy()
    flicker[v0 : v1 + 1, um : u1 + 1] = (30, 137, 58)  # a little further: past the table's
    for _ in range(3):
        assert np.allclose(pv.update(shaded), 0.0)
    for _ in range(3):
        assert np.allclose(pv.update(flicker), 0.0)


def hold_short(tracks: Tracks, ball: str, short_mm: float, held: int) -> Tracks:
    """The tracks with ``ball`` held at one spot once within ``short_mm`` of the top-right mouth
    (seen there, as the tracker carries a ball it takes for still) for ``held`` frames, then
    off the table."""
    lost, k = lose_short(tracks, ball, short_mm, TrackState.SEEN)
    b = tracks.ball_names.index(ball)
    pos, st_ = lost.position.copy(), lost.state.copy()
    pos[k + held :, b] = np.nan
    st_[k + held :, b] = TrackState.ABSENT
    return Tracks(lost.ball_names, lost.times, pos, lost.pixel, st_.astype(np.int8))


@pytest.mark.parametrize(
    ("held", "covered", "potted"),
    [
        (4, False, True),  # held for a few frames by the mouth, then gone: it rolled in
        (40, False, False),  # at rest there for over a rest window: no roll took it off
        (4, True, False),  # a player over the approach: a hand may have taken it
    ],
)
def test_a_ball_held_short_of_a_mouth_then_gone_is_potted(held: int, covered: bool, potted: bool) -> None:
    """The tracker held the red at one spot 6 cm short of the mouth (its picture changing too
    little as it rolled on slowly), then lost it for good: potted where the way it came leads,
    unless it stayed there a rest window or the pocket's approach was covered."""
    tracks = tracks_from_timeline(
        pot_scene(1200.0), CameraNoise(fps=FPS, noise_mm=NOISE, dropout=0.0), np.random.default_rng(6)
    )
    held_tracks = hold_short(tracks, "red1", 60.0, held)
    k = int(np.flatnonzero(held_tracks.state[:, 1] == TrackState.ABSENT)[0]) if held < 40 else None
    hidden = view(len(held_tracks.times), hidden_from=k - held - 2 if covered and k else None)
    expected = [("red1", "top_right")] if potted else []
    assert pots(infer_tracks(held_tracks, noise_mm=NOISE, hidden=hidden)) == expected


def colour_pot_scene(speed: float, out_mm: float = 1000.0) -> Timeline:
    """The white straight at the pink ``out_mm`` from the top-right pocket, lined up with it."""
    p = TABLE.pockets["top_right"]
    mx, my = p.mouth_midpoint
    d = np.array([mx - p.centre[0], my - p.centre[1]]) / math.hypot(mx - p.centre[0], my - p.centre[1])
    pink = np.array(p.centre) + d * out_mm
    white = pink + d * 400.0
    return simulate({"white": tuple(white), "pink": tuple(pink)}, tuple(-d * speed), t_strike=1.5, tail=1.5)


@pytest.mark.parametrize(
    ("state", "nearby", "potted"),
    [
        (TrackState.ABSENT, False, True),  # given up for good, nothing on its way: in the pocket
        (TrackState.PREDICTED, False, False),  # still held on the table: no evidence it left
        (TrackState.ABSENT, True, False),  # a ball beside its path: it may have hit that instead
    ],
)
def test_a_colour_lost_far_short_and_gone_for_good_is_potted(
    state: TrackState, nearby: bool, potted: bool
) -> None:
    """The pink lost 45 cm short of the mouth (faint against the cloth), never seen again: the
    tracker, which finds a colour anywhere once the balls rest, gave it up, so it left the
    table, and its path leads into the pocket with nothing in the way (unlike a red, which
    the tracker looks for only near where it lost it)."""
    tl = colour_pot_scene(2500.0)
    if nearby:
        p = TABLE.pockets["top_right"]
        d = np.subtract(p.mouth_midpoint, p.centre)
        d = d / np.hypot(*d)
        side = np.array(p.mouth_midpoint) + d * 250.0 + np.array([-d[1], d[0]]) * 50.0
        tl = Timeline(
            (*tl.ball_names, "blue"),
            tl.times,
            np.concatenate([tl.positions, np.broadcast_to(side, (len(tl.times), 1, 2))], axis=1),
            tl.events,
        )
    tracks = tracks_from_timeline(
        tl, CameraNoise(fps=FPS, noise_mm=NOISE, dropout=0.0), np.random.default_rng(6)
    )
    lost, _ = lose_short(tracks, "pink", 450.0, state)
    expected = [("pink", "top_right")] if potted else []
    assert pots(infer_tracks(lost, noise_mm=NOISE, hidden=view(len(lost.times)))) == expected


@pytest.mark.parametrize(
    ("speed", "behind_mm", "seed"), [(1800.0, 30.0, 31), (2500.0, 15.0, 32), (1400.0, 40.0, 33)]
)
def test_a_ball_whose_name_a_still_blob_takes_at_the_jaws_is_potted(
    speed: float, behind_mm: float, seed: int
) -> None:
    """The red rolls into the mouth, and a frame after its last sighting its name is taken by a
    blob in the jaw's shade a few centimetres behind it, which stands there a while and
    vanishes before the balls come to rest (a rendered 1080p60 red-then-colour, seed 142: for
    0.6 s while the white rolled on; the green read as stopped by the jaws). A ball rolling
    that fast cannot stop dead there touching no ball: potted."""
    tracks = tracks_from_timeline(
        pot_scene(speed), CameraNoise(fps=FPS, noise_mm=NOISE, dropout=0.0), np.random.default_rng(seed)
    )
    lost, k = lose_short(tracks, "red1", 120.0, TrackState.ABSENT)
    b = lost.ball_names.index("red1")
    pos, state = lost.position.copy(), lost.state.copy()
    heading = tracks.position[k - 1, b] - tracks.position[k - 2, b]
    ghost = tracks.position[k - 1, b] - heading / np.hypot(*heading) * behind_mm
    stand = int(0.6 * FPS)
    pos[k : k + stand, b] = ghost
    state[k : k + stand, b] = TrackState.SEEN
    # The white rolls on meanwhile (a follow-through), so the stroke outlasts the blob.
    w = lost.ball_names.index("white")
    on = np.clip(lost.times - lost.times[k - 3], 0.0, 1.2)
    pos[:, w] += np.outer(on * 150.0, heading / np.hypot(*heading))
    events = infer_tracks(
        Tracks(lost.ball_names, lost.times, pos, lost.pixel, state),
        noise_mm=NOISE,
        hidden=view(len(lost.times)),
    )
    assert pots(events) == [("red1", "top_right")]
