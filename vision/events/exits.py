"""Step 4 of a stroke's analysis: balls that left the cloth, into a pocket or over a cushion."""

from __future__ import annotations

import itertools
import math

import numpy as np
import numpy.typing as npt

from adjudicator.eventlog import InputEvent, OffTable, Pot
from vision.events.analysis import Analysis
from vision.events.config import GRAVITY, MAX_BALL_SPEED, ROLLING_RESISTANCE, EventConfig, least_slide_mm
from vision.events.contacts import left_spot
from vision.events.geometry import PocketEntry, at_mouth, nearest_cushion, past_mouth, pocket_entry
from vision.events.kinematics import Motion

FloatArray = npt.NDArray[np.float64]


def exits(an: Analysis, final_window: int) -> list[InputEvent]:
    """Pots and off-tables: of balls unseen at the end of the stroke, and of balls that went
    off the cloth into a pocket and stayed off it for a rest window before a track of the
    same name showed up again (a potted ball does not come back: that is the tracker taking
    another ball, or a ghost, for it; or the white picked out and put down)."""
    sf, cfg = an.sf, an.cfg
    out: list[InputEvent] = []
    f = len(sf.times)
    for b in range(len(sf.ball_names)):
        idx = np.flatnonzero(sf.seen[:, b])
        # A ball not at rest where the stroke began may have rolled into view during it (the
        # detector missed it at rest, against a cushion's shade): with a path of its own
        # over two fit windows it may be potted too. A glimpse or two is no path.
        if len(idx) == 0 or (np.isnan(sf.start[b, 0]) and len(idx) < 2 * cfg.fit_frames):
            continue
        if idx[-1] < f - final_window:
            ev = exit_after(an, b, int(idx[-1]), off_at_end=bool(sf.absent[-1, b]), for_good=True)
            if ev is None and (k_path := _before_glimpse(an, b, idx)) != idx[-1]:
                ev = exit_after(an, b, k_path, off_at_end=False, for_good=True)
            for k_path in _before_dead_stop(an, b, idx) if ev is None else []:
                ev = exit_after(an, b, k_path, off_at_end=False, for_good=True)
                if ev is not None:
                    break
            if ev is None:
                ev = struck_in(an, b, int(idx[-1]))
            if ev is None:
                ev = held_entry(an, b, idx)
            if ev is not None:
                out.append(ev)
            continue
        # Seen at the end: look for an earlier stay off the cloth as long as a rest window.
        gaps = np.flatnonzero(np.diff(idx) > cfg.rest_frames)
        for g in gaps:
            k_last, k_back = int(idx[g]), int(idx[g + 1])
            if int(sf.absent[k_last + 1 : k_back, b].sum()) < cfg.rest_frames:
                continue  # hidden (predicted), not off the cloth
            ev = exit_after(an, b, k_last, off_at_end=False)
            if isinstance(ev, Pot):
                out.append(ev)
                break
    return out


def _before_glimpse(an: Analysis, b: int, idx: npt.NDArray[np.intp]) -> int:
    """The frame ball ``b`` was last seen on its own path: its last sighting, unless the
    track jumped further than its own motion takes it (twice its speed over the gap, and
    two radii) to something else for a glimpse of under a fit window before it was lost
    for good. A potted ball's name is often taken for a frame or two by a cushion's
    highlight or a hand: those sightings are no part of the ball's way into the pocket."""
    sf, cfg = an.sf, an.cfg
    tail = idx[-(cfg.fit_frames + 1) :]
    for m in range(len(tail) - 1, 0, -1):
        a, e = int(tail[m - 1]), int(tail[m])
        before = idx[idx <= a][-3:]
        if len(before) < 2:
            break
        speed = float(np.hypot(*(sf.position[before[-1], b] - sf.position[before[0], b]))) / float(
            sf.times[before[-1]] - sf.times[before[0]]
        )
        gap = float(sf.times[e] - sf.times[a])
        step = float(np.hypot(*(sf.position[e, b] - sf.position[a, b])))
        if step > 2.0 * speed * gap + 2.0 * cfg.radius:
            return a
    return int(idx[-1])


#: Sightings standing still at the end of a track that make a still run (see
#: :func:`_before_dead_stop`): more than a frame or two of a track lost as it moves.
STILL_RUN = 3


