"""Runtime row counts (docs/abi.md): the manifest's description, the runtime's checks at launch, and,
on a GPU, one compiled kernel run at several row counts against float64 and against the static
kernel of the same shape (bitwise)."""
import copy

import numpy as np
import pytest

from motif import InputError, ManifestError, parse_manifest
from motif.runtime import check_inputs, row_count

DYNAMIC = {
    "motif_manifest_version": 1,
    "function": "softmax_dynamic",
    "chip": "sm_90",
    "ptx": "softmax_dynamic.ptx",
    "cubin": None,
    "buffers": [
        {"name": "arg0", "role": "input", "dtype": "f32", "shape": [None, 256], "bytes": None,
         "row_bytes": 1024},
        {"name": "arg1", "role": "input", "dtype": "f32", "shape": [256], "bytes": 1024},
        {"name": "t.out0", "role": "intermediate", "dtype": "f32", "shape": [None], "bytes": None,
         "row_bytes": 4},
        {"name": "result0", "role": "output", "dtype": "bf16", "shape": [None, 256], "bytes": None,
         "row_bytes": 512},
    ],
    "kernels": [
        {"name": "k0", "params": ["arg0", "t.out0"], "grid": [4, 1, 1], "block": [256, 1, 1],
         "shared_bytes": None, "registers": None, "spill_store_bytes": None, "spill_load_bytes": None,
         "barriers": None, "grid_per_row": True},
        {"name": "k1", "params": ["arg1", "result0"], "grid": [2, 1, 1], "block": [256, 1, 1],
         "shared_bytes": None, "registers": None, "spill_store_bytes": None, "spill_load_bytes": None,
         "barriers": None, "grid_per_row": False},
    ],
    "max_rows": 1000,
}


def test_parse_a_runtime_row_count():
    m = parse_manifest(DYNAMIC)
    assert m.dynamic_rows and m.max_rows == 1000
    x, w, t, y = m.buffers
    assert x.dynamic_rows and x.shape == (None, 256) and x.bytes is None and x.row_bytes == 1024
    assert x.shape_at(7) == (7, 256) and t.shape_at(7) == (7,)
    assert not w.dynamic_rows and w.shape_at(7) == (256,) and w.numel == 256
    with pytest.raises(ValueError, match="runtime row count"):
        x.numel
    k0, k1 = m.kernels
    assert k0.grid_at(1000) == (4000, 1, 1) and k1.grid_at(1000) == (2, 1, 1)


def test_static_manifests_have_no_row_count():
    m = parse_manifest({**DYNAMIC, "max_rows": None,
                        "buffers": [DYNAMIC["buffers"][1],
                                    {"name": "result0", "role": "output", "dtype": "f32", "shape": [4],
                                     "bytes": 16}],
                        "kernels": [dict(DYNAMIC["kernels"][1], params=["arg1", "result0"])]})
    assert not m.dynamic_rows and all(not k.grid_per_row for k in m.kernels)


@pytest.mark.parametrize("change, message", [
    (lambda o: o.pop("max_rows"), r"has a runtime row count \(null\) but the manifest has no max_rows"),
    (lambda o: o.update(max_rows=0), "max_rows: expected an integer >= 1"),
    (lambda o: o["buffers"][0].update(bytes=1024), "must be null for a buffer with a runtime row count"),
    (lambda o: o["buffers"][0].update(row_bytes=4), "4 does not match shape"),
    (lambda o: o["buffers"][0].pop("row_bytes"), "row_bytes: missing"),
    (lambda o: o["buffers"][0].update(shape=[None, None]), "expected integers >= 1"),
    (lambda o: o["kernels"][0].update(grid_per_row=1), "expected true or false"),
])
def test_bad_row_count_manifests(change, message):
    obj = copy.deepcopy(DYNAMIC)
    change(obj)
    with pytest.raises(ManifestError, match=message):
        parse_manifest(obj)


def test_grid_per_row_needs_a_row_count():
    obj = copy.deepcopy(DYNAMIC)
    obj["buffers"] = [DYNAMIC["buffers"][1], {"name": "result0", "role": "output", "dtype": "f32",
                                              "shape": [4], "bytes": 16}]
    obj["kernels"] = [dict(DYNAMIC["kernels"][0], params=["arg1", "result0"])]
    obj.pop("max_rows")
    with pytest.raises(ManifestError, match="grid_per_row: true, but the manifest has no max_rows"):
        parse_manifest(obj)


def _inputs(rows, cols=256):
    rng = np.random.default_rng(rows)
    return rng.standard_normal((rows, cols)).astype(np.float32), rng.standard_normal(256).astype(np.float32)


