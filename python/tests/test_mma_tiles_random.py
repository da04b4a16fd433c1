"""Tensor-core default schedules on random GEMM shapes (CPU; docs/tiles.md, "Default schedules").

Fresh random programs each run: an unfused C = A.B (bf16 or f16 operands, B indexed [k, j] or [j, k]),
M a multiple of 16 up to 192, N of 8 up to 192, K of 16 up to 96 -- or, in half the cases, M any up to
192 and N any (B [j, k]) or a multiple of 8 (B [k, j]), shapes with partial last tiles --, its f32
product rounded to the operand type by an epilogue map or returned as is, fused under the tolerance cap
at a random mma-min-grid. The tile is computed here from its documented statement, an oracle
independent of DefaultSchedules.cpp: the table R x C (R in 128, 64, 32, 16; C in 128, 64, 32, 16, 8)
largest first by area, then the squarer (R C / (R + C)), then more rows; the candidates are the tiles
that divide M x N where it is a multiple of 16 x 8, else those whose padded area (M, N rounded up to
the tile) is within 1/8 of the least padded; the first candidate that leaves at least mma-min-grid
blocks, else the one with the most blocks; three cp.async stages; k in steps of 32 (16 where 32 does
not divide K), or of the largest of 256, 128, 64 that divides K and whose three stages still fit 48 KiB
(K up to 256 in a third of the cases). The fused program's remark must name that tile and grid,
and scripts/emulate-mma.py runs the lowered kernel (the PTX ISA's ldmatrix / mma.sync / cp.async
semantics) on fresh random inputs against float64 A.B: equivalence class tolerance (normwise relative
error within 2^-8 for a bf16 result, 2^-10 for f16, 1e-5 for the f32 product). The options are
printed so that a failure reproduces.
"""
import re
import subprocess
import sys

import numpy as np
import pytest

from test_clusters_random import _tools

LOWER = "builtin.module(convert-motif-to-gpu,gpu.module(canonicalize,cse))"
RTOL = {"bf16": 2.0 ** -8, "f16": 2.0 ** -10, "f32": 1e-5}


def _tile_table():
    tiles = [(r, c) for r in (128, 64, 32, 16) for c in (128, 64, 32, 16, 8)]
    return sorted(tiles, key=lambda t: (-t[0] * t[1], -t[0] * t[1] / (t[0] + t[1]), -t[0]))


