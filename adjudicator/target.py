"""What the striker is on for one stroke: the ball(s) they may hit first and pot.

Implemented, clause by clause:

- Section 2 Rule 11 (ball on) and Section 3 Rule 3(g)-(h): Red while Reds remain; after a Red
  (or a free ball taken as a Red) a colour of the striker's choice; then the colours in
  ascending order.
- Section 2 Rule 12 and the contract's ``nominate``: the nominated colour is the one declared,
  else the one the cue-ball hit first (as referees infer an obvious nomination), else the
  touching colour when the cue-ball was touching exactly one colour (Rule 8(a)).
- Section 2 Rule 13, Section 3 Rule 12(a): on a FREE BALL turn a declared ball that is not on is
  the nominated free ball; without a declaration the ball not on that the cue-ball hit first is
  taken as nominated. It acquires the value of the ball on (12(a)(ii)).
- Section 3 Rule 8(c): a touching ball that is on (or could be on and is declared) counts as
  hit when the striker plays away from it without moving it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adjudicator.state import COLOUR, RED, FrameState, Position, is_red, on_value
from adjudicator.stroke import StrokeFacts

WHITE = "white"


@dataclass(frozen=True)
class Target:
    """What was on for the stroke being judged.

    Attributes:
        on: the state's ball on (``red``, ``colour`` or a colour name).
        legal_first: balls the cue-ball may hit first.
        legal_pots: balls that may be potted (and score).
        on_value: value of the ball on for penalties (the nominated colour's after a Red).
        nominated: the nominated colour when a colour is on after a Red.
        free_ball: the nominated free ball, if any.
        deemed_first: a touching ball on that counts as hit first when played away from.
    """

    on: str
    legal_first: frozenset[str]
    legal_pots: frozenset[str]
    on_value: int
    nominated: str | None
    free_ball: str | None
    deemed_first: str | None

    @property
    def unnominated(self) -> bool:
        """A colour is on after a Red and none was declared or can be inferred."""
        return self.on == COLOUR and self.nominated is None


def balls_on(on: str, positions: Mapping[str, Position]) -> list[str]:
    """The object balls that are on (or, after a Red, could be on)."""
    if on == RED:
        return [b for b in positions if is_red(b)]
    if on == COLOUR:
        return [b for b in positions if b != WHITE and not is_red(b)]
    return [on] if on in positions else []


def resolve(start: FrameState, facts: StrokeFacts) -> Target:
    """The target of a stroke from the state at ``strike`` and what the stroke did."""
    on = start.on
    objects = [b for b in start.positions if b != WHITE]
    on_balls = set(balls_on(on, start.positions)) if on != COLOUR else set()
    declared = start.nominated if start.nominated in objects else None
    touching = [b for b in start.touching if b in start.positions]
    free: str | None = None
    if start.free_ball and on != COLOUR:
        if declared is not None and declared not in on_balls:
            free = declared
        elif declared is None:
            not_on = [b for b in facts.first if b not in on_balls]
            if len(not_on) == 1:
                free = not_on[0]
            elif not facts.first:
                touching_not_on = [b for b in touching if b not in on_balls]
                if len(touching_not_on) == 1 and not [b for b in touching if b in on_balls]:
                    free = touching_not_on[0]
    nominated: str | None = None
    if on == COLOUR:
        colours = [b for b in objects if not is_red(b)]
        if declared is not None and not is_red(declared):
            nominated = declared
        elif len(facts.first) == 1 and facts.first[0] in colours:
            nominated = facts.first[0]
        elif not facts.first:
            touching_colours = [b for b in touching if b in colours]
            if len(touching_colours) == 1:
                nominated = touching_colours[0]
        legal = frozenset({nominated}) if nominated else frozenset()
    else:
        legal = frozenset(on_balls | ({free} if free else set()))
    ball_on_value = on_value(on, nominated)
    deemed = None
    for ball in touching:
        if ball in legal and (free is None or ball == free or ball in on_balls):
            deemed = ball
            break
    return Target(
        on=on,
        legal_first=legal,
        legal_pots=legal,
        on_value=ball_on_value,
        nominated=nominated,
        free_ball=free,
        deemed_first=deemed,
    )
