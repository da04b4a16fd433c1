"""Compile the row-cluster variants of long-row softmax programs for scripts/hint-variants.py.

    python3 scripts/make-cluster-variants.py OUT [FAMILY:M:N ...]

(the shapes default to the four below.)

For each shape, under OUT/<family>-<M>x<N>/ (motif-compile output folders, mathematical cap):
  default                the fusion's choice (row-clusters=auto)
  grown                  the row grows to at most 512 threads, one CTA (row-cluster-threads=0)
  one-cta                the fused program of cta256 with its cluster removed: one CTA of the grown
                         block (absent where its shared tails do not fit one CTA)
  cta512 cta256 cta128   row-clusters=always row-cluster-threads=512 / 256 / 128: the grown block
                         (up to 1024 threads) as CTAs of that many threads
one-cta and the cta* variants of a shape share one schedule (the grown block) wherever the block
grew past 512 threads: hint-variants.py checks they compute the same bits on the GPU before it
times them; grown has another tree there (class tolerance).
"""
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
from motif.compiler import find_motif_compile  # noqa: E402
from motif.examples import load_example  # noqa: E402

SHAPES = [("softmax_bf16", 2048, 65536), ("softmax", 2048, 65536), ("softmax_bf16", 4096, 32768),
          ("softmax_bf16", 1024, 131072)]


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode:
        sys.exit(f"{' '.join(map(str, cmd))}:\n{p.stderr[-3000:]}")
    return p


def main():
    out = Path(sys.argv[1])
    shapes = [(f, int(m), int(n)) for f, m, n in (a.split(":") for a in sys.argv[2:])] or SHAPES
    compile_ = find_motif_compile()
    opt = compile_.parent / "motif-opt"
    for family, m, n in shapes:
        d = out / f"{family}-{m}x{n}"
        d.mkdir(parents=True, exist_ok=True)
        text = load_example(family, dict(M=m, N=n))
        src = d / f"{family}.mlir"
        src.write_text(text)
        fuse = "equivalence-cap=mathematical"
        for name, opts in (("default", ""), ("grown", "row-cluster-threads=0"),
                           ("cta512", "row-clusters=always row-cluster-threads=512"),
                           ("cta256", "row-clusters=always row-cluster-threads=256"),
                           ("cta128", "row-clusters=always row-cluster-threads=128")):
            run([compile_, src, "-o", d / name, "--function", family, "--fuse-materialization",
                 f"--fuse-options={fuse} {opts}".strip()])
        fused = run([opt, src,
                     f"--fuse-materialization={fuse} row-clusters=always row-cluster-threads=256"]).stdout
        one = d / "one-cta.mlir"
        one.write_text(re.sub(r" cluster\(\d+\)", "", fused))
        p = subprocess.run([compile_, one, "-o", d / "one-cta", "--function", family], capture_output=True,
                           text=True)
        if p.returncode:
            print(f"{family} {m}x{n} one-cta: not compiled: {p.stderr.splitlines()[0][:200]}")
        for name in ("default", "grown", "one-cta", "cta512", "cta256", "cta128"):
            if not (d / name).is_dir():
                continue
            rep = next((d / name).glob("*.ptxas.txt")).read_text()
            regs = re.findall(r"Used (\d+) registers", rep)
            spill = re.findall(r"(\d+) bytes spill stores", rep)
            print(f"{family} {m}x{n} {name}: registers {regs} spill stores {spill}", flush=True)


if __name__ == "__main__":
    main()
