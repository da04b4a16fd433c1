#!/usr/bin/env python3
"""Compile schedule variants of a tensor-core GEMM example for scripts/gemm-variants.py.

    python3 scripts/make-gemm-variants.py OUT NAME:EXAMPLE:M,K,N[:ATTR=V,...] ...

EXAMPLE is an example's file stem (gemm_bf16_w8, linear_bf16, ...), specialised to M, K, N
(motif.examples.load_example). ATTR=V pairs: kstep=N rewrites the contraction's k mapping to
`seq x seq(N)`; stages=N sets `stages(N)` after its `mma` clause; lower=OPT=V passes
--lower-options=OPT=V (repeatable by joining with '+': lower=mma-fragment-pipeline=false).
One motif-compile output folder per spec, OUT/NAME. Runs where motif-compile is built.
"""
import re
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(root / "python"))
from motif.examples import family_of, load_example, chip_of  # noqa: E402


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for spec in argv[1:]:
        parts = spec.split(":")
        name, example = parts[0], parts[1]
        M, K, N = map(int, parts[2].split(","))
        attrs = dict(kv.split("=", 1) for kv in parts[3].split(",")) if len(parts) > 3 else {}
        fam = family_of(example)
        text = load_example(fam, dict(M=M, K=K, N=N), None if example == fam else example)
        if "kstep" in attrs:
            text, n = re.subn(r"seq x seq\(\d+\)\]", f"seq x seq({attrs['kstep']})]", text)
            assert n == 1, "no `seq x seq(n)` k mapping"
        if "stages" in attrs:
            text = re.sub(r"(mma m\d+n\d+k\d+)( stages\(\d+\))?", rf"\1 stages({attrs['stages']})", text)
        src = out / f"{name}.mlir"
        src.write_text(text)
        lower = attrs.get("lower")
        cmd = [str(root / "build" / "bin" / "motif-compile"), str(src), "-o", str(out / name)]
        chip = chip_of(text)
        if chip:
            cmd.append(f"--chip={chip}")
        if lower:
            cmd.append("--lower-options=" + " ".join(lower.split("+")))
        subprocess.run(cmd, check=True)
        print(f"{name}: {example} {M}x{K}x{N} {attrs}")


if __name__ == "__main__":
    main(sys.argv[1:])
