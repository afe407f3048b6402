"""``baulkline referee`` end to end on a short cut of a sample clip: every output is written,
bad sources fail with one line, and what was processed before a failure is kept."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from vision.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_videos" / "02_red_then_colour.mp4"


def _cut(src: Path, dst: Path, frames: int) -> Path:
    cap = cv2.VideoCapture(str(src))
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    writer = None
    for _ in range(frames):
        ok, image = cap.read()
        if not ok:
            break
        if writer is None:
            h, w = image.shape[:2]
            writer = cv2.VideoWriter(str(dst), cv2.VideoWriter_fourcc(*"MJPG"), fps, (w // 2, h // 2))
        writer.write(cv2.resize(image, (w // 2, h // 2)))
    assert writer is not None
    writer.release()
    return dst


@pytest.mark.slow
@pytest.mark.skipif(not SAMPLE.exists(), reason="the bundled sample video is missing")
def test_referee_writes_every_output(tmp_path: Path) -> None:
    clip = _cut(SAMPLE, tmp_path / "cut.avi", frames=75)
    out = tmp_path / "out"
    assert main(["referee", str(clip), "--out", str(out)]) == 0
    for name in ("events.jsonl", "calls.jsonl", "annotated.mp4", "report.html", "summary.json"):
        assert (out / name).is_file(), name
    events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    assert events and events[0]["type"] == "frame_start"
    assert json.loads((out / "summary.json").read_text())["frames_dropped"] == 0
    cap = cv2.VideoCapture(str(out / "annotated.mp4"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) >= 70


@pytest.mark.slow
@pytest.mark.skipif(not SAMPLE.exists(), reason="the bundled sample video is missing")
def test_truncated_video_keeps_outputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clip = _cut(SAMPLE, tmp_path / "cut.avi", frames=60)
    data = clip.read_bytes()
    clip.write_bytes(data[: len(data) * 2 // 3])
    out = tmp_path / "out"
    assert main(["referee", str(clip), "--out", str(out), "--no-video"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert any("ends early" in line for line in err)
    assert (out / "events.jsonl").is_file() and (out / "report.html").is_file()


@pytest.mark.parametrize(
    ("source", "message"),
    [("missing.mp4", "no such video file"), ("rtsp://127.0.0.1:9/none", "cannot open the stream")],
)
def test_bad_sources_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, message: str
) -> None:
    assert (
        main(
            [
                "referee",
                str(tmp_path / source) if "://" not in source else source,
                "--out",
                str(tmp_path / "o"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


@pytest.mark.skipif(not SAMPLE.exists(), reason="the bundled sample video is missing")
def test_track_events_stream_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`baulkline track V --events -` writes a valid log to stdout (for `| baulkline adjudicate -`)."""
    from adjudicator.eventlog import FrameStart, read_events

    clip = _cut(SAMPLE, tmp_path / "cut.avi", frames=40)
    assert main(["track", str(clip), "--events", "-"]) == 0
    lines = capsys.readouterr().out.splitlines()
    events = list(read_events(lines, source="stdout"))
    assert events and isinstance(events[0], FrameStart)
    assert not (tmp_path / "-").exists()
