"""Judging one completed stroke: from the state at ``strike``, the stroke's events and the
``rest`` positions, to the next state and what the referee and marker announce.

Implemented, clause by clause:

- Section 3 Rule 3(g)-(h): scoring. Every Red potted on a Red counts one (two or more Reds in a
  stroke), the nominated colour after a Red scores its value and is spotted, the colours then
  score in ascending order and stay off; a break continues while the striker pots.
- Section 2 Rule 5 and 8: the turn ends on a non-scoring stroke or a foul; ``break`` is reset.
- Section 3 Rule 10(e)-(h): no points for balls pocketed in a foul stroke; the highest penalty
  of several fouls; the penalty to the opponent; the next player plays from where the white
  stopped, or from in-hand (Section 2 Rule 9(a)(ii)-(iii)).
- Section 3 Rule 12: FREE BALL when the incoming player is snookered after a foul (in-hand: from
  every position in the D); the free ball's value, re-spot, and potting with a ball on
  (12(c)-(e)).
- Section 3 Rule 14: FOUL AND A MISS (see :mod:`adjudicator.miss`).
- Section 3 Rule 7: re-spotting colours (see :mod:`adjudicator.respot`).
- Section 3 Rule 8(a), (e): TOUCHING BALL is called for the balls on (or that could be on)
  touching the white at rest: the ``touching`` pairs of ``rest`` when given, else centres
  within one diameter plus :data:`TOUCH_TOL`.
- Section 3 Rule 4 and Section 2 Rule 1(d): with the Black the only object ball the first pot or
  foul ends the frame; on equal scores a RE-SPOTTED BLACK is called, the Black spotted, the
  white in hand and the player to play drawn by lot (:func:`draw_lot`).
- Section 3 Rule 3(m): a ball that enters a pocket and rebounds onto the bed is not potted.
- Inconsistent logs give a ``notice``: a ball missing at rest with no pot (assumed still where it
  was: a tracker loses balls far more often than it misses a pot), a pot of a ball not on the
  table (ignored), a ball appearing at rest that was not on the table (assumed on the table).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass

from adjudicator import snookered as geo
from adjudicator.eventlog import Infringement, Rest
from adjudicator.fouls import (
    NOT_FOULS,
    Foul,
    Reason,
    contact_fouls,
    in_hand_fouls,
    infringement_foul,
    penalty,
    pocket_fouls,
    push_fouls,
    snooker_fouls,
)
from adjudicator.miss import frame_awarded, judge_miss
from adjudicator.outputs import (
    Output,
    foul_call,
    frame_end_out,
    notice_out,
    plain_call,
    respot_out,
    score_out,
)
from adjudicator.respot import respot
from adjudicator.state import (
    COLOUR,
    NONE,
    RED,
    FoulContext,
    FrameState,
    MissRun,
    Position,
    base_on,
    evolve,
    freeze,
    is_red,
    needs_snookers,
    on_value,
    points_remaining,
    value,
)
from adjudicator.stroke import StrokeFacts, stroke_facts
from adjudicator.target import Target, balls_on, resolve
from calibration.table import TABLE, Colour

WHITE = "white"
#: Centres within one diameter plus this (mm) are touching when ``rest`` gives no ``touching``.
TOUCH_TOL: float = 1.0
NOT_A_FOUL = "{kind}: no penalty, the balls count as correctly spotted (Rule 7(c))"


def draw_lot(state: FrameState, t: float) -> int:
    """Rule 4(b)(ii), the players draw lots: the lot is the low bit of the SHA-256 of the two
    player names and the ``t`` (to the microsecond) of the event that tied the frame, so the
    same log always draws the same player and no one can predict it from the scores."""
    text = f"{state.players[0]}|{state.players[1]}|{t:.6f}"
    return int(hashlib.sha256(text.encode()).hexdigest(), 16) & 1


def touching_white(
    positions: Mapping[str, Position], pairs: tuple[tuple[str, str], ...] | None
) -> tuple[str, ...]:
    """Balls touching the white at rest, from the ``touching`` pairs or from the positions."""
    if WHITE not in positions:
        return ()
    if pairs is not None:
        found = {b if a == WHITE else a for a, b in pairs if WHITE in (a, b) and a != b}
        return tuple(sorted(b for b in found if b in positions))
    wx, wy = positions[WHITE]
    limit = TABLE.ball_diameter + TOUCH_TOL
    return tuple(
        sorted(b for b, (x, y) in positions.items() if b != WHITE and math.hypot(x - wx, y - wy) <= limit)
    )


def incoming_snookered(positions: Mapping[str, Position], on: str) -> bool:
    """Section 2 Rule 17 for the incoming player (17(a) when the white is in hand)."""
    on_names = balls_on(on, positions)
    targets = [positions[b] for b in on_names]
    others = [p for b, p in positions.items() if b != WHITE and b not in on_names]
    if not targets:
        return False
    if WHITE not in positions:
        return geo.snookered_in_hand(targets, others)
    return geo.snookered(positions[WHITE], targets, others)


def touching_call(t: float, touching: tuple[str, ...], on: str, free_ball: bool) -> list[Output]:
    """Rule 8(a), 8(e): TOUCHING BALL for the touching balls that are, or could be, on."""
    if free_ball:
        named = list(touching)
    elif on == RED:
        named = [b for b in touching if is_red(b)]
    elif on == COLOUR:
        named = [b for b in touching if not is_red(b)]
    else:
        named = [b for b in touching if b == on]
    return [plain_call(t, "TOUCHING BALL", named)] if named else []


@dataclass(frozen=True)
class Settled:
    """The positions a stroke left, with the notices its inconsistencies produced."""

    facts: StrokeFacts
    final: dict[str, Position]
    notices: list[Output]


def settle(start: FrameState, events: tuple, rest: Mapping[str, Position], t: float) -> Settled:
    """Reconcile the stroke's events with the rest positions (see the module docstring)."""
    facts = stroke_facts(events, rest)
    notices: list[Output] = []
    potted = []
    for ball in facts.potted:
        if ball in start.positions:
            potted.append(ball)
        else:
            notices.append(
                notice_out(t, f"{ball} was reported potted but was not on the table; pot ignored", ball)
            )
    off = [b for b in facts.off if b in start.positions]
    facts = evolve(facts, potted=tuple(potted), off=tuple(off))
    final = dict(rest)
    for ball, pos in start.positions.items():
        if ball not in rest and ball not in potted and ball not in off:
            notices.append(
                notice_out(
                    t,
                    f"{ball} vanished without a pot or leaving the table; assumed still at its last position",
                    ball,
                )
            )
            final[ball] = pos
    for ball in rest:
        if ball not in start.positions and ball != WHITE:
            notices.append(
                notice_out(t, f"{ball} appeared at rest without being on the table; assumed on it", ball)
            )
    return Settled(facts, final, notices)


