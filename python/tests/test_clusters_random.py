"""Row clusters on random long rows (CPU; docs/residency.md, "Row clusters").

Fresh random shapes each run: softmax rows of 32,769 to 131,072 elements, f32 or bf16, 1 to 3 rows,
fused with row-cluster-threads 128, 256 or 512 (equivalence cap tolerance). The fusion must grow the
row's block and run it as a cluster (a remark says so); the fused kernel is lowered (its exchanges
behind cluster barriers: cluster-mbarrier=false) and executed by scripts/emulate-mma.py (the cluster's CTAs in lock step, each with its own shared memory, nvvm.mapa
reading another's) against the same kernel with its cluster halved: bit for bit, and against float64
softmax. The shapes are printed so that a failure reproduces.

test_random_row_clusters_mbarrier: the default lowering (st.async + mbarriers) of random row clusters
on motif.emulator, bit for bit against the schedule model.

test_random_row_clusters_auto: row-clusters=auto (the default) on random rows of 16,385 to 300,000, caps
tolerance / mathematical, with and without tails and rule 4: the result is exactly always's or off's, and
the cluster is taken only where its plan moves fewer bytes through global memory.
"""
import re
import subprocess
import sys

import numpy as np
import pytest

from motif.examples import load_example


def _tools():
    from motif._paths import repo_root
    from motif.compiler import find_motif_compile
    from motif.errors import CompilerNotFoundError
    try:
        bindir = find_motif_compile().parent
    except CompilerNotFoundError as e:
        pytest.skip(str(e))
    opt = bindir / "motif-opt"
    if not opt.is_file():
        pytest.skip(f"motif-opt not found in {bindir}")
    return opt, repo_root() / "scripts" / "emulate-mma.py"


