"""The kernel emulator (motif.emulator): the lowered gpu.func bodies run on the CPU, every output bit
for bit against the schedule model -- and planted defects in the lowered kernels (a missing barrier,
a store dropped, an index off) are caught, so a pass here means something."""
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from motif import emulator
from motif._paths import build_tool, repo_root


def _tool(name):
    return build_tool(name) or pytest.skip(f"{name} is not built")


@pytest.fixture(scope="module", autouse=True)
def _built():
    os.environ.setdefault("MOTIF_BUILD_DIR", str(_tool("motif-opt").parent.parent))


@pytest.fixture(scope="module")
def fused_softmax(tmp_path_factory):
    out = tmp_path_factory.mktemp("emu") / "softmax.fused.mlir"
    subprocess.run([str(_tool("motif-opt")), str(repo_root() / "examples/softmax.mlir"), "--fuse-materialization",
                    "-o", str(out)], check=True, capture_output=True)
    return out


def test_random_programs_bit_for_bit(tmp_path):
    """Every form of 16 fresh generated programs (a third bf16/f16; tiles, warps, clusters, shared and
    register residencies) runs on the emulator bit for bit as the schedule model says (at least 80% of
    them run at all: an op the emulator does not model is reported, not judged)."""
    seed = int(np.random.SeedSequence().entropy % (2**31))
    subprocess.run([str(_tool("motif-fuzz")), "gen", f"--seed={seed}", "--count=16", "--jobs=1",
                    "-o", str(tmp_path / "p")], check=True, capture_output=True)
    log = tmp_path / "log.txt"
    rc = emulator.run_directory(tmp_path / "p", seconds=60, log=log)
    lines = log.read_text().splitlines()
    assert rc == 0, f"seed {seed}:\n" + "\n".join(l for l in lines if "differ" in l or "fault" in l)
    passed = [l for l in lines if l.endswith(": pass")]
    assert len(passed) >= 0.8 * len(lines), f"seed {seed}: only {len(passed)} of {len(lines)} forms ran:\n" + \
        "\n".join(l for l in lines if not l.endswith(": pass"))


@pytest.mark.parametrize("seed", ["11862161662786762560", "15826521139209267349"])
def test_generated_gemm_on_tensor_cores(seed, tmp_path):
    """A generated program that opens with a 16-bit GEMM (motif-fuzz's GEMM stream), fused under the
    tolerance cap: its product runs on mma.sync (the default schedule), whose f32 accumulators start as
    a vector<2x2xf32> splat, and the fused kernel runs on the emulator within tolerance of the schedule
    model (before the emulator read splats of any rank it reported such a kernel `unsupported`)."""
    unfused = subprocess.run([str(_tool("motif-fuzz")), "one", f"--program-seed={seed}", "--print=unfused"],
                             check=True, capture_output=True, text=True).stdout
    path = tmp_path / "fused.mlir"
    subprocess.run([str(_tool("motif-opt")), "--fuse-materialization=equivalence-cap=tolerance", "-o", str(path)],
                   input=unfused, check=True, capture_output=True, text=True)
    assert "mma m16n8k16" in path.read_text()
    assert emulator.compare(path, "f") == []


@pytest.mark.parametrize("example,fuse", [("softmax_bf16", True), ("layernorm", True),
                                          ("transpose_scale_tiled", True), ("rmsnorm_bf16", False)])
def test_examples_bit_for_bit(example, fuse, tmp_path):
    src = repo_root() / "examples" / f"{example}.mlir"
    path = src
    if fuse:
        path = tmp_path / f"{example}.fused.mlir"
        subprocess.run([str(_tool("motif-opt")), str(src), "--fuse-materialization", "-o", str(path)],
                       check=True, capture_output=True)
    fn = re.search(r"func\.func @(\w+)", src.read_text()).group(1)
    assert emulator.compare(path, fn) == []


def test_rows_a_block_bit_for_bit(tmp_path):
    """Rows a block (docs/residency.md, "Row blocks"): bf16 softmax of 4096 rows of 64, fused under the
    bitwise cap, takes 2 rows a block (its grid dim as `block x seq(2)`: 2048 blocks, each thread an
    element of two rows, each reduction's two rows exchanged behind one barrier: docs/lowering.md,
    "Batched exchanges") and runs bit for bit as the schedule model says."""
    from motif.examples import load_example
    src = tmp_path / "softmax_bf16_4096x64.mlir"
    src.write_text(load_example("softmax_bf16", dict(M=4096, N=64)))
    out = tmp_path / "fused.mlir"
    subprocess.run([str(_tool("motif-opt")), str(src), "--fuse-materialization", "-o", str(out)],
                   check=True, capture_output=True)
    assert "over [block x seq(2), thread]" in out.read_text()
    assert emulator.compare(out, "softmax_bf16") == []


