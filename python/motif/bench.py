"""Benchmark motif kernels (unfused and fused) against torch eager and torch.compile.

    python -m motif.bench [--families softmax,layernorm] [--quick | --max-shapes K] [--json out.json] [--png out.png]

fp32, except the half families (bf16/f16 tensors, fp32 statistics; peers on the same tensors). Timing follows /work/shared/ANCHORS.md "How to measure": CUDA events around each
launch, each bracket after a 256 MiB L2-evicting lead (motif.gputime; so a short kernel is timed
without the host's launch gap, for every implementation alike; --lead picks a memset as do_bench's,
which leaves dirty lines the timed kernel writes back, or a read, which leaves clean ones; --lead=none
drops it), warm-up first, median of ``--runs``, input sets rotated so that all sets together are at
least 4x the L2 size, random N(0,1) inputs, every result checked against a float64 torch evaluation
of the formula before it is timed. Effective bandwidth counts each input read once and each output
written once (decimal GB/s); it is reported as a fraction of the device copy ceiling (y.copy_(x) on
1 GiB) measured in the same run, and for memory-bound families as a fraction of a copy of the same
bytes ("of same": the ceiling at that size, which a short launch does not reach) and with the bracket's
fixed cost (an empty kernel after the same lead) taken out of both times ("body"). Progress goes to
stderr, the table to stdout.
"""
import argparse
import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

from . import gputime
from .compiler import compile_text, forms_of, same_kernels
from .errors import CompilerNotFoundError, MotifError
from .examples import (FAMILIES, FAMILY_DTYPES, TF32_FAMILIES, base_family, family_chip, load_example, rows_dim,
                       variants)
from .runtime import chip_runs_on
from .numerics import PEER_TOLERANCES, TOLERANCES