def test_row_count_is_read_off_the_inputs():
    m = parse_manifest(DYNAMIC)
    for rows in (1, 999, 1000):
        bound = check_inputs(m, _inputs(rows))
        assert row_count(m, bound) == rows


@pytest.mark.parametrize("rows, cols, message", [
    (0, 256, "row count 0 .* a launch needs at least 1 row"),
    (1001, 256, "row count 1001 .* over the 1000 rows a launch may have"),
    (4, 255, r"shape \[4, 255\] does not match the manifest's \['rows', 256\]"),
])
def test_bad_row_counts_are_refused(rows, cols, message):
    with pytest.raises(InputError, match=message):
        check_inputs(parse_manifest(DYNAMIC), _inputs(rows, cols))


def test_inputs_agree_on_the_row_count():
    obj = copy.deepcopy(DYNAMIC)
    obj["buffers"][1] = {"name": "arg1", "role": "input", "dtype": "f32", "shape": [None, 256], "bytes": None,
                         "row_bytes": 1024}
    x = np.ones((5, 256), np.float32)
    with pytest.raises(InputError, match="'arg1' has 6 rows but 'arg0' has 5"):
        check_inputs(parse_manifest(obj), (x, np.ones((6, 256), np.float32)))


def test_compiled_manifest_describes_the_row_count(tmp_path):
    from motif.compiler import compile_text, find_motif_compile
    from motif.errors import CompilerNotFoundError
    from motif.examples import load_example, rows_of
    try:
        find_motif_compile()
    except CompilerNotFoundError as e:
        pytest.skip(str(e))
    text = load_example("softmax", dict(M=64, N=256), "softmax_dynamic")
    assert rows_of(text) == 64
    (m,) = compile_text(text, tmp_path, name="softmax_dynamic", fuse=True).values()
    # The grid limit binds before the 2^40 elements of a buffer do.
    assert m.dynamic_rows and m.max_rows == min(2**31 - 1, 2**40 // 256)
    assert [b.shape for b in m.buffers] == [(None, 256), (None, 256)]
    (k,) = m.kernels
    assert k.grid_per_row and k.grid == (1, 1, 1) and k.grid_at(1000) == (1000, 1, 1)


@pytest.mark.gpu
@pytest.mark.uses_prebuilt
def test_one_kernel_at_every_row_count(tmp_path):
    """The fused softmax with a runtime row count, compiled once, at M = 1, 1000 and 32768 (and 1000
    masked rows): within tolerance of float64 (class tolerance), bitwise equal to the unfused dynamic
    program, and at M = 32768 bitwise equal to the static program's kernel (the SASS is the same,
    test/Pipeline/runtime-rows.test)."""
    from motif.compiler import FORMS, compile_text
    from motif.examples import load_example
    from motif.numerics import TOLERANCES, masked_rows, rel_err
    from motif.reference import REFERENCES
    from motif.runtime import Program, get_backend
    try:
        get_backend()
    except Exception as e:
        pytest.skip(str(e))
    dims = dict(M=32768, N=256)  # a benchmark shape: prebuilt for the GPU machine
    dynamic = load_example("softmax", dims, "softmax_dynamic")
    (fused,) = compile_text(dynamic, tmp_path / "d", name="softmax_dynamic", fuse=FORMS["fused"][0],
                            extra_args=FORMS["fused"][1]).values()
    (unfused,) = compile_text(dynamic, tmp_path / "u", name="softmax_dynamic", fuse=False).values()
    (static,) = compile_text(load_example("softmax", dims), tmp_path / "s", name="softmax",
                             fuse=FORMS["fused"][0], extra_args=FORMS["fused"][1])["softmax"],
    pf, pu, ps = Program(fused), Program(unfused), Program(static)
    rng = np.random.default_rng()
    for rows, edge in ((1, False), (1000, False), (1000, True), (32768, False)):
        x = rng.standard_normal((rows, 256)).astype(np.float32)
        if edge:
            (x,) = masked_rows([x], rng)
        (y,) = pf(x)
        assert y.shape == (rows, 256)
        err = rel_err(y, REFERENCES["softmax"](x.astype(np.float64)))
        assert err <= TOLERANCES["softmax"], (rows, err)
        (yu,) = pu(x)
        assert np.array_equal(y.view(np.uint32), yu.view(np.uint32)), rows
        if rows == 32768:
            (ys,) = ps(x)
            assert np.array_equal(y.view(np.uint32), ys.view(np.uint32))
    with pytest.raises(InputError, match="a launch needs at least 1 row"):
        pf(np.zeros((0, 256), np.float32))
