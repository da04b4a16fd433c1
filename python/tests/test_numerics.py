"""Equivalence classification and error metrics on synthetic arrays."""
import numpy as np
import pytest

from motif.manifest import Buffer
from motif.numerics import (MATHEMATICAL_SLACK, TOLERANCES, bitwise_equal, classify, elem_rel_err,
                            make_inputs, rel_err, ulp_distance)
from motif.examples import FAMILIES


@pytest.fixture
def data():
    rng = np.random.default_rng()
    ref = rng.standard_normal((64, 128))
    return ref, ref.astype(np.float32)


def test_metrics():
    ref = np.array([1.0, -4.0, 0.0])
    a = np.array([1.0, -4.0, 0.002])
    assert rel_err(a, ref) == pytest.approx(0.002 / 4.0)  # normwise: divided by max|ref|
    assert elem_rel_err(a, ref) == pytest.approx(0.002 / (0 + 1e-6 * 4.0))  # zero ref: floored
    assert rel_err(ref, ref) == 0.0 and elem_rel_err(ref, ref) == 0.0


def test_ulp_distance():
    one = np.float32(1.0)
    assert ulp_distance(np.array([one]), np.array([np.nextafter(one, np.float32(2))])) == 1
    assert ulp_distance(np.array([0.0], np.float32), np.array([-0.0], np.float32)) == 0
    tiny = np.float32(np.finfo(np.float32).smallest_subnormal)
    assert ulp_distance(np.array([tiny]), np.array([-tiny])) == 2  # across zero
    assert ulp_distance(np.array([1.0, 2.0], np.float32), np.array([1.0, np.nan], np.float32)) == float("inf")
    assert not bitwise_equal(np.array([0.0], np.float32), np.array([-0.0], np.float32))


def test_identical_results_are_bitwise(data):
    ref, y = data
    c = classify(y, y.copy(), ref, 1e-6)
    assert c.equivalence == "bitwise" and c.bitwise and c.max_ulp == 0
    assert 0 < c.unfused_rel_err <= 2 ** -24  # fp32 rounding of the reference


def test_one_ulp_apart_is_tolerance(data):
    ref, y = data
    z = y.copy()
    z[3, 5] = np.nextafter(z[3, 5], np.float32(np.inf))
    c = classify(y, z, ref, 1e-6)
    assert c.equivalence == "tolerance" and not c.bitwise and c.max_ulp == 1


def test_beyond_tolerance_fails_and_says_which(data):
    ref, y = data
    z = y.copy()
    z[0, 0] += 1e-2
    c = classify(y, z, ref, 1e-6)
    assert c.equivalence == "FAIL" and "fused beyond tolerance" in c.reason and "unfused" not in c.reason


def test_bitwise_equal_but_both_wrong_fails(data):
    ref, y = data
    wrong = y * np.float32(1.01)
    assert classify(wrong, wrong.copy(), ref, 1e-6).equivalence == "FAIL"


def test_nan_and_shape_fail(data):
    ref, y = data
    z = y.copy()
    z[1, 1] = np.nan
    assert classify(y, z, ref, 1e-6).equivalence == "FAIL"
    c = classify(y, y.T.copy(), ref, 1e-6)
    assert c.equivalence == "FAIL" and "shape" in c.reason


def test_mathematical_only_when_declared(data):
    ref, y = data
    tol = 1e-6
    z = (ref * (1 + 10 * tol)).astype(np.float32)  # a reordered reduction's worth of error
    assert classify(y, z, ref, tol).equivalence == "FAIL"
    assert classify(y, z, ref, tol, declared="mathematical").equivalence == "mathematical"
    far = (ref * (1 + 2 * MATHEMATICAL_SLACK * tol)).astype(np.float32)
    assert classify(y, far, ref, tol, declared="mathematical").equivalence == "FAIL"


def test_tolerances_cover_every_family():
    from motif.examples import FAMILY_DTYPES, TF32_FAMILIES
    assert set(TOLERANCES) == set(FAMILIES)
    assert all(1e-7 < t <= 1e-4 for f, t in TOLERANCES.items()
               if f not in FAMILY_DTYPES and f not in TF32_FAMILIES)
    # tf32 rounds each operand to 11 significant bits: 2^-10 relative per product, and no looser.
    assert all(TOLERANCES[f] == 2.0**-10 for f in TF32_FAMILIES)
    # A bf16 output rounds once to 8 significant bits (2^-9 relative): the bound is above that and
    # below two bf16 ulps.
    assert all(2.0**-9 < TOLERANCES[f] <= 2.0**-7 for f, d in FAMILY_DTYPES.items() if d == "bf16")


def test_make_inputs_bf16_are_bf16_values():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    bufs = [Buffer("x", "input", "bf16", (16, 32), 1024), Buffer("g", "input", "f16", (32,), 64)]
    (x, g), _ = make_inputs(bufs)
    assert x.dtype == np.dtype(ml_dtypes.bfloat16) and g.dtype == np.float16
    assert np.count_nonzero(x) == x.size and np.count_nonzero(g) == g.size
    # Each value is exactly representable: widening and rounding back is the identity.
    assert np.array_equal(x.astype(np.float32).astype(ml_dtypes.bfloat16).view(np.uint16), x.view(np.uint16))
    assert 0.7 < x.astype(np.float64).std() < 1.3


def test_make_inputs_fresh_reproducible_nonzero():
    bufs = [Buffer("x", "input", "f32", (16, 32), 2048), Buffer("g", "input", "f32", (32,), 128)]
    a, s1 = make_inputs(bufs)
    b, s2 = make_inputs(bufs)
    assert s1 != s2 and not np.array_equal(a[0], b[0])  # fresh by default
    c, s3 = make_inputs(bufs, seed=s1)
    assert s3 == s1 and all(np.array_equal(u, v) for u, v in zip(a, c))  # seed reproduces
    assert [x.shape for x in a] == [(16, 32), (32,)] and all(x.dtype == np.float32 for x in a)
    assert all(np.count_nonzero(x) == x.size for x in a)
    assert 0.7 < a[0].std() < 1.3  # ~N(0, 1)


def test_masked_rows_keep_a_finite_value_per_row():
    from motif.numerics import masked_rows
    from motif.reference import REFERENCES
    rng = np.random.default_rng()
    x = rng.standard_normal((33, 70)).astype(np.float32)
    (y,) = masked_rows([x], np.random.default_rng(int(rng.integers(1 << 30))))
    assert np.isneginf(y).any(), "nothing masked"
    assert np.isfinite(y).any(axis=-1).all(), "a row lost every finite value"
    assert np.abs(y[np.isfinite(y)]).max() > 1e3  # the large-magnitude row
    p = REFERENCES["softmax"](y)
    assert np.isfinite(p).all() and np.allclose(p.sum(-1), 1.0)
    assert (p[np.isneginf(y)] == 0).all()


def test_same_kernels_compares_ptx(tmp_path):
    from types import SimpleNamespace
    from motif.compiler import same_kernels
    for name, text in (("a", "ptx 1"), ("b", "ptx 1"), ("c", "ptx 2")):
        (tmp_path / f"{name}.ptx").write_text(text)
    m = lambda n: {"f": SimpleNamespace(ptx=tmp_path / f"{n}.ptx")}
    assert same_kernels(m("a"), m("b"))
    assert not same_kernels(m("a"), m("c"))
    assert not same_kernels(m("a"), {"g": SimpleNamespace(ptx=tmp_path / "a.ptx")})
