"""Fouls of Section 3 Rule 11 and their penalty values, as small pure predicates.

Each predicate looks at the stroke being judged (its :class:`~adjudicator.stroke.StrokeFacts`,
the :class:`Target` of what was on, the state at ``strike`` and the final positions) and returns
the fouls it finds. :func:`penalty` then applies Rule 10(g): the highest value wins; every value
is at least four (Rule 11 preamble).

Implemented (value rule in brackets; "on" = value of the ball on, "concerned" = value of the ball
concerned, whichever is higher):

- 11(a)(i) ``played_before_spotted`` (infringement) [on/concerned, 11(b)(ii) covers both];
  11(a)(ii) ``struck_twice`` [on]; 11(a)(iii) ``feet_off_floor`` [on]; 11(a)(iv)
  ``played_out_of_turn`` [on]; 11(a)(v) ``improper_in_hand``: a white placed outside the D and
  struck, or keyed [on]; 11(a)(vi) ``no_ball_hit`` [on]; 11(a)(vii) ``cue_ball_pocketed`` [on];
  11(a)(viii) ``snookered_behind_free_ball`` (Rule 12(b)(ii)) [on]; 11(a)(ix)
  ``snookered_behind_nominated_ball`` (Six Reds, Rule 19(d)) [on]; 11(a)(x) ``jump_shot``
  (infringement) [on]; 11(a)(xi) ``non_standard_cue`` (``length_of_cue_exceeded``) [on];
  11(a)(xii) ``conferring`` (infringement) [on].
- 11(b)(i) ``struck_not_at_rest``; 11(b)(iii) ``ball_not_on_pocketed``; 11(b)(iv)
  ``wrong_ball_first`` / ``free_ball_not_hit_first``; 11(b)(v) ``push_stroke`` (touching ball
  moved, or keyed); 11(b)(vi) ``touched_ball`` / ``caused_ball_to_move`` /
  ``touched_with_other_than_tip``; 11(b)(vii) ``cue_ball_touched_in_hand`` (keyed
  ``improper_in_hand``); 11(b)(viii) ``ball_contacted_equipment``; 11(b)(x)
  ``ball_off_table`` / ``cue_ball_off_table`` [all on/concerned].
- 11(c) ``simultaneous_hit``: two balls first hit together other than two Reds (Red on) or the
  nominated free ball and a ball on [on or the higher of the two].
- 11(d) seven points: (i) ``used_ball_off_table`` (``used_ball_as_marker``); (ii)
  ``measured_gap``; (iii) ``reds_in_successive_strokes`` (a Red hit first while a colour is
  on after a Red or a free ball taken as a Red); (iv) ``used_non_cue_ball``; (v)
  ``failed_to_declare``; (vi) ``no_colour_nominated`` (a foul after a Red with no colour declared
  and none inferable from the first ball hit).
- Penalties (non-striker, Rule 3(k)): 11(e) ``non_striker_infringement`` [on/concerned];
  11(f) ``contact_during_consultation`` [7]; 11(g) ``used_ball_off_table`` /
  ``measured_gap`` by the non-striker [7].

Not implemented: 11(b)(ix) does not exist in the 2022 text; ``played_with_ball_wrongly_spotted``
is no foul under Rule 7(c) (the engine gives a ``notice``). Unknown keyed kinds are fouls at
[on/concerned] with a ``notice``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from adjudicator import snookered as geo
from adjudicator.state import FrameState, Position, base_on, is_red, value
from adjudicator.stroke import StrokeFacts
from adjudicator.target import Target, balls_on
from calibration.table import TABLE

MIN_PENALTY = 4
SEVEN = 7


class Reason(StrEnum):
    """Stable snake_case codes of every foul and penalty the referee can call."""

    NO_BALL_HIT = "no_ball_hit"
    WRONG_BALL_FIRST = "wrong_ball_first"
    FREE_BALL_NOT_HIT_FIRST = "free_ball_not_hit_first"
    SIMULTANEOUS_HIT = "simultaneous_hit"
    REDS_IN_SUCCESSIVE_STROKES = "reds_in_successive_strokes"
    NO_COLOUR_NOMINATED = "no_colour_nominated"
    CUE_BALL_POCKETED = "cue_ball_pocketed"
    CUE_BALL_OFF_TABLE = "cue_ball_off_table"
    BALL_NOT_ON_POCKETED = "ball_not_on_pocketed"
    BALL_OFF_TABLE = "ball_off_table"
    PUSH_STROKE = "push_stroke"
    IMPROPER_IN_HAND = "improper_in_hand"
    CUE_BALL_TOUCHED_IN_HAND = "cue_ball_touched_in_hand"
    SNOOKERED_BEHIND_FREE_BALL = "snookered_behind_free_ball"
    SNOOKERED_BEHIND_NOMINATED_BALL = "snookered_behind_nominated_ball"
    JUMP_SHOT = "jump_shot"
    STRUCK_TWICE = "struck_twice"
    FEET_OFF_FLOOR = "feet_off_floor"
    PLAYED_OUT_OF_TURN = "played_out_of_turn"
    STRUCK_NOT_AT_REST = "struck_not_at_rest"
    PLAYED_BEFORE_SPOTTED = "played_before_spotted"
    TOUCHED_BALL = "touched_ball"
    CAUSED_BALL_TO_MOVE = "caused_ball_to_move"
    TOUCHED_WITH_OTHER_THAN_TIP = "touched_with_other_than_tip"
    BALL_CONTACTED_EQUIPMENT = "ball_contacted_equipment"
    NON_STANDARD_CUE = "non_standard_cue"
    CONFERRING = "conferring"
    USED_BALL_OFF_TABLE = "used_ball_off_table"
    MEASURED_GAP = "measured_gap"
    USED_NON_CUE_BALL = "used_non_cue_ball"
    FAILED_TO_DECLARE = "failed_to_declare"
    OTHER_INFRINGEMENT = "other_infringement"
    NON_STRIKER_INFRINGEMENT = "non_striker_infringement"
    CONTACT_DURING_CONSULTATION = "contact_during_consultation"


class Value(StrEnum):
    """How a foul's penalty is valued (Rule 11 (a)-(d))."""

    ON = "on"  # value of the ball on
    ON_OR_CONCERNED = "on_or_concerned"  # the higher of the ball on and the ball concerned
    SEVEN = "seven"


