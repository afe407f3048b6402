"""Resting balls lost where no ball touched them: they keep no velocity, and stay on their spots.

A ball long at rest is searched by its colour, not carried, whenever a moving ball can reach it
in the picture (``VideoTracker._struck``): it must follow at once when struck. The search's
centre wanders by a few pixels as the moving ball's blob comes near (the light, a blob merged
with the passer's), and the motion filter reads each wander as a step. In a rendered 1080p60
break-off (broadcast view) the far-end brown, searched while a red passed 84 mm behind it (one
radius off in the picture), was left 0.8 px a frame when the red covered it; unseen, it drifted
on by that velocity for 40 frames, 15 px off its spot, and the red's track took its blob
(colour identity 99.4 -> 92.9%).

A ball is set moving only by another ball touching it (or the cue: the cue ball is left out).
So a ball not found this frame, still within its hold radius of its rest spot, with no other
ball on the table within contact reach of it, was not struck: it keeps no velocity and is
predicted where it is. Contact reach is two ball radii on the table plus the hold radius of
each of the two balls (how far either tracked position may be from its ball without counting
as moved). On the table, not in the picture: at the far end of a broadcast view a radius of
the picture spans about three along the table. Only a ball not found: zeroing a found ball's
velocity made it count as still and be carried again the next frame, and a brown beside the
white put down by it (synthetic 06_free_ball) flipped between carried and searched every
frame (rest RMS 2.4 -> 3.1 mm).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def untouched(
    table: FloatArray,
    active: BoolArray,
    candidate: BoolArray,
    ball_radius: float,
    hold_radii: float,
) -> BoolArray:
    """``(B,)``: which ``candidate`` balls no other ball can have touched.

    Args:
        table: ``(B, 2)`` the balls' tracked table positions (mm; NaN: not known).
        active: ``(B,)`` the balls on the table.
        candidate: ``(B,)`` the balls asked about (long at rest, not found this frame, within
            their hold radius of their rest spots).
        ball_radius: a ball's radius on the table (mm).
        hold_radii: the hold radius (ball radii; see ``ScheduleConfig.hold_radii``).

    A candidate with a known place and no other active ball within ``(2 + 2 * hold_radii)``
    ball radii; an active ball of unknown place (lost, never seen) may be anywhere, so while
    there is one nothing is untouched.
    """
    out = np.zeros(len(candidate), bool)
    known = np.all(np.isfinite(table), axis=1)
    if not np.any(candidate & known) or np.any(active & ~known):
        return out
    reach = (2.0 + 2.0 * hold_radii) * ball_radius
    d = np.linalg.norm(table[:, None, :] - table[None, :, :], axis=2)
    d = np.where((active & known)[None, :], d, np.inf)
    np.fill_diagonal(d, np.inf)
    out[:] = candidate & known & (d.min(axis=1) > reach)
    return out