@pytest.mark.parametrize("function, barriers", [("four_rows", 1), ("state_two_rows", 1), ("sixteen_rows", 16)])
def test_batched_exchanges_bit_for_bit(function, barriers):
    """A thread's result instances of a reduction exchanged behind one barrier (docs/lowering.md,
    "Batched exchanges"; test/Conversion/MotifToGPU/batched-exchange.mlir): 4 rows of a built-in sum, 2
    rows of the online-softmax state (a general combiner), and 16 rows (past the 8 batched: a barrier
    a row) -- bit for bit as the schedule model says, with the emulator's race check. Without the one
    barrier the partials are read before other warps wrote them: a hazard."""
    path = repo_root() / "test/Conversion/MotifToGPU/batched-exchange.mlir"
    lines = emulator.lower(path).splitlines()
    # The kernel's lines: from its "gpu.func" to the line that closes it (generic form: the
    # attributes, sym_name among them, after the region).
    end = next(i for i, l in enumerate(lines) if f'sym_name = "{function}_k"' in l)
    begin = max(i for i, l in enumerate(lines[:end]) if '"gpu.func"' in l)
    own = [i for i in range(begin, end) if '"gpu.barrier"' in lines[i]]
    assert len(own) == barriers
    for seed in (1, 2):
        assert emulator.compare(path, function, seed=seed) == []
    if barriers == 1:
        del lines[own[0]]
        with pytest.raises(emulator.Fault, match="hazard"):
            emulator.compare(path, function, lowered="\n".join(lines))


def test_planted_missing_barrier(fused_softmax):
    """Without its barriers the fused softmax reads the row statistics another warp wrote: a hazard."""
    text = emulator.lower(fused_softmax)
    assert '"gpu.barrier"' in text
    broken = "\n".join(l for l in text.splitlines() if '"gpu.barrier"' not in l)
    with pytest.raises(emulator.Fault, match="hazard"):
        emulator.compare(fused_softmax, "softmax", lowered=broken)


def _first_global_store(lines):
    """The first store to a global buffer (in @softmax's kernel, the first of the module)."""
    return min(i for i, l in enumerate(lines) if '"memref.store"' in l and "workgroup" not in l)


def test_planted_dropped_store(fused_softmax):
    """A kernel that skips one of its stores to the output leaves elements unwritten."""
    text = emulator.lower(fused_softmax).splitlines()
    del text[_first_global_store(text)]
    problems = emulator.compare(fused_softmax, "softmax", lowered="\n".join(text))
    assert problems and "never stored" in problems[0], problems


def test_planted_index_off_by_one(fused_softmax):
    """The output's column index one too high: out of bounds (a fault on the GPU) or wrong values."""
    text = emulator.lower(fused_softmax).splitlines()
    k = _first_global_store(text)
    m = re.search(r'"memref.store"\(([^)]*)\)', text[k])
    ops = [x.strip() for x in m.group(1).split(",")]
    # index + 1, computed just before the store
    text.insert(k, f'      %plant = "arith.addi"({ops[-1]}, %plant1) <{{overflowFlags = #arith.overflow<none>}}> '
                   ': (index, index) -> index')
    text.insert(k, '      %plant1 = "arith.constant"() <{value = 1 : index}> : () -> index')
    text[k + 2] = text[k + 2].replace(m.group(1), ", ".join(ops[:-1] + ["%plant"]))
    try:
        problems = emulator.compare(fused_softmax, "softmax", lowered="\n".join(text))
    except emulator.Fault as e:
        assert "out of bounds" in str(e) or "hazard" in str(e)
        return
    assert problems, "an index one off went unnoticed"


