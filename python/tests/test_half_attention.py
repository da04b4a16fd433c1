"""CPU checks of the half-precision attention families (attention_bf16, mha_bf16, mha_f16): the
half form of attention_text, the edge shapes, the tolerances (against a numpy model of the
tensor-core flash form's roundings) and the bench/Triton peer wiring. GPU runs: test_gpu.py."""
import ast
import subprocess
import math
from pathlib import Path

import numpy as np
import pytest

from motif import bench, examples, numerics, reference
from motif.examples import FLASH_EDGE_SHAPES, FLASH_EDGE_SHAPES_HALF, attention_text

HALF_ATTENTION = ("attention_bf16", "mha_bf16", "mha_f16")


def test_half_attention_families_are_registered():
    for fam in HALF_ATTENTION:
        assert fam in examples.FAMILIES
        assert examples.family_of(fam) == fam
        assert fam in reference.REFERENCES and fam in numerics.TOLERANCES and fam in numerics.PEER_TOLERANCES
        assert fam in bench.BENCH_SHAPES and fam in bench.HEAVY
    assert examples.base_family("mha_bf16") == examples.base_family("mha_f16") == "mha"
    assert examples.base_family("attention_bf16") == "attention"
    assert [examples.FAMILY_DTYPES[f] for f in HALF_ATTENTION] == ["bf16", "bf16", "f16"]
    # the mha variants do not take the half programs for schedules of the f32 family
    assert "mha_bf16" not in examples.variants("mha") and "attention_bf16" not in examples.variants("attention")
    # issue 13's targets, FLOPs 4 H S^2 D
    assert dict(H=64, S=4096, D=64) in bench.BENCH_SHAPES["mha_bf16"]
    assert dict(H=64, S=4096, D=128) in bench.BENCH_SHAPES["mha_f16"]
    assert bench.flops("mha_bf16", dict(H=64, S=4096, D=128)) == 4 * 64 * 4096 * 4096 * 128
    assert bench.input_shapes("mha_f16", dict(H=8, S=1024, D=64)) == [(8, 1024, 64)] * 3


@pytest.mark.parametrize("fam", HALF_ATTENTION)
def test_half_examples_specialise_to_their_bench_shapes(fam):
    dtype = examples.FAMILY_DTYPES[fam]
    for dims in bench.BENCH_SHAPES[fam]:
        text = examples.load_example(fam, dims)
        D = dims["D"]
        assert f"arith.constant {examples._f32_literal(1 / math.sqrt(D))} : f32" in text  # motif-derived
        S = dims["S"]
        lead = f"{dims['H']}x" if "H" in dims else ""
        assert f"tensor<{lead}{S}x{D}x{dtype}>" in text
        assert f"tensor<{lead}{S}x{S}x{dtype}>" in text  # P in the half type
        assert f"tensor<{lead}{S}x{S}xf32>" in text  # scores in f32


def test_attention_text_half_form():
    text = attention_text(80, 65, 64, 128, 3, dtype="bf16")
    assert text.startswith("func.func @attention(%q: tensor<3x80x64xbf16>, %k: tensor<3x65x64xbf16>, "
                           "%v: tensor<3x65x128xbf16>) -> tensor<3x80x128xbf16> {")
    assert ": (tensor<3x80x64xbf16>, tensor<3x65x64xbf16>) -> tensor<3x80x65xf32>" in text  # Q.K^T in f32
    assert ": (tensor<3x80x65xbf16>, tensor<3x65x128xbf16>) -> tensor<3x80x128xf32>" in text  # P.V in f32
    probs = text[text.index('"attn_probs"'):text.index('"attn_pv"')]
    assert "arith.divf %e, %l : f32\n      %t = arith.truncf %r : f32 to bf16\n      motif.yield %t : bf16" in probs
    assert '"attn_out"' in text and text.rstrip().endswith("return %out : tensor<3x80x128xbf16>\n}")
    assert text.count("motif.kernel") == 8
    f16 = attention_text(64, 1, 64, 64, dtype="f16")
    assert "bf16" not in f16 and "truncf %r : f32 to f16" in f16 and "tensor<64x64xf16>" in f16
    # the f32 form: seven kernels, no half type, exactly as before the dtype parameter
    f32 = attention_text(80, 65, 64, 128, 3)
    assert f32 == attention_text(80, 65, 64, 128, 3, dtype="f32")
    assert "f16" not in f32 and "truncf" not in f32 and f32.count("motif.kernel") == 7
    with pytest.raises(examples.ExampleError, match="dtype"):
        attention_text(8, 8, 16, 16, dtype="f64")


