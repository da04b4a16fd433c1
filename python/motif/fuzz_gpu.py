"""The GPU differential run of motif-fuzz's programs (docs/testing.md).

    motif-fuzz gen --seed=S --count=N --compile -o DIR        # here, where the compiler is
    python -m motif.fuzz_gpu DIR [--seconds T] [--memcheck K] [--log FILE]   # on the GPU machine

Every program ``DIR/p<i>`` holds its JSON spec and its unfused, fused and hand-fused forms compiled
(cubin + manifest). Each form runs on fresh random inputs (normal(0, 1), never zero) and is compared
with a float64 evaluation of the spec written independently of the compiler
(:mod:`motif.fuzz_reference`): normwise error at most 1e-3 with a floor of 1, or 8x what the
program's own roundings lose (the spec evaluated with every value rounded to its dtype: bf16, f16 or
f32) -- the CPU oracle's bound. Arguments of a bf16 or f16 dtype get inputs of that type.
Fused and hand-fused forms declared bitwise must give the unfused form's bits. An output whose
float64 meaning lies past f32's reach (:data:`motif.fuzz_reference.F32_REACH`: a product of many
values, say) is judged only by that agreement, as the CPU oracle does, and counted
(``out-of-f32-reach``). So is an element that depends on a near tie of a select (``a < b`` with a
and b equal within :data:`motif.fuzz_reference.TIE_RTOL`: f32 sums of one row in two orders may
compare the other way, and every form takes the other branch); those are left out of the error
against float64 and counted (``near-tie-elements``). The first K programs
also run under compute-sanitizer memcheck. A failure prints the program seed
(``motif-fuzz one --program-seed=X`` reproduces it); exit status 1 when any failed.
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from . import fuzz_reference
from .runtime import Program

#: The bound of the CPU oracle (lib/Fuzz/Oracle.cpp): normwise, floor 1.
RTOL = 1e-3
FORMS = ("unfused", "fused", "hand")


def _inputs(shapes, dtypes, rng):
    out = []
    for s, t in zip(shapes, dtypes):
        x = rng.standard_normal(s)
        x[x == 0] = 0.5  # never zero: a zero hides a wrong operand in a product
        x = x.astype(fuzz_reference.numpy_dtype(t))
        x[x.astype(np.float64) == 0] = 0.5
        out.append(x)
    return out


def _bits(a):
    """The array's bits, one unsigned integer an element (16-bit types too)."""
    a = np.ascontiguousarray(a)
    return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def _rounding_errors(spec, xs, ref, reach):
    """Per output: what the program's own roundings lose against the exact float64 meaning (max
    abs), from the spec evaluated with every value rounded to its dtype; an output that rounding
    takes out of reach is marked in ``reach``."""
    rounded_reach = []
    rounded = fuzz_reference.evaluate(spec, [x.astype(np.float64) for x in xs], rounded_reach,
                                      rounded=True)
    errs = []
    for k, (r, e) in enumerate(zip(rounded, ref)):
        reach[k] = reach[k] and rounded_reach[k]
        with np.errstate(invalid="ignore"):
            errs.append(float(np.max(np.abs(r - e))) if r.size and np.isfinite(r).all() else 0.0)
    return errs


def _error(y, ref, tied=None):
    """Normwise error of ``y`` against ``ref`` (floor 1), leaving out the near-tie elements ``tied``
    (:func:`motif.fuzz_reference.near_tie`): their float64 meaning is not what an f32 program computes."""
    y, ref = np.asarray(y, np.float64), np.asarray(ref, np.float64)
    if y.size != ref.size:
        return float("inf")
    # The manifest gives a rank-0 tensor the shape [1].
    y = y.reshape(ref.shape)
    if not np.isfinite(y).all():
        return float("inf")
    scale = max(float(np.max(np.abs(ref))) if ref.size else 0.0, 1.0)
    if tied is not None and np.any(tied):
        keep = ~np.broadcast_to(tied, ref.shape)
        y, ref = y[keep], ref[keep]
    return float(np.max(np.abs(y - ref))) / scale if ref.size else 0.0


def _allowed(ref, seq_err):
    """The bound on ``_error``: RTOL, or 8x the program's own rounding error, normwise (floor 1)."""
    scale = max(float(np.max(np.abs(ref))) if np.size(ref) else 0.0, 1.0)
    return max(RTOL, 8.0 * seq_err / scale)


def _programs(root):
    dirs = [p for p in Path(root).iterdir() if p.is_dir() and re.fullmatch(r"p\d+", p.name)]
    return sorted(dirs, key=lambda p: int(p.name[1:]))


