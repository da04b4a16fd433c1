"""Dump the Triton kernels the bench's peers compile: the flash kernel (bf16, 64 heads x 4096, D = 64
and 128: the autotuner's timings per config and the winner) and, with --softmax, the row softmax
(bf16 8192x4096); their PTX / cubin / SASS / TTGIR, for comparing them with motif's kernels
instruction by instruction.

    TRITON_CACHE_DIR=DIR/cache python3 scripts/triton-dump.py DIR [--softmax]

Run on the GPU machine; the SASS needs cuobjdump.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
import torch  # noqa: E402

from motif.triton_peers import peer  # noqa: E402

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
if "--softmax" in sys.argv:
    x = torch.randn(8192, 4096, device="cuda", dtype=torch.bfloat16)
    peer("softmax")(x)
    torch.cuda.synchronize()
attention = peer("attention")
kernels = next(c.cell_contents for c in attention.__closure__
               if isinstance(c.cell_contents, dict) and False in c.cell_contents)
tuner = kernels[False]
for dt in (torch.bfloat16,):
    for d in (64, 128):
        q, k, v = (torch.randn(64, 4096, d, device="cuda", dtype=dt) for _ in range(3))
        attention(q, k, v)
        torch.cuda.synchronize()
        timings = getattr(tuner, "configs_timings", {}) or {}
        print(f"D={d} {dt}: best {tuner.best_config}")
        for cfg, t in timings.items():
            print(f"   {cfg}: {t}")
cache = Path(os.environ["TRITON_CACHE_DIR"])
for cubin in cache.rglob("*.cubin"):
    sass = subprocess.run(["cuobjdump", "-sass", str(cubin)], capture_output=True, text=True).stdout
    cubin.with_suffix(".sass").write_text(sass)
    meta = cubin.with_suffix(".json")
    print(cubin.parent.name, meta.read_text()[:400] if meta.exists() else "")
