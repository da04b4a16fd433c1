"""Numerics of compiled examples: unfused vs fused vs a float64 reference.

Metrics (both against the float64 reference of :mod:`motif.reference`):

* ``rel_err`` -- normwise: ``max|a - ref| / max|ref|``. This one decides the class.
* ``elem_rel_err`` -- elementwise: ``max_i |a_i - ref_i| / (|ref_i| + 1e-6 * max|ref|)``
  (the floor keeps exact zeros, e.g. ReLU outputs, from dividing by zero); informational.

Equivalence class met by the fused form (strongest first):

* ``bitwise``      -- fused == unfused bit for bit, and the unfused form is within tolerance.
* ``tolerance``    -- both forms within the family's fp32 tolerance (``TOLERANCES``) of the reference.
* ``mathematical`` -- only when the rewrite *declares* it (reordered reductions, online softmax) and
  both forms are within ``MATHEMATICAL_SLACK`` x the tolerance: it can be declared, not proven.
* ``FAIL``         -- anything else (including NaN/Inf or a wrong shape).

Run ``python -m motif.numerics`` for a table over every family.
"""
import argparse
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .compiler import FORMS, compile_text, forms_of, same_kernels
from .errors import ChipMismatchError, CompilerNotFoundError, MotifError, MotifRuntimeError
from .examples import FAMILIES, family_of, load_example, parse_dims, rows_of, variants
from .reference import REFERENCES

EPS32 = float(np.finfo(np.float32).eps)  # 1.19e-7
# Normwise relative error allowed against the float64 reference, per family (fp32 kernels).
# Elementwise maps round once or twice; single reductions (rows of up to ~64K) accumulate error
# ~ log2(n)..sqrt(n) eps; two chained contractions (attention, GEMM + erf) get the loosest bound.
TOLERANCES = {
    "residual_relu": 1e-6,
    "transpose_scale": 1e-6,
    "softmax": 1e-5,
    "layernorm": 1e-5,
    "rmsnorm": 1e-5,
    "toy_attention": 1e-5,
    "attention": 1e-4,
    "gemm_bias_gelu": 1e-4,
    "gemm": 1e-4,
    "mha": 1e-4,  # attention per head
    # bf16 outputs: one rounding to 8 significant bits (<= 2^-9 relative) over f32 statistics, normwise
    # against max|ref|: 2^-8 leaves the f32 part a factor of two (docs/python.md, "Tolerances").
    "softmax_bf16": 2.0**-8,
    "layernorm_bf16": 2.0**-8,
    "rmsnorm_bf16": 2.0**-8,
    "gemm_bf16": 2.0**-8,  # tensor cores: f32 accumulation, one bf16 rounding of C
    "gemm_f16": 2.0**-10,  # the same, one f16 rounding (<= 2^-11 relative)
    # Half-precision attention (bf16/f16 q, k, v and result; f32 scores, statistics and accumulators;
    # P rounded to the half type before P.V, as the tensor-core flash form feeds its second dot).
    # Two roundings reach the output, each at most the unit roundoff u (bf16: 8 significant bits,
    # u = 2^-8; f16: 11 bits, u = 2^-11): P's, which P.V averages (normwise at most u max|V| in the
    # worst case, about u/2 max|ref| for random signs), and the result's (at most u max|ref|); the
    # inputs are exact and the f32 part is below 1e-4 (the f32 families' bound). So 2u: 2^-7 for
    # bf16, 2^-10 for f16. A numpy emulation of the program measured 2.0e-3..4.5e-3 (bf16) and
    # 3.1e-4..5.1e-4 (f16) on N(0,1) inputs and logits in the hundreds (docs/python.md, "Tolerances").
    "attention_bf16": 2.0**-7,
    "mha_bf16": 2.0**-7,
    "mha_f16": 2.0**-10,
    # tf32 tensor cores (f32 in and out, f32 accumulation): each operand rounded to nearest tf32 (11
    # significant bits, u = 2^-11), so each product carries at most 2u = 2^-10 relative error; the errors
    # of a dot product of N(0,1) values partly cancel, and normwise against max|ref| the sum stays well
    # under 2^-10 (docs/python.md, "Tolerances"; the CPU emulation measures 4.1e-4 at K = 128).
    "gemm_tf32": 2.0**-10,
    # C = A.B^T (an nn.Linear weight): the bounds of gemm and gemm_bf16 (wgmma: f32 accumulation, one
    # bf16 rounding of C).
    "linear": 1e-4,
    "linear_bf16": 2.0**-8,
}
#: Looser bounds for the benchmark's peers (torch eager, torch.compile) where they round more than
#: the motif program: torch's half attention rounds the scores q.k^T to the half type before the
#: softmax (and again after the scale unless it is a power of two), an error of u |s| in each logit
#: that the softmax turns into a relative error of P and that grows with the logits (N(0,1) inputs:
#: |s| up to about 5). Measured in a numpy emulation: up to 1.4e-2 (bf16, D=128) and 1.9e-3 (f16).
#: 8u: 2^-5 for bf16, 2^-8 for f16. The bench checks every non-motif row (eager, torch.compile, SDPA,
#: Triton) of these families against them; motif rows always against TOLERANCES.
PEER_TOLERANCES = {
    "attention_bf16": 2.0**-5,
    "mha_bf16": 2.0**-5,
    "mha_f16": 2.0**-8,
}
MATHEMATICAL_SLACK = 100.0
CLASSES = ("bitwise", "tolerance", "mathematical", "FAIL")


