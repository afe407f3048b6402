"""Where a colour can be put on the table by a hand: the spotting rule (Section 3 Rule 7).

Why: a colour the tracker finds at rest with no rest position known (not on the table when
the video began, or picked up since) becomes a ``place`` of the event log, and the referee
then has one more ball on the table: a ball on, a lowest colour and a score line all change.
A blob of mottled cloth named green in mid-table (a rendered 1080p60 colours clearance, seed
126, random look: the green potted before the clip, "placed" 56 mm off the green's
longitudinal line) turned every call of the clearance after it. A hand puts a colour down
only where the rules send it:

- on its own spot, or the highest value spot available (Rule 7(e), (f));
- with every spot occupied, as near its own spot as possible between it and the nearest part
  of the top cushion, i.e. on the longitudinal line through its spot, up the table (7(g));
  pink and black, with no room there, on the centre longitudinal line (7(h));
- where it rested before, when the balls are replaced after a FOUL AND A MISS (Section 3
  Rule 14) or a foul the next player asks to have played again.

Implemented: those places, within a tolerance for the measurement. Not implemented: which
spot is available (a colour on another colour's free spot is accepted even where its own is
free: a referee's mistake stands, Rule 7(a)). Neither the white (placed anywhere in the D,
or replaced anywhere) nor the reds (never spotted; a red found late was there all along) are
judged here.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from calibration.table import Colour, TableSpec

FloatArray = npt.NDArray[np.float64]

#: The colours a hand spots (Section 3 Rule 7): every ball but the white and the reds.
SPOTTED = frozenset({Colour.YELLOW, Colour.GREEN, Colour.BROWN, Colour.BLUE, Colour.PINK, Colour.BLACK})


def may_be_put(
    table: TableSpec,
    colour: Colour,
    xy: FloatArray,
    tol_mm: float,
    earlier: Iterable[FloatArray] = (),
) -> bool:
    """Whether a hand may have put ``colour`` down at table position ``xy`` (mm): on a spot,
    on its spotting line (see the module's docstring), or within ``tol_mm`` of a position
    ``earlier`` where it rested before. Always True for the white and the reds."""
    if colour not in SPOTTED:
        return True
    x, y = float(xy[0]), float(xy[1])
    if not (np.isfinite(x) and np.isfinite(y)):
        return False
    for ex, ey in earlier:
        if np.hypot(x - float(ex), y - float(ey)) <= tol_mm:
            return True
    spots = table.spots
    if any(np.hypot(x - sx, y - sy) <= tol_mm for sx, sy in spots.values()):
        return True
    own_x, own_y = spots[colour]
    # Rule 7(g): up the table from its spot (the top cushion is at the far end, x large).
    if abs(y - own_y) <= tol_mm and x >= own_x - tol_mm:
        return True
    # Rule 7(h): pink and black anywhere on the centre longitudinal line.
    return colour in (Colour.PINK, Colour.BLACK) and abs(y - table.width / 2.0) <= tol_mm
