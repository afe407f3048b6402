"""Frames in: a video file, a camera index or a stream URL, with honest failure.

Files are read as fast as the machine allows, every frame in order, decoded a few frames
ahead by a reader thread so that decoding overlaps the pipeline's work. Live sources (a camera,
a stream) run in real time: a reader thread keeps only the newest frame, and frames that
arrive while the pipeline is busy are counted as dropped, never silently lost. A source that
cannot be opened, stops delivering, or ends early raises a one-line
:class:`~calibration.errors.BaulklineError` naming the source and the frame, after
everything before it has been handed out.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from queue import Full, Queue

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import BaulklineError

Image = npt.NDArray[np.uint8]
Thumb = npt.NDArray[np.int16]


#: Widest frame the ball stage works on (pixels): every detector and tracker constant was tuned
#: on 1280x720 footage, and a 1080p frame holds 2.25 times the pixels to read.
WORK_WIDTH = 1280


def work_size(width: int, height: int, work_width: int = WORK_WIDTH) -> tuple[int, int]:
    """``(width, height)`` of the working copy of a ``width`` x ``height`` frame (0: no limit)."""
    s = min(1.0, work_width / width) if work_width > 0 else 1.0
    return max(1, round(width * s)), max(1, round(height * s))


def shrink(image: Image, size: tuple[int, int]) -> Image:
    """``image`` resized to ``size`` (width, height); the image itself when it has that size.

    Bilinear: area averaging costs 13 ms a 1080p frame against 3 ms.
    """
    if image.shape[1] == size[0] and image.shape[0] == size[1]:
        return image
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_LINEAR), np.uint8)


#: Scale of the grey thumbnail the tracker's change test compares frames by
#: (:attr:`vision.tracking.schedule.ScheduleConfig.thumb`: 160x90 for 720p).
THUMB_SCALE = 0.125


def thumbnail(frame: Image, scale: float = THUMB_SCALE) -> Thumb:
    """The grey thumbnail of ``frame`` at ``scale`` (area-averaged), as int16 for differences."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return np.asarray(cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), np.int16)


@dataclass(frozen=True)
class Frame:
    """One decoded frame: its index in the source, its time (s), the BGR image and, for a frame
    wider than the working width, its working copy made by the reader thread (``small``).

    ``thumb``: the working copy's :func:`thumbnail` at :data:`THUMB_SCALE`, also made by the
    reader thread (the tracker's change test reads it; made there it costs the pipeline's
    thread nothing).
    """

    index: int
    t: float
    image: Image
    small: Image | None = None
    thumb: Thumb | None = None

    def working(self, size: tuple[int, int]) -> Image:
        """The frame at ``size`` (width, height): the reader's copy when it has that size."""
        if self.small is not None and self.small.shape[1] == size[0] and self.small.shape[0] == size[1]:
            return self.small
        return shrink(self.image, size)

    def thumbnail_of(self, image: Image, scale: float) -> Thumb | None:
        """The reader's thumbnail when ``image`` is the copy it was made of and ``scale`` its scale."""
        made_of = self.image if self.small is None else self.small
        return self.thumb if self.thumb is not None and image is made_of and scale == THUMB_SCALE else None


#: What the file reader thread queues: a decoded frame, its working copy and thumbnail, or None at
#: the end.
_Item = tuple[Image, Image | None, Thumb | None] | None

#: Frames a file's reader thread decodes ahead of the pipeline (a 1080p frame is 6 MB).
READ_AHEAD = 4


def _put(queue: Queue[_Item], item: _Item, stop: threading.Event) -> None:
    """Put ``item`` on ``queue``, giving up when ``stop`` is set (the consumer has gone)."""
    while not stop.is_set():
        try:
            queue.put(item, timeout=0.05)
            return
        except Full:
            continue


def _is_live(source: str) -> bool:
    return source.isdigit() or "://" in source


