"""The synthetic camera: physics-simulated snooker rendered through the camera model, with
exact ground truth (event log, per-frame positions, the camera)."""