def test_cluster_kernel_and_its_missing_cluster_barrier():
    """A row softmax in clusters of 4 CTAs (distributed shared memory through nvvm.mapa) runs bit for
    bit, pushed through mbarriers (the default), pushed behind cluster barriers
    (cluster-mbarrier=false) and pulled (cluster-push=false); without its cluster barriers a CTA of
    the pulled kernel reads another's partial results before they are written."""
    path = repo_root() / "test/Conversion/MotifToGPU/Inputs/cluster-softmax.mlir"
    assert emulator.compare(path, "softmax") == []
    assert "st.async" in emulator.lower(path)
    text = emulator.lower(path, options="cluster-mbarrier=false")
    assert '"llvm.store"' in text and "st.async" not in text
    assert emulator.compare(path, "softmax", lowered=text) == []
    text = emulator.lower(path, options="cluster-push=false")
    assert '"nvvm.mapa"' in text and '"nvvm.cluster.wait"' in text and '"llvm.store"' not in text
    assert emulator.compare(path, "softmax", lowered=text) == []
    broken = "\n".join(l for l in text.splitlines() if '"nvvm.cluster.' not in l)
    with pytest.raises(emulator.Fault, match="hazard"):
        emulator.compare(path, "softmax", lowered=broken)


def test_cluster_exit_barrier_is_split_and_checked():
    """No CTA of a cluster may leave while another still reads its shared memory. The pulled
    lowering (cluster-push=false) arrives at a cluster barrier right after the last read of another
    CTA's memory and waits for it only at the exit (the global stores in between); the emulator
    passes that, and catches the kernel without that barrier, with its arrive moved before the last
    remote read, and with an arrive that is never waited for."""
    path = repo_root() / "test/Conversion/MotifToGPU/Inputs/cluster-softmax.mlir"
    lines = emulator.lower(path, options="cluster-push=false").splitlines()
    arrives = [i for i, l in enumerate(lines) if '"nvvm.cluster.arrive"' in l]
    waits = [i for i, l in enumerate(lines) if '"nvvm.cluster.wait"' in l]
    mapas = [i for i, l in enumerate(lines) if '"nvvm.mapa"' in l]
    stores = [i for i, l in enumerate(lines) if '"memref.store"' in l]
    # The split: the last arrive after the last remote read, the global stores, then the wait.
    assert mapas[-1] < arrives[-1] < stores[-1] < waits[-1]
    assert all(i + 1 == j for i, j in zip(arrives[:-1], waits[:-1]))
    assert emulator.compare(path, "softmax", lowered="\n".join(lines)) == []
    no_exit = [l for i, l in enumerate(lines) if i not in (arrives[-1], waits[-1])]
    with pytest.raises(emulator.Fault, match="may leave while another still reads"):
        emulator.compare(path, "softmax", lowered="\n".join(no_exit))
    early = list(lines)
    early.insert(mapas[-1], early.pop(arrives[-1]))
    with pytest.raises(emulator.Fault, match="between a cluster arrive and its wait"):
        emulator.compare(path, "softmax", lowered="\n".join(early))
    no_wait = [l for i, l in enumerate(lines) if i != waits[-1]]
    with pytest.raises(emulator.Fault, match="arrive with no wait"):
        emulator.compare(path, "softmax", lowered="\n".join(no_wait))


@pytest.mark.parametrize("name, function", [("cluster-softmax.mlir", "softmax"),
                                            ("cluster-column-sums.mlir", "column_sums")])
def test_cluster_push_exchange_and_its_checks(name, function):
    """cluster-push (the default; docs/lowering.md, "Clusters") behind cluster barriers
    (cluster-mbarrier=false; the default's mbarriers: test_cluster_mbarrier_exchange): the warps push
    their partials into every CTA's scratch (nvvm.mapa + llvm.store) and read their own CTA's after
    the exchange barrier: no remote
    read, so no exit barrier, and a start barrier. Bit for bit the schedule model; the
    emulator catches the kernel without its start barrier (a push into a CTA that may not have
    started) and with its exchange arrives relaxed (nothing orders the pushes before the reads)."""
    path = repo_root() / "test/Conversion/MotifToGPU/Inputs" / name
    if function == "column_sums":
        function = re.search(r"func\.func @(\w+)", path.read_text()).group(1)
    lines = emulator.lower(path, options="cluster-mbarrier=false").splitlines()
    arrives = [i for i, l in enumerate(lines) if '"nvvm.cluster.arrive"' in l]
    waits = [i for i, l in enumerate(lines) if '"nvvm.cluster.wait"' in l]
    pushes = [i for i, l in enumerate(lines) if '"llvm.store"' in l]
    assert pushes and not any('"llvm.load"' in l for l in lines)
    # The start barrier: its arrive first, its wait before the first push; every later arrive is
    # followed by its wait (no exit barrier is split off).
    assert arrives[0] < waits[0] < pushes[0] < arrives[1]
    assert len(waits) == len(arrives)
    assert all(i + 1 == j for i, j in zip(arrives[1:], waits[1:]))
    assert emulator.compare(path, function, lowered="\n".join(lines)) == []
    no_start = [l for i, l in enumerate(lines) if i not in (arrives[0], waits[0])]
    with pytest.raises(emulator.Fault, match="may not have started"):
        emulator.compare(path, function, lowered="\n".join(no_start))
    unordered = [l.replace('"nvvm.cluster.arrive"', '"nvvm.cluster.arrive.relaxed"') for l in lines]
    with pytest.raises(emulator.Fault, match="hazard"):
        emulator.compare(path, function, lowered="\n".join(unordered))