def _sanitize(manifest, tool="memcheck"):
    """compute-sanitizer `tool` on one launch of the manifest's kernels: (clean, the output's tail).
    Clean: exit 0 and a summary of no errors (racecheck: no hazard at all, warnings included)."""
    cs = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    driver = Path(__file__).resolve().parents[1] / "tests" / "sanitize_driver.py"
    cmd = [cs, "--tool", tool, "--error-exitcode", "3", sys.executable, str(driver), str(manifest)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    out = p.stdout + p.stderr
    clean = "RACECHECK SUMMARY: 0 hazards" in out if tool == "racecheck" else "ERROR SUMMARY: 0 errors" in out
    return p.returncode == 0 and clean, out[-2000:]


def _memcheck(manifest):
    return _sanitize(manifest, "memcheck")


def _clustered(manifest):
    """Whether a kernel of the manifest runs in thread-block clusters."""
    kernels = json.loads(Path(manifest).read_text()).get("kernels", [])
    return any(max(k.get("cluster", [1]) or [1]) > 1 for k in kernels)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m motif.fuzz_gpu", description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--seconds", type=float, default=0, help="stop after this long (0: no limit)")
    ap.add_argument("--memcheck", type=int, default=20, help="programs also run under memcheck")
    ap.add_argument("--sanitize-clusters", type=int, default=0,
                    help="the first N forms that run in clusters also under racecheck and memcheck")
    ap.add_argument("--log", default=None, help="write one line per program here")
    ap.add_argument("--seed", type=int, default=None, help="input seed (default: fresh)")
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % (2**32))
    rng = np.random.default_rng(seed)
    log = open(args.log, "w") if args.log else None
    start = time.time()
    tally = {"programs": 0, "forms": 0, "wrong": 0, "faults": 0, "bitwise-mismatch": 0,
             "out-of-f32-reach": 0, "near-tie-elements": 0, "memcheck-clean": 0, "memcheck-errors": 0,
             "cluster-forms": 0, "cluster-sanitized": 0, "cluster-sanitizer-errors": 0}
    failures = []
    programs = _programs(args.dir)
    print(f"[fuzz_gpu] {len(programs)} programs in {args.dir}, input seed {seed}", file=sys.stderr)
    for n, pdir in enumerate(programs):
        if args.seconds and time.time() - start > args.seconds:
            break
        spec = json.loads((pdir / "spec.json").read_text())
        meta = json.loads((pdir / "meta.json").read_text())
        xs = _inputs(fuzz_reference.argument_shapes(spec), fuzz_reference.argument_dtypes(spec), rng)
        reach, ties = [], []
        ref = fuzz_reference.evaluate(spec, [x.astype(np.float64) for x in xs], reach, ties=ties)
        seq = _rounding_errors(spec, xs, ref, reach)
        tally["out-of-f32-reach"] += reach.count(False)
        tally["near-tie-elements"] += int(sum(np.count_nonzero(t) for t, ok in zip(ties, reach) if ok))
        results, notes = {}, []
        for form in FORMS:
            man = pdir / form / "f.json"
            if not man.is_file():
                continue
            tally["forms"] += 1
            try:
                ys = Program(man)(*xs)
            except Exception as e:  # a launch or memory fault is a failure, not the end of the run
                tally["faults"] += 1
                notes.append(f"{form}: fault {type(e).__name__}: {str(e)[:200]}")
                continue
            results[form] = ys
            over = [(e, bound) for e, bound in
                    ((_error(y, r, t), _allowed(r, q)) for y, r, q, t, ok in zip(ys, ref, seq, ties, reach) if ok)
                    if not e <= bound]
            if over:
                tally["wrong"] += 1
                e, bound = max(over)
                notes.append(f"{form}: error {e:.3g} against float64 (allowed {bound:.3g})")
        base = results.get("unfused")
        for form, key in (("fused", "fused_class"), ("hand", "hand_class")):
            if base is None or form not in results or meta.get(key) != "bitwise":
                continue
            if not all(np.array_equal(_bits(a), _bits(b))
                       for a, b in zip(base, results[form])):
                tally["bitwise-mismatch"] += 1
                notes.append(f"{form}: not bit-identical to unfused (declared bitwise)")
        if n < args.memcheck:
            for form in FORMS:
                man = pdir / form / "f.json"
                if man.is_file():
                    ok, out = _memcheck(man)
                    tally["memcheck-clean" if ok else "memcheck-errors"] += 1
                    if not ok:
                        notes.append(f"{form}: memcheck: {out[-300:]}")
        for form in FORMS:
            man = pdir / form / "f.json"
            if not man.is_file() or not _clustered(man):
                continue
            tally["cluster-forms"] += 1
            if tally["cluster-sanitized"] + tally["cluster-sanitizer-errors"] >= args.sanitize_clusters:
                continue
            bad = [(tool, out) for tool in ("racecheck", "memcheck") for ok, out in [_sanitize(man, tool)] if not ok]
            tally["cluster-sanitizer-errors" if bad else "cluster-sanitized"] += 1
            notes += [f"{form} (cluster): {tool}: {out[-300:]}" for tool, out in bad]
        tally["programs"] += 1
        status = "FAIL" if notes else "ok"
        line = f"{pdir.name} seed {meta['program_seed']} {status}" + ("".join(f"; {x}" for x in notes))
        if log:
            print(line, file=log)
        if notes:
            failures.append(line)
            print(f"[fuzz_gpu] {line}", file=sys.stderr)
        if (n + 1) % 100 == 0:
            print(f"[fuzz_gpu] {n + 1}/{len(programs)} ({time.time() - start:.0f} s), "
                  f"{len(failures)} failing", file=sys.stderr)
    print(f"motif-fuzz GPU run: {tally['programs']} programs, {tally['forms']} compiled forms in "
          f"{time.time() - start:.0f} s (input seed {seed})")
    for k, v in tally.items():
        print(f"  {k:18} {v}")
    if log:
        log.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
