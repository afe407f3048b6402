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
"""
