"""Ball detection: a shared per-frame container, the classical detector and colour naming."""
