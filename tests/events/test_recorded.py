"""Event inference on tracks the video tracker really produced, cut from rendered clips.

Why recorded tracks: some failures need the tracker's own way of being wrong (a position
held to the hundredth of a millimetre for a second, a hand's pull let go in steps), which
the simulated noise in the other tests does not have. Each file is a stretch of
``baulkline track --tracks`` output from the named render (``benchmarks.referee_renders``),
the two or three balls involved kept, frames renumbered from 0, times as recorded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.eventlog import Collision, Cushion, InputEvent, Place, Pot, Strike
from vision.events.infer import infer_tracks
from vision.tracks import Tracks

HERE = Path(__file__).parent / "recorded"
#: The pipeline's noise level for a 960x540 render (``BallsStage.noise_mm``).
NOISE_MM = 1.5


def _kinds(events: list[InputEvent]) -> list[str]:
    """The events a referee reads, as ``kind:balls`` strings in order."""
    out = []
    for e in events:
        if isinstance(e, Collision):
            out.append("collision:" + "-".join(e.balls))
        elif isinstance(e, Cushion | Pot | Place):
            out.append(f"{e.type}:{e.ball}")
        elif isinstance(e, Strike):
            out.append("strike")
    return out


@pytest.mark.parametrize(
    ("clip", "expected"),
    [
        # in_off-114-960x540@60-random, frames 600-999: the hand that put the white in the D
        # pulled the red's track 13 mm and let it back in two 7 mm steps, the last 0.2 s before
        # the stroke; the white hits the red 25 ms after the strike (it is potted later, past
        # this cut). The red's start was the pulled position, its departure fitted 150 ms
        # before the strike: no contact, FOUL AND A MISS.
        ("in_off-114-hand-pull", ["place:white", "strike", "collision:white-red1", "cushion:white"]),
        # in_off-114-960x540@60-random, frames 1230-1439: the white rolls into the far
        # cushion and creeps back off it while its track stays put for 0.9 s, then is
        # re-found 100 mm off. The still fit before the jump "headed into" the cushion by a
        # rounding error: a cushion contact made the jump a stroke.
        ("in_off-114-refound-off-cushion", ["strike", "cushion:white", "place:white"]),
    ],
)
def test_recorded_tracks_give_the_events(clip: str, expected: list[str]) -> None:
    tracks = Tracks.from_csv(HERE / f"{clip}.tracks.csv")
    assert _kinds(infer_tracks(tracks, noise_mm=NOISE_MM)) == expected
