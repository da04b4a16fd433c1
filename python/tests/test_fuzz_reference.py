"""The float64 reference of the GPU differential run (motif.fuzz_reference, written from the JSON
spec) against the C++ evaluator's sequential float64 meaning of the same program's IR: two
independent implementations must agree, here on the CPU, before the GPU run trusts either."""
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from motif import fuzz_reference
from motif._paths import build_tool, repo_root


def _tool(name):
    return build_tool(name) or pytest.skip(f"{name} is not built")


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
        # A bf16 or f16 argument gets values of its type (held in f32 exactly).
        xs = [fuzz_reference.round_to(rng.standard_normal(s), t).astype(np.float32)
              for s, t in zip(fuzz_reference.argument_shapes(spec), fuzz_reference.argument_dtypes(spec))]
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


def test_round_to():
    """round_to rounds to nearest even as arith.truncf does: bf16 against ml_dtypes' cast of the f32
    value, f16 against numpy's; values that overflow the type become inf."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    rng = np.random.default_rng()
    x = rng.standard_normal(4096) * np.exp(rng.uniform(-20, 20, 4096))
    f = x.astype(np.float32)
    want_bf16 = f.astype(ml_dtypes.bfloat16).astype(np.float64)
    assert np.array_equal(fuzz_reference.round_to(x, "bf16"), want_bf16)
    with np.errstate(over="ignore"):
        assert np.array_equal(fuzz_reference.round_to(x, "f16"), x.astype(np.float16).astype(np.float64))
    assert fuzz_reference.round_to(np.array([np.inf, -np.inf, 3.4e38]), "bf16").tolist() == \
        [np.inf, -np.inf, np.inf]
    assert np.isnan(fuzz_reference.round_to(np.array([np.nan]), "bf16")).all()
    assert np.array_equal(fuzz_reference.round_to(x, "f32"), f.astype(np.float64))
    # Ties go to even: 1 + 2^-8 is halfway between bf16's 1 and 1 + 2^-7.
    assert fuzz_reference.round_to(np.array([1 + 2.0**-8, 1 + 3 * 2.0**-8]), "bf16").tolist() == \
        [1.0, 1 + 2.0**-6]
    assert np.isinf(fuzz_reference.round_to(np.array([70000.0]), "f16")).all()


def _half_spec(dtype):
    # f(x: [3, 50] of dtype) = (bf16/f16 map of x * 1/3, its row sum in f32)
    return {"extents": [3, 50],
            "nodes": [{"kind": "argument", "dtype": dtype, "dims": [0, 1], "iter_dims": [], "operands": []},
                      {"kind": "map", "dtype": dtype, "dims": [0, 1], "iter_dims": [0, 1],
                       "operands": [[0, 0]], "body": ["softdiv", ["operand", 0], ["constant", 1.41421]]},
                      {"kind": "reduce", "dtype": "f32", "dims": [0], "iter_dims": [0, 1],
                       "operands": [[1, 0]], "combiner": "add"}],
            "outputs": [[1, 0], [2, 0]]}


@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_rounded_evaluation(dtype):
    """With rounded=True each value is rounded to its dtype where it is made, and only there: the
    map's result is the exact one rounded, the f32 sum adds the rounded elements."""
    rng = np.random.default_rng()
    spec = _half_spec(dtype)
    x = fuzz_reference.round_to(rng.standard_normal((3, 50)) * 30, dtype)
    exact = fuzz_reference.evaluate(spec, [x])
    rounded = fuzz_reference.evaluate(spec, [x], rounded=True)
    c = np.float64(np.float32(1.41421))
    assert np.array_equal(exact[0], x / (1 + c * c))
    assert np.array_equal(rounded[0], fuzz_reference.round_to(x / (1 + c * c), dtype))
    assert not np.array_equal(rounded[0], exact[0])  # 150 values of 8 or 11 bits
    assert np.array_equal(rounded[1], fuzz_reference.round_to(np.sum(rounded[0], axis=1), "f32"))
    # f16's range: a map result past 65504 / 2 is out of reach (the others are not).
    big = _half_spec(dtype)
    reach = []
    with np.errstate(invalid="ignore", over="ignore"):
        fuzz_reference.evaluate(big, [x * 1e4], reach, rounded=True)
    assert reach == ([False, False] if dtype == "f16" else [True, True])


