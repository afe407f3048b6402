"""Reading and writing the event log (``shared/spec/event-log.md``).

Input events become small frozen dataclasses, one per ``type``, so the referee's reducer can
match on them with type checking. Reading validates every line against the JSON Schema of
:mod:`adjudicator.schema` and against what a schema cannot express (a ball name that does not
exist in the current frame, time going backwards); any failure is a one-line
:class:`~calibration.errors.BaulklineError` naming the source and line number. Writing
flushes after every line so a crash or a pipe reader never loses what was already decided.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any, Literal, TypeAlias

import jsonschema

from adjudicator.fastcheck import surely_valid
from adjudicator.schema import INPUT_SCHEMA, OUTPUT_SCHEMA
from calibration.errors import BaulklineError
from calibration.table import Colour, colour_of

Position: TypeAlias = tuple[float, float]
Positions: TypeAlias = Mapping[str, Position]


@dataclass(frozen=True)
class FrameStart:
    """A frame (or a position to play from) begins; the white is in hand when absent."""

    t: float
    players: tuple[str, str]
    striker: int
    reds: int = 15
    positions: Positions | None = None
    scores: tuple[int, int] = (0, 0)
    type: Literal["frame_start"] = field(default="frame_start", init=False)


@dataclass(frozen=True)
class Place:
    """A ball put on the table by hand."""

    t: float
    ball: str
    position: Position
    type: Literal["place"] = field(default="place", init=False)


@dataclass(frozen=True)
class Nominate:
    """The striker declares the ball they are on."""

    t: float
    ball: str
    type: Literal["nominate"] = field(default="nominate", init=False)


@dataclass(frozen=True)
class Strike:
    """The cue tip strikes the white: a stroke begins."""

    t: float
    type: Literal["strike"] = field(default="strike", init=False)


@dataclass(frozen=True)
class Collision:
    """Two balls touch. White-with-two-balls collisions at the same ``t`` were simultaneous."""

    t: float
    balls: tuple[str, str]
    type: Literal["collision"] = field(default="collision", init=False)


@dataclass(frozen=True)
class Cushion:
    """A ball touches a cushion."""

    t: float
    ball: str
    type: Literal["cushion"] = field(default="cushion", init=False)


@dataclass(frozen=True)
class Pot:
    """A ball enters a pocket."""

    t: float
    ball: str
    pocket: str
    type: Literal["pot"] = field(default="pot", init=False)


@dataclass(frozen=True)
class OffTable:
    """A ball is forced off the table."""

    t: float
    ball: str
    type: Literal["off_table"] = field(default="off_table", init=False)


@dataclass(frozen=True)
class Rest:
    """All balls are at rest; ``positions`` holds every ball on the playing area."""

    t: float
    positions: Positions
    touching: tuple[tuple[str, str], ...] | None = None
    type: Literal["rest"] = field(default="rest", init=False)


@dataclass(frozen=True)
class Infringement:
    """An act an operator or sensor reports (Section 3 Rule 11) that the camera may not see."""

    t: float
    kind: str
    ball: str | None = None
    player: int | None = None
    type: Literal["infringement"] = field(default="infringement", init=False)


@dataclass(frozen=True)
class Choice:
    """After a foul, the non-offender's election: ``play``, ``play_again`` or ``replace``."""

    t: float
    option: Literal["play", "play_again", "replace"]
    type: Literal["choice"] = field(default="choice", init=False)


@dataclass(frozen=True)
class Concede:
    """A player concedes the frame."""

    t: float
    player: int
    type: Literal["concede"] = field(default="concede", init=False)


InputEvent: TypeAlias = (
    FrameStart
    | Place
    | Nominate
    | Strike
    | Collision
    | Cushion
    | Pot
    | OffTable
    | Rest
    | Infringement
    | Choice
    | Concede
)

_INPUT_VALIDATOR = jsonschema.Draft202012Validator(INPUT_SCHEMA)
_OUTPUT_VALIDATOR = jsonschema.Draft202012Validator(OUTPUT_SCHEMA)


def _xy(value: Any) -> Position:
    return (float(value[0]), float(value[1]))


def _positions(value: Mapping[str, Any]) -> dict[str, Position]:
    return {ball: _xy(xy) for ball, xy in value.items()}


