"""The renders benchmark's clip names and looks: drawn sizes resolve, broadcast needs one."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.referee_bench import truth_of
from benchmarks.referee_renders import Render, by_size
from vision.synthetic.conditions import SIZES, random_conditions


@pytest.mark.parametrize("seed", [105, 109, 112])
def test_a_drawn_look_is_the_seeds_random_conditions_and_names_its_size(seed: int) -> None:
    clip = Render("touching", seed, None, None, None, "random", 25.0)
    look = random_conditions(seed)
    assert (clip.look().width, clip.look().height) in SIZES
    assert clip.look().fps == look.fps
    assert clip.name == f"touching-{seed}-{look.width}x{look.height}@{look.fps:g}-random"


@pytest.mark.parametrize(
    ("width", "height", "fps", "name"),
    [
        (1920, 1080, 60.0, "free_ball-101-1920x1080@60-broadcast"),
        (1280, 720, 29.97, "free_ball-101-1280x720@29.97-broadcast"),
    ],
)
def test_a_given_size_names_the_clip_without_drawing(width: int, height: int, fps: float, name: str) -> None:
    clip = Render("free_ball", 101, width, height, fps, "broadcast", 25.0)
    assert clip.name == name
    assert (clip.look().width, clip.look().height, clip.look().fps) == (width, height, fps)


def test_a_broadcast_look_cannot_be_drawn() -> None:
    with pytest.raises(ValueError, match="needs a size"):
        Render("free_ball", 101, None, None, None, "broadcast", 25.0).look()


@pytest.mark.parametrize(
    ("video", "truth"),
    [
        ("r/touching-115-1920x1080@59.94-random.mp4", "r/touching-115-1920x1080@59.94-random.truth.jsonl"),
        ("r/break_off-101-1920x1080@60-broadcast.mp4", "r/break_off-101-1920x1080@60-broadcast.truth.jsonl"),
        ("samples/01_break_off.mp4", "samples/01_break_off.truth.jsonl"),
    ],
)
def test_the_true_log_sits_beside_the_clip_whatever_dots_its_name_holds(video: str, truth: str) -> None:
    assert truth_of(Path(video)) == Path(truth)


def _row(clip: str, match: bool) -> dict[str, object]:
    call = [("score", (1, 0), 0, "red")]
    return {"clip": clip, "match": match, "expected": call, "got": call if match else []}


@pytest.mark.parametrize(
    ("rows", "table"),
    [
        ([_row("touching-105-640x360@30-random", True)], []),
        (
            [
                _row("touching-105-640x360@30-random", False),
                _row("touching-109-1920x1080@50-random", True),
                _row("free_ball-105-640x360@30-random", True),
            ],
            ["| 1920x1080 | 1/1 | 1/1 |", "| 640x360 | 1/2 | 1/2 |"],
        ),
    ],
)
def test_a_set_of_several_sizes_is_summed_per_size_largest_first(
    rows: list[dict[str, object]], table: list[str]
) -> None:
    lines = by_size(rows)  # type: ignore[arg-type]
    assert [line for line in lines if line.startswith("| ") and "x" in line.split("|")[1]] == table
