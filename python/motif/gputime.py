"""CUDA-event timing shared by motif.bench and the variant scripts (scripts/*-variants.py).

Each timed call is bracketed by two CUDA events, as /work/shared/ANCHORS.md asks. Before the start
event the stream gets a *lead*: a 256 MiB buffer is zeroed (what triton.testing.do_bench does). It
evicts the L2 (every call reads its inputs from DRAM) and keeps the GPU busy while the host
enqueues the timed launch, so the interval is the kernel's own time for every implementation
alike. Without it a kernel shorter than the host's launch path (about 10 us in Python: cupy,
torch's dispatcher) is timed with the gap in front of it; that gap is measured by host, not by
kernel (H200: 32768x256 fp32 softmax 0.028 ms per bracketed launch, 0.019 ms back to back;
docs/results/softmax-variants-timing.txt). ``lead=False`` keeps the old bracket, gap included.

Two leads (``kind``): "memset" zeroes the buffer, as do_bench does. It leaves the L2 full of *dirty*
lines of the lead's buffer, and the timed kernel's first misses write them back to DRAM inside its
bracket: up to the L2's size of writes that are not the kernel's (on the H200 about 4 us of a 36 us
kernel, docs/results/README.md, session 6). "read" reads the buffer instead (a sum into one scalar),
after the bracket before it wrote its outputs: the L2 holds clean lines of the lead, the kernel's inputs
still come from DRAM, and the bracket holds the kernel's own traffic only.
"""
import os
import statistics

LEAD_BYTES = 256 * 2**20
LEADS = ("memset", "read", "none")
DEFAULT_LEAD = os.environ.get("MOTIF_LEAD", "memset")  # the scripts' lead; motif.bench has --lead
_lead = {}


def _checked(kind):
    if kind not in LEADS:
        raise ValueError(f"unknown lead {kind!r} (known: {', '.join(LEADS)})")
    return kind


def lead(torch, kind=None):
    """Enqueue the lead of `kind` (LEADS; default DEFAULT_LEAD) on the current stream: zero a 256 MiB
    device buffer ("memset") or read it ("read")."""
    kind = _checked(kind or DEFAULT_LEAD)
    if kind == "none":
        return
    buf = _lead.get("buf")
    if buf is None:
        buf = _lead["buf"] = torch.ones(LEAD_BYTES // 4, dtype=torch.int32, device="cuda")
        _lead["sink"] = torch.empty((), dtype=torch.int64, device="cuda")
    if kind == "memset":
        buf.zero_()
    else:
        torch.sum(buf, dim=0, out=_lead["sink"])


def lead_kind(lead_each):
    """The lead a `lead_each` argument asks for: True the default, False none, else the kind named."""
    if lead_each is True:
        return DEFAULT_LEAD
    return "none" if lead_each is False or lead_each is None else lead_each


def timed_ms(torch, calls, lead_each=True):
    """Time each of `calls` (callables) between two CUDA events, a lead before each; the list of ms.
    `lead_each`: True (DEFAULT_LEAD), False (none) or a kind of LEADS."""
    kind = _checked(lead_kind(lead_each))
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in calls]
    for (s, e), fn in zip(ev, calls):
        lead(torch, kind)
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return [s.elapsed_time(e) for s, e in ev]


def median_ms(torch, fn, runs=10, warmup=3, lead_each=True):
    """Median of `runs` CUDA-event timings of fn() in ms, after `warmup` calls."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    return statistics.median(timed_ms(torch, [fn] * runs, lead_each))
