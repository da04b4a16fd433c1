"""Time compiled variants of the flash form (rows per block x threads) against SDPA on the GPU.

    python3 scripts/flash-variants.py DIR...

Each DIR holds one motif-compile output (one .json manifest of an attention or multi-head
attention function, f32, bf16 or f16 tensors). Inputs: fresh N(0,1) in the function's dtype per
check; reference: float64, head by head; equivalence class: tolerance (rel err of max |ref| <= 1e-4
for f32, 4 units of roundoff of the format for bf16 / f16: 1.6e-2, 2.0e-3). Prints one row per
variant with its ptxas registers / spills / shared bytes, and SDPA (fp32: TF32 off) and the Triton
flash kernel in the same dtype on the same inputs. FLASH_CHECK_ONLY=1 checks the numerics only.
"""
import math
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
import torch  # noqa: E402

from motif.manifest import load_manifest  # noqa: E402
from motif import gputime  # noqa: E402
from motif.runtime import Program  # noqa: E402
from motif.triton_peers import peer as triton_peer  # noqa: E402

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False


def median_ms(fn, runs=10, warmup=3):
    return gputime.median_ms(torch, fn, runs, warmup)


def reference(q, k, v):
    heads = q.shape[0] if q.dim() == 3 else None
    def one(q, k, v):
        q, k, v = q.double(), k.double(), v.double()
        return torch.softmax((q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1]), dim=-1) @ v
    if heads is None:
        return one(q, k, v)
    return torch.cat([one(q[h:h + 1], k[h:h + 1], v[h:h + 1]) for h in range(heads)])


DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
RTOL = {"f32": 1e-4, "bf16": 4 * 2.0 ** -8, "f16": 4 * 2.0 ** -11}
sdpa_done = {}
eager_done = {}
triton_done = {}
# FLASH_CHECK_ONLY=1: the numerics only (one launch a variant, no timing, no peers), e.g. under compute-sanitizer.
check_only = os.environ.get("FLASH_CHECK_ONLY") == "1"
triton_attention = triton_peer("attention")
gen = torch.Generator(device="cuda").manual_seed(12)
print(f"{'variant':28} {'shape':18} {'ms':>9} {'TFLOP/s':>8} {'vs sdpa':>8} {'vs trit':>8} {'vs eager':>8} "
      f"{'rel err':>9}  ptxas")
for d in map(Path, sys.argv[1:]):
    (mpath,) = [p for p in d.glob("*.json")]
    m = load_manifest(mpath)
    shapes = [tuple(b.shape) for b in m.inputs]
    dt = m.inputs[0].dtype
    q, k, v = [torch.randn(s, device="cuda", dtype=torch.float32, generator=gen).to(DTYPES[dt])
               for s in shapes]
    prog = Program(m)
    bound = prog.bind(q, k, v)
    bound.launch()
    torch.cuda.synchronize()
    # Past 2^34 scores (64 heads at S=16384) the float64 check takes the first and the last head.
    y = bound.outputs[0]
    if q.dim() == 3 and q.shape[0] * q.shape[1] * k.shape[1] > 2 ** 34:
        sel = [0, q.shape[0] - 1]
        q_, k_, v_, y = q[sel], k[sel], v[sel], y[sel]
    else:
        q_, k_, v_ = q, k, v
    ref = reference(q_, k_, v_)
    err = ((y.double() - ref).abs().max() / ref.abs().max()).item()
    del ref
    S, D = shapes[0][-2], shapes[0][-1]
    H = shapes[0][0] if len(shapes[0]) == 3 else 1
    flops = 4 * H * S * S * D
    ok = err <= RTOL[dt]
    if check_only:
        print(f"{d.name:28} rel err {err:9.2e}{'' if ok else '  WRONG'}", flush=True)
        continue
    ms = median_ms(bound.launch) if ok else float("nan")
    key = (dt,) + shapes[0]
    if key not in sdpa_done:
        b = [t.reshape(1, H, S, D) for t in (q, k, v)]
        f = lambda: torch.nn.functional.scaled_dot_product_attention(*b)  # noqa: E731
        sdpa_done[key] = median_ms(f)
        # torch eager, the unfused form (scores, softmax, P.V), the same inputs
        scale = 1.0 / math.sqrt(D)
        g = lambda: torch.softmax(torch.matmul(b[0], b[1].transpose(-1, -2)) * scale, -1) @ b[2]  # noqa: E731
        try:  # the unfused form holds H S^2 scores three times: 137 GB at 64 heads x S=16384
            eager_done[key] = median_ms(g)
        except torch.cuda.OutOfMemoryError:
            eager_done[key] = float("nan")
        torch.cuda.empty_cache()
        # The Triton flash kernel (motif.triton_peers, autotuned on its first call) on the same inputs
        triton_done[key] = median_ms(lambda: triton_attention(q, k, v)) if triton_attention else float("nan")
    ks = m.kernels[0]
    print(f"{d.name:28} {f'H={H} S={S} D={D}':18} {ms:9.3f} {flops / ms / 1e9:8.1f} "
          f"{sdpa_done[key] / ms:8.2f} {triton_done[key] / ms:8.2f} {eager_done[key] / ms:8.2f} {err:9.2e}  {ks.registers}r {ks.spill_store_bytes}/{ks.spill_load_bytes}sp "
          f"{ks.shared_bytes}B+{ks.dynamic_shared_bytes}B dyn{'' if ok else '  WRONG'}", flush=True)
for key, t in sdpa_done.items():
    print(f"sdpa {key[0]} {key[1:]}: {t:.3f} ms; Triton flash {triton_done[key]:.3f} ms; "
          f"torch eager unfused {eager_done[key]:.3f} ms")
