"""Table model, camera model and the homography between image pixels and table millimetres."""

from calibration.errors import BaulklineError
from calibration.table import BALL_VALUES, COLOURS_ASCENDING, TABLE, Colour, TableSpec, colour_of

__all__ = [
    "BALL_VALUES",
    "COLOURS_ASCENDING",
    "TABLE",
    "BaulklineError",
    "Colour",
    "TableSpec",
    "colour_of",
]
