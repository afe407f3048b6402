"""The learned ball detector: a YOLO model trained on synthetic frames, run with onnxruntime.

Why it is built this way:

- Run time uses onnxruntime only: torch and ultralytics are needed to *train* the model
  (``baulkline train``, the ``train`` extra) but never to run it, so the referee installs in
  a few megabytes and starts in a fraction of a second.
- The model was trained on tiles of frames scaled by about :data:`DEFAULT_SCALE` (balls about
  6 px in radius, see ``models/README.md``); the whole frame (or the ROI) is scaled the same
  way and padded to a multiple of the network stride, which the exported dynamic input
  accepts, so no ball is cut by a tile seam and no letterbox wastes compute.
- One class per ball colour, in :data:`~vision.detection.detections.COLOURS` order, so
  detection and colour identity come from one pass; balls never overlap, so non-maximum
  suppression is class-agnostic (two colours on one ball is one ball).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import BaulklineError
from vision.detection.detections import BallDetections, Image

FloatArray = npt.NDArray[np.float64]

#: Where ``baulkline train`` writes the model and where the detector looks for it.
MODEL_PATH = Path(__file__).resolve().parents[2] / "models" / "balls.onnx"
#: Frame scale the model runs at when its metadata does not say (its training scale's middle).
DEFAULT_SCALE = 0.625
#: Network stride: input sides are padded to a multiple of it.
STRIDE = 32
#: Grey of the padding, as ultralytics letterboxes.
PAD_VALUE = 114


def load_session(path: Path, threads: int = 1) -> object:
    """An onnxruntime session of ``path``; one-line :class:`BaulklineError` if it is missing."""
    if not path.is_file():
        raise BaulklineError(
            f"{path}: ball model not found; run `baulkline train` or use the classical detector"
        )
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors for a bad file
        raise BaulklineError(f"{path}: not a readable ONNX model ({str(exc).splitlines()[0]})") from None


def model_scale(session: object, default: float = DEFAULT_SCALE) -> float:
    """The frame scale written into the model's metadata by ``baulkline train``."""
    meta = session.get_modelmeta().custom_metadata_map  # type: ignore[attr-defined]
    try:
        return float(json.loads(meta.get("baulkline", "{}")).get("scale", default))
    except (ValueError, TypeError, AttributeError):
        return default


def prepare(image: Image, scale: float) -> tuple[npt.NDArray[np.float32], float]:
    """The network input of a BGR image: scaled, padded to the stride, RGB, NCHW in [0, 1].

    Returns the tensor and the scale actually applied (sides are rounded to whole pixels)."""
    h, w = image.shape[:2]
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    small = image if (nw, nh) == (w, h) else cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA)
    pw, ph = -(-nw // STRIDE) * STRIDE, -(-nh // STRIDE) * STRIDE
    canvas = np.full((ph, pw, 3), PAD_VALUE, np.uint8)
    canvas[:nh, :nw] = small
    blob = canvas[..., ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255.0
    return np.ascontiguousarray(blob), nw / w


def decode(
    output: npt.NDArray[np.float32], conf: float, iou: float, max_det: int = 64
) -> tuple[FloatArray, FloatArray, npt.NDArray[np.int64]]:
    """Boxes ``(N, 4)`` as ``cx, cy, w, h`` (input pixels), best class score and class from a
    YOLO head output ``(1, 4 + C, A)``, after class-agnostic NMS, strongest first."""
    pred = output[0].T  # (A, 4 + C)
    scores = pred[:, 4:]
    cls = scores.argmax(axis=1)
    best = scores[np.arange(len(scores)), cls]
    keep = best >= conf
    boxes, best, cls = pred[keep, :4].astype(np.float64), best[keep].astype(np.float64), cls[keep]
    if not len(best):
        return np.zeros((0, 4)), np.zeros(0), np.zeros(0, np.int64)
    xywh = np.column_stack([boxes[:, 0] - boxes[:, 2] / 2, boxes[:, 1] - boxes[:, 3] / 2, boxes[:, 2:]])
    idx = np.asarray(cv2.dnn.NMSBoxes(xywh.tolist(), best.tolist(), conf, iou), np.int64).reshape(-1)
    idx = idx[np.argsort(-best[idx])][:max_det]
    return boxes[idx], best[idx], cls[idx].astype(np.int64)


@dataclass
class YoloDetector:
    """ONNX YOLO ball detector; conforms to :class:`~vision.detection.detections.BallDetector`.

    Attributes:
        model: path of the ONNX file (``models/balls.onnx`` by default).
        scale: frame scale to run at; ``None`` reads it from the model (its training scale).
        conf: minimum class score of a detection.
        iou: NMS overlap above which the weaker of two boxes is dropped.
        threads: onnxruntime intra-op threads (the machine is shared: one by default).
    """

    model: Path = MODEL_PATH
    scale: float | None = None
    conf: float = 0.15
    iou: float = 0.45
    threads: int = 1
    _session: object = field(init=False, repr=False)
    _input: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._session = load_session(Path(self.model), self.threads)
        self._input = self._session.get_inputs()[0].name  # type: ignore[attr-defined]
        if self.scale is None:
            self.scale = model_scale(self._session)

    def detect(self, image: Image, roi: tuple[int, int, int, int] | None = None) -> BallDetections:
        """Balls in a BGR frame (optionally only inside ``roi`` = ``(x0, y0, x1, y1)`` pixels)."""
        x0 = y0 = 0
        if roi is not None:
            h, w = image.shape[:2]
            x0, y0 = max(0, int(roi[0])), max(0, int(roi[1]))
            x1, y1 = min(w, int(roi[2])), min(h, int(roi[3]))
            if x1 <= x0 or y1 <= y0:
                return BallDetections.empty()
            image = image[y0:y1, x0:x1]
        assert self.scale is not None
        blob, s = prepare(image, self.scale)
        out = self._session.run(None, {self._input: blob})[0]  # type: ignore[attr-defined]
        boxes, score, cls = decode(np.asarray(out, np.float32), self.conf, self.iou)
        if not len(score):
            return BallDetections.empty()
        pixel = (boxes[:, :2] + 0.5) / s - 0.5 + np.array([x0, y0], np.float64)
        # A motion-blurred ball is a streak: its width across the motion is the diameter.
        radius = np.minimum(boxes[:, 2], boxes[:, 3]) / 2.0 / s
        return BallDetections.build(pixel, radius, cls, score)
