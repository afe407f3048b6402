"""The live referee pipeline: frames -> calibration -> balls -> events -> calls -> outputs.

Every stage is an object with one per-frame method, so the same loop serves a video file
(as fast as the machine allows), a camera (real time, dropped frames counted) and tests
(stages replaced by fakes). Each input event is written to ``events.jsonl`` and each of the
referee's outputs to ``calls.jsonl`` the moment it exists, flushed line by line, so a crash or
a lost camera keeps everything decided so far; the annotated video and the report are
finished from what was written even when the source fails part-way.
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from adjudicator.engine import initial_state, step
from adjudicator.eventlog import FrameStart, InputEvent, JsonlWriter, event_to_dict
from adjudicator.state import FrameState
from adjudicator.target import balls_on
from calibration.errors import BaulklineError
from vision.events.pocket_view import PocketWatch
from vision.operator import OperatorQueue
from vision.overlay import (
    Primitive,
    d_outline,
    draw_balls,
    draw_primitives,
    draw_score_bar,
    reasons_for_call,
    respot_marker,
)
from vision.source import Frame

FloatArray = npt.NDArray[np.float64]
Output = dict[str, Any]


@dataclass(frozen=True)
class BallsInFrame:
    """What the tracker knows about every ball in one frame (row-aligned with ``names``).

    Attributes:
        names: event-log ball names.
        pixel: ``(B, 2)`` image pixels (NaN where absent).
        position: ``(B, 2)`` table millimetres (NaN where absent).
        state: ``(B,)`` :class:`vision.tracks.TrackState` values.
    """

    names: tuple[str, ...]
    pixel: FloatArray
    position: FloatArray
    state: npt.NDArray[np.int8]

    def __post_init__(self) -> None:
        b = len(self.names)
        for name, arr, shape in (
            ("pixel", self.pixel, (b, 2)),
            ("position", self.position, (b, 2)),
            ("state", self.state, (b,)),
        ):
            if np.shape(arr) != shape:
                raise ValueError(f"{name} must have shape {shape}, got {np.shape(arr)}")


class BallStage(Protocol):
    """Calibrates (as needed) and tracks the balls of one frame."""

    def update(self, frame: Frame) -> BallsInFrame | None:
        """The balls in ``frame``, or ``None`` while the table is not yet calibrated."""

    def table_to_pixels(self, xy: FloatArray) -> FloatArray:
        """Project table millimetres (on the cloth) into the current frame's pixels."""


class EventStage(Protocol):
    """Turns per-frame ball positions into contract input events."""

    def update(
        self,
        frame_index: int,
        t: float,
        positions: FloatArray,
        states: npt.NDArray[np.integer],
        hidden: FloatArray | None = None,
    ) -> list[InputEvent]:
        """Events decided by this frame; ``hidden``: how much of each pocket's approach the
        camera could not see (:class:`vision.events.pocket_view.PocketWatch`)."""

    def finish(self) -> list[InputEvent]:
        """Events still open when the video ends."""


STAGES = ("balls", "pocket watch", "events")

#: The pocket view is looked at no more often than this (seconds): 30 times a second, the rate
#: of the broadcast footage its tests were set on. Its "hidden in this frame and the one
#: before" then spans a thirtieth of a second at any frame rate (at 60 fps a frame pair is half
#: that), and at 50-60 fps it costs half as much: 1.2-1.5 ms a 1080p frame on the pipeline's
#: thread, whose budget for real time at 60 fps is 16.7 ms.
WATCH_EVERY_S = 1.0 / 30.0


