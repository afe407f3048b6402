"""Per-frame ball tracks: the hand-over from tracking to event inference.

One container for a whole clip (row-aligned numpy arrays, validated on construction) and one
CSV format shared by the tracker's output (``baulkline track --tracks``) and the synthetic
camera's ground truth (``NAME.tracks.csv``), so the event detector can be run on either and
the two can be compared row by row.

CSV columns: ``frame,t,ball,x_mm,y_mm,u_px,v_px,state``; one row per ball per frame;
``state`` is ``seen`` (measured in this frame), ``predicted`` (not measured: behind a player,
blurred, merged; the tracker's estimate), or ``absent`` (not on the cloth; positions empty).
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path

import numpy as np
import numpy.typing as npt

from calibration.errors import BaulklineError

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int8]


class TrackState(IntEnum):
    """Whether a ball was measured in a frame."""

    ABSENT = 0
    SEEN = 1
    PREDICTED = 2


_STATE_NAMES = {s: s.name.lower() for s in TrackState}
_STATE_BY_NAME = {v: k for k, v in _STATE_NAMES.items()}
COLUMNS = ("frame", "t", "ball", "x_mm", "y_mm", "u_px", "v_px", "state")


@dataclass(frozen=True)
class Tracks:
    """Every ball's position in every frame of a clip.

    Attributes:
        ball_names: event-log names, one per column.
        times: ``(F,)`` frame times (s).
        position: ``(F, B, 2)`` table millimetres (ball centre on the cloth); NaN when absent.
        pixel: ``(F, B, 2)`` image pixels of the ball centre; NaN when absent.
        state: ``(F, B)`` :class:`TrackState` values.
    """

    ball_names: tuple[str, ...]
    times: FloatArray
    position: FloatArray
    pixel: FloatArray
    state: IntArray

    def __post_init__(self) -> None:
        f, b = len(self.times), len(self.ball_names)
        for name, arr, shape in (
            ("times", self.times, (f,)),
            ("position", self.position, (f, b, 2)),
            ("pixel", self.pixel, (f, b, 2)),
            ("state", self.state, (f, b)),
        ):
            if np.shape(arr) != shape:
                raise ValueError(f"{name} must have shape {shape}, got {np.shape(arr)}")

    @property
    def fps(self) -> float:
        """Frame rate estimated from the frame times."""
        if len(self.times) < 2:
            return math.nan
        return float(1.0 / np.median(np.diff(self.times)))

    def to_csv(self, path: Path) -> None:
        """Write the CSV format of this module."""
        with path.open("w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(COLUMNS)
            for i, t in enumerate(self.times):
                for j, ball in enumerate(self.ball_names):
                    st = TrackState(int(self.state[i, j]))
                    if st is TrackState.ABSENT:
                        w.writerow([i, f"{t:.6f}", ball, "", "", "", "", _STATE_NAMES[st]])
                        continue
                    x, y = self.position[i, j]
                    u, v = self.pixel[i, j]
                    w.writerow(
                        [
                            i,
                            f"{t:.6f}",
                            ball,
                            f"{x:.2f}",
                            f"{y:.2f}",
                            f"{u:.2f}",
                            f"{v:.2f}",
                            _STATE_NAMES[st],
                        ]
                    )

    @classmethod
    def from_csv(cls, path: Path) -> Tracks:
        """Read the CSV format; errors name the file and line."""
        rows: list[tuple[int, float, str, float, float, float, float, TrackState]] = []
        for lineno, row in csv_rows(path, COLUMNS):
            try:
                frame, t, ball, x, y, u, v, state = row
                rows.append(
                    (int(frame), float(t), ball, _num(x), _num(y), _num(u), _num(v), _STATE_BY_NAME[state])
                )
            except (ValueError, KeyError) as exc:
                raise BaulklineError(f"{path}:{lineno}: bad tracks row ({exc})") from None
        names: list[str] = []
        for r in rows:
            if r[2] not in names:
                names.append(r[2])
        nframes = max((r[0] for r in rows), default=-1) + 1
        return _assemble(names, nframes, rows)


def csv_rows(path: Path, columns: Sequence[str]) -> Iterator[tuple[int, list[str]]]:
    """The rows of a CSV file whose header must be ``columns``, with their line numbers (for
    the caller's one-line errors).

    Raises:
        BaulklineError: the header is missing or another (naming the file and line 1).
    """
    with path.open(newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if header is None or tuple(header) != tuple(columns):
            raise BaulklineError(f"{path}:1: expected header {','.join(columns)}")
        yield from enumerate(reader, start=2)


def _num(text: str) -> float:
    return float(text) if text else math.nan


def _assemble(
    names: Sequence[str],
    nframes: int,
    rows: Sequence[tuple[int, float, str, float, float, float, float, TrackState]],
) -> Tracks:
    col = {n: j for j, n in enumerate(names)}
    times = np.full(nframes, np.nan)
    position = np.full((nframes, len(names), 2), np.nan)
    pixel = np.full((nframes, len(names), 2), np.nan)
    state = np.zeros((nframes, len(names)), dtype=np.int8)
    for frame, t, ball, x, y, u, v, st in rows:
        j = col[ball]
        times[frame] = t
        position[frame, j] = (x, y)
        pixel[frame, j] = (u, v)
        state[frame, j] = int(st)
    return Tracks(tuple(names), times, position, pixel, state)
