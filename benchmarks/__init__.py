"""Accuracy and speed benchmarks; each writes its own section of benchmarks/RESULTS.md."""