def _scoring(target: Target, facts: StrokeFacts) -> tuple[int, list[str], bool]:
    """Points for a fair stroke, the colours to spot, and whether the ball on left the table."""
    pots = [b for b in facts.potted if b in target.legal_pots]
    free = target.free_ball
    if target.on == RED:
        points = sum(1 for b in pots if is_red(b) or b == free)
        return points, [b for b in pots if b == free], False
    if target.on == COLOUR:
        if target.nominated in pots:
            return value(target.nominated), [target.nominated], False
        return 0, [], False
    on_potted = target.on in pots
    free_potted = free is not None and free in pots
    points = value(target.on) if (on_potted or free_potted) else 0
    return points, ([free] if free_potted and free else []), on_potted


def judge(state: FrameState, rest: Rest) -> tuple[FrameState, list[Output]]:
    """The stroke in ``state.stroke`` is complete: decide it."""
    assert state.stroke is not None
    stroke = state.stroke
    start = stroke.start
    t = rest.t
    settled = settle(start, stroke.events, rest.positions, t)
    facts, final, outs = settled.facts, settled.final, list(settled.notices)
    target = resolve(start, facts)
    fouls: list[Foul] = []
    for inf in facts.infringements:
        if inf.kind in NOT_FOULS:
            outs.append(notice_out(t, NOT_A_FOUL.format(kind=inf.kind)))
            continue
        fouls.append(infringement_foul(inf.kind, inf.ball, target.on_value))
    placed = start.positions.get(WHITE) if start.in_hand else None
    fouls += in_hand_fouls(start, placed, target)
    fouls += contact_fouls(start, facts, target)
    fouls += pocket_fouls(facts, target)
    fouls += push_fouls(start, facts, target, final)
    points, to_spot, _ = _scoring(target, facts)
    if not fouls:
        fouls += snooker_fouls(start, facts, target, final, scored=points > 0)
    if fouls and target.unnominated:
        fouls.append(Foul(Reason.NO_COLOUR_NOMINATED, 7))
    worst = penalty(fouls)
    if worst is None:
        return _fair(start, target, final, points, to_spot, t, outs, rest.touching)
    return _foul(start, target, facts, final, fouls, worst, t, outs, rest.touching)


