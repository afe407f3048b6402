"""FOUL AND A MISS: Section 3 Rule 14 (and Rule 19(a)-(c) in Six Reds).

Implemented, clause by clause:

- 14(a)/(c): a foul in which the cue-ball failed to first hit a ball on (no ball hit, a ball not
  on hit first, Reds hit after a Red, the nominated free ball not hit first) is a MISS when there
  was a clear straight path from the cue-ball to any part of any ball that is or could be on
  (:func:`adjudicator.snookered.clear_path`; on a FREE BALL turn every object ball could be on).
- 14(a)(i): not called when any player required penalty points before the stroke, or as a
  result of it (points remaining on the table, :func:`adjudicator.state.points_remaining`).
  The referee being "satisfied the miss was not intentional" is assumed.
- 14(a)(ii): when no straight path exists the striker is judged by the white's path
  (:func:`escape_attempted`): not a miss only if the cue-ball went round the obstruction by a
  cushion before meeting any ball; a stroke reaching nothing, or played directly into a ball not
  on, is a miss. Swerve and strength beyond that cannot be read from the log.
- 14(b)/(e)/16: ``choice: replace`` restores the position before the stroke (the engine keeps
  that state object) with the same ball on; 14(e) a foul without a stroke during a sequence is
  no miss (there is no stroke).
- 14(d): a sequence qualifies for the frame award when full-ball contact was available
  (:func:`full_ball_available`: a Red's full diameter unobstructed by a colour, or the stroke at a
  colour's centre clear; from in-hand, not snookered from the D) or the cue-ball was touching a
  ball that could be on. (i) a further failure from the original position is a MISS
  regardless of the scores; (ii) after the second, when replace is asked, a ``warning``; a third
  failure after the warning awards the frame (``frame_end`` reason ``frame_awarded_three_misses``);
  (iii) playing from the position left ends the sequence.
- 19(a)-(c) Six Reds: no frame award; after the fourth consecutive miss (on ``replace``) a
  ``warning``; after the fifth the non-offender may play the white from anywhere on the bed
  unless penalty points were needed (Rule 12 then does not apply: no free ball).

Not implemented: judging intent beyond the log (a deliberate miss when snookers are needed is
not a MISS here).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from adjudicator import snookered as geo
from adjudicator.fouls import MISS_REASONS, Foul, Reason
from adjudicator.state import COLOUR, MissRun, Position, needs_snookers, points_remaining
from adjudicator.stroke import StrokeFacts
from adjudicator.target import Target, balls_on

WHITE = "white"


@dataclass(frozen=True)
class MissVerdict:
    """Whether FOUL AND A MISS is called, and whether full-ball contact was available."""

    called: bool
    full_ball: bool
    sequence: MissRun


def could_be_on(on: str, positions: Mapping[str, Position], free_ball: bool) -> list[str]:
    """Balls that are, or could be, on: every object ball on a FREE BALL turn."""
    if free_ball:
        return [b for b in positions if b != WHITE]
    return balls_on(on if on != COLOUR else COLOUR, positions)


def anyone_needs_points(scores: tuple[int, int], remaining: int) -> bool:
    """Rule 14(a)(i): either player requires penalty points."""
    return needs_snookers(scores, 0, remaining) or needs_snookers(scores, 1, remaining)


def judge_miss(
    *,
    striker: int,
    on: str,
    positions: Mapping[str, Position],
    cue: Position | None,
    free_ball: bool,
    touching: tuple[str, ...],
    facts: StrokeFacts,
    target: Target,
    fouls: list[Foul],
    scores_before: tuple[int, int],
    scores_after: tuple[int, int],
    positions_after: Mapping[str, Position],
    on_after: str,
    run: MissRun,
    replayed: bool,
    six_reds: bool,
) -> MissVerdict:
    """Decide FOUL AND A MISS for a foul stroke and the sequence it continues or starts."""
    reasons = {f.reason for f in fouls}
    failed = bool(reasons & MISS_REASONS) and Reason.SIMULTANEOUS_HIT not in reasons
    if target.deemed_first is not None:
        failed = False
    no_call = MissVerdict(False, False, MissRun())
    if not failed:
        return no_call
    targets_named = could_be_on(on, positions, free_ball)
    targets = [positions[b] for b in targets_named if b in positions]
    others = [p for b, p in positions.items() if b != WHITE and b not in targets_named]
    reds = [positions[b] for b in targets_named if b in positions and b.startswith("red")]
    colours = [positions[b] for b in targets_named if b in positions and not b.startswith("red")]
    if cue is None:
        clear = geo.clear_path_in_hand(targets, others)
        full = not geo.snookered_in_hand(targets, others)
    else:
        clear = geo.clear_path(cue, targets, others)
        full = full_ball_available(cue, reds, colours, others)
    full = full or any(b in targets_named for b in touching)
    in_sequence = replayed and run.count >= 1 and run.offender == striker
    needed = anyone_needs_points(scores_before, points_remaining(positions, on)) or anyone_needs_points(
        scores_after, points_remaining(positions_after, on_after)
    )
    regardless = in_sequence and run.full_ball and not six_reds  # 14(d)(i)
    # 14(c) with a clear path; else 14(a)(ii), judged by the white's path
    attempted = not clear and escape_attempted(facts)
    called = not attempted and (regardless or not needed)
    if not called:
        return no_call
    if in_sequence:
        seq = MissRun(striker, run.count + 1, run.full_ball, run.warned)
    else:
        seq = MissRun(striker, 1, full, False)
    return MissVerdict(True, full, seq)


def full_ball_available(
    cue: Position, reds: list[Position], colours: list[Position], others: list[Position]
) -> bool:
    """Rule 14(d): "central, full ball, contact was available (in the case of Reds, this to be
    taken as a full diameter of any Red that is not obstructed by a colour)": a Red counts when
    both its extreme edges are free (Section 2 Rule 17's test, the obstacles being balls not on),
    a colour when the straight stroke at its centre meets it first."""
    if reds and bool(np.any(geo.free_balls(cue, reds, others))):
        return True
    return geo.centre_clear(cue, colours, [*others, *reds])


def escape_attempted(facts: StrokeFacts) -> bool:
    """Rule 14(a)(ii) when snookered (no straight path): the striker is taken to have attempted
    the ball on only when the white's path went round the obstruction, i.e. it reached a cushion
    before any ball. A weak stroke reaching nothing, or a direct stroke into a ball not on (the
    white played straight at the obstruction), is not an attempt at the ball on. Swerve cannot be
    read from the log; a swerve that clips the snookering ball is judged a miss, as referees
    usually do when no penalty points are needed."""
    return facts.cushion_before_first or (facts.white_cushion and not facts.white_contacts)


def frame_awarded(seq: MissRun, six_reds: bool) -> bool:
    """Rule 14(d)(ii): a third miss in a full-ball sequence, after the Warning, loses the frame
    (never in Six Reds, Rule 19)."""
    return not six_reds and seq.full_ball and seq.count >= 3 and seq.warned


def warning_due(seq: MissRun, six_reds: bool) -> str | None:
    """The Warning to give when ``replace`` is asked after a miss, if one is due."""
    if six_reds:
        return "fifth_miss_gives_ball_anywhere" if seq.count == 4 else None
    if seq.full_ball and seq.count >= 2 and not seq.warned:
        return "third_miss_awards_frame"
    return None
