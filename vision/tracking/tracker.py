"""Multi-ball tracker: identities kept by motion, appearance and the snooker ball set.

The state is immutable (:class:`TrackerState`) and :func:`step` is a reducer, one frame in,
the next state out; :class:`Tracker` wraps it with a norfair-like ``update`` and records the
per-frame :class:`vision.tracks.Tracks`.

Each frame is matched in two passes:

1. **Gated assignment.** Every ball on the table is predicted one frame ahead
   (:mod:`vision.tracking.motion`); the cost of pairing it with a detection is its normalised
   distance inside the motion gate, plus an appearance term (the mean Lab colour of the ball's
   inner disc) and a colour term. Balls of different colours never pair. The Hungarian
   algorithm picks the pairing of least total cost, so two reds crossing keep their names
   because each follows its own predicted line.
2. **Re-acquisition.** A ball unseen for a while (behind a player, lost in a blurred streak,
   lifted by a hand and put down elsewhere) is matched anywhere on the table by identity
   alone: a single-colour ball (white, yellow..black) to a detection of its colour, or, when
   colours are unknown, to the detection that looks most like it. Reds look alike, so a lost
   red is only re-acquired inside its (growing) gate.

A ball unseen for longer than ``absent_after`` frames whose last sighting was beside a pocket
is ``absent`` (potted); anywhere else it stays ``predicted`` where it was last going, which is
what a ball hidden behind a player does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt
from scipy.optimize import linear_sum_assignment

from calibration.table import TABLE, Colour
from vision.detection.detections import COLOURS, UNKNOWN, BallDetections
from vision.tracking.appearance import LAB_W, lab_distance
from vision.tracking.bed import DEFAULT_TOL, in_fall, into_pocket, near_mouth, nose_normal, off_bed, past_nose
from vision.tracking.detection_sets import APART_MM, two_balls_apart
from vision.tracking.motion import REFERENCE_FPS, MotionConfig, correct, frames_at, gate_distance, predict
from vision.tracking.physics import Cushions, contacts, reflect
from vision.tracking.red_look import looks_coloured, looks_red
from vision.tracking.reentry import reentry_allowed
from vision.tracking.uncross import uncross
from vision.tracks import Tracks, TrackState

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

_RED = COLOURS.index(Colour.RED)
_WHITE = COLOURS.index(Colour.WHITE)
_BIG = 1e6
#: Speed (pixels per frame) under which a ball is at rest (the contact model's, see
#: :func:`vision.tracking.physics.contacts`).
_REST_SPEED = 0.5


@dataclass(frozen=True)
class TrackerConfig:
    """Matching weights and timeouts (frames).

    Attributes:
        motion: the motion model's gains and gates.
        appearance_scale: Lab distance that costs as much as the gate's edge.
        appearance_limit: largest appearance distance for any match (a white is never a red).
        appearance_gate: largest appearance distance for re-acquisition by appearance alone.
        appearance_rate: how fast a ball's remembered appearance follows a resting ball.
        faint_contrast: a ball whose look lies within this Lab distance (weighted) of the cloth
            round it is faint: its grown gate takes no unnamed blob nearer the cloth's look than
            its own (:func:`_cloth_like`). The appearance term's own scale: nearer than that, a
            blob's colour hardly tells the ball from the cloth.
        reacquire_after: unseen frames after which a single-colour ball may be matched anywhere.
        reacquire_look_after: the same for a ball of unknown colour, matched by appearance
            alone (less certain: a shirt cuff looks like the white), so later.
        reacquire_confidence: least colour confidence of a detection that a lost single-colour
            ball still on the table is matched to anywhere (:func:`_reacquire`). A whole-table
            detection names some blob white in every frame (the cue ball is never a free colour
            to the one-of-each rule), and a blob named a colour only weakly is no evidence of
            that ball so far from its gate. The lost balls found again so on the samples, Task2,
            Task3, the 1080p60 renders and the drawn ones of seeds 107, 112 and 114 (720p and
            960x540) were named with 0.7 to 1.0 (on 640x360 views, where every colour is named
            weakly, 0.05 to 1.0: there it changes which weak blob a lost ball takes); at 25 fps a
            break-off's white, lost in its streak, took a piece of a red's streak named white
            with 0.09 and its first contact read as the black (1080p25 render, seed 123), and a
            lost green's track on a 960x540 render (seed 121) took a blob named green with 0.44
            and was potted with it. A ball put back on the table (absent) is not held to it.
        absent_after: unseen frames after which a ball last seen by a pocket is potted.
        pocket_radii: how close (ball radii) to a pocket centre "beside a pocket" is.
        duplicate_radii: a re-acquired detection this close to a matched ball is its duplicate.
        bounce_hold: unseen frames a ball whose prediction was turned back off a cushion nose
            line may stay unseen before it is taken off the table (0.2 s; see
            :meth:`Tracker._leave_bed`).
        duplicate_mm: ... unless both are reds, or a red and a colour on its own spot, whose
            table positions (where known) lie farther apart than this: two balls' centres are a
            diameter apart at least, so such a red is another ball however close the picture
            puts them (a pack seen at a slant overlaps its balls to about a radius apart in the
            picture; see :func:`vision.tracking.detection_sets.dedupe`).
        lock_gate: a ball at rest and a detection this close (share of its un-grown gate,
            0.15: a third of a radius), each the other's nearest, are paired before the
            assignment (:func:`_locks`).
        miss_cost: what leaving a ball unmatched costs in the first (un-grown gate) round, against
            a match's squared gate distance plus its squared appearance term (1: a detection at
            the gate's edge that looks exactly like the ball); a ball left so is offered the
            detections still free in the second round.
        look_share_radii: a red with another red this close (ball radii, centre to centre) is
            matched by the reds' shared look, not its own (:func:`_class_look`).
        physics: predict contacts with resting balls and cushion bounces
            (:mod:`vision.tracking.physics`) instead of straight lines only.
        bed_tol: millimetres past a cushion nose or pocket mouth line that a measured centre may
            lie (:func:`vision.tracking.bed.off_bed`); farther is a pocket hole, not a ball.
    """

    motion: MotionConfig = field(default_factory=MotionConfig)
    appearance_scale: float = 20.0
    appearance_limit: float = 70.0
    appearance_gate: float = 30.0
    appearance_rate: float = 0.1
    faint_contrast: float = 20.0
    reacquire_after: int = 3
    reacquire_look_after: int = 10
    reacquire_confidence: float = 0.5
    absent_after: int = 45
    pocket_radii: float = 4.0
    duplicate_radii: float = 1.5
    duplicate_mm: float = APART_MM
    bounce_hold: int = 6
    lock_gate: float = 0.15
    miss_cost: float = 2.0
    look_share_radii: float = 6.0
    physics: bool = True
    bed_tol: float = DEFAULT_TOL

    def at_fps(self, fps: float) -> TrackerConfig:
        """This configuration for video at ``fps``: timeouts kept in seconds and the motion model's
        per-frame rates scaled (:meth:`MotionConfig.at_fps`) from the 30 fps they were set on."""
        ratio = fps / REFERENCE_FPS
        return replace(
            self,
            motion=self.motion.at_fps(fps),
            appearance_rate=self.appearance_rate
            if ratio == 1.0
            else 1.0 - (1.0 - self.appearance_rate) ** (1.0 / ratio),
            reacquire_after=frames_at(self.reacquire_after, fps),
            reacquire_look_after=frames_at(self.reacquire_look_after, fps),
            absent_after=frames_at(self.absent_after, fps),
            bounce_hold=frames_at(self.bounce_hold, fps),
        )


@dataclass(frozen=True)
class TrackerState:
    """Every ball's estimate after one frame (row-aligned arrays, one row per ball).

    Attributes:
        names: event-log names (``white``, ``yellow``, ..., ``red1``...).
        colour: ``(B,)`` index into :data:`~vision.detection.detections.COLOURS`, -1 unknown.
        pos: ``(B, 2)`` pixel centre (last estimate).
        vel: ``(B, 2)`` pixels per frame.
        radius: ``(B,)`` apparent radius (pixels).
        appearance: ``(B, 3)`` mean Lab of the ball's inner disc (NaN: not known).
        unseen: ``(B,)`` consecutive frames without a measurement.
        state: ``(B,)`` :class:`~vision.tracks.TrackState` of the last frame.
        frame: index of the last frame folded in (-1 before the first).
    """

    names: tuple[str, ...]
    colour: IntArray
    pos: FloatArray
    vel: FloatArray
    radius: FloatArray
    appearance: FloatArray
    unseen: IntArray
    state: npt.NDArray[np.int8]
    frame: int = -1

    def __post_init__(self) -> None:
        b = len(self.names)
        for name, arr, shape in (
            ("colour", self.colour, (b,)),
            ("pos", self.pos, (b, 2)),
            ("vel", self.vel, (b, 2)),
            ("radius", self.radius, (b,)),
            ("appearance", self.appearance, (b, 3)),
            ("unseen", self.unseen, (b,)),
            ("state", self.state, (b,)),
        ):
            if np.shape(arr) != shape:
                raise ValueError(f"TrackerState.{name} must have shape {shape}, got {np.shape(arr)}")
        if len(set(self.names)) != b:
            raise ValueError(f"TrackerState.names must be unique, got {self.names}")

    def others_on_table(self, i: int) -> npt.NDArray[np.bool_]:
        """``(B,)``: the balls on the table (not ABSENT) other than ball ``i``: the neighbours
        a ball's measurement must leave out or be told apart from."""
        on = self.state != TrackState.ABSENT
        on[i] = False
        return on

    @classmethod
    def seed(
        cls,
        names: Sequence[str],
        pixel: npt.ArrayLike,
        radius: npt.ArrayLike,
        colour: npt.ArrayLike | None = None,
        appearance: npt.ArrayLike | None = None,
    ) -> TrackerState:
        """Balls at rest at known pixels (NaN pixel: a ball not on the table yet)."""
        px = np.asarray(pixel, np.float64).reshape(-1, 2)
        b = len(names)
        on = np.all(np.isfinite(px), axis=1)
        return cls(
            names=tuple(names),
            colour=np.full(b, UNKNOWN, np.int64) if colour is None else np.asarray(colour, np.int64),
            pos=px,
            vel=np.zeros((b, 2)),
            radius=np.asarray(radius, np.float64).reshape(-1),
            appearance=np.full((b, 3), np.nan) if appearance is None else np.asarray(appearance, np.float64),
            unseen=np.zeros(b, np.int64),
            state=np.where(on, TrackState.SEEN, TrackState.ABSENT).astype(np.int8),
        )


