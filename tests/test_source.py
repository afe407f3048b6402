"""Frame sources: files in order, honest one-line failures."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.errors import BaulklineError
from vision.source import THUMB_SCALE, FrameSource, shrink, thumbnail


def _video(path: Path, n: int = 30) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 25.0, (64, 48))
    for i in range(n):
        writer.write(np.full((48, 64, 3), i * 8 % 255, np.uint8))
    writer.release()
    return path


def test_reads_every_frame_with_times(tmp_path: Path) -> None:
    src = FrameSource(str(_video(tmp_path / "a.avi")))
    frames = list(src.frames())
    assert [f.index for f in frames] == list(range(30))
    assert frames[5].t == pytest.approx(5 / 25.0)


def test_frame_rate_and_length_outlive_the_capture(tmp_path: Path) -> None:
    """Read after the last frame (the capture released), the file's rate and length still hold:
    a released capture answers 0, and the rate read 30 for a 25 fps file."""
    src = FrameSource(str(_video(tmp_path / "a.avi")))
    assert len(list(src.frames())) == 30
    assert src.fps == pytest.approx(25.0)
    assert src.frame_count == 30


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(BaulklineError, match="no such video file"):
        list(FrameSource(str(tmp_path / "none.mp4")).frames())


def test_not_a_video(tmp_path: Path) -> None:
    path = tmp_path / "x.mp4"
    path.write_text("hello")
    with pytest.raises(BaulklineError, match=r"x.mp4: (cannot open|no frame)"):
        list(FrameSource(str(path)).frames())


def test_truncated_file_keeps_frames_then_fails(tmp_path: Path) -> None:
    path = _video(tmp_path / "b.avi", n=60)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    got = []
    with pytest.raises(BaulklineError, match=r"(ends early|no frame)"):
        for frame in FrameSource(str(path)).frames():
            got.append(frame.index)
    assert got == list(range(len(got)))


def test_frames_equal_a_plain_decode(tmp_path: Path) -> None:
    path = _video(tmp_path / "c.avi", n=12)
    cap = cv2.VideoCapture(str(path))
    plain = []
    while (got := cap.read())[0]:
        plain.append(got[1])
    frames = list(FrameSource(str(path)).frames())
    assert len(frames) == len(plain)
    for frame, image in zip(frames, plain, strict=True):
        np.testing.assert_array_equal(frame.image, image)


@pytest.mark.parametrize("taken", [0, 1, 5])
def test_stopping_early_ends_the_reader_thread(tmp_path: Path, taken: int) -> None:
    path = _video(tmp_path / "d.avi", n=40)
    before = set(threading.enumerate())
    frames = FrameSource(str(path)).frames()
    got = [next(frames).index for _ in range(taken)]
    frames.close()
    assert got == list(range(taken))
    assert not [t for t in threading.enumerate() if t not in before and t.name.startswith("decode")]


@pytest.mark.parametrize(("work_width", "small"), [(32, (24, 32, 3)), (64, None), (0, None)])
def test_wide_frames_carry_a_working_copy(
    tmp_path: Path, work_width: int, small: tuple[int, int, int] | None
) -> None:
    path = _video(tmp_path / "e.avi", n=5)
    for frame in FrameSource(str(path), work_width=work_width).frames():
        assert (None if frame.small is None else frame.small.shape) == small
        if frame.small is not None:
            # The copy is the one the ball stage would make itself, and is handed to it as is.
            np.testing.assert_array_equal(frame.small, shrink(frame.image, (32, 24)))
            assert frame.working((32, 24)) is frame.small


@pytest.mark.parametrize("work_width", [32, 0])
def test_frames_carry_their_working_copys_thumbnail(tmp_path: Path, work_width: int) -> None:
    # The reader's thumbnail is the one the tracker's change test would make of the working copy;
    # for any other picture or scale it is not handed out.
    path = _video(tmp_path / "t.avi", n=4)
    for frame in FrameSource(str(path), work_width=work_width).frames():
        working = frame.working((32, 24) if work_width else (64, 48))
        assert frame.thumb is not None
        np.testing.assert_array_equal(frame.thumb, thumbnail(working, THUMB_SCALE))
        assert frame.thumbnail_of(working, THUMB_SCALE) is frame.thumb
        assert frame.thumbnail_of(working.copy(), THUMB_SCALE) is None
        assert frame.thumbnail_of(working, 0.25) is None
    assert all(f.thumb is None for f in FrameSource(str(path), thumbs=False).frames())
