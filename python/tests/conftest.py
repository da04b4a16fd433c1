"""GPU detection: tests marked ``gpu`` are skipped unless an NVIDIA GPU and driver are present."""
import functools
import shutil
import subprocess

import pytest


@functools.lru_cache(maxsize=None)
def gpu_reason():
    """None when a GPU is usable, else why not."""
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
            if out.returncode == 0 and "GPU" in out.stdout:
                return None
        except (OSError, subprocess.TimeoutExpired):
            pass
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() > 0:
            return None
    except Exception:
        pass
    return "no NVIDIA GPU/driver (nvidia-smi -L and cupy found none)"


def pytest_collection_modifyitems(config, items):
    reason = gpu_reason()
    if reason is None:
        return
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _no_prebuilt_cache_unless_asked(request, monkeypatch):
    """MOTIF_PREBUILT (compiled outputs carried to a GPU box without the compiler) is only for the
    tests that compile the real examples; everything else must see the compiler it sets up."""
    if "uses_prebuilt" not in request.keywords:
        monkeypatch.delenv("MOTIF_PREBUILT", raising=False)