def name_balls(colour: IntArray) -> list[str]:
    """Event-log names for detections of known colour: reds numbered in order, colours by name.

    A second detection of a single-ball colour gets no name (``""``): the ball set has one.
    """
    names: list[str] = []
    used: set[str] = set()
    reds = 0
    for c in colour:
        if c == _RED:
            reds += 1
            names.append(f"red{reds}")
        elif c >= 0 and COLOURS[c].value not in used:
            used.add(COLOURS[c].value)
            names.append(COLOURS[c].value)
        else:
            names.append("")
    return names


def _compatible(track_colour: IntArray, det_colour: IntArray) -> npt.NDArray[np.bool_]:
    """``(B, N)``: may ball b be detection n? Known colours must agree."""
    t = track_colour[:, None]
    d = det_colour[None, :]
    return (t < 0) | (d < 0) | (t == d)


def _cloth_like(
    state: TrackerState,
    det: BallDetections,
    appearance: FloatArray | None,
    cloth: FloatArray | None,
    faint: float,
) -> npt.NDArray[np.bool_]:
    """``(B, N)``: unnamed detections that look more like the cloth round ball ``b`` than like
    ball ``b`` itself, for a ball whose own look lies within ``faint`` (Lab, weighted) of that
    cloth; its grown gate does not take them.

    Why: a lost ball's grown gate reaches many radii, and a detector sensitive enough to find a
    green on green cloth also finds patches of that cloth (shading, a shadow's edge) it cannot
    name; one of those nearer the cloth's colour than the ball's is cloth, and taking it left
    the ball's track on bare cloth while the ball rolled on into a pocket (a rendered
    red-then-colour, seed 107, 720p: the potted green's track took a blob 10 radii behind it,
    then another, and the pot was lost). Only a faint ball: the streak of a ball that stands
    out from the cloth (a struck white) is mostly cloth in colour, yet it is that ball's, and
    its track's speed, which would say how much cloth to expect in it, lags the strike.
    """
    b, n = len(state.names), len(det)
    if cloth is None or appearance is None or not n:
        return np.zeros((b, n), bool)
    to_ball = lab_distance(state.appearance[:, None, :], appearance[None, :, :])
    to_cloth = lab_distance(cloth[:, None, :], appearance[None, :, :])
    contrast = lab_distance(state.appearance, cloth)
    known = np.isfinite(to_ball) & np.isfinite(to_cloth)
    return known & (contrast < faint)[:, None] & (to_cloth < to_ball) & (det.colour == UNKNOWN)[None, :]