def test_grouped_stores_after_a_branching_body(tmp_path):
    """group-stores (docs/lowering.md, "Grouped stores of a map"): the fused gemm_bias_gelu's GELU
    branches (erf), so its stores are emitted 4 at a time after the 4 GELUs that feed them -- 16 runs
    of 4 consecutive memref.store ops on the output, against none with the option off -- and the
    kernel stays bit for bit equal to the schedule model."""
    fused = tmp_path / "gemm_bias_gelu.fused.mlir"
    subprocess.run([str(_tool("motif-opt")), str(repo_root() / "examples/gemm_bias_gelu.mlir"),
                    "--fuse-materialization", "-o", str(fused)], check=True, capture_output=True)

    def runs_of_four(text):
        lines = [l for l in text.splitlines() if l.strip()]
        stores = [('"memref.store"' in l) for l in lines]
        return sum(1 for i in range(len(stores) - 3) if all(stores[i:i + 4]) and (i == 0 or not stores[i - 1]))

    grouped = emulator.lower(fused)
    assert runs_of_four(grouped) == 16
    assert emulator.compare(fused, "gemm_bias_gelu", lowered=grouped) == []
    plain = subprocess.run([str(_tool("motif-opt")), str(fused), "--pass-pipeline=builtin.module("
                            "convert-motif-to-gpu{group-stores=false},gpu.module(canonicalize,cse))",
                            "--mlir-print-op-generic"], check=True, capture_output=True, text=True).stdout
    assert runs_of_four(plain) == 0


def test_dynamic_shared_memory_views():
    """Shared tails in dynamic shared memory (memref.view at byte offsets, one store per CTA of a
    cluster): bit for bit."""
    path = repo_root() / "test/Pipeline/Inputs/clusters.mlir"
    assert '"gpu.dynamic_shared_memory"' in emulator.lower(path)
    assert emulator.compare(path, "softmax_tails_c4") == []


def test_unsupported_is_reported():
    """What the emulator does not model (wgmma on sm_90a) is said so, never passed."""
    with pytest.raises(emulator.Unsupported):
        emulator.compare(repo_root() / "examples/linear_bf16.mlir", "linear_bf16")


@pytest.mark.parametrize("example", ["gemm_bf16", "gemm_f16", "gemm_tf32"])
def test_tensor_core_gemm(example):
    """GEMMs on mma.sync (nvvm.mma.sync for bf16 with packed registers, nvgpu.mma.sync for f16 and
    tf32 with cvt.rna.tf32) fed by ldmatrix from cp.async-staged shared tiles: within the schedule
    model's tolerance (the tensor core's accumulation order is modelled, not known); the same kernel
    with its first ldmatrix untransposed (or transposed) is far off."""
    path = repo_root() / "examples" / f"{example}.mlir"
    report = {}
    assert emulator.compare(path, example, report=report) == []
    assert report["bitwise"] is False
    text = emulator.lower(path)
    assert '"nvgpu.ldmatrix"' in text
    flipped = text.replace("transpose = true", "transpose = @", 1).replace("transpose = false", "transpose = true", 1) \
        .replace("transpose = @", "transpose = false", 1)
    if flipped == text:
        pytest.skip("no ldmatrix to flip")
    try:
        problems = emulator.compare(path, example, lowered=flipped)
    except emulator.Unsupported:
        return  # ldmatrix .trans of 32-bit elements does not exist: refused, not passed
    assert problems, "a transposed ldmatrix went unnoticed"