@dataclass
class TrackEvents:
    """From a frame to contract events: the ball stage, the pocket view and event inference.

    One path for ``baulkline track --events``, ``baulkline referee`` and the benchmarks, so a
    benchmark measures exactly what the product runs (a benchmark with a set-up of its own once
    measured a tracker without the live stage's playing-surface mask).

    Attributes:
        balls: the calibration + detection + tracking stage.
        make_events: creates the event stage from the first tracked frame's ball names (the
            ball set is only known once the table is calibrated with balls in view).
        watch: how much of each pocket's approach a player covers: a pot is read from a
            ball's path into a mouth in view, never from a ball vanishing behind an arm
            (:mod:`vision.events.exits`).
        events: the event stage, once created.
        hidden: the pocket view of the last frame it was looked at in (``None`` before; see
            :data:`WATCH_EVERY_S`).
        seconds: CPU seconds of the calling thread spent in each stage (:data:`STAGES`), for
            the speed benchmarks; a thread clock, since decoding runs on a thread of its own.
    """

    balls: BallStage
    make_events: Callable[[Sequence[str]], EventStage]
    watch: PocketWatch = field(default_factory=PocketWatch)
    events: EventStage | None = None
    hidden: FloatArray | None = None
    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(STAGES, 0.0))
    _watched_at: float = field(default=-np.inf, repr=False)

    def update(self, frame: Frame) -> tuple[BallsInFrame | None, list[InputEvent]]:
        """The balls in ``frame`` (``None`` while the table is not calibrated) and the events
        this frame decided."""
        a = time.thread_time()
        tracked = self.balls.update(frame)
        b = time.thread_time()
        self.seconds["balls"] += b - a
        if tracked is None:
            return None, []
        if self.events is None:
            self.events = self.make_events(tracked.names)
        if self.hidden is None or frame.t - self._watched_at >= WATCH_EVERY_S - 1e-6:
            self.hidden = self.watch.update(frame.image, self.balls.table_to_pixels)
            self._watched_at = frame.t
        c = time.thread_time()
        self.seconds["pocket watch"] += c - b
        new = self.events.update(frame.index, frame.t, tracked.position, tracked.state, self.hidden)
        self.seconds["events"] += time.thread_time() - c
        return tracked, new

    def finish(self) -> list[InputEvent]:
        """Events still open when the video ends (none before the first tracked frame)."""
        if self.events is None:
            return []
        c = time.thread_time()
        new = self.events.finish()
        self.seconds["events"] += time.thread_time() - c
        return new


@dataclass
class RefereeState:
    """What the overlay and the live view need between frames (not the referee's state)."""

    frame_state: FrameState = field(default_factory=initial_state)
    score: Output | None = None
    calls: list[str] = field(default_factory=list)
    reasons: list[Primitive] = field(default_factory=list)
    reasons_until: float = -1.0
    last_positions: dict[str, tuple[float, float]] = field(default_factory=dict)
    first_contact: tuple[float, float] | None = None
    trails: dict[str, deque[tuple[float, float]]] = field(default_factory=dict)