def _finish_positions(
    final: dict[str, Position], colours: list[str], t: float
) -> tuple[dict[str, Position], list[Output]]:
    """Spot ``colours`` (Rule 7) into ``final``; the ``respot`` outputs in spotting order."""
    outs = []
    for r in respot(colours, final):
        final[r.ball] = r.position
        outs.append(respot_out(t, r))
    return final, outs


def _end_black(
    state: FrameState, t: float, outs: list[Output], reason: str
) -> tuple[FrameState, list[Output]]:
    """Rule 4: the frame ends, or a re-spotted Black on equal scores."""
    if state.scores[0] == state.scores[1] and not state.respotted_black:
        drawn = draw_lot(state, t)
        black = Colour.BLACK.value
        spot = TABLE.spots[Colour.BLACK]
        new = evolve(
            state,
            positions=freeze({black: spot}),
            in_hand=True,
            placed=False,
            striker=drawn,
            brk=0,
            on=black,
            respotted_black=True,
            free_ball=False,
            touching=(),
            foul=None,
            pending_respots=freeze({black: spot}),
        )
        outs.append(plain_call(t, "RE-SPOTTED BLACK"))
        outs.append({"type": "respot", "t": t, "ball": black, "spot": black, "position": [spot[0], spot[1]]})
        outs.append(score_out(t, new))
        return new, outs
    new = evolve(state, over=True, on=NONE, foul=None, brk=state.brk)
    outs.append(score_out(t, new))
    outs.append(frame_end_out(t, new.scores, reason))
    return new, outs


def _fair(
    start: FrameState,
    target: Target,
    final: dict[str, Position],
    points: int,
    to_spot: list[str],
    t: float,
    outs: list[Output],
    touching_pairs: tuple[tuple[str, str], ...] | None,
) -> tuple[FrameState, list[Output]]:
    final, spot_outs = _finish_positions(final, to_spot, t)
    outs += spot_outs
    scores = list(start.scores)
    scores[start.striker] += points
    positions = freeze(final)
    in_hand = WHITE not in final
    if points > 0:
        striker, brk = start.striker, start.brk + points
        on = COLOUR if target.on == RED else base_on(positions)
    else:
        striker, brk, on = start.opponent, 0, base_on(positions)
    touching = touching_white(final, touching_pairs)
    new = evolve(
        start,
        scores=(scores[0], scores[1]),
        striker=striker,
        brk=brk,
        positions=positions,
        in_hand=in_hand,
        placed=False,
        on=on,
        nominated=None,
        free_ball=False,
        foul=None,
        misses=MissRun(),
        replayed_after_miss=False,
        anywhere=False,
        stroke=None,
        pending_respots=freeze({r["ball"]: tuple(r["position"]) for r in spot_outs}),
        touching=touching,
    )
    if on == NONE:
        return _end_black(new, t, outs, "final_black")
    outs += touching_call(t, touching, on, False)
    outs.append(score_out(t, new))
    return new, outs