def _first_function(text):
    first = text.index("func.func @")
    depth = 0
    for j in range(text.index("{", first), len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[first:j + 1]
    raise AssertionError("unbalanced program")


def emulate_bitwise(emulator, kernels, family, rng, label):
    """scripts/emulate-mma.py runs kernels[0] and kernels[1] (lowered softmax programs) on the same fresh
    random inputs: they must agree bit for bit and match float64 within the element type's rounding."""
    rtol = {"bf16": 2.0 ** -8, "f16": 2.0 ** -10}.get(family.rsplit("_", 1)[-1], 1e-5)
    e = subprocess.run([sys.executable, str(emulator), str(kernels[0]), "--compare", str(kernels[1]),
                        "--softmax", "--rtol", str(rtol), "--seed", str(int(rng.integers(1 << 30)))],
                       capture_output=True, text=True, timeout=900)
    print(e.stdout)
    assert e.returncode == 0 and "bitwise equal, 0 unwritten" in e.stdout and "PASS" in e.stdout, \
        f"{label}:\n{e.stdout[-3000:]}{e.stderr[-3000:]}"


def test_random_row_clusters_emulated(tmp_path):
    from motif.examples import cluster_twin
    opt, emulator = _tools()
    rng = np.random.default_rng()
    # emulate-mma.py models cluster barriers, not mbarriers: the exchange behind cluster barriers
    # (the default's st.async + mbarrier form: test_random_row_clusters_mbarrier).
    lower = "builtin.module(convert-motif-to-gpu{cluster-mbarrier=false},gpu.module(canonicalize,cse))"
    for case in range(3):
        family = ["softmax", "softmax_bf16"][int(rng.integers(2))]
        n = int(rng.integers(32769, 131073))
        rows = int(rng.integers(1, 4))
        cta = int(rng.choice([128, 256, 512]))
        label = f"{family} {rows}x{n} row-cluster-threads={cta}"
        print(label)
        src = tmp_path / f"case{case}.mlir"
        src.write_text(_first_function(load_example(family, dict(M=rows, N=n))) + "\n")
        p = subprocess.run([str(opt), str(src), "--fuse-materialization=equivalence-cap=tolerance "
                            f"row-clusters=always row-cluster-threads={cta}"], capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, f"{label}: {p.stderr[-2000:]}"
        fused = p.stdout
        m = re.search(r"threads\((\d+)\) cluster\((\d+)\)", fused)
        assert m, f"{label}: no cluster:\n{p.stderr[-3000:]}"
        threads, k = int(m.group(1)), int(m.group(2))
        assert threads == min(1024, 1 << (-(-n // 64) - 1).bit_length()) and k == min(8, threads // cta), \
            (label, threads, k)
        assert re.search(rf"-> threads\({threads}\) cluster\({k}\)\): each thread walks", p.stderr), label
        # The twin: the cluster halved, or (when halving puts more shared tails in a CTA than it
        # may have) doubled.
        doubled = fused.replace(f" cluster({k})", f" cluster({2 * k})")
        kernels = []
        for tag, texts in (("c", [fused]), ("twin", [cluster_twin(fused)] + ([doubled] if 2 * k <= 8 else []))):
            out = tmp_path / f"case{case}.{tag}.mlir"
            for text in texts:
                q = subprocess.run([str(opt), f"--pass-pipeline={lower}", "--mlir-print-op-generic", "-o",
                                    str(out)], input=text, capture_output=True, text=True, timeout=300)
                if q.returncode == 0 or "bytes of shared memory" not in q.stderr:
                    break
            assert q.returncode == 0, f"{label} ({tag}): {q.stderr[-2000:]}"
            kernels.append(out)
        emulate_bitwise(emulator, kernels, family, rng, label)


def test_random_row_clusters_mbarrier(tmp_path):
    """The default lowering of a row cluster (cluster-mbarrier: the partials pushed by st.async and counted
    on each CTA's mbarrier) on fresh random rows of 32,769 to 65,536, f32 or bf16, 1 or 2 rows, CTAs of
    128: motif.emulator (which models the mbarriers' bytes and phases) runs it bit for bit against the
    schedule model."""
    from motif import emulator
    opt, _ = _tools()
    rng = np.random.default_rng()
    for case in range(4):
        family = ["softmax", "softmax_bf16"][int(rng.integers(2))]
        n = int(rng.integers(32769, 65537))
        rows = int(rng.integers(1, 3))
        label = f"{family} {rows}x{n} row-cluster-threads=128"
        print(label)
        src = tmp_path / f"mbar{case}.mlir"
        src.write_text(_first_function(load_example(family, dict(M=rows, N=n))) + "\n")
        p = subprocess.run([str(opt), str(src), "--fuse-materialization=equivalence-cap=tolerance "
                            "row-clusters=always row-cluster-threads=128"], capture_output=True, text=True,
                           timeout=300)
        assert p.returncode == 0 and " cluster(" in p.stdout, f"{label}: {p.stderr[-2000:]}"
        fused = tmp_path / f"mbar{case}.fused.mlir"
        fused.write_text(p.stdout)
        lowered = emulator.lower(fused)
        assert "st.async" in lowered and '"nvvm.mbarrier.try_wait.parity"' in lowered, label
        function = re.search(r"func\.func @(\w+)", p.stdout).group(1)
        assert emulator.compare(fused, function, lowered=lowered) == [], label


def test_random_row_clusters_auto(tmp_path):
    """row-clusters=auto (the default) on fresh random long rows: the fused program is exactly the one
    row-clusters=always or row-clusters=off gives, never a third; a remark gives the bytes through
    global memory of both plans, and the cluster is taken only when its count is smaller."""
    opt, _ = _tools()
    rng = np.random.default_rng()
    seen = set()
    for case in range(12):
        family = ["softmax", "softmax_bf16"][int(rng.integers(2))]
        n = int(rng.integers(16385, 300001))
        rows = int(rng.integers(1, 5))
        extra = str(rng.choice(["", " tail-budget=0", " online-softmax=false"]))
        cap = str(rng.choice(["tolerance", "mathematical"]))
        label = f"{family} {rows}x{n} cap={cap}{extra}"
        print(label)
        src = tmp_path / f"auto{case}.mlir"
        src.write_text(_first_function(load_example(family, dict(M=rows, N=n))) + "\n")

        def fuse(mode):
            p = subprocess.run([str(opt), str(src), f"--fuse-materialization=equivalence-cap={cap}{extra}"
                                + (f" row-clusters={mode}" if mode else "")],
                               capture_output=True, text=True, timeout=300)
            assert p.returncode == 0, f"{label} ({mode}): {p.stderr[-2000:]}"
            return p
        auto, off, always = fuse(None), fuse("off"), fuse("always")
        took = re.search(r"a cluster keeps on chip what one CTA of at most 512 threads cannot: (\d+) -> (\d+) B",
                         auto.stderr)
        declined = re.search(r"no cluster\(\d+\) of CTAs of 128 threads: one CTA of at most 512 threads keeps "
                             r"(as much|more) on chip \((\d+) B stored to and loaded from global memory"
                             r"(?: either way|, against (\d+) B with the cluster)\)", auto.stderr)
        assert not (took and declined), label
        if took:
            assert int(took.group(2)) < int(took.group(1)), label
            assert auto.stdout == always.stdout and " cluster(" in auto.stdout, label
            seen.add("took")
        else:
            assert auto.stdout == off.stdout and " cluster(" not in auto.stdout, label
            if declined:
                a, c = int(declined.group(2)), int(declined.group(3) or declined.group(2))
                assert c >= a and (declined.group(1) == "as much") == (c == a), label
                seen.add("declined")
            elif " cluster(" in always.stdout:
                # A cluster was possible but no remark weighed it: only where the rows do not grow
                # (a cap or rule 4 took them first).
                assert "threads(1024)" not in off.stdout, label
    print("decisions seen:", sorted(seen))
