"""Keeping a calibration right through a video: calibrate once, re-check every frame cheaply.

The re-check reads a few hundred pixels just inside and just outside the fitted cushion noses:
while the camera holds still the brightness step across each nose stays; when it is bumped the
step collapses on the sampled points. A bump seen on ``confirm_frames`` consecutive frames (a
third of a second by default, so a player leaning over one cushion does not trigger it) starts a
re-calibration; each change is logged.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import numpy as np

from calibration.calibrate import Calibration, calibrate_image
from calibration.errors import BaulklineError
from calibration.fit import NOSE_HEIGHT
from calibration.markings import UInt8Array, _along, _grid

LOG = logging.getLogger("baulkline.calibration")

#: Pixels either side of a nose that are compared.
PROBE_PX = 5.0


def _probes(cal: Calibration) -> tuple[np.ndarray, np.ndarray]:
    """Integer pixel indices just inside and just outside every cushion nose."""
    inner, outer = [], []
    for side in ("baulk", "top", "left", "right"):
        pts = _grid(side, _along(side, 60.0), np.array([0.0, 30.0]))
        px = cal.table_to_pixels(pts.reshape(-1, 2), NOSE_HEIGHT).reshape(pts.shape)
        d = px[:, 1] - px[:, 0]
        d /= np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-9)
        inner.append(px[:, 0] + PROBE_PX * d)
        outer.append(px[:, 0] - PROBE_PX * d)
    w, h = cal.image_size
    a, b = np.vstack(inner), np.vstack(outer)
    ok = (
        (a[:, 0] >= 0)
        & (a[:, 0] < w)
        & (a[:, 1] >= 0)
        & (a[:, 1] < h)
        & (b[:, 0] >= 0)
        & (b[:, 0] < w)
        & (b[:, 1] >= 0)
        & (b[:, 1] < h)
    )
    return np.round(a[ok]).astype(np.intp), np.round(b[ok]).astype(np.intp)


def edge_strength(image: UInt8Array, inner: np.ndarray, outer: np.ndarray) -> float:
    """Median absolute brightness step across the noses at the probe points."""
    if len(inner) == 0:
        return 0.0
    a = image[inner[:, 1], inner[:, 0]].astype(np.int16).sum(axis=1)
    b = image[outer[:, 1], outer[:, 0]].astype(np.int16).sum(axis=1)
    return float(np.median(np.abs(a - b)))


@dataclass
class VideoCalibrator:
    """Calibration state through a video (mutable on purpose: it is a per-stream tracker).

    Attributes:
        fps: frame rate, to turn "within a second" into frames.
        drop: a frame is suspicious when its edge strength falls below ``drop`` x the baseline.
    """

    fps: float = 30.0
    drop: float = 0.5
    calibration: Calibration | None = None
    changes: list[tuple[int, str]] = field(default_factory=list)
    _baseline: float = 0.0
    _probes: tuple[np.ndarray, np.ndarray] | None = None
    _suspicious: int = 0

    @property
    def confirm_frames(self) -> int:
        """Consecutive suspicious frames that make a bump (a third of a second)."""
        return max(2, round(self.fps / 3))

    def _adopt(self, index: int, image: UInt8Array, cal: Calibration, why: str) -> None:
        self.calibration = cal
        self._probes = _probes(cal)
        self._baseline = edge_strength(image, *self._probes)
        self._suspicious = 0
        msg = f"frame {index}: {why} (residual {cal.residual_mm:.1f} mm, confidence {cal.confidence:.2f})"
        self.changes.append((index, msg))
        LOG.info(msg)

    def update(self, index: int, image: UInt8Array) -> Calibration | None:
        """Feed one frame; returns the calibration in force (None until one succeeds)."""
        if self.calibration is None or self._probes is None:
            try:
                self._adopt(index, image, calibrate_image(image, f"frame {index}"), "calibrated")
            except BaulklineError as exc:
                LOG.debug("frame %d: not calibrated yet: %s", index, exc)
            return self.calibration
        if edge_strength(image, *self._probes) >= self.drop * self._baseline:
            self._suspicious = 0
            return self.calibration
        self._suspicious += 1
        if self._suspicious >= self.confirm_frames:
            try:
                self._adopt(
                    index, image, calibrate_image(image, f"frame {index}"), "camera moved; re-calibrated"
                )
            except BaulklineError as exc:
                LOG.warning("frame %d: camera moved and re-calibration failed: %s", index, exc)
                self.calibration, self._probes = None, None
        return self.calibration
