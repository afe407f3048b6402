"""The one error type the user sees.

Every module raises :class:`BaulklineError` (or a subclass) for input a person can fix: a bad
file, a malformed log line, a table that is not in view. The ``baulkline`` command prints its
message as one line and exits non-zero; anything else is a bug and keeps its traceback.
It lives in ``calibration`` because that package depends on nothing else in the project.
"""

from __future__ import annotations


class BaulklineError(Exception):
    """An error caused by the input, with a one-line message naming the file, line or frame."""

    def __init__(self, message: str, *, exit_code: int = 2) -> None:
        super().__init__(" ".join(message.split()))
        self.exit_code = exit_code
