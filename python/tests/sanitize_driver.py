"""Run every kernel of one manifest once on random inputs (for compute-sanitizer).

    compute-sanitizer --tool racecheck python sanitize_driver.py f.json [--backend cupy|cuda-python]
"""
import argparse
import sys

import numpy as np

from motif.numerics import make_inputs
from motif.runtime import Program


def main():
    p = argparse.ArgumentParser()
    p.add_argument("manifest")
    p.add_argument("--backend", default=None)
    p.add_argument("--rows", type=int, default=37, help="the row count of a program with a runtime one")
    args = p.parse_args()
    prog = Program(args.manifest, args.backend)
    inputs, seed = make_inputs(prog.manifest.inputs, rows=args.rows if prog.manifest.dynamic_rows else None)
    outputs = prog(*inputs)
    bad = [b.name for b, o in zip(prog.manifest.outputs, outputs) if not np.isfinite(o).all()]
    print(f"ran @{prog.manifest.function} ({len(prog.manifest.kernels)} kernels, seed {seed})")
    if bad:
        print(f"non-finite outputs: {', '.join(bad)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