def event_from_dict(obj: Mapping[str, Any]) -> InputEvent:
    """Build a typed input event from an already schema-valid JSON object."""
    t = float(obj["t"])
    kind = obj["type"]
    if kind == "frame_start":
        pos = obj.get("positions")
        scores = obj.get("scores", [0, 0])
        return FrameStart(
            t=t,
            players=(str(obj["players"][0]), str(obj["players"][1])),
            striker=int(obj["striker"]),
            reds=int(obj.get("reds", 15)),
            positions=_positions(pos) if pos is not None else None,
            scores=(int(scores[0]), int(scores[1])),
        )
    if kind == "place":
        return Place(t=t, ball=obj["ball"], position=_xy(obj["position"]))
    if kind == "nominate":
        return Nominate(t=t, ball=obj["ball"])
    if kind == "strike":
        return Strike(t=t)
    if kind == "collision":
        return Collision(t=t, balls=(obj["balls"][0], obj["balls"][1]))
    if kind == "cushion":
        return Cushion(t=t, ball=obj["ball"])
    if kind == "pot":
        return Pot(t=t, ball=obj["ball"], pocket=obj["pocket"])
    if kind == "off_table":
        return OffTable(t=t, ball=obj["ball"])
    if kind == "rest":
        touching = obj.get("touching")
        return Rest(
            t=t,
            positions=_positions(obj["positions"]),
            touching=tuple((a, b) for a, b in touching) if touching is not None else None,
        )
    if kind == "infringement":
        player = obj.get("player")
        return Infringement(
            t=t, kind=obj["kind"], ball=obj.get("ball"), player=None if player is None else int(player)
        )
    if kind == "choice":
        return Choice(t=t, option=obj["option"])
    if kind == "concede":
        return Concede(t=t, player=int(obj["player"]))
    raise ValueError(f"unknown event type {kind!r}")


def event_to_dict(event: InputEvent) -> dict[str, Any]:
    """The JSON object of an input event, keys in contract order, optional keys left out."""
    out: dict[str, Any] = {"type": event.type, "t": round(event.t, 6)}
    for name, value in vars(event).items():
        if name in ("type", "t") or value is None:
            continue
        if isinstance(event, FrameStart) and name == "reds" and value == 15:
            continue
        if isinstance(value, Mapping):
            value = {k: [round(v[0], 2), round(v[1], 2)] for k, v in value.items()}
        elif isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        out[name] = value
    return out


def _ball_names_used(obj: Mapping[str, Any]) -> Iterator[str]:
    for key in ("ball",):
        if key in obj:
            yield obj[key]
    for key in ("balls",):
        yield from obj.get(key, ())
    for key in ("positions",):
        yield from obj.get(key, {}) or {}
    for pair in obj.get("touching", ()) or ():
        yield from pair


def _first_error(validator: jsonschema.Draft202012Validator, obj: Any) -> str | None:
    errors = sorted(validator.iter_errors(obj), key=lambda e: len(list(e.absolute_path)))
    if not errors:
        return None
    err = errors[0]
    where = "/".join(str(p) for p in err.absolute_path)
    return f"{where + ': ' if where else ''}{err.message}"


class LogReader:
    """Parses and checks input lines one at a time, keeping what later lines are checked
    against (the red count of the current frame, the last time)."""

    def __init__(self, source: str = "<events>") -> None:
        self.source = source
        self.reds = 15
        self.last_t = -math.inf
        self.lineno = 0

    def fail(self, message: str) -> BaulklineError:
        """A one-line error naming the source and current line."""
        return BaulklineError(f"{self.source}:{self.lineno}: {message}")

    def parse_line(self, line: str) -> InputEvent | None:
        """Parse one line; blank lines give ``None``. Raises BaulklineError when invalid."""
        self.lineno += 1
        if not line.strip():
            return None
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise self.fail(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(obj, dict):
            raise self.fail("an event must be a JSON object")
        if "type" in obj and obj["type"] not in INPUT_SCHEMA["properties"]["type"]["enum"]:
            raise self.fail(f"unknown event type {obj['type']!r}")
        problem = None if surely_valid(obj) else _first_error(_INPUT_VALIDATOR, obj)
        if problem:
            raise self.fail(f"invalid {obj.get('type', 'event')} event: {problem}")
        t = float(obj["t"])
        if t < self.last_t:
            raise self.fail(f"time goes backwards ({t} after {self.last_t})")
        self.last_t = t
        if obj["type"] == "frame_start":
            self.reds = int(obj.get("reds", 15))
        for ball in _ball_names_used(obj):
            if colour_of(ball) is Colour.RED and int(ball[3:]) > self.reds:
                raise self.fail(f"ball {ball!r} does not exist in a frame with {self.reds} reds")
        return event_from_dict(obj)


def read_events(lines: Iterable[str], source: str = "<events>") -> Iterator[InputEvent]:
    """Yield validated input events from JSON lines, lazily, so a live pipe can be followed."""
    reader = LogReader(source)
    for line in lines:
        event = reader.parse_line(line)
        if event is not None:
            yield event


def validate_output(obj: Mapping[str, Any]) -> str | None:
    """The first schema problem of an output event, or ``None`` when it is valid."""
    return _first_error(_OUTPUT_VALIDATOR, obj)


def validate_input(obj: Mapping[str, Any]) -> str | None:
    """The first schema problem of an input event, or ``None`` when it is valid."""
    return _first_error(_INPUT_VALIDATOR, obj)


class JsonlWriter:
    """Writes one JSON object per line and flushes each, so nothing written is lost."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def write(self, obj: Mapping[str, Any]) -> None:
        """Write and flush one line."""
        self.stream.write(json.dumps(obj, separators=(", ", ": ")) + "\n")
        self.stream.flush()
