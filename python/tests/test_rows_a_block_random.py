"""Rows a block on random row softmaxes (CPU; docs/residency.md, "Row blocks"; RowBlocks.h).

Fresh random programs each run: a bf16, f16 or f32 row softmax of 2048 to 16384 rows of 8 to 1100
elements, fused under a random cap. The rule is computed here from its documented statement, an
oracle independent of RowBlocks.cpp: the threads the row-blocks rule gives (N/16 to a power of two, at
least 64, where the cap admits `tolerance`; else the written 256), then R rows a block, the largest
of 1, 2, 4 with R x N <= 4096, R x ceil(N / threads) <= 16 (elements a thread), R dividing the rows
and at least 2048 blocks left. The fused program must map its rows over `block x seq(R)` (or `block` for R = 1) with
that many threads, and say so in a remark. Both it and the same program written with those threads and
fused with row-blocks=false (one row a block) are lowered and run by scripts/emulate-mma.py on the
same random inputs: bit for bit equal (each row keeps its threads and tree), and within the element
type's rounding of float64 (equivalence class: bitwise between the two; tolerance against float64).
The options are printed so that a failure reproduces.
"""
import re
import subprocess
import sys

import numpy as np

from motif.examples import load_example
from test_clusters_random import _first_function, _tools, emulate_bitwise

LOWER = "builtin.module(convert-motif-to-gpu,gpu.module(canonicalize,cse))"