def test_flash_edge_shapes_half_cover_the_edges():
    keys = {s[1] for s in FLASH_EDGE_SHAPES_HALF}
    assert {1, 63, 65, 100, 1000} <= keys
    assert any(s[0] % 64 for s in FLASH_EDGE_SHAPES_HALF)  # query rows not a multiple of 64
    de = {(s[2], s[3]) for s in FLASH_EDGE_SHAPES_HALF}
    assert {(64, 64), (128, 128), (64, 128), (128, 64)} <= de
    assert {3, 17} <= {s[4] for s in FLASH_EDGE_SHAPES_HALF}
    assert len(set(FLASH_EDGE_SHAPES_HALF)) == len(FLASH_EDGE_SHAPES_HALF)
    assert FLASH_EDGE_SHAPES  # the f32 ones stay


def _motif_opt():
    from motif.compiler import find_motif_compile
    from motif.errors import CompilerNotFoundError
    try:
        opt = find_motif_compile().parent / "motif-opt"
    except CompilerNotFoundError as e:
        pytest.skip(str(e))
    if not opt.is_file():
        pytest.skip(f"{opt} not found")
    return opt


@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_half_edge_programs_verify(dtype, tmp_path):
    """Every half edge program is accepted by the dialect verifier (motif-opt round-trips it)."""
    import subprocess
    opt = _motif_opt()
    for shape in FLASH_EDGE_SHAPES_HALF:
        src = tmp_path / "a.mlir"
        src.write_text(attention_text(*shape, dtype=dtype))
        p = subprocess.run([str(opt), str(src)], capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, f"{shape}: {p.stderr[-2000:]}"


# --- the tolerances, against a numpy model of the roundings ---------------------------------------
def _round(x, dtype):
    return x.astype(dtype).astype(np.float32)


def _flash_model(q, k, v, dtype, block_n=64):
    """The roundings of a tensor-core flash form (Triton tutorial 06 / FlashAttention-2): f32 scores
    of exact half products, a running max and sum over key tiles in f32, the unnormalised tile of
    P rounded to the half type for P.V, f32 accumulation, one division and one rounding at the end."""
    q, k, v = (a.astype(np.float32) for a in (q, k, v))
    scale = np.float32(1.0 / math.sqrt(q.shape[-1]))
    n = k.shape[-2]
    m = np.full(q.shape[:-1], -np.inf, np.float32)
    l = np.zeros(q.shape[:-1], np.float32)
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],), np.float32)
    for j0 in range(0, n, block_n):
        s = (q @ np.swapaxes(k[..., j0:j0 + block_n, :], -1, -2)) * scale
        m_new = np.maximum(m, s.max(axis=-1))
        p = np.exp(s - m_new[..., None])
        alpha = np.exp(m - m_new)
        l = l * alpha + p.sum(axis=-1)
        acc = acc * alpha[..., None] + _round(p, dtype) @ v[..., j0:j0 + block_n, :]
        m = m_new
    return _round(acc / l[..., None], dtype)


def _unfused_model(q, k, v, dtype):
    """The roundings of the unfused half program: f32 up to P, P = half(e / l), f32 P.V, half result."""
    q, k, v = (a.astype(np.float32) for a in (q, k, v))
    s = (q @ np.swapaxes(k, -1, -2)) * np.float32(1.0 / math.sqrt(q.shape[-1]))
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return _round(_round(e / e.sum(axis=-1, keepdims=True), dtype) @ v, dtype)


@pytest.mark.parametrize("fam", ["mha_bf16", "mha_f16"])
def test_half_attention_tolerance_covers_both_forms(fam):
    """numerics.TOLERANCES (2u) holds for the roundings of the unfused program and of the flash form
    at the edge shapes, on N(0,1) inputs and on logits in the hundreds; and it is not loose: the
    measured error is above u/4 (it would not catch a missed rounding if it were 10x too wide)."""
    dtype = np.float16 if fam.endswith("_f16") else pytest.importorskip("ml_dtypes").bfloat16
    u = 2.0 ** -11 if fam.endswith("_f16") else 2.0 ** -8
    tol = numerics.TOLERANCES[fam]
    assert tol == 2 * u
    rng = np.random.default_rng(13)
    worst = 0.0
    for S, N, D, E, H in FLASH_EDGE_SHAPES_HALF[:6]:
        b = (H,) if H else ()
        for qs, vs in ((1.0, 1.0), (8.0, 1e3)):
            q = (qs * rng.standard_normal(b + (S, D))).astype(dtype)
            k = (qs * rng.standard_normal(b + (N, D))).astype(dtype)
            v = (vs * rng.standard_normal(b + (N, E))).astype(dtype)
            ref = reference.mha(q, k, v) if H else reference.attention(q, k, v)
            for model in (_unfused_model, _flash_model):
                err = numerics.rel_err(model(q, k, v, dtype), ref)
                assert err <= tol, f"{model.__name__} {(S, N, D, E, H)} x{qs}: {err:.2e} > {tol:.2e}"
                worst = max(worst, err)
    assert worst > u / 4, worst


