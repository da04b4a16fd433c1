"""Where the motif repository (examples/, build/) is."""
import os
from pathlib import Path


def repo_root():
    """The motif repository root: $MOTIF_ROOT, else the checkout this package lives in, else None."""
    env = os.environ.get("MOTIF_ROOT")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parents[2]  # python/motif/_paths.py -> repo root
    if (here / "examples").is_dir() or (here / "CMakeLists.txt").is_file():
        return here
    return None
