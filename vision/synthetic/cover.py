"""How much of each ball the people hide in the image: the synthetic truth's ``NAME.cover.csv``.

``NAME.tracks.csv`` marks every ball on the cloth ``seen``, also under a player's body: it
says where a ball is, not whether a detector could see it. A detection recall counted over it
counts balls no detector could find (issue 5 asks for recall on *visible* balls). This module
gives the truth the missing measure: per frame and ball, the share of the ball's image that
the people (the capsules of :mod:`vision.synthetic.occluders`) cover.

Why it is computed this way: from the very pixels the renderer draws, so it cannot drift from
the video. The people are drawn by :func:`vision.synthetic.occluders.draw_capsules` (the
renderer's own drawing, through the true camera) into a blank frame; the ball's silhouette is
the renderer's ray-cast coverage (:meth:`vision.synthetic.render.BallPainter.ball_layer`) at
the frame instant's true position (the centre of the motion blur). The covered share is the
silhouette's coverage-weighted share under the people, 0 (all visible) to 1 (all hidden).
Only the people count: balls do not hide one another on the overhead views, and a ball wholly
outside the image (none in the bundled clips) counts as covered (1).

CSV columns: ``frame,ball,covered``; one row per ball on the cloth whose covered share is at
least 0.0005 (written to three decimals); a ball on the cloth without a row is not covered.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from calibration.camera import Camera
from calibration.errors import BaulklineError
from vision.synthetic.occluders import Capsule, draw_capsules
from vision.synthetic.render import BallPainter
from vision.tracks import csv_rows

FloatArray = npt.NDArray[np.float64]
F32 = npt.NDArray[np.float32]

COLUMNS = ("frame", "ball", "covered")

#: A colour so bright that draw_capsules' darker outline and lit core both saturate at 255:
#: every pixel the people paint reads 255, their anti-aliased edges in proportion.
_FULL = (1.0e4, 1.0e4, 1.0e4)


def people_mask(camera: Camera, size: tuple[int, int], capsules: Sequence[Capsule]) -> F32:
    """``(H, W)`` share of each pixel the people cover (0-1), drawn as the renderer draws them.

    Args:
        camera: the true camera of the clip.
        size: image ``(width, height)``.
        capsules: the people at the frame's instant (:func:`occluders.capsules_at`).
    """
    w, h = size
    frame = np.zeros((h, w, 3), np.uint8)
    # The shadow draw_capsules casts first darkens a black frame to black: only the people show.
    draw_capsules(frame, camera, [replace(c, colour=_FULL) for c in capsules], 1.0)
    out: F32 = frame[..., 0].astype(np.float32) / 255.0
    return out


def covered_shares(
    painter: BallPainter, ball_names: Sequence[str], positions: FloatArray, mask: F32 | None
) -> FloatArray:
    """``(B,)`` share of each ball's silhouette under ``mask``; NaN for a ball off the cloth.

    Args:
        painter: the clip's ball painter (its rays give the exact silhouette).
        ball_names: one per row of ``positions``.
        positions: ``(B, 2)`` true positions at the frame instant (mm), NaN off the cloth.
        mask: :func:`people_mask` of the frame, or ``None`` when no one is at the table.
    """
    out = np.where(np.isnan(positions[:, 0]), np.nan, 0.0)
    if mask is None or not mask.any():
        return out
    for j, name in enumerate(ball_names):
        if np.isnan(positions[j, 0]):
            continue
        layer = painter.ball_layer(name, positions[j][None])
        if layer is None:  # wholly outside the image
            out[j] = 1.0
            continue
        (x0, y0, x1, y1), alpha, _ = layer
        a = alpha[..., 0]
        total = float(a.sum())
        out[j] = float((a * mask[y0:y1, x0:x1]).sum()) / total if total > 0 else 1.0
    return out


def write_cover_csv(path: Path, ball_names: Sequence[str], cover: FloatArray) -> None:
    """Write ``cover`` ``(F, B)`` (NaN off the cloth) in the CSV format of this module."""
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(COLUMNS)
        for i, row in enumerate(cover):
            for j, share in enumerate(row):
                if np.isfinite(share) and share >= 0.0005:
                    w.writerow([i, ball_names[j], f"{min(float(share), 1.0):.3f}"])


def read_cover_csv(path: Path, ball_names: Sequence[str], frames: int) -> FloatArray:
    """``(frames, B)`` covered shares from ``path``; 0 where no row says otherwise.

    Raises:
        BaulklineError: bad header, row, ball name or frame (the message names file and line).
    """
    col = {b: j for j, b in enumerate(ball_names)}
    out = np.zeros((frames, len(ball_names)))
    for lineno, row in csv_rows(path, COLUMNS):
        try:
            frame, ball, share = row
            i, j, v = int(frame), col[ball], float(share)
            if not (0 <= i < frames and 0.0 <= v <= 1.0):
                raise ValueError(f"frame {i} or share {v} out of range")
        except (ValueError, KeyError) as exc:
            raise BaulklineError(f"{path}:{lineno}: bad cover row ({exc})") from None
        out[i, j] = v
    return out
