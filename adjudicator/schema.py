"""JSON Schemas of the event-log contract (``shared/spec/event-log.md``, version 1).

Two streams: input events (camera pipeline or any other tracker -> referee) and output
events (referee -> people, overlays, reports). The schemas are the machine-checkable half
of the contract; :mod:`adjudicator.eventlog` adds what a schema cannot say (ball names of the
current frame, time never going backwards). ``baulkline validate --dump-schema`` prints them.
"""

from __future__ import annotations

from typing import Any

_BALL = {"type": "string", "pattern": "^(white|yellow|green|brown|blue|pink|black|red[1-9][0-9]*)$"}
_POCKET = {"enum": ["baulk_left", "baulk_right", "middle_left", "middle_right", "top_left", "top_right"]}
_XY = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
_PLAYER = {"type": "integer", "enum": [0, 1]}
_POSITIONS = {"type": "object", "propertyNames": _BALL, "additionalProperties": _XY}
_PAIR = {"type": "array", "items": _BALL, "minItems": 2, "maxItems": 2}
_T = {"type": "number", "minimum": 0}

#: Infringement kinds an operator or sensor can key (Section 3 Rule 11 acts a camera above
#: the table may not see). ``other`` carries anything else with a ``ball`` or note.
INFRINGEMENT_KINDS = (
    "push_stroke",
    "jump_shot",
    "touched_ball",
    "struck_not_at_rest",
    "feet_off_floor",
    "improper_in_hand",
    "struck_twice",
    "played_out_of_turn",
    "played_improperly_from_in_hand",
    "caused_ball_to_move",
    "used_ball_as_marker",
    "used_non_cue_ball",
    "touched_with_other_than_tip",
    "played_before_spotted",
    "played_with_ball_wrongly_spotted",
    "length_of_cue_exceeded",
    "other",
)


def _event(type_: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"type": {"const": type_}, "t": _T, **properties},
        "required": ["type", "t", *required],
    }


INPUT_EVENTS: dict[str, dict[str, Any]] = {
    "frame_start": _event(
        "frame_start",
        {
            "players": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2},
            "striker": _PLAYER,
            "reds": {"type": "integer", "minimum": 0, "maximum": 15},
            "positions": _POSITIONS,
            "scores": {
                "type": "array",
                "items": {"type": "integer", "minimum": 0},
                "minItems": 2,
                "maxItems": 2,
            },
        },
        ["players", "striker"],
    ),
    "place": _event("place", {"ball": _BALL, "position": _XY}, ["ball", "position"]),
    "nominate": _event("nominate", {"ball": _BALL}, ["ball"]),
    "strike": _event("strike", {}, []),
    "collision": _event("collision", {"balls": _PAIR}, ["balls"]),
    "cushion": _event("cushion", {"ball": _BALL}, ["ball"]),
    "pot": _event("pot", {"ball": _BALL, "pocket": _POCKET}, ["ball", "pocket"]),
    "off_table": _event("off_table", {"ball": _BALL}, ["ball"]),
    "rest": _event(
        "rest", {"positions": _POSITIONS, "touching": {"type": "array", "items": _PAIR}}, ["positions"]
    ),
    "infringement": _event(
        "infringement",
        {"kind": {"type": "string", "minLength": 1}, "ball": _BALL, "player": _PLAYER},
        ["kind"],
    ),
    "choice": _event("choice", {"option": {"enum": ["play", "play_again", "replace"]}}, ["option"]),
    "concede": _event("concede", {"player": _PLAYER}, ["player"]),
}

CALLS = ("FOUL", "FOUL AND A MISS", "FREE BALL", "TOUCHING BALL", "PENALTY", "RE-SPOTTED BLACK")

OUTPUT_EVENTS: dict[str, dict[str, Any]] = {
    "call": _event(
        "call",
        {
            "call": {"enum": list(CALLS)},
            "penalty": {"type": "integer", "minimum": 0},
            "reason": {"type": "string", "pattern": "^[a-z0-9_]+$"},
            "offender": _PLAYER,
            "awarded_to": _PLAYER,
            "balls": {"type": "array", "items": _BALL},
        },
        ["call"],
    ),
    "respot": _event(
        "respot",
        {"ball": _BALL, "spot": {"type": ["string", "null"]}, "position": _XY},
        ["ball", "spot", "position"],
    ),
    "score": _event(
        "score",
        {
            "scores": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            "striker": _PLAYER,
            "break": {"type": "integer", "minimum": 0},
            "ball_on": {"type": "string"},
            "reds": {"type": "integer", "minimum": 0},
        },
        ["scores", "striker", "break", "ball_on", "reds"],
    ),
    "warning": _event("warning", {"player": _PLAYER, "reason": {"type": "string"}}, ["player", "reason"]),
    "frame_end": _event(
        "frame_end",
        {
            "winner": {"type": ["integer", "null"], "enum": [0, 1, None]},
            "scores": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            "reason": {"type": "string"},
        },
        ["winner", "scores", "reason"],
    ),
    "notice": _event("notice", {"message": {"type": "string"}, "ball": _BALL}, ["message"]),
}


def _stream_schema(title: str, events: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": title,
        "type": "object",
        "required": ["type", "t"],
        "properties": {"type": {"enum": sorted(events)}, "t": _T},
        "allOf": [
            {"if": {"properties": {"type": {"const": name}}}, "then": schema}
            for name, schema in events.items()
        ],
    }


INPUT_SCHEMA: dict[str, Any] = _stream_schema("Baulkline event log v1: input event", INPUT_EVENTS)
OUTPUT_SCHEMA: dict[str, Any] = _stream_schema("Baulkline event log v1: output event", OUTPUT_EVENTS)