def appearance_distance(track: FloatArray, det: FloatArray | None, b: int, n: int) -> FloatArray:
    """``(B, N)`` weighted Lab distances; 0 where either side is unknown."""
    if det is None:
        return np.zeros((b, n))
    return np.nan_to_num(lab_distance(track[:, None, :], det[None, :, :]), nan=0.0)


def step(
    state: TrackerState,
    det: BallDetections,
    appearance: FloatArray | None = None,
    cfg: TrackerConfig | None = None,
    pockets: FloatArray | None = None,
    cushions: Cushions | None = None,
    hidden: npt.NDArray[np.bool_] | None = None,
    reentry: npt.NDArray[np.bool_] | None = None,
    table: FloatArray | None = None,
    cloth: FloatArray | None = None,
) -> TrackerState:
    """Fold one frame's detections into the state (the reducer).

    Args:
        state: the state after the previous frame.
        det: this frame's detections (possibly none: the balls are predicted).
        appearance: ``(N, 3)`` Lab appearance of each detection, or None.
        cfg: matching configuration.
        pockets: ``(P, 2)`` pocket centres in pixels, to tell a potted ball from a hidden one.
        cushions: the playing surface's edge, for bounces (None: no cushions known).
        hidden: ``(B,)`` balls at rest whose spot is covered (a player's arm, a cue): they stay
            where they are, their gates do not grow, they are not re-acquired elsewhere and not
            potted (None: none).
        reentry: ``(B, N)`` where a ball off the table may come back onto it
            (:func:`vision.tracking.reentry.reentry_allowed`; None: anywhere).
        table: ``(N, 2)`` the detections' table positions (mm), which tell two balls the picture
            overlaps from one ball found twice (:func:`_distinct`; None: not known).
        cloth: ``(B, 3)`` Lab of the cloth round each ball where it last rested (NaN: not
            known); see :func:`_cloth_like`.
    """
    cfg = cfg or TrackerConfig()
    mc = cfg.motion
    b, n = len(state.names), len(det)
    active = state.state != TrackState.ABSENT
    pred, vel = predict(state.pos, state.vel, state.unseen, mc)
    # Balls whose prediction a contact changed keep the straight line as a second hypothesis.
    alt = struck = np.zeros(b, bool)
    alt_pred, alt_vel = pred, vel
    if cfg.physics:
        alt_pred, alt_vel = _bounce(pred, vel, state.radius, pockets, cushions, cfg)
        pred, vel, struck, striker = contacts(state.pos, vel, state.radius, active)
        alt = struck | striker
        pred, vel = _bounce(pred, vel, state.radius, pockets, cushions, cfg)
    pred = np.where(active[:, None], pred, state.pos)
    match = np.full(b, -1, np.int64)
    covered = np.zeros(b, bool) if hidden is None else hidden
    if n and b:
        unique = (state.colour >= 0) & (state.colour != _RED)
        grown = np.where(covered, 0, state.unseen)
        gd = gate_distance(pred, vel, state.radius, grown, det.pixel, mc, unique)
        # The un-grown gate's distance, which the cost measures (see below).
        near = gate_distance(pred, vel, state.radius, np.zeros_like(state.unseen), det.pixel, mc)
        use_alt = np.zeros((b, n), bool)
        if np.any(alt):
            # A contact predicted for this frame may not have happened as predicted: a red at the
            # front of a pack passes the impulse on and barely moves, and a striker that only
            # grazed goes on. Each detection is scored against the likelier hypothesis; predicted
            # struck alone, the front red's track flew off with the predicted impulse and left its
            # ball untracked (a rendered 1080p60 break-off: reds 100-500 mm off for seconds).
            a_gd = gate_distance(alt_pred[alt], alt_vel[alt], state.radius[alt], grown[alt], det.pixel, mc)
            zero = np.zeros(int(alt.sum()), np.int64)
            a_near = gate_distance(alt_pred[alt], alt_vel[alt], state.radius[alt], zero, det.pixel, mc)
            use_alt[alt] = a_near < near[alt]
            gd[alt] = np.minimum(gd[alt], a_gd)
            near[alt] = np.minimum(near[alt], a_near)
        shared_look, share = _class_look(state, cfg)
        app = appearance_distance(shared_look, appearance, b, n)
        ok = (
            (gd < 1.0)
            & active[:, None]
            & _compatible(state.colour, det.colour)
            & (app < cfg.appearance_limit)
        )
        # Nor a one-colour ball an unnamed blob that looks more like a red, nor a red one that
        # looks more like a one-colour ball (see red_look), where the ball is slower than the
        # motion model's lowest moving speed: its blob shows its colour, unmixed with the cloth
        # (a red rolling 0.9 radii a frame on 01_break_off, searched as a dark streak, was refused
        # its own blob as the pink's).
        sharp = np.hypot(vel[:, 0], vel[:, 1]) < mc.moving_radii[0] * state.radius
        pix, look = det.pixel, state.appearance
        ok &= ~looks_red(state.colour, look, state.pos, sharp, pix, det.colour, appearance, LAB_W)
        ok &= ~looks_coloured(state.colour, look, state.pos, sharp, pix, appearance, LAB_W)
        # The grown gate only admits; the cost measures distance against the un-grown gate, so
        # after an unseen frame the nearest candidate still wins over a look-alike further off.
        # A ball moving more than a radius a frame is a streak (the exposure is most of a frame),
        # its mean colour mixed with the cloth's in proportion to its travel, so its remembered
        # (resting) look counts that much less: otherwise a sharp resting ball off its line
        # outbids its own streak on its line (Task3 clip 6: a struck green). Slower, the look
        # still tells a ball from the one it struck (clip 16).
        speed = np.hypot(vel[:, 0], vel[:, 1])
        blur = np.maximum(1.0, speed / np.maximum(state.radius, 1e-6))
        scale = cfg.appearance_scale * np.nan_to_num(blur, nan=1.0)[:, None]
        look_cost = (app / scale) ** 2
        if np.count_nonzero(share) > 1:
            # Reds sharing one look pay one price for a blob's look, the most lenient any of
            # them that may take it pays: the blur allowance of a red predicted struck must not
            # make the blob cheaper for it than for the resting red beside it, or the look,
            # not the motion, chooses between them (a rendered 1080p60 break-off, broadcast
            # camera: a back-row red darker than the reds' look went to the red predicted
            # struck in front of it, whose own blob went to the back-row red's track).
            mine = share[:, None] & ok
            lenient = np.where(mine, look_cost, np.inf).min(axis=0)
            look_cost = np.where(mine, lenient[None, :], look_cost)
        cost = np.where(ok, near**2 + look_cost, _BIG)
        first = np.where(near < 1.0, cost, _BIG)
        rows, cols = _locks(near, speed, state, ok, cfg)
        match[rows] = cols
        first[rows, :] = _BIG
        first[:, cols] = _BIG
        # Two rounds: first every ball within its un-grown gate, then the grown gates for balls
        # still unmatched, among detections still free. In one round a lost ball's far match
        # (worth any finite cost against none) pushed a resting ball onto a spurious blob beside
        # it and took its place (Task2 clip 18: a red potted unseen took a red across the table).
        _assign(first, match, cfg.miss_cost)
        rest = np.ones(n, bool)
        rest[match[match >= 0]] = False
        # A free blob inside the un-grown gate, centred on its match, of a ball matched this
        # frame while rolling is a piece of that ball's streak (a long streak splits into blobs),
        # not a lost ball come back: only the first round may give it away. A resting red lost
        # two frames took the head of the white's streak and rode it into a pocket (Task2 16).
        rolling = (match >= 0) & (speed > mc.moving_radii[0] * state.radius)
        if np.any(rolling):
            zero = np.zeros(int(rolling.sum()), np.int64)
            around = gate_distance(
                det.pixel[match[rolling]], vel[rolling], state.radius[rolling], zero, det.pixel, mc
            )
            rest &= ~np.any(around < 1.0, axis=0)
        free = match < 0
        if np.any(free) and np.any(rest):
            sub = np.full((b, n), _BIG)
            sub[np.ix_(free, rest)] = cost[np.ix_(free, rest)]
            sub[_cloth_like(state, det, appearance, cloth, cfg.faint_contrast)] = _BIG
            _assign(sub, match)
        # Reds lost last frame whose paths to their blobs cross have each other's blob (two reds
        # of a pack struck in the frame they went unseen; see vision.tracking.uncross).
        uncross(pred, det.pixel, match, (state.unseen > 0) & (state.colour == _RED), cost < _BIG)
        _reacquire(state, det, appearance, pred, match, cfg, covered, reentry, table)
        _reacquire_reds(state, det, pred, match, cfg, covered, near < 1.0, table)
        # A ball matched on its contact's other hypothesis follows that one.
        other = (match >= 0) & use_alt[np.arange(b), np.maximum(match, 0)]
        # So does a struck ball left unmatched in a pack: the impulse goes on through the balls
        # it touches, and an impulse no measurement confirmed sent the front red's track off on
        # its own (a rendered 1080p60 break-off); a lone struck ball goes where it was sent.
        other |= (match < 0) & _in_pack(state, struck, active)
        pred = np.where(other[:, None], alt_pred, pred)
        vel = np.where(other[:, None], alt_vel, vel)
    seen = match >= 0
    new_pos, new_vel = pred.copy(), vel.copy()
    if np.any(seen):
        meas = det.pixel[match[seen]]
        was_active = active[seen]
        p, v = correct(pred[seen], vel[seen], meas, state.unseen[seen], mc)
        # A ball re-acquired from absent (or far away) starts at rest where it was found; one
        # never seen before (the white before it is placed in the D) has no prediction to blend.
        fresh = ~was_active | ~np.all(np.isfinite(pred[seen]), axis=1)
        p = np.where(fresh[:, None], meas, p)
        v = np.where(fresh[:, None], 0.0, v)
        new_pos[seen], new_vel[seen] = p, v
    new_state = state.state.copy()
    new_state[seen] = TrackState.SEEN
    new_state[~seen & active] = TrackState.PREDICTED
    unseen = np.where(seen, 0, state.unseen + 1)
    potted = (
        ~seen
        & active
        & ~covered
        & (unseen > cfg.absent_after)
        & _near_pocket(state.pos, state.radius, pockets, cfg)
    )
    new_state[potted] = TrackState.ABSENT
    appear = state.appearance.copy()
    if appearance is not None and np.any(seen):
        slow = seen & (np.hypot(new_vel[:, 0], new_vel[:, 1]) < 0.5 * state.radius)
        fresh = appearance[match[slow]]
        old = appear[slow]
        rate = np.where(np.isnan(old), 1.0, cfg.appearance_rate)
        appear[slow] = np.nan_to_num(old, nan=0.0) * (1 - rate) + fresh * rate
    radius = state.radius.copy()
    if np.any(seen):
        # Radii follow the detector slowly (perspective changes a ball's size by a few tens of
        # percent across the table); an implausible radius (a detector's bad guess) is ignored.
        r_det = det.radius[match[seen]]
        plausible = (r_det > 0.7 * radius[seen]) & (r_det < 1.4 * radius[seen])
        radius[seen] = np.where(plausible, 0.9 * radius[seen] + 0.1 * r_det, radius[seen])
    # A ball still unseen keeps its last seen position as the anchor for the pocket test.
    keep_pos = np.where((~seen & ~active)[:, None], state.pos, new_pos)
    return replace(
        state,
        pos=keep_pos,
        vel=np.where(seen[:, None] | active[:, None], new_vel, 0.0),
        radius=radius,
        appearance=appear,
        unseen=unseen.astype(np.int64),
        state=new_state.astype(np.int8),
        frame=state.frame + 1,
    )


