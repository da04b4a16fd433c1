#!/usr/bin/env python3
"""Compile schedule variants of the row softmax for scripts/softmax-variants.py.

    python3 scripts/make-softmax-variants.py OUT  FAMILY:M:N:FUNCTION:THREADS[:FORM] ...

FAMILY is softmax or softmax_bf16 (examples/<family>.mlir specialised to M x N); FUNCTION one of
its functions (softmax, softmax_rows, softmax_bf16); THREADS replaces every kernel's threads(...);
FORM (default mathematical) is fused (cap bitwise) or mathematical (cap mathematical). A FUNCTION
ending in ``@warp`` maps the rows over warps ([block.warp, lane]) instead of blocks. One
motif-compile output folder per spec under OUT, named after it; they travel to the GPU machine.
"""
import re
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(root / "python"))
from motif.examples import load_example  # noqa: E402

bin_dir = root / "build" / "bin"


def one_function(text, name):
    """The func.func @name of text, alone."""
    m = re.search(rf"^func\.func @{name}\(.*?^}}\n", text, re.S | re.M)
    if not m:
        raise SystemExit(f"no function @{name}")
    return m.group(0)


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for spec in argv[1:]:
        parts = spec.split(":")
        family, M, N, fn, threads = parts[0], int(parts[1]), int(parts[2]), parts[3], int(parts[4])
        form = parts[5] if len(parts) > 5 else "mathematical"
        warp = fn.endswith("@warp")
        fn = fn.removesuffix("@warp")
        text = one_function(load_example(family, dict(M=M, N=N)), fn)
        text = re.sub(r"threads\(\d+\)", f"threads({threads})", text)
        if warp:
            text = text.replace("over [block, thread]", "over [block.warp, lane]")
        name = f"{fn}{'_warp' if warp else ''}_{M}x{N}_t{threads}_{form}"
        src = out / f"{name}.mlir"
        src.write_text(text)
        cap = "mathematical" if form == "mathematical" else "bitwise"
        subprocess.run([str(bin_dir / "motif-compile"), str(src), "-o", str(out / name), "--fuse-materialization",
                        f"--fuse-options=equivalence-cap={cap}"], check=True)
        print(name)


if __name__ == "__main__":
    main(sys.argv[1:])
