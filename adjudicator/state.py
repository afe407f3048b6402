"""The immutable frame state the referee's reducer folds the event log into.

Everything a referee (and marker) keeps in their head between events is one frozen
:class:`FrameState`: scores, the striker, the break, the ball on, where the balls are, whether
the white is in hand, the foul the incoming player may respond to (with the position before it,
for Section 3 Rules 10(i), 14(b) and 16 "replace"), the FOUL AND A MISS sequence, and the stroke
being accumulated. Nothing in it is ever mutated: the reducer builds a new state with
:func:`dataclasses.replace`, so the position before a stroke is simply the old state object.

The ball on (``on``) is one of ``"red"``, ``"colour"`` (a colour of the striker's choice after a
Red, Section 3 Rule 3(h)), a colour's name (the colours in ascending order, Rule 3(h)(iii);
``"black"`` also during a re-spotted black) or ``"none"`` once the frame is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from adjudicator.eventlog import InputEvent
from calibration.table import BALL_VALUES, COLOURS_ASCENDING, Colour, colour_of

Position = tuple[float, float]
Positions = Mapping[str, Position]

T = TypeVar("T")

RED = "red"
COLOUR = "colour"
NONE = "none"


def evolve(obj: T, **changes: Any) -> T:
    """A new frozen dataclass like ``obj`` with ``changes``: :func:`dataclasses.replace` without
    re-running ``__init__`` (five times faster; the reducer builds a state per event). The old
    object is untouched."""
    unknown = changes.keys() - obj.__dict__.keys()
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field(s) {sorted(unknown)}")
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new


def freeze(positions: Mapping[str, Position]) -> Positions:
    """A read-only copy of a positions mapping."""
    return MappingProxyType({k: (float(v[0]), float(v[1])) for k, v in positions.items()})


def is_red(ball: str) -> bool:
    """Whether an event-log ball name is a red."""
    return ball.startswith("red")


def value(ball: str) -> int:
    """Value of a ball (Section 3 Rule 1(a)); the white is worth nothing."""
    colour = colour_of(ball)
    return 0 if colour is Colour.WHITE else BALL_VALUES[colour]


def on_value(on: str, nominated: str | None = None) -> int:
    """Value of the ball on for penalties: one for Red, the nominated colour's after a Red (zero
    when none is nominated yet), the colour's own value in the clearing order."""
    if on == RED:
        return 1
    if on == COLOUR:
        return value(nominated) if nominated and not is_red(nominated) else 0
    if on == NONE:
        return 0
    return value(on)


def reds_on_table(positions: Positions) -> int:
    """Reds still on the playing area."""
    return sum(1 for b in positions if is_red(b))


def base_on(positions: Positions) -> str:
    """The ball on at the start of a turn: Red while Reds remain (Rule 3(g)), else the lowest
    colour on the table (Rule 3(h)(iii)); ``"none"`` when nothing is left."""
    if reds_on_table(positions):
        return RED
    for colour in COLOURS_ASCENDING:
        if colour.value in positions:
            return colour.value
    return NONE


def points_remaining(positions: Positions, on: str) -> int:
    """Most points the balls left can still give: eight per Red (Red then Black), the colours
    on the table, and seven more when a colour is on after a Red (Section 3 Rule 1(e))."""
    total = 8 * reds_on_table(positions)
    total += sum(BALL_VALUES[c] for c in COLOURS_ASCENDING if c.value in positions)
    if on == COLOUR:
        total += BALL_VALUES[Colour.BLACK]
    return total


def needs_snookers(scores: tuple[int, int], player: int, remaining: int) -> bool:
    """Whether ``player`` requires penalty points: behind by more than is left on the table."""
    return scores[1 - player] - scores[player] > remaining


@dataclass(frozen=True)
class MissRun:
    """A sequence of FOUL AND A MISS calls from one original position (Section 3 Rule 14(d),
    Rule 19(a)-(c) in Six Reds). ``count`` counts calls in the sequence; ``full_ball`` is whether
    the sequence qualifies for the frame award (full-ball contact or touching ball)."""

    offender: int = 0
    count: int = 0
    full_ball: bool = False
    warned: bool = False


@dataclass(frozen=True)
class FoulContext:
    """The last foul, while the non-offender may still elect (Section 3 Rules 10(h)-(i), 14(b)).

    Attributes:
        offender: the player who fouled.
        original: the state before the foul (for ``replace``), with its own foul context cleared.
        miss: the foul was called FOUL AND A MISS.
        replace_allowed: ``replace`` is a legal election (a miss, a foul before striking,
            a ball moved on purpose: Rules 10(i), 14(b), 16(a)(ii)).
        free_ball: FREE BALL was called for the incoming player.
    """

    offender: int
    original: FrameState
    miss: bool = False
    replace_allowed: bool = False
    free_ball: bool = False


@dataclass(frozen=True)
class Stroke:
    """A stroke in progress: the state at ``strike`` and the events since, in order."""

    t: float
    start: FrameState
    events: tuple[InputEvent, ...] = ()


@dataclass(frozen=True)
class FrameState:
    """The referee's whole memory between two events (see the module docstring)."""

    players: tuple[str, str] = ("Player 1", "Player 2")
    reds_start: int = 15
    scores: tuple[int, int] = (0, 0)
    striker: int = 0
    brk: int = 0
    positions: Positions = field(default_factory=lambda: freeze({}))
    in_hand: bool = True
    placed: bool = False
    on: str = RED
    nominated: str | None = None
    free_ball: bool = False
    touching: tuple[str, ...] = ()
    foul: FoulContext | None = None
    misses: MissRun = MissRun()
    replayed_after_miss: bool = False
    anywhere: bool = False
    stroke: Stroke | None = None
    pending_respots: Mapping[str, Position] = field(default_factory=lambda: freeze({}))
    respotted_black: bool = False
    over: bool = False
    started: bool = False
    seed: int = 0

    @property
    def six_reds(self) -> bool:
        """Section 3 Rule 19: a frame started with six Reds."""
        return self.reds_start == 6

    @property
    def reds(self) -> int:
        """Reds on the table."""
        return reds_on_table(self.positions)

    @property
    def opponent(self) -> int:
        """The player who is not the striker."""
        return 1 - self.striker

    def objects(self) -> dict[str, Position]:
        """Object balls on the table."""
        return {k: v for k, v in self.positions.items() if k != Colour.WHITE.value}

    def remaining(self) -> int:
        """Points remaining on the table for the current ball on."""
        return points_remaining(self.positions, self.on)
