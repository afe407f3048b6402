"""Step 4 of a stroke's analysis: balls that left the cloth, into a pocket or over a cushion."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from adjudicator.eventlog import InputEvent, OffTable, Pot
from vision.events.analysis import Analysis
from vision.events.config import EventConfig
from vision.events.geometry import nearest_cushion, pocket_entry

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
        if np.isnan(sf.start[b, 0]):
            continue
        idx = np.flatnonzero(sf.seen[:, b])
        if len(idx) == 0:
            continue
        if idx[-1] < f - final_window:
            ev = exit_after(an, b, int(idx[-1]), off_at_end=bool(sf.absent[-1, b]))
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


def speeds_up(t: FloatArray, p: FloatArray, cfg: EventConfig) -> bool:
    """Whether a track gains speed between contacts beyond its noise (4 sigmas of the
    difference of two frame-to-frame speeds) twice: a ball on cloth only slows down, so such
    a track into a pocket follows a hand or a cue, not a ball being potted. Once is allowed:
    the last sight of a ball dropping into the hole is often off by a part of its width."""
    if len(t) < 4:
        return False
    dt = np.diff(t)
    speed = np.hypot(*np.diff(p, axis=0).T) / dt
    tol = 4.0 * math.sqrt(6.0) * cfg.noise_mm / dt[1:]
    return int(np.sum(np.diff(speed) > tol)) >= 2


def exit_after(an: Analysis, b: int, k_last: int, off_at_end: bool) -> Pot | OffTable | None:
    """The pot (or off-table) of ball ``b`` last seen at frame ``k_last``, if its path went there."""
    sf, cfg = an.sf, an.cfg
    name = sf.ball_names[b]
    if an.was_still(b, k_last):
        return None
    t_last = float(sf.times[k_last])
    # Contacts after the last sight belong to whatever was tracked under this name later.
    breaks = [t for t in an.breaks[b] if t <= t_last]
    brk = breaks[-1] if breaks else -math.inf
    t_s, p_s = an.samples(b, 0, k_last)
    keep = t_s > brk
    w = cfg.fit_frames
    if int(keep.sum()) >= 2:
        model = an.fit(t_s[keep][-w:], p_s[keep][-w:])
    else:
        model = an.pre_model(b, k_last) if breaks == an.breaks[b] else None
    # Speed gained anywhere since the ball was last struck by a ball (a cushion only takes
    # speed away), not only since its last contact: a track riding an arm may have been
    # given a cushion contact on the way.
    cushions = {c.t for c in an.cushion_events if c.ball == name}
    struck = [t for t in breaks if t not in cushions]
    since = t_s >= (struck[-1] if struck else -math.inf)
    if model is None or model.is_still or speeds_up(t_s[since][-2 * w :], p_s[since][-2 * w :], cfg):
        return None
    horizon = 3.0 * cfg.dt
    # The fit since the last contact, then the last three samples alone: a ball that
    # glanced off a jaw just before it dropped is only on its final line in those.
    tail = an.fit(t_s[keep][-3:], p_s[keep][-3:]) if int(keep.sum()) >= 3 else None
    entry = None
    for m in (model, tail):
        if m is None or entry is not None:
            continue
        speed = float(np.hypot(*m.velocity(t_last)))
        entry = pocket_entry(m, t_last, t_last + horizon, cfg.table, speed * horizon + cfg.radius)
    speed = float(np.hypot(*model.velocity(t_last)))
    reach = speed * horizon + cfg.radius
    if entry is not None:
        return Pot(t=max(entry.t, brk), ball=name, pocket=entry.pocket)
    if off_at_end:
        p = model.at(t_last)
        cushion, gap = nearest_cushion(p, cfg.table)
        outward = float(model.velocity(t_last) @ np.asarray(cushion.normal)) < -cfg.impulse_mm_s
        if outward and gap < reach:
            return OffTable(t=t_last + 0.5 * cfg.dt, ball=name)
    return None
