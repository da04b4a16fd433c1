"""The float64 references against independent checks (properties, explicit loops, hand expansion)."""
import math

import numpy as np
import pytest

from motif import reference as R


@pytest.fixture
def rng():
    return np.random.default_rng()  # fresh inputs every run


def test_every_family_has_a_float64_reference(rng):
    args = {
        "toy_attention": [(4,), (4, 4), (4, 4)], "softmax": [(3, 5)], "layernorm": [(3, 5), (5,), (5,)],
        "rmsnorm": [(3, 5), (5,)], "attention": [(6, 4)] * 3, "gemm_bias_gelu": [(3, 4), (4, 5), (5,)],
        "residual_relu": [(3, 5)] * 2, "transpose_scale": [(3, 5)], "gemm": [(3, 4), (4, 5)],
        "mha": [(2, 6, 4)] * 3, "linear": [(3, 4), (5, 4)],
    }
    half = {"softmax_bf16": "softmax", "layernorm_bf16": "layernorm", "rmsnorm_bf16": "rmsnorm",
            "gemm_bf16": "gemm", "gemm_f16": "gemm", "attention_bf16": "attention", "mha_bf16": "mha",
            "mha_f16": "mha", "gemm_tf32": "gemm", "linear_bf16": "linear"}
    assert set(R.REFERENCES) == set(args) | set(half)
    for fam, shapes in args.items():
        out = R.REFERENCES[fam](*[rng.standard_normal(s).astype(np.float32) for s in shapes])
        assert out.dtype == np.float64 and np.isfinite(out).all(), fam
    # The half families compute their f32 family's formula, from half inputs read exactly.
    ml_dtypes = pytest.importorskip("ml_dtypes")
    for fam, base in half.items():
        dt = np.float16 if fam.endswith("_f16") else ml_dtypes.bfloat16
        xs = [rng.standard_normal(s).astype(dt) for s in args[base]]
        out = R.REFERENCES[fam](*xs)
        assert out.dtype == np.float64 and np.array_equal(out, R.REFERENCES[base](*[x.astype(np.float64) for x in xs]))


def test_gemm_is_the_float64_product(rng):
    a, b = rng.standard_normal((3, 7)), rng.standard_normal((7, 2))
    c = R.gemm(a.astype(np.float32), b.astype(np.float32))
    loops = [[sum(float(np.float32(a[i, k])) * float(np.float32(b[k, j])) for k in range(7)) for j in range(2)]
             for i in range(3)]
    assert np.allclose(c, loops, rtol=1e-14, atol=0)


def test_linear_is_the_product_with_the_transposed_weight(rng):
    a, w = rng.standard_normal((3, 7)), rng.standard_normal((2, 7))  # w [N, K], an nn.Linear weight
    c = R.linear(a.astype(np.float32), w.astype(np.float32))
    loops = [[sum(float(np.float32(a[i, k])) * float(np.float32(w[j, k])) for k in range(7)) for j in range(2)]
             for i in range(3)]
    assert c.shape == (3, 2) and np.allclose(c, loops, rtol=1e-14, atol=0)


def test_softmax_rows_sum_to_one_and_match_loops(rng):
    x = rng.standard_normal((7, 33)) * 10
    y = R.softmax(x)
    assert np.allclose(y.sum(axis=1), 1.0, rtol=0, atol=1e-14)
    assert (y > 0).all()
    assert np.allclose(R.softmax(x + 1000.0), y, rtol=1e-12, atol=0)  # shift invariance, no overflow
    i = 3
    denom = sum(math.exp(v) for v in x[i])
    assert np.allclose(y[i], [math.exp(v) / denom for v in x[i]], rtol=1e-12, atol=0)


def test_layernorm_normalises_then_applies_affine(rng):
    x = rng.standard_normal((5, 256)) * 3 + 2
    one, zero = np.ones(256), np.zeros(256)
    z = R.layernorm(x, one, zero)
    assert np.allclose(z.mean(axis=1), 0.0, atol=1e-12)
    var = x.var(axis=1)
    assert np.allclose(z.var(axis=1), var / (var + 1e-5), rtol=1e-12)  # biased variance, eps inside sqrt
    g, b = rng.standard_normal(256), rng.standard_normal(256)
    assert np.allclose(R.layernorm(x, g, b), z * g + b, rtol=1e-12, atol=1e-12)
    row = x[2]
    mu = sum(row) / len(row)
    sd = math.sqrt(sum((v - mu) ** 2 for v in row) / len(row) + 1e-5)
    assert np.allclose(R.layernorm(x, g, b)[2], [(v - mu) / sd * gg + bb for v, gg, bb in zip(row, g, b)],
                       rtol=1e-10, atol=1e-12)