def _tie_spec():
    # f(x: [4, 300]) = select(s1 < s2, 1000, -1000) per row, s1 and s2 the row's sum made twice (equal
    # in float64, not always in f32), its sum over the rows, and select(s1 < s1, ...) (one value
    # compared with itself), select(s1 < s2, x, x) (equal branches) and select(x < 0, ...).
    sel = lambda a, b, c, d: ["select", a, b, c, d]
    op = lambda k: ["operand", k]
    big, small = ["constant", 1000.0], ["constant", -1000.0]
    row = {"kind": "reduce", "dims": [0], "iter_dims": [0, 1], "operands": [[0, 0]], "combiner": "add"}
    return {"extents": [4, 300],
            "nodes": [{"kind": "argument", "dims": [0, 1], "iter_dims": [], "operands": []},
                      row, dict(row),
                      {"kind": "map", "dims": [0], "iter_dims": [0], "operands": [[1, 0], [2, 0]],
                       "body": sel(op(0), op(1), big, small)},
                      {"kind": "reduce", "dims": [], "iter_dims": [0], "operands": [[3, 0]], "combiner": "add"},
                      {"kind": "map", "dims": [0], "iter_dims": [0], "operands": [[1, 0], [1, 0]],
                       "body": sel(op(0), op(1), big, small)},
                      {"kind": "map", "dims": [0], "iter_dims": [0], "operands": [[1, 0], [2, 0]],
                       "body": sel(op(0), op(1), ["add", op(0), big], ["add", op(1), big])},
                      {"kind": "map", "dims": [0, 1], "iter_dims": [0, 1], "operands": [[0, 0], [1, 0]],
                       "body": sel(op(0), ["constant", 0.0], big, ["tanh", op(1)])}],
            "outputs": [[3, 0], [4, 0], [5, 0], [6, 0], [7, 0]]}


def test_near_ties():
    """A select on two different computations equal in float64 (a row's sum made twice) is a near tie
    in every element, and so is what a reduction folds it into; a value compared with itself, a select
    whose branches are equal, and a comparison of unrelated values are not (fresh normal inputs: the
    chance that one of 1200 lands within 1e-4 of 0 is about 1e-1, so that element is allowed)."""
    rng = np.random.default_rng()
    x = rng.standard_normal((4, 300))
    ties = []
    fuzz_reference.evaluate(_tie_spec(), [x], ties=ties)
    assert [t.shape for t in ties] == [(4,), (), (4,), (4,), (4, 300)]
    assert ties[0].all() and ties[1].all()
    assert not ties[2].any() and not ties[3].any()
    assert np.count_nonzero(ties[4]) == np.count_nonzero(np.abs(x) <= fuzz_reference.TIE_RTOL)
    # Rows apart: no tie.
    ties = []
    spec = _tie_spec()
    spec["nodes"][2] = dict(spec["nodes"][2], combiner="max")
    fuzz_reference.evaluate(spec, [x], ties=ties)
    assert not ties[0].any() and not ties[1].any()


