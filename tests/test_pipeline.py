"""The referee pipeline end to end with a scripted ball stage: logs written as it goes,
calls equal to the calls made from the true log, the overlay drawn."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import numpy.typing as npt

from adjudicator.engine import adjudicate
from adjudicator.eventlog import Pot, read_events
from tests.events.test_infer import pot_scene
from vision.events.infer import EventInferer
from vision.pipeline import BallsInFrame, Pipeline
from vision.source import Frame
from vision.synthetic.timeline import Timeline
from vision.tracks import TrackState

SCALE = 0.2  # a fake camera looking straight down: 1 px = 5 mm


class ScriptedBalls:
    """Replays a timeline as if a perfect tracker saw it."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline

    def update(self, frame: Frame) -> BallsInFrame:
        pos = self.timeline.positions_at(frame.t)
        state = np.where(np.isnan(pos).any(axis=1), TrackState.ABSENT, TrackState.SEEN).astype(np.int8)
        return BallsInFrame(self.timeline.ball_names, pos * SCALE, pos, state)

    def table_to_pixels(self, xy: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return np.asarray(xy, dtype=np.float64) * SCALE


def _frames(timeline: Timeline, fps: float) -> list[Frame]:
    image = np.zeros((int(1778 * SCALE) + 40, int(3569 * SCALE), 3), np.uint8)
    times = np.arange(0.0, timeline.duration + 1.5, 1.0 / fps)
    return [Frame(i, float(t), image) for i, t in enumerate(times)]


def test_pipeline_calls_equal_calls_from_true_log(tmp_path: Path) -> None:
    timeline = pot_scene("top_right")
    drawn: list[npt.NDArray[np.uint8]] = []
    pipe = Pipeline(
        balls=ScriptedBalls(timeline),
        make_events=lambda names: EventInferer(names, fps=30.0, noise_mm=0.5),
        out_dir=tmp_path,
        annotate=lambda _f, img: drawn.append(img),
        players=("a", "b"),
    )
    pipe.run(_frames(timeline, 30.0))
    written = [json.loads(line) for line in (tmp_path / "calls.jsonl").read_text().splitlines()]
    assert written == pipe.outputs and written, "calls are written line by line as made"
    events = list(read_events((tmp_path / "events.jsonl").read_text().splitlines()))
    assert [(e.ball, e.pocket) for e in events if isinstance(e, Pot)] == [("red1", "top_right")]
    truth_calls = [o for o in adjudicate(timeline.events) if o["type"] in ("call", "score")]
    mine = [o for o in pipe.outputs if o["type"] in ("call", "score")]
    strip = lambda outs: [{k: v for k, v in o.items() if k != "t"} for o in outs]  # noqa: E731
    assert strip(mine) == strip(truth_calls)
    assert pipe.latencies and max(pipe.latencies) < 0.5
    assert len(drawn) == len(_frames(timeline, 30.0)) and any(img.any() for img in drawn)
