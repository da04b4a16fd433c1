"""CUDA-event timing shared by the variant scripts (scripts/flash-variants.py, softmax-variants.py)."""
import statistics


def median_ms(torch, fn, runs=10, warmup=3):
    """Median of `runs` CUDA-event timings of fn() in ms, after `warmup` calls."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(runs)]
    for s, e in ev:
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in ev)