@dataclass
class Pipeline:
    """Runs the stages over a stream of frames and writes the outputs.

    Attributes:
        balls: the calibration + detection + tracking stage.
        events: the event-inference stage, created from the first tracked frame's ball names
            by ``make_events``.
        out_dir: where events.jsonl, calls.jsonl (and the caller's video/report) go.
        operator: operator inputs merged by time.
        on_output: called with each referee output (the live view).
        annotate: called with each annotated frame (the video writer), or ``None``.
    """

    balls: BallStage
    make_events: Callable[[Sequence[str]], EventStage]
    out_dir: Path
    operator: OperatorQueue = field(default_factory=lambda: OperatorQueue.of([]))
    on_output: Callable[[Output], None] = lambda _o: None
    annotate: Callable[[Frame, npt.NDArray[np.uint8]], None] | None = None
    players: tuple[str, str] = ("Player 1", "Player 2")
    referee: RefereeState = field(default_factory=RefereeState)
    inputs: list[dict[str, Any]] = field(default_factory=list)
    outputs: list[Output] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    _stages: TrackEvents = field(init=False)
    _ev: JsonlWriter | None = None
    _ca: JsonlWriter | None = None

    def __post_init__(self) -> None:
        self._stages = TrackEvents(self.balls, self.make_events)

    def run(self, frames: Iterable[Frame]) -> None:
        """Process every frame; on a source error, close what is open and re-raise."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        try:
            with (
                (self.out_dir / "events.jsonl").open("w") as ev,
                (self.out_dir / "calls.jsonl").open("w") as ca,
            ):
                self._ev, self._ca = JsonlWriter(ev), JsonlWriter(ca)
                last_t = 0.0
                try:
                    for frame in frames:
                        last_t = frame.t
                        self.process(frame)
                finally:
                    self._finish(last_t)
        except OSError as exc:
            raise BaulklineError(f"{self.out_dir}: cannot write the outputs ({exc.strerror})") from None

    def process(self, frame: Frame) -> None:
        """One frame through every stage."""
        tracked, new_events = self._stages.update(frame)
        if tracked is not None:
            self._remember(tracked)
        for event in self._merge(new_events, frame.t):
            self._referee(event, frame.t)
        if self.annotate is not None:
            image = frame.image.copy()
            self._draw(image, tracked, frame.t)
            self.annotate(frame, image)

    # ---- stages ---------------------------------------------------------------------------
    def _merge(self, events: list[InputEvent], t: float) -> list[InputEvent]:
        merged = sorted([*events, *self.operator.due(t)], key=lambda e: e.t)
        if merged and isinstance(merged[0], FrameStart):
            fs = merged[0]
            merged[0] = FrameStart(fs.t, self.players, fs.striker, fs.reds, fs.positions, fs.scores)
        return merged

    def _referee(self, event: InputEvent, now: float) -> None:
        if self._ev is None or self._ca is None:
            raise RuntimeError("Pipeline.process() runs inside Pipeline.run()")
        self.inputs.append(event_to_dict(event))
        self._ev.write(self.inputs[-1])
        state, outs = step(self.referee.frame_state, event)
        self.referee.frame_state = state
        for out in outs:
            self.outputs.append(out)
            self._ca.write(out)
            self.on_output(out)
            self._show(out, now)
        if event.type == "rest":
            # From when the balls settled (an inferred rest says so), not the rest's own t.
            settled = getattr(event, "settled_t", None)
            self.latencies.append(max(0.0, now - (event.t if settled is None else settled)))

    def _show(self, out: Output, now: float) -> None:
        r = self.referee
        if out["type"] == "score":
            r.score = out
        elif out["type"] == "call":
            text = str(out["call"]) + (f" {out['penalty']}" if "penalty" in out else "")
            r.calls.append(text)
            r.reasons = reasons_for_call(out, r.last_positions, r.first_contact, self._balls_on())
            r.reasons_until = now + 4.0
        elif out["type"] == "respot":
            r.reasons.append(respot_marker(str(out["ball"]), out["position"]))
            r.reasons_until = now + 4.0

    def _balls_on(self) -> list[str]:
        return balls_on(self.referee.frame_state.on, self.referee.last_positions)

    def _remember(self, tracked: BallsInFrame) -> None:
        r = self.referee
        seen = [not np.isnan(p).any() for p in tracked.position]
        r.last_positions = {
            n: (float(p[0]), float(p[1]))
            for n, p, s in zip(tracked.names, tracked.position, seen, strict=True)
            if s
        }
        for n, px in zip(tracked.names, tracked.pixel, strict=True):
            trail = r.trails.setdefault(n, deque(maxlen=45))
            if not np.isnan(px).any():
                trail.append((float(px[0]), float(px[1])))
            elif trail:
                trail.popleft()

    def _draw(self, image: npt.NDArray[np.uint8], tracked: BallsInFrame | None, t: float) -> None:
        r = self.referee
        prims: list[Primitive] = list(r.reasons) if t <= r.reasons_until else []
        if r.frame_state.in_hand and r.frame_state.started:
            prims.append(d_outline())
        if prims:
            # before the first calibration there is nothing to project through
            with contextlib.suppress(BaulklineError, ValueError):
                draw_primitives(image, prims, self.balls.table_to_pixels)
        if tracked is not None:
            pixels = {
                n: (float(p[0]), float(p[1]))
                for n, p in zip(tracked.names, tracked.pixel, strict=True)
                if not np.isnan(p).any()
            }
            draw_balls(image, pixels, {k: list(v) for k, v in r.trails.items()})
        draw_score_bar(image, self.players, r.score, r.calls)

    def _finish(self, t: float) -> None:
        if self._stages.events is None:
            return
        for event in self._merge(self._stages.finish(), float("inf")):
            self._referee(event, t)


def wall_clock() -> float:
    """Seconds on a monotonic clock (for real-time pacing and fps figures)."""
    return time.monotonic()
