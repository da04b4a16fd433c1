"""Partial last tiles (docs/dialect.md, "Tiles"): a tile nest whose outermost level is an unsized
`block` may leave the last block of a dim partial, its instances past the extent masked. Each
program below is a tiled kernel of the examples at shapes its block tiles do not divide, drawn at
random per run (the seed is in the failure message); the lowered kernels run on the emulator
(motif.emulator) against the schedule model, bit for bit where the program's class is bitwise
(maps, transposes, reductions, the fma contraction), within tolerance for tensor cores -- and every element of
every output is stored (an unwritten element or a store past the end fails)."""
import os
import random
import re
import subprocess

import pytest

from motif import emulator
from motif._paths import build_tool


def _tool(name):
    return build_tool(name) or pytest.skip(f"{name} is not built")


@pytest.fixture(scope="module", autouse=True)
def _built():
    os.environ.setdefault("MOTIF_BUILD_DIR", str(_tool("motif-opt").parent.parent))


# A map and a transpose over a staged x tile (examples/transpose_scale_tiled.mlir): both dims of
# 32 x 32 tiles.
TRANSPOSE = """
func.func @f(%x: tensor<{N}x{M}xf32>) -> tensor<{M}x{N}xf32> {{
  %y = motif.kernel "transpose_scale" threads(256) -> tensor<{M}x{N}xf32> {{
    %xs = motif.materialize %x in shared : tensor<{N}x{M}xf32>
    %t = motif.transpose %xs[j, i] -> [i, j]
           over [block x thread(32), block x thread(8) x seq(4)]
           : (tensor<{N}x{M}xf32>) -> tensor<{M}x{N}xf32>
    %r = motif.materialize %t in register : tensor<{M}x{N}xf32>
    %o = motif.map (%r[i, j]) -> [i, j]
           over [block x thread(32), block x thread(8) x seq(4)]
           : (tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32> {{
    ^bb0(%a: f32):
      %two = arith.constant 2.0 : f32
      %one = arith.constant 1.0 : f32
      %s = math.fma %a, %two, %one : f32
      motif.yield %s : f32
    }}
    %g = motif.materialize %o in global : tensor<{M}x{N}xf32>
    motif.yield %g : tensor<{M}x{N}xf32>
  }}
  return %y : tensor<{M}x{N}xf32>
}}
"""

# The register-blocked fma contraction over staged operand tiles with its bias + GELU epilogue in
# registers (examples/gemm_bias_gelu_tiled.mlir, smaller tiles): a 32 x 64 tile a block.
GEMM_FMA = """
func.func @f(%x: tensor<{M}x{K}xf32>, %w: tensor<{K}x{N}xf32>, %b: tensor<{N}xf32>) -> tensor<{M}x{N}xf32> {{
  %y = motif.kernel "gemm_bias_gelu" threads(128) -> tensor<{M}x{N}xf32> {{
    %xs = motif.materialize %x in shared : tensor<{M}x{K}xf32>
    %ws = motif.materialize %w in shared : tensor<{K}x{N}xf32>
    %p = motif.contract (%xs[i, k], %ws[k, j]) -> [i, j]
           over [block x thread(8) x seq(4), block x seq(2) x thread(16) x seq(2), seq x seq(16)]
           : (tensor<{M}x{K}xf32>, tensor<{K}x{N}xf32>) -> tensor<{M}x{N}xf32>
    %t = motif.materialize %p in register : tensor<{M}x{N}xf32>
    %o = motif.map (%t[i, j], %b[j]) -> [i, j]
           over [block x thread(8) x seq(4), block x seq(2) x thread(16) x seq(2)]
           : (tensor<{M}x{N}xf32>, tensor<{N}xf32>) -> tensor<{M}x{N}xf32> {{
    ^bb0(%a: f32, %c: f32):
      %u = arith.addf %a, %c : f32
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %rsqrt2 = arith.constant 0.707106769 : f32
      %z = arith.mulf %u, %rsqrt2 : f32
      %e = math.erf %z : f32
      %e1 = arith.addf %e, %one : f32
      %h = arith.mulf %u, %half : f32
      %r = arith.mulf %h, %e1 : f32
      motif.yield %r : f32
    }}
    %g = motif.materialize %o in global : tensor<{M}x{N}xf32>
    motif.yield %g : tensor<{M}x{N}xf32>
  }}
  return %y : tensor<{M}x{N}xf32>
}}
"""

# Tensor cores (examples/gemm_bf16.mlir, 2 warps of 32 x 32): a 64 x 32 tile a block, the bf16
# rounding on the accumulators where they are.
GEMM_MMA = """
func.func @f(%a: tensor<{M}x{K}xbf16>, %b: tensor<{K}x{N}xbf16>) -> tensor<{M}x{N}xbf16> {{
  %c = motif.kernel "gemm_bf16" threads(64) -> tensor<{M}x{N}xbf16> {{
    %as = motif.materialize %a in shared : tensor<{M}x{K}xbf16>
    %bs = motif.materialize %b in shared : tensor<{K}x{N}xbf16>
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(2) x seq(4) x thread(8), block x seq(4) x thread(4) x seq(2), seq x seq(32)]
           mma m16n8k16
           : (tensor<{M}x{K}xbf16>, tensor<{K}x{N}xbf16>) -> tensor<{M}x{N}xf32>
    %pr = motif.materialize %p in register : tensor<{M}x{N}xf32>
    %t = motif.map (%pr[i, j]) -> [i, j]
           over [block x thread(2) x seq(4) x thread(8), block x seq(4) x thread(4) x seq(2)]
           : (tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xbf16> {{
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }}
    %g = motif.materialize %t in global : tensor<{M}x{N}xbf16>
    motif.yield %g : tensor<{M}x{N}xbf16>
  }}
  return %c : tensor<{M}x{N}xbf16>
}}
"""