def _blocks(m, n, t):
    return -(-m // t[0]) * -(-n // t[1])


def expected_tile(m, n, min_grid):
    if m % 16 == 0 and n % 8 == 0:
        candidates = [(r, c) for r, c in _tile_table() if m % r == 0 and n % c == 0]
    else:
        padded = {t: _blocks(m, n, t) * t[0] * t[1] for t in _tile_table()}
        least = min(padded.values())
        candidates = [t for t in _tile_table() if padded[t] * 8 <= least * 9]
    for t in candidates:
        if _blocks(m, n, t) >= min_grid:
            return t, _blocks(m, n, t), False
    t = max(candidates, key=lambda t: _blocks(m, n, t))
    return t, _blocks(m, n, t), True


def expected_k_step(r, c, k, budget=49152):
    """The k step: 32 where it divides K, else 16; then the largest of 256, 128, 64 that divides K and
    whose three stages of both 16-bit operand tiles still fit the budget."""
    bk = 32 if k % 32 == 0 else 16
    if 3 * (r + c) * bk * 2 <= budget:
        for s in (256, 128, 64):
            if s > bk and k % s == 0 and 3 * (r + c) * s * 2 <= budget:
                return s
    return bk


def _program(m, n, k, dt, nk, epilogue):
    b_type = f"tensor<{n}x{k}x{dt}>" if nk else f"tensor<{k}x{n}x{dt}>"
    b_index = "%b[j, k]" if nk else "%b[k, j]"
    out = dt if epilogue else "f32"
    text = f"""func.func @mm(%a: tensor<{m}x{k}x{dt}>, %b: {b_type}) -> tensor<{m}x{n}x{out}> {{
  %c = motif.kernel "mm" threads(256) -> tensor<{m}x{n}xf32> {{
    %p = motif.contract (%a[i, k], {b_index}) -> [i, j] over [block, thread, seq]
           : (tensor<{m}x{k}x{dt}>, {b_type}) -> tensor<{m}x{n}xf32>
    %g = motif.materialize %p in global : tensor<{m}x{n}xf32>
    motif.yield %g : tensor<{m}x{n}xf32>
  }}
"""
    if not epilogue:
        return text + f"  return %c : tensor<{m}x{n}xf32>\n}}\n"
    return text + f"""  %t = motif.kernel "round" threads(256) -> tensor<{m}x{n}x{dt}> {{
    %r = motif.map (%c[i, j]) -> [i, j] over [block, thread] : (tensor<{m}x{n}xf32>) -> tensor<{m}x{n}x{dt}> {{
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to {dt}
      motif.yield %y : {dt}
    }}
    %g = motif.materialize %r in global : tensor<{m}x{n}x{dt}>
    motif.yield %g : tensor<{m}x{n}x{dt}>
  }}
  return %t : tensor<{m}x{n}x{dt}>
}}
"""


def test_tile_table_order():
    """The oracle's table: 20 tiles, 128x128 first, 16x8 last, 64x64 before 128x32 (squarer)."""
    t = _tile_table()
    assert len(t) == 20 and t[0] == (128, 128) and t[-1] == (16, 8)
    assert t.index((64, 64)) < t.index((128, 32)) < t.index((32, 128))
    assert expected_tile(256, 256, 0) == ((128, 128), 4, False)
    assert expected_tile(256, 256, 132) == ((16, 16), 256, False)
    assert expected_tile(48, 40, 132) == ((16, 8), 15, True)
    # partial: 1000 rows pad to 1024 at 64 or 128 rows (within 1/8 of 1008); 100 rows only at 16
    assert expected_tile(1000, 1024, 132) == ((64, 64), 256, False)
    assert expected_tile(100, 256, 0) == ((16, 128), 14, False)
    # k steps: 128x128 keeps 32 (3 x 16 KiB); 16x16 takes 256 at K = 4096, 128 at K = 128
    assert expected_k_step(128, 128, 4096) == 32 and expected_k_step(16, 16, 4096) == 256
    assert expected_k_step(16, 16, 128) == 128 and expected_k_step(64, 64, 1024) == 64
    assert expected_k_step(32, 8, 48) == 16


def test_random_gemm_tiles_emulated(tmp_path):
    opt, emulator = _tools()
    rng = np.random.default_rng()
    seed = int(rng.integers(1 << 31))
    rng = np.random.default_rng(seed)
    for case in range(24):
        m = 16 * int(rng.integers(1, 13))
        n = 8 * int(rng.integers(1, 25))
        k = 16 * int(rng.integers(1, 7)) if case % 3 else 64 * int(rng.integers(1, 5))  # steps up to 256
        dt = str(rng.choice(["bf16", "f16"]))
        nk = bool(rng.integers(2))
        if rng.integers(2):  # partial last tiles: any M; any N where B is [j, k]
            m = int(rng.integers(1, 193))
            n = int(rng.integers(1, 193)) if nk else 8 * int(rng.integers(1, 25))
        epilogue = bool(rng.integers(2))
        min_grid = int(rng.choice([0, 1, 4, 16, 132]))
        label = (f"seed {seed} case {case}: {m}x{n}x{k} {dt} B[{'j, k' if nk else 'k, j'}] "
                 f"epilogue={epilogue} mma-min-grid={min_grid}")
        src = tmp_path / f"mm{case}.mlir"
        src.write_text(_program(m, n, k, dt, nk, epilogue))
        fuse = subprocess.run([str(opt), str(src), "--fuse-materialization=equivalence-cap=tolerance "
                               f"register-budget=160 mma-min-grid={min_grid}"],
                              capture_output=True, text=True, timeout=300)
        assert fuse.returncode == 0, f"{label}: {fuse.stderr[-2000:]}"
        (r, c), grid, under = expected_tile(m, n, min_grid)
        partial = m % 16 != 0 or n % 8 != 0
        among = " within 1/8 of the least padding" if partial else ""
        why = (f"no tile{among} leaves mma-min-grid={min_grid} blocks: the one with the most" if under
               else f"the largest tile{among} that leaves mma-min-grid={min_grid}" if min_grid
               else f"the largest tile{among if partial else ' that divides'}")
        if partial:
            why += f"; the last block of a dim partial, its rows and columns past {m}x{n} masked"
        want = f"({m}x{n}x{k}) runs on tensor cores: "
        tail = f"; a {r}x{c} tile a block, {grid} blocks ({why})"
        assert any(want in line and tail in line for line in fuse.stderr.splitlines()), \
            f"{label}: expected {r}x{c}, {grid} blocks ({why}); remarks:\n{fuse.stderr[-3000:]}"
        bk = expected_k_step(r, c, k)
        assert re.search(rf"seq x seq\({bk}\)\] mma m16n8k16 stages\(3\)", fuse.stdout), f"{label}: k step {bk}"
        lowered = tmp_path / f"mm{case}.lowered.mlir"
        low = subprocess.run([str(opt), f"--pass-pipeline={LOWER}", "--mlir-print-op-generic", "-o",
                              str(lowered)], input=fuse.stdout, capture_output=True, text=True, timeout=300)
        assert low.returncode == 0, f"{label}: {low.stderr[-2000:]}"
        rtol = RTOL[dt if epilogue else "f32"]
        e = subprocess.run([sys.executable, str(emulator), str(lowered), "--rtol", str(rtol),
                            "--seed", str(int(rng.integers(1 << 30)))] + (["--rhs", "nk"] if nk else []),
                           capture_output=True, text=True, timeout=900)
        assert e.returncode == 0 and "emulate-mma: PASS" in e.stdout, \
            f"{label}: {e.stdout[-2000:]}{e.stderr[-2000:]}"
        assert f"grid {grid}, {32 * min(4, r // 16)} threads" in e.stdout, f"{label}: {e.stdout}"


def _epilogue_program(m, n, k, dt, nk, steps):
    """C = A.B on tensor cores (no tiles stated), then an epilogue chain of kernels, one map each:
    `bias` (+ bias[j]), `scale` (x 0.5), `relu` (max(x, 0)), `tanh`, `round` (truncf to the operand
    type, last)."""
    b_type = f"tensor<{n}x{k}x{dt}>" if nk else f"tensor<{k}x{n}x{dt}>"
    b_index = "%b[j, k]" if nk else "%b[k, j]"
    lines = [f"func.func @mm(%a: tensor<{m}x{k}x{dt}>, %b: {b_type}, %bias: tensor<{n}xf32>) -> RESULT {{",
             f'  %v0 = motif.kernel "mm" threads(256) -> tensor<{m}x{n}xf32> {{',
             f"    %p = motif.contract (%a[i, k], {b_index}) -> [i, j] over [block, thread, seq]",
             f"           : (tensor<{m}x{k}x{dt}>, {b_type}) -> tensor<{m}x{n}xf32>",
             f"    %g = motif.materialize %p in global : tensor<{m}x{n}xf32>",
             f"    motif.yield %g : tensor<{m}x{n}xf32>", "  }"]
    t = f"tensor<{m}x{n}xf32>"
    for s, step in enumerate(steps, 1):
        out = f"tensor<{m}x{n}x{dt}>" if step == "round" else t
        el = dt if step == "round" else "f32"
        ins = f"%v{s - 1}[i, j], %bias[j]" if step == "bias" else f"%v{s - 1}[i, j]"
        in_types = f"{t}, tensor<{n}xf32>" if step == "bias" else t
        args = "%x: f32, %c: f32" if step == "bias" else "%x: f32"
        body = {"bias": ["%y = arith.addf %x, %c : f32"],
                "scale": ["%h = arith.constant 0.5 : f32", "%y = arith.mulf %x, %h : f32"],
                "relu": ["%z = arith.constant 0.0 : f32", "%y = arith.maximumf %x, %z : f32"],
                "tanh": ["%y = math.tanh %x : f32"],
                "round": [f"%y = arith.truncf %x : f32 to {dt}"]}[step]
        lines += [f'  %v{s} = motif.kernel "{step}" threads(256) -> {out} {{',
                  f"    %r = motif.map ({ins}) -> [i, j] over [block, thread] : ({in_types}) -> {out} {{",
                  f"    ^bb0({args}):"] + [f"      {b}" for b in body] + [
                  f"      motif.yield %y : {el}", "    }",
                  f"    %g = motif.materialize %r in global : {out}", f"    motif.yield %g : {out}", "  }"]
    result = f"tensor<{m}x{n}x{dt}>" if steps and steps[-1] == "round" else t
    lines += [f"  return %v{len(steps)} : {result}", "}"]
    return "\n".join(lines).replace("RESULT", result) + "\n"


def test_random_gemm_epilogues_oracle(tmp_path):
    """Random epilogue chains after a tensor-core GEMM, judged by `motif-fuzz check --cap=tolerance`
    (the schedule model: the fused form against the unfused one and against float64, the mma.sync
    fold order modelled; docs/fuzzing.md). The fused form must run the product on tensor cores."""
    opt, _ = _tools()
    fuzz = opt.parent / "motif-fuzz"
    if not fuzz.is_file():
        pytest.skip(f"motif-fuzz not found in {opt.parent}")
    rng = np.random.default_rng()
    seed = int(rng.integers(1 << 31))
    rng = np.random.default_rng(seed)
    for case in range(12):
        m, n, k = 16 * int(rng.integers(1, 5)), 8 * int(rng.integers(1, 9)), 16 * int(rng.integers(1, 3))
        dt = str(rng.choice(["bf16", "f16"]))
        nk = bool(rng.integers(2))
        if rng.integers(2):  # partial last tiles
            m = int(rng.integers(1, 65))
            n = int(rng.integers(1, 65)) if nk else n
        steps = [s for s in ("bias", "scale", "relu", "tanh") if rng.integers(2)]
        rng.shuffle(steps)
        if rng.integers(2):
            steps.append("round")
        label = f"seed {seed} case {case}: {m}x{n}x{k} {dt} B[{'j, k' if nk else 'k, j'}] epilogue {steps}"
        src = tmp_path / f"epi{case}.mlir"
        src.write_text(_epilogue_program(m, n, k, dt, nk, steps))
        fused = subprocess.run([str(opt), str(src), "--fuse-materialization=equivalence-cap=tolerance"],
                               capture_output=True, text=True, timeout=300)
        assert fused.returncode == 0, f"{label}: {fused.stderr[-2000:]}"
        assert "mma m16n8k16" in fused.stdout, f"{label}: not on tensor cores\n{fused.stderr[-2000:]}"
        check = subprocess.run([str(fuzz), "check", str(src), "--cap=tolerance"], capture_output=True,
                               text=True, timeout=600)
        assert check.returncode == 0 and ": pass" in check.stdout, \
            f"{label}: {check.stdout[-2000:]}{check.stderr[-2000:]}"
