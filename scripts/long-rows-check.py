"""Numerics of the row families at long rows (row blocks grow their block there: docs/residency.md,
"Row blocks"): unfused, fused and mathematical forms against float64 (motif.numerics.check_family,
fresh random inputs, its edge cases), at 64 rows of 65536 and 48 of 40000 (not a power of two), and
bf16 rows of 131072 and 100000, where the mathematical form runs as a cluster of 8 CTAs (row-clusters=auto).

    python3 scripts/long-rows-check.py [--seed S]

On a machine without the GPU it only compiles (filling $MOTIF_PREBUILT for the GPU machine).
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
from motif.compiler import compile_text, forms_of  # noqa: E402
from motif.errors import MotifRuntimeError  # noqa: E402
from motif.examples import load_example  # noqa: E402
from motif.numerics import check_family, format_table  # noqa: E402
from motif.runtime import get_backend  # noqa: E402

CASES = [("softmax_bf16", dict(M=64, N=65536)), ("softmax", dict(M=64, N=65536)),
         ("softmax_bf16", dict(M=48, N=40000)), ("layernorm_bf16", dict(M=32, N=65536)),
         ("rmsnorm", dict(M=32, N=40000)), ("softmax_bf16", dict(M=16, N=131072)),
         ("softmax_bf16", dict(M=24, N=100000))]

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=None)
a = ap.parse_args()
try:
    get_backend()
except MotifRuntimeError as e:
    print(f"no GPU ({e}): compiling only")
    for fam, dims in CASES:
        for form, (fuse, extra) in forms_of(fam).items():
            compile_text(load_example(fam, dims), name=fam, fuse=fuse, extra_args=extra)
            print(f"compiled {fam} {dims} {form}")
    sys.exit(0)
results = []
for fam, dims in CASES:
    results += check_family(fam, dims=dims, seed=a.seed, schedules=False)
print(format_table(results))
sys.exit(1 if any(r.equivalence == "FAIL" or getattr(r, "error", None) for r in results) else 0)
