"""Step 1 of a stroke's analysis: the frames where a contact may lie.

Every pair of balls whose sampled gap has a local minimum within the two balls' own travel
between samples (plus noise) of touching, every frame either ball went unmeasured that
may hide one, and every ball whose gap to a cushion nose does the same: a contact may lie
between the neighbouring measured frames, so the bracket goes with the candidate.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from vision.events.analysis import Candidate, StrokeFrames
from vision.events.config import EventConfig
from vision.events.geometry import cushion_gap

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def _local_minima(values: FloatArray) -> list[int]:
    n = len(values)
    out = []
    for i in range(n):
        left = values[i - 1] if i > 0 else math.inf
        right = values[i + 1] if i + 1 < n else math.inf
        if values[i] <= left and values[i] <= right:
            out.append(i)
    return out


def _active(sf: StrokeFrames, cfg: EventConfig) -> BoolArray:
    """Per frame and ball: seen, and moved by more than noise from a neighbouring seen frame
    or from its start position."""
    f, b = sf.seen.shape
    act = np.zeros((f, b), dtype=bool)
    for j in range(b):
        idx = np.flatnonzero(sf.seen[:, j])
        if len(idx) == 0:
            continue
        p = sf.position[idx, j]
        moving = _travel(p) > cfg.move_mm
        if not np.isnan(sf.start[j, 0]):
            moving |= np.hypot(*(p - sf.start[j]).T) > cfg.move_mm
        act[idx, j] = moving
    return act


def _travel(points: FloatArray) -> FloatArray:
    """Per sample, the larger of a ball's displacements to its neighbouring samples: how far
    it may have been from where it was sampled at any moment in between."""
    n = len(points)
    out = np.zeros(n)
    if n > 1:
        step = np.hypot(*np.diff(points, axis=0).T)
        out[1:] = step
        out[:-1] = np.maximum(out[:-1], step)
    return out


def _neighbours(idx: npt.NDArray[np.intp], m: int) -> tuple[int, int]:
    """Frame indices of the samples before and after sample ``m`` (-1 where none)."""
    return (int(idx[m - 1]) if m > 0 else -1, int(idx[m + 1]) if m + 1 < len(idx) else -1)


def find_candidates(sf: StrokeFrames, cfg: EventConfig) -> list[Candidate]:
    r = cfg.radius
    margin = 4.0 * math.sqrt(2.0) * cfg.noise_mm + 1.0
    act = _active(sf, cfg)
    b = len(sf.ball_names)
    moved: BoolArray = np.asarray(act.any(axis=0))
    out: list[Candidate] = []
    for i in range(b):
        for j in range(i + 1, b):
            if not (moved[i] or moved[j]):
                continue
            idx = np.flatnonzero(sf.seen[:, i] & sf.seen[:, j])
            if len(idx) == 0:
                continue
            rel = sf.position[idx, i] - sf.position[idx, j]
            gap = np.hypot(*rel.T) - 2.0 * r
            # Each ball's own travel between samples bounds how far the gap can close there:
            # the relative displacement does not (a contact between two samples turns both
            # paths, so the balls may end as far apart as they started after touching).
            travel = _travel(sf.position[idx, i]) + _travel(sf.position[idx, j])
            last: tuple[int, float, int] | None = None  # (index in out, gap, m) of the pair's last
            for m in _local_minima(gap):
                reach = float(travel[m]) + margin
                k = int(idx[m])
                lo, hi = max(k - 1, 0), min(k + 2, len(sf.times))
                if gap[m] < reach and (act[lo:hi, i].any() or act[lo:hi, j].any()):
                    # Balls creeping within noise of each other make a minimum every few
                    # frames: one contact at most, tested once, at the closest of them. (Not
                    # when the gap opened wider than noise between them: a double kiss.)
                    if (
                        last is not None
                        and k - out[last[0]].k <= cfg.fit_frames
                        and float(np.max(gap[last[2] : m + 1])) - max(last[1], float(gap[m])) < margin
                    ):
                        if gap[m] < last[1]:
                            out[last[0]] = Candidate(k, (i, j), None, *_neighbours(idx, m))
                            last = (last[0], float(gap[m]), m)
                        continue
                    out.append(Candidate(k, (i, j), None, *_neighbours(idx, m)))
                    last = (len(out) - 1, float(gap[m]), m)
            # A frame in which either ball went unmeasured may hide a contact that no sampled
            # minimum shows (the struck ball gone far, or back off a cushion, by the next
            # sample): both samples around it within the balls' travel across it of touching.
            taken = {c.k for c in out if c.balls == (i, j)}
            for m in np.flatnonzero(np.diff(idx) > 1):
                k_lo, k_hi = int(idx[m]), int(idx[m + 1])
                moving = bool(act[[k_lo, k_hi]][:, [i, j]].any())
                if not moving or any(k_lo <= k <= k_hi for k in taken):
                    continue
                across = float(
                    np.hypot(*(sf.position[k_hi, i] - sf.position[k_lo, i]))
                    + np.hypot(*(sf.position[k_hi, j] - sf.position[k_lo, j]))
                )
                if max(gap[m], gap[m + 1]) < across + margin:
                    out.append(Candidate(k_lo + 1, (i, j), None, k_lo, k_hi))
    for j in range(b):
        if not moved[j]:
            continue
        idx = np.flatnonzero(sf.seen[:, j])
        p = sf.position[idx, j]
        travel = _travel(p)
        for cushion in cfg.table.cushions:
            gap, alongside = cushion_gap(p, cushion, r)
            for m in _local_minima(gap):
                reach = float(travel[m]) + margin
                k = int(idx[m])
                lo, hi = max(k - 1, 0), min(k + 2, len(sf.times))
                if alongside[m] and gap[m] < reach and act[lo:hi, j].any():
                    out.append(Candidate(k, (j,), cushion, *_neighbours(idx, m)))
    out.sort(key=lambda c: (c.k, c.cushion is not None))
    return out
