"""Does where the output lies decide softmax_bf16 8192x4096's gap to Triton?

    python3 scripts/softmax-placement.py DIR [--rounds N]

DIR: one motif-compile output of a row softmax (bf16). motif's kernel and tutorial 02's Triton
kernel (motif.triton_peers' kernel, launched directly so its output can be given) are timed on the
same input, each with

  - ``fixed``: one output allocated once (what motif.bench's motif rows do: Program.bind);
  - ``fresh``: ``torch.empty_like(x)`` in every call (what the Triton peer does; the caching
    allocator hands back the block the previous call freed);
  - ``swap``:  the other implementation's fixed output buffer;

and a copy of the same bytes into a fixed / fresh output. Every bracket after motif.gputime's
256 MiB lead, median of 40, interleaved, ``--rounds`` times. Results are checked against float64
first (class: tolerance, 2^-8).
"""
import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
import torch  # noqa: E402
import triton  # noqa: E402

from motif import gputime  # noqa: E402
from motif.manifest import load_manifest  # noqa: E402
from motif.runtime import Bound, Program  # noqa: E402
from motif.triton_peers import peer  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    (mpath,) = a.dir.glob("*.json")
    m = load_manifest(mpath)
    shape = tuple(m.inputs[0].shape)
    gen = torch.Generator(device="cuda").manual_seed(11)
    x = torch.randn(shape, device="cuda", generator=gen).to(torch.bfloat16)
    ref = torch.softmax(x.double(), -1)
    prog = Program(m)
    b0 = prog.bind(x)
    inp, outp = m.inputs[0].name, m.outputs[0].name
    y_motif = b0.outputs[0]
    y_tri = torch.empty_like(x)
    y_copy = torch.empty_like(x)

    def motif_into(y):
        return Bound(prog, {inp: x, outp: y}, (y,))

    bm_fixed, bm_swap = motif_into(y_motif), motif_into(y_tri)

    softmax_kernel = peer("softmax").kernel

    def tri(y):
        softmax_kernel[(shape[0],)](y, x, x.stride(0), y.stride(0), shape[1], BLOCK=triton.next_power_of_2(shape[1]),
                                    num_warps=8)
        return y

    cases = {
        "motif fixed": bm_fixed.launch,
        "motif fresh": lambda: motif_into(torch.empty_like(x)).launch(),
        "motif swap": bm_swap.launch,
        "triton fixed": lambda: tri(y_tri),
        "triton fresh": lambda: tri(torch.empty_like(x)),
        "triton swap": lambda: tri(y_motif),
        "copy fixed": lambda: y_copy.copy_(x),
        "copy fresh": lambda: torch.empty_like(x).copy_(x),
    }
    for name, y in (("motif", y_motif), ("triton", y_tri)):
        y.fill_(1.0)
        cases[f"{name} fixed"]()
        torch.cuda.synchronize()
        err = ((y.double() - ref).abs().max() / ref.abs().max()).item()
        print(f"{name}: rel err {err:.2e} ({'ok' if err <= 2**-8 else 'WRONG'})")
    print(f"addresses: x 0x{x.data_ptr():x}, motif out 0x{y_motif.data_ptr():x}, triton out 0x{y_tri.data_ptr():x}, "
          f"copy out 0x{y_copy.data_ptr():x}, fresh 0x{torch.empty_like(x).data_ptr():x}")
    nbytes = 2 * x.numel() * x.element_size()
    times = {k: [] for k in cases}
    for r in range(a.rounds):
        for name, fn in cases.items():
            t = gputime.median_ms(torch, fn, runs=40, warmup=3)
            times[name].append(t)
        print(f"round {r + 1}: " + ", ".join(f"{k} {v[-1] * 1e3:.1f}" for k, v in times.items()) + " (us)", flush=True)
    if not a.rounds:
        return
    print(f"{'case':14} {'median us':>10} {'min':>7} {'max':>7} {'GB/s':>7}")
    for k, v in times.items():
        med = statistics.median(v)
        print(f"{k:14} {med * 1e3:10.2f} {min(v) * 1e3:7.2f} {max(v) * 1e3:7.2f} {nbytes / med / 1e6:7.0f}")


if __name__ == "__main__":
    main()