def _in_pack(
    state: TrackerState, struck: npt.NDArray[np.bool_], active: npt.NDArray[np.bool_], reach: float = 2.5
) -> npt.NDArray[np.bool_]:
    """Which struck balls touch another resting ball (centres within ``reach`` radii)."""
    out = np.zeros(len(struck), bool)
    if not np.any(struck):
        return out
    speed = np.hypot(state.vel[:, 0], state.vel[:, 1])
    resting = active & (speed < _REST_SPEED) & np.all(np.isfinite(state.pos), axis=1)
    for j in np.flatnonzero(struck):
        others = resting.copy()
        others[j] = False
        d = np.linalg.norm(state.pos[others] - state.pos[j], axis=1)
        out[j] = bool(np.any(d < reach * state.radius[j]))
    return out


def _bounce(
    pred: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    pockets: FloatArray | None,
    cushions: Cushions | None,
    cfg: TrackerConfig,
) -> tuple[FloatArray, FloatArray]:
    """Predictions bounced off the cushions, except by a pocket: a pocket's mouth has no cushion
    to bounce off (the surface mask closes over it), and a ball heading there drops (bounced
    back, a potted ball's prediction stays on the bed)."""
    bounced, bvel = reflect(pred, vel, radius, cushions)
    mouth = _near_pocket(pred, radius, pockets, cfg)[:, None]
    return np.where(mouth, pred, bounced), np.where(mouth, vel, bvel)


