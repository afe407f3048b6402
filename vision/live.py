"""What a person watching sees and hears while the referee runs.

:class:`LiveView` prints each call and the score as they are made (a compact status line
redrawn in place on a terminal, plain lines when piped to a file), and :class:`Speaker` says
the calls through espeak-ng, which is optional: without it the speaker says once, clearly,
that it is missing, and the referee goes on silently.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from calibration.errors import BaulklineError


def announcement(output: Mapping[str, Any], players: Sequence[str]) -> str | None:
    """What a referee would say for an output event, or ``None`` when nothing is said."""
    kind = output.get("type")
    if kind == "call":
        call = str(output["call"])
        if "penalty" in output:
            return f"{call}. {output['penalty']} away."
        if call == "TOUCHING BALL":
            return "Touching ball."
        return call.capitalize() + "."
    if kind == "frame_end":
        winner = output.get("winner")
        name = players[winner] if winner in (0, 1) else "nobody"
        return f"Frame to {name}, {output['scores'][0]} {output['scores'][1]}."
    if kind == "respot":
        return f"Re-spot the {output['ball']}."
    if kind == "warning":
        return "Warning: a further miss will award the frame."
    return None


def score_line(score: Mapping[str, Any], players: Sequence[str]) -> str:
    """One line with both scores, the striker, the break and the ball on."""
    a, b = score["scores"]
    s = int(score["striker"])
    marks = ("*", " ") if s == 0 else (" ", "*")
    return (
        f"{marks[0]}{players[0]} {a} - {b} {players[1]}{marks[1]}  break {score['break']}  "
        f"on {score['ball_on']}  reds {score['reds']}"
    )


@dataclass
class Speaker:
    """Says calls aloud through espeak-ng when it is installed."""

    enabled: bool
    stream: IO[str] = field(default_factory=lambda: sys.stderr)
    _binary: str | None = None
    _warned: bool = False

    def __post_init__(self) -> None:
        if self.enabled:
            self._binary = shutil.which("espeak-ng") or shutil.which("espeak")
            if self._binary is None:
                self.stream.write(
                    "baulkline: --speak: espeak-ng is not installed (apt-get install espeak-ng); "
                    "calls are shown but not spoken\n"
                )
                self.stream.flush()

    def say(self, text: str) -> None:
        """Speak without waiting, so speech never stalls the video."""
        if self._binary is None:
            return
        try:
            subprocess.Popen([self._binary, text], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError as exc:
            raise BaulklineError(f"--speak: cannot run {self._binary} ({exc.strerror})") from None


@dataclass
class LiveView:
    """Prints the referee's outputs as they come."""

    players: Sequence[str]
    stream: IO[str] = field(default_factory=lambda: sys.stdout)
    speaker: Speaker | None = None
    interactive: bool = False

    def show(self, output: Mapping[str, Any], video_t: float | None = None) -> None:
        """Show one output event (and speak it)."""
        stamp = f"[{_clock(float(output['t']))}] "
        said = announcement(output, self.players)
        if output.get("type") == "score":
            line = stamp + score_line(output, self.players)
        elif output.get("type") == "notice":
            line = stamp + f"note: {output['message']}"
        elif said is not None:
            line = stamp + said
        else:
            return
        self.stream.write(line + "\n")
        self.stream.flush()
        if said and self.speaker is not None:
            self.speaker.say(said)

    def progress(self, done: int, total: int | None, fps: float, dropped: int) -> None:
        """A progress line redrawn in place (terminal only)."""
        if not self.interactive:
            return
        pct = f"{100.0 * done / total:5.1f}% " if total else ""
        sys.stderr.write(f"\r{pct}frame {done}{'/' + str(total) if total else ''}  {fps:6.1f} fps")
        if dropped:
            sys.stderr.write(f"  dropped {dropped}")
        sys.stderr.flush()

    def close(self) -> None:
        """End the progress line."""
        if self.interactive:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _clock(t: float) -> str:
    return f"{int(t // 60):02d}:{t % 60:05.2f}"
