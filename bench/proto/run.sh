#!/usr/bin/env bash
# On the GPU: builds and runs the split-residency prototype, then torch's peers on the same shape.
set -u
cd "$(dirname "$0")"
nvcc -O3 -arch=sm_90 -o /tmp/split split_softmax.cu && /tmp/split
python3 - <<'PY'
import torch
x = torch.randn(2048, 65536, device="cuda")
f = torch.compile(lambda t: torch.softmax(t, -1)); f(x)
def t(fn):
    s, e = torch.cuda.Event(True), torch.cuda.Event(True); ts = []
    for i in range(25):
        s.record(); fn(); e.record(); e.synchronize(); ts.append(s.elapsed_time(e))
    ts = sorted(ts[5:]); return ts[len(ts)//2]
print("torch eager %.4f ms, torch.compile %.4f ms" % (t(lambda: torch.softmax(x, -1)), t(lambda: f(x))))
big = torch.empty(2**28, device="cuda"); d = torch.empty_like(big)
c = t(lambda: d.copy_(big)); print("copy %.0f GB/s" % (2 * 2**28 * 4 / c / 1e6))
PY
