"""The automatic referee: the Rules of Snooker applied to an event log."""