# Shapes as the example dims (names from each file's '// motif-dims:' header). First = --quick.
BENCH_SHAPES = {
    "softmax": [dict(M=32768, N=256), dict(M=16384, N=1024), dict(M=8192, N=4096),
                dict(M=4096, N=16384), dict(M=2048, N=65536)],
    "layernorm": [dict(M=16384, N=4096)],
    "rmsnorm": [dict(M=16384, N=4096)],
    "residual_relu": [dict(M=16384, N=4096)],
    "transpose_scale": [dict(M=16384, N=4096)],
    # The GEMM is a naive motif contraction: a short K keeps it in the epilogue-bound regime.
    "gemm_bias_gelu": [dict(M=16384, K=256, N=4096)],
    # Plain fp32 GEMM (TF32 off), tiled; 8192^3 is the ANCHORS size against cuBLAS (torch.mm).
    "gemm": [dict(M=4096, K=4096, N=4096), dict(M=8192, K=8192, N=8192)],
    # Naive (unfused S and P) kernels: S=1024 first; S=4096 is the ANCHORS sequence length (1 head).
    "attention": [dict(S=1024, D=64), dict(S=4096, D=64)],
    "toy_attention": [dict()],  # fixed 4x4 (seed 000): launch-latency bound
    # Multi-head attention [H, S, D]: 64 heads at the ANCHORS sequence length give P.V H*S/32 blocks
    # (single-head attention's P.V has only S/32). Unfused, S and P are H*S*S*4 B each (4 GiB at the
    # second shape, and every set binds its own intermediates); there one set (inputs + output,
    # 256 MiB) is already >= 4x the H200's 60 MiB L2, so nsets = 1 (H=8 S=1024: 30 sets of 8 MiB).
    # The S sweep at 64 heads (issue 12: time grows as S^2, memory as S in the flash form). S=16384
    # has 16 heads: at 64 its online contraction has 2^41 iteration instances, past the 2^40 an op
    # may have (rule 4 declines it with that remark); the float64 reference goes head by head.
    "mha": [dict(H=8, S=1024, D=64), dict(H=64, S=4096, D=64), dict(H=64, S=1024, D=64),
            dict(H=64, S=2048, D=64), dict(H=64, S=8192, D=64), dict(H=16, S=16384, D=64)],
    # bf16 tensors, f32 statistics (issue 13): the shapes of the fp32 rows, and Triton's softmax shape.
    # ANCHORS.md's three bf16 softmax shapes (Triton 2944 / 3613 / 2719 GB/s) and 16384x1024; rows of
    # 131072 do not stay on chip in one CTA: the mathematical form runs as a cluster (row clusters).
    # 4096x32768: rule 6's register case (on by default since session 12, with grouped stores) lets two
    # blocks of 512 an SM overlap their phases instead of one holding the row in registers.
    "softmax_bf16": [dict(M=16384, N=1024), dict(M=8192, N=4096), dict(M=4096, N=16384),
                     dict(M=4096, N=32768), dict(M=2048, N=65536), dict(M=1024, N=131072)],
    "layernorm_bf16": [dict(M=16384, N=4096)],
    "rmsnorm_bf16": [dict(M=16384, N=4096)],
    # Tensor cores (mma.sync m16n8k16, bf16 operands, f32 accumulation) against cuBLAS bf16 (torch.mm).
    "gemm_bf16": [dict(M=4096, K=4096, N=4096), dict(M=8192, K=8192, N=8192)],
    "gemm_f16": [dict(M=8192, K=8192, N=8192)],
    # tf32 tensor cores (mma.sync m16n8k8, f32 tensors rounded to tf32, f32 accumulation) against cuBLAS
    # with TF32 on (torch.mm under allow_tf32) on the same f32 tensors.
    "gemm_tf32": [dict(M=4096, K=4096, N=4096), dict(M=8192, K=8192, N=8192)],
    # C = A.B^T with B stored [N, K] (an nn.Linear weight) against torch.nn.functional.linear (cuBLAS).
    # linear_bf16 runs on wgmma (its motif-chip header: sm_90a): the ANCHORS GEMM size first.
    "linear": [dict(M=4096, K=4096, N=4096)],
    "linear_bf16": [dict(M=8192, K=8192, N=8192), dict(M=4096, K=4096, N=4096)],
    # Half-precision attention (issue 13): bf16/f16 q, k, v and result, f32 scores and statistics, P
    # rounded to the half type before P.V. The targets first: 64 heads at S=4096 with head dims 64
    # and 128 (the head dims of Triton's tutorial 06); then 64 and 8 heads at S=1024. Unfused, S and
    # its scaled and exp copies are H*S*S*4 B each (4 GiB at S=4096), P H*S*S*2 B.
    "attention_bf16": [dict(S=4096, D=64), dict(S=4096, D=128), dict(S=1024, D=64)],
    "mha_bf16": [dict(H=64, S=4096, D=64), dict(H=64, S=4096, D=128), dict(H=64, S=1024, D=64),
                 dict(H=8, S=1024, D=64)],
    "mha_f16": [dict(H=64, S=4096, D=64), dict(H=64, S=4096, D=128), dict(H=64, S=1024, D=64),
                dict(H=8, S=1024, D=64)],
}
TORCH_DTYPES = {"f32": "float32", "bf16": "bfloat16", "f16": "float16"}
ELEMENT_BYTES = {"f32": 4, "bf16": 2, "f16": 2}
HEAVY = ("attention", "gemm_bias_gelu", "gemm", "mha", "gemm_bf16", "gemm_f16", "attention_bf16", "mha_bf16",
         "mha_f16", "gemm_tf32", "linear", "linear_bf16")  # fewer runs, like ANCHORS (10 instead of 40)


def log(msg):
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def _peers(torch):
    F = torch.nn.functional

    def layernorm(x, g, b):
        return F.layer_norm(x, (x.shape[-1],), g, b, eps=1e-5)

    def rmsnorm(x, g):
        return F.rms_norm(x, (x.shape[-1],), g, eps=1e-6)

    def attention(q, k, v):
        return torch.softmax((q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(q.shape[-1])), dim=-1) @ v

    def toy_attention(q, k, v):
        return torch.softmax((k @ q) * 0.5, dim=-1) @ v

    return {
        "toy_attention": toy_attention,
        "softmax": lambda x: torch.softmax(x, dim=-1),
        "layernorm": layernorm,
        "rmsnorm": rmsnorm,
        "attention": attention,
        "mha": attention,  # batched over the leading head dim
        "gemm_bias_gelu": lambda x, w, b: F.gelu(torch.addmm(b, x, w), approximate="none"),
        "gemm": lambda a, b: torch.mm(a, b),
        "linear": lambda a, b: F.linear(a, b),
        "residual_relu": lambda x, r: torch.relu(x + r),
        "transpose_scale": lambda x: (x.transpose(0, 1) * 2 + 1).contiguous(),
    }