class _EvaluatorProgram:
    """Stands in for motif.runtime.Program on the CPU: runs the form's IR on the schedule-faithful
    evaluator (motif-equiv --run --model=schedule), which computes what the kernels compute, bit for
    bit where the GPU is (docs/schedule.md). `perturb(form, outputs)` may spoil the results."""
    perturb = None

    def __init__(self, manifest):
        self.form = Path(manifest).parent.name
        self.mlir = Path(manifest).parent.parent / f"{self.form}.mlir"
        self.tmp = Path(manifest).parent

    def __call__(self, *xs):
        files = []
        for k, x in enumerate(xs):
            f = self.tmp / f"in{k}.npy"
            np.save(f, np.asarray(x, np.float32))  # 16-bit values are f32 values exactly
            files.append(str(f))
        dump = self.tmp / "out"
        subprocess.run([str(_tool("motif-equiv")), "--run", str(self.mlir), "--function=f", "--model=schedule",
                        "--inputs=" + ",".join(files), f"--dump={dump}"],
                       check=True, capture_output=True, text=True)
        spec = __import__("json").loads((self.mlir.parent / "spec.json").read_text())
        ys = [np.load(dump / f"out{k}.npy").astype(fuzz_reference.numpy_dtype(t))
              for k, t in enumerate(fuzz_reference.output_dtypes(spec))]
        return _EvaluatorProgram.perturb(self.form, ys) if _EvaluatorProgram.perturb else ys


@pytest.fixture
def offline_gpu_run(tmp_path, monkeypatch):
    """motif.fuzz_gpu's whole judgement on the CPU, over 24 generated programs (several of them
    bf16 or f16): every form 'runs' on the schedule-faithful evaluator."""
    pytest.importorskip("ml_dtypes")
    from motif import fuzz_gpu
    out = tmp_path / "programs"
    subprocess.run([str(_tool("motif-fuzz")), "gen", "--seed=5", "--count=24", "--jobs=1", "-o", str(out)],
                   check=True, capture_output=True, text=True)
    for pdir in out.iterdir():
        for form in fuzz_gpu.FORMS:
            if (pdir / f"{form}.mlir").is_file():
                (pdir / form).mkdir()
                (pdir / form / "f.json").write_text("{}")
    monkeypatch.setattr(fuzz_gpu, "Program", _EvaluatorProgram)

    def run(perturb=None):
        _EvaluatorProgram.perturb = perturb
        log = tmp_path / "log.txt"
        rc = fuzz_gpu.main([str(out), "--memcheck", "0", "--log", str(log)])
        _EvaluatorProgram.perturb = None
        return rc, log.read_text().splitlines()
    half = [p for p in out.iterdir() if '"dtype": "bf16"' in (p / "spec.json").read_text()
            or '"dtype": "f16"' in (p / "spec.json").read_text()]
    assert len(half) >= 4, "seed 5 draws bf16/f16 programs"
    return run


def test_fuzz_gpu_judge_offline(offline_gpu_run):
    """The GPU run's judge passes every form of correct programs (16-bit inputs and outputs included),
    and fails a form that is one ulp off where it claims bitwise, or off the float64 meaning."""
    rc, lines = offline_gpu_run()
    assert rc == 0 and len(lines) == 24 and all(" ok" in l for l in lines), lines

    def one_ulp(form, ys):
        if form != "fused":
            return ys
        y = ys[-1].copy()
        bits = fuzz_gpu_bits(y)
        bits.reshape(-1)[0] ^= 1
        return ys[:-1] + [y]

    rc, lines = offline_gpu_run(one_ulp)
    assert rc == 1 and any("not bit-identical" in l for l in lines), lines

    def far_off(form, ys):
        return [np.asarray(np.asarray(y, np.float64) * 1.5 + 1.0, y.dtype) for y in ys] if form == "hand" else ys

    rc, lines = offline_gpu_run(far_off)
    assert rc == 1 and any("hand: error" in l and "against float64" in l for l in lines), lines


def fuzz_gpu_bits(y):
    from motif import fuzz_gpu
    return fuzz_gpu._bits(y)