def _class_look(state: TrackerState, cfg: TrackerConfig) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """Each ball's remembered look for matching, every red near another red given the reds' median
    look; and which balls were given it.

    Why: fifteen reds look alike, and what tells one red's look from another's is noise (the
    light's fall-off across the table, blur, a centre measured off the ball that takes in cloth).
    Scored against its own remembered look, a red near its prediction lost to one farther off
    that happened to look more like it, and two reds passing swapped names (synthetic
    01_break_off: a rolling red and the resting red it passed). With one look for all reds, a
    detection costs every red the same, so the look still tells a red from the white or the
    pink but only motion chooses between reds.
    """
    red = state.colour == _RED
    known = red & np.all(np.isfinite(state.appearance), axis=1)
    share = np.zeros(len(red), bool)
    if not np.any(known):
        return state.appearance, share
    # Only among reds that can swap: a red with no other red near keeps its own look, which keeps
    # it off blobs of other things along its path (Task2 clip 24: a lone red along a cushion,
    # scored against the reds' look, chased blobs along the cushion into a pocket: a false pot).
    on = np.flatnonzero(red & np.all(np.isfinite(state.pos), axis=1))
    if len(on) < 2:
        return state.appearance, share
    d = np.linalg.norm(state.pos[on][:, None, :] - state.pos[on][None, :, :], axis=2)
    np.fill_diagonal(d, np.inf)
    share[on[d.min(axis=1) < cfg.look_share_radii * state.radius[on]]] = True
    look = state.appearance.copy()
    look[share] = np.median(state.appearance[known], axis=0)
    return look, share


def _locks(
    near: FloatArray, speed: FloatArray, state: TrackerState, ok: npt.NDArray[np.bool_], cfg: TrackerConfig
) -> tuple[IntArray, IntArray]:
    """Balls at rest paired with their own blob before the assignment: ``(rows, cols)``.

    A ball seen last frame, predicted at rest, and a detection within ``lock_gate`` of its
    un-grown gate, each the other's nearest (among the pairs ``ok`` allows), are one ball.

    Why: a pack's reds rest a diameter apart, well inside one another's gates, and when one
    of their blobs vanishes (a pack struck: two reds merged into one blob) the least-cost
    assignment shifts a chain of resting tracks one ball along rather than leave one
    unmatched: five steps of a diameter cost less than one miss. On the synthetic 01
    break-off every red track in the pack moved one ball over in the frame the white struck
    it (8 red identity switches).
    """
    resting = (speed < cfg.motion.moving_radii[0] * state.radius) & (state.unseen == 0)
    d = np.where(ok, near, np.inf)
    if not np.any(resting) or not d.shape[1]:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    j = np.argmin(d, axis=1)
    rows = np.arange(len(d))
    i_of_j = np.argmin(d, axis=0)
    keep = resting & (d[rows, j] < cfg.lock_gate) & (i_of_j[j] == rows)
    return rows[keep].astype(np.int64), j[keep].astype(np.int64)


def _assign(cost: FloatArray, match: IntArray, miss: float | None = None) -> None:
    """Least-cost pairing of the finite entries of ``cost`` written into ``match`` (in place).

    With ``miss``, every ball may also stay unmatched at that cost: without it the pairing
    matches as many balls as it can, so a ball whose only candidate is another ball's better
    match takes it and pushes that ball onto its own worse one (synthetic 02_red_then_colour:
    the resting pink took the white stopped at the contact, and the white the pink's streak).
    """
    b, n = cost.shape
    if miss is not None:
        dummy = np.full((b, b), _BIG)
        np.fill_diagonal(dummy, miss)
        cost = np.hstack([cost, dummy])
    rows, cols = linear_sum_assignment(cost)
    good = (cost[rows, cols] < _BIG) & (cols < n)
    match[rows[good]] = cols[good]


