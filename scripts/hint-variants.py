"""Time PTX-edited variants (scripts/make-ptx-variants.py) of a kernel against the kernel as compiled.

    python3 scripts/hint-variants.py BASE VARIANT... [--rounds N] [--rtol R] [--triton-softmax] [--rows N]

(--rounds 0: the checks only, one launch of each: for Nsight Compute, scripts/ncu-rows.sh.)

BASE and each VARIANT are motif-compile output folders of the same function. Inputs: N(0,1) per
manifest input, eight sets in turn (each set read again only after seven others and eight leads);
every bracket after motif.gputime's 256 MiB lead; median of 40 per round, rounds interleaved.
A cache hint changes no value: each variant's output must equal BASE's bit for bit on the same
input (equivalence class: bitwise), else it is reported WRONG and not timed. With ``--rtol R`` a
variant whose schedule differs (another reduction tree: class tolerance) is timed when its output is
within R of BASE's (max |difference| / max |BASE|), and reported so. ``--triton-softmax``
adds tutorial 02's Triton softmax on the same inputs (a row softmax BASE only). ``--time-wrong``
times a WRONG variant all the same (marked so): a bound on what an edit that breaks the memory model
would save (make-ptx-variants.py exchrelaxed), never a kernel to keep.
"""
import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
import torch  # noqa: E402

from motif import gputime  # noqa: E402
from motif.manifest import load_manifest  # noqa: E402
from motif.runtime import Program  # noqa: E402

SETS = 8
DT = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base", type=Path)
    ap.add_argument("variants", nargs="*", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--triton-softmax", action="store_true")
    ap.add_argument("--rtol", type=float, default=0.0)
    ap.add_argument("--time-wrong", action="store_true")
    ap.add_argument("--rows", type=int, default=None,
                    help="the row count of a program with a runtime row count (its inputs' leading dim)")
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(17)
    progs = {d.name: Program(load_manifest(next(d.glob("*.json")))) for d in [a.base] + a.variants}
    m = progs[a.base.name].manifest
    shape = lambda b: tuple(a.rows if d is None else d for d in b.shape)  # noqa: E731
    sets = [[torch.randn(shape(b), device="cuda", generator=gen).to(DT[b.dtype]) for b in m.inputs]
            for _ in range(SETS)]
    calls, ref = {}, None
    for name, prog in progs.items():
        bound = [prog.bind(*s) for s in sets]
        bound[0].launch()
        torch.cuda.synchronize()
        out = bound[0].outputs[0]
        if ref is None:
            ref = out.clone()
        same = torch.equal(out.view(torch.uint8) if out.dtype != torch.float32 else out.view(torch.int32),
                           ref.view(torch.uint8) if ref.dtype != torch.float32 else ref.view(torch.int32))
        err = 0.0 if same else float((out.double() - ref.double()).abs().max() / ref.double().abs().max())
        close = same or err <= a.rtol  # a NaN error is never close
        print(f"{name}: " + ("bitwise equal to base" if same else
                             f"within {a.rtol:g} of base (max rel err {err:.2e}; not bitwise)" if close else
                             f"WRONG: differs from base (max rel err {err:.2e})"), flush=True)
        if close or a.time_wrong:
            calls[name if close else f"{name} (WRONG)"] = [b.launch for b in bound]
    if a.triton_softmax:
        from motif.triton_peers import peer
        tri = peer("softmax")
        calls["triton"] = [lambda s=s: tri(s[0]) for s in sets]
    if a.rounds == 0:  # the checks only: one launch of each (for Nsight Compute)
        return
    outs = [torch.empty_like(s[0]) for s in sets]
    calls["copy (first input)"] = [lambda s=s, o=o: o.copy_(s[0]) for s, o in zip(sets, outs)]
    times = {n: [] for n in calls}
    for r in range(a.rounds):
        for n, fs in calls.items():
            for f in fs:
                f()
            torch.cuda.synchronize()
            times[n].append(statistics.median(gputime.timed_ms(torch, [fs[i % SETS] for i in range(40)])))
    base = statistics.median(times[a.base.name])
    print(f"{'kernel':58} {'us':>8} {'x base':>7}  rounds")
    for n, t in times.items():
        med = statistics.median(t)
        print(f"{n:58} {med * 1e3:8.2f} {base / med:7.3f}  " + " ".join(f"{x * 1e3:.1f}" for x in t), flush=True)


if __name__ == "__main__":
    main()