def input_shapes(family, d):
    family = base_family(family)
    if family == "toy_attention":
        return [(4,), (4, 4), (4, 4)]
    if family == "attention":
        return [(d["S"], d["D"])] * 3
    if family == "mha":
        return [(d["H"], d["S"], d["D"])] * 3
    if family == "gemm_bias_gelu":
        return [(d["M"], d["K"]), (d["K"], d["N"]), (d["N"],)]
    if family == "gemm":
        return [(d["M"], d["K"]), (d["K"], d["N"])]
    if family == "linear":
        return [(d["M"], d["K"]), (d["N"], d["K"])]
    x, row = (d["M"], d["N"]), (d["N"],)
    return {"softmax": [x], "layernorm": [x, row, row], "rmsnorm": [x, row],
            "residual_relu": [x, x], "transpose_scale": [x]}[family]


def flops(family, d):
    family = base_family(family)  # gemm_bf16 counts as gemm
    if family == "attention":
        return 4 * d["S"] * d["S"] * d["D"]
    if family == "mha":
        return 4 * d["H"] * d["S"] * d["S"] * d["D"]
    if family in ("gemm_bias_gelu", "gemm", "linear"):
        return 2 * d["M"] * d["N"] * d["K"]
    return None


def shape_label(family, d):
    return " ".join(f"{k}={v}" for k, v in d.items()) if d else "4x4"


