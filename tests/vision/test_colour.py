"""Colour naming under the ball-set prior: relative pink, forced strays, the white kept."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detection.colour import PROTOTYPES, ColourClassifier
from vision.detection.detections import COLOURS


def _feats(rows: list[tuple[float, float, float]]) -> np.ndarray:
    """Feature rows from (lightness, chroma, hue): a, b follow from chroma and hue."""
    out = np.zeros((len(rows), 5))
    for i, (light, chroma, hue) in enumerate(rows):
        a, b = chroma * np.cos(np.radians(hue)), chroma * np.sin(np.radians(hue))
        out[i] = (light, a, b, chroma, hue)
    return out


def _proto(name: str, light: float | None = None) -> tuple[float, float, float]:
    p = PROTOTYPES[name]
    return (p.lightness if light is None else light, p.chroma, p.hue)


@pytest.mark.parametrize("scale", [0.5, 0.7, 1.0])
def test_pink_found_by_lightness_relative_to_the_reds(scale: float) -> None:
    # An under-exposed frame: every ball darker by `scale`, the pink still clearly the lightest.
    reds = [_proto("red", 0.55 * scale * k) for k in (0.9, 1.0, 1.1)]
    pink = (1.05 * scale, 40.0, 33.0)  # hue and chroma between the pink's and the red's
    colour, _ = ColourClassifier().assign(_feats([*reds, pink, _proto("white")]))
    names = [COLOURS[c].value if c >= 0 else "none" for c in colour]
    assert names == ["red", "red", "red", "pink", "white"]


@pytest.mark.parametrize("colour", ["green", "blue", "yellow"])
def test_a_second_candidate_for_a_colour_is_not_forced_onto_a_free_one(colour: str) -> None:
    rows = [_proto("white"), _proto(colour), _proto(colour)]
    assigned, _ = ColourClassifier().assign(_feats(rows))
    names = [COLOURS[c].value if c >= 0 else "none" for c in assigned]
    assert names.count(colour) == 1
    assert names.count("none") == 1


def test_the_white_is_kept_even_when_it_looks_unlike_a_white() -> None:
    odd_white = (1.2, 70.0, 100.0)  # yellowish under a warm lamp; the yellow is also present
    assigned, _ = ColourClassifier().assign(_feats([odd_white, _proto("yellow"), _proto("red")]))
    assert sorted(COLOURS[c].value for c in assigned if c >= 0) == ["red", "white", "yellow"]


@pytest.mark.parametrize(
    ("yellow", "brown"),
    [
        ((0.8, 45.0, 96.0), (0.29, 24.0, 57.0)),  # the synthetic camera's: a dull yellow, a dark brown
        ((1.45, 77.0, 94.0), (0.65, 37.0, 76.0)),  # the broadcast's
    ],
)
def test_yellow_read_against_the_frames_reds(
    yellow: tuple[float, float, float], brown: tuple[float, float, float]
) -> None:
    reds = [(0.5 * k, 55.0, 37.0) for k in (0.9, 1.0, 1.1)]
    black = (0.04, 0.0, 0.0)
    assigned, _ = ColourClassifier().assign(_feats([*reds, yellow, brown, black]))
    assert [COLOURS[c].value for c in assigned] == ["red", "red", "red", "yellow", "brown", "black"]
