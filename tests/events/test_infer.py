"""Event inference on hand-made scenes whose true log is known exactly."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from adjudicator.eventlog import (
    Collision,
    Cushion,
    FrameStart,
    InputEvent,
    OffTable,
    Place,
    Pot,
    Rest,
    Strike,
)
from calibration.table import TABLE, Colour
from tests.events.scenes import R, keyframes, simulate
from vision.events.infer import EventInferer, infer_tracks
from vision.events.synthetic import CameraNoise, tracks_from_timeline
from vision.synthetic.timeline import Timeline

CENTRE_Y = TABLE.centre_line_y


#: The cases beyond one of each kind, and the property test of contact timing: each runs
#: physics simulations for a second or more; `pytest -m 'not slow'` keeps one case per kind.
SLOW = pytest.mark.slow


def run(
    tl: Timeline,
    fps: float = 30.0,
    noise: float = 1.0,
    dropout: float = 0.0,
    seed: int = 0,
    hidden: np.ndarray | None = None,
) -> list[InputEvent]:
    rng = np.random.default_rng(seed)
    tracks = tracks_from_timeline(tl, CameraNoise(fps=fps, noise_mm=noise, dropout=dropout), rng, hidden)
    return infer_tracks(tracks, noise_mm=max(noise, 0.5))


def kinds(events: list[InputEvent], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def first_white_hits(events: list[InputEvent]) -> tuple[float, set[str]]:
    hits = [e for e in events if isinstance(e, Collision) and "white" in e.balls]
    t0 = hits[0].t
    return t0, {b for e in hits if e.t == t0 for b in e.balls if b != "white"}


def pot_scene(pocket: str, tail: float = 1.0) -> Timeline:
    """The white straight at a red lined up with a pocket's fall centre."""
    p = TABLE.pockets[pocket]
    cx, cy = p.centre
    mx, my = p.mouth_midpoint
    d = np.array([mx - cx, my - cy]) / math.hypot(mx - cx, my - cy)
    red = np.array([cx, cy]) + d * 500.0
    white = red + d * 700.0
    return simulate({"white": tuple(white), "red1": tuple(red)}, tuple(-d * 1800.0), tail=tail)


@pytest.mark.parametrize(
    ("pocket", "fps"), [("top_right", 30.0), ("middle_left", 60.0), ("baulk_left", 30.0)]
)
def test_single_straight_pot(pocket: str, fps: float) -> None:
    tl = pot_scene(pocket)
    assert [(e.ball, e.pocket) for e in kinds(list(tl.events), Pot)] == [("red1", pocket)]
    events = run(tl, fps=fps, dropout=0.02)
    assert isinstance(events[0], FrameStart)
    assert len(kinds(events, Strike)) == 1
    assert [(e.ball, e.pocket) for e in kinds(events, Pot)] == [("red1", pocket)]
    assert first_white_hits(events)[1] == {"red1"}
    rests = kinds(events, Rest)
    assert len(rests) == 1 and "red1" not in rests[0].positions
    assert [e.t for e in events] == sorted(e.t for e in events)


def two_in_one_frame(delta_mm: float) -> Timeline:
    """A thin contact on red1 and, ``delta_mm`` of the white's deflected travel later, a
    half-ball contact on red2 placed on that deflected line: both within one frame."""
    y = CENTRE_Y
    b1, b2 = 0.93 * 2 * R, 0.5 * 2 * R
    red1 = np.array([1500.0, y + b1])
    w1 = np.array([red1[0] - math.sqrt((2 * R) ** 2 - b1**2), y])  # white centre at contact 1
    n = (red1 - w1) / (2 * R)
    v = np.array([1.0, 0.0])
    u = v - (v @ n) * n
    u /= np.hypot(*u)
    perp = np.array([-u[1], u[0]])
    red2 = w1 + u * (delta_mm + math.sqrt((2 * R) ** 2 - b2**2)) - perp * b2
    start = {"white": (900.0, y), "red1": tuple(red1), "red2": tuple(red2)}
    return simulate(start, (2000.0, 0.0))