class Timer:
    """Median of CUDA-event timings (motif.gputime: a 256 MiB lead before each bracket, so the time is
    the kernel's, never the host's launch gap). `leads`: kinds of gputime.LEADS ("none": the bare
    bracket); the first is the figure every ratio uses, each other is timed too, in the same run on the
    same inputs, and kept in ``by_lead`` of the last call."""

    def __init__(self, torch, warmup, runs, leads=("memset",)):
        self.torch, self.warmup, self.runs = torch, warmup, runs
        self.leads = (leads,) if isinstance(leads, str) else tuple(leads)
        self.by_lead, self.copy_by_lead, self.quartiles = {}, {}, None

    @property
    def lead(self):
        return self.leads[0]

    def __call__(self, fn, nsets, runs=None):
        torch, runs = self.torch, runs or self.runs
        for i in range(self.warmup):
            fn(i % nsets)
        torch.cuda.synchronize()
        samples = {lead: gputime.timed_ms(torch, [lambda i=i: fn(i % nsets) for i in range(runs)], lead)
                   for lead in self.leads}
        self.by_lead = {lead: statistics.median(t) for lead, t in samples.items()}
        # the spread of the first lead's runs: quartiles (a 1% question needs them)
        t = sorted(samples[self.lead])
        self.quartiles = (t[len(t) // 4], t[(3 * len(t)) // 4])
        return self.by_lead[self.lead]


def _rel_err(torch, a, ref):
    a = a.double()
    scale = ref.abs().max().item()
    diff = (a - ref).abs().max().item()
    if not math.isfinite(diff):
        return float("inf")
    return diff / scale if scale > 0 else diff


def _kernel_stats(manifest):
    stats = []
    for k in manifest.kernels:
        s = {"name": k.name, "registers": k.registers, "spill_store_bytes": k.spill_store_bytes,
             "spill_load_bytes": k.spill_load_bytes, "shared_bytes": k.shared_bytes,
             "dynamic_shared_bytes": k.dynamic_shared_bytes, "block": k.block[0]}
        if k.registers is not None and k.shared_bytes is not None:
            s["ctas_per_sm"], s["ctas_per_sm_limit"] = ctas_per_sm(
                k.block[0], k.registers, k.shared_bytes + (k.dynamic_shared_bytes or 0))
        stats.append(s)
    return stats


#: What one SM of sm_90 (H100, H200) holds: 65536 registers, 2048 threads, 32 CTAs, 228 KiB of shared memory
#: (the largest carveout; the driver picks the carveout the kernel needs). A warp's registers are allocated
#: in units of 256, a CTA's shared memory in units of 128 B plus 1 KiB the runtime reserves.
SM90 = {"registers": 65536, "threads": 2048, "ctas": 32, "shared": 233472, "register_unit": 256,
        "shared_unit": 128, "shared_reserved": 1024}


def ctas_per_sm(threads, registers, shared_bytes=0, limits=SM90):
    """How many CTAs of ``threads`` threads, ``registers`` registers a thread and ``shared_bytes`` of
    shared memory (static + dynamic) one SM holds at once, and what limits them (``threads``,
    ``ctas``, ``registers`` or ``shared``; the first that binds). A 1024-thread CTA at 33 registers
    fits once, at 32 twice (softmax_bf16 8192x4096: 116 us against 48.5 on an H100,
    docs/results/batched-exchange-timing-h100-session22.txt)."""
    warps = -(-threads // 32)
    unit = limits["register_unit"]
    per_warp = -(-registers * 32 // unit) * unit
    by = {"threads": limits["threads"] // (warps * 32), "ctas": limits["ctas"],
          "registers": (limits["registers"] // per_warp) // warps if per_warp else limits["ctas"]}
    shared = -(-shared_bytes // limits["shared_unit"]) * limits["shared_unit"] + limits["shared_reserved"]
    by["shared"] = limits["shared"] // shared
    limiter = min(by, key=lambda k: by[k])
    return by[limiter], limiter


def _ptxas_text(kernels):
    def f(v):
        return "?" if v is None else str(v)
    def dyn(k):
        d = k.get("dynamic_shared_bytes") or 0
        return f"+{d}B dyn" if d else ""
    def occupancy(k):
        if not k.get("block") or k.get("registers") is None or k.get("shared_bytes") is None:
            return ""
        n, limiter = ctas_per_sm(k["block"], k["registers"], k["shared_bytes"] + (k.get("dynamic_shared_bytes") or 0))
        pct = round(100 * n * -(-k["block"] // 32) * 32 / SM90["threads"])
        return f" {n} CTA/SM {pct}%" + (f" by {limiter}" if limiter in ("registers", "shared") else "")
    return ", ".join(f"{k['name']}: {f(k['registers'])}r {f(k['spill_store_bytes'])}/{f(k['spill_load_bytes'])}sp "
                     f"{f(k['shared_bytes'])}B{dyn(k)}" + (f" {k['block']}t" if k.get("block") else "") + occupancy(k)
                     for k in kernels)


def bench_family(family, dims, torch, timer, workdir, backend, compiled_peers, copy_gbps, seed):
    """Rows for one family and shape."""
    from .runtime import Program

    base_fam = base_family(family)
    peer = _peers(torch)[base_fam]
    # fp32 means fp32 for every peer, except in a tf32 family: there the peers multiply in tf32 too.
    torch.backends.cuda.matmul.allow_tf32 = family in TF32_FAMILIES
    shapes = input_shapes(base_fam, dims)
    dtype_name = FAMILY_DTYPES.get(family, "f32")
    dtype, esize = getattr(torch, TORCH_DTYPES[dtype_name]), ELEMENT_BYTES[dtype_name]
    gen = torch.Generator(device="cuda").manual_seed(seed)
    in_bytes = sum(esize * math.prod(s) for s in shapes)
    first = [torch.randn(s, device="cuda", dtype=torch.float32, generator=gen).to(dtype) for s in shapes]
    if base_fam == "mha":  # head by head: one float64 score matrix at a time (64x8192^2 would be 34 GB)
        ref = torch.cat([peer(*[t[h:h + 1].double() for t in first]) for h in range(first[0].shape[0])])
    else:
        ref = peer(*[t.double() for t in first])
    out_bytes = esize * ref.numel()
    l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 50 * 10**6) or 50 * 10**6
    nsets = max(1, min(64, math.ceil(4 * l2 / (in_bytes + out_bytes))))
    sets = [first] + [[torch.randn(s, device="cuda", dtype=torch.float32, generator=gen).to(dtype) for s in shapes]
                      for _ in range(nsets - 1)]
    runs = max(1, timer.runs // 4) if family in HEAVY else timer.runs
    tol = TOLERANCES[family]
    peer_tol = PEER_TOLERANCES.get(family, tol)  # half attention: torch rounds the scores to half too
    base = dict(family=family, dtype=dtype_name, shape=shape_label(family, dims), dims=dims,
                bytes=in_bytes + out_bytes,
                flops=flops(family, dims), input_sets=nsets, runs=runs, seed=seed)
    rows = []

    def measure(impl, call, out_of_first, extra=None):
        row = dict(base, impl=impl, **(extra or {}))
        rows.append(row)
        row_tol = tol if impl.startswith("motif") else peer_tol
        row["tol"] = row_tol
        try:
            err = _rel_err(torch, out_of_first(), ref)
            row["rel_err"] = err
            if not err <= row_tol:
                row["status"] = f"WRONG: rel err {err:.2e} > tol {row_tol:.0e}; not timed"
                log(f"{family} {base['shape']} {impl}: {row['status']}")
                return
            row["time_ms"] = timer(call, nsets, runs)
            row["time_ms_p25"], row["time_ms_p75"] = timer.quartiles
            if len(timer.leads) > 1:
                row["time_ms_by_lead"] = dict(timer.by_lead)
            row["status"] = "ok"
        except Exception as e:  # a peer that does not run (e.g. no triton for torch.compile)
            row["status"] = f"error: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            log(f"{family} {base['shape']} {impl}: {row['status']}")

    # motif, unfused and fused; then each other schedule of the family (examples/<family>_<name>.mlir,
    # e.g. a tiled mapping) as written
    # as written; "mathematical" is fused under that cap (rule 4, tolerance-class tiling), shown only where it changes
    # the kernels; a family's own forms (compiler.FAMILY_FORMS: softmax's "mathematical-noreverse",
    # the lowering's reverse-rereads off) likewise, shown only where they change the PTX
    # A schedule with a runtime row count (examples/softmax_dynamic.mlir) is the family's program with
    # its rows left to the launch: it runs unfused and fused, next to the static forms, on the same
    # tensors (the runtime reads the row count off them).
    forms = forms_of(family)
    runs_of = [(None, f) for f in forms]
    for v in variants(family):
        dynamic = rows_dim(load_example(family, None, v)) is not None
        runs_of += [(v, f) for f in (("unfused", "fused") if dynamic else ("unfused",))]
    compiled = {}
    for schedule, form in runs_of:
        variant = form if schedule is None else schedule[len(family) + 1:] + ("" if form == "unfused" else
                                                                               f" {form}")
        fuse, extra = forms[form]
        try:
            text = load_example(family, dims, schedule)
            out = (Path(workdir) / family / shape_label(family, dims).replace(" ", "_").replace("=", "")
                   / variant.replace(" ", "_"))
            log(f"{family} {base['shape']}: motif-compile {schedule or ''} "
                f"{'--fuse-materialization' if fuse else ''} {' '.join(extra)}")
            manifests = compile_text(text, out, name=schedule or family, fuse=fuse, extra_args=extra)
            compiled[variant] = manifests
            if form == "mathematical" and schedule is None and "fused" in compiled and \
                    same_kernels(manifests, compiled["fused"]):
                log(f"{family} {base['shape']}: mathematical: no rewrite of that class applies (same kernels as fused)")
                continue
            if form.startswith("mathematical-") and schedule is None and "mathematical" in compiled and \
                    same_kernels(manifests, compiled["mathematical"]):
                log(f"{family} {base['shape']}: {form}: same kernels as mathematical")
                continue
        except MotifError as e:
            rows.append(dict(base, impl=f"motif {variant}", status=f"skipped: {str(e).splitlines()[0]}"))
            log(f"{family} {base['shape']} motif {variant}: {rows[-1]['status']}")
            if isinstance(e, CompilerNotFoundError):
                break
            continue
        for fn, m in sorted(manifests.items()):
            impl = f"motif {variant}" + (f" @{fn}" if len(manifests) > 1 else "")
            stats = _kernel_stats(m)
            try:
                prog = Program(m, backend)
                bound = [prog.bind(*s) for s in sets]
            except MotifError as e:
                rows.append(dict(base, impl=impl, kernels=stats, status=f"error: {e}"))
                continue

            def out_of_first(b=bound[0]):
                b.launch()
                torch.cuda.synchronize()
                return b.outputs[0]

            measure(impl, lambda i, b=bound: b[i].launch(), out_of_first,
                    dict(function=fn, kernels=stats, ptxas=_ptxas_text(stats)))

    # torch peers
    measure("torch eager", lambda i: peer(*sets[i]), lambda: peer(*first))
    key = family
    if key not in compiled_peers:
        compiled_peers[key] = torch.compile(peer, dynamic=False)
    cpeer = compiled_peers[key]
    log(f"{family} {base['shape']}: torch.compile (first call compiles)")
    measure("torch.compile", lambda i: cpeer(*sets[i]), lambda: cpeer(*first))
    from .triton_peers import peer as triton_peer
    tpeer = triton_peer(base_fam)
    if tpeer is not None:
        log(f"{family} {base['shape']}: triton (first call compiles)")
        measure("triton", lambda i: tpeer(*sets[i]), lambda: tpeer(*first))
    if base_fam in ("attention", "mha"):  # [S, D] or [H, S, D] -> [1, (H,) S, D]; bf16/f16 tensors as they are
        sdpa = torch.nn.functional.scaled_dot_product_attention
        measure("torch sdpa", lambda i: sdpa(*[t[None] for t in sets[i]])[0], lambda: sdpa(*[t[None] for t in first])[0])

    # A copy of the same bytes (in + out, half each way): the ceiling at this size. A short kernel
    # does not reach the 1 GiB copy's bandwidth (a launch is a few waves); this says how near any
    # kernel moving these bytes can get.
    same = None
    if base["flops"] is None:
        n = max(1, (in_bytes + out_bytes) // 8)  # f32 elements each way
        src = torch.randn(n, device="cuda", dtype=torch.float32, generator=gen)
        dst = torch.empty_like(src)
        def copied():
            dst.copy_(src)
            if not torch.equal(dst, src):
                raise MotifError("y.copy_(x) did not copy")
            return ref  # the row is a reference, not a result: nothing else to check

        measure(SAME_COPY, lambda i: dst.copy_(src), copied)
        rows[-1]["bytes"] = 8 * n
        same = rows[-1].get("time_ms")
        del src, dst

    eager = next((r.get("time_ms") for r in rows if r["impl"] == "torch eager"), None)
    comp = next((r.get("time_ms") for r in rows if r["impl"] == "torch.compile"), None)
    # The best peer of the same run: the fastest non-motif row that ran and was right.
    peer_times = [r["time_ms"] for r in rows
                  if not r["impl"].startswith("motif") and r["impl"] != SAME_COPY and r.get("time_ms")]
    best = min(peer_times) if peer_times else None
    for r in rows:
        t = r.get("time_ms")
        if t is None:
            continue
        r["gbps"] = r["bytes"] / (t * 1e-3) / 1e9
        r["frac_copy"] = r["gbps"] / copy_gbps
        r["vs_eager"] = eager / t if eager else None
        r["vs_compile"] = comp / t if comp else None
        r["vs_best"] = best / t if best else None
        r["of_same_copy"] = same / t if same else None
        # the other leads' figures, each against the 1 GiB copy timed after the same lead
        for lead, tl in (r.get("time_ms_by_lead") or {}).items():
            if lead != timer.lead and timer.copy_by_lead.get(lead):
                r.setdefault("frac_copy_by_lead", {})[lead] = (r["bytes"] / (tl * 1e-3) / 1e9
                                                               / timer.copy_by_lead[lead])
        r["tflops"] = r["flops"] / (t * 1e-3) / 1e12 if r["flops"] else None
    return rows


#: The per-shape reference row of memory-bound families: y.copy_(x) moving the shape's bytes.
SAME_COPY = "copy, same bytes"


def copy_ceiling(torch, timer):
    n = 2**28  # 1 GiB of fp32
    x = torch.randn(n, device="cuda", dtype=torch.float32)
    y = torch.empty_like(x)
    t = timer(lambda i: y.copy_(x), 1)
    if not torch.equal(x, y):
        raise MotifError("copy ceiling: y.copy_(x) did not copy")
    del x, y
    gbps = lambda ms: 2 * 4 * n / (ms * 1e-3) / 1e9
    timer.copy_by_lead = {lead: gbps(ms) for lead, ms in timer.by_lead.items()}
    return t, gbps(t)


def bracket_ms(torch, timer):
    """The fixed cost inside every bracket: an empty kernel (torch.cuda._sleep(0): one thread, no memory
    traffic) timed as every kernel is, after the same lead -- the launch and the two events. None when
    torch has no such kernel."""
    sleep = getattr(torch.cuda, "_sleep", None)
    if sleep is None:
        return None
    return timer(lambda i: sleep(0), 1)


def body_fraction(nbytes, t_ms, copy_ms, bracket):
    """The fraction of the copy ceiling a kernel's body reaches: its bytes over its time less the
    bracket's fixed cost, against the 1 GiB copy's over its time less the same cost (the copy's bracket
    is under 1% of it; a short kernel's is not: an empty kernel takes about 3.8 us after the memset
    lead on an H100, 11% of a 35 us kernel). None when the bracket is unknown or not below the time."""
    if not bracket or not t_ms or t_ms <= bracket or copy_ms <= bracket:
        return None
    return (nbytes / (t_ms - bracket)) / (2 * 2**30 / (copy_ms - bracket))


def format_table(rows, copy_ms, copy_gbps, other_leads=()):
    """The table; `other_leads`: a column of ms and one of the fraction of the copy per further lead."""
    extra = [c for lead in other_leads for c in (f"ms {lead}", f"of copy {lead}")]
    head = ("family", "shape", "impl", "time ms", "IQR %", "GB/s", "of copy", "of same", "body", "x eager", "x compile",
            "x best",
            "TFLOP/s", *extra, "status / ptxas (regs, spill st/ld, smem)")

    def num(v, f):
        return "-" if v is None else format(v, f)

    body = [("copy", "1 GiB", "y.copy_(x)", f"{copy_ms:.4f}", "-", f"{copy_gbps:.0f}", "1.00", "-", "1.00", "-", "-", "-",
             "-",
             *["-"] * len(extra), "ceiling")]
    for r in rows:
        note = r.get("ptxas", "") if r.get("status") == "ok" else r.get("status", "")
        others = [c for lead in other_leads
                  for c in (num((r.get("time_ms_by_lead") or {}).get(lead), ".4f"),
                            num((r.get("frac_copy_by_lead") or {}).get(lead), ".2f"))]
        t, q1, q3 = r.get("time_ms"), r.get("time_ms_p25"), r.get("time_ms_p75")
        iqr = 100 * (q3 - q1) / t if t and q1 is not None and q3 is not None else None
        body.append((r["family"], r["shape"], r["impl"], num(t, ".4f"), num(iqr, ".1f"), num(r.get("gbps"), ".0f"),
                     num(r.get("frac_copy"), ".2f"), num(r.get("of_same_copy"), ".2f"),
                     num(r.get("frac_copy_body"), ".2f"), num(r.get("vs_eager"), ".2f"),
                     num(r.get("vs_compile"), ".2f"),
                     num(r.get("vs_best"), ".2f"), num(r.get("tflops"), ".1f"), *others, note))
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    line = lambda cells: "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(b) for b in body])


def plot(rows, path, copy_gbps, device):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = []
    for r in rows:
        g = f"{r['family']}\n{r['shape']}"
        if g not in groups:
            groups.append(g)
    impls = []
    for r in rows:
        if r["impl"] not in impls:
            impls.append(r["impl"])
    fig, ax = plt.subplots(figsize=(min(24, 2 + 1.1 * len(groups)), 5))
    width = 0.8 / max(1, len(impls))
    for j, impl in enumerate(impls):
        xs, ys = [], []
        for i, g in enumerate(groups):
            r = next((r for r in rows if f"{r['family']}\n{r['shape']}" == g and r["impl"] == impl), None)
            if r and r.get("frac_copy") is not None:
                xs.append(i + (j - (len(impls) - 1) / 2) * width)
                ys.append(r["frac_copy"])
        ax.bar(xs, ys, width, label=impl)
    ax.axhline(1.0, color="k", lw=0.8, ls="--")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, fontsize=7)
    ax.set_ylabel(f"effective bandwidth / copy ceiling ({copy_gbps:.0f} GB/s)")
    ax.set_title(f"motif vs torch, fp32, {device}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m motif.bench", description=__doc__.split("\n")[0])
    p.add_argument("--families", default=",".join(FAMILIES), help="comma-separated (default: all)")
    p.add_argument("--quick", action="store_true", help="one shape per family")
    p.add_argument("--max-shapes", type=int, default=None, metavar="K",
                   help="the first K shapes of each family (--quick: K = 1)")
    p.add_argument("--runs", type=int, default=40, help="timed runs per measurement (heavy families: /4)")
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--lead", default=None, metavar="KIND[,KIND...]",
                   help="before each bracket: zero a 256 MiB buffer (memset, as triton's do_bench; the L2 is "
                        "left dirty), read it (read; the L2 is left clean) or nothing (none: a short kernel then "
                        "includes the host's launch gap); several, comma-separated: each is timed in the same run, the "
                        "first gives the ratios; default: $MOTIF_LEAD, else memset (motif.gputime)")
    p.add_argument("--no-lead", action="store_true", help="the same as --lead=none")
    p.add_argument("--json", metavar="PATH")
    p.add_argument("--png", metavar="PATH")
    p.add_argument("--backend", choices=("cupy", "cuda-python"), default=None)
    p.add_argument("--workdir", default=None, help="keep compiled kernels here (default: a temp folder)")
    p.add_argument("--seed", type=int, default=None)
    args = p.parse_args(argv)
    families = [f for f in args.families.split(",") if f]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        p.error(f"unknown families {', '.join(unknown)} (known: {', '.join(FAMILIES)})")
    if args.max_shapes is not None and args.max_shapes < 1:
        p.error(f"--max-shapes must be at least 1, got {args.max_shapes}")
    try:
        import torch
    except ImportError:
        print("error: python -m motif.bench needs torch (with CUDA)", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("error: no CUDA GPU/driver visible to torch", file=sys.stderr)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False  # fp32 means fp32, for every peer
    torch.backends.cudnn.allow_tf32 = False
    import numpy as np
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**63)
    workdir = args.workdir or tempfile.mkdtemp(prefix="motif-bench-")
    leads = ["none"] if args.no_lead else (args.lead or gputime.DEFAULT_LEAD).split(",")
    bad = [k for k in leads if k not in gputime.LEADS]
    if bad:
        p.error(f"unknown lead {', '.join(bad)} (known: {', '.join(gputime.LEADS)})")
    lead = leads[0]
    timer = Timer(torch, args.warmup, args.runs, leads=leads)
    log(f"lead before each bracket: {', '.join(leads)}")
    device = torch.cuda.get_device_name(0)
    log(f"{device}; copy ceiling (1 GiB)")
    copy_ms, copy_gbps = copy_ceiling(torch, timer)
    log(f"copy: {copy_ms:.3f} ms, {copy_gbps:.0f} GB/s")
    bracket = bracket_ms(torch, timer)
    if bracket is not None:
        log(f"bracket (an empty kernel after the same lead): {bracket * 1e3:.2f} us")
    rows, compiled = [], {}
    for fam in families:
        chip = family_chip(fam)
        if not chip_runs_on(chip, torch.cuda.get_device_capability(0)):
            log(f"{fam} skipped: built for {chip}, which this GPU is not")
            continue
        for dims in BENCH_SHAPES[fam][:1 if args.quick else args.max_shapes]:
            log(f"{fam} {shape_label(fam, dims)}")
            rows += bench_family(fam, dims, torch, timer, workdir, args.backend, compiled, copy_gbps, seed)
            torch.cuda.empty_cache()
    print(f"timing: CUDA events, median of {args.runs}, each bracket after a {lead} lead (motif.gputime)"
          + (f"; also after {', '.join(leads[1:])} leads, in the same run" if leads[1:] else ""))
    for r in rows:
        if r.get("time_ms") and r.get("bytes") and not r.get("flops"):
            r["frac_copy_body"] = body_fraction(r["bytes"], r["time_ms"], copy_ms, bracket)
    print(format_table(rows, copy_ms, copy_gbps, leads[1:]))
    if bracket is not None:
        print(f"body: the fraction of the copy ceiling with the bracket's fixed cost taken out of both times "
              f"(an empty kernel after the same lead: {bracket * 1e3:.2f} us; motif.bench.body_fraction)")
    if args.json:
        meta = dict(device=device, torch=torch.__version__, cuda=torch.version.cuda, dtype="float32",
                    date=time.strftime("%Y-%m-%dT%H:%M:%S%z"), runs=args.runs, warmup=args.warmup, seed=seed,
                    timing="bare event bracket" if lead == "none" else f"event bracket after a 256 MiB {lead} lead",
                    lead=lead, leads=leads, copy_by_lead=timer.copy_by_lead,
                    l2_bytes=getattr(torch.cuda.get_device_properties(0), "L2_cache_size", None),
                    copy={"bytes": 2 * 2**30, "time_ms": copy_ms, "gbps": copy_gbps}, bracket_ms=bracket)
        Path(args.json).write_text(json.dumps(dict(meta, rows=rows), indent=1, default=str))
        log(f"wrote {args.json}")
    if args.png:
        plot(rows, args.png, copy_gbps, device)
        log(f"wrote {args.png}")
    return 1 if any(r.get("status", "").startswith("WRONG") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