#: Rule 11 reading of each keyed ``infringement`` kind: (reason, how it is valued).
INFRINGEMENTS: dict[str, tuple[Reason, Value]] = {
    "push_stroke": (Reason.PUSH_STROKE, Value.ON_OR_CONCERNED),
    "jump_shot": (Reason.JUMP_SHOT, Value.ON),
    "touched_ball": (Reason.TOUCHED_BALL, Value.ON_OR_CONCERNED),
    "struck_not_at_rest": (Reason.STRUCK_NOT_AT_REST, Value.ON_OR_CONCERNED),
    "feet_off_floor": (Reason.FEET_OFF_FLOOR, Value.ON),
    "improper_in_hand": (Reason.CUE_BALL_TOUCHED_IN_HAND, Value.ON_OR_CONCERNED),
    "struck_twice": (Reason.STRUCK_TWICE, Value.ON),
    "played_out_of_turn": (Reason.PLAYED_OUT_OF_TURN, Value.ON),
    "played_improperly_from_in_hand": (Reason.IMPROPER_IN_HAND, Value.ON),
    "caused_ball_to_move": (Reason.CAUSED_BALL_TO_MOVE, Value.ON_OR_CONCERNED),
    "used_ball_as_marker": (Reason.USED_BALL_OFF_TABLE, Value.SEVEN),
    "used_ball_off_table": (Reason.USED_BALL_OFF_TABLE, Value.SEVEN),
    "measured_gap": (Reason.MEASURED_GAP, Value.SEVEN),
    "used_object_to_measure": (Reason.MEASURED_GAP, Value.SEVEN),
    "used_non_cue_ball": (Reason.USED_NON_CUE_BALL, Value.SEVEN),
    "failed_to_declare": (Reason.FAILED_TO_DECLARE, Value.SEVEN),
    "touched_with_other_than_tip": (Reason.TOUCHED_WITH_OTHER_THAN_TIP, Value.ON_OR_CONCERNED),
    "played_before_spotted": (Reason.PLAYED_BEFORE_SPOTTED, Value.ON_OR_CONCERNED),
    "length_of_cue_exceeded": (Reason.NON_STANDARD_CUE, Value.ON),
    "non_standard_cue": (Reason.NON_STANDARD_CUE, Value.ON),
    "ball_contacted_equipment": (Reason.BALL_CONTACTED_EQUIPMENT, Value.ON_OR_CONCERNED),
    "conferring": (Reason.CONFERRING, Value.ON),
    "contact_during_consultation": (Reason.CONTACT_DURING_CONSULTATION, Value.SEVEN),
    "other": (Reason.OTHER_INFRINGEMENT, Value.ON_OR_CONCERNED),
}

