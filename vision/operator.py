"""The operator's inputs: what a camera above the table cannot see.

A nominated ball, the non-offender's choice after a foul, an infringement (a push stroke, a
touched ball...) and a concession come from a person, either as keys in the live terminal
view or as an ``--inputs`` event file in the contract's format. Both become contract input
events merged into the camera's log by time, so the referee sees one stream.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from adjudicator.eventlog import Choice, Concede, Infringement, InputEvent, Nominate, read_events
from calibration.errors import BaulklineError

OPERATOR_TYPES = (Nominate, Choice, Infringement, Concede)

#: Keys of the live view. Colours by their value (2 yellow ... 7 black).
KEYS: dict[str, str] = {
    "2": "nominate yellow",
    "3": "nominate green",
    "4": "nominate brown",
    "5": "nominate blue",
    "6": "nominate pink",
    "7": "nominate black",
    "p": "choice: play from here",
    "a": "choice: offender plays again",
    "r": "choice: replace and play again",
    "x": "infringement: push stroke",
    "t": "infringement: ball touched",
    "q": "concede the frame (striker)",
}
_NOMINATE = {"2": "yellow", "3": "green", "4": "brown", "5": "blue", "6": "pink", "7": "black"}


def read_operator_inputs(path: Path) -> list[InputEvent]:
    """Operator events from a file; only the types a person keys are allowed.

    Raises:
        BaulklineError: the file is unreadable, a line is invalid, or it holds camera events.
    """
    try:
        with path.open() as fh:
            events = list(read_events(fh, source=str(path)))
    except OSError as exc:
        raise BaulklineError(f"{path}: cannot read operator inputs ({exc.strerror})") from None
    for i, event in enumerate(events, start=1):
        if not isinstance(event, OPERATOR_TYPES):
            raise BaulklineError(
                f"{path}: event {i} is a '{event.type}': operator inputs may only be "
                "nominate, choice, infringement or concede"
            )
    return events


def event_for_key(key: str, t: float, striker: int) -> InputEvent | None:
    """The event a key in the live view stands for, or ``None`` for an unknown key."""
    if key in _NOMINATE:
        return Nominate(t=t, ball=_NOMINATE[key])
    if key == "p":
        return Choice(t=t, option="play")
    if key == "a":
        return Choice(t=t, option="play_again")
    if key == "r":
        return Choice(t=t, option="replace")
    if key == "x":
        return Infringement(t=t, kind="push_stroke", player=striker)
    if key == "t":
        return Infringement(t=t, kind="touched_ball", player=striker)
    if key == "q":
        return Concede(t=t, player=striker)
    return None


@dataclass
class OperatorQueue:
    """Operator events waiting to be merged into the camera's log in time order."""

    pending: list[tuple[float, int, InputEvent]]
    _counter: int = 0

    @classmethod
    def of(cls, events: Iterable[InputEvent]) -> OperatorQueue:
        """A queue holding ``events``."""
        q = cls([])
        for e in events:
            q.push(e)
        return q

    def push(self, event: InputEvent) -> None:
        """Add an event (a key pressed now, or one read from a file)."""
        self._counter += 1
        heapq.heappush(self.pending, (event.t, self._counter, event))

    def due(self, t: float) -> Iterator[InputEvent]:
        """Pop, in order, every event at or before ``t``."""
        while self.pending and self.pending[0][0] <= t:
            yield heapq.heappop(self.pending)[2]
