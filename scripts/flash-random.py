#!/usr/bin/env python3
"""Random flash-form programs for the GPU: shapes, dtypes, chips, schedules and lowering options.

    python3 scripts/flash-random.py OUT [--seed S] [--count N]

Draws N specs for scripts/make-flash-variants.py (S queries, N keys, head dims D and E, heads,
bf16 or f16, sm_90a or sm_90; rows per block and threads from the pairs the tensor-core lowering
takes (now and then one it refuses), or rule 4's own schedule; stages; online-wgmma-pv / -overlap / -pingpong / -mbarrier /
-p-registers), compiles each into OUT/<name>, and checks what the tools do with it: a spec the
compiler accepts leaves a motif-compile folder for `FLASH_CHECK_ONLY=1 scripts/flash-variants.py
OUT/*/` to run on the GPU against float64; a spec it refuses must be refused with a located
`error:` and a non-zero exit, never a crash (a signal, an assertion, a stack dump) -- that is a
failure here, exit 1. Prints one line per spec and a summary.
"""
import argparse
import random
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[1]
# (rows, threads) pairs of OnlineContractOp::mmaWarpsAndTiles: 1, 2, 4 or 8 warps of 1 or 2 m-tiles.
PAIRS = [(16, 32), (32, 32), (32, 64), (64, 64), (64, 128), (128, 128), (128, 256), (256, 256)]
# Pairs it refuses (a located error naming the pairs it takes), drawn now and then.
INVALID_PAIRS = [(128, 96), (64, 32), (16, 64), (256, 128), (48, 96)]
CHOICES = ("auto", "on", "off")


def draw(rng):
    dtype = rng.choice(("bf16", "f16"))
    chip = rng.choice(("sm_90a", "sm_90a", "sm_90"))
    d = rng.choice((64, 128, 64, 128, 32))
    e = rng.choice((64, 128, 64, 128, 32))
    heads = rng.choice((0, 1, 2, 3, 5))
    attrs = {"chip": chip}
    if rng.random() < 0.7:
        rows, threads = rng.choice(INVALID_PAIRS if rng.random() < 0.1 else PAIRS)
        attrs["rows"], attrs["threads"] = rows, threads
        s = rows * rng.randint(1, 4)
    else:
        s = rng.choice((64, 128, 192, 256, 384, 512))
    n = rng.choice((1, rng.randint(2, 63), rng.randint(64, 300), rng.randint(300, 1200), 64 * rng.randint(1, 8)))
    if rng.random() < 0.4:
        attrs["stages"] = rng.choice((2, 3, 4))
    for opt in ("pv", "overlap", "pingpong", "mbarrier"):
        if rng.random() < 0.5:
            attrs[opt] = rng.choice(CHOICES)
    if rng.random() < 0.3:
        attrs["preg"] = rng.choice(("on", "off"))
    spec = f"{s}:{n}:{d}:{e}:{heads}:{dtype}:" + ",".join(f"{k}={v}" for k, v in attrs.items())
    return spec


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=40)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    accepted = refused = crashed = 0  # refused: a located error, or rule 4 declined
    for i in range(args.count):
        spec = draw(rng)
        r = subprocess.run([sys.executable, str(root / "scripts" / "make-flash-variants.py"), str(out), spec],
                           capture_output=True, text=True)
        text = r.stdout + r.stderr
        crash = (r.returncode < 0 or "Assertion" in text or "Stack dump" in text
                 or "LLVM ERROR" in text or "Segmentation" in text)
        if r.returncode == 0:
            accepted += 1
            print(f"{i:3} accepted {spec}")
        elif "rule 4 did not derive the flash form" in text:
            refused += 1  # fuse-materialization declined (its remark says why); nothing to compile
            print(f"{i:3} declined {spec}: rule 4 did not fuse it")
        elif not crash and "error:" in text:
            refused += 1
            first = next(line for line in text.splitlines() if "error:" in line)
            print(f"{i:3} refused  {spec}: {first.strip()[:200]}")
        else:
            crashed += 1
            print(f"{i:3} CRASH    {spec}: rc {r.returncode}\n{text[-2000:]}")
    print(f"{args.count} specs (seed {args.seed}): {accepted} accepted, {refused} refused with a located "
          f"error, {crashed} crashed")
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
