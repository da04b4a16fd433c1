"""Shared tails on random long rows (CPU; docs/residency.md, "Shared tails").

Fresh random shapes each run: softmax and RMSNorm rows of 8,000 to 65,536 elements at 128 to 1024
threads per block, f32 or bf16. Each program is fused (motif-opt --fuse-materialization) and run
against the unfused one on the schedule-faithful CPU evaluator (motif-equiv --model=schedule, class
bitwise: a tail is a residency move), and lowered (--convert-motif-to-gpu: the tails fit the
chip's shared memory as the fusion counted them). Where the fusion keeps slots in a tail, it checks
that the tail is what the rule says: the slots past the register part, with the register part
within the register budget. The shapes are printed so that a failure reproduces.
"""
import re
import subprocess

import numpy as np
import pytest

from motif.examples import load_example


def _tools():
    from motif.compiler import find_motif_compile
    from motif.errors import CompilerNotFoundError
    try:
        bindir = find_motif_compile().parent
    except CompilerNotFoundError as e:
        pytest.skip(str(e))
    opt, equiv = bindir / "motif-opt", bindir / "motif-equiv"
    if not opt.is_file() or not equiv.is_file():
        pytest.skip(f"motif-opt / motif-equiv not found in {bindir}")
    return opt, equiv


def _program(family, rows, n, threads):
    text = load_example(family, dict(M=rows, N=n))
    first = text.index("func.func @")
    depth, end = 0, None
    for j in range(text.index("{", first), len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            end = j + 1
            break
    return text[first:end].replace("threads(256)", f"threads({threads})")


def test_random_long_rows_fuse_bitwise(tmp_path):
    opt, equiv = _tools()
    rng = np.random.default_rng()
    tails_seen = 0
    for case in range(6):
        family = ["softmax", "softmax_bf16", "rmsnorm"][case % 3]
        threads = int(rng.choice([128, 256, 512, 1024]))
        # Past what a thread keeps in registers (the 64-register budget, or the live set:
        # min(255, 65536 / threads) - 24), up to 256 slots (the lowering's unroll limit).
        keep = min(64, min(255, 65536 // threads) - 24)
        n = int(rng.integers(keep * threads + 1, min(256 * threads, 65536) + 1))
        rows = int(rng.integers(1, 4))
        label = f"{family} {rows}x{n} threads({threads})"
        src = tmp_path / f"case{case}.mlir"
        src.write_text(_program(family, rows, n, threads) + "\n")
        fused = tmp_path / f"case{case}.fused.mlir"
        p = subprocess.run([str(opt), str(src), "--fuse-materialization", "-o", str(fused)],
                           capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, f"{label}: {p.stderr[-2000:]}"
        for m in re.finditer(r"loaded once, (\d+) register\(s\) per thread and (\d+) slots in a shared tail",
                             p.stderr):
            regs, tail = int(m.group(1)), int(m.group(2))
            slots = -(-n // threads)
            assert regs + tail == slots and regs <= keep, (label, regs, tail, slots)
            tails_seen += 1
        # The lowering accepts it: its tails (one region where a map consumes x) fit the chip.
        low = subprocess.run([str(opt), str(fused), "--convert-motif-to-gpu", "-o", "/dev/null"],
                             capture_output=True, text=True, timeout=300)
        assert low.returncode == 0, f"{label}: {low.stderr[-2000:]}"
        q = subprocess.run([str(equiv), "--class=bitwise", "--trials=1", str(src), str(fused)],
                           capture_output=True, text=True, timeout=600)
        print(label, "tails:", len(re.findall(r"shared_tail\(", fused.read_text())))
        assert q.returncode == 0 and "PASS" in q.stdout, f"{label}:\n{q.stdout[-3000:]}{q.stderr[-2000:]}"
    assert tails_seen, "no case took a shared tail"
