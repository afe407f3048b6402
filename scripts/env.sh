# Environment shared by the project's scripts: keep caches and configs inside the project,
# never on the network.
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BAULKLINE_CACHE="${BAULKLINE_CACHE:-$_root/.cache}"
mkdir -p "$BAULKLINE_CACHE"
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-$BAULKLINE_CACHE/numba}"
export YOLO_CONFIG_DIR="${YOLO_CONFIG_DIR:-$BAULKLINE_CACHE/ultralytics}"
export YOLO_OFFLINE=1
export YOLO_AUTOINSTALL=False
export MPLCONFIGDIR="${MPLCONFIGDIR:-$BAULKLINE_CACHE/mpl}"
