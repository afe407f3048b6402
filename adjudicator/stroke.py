"""What happened in one stroke, read off its accumulated events.

A stroke (Section 2 Rule 6) runs from ``strike`` to ``rest``. The referee needs a few facts
from it: which ball(s) the cue-ball hit first (several at the same ``t`` were hit
simultaneously, Section 3 Rule 6), which balls entered pockets or left the table, and whether
the cue-ball reached a cushion or a ball at all (the strength test of Rule 14(a)(ii)). A ball
that is reported potted but is again on the playing area at ``rest`` rebounded out of the
pocket and does not count as potted (Section 3 Rule 3(m)).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adjudicator.eventlog import Collision, Cushion, Infringement, InputEvent, OffTable, Pot

WHITE = "white"
#: Two collisions closer in time than this (s) are simultaneous.
SIMULTANEOUS: float = 1e-9


@dataclass(frozen=True)
class StrokeFacts:
    """Facts of one stroke.

    Attributes:
        first: the ball(s) the cue-ball contacted first; two or more means simultaneous.
        first_t: the time of that first contact (``None`` when the cue-ball hit nothing).
        white_contacts: every ball the cue-ball touched, in order.
        white_cushion: the cue-ball touched a cushion.
        cushion_before_first: it touched a cushion before its first ball (indirect stroke).
        potted: balls that entered a pocket and stayed there, in order.
        off: balls forced off the table.
        collided: every ball named in any collision.
        first_event_of: the first collision partner of each ball (for push-stroke checks).
        infringements: operator-keyed infringements during the stroke.
        rebounded: balls reported potted but back on the bed at rest (Rule 3(m)).
    """

    first: tuple[str, ...]
    first_t: float | None
    white_contacts: tuple[str, ...]
    white_cushion: bool
    cushion_before_first: bool
    potted: tuple[str, ...]
    off: tuple[str, ...]
    collided: frozenset[str]
    white_first_event: str | None
    infringements: tuple[Infringement, ...]
    rebounded: tuple[str, ...]


def stroke_facts(events: tuple[InputEvent, ...], rest: Mapping[str, object] | None) -> StrokeFacts:
    """Read the facts of a stroke from its events; ``rest`` is the final positions if known."""
    first: list[str] = []
    first_t: float | None = None
    contacts: list[str] = []
    white_cushion = False
    cushion_before = False
    potted: list[str] = []
    off: list[str] = []
    collided: set[str] = set()
    white_first_event: str | None = None
    infringements: list[Infringement] = []
    rebounded: list[str] = []
    for ev in events:
        if isinstance(ev, Collision):
            a, b = ev.balls
            collided.update((a, b))
            if WHITE in (a, b) and a != b:
                other = b if a == WHITE else a
                if white_first_event is None:
                    white_first_event = other
                contacts.append(other)
                if first_t is None:
                    first_t = ev.t
                    first.append(other)
                elif abs(ev.t - first_t) <= SIMULTANEOUS and other not in first:
                    first.append(other)
        elif isinstance(ev, Cushion):
            if ev.ball == WHITE:
                white_cushion = True
                if white_first_event is None:
                    white_first_event = "cushion"
                if first_t is None:
                    cushion_before = True
        elif isinstance(ev, Pot):
            if rest is not None and ev.ball in rest:
                if ev.ball not in rebounded:
                    rebounded.append(ev.ball)
            elif ev.ball not in potted and ev.ball not in off:
                potted.append(ev.ball)
        elif isinstance(ev, OffTable):
            if ev.ball not in off and ev.ball not in potted:
                off.append(ev.ball)
        elif isinstance(ev, Infringement):
            infringements.append(ev)
    return StrokeFacts(
        first=tuple(first),
        first_t=first_t,
        white_contacts=tuple(contacts),
        white_cushion=white_cushion,
        cushion_before_first=cushion_before,
        potted=tuple(potted),
        off=tuple(off),
        collided=frozenset(collided),
        white_first_event=white_first_event,
        infringements=tuple(infringements),
        rebounded=tuple(rebounded),
    )
