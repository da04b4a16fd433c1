"""motif.gputime's leads and motif.bench's several-lead timing, on the CPU: a stand-in torch records
what reaches the stream, in order. (The GPU figures: docs/results/README.md.)"""
import itertools

import pytest

from motif import bench, gputime


class _Stream:
    def __init__(self):
        self.log = []
        self.clock = itertools.count()


class _Event:
    def __init__(self, stream):
        self.stream, self.t = stream, None

    def record(self):
        self.t = next(self.stream.clock)
        self.stream.log.append(("event", self.t))

    def elapsed_time(self, end):
        return float(end.t - self.t)


class _Buf:
    def __init__(self, stream):
        self.stream = stream

    def zero_(self):
        self.stream.log.append(("memset",))


class _FakeTorch:
    """Just what gputime touches: int32/int64 buffers, zero_, sum(out=), CUDA events, synchronize."""
    int32 = "int32"
    int64 = "int64"

    def __init__(self):
        self.stream = _Stream()
        stream = self.stream

        class cuda:  # noqa: N801 (the torch name)
            @staticmethod
            def Event(enable_timing=True):  # noqa: N802
                return _Event(stream)

            @staticmethod
            def synchronize():
                stream.log.append(("sync",))

        self.cuda = cuda

    def ones(self, n, dtype, device):
        assert n * 4 == gputime.LEAD_BYTES and dtype == self.int32 and device == "cuda"
        return _Buf(self.stream)

    def empty(self, shape, dtype, device):
        return object()

    def sum(self, buf, dim=None, out=None):
        assert isinstance(buf, _Buf) and dim == 0 and out is not None  # torch.sum takes out= with a dim only
        self.stream.log.append(("read",))


@pytest.fixture(autouse=True)
def _fresh_lead_buffer():
    gputime._lead.clear()
    yield
    gputime._lead.clear()


def _ops(torch):
    return [e[0] for e in torch.stream.log]


@pytest.mark.parametrize("kind", ["memset", "read"])
def test_each_bracket_follows_its_lead(kind):
    torch = _FakeTorch()
    calls = []
    ms = gputime.timed_ms(torch, [lambda: calls.append(1), lambda: calls.append(2)], kind)
    assert calls == [1, 2]
    assert _ops(torch) == [kind, "event", "event", kind, "event", "event", "sync"]
    assert ms == [1.0, 1.0]


def test_no_lead_and_the_default():
    torch = _FakeTorch()
    gputime.timed_ms(torch, [lambda: None], False)
    assert _ops(torch) == ["event", "event", "sync"]
    torch = _FakeTorch()
    gputime.timed_ms(torch, [lambda: None], True)
    assert _ops(torch)[0] == gputime.DEFAULT_LEAD
    assert gputime.lead_kind(True) == gputime.DEFAULT_LEAD and gputime.lead_kind("read") == "read"


def test_an_unknown_lead_is_refused():
    with pytest.raises(ValueError, match="unknown lead 'flush'"):
        gputime.timed_ms(_FakeTorch(), [lambda: None], "flush")
    with pytest.raises(ValueError, match="unknown lead"):
        gputime.lead(_FakeTorch(), "flush")


def test_bench_timer_times_every_lead_and_reports_the_first():
    torch = _FakeTorch()
    timer = bench.Timer(torch, warmup=2, runs=3, leads=["read", "memset"])
    seen = []

    def fn(i):  # set i takes i more ticks: brackets of 1, 2, 1 ticks a lead
        seen.append(i)
        for _ in range(i):
            next(torch.stream.clock)

    t = timer(fn, nsets=2)
    assert seen == [0, 1] + [0, 1, 0] * 2          # warm-up, then each lead on the same input sets
    ops = _ops(torch)
    assert ops.count("read") == 3 and ops.count("memset") == 3
    assert ops.index("memset") > max(i for i, o in enumerate(ops) if o == "read")
    assert set(timer.by_lead) == {"read", "memset"} and t == timer.by_lead["read"]
    assert t == 1.0 and timer.by_lead["memset"] == 1.0 and timer.quartiles == (1.0, 2.0)


def test_table_has_a_column_pair_per_further_lead():
    row = dict(family="softmax_bf16", shape="M=8 N=8", impl="motif mathematical", status="ok", ptxas="32 regs",
               time_ms=0.0336, time_ms_p25=0.0333, time_ms_p75=0.0340, gbps=4000.0, frac_copy=0.94, of_same_copy=1.02, vs_eager=3.0, vs_compile=2.0,
               vs_best=1.04, tflops=None, time_ms_by_lead={"read": 0.0336, "memset": 0.0360},
               frac_copy_by_lead={"memset": 0.88})
    table = bench.format_table([row], 0.5055, 4248.0, ["memset"]).splitlines()
    assert "ms memset" in table[0] and "of copy memset" in table[0]
    cells = table[-1].split()
    assert "0.0336" in cells and "0.0360" in cells and "0.88" in cells
    assert "IQR %" in table[0] and "2.1" in cells  # (0.0340 - 0.0333) / 0.0336
    plain = bench.format_table([row], 0.5055, 4248.0).splitlines()
    assert "memset" not in plain[0] and "0.0360" not in plain[-1]


def test_body_fraction_takes_the_bracket_out_of_both_times():
    # 128 MiB in 35.5 us against 2 GiB in 505.5 us: 0.893 of the copy; with a 3.8 us bracket taken out
    # of both, 128 MiB in 31.7 us against 2 GiB in 501.7 us: 0.989.
    nbytes = 2 * 64 * 2**20
    assert abs(nbytes / 35.5 / (2 * 2**30 / 505.5) - 0.8901) < 1e-3
    assert abs(bench.body_fraction(nbytes, 35.5, 505.5, 3.8) - 0.9891) < 1e-3
    assert bench.body_fraction(nbytes, 35.5, 505.5, None) is None     # no empty kernel measured
    assert bench.body_fraction(nbytes, 3.0, 505.5, 3.8) is None       # a time at or under the bracket
    row = dict(family="softmax_bf16", shape="M=8 N=8", impl="motif mathematical", status="ok", ptxas="32 regs",
               time_ms=0.0355, gbps=3780.0, frac_copy=0.89, frac_copy_body=0.99)
    table = bench.format_table([row], 0.5055, 4248.0).splitlines()
    col = table[0].index("body")
    assert table[0].split().count("body") == 1 and table[-1][col:].split()[0] == "0.99"
    assert table[2][col:].split()[0] == "1.00"  # the copy's own row