def test_large_logits_edge_inputs():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal((2, 8, 16)).astype(ml_dtypes.bfloat16) for _ in range(3)]
    q, k, v = numerics.large_logits(arrays, rng)
    assert q.dtype == arrays[0].dtype and np.array_equal(q.astype(np.float32), arrays[0].astype(np.float32) * 8)
    assert np.abs(v.astype(np.float32)).max() > 100
    for fam in HALF_ATTENTION:
        assert numerics.EDGE_INPUTS[fam][0] == "large"


# --- the Triton peer --------------------------------------------------------------------------------
def test_triton_attention_peer_is_optional_and_parses():
    from motif import triton_peers
    src = Path(triton_peers.__file__).read_text()
    ast.parse(src)
    assert set(triton_peers._BUILDERS) >= {"softmax", "attention", "mha"}
    try:
        import triton  # noqa: F401
    except ImportError:
        assert triton_peers.peer("mha") is None and triton_peers.peer("attention") is None
    assert triton_peers.peer("layernorm") is None
    # fp32 keeps TF32 off in both dots
    assert 'tl.dot(q, tl.trans(k), input_precision="ieee")' in src
    assert 'tl.dot(p, v, acc, input_precision="ieee")' in src


def test_random_flash_specs_compile_or_are_refused(tmp_path):
    """scripts/flash-random.py on fresh random specs (shapes, dtypes, sm_90a / sm_90, rows and threads,
    stages, every online-* lowering option): each is compiled through ptxas or refused with a located
    error, never a crash. The seed is printed so that a failure reproduces; the GPU runs the compiled
    ones against float64 (scripts/gpu-call21.sh)."""
    import os
    import shutil
    import sys
    from motif.compiler import find_motif_compile
    from motif.errors import CompilerNotFoundError
    try:
        bindir = find_motif_compile().parent
    except CompilerNotFoundError as e:
        pytest.skip(str(e))
    if shutil.which("ptxas") is None and not Path("/usr/local/cuda/bin/ptxas").is_file():
        pytest.skip("ptxas not found")
    seed = int(np.random.default_rng().integers(1 << 31))
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, MOTIF_BUILD_DIR=str(bindir.parent))
    r = subprocess.run([sys.executable, str(root / "scripts" / "flash-random.py"), str(tmp_path),
                        "--seed", str(seed), "--count", "8"], capture_output=True, text=True, env=env)
    print(r.stdout[-4000:])
    assert r.returncode == 0, f"seed {seed}:\n{r.stdout[-4000:]}\n{r.stderr[-2000:]}"
    assert "8 specs" in r.stdout and "0 crashed" in r.stdout, r.stdout


def _rows_per_block(remark):
    import re
    m = re.search(r"carrying \(max, sum, acc\) over tiles of the keys, (\d+) rows per block"
                  r"( \(the last of (\d+) partial, its rows past (\d+) masked\))?", remark)
    assert m, remark[-2000:]
    return int(m.group(1)), m.group(2) is not None, m.group(3), m.group(4)


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_flash_form_takes_any_row_count(dtype, tmp_path):
    """Rule 4 rewrites attention at any query row count (random S from 1 to 1100, random heads),
    on tensor cores (bf16: blocks of 16 .. 128 rows) and without (f32: 8 .. 128): where the block
    does not divide S the remark names the partial last block, the block count is the ceiling, the
    padded rows stay within 1/8 of the lowering's quantum's (16 / 8: withinPaddingRule), and the
    online op's mapping states the block size. The rewritten programs are compiled and run on the
    GPU in test_gpu.py::test_flash_form_edges{,_half}; their emitted kernels on the CPU in
    test/Conversion/MotifToGPU/online-contract-partial-rows.test."""
    import subprocess
    opt = _motif_opt()
    rng = np.random.default_rng()
    quantum = 16 if dtype == "bf16" else 8
    seen_partial = 0
    for _ in range(12):
        S = int(rng.integers(1, 1101))
        H = int(rng.choice([1, 2, 5, 16]))
        D = 64 if dtype == "bf16" else int(rng.choice([16, 32, 64]))
        src = tmp_path / "a.mlir"
        src.write_text(attention_text(S, 100, D, D, H if H > 1 else None, dtype=dtype))
        p = subprocess.run([str(opt), str(src), "--fuse-materialization=equivalence-cap=mathematical"],
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr[-2000:]
        rows, partial, blocks, past = _rows_per_block(p.stderr)
        label = f"{dtype} S={S} H={H}: {rows} rows"
        assert rows in (128, 64, 32, 16, 8) and rows >= quantum, label
        assert partial == (S % rows != 0), label
        if partial:
            seen_partial += 1
            assert int(blocks) == -(-S // rows) and int(past) == S, label
        padded = -(-S // rows) * rows
        assert padded * 8 <= (-(-S // quantum) * quantum) * 9, label
        assert f"over [{'block, ' if H > 1 else ''}block x seq({rows}), seq, seq, seq]" in p.stdout, label
    # 12 draws of S in 1 .. 1100 all dividing every block size chosen is rare (< 1e-6 at p <= 1/4 each)
    assert seen_partial > 0
