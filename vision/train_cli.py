"""``baulkline train``: render a synthetic ball dataset, train YOLO from scratch, export ONNX.

Why it is one command: the weights in ``models/`` must be reproducible from nothing but this
repository (issue 5 item 3): the dataset is rendered by the synthetic camera
(:mod:`vision.detection.dataset`), the network is built from ultralytics' YAML (no pretrained
weights), and the result is exported to the ONNX file the run-time detector
(:mod:`vision.detection.yolo`) reads with onnxruntime. Nothing is downloaded: ultralytics runs
offline, without plots (they fetch a font) and without AMP (its check fetches weights).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import time
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from calibration.errors import BaulklineError

if TYPE_CHECKING:
    from vision.detection.dataset import DatasetSpec

ROOT = Path(__file__).resolve().parents[1]
#: Training augmentation on top of what the renderer varies: colour and brightness drift of
#: real broadcasts (small hue shifts only: hue is what tells red, pink and brown apart), scale
#: and position jitter, flips (a ball looks the same mirrored), mosaics of four tiles.
AUGMENT: dict[str, float] = {
    "hsv_h": 0.01,
    "hsv_s": 0.5,
    "hsv_v": 0.4,
    "degrees": 0.0,
    "translate": 0.1,
    "scale": 0.3,
    "fliplr": 0.5,
    "flipud": 0.5,
    "mosaic": 1.0,
    "mixup": 0.0,
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``baulkline train``."""
    parser.add_argument("--images", type=int, default=1600, help="training tiles to render (default 1600)")
    parser.add_argument("--epochs", type=int, default=40, help="most training epochs (default 40)")
    parser.add_argument(
        "--hours", type=float, default=0.7, help="training wall-time budget; epochs are fitted to it (0.7)"
    )
    parser.add_argument("--imgsz", type=int, default=160, help="tile side in pixels (default 160)")
    parser.add_argument("--out", type=Path, default=ROOT / "models", help="where balls.onnx goes")
    parser.add_argument("--model", default=str(ROOT / "models" / "balls-yolo.yaml"), help="model YAML")
    parser.add_argument("--batch", type=int, default=32, help="batch size (default 32)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1: shared machine)")
    parser.add_argument("--seed", type=int, default=0, help="dataset and training seed")
    parser.add_argument(
        "--work", type=Path, default=ROOT / ".cache" / "train", help="dataset and run folder (git-ignored)"
    )


def _offline(work: Path) -> None:
    """Make ultralytics work offline before it is imported."""
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "False"
    os.environ["YOLO_CONFIG_DIR"] = str(work / "ultralytics")
    (work / "ultralytics").mkdir(parents=True, exist_ok=True)


def _dataset(work: Path, images: int, imgsz: int, seed: int) -> tuple[Path, DatasetSpec, float]:
    """Render the dataset unless an identical one is already there."""
    from vision.detection.dataset import DatasetSpec, write_dataset

    spec = DatasetSpec(images=images, tile=imgsz, seed=seed)
    folder = work / f"balls-{images}-{imgsz}-{seed}"
    stamp = folder / "spec.json"
    record = asdict(spec)
    if stamp.is_file() and json.loads(stamp.read_text()) == json.loads(json.dumps(record)):
        print(f"dataset: reusing {folder}", flush=True)
        return folder / "data.yaml", spec, 0.0
    shutil.rmtree(folder, ignore_errors=True)
    t0 = time.perf_counter()
    data = write_dataset(folder, spec)
    stamp.write_text(json.dumps(record))
    return data, spec, time.perf_counter() - t0


def _relative(path: Path) -> str:
    """A path as the recipe records it: relative to the repository when inside it."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _tag(onnx_path: Path, meta: dict[str, object]) -> None:
    """Write the recipe into the ONNX metadata, where the run-time detector reads its scale."""
    import onnx

    model = onnx.load(str(onnx_path))
    entry = next((p for p in model.metadata_props if p.key == "baulkline"), None)
    if entry is None:
        entry = model.metadata_props.add()
        entry.key = "baulkline"
    entry.value = json.dumps(meta)
    onnx.save(model, str(onnx_path))


def run(args: argparse.Namespace) -> int:
    """Render, train, export; prints the figures that go into ``models/README.md``."""
    if importlib.util.find_spec("ultralytics") is None or importlib.util.find_spec("torch") is None:
        raise BaulklineError("training needs ultralytics and torch: pip install -e .[train]")
    work: Path = args.work.resolve()
    _offline(work)
    data, spec, render_s = _dataset(work, args.images, args.imgsz, args.seed)

    import torch
    from ultralytics import YOLO, settings

    settings.update({"sync": False, "runs_dir": str(work / "runs"), "datasets_dir": str(work)})
    torch.set_num_threads(args.threads)
    model = YOLO(args.model)
    t0 = time.perf_counter()
    model.train(
        data=str(data),
        epochs=args.epochs,
        time=args.hours if args.hours > 0 else None,
        imgsz=args.imgsz,
        batch=args.batch,
        device="cpu",
        workers=0,
        cache=True,
        val=False,
        warmup_epochs=1,
        pretrained=False,
        amp=False,
        plots=False,
        project=str(work / "runs"),
        name="balls",
        exist_ok=True,
        seed=args.seed,
        close_mosaic=max(1, args.epochs // 8),
        verbose=True,
        **AUGMENT,
    )
    train_s = time.perf_counter() - t0
    trainer = model.trainer
    assert trainer is not None
    best = Path(trainer.best)
    metrics = {k: round(float(v), 4) for k, v in (trainer.metrics or {}).items()}
    exported = Path(
        YOLO(str(best)).export(format="onnx", opset=17, simplify=True, dynamic=True, imgsz=args.imgsz)
    )
    lo, hi = spec.scale
    meta = {
        "scale": round((float(lo) + float(hi)) / 2, 4),
        "dataset": asdict(spec),
        "epochs": int(trainer.epoch) + 1,
        "imgsz": args.imgsz,
        "model": _relative(Path(args.model)),
        "augment": AUGMENT,
        "render_s": round(render_s, 1),
        "train_s": round(train_s, 1),
        "val": metrics,
    }
    _tag(exported, meta)
    args.out.mkdir(parents=True, exist_ok=True)
    target = args.out / "balls.onnx"
    shutil.copyfile(exported, target)
    size = target.stat().st_size / 1e6
    (args.out / "balls.recipe.json").write_text(
        json.dumps(meta | {"size_mb": round(size, 2)}, indent=2) + "\n"
    )
    print(f"wrote {target} ({size:.1f} MB); render {render_s:.0f} s, train {train_s:.0f} s; val {metrics}")
    if size >= 10.0:
        print(f"warning: {target} is {size:.1f} MB, over the 10 MB the repository allows")
    return 0
