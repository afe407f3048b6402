"""Event inference: ball tracks in, the event log of ``shared/spec/event-log.md`` out.

:class:`vision.events.infer.EventInferer` is the online entry point (one frame at a time);
:func:`vision.events.infer.infer_tracks` runs it over a whole :class:`vision.tracks.Tracks`.
Thresholds live in :mod:`vision.events.config`, trajectory fits in
:mod:`vision.events.kinematics`, table edges in :mod:`vision.events.geometry` and the
analysis of one stroke in :mod:`vision.events.stroke`, whose steps each have a module:
:mod:`~vision.events.analysis` (the stroke's samples and fits), :mod:`~vision.events.candidates`,
:mod:`~vision.events.contacts`, :mod:`~vision.events.unseen` (contacts found from their
results) and :mod:`~vision.events.exits` (pots and off-tables).
"""