def test_flash_attention_on_tensor_cores(tmp_path):
    """bf16 attention fused in flash form (mathematical cap): mma.sync on ldmatrix fragments, the
    online softmax in registers, cp.async stages -- within tolerance; without its cp.async wait, the
    tiles are read before they land."""
    path = tmp_path / "attention_bf16.flash.mlir"
    subprocess.run([str(_tool("motif-opt")), str(repo_root() / "examples/attention_bf16.mlir"),
                    "--fuse-materialization=equivalence-cap=mathematical", "-o", str(path)],
                   check=True, capture_output=True)
    assert "motif.online_contract" in path.read_text()
    assert emulator.compare(path, "attention_bf16") == []
    text = emulator.lower(path)
    assert '"nvvm.mma.sync"' in text
    broken = "\n".join(l for l in text.splitlines() if '"nvgpu.device_async_wait"' not in l)
    assert emulator.compare(path, "attention_bf16", lowered=broken)


def test_online_contraction_with_cp_async_stages():
    """The f32 flash form staged through cp.async (nvgpu.device_async_copy, groups, waits; vector
    loads and stores) runs within the schedule model's tolerance (it rescales online and takes exp as
    exp2 of a folded scale: class tolerance); without its wait the tiles are read before they land."""
    path = repo_root() / "test/Conversion/MotifToGPU/Inputs/online-f32-stages.mlir"
    assert not emulator.judged_bitwise(path)
    assert emulator.compare(path, "stages") == []
    text = emulator.lower(path)
    assert '"nvgpu.device_async_copy"' in text and '"vector.load"' in text
    broken = "\n".join(l for l in text.splitlines() if '"nvgpu.device_async_wait"' not in l)
    problems = emulator.compare(path, "stages", lowered=broken)
    assert problems, "reading cp.async tiles before the wait went unnoticed"


def test_runtime_row_counts():
    """A function with a runtime row count (tensor<?x1024xf32>): the host's memref.dim, dynamic
    allocations and casts to the kernels' static bound, on row counts 1 to 129."""
    path = repo_root() / "examples/softmax_dynamic.mlir"
    for seed in range(3):
        assert emulator.compare(path, "softmax_dynamic", seed=seed) == []


_WAR = """module attributes {gpu.container_module} {
  func.func @f(%x: memref<64xf32> {motif.role = "input"}, %y: memref<64xf32> {motif.role = "output"}) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @k::@war blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>, %y : memref<64xf32>)
    return
  }
  gpu.module @k {
    gpu.func @war(%x: memref<64xf32>, %y: memref<64xf32>) workgroup(%s: memref<1xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %first = arith.cmpi eq, %t, %c0 : index
      %v = memref.load %x[%t] : memref<64xf32>
      scf.if %first {
        memref.store %v, %s[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %r = memref.load %s[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
      %w = arith.addf %r, %v : f32
      memref.store %w, %y[%t] : memref<64xf32>
      // BARRIER2
      scf.if %first {
        memref.store %w, %s[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
  }
}
"""


@pytest.mark.parametrize("barrier", [False, True])
def test_write_after_read_hazard(barrier):
    """Thread 0 overwrites a shared value every thread has just read: without a barrier between, a
    slower warp may read the new value on the GPU -- a write-after-read hazard (the emulator tracks
    every reader since the last barrier, not only the last one); with it, y = x + x[0]."""
    text = _WAR.replace("// BARRIER2", "gpu.barrier" if barrier else "")
    generic = subprocess.run([str(_tool("motif-opt")), "-", "--mlir-print-op-generic"], input=text,
                             capture_output=True, text=True, check=True).stdout
    x = np.random.default_rng().standard_normal(64).astype(np.float32).astype(np.float64)
    emu = emulator.Emulator(emulator.parse_module(generic))
    if not barrier:
        with pytest.raises(emulator.Fault, match="write-after-read"):
            emu.run_host("f", [x])
        return
    (y,) = emu.run_host("f", [x])
    assert np.array_equal(y, (x.astype(np.float32) + np.float32(x[0])).astype(np.float64))


@pytest.mark.parametrize("path,function", [
    ("test/Pipeline/Inputs/scalar-ops.mlir", "scalar_ops"),
    ("test/Evaluator/Inputs/scalar-identities.mlir", "atan2"),
    ("test/Evaluator/Inputs/scalar-identities.mlir", "fpowi"),
    ("test/Evaluator/Inputs/scalar-identities.mlir", "remf_is_not_remainder"),
    ("test/Evaluator/Inputs/scalar-identities.mlir", "roundeven"),
    ("test/Evaluator/Inputs/scalar-identities.mlir", "fptosi"),
])
def test_scalar_ops_bit_for_bit(path, function):
    """Every scalar op of ScalarOps.def in map bodies (f32, f64, integers, casts, libm functions), as the
    evaluator computes them."""
    assert emulator.compare(repo_root() / path, function) == []