@pytest.mark.parametrize(
    ("delta_mm", "fps", "seed"),
    [(14.0, 30.0, 1), pytest.param(10.0, 30.0, 2, marks=SLOW), pytest.param(9.0, 60.0, 4, marks=SLOW)],
)
def test_two_contacts_in_one_frame_first_hit_right(delta_mm: float, fps: float, seed: int) -> None:
    tl = two_in_one_frame(delta_mm)
    t_true, first_true = first_white_hits(list(tl.events))
    hits = [e.t for e in tl.events if isinstance(e, Collision) and "white" in e.balls]
    assert len(hits) >= 2 and hits[1] - hits[0] < 1.0 / fps  # the premise: one frame
    events = run(tl, fps=fps, seed=seed)
    t_inf, first_inf = first_white_hits(events)
    assert first_inf == first_true
    assert abs(t_inf - t_true) < 0.25 / fps


@pytest.mark.parametrize(
    ("delta_mm", "fps", "seed"),
    [(5.0, 30.0, 3), pytest.param(3.0, 30.0, 6, marks=SLOW), pytest.param(2.0, 60.0, 7, marks=SLOW)],
)
def test_contacts_closer_than_the_tolerance_are_never_misordered(
    delta_mm: float, fps: float, seed: int
) -> None:
    """Two contacts a few millimetres of the white's travel apart, off glancing fits, are
    within the stated simultaneous tolerance (config ``simultaneous_mm`` widened by the fits'
    sideways uncertainty): the log either orders them right or calls them simultaneous, and
    never names the second ball alone as the first."""
    tl = two_in_one_frame(delta_mm)
    _, first_true = first_white_hits(list(tl.events))
    _, first_inf = first_white_hits(run(tl, fps=fps, seed=seed))
    assert first_inf in (first_true, {"red1", "red2"})


def test_simultaneous_hit_shares_t() -> None:
    y = CENTRE_Y
    b = 0.7 * 2 * R
    start = {"white": (900.0, y), "red1": (1500.0, y + b), "red2": (1500.0, y - b)}
    tl = simulate(start, (2000.0, 0.0))
    _, true_first = first_white_hits(list(tl.events))
    assert true_first == {"red1", "red2"}
    events = run(tl, seed=5)
    _, first = first_white_hits(events)
    assert first == {"red1", "red2"}


def test_cushion_then_ball() -> None:
    # The white bounces off the left (y = 0) cushion into a red.
    start = {"white": (1000.0, 400.0), "red1": (1790.0, 400.0)}
    tl = simulate(start, (1200.0, -1200.0))
    true_kinds = [type(e).__name__ for e in tl.events if isinstance(e, Cushion | Collision)][:2]
    assert true_kinds == ["Cushion", "Collision"]
    events = run(tl, seed=6)
    seq = [e for e in events if isinstance(e, Cushion | Collision)]
    assert isinstance(seq[0], Cushion) and seq[0].ball == "white"
    assert isinstance(seq[1], Collision) and set(seq[1].balls) == {"white", "red1"}
    true_cushion = next(e.t for e in tl.events if isinstance(e, Cushion))
    assert abs(seq[0].t - true_cushion) < 0.5 / 30.0