def test_rmsnorm(rng):
    x = rng.standard_normal((4, 128)) * 5
    y = R.rmsnorm(x, np.ones(128))
    ms = (x ** 2).mean(axis=1)
    assert np.allclose((y ** 2).mean(axis=1), ms / (ms + 1e-6), rtol=1e-12)
    g = rng.standard_normal(128)
    row = x[1]
    r = math.sqrt(sum(v * v for v in row) / len(row) + 1e-6)
    assert np.allclose(R.rmsnorm(x, g)[1], [v / r * gg for v, gg in zip(row, g)], rtol=1e-12)


def test_attention_equals_explicit_loops(rng):
    S, D = 5, 3
    q, k, v = (rng.standard_normal((S, D)) for _ in range(3))
    y = R.attention(q, k, v)
    assert y.shape == (S, D)
    for i in range(S):
        s = [sum(q[i, d] * k[j, d] for d in range(D)) / math.sqrt(D) for j in range(S)]
        m = max(s)
        e = [math.exp(t - m) for t in s]
        p = [t / sum(e) for t in e]
        expect = [sum(p[j] * v[j, c] for j in range(S)) for c in range(D)]
        assert np.allclose(y[i], expect, rtol=1e-12, atol=1e-14)


def test_mha_is_attention_per_head(rng):
    # Heads are independent: head h of mha is single-head attention of q[h], k[h], v[h] (which the
    # explicit loops above check); mixing a head's keys with another's would change the result.
    H, S, D = 3, 5, 4
    q, k, v = (rng.standard_normal((H, S, D)) for _ in range(3))
    y = R.mha(q, k, v)
    assert y.shape == (H, S, D)
    for h in range(H):
        assert np.allclose(y[h], R.attention(q[h], k[h], v[h]), rtol=1e-12, atol=1e-14)
    assert not np.allclose(y[0], R.attention(q[0], k[1], v[1]))


def test_toy_attention_hand_expanded(rng):
    q, k, v = rng.standard_normal(4), rng.standard_normal((4, 4)), rng.standard_normal((4, 4))
    s0 = (q[0] * k[0, 0] + q[1] * k[0, 1] + q[2] * k[0, 2] + q[3] * k[0, 3]) * 0.5
    s1 = (q[0] * k[1, 0] + q[1] * k[1, 1] + q[2] * k[1, 2] + q[3] * k[1, 3]) * 0.5
    s2 = (q[0] * k[2, 0] + q[1] * k[2, 1] + q[2] * k[2, 2] + q[3] * k[2, 3]) * 0.5
    s3 = (q[0] * k[3, 0] + q[1] * k[3, 1] + q[2] * k[3, 2] + q[3] * k[3, 3]) * 0.5
    e0, e1, e2, e3 = math.exp(s0), math.exp(s1), math.exp(s2), math.exp(s3)
    t = e0 + e1 + e2 + e3
    y = [(e0 * v[0, c] + e1 * v[1, c] + e2 * v[2, c] + e3 * v[3, c]) / t for c in range(4)]
    assert np.allclose(R.toy_attention(q, k, v), y, rtol=1e-12, atol=1e-14)


def test_gelu_erf_known_values():
    t = np.array([0.0, 1.0, -1.0, 8.0, -8.0])
    g = R.gelu_erf(t)
    assert g[0] == 0.0
    assert g[1] == pytest.approx(0.8413447460685429, rel=1e-14)  # Phi(1)
    assert g[2] == pytest.approx(-0.15865525393145707, rel=1e-14)  # -(1 - Phi(1))
    assert g[3] == pytest.approx(8.0, rel=1e-14) and abs(g[4]) < 1e-13


def test_gemm_bias_gelu_loops(rng):
    x, w, b = rng.standard_normal((3, 4)), rng.standard_normal((4, 5)), rng.standard_normal(5)
    y = R.gemm_bias_gelu(x, w, b)
    for i in range(3):
        for j in range(5):
            t = sum(x[i, c] * w[c, j] for c in range(4)) + b[j]
            assert y[i, j] == pytest.approx(0.5 * t * (1 + math.erf(t / math.sqrt(2))), rel=1e-12, abs=1e-14)


def test_residual_relu_and_transpose_scale(rng):
    x, r = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    y = R.residual_relu(x, r)
    assert all(y[i, j] == max(x[i, j] + r[i, j], 0.0) for i in range(3) for j in range(4))
    t = R.transpose_scale(x)
    assert t.shape == (4, 3)
    assert all(t[j, i] == x[i, j] * 2 + 1 for i in range(3) for j in range(4))