def rel_err(a, ref):
    """Normwise relative error max|a-ref| / max|ref| (computed in float64)."""
    a, ref = np.asarray(a, np.float64), np.asarray(ref, np.float64)
    scale = np.max(np.abs(ref)) if ref.size else 0.0
    diff = np.max(np.abs(a - ref)) if ref.size else 0.0
    return float(diff / scale) if scale > 0 else float(diff)


def elem_rel_err(a, ref):
    """Elementwise relative error max_i |a_i-ref_i| / (|ref_i| + 1e-6 max|ref|)."""
    a, ref = np.asarray(a, np.float64), np.asarray(ref, np.float64)
    if not ref.size:
        return 0.0
    floor = 1e-6 * np.max(np.abs(ref)) or np.finfo(np.float64).tiny
    return float(np.max(np.abs(a - ref) / (np.abs(ref) + floor)))


def _ordered(bits):
    # Map float32 bit patterns to integers that are monotonic in the float value (+0 and -0 -> 0).
    i = bits.view(np.int32).astype(np.int64)
    return np.where(i < 0, -(i & 0x7FFFFFFF), i)


def ulp_distance(a, b):
    """Max distance in float32 units-in-the-last-place between two same-shaped arrays (inf if NaN)."""
    a = np.ascontiguousarray(a, dtype=np.float32)
    b = np.ascontiguousarray(b, dtype=np.float32)
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {a.shape} vs {b.shape}")
    if not a.size:
        return 0
    if np.isnan(a).any() or np.isnan(b).any():
        return float("inf")
    return int(np.max(np.abs(_ordered(a) - _ordered(b))))


def bitwise_equal(a, b):
    a = np.ascontiguousarray(a, dtype=np.float32)
    b = np.ascontiguousarray(b, dtype=np.float32)
    return a.shape == b.shape and bool(np.array_equal(a.view(np.uint32), b.view(np.uint32)))


@dataclass
class Comparison:
    equivalence: str  # one of CLASSES
    reason: str
    unfused_rel_err: float
    fused_rel_err: float
    unfused_elem_rel_err: float
    fused_elem_rel_err: float
    bitwise: bool
    max_ulp: float
    tolerance: float


