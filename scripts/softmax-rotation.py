"""Is a softmax kernel's time its own, or L2 reuse across launches? Each kernel (motif-compile
output folders, then Triton's tutorial kernel and a copy of the same bytes) is timed after
motif.gputime's 256 MiB lead (a) on one input every time and (b) on eight inputs in turn (each read
again only after seven other inputs and eight leads, 2 GiB written). A kernel whose lines survive
the lead reads (a) faster than (b). Median of 40 launches, ``--rounds`` rounds interleaved; every
output checked against float64 first (class: tolerance, 2^-8).

    python3 scripts/softmax-rotation.py DIR... [--rounds N] [--shape MxN]
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
from motif.triton_peers import peer  # noqa: E402

SETS = 8


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(3)
    impls = {}
    shape = None
    for d in a.dirs:
        m = load_manifest(next(d.glob("*.json")))
        shape = tuple(m.inputs[0].shape)
        prog = Program(m)
        impls[d.name.removeprefix("softmax_bf16_")] = ("motif", prog)
    xs = [torch.randn(shape, device="cuda", generator=gen).to(torch.bfloat16) for _ in range(SETS)]
    tri = peer("softmax")
    calls = {}
    for name, (_, prog) in impls.items():
        bound = [prog.bind(x) for x in xs]
        bound[0].launch()
        torch.cuda.synchronize()
        ref = torch.softmax(xs[0].double(), -1)
        err = ((bound[0].outputs[0].double() - ref).abs().max() / ref.abs().max()).item()
        print(f"{name}: rel err {err:.2e} ({'ok' if err <= 2 ** -8 else 'WRONG'})", flush=True)
        if err <= 2 ** -8:
            calls[name] = [b.launch for b in bound]
    calls["triton"] = [lambda x=x: tri(x) for x in xs]
    ys = [torch.empty_like(x) for x in xs]
    calls["copy"] = [lambda x=x, y=y: y.copy_(x) for x, y in zip(xs, ys)]
    times = {(n, k): [] for n in calls for k in ("same", "rotated")}
    for r in range(a.rounds):
        for n, fs in calls.items():
            for f in fs:
                f()
            torch.cuda.synchronize()
            times[(n, "same")].append(statistics.median(gputime.timed_ms(torch, [fs[0]] * 40)))
            times[(n, "rotated")].append(statistics.median(gputime.timed_ms(torch, [fs[i % SETS] for i in range(40)])))
        print(f"round {r + 1} done", flush=True)
    nbytes = 2 * xs[0].numel() * 2
    print(f"{'kernel':40} {'same us':>8} {'rotated us':>10} {'rot/same':>8} {'GB/s rot':>8}  (rounds: rotated)")
    for n in calls:
        s, rt = statistics.median(times[(n, "same")]), statistics.median(times[(n, "rotated")])
        print(f"{n:40} {s * 1e3:8.2f} {rt * 1e3:10.2f} {rt / s:8.3f} {nbytes / rt / 1e6:8.0f}  "
              + " ".join(f"{t * 1e3:.1f}" for t in times[(n, "rotated")]))


if __name__ == "__main__":
    main()
