"""Which blobs a ball's look keeps it from: a red's from a one-colour ball, and back.

The colour searches return blobs without a colour name (the colour model names only the
detector's blobs); the tracker tells them apart by their look (Lab) against each ball's
remembered look, under one absolute limit (``TrackerConfig.appearance_limit``) that must let a
streak (a ball's colour mixed with the cloth's) through. In a broadcast view a brown and a red
differ by less than a fifth of that limit, and the brown at the far end of a rendered 1080p60
break-off, lost while a red passed over it in the picture, took that red's blob through its
grown gate (its own look 8 from the blob's, the passing red's 1) and followed the red off: 92.9%
colour identity where it had been 99.4%. Which of the two the blob looks more like is a
comparison, not a limit: a blob nearer a red's look than a one-colour ball's own is a red to
that ball (:func:`looks_red`), and one nearer a one-colour ball's look than a red's own is
that ball to the red (:func:`looks_coloured`). Only for balls slow enough to show their colour
(the tracker asks it of balls under the motion model's lowest moving speed): a streak's look
is mostly the cloth's.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from calibration.table import Colour
from vision.detection.detections import COLOURS

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

_RED = COLOURS.index(Colour.RED)


def _distance(a: FloatArray, b: FloatArray, weight: FloatArray) -> FloatArray:
    """``(A, B)`` weighted Lab distances of looks ``a`` ``(A, 3)`` and ``b`` ``(B, 3)``."""
    return np.asarray(np.linalg.norm((a[:, None, :] - b[None, :, :]) * weight, axis=2), np.float64)


def looks_red(
    colour: IntArray,
    look: FloatArray,
    pos: FloatArray,
    sharp: npt.NDArray[np.bool_],
    det_pixel: FloatArray,
    det_colour: IntArray,
    appearance: FloatArray | None,
    weight: FloatArray,
) -> npt.NDArray[np.bool_]:
    """``(B, N)``: which unnamed detections each one-colour ball may not take, as reds.

    Args:
        colour: ``(B,)`` the balls' colour indices (< 0: unknown).
        look: ``(B, 3)`` the balls' remembered Lab looks (NaN: not known).
        pos: ``(B, 2)`` the balls' pixels (NaN: not known).
        sharp: ``(B,)`` the balls whose blobs show their own colour (not a streak: a ball moving
            more than its radius a frame is mixed with the cloth, and its look says little).
        det_pixel: ``(N, 2)`` the detections' pixels.
        det_colour: ``(N,)`` the detections' colour indices (< 0: not named).
        appearance: ``(N, 3)`` the detections' Lab looks (NaN: not measured), or None.
        weight: the Lab weights of the appearance distance.

    A detection is refused to a sharp ball of a known colour other than red when the detector
    gave it no colour, both looks are known, and it lies nearer the look of the red nearest it
    in the picture than the ball's own. The nearest red's, not the reds' median: the light
    changes a red's look across the table by more than a brown differs from a red at the far
    end of a broadcast view (the rendered break-off: the pack's reds at a* 171, the far reds
    at 141-157, the brown at 137). Named detections are left to the colour names; a ball with
    no look, or a table without a red of known look and place, refuses nothing.
    """
    b, n = len(colour), len(det_colour)
    out = np.zeros((b, n), bool)
    if appearance is None or not b or not n:
        return out
    known = np.all(np.isfinite(look), axis=1)
    reds = np.flatnonzero(known & (colour == _RED) & np.all(np.isfinite(pos), axis=1))
    one = known & sharp & (colour >= 0) & (colour != _RED)
    unnamed = np.flatnonzero((det_colour < 0) & np.all(np.isfinite(appearance), axis=1))
    _refuse(out, look, pos, det_pixel, appearance, weight, others=reds, balls=one, dets=unnamed)
    return out


def looks_coloured(
    colour: IntArray,
    look: FloatArray,
    pos: FloatArray,
    sharp: npt.NDArray[np.bool_],
    det_pixel: FloatArray,
    appearance: FloatArray | None,
    weight: FloatArray,
) -> npt.NDArray[np.bool_]:
    """``(B, N)``: which detections each red may not take, as the one-colour ball nearest them.

    Args: as :func:`looks_red` (without the detections' colours: see below).

    A detection is refused to a sharp red of known look when it lies nearer the look of the
    one-colour ball nearest it in the picture than the red's own remembered look (not the reds'
    shared look: a red's own look is its light's). Named detections too: a pack window's
    detector named the slowly rolling pink beside the pack red (synthetic 01_break_off, frame
    190), the pink could not take a red blob, and a red lost for one frame took it 120 px off
    through its grown gate (its look 16 from the pink's, 27 from the red's): two red identity
    switches. Where the name and the look disagree, a red's track is not the one to settle it.
    """
    b, n = len(colour), len(det_pixel)
    out = np.zeros((b, n), bool)
    if appearance is None or not b or not n:
        return out
    known = np.all(np.isfinite(look), axis=1) & np.all(np.isfinite(pos), axis=1)
    ones = np.flatnonzero(known & (colour >= 0) & (colour != _RED))
    reds = known & sharp & (colour == _RED)
    measured = np.flatnonzero(np.all(np.isfinite(appearance), axis=1))
    _refuse(out, look, pos, det_pixel, appearance, weight, others=ones, balls=reds, dets=measured)
    return out


def _refuse(
    out: npt.NDArray[np.bool_],
    look: FloatArray,
    pos: FloatArray,
    det_pixel: FloatArray,
    appearance: FloatArray,
    weight: FloatArray,
    others: IntArray,
    balls: npt.NDArray[np.bool_],
    dets: IntArray,
) -> None:
    """Mark in ``out`` (in place) the detections ``dets`` that each of ``balls`` may not take:
    those nearer the look of the ball of ``others`` nearest them in the picture than its own."""
    if not len(others) or not np.any(balls) or not len(dets):
        return
    gap = np.linalg.norm(det_pixel[dets][:, None, :] - pos[others][None, :, :], axis=2)
    other_look = look[others[np.argmin(gap, axis=1)]]
    to_other = np.linalg.norm((other_look - appearance[dets]) * weight, axis=1)
    to_own = _distance(look[balls], appearance[dets], weight)
    out[np.ix_(balls, dets)] = to_other[None, :] < to_own
