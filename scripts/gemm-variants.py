"""Time compiled variants of a half-precision GEMM against cuBLAS (torch.mm) on the GPU.

    python3 scripts/gemm-variants.py [--check-only] [nt:]DIR...

Each DIR holds one motif-compile output (one .json manifest of C = A.B, bf16 or f16 operands);
with the prefix `nt:` the program computes C = A.B^T with B stored [N, K] (an nn.Linear weight, the
layout wgmma reads), and cuBLAS runs the same product (torch.nn.functional.linear). A program whose A is
indexed [k, i] (read off its source) computes C = A^T.B with A stored [K, M]; cuBLAS runs torch.mm(a.t(), b)
(its TN form) and there is no Triton peer.
Inputs: fresh N(0,1) per variant; reference: float64 A.B; equivalence class: tolerance (normwise
relative error within 2^-8 for bf16, 2^-10 for f16 outputs; exit status 1 if any variant is outside).
Prints one row per variant (ms, TFLOP/s, x cuBLAS, x Triton, ptxas registers / spills / shared bytes)
and torch.mm and Triton's masked tile matmul (motif.triton_peers, tutorial 03's autotuned configurations,
the same inputs) per shape: at shapes whose rows are not 16-byte multiples cuBLAS leaves its aligned
kernels, and Triton's masked tiles are the like-for-like peer.
With --check-only each variant is launched once and checked, with no timing and no cuBLAS: the form
to run under compute-sanitizer (racecheck reports hazards inside cuBLAS's own sm_90 kernels).
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
import torch  # noqa: E402

from motif import gputime, triton_peers  # noqa: E402
from motif.manifest import load_manifest  # noqa: E402
from motif.runtime import Program  # noqa: E402

DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
RTOL = {"bf16": 2.0 ** -8, "f16": 2.0 ** -10, "f32": 1e-5}
gen = torch.Generator(device="cuda").manual_seed(3)
cublas = {}
triton = {}
check_only = "--check-only" in sys.argv[1:]
wrong = 0
print(f"{'variant':28} {'shape':16} {'ms':>8} {'TFLOP/s':>8} {'x cuBLAS':>8} {'x Triton':>8} {'rel err':>9}  ptxas")
for arg in [a for a in sys.argv[1:] if a != "--check-only"]:
    nt = arg.startswith("nt:")
    d = Path(arg[3:] if nt else arg)
    (mpath,) = [p for p in d.glob("*.json")]
    m = load_manifest(mpath)
    # B[j, k] (C = A.B^T, the linear family) read off the program's contraction where its source is
    # at hand, so that a variant passed without "nt:" is not checked against the wrong product.
    # Likewise A[k, i] (C = A^T.B, A stored K x M: a weight gradient's X^T dY; cuBLAS's TN form).
    src = Path(m.source) if m.source else None
    at = False
    if src is not None and src.is_file():
        found = re.search(r"motif\.contract \(%\w+\[(\w+), (\w+)\], %\w+\[(\w+), (\w+)\]\)", src.read_text())
        if found:
            a0, a1, b0, b1 = found.groups()
            common = a1 if a1 in (b0, b1) else a0
            at = a0 == common
            nt = b1 == common
    (M, K) = m.inputs[0].shape[::-1] if at else m.inputs[0].shape
    N = m.inputs[1].shape[0 if nt else 1]
    dt = m.inputs[0].dtype
    a = torch.randn((K, M) if at else (M, K), device="cuda", generator=gen).to(DTYPES[dt])
    b = torch.randn((N, K) if nt else (K, N), device="cuda", generator=gen).to(DTYPES[dt])
    bound = Program(m).bind(a, b)
    bound.launch()
    torch.cuda.synchronize()
    ref = (a.double().T if at else a.double()) @ (b.double().T if nt else b.double())
    err = (torch.linalg.norm(bound.outputs[0].double() - ref) / torch.linalg.norm(ref)).item()
    ok = err <= RTOL[m.outputs[0].dtype]
    wrong += not ok
    ms = gputime.median_ms(torch, bound.launch) if ok and not check_only else float("nan")
    key = (dt, M, K, N, ("t" if at else "n") + ("t" if nt else "n"))
    if check_only:
        cublas[key] = triton[key] = float("nan")
    elif key not in cublas:
        peer = ((lambda: torch.mm(a.t(), b.t() if nt else b)) if at else
                (lambda: torch.nn.functional.linear(a, b)) if nt else (lambda: torch.mm(a, b)))
        cublas[key] = gputime.median_ms(torch, peer)
        tri = None if at else triton_peers.peer("linear" if nt else "gemm")
        triton[key] = float("nan")
        if tri is not None:
            got = tri(a, b)  # autotunes on the first call
            terr = (torch.linalg.norm(got.double() - ref) / torch.linalg.norm(ref)).item()
            if terr <= RTOL[dt]:
                triton[key] = gputime.median_ms(torch, lambda: tri(a, b))
    flops = 2 * M * N * K
    ks = ", ".join(f"{k.registers}r {k.spill_store_bytes}sp {k.shared_bytes}+{k.dynamic_shared_bytes}B "
                   f"{k.block[0]}t" for k in m.kernels)
    print(f"{d.name:28} {f'{M}x{K}x{N}':16} {ms:8.3f} {flops / ms / 1e9:8.1f} {cublas[key] / ms:8.2f} "
          f"{triton[key] / ms:8.2f} "
          f"{err:9.2e}  {ks}{'' if ok else '  WRONG'}", flush=True)
for (dt, M, K, N, form), t in ([] if check_only else cublas.items()):
    tt = triton[(dt, M, K, N, form)]
    print(f"cuBLAS {dt} {M}x{K}x{N} {form}: {t:.3f} ms, {2 * M * N * K / t / 1e9:.1f} TFLOP/s; "
          f"Triton {tt:.3f} ms, {2 * M * N * K / tt / 1e9:.1f} TFLOP/s")
sys.exit(1 if wrong else 0)
