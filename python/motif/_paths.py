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


def build_tool(name):
    """A tool of the build (motif-opt, motif-equiv, motif-fuzz, ...): $MOTIF_BUILD_DIR/bin, else the
    checkout's build/bin; None when it is not built."""
    roots = [Path(os.environ["MOTIF_BUILD_DIR"]) / "bin"] if os.environ.get("MOTIF_BUILD_DIR") else []
    if repo_root() is not None:
        roots.append(repo_root() / "build" / "bin")
    for r in roots:
        if (r / name).is_file():
            return r / name
    return None