def test_softmax_exp_flush_bit_for_bit(tmp_path):
    """motif.ftz (docs/residency.md, "Approximate math") on inputs that reach it: bf16 softmax
    8x256 fused under the mathematical cap, a quarter of each row 88 to 92 below the row's max
    (exp 1.1e-40 to 6.1e-39: subnormal in f32, a nonzero bf16 without the flush). The kernel
    (ex2.approx.ftz) and the schedule model (math.exp2 {motif.ftz}) agree bit for bit, both give
    +0 there, and the float64 meaning does not (the flush is what is compared, not a zero input)."""
    src = tmp_path / "softmax_bf16.mlir"
    text = (repo_root() / "examples/softmax_bf16.mlir").read_text()
    src.write_text(text.replace("512", "8").replace("1024", "256"))
    fused = tmp_path / "fused.mlir"
    subprocess.run([str(_tool("motif-opt")), str(src), "--fuse-materialization=equivalence-cap=mathematical",
                    "-o", str(fused)], check=True, capture_output=True)
    assert "motif.ftz" in fused.read_text()
    lowered = emulator.lower(fused)
    assert '"llvm.nvvm.ex2.approx.ftz.f"' in lowered
    rng = np.random.default_rng()
    x = rng.standard_normal((8, 256))
    far = rng.random((8, 256)) < 0.25
    x[far] = (x.max(axis=1, keepdims=True) - rng.uniform(88.0, 92.0, size=(8, 256)))[far]
    x = emulator._round(x, "bf16")
    got = emulator.Emulator(emulator.parse_module(lowered), seed=0).run_host("softmax_bf16", [x])
    want, meaning = emulator.schedule_model(fused, "softmax_bf16", [x], tmp_path)
    g, w, m = got[0].reshape(8, 256), want[0], meaning[0]
    assert np.array_equal(g, w)
    e64 = np.exp(x - x.max(axis=1, keepdims=True))
    flushed = e64 < 2.0 ** -126 * (1 - 1e-3)
    assert flushed.sum() >= 8
    assert np.all(g[flushed] == 0) and np.all(m[flushed] > 0)


def test_cluster_mbarrier_exchange():
    """convert-motif-to-gpu's cluster-mbarrier (docs/lowering.md, "Clusters"): the partials pushed by
    st.async and counted on an mbarrier of each receiving CTA, no cluster barrier after the start.
    Every kernel of clusters.mlir (cluster(4) f32 / bf16 / shared tails, cluster(2) with a partial a
    lane; seven exchanges) bit for bit with the schedule model; and each planted defect is caught: no wait before the
    reads (a race), no fence.mbarrier_init (the mbarrier not published before the pushes), each push
    sent twice (more bytes than expected), one push missing or thread 0's arrival missing (a wait
    that never completes)."""
    import re
    path = repo_root() / "test/Pipeline/Inputs/clusters.mlir"
    low = emulator.lower(path)  # the default: cluster-mbarrier=true
    assert low.count('"nvvm.mbarrier.try_wait.parity"') == 7 and '"nvvm.cluster.wait"' in low
    for name in ("softmax_c4", "softmax_bf16_c4", "softmax_tails_c4", "column_sums_c2"):
        assert emulator.compare(path, name, lowered=low) == [], name
    push = r'^(\s*"llvm.inline_asm".*st\.async.*\n)'
    defects = {
        "read-after-write": re.sub(r'^\s*"nvvm.mbarrier.try_wait.parity".*\n', "", low, flags=re.M),
        "not yet initialized and published": re.sub(r'^\s*"nvvm.fence.mbarrier.init".*\n', "", low, flags=re.M),
        "more bytes than it expects": re.sub(push, r"\1\1", low, flags=re.M),
        "never completes": re.sub(push, "", low, count=1, flags=re.M),
    }
    no_arrive = re.sub(r'^\s*"nvvm.mbarrier.arrive.expect_tx".*\n', "", low, count=1, flags=re.M)
    for what, text in defects.items():
        assert text != low, what
        with pytest.raises(emulator.Fault, match=what):
            emulator.compare(path, "softmax_c4", lowered=text)
    assert no_arrive != low
    with pytest.raises(emulator.Fault, match="never completes"):
        emulator.compare(path, "softmax_c4", lowered=no_arrive)
