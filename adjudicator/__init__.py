"""The automatic referee: the Rules of Snooker (2022, Sections 2 and 3) applied to an event log.

``engine.step(state, event) -> (state, outputs)`` is a pure reducer over the immutable
:class:`~adjudicator.state.FrameState`; ``engine.adjudicate(events)`` folds a whole log lazily.
One concept per module, each docstring listing clause by clause what it implements and what it
does not:

- :mod:`adjudicator.state`: the frame state, ball on, points remaining, snookers required;
- :mod:`adjudicator.stroke`: the facts of one stroke (first contact, pots, Rule 3(m) rebounds);
- :mod:`adjudicator.target`: what is on (nomination, inferred colour, free ball, touching ball);
- :mod:`adjudicator.fouls`: Rule 11 fouls and penalty values, reason codes (:class:`Reason`);
- :mod:`adjudicator.miss`: Rule 14 FOUL AND A MISS and its sequence (19(a)-(c) in Six Reds);
- :mod:`adjudicator.snookered`: Section 2 Rule 17 geometry (numpy), in-hand from the D;
- :mod:`adjudicator.respot`: Rule 7 re-spotting;
- :mod:`adjudicator.judge`: one stroke judged; end of frame, re-spotted black (Rule 4);
- :mod:`adjudicator.engine`: the reducer and the between-stroke events (place, choice, ...);
- :mod:`adjudicator.outputs`: the output events of the contract;
- :mod:`adjudicator.loggen`: random plausible logs for tests and the benchmark;
- :mod:`adjudicator.fastcheck`: a conservative fast pre-check before full schema validation.

Conventions where the contract is silent (chosen as a referee and a marker would announce):

- Order of the outputs of one stroke, all carrying the ``rest``'s ``t``: the referee's calls
  first (``FOUL``/``FOUL AND A MISS`` with its penalty, ``RE-SPOTTED BLACK``), then each
  ``respot`` (highest value first, Rule 7(f)), then ``FREE BALL`` and ``TOUCHING BALL`` about the
  position left, then the marker's ``score``, then ``frame_end``. A ``choice`` gives any
  ``warning`` (Rule 14(d)(ii), on ``replace`` after the second miss) and then a ``score`` naming
  who plays. A ``notice`` carries the ``t`` of the input that caused it (a pot of a ball not on
  the table at the ``pot``; a ball missing at rest at the ``rest``).
- Rule 14(c) clear path is exact interval geometry; 14(d) full-ball contact is a Red's full
  diameter clear of colours or the stroke at a colour's centre clear; when snookered (no clear
  straight path), 14(a)(ii) is judged from the white's path: no miss only when it reached a
  cushion before any ball (see :mod:`adjudicator.miss`).
- A Red hit first after a Red was potted, or any foul before a colour was nominated (declared or
  inferred from the first hit), is the 7-point foul of Rule 11(d)(iii)/(vi).
- The re-spotted Black's lot (Rule 4(b)(ii)) is deterministic: the low bit of a SHA-256 of the
  player names and the tying event's ``t`` (:func:`adjudicator.judge.draw_lot`).
- After ``frame_end`` the last ``score`` has ``ball_on`` ``"none"``: nothing is on once the
  frame is over (the contract's list of values assumes a frame in progress).
"""
