"""The float64 reference of the GPU differential run (motif.fuzz_reference, written from the JSON
spec) against the C++ evaluator's sequential float64 meaning of the same program's IR: two
independent implementations must agree, here on the CPU, before the GPU run trusts either."""
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from motif import fuzz_reference
from motif._paths import repo_root


def _tool(name):
    build = os.environ.get("MOTIF_BUILD_DIR")
    roots = [Path(build) / "bin"] if build else []
    roots.append(repo_root() / "build" / "bin")
    for r in roots:
        if (r / name).is_file():
            return r / name
    pytest.skip(f"{name} is not built")


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    out = tmp_path_factory.mktemp("fuzz")
    subprocess.run([str(_tool("motif-fuzz")), "gen", "--seed=11", "--count=40", "--jobs=1", "-o", str(out)],
                   check=True, capture_output=True, text=True)
    return sorted((p for p in out.iterdir() if p.is_dir()), key=lambda p: int(p.name[1:]))


def test_reference_matches_the_evaluator(programs, tmp_path):
    rng = np.random.default_rng(5)
    checked = 0
    for pdir in programs:
        spec = __import__("json").loads((pdir / "spec.json").read_text())
        xs = [rng.standard_normal(s).astype(np.float32) for s in fuzz_reference.argument_shapes(spec)]
        files = []
        for k, x in enumerate(xs):
            f = tmp_path / f"{pdir.name}_in{k}.npy"
            np.save(f, x)
            files.append(str(f))
        dump = tmp_path / f"{pdir.name}_out"
        subprocess.run([str(_tool("motif-equiv")), "--run", str(pdir / "unfused.mlir"), "--function=f",
                        "--model=sequential", "--inputs=" + ",".join(files), f"--dump={dump}"],
                       check=True, capture_output=True, text=True)
        ref = fuzz_reference.evaluate(spec, [x.astype(np.float64) for x in xs])
        for k, r in enumerate(ref):
            cpp = np.load(dump / f"out{k}.f64.npy")
            assert cpp.shape == r.shape, (pdir.name, k)
            scale = max(float(np.max(np.abs(r))) if r.size else 0.0, 1.0)
            err = float(np.max(np.abs(cpp - r))) / scale if r.size else 0.0
            assert err < 1e-9, f"{pdir.name} output {k}: numpy and the C++ evaluator differ by {err:.3g}"
        checked += 1
    assert checked == len(programs) >= 40


def _product_spec(n):
    # f(x: [2, n]) = prod over the row of x: one argument node, one mul reduction.
    return {"extents": [2, n],
            "nodes": [{"kind": "argument", "dims": [0, 1], "iter_dims": [0, 1], "operands": []},
                      {"kind": "reduce", "dims": [0], "iter_dims": [0, 1], "operands": [[0, 0]],
                       "combiner": "mul"},
                      {"kind": "map", "dims": [0], "iter_dims": [0], "operands": [[1, 0]],
                       "body": ["tanh", ["operand", 0]]}],
            "outputs": [[1, 0], [2, 0], [0, 0]]}


def test_reach_of_f32():
    """Outputs whose float64 meaning an f32 program may overflow on are flagged (and what depends on
    them), the others not: the GPU run then judges those only by the forms' agreement."""
    rng = np.random.default_rng()
    spec = _product_spec(64)
    small = rng.uniform(1.0, 1.5, (2, 64)) * rng.choice([-1.0, 1.0], (2, 64))
    reach = []
    out = fuzz_reference.evaluate(spec, [small], reach)
    assert reach == [True, True, True]
    assert np.allclose(out[0], np.prod(small, axis=1))
    # 4^64 = 3.4e38: f32's overflow.
    reach = []
    fuzz_reference.evaluate(spec, [np.full((2, 64), 4.0) * rng.uniform(1.0, 1.01, (2, 64))], reach)
    assert reach == [False, False, True]
    # The product is 1, but a partial product in some order is 1e60.
    x = np.ones((2, 64))
    x[:, :2], x[:, 2:4] = 1e30, 1e-30
    reach = []
    out = fuzz_reference.evaluate(spec, [x], reach)
    assert np.allclose(out[0], 1.0) and reach == [False, False, True]