def classify(unfused, fused, ref, tolerance, declared=None):
    """Compare two float32 results with a float64 reference; return a :class:`Comparison`.

    ``declared`` is the equivalence class the rewrite claims ('mathematical' allows results beyond
    the fp32 tolerance, up to ``MATHEMATICAL_SLACK`` times it).
    """
    unfused, fused, ref = np.asarray(unfused), np.asarray(fused), np.asarray(ref)
    nan = float("nan")
    for what, a in (("unfused", unfused), ("fused", fused)):
        if a.shape != ref.shape:
            return Comparison("FAIL", f"{what} shape {list(a.shape)} != reference {list(ref.shape)}",
                              nan, nan, nan, nan, False, float("inf"), tolerance)
    eu, ef = rel_err(unfused, ref), rel_err(fused, ref)
    c = Comparison("FAIL", "", eu, ef, elem_rel_err(unfused, ref), elem_rel_err(fused, ref),
                   bitwise_equal(unfused, fused), ulp_distance(unfused, fused), tolerance)
    finite = np.isfinite(unfused).all() and np.isfinite(fused).all()
    if not finite:
        c.reason = "NaN or Inf in a result"
    elif c.bitwise and eu <= tolerance:
        c.equivalence, c.reason = "bitwise", "fused == unfused bit for bit; within tolerance of the reference"
    elif eu <= tolerance and ef <= tolerance:
        c.equivalence, c.reason = "tolerance", f"both within {tolerance:g} of the reference"
    elif declared == "mathematical" and max(eu, ef) <= MATHEMATICAL_SLACK * tolerance:
        c.equivalence = "mathematical"
        c.reason = f"declared mathematical; within {MATHEMATICAL_SLACK:g} x {tolerance:g} of the reference"
    else:
        bad = [w for w, e in (("unfused", eu), ("fused", ef)) if e > tolerance]
        c.reason = f"{' and '.join(bad)} beyond tolerance {tolerance:g} of the reference"
    return c


def make_inputs(buffers, seed=None, rows=None):
    """Fresh N(0,1) float32 arrays for input buffers; returns (arrays, seed).

    With ``seed=None`` a new seed is drawn from OS entropy and returned, for reproduction. A buffer
    with a runtime row count gets ``rows`` rows.
    """
    if rows is None and any(b.dynamic_rows for b in buffers):
        raise MotifError("inputs with a runtime row count need a row count (rows=)")
    if seed is None:
        seed = int(np.random.SeedSequence().entropy)
    rng = np.random.default_rng(seed)
    arrays = []
    for b in buffers:
        a = rng.standard_normal(b.shape_at(rows)).astype(b.np_dtype)
        if a.size and not np.any(a):
            raise MotifError(f"input {b.name}: all-zero draw")  # never check on zeros
        arrays.append(a)
    return arrays, seed


def masked_rows(arrays, rng):
    """Softmax edges: about 30% of the row elements masked to -inf (every row keeps one finite value,
    as a causal or padding mask does), and one row scaled to magnitudes of 1e4."""
    x = arrays[0].copy()
    mask = rng.random(x.shape) < 0.3
    mask[..., 0] = False
    x[mask] = -np.inf
    x.reshape(-1, x.shape[-1])[0] = (x.reshape(-1, x.shape[-1])[0].astype(np.float32) * 1e4).astype(x.dtype)
    return [x] + arrays[1:]


def large_logits(arrays, rng):
    """Attention edges: q and k scaled by 8 (logits q.k/sqrt(D) of standard deviation 64, in the
    hundreds: the running max of a flash form moves many times and rescales its partial sums) and v
    by 1e3 (within f16's range of 65504 for any draw of a few million normals)."""
    q, k, v = arrays
    scaled = lambda a, c: (a.astype(np.float32) * np.float32(c)).astype(a.dtype)  # noqa: E731  (x8 exact)
    return [scaled(q, 8.0), scaled(k, 8.0), scaled(v, 1e3)]


