"""The referee as a pure reducer: ``step(state, event) -> (state, outputs)``.

The reducer folds the input events of the contract into an immutable
:class:`~adjudicator.state.FrameState`. Events between ``strike`` and ``rest`` are accumulated
in the state's :class:`~adjudicator.state.Stroke`; at ``rest`` :func:`adjudicator.judge.judge`
decides the stroke. Every output carries the ``t`` of the input event that caused it.

Implemented, clause by clause (the modules named carry the details):

- ``frame_start``: a frame or position begins (Section 3 Rule 2(a) set-up by default, Six Reds
  for ``reds: 6``, Rule 19); the ball on is Red, or the lowest colour when no Red is left.
- ``place``: the white from in-hand (checked against the D at ``strike``, Rule 5), a colour
  re-spotted (compared with the computed re-spot, Rule 7(j); a wrong place is noticed and the
  colour stays where put, Rules 7(c) and 10(d)), a ball replaced.
- ``nominate``: the declared ball (Section 2 Rule 12, Section 3 Rule 12(a)).
- ``strike`` ... ``rest``: one stroke, judged by :mod:`adjudicator.judge`.
- ``infringement``: during a stroke it joins the stroke's fouls; before one, Rule 10(a)/(i):
  the turn ends at once (:func:`adjudicator.judge.pre_stroke_foul`); by the non-striker
  (``player`` is not the striker) it is a PENALTY (Rule 3(k), 11(e)-(g)): the striker's turn
  goes on.
- ``choice``: ``play`` (the non-offender plays from the position left), ``play_again`` (the
  offender plays again from the position left, Rule 10(h)(ii); the free ball becomes void,
  12(f)), ``replace`` (Rules 10(i), 14(b), 16(a)(ii): the state before the foul is restored,
  with the scores after it, the same ball on and the offender to play; a FOUL AND A MISS
  warning when due, Rule 14(d)(ii)). ``replace`` after a foul for which it is not available is
  noticed and taken as ``play_again``.
- ``concede``: the frame ends, won by the other player (Section 2 Rule 1(a)).
- A ``pot`` between strokes is a ball falling in on its own (Rule 9(a)): replaced, noticed.

Inconsistent logs (each a ``notice`` with the assumption made): events before any
``frame_start`` (a standard frame between "Player 1" and "Player 2" with player 0 to break is
assumed), a stroke with no ``rest`` (closed at the next ``strike``/``place``/``nominate``/
``choice``/``concede``/``frame_start`` with the balls where they were less those potted), events
after the frame ended (ignored), a ``choice`` with no foul to answer (ignored).

Not expressible in the log, so not implemented: Section 2 Rule 1(b)/(c) claims on the final
black, Rule 17 stalemate re-racks, Section 4 conduct and time-wasting awards, four-handed play
(Rule 18), Rule 9(b) balls on pocket edges, and the referee's own errors (Rule 7(a), (b), (d)).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

from adjudicator.eventlog import (
    Choice,
    Collision,
    Concede,
    Cushion,
    FrameStart,
    Infringement,
    InputEvent,
    Nominate,
    OffTable,
    Place,
    Pot,
    Rest,
    Strike,
)
from adjudicator.fouls import INFRINGEMENTS, Reason, Value, infringement_foul, valued
from adjudicator.judge import judge, pre_stroke_foul, touching_white
from adjudicator.miss import warning_due
from adjudicator.outputs import Output, foul_call, frame_end_out, notice_out, score_out, warning_out
from adjudicator.state import FrameState, MissRun, Stroke, base_on, evolve, freeze, on_value
from calibration.table import TABLE

WHITE = "white"
#: A re-spotted colour placed farther than this (mm) from where Rule 7 puts it is noticed.
PLACE_TOL: float = 10.0

_STROKE_EVENTS = (Collision, Cushion, Pot, OffTable)


def initial_state() -> FrameState:
    """The state before any event: no frame has started."""
    return FrameState()


def step(state: FrameState, event: InputEvent) -> tuple[FrameState, tuple[Output, ...]]:
    """Fold one input event into the state; the outputs it causes, in announcement order."""
    outs: list[Output] = []
    if not state.started and not isinstance(event, FrameStart):
        outs.append(
            notice_out(
                event.t, "no frame_start before this event; assumed a standard frame, player 0 to play"
            )
        )
        state = _frame_start(FrameStart(t=event.t, players=("Player 1", "Player 2"), striker=0))
    if state.stroke is not None and not isinstance(event, (*_STROKE_EVENTS, Rest, Infringement)):
        state, closing = _close_without_rest(state, event.t)
        outs += closing
    if state.over and not isinstance(event, FrameStart):
        outs.append(notice_out(event.t, f"{event.type} after the end of the frame; ignored"))
        return state, tuple(outs)
    state, more = _dispatch(state, event)
    outs += more
    return state, tuple(outs)


def _dispatch(state: FrameState, event: InputEvent) -> tuple[FrameState, list[Output]]:
    if isinstance(event, FrameStart):
        return _frame_start(event), []
    if isinstance(event, Place):
        return _place(state, event)
    if isinstance(event, Nominate):
        return evolve(state, nominated=event.ball), []
    if isinstance(event, Strike):
        return _strike(state, event)
    if isinstance(event, _STROKE_EVENTS):
        return _loose_event(state, event)
    if isinstance(event, Rest):
        if state.stroke is not None:
            new, outs = judge(state, event)
            return new, outs
        return _rest_between_strokes(state, event), []
    if isinstance(event, Infringement):
        return _infringement(state, event)
    if isinstance(event, Choice):
        return _choice(state, event)
    if isinstance(event, Concede):
        new = evolve(state, over=True, on="none", foul=None)
        return new, [frame_end_out(event.t, new.scores, "concession", winner=1 - event.player)]
    raise TypeError(f"not an input event: {event!r}")  # pragma: no cover


def _frame_start(ev: FrameStart) -> FrameState:
    positions = freeze(ev.positions if ev.positions is not None else TABLE.standard_positions(ev.reds))
    return FrameState(
        players=ev.players,
        reds_start=ev.reds,
        scores=ev.scores,
        striker=ev.striker,
        positions=positions,
        in_hand=WHITE not in positions,
        placed=False,
        on=base_on(positions),
        touching=touching_white(positions, None),
        started=True,
    )


def _place(state: FrameState, ev: Place) -> tuple[FrameState, list[Output]]:
    outs: list[Output] = []
    pos = {**state.positions, ev.ball: ev.position}
    pending = dict(state.pending_respots)
    if ev.ball == WHITE:
        in_hand = state.in_hand or state.anywhere
        known = state.positions.get(WHITE)
        far = known is None or math.hypot(known[0] - ev.position[0], known[1] - ev.position[1]) > PLACE_TOL
        if not in_hand and far:
            outs.append(
                notice_out(
                    ev.t, "the white was placed while in play; assumed a replacement by the referee", WHITE
                )
            )
        touching = () if in_hand else touching_white(pos, None)
        return evolve(state, positions=freeze(pos), in_hand=in_hand, placed=in_hand, touching=touching), outs
    if ev.ball in pending:
        want = pending.pop(ev.ball)
        if math.hypot(want[0] - ev.position[0], want[1] - ev.position[1]) > PLACE_TOL:
            outs.append(
                notice_out(
                    ev.t,
                    f"{ev.ball} was placed at ({ev.position[0]:.1f}, {ev.position[1]:.1f}), not where Rule 7 "
                    f"spots it ({want[0]:.1f}, {want[1]:.1f}); it stays where placed (Rules 7(c), 10(d))",
                    ev.ball,
                )
            )
    elif ev.ball not in state.positions and state.foul is None:
        outs.append(
            notice_out(
                ev.t, f"{ev.ball} was placed but was not off the table to be spotted; assumed there", ev.ball
            )
        )
    return evolve(state, positions=freeze(pos), pending_respots=freeze(pending)), outs


def _strike(state: FrameState, ev: Strike) -> tuple[FrameState, list[Output]]:
    outs: list[Output] = []
    if state.foul is not None:  # no election: the non-offender plays from the position left
        state = evolve(state, foul=None, misses=MissRun(), replayed_after_miss=False)
    if state.in_hand and WHITE not in state.positions:
        outs.append(
            notice_out(
                ev.t, "the white was struck from in-hand without a place; assumed properly placed in the D"
            )
        )
    if state.misses.count and not state.replayed_after_miss:
        state = evolve(state, misses=MissRun())
    start = evolve(state, pending_respots=freeze({}))
    return evolve(start, stroke=Stroke(ev.t, start)), outs


def _loose_event(state: FrameState, ev: InputEvent) -> tuple[FrameState, list[Output]]:
    if state.stroke is not None:
        absent = ev.ball not in state.stroke.start.positions if isinstance(ev, (Pot, OffTable)) else False
        if isinstance(ev, (Pot, OffTable)) and ev.ball != WHITE and absent:
            # The contract dates an output by the input that caused it: the bad pot, not the rest.
            what = "potted" if isinstance(ev, Pot) else "forced off the table"
            msg = f"{ev.ball} was reported {what} but was not on the table; ignored"
            return state, [notice_out(ev.t, msg, ev.ball)]
        return evolve(state, stroke=evolve(state.stroke, events=(*state.stroke.events, ev))), []
    if isinstance(ev, Pot):
        msg = f"{ev.ball} fell into a pocket between strokes; replaced (Rule 9(a))"
        return state, [notice_out(ev.t, msg, ev.ball)]
    return state, [notice_out(ev.t, f"{ev.type} outside a stroke; ignored")]


def _rest_between_strokes(state: FrameState, ev: Rest) -> FrameState:
    positions = freeze(ev.positions)
    in_hand = state.in_hand and WHITE not in positions
    return evolve(
        state,
        positions=positions,
        in_hand=in_hand or (state.in_hand and state.placed),
        placed=state.in_hand and WHITE in positions,
        touching=touching_white(positions, ev.touching),
    )


def _infringement(state: FrameState, ev: Infringement) -> tuple[FrameState, list[Output]]:
    current = state.stroke.start.striker if state.stroke is not None else state.striker
    if ev.player is not None and ev.player != current:
        return _penalty(state, ev, current)
    if state.stroke is not None:
        return evolve(state, stroke=evolve(state.stroke, events=(*state.stroke.events, ev))), []
    new, outs = pre_stroke_foul(state, ev)
    if ev.kind not in INFRINGEMENTS and ev.kind != "played_with_ball_wrongly_spotted":
        outs.insert(
            0, notice_out(ev.t, f"unknown infringement kind {ev.kind!r}; assumed a foul of Rule 11(b)")
        )
    return new, outs


def _penalty(state: FrameState, ev: Infringement, striker: int) -> tuple[FrameState, list[Output]]:
    """Rule 3(k), 11(e)-(g): the non-striker's infringement; the striker's turn continues."""
    basis = state.stroke.start if state.stroke is not None else state
    ball_on_value = on_value(basis.on, basis.nominated)
    kind = INFRINGEMENTS.get(ev.kind)
    if kind is not None and kind[1] is Value.SEVEN:
        foul = infringement_foul(ev.kind, ev.ball, ball_on_value)
    else:
        foul = valued(Reason.NON_STRIKER_INFRINGEMENT, Value.ON_OR_CONCERNED, ball_on_value, [ev.ball])
    offender = 1 - striker
    scores = list(state.scores)
    scores[striker] += foul.penalty
    new = evolve(state, scores=(scores[0], scores[1]))
    if state.stroke is not None:  # the stroke's judgement starts from the scores with the penalty
        start = evolve(state.stroke.start, scores=new.scores)
        new = evolve(new, stroke=evolve(state.stroke, start=start))
        return new, [foul_call(ev.t, foul, offender, call="PENALTY")]
    return new, [foul_call(ev.t, foul, offender, call="PENALTY"), score_out(ev.t, new)]


def _choice(state: FrameState, ev: Choice) -> tuple[FrameState, list[Output]]:
    fc = state.foul
    if fc is None:
        return state, [notice_out(ev.t, f"choice {ev.option!r} with no foul to answer; ignored")]
    if ev.option == "play":
        return evolve(state, foul=None, misses=MissRun(), replayed_after_miss=False), []
    outs: list[Output] = []
    option = ev.option
    if option == "replace" and not fc.replace_allowed:
        outs.append(
            notice_out(
                ev.t, "replace is only open after a miss or a foul before the stroke; taken as play_again"
            )
        )
        option = "play_again"
    if option == "play_again":
        new = evolve(
            state,
            striker=fc.offender,
            brk=0,
            free_ball=False,
            foul=None,
            misses=MissRun(),
            replayed_after_miss=False,
            anywhere=False,
        )
        outs.append(score_out(ev.t, new))
        return new, outs
    orig = fc.original
    misses = state.misses
    warn = warning_due(misses, state.six_reds) if fc.miss else None
    if warn is not None:
        misses = evolve(misses, warned=True)
        outs.append(warning_out(ev.t, fc.offender, warn))
    new = evolve(
        orig,
        scores=state.scores,
        striker=fc.offender,
        brk=0,
        free_ball=False,
        foul=None,
        misses=misses if fc.miss else orig.misses,
        replayed_after_miss=fc.miss or orig.replayed_after_miss,
        anywhere=False,
        pending_respots=freeze({}),
    )
    outs.append(score_out(ev.t, new))
    return new, outs


def _close_without_rest(state: FrameState, t: float) -> tuple[FrameState, list[Output]]:
    """A stroke with no ``rest``: judged with the balls where they were, less those that left."""
    assert state.stroke is not None
    gone = {e.ball for e in state.stroke.events if isinstance(e, (Pot, OffTable))}
    positions = {b: p for b, p in state.stroke.start.positions.items() if b not in gone}
    note = notice_out(
        t,
        f"the stroke struck at t={state.stroke.t} had no rest; "
        "balls assumed where they were, less those potted",
    )
    new, outs = judge(state, Rest(t=t, positions=freeze(positions)))
    return new, [note, *outs]


def adjudicate(events: Iterable[InputEvent]) -> Iterator[Output]:
    """Referee a whole log lazily: the outputs of each event as soon as it is read."""
    state = initial_state()
    for event in events:
        state, outs = step(state, event)
        yield from outs