def test_fuzz_gpu_picks_cluster_forms_to_sanitize(tmp_path, monkeypatch):
    """--sanitize-clusters N: the first N forms whose manifest launches a kernel in clusters run under
    racecheck and memcheck (a racecheck warning counts: cluster-mbarrier's first form had one);
    forms without clusters do not, and a report fails the program."""
    from motif import fuzz_gpu
    kernel = {"name": "k", "grid": [8, 1, 1], "block": [128, 1, 1]}
    plain, clustered = tmp_path / "plain.json", tmp_path / "clustered.json"
    plain.write_text(json.dumps({"kernels": [kernel]}))
    clustered.write_text(json.dumps({"kernels": [kernel, dict(kernel, cluster=[4, 1, 1])]}))
    assert not fuzz_gpu._clustered(plain) and fuzz_gpu._clustered(clustered)
    (tmp_path / "one.json").write_text(json.dumps({"kernels": [dict(kernel, cluster=[1, 1, 1])]}))
    assert not fuzz_gpu._clustered(tmp_path / "one.json")

    calls = []

    class Proc:
        def __init__(self, rc, out):
            self.returncode, self.stdout, self.stderr = rc, out, ""

    def fake_run(cmd, **kw):
        calls.append(cmd[2])
        if cmd[2] == "racecheck":
            return Proc(3, "========= RACECHECK SUMMARY: 2 hazards displayed (0 errors, 2 warnings)")
        return Proc(0, "========= ERROR SUMMARY: 0 errors")
    monkeypatch.setattr(fuzz_gpu.subprocess, "run", fake_run)
    ok, out = fuzz_gpu._sanitize(clustered, "racecheck")
    assert not ok and "2 warnings" in out
    assert fuzz_gpu._sanitize(clustered, "memcheck")[0]
    assert calls == ["racecheck", "memcheck"]


def test_fuzz_gpu_near_tie_offline(tmp_path, monkeypatch, capsys):
    """Seed 20261222's program 148 (two sums of one row compared by a select; docs/fuzzing.md): every
    form, on the schedule-faithful evaluator as on an H100 (session 22), takes the other branch than
    float64 on some rows, bit for bit alike. The near-tie elements are left out of the float64 error
    and counted; without that rule (TIE_RTOL < 0) the run reports all three forms wrong, and a form
    off the float64 meaning elsewhere is still caught."""
    pytest.importorskip("ml_dtypes")
    from motif import fuzz_gpu
    out = tmp_path / "programs"
    subprocess.run([str(_tool("motif-fuzz")), "gen", "--seed=20261222", "--first=148", "--count=1", "--jobs=1",
                    "-o", str(out)], check=True, capture_output=True, text=True)
    for form in fuzz_gpu.FORMS:
        if (out / "p148" / f"{form}.mlir").is_file():
            (out / "p148" / form).mkdir()
            (out / "p148" / form / "f.json").write_text("{}")
    monkeypatch.setattr(fuzz_gpu, "Program", _EvaluatorProgram)
    log = tmp_path / "log.txt"

    def run(perturb=None):
        _EvaluatorProgram.perturb = perturb
        capsys.readouterr()
        rc = fuzz_gpu.main([str(out), "--memcheck", "0", "--log", str(log)])
        _EvaluatorProgram.perturb = None
        return rc, log.read_text(), capsys.readouterr().out

    rc, text, summary = run()
    assert rc == 0 and "p148 seed 17076871874413897651 ok" in text, text
    tied = int(next(l.split()[-1] for l in summary.splitlines() if "near-tie-elements" in l))
    assert tied > 0, summary

    def far_off(form, ys):
        return [np.asarray(np.asarray(y, np.float64) * 1.5 + 1.0, y.dtype) for y in ys] if form == "hand" else ys

    rc, text, _ = run(far_off)
    assert rc == 1 and "hand: error" in text and "unfused: error" not in text, text
    monkeypatch.setattr(fuzz_reference, "TIE_RTOL", -1.0)
    rc, text, _ = run()
    assert rc == 1 and all(f"{f}: error" in text for f in fuzz_gpu.FORMS), text