def _reacquire(
    state: TrackerState,
    det: BallDetections,
    appearance: FloatArray | None,
    pred: FloatArray,
    match: IntArray,
    cfg: TrackerConfig,
    covered: npt.NDArray[np.bool_],
    reentry: npt.NDArray[np.bool_] | None = None,
    table: FloatArray | None = None,
) -> None:
    """Second pass: lost single-colour (or unknown-colour) balls matched by identity anywhere
    (a ball off the table only where it can be put back: ``reentry``)."""
    taken = set(int(m) for m in match if m >= 0)
    free = np.array([j for j in range(len(det)) if j not in taken], dtype=np.int64)
    lost = np.flatnonzero(
        (match < 0)
        & ~covered
        & ((state.unseen >= cfg.reacquire_after) | (state.state == TrackState.ABSENT))
        & (state.colour != _RED)
    )
    if not len(free) or not len(lost):
        return
    matched = match >= 0
    if np.any(matched):
        free = free[_distinct(det, table, free, match, cfg)]
    if not len(free):
        return
    cost = np.full((len(lost), len(free)), _BIG)
    for i, t in enumerate(lost):
        tc = state.colour[t]
        # A ball never seen (NaN position) is equally likely anywhere.
        dist = np.nan_to_num(np.linalg.norm(det.pixel[free] - pred[t], axis=1) / 1000.0, nan=0.0)
        if tc >= 0:
            ok = det.colour[free] == tc
            if state.state[t] != TrackState.ABSENT:
                ok &= det.confidence[free] >= cfg.reacquire_confidence
            cost[i] = np.where(ok, dist, _BIG)
        elif (
            appearance is not None
            and np.all(np.isfinite(state.appearance[t]))
            and (state.unseen[t] >= cfg.reacquire_look_after or state.state[t] == TrackState.ABSENT)
        ):
            a = appearance_distance(state.appearance[t : t + 1], appearance[free], 1, len(free))[0]
            cost[i] = np.where(a < cfg.appearance_gate, a / cfg.appearance_gate + dist, _BIG)
        if reentry is not None and state.state[t] == TrackState.ABSENT:
            cost[i] = np.where(reentry[t, free], cost[i], _BIG)
        elif state.state[t] != TrackState.ABSENT and tc != _WHITE and np.all(np.isfinite(pred[t])):
            cost[i] = np.where(_within_reach(state, t, det.pixel[free], pred[t], cfg), cost[i], _BIG)
    rows, cols = linear_sum_assignment(cost)
    for r, c in zip(rows, cols, strict=True):
        if cost[r, c] < _BIG:
            match[lost[r]] = free[c]


def _distinct(
    det: BallDetections, table: FloatArray | None, rows: IntArray, match: IntArray, cfg: TrackerConfig
) -> npt.NDArray[np.bool_]:
    """Which detections ``rows`` are no matched ball's duplicate: farther than
    ``duplicate_radii`` radii from every matched detection in the picture, or, for two reds or
    a red and a colour on its own spot, farther than ``duplicate_mm`` on the table where both
    table positions are known (see :attr:`TrackerConfig.duplicate_mm` and
    :func:`vision.tracking.detection_sets.dedupe`)."""
    matched = match[match >= 0]
    if not len(matched) or not len(rows):
        return np.ones(len(rows), bool)
    d = np.linalg.norm(det.pixel[rows][:, None, :] - det.pixel[matched][None, :, :], axis=2)
    dup = d <= cfg.duplicate_radii * det.radius[rows][:, None]
    dup &= ~two_balls_apart(det, table, rows, matched, cfg.duplicate_mm)
    return np.asarray(~np.any(dup, axis=1), dtype=bool)


def _reacquire_reds(
    state: TrackerState,
    det: BallDetections,
    pred: FloatArray,
    match: IntArray,
    cfg: TrackerConfig,
    covered: npt.NDArray[np.bool_],
    inside: npt.NDArray[np.bool_],
    table: FloatArray | None = None,
) -> None:
    """Third pass: lost reds matched to red detections that no ball on the table explains,
    nearest first (in place).

    Why: reds look alike, so a lost red is only looked for inside its gate; a red whose track
    went off (in a pack's scatter, onto a neighbour's blob) left its ball untracked while its
    track waited, predicted, far from any ball (a rendered 1080p60 break-off: reds 100-500 mm
    off for seconds). A red detection (the detector's colour, not a blob of unknown colour: a
    hand or a shadow is no red) that is no matched ball's duplicate and inside no gate of a ball
    still on its track is a red the tracker has lost; any lost red may be it, and the nearest
    (within what it can have rolled, :func:`_within_reach`) is the likeliest.

    Args:
        inside: ``(B, N)`` which detections lie in each ball's un-grown gate.
    """
    lost = np.flatnonzero(
        (match < 0)
        & ~covered
        & (state.state != TrackState.ABSENT)
        & (state.unseen >= cfg.reacquire_after)
        & (state.colour == _RED)
    )
    if not len(lost):
        return
    free = np.ones(len(det), bool)
    free[match[match >= 0]] = False
    free &= det.colour == _RED
    owned = (match < 0) & (state.state != TrackState.ABSENT) & (state.unseen < cfg.reacquire_after)
    free &= ~np.any(inside[owned], axis=0)
    if np.any(match >= 0) and np.any(free):
        free &= _distinct(det, table, np.arange(len(det)), match, cfg)
    cols = np.flatnonzero(free)
    if not len(cols):
        return
    cost = np.full((len(lost), len(cols)), _BIG)
    for i, t in enumerate(lost):
        if not np.all(np.isfinite(pred[t])):
            continue
        dist = np.linalg.norm(det.pixel[cols] - pred[t], axis=1)
        ok = _within_reach(state, t, det.pixel[cols], pred[t], cfg)
        cost[i] = np.where(ok, dist / 1000.0, _BIG)
    rows, cc = linear_sum_assignment(cost)
    for r, c in zip(rows, cc, strict=True):
        if cost[r, c] < _BIG:
            match[lost[r]] = cols[c]


def _within_reach(
    state: TrackerState, t: int, pixel: FloatArray, pred: FloatArray, cfg: TrackerConfig
) -> npt.NDArray[np.bool_]:
    """Which points ball ``t``, lost while it rolled, can have got to since it was last seen.

    Why: a ball rolls on at the pace it had, slowing; only a contact speeds it up, and an object
    ball is struck by a ball no faster than itself times two-ish at most once it is rolling.
    Re-acquired "anywhere" by its colour, a blue rolling at 1.3 m/s into the far baulk corner,
    unseen for six frames at 60 fps, was taken 1.2 m away in a middle pocket's shade and potted
    there (a rendered 1080p60 break-off). Its reach is twice its pace when lost plus a radius a
    frame, along any direction, plus the gate; a ball lost at rest (struck while unseen, at up
    to 10 m/s, never measured moving) is not limited, and neither is the white: its track
    follows a cue or a hand at times when it is struck (sample 07: the track went the wrong way,
    and the white was found again only by the re-acquisition anywhere).
    """
    unseen = int(state.unseen[t])
    decay = cfg.motion.unseen_decay ** max(unseen - 1, 0)
    pace = float(np.hypot(*state.vel[t])) / max(decay, 1e-9)
    if pace < 0.5:
        return np.ones(len(pixel), bool)
    r = float(state.radius[t])
    reach = (2.0 * pace + r) * (unseen + 1) + cfg.motion.gate_radii * r
    return np.asarray(np.linalg.norm(pixel - pred, axis=1) <= reach, dtype=bool)


