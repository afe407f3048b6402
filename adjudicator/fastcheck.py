"""A fast, conservative pre-check of input events against the contract's schema.

Validating every line with :mod:`jsonschema` costs about 100 us, which alone would take a
2,000-stroke log past a second. :func:`surely_valid` answers ``True`` only for objects it can
prove valid under :data:`adjudicator.schema.INPUT_SCHEMA` with plain Python checks; anything
else (including every invalid object) goes to the full schema validator, so error messages and
what is accepted are exactly those of the schema.
"""

from __future__ import annotations

import re
from typing import Any

_BALL = re.compile(r"^(white|yellow|green|brown|blue|pink|black|red[1-9][0-9]*)$")
_POCKETS = frozenset({"baulk_left", "baulk_right", "middle_left", "middle_right", "top_left", "top_right"})
_OPTIONS = frozenset({"play", "play_again", "replace"})
_known_balls: set[str] = set()


def _num(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _ball(v: Any) -> bool:
    if not isinstance(v, str):
        return False
    if v in _known_balls:
        return True
    if _BALL.match(v) and len(_known_balls) < 1000:
        _known_balls.add(v)
        return True
    return False


def _xy(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 2 and _num(v[0]) and _num(v[1])


def _positions(v: Any) -> bool:
    return isinstance(v, dict) and all(_ball(k) and _xy(p) for k, p in v.items())


def _pair(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 2 and _ball(v[0]) and _ball(v[1])


def _player(v: Any) -> bool:
    return _int(v) and v in (0, 1)


def surely_valid(obj: Any) -> bool:
    """``True`` only when ``obj`` is certainly a valid input event."""
    if not isinstance(obj, dict):
        return False
    t: Any = obj.get("t")
    if not _num(t) or t != t or t < 0:
        return False
    kind = obj.get("type")
    if kind == "strike":
        return True
    if kind in ("cushion", "nominate", "off_table"):
        return "ball" in obj and _ball(obj["ball"])
    if kind == "collision":
        return "balls" in obj and _pair(obj["balls"])
    if kind == "pot":
        return _ball(obj.get("ball")) and obj.get("pocket") in _POCKETS
    if kind == "place":
        return _ball(obj.get("ball")) and _xy(obj.get("position"))
    if kind == "rest":
        touching = obj.get("touching", [])
        return (
            _positions(obj.get("positions"))
            and isinstance(touching, list)
            and all(_pair(p) for p in touching)
        )
    if kind == "frame_start":
        players = obj.get("players")
        ok = isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) for p in players)
        ok = ok and _player(obj.get("striker"))
        if "reds" in obj:
            ok = ok and _int(obj["reds"]) and 0 <= obj["reds"] <= 15
        if "positions" in obj:
            ok = ok and _positions(obj["positions"])
        if "scores" in obj:
            s = obj["scores"]
            ok = ok and isinstance(s, list) and len(s) == 2 and all(_int(x) and x >= 0 for x in s)
        return ok
    if kind == "infringement":
        k = obj.get("kind")
        ok = isinstance(k, str) and len(k) >= 1
        if "ball" in obj:
            ok = ok and _ball(obj["ball"])
        if "player" in obj:
            ok = ok and _player(obj["player"])
        return ok
    if kind == "choice":
        return obj.get("option") in _OPTIONS
    if kind == "concede":
        return _player(obj.get("player"))
    return False