@pytest.mark.parametrize("hide_at_end", [pytest.param(False, marks=SLOW), True])
def test_ball_hidden_far_from_pockets_is_not_potted(hide_at_end: bool) -> None:
    start = {"white": (800.0, 900.0), "red1": (1300.0, 900.0)}
    tl = simulate(start, (1500.0, 0.0))
    fps = 30.0
    rng = np.random.default_rng(7)
    n = len(np.arange(rng.uniform(0, 1 / fps), tl.duration, 1 / fps))
    hidden = np.zeros((n + 2, 2), dtype=bool)
    if hide_at_end:
        hidden[n // 2 :, 1] = True  # behind a player from mid-roll to the end of the clip
    else:
        hidden[25:40, 1] = True  # behind an arm for half a second while it rolls
    events = run(tl, fps=fps, seed=7, hidden=hidden)
    assert kinds(events, Pot) == []
    rest = kinds(events, Rest)[-1]
    assert "red1" in rest.positions


def test_rattle_in_the_jaws_is_not_a_pot() -> None:
    p = TABLE.pockets["top_left"]
    mx, my = p.mouth_midpoint
    cx, cy = p.centre
    d = np.array([cx - mx, cy - my]) / math.hypot(cx - mx, cy - my)
    lip = np.array([mx, my]) - d * 2.0  # centre just short of the mouth line, not in the fall
    far = lip - d * 600.0
    back = lip - d * 300.0
    paths = {
        "white": [(0.0, (900.0, 900.0))],
        "red1": [
            (0.0, tuple(far)),
            (1.0, tuple(far)),
            (1.4, tuple(lip)),
            (1.45, tuple(lip)),
            (2.2, tuple(back)),
        ],
    }
    tl = keyframes(paths, [], end=4.0)
    fps = 30.0
    times = np.arange(0.01, 4.0, 1 / fps)
    hidden = np.zeros((len(times), 2), dtype=bool)
    hidden[(times > 1.36) & (times < 1.52), 1] = True  # lost in the jaws' shadow
    events = run(tl, fps=fps, seed=8, hidden=hidden)
    assert kinds(events, Pot) == []


@pytest.mark.parametrize("amplitude", [2.0, 4.0, 6.0])
def test_feathering_is_not_a_strike(amplitude: float) -> None:
    w = (700.0, 800.0)
    nudged = (w[0] + amplitude, w[1])
    paths = {
        "white": [(0.0, w), (1.0, w), (1.1, nudged), (1.2, w), (1.6, w), (1.7, nudged), (1.8, w)],
        "pink": [(0.0, TABLE.spots[Colour.PINK])],
    }
    events = run(keyframes(paths, [], end=3.5), seed=9)
    assert kinds(events, Strike) == []
    assert kinds(events, Place) == []
    assert isinstance(events[0], FrameStart) and len(events) == 1


def test_respot_and_white_in_hand_are_places() -> None:
    black = TABLE.spots[Colour.BLACK]
    in_d = (TABLE.baulk_line - 150.0, CENTRE_Y + 60.0)
    paths: dict[str, list[tuple[float, tuple[float, float] | None]]] = {
        "white": [(0.0, None), (2.0, in_d)],
        "black": [(0.0, None), (1.0, black)],
        "red1": [(0.0, (1500.0, 400.0))],
    }
    events = run(keyframes(paths, [], end=4.0), seed=10, dropout=0.02)
    start = events[0]
    assert isinstance(start, FrameStart) and start.positions is not None
    assert "white" not in start.positions and "black" not in start.positions
    places = kinds(events, Place)
    assert [p.ball for p in places] == ["black", "white"]
    assert math.dist(places[0].position, black) < 2.0
    assert math.dist(places[1].position, in_d) < 2.0
    assert kinds(events, Strike) == []


@pytest.mark.parametrize(("gap", "touching"), [(0.0, True), (0.3, True), (3.0, False), (6.0, False)])
def test_touching_measured_at_rest(gap: float, touching: bool) -> None:
    red = (1500.0, 900.0)
    rest_white = (red[0] - 2 * R - gap, red[1])
    paths = {
        "white": [(0.0, (1000.0, 900.0)), (1.0, (1000.0, 900.0)), (1.5, rest_white)],
        "red1": [(0.0, red)],
    }
    events = run(keyframes(paths, [], end=3.5), seed=11)
    rest = kinds(events, Rest)[-1]
    pairs = {frozenset(p) for p in rest.touching or ()}
    assert (frozenset({"white", "red1"}) in pairs) is touching


@pytest.mark.parametrize(
    ("noise", "fps"), [(2.0, 30.0), pytest.param(1.0, 30.0, marks=SLOW), pytest.param(1.0, 60.0, marks=SLOW)]
)
def test_rest_hysteresis_with_noise(noise: float, fps: float) -> None:
    start = {"white": (800.0, 700.0), "red1": (2000.0, 1300.0), "blue": TABLE.spots[Colour.BLUE]}
    tl = simulate(start, (900.0, 300.0), tail=4.0)
    events = run(tl, fps=fps, noise=noise, dropout=0.03, seed=12)
    assert len(kinds(events, Strike)) == 1
    assert len(kinds(events, Rest)) == 1
    assert kinds(events, Place) == []


def test_online_updates_flush_before_the_end() -> None:
    """A stroke's events come out once its rest is confirmed, not at finish()."""
    tl = pot_scene("top_right", tail=2.5)
    rng = np.random.default_rng(13)
    tracks = tracks_from_timeline(tl, CameraNoise(fps=30.0), rng)
    inferer = EventInferer(tracks.ball_names, fps=30.0)
    got: list[InputEvent] = []
    for i, t in enumerate(tracks.times):
        got.extend(inferer.update(i, float(t), tracks.position[i], tracks.state[i]))
    assert any(isinstance(e, Rest) for e in got)
    assert inferer.finish() == []


def _rest_latencies(tl: Timeline, fps: float, noise: float, seed: int) -> list[float]:
    """Video time from each rest's ``t`` (the balls stopped) to the frame that emitted it."""
    tracks = tracks_from_timeline(tl, CameraNoise(fps=fps, noise_mm=noise), np.random.default_rng(seed))
    inferer = EventInferer(tracks.ball_names, fps=fps, noise_mm=noise)
    out = []
    for i, t in enumerate(tracks.times):
        for e in inferer.update(i, float(t), tracks.position[i], tracks.state[i]):
            if isinstance(e, Rest):
                out.append(float(t) - e.t)
    return out


@pytest.mark.parametrize(("fps", "noise"), [(25.0, 1.0), (30.0, 0.5), (60.0, 2.0)])
def test_rest_is_called_within_half_a_second(fps: float, noise: float) -> None:
    """Issue 7: under 0.5 s of video from the balls coming to rest to the call."""
    latencies = _rest_latencies(pot_scene("top_right", tail=2.5), fps, noise, seed=14)
    assert len(latencies) == 1 and 0.0 <= latencies[0] < 0.5


@pytest.mark.parametrize(
    ("offset_sigmas", "sample_noise", "waits"),
    [(0.0, 1.0, True), (6.0, 1.0, False), (-6.0, 1.0, False), (0.0, 0.0, False)],
)
def test_only_an_ambiguous_white_gap_holds_the_rest_up(
    offset_sigmas: float, sample_noise: float, waits: bool
) -> None:
    """A white stopping with its gap to a red right at the touching threshold waits for more
    frames before the call; one clearly apart, or clearly touching, is called at once; and
    so is one whose samples do not vary at rest (more frames would average nothing away)."""
    fps, noise = 30.0, 1.0
    cfg = EventInferer(["white", "red1"], fps=fps, noise_mm=noise).cfg
    sigma = noise * math.sqrt(2.0 / cfg.rest_frames)
    gap = max(0.0, cfg.touching_mm + offset_sigmas * sigma)
    red = (1500.0, 900.0)
    paths = {
        "white": [(0.0, (1000.0, 900.0)), (1.0, (1000.0, 900.0)), (1.5, (red[0] - 2 * R - gap, red[1]))],
        "red1": [(0.0, red)],
    }
    tracks = tracks_from_timeline(
        keyframes(paths, [], end=4.0), CameraNoise(fps=fps, noise_mm=0.0), np.random.default_rng(15)
    )
    # Noise added to the balls at rest only (after 1.6 s), the same draw for every case, so
    # the measured gap is the true gap give or take well under one sigma.
    jitter = np.random.default_rng(15).normal(0.0, 1.0, tracks.position.shape)
    jitter *= (sample_noise * (tracks.times > 1.6) / math.sqrt(3.0))[:, None, None]
    inferer = EventInferer(tracks.ball_names, fps=fps, noise_mm=noise)
    latency = []
    for i, t in enumerate(tracks.times):
        latency += [
            float(t) - e.t
            for e in inferer.update(i, float(t), tracks.position[i] + jitter[i], tracks.state[i])
            if isinstance(e, Rest)
        ]
    assert len(latency) == 1 and (latency[0] > 0.5) is waits


@pytest.mark.parametrize(
    ("t_strike", "seed"), [(0.25, 16), pytest.param(0.3, 17, marks=SLOW), pytest.param(0.5, 2538, marks=SLOW)]
)
def test_stroke_soon_after_the_clip_opens_is_found(t_strike: float, seed: int) -> None:
    """A clip opening shortly before a stroke (less than a rest window) still has its frame
    start before the strike and the stroke's contact."""
    start = {"white": (1100.0, 900.0), "red1": (1800.0, 900.0)}
    tl = simulate(start, (1200.0, 0.0), t_strike=t_strike, max_t=2.5)
    events = run(tl, seed=seed)
    assert isinstance(events[0], FrameStart) and events[0].t < t_strike
    assert events[0].positions is not None and math.dist(events[0].positions["white"], start["white"]) < 3.0
    assert len(kinds(events, Strike)) == 1
    assert [set(c.balls) for c in kinds(events, Collision)] == [{"white", "red1"}]


@pytest.mark.parametrize(
    ("hide_from", "hide_for", "seed"),
    [(0.45, 0.3, 18), pytest.param(0.45, 1.0, 19, marks=SLOW), pytest.param(0.5, 1.5, 20, marks=SLOW)],
)
def test_white_lost_while_it_moves_still_starts_the_stroke(
    hide_from: float, hide_for: float, seed: int
) -> None:
    """Real trackers lose a fast white (motion blur, the cue arm): the white found again a
    ball's width from its spot, never absent in between, was struck, even when it is found
    only after it stopped (dead behind the red it hit full-ball)."""
    start = {"white": (1100.0, 900.0), "red1": (1800.0, 900.0)}
    tl = simulate(start, (1500.0, 0.0), max_t=3.0)
    fps = 30.0
    times = np.arange(np.random.default_rng(seed).uniform(0, 1 / fps), tl.duration, 1 / fps)
    hidden = np.zeros((len(times) + 2, 2), dtype=bool)
    hidden[: len(times), 0] = (times > hide_from) & (times < hide_from + hide_for)
    events = run(tl, fps=fps, seed=seed, hidden=hidden)
    assert len(kinds(events, Strike)) == 1 and kinds(events, Place) == []
    assert len(kinds(events, Rest)) == 1


# Hypothesis shrinking re-runs whole clips (about 0.2 s each): a handful of examples and a
# bounded shrink keep this test to a few seconds. The explicit examples: a dead-straight
# full-ball hit at 1.2 m/s, 30 fps, struck before the opening rest window passed the still
# test (the stroke used to be lost) whose timestamps also gave a frame rate of
# 30.000000000000007; and a hit at 3.8 m/s, 60 fps, whose red had one 4-sigma noisy sample
# 30 ms before it was hit: its departure was timed from that sample, 1.8 frames early.
@settings(max_examples=5, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@example(speed=1200.0, offset=0.0, angle=0.0, fps=30.0, seed=2538)
@example(speed=3829.78, offset=0.2591, angle=0.3739, fps=60.0, seed=8310)
@SLOW
@given(
    speed=st.floats(1200.0, 4000.0),
    offset=st.floats(-0.8, 0.8),
    angle=st.floats(-0.6, 0.6),
    fps=st.sampled_from([30.0, 60.0]),
    seed=st.integers(0, 10_000),
)
def test_contact_time_within_a_fraction_of_a_frame(
    speed: float, offset: float, angle: float, fps: float, seed: int
) -> None:
    red = np.array([1800.0, 900.0])
    u = np.array([math.cos(angle), math.sin(angle)])
    perp = np.array([-u[1], u[0]])
    white = red - u * 700.0 + perp * offset * 2 * R
    tl = simulate({"white": tuple(white), "red1": tuple(red)}, tuple(u * speed), max_t=2.5)
    true = next(e for e in tl.events if isinstance(e, Collision))
    events = run(tl, fps=fps, seed=seed)
    hits = [e for e in events if isinstance(e, Collision) and set(e.balls) == {"white", "red1"}]
    assert hits, "the collision was not found"
    assert abs(hits[0].t - true.t) < 0.3 / fps


def test_hand_rolling_the_white_in_the_d_is_a_place() -> None:
    """A white in hand nudged about the D by a hand (Section 3 Rule 9) is no stroke."""
    spot = (TABLE.baulk_line - 120.0, CENTRE_Y - 80.0)
    rolled = (TABLE.baulk_line - 60.0, CENTRE_Y + 40.0)
    paths: dict[str, list[tuple[float, tuple[float, float] | None]]] = {
        "white": [(0.0, None), (1.0, spot), (3.0, spot), (3.6, rolled)],
        "red1": [(0.0, (2500.0, 600.0))],
    }
    events = run(keyframes(paths, [], end=6.5), seed=21, dropout=0.02)
    assert kinds(events, Strike) == [] and kinds(events, Rest) == []
    places = kinds(events, Place)
    assert [p.ball for p in places] == ["white", "white"]
    assert math.dist(places[-1].position, rolled) < 2.0


def test_white_rolled_out_of_the_d_is_a_stroke() -> None:
    """The same hand movement ending outside the D cannot be a placement: it is a stroke."""
    spot = (TABLE.baulk_line - 120.0, CENTRE_Y - 80.0)
    out = (TABLE.baulk_line + 200.0, CENTRE_Y + 40.0)
    paths: dict[str, list[tuple[float, tuple[float, float] | None]]] = {
        "white": [(0.0, None), (1.0, spot), (3.0, spot), (3.6, out)],
        "red1": [(0.0, (2500.0, 600.0))],
    }
    events = run(keyframes(paths, [], end=6.5), seed=22)
    assert len(kinds(events, Strike)) == 1 and len(kinds(events, Rest)) == 1


@pytest.mark.parametrize(("x", "side"), [(1200.0, 1.0), (2600.0, -1.0)])
def test_ball_leaving_the_cloth_over_a_cushion_is_off_table(x: float, side: float) -> None:
    """A ball that vanishes against a cushion away from any pocket, moving outwards, was
    forced off the table (Section 3 Rule 10 concerns it); one that vanishes mid-table was not."""
    edge = TABLE.width - R - 3.0 if side > 0 else R + 3.0
    paths: dict[str, list[tuple[float, tuple[float, float] | None]]] = {
        "white": [(0.0, (x, CENTRE_Y)), (1.0, (x, CENTRE_Y)), (1.35, (x, edge)), (1.36, None)],
        "red1": [(0.0, (3000.0, 300.0))],
    }
    events = run(keyframes(paths, [], end=4.5), seed=23)
    off = kinds(events, OffTable)
    assert [o.ball for o in off] == ["white"]
    assert kinds(events, Pot) == []
    rest = kinds(events, Rest)[-1]
    assert rest.positions is not None and "white" not in rest.positions


@pytest.mark.parametrize("fps", [30.0, 60.0])
def test_white_carried_in_a_hand_while_a_ball_is_hidden_is_no_stroke(fps: float) -> None:
    """A clip opening with a ball the tracker holds as hidden (the apex red behind the pink)
    cannot start until something forces it; a white then carried about by a hand, seen moving
    to and fro and never still, has no spot to be struck from: no strike until the real one
    (a rendered 1080p60 break-off read the hand's carry as the break). The white was not on
    the table when the video began: the frame starts with it in hand and a ``place`` puts it
    where the hand left it."""
    spot = (TABLE.baulk_line - 170.0, CENTRE_Y - 200.0)
    paths: dict[str, list[tuple[float, tuple[float, float] | None]]] = {
        "white": [
            (0.0, None),
            (1.0, (40.0, 690.0)),
            (1.2, (500.0, 690.0)),
            (1.5, (40.0, 690.0)),
            (1.6, spot),
            (4.0, spot),
            (4.6, (1600.0, spot[1])),
        ],
        "red1": [(0.0, (2500.0, 600.0))],
        "red2": [(0.0, (2734.0, 889.0))],
    }
    tl = keyframes(paths, [], end=7.0)
    times = np.arange(0.0, tl.duration, 1 / fps)
    hidden = np.zeros((len(times) + 2, 3), dtype=bool)
    hidden[: len(times), 2] = times < 4.2  # red2, never seen until after the stroke starts
    events = run(tl, fps=fps, seed=22, hidden=hidden)
    strikes = kinds(events, Strike)
    assert len(strikes) == 1 and 3.9 < strikes[0].t < 4.2
    assert isinstance(events[0], FrameStart) and events[0].positions is not None
    assert "white" not in events[0].positions
    places = kinds(events, Place)
    assert [p.ball for p in places] == ["white"] and math.dist(places[0].position, spot) < 3.0
    assert places[0].t < strikes[0].t


IN_D = (TABLE.baulk_line - 170.0, CENTRE_Y - 200.0)


@pytest.mark.parametrize(
    ("white", "hold_start", "placed"),
    [
        ([(0.0, None), (1.0, IN_D)], True, True),
        ([(0.0, None), (1.0, IN_D)], False, True),
        ([(0.0, IN_D)], True, False),
        ([(0.0, IN_D)], False, False),
        ([(0.0, None), (1.0, (1300.0, 500.0))], True, False),
    ],
    ids=["put-in-d-start-held", "put-in-d", "on-table-start-held", "on-table", "found-outside-the-d"],
)
def test_a_white_put_down_after_the_video_began_is_placed(
    white: list[tuple[float, tuple[float, float] | None]], hold_start: bool, placed: bool
) -> None:
    """The contract: a white absent from the frame start's ``positions`` is in hand, and a
    ``place`` is a ball put on the table by hand. A white not on the table as the video begins,
    put down in the D before the first stroke, is placed, however late the frame start is
    decided (a ball the tracker holds hidden, the apex red behind the pink, holds it up until
    the break; four rendered broadcast break-offs had the white in the frame start). A white
    on the table from the first frame is in the start; one found outside the D was there under
    something as the video began (no hand puts the white in hand there)."""
    fps = 60.0
    start = white[-1][1]
    assert start is not None
    paths: dict[str, list[tuple[float, tuple[float, float] | None]]] = {
        "white": [*white, (3.0, start), (3.6, (start[0] + 900.0, start[1]))],
        "red1": [(0.0, (2500.0, 600.0))],
        "red2": [(0.0, (2734.0, 889.0))],
    }
    tl = keyframes(paths, [], end=5.0)
    times = np.arange(0.0, tl.duration, 1 / fps)
    hidden = np.zeros((len(times) + 2, 3), dtype=bool)
    hidden[: len(times), 2] = hold_start & (times < 3.2)
    events = run(tl, fps=fps, seed=31, hidden=hidden)
    fs = events[0]
    assert isinstance(fs, FrameStart) and fs.positions is not None
    assert ("white" in fs.positions) is not placed
    places = kinds(events, Place)
    assert [p.ball for p in places] == (["white"] if placed else [])
    if placed:
        assert math.dist(places[0].position, start) < 3.0
    else:
        assert math.dist(fs.positions["white"], start) < 3.0
    assert len(kinds(events, Strike)) == 1
