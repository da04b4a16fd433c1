"""motif.bench's occupancy figure (CTAs an SM from ptxas's registers and the shared bytes), against what
Nsight Compute reported for the same kernels on an H100 (docs/results/batched-exchange-timing-h100-session22.txt)."""
from motif import bench


def test_ctas_per_sm_matches_nsight_compute():
    # bf16 softmax 16384 x 1024 on 64 threads: one row a block, 32 registers ("Block Limit Registers 32",
    # 100% theoretical occupancy); 4 rows a block, 96 registers ("Block Limit Registers 10", 31.25%).
    assert bench.ctas_per_sm(64, 32, 24) == (32, "threads")
    assert bench.ctas_per_sm(64, 96, 96) == (10, "registers")
    # 1024 threads: 32 registers fit two CTAs, 33 only one (the 116 us form of softmax_bf16 8192x4096).
    assert bench.ctas_per_sm(1024, 32, 512) == (2, "threads")
    assert bench.ctas_per_sm(1024, 33, 512) == (1, "registers")
    # softmax_bf16 2048x65536: 512 threads, 64 registers, 65,664 B of dynamic shared memory: two CTAs by
    # registers (three would fit the shared memory); at 128 threads the shared memory binds: three.
    assert bench.ctas_per_sm(512, 64, 65664) == (2, "registers")
    assert bench.ctas_per_sm(128, 32, 65664) == (3, "shared")
    # Tiny CTAs: at most 32 an SM.
    assert bench.ctas_per_sm(32, 16, 0) == (32, "ctas")


def test_ptxas_text_reports_occupancy():
    k = {"name": "k", "registers": 33, "spill_store_bytes": 0, "spill_load_bytes": 0, "shared_bytes": 512,
         "dynamic_shared_bytes": 0, "block": 1024}
    assert bench._ptxas_text([k]) == "k: 33r 0/0sp 512B 1024t 1 CTA/SM 50% by registers"
    assert bench._ptxas_text([dict(k, registers=32)]) == "k: 32r 0/0sp 512B 1024t 2 CTA/SM 100%"
    assert bench._ptxas_text([dict(k, registers=None)]) == "k: ?r 0/0sp 512B 1024t"


def test_kernel_stats_carry_occupancy():
    from types import SimpleNamespace as K
    kernels = [K(name="a", registers=96, spill_store_bytes=0, spill_load_bytes=0, shared_bytes=96,
                 dynamic_shared_bytes=0, block=(64, 1, 1)),
               K(name="b", registers=None, spill_store_bytes=None, spill_load_bytes=None, shared_bytes=None,
                 dynamic_shared_bytes=0, block=(256, 1, 1))]
    a, b = bench._kernel_stats(K(kernels=kernels))
    assert (a["ctas_per_sm"], a["ctas_per_sm_limit"]) == (10, "registers")
    assert "ctas_per_sm" not in b and b["block"] == 256
