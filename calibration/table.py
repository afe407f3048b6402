"""The regulation snooker table as one frozen specification.

Every dimension of the playing surface lives here and nowhere else: the camera model, the
synthetic camera, calibration, tracking and the referee all derive their geometry from
:data:`TABLE`. The numbers come from the 2022 Rules of Snooker, Section 1 Rule 1 (the
table) and Rule 2 (the balls); pocket jaws and cushion widths, which the rules leave to the
WPBSA templates, are realistic values for a championship table and are marked as such.

The coordinate frame is the one of the event-log contract (``shared/spec/event-log.md``):
millimetres on the cloth, ``x`` along the table from the baulk cushion face (``x = 0``) to
the top cushion face (``x = 3569``), ``y`` across it from the green-spot side (``y = 0``) to
the yellow-spot side (``y = 1778``). ``z`` points up from the cloth.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


class Colour(StrEnum):
    """Ball colours; the string value is the event-log name of the single ball of that colour."""

    WHITE = "white"
    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BROWN = "brown"
    BLUE = "blue"
    PINK = "pink"
    BLACK = "black"


#: Value of each object-ball colour (Section 3 Rule 2). The white has no value.
BALL_VALUES: dict[Colour, int] = {
    Colour.RED: 1,
    Colour.YELLOW: 2,
    Colour.GREEN: 3,
    Colour.BROWN: 4,
    Colour.BLUE: 5,
    Colour.PINK: 6,
    Colour.BLACK: 7,
}

#: The six colours in ascending value, the order in which they are cleared (Rule 3(h)).
COLOURS_ASCENDING: tuple[Colour, ...] = (
    Colour.YELLOW,
    Colour.GREEN,
    Colour.BROWN,
    Colour.BLUE,
    Colour.PINK,
    Colour.BLACK,
)


def colour_of(ball: str) -> Colour:
    """The colour of an event-log ball name (``red7`` -> RED).

    Raises:
        ValueError: the name is not a ball of the event-log contract.
    """
    if ball.startswith("red") and ball[3:].isdigit() and int(ball[3:]) >= 1:
        return Colour.RED
    try:
        colour = Colour(ball)
    except ValueError:
        raise ValueError(f"unknown ball name {ball!r}") from None
    if colour is Colour.RED:
        raise ValueError("a red must be numbered: 'red1', 'red2', ...")
    return colour


def ball_names(reds: int = 15) -> tuple[str, ...]:
    """All ball names of a frame with ``reds`` reds, white first, then colours, then reds."""
    if reds < 0:
        raise ValueError(f"reds must be >= 0, got {reds}")
    return (
        Colour.WHITE.value,
        *(c.value for c in COLOURS_ASCENDING),
        *(f"red{i}" for i in range(1, reds + 1)),
    )


@dataclass(frozen=True)
class Pocket:
    """One pocket: its event-log name, its nominal point and its mouth.

    Attributes:
        name: event-log pocket name, e.g. ``"top_left"``.
        corner: the nominal point of the contract (where the cushion face lines meet, or the
            middle of the side cushion face line for a middle pocket).
        jaws: the two cushion-nose points where the opening begins, ``(2, 2)``.
        centre: the centre of the pocket's fall, behind the mouth; a ball whose centre crosses
            the mouth line heading here drops.
        radius: radius of the pocket's fall circle (mm).
    """

    name: str
    corner: tuple[float, float]
    jaws: tuple[tuple[float, float], tuple[float, float]]
    centre: tuple[float, float]
    radius: float

    @property
    def mouth_width(self) -> float:
        """Distance between the jaw points (mm)."""
        (ax, ay), (bx, by) = self.jaws
        return math.hypot(bx - ax, by - ay)

    @property
    def mouth_midpoint(self) -> tuple[float, float]:
        """Midpoint of the mouth line."""
        (ax, ay), (bx, by) = self.jaws
        return ((ax + bx) / 2.0, (ay + by) / 2.0)


@dataclass(frozen=True)
class CushionSegment:
    """A straight run of cushion nose between two pocket jaws.

    Attributes:
        name: e.g. ``"baulk"``, ``"left_baulk"`` (the green side between baulk and middle).
        start: one end on the cushion face line.
        end: the other end.
        normal: unit vector pointing into the playing area.
    """

    name: str
    start: tuple[float, float]
    end: tuple[float, float]
    normal: tuple[float, float]


@dataclass(frozen=True)
class TableSpec:
    """The regulation table. Derived quantities are properties so no number is written twice.

    Attributes:
        length: playing-area length between cushion faces, Section 1 Rule 1(a) (mm).
        width: playing-area width between cushion faces, Section 1 Rule 1(a) (mm).
        baulk_line: distance of the baulk-line from the baulk cushion face, Rule 1(d) (mm).
        d_radius: radius of the D, Rule 1(e) (mm).
        black_spot_from_top: black spot distance from the top cushion face, Rule 1(f)(iv).
        ball_diameter: Section 1 Rule 2 (mm).
        corner_mouth: corner-pocket opening between the cushion noses (WPBSA-template-like,
            not in the rules) (mm).
        middle_mouth: middle-pocket opening between the cushion noses (mm).
        cushion_width: rubber cushion width from face to rail, for drawing (mm).
        rail_width: wooden rail width beyond the cushion, for drawing (mm).
        marking_width: width of the chalk/painted lines of the baulk-line and D (mm).
        spot_radius: radius of a painted spot (mm).
    """

    length: float = 3569.0
    width: float = 1778.0
    baulk_line: float = 737.0
    d_radius: float = 292.0
    black_spot_from_top: float = 324.0
    ball_diameter: float = 52.5
    corner_mouth: float = 86.0
    middle_mouth: float = 105.0
    cushion_width: float = 50.0
    rail_width: float = 110.0
    marking_width: float = 3.0
    spot_radius: float = 6.0
    source: str = field(
        default="Rules of Snooker 2022, Section 1 Rules 1-2 (WPBSA); pocket jaws per template",
        compare=False,
    )

    # ---- balls -------------------------------------------------------------------------
    @property
    def ball_radius(self) -> float:
        """Ball radius (mm); also the height of a ball centre above the cloth."""
        return self.ball_diameter / 2.0

    # ---- markings ----------------------------------------------------------------------
    @property
    def centre_line_y(self) -> float:
        """``y`` of the centre longitudinal line."""
        return self.width / 2.0

    @property
    def d_centre(self) -> tuple[float, float]:
        """Centre of the D: the middle of the baulk-line (the brown spot)."""
        return (self.baulk_line, self.centre_line_y)

    @cached_property
    def spots(self) -> dict[Colour, tuple[float, float]]:
        """The six colour spots, Section 1 Rule 1(f)."""
        cy = self.centre_line_y
        blue_x = self.length / 2.0
        return {
            Colour.YELLOW: (self.baulk_line, cy + self.d_radius),
            Colour.GREEN: (self.baulk_line, cy - self.d_radius),
            Colour.BROWN: (self.baulk_line, cy),
            Colour.BLUE: (blue_x, cy),
            Colour.PINK: ((blue_x + self.length) / 2.0, cy),
            Colour.BLACK: (self.length - self.black_spot_from_top, cy),
        }

    def in_d(self, x: float, y: float, tol: float = 0.0) -> bool:
        """Whether a point is on or within the D (Section 2 Rule 9: in-hand placement)."""
        cx, cy = self.d_centre
        return x <= self.baulk_line + tol and math.hypot(x - cx, y - cy) <= self.d_radius + tol

    def d_arc(self, n: int = 64) -> FloatArray:
        """Points along the D's semicircle, from the green spot round to the yellow spot."""
        cx, cy = self.d_centre
        a = np.linspace(-math.pi / 2, math.pi / 2, n)
        return np.stack([cx - self.d_radius * np.cos(a), cy + self.d_radius * np.sin(a)], axis=1)

    # ---- pockets and cushions ------------------------------------------------------------
    @cached_property
    def pockets(self) -> dict[str, Pocket]:
        """The six pockets by event-log name."""
        length, width = self.length, self.width
        c = self.corner_mouth / math.sqrt(2.0)  # jaw distance from the corner along each face
        h = self.middle_mouth / 2.0
        # Fall centres sit behind the mouth so a ball has to cross the mouth to drop.
        cr = self.corner_mouth / 2.0 + 4.0
        co = cr / math.sqrt(2.0) - 6.0  # how far the corner fall centre lies outside the corner
        mr = self.middle_mouth / 2.0 + 4.0
        mo = mr - 18.0
        mid = length / 2.0

        def corner(name: str, px: float, py: float, sx: float, sy: float) -> Pocket:
            # sx, sy: +1/-1, direction from the corner into the table
            return Pocket(
                name=name,
                corner=(px, py),
                jaws=((px + sx * c, py), (px, py + sy * c)),
                centre=(px - sx * co, py - sy * co),
                radius=cr,
            )

        def middle(name: str, py: float, sy: float) -> Pocket:
            return Pocket(
                name=name,
                corner=(mid, py),
                jaws=((mid - h, py), (mid + h, py)),
                centre=(mid, py - sy * mo),
                radius=mr,
            )

        pockets = [
            corner("baulk_left", 0.0, 0.0, 1.0, 1.0),
            corner("baulk_right", 0.0, width, 1.0, -1.0),
            middle("middle_left", 0.0, 1.0),
            middle("middle_right", width, -1.0),
            corner("top_left", length, 0.0, -1.0, 1.0),
            corner("top_right", length, width, -1.0, -1.0),
        ]
        return {p.name: p for p in pockets}

    @cached_property
    def cushions(self) -> tuple[CushionSegment, ...]:
        """The six straight cushion noses between the pocket jaws."""
        p = self.pockets
        return (
            CushionSegment("baulk", p["baulk_left"].jaws[1], p["baulk_right"].jaws[1], (1.0, 0.0)),
            CushionSegment("top", p["top_left"].jaws[1], p["top_right"].jaws[1], (-1.0, 0.0)),
            CushionSegment("left_baulk", p["baulk_left"].jaws[0], p["middle_left"].jaws[0], (0.0, 1.0)),
            CushionSegment("left_top", p["middle_left"].jaws[1], p["top_left"].jaws[0], (0.0, 1.0)),
            CushionSegment("right_baulk", p["baulk_right"].jaws[0], p["middle_right"].jaws[0], (0.0, -1.0)),
            CushionSegment("right_top", p["middle_right"].jaws[1], p["top_right"].jaws[0], (0.0, -1.0)),
        )

    @property
    def corners(self) -> FloatArray:
        """The four corners of the playing area (cushion-face line intersections), ``(4, 2)``,
        in the order baulk_left, baulk_right, top_right, top_left."""
        return np.array([[0.0, 0.0], [0.0, self.width], [self.length, self.width], [self.length, 0.0]])

    def on_playing_area(self, x: float, y: float, margin: float = 0.0) -> bool:
        """Whether a ball centre at (x, y) lies on the bed (ball fully inside, less ``margin``)."""
        r = self.ball_radius - margin
        return r <= x <= self.length - r and r <= y <= self.width - r

    # ---- keypoints for calibration -------------------------------------------------------
    @cached_property
    def keypoints(self) -> dict[str, tuple[float, float]]:
        """Named points on the cloth that a camera can see: corners, pocket mouths, spots and
        the baulk-line ends. Calibration and its benchmarks use these names."""
        pts: dict[str, tuple[float, float]] = {}
        for name, pocket in self.pockets.items():
            pts[f"pocket_{name}"] = pocket.corner
        for colour, xy in self.spots.items():
            pts[f"spot_{colour.value}"] = xy
        pts["baulk_line_left"] = (self.baulk_line, 0.0)
        pts["baulk_line_right"] = (self.baulk_line, self.width)
        pts["d_apex"] = (self.baulk_line - self.d_radius, self.centre_line_y)
        return pts

    def standard_positions(self, reds: int = 15, white: bool = False) -> dict[str, tuple[float, float]]:
        """The set-up of Section 3 Rule 3(a)/Rule 19: colours on their spots, reds in a
        triangle (apex red as close to pink as possible without touching); the white is in
        hand (absent) unless ``white`` puts it on the brown-side of the D."""
        pos: dict[str, tuple[float, float]] = {c.value: xy for c, xy in self.spots.items()}
        d = self.ball_diameter + 0.2  # a hair apart so a rack is not a chain of contacts
        apex_x = self.spots[Colour.PINK][0] + d
        rows = 5 if reds == 15 else 3
        k = 1
        for row in range(rows):
            x = apex_x + row * d * math.sqrt(3.0) / 2.0
            for j in range(row + 1):
                if k > reds:
                    break
                y = self.centre_line_y + (j - row / 2.0) * d
                pos[f"red{k}"] = (x, y)
                k += 1
        if white:
            pos[Colour.WHITE.value] = (self.baulk_line - self.d_radius / 2.0, self.centre_line_y + 80.0)
        return pos


#: The table every module uses.
TABLE = TableSpec()