def _expected(rows, n, cap):
    threads = 256
    if cap != "bitwise":
        t = max(64, 1 << max(0, (-(-n // 16) - 1).bit_length()))
        threads = t if t < 256 else 256
    per_thread = -(-n // threads)
    r = 1
    while (2 * r <= 4 and 2 * r * n <= 4096 and 2 * r * per_thread <= 16 and rows % (2 * r) == 0
           and rows // (2 * r) >= 2048):
        r *= 2
    return threads, r


def _run(opt, args, text=None, src=None):
    p = subprocess.run([str(opt)] + ([str(src)] if src else []) + args, input=text, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, f"{args}: {p.stderr[-2000:]}"
    return p.stdout, p.stderr


def _lowered(opt, tmp_path, stem, on, off):
    """The fused forms `on` and `off` lowered to the GPU dialect (generic form) for the emulator."""
    kernels = []
    for tag, fused in (("on", on), ("off", off)):
        out = tmp_path / f"{stem}.{tag}.lowered.mlir"
        _run(opt, [f"--pass-pipeline={LOWER}", "--mlir-print-op-generic", "-o", str(out)], text=fused)
        kernels.append(out)
    return kernels


def _emulate_compare(emulator, kernels, rng, label):
    """scripts/emulate-mma.py runs both kernels on the same fresh random inputs: bit for bit equal."""
    e = subprocess.run([sys.executable, str(emulator), str(kernels[0]), "--compare", str(kernels[1]),
                        "--seed", str(int(rng.integers(1 << 30)))], capture_output=True, text=True, timeout=900)
    print(e.stdout)
    assert e.returncode == 0 and "bitwise equal, 0 unwritten" in e.stdout, \
        f"{label}:\n{e.stdout[-3000:]}{e.stderr[-3000:]}"


def _fuse_row_program(opt, tmp_path, case, text, what, cap, min_grid):
    """Fuses random row program `case` under `cap` with `min_grid`: it must become one kernel. Returns
    the label, the source and fused files, the fused text, the remarks and the kernel's threads."""
    label = f"case {case}: {what}; equivalence-cap={cap} row-block-min-grid={min_grid}"
    print(label)
    src = tmp_path / f"case{case}.mlir"
    src.write_text(text)
    on, remarks = _run(opt, [f"--fuse-materialization=equivalence-cap={cap} row-block-min-grid={min_grid}"],
                       src=src)
    assert on.count("motif.kernel") == 1, f"{label}: not one kernel:\n{remarks[-3000:]}"
    fused = tmp_path / f"case{case}.fused.mlir"
    fused.write_text(on)
    threads = int(re.search(r"threads\((\d+)\)", on).group(1))
    return label, src, fused, on, remarks, threads


def _equiv_in_cap_class(equiv, src, fused, text, cap, label, passes=1):
    """motif-equiv of the fused program against the unfused one in the class its cap allows (bitwise;
    else within 1e-5 of float64 for f32, 2^-8 for bf16): `passes` PASS lines (one a row count)."""
    bf16 = "bf16>" in text.split("->", 1)[1].split("{", 1)[0]
    cls = ["--class=bitwise"] if cap == "bitwise" else ["--class=tolerance",
                                                         f"--rtol={2.0 ** -8 if bf16 else 1e-5}"]
    e = subprocess.run([str(equiv)] + cls + ["--trials=1", str(src), str(fused)], capture_output=True,
                       text=True, timeout=300)
    assert e.returncode == 0 and e.stdout.count(": PASS") == passes, \
        f"{label}:\n{e.stdout[-2000:]}{e.stderr[-2000:]}"


def test_random_rows_a_block_emulated(tmp_path):
    opt, emulator = _tools()
    seed = int(np.random.SeedSequence().entropy % 2**63)
    print(f"seed {seed}")
    rng = np.random.default_rng(seed)
    taken = 0
    for case in range(4):
        family = str(rng.choice(["softmax_bf16", "softmax_f16", "softmax"]))
        # the first draw where the rule must take (8192 rows of at most 1024: R >= 2 under any cap),
        # two where it may, one where it must not (too few rows, or an odd count)
        rows = int([[8192], [4096, 6144, 8192, 12288, 16384], [4096, 6144, 16384], [2048, 4095, 4097]][case]
                   [int(rng.integers([1, 5, 3, 3][case]))])
        n = int(rng.integers(8, 1025 if case == 0 else 1101))
        if rows * n > 4_000_000:  # keep the emulation short
            n = max(8, 4_000_000 // rows)
        cap = str(rng.choice(["bitwise", "tolerance", "mathematical"]))
        threads, r = _expected(rows, n, cap)
        label = f"{family} {rows}x{n} equivalence-cap={cap}: expected threads({threads}), {r} row(s) a block"
        print(label)
        text = load_example("softmax_bf16" if family == "softmax_f16" else family, dict(M=rows, N=n))
        if family == "softmax_f16":
            text = text.replace("bf16", "f16")
        text = _first_function(text) + "\n"
        src = tmp_path / f"case{case}.mlir"
        src.write_text(text)
        on, remarks = _run(opt, [f"--fuse-materialization=equivalence-cap={cap}"], src=src)
        rows_level = f"block x seq({r})" if r > 1 else "block"
        assert re.search(rf"over \[{re.escape(rows_level)}, thread\]", on), f"{label}:\n{on[:3000]}"
        assert f"threads({threads})" in on, f"{label}:\n{on[:3000]}"
        said = re.findall(r"remark: row blocks: kernel '[^']+': (\d+) rows a block", remarks)
        assert said == ([str(r)] * len(said) if r > 1 else []) and (r == 1 or said), (label, remarks[-3000:])
        taken += r > 1
        # One row a block, on the threads the rule gives: what rows a block must equal bit for bit.
        one = tmp_path / f"case{case}.one.mlir"
        one.write_text(re.sub(r"threads\(\d+\)", f"threads({threads})", text))
        off, _ = _run(opt, [f"--fuse-materialization=equivalence-cap={cap} row-blocks=false"], src=one)
        assert "seq(" not in off
        emulate_bitwise(emulator, _lowered(opt, tmp_path, f"case{case}", on, off), family, rng, label)
    assert taken >= 1, "the first draw must take rows a block"


def _batched(text, batch):
    """The row softmax `text` (M x N rows over [block, thread]) as `batch` sets of M / batch rows: a 3-D
    program over [block, block, thread], as the linalg importer maps a 3-D tensor."""
    def shape(m):
        dims = m.group(1).split("x")
        rows = int(dims[0])
        assert rows % batch == 0
        return "tensor<" + "x".join([str(batch), str(rows // batch)] + dims[1:]) + ">"
    text = re.sub(r"tensor<(\d+(?:x\d+)?x\w+)>", shape, text)
    text = re.sub(r"\[i, j\]", "[b, i, j]", text)
    text = re.sub(r"\[i\]", "[b, i]", text)
    return text.replace("over [block, thread]", "over [block, block, thread]")


def _expected_batched(batch, inner, n, cap):
    """The oracle of the rule on a grid [batch, inner]: R as in _expected on batch x inner rows, where
    some grid dim R divides; the innermost such dim takes it (1: inner, 0: batch)."""
    threads, _ = _expected(batch * inner, n, cap)
    per_thread = -(-n // threads)
    r = 1
    while (2 * r <= 4 and 2 * r * n <= 4096 and 2 * r * per_thread <= 16
           and (inner % (2 * r) == 0 or batch % (2 * r) == 0) and batch * inner // (2 * r) >= 2048):
        r *= 2
    return threads, r, (1 if inner % r == 0 else 0)


def test_random_batched_rows_a_block_emulated(tmp_path):
    """A batch of row sets (a 3-D softmax over [block, block, thread]): the innermost grid dim that R
    divides takes R rows a block; bit for bit against one row a block, on the emulator."""
    opt, emulator = _tools()
    seed = int(np.random.SeedSequence().entropy % 2**63)
    print(f"seed {seed}")
    rng = np.random.default_rng(seed)
    outer_taken = 0
    for case in range(3):
        family = str(rng.choice(["softmax_bf16", "softmax_f16", "softmax"]))
        # case 0: an odd inner dim (the batch dim takes the rows); then any.
        batch = int(rng.choice([4, 8, 16]))
        inner = int(rng.integers(1024, 4097))
        if case == 0:
            inner |= 1
        n = int(rng.integers(8, 513))
        if batch * inner * n > 4_000_000:
            n = max(8, 4_000_000 // (batch * inner))
        cap = str(rng.choice(["bitwise", "tolerance", "mathematical"]))
        threads, r, dim = _expected_batched(batch, inner, n, cap)
        label = (f"{family} {batch}x{inner}x{n} equivalence-cap={cap}: expected threads({threads}), "
                 f"{r} row(s) a block on grid dim {dim + 1}")
        print(label)
        text = load_example("softmax_bf16" if family == "softmax_f16" else family, dict(M=batch * inner, N=n))
        if family == "softmax_f16":
            text = text.replace("bf16", "f16")
        text = _batched(_first_function(text), batch) + "\n"
        src = tmp_path / f"case{case}.mlir"
        src.write_text(text)
        on, remarks = _run(opt, [f"--fuse-materialization=equivalence-cap={cap}"], src=src)
        levels = ["block", "block"]
        if r > 1:
            levels[dim] = f"block x seq({r})"
        assert re.search(rf"over \[{re.escape(', '.join(levels))}, thread\]", on), f"{label}:\n{on[:3000]}"
        assert f"threads({threads})" in on, f"{label}:\n{on[:3000]}"
        said = re.findall(r"remark: row blocks: kernel '[^']+': (\d+) rows a block \(grid dim (\d) of 2", remarks)
        assert said == ([(str(r), str(dim + 1))] * len(said) if r > 1 else []) and (r == 1 or said), \
            (label, remarks[-3000:])
        outer_taken += r > 1 and dim == 0
        one = tmp_path / f"case{case}.one.mlir"
        one.write_text(re.sub(r"threads\(\d+\)", f"threads({threads})", text))
        off, _ = _run(opt, [f"--fuse-materialization=equivalence-cap={cap} row-blocks=false"], src=one)
        assert "seq(" not in off
        emulate_bitwise(emulator, _lowered(opt, tmp_path, f"case{case}", on, off), family, rng, label)
    assert outer_taken >= 1, "the first draw must take rows a block on the batch dim"


def test_imported_norms_rows_a_block_emulated(tmp_path):
    """The ONNX-imported norms (test/Conversion/LinalgToMotif/Inputs/onnx: LayerNorm and RMSNorm of 2-D
    rows, LayerNorm of [4, 1024, 1024]) hold maps of per-row values over `block` only (mean = sum / N,
    1 / sqrt(var + eps)): they go with their rows. Fused under a random cap with a random
    row-block-min-grid, each takes the R rows a block of the rule's statement on the threads the row
    rule gives. Where that R is 1 (rows of 1024 on 64 threads: 16 elements a thread already), a remark
    says why, and the norm is fused again under the bitwise cap (256 threads, R = 4). Each R > 1 form
    runs bit for bit as one row a block on its threads (scripts/emulate-mma.py, fresh random inputs)."""
    from motif._paths import repo_root
    opt, emulator = _tools()
    seed = int(np.random.SeedSequence().entropy % 2**63)
    print(f"seed {seed}")
    rng = np.random.default_rng(seed)
    inputs = repo_root() / "test" / "Conversion" / "LinalgToMotif" / "Inputs" / "onnx"
    for name in ("layernorm", "rmsnorm", "layernorm_3d"):
        imported, _ = _run(opt, ["--convert-linalg-to-motif"], src=inputs / f"{name}.mlir")
        n = int(re.search(r"tensor<(?:\d+x)+(\d+)xf32>", imported).group(1))
        rows = 1
        for d in re.search(r"tensor<((?:\d+x)+)\d+xf32>", imported).group(1).rstrip("x").split("x"):
            rows *= int(d)
        cap = str(rng.choice(["bitwise", "tolerance", "mathematical"]))
        min_grid = int(rng.choice([16, 32, 64]))
        for cap in (cap, "bitwise"):
            threads = 256 if cap == "bitwise" else max(64, 1 << max(0, (-(-n // 16) - 1).bit_length()))
            per_thread = -(-n // threads)
            r = 1
            while 2 * r <= 4 and 2 * r * n <= 4096 and 2 * r * per_thread <= 16 and rows // (2 * r) >= min_grid:
                r *= 2
            label = f"{name} ({rows} rows of {n}) equivalence-cap={cap} row-block-min-grid={min_grid}: R={r}"
            print(label)
            on, remarks = _run(opt, [f"--fuse-materialization=equivalence-cap={cap} row-block-min-grid={min_grid}"],
                               text=imported)
            assert f"threads({threads})" in on, f"{label}:\n{remarks[-3000:]}"
            if r > 1:
                break
            assert "seq(" not in on, f"{label}:\n{remarks[-3000:]}"
            assert (f"one row a block: each of its {threads} threads walks {per_thread} element(s) of its row; "
                    f"two rows would make {2 * per_thread}, over 16 a thread") in remarks, label
        assert r > 1 and f"seq({r})" in on, f"{label}:\n{remarks[-3000:]}"
        assert re.search(rf"over \[(block, )*block x seq\({r}\)\]", on), f"{label}: the per-row maps:\n{on[:4000]}"
        off, _ = _run(opt, [f"--fuse-materialization=equivalence-cap={cap} row-blocks=false"],
                      text=imported.replace("threads(256)", f"threads({threads})"))
        assert "seq(" not in off and f"threads({threads})" in off
        _emulate_compare(emulator, _lowered(opt, tmp_path, name, on, off), rng, label)


def test_random_row_programs_emulated(tmp_path):
    """Random row programs (row_programs.py: chains of row reductions, maps of rows with per-row values
    and a weight, maps of per-row values alone; bf16 or f32; a grid of one or two dims), fused under a
    random cap with a random small row-block-min-grid. Every program fuses into one kernel; motif-equiv
    holds it to the unfused program in the class its cap allows (bitwise; else within 1e-5 of float64
    for f32, 2^-8 for bf16); and the emulator runs it bit for bit against the same program on the same
    threads with one row a block (row-blocks=false)."""
    from row_programs import random_row_program
    opt, emulator = _tools()
    equiv = opt.parent / "motif-equiv"
    seed = int(np.random.SeedSequence().entropy % 2**63)
    print(f"seed {seed}")
    rng = np.random.default_rng(seed)
    taken = 0
    for case in range(12):
        grid = ([int(rng.choice([256, 512, 1024, 2048]))] if rng.random() < 0.5 else
                [int(rng.choice([2, 3, 4, 8])), int(rng.choice([64, 128, 255, 256]))])
        n = int(rng.integers(8, 1100))
        rows = int(np.prod(grid))
        if rows * n > 1_500_000:
            n = max(8, 1_500_000 // rows)
        text, what = random_row_program(rng, grid, n)
        cap = str(rng.choice(["bitwise", "tolerance", "mathematical"]))
        min_grid = int(rng.choice([16, 64, 256]))
        label, src, fused, on, _, threads = _fuse_row_program(opt, tmp_path, case, text, what, cap, min_grid)
        r = re.search(r"block x seq\((\d+)\)", on)
        taken += r is not None
        print(f"  threads({threads}), {r.group(1) if r else 1} row(s) a block")
        _equiv_in_cap_class(equiv, src, fused, text, cap, label)
        one = tmp_path / f"case{case}.one.mlir"
        one.write_text(re.sub(r"threads\(\d+\)", f"threads({threads})", text))
        off, _ = _run(opt, [f"--fuse-materialization=equivalence-cap={cap} row-blocks=false"], src=one)
        assert "seq(" not in off and off.count("motif.kernel") == 1
        _emulate_compare(emulator, _lowered(opt, tmp_path, f"case{case}", on, off), rng, label)
    assert taken >= 1, "no program took rows a block"


def test_random_runtime_row_programs_emulated(tmp_path):
    """Random row programs with a runtime row count (row_programs.py over a grid `[?, S]` or `[?]`: the
    batch known only at launch). With a static inner dim S the group may take R rows a block on it -- the
    oracle is the rule's statement with S alone as the grid (the row count at least 1); over `[?]` alone
    never (a block of several rows would need a masked last block), with a remark saying so. motif-equiv
    holds each fused program to the unfused one at row counts 1, 3 and 17 in its cap's class, and
    motif.emulator runs the lowered kernel at a random row count bit for bit against the schedule model,
    with its race check."""
    from row_programs import random_row_program
    opt, _ = _tools()
    equiv = opt.parent / "motif-equiv"
    seed = int(np.random.SeedSequence().entropy % 2**63)
    print(f"seed {seed}")
    rng = np.random.default_rng(seed)
    taken = 0
    for case in range(4):
        # case 0 must take rows a block (128 rows of at most 300 elements leave 32 blocks at 4 a block);
        # case 3 has no static grid dim
        inner = None if case == 3 else 128 if case == 0 else int(rng.choice([32, 64, 96, 128]))
        n = int(rng.integers(8, 300))
        text, what = random_row_program(rng, ["?"] + ([inner] if inner else []), n)
        cap = str(rng.choice(["bitwise", "tolerance", "mathematical"]))
        min_grid = int(rng.choice([4, 8, 16]))
        label, src, fused, on, remarks, threads = _fuse_row_program(opt, tmp_path, case, text, what, cap,
                                                                     min_grid)
        per_thread = -(-n // threads)
        r = 1
        while (inner and 2 * r <= 4 and 2 * r * n <= 4096 and 2 * r * per_thread <= 16 and inner % (2 * r) == 0
               and inner // (2 * r) >= min_grid):
            r *= 2
        got = re.search(r"block x seq\((\d+)\)", on)
        assert (int(got.group(1)) if got else 1) == r, f"{label}: expected {r} rows a block:\n{on[:3000]}"
        if r > 1:
            taken += 1
            assert f"[block, block x seq({r})" in on
        if inner is None:
            assert "one row a block: its grid dim is the row count, known only at launch" in remarks, remarks
        print(f"  threads({threads}), {r} row(s) a block")
        _equiv_in_cap_class(equiv, src, fused, text, cap, label, passes=3)  # at 1, 3 and 17 rows
        em = subprocess.run([sys.executable, "-m", "motif.emulator", str(fused), "--function", "rows",
                             "--seed", str(int(rng.integers(1 << 30)))], capture_output=True, text=True,
                            timeout=900)
        assert em.returncode == 0 and "PASS" in em.stdout, f"{label}:\n{em.stdout[-3000:]}{em.stderr[-3000:]}"
    assert taken >= 1, "no program took rows a block"
