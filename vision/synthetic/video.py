"""H.264 video writing through the ffmpeg binary that imageio-ffmpeg bundles.

OpenCV's pip wheels cannot encode H.264 (no licensed encoder), and MPEG-4 part 2 files are
several times larger at the same quality, which matters for the committed sample clips
(at most 3 MB each). imageio-ffmpeg ships a static ffmpeg with libx264, so raw BGR frames are
piped to it: the encoder runs in its own process, in parallel with the renderer.
"""

from __future__ import annotations

import contextlib
import subprocess
from pathlib import Path
from types import TracebackType
from typing import IO

import numpy as np
import numpy.typing as npt

from calibration.errors import BaulklineError

U8 = npt.NDArray[np.uint8]


def ffmpeg_exe() -> str:
    """Path of the bundled ffmpeg binary."""
    try:
        import imageio_ffmpeg
    except ModuleNotFoundError:  # pragma: no cover - a declared dependency
        raise BaulklineError("imageio-ffmpeg is not installed; it provides the H.264 encoder") from None
    exe: str = imageio_ffmpeg.get_ffmpeg_exe()
    return exe


def check_writable(path: Path) -> None:
    """Fail with a one-line error, before any work, when ``path`` cannot be written."""
    parent = path.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BaulklineError(f"{parent}: cannot create the output folder ({exc.strerror})") from None
    if not parent.is_dir():
        raise BaulklineError(f"{parent}: the output folder is not a folder")
    try:
        with path.open("ab"):
            pass
    except OSError as exc:
        raise BaulklineError(f"{path}: cannot write ({exc.strerror})") from None


class H264Writer:
    """Writes BGR uint8 frames of a fixed size to an H.264 (yuv420p) MP4 file.

    Use as a context manager; frames go to ffmpeg's stdin as they come, so memory stays
    flat however long the clip is.

    Args:
        path: the ``.mp4`` to write (replaced if it exists).
        size: (width, height) in pixels; both even (yuv420p halves the chroma).
        fps: frame rate written into the stream.
        crf: x264 constant rate factor (18 near-lossless .. 30 small and soft).
        preset: x264 speed/size trade-off.
    """

    def __init__(self, path: Path, size: tuple[int, int], fps: float, crf: int = 26, preset: str = "medium"):
        w, h = size
        if w <= 0 or h <= 0 or w % 2 or h % 2:
            raise BaulklineError(f"{path}: frame size {w}x{h} must be positive and even for H.264")
        check_writable(path)
        self.path = path
        self.size = (w, h)
        self.frames = 0
        cmd = [
            ffmpeg_exe(),
            "-hide_banner",
            "-loglevel",
            "error",
            "-y",
            "-f",
            "rawvideo",
            "-pix_fmt",
            "bgr24",
            "-s",
            f"{w}x{h}",
            "-r",
            f"{fps:.6f}",
            "-i",
            "-",
            "-an",
            "-c:v",
            "libx264",
            "-preset",
            preset,
            "-crf",
            str(int(crf)),
            "-pix_fmt",
            "yuv420p",
            "-movflags",
            "+faststart",
            str(path),
        ]
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        stdin = self._proc.stdin
        assert stdin is not None
        self._stdin: IO[bytes] = stdin

    def write(self, frame: U8) -> None:
        """Append one frame (``(H, W, 3)`` BGR uint8)."""
        w, h = self.size
        if frame.shape != (h, w, 3) or frame.dtype != np.uint8:
            raise ValueError(f"frame must be uint8 of shape {(h, w, 3)}, got {frame.dtype} {frame.shape}")
        try:
            self._stdin.write(np.ascontiguousarray(frame).tobytes())
        except BrokenPipeError:
            raise BaulklineError(f"{self.path}: the encoder stopped: {self._stderr()}") from None
        self.frames += 1

    def _stderr(self) -> str:
        err = self._proc.stderr.read().decode(errors="replace") if self._proc.stderr else ""
        return " ".join(err.split())[-300:] or "no message"

    def close(self) -> None:
        """Finish the stream; raises when ffmpeg failed."""
        if self._stdin.closed:
            return
        with contextlib.suppress(BrokenPipeError):
            self._stdin.close()
        code = self._proc.wait()
        if code != 0:
            raise BaulklineError(f"{self.path}: H.264 encoding failed (ffmpeg exit {code}): {self._stderr()}")
        if self._proc.stderr:
            self._proc.stderr.close()

    def __enter__(self) -> H264Writer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is None:
            self.close()
            return
        # an error while rendering: stop the encoder and leave no half-written clip behind
        self._proc.kill()
        self._proc.wait()
        for stream in (self._stdin, self._proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self.path.unlink(missing_ok=True)