#: Keyed kinds that are not fouls under the 2022 rules (Rule 7(c)); the engine notices them.
NOT_FOULS = frozenset({"played_with_ball_wrongly_spotted"})

#: Reasons meaning the cue-ball failed to first hit a ball on (Section 2 Rule 21, Rule 14).
MISS_REASONS = frozenset(
    {
        Reason.NO_BALL_HIT,
        Reason.WRONG_BALL_FIRST,
        Reason.FREE_BALL_NOT_HIT_FIRST,
        Reason.REDS_IN_SUCCESSIVE_STROKES,
    }
)


@dataclass(frozen=True)
class Foul:
    """One foul: its reason, its penalty (already at least four) and the ball concerned."""

    reason: Reason
    penalty: int
    ball: str | None = None


def valued(reason: Reason, rule: Value, on_value: int, concerned: Iterable[str | None] = ()) -> Foul:
    """A foul valued by ``rule``: Rule 11's minimum of four, the value of the ball on, the value
    of the ball(s) concerned when higher, or seven."""
    balls = [b for b in concerned if b]
    if rule is Value.SEVEN:
        return Foul(reason, SEVEN, balls[0] if balls else None)
    points = on_value
    ball = None
    if rule is Value.ON_OR_CONCERNED:
        for b in balls:
            if value(b) > points:
                points, ball = value(b), b
    return Foul(reason, max(MIN_PENALTY, points), ball)


def infringement_foul(kind: str, ball: str | None, on_value: int) -> Foul:
    """The foul of a keyed infringement (unknown kinds count as ``other``)."""
    reason, rule = INFRINGEMENTS.get(kind, INFRINGEMENTS["other"])
    return valued(reason, rule, on_value, [ball])


def penalty(fouls: Iterable[Foul]) -> Foul | None:
    """Rule 10(g): of several fouls in one stroke the highest penalty is incurred (the first
    found wins a tie, so the reason names the most basic fault)."""
    best: Foul | None = None
    for foul in fouls:
        if best is None or foul.penalty > best.penalty:
            best = foul
    return best


# ---- predicates over one stroke -------------------------------------------------------------

#: A touching ball that moved more than this (mm) between two rests was moved by the stroke.
MOVED_TOL: float = 2.0
WHITE = "white"


def first_contact(facts: StrokeFacts, target: Target) -> tuple[str, ...]:
    """The ball(s) the cue-ball is taken to have hit first (a touching ball on played away from
    counts as hit, Rule 8(c))."""
    return (target.deemed_first,) if target.deemed_first else facts.first


def contact_fouls(start: FrameState, facts: StrokeFacts, target: Target) -> list[Foul]:
    """Rule 11(a)(vi), 11(b)(iv), 11(c), 11(d)(iii), Rule 12(b)(i): the first contact."""
    first = first_contact(facts, target)
    on_value = target.on_value
    if not first:
        return [valued(Reason.NO_BALL_HIT, Value.ON, on_value)]
    if len(first) == 1:
        ball = first[0]
        if ball in target.legal_first:
            return []
        if target.on == "colour" and is_red(ball):
            return [Foul(Reason.REDS_IN_SUCCESSIVE_STROKES, SEVEN, ball)]
        if target.free_ball is not None:
            return [valued(Reason.FREE_BALL_NOT_HIT_FIRST, Value.ON_OR_CONCERNED, on_value, [ball])]
        return [valued(Reason.WRONG_BALL_FIRST, Value.ON_OR_CONCERNED, on_value, [ball])]
    legal = [b for b in first if b in target.legal_first]
    if target.on == "red" and all(is_red(b) for b in first):
        return []  # two or more Reds together (Rule 6)
    if (
        target.free_ball is not None
        and target.free_ball in first
        and all(b in target.legal_first for b in first)
    ):
        return []  # the free ball with a ball on (Rule 12(b)(i))
    if target.on == "colour" and any(is_red(b) for b in first) and not legal:
        return [Foul(Reason.REDS_IN_SUCCESSIVE_STROKES, SEVEN, next(b for b in first if is_red(b)))]
    concerned = [b for b in first if target.free_ball is None or b != target.free_ball]
    return [valued(Reason.SIMULTANEOUS_HIT, Value.ON_OR_CONCERNED, on_value, concerned)]


