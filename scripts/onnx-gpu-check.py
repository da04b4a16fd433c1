#!/usr/bin/env python3
"""The imported ONNX programs on a GPU: unfused and fused against a float64 NumPy evaluation of
each ONNX graph's semantics (issue 14).

    python3 scripts/onnx-gpu-check.py --prebuild .prebuilt     # where motif-compile is built
    MOTIF_PREBUILT=.prebuilt python3 scripts/onnx-gpu-check.py  # on the GPU machine

The programs are test/Conversion/LinalgToMotif/Inputs/onnx/*.mlir (linalg from scripts/import-onnx.py),
and Inputs/onnx-rows/*.mlir (the same models with a symbolic batch dim, --dynamic-rows: one compiled
program run at several row counts, ROWS);
motif-compile imports them itself. The references are motif.reference's formulas, which are the ONNX
graphs' semantics (scripts/import-onnx.py --builtin): Softmax(axis=-1); LayerNormalization(axis=-1,
epsilon=1e-5, biased variance); x / sqrt(ReduceMean(x*x) + 1e-6) * w; softmax(q k^T * 0.125) v (D = 64);
Gelu(x w + b) with the exact erf; Relu(x + r). Fresh N(0,1) inputs every run (the seed is printed).
The batched models (softmax_3d, layernorm_3d: [batch, sequence, hidden]) use their families' formulas
over the last dim. The row programs also run fused with the row rules at small sizes
(ROWS_A_BLOCK_OPTIONS: rows a block, and threads(64) under the tolerance cap).
"""
import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

PROGRAMS = ("softmax", "layernorm", "rmsnorm", "attention", "gemm_bias_gelu", "residual_relu",
            "softmax_3d", "layernorm_3d")
# A third form of the row programs, fused with the row rules at these small sizes (docs/residency.md,
# "Row blocks"): threads(64), and rows a block (R = 4) down to 64 blocks; under the bitwise cap (rows
# a block alone) the result is bit for bit the default fused form's.
ROWS_A_BLOCK = ("layernorm", "rmsnorm", "softmax_3d", "layernorm_3d")
ROWS_A_BLOCK_OPTIONS = ("--fuse-options=equivalence-cap=tolerance row-block-min-grid=64",
                        "--fuse-options=row-block-min-grid=64")
# The batched models' formulas are their 2-D families' over the last dim.
FAMILY = {"softmax_3d": "softmax", "layernorm_3d": "layernorm"}
# With a runtime row count (LayerNorm's dynamic broadcast does not import), at these row counts.
ROW_PROGRAMS = ("softmax", "rmsnorm", "attention", "gemm_bias_gelu", "residual_relu")
ROWS = (1, 1000, 32768)
# Those with a runtime row count also fused under the tolerance cap: the smaller block (threads(64); the
# RMSNorm's per-row maps over the row count go with its rows since session 19), one row a block (a
# block of several would need a masked last one).
ROW_COUNT_RULES = ("softmax", "rmsnorm")
ROW_COUNT_OPTIONS = ("--fuse-options=equivalence-cap=tolerance",)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--prebuild", metavar="DIR", help="compile both forms of every program into DIR and stop")
    p.add_argument("--seed", type=int, default=None)
    args = p.parse_args(argv)
    if args.prebuild:
        os.environ["MOTIF_PREBUILT"] = str(Path(args.prebuild).resolve())
        Path(args.prebuild).mkdir(parents=True, exist_ok=True)
    import numpy as np
    from motif.compiler import compile_file
    from motif.numerics import TOLERANCES, classify, make_inputs
    from motif.reference import REFERENCES

    src = ROOT / "test/Conversion/LinalgToMotif/Inputs/onnx"
    rows_src = ROOT / "test/Conversion/LinalgToMotif/Inputs/onnx-rows"
    forms, row_forms = {}, {}
    for name in PROGRAMS:
        forms[name] = {fuse: compile_file(src / f"{name}.mlir", fuse=fuse) for fuse in (False, True)}
        if name in ROWS_A_BLOCK:
            for i, opts in enumerate(ROWS_A_BLOCK_OPTIONS):
                forms[name][("rows", i)] = compile_file(src / f"{name}.mlir", fuse=True, extra_args=(opts,))
    for name in ROW_PROGRAMS:
        row_forms[name] = {fuse: compile_file(rows_src / f"{name}.mlir", fuse=fuse) for fuse in (False, True)}
        if name in ROW_COUNT_RULES:
            for i, opts in enumerate(ROW_COUNT_OPTIONS):
                row_forms[name][("rows", i)] = compile_file(rows_src / f"{name}.mlir", fuse=True, extra_args=(opts,))
    if args.prebuild:
        n = sum(map(len, forms.values())) + sum(map(len, row_forms.values()))
        print(f"prebuilt {n} programs into {args.prebuild}")
        return 0
    from motif.runtime import Program
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy)
    print(f"seed {seed}")
    print(f"{'program':24s} {'kernels u/f':11s} {'unfused rel':11s} {'fused rel':10s} {'bitwise':7s} "
          f"{'tol':6s} class")
    failed = 0
    runs = [(name, forms[name], None) for name in PROGRAMS]
    runs += [(name, row_forms[name], rows) for name in ROW_PROGRAMS for rows in ROWS]
    for name, both, rows in runs:
        (fn, mu), = both[False].items()
        mf = both[True][fn]
        arrays, _ = make_inputs(mu.inputs, seed, rows)
        family = FAMILY.get(name, name)
        ref = REFERENCES[family](*arrays)
        (yu,) = Program(mu)(*arrays)
        (yf,) = Program(mf)(*arrays)
        c = classify(yu, yf, ref, TOLERANCES[family], None)
        failed += c.equivalence == "FAIL"
        label = name if rows is None else f"{name} rows={rows}"
        print(f"{label:24s} {len(mu.kernels):>4d} / {len(mf.kernels):<4d} {c.unfused_rel_err:11.2e} "
              f"{c.fused_rel_err:10.2e} {'yes' if c.bitwise else 'no':7s} {c.tolerance:6.0e} {c.equivalence}")
        # The row-rule forms against the unfused one; a rows-a-block form under the bitwise cap must
        # equal the default fused form bit for bit (each row keeps its threads and tree).
        if rows is None:
            options = ROWS_A_BLOCK_OPTIONS if name in ROWS_A_BLOCK else ()
        else:
            options = ROW_COUNT_OPTIONS if name in ROW_COUNT_RULES else ()
        for i, opts in enumerate(options):
            mr = both[("rows", i)][fn]
            (yr,) = Program(mr)(*arrays)
            c = classify(yu, yr, ref, TOLERANCES[family], None)
            same = np.array_equal(np.asarray(yr).view(np.uint32), np.asarray(yf).view(np.uint32))
            bad = c.equivalence == "FAIL" or ("tolerance" not in opts and not same)
            failed += bad
            print(f"{label + ' ' + opts.split('=', 1)[1]:56s} {len(mr.kernels):>4d} {c.fused_rel_err:10.2e} "
                  f"{'bit for bit' if same else 'not bitwise'} to fused{'  FAIL' if bad else ''} "
                  f"{c.equivalence}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
