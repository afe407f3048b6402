"""Video in: detection, tracking, event inference and the pipeline."""