def pocket_fouls(facts: StrokeFacts, target: Target) -> list[Foul]:
    """Rule 11(a)(vii), 11(b)(iii), 11(b)(x): balls pocketed or forced off the table."""
    fouls: list[Foul] = []
    on_value = target.on_value
    for ball in facts.potted:
        if ball == WHITE:
            fouls.append(valued(Reason.CUE_BALL_POCKETED, Value.ON, on_value))
        elif ball not in target.legal_pots:
            fouls.append(valued(Reason.BALL_NOT_ON_POCKETED, Value.ON_OR_CONCERNED, on_value, [ball]))
    for ball in facts.off:
        if ball == WHITE:
            fouls.append(valued(Reason.CUE_BALL_OFF_TABLE, Value.ON, on_value))
        else:
            concerned = [] if ball == target.free_ball else [ball]
            fouls.append(valued(Reason.BALL_OFF_TABLE, Value.ON_OR_CONCERNED, on_value, concerned))
    return fouls


def push_fouls(
    start: FrameState, facts: StrokeFacts, target: Target, final: Mapping[str, Position]
) -> list[Foul]:
    """Rule 8(b), 11(b)(v): a touching ball moved by the stroke (the cue-ball went into it, or it
    moved with no other ball touching it) is a push stroke."""
    fouls = []
    for ball in start.touching:
        before = start.positions.get(ball)
        if before is None:
            continue
        into = facts.white_first_event == ball
        after = final.get(ball)
        moved = after is None or abs(after[0] - before[0]) + abs(after[1] - before[1]) > MOVED_TOL
        if into or (moved and ball not in facts.collided):
            fouls.append(valued(Reason.PUSH_STROKE, Value.ON_OR_CONCERNED, target.on_value, [ball]))
    return fouls


def in_hand_fouls(start: FrameState, placed_at: Position | None, target: Target) -> list[Foul]:
    """Section 3 Rule 5, 11(a)(v): from in-hand the white must be struck on or within the D."""
    if not start.in_hand or start.anywhere or placed_at is None:
        return []
    if TABLE.in_d(placed_at[0], placed_at[1], tol=1.0):
        return []
    return [valued(Reason.IMPROPER_IN_HAND, Value.ON, target.on_value)]


def snooker_fouls(
    start: FrameState, facts: StrokeFacts, target: Target, final: Mapping[str, Position], scored: bool
) -> list[Foul]:
    """Rule 12(b)(ii) / 11(a)(viii) and, in Six Reds, Rule 19(d) / 11(a)(ix): after a
    non-scoring stroke the cue-ball must not be left snookered by the nominated free ball
    (except when Pink and Black are the only object balls) or by the colour nominated after a
    Red."""
    if scored or WHITE not in final:
        return []
    culprit: str | None = None
    reason = Reason.SNOOKERED_BEHIND_FREE_BALL
    if target.free_ball is not None:
        objects = {b for b in final if b != WHITE}
        if objects <= {"pink", "black"}:
            return []
        culprit = target.free_ball
    elif start.six_reds and target.on == "colour" and target.nominated is not None:
        culprit = target.nominated
        reason = Reason.SNOOKERED_BEHIND_NOMINATED_BALL
    if culprit is None or culprit not in final:
        return []
    next_on = base_on(final)
    on = {b: final[b] for b in balls_on(next_on, final)}
    others = {b: p for b, p in final.items() if b != WHITE and b not in on}
    if geo.snookered_by(final[WHITE], on, others, culprit):
        return [valued(reason, Value.ON, target.on_value)]
    return []