#: A prediction past a nose line this close to a pocket's mouth midpoint (mm) is a ball going
#: into the pocket through its jaws, not one off a cushion: the widest mouth's half-width and
#: a ball's diameter.
POCKET_REACH_MM = max(p.mouth_width for p in TABLE.pockets.values()) / 2.0 + 2.0 * TABLE.ball_radius


def _near_pocket(
    pos: FloatArray, radius: FloatArray, pockets: FloatArray | None, cfg: TrackerConfig
) -> npt.NDArray[np.bool_]:
    """Which last-known positions lie beside a pocket (all, when pockets are not known)."""
    if pockets is None or not len(pockets):
        return np.zeros(len(pos), dtype=bool)
    d = np.linalg.norm(pos[:, None, :] - np.asarray(pockets)[None, :, :], axis=2).min(axis=1)
    return d < cfg.pocket_radii * radius


#: Slowest speed (ball radii a frame) of a ball on its way: slower, it is still, where a colour
#: taken off the table may be put back (:meth:`Tracker._still`). A tenth of a radius a frame is
#: 80 mm/s at 30 fps, under any pace that carries a ball into a pocket from more than a few
#: centimetres, and over the tracker's jitter on a resting ball.
STILL_RADII = 0.1


class Tracker:
    """Norfair-style wrapper: ``update`` once per frame (detections may be empty), then ``tracks``.

    Args:
        initial: the balls at the start (see :meth:`TrackerState.seed`).
        fps: frame rate, for the frame times of the output.
        to_table: maps ``(N, 2)`` pixels to table millimetres (a calibrated camera); without it
            positions are NaN.
        pockets: ``(P, 2)`` pocket centres in pixels (for telling potted from hidden).
        config: matching configuration.
        cushions: the playing surface's edge in pixels, for bounces (a
            :class:`~vision.tracking.video.VideoTracker` with a surface mask sets it).
    """

    def __init__(
        self,
        initial: TrackerState,
        fps: float = 30.0,
        to_table: Callable[[FloatArray], FloatArray] | None = None,
        pockets: FloatArray | None = None,
        config: TrackerConfig | None = None,
        cushions: Cushions | None = None,
    ) -> None:
        self.cushions = cushions
        self.state = initial
        self.fps = fps
        self.to_table = to_table
        self.pockets = pockets
        self.config = config or TrackerConfig()
        self._pixel: list[FloatArray] = []
        self._state: list[npt.NDArray[np.int8]] = []
        # Per ball, the frame its prediction was turned back off a cushion, unseen (-1: none).
        self._turned = np.full(len(initial.names), -1, np.int64)
        # Per ball, where it was last measured still (pixels; NaN: never): a colour taken off
        # the table comes back there or on a spot (see :meth:`_still`).
        self._still_at = initial.pos.copy()

    def update(
        self,
        detections: BallDetections | None = None,
        appearance: FloatArray | None = None,
        hidden: npt.NDArray[np.bool_] | None = None,
        cloth: FloatArray | None = None,
    ) -> TrackerState:
        """Advance one frame; with no detections every ball is predicted (``hidden``,
        ``cloth``: see :func:`step`)."""
        det = detections if detections is not None else BallDetections.empty()
        app = appearance if detections is not None else None
        xy = None
        if self.to_table is not None and len(det):
            # A pocket hole or the rail is no ball on the bed (see :mod:`vision.tracking.bed`).
            xy = self.table_of(det.pixel)
            # Over a hole, only a ball rolling there (asked of those points alone: most frames none).
            hole = in_fall(xy)
            if np.any(hole):
                hole[hole] = ~self._arriving(det.pixel[hole])
            keep = ~off_bed(xy, self.config.bed_tol) & ~hole
            if not np.all(keep):
                det, xy = det[keep], xy[keep]
                app = app[keep] if app is not None else None
        reentry = None
        off = self.state.state == TrackState.ABSENT
        if xy is not None and len(det) and np.any(off):
            last = self.table_of(np.where(off[:, None], self._still_at, np.nan))
            reentry = reentry_allowed(self.state.colour, last, xy)
            # Nor where a rolling ball can be this frame: a hand puts a ball back with the balls
            # at rest, and a ball rolling away from a spot, its blur named another colour, is
            # that ball (a rendered clearance, 960x540: the pink struck off its spot was named
            # the brown, which came back on the table there and took the pink's path).
            reentry &= ~self._arriving(det.pixel)[None, :]
        self.state = step(
            self.state, det, app, self.config, self.pockets, self.cushions, hidden, reentry, xy, cloth
        )
        self.state = self._leave_bed(self.state)
        self._still()
        px = np.where((self.state.state == TrackState.ABSENT)[:, None], np.nan, self.state.pos)
        self._pixel.append(px)
        self._state.append(self.state.state.copy())
        return self.state

    def _arriving(self, pixel: FloatArray) -> npt.NDArray[np.bool_]:
        """Which points a rolling ball can have reached this frame (within its motion gate).

        Why: a centre over a pocket's hole is a ball dropping, which only a ball rolling there
        can be; the hole's rim is otherwise found as a ball, and a resting red hidden for a few
        frames (whose gate grows) took it and was then potted by the tracker.
        """
        st = self.state
        speed = np.hypot(st.vel[:, 0], st.vel[:, 1])
        moving = (st.state != TrackState.ABSENT) & (speed > 0.5)
        if not np.any(moving) or not len(pixel):
            return np.zeros(len(pixel), bool)
        pred = st.pos[moving] + st.vel[moving]
        reach = self.config.motion.gate_radii * st.radius[moving] + 2.0 * speed[moving]
        d = np.linalg.norm(pixel[:, None, :] - pred[None, :, :], axis=2)
        return np.asarray(np.any(d < reach[None, :], axis=1), dtype=bool)

    def _leave_bed(self, state: TrackerState) -> TrackerState:
        """A ball unmeasured whose prediction went past a mouth line is off the bed; one whose
        prediction went past a cushion nose line away from the pockets is turned back off the
        cushion, and taken off the table only if it stays unseen ``bounce_hold`` frames.

        Why: its last sightings ran into a pocket's mouth and its measurements there were refused;
        held ``predicted`` it would wait out ``absent_after`` frames before the pocket test, and
        the stroke would not settle until then. At a cushion, a ball unseen for the frame or two
        of its bounce is far commoner than one jumping it: taken off at once, a red whose local
        search missed the frame it came off the cushion was read as forced off the table (a
        1080p60 break-off render, FOUL 4). Turned back, it is found again on its way out; a ball
        that did leave the table is not, and is taken off as before, a few frames later.
        """
        if self.to_table is None:
            return state
        self._turned[state.state == TrackState.SEEN] = -1
        pred = np.flatnonzero(state.state == TrackState.PREDICTED)
        if not len(pred):
            return state
        xy = self.table_of(state.pos[pred])
        # Over the hole itself (a pocket's fall circle) a ball drops: a prediction that slowed
        # to a stop there (the unseen decay stops a hidden ball short of where it rolled) is
        # in the pocket, not resting in the jaws beyond the nose line's tolerance.
        off = off_bed(xy, self.config.bed_tol) | in_fall(xy)
        waited = (self._turned[pred] >= 0) & (state.frame - self._turned[pred] >= self.config.bounce_hold)
        if not np.any(off | waited):
            return state
        pocket = into_pocket(xy, self.config.bed_tol) | near_mouth(xy, POCKET_REACH_MM)
        turn = off & ~pocket & past_nose(xy, self.config.bed_tol) & (self._turned[pred] < 0)
        gone = np.zeros(len(state.names), bool)
        gone[pred] = (off & ~turn) | waited
        pos, vel = state.pos.copy(), state.vel.copy()
        for k in np.flatnonzero(turn):
            i = int(pred[k])
            back = state.pos[i] - state.vel[i]  # where the prediction was still on the bed
            reflected = self._reflect(back, state.vel[i], nose_normal(xy[k : k + 1])[0])
            if reflected is None:
                gone[i] = True
                continue
            pos[i], vel[i] = back + reflected, reflected
            self._turned[i] = state.frame
        self._turned[gone] = -1
        return replace(
            state,
            pos=pos,
            vel=np.where(gone[:, None], 0.0, vel),
            state=np.where(gone, TrackState.ABSENT, state.state).astype(np.int8),
        )

    def _still(self) -> None:
        """Note where each ball measured this frame slower than :data:`STILL_RADII` a frame is.

        Why: a colour taken off the table is put back on a spot, or where it was before the
        stroke (a miss's balls replaced, :mod:`vision.tracking.reentry`), which is where it was
        last still. Where it was last seen is the pocket's mouth it rolled into, and a pocket's
        cream ring there, found as a ball, took a potted brown's name, was put back on the
        table for the referee, and made the brown the ball on (a rendered clearance, 960x540).
        """
        st = self.state
        speed = np.hypot(st.vel[:, 0], st.vel[:, 1])
        still = (st.state == TrackState.SEEN) & (speed < STILL_RADII * st.radius)
        self._still_at[still] = st.pos[still]

    def _reflect(self, at: FloatArray, vel: FloatArray, normal: FloatArray) -> FloatArray | None:
        """A pixel velocity ``vel`` at pixel ``at`` reflected off the nose line whose inward
        table normal is ``normal`` (through the calibration's local linear map); None where the
        map cannot be taken there."""
        mm = self.table_of(at[None] + np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
        jac = (mm[1:] - mm[0]).T  # mm per pixel, columns per pixel axis
        if not np.all(np.isfinite(jac)) or abs(float(np.linalg.det(jac))) < 1e-9:
            return None
        v = jac @ vel
        vn = float(v @ normal)
        if vn >= 0:
            return None  # not going into that cushion: nothing to turn back
        out: FloatArray = np.linalg.solve(jac, v - 2.0 * vn * normal)
        return out

    def report(self, rows: npt.NDArray[np.bool_], pixel: FloatArray) -> None:
        """Record the last frame's ``rows`` balls at ``pixel`` instead of their tracked centres.

        Why: what a ball's track follows (its gate, the next frame's prediction) and where it is
        best reported can differ: a resting ball searched by its colour is followed at the
        searched centre, which the light puts a few pixels off it (see
        :mod:`vision.tracking.rest_report`). The state is not changed.
        """
        if not self._pixel or not np.any(rows):
            return
        px = self._pixel[-1].copy()
        px[rows] = pixel[rows]
        self._pixel[-1] = px

    def frame_rows(self) -> tuple[FloatArray, FloatArray, npt.NDArray[np.int8]]:
        """The last frame's pixels, table positions and states (for online consumers)."""
        px = self._pixel[-1]
        return px, self.table_of(px[None])[0], self._state[-1]

    def table_of(self, pixel: FloatArray) -> FloatArray:
        """Table millimetres of pixels ``(..., 2)`` (NaN where a pixel is NaN or no camera is known)."""
        if self.to_table is None:
            return np.full(pixel.shape, np.nan)
        flat = pixel.reshape(-1, 2)
        out = np.full(flat.shape, np.nan)
        ok = np.all(np.isfinite(flat), axis=1)
        if np.any(ok):
            out[ok] = self.to_table(flat[ok])
        return out.reshape(pixel.shape)

    def tracks(self) -> Tracks:
        """Everything recorded so far as the shared :class:`~vision.tracks.Tracks` container."""
        f, b = len(self._pixel), len(self.state.names)
        pixel = np.array(self._pixel).reshape(f, b, 2)
        return Tracks(
            ball_names=self.state.names,
            times=np.arange(f) / self.fps,
            position=self.table_of(pixel),
            pixel=pixel,
            state=np.array(self._state, dtype=np.int8).reshape(f, b),
        )
