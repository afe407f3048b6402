"""Invariants over random plausible frames (hypothesis drives the generator's seed)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine import adjudicate, initial_state, step
from adjudicator.eventlog import FrameStart, event_from_dict, read_events, validate_input
from adjudicator.fastcheck import surely_valid
from adjudicator.loggen import generate_frame, generate_log

SEEDS = st.integers(0, 2**31 - 1)


def _frame(seed: int, reds: int = 15) -> list[dict]:
    events, _ = generate_frame(random.Random(seed), reds=reds)
    return events


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, six=st.booleans())
def test_scores_never_decrease_and_penalties_are_4_to_7(seed: int, six: bool) -> None:
    events = _frame(seed, 6 if six else 15)
    last = [0, 0]
    for out in adjudicate(event_from_dict(e) for e in events):
        assert validate_output_ok(out)
        if out["type"] == "call" and "penalty" in out:
            assert 4 <= out["penalty"] <= 7
        if out["type"] in ("score", "frame_end"):
            assert out["scores"][0] >= last[0] and out["scores"][1] >= last[1]
            last = out["scores"]


def validate_output_ok(out: dict) -> bool:
    from adjudicator.eventlog import validate_output

    return validate_output(out) is None


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_points_on_the_table_never_increase_except_by_a_respotted_black(seed: int) -> None:
    state = initial_state()
    previous = None
    for obj in _frame(seed):
        event = event_from_dict(obj)
        state, outs = step(state, event)
        if isinstance(event, FrameStart):
            previous = state.remaining()
            continue
        if any(o["type"] == "score" for o in outs) and not state.over:
            now = state.remaining()
            if not any(o.get("call") == "RE-SPOTTED BLACK" for o in outs):
                assert previous is not None and now <= previous
            previous = now


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS)
def test_replaying_a_log_gives_identical_calls(seed: int) -> None:
    events, _ = generate_log(random.Random(seed), 60)
    lines = [json.dumps(e) for e in events]
    first = list(adjudicate(read_events(lines)))
    second = list(adjudicate(read_events(lines)))
    assert first == second and first


@settings(max_examples=200, deadline=None)
@given(
    obj=st.fixed_dictionaries(
        {
            "type": st.sampled_from(
                ["strike", "pot", "rest", "place", "collision", "choice", "concede", "x"]
            ),
            "t": st.one_of(st.floats(allow_nan=True), st.integers(-2, 5), st.booleans()),
        },
        optional={
            "ball": st.sampled_from(["white", "red0", "red12", "purple", 3]),
            "pocket": st.sampled_from(["top_left", "corner"]),
            "position": st.lists(st.one_of(st.floats(-5, 5), st.booleans()), max_size=3),
            "positions": st.dictionaries(
                st.sampled_from(["white", "red2", "blue", "mauve"]), st.just([1, 2])
            ),
            "balls": st.lists(st.sampled_from(["white", "red1", "nope"]), max_size=3),
            "option": st.sampled_from(["play", "again"]),
            "player": st.sampled_from([0, 1, 2, True]),
        },
    )
)
def test_fast_check_never_accepts_what_the_schema_rejects(obj: dict) -> None:
    if surely_valid(obj):
        assert validate_input(obj) is None