@dataclass
class FrameSource:
    """Opens ``source`` and yields :class:`Frame` objects.

    Attributes:
        source: a path, a camera index (``"0"``) or a URL (``rtsp://...``).
        timeout_s: a live source silent for this long is an error.
        dropped: frames a live source delivered that the pipeline never took.
        work_width: frames wider than this also carry a copy shrunk to it (:attr:`Frame.small`),
            made by the reader thread off the pipeline's (0: never).
        thumbs: frames carry their working copy's thumbnail (:attr:`Frame.thumb`), made by the
            reader thread.
    """

    source: str
    timeout_s: float = 5.0
    dropped: int = 0
    work_width: int = WORK_WIDTH
    thumbs: bool = True
    _cap: cv2.VideoCapture | None = field(default=None, repr=False)
    # What the container says, read once: a capture released after its last frame answers 0
    # (the frame rate then read 30 for a 60 fps file).
    _fps: float | None = field(default=None, repr=False)
    _count: int | None = field(default=None, repr=False)

    @property
    def live(self) -> bool:
        """Whether the source is a camera or a stream (real time, frames may be dropped)."""
        return _is_live(self.source)

    def open(self) -> cv2.VideoCapture:
        """Open the capture, failing with a one-line reason."""
        if not self.live and not Path(self.source).is_file():
            raise BaulklineError(f"{self.source}: no such video file")
        target: int | str = int(self.source) if self.source.isdigit() else self.source
        cap = cv2.VideoCapture(target)
        if not cap.isOpened():
            kind = "camera" if self.source.isdigit() else "stream" if self.live else "video"
            raise BaulklineError(
                f"{self.source}: cannot open the {kind} (not found, not a video, or no answer)"
            )
        self._cap = cap
        return cap

    @property
    def fps(self) -> float:
        """The source's frame rate (30 when it does not say)."""
        if self._fps is None:
            cap = self._cap or self.open()
            fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
            self._fps = fps if 1.0 <= fps <= 480.0 else 30.0
        return self._fps

    @property
    def frame_count(self) -> int | None:
        """Frames the file says it has (``None`` for live sources or when unknown)."""
        if self.live:
            return None
        if self._count is None:
            cap = self._cap or self.open()
            self._count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        return self._count if self._count > 0 else None

    def frames(self) -> Generator[Frame, None, None]:
        """Every frame of a file, or the newest frames of a live source in real time.

        Closing the generator early (``close()``, or a ``for`` loop left by ``break`` once it is
        collected) stops the reader thread and releases the source.
        """
        cap = self._cap or self.open()
        if self.live:
            yield from self._live_frames(cap)
        else:
            yield from self._file_frames(cap)

    def _images(self, decoded: object) -> tuple[Image, Image | None, Thumb | None]:
        """A decoded frame, its working copy when it is wider than :attr:`work_width`, and the
        working frame's thumbnail (when :attr:`thumbs` is set)."""
        image = np.asarray(decoded, np.uint8)
        size = work_size(image.shape[1], image.shape[0], self.work_width)
        small = shrink(image, size) if size[0] != image.shape[1] else None
        thumb = thumbnail(image if small is None else small) if self.thumbs else None
        return image, small, thumb

    def _file_frames(self, cap: cv2.VideoCapture) -> Iterator[Frame]:
        """Every frame in order, decoded ahead by a reader thread.

        Why a thread: decoding a 1080p frame costs a few milliseconds that the pipeline would
        otherwise wait for; OpenCV releases the GIL while it decodes, so with a reader
        :data:`READ_AHEAD` frames ahead decoding overlaps detection on the second core. The
        bounded queue keeps memory flat when the pipeline is the slower of the two.
        """
        fps = self.fps
        expected = self.frame_count
        queue: Queue[_Item] = Queue(maxsize=READ_AHEAD)
        stop = threading.Event()

        def reader() -> None:
            try:
                while not stop.is_set():
                    ok, image = cap.read()
                    if not ok:
                        break
                    _put(queue, self._images(image), stop)
            finally:
                _put(queue, None, stop)

        thread = threading.Thread(target=reader, name=f"decode {self.source}", daemon=True)
        thread.start()
        index = 0
        try:
            while (item := queue.get()) is not None:
                yield Frame(index, index / fps, *item)
                index += 1
        finally:
            stop.set()
            thread.join()
            cap.release()
        # Containers often over-report their length by a frame or two; a larger gap means
        # the file ends early (a truncated download, a crashed recorder).
        if expected is not None and index < expected - max(2, expected // 100):
            raise BaulklineError(
                f"{self.source}: the video ends early at frame {index} of {expected} (truncated file?)"
            )
        if index == 0:
            raise BaulklineError(f"{self.source}: no frame could be decoded")

    def _live_frames(self, cap: cv2.VideoCapture) -> Iterator[Frame]:
        latest: list[tuple[int, float, Image, Image | None, Thumb | None]] = []
        lock = threading.Condition()
        state = {"count": 0, "stopped": False, "failed": False}
        start = time.monotonic()

        def reader() -> None:
            while not state["stopped"]:
                ok, image = cap.read()
                if not ok:
                    with lock:
                        state["failed"] = True
                        lock.notify_all()
                    return
                with lock:
                    if latest:
                        self.dropped += 1
                        latest.clear()
                    latest.append((int(state["count"]), time.monotonic() - start, *self._images(image)))
                    state["count"] = int(state["count"]) + 1
                    lock.notify_all()

        thread = threading.Thread(target=reader, daemon=True)
        thread.start()
        taken = 0
        try:
            while True:
                with lock:
                    if not latest and not state["failed"]:
                        lock.wait(self.timeout_s)
                    if latest:
                        index, t, image, small, thumb = latest.pop()
                    elif state["failed"]:
                        if taken == 0:
                            raise BaulklineError(f"{self.source}: the source delivered no frame")
                        raise BaulklineError(
                            f"{self.source}: the source stopped delivering after frame {taken}"
                        )
                    else:
                        raise BaulklineError(
                            f"{self.source}: no frame for {self.timeout_s:.0f} s after frame {taken} "
                            "(camera unplugged or stream stalled)"
                        )
                taken += 1
                yield Frame(index, t, image, small, thumb)
        finally:
            state["stopped"] = True
            thread.join(timeout=1.0)
            cap.release()