# A row sum across the block's threads, two rows a block (the last block's second row masked: it
# neither folds nor stores), kept in shared memory for the map that divides by it; N any (the
# untiled thread dim partial too).
ROW_SUM = """
func.func @f(%x: tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32> {{
  %y = motif.kernel "k" threads(64) -> tensor<{M}x{N}xf32> {{
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block x seq(2), thread] : (tensor<{M}x{N}xf32>) -> tensor<{M}xf32>
    %sr = motif.materialize %s in shared : tensor<{M}xf32>
    %m = motif.map (%x[i, j], %sr[i]) -> [i, j] over [block x seq(2), thread]
           : (tensor<{M}x{N}xf32>, tensor<{M}xf32>) -> tensor<{M}x{N}xf32> {{
    ^bb0(%a: f32, %b: f32):
      %d = arith.divf %a, %b : f32
      motif.yield %d : f32
    }}
    %g = motif.materialize %m in global : tensor<{M}x{N}xf32>
    motif.yield %g : tensor<{M}x{N}xf32>
  }}
  return %y : tensor<{M}x{N}xf32>
}}
"""

# A row max folded sequentially by each of 8 threads (a row each, 8 rows a block), K in steps of 16.
ROW_MAX = """
func.func @f(%x: tensor<{M}x{K}xf32>) -> tensor<{M}xf32> {{
  %y = motif.kernel "k" threads(8) -> tensor<{M}xf32> {{
    %s = motif.reduce <max> (%x[i, j]) -> [i] over [block x thread(8), seq x seq(16)] : (tensor<{M}x{K}xf32>) -> tensor<{M}xf32>
    %g = motif.materialize %s in global : tensor<{M}xf32>
    motif.yield %g : tensor<{M}xf32>
  }}
  return %y : tensor<{M}xf32>
}}
"""

# (template, row tile, column tile, k multiple, N multiple, bitwise)
CASES = {
    "transpose": (TRANSPOSE, 32, 32, 1, 1, True),
    "gemm_fma": (GEMM_FMA, 32, 64, 16, 1, True),
    "gemm_mma": (GEMM_MMA, 64, 32, 32, 8, False),
    "row_sum": (ROW_SUM, 2, 64, 1, 1, True),
    "row_max": (ROW_MAX, 8, 1, 16, 1, True),
}


def _shape(rng, tile, multiple=1, most=3):
    """An extent in 1 .. most tiles that the tile does not divide (a multiple of `multiple`); any
    extent up to 3 x 32 for an untiled dim (tile 1)."""
    if tile == 1:
        return rng.randrange(multiple, 97, multiple)
    while True:
        e = rng.randrange(multiple, most * tile + 1, multiple)
        if e % tile:
            return e


@pytest.mark.parametrize("name", sorted(CASES))
def test_partial_last_tiles(name, tmp_path):
    template, rows, cols, kmul, nmul, bitwise = CASES[name]
    seed = int.from_bytes(os.urandom(4), "little")
    rng = random.Random(seed)
    for n in range(3):
        M = _shape(rng, rows) if n != 1 else rng.randrange(1, 4)  # one very short case
        N = _shape(rng, cols, nmul)
        K = kmul * rng.randrange(1, 4)
        path = tmp_path / f"{name}_{M}x{N}x{K}.mlir"
        path.write_text(template.format(M=M, N=N, K=K))
        report = {}
        problems = emulator.compare(path, "f", seed=seed + n, report=report)
        assert problems == [], f"seed {seed}: {name} at M={M} N={N} K={K}: {problems}"
        assert report["bitwise"] == bitwise, f"seed {seed}: {name} judged bitwise={report['bitwise']}"


def test_partial_tile_is_masked_in_the_kernel(tmp_path):
    """The lowered kernel of a partial last tile compares each index with the extent (the mask) and
    clamps the staged copy's source rows (arith.minui), over ceil(40 / 32) x ceil(72 / 32) = 6
    blocks; with the masks planted away (every `ult` compare made always true) the emulator faults on
    the first store past the end."""
    path = tmp_path / "t.mlir"
    path.write_text(TRANSPOSE.format(M=40, N=72))
    out = subprocess.run([str(_tool("motif-opt")), str(path), "--convert-motif-to-gpu"], check=True,
                         capture_output=True, text=True).stdout
    assert "arith.minui" in out
    assert "arith.cmpi ult" in out
    assert "blocks in (%c6," in out
    lowered = emulator.lower(path)
    broken, n = re.subn(r'"arith.cmpi"\(([^,]+), ([^)]+)\) <\{predicate = 6 : i64\}>',
                        r'"arith.cmpi"(\1, \1) <{predicate = 7 : i64}>', lowered)
    assert n >= 2
    assert emulator.compare(path, "f", lowered=lowered) == []
    with pytest.raises(emulator.Fault, match="out of bounds"):
        emulator.compare(path, "f", lowered=broken)