#: Extra input sets per family (edges the random N(0,1) draw never reaches), named.
EDGE_INPUTS = {"softmax": ("masked", masked_rows), "softmax_bf16": ("masked", masked_rows),
               "attention_bf16": ("large", large_logits), "mha_bf16": ("large", large_logits),
               "mha_f16": ("large", large_logits)}


@dataclass
class NumericsResult:
    family: str
    function: str
    dims: dict
    seed: int
    comparison: Comparison = None
    error: str = ""  # set when compiling/running failed (then the class is FAIL)
    inputs: list = field(default_factory=list)  # input shapes

    @property
    def equivalence(self):
        return "FAIL" if self.error else self.comparison.equivalence


def check_family(family, dims=None, seed=None, workdir=None, backend=None, declared=None, chip=None,
                 schedules=True):
    """Compile examples/<family>.mlir unfused and with --fuse-materialization, run both on the same
    fresh random inputs and classify every function; with ``schedules``, the family's other
    schedules (examples/<family>_<name>.mlir) too. Returns a list of :class:`NumericsResult`.
    """
    from .runtime import Program, get_backend  # GPU stack: imported late so the module imports anywhere

    get_backend(backend)  # no GPU -> MotifRuntimeError("no CUDA GPU/driver: ...") before compiling
    from .examples import family_chip
    from .runtime import check_chip
    check_chip(chip or family_chip(family), backend)  # sm_90a on another GPU -> ChipMismatchError
    workdir = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix=f"motif-{family}-"))
    results = []
    if seed is None:
        seed = int(np.random.SeedSequence().entropy)
    # The example, then its other schedules (examples/<family>_<name>.mlir), each unfused and fused.
    for variant in [None] + (variants(family) if schedules else []):
        results += _check_program(family, load_example(family, dims, variant), variant or family, seed,
                                  workdir / variant if variant else workdir, backend, declared, chip)
    return results


def _check_program(family, text, name, seed, workdir, backend, declared, chip):
    """Unfused against fused (the class the fusion keeps), and against the form fused under the
    mathematical cap (where it changes the kernels: rule 4, tolerance-class tiling), on fresh
    random inputs and on the family's edge inputs."""
    from .runtime import Program
    dims_used = parse_dims(text)
    rows = rows_of(text)  # a program with a runtime row count runs at its rows dim
    # The family's own forms (compiler.FAMILY_FORMS) on its example only, not on its other schedules.
    all_forms = forms_of(family) if name == family else FORMS
    forms = {f: compile_text(text, workdir / f, name=name, chip=chip, fuse=fuse, extra_args=extra)
             for f, (fuse, extra) in all_forms.items()}
    unfused = forms["unfused"]
    others = [("fused", declared)]
    if not same_kernels(forms["mathematical"], forms["fused"]):
        others.append(("mathematical", "mathematical"))
    from .runtime import chip_runs_on, get_backend
    capability = get_backend(backend).capability()
    for f in all_forms:
        # a form for another chip (mathematical-sm_90a on a GPU that is not sm_90) is not run here
        runs_here = all(chip_runs_on(m.chip, capability) for m in forms[f].values())
        if f.startswith("mathematical-") and runs_here and not same_kernels(forms[f], forms["mathematical"]):
            others.append((f, "mathematical"))
    inputs_sets = [("", None)] + ([EDGE_INPUTS[family]] if family in EDGE_INPUTS else [])
    results = []
    for fn, mu in sorted(unfused.items()):
        for form, form_declared in others:
            for edge, make_edge in inputs_sets:
                label = fn + (f" ({form})" if form != "fused" else "") + (f" [{edge}]" if edge else "")
                r = NumericsResult(family, label, dims_used, seed,
                                   inputs=[list(b.shape_at(rows)) for b in mu.inputs])
                results.append(r)
                try:
                    if family_of(fn) != family:
                        raise MotifError(f"@{fn} is not of family {family}")
                    mf = forms[form].get(fn)
                    if mf is None:
                        raise MotifError(f"--fuse-materialization ({form}) wrote no manifest for @{fn}")
                    if [b.shape for b in mf.inputs] != [b.shape for b in mu.inputs]:
                        raise MotifError(f"{form} @{fn} inputs {[list(b.shape) for b in mf.inputs]} "
                                         f"differ from unfused")
                    if len(mu.outputs) != 1 or len(mf.outputs) != 1:
                        raise MotifError(f"@{fn}: expected one output, manifests have "
                                         f"{len(mu.outputs)} / {len(mf.outputs)}")
                    arrays, _ = make_inputs(mu.inputs, seed, rows)
                    if make_edge:
                        arrays = make_edge(arrays, np.random.default_rng(seed + 1))
                    ref = REFERENCES[family](*arrays)
                    (yu,) = Program(mu, backend)(*arrays)
                    (yf,) = Program(mf, backend)(*arrays)
                    r.comparison = classify(yu, yf, ref, TOLERANCES[family], form_declared)
                except MotifError as e:
                    r.error = str(e)
    return results


