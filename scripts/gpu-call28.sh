#!/usr/bin/env bash
# Session 2026-12-04 (6), device call 28: softmax_bf16 8192x4096 with L2 cache policies on its global
# accesses (PTX edited by scripts/make-ptx-variants.py: loads evict_first / evict_last, stores
# evict_last, L2::256B prefetch, .reqntid), timed by softmax-variants.py against Triton and a copy;
# then Nsight Compute with the caches left as the 256 MiB lead leaves them (--cache-control none):
# DRAM bytes read and written during each kernel. Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
b=.smvar/softmax_bf16_8192x4096_t256_mathematical
timeout 280 python3 scripts/softmax-variants.py $b ${b}_{ldfirst,ldlast,stlast,ldfirst_stlast,pf256,ldfirst_pf256,ldfirst_stlast_pf256,reqntid}/ 2>&1 \
  | grep -v -i warn | tee "$logs/softmax-l2-policies-1.txt"
timeout 120 python3 scripts/softmax-variants.py $b ${b}_{ldfirst,ldfirst_stlast}/ 2>&1 \
  | grep -v -i warn | tee "$logs/softmax-l2-policies-2.txt" | tail -n 5
cat > /tmp/lead-launch.py <<'PY'
import sys, torch
sys.path.insert(0, "python")
from pathlib import Path
from motif import gputime
from motif.manifest import load_manifest
from motif.runtime import Program
from motif.triton_peers import peer
x = torch.randn(8192, 4096, device="cuda").to(torch.bfloat16)
calls = []
for d in sys.argv[1:]:
    (m,) = Path(d).glob("*.json")
    calls.append(Program(load_manifest(m)).bind(x).launch)
tri = peer("softmax")
calls.append(lambda: tri(x))
for fn in calls:
    for _ in range(2):
        gputime.lead(torch); fn()
torch.cuda.synchronize()
PY
timeout 200 ncu --cache-control none --kernel-name "regex:softmax" \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
  python3 /tmp/lead-launch.py $b ${b}_ldfirst ${b}_ldfirst_stlast ${b}_stlast > "$logs/ncu-softmax-lead.txt" 2>&1
grep -E "^  [a-z_]+.*\(8192|dram__bytes|gpu__time" "$logs/ncu-softmax-lead.txt" | head -60
echo "call rc 0"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
