"""Colour naming under the ball-set prior: relative pink, forced strays, the white kept."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detection.colour import PROTOTYPES, ColourClassifier, colour_features
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


@pytest.mark.parametrize("scale", [0.7, 1.0])
def test_yellow_read_against_the_white_without_reds(scale: float) -> None:
    # A dim broadcast (still 12): the yellow no lighter than the cloth, a brown's lightness by
    # the absolute prototypes, but nearly as light as the white; one red only.
    white = (1.39 * scale, 38.0, 120.0)
    yellow = (1.0 * scale, 48.0, 90.0)
    rows = [white, yellow, _proto("red"), _proto("pink"), _proto("black")]
    assigned, _ = ColourClassifier().assign(_feats(rows))
    assert [COLOURS[c].value for c in assigned] == ["white", "yellow", "red", "pink", "black"]


def test_a_stray_taking_a_free_colour_does_not_cost_a_ball_its_own() -> None:
    # Still 38: a hand's knuckle (pale, poorly like anything) next to a clear pink, no reds.
    stray = (1.46, 23.8, 67.75)
    rows = [(1.88, 33.1, 118.9), (1.1, 46.1, 27.1), (0.6, 36.7, 79.0), stray]  # still 38's white, pink, brown
    assigned, _ = ColourClassifier().assign(_feats(rows))
    assert [COLOURS[c].value if c >= 0 else "none" for c in assigned] == ["white", "pink", "brown", "none"]


def test_a_dark_red_in_a_shadow_is_no_black() -> None:
    # The black's faint hue is the cloth's reflection (green); a dark red's is red.
    # Still 32: the reds of the bottom of the table all dark, one more in a cluster's shadow.
    dark_red = (0.27, 27.5, 33.0)
    rows = [_proto("white"), (0.3, 33.8, 34.0), (0.31, 35.8, 36.0), (0.27, 32.2, 36.0), dark_red]
    assigned, _ = ColourClassifier().assign(_feats(rows))
    assert COLOURS[assigned[-1]].value == "red"


@pytest.mark.parametrize("gap", [0.8, 1.0, 1.2])
def test_a_ball_half_hidden_behind_another_keeps_its_own_colour(gap: float) -> None:
    """A white seen behind a brown (the brown lower on screen, drawn over it) is sampled on its
    own visible part, not on the brown that covers the lower half of its disc."""
    radius = 10.0  # drawn; detected radii are larger (blur), as below
    image = np.full((80, 120, 3), (30, 140, 25), np.uint8)
    white, brown = (40.0, 30.0), (40.0, 30.0 + gap * radius)
    cv2.circle(image, (40, 30), 10, (235, 235, 235), -1, cv2.LINE_AA)
    cv2.circle(image, (40, round(30 + gap * radius)), 10, (20, 50, 110), -1, cv2.LINE_AA)
    cv2.circle(image, (95, 30), 10, (235, 235, 235), -1, cv2.LINE_AA)  # the same white alone
    cloth = np.array([140.0, 90.0, 160.0])
    pixel = np.array([white, brown, (95.0, 30.0)])
    feats = colour_features(image, pixel, np.full(3, 1.2 * radius), cloth)
    assert feats[0, 0] == pytest.approx(feats[2, 0], rel=0.1)
    assert feats[1, 0] < 0.7 * feats[0, 0]


def test_a_green_as_chromatic_as_the_cloth_round_it_is_no_white() -> None:
    """A 1280x720 render's break-off, the white in hand: the green on its spot, lit brighter
    than the cloth, fits the white's prototype better than the green's; the cloth round it
    says it is no white (a white is less chromatic than the cloth it reflects)."""
    green = (1.35, 54.2, 150.1)
    rows = [green, _proto("yellow"), _proto("red")]
    cloth = np.array([[142.0, 52.0, 1.01], [np.nan] * 3, [np.nan] * 3])
    named = ColourClassifier().assign(_feats(rows), cloth)[0]
    assert [COLOURS[c].value if c >= 0 else "none" for c in named] == ["green", "yellow", "red"]
    assert COLOURS[ColourClassifier().assign(_feats(rows))[0][0]].value == "white"


def test_with_the_white_in_hand_the_pink_keeps_its_own_colour() -> None:
    """The same break-off's pack: the pink at its apex (lit, its chroma low) and a red lit by its
    cap cheaper as the pink than as a red; the one-of-each rule gave the pink the free white."""
    reds = [(1.1, 76.4, 37.0), (1.2, 75.3, 37.2), (1.1, 77.0, 37.6), (1.2, 81.5, 33.5)]
    pink = (1.9, 35.8, 24.8)
    rows = [*reds, pink]
    in_hand = ColourClassifier().assign(_feats(rows), white_in_hand=True)[0]
    assert [COLOURS[c].value if c >= 0 else "none" for c in in_hand] == ["red"] * 4 + ["pink"]
    kept = ColourClassifier().assign(_feats(rows))[0]
    assert COLOURS[kept[-1]].value == "white"


@pytest.mark.parametrize(
    ("reds", "white_in_hand", "expected"),
    [
        (3, True, "yellow"),  # reds remain: every colour is on the table, the white in hand
        (3, False, "white"),  # the white on the table: the ball likeliest white is the white
        (0, True, "white"),  # a colours clearance, the yellow potted for good
    ],
)
def test_a_pale_yellow_and_the_white_in_hand(reds: int, white_in_hand: bool, expected: str) -> None:
    """A break-off's first frame under a warm light: the yellow on its spot reads 1.6 times
    likelier white than yellow (a rendered 1080p60 break-off). With reds on the table the
    colours are all there (re-spotted after each pot), so the yellow keeps its name and the
    white's stays free for the white put down; it was named the white, the yellow had no ball
    and the white, once placed, no name."""
    yellow, white = _proto("yellow"), _proto("white")
    pale = tuple(0.4 * y + 0.6 * w for y, w in zip(yellow, white, strict=True))
    others = [_proto(c) for c in ("green", "brown", "blue", "pink", "black")]
    rows = [*([_proto("red")] * reds), pale, *others]
    named = ColourClassifier().assign(_feats(rows), white_in_hand=white_in_hand)[0]
    assert COLOURS[named[reds]].value == expected


@pytest.mark.parametrize("reds", [0, 1, 3])
def test_the_white_on_the_table_keeps_its_name_with_the_white_possibly_in_hand(reds: int) -> None:
    others = [_proto(c) for c in ("yellow", "green", "brown", "blue", "pink", "black")]
    rows = [*([_proto("red")] * reds), _proto("white"), *others]
    for in_hand in (False, True):
        named = ColourClassifier().assign(_feats(rows), white_in_hand=in_hand)[0]
        assert [COLOURS[c].value for c in named] == ["red"] * reds + [
            "white",
            *("yellow", "green", "brown", "blue", "pink", "black"),
        ]