def _before_dead_stop(an: Analysis, b: int, idx: npt.NDArray[np.intp]) -> list[int]:
    """The frames ball ``b`` may last have been seen on its own path, latest first, when its
    track ends standing still where the ball, at the pace it was last seen rolling, cannot
    have stopped (:func:`~vision.events.config.least_slide_mm`), with no
    ball contact of its own then: the fit window of sightings before the still run (the last
    ones may be glimpses of something else, and a jaw's contacts read off them cut its path
    short); none otherwise.

    Why: a ball rolling into a corner pocket at 1.9 m/s had its name taken, two frames after
    its last clear sighting, by a blob in the jaw's shade 30 mm behind it, which stood there
    for 0.6 s and vanished: the ball read as stopped by the jaws, and the pot was missed (a
    rendered 1080p60 red-then-colour, seed 142). Only a ball-ball contact stops a ball dead
    (a stun shot's white); a cushion or a jaw sends it back at most of its pace.
    """
    sf, cfg = an.sf, an.cfg
    end = sf.position[idx[-1], b]
    s = len(idx) - 1
    while s > 0 and float(np.hypot(*(sf.position[idx[s - 1], b] - end))) <= cfg.still_mm:
        s -= 1
    if s < 3 or len(idx) - s < STILL_RUN:
        return []  # (no path before it, or no still run: the track was lost moving)
    a = int(idx[s - 1])
    t_a, t_s = float(sf.times[a]), float(sf.times[idx[s]])
    name = sf.ball_names[b]
    cushions = {c.t for c in an.cushion_events if c.ball == name}
    if any(t_a - cfg.dt <= t <= t_s + cfg.dt and t not in cushions for t in an.breaks[b]):
        return []  # a ball's contact can stop it dead
    # Its fastest pace over the window before the run: the last steps may be glimpses.
    window = idx[:s][-(cfg.fit_frames + 1) :]
    speed = (
        max(
            float(np.hypot(*(sf.position[k1, b] - sf.position[k0, b])))
            / max(float(sf.times[k1] - sf.times[k0]), cfg.dt)
            for k0, k1 in itertools.pairwise(window)
        )
        if len(window) >= 2
        else 0.0
    )
    room = float(np.hypot(*(sf.position[idx[s], b] - sf.position[a, b]))) + cfg.still_mm
    if least_slide_mm(speed) <= room:
        return []
    return [int(k) for k in window[::-1]]


#: How much faster than the white was ever measured going in a stroke a ball may be measured
#: going into a pocket. Every ball's speed comes from the white's at the strike (equal
#: masses: a struck ball leaves at most as fast as what struck it), but the white is measured
#: after the cue left it: rolling, a ball struck without spin keeps only 5/7 of its speed
#: (the rest goes into its spin), and its first clear sightings may come a few frames into
#: its slowing. Twice the white's measured speed covers both.
CUE_SPEED_FACTOR = 2.0


def white_speed(an: Analysis) -> float | None:
    """The fastest the white was measured going in the stroke (mm/s), over windows of three
    frame intervals between its sightings (a blurred centre jitters along its streak frame
    to frame); ``None`` unless two such windows show it rolling at a pace that carries a
    ball the length of a pocket's approach (:attr:`EventConfig.blind_speed_mm_s`): a white
    the tracker lost as it left (or a column that holds another ball standing still) says
    nothing of the stroke's pace. Only its sightings before its first contact count: after it
    the white has given up to most of its speed (Task2 clip 6: lost in its streak until it
    struck the black at close range, then seen at a third of the black's pace, which put the
    black's pot down to a hand the track rode). The strike heads the white's breaks and is
    no contact: cut there, the white's pace was read from the frames it rested in and left,
    359 mm/s against 2.7 m/s measured after, and a green potted at 1.1 m/s was refused as a
    hand the track rode (a rendered 1080p60 red-then-colour, seed 138)."""
    sf = an.sf
    if "white" not in sf.ball_names:
        return None
    w = sf.ball_names.index("white")
    idx = np.flatnonzero(sf.seen[:, w])
    if len(idx) < 7:
        return None
    breaks = an.breaks[w] if w < len(an.breaks) else []
    contacts = [t for t in breaks if an.t_strike is None or t > an.t_strike]
    if contacts:
        idx = idx[sf.times[idx] <= contacts[0]]
        if len(idx) < 7:
            return None
    t, p = sf.times[idx], sf.position[idx, w]
    step = np.hypot(*(p[3:] - p[:-3]).T) / (t[3:] - t[:-3])
    step = step[step <= MAX_BALL_SPEED]  # a jump onto something else, not the white's pace
    return float(step.max()) if int(np.count_nonzero(step > an.cfg.blind_speed_mm_s)) >= 2 else None


