"""The default schedule on wgmma (sm_90a; docs/tiles.md, "Default schedules") at random shapes: C =
bf16(A.B^T) or bf16(A.B) of random M, N (1 .. 5000) and K (a multiple of 16, half of them of 64), fused
under the tolerance cap for sm_90a. The remark must agree with the rule written out here: wgmma where
K % 64 == 0 (and, for B [k, j], whose rows cp.async copies 16 bytes at a time, N % 8 == 0: else not on
tensor cores at all) and a tile of 128x256 .. 64x64 within 1/8 of the least padding leaves 132 blocks
(the first such in the table's order, 4 stages in the opt-in budget), else mma.sync with the reason.
B [k, j] is read transposed (MN-major), B [j, k] K-major; the remark says which.
Three of the programs are compiled through ptxas: no spills, dynamic shared memory within 232,448 B.
The GPU runs are scripts/mma-partial-variants.sh's `_sm90a_` folders (scripts/gemm-variants.py)."""
import json
import re
import subprocess

import numpy as np
import pytest

from motif.compiler import find_motif_compile
from motif.errors import CompilerNotFoundError

TILES = [(128, 256), (128, 128), (64, 256), (128, 64), (64, 128), (64, 64)]
OPT_IN = 232448


def _tools():
    try:
        mc = find_motif_compile()
    except CompilerNotFoundError as e:
        pytest.skip(str(e))
    return mc, mc.parent / "motif-opt"


def _program(M, N, K, nt):
    b, bidx = (f"{N}x{K}", "%b[j, k]") if nt else (f"{K}x{N}", "%b[k, j]")
    return f"""func.func @mm(%a: tensor<{M}x{K}xbf16>, %b: tensor<{b}xbf16>) -> tensor<{M}x{N}xbf16> {{
  %c = motif.kernel "mm" threads(256) -> tensor<{M}x{N}xf32> {{
    %p = motif.contract (%a[i, k], {bidx}) -> [i, j] over [block, thread, seq]
           : (tensor<{M}x{K}xbf16>, tensor<{b}xbf16>) -> tensor<{M}x{N}xf32>
    %g = motif.materialize %p in global : tensor<{M}x{N}xf32>
    motif.yield %g : tensor<{M}x{N}xf32>
  }}
  %t = motif.kernel "round" threads(256) -> tensor<{M}x{N}xbf16> {{
    %r = motif.map (%c[i, j]) -> [i, j] over [block, thread] : (tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xbf16> {{
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }}
    %g = motif.materialize %r in global : tensor<{M}x{N}xbf16>
    motif.yield %g : tensor<{M}x{N}xbf16>
  }}
  return %t : tensor<{M}x{N}xbf16>
}}
"""


def _expected(M, N, K, nt):
    """The wgmma tile and stages the rule picks, or None."""
    if K % 64 or (not nt and N % 8):
        return None
    pad = lambda e, t: -(-e // t) * t  # noqa: E731
    least = min(pad(M, r) * pad(N, c) for r, c in TILES)
    for r, c in TILES:
        stage = (r + c) * 64 * 2
        if (pad(M, r) * pad(N, c) * 8 <= least * 9 and 2 * stage + 2016 <= OPT_IN
                and (-(-M // r)) * (-(-N // c)) >= 132):
            stages = next(s for s in (4, 3, 2) if s * stage + 2016 <= OPT_IN)
            return r, c, stages
    return None


def test_wgmma_default_schedule_at_random_shapes(tmp_path):
    mc, opt = _tools()
    seed = int(np.random.SeedSequence().entropy % 2**32)
    rng = np.random.default_rng(seed)
    seen = {"wgmma": 0, "mma.sync": 0}
    compiled = 0
    for n in range(16):
        # Every fourth shape at least 1024 x 1024 with N % 8 == 0 (so some take wgmma in every run).
        lo = 1024 if n % 4 == 1 else 1
        M, N = (int(x) for x in rng.integers(lo, 5001, size=2))
        if n % 4 == 1:
            N -= N % 8
        K = int(rng.integers(1, 40)) * (64 if n % 2 else 16)
        nt = bool(n % 4 != 3) if n % 8 != 5 else False  # B [k, j] in 3 of 8
        src = tmp_path / f"mm{n}.mlir"
        src.write_text(_program(M, N, K, nt))
        p = subprocess.run([str(opt), str(src), "--fuse-materialization=equivalence-cap=tolerance chip=sm_90a",
                            "--mlir-print-op-on-diagnostic=false", "-o", "/dev/null"],
                           capture_output=True, text=True, timeout=120)
        label = f"seed {seed}: {M}x{N}x{K} {'nt' if nt else 'nn'}"
        assert p.returncode == 0, label + p.stderr[-2000:]
        m = re.search(r"default schedule: the contraction of kernel 'mm' \(\S+\) runs on tensor cores: .*? mma "
                      r"(m\d+n\d+k\d+) stages\((\d)\), threads\((\d+)\); a (\d+)x(\d+) tile a block, (\d+) blocks",
                      p.stderr)
        want = _expected(M, N, K, nt)
        if m is None:  # not on tensor cores at all (e.g. B [k, j] with N % 8): never where wgmma applies
            assert want is None, f"{label}: no tensor-core remark, expected wgmma {want}\n{p.stderr[-1500:]}"
            continue
        shape, stages, threads, r, c, blocks = m.groups()
        if want is None:
            assert not shape.startswith("m64"), label
            assert "not on wgmma: " in p.stderr, label
            seen["mma.sync"] += 1
            continue
        seen["wgmma"] += 1
        assert (int(r), int(c), int(stages)) == want, f"{label}: {r}x{c} stages({stages}), expected {want}"
        assert shape == f"m64n{c}k16" and int(threads) == 2 * int(r), label
        assert int(blocks) == (-(-M // int(r))) * (-(-N // int(c))), label
        assert "shared_tail" not in p.stderr, label  # the accumulators stay in registers
        assert f"read by matrix descriptors (A [i, k], B {'[j, k]' if nt else '[k, j] transposed'}" in p.stderr, label
        if compiled < 3:
            out = tmp_path / f"out{n}"
            q = subprocess.run([str(mc), str(src), "--chip=sm_90a", "--fuse-materialization",
                                "--fuse-options=equivalence-cap=tolerance", "--no-sass", "-o", str(out)],
                               capture_output=True, text=True, timeout=300)
            if q.returncode != 0 and "ptxas" in q.stderr and "not found" in q.stderr:
                continue
            assert q.returncode == 0, label + q.stderr[-2000:]
            (k,) = json.loads((out / "mm.json").read_text())["kernels"]
            assert k["spill_store_bytes"] == 0 and k["dynamic_shared_bytes"] <= OPT_IN, (label, k)
            ptx = (out / "mm.ptx").read_text()
            # imm-trans-b: 1 for B [k, j] (MN-major), 0 for B [j, k].
            assert "wgmma.mma_async" in ptx, label
            assert re.search(r"\}, %%rd\d+, %%rd\d+, p,\s*1,\s*1,\s*0,\s*%d;" % (0 if nt else 1), ptx), label
            compiled += 1
    # Shapes 1, 5, 9, 13 (K % 64 == 0, M, N >= 1024) take wgmma: 64x64, the least padded tile, leaves
    # 256 blocks or more. The even ones take mma.sync unless K % 64 == 0 in all 8 (1 in 65,536).
    assert seen["wgmma"] > 0 and seen["mma.sync"] > 0, (seed, seen)
