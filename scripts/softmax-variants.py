"""Time compiled variants of a row softmax against torch on the GPU.

    python3 scripts/softmax-variants.py DIR...

Each DIR holds one motif-compile output (one .json manifest of a softmax function, f32 or bf16).
Inputs: fresh N(0,1) per variant (the tensor is larger than L2, so no rotation); reference:
float64 torch.softmax; equivalence class: tolerance (rel err of max |ref| <= 1e-5 for f32, 2^-8 for
bf16). Prints one row per variant (ms after motif.gputime's lead; in a bare event bracket, which
includes the host's launch gap; per launch of 20 back to back; GB/s, of the copy ceiling, ptxas registers / spills /
shared bytes) and torch eager / torch.compile / Triton / a copy of the same bytes on the same inputs.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
import torch  # noqa: E402

from motif.manifest import load_manifest  # noqa: E402
from motif import gputime  # noqa: E402
from motif.runtime import Program  # noqa: E402


def median_ms(fn, runs=20, warmup=3, lead=True):
    return gputime.median_ms(torch, fn, runs, warmup, lead)


def batched_ms(fn, n=20, runs=10):
    """Per-launch time of n back-to-back launches between two events: the GPU never waits on the
    host, so this is the kernel alone (the event-per-launch median above includes any launch gap)."""
    return median_ms(lambda: [fn() for _ in range(n)], runs) / n


DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16}
RTOL = {"f32": 1e-5, "bf16": 2.0 ** -8}
gen = torch.Generator(device="cuda").manual_seed(7)
big = torch.empty(2**28, device="cuda")
dst = torch.empty_like(big)
copy_ms = median_ms(lambda: dst.copy_(big))
copy_gbps = 2 * big.numel() * 4 / copy_ms / 1e6
print(f"copy ceiling {copy_gbps:.0f} GB/s")
peers = {}
print(f"{'variant':34} {'shape':16} {'ms':>8} {'bare':>8} {'batched':>8} {'GB/s':>7} {'of copy':>7} {'rel err':>9}  ptxas")
for d in map(Path, sys.argv[1:]):
    (mpath,) = [p for p in d.glob("*.json")]
    m = load_manifest(mpath)
    shape = tuple(m.inputs[0].shape)
    dt = m.inputs[0].dtype
    x = torch.randn(shape, device="cuda", generator=gen).to(DTYPES[dt])
    prog = Program(m)
    bound = prog.bind(x)
    bound.launch()
    torch.cuda.synchronize()
    ref = torch.softmax(x.double(), -1)
    err = ((bound.outputs[0].double() - ref).abs().max() / ref.abs().max()).item()
    ok = err <= RTOL[dt]
    ms = median_ms(bound.launch) if ok else float("nan")
    bms = batched_ms(bound.launch) if ok else float("nan")
    bare = median_ms(bound.launch, lead=False) if ok else float("nan")
    nbytes = 2 * x.numel() * x.element_size()
    key = (dt, shape)
    if key not in peers:
        eager = median_ms(lambda: torch.softmax(x, -1))
        eager_b = batched_ms(lambda: torch.softmax(x, -1))
        eager_bare = median_ms(lambda: torch.softmax(x, -1), lead=False)
        y = torch.empty_like(x)
        same = median_ms(lambda: y.copy_(x))
        same_b = batched_ms(lambda: y.copy_(x))
        try:
            f = torch.compile(lambda t: torch.softmax(t, -1))
            f(x)
            comp = median_ms(lambda: f(x))
        except Exception as e:  # noqa: BLE001
            print(f"torch.compile: {e}")
            comp = float("nan")
        try:
            from motif.triton_peers import peer as triton_peer
            tri = triton_peer("softmax")
            tri(x)
            tri_ms = median_ms(lambda: tri(x))
            tri_b = batched_ms(lambda: tri(x))
            tri_bare = median_ms(lambda: tri(x), lead=False)
        except Exception as e:  # noqa: BLE001
            print(f"triton: {e}")
            tri_ms = tri_b = tri_bare = float("nan")
        peers[key] = (eager, comp, eager_b, same, same_b, eager_bare, (tri_ms, tri_bare, tri_b))
    ks = ", ".join(f"{k.registers}r {k.spill_store_bytes}sp {k.shared_bytes}+{k.dynamic_shared_bytes}B "
                   f"{k.block[0]}t" for k in m.kernels)
    print(f"{d.name:34} {'x'.join(map(str, shape)):16} {ms:8.4f} {bare:8.4f} {bms:8.4f} {nbytes / ms / 1e6:7.0f} "
          f"{nbytes / ms / 1e6 / copy_gbps:7.2f} {err:9.2e}  {ks}{'' if ok else '  WRONG'}", flush=True)
for (dt, shape), (e, c, eb, cp, cpb, ebare, tri) in peers.items():
    nbytes = 2 * shape[0] * shape[1] * (4 if dt == "f32" else 2)
    print(f"torch {dt} {shape}: eager {e:.4f} ms ({nbytes / e / 1e6 / copy_gbps:.2f} of copy; bare {ebare:.4f}, batched {eb:.4f}), "
          f"torch.compile {c:.4f} ms ({nbytes / c / 1e6 / copy_gbps:.2f}); triton {tri[0]:.4f} ms (bare {tri[1]:.4f}, "
          f"batched {tri[2]:.4f}); "
          f"copy of the same bytes {cp:.4f} ms ({nbytes / cp / 1e6 / copy_gbps:.2f}; batched {cpb:.4f})")
