"""The flash form at random shapes on the CPU, partial last row blocks included (docs/dialect.md,
"Partial last tiles"): the unfused attention program (attention_text) of random rows S (1 .. 150), keys
N (1 .. 150), D, E and heads, rewritten by rule 4 (motif-opt --motif-online-softmax), lowered
(convert-motif-to-gpu) and run by scripts/emulate-mma.py --attention: every thread of a block in lock
step, global buffers exactly the tensors' size (a load or store past row S is an index error, an element
never written is NaN), checked against float64 softmax(scale q k^T) v per head -- f32 (the fma form,
key groups where the grid is small) within 1e-5 of max |ref|, bf16 (mma.sync) within 2u = 7.8e-3.
Class: mathematical. The GPU runs are test_gpu.py::test_flash_form_edges{,_half}."""
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from motif.compiler import find_motif_compile
from motif.errors import CompilerNotFoundError
from motif.examples import attention_text

ROOT = Path(__file__).resolve().parents[2]


def _opt():
    try:
        return find_motif_compile().parent / "motif-opt"
    except CompilerNotFoundError as e:
        pytest.skip(str(e))


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_flash_form_random_shapes_emulated(dtype, tmp_path):
    opt = _opt()
    rng = np.random.default_rng()
    partial = 0
    for n in range(3):
        S, N = (int(x) for x in rng.integers(1, 151, size=2))
        if n == 0:  # at least one partial last row block
            S = int(rng.integers(1, 10)) * 16 + 2 * int(rng.integers(0, 8)) + 1  # odd: no block divides it
        D = int(rng.choice([16, 32, 64]))
        E = int(rng.choice([16, 32, 64]))
        H = [None, 2, 3][int(rng.integers(0, 3))]
        label = f"{dtype} S={S} N={N} D={D} E={E} H={H}"
        src = tmp_path / f"a{n}.mlir"
        src.write_text(attention_text(S, N, D, E, H, dtype=dtype))
        p = subprocess.run([str(opt), str(src), "--motif-online-softmax", "-o", str(tmp_path / f"r{n}.mlir")],
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, label + p.stderr[-2000:]
        m = re.search(r"(\d+) rows per block( \(the last of)?", p.stderr)
        assert m, f"{label}: rule 4 did not apply\n{p.stderr[-2000:]}"
        partial += m.group(2) is not None
        low = tmp_path / f"k{n}.mlir"
        p = subprocess.run([str(opt), str(tmp_path / f"r{n}.mlir"), "--pass-pipeline=builtin.module("
                            "convert-motif-to-gpu,gpu.module(canonicalize,cse))", "--mlir-print-op-generic",
                            "-o", str(low)], capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, label + p.stderr[-2000:]
        scale = 1.0 / math.sqrt(D)
        rtol = "1e-5" if dtype == "f32" else "7.8e-3"
        p = subprocess.run([sys.executable, str(ROOT / "scripts" / "emulate-mma.py"), str(low), "--attention",
                            repr(scale), "--rtol", rtol, "--magnitude", "4", "--seed", str(n)],
                           capture_output=True, text=True, timeout=600)
        assert p.returncode == 0 and "emulate-mma: PASS" in p.stdout, f"{label}:\n{p.stdout[-2000:]}{p.stderr[-2000:]}"
        assert ", 0 unwritten" in p.stdout, label
    assert partial >= 1