def _foul(
    start: FrameState,
    target: Target,
    facts: StrokeFacts,
    final: dict[str, Position],
    fouls: list[Foul],
    worst: Foul,
    t: float,
    outs: list[Output],
    touching_pairs: tuple[tuple[str, str], ...] | None,
) -> tuple[FrameState, list[Output]]:
    offender = start.striker
    awarded = 1 - offender
    scores = list(start.scores)
    scores[awarded] += worst.penalty
    black_only = {b for b in start.positions if b != WHITE} == {Colour.BLACK.value}
    gone = [b for b in (*facts.potted, *facts.off) if b != WHITE and not is_red(b)]
    if black_only:
        gone = []
    final, spot_outs = _finish_positions(final, gone, t)
    positions = freeze(final)
    on = base_on(positions)
    snapshot = _snapshot(start)
    verdict = judge_miss(
        striker=offender,
        on=start.on,
        positions=start.positions,
        cue=start.positions.get(WHITE),
        free_ball=start.free_ball,
        touching=start.touching,
        facts=facts,
        target=target,
        fouls=fouls,
        scores_before=start.scores,
        scores_after=(scores[0], scores[1]),
        positions_after=positions,
        on_after=on,
        run=start.misses,
        replayed=start.replayed_after_miss,
        six_reds=start.six_reds,
    )
    outs.append(foul_call(t, worst, offender, miss=verdict.called))
    outs += spot_outs
    new = evolve(
        start,
        scores=(scores[0], scores[1]),
        striker=awarded,
        brk=0,
        positions=positions,
        in_hand=WHITE not in final,
        placed=False,
        on=on,
        nominated=None,
        free_ball=False,
        stroke=None,
        misses=verdict.sequence,
        replayed_after_miss=False,
        anywhere=False,
        pending_respots=freeze({r["ball"]: tuple(r["position"]) for r in spot_outs}),
        touching=touching_white(final, touching_pairs),
    )
    if black_only or on == NONE:
        new = evolve(new, foul=None)
        return _end_black(new, t, outs, "foul_on_final_black")
    if verdict.called and frame_awarded(verdict.sequence, start.six_reds):
        new = evolve(new, over=True, on=NONE, foul=None)
        outs.append(score_out(t, new))
        outs.append(frame_end_out(t, new.scores, "frame_awarded_three_misses", winner=awarded))
        return new, outs
    anywhere = (
        start.six_reds
        and verdict.called
        and verdict.sequence.count >= 5
        and not needs_snookers(new.scores, 0, points_remaining(positions, on))
        and not needs_snookers(new.scores, 1, points_remaining(positions, on))
    )
    free = not anywhere and incoming_snookered(positions, on)
    replace_ok = verdict.called or any(f.reason is Reason.CAUSED_BALL_TO_MOVE for f in fouls)
    new = evolve(
        new,
        free_ball=free,
        anywhere=anywhere,
        foul=FoulContext(offender, snapshot, verdict.called, replace_ok, free),
    )
    if free:
        outs.append(plain_call(t, "FREE BALL"))
    outs += touching_call(t, new.touching, on, free)
    outs.append(score_out(t, new))
    return new, outs


def _snapshot(start: FrameState) -> FrameState:
    """The position before a stroke, as restored by ``replace`` (Rules 10(i), 14(b), 16)."""
    positions = start.positions
    if start.in_hand and WHITE in positions:
        positions = freeze({k: v for k, v in positions.items() if k != WHITE})
    return evolve(
        start, positions=positions, placed=False, nominated=None, free_ball=False, foul=None, stroke=None
    )


def pre_stroke_foul(state: FrameState, ev: Infringement) -> tuple[FrameState, list[Output]]:
    """Rule 10(a), 10(i), 10(j): a foul before a stroke ends the turn at once; the non-offender
    may play, ask the offender to play again, or have the balls replaced."""
    t = ev.t
    outs: list[Output] = []
    if ev.kind in NOT_FOULS:
        return state, [notice_out(t, NOT_A_FOUL.format(kind=ev.kind))]
    foul = infringement_foul(ev.kind, ev.ball, on_value(state.on, state.nominated))
    if state.on == COLOUR and state.nominated is None:
        foul = Foul(Reason.NO_COLOUR_NOMINATED, 7) if foul.penalty < 7 else foul
    offender = state.striker
    scores = list(state.scores)
    scores[1 - offender] += foul.penalty
    positions = state.positions
    on = base_on(positions)
    new = evolve(
        state,
        scores=(scores[0], scores[1]),
        striker=1 - offender,
        brk=0,
        on=on,
        nominated=None,
        free_ball=False,
        placed=state.placed and not state.in_hand,
    )
    if state.in_hand and WHITE in positions:  # Rule 10(j): the white stays in hand
        new = evolve(new, positions=freeze({k: v for k, v in positions.items() if k != WHITE}), placed=False)
    outs.append(foul_call(t, foul, offender))
    black_only = {b for b in positions if b != WHITE} == {Colour.BLACK.value}
    if black_only:
        return _end_black(evolve(new, foul=None), t, outs, "foul_on_final_black")
    free = incoming_snookered(new.positions, on)
    new = evolve(new, free_ball=free, foul=FoulContext(offender, _snapshot(state), False, True, free))
    if free:
        outs.append(plain_call(t, "FREE BALL"))
    outs.append(score_out(t, new))
    return new, outs