def speeds_up(t: FloatArray, p: FloatArray, cfg: EventConfig) -> bool:
    """Whether a track gains speed between contacts beyond its noise: a ball on cloth only
    slows down, so such a track into a pocket follows a hand or a cue, not a ball (nor does
    a ball at rest start rolling with nothing touching it).

    The speed is measured over successive windows of at least three frame intervals, back
    from the newest sample, from each window's end points, not frame to frame: a moving
    ball's measured centre may sit anywhere along its blurred streak (up to a frame's travel
    long), which frame-to-frame speeds turn into gains of metres per second. A window is
    faster than the one before when it gains more than 4 sigmas of the end points' noise
    plus what half a streak at either end of both windows can make of it.
    """
    n = len(t)
    if n < 7:
        return False
    m = max(3, (n - 1) // 3)
    # Windows back from the newest sample: the last sightings are what a pot is read from.
    starts = list(range(n - 1 - m, -1, -m))[::-1]
    if len(starts) < 2:
        return False
    frame = float(np.median(np.diff(t)))
    speeds, spans = [], []
    for a in starts:
        e = a + m
        span = float(t[e] - t[a])
        speeds.append(float(np.hypot(*(p[e] - p[a]))) / span)
        spans.append(span)
    for k in range(1, len(speeds)):
        sigma = math.sqrt(2.0) * cfg.noise_mm * math.hypot(1.0 / spans[k], 1.0 / spans[k - 1])
        streak = 0.5 * max(speeds[k], speeds[k - 1]) * frame
        blur = 2.0 * streak * (1.0 / spans[k] + 1.0 / spans[k - 1])
        if speeds[k] - speeds[k - 1] > 4.0 * sigma + blur:
            return True
    return False


def approach_hidden(an: Analysis, pocket: str, k_from: int, t_to: float) -> bool | None:
    """Whether a pocket's approach was hidden in any frame from ``k_from`` to the one after
    ``t_to``; ``None`` when the view was not measured in all of them."""
    sf, cfg = an.sf, an.cfg
    if sf.hidden is None:
        return None
    p = list(cfg.table.pockets).index(pocket)
    k_to = min(int(np.searchsorted(sf.times, t_to)) + 1, len(sf.times) - 1)
    vals = sf.hidden[max(k_from, 0) : k_to + 1, p]
    if len(vals) == 0 or bool(np.isnan(vals).any()):
        return None
    return bool(np.any(vals > cfg.hidden_fraction))


def _rolled_on(m: Motion, t_last: float) -> tuple[Motion, float]:
    """The path on from ``t_last`` of a ball last seen on ``m``, and its speed then: a
    straight line (a fit's bend is noise over a few samples), slowed by rolling resistance
    only, so no faster than the ball was last seen going, and no further."""
    v = m.velocity(t_last)
    speed = float(np.hypot(*v))
    slowing = -ROLLING_RESISTANCE * GRAVITY * v / max(speed, 1e-9)
    coef = np.array([m.at(t_last), v, 0.5 * slowing])
    return Motion(t0=t_last, coef=coef, t_first=m.t_first, t_last=t_last, n=m.n), speed


def blind_entry(an: Analysis, models: list[Motion], t_last: float, k_path: int) -> PocketEntry | None:
    """The pocket a ball lost short of its mouth rolled into, when the evidence holds: its
    last path enters a mouth within :attr:`EventConfig.blind_mm` of its last sighting, at a
    speed that carries it that far on the cloth, and the pocket's approach was in plain view
    from the first sighting that path was read from (frame ``k_path``) until it would have
    dropped."""
    cfg = an.cfg
    rolling = 2.0 * ROLLING_RESISTANCE * GRAVITY
    for m in models:
        path, speed = _rolled_on(m, t_last)
        if speed < cfg.blind_speed_mm_s:
            continue
        horizon = min(speed / (0.5 * rolling), (cfg.blind_mm + cfg.radius) / speed * 2.0)
        entry = pocket_entry(path, t_last, t_last + horizon, cfg.table, cfg.blind_mm)
        if entry is None:
            continue
        travel = float(np.hypot(*(path.at(entry.t) - path.at(t_last))))
        if travel > cfg.blind_mm or travel > speed * speed / rolling:
            continue
        if approach_hidden(an, entry.pocket, k_path, entry.t) is False:
            return entry
    return None


def lost_entry(an: Analysis, b: int, models: list[Motion], t_last: float, k_path: int) -> PocketEntry | None:
    """The pocket a ball of its own colour (the white or a colour: the caller asks only for
    those) lost further short of its mouth than :func:`blind_entry` allows rolled into, when
    the tracker gave it up for good (it is off the table at the stroke's end) and nothing else
    can have happened to it: its last straight path, slowed by rolling resistance only, enters
    a mouth within the distance that speed carries it; no other ball was within touching
    reach of that path while it would have rolled it (so it hit nothing); and the pocket's
    approach was in plain view.

    Why: a ball faint against the cloth (a green on green cloth under a soft light, the
    streak of a ball rolling fast across it) may go unmeasured for half a metre before it
    drops (a rendered red-then-colour, seed 107, 720p30: the green, potted 490 mm after it was
    last measured, was read as vanished). Its absence at the end is the evidence: a ball of a
    colour no other ball has, still on the cloth, is found again by the tracker's whole-table
    searches once the balls are at rest, anywhere. Not a red: a lost red is looked for only
    near where it was lost, so it may be absent at the end while still on the table.
    """
    sf, cfg = an.sf, an.cfg
    rolling = 2.0 * ROLLING_RESISTANCE * GRAVITY
    others = [o for o in range(len(sf.ball_names)) if o != b]
    k_last = int(np.searchsorted(sf.times, t_last))
    for m in models:
        path, speed = _rolled_on(m, t_last)
        if speed < cfg.blind_speed_mm_s:
            continue
        reach = speed * speed / rolling
        entry = pocket_entry(path, t_last, t_last + 2.0 * speed / rolling, cfg.table, reach)
        if entry is None:
            continue
        k_in = min(int(np.searchsorted(sf.times, entry.t)) + 1, len(sf.times))
        grid = np.linspace(t_last, entry.t, 64)
        line = path.at(grid)
        near = False
        for k in range(k_last, k_in):
            pts = sf.position[k, others]
            pts = pts[np.all(np.isfinite(pts), axis=1)]
            if len(pts) and float(np.min(np.hypot(*(line[:, None, :] - pts[None, :, :]).T))) < (
                2.0 * cfg.radius + cfg.still_mm
            ):
                near = True
                break
        if near:
            continue
        if approach_hidden(an, entry.pocket, k_path, entry.t) is False:
            return entry
    return None


def jaw_entry(an: Analysis, model: Motion, t_last: float, k_path: int) -> PocketEntry | None:
    """A ball last seen at a pocket's mouth heading in (:func:`geometry.at_mouth`), never
    seen again, the approach in plain view: it went in, however short its path's fit is
    (a ball at rest by a mouth, struck, is seen once or twice before it drops, often
    misplaced by the jaws' shade towards the cushion). Not a ball that left the table over
    the jaws: that takes the speed of a jump, and a cushion's rubber first."""
    pocket = at_mouth(model.at(t_last), model.velocity(t_last), an.cfg.table)
    if pocket is None:
        return None
    entry = PocketEntry(pocket, t_last + 0.5 * an.cfg.dt)
    return entry if approach_hidden(an, pocket, k_path, entry.t) is False else None


def struck_in(an: Analysis, b: int, k_last: int) -> Pot | None:
    """A ball standing by a pocket's mouth, knocked in: never measured moving (it dropped
    within two frames, blurred in the jaws' shade), but another ball came to touch it just
    as it vanished for good, along a line of centres that sends it into the mouth, and the
    camera saw that pocket's approach clear from then until it would have dropped.

    Touched: the other ball's measured centre within two radii plus half a radius (its
    noise and blur) of the standing ball's, in the frame after its last sighting or the two
    after that, having closed in. By the mouth: no further short of the mouth line, between
    the jaws (a radius of slack each side), than two frames of the striker's pace carry a
    ball (and at least a ball's width): a ball struck further out is measured on its way.
    """
    sf, cfg = an.sf, an.cfg
    r = cfg.radius
    # Standing until the frame before its last sighting (in that one it may be on its way).
    _, p_s = an.samples(b, max(k_last - cfg.rest_frames, 0), k_last - 1)
    if len(p_s) < 2 or float(np.max(np.hypot(*(p_s - p_s.mean(axis=0)).T))) > cfg.move_mm:
        return None  # not standing: a moving ball's way in is read from its path
    here = p_s.mean(axis=0)
    f = len(sf.times)
    for q in range(len(sf.ball_names)):
        ks = [k for k in range(k_last + 1, min(k_last + 4, f)) if sf.seen[k, q]]
        before = [k for k in range(max(k_last - 3, 0), k_last + 1) if sf.seen[k, q]]
        if q == b or not ks or not before:
            continue
        gaps = [float(np.hypot(*(sf.position[k, q] - here))) for k in ks]
        k_touch = ks[int(np.argmin(gaps))]
        if min(gaps) > 2.5 * r or float(np.hypot(*(sf.position[before[0], q] - here))) <= min(gaps):
            continue  # not touching, or not closing in
        pace = float(np.hypot(*(sf.position[k_touch, q] - sf.position[before[-1], q]))) / (
            k_touch - before[-1]
        )
        reach = max(2.0 * r, 2.0 * pace)
        near = {pk.name for pk in cfg.table.pockets.values() if past_mouth(here, pk, r, slack=r) >= -reach}
        # Sent along the line of centres (a rolling pace: only the direction matters here).
        line = here - sf.position[k_touch, q]
        t = float(sf.times[k_touch])
        v = line / float(np.hypot(*line)) * cfg.blind_speed_mm_s
        path = Motion(t0=t, coef=np.array([here, v, np.zeros(2)]), t_first=t, t_last=t, n=2)
        entry = pocket_entry(path, t, t + (reach + 2.0 * r) / cfg.blind_speed_mm_s, cfg.table, reach + r)
        if entry is None or entry.pocket not in near:
            continue
        if approach_hidden(an, entry.pocket, k_last + 1, entry.t) is False:
            return Pot(t=t, ball=sf.ball_names[b], pocket=entry.pocket)
    return None


def held_entry(an: Analysis, b: int, idx: npt.NDArray[np.intp]) -> Pot | None:
    """The pot of a ball whose last sightings held it at one spot (within the noise's reach,
    :attr:`EventConfig.move_mm`) for less than a rest window before it was lost for good: the
    pocket the path it rolled in on (fitted on the sightings before the hold) enters from that
    spot within the distance its speed then carries a ball on the cloth, the approach in plain
    view from the first sighting of that path until it would have dropped.

    Why: the tracker carries a ball whose measured speed falls under its rest speed at one
    spot until its picture changes, and at 960x540 (balls 3 px in radius) a ball rolling
    slowly into a pocket, 0.3-0.7 px a frame, its image merging with the pocket's cream ring,
    changed it too little: the white of an in-off was held 27 mm short of a corner pocket's
    mouth line for the 0.1-0.3 s before it dropped, and read as still there, no pot (two
    renders, seeds 112 and 114). A ball at rest does not leave the table unseen; one that
    does was still rolling where it was held, along the way it came.
    """
    sf, cfg = an.sf, an.cfg
    last = sf.position[int(idx[-1]), b]
    near = np.hypot(*(sf.position[idx, b] - last).T) <= cfg.move_mm
    run = int(np.argmin(near[::-1])) if not near.all() else len(idx)  # sightings held there
    if run < 2 or run == len(idx):
        return None
    k_hold, k_moved = int(idx[-run]), int(idx[-run - 1])
    t_hold = float(sf.times[k_hold])
    if float(sf.times[int(idx[-1])]) - t_hold >= cfg.rest_frames * cfg.dt:
        return None  # at rest there: what took it off was no roll (a hand, a lost track)
    breaks = [t for t in an.breaks[b] if t <= float(sf.times[k_moved])]
    t_s, p_s = an.samples(b, 0, k_moved)
    keep = t_s > (breaks[-1] if breaks else -math.inf)
    if int(keep.sum()) < 3:
        return None
    t_fit, p_fit = t_s[keep][-cfg.fit_frames :], p_s[keep][-cfg.fit_frames :]
    model = an.fit(t_fit, p_fit)
    if model is None or model.is_still:
        return None
    v = model.velocity(float(t_fit[-1]))
    speed = float(np.hypot(*v))
    if speed <= 0.0 or speed > MAX_BALL_SPEED:
        return None
    rolling = 2.0 * ROLLING_RESISTANCE * GRAVITY
    reach = speed * speed / rolling  # how far a ball rolling at that speed goes on the cloth
    # From where it was held, straight on at that speed (slowed by rolling resistance only).
    coef = np.array(
        [
            sf.position[k_hold : int(idx[-1]) + 1, b][sf.seen[k_hold : int(idx[-1]) + 1, b]].mean(axis=0),
            v,
            -0.25 * rolling * v / speed,
        ]
    )
    path = Motion(t0=t_hold, coef=coef, t_first=t_hold, t_last=t_hold, n=run)
    entry = pocket_entry(path, t_hold, t_hold + speed / (0.5 * rolling), cfg.table, reach + cfg.radius)
    if entry is None:
        return None
    k_path = int(np.searchsorted(sf.times, t_fit[0]))
    if approach_hidden(an, entry.pocket, k_path, entry.t) is not False:
        return None
    return Pot(
        t=max(entry.t, float(sf.times[int(idx[-1])]) + 0.5 * cfg.dt),
        ball=sf.ball_names[b],
        pocket=entry.pocket,
    )


def _struck_unseen(an: Analysis, b: int, t_s: FloatArray, p_s: FloatArray) -> float | None:
    """When ball ``b``, at rest where the stroke began and with no contact found, was struck by
    a ball the tracker did not follow to it: its departure (:func:`contacts.left_spot`, from a
    path fitted once it was clearly away), when every sighting since (``t_s``, ``p_s``: its
    samples up to the exit being read) lies within a ball's radius (and the noise's reach,
    :attr:`EventConfig.move_mm`) of a straight line from its spot, as a struck ball's roll
    does, and it never gains speed on the way (:func:`gains_after_departure`). None otherwise.

    Why the line: a ball at rest starts rolling only when something strikes it, and that
    something is unknown here; a track that jumped from the ball onto a hand or a sleeve leaves
    the spot along whatever way the hand goes, and a hand's way wanders. A ball's does not
    between contacts (a cushion found would be a contact).
    """
    left = left_spot(an, b)
    if left is None or not left[1]:
        return None
    t_d = left[0]
    after = t_s > t_d
    if int(after.sum()) < 3:
        return None
    rel = p_s[after] - an.sf.start[b]
    if float(np.max(np.hypot(*rel.T))) <= an.cfg.strike_mm:
        return None
    # The line through the spot nearest all of them (not the chord to the last sighting: a
    # ball's last centre in a pocket's shade is measured off as much as any).
    _, vecs = np.linalg.eigh(rel.T @ rel)
    way = vecs[:, 1]
    off = np.abs(rel[:, 0] * way[1] - rel[:, 1] * way[0])
    if float(off.max()) > an.cfg.radius + an.cfg.move_mm:
        return None
    return None if gains_after_departure(t_s[after], p_s[after], an.cfg) else t_d


#: How much faster than it left its spot a ball struck from rest may later be measured going:
#: a struck ball leaves at the most speed it will have, and a window's end points may each lie
#: anywhere along a streak (a third of the speed either way over three frames, at worst).
DEPARTURE_GAIN = 1.5


def gains_after_departure(t: FloatArray, p: FloatArray, cfg: EventConfig) -> bool:
    """Whether a track, from its first sample after leaving its spot (``t``, ``p``), is ever
    measured going more than :data:`DEPARTURE_GAIN` times (plus 4 sigmas of its end points'
    noise) as fast as over its first window of three frame intervals, windows taken end to
    end from there.

    Why not :func:`speeds_up`: that test allows for the streak at both ends of both windows
    it compares, enough to pass a track that triples its speed at a pot's pace; a track riding
    a player's arm off a ball's spot speeds up from nothing, and with no contact found for the
    ball, the speed it left with is the one measure of what struck it.
    """
    m = 3
    if len(t) < m + 1:
        return False
    speeds, spans = [], []
    for a in range(0, len(t) - m, m):
        span = float(t[a + m] - t[a])
        speeds.append(float(np.hypot(*(p[a + m] - p[a]))) / span)
        spans.append(span)
    for k in range(1, len(speeds)):
        sigma = math.sqrt(2.0) * cfg.noise_mm * math.hypot(1.0 / spans[k], 1.0 / spans[0])
        if speeds[k] > DEPARTURE_GAIN * speeds[0] + 4.0 * sigma:
            return True
    return False


def exit_after(
    an: Analysis, b: int, k_last: int, off_at_end: bool, for_good: bool = False
) -> Pot | OffTable | None:
    """The pot (or off-table) of ball ``b`` last seen at frame ``k_last``, if its path went
    there; ``for_good``: it was never seen again in the stroke (a blind pot is possible)."""
    sf, cfg = an.sf, an.cfg
    name = sf.ball_names[b]
    if an.was_still(b, k_last):
        return None
    t_last = float(sf.times[k_last])
    # Contacts after the last sight belong to whatever was tracked under this name later.
    breaks = [t for t in an.breaks[b] if t <= t_last]
    t_s, p_s = an.samples(b, 0, k_last)
    # Speed gained anywhere since the ball was last struck by a ball (a cushion only takes
    # speed away), not only since its last contact: a track riding an arm may have been
    # given a cushion contact on the way.
    cushions = {c.t for c in an.cushion_events if c.ball == name}
    struck = [t for t in breaks if t not in cushions]
    unseen = None if struck else _struck_unseen(an, b, t_s, p_s)
    if unseen is not None:
        # Set moving from its spot with no contact found (the ball that struck it was not
        # tracked to it): it was struck when it left, and it was still before that (Task2 clip 6:
        # the black, struck by a white the tracker lost at its stroke, gained the whole of its
        # speed over the window that held its departure). Its path is read from then on.
        struck = [unseen]
        breaks = sorted([*breaks, unseen])
    brk = breaks[-1] if breaks else -math.inf
    keep = t_s > brk
    w = cfg.fit_frames
    if int(keep.sum()) >= 2:
        model = an.fit(t_s[keep][-w:], p_s[keep][-w:])
    else:
        model = an.pre_model(b, k_last) if breaks == an.breaks[b] else None
    since = t_s >= (struck[-1] if struck else -math.inf)
    if model is None or model.is_still or speeds_up(t_s[since][-4 * w :], p_s[since][-4 * w :], cfg):
        return None
    speed = float(np.hypot(*model.velocity(t_last)))
    if speed > MAX_BALL_SPEED:
        return None  # faster than any ball: the track jumped (often one sighting after a contact)
    # With nothing seen striking it, the white's measured pace says nothing of what did (the
    # white's track was elsewhere: on the cue, lost in its own blur).
    cue = white_speed(an) if name != "white" and unseen is None else None
    if cue is not None and speed > CUE_SPEED_FACTOR * cue:
        return None  # faster than the stroke gave any ball: a hand or a cue the track rode
    horizon = 3.0 * cfg.dt
    # The fit since the last contact, then the last three samples alone: a ball that
    # glanced off a jaw just before it dropped is only on its final line in those.
    tail = an.fit(t_s[keep][-3:], p_s[keep][-3:]) if int(keep.sum()) >= 3 else None
    entry = None
    for m in (model, tail):
        if m is None or entry is not None:
            continue
        m_speed = float(np.hypot(*m.velocity(t_last)))
        entry = pocket_entry(m, t_last, t_last + horizon, cfg.table, m_speed * horizon + cfg.radius)
    reach = speed * horizon + cfg.radius
    # The path into a pocket is read from its last fit window of sightings: a player over the
    # approach while they were made (not only after them) makes them the player's: a hand or
    # a sleeve the track rode, or a ball's image under an arm's shade. Such a track leaves
    # the approach when the player does, and the pocket is in plain view after it.
    k_path = int(np.searchsorted(sf.times, t_s[keep][-w:][0])) if int(keep.sum()) else k_last + 1
    if entry is not None and approach_hidden(an, entry.pocket, k_path, entry.t):
        return None  # into a pocket a player covered: an arm's track, or a ball behind it
    if entry is None and for_good:
        entry = blind_entry(an, [mm for mm in (model, tail) if mm is not None], t_last, k_path)
    if entry is None and for_good:
        entry = jaw_entry(an, model, t_last, k_path)
    if entry is None and for_good and off_at_end and not name.startswith("red"):
        entry = lost_entry(an, b, [mm for mm in (model, tail) if mm is not None], t_last, k_path)
    if entry is not None:
        return Pot(t=max(entry.t, brk), ball=name, pocket=entry.pocket)
    if off_at_end:
        p = model.at(t_last)
        cushion, gap = nearest_cushion(p, cfg.table)
        outward = float(model.velocity(t_last) @ np.asarray(cushion.normal)) < -cfg.impulse_mm_s
        if outward and gap < reach:
            return OffTable(t=t_last + 0.5 * cfg.dt, ball=name)
    return None