def format_table(results):
    head = ("family", "function", "dims", "unfused rel", "fused rel", "elem rel", "bitwise", "max ulp",
            "tol", "class")
    rows = []
    for r in results:
        dims = " ".join(f"{k}={v}" for k, v in r.dims.items())
        if not dims:
            dims = " ".join("x".join(map(str, s)) for s in r.inputs) or "-"
        if r.error:
            reason = r.error.splitlines()[0]
            reason = reason if len(reason) <= 160 else reason[:157] + "..."
            rows.append((r.family, r.function, dims, "-", "-", "-", "-", "-", "-", "FAIL: " + reason))
            continue
        c = r.comparison
        rows.append((r.family, r.function, dims, f"{c.unfused_rel_err:.2e}", f"{c.fused_rel_err:.2e}",
                     f"{max(c.unfused_elem_rel_err, c.fused_elem_rel_err):.2e}", "yes" if c.bitwise else "no",
                     str(c.max_ulp), f"{c.tolerance:.0e}", c.equivalence))
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    line = lambda cells: "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in rows])


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m motif.numerics", description=__doc__.split("\n")[0])
    p.add_argument("--families", default=",".join(FAMILIES), help="comma-separated (default: all)")
    p.add_argument("--seed", type=int, default=None, help="reproduce a run (default: fresh entropy)")
    p.add_argument("--backend", choices=("cupy", "cuda-python"), default=None)
    p.add_argument("--workdir", default=None, help="keep compiled outputs here")
    p.add_argument("--declare-mathematical", action="store_true",
                   help="the rewrites declare mathematical equivalence (reordered reductions)")
    args = p.parse_args(argv)
    families = [f for f in args.families.split(",") if f]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        p.error(f"unknown families {', '.join(unknown)} (known: {', '.join(FAMILIES)})")
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy)
    results = []
    for fam in families:
        print(f"[numerics] {fam} ...", file=sys.stderr, flush=True)
        wd = Path(args.workdir) / fam if args.workdir else None
        try:
            results += check_family(fam, seed=seed, workdir=wd, backend=args.backend,
                                    declared="mathematical" if args.declare_mathematical else None)
        except ChipMismatchError as e:
            print(f"[numerics] {fam} skipped: {e}", file=sys.stderr, flush=True)
        except MotifError as e:
            if isinstance(e, (CompilerNotFoundError, MotifRuntimeError)):
                print(f"error: {e}", file=sys.stderr)
                return 2
            results.append(NumericsResult(fam, "-", {}, seed, error=str(e)))
    print(f"seed {seed}  (reproduce: python -m motif.numerics --seed {seed})")
    print(format_table(results))
    return 1 if any(r.equivalence == "FAIL" for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
