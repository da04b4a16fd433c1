"""CUDA-event timing shared by motif.bench and the variant scripts (scripts/*-variants.py).

Each timed call is bracketed by two CUDA events, as /work/shared/ANCHORS.md asks. Before the start
event the stream gets a *lead*: a 256 MiB buffer is zeroed (what triton.testing.do_bench does). It
evicts the L2 (every call reads its inputs from DRAM) and keeps the GPU busy while the host
enqueues the timed launch, so the interval is the kernel's own time for every implementation
alike. Without it a kernel shorter than the host's launch path (about 10 us in Python: cupy,
torch's dispatcher) is timed with the gap in front of it; that gap is measured by host, not by
kernel (H200: 32768x256 fp32 softmax 0.028 ms per bracketed launch, 0.019 ms back to back;
docs/results/softmax-variants-timing.txt). ``lead=False`` keeps the old bracket, gap included.
"""
import statistics

LEAD_BYTES = 256 * 2**20
_lead = {}


def lead(torch):
    """Enqueue the lead (zero a 256 MiB device buffer) on the current stream."""
    buf = _lead.get("buf")
    if buf is None:
        buf = _lead["buf"] = torch.empty(LEAD_BYTES // 4, dtype=torch.int32, device="cuda")
    buf.zero_()


def timed_ms(torch, calls, lead_each=True):
    """Time each of `calls` (callables) between two CUDA events, a lead before each; the list of ms."""
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in calls]
    for (s, e), fn in zip(ev, calls):
        if lead_each:
            lead(torch)
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
