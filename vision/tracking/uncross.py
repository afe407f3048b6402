"""Untangling the paths of reds lost the same frame and found again.

The tracker's first round pairs every ball within its un-grown gate before any grown gate is
looked at: that keeps a resting ball's own blob from a lost ball's far match (Task2 clip 18).
Between reds both unseen last frame it has no such reason, and decides only by which gate a
blob falls in. Two reds of a pack struck in the frame they went unseen, one pushed 2 radii on
and the other 3 (synthetic 01_break_off, frame 133): the nearer blob lay within both un-grown
gates and went to the wrong red, and the other red took the far blob across the first's path:
two red identity switches. Two balls' paths over one frame do not cross (they would have had
to pass through each other), so where two such reds' paths cross, they have each other's blob.

Why crossing and not least total cost: re-sharing the lost reds' blobs by their summed squared
distances spreads one far match over a chain of near ones (a squared cost prefers three moves
of 40 px to one of 130 px): in a real break-off (Task2 clip 20) two reds matched on their own
spots and a third found 130 px on were shifted one ball along, and a red rode on into a pocket
as the black. Uncrossing two crossing segments always shortens their total length and never
moves a ball whose path crosses no other.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def _side(a: FloatArray, b: FloatArray, p: FloatArray) -> float:
    """Twice the signed area of the triangle ``a, b, p``: which side of line ``ab`` ``p`` is on."""
    return float((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]))


def crosses(a0: FloatArray, a1: FloatArray, b0: FloatArray, b1: FloatArray) -> bool:
    """Whether segments ``a0-a1`` and ``b0-b1`` cross at a point inside both (touching at an end
    or running along one line does not count: the paths of balls at rest, or of one ball
    followed by the other, are not tangled)."""
    return _side(a0, a1, b0) * _side(a0, a1, b1) < 0.0 and _side(b0, b1, a0) * _side(b0, b1, a1) < 0.0


def uncross(
    start: FloatArray,
    found: FloatArray,
    match: IntArray,
    lost: npt.NDArray[np.bool_],
    allowed: npt.NDArray[np.bool_],
) -> int:
    """Swap the matches of ``lost`` balls whose paths cross (in place); the swaps made.

    Args:
        start: ``(B, 2)`` where each ball was predicted this frame.
        found: ``(N, 2)`` the detections' centres.
        match: ``(B,)`` each ball's detection (-1: none); swapped in place.
        lost: ``(B,)`` the balls that may swap (reds unseen last frame).
        allowed: ``(B, N)`` which pairings the gates admit: a swap both of whose pairings are
            not admitted is not made.
    """
    rows = np.flatnonzero(lost & (match >= 0))
    swaps = 0
    # Each swap shortens the total path length, so this ends; the bound is only a guard.
    for _ in range(len(rows) * len(rows)):
        done = True
        for x, i in enumerate(rows):
            for j in rows[x + 1 :]:
                mi, mj = match[i], match[j]
                if allowed[i, mj] and allowed[j, mi] and crosses(start[i], found[mi], start[j], found[mj]):
                    match[i], match[j] = mj, mi
                    swaps += 1
                    done = False
        if done:
            break
    return swaps
