"""Per-frame ball detections: one container every detector returns and every consumer reads.

A supervision-style container of row-aligned numpy arrays, validated on construction, so the
classical detector of this package and a learned (YOLO) detector are interchangeable behind
the :class:`BallDetector` protocol: the tracker, the ``detect`` command and the benchmarks
never know which one produced the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from calibration.table import COLOURS_ASCENDING, Colour

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Image = npt.NDArray[np.uint8]

#: Colour index order of :attr:`BallDetections.colour`; ``-1`` means not yet identified.
COLOURS: tuple[Colour, ...] = (Colour.WHITE, Colour.RED, *COLOURS_ASCENDING)
UNKNOWN = -1


def colour_index(colour: Colour | str) -> int:
    """Index of a colour in :data:`COLOURS`."""
    return COLOURS.index(Colour(colour))


@dataclass(frozen=True)
class BallDetections:
    """The balls found in one frame, one row per ball.

    Attributes:
        pixel: ``(N, 2)`` image pixel of the ball centre (u right, v down), full resolution.
        radius: ``(N,)`` apparent radius in pixels.
        colour: ``(N,)`` index into :data:`COLOURS` (``-1`` unknown).
        confidence: ``(N,)`` in ``[0, 1]``.
        position: ``(N, 2)`` table millimetres when a camera is known, else ``None``.
    """

    pixel: FloatArray
    radius: FloatArray
    colour: IntArray
    confidence: FloatArray
    position: FloatArray | None = None

    def __post_init__(self) -> None:
        n = len(self.radius)
        checks: list[tuple[str, npt.NDArray[np.generic], tuple[int, ...]]] = [
            ("pixel", self.pixel, (n, 2)),
            ("radius", self.radius, (n,)),
            ("colour", self.colour, (n,)),
            ("confidence", self.confidence, (n,)),
        ]
        if self.position is not None:
            checks.append(("position", self.position, (n, 2)))
        for name, arr, shape in checks:
            if np.shape(arr) != shape:
                raise ValueError(f"BallDetections.{name} must have shape {shape}, got {np.shape(arr)}")
        if n and (self.colour.min() < UNKNOWN or self.colour.max() >= len(COLOURS)):
            raise ValueError(f"BallDetections.colour must be in [-1, {len(COLOURS) - 1}]")

    def __len__(self) -> int:
        return len(self.radius)

    @classmethod
    def empty(cls) -> BallDetections:
        """No balls."""
        return cls(np.zeros((0, 2)), np.zeros(0), np.zeros(0, np.int64), np.zeros(0))

    @classmethod
    def build(
        cls,
        pixel: Sequence[Sequence[float]] | FloatArray,
        radius: Sequence[float] | FloatArray,
        colour: Sequence[int] | IntArray | None = None,
        confidence: Sequence[float] | FloatArray | None = None,
        position: Sequence[Sequence[float]] | FloatArray | None = None,
    ) -> BallDetections:
        """Coerce lists to arrays of the right dtypes (colour unknown, confidence 1 by default)."""
        r = np.asarray(radius, np.float64).reshape(-1)
        n = len(r)
        px = np.asarray(pixel, np.float64).reshape(n, 2) if n else np.zeros((0, 2))
        col = np.full(n, UNKNOWN, np.int64) if colour is None else np.asarray(colour, np.int64)
        conf = np.ones(n) if confidence is None else np.asarray(confidence, np.float64)
        pos = None if position is None else np.asarray(position, np.float64).reshape(-1, 2)
        return cls(px, r, col, conf, pos)

    def __getitem__(self, index: npt.NDArray[np.bool_] | IntArray | slice) -> BallDetections:
        """Rows selected by a mask, an index array or a slice."""
        pos = None if self.position is None else self.position[index]
        return BallDetections(
            self.pixel[index], self.radius[index], self.colour[index], self.confidence[index], pos
        )

    def with_position(self, position: FloatArray) -> BallDetections:
        """The same rows with table positions attached."""
        return BallDetections(self.pixel, self.radius, self.colour, self.confidence, position)

    def with_colour(self, colour: IntArray, confidence: FloatArray) -> BallDetections:
        """The same rows with colours (and their confidences) assigned."""
        return BallDetections(self.pixel, self.radius, colour, confidence, self.position)

    def colour_names(self) -> list[str]:
        """Colour name of each row (``"unknown"`` for ``-1``)."""
        return [COLOURS[c].value if c >= 0 else "unknown" for c in self.colour]

    def counts(self) -> dict[Colour, int]:
        """Number of balls of each colour (unknown rows are not counted)."""
        return {c: int(np.sum(self.colour == i)) for i, c in enumerate(COLOURS)}


class BallDetector(Protocol):
    """Anything that finds balls in a BGR image (the classical detector, a YOLO model)."""

    def detect(self, image: Image, roi: tuple[int, int, int, int] | None = None) -> BallDetections:
        """Balls in ``image`` (optionally only inside ``roi`` = ``(x0, y0, x1, y1)`` pixels)."""
        ...
