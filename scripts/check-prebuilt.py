#!/usr/bin/env python3
"""Whether prebuilt outputs still match the compiler: recompile programs and compare their PTX.

    MOTIF_BUILD_DIR=build python3 scripts/check-prebuilt.py [.prebuilt] [family[:variant] ...]

The prebuilt folder (python -m motif.prebuild) is keyed by source text and options, not by the
compiler: after a compiler change its entries may be stale. For every form (motif.compiler.forms_of)
of each example given (default: a GEMM, the half attention, the bf16 row-wise families), this reads
the prebuilt output and compiles the same program afresh, and prints whether the PTX is byte-identical.
Exit status 1 when any differs (delete those entries and run the prebuild again).
"""
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
from motif.compiler import compile_text, forms_of  # noqa: E402
from motif.examples import load_example  # noqa: E402

DEFAULT = ("gemm_bf16:gemm_bf16_w8", "gemm_bf16", "mha_bf16", "softmax_bf16", "linear_bf16", "layernorm_bf16")


def ptx_of(text, name, fuse, extra, prebuilt):
    if prebuilt:
        os.environ["MOTIF_PREBUILT"] = prebuilt
    else:
        os.environ.pop("MOTIF_PREBUILT", None)
    with tempfile.TemporaryDirectory() as t:
        ms = compile_text(text, t, name=name, fuse=fuse, extra_args=extra)
        return {k: Path(m.ptx).read_bytes() for k, m in ms.items() if m.ptx}


def main(argv):
    args = list(argv)
    folder = Path(args.pop(0) if args and Path(args[0]).is_dir() else ".prebuilt").resolve()
    specs = args or list(DEFAULT)
    differ = 0
    for spec in specs:
        fam, _, var = spec.partition(":")
        text = load_example(fam, None, var or None)
        for form, (fuse, extra) in forms_of(fam).items():
            same = ptx_of(text, var or fam, fuse, extra, str(folder)) == ptx_of(text, var or fam, fuse, extra, None)
            differ += not same
            print(f"{var or fam:16} {form:24} {'same' if same else 'DIFFERENT'}")
    print(f"{differ} form(s) differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
