"""Launch each softmax kernel after motif.gputime's 256 MiB lead ($MOTIF_LEAD: memset or read), on inputs it has not read before
(three fresh 8192x4096 bf16 tensors each, then the third once more: does any of it survive the
lead in L2?), then Triton's the same way: for Nsight Compute with
--cache-control none, which then sees the L2 as the lead leaves it (what motif.bench times).

    ncu --cache-control none --kernel-name regex:softmax --metrics ... python3 scripts/softmax-lead-launch.py DIR...
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
import torch  # noqa: E402

from motif import gputime  # noqa: E402
from motif.manifest import load_manifest  # noqa: E402
from motif.runtime import Program  # noqa: E402
from motif.triton_peers import peer  # noqa: E402

REPEATS = 3
gen = torch.Generator(device="cuda").manual_seed(5)
programs = [Program(load_manifest(next(Path(d).glob("*.json")))) for d in sys.argv[1:]]
tri = peer("softmax")
for impl in programs + [None]:
    for i in range(REPEATS + 1):
        if i < REPEATS:
            x = torch.randn(8192, 4096, device="cuda", generator=gen).to(torch.bfloat16)
        launch = (lambda: tri(x)) if impl is None else impl.bind(x).launch
        gputime.lead(torch)
        launch()
        torch.cuda.synchronize()
        print(f"{'triton' if impl is None else impl.manifest.source}: launched{' (same input again)' if i == REPEATS else ''}", flush=True)
