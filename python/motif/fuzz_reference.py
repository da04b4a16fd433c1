"""A float64 evaluation of motif-fuzz's generated programs, from their JSON spec.

Written from the spec (docs/testing.md), independently of the IR and of the C++ evaluator: the
GPU differential run (``python -m motif.fuzz_gpu``) compares the compiled kernels against it.

A spec is ``{"extents": [...], "nodes": [...], "outputs": [[node, result], ...]}``; every node
has ``dims`` (result dims, ids into ``extents``), ``iter_dims``, ``operands`` (``[node,
result]`` pairs) and ``dtype`` (``f32``, ``bf16`` or ``f16``: the element type of its results; a
spec without it is f32); maps have a ``body`` expression, reductions a ``combiner``.
"""
import numpy as np

_LETTERS = "abcdefghijklmnopqrstuvwxyz"

#: Magnitudes past this are within a few hundred roundings' reach of f32's overflow (3.4e38): an f32
#: program may give inf there in one order of evaluation and a number in another.
F32_REACH = float(np.finfo(np.float32).max) / 256

#: A ``select`` on ``a < b`` whose operands are this close (relative to max(|a|, |b|, 1)) is a *near tie*:
#: two f32 evaluations of a and b in different orders (a row's sum over its threads, and over its warps)
#: may compare the other way than float64 does, and the select then takes the other branch in every form
#: (docs/fuzzing.md, the tie of seed 20261222's program 148). The float64 meaning of such an element is
#: not what an f32 program computes; the GPU run judges it by the forms' agreement only.
TIE_RTOL = 1e-4

#: An f16 value is rounded from an f32 one: past half of f16's largest finite value (65504) a few
#: roundings' difference upstream may make it inf in one form and a number in another.
F16_REACH = float(np.finfo(np.float16).max) / 2


def round_to(x, dtype):
    """``x`` (float64) rounded to ``dtype`` (``f32``, ``bf16`` or ``f16``; to nearest even, as
    ``arith.truncf`` rounds), as float64. bf16 goes through f32 (the GPU rounds an f32 value)."""
    x = np.asarray(x, np.float64)
    if dtype == "f32":
        return x.astype(np.float32).astype(np.float64)
    if dtype == "f16":
        with np.errstate(over="ignore"):
            return x.astype(np.float16).astype(np.float64)
    if dtype == "bf16":
        with np.errstate(over="ignore"):
            f = np.ascontiguousarray(x.astype(np.float32))
        u = f.view(np.uint32).astype(np.uint64)
        r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16 << 16).astype(np.uint32).view(np.float32)
        # inf and nan stay what they are; a finite value may round up to inf.
        return np.where(np.isfinite(f), r, f).astype(np.float64).reshape(x.shape)
    raise ValueError(f"unknown dtype {dtype!r}")


def numpy_dtype(dtype):
    """The numpy dtype that holds ``dtype`` (bf16: ml_dtypes' bfloat16)."""
    if dtype == "bf16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype({"f32": np.float32, "f16": np.float16}[dtype])


def _align(array, dims, target):
    """``array`` (axes ``dims``) as an array over ``target`` dims (transposed, broadcast)."""
    order = [dims.index(d) for d in target if d in dims]
    a = np.transpose(array, order) if order else array
    present = [d for d in target if d in dims]
    shape = [1] * len(target)
    for axis, d in enumerate(present):
        shape[target.index(d)] = a.shape[axis]
    return a.reshape(shape)


def _expr(e, args, body_dtype="f32", rnd=None, ties=None, keys=None):
    """The body expression ``e`` on ``args``; ``rnd`` (or None) rounds each op's result (the
    rounded evaluation). With a list ``ties``, appends the near-tie mask of every select (``keys``:
    each operand's value, ``[node, result]``, so that two operands of one value compare as one)."""
    op = e[0]
    if op == "operand":
        return args[e[1]]
    if op == "constant":
        # The program's constants have its body's type (arith.constant ... : f32 / bf16 / f16):
        # their value is the one nearest the printed decimal in that type, as the evaluator and the
        # GPU read it, rounded or not.
        return round_to(np.float64(np.float32(e[1])), body_dtype)
    sub = [_expr(a, args, body_dtype, rnd, ties, keys) for a in e[1:]]
    # A select of `a < b` where a and b are one computation (the same expression of the same values)
    # compares them alike in every form: no tie.
    if op == "select" and ties is not None and _key(e[1], keys) != _key(e[2], keys):
        # Where the branches are near each other, the other branch is a small error: no tie either.
        ties.append(near_tie(sub[0], sub[1]) & ~near_tie(sub[2], sub[3]))
    return _op(op, sub, rnd or (lambda x: x))


def _key(e, keys):
    """The body expression ``e`` with each operand named by its value (``keys``)."""
    if e[0] == "operand":
        return ("value",) + tuple(keys[e[1]]) if keys is not None else tuple(e)
    if e[0] == "constant":
        return tuple(e)
    return (e[0],) + tuple(_key(a, keys) for a in e[1:])


def near_tie(a, b):
    """Where ``a`` and ``b`` are equal within :data:`TIE_RTOL` of max(|a|, |b|, 1): an f32 evaluation of
    ``a < b`` may decide it either way."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        scale = np.maximum(np.maximum(np.abs(a), np.abs(b)), 1.0)
        return np.abs(a - b) <= TIE_RTOL * scale


def _op(op, sub, r):
    """One body op; ``r`` rounds every op the program states (the composite ones state several)."""
    if op in ("add", "sub", "mul", "max", "min", "neg", "abs", "tanh", "select"):
        return r(_plain(op, sub))
    if op == "exptanh":
        return r(np.exp(r(np.tanh(sub[0]))))
    if op == "softdiv":
        return r(sub[0] / r(r(sub[1] * sub[1]) + 1.0))
    if op == "sqrt1p":
        return r(np.sqrt(r(r(sub[0] * sub[0]) + 1.0)))
    if op == "fma":
        return r(sub[0] * sub[1] + sub[2])  # fused: one rounding
    raise ValueError(f"unknown body op {op!r}")


def _plain(op, sub):
    if op == "add":
        return sub[0] + sub[1]
    if op == "sub":
        return sub[0] - sub[1]
    if op == "mul":
        return sub[0] * sub[1]
    if op == "max":
        return np.maximum(sub[0], sub[1])
    if op == "min":
        return np.minimum(sub[0], sub[1])
    if op == "neg":
        return -sub[0]
    if op == "abs":
        return np.abs(sub[0])
    if op == "tanh":
        return np.tanh(sub[0])
    if op == "select":
        return np.where(sub[0] < sub[1], sub[2], sub[3])
    raise ValueError(f"unknown body op {op!r}")


def evaluate(spec, inputs, reach=None, rounded=False, ties=None):
    """The outputs of ``spec`` on ``inputs`` (one array per argument node, in order), float64.

    With ``rounded``, every value is rounded to its ``dtype`` where it is made (a bf16 map result to
    bf16, an f32 one to f32), the roundings the program states: its error against the exact
    evaluation is what the program's own types lose, the bound the CPU oracle takes from its
    sequential f32 evaluation (lib/Fuzz/Oracle.cpp). A value the rounding takes to inf is out of
    reach (``reach``), as is an f16 one past :data:`F16_REACH`.

    With a list ``reach``, appends per output whether its float64 meaning is within f32's reach: no
    value it depends on, and no partial product of a ``mul`` reduction it depends on in any order of
    evaluation (bounded by the product of the factors' magnitudes above 1), exceeds ``F32_REACH``.
    Where that fails an f32 program may overflow to inf (the CPU oracle's rule: lib/Fuzz/Oracle.cpp
    judges only the forms' agreement then).

    With a list ``ties``, appends per output a boolean array of its shape: the elements whose float64
    meaning depends on a select that is a near tie (:func:`near_tie`) -- through the map that made it,
    and every reduction, contraction, broadcast or transpose since (a tied element taints the rows it
    is reduced into)."""
    extents = spec["extents"]
    values = {}
    tied = {}  # (node, result) -> bool array over the value's dims
    far = {}  # node -> True when it or a value it depends on is out of f32's reach
    args = iter(inputs)
    for i, n in enumerate(spec["nodes"]):
        kind, dims = n["kind"], list(n["dims"])
        ops = [(values[tuple(o)], spec["nodes"][o[0]]["dims"]) for o in n["operands"]]
        far[i] = any(far[o[0]] for o in n["operands"])
        if kind == "reduce" and n["combiner"] == "mul":
            a, d = ops[0]
            axes = tuple(k for k, x in enumerate(d) if x not in dims)
            with np.errstate(over="ignore"):
                bound = np.prod(np.maximum(np.abs(a), 1.0), axis=axes)
            far[i] = far[i] or bool(np.any(bound > F32_REACH))
        shape = tuple(extents[d] for d in dims)
        body_ties = [] if ties is not None and not rounded else None
        if kind == "argument":
            values[(i, 0)] = np.asarray(next(args), np.float64)
        elif kind == "map":
            aligned = [_align(a, list(d), dims) for a, d in ops]
            body = n.get("body_dtype", "f32")
            rnd = None
            if rounded:
                # Operands converted to the body's type, every op rounded to it.
                aligned = [round_to(a, body) for a in aligned]
                rnd = lambda x, body=body: round_to(x, body)
            r = _expr(n["body"], aligned, body, rnd, body_ties, [tuple(o) for o in n["operands"]])
            values[(i, 0)] = np.broadcast_to(r, shape).astype(np.float64)
        elif kind in ("broadcast", "transpose"):
            a, d = ops[0]
            values[(i, 0)] = np.broadcast_to(_align(a, list(d), dims), shape).astype(np.float64)
        elif kind == "reduce":
            a, d = ops[0]
            axes = tuple(k for k, x in enumerate(d) if x not in dims)
            f = {"add": np.sum, "mul": np.prod, "max": np.max, "min": np.min}[n["combiner"]]
            values[(i, 0)] = np.asarray(f(a, axis=axes), np.float64)
        elif kind == "combine":
            (x, d), (w, _) = ops
            axes = tuple(k for k, v in enumerate(d) if v not in dims)
            if n["combiner"] == "online_softmax":
                m = np.max(x, axis=axes, keepdims=True)
                l = np.sum(w * np.exp(x - m), axis=axes)
                values[(i, 0)] = np.asarray(np.squeeze(m, axis=axes), np.float64)
                values[(i, 1)] = np.asarray(l, np.float64)
            else:
                values[(i, 0)] = np.asarray(np.sum(x, axis=axes), np.float64)
                values[(i, 1)] = np.asarray(np.sum(w, axis=axes), np.float64)
        elif kind == "contract":
            (a, da), (b, db) = ops
            values[(i, 0)] = np.einsum(_contraction(da, db, dims), a, b)
        else:
            raise ValueError(f"unknown node kind {kind!r}")
        if ties is not None:
            _taint(n, i, shape, spec, tied, body_ties)
        dtype = n.get("dtype", "f32")
        if rounded:
            for r in (0, 1):
                if (i, r) in values:
                    values[(i, r)] = round_to(values[(i, r)], dtype)
        limit = F16_REACH if dtype == "f16" else F32_REACH
        with np.errstate(invalid="ignore"):
            far[i] = far[i] or any(bool(np.any(~(np.abs(values[(i, r)]) <= limit)))
                                   for r in (0, 1) if (i, r) in values)
    if reach is not None:
        reach.extend(not far[o[0]] for o in spec["outputs"])
    if ties is not None:
        ties.extend(tied[tuple(o)] for o in spec["outputs"])
    return [values[tuple(o)] for o in spec["outputs"]]


def _contraction(da, db, dims):
    """The einsum equation of a contraction of operands over dims ``da`` and ``db`` into ``dims``."""
    names = {d: _LETTERS[k] for k, d in enumerate(sorted(set(da) | set(db)))}
    return "".join(names[d] for d in da) + "," + "".join(names[d] for d in db) + "->" + \
        "".join(names[d] for d in dims)


def _taint(n, i, shape, spec, tied, body_ties):
    """The near-tie masks of node ``i``'s results from its operands' and its own selects'."""
    dims = list(n["dims"])
    ops = [(tied[tuple(o)], list(spec["nodes"][o[0]]["dims"])) for o in n["operands"]]
    kind = n["kind"]
    if kind == "argument":
        out = np.zeros(shape, bool)
    elif kind in ("map", "broadcast", "transpose"):
        out = np.zeros(shape, bool)
        for t, d in ops:
            out = out | _align(t, d, dims)
        for t in body_ties or []:
            out = out | np.broadcast_to(t, shape)
    elif kind in ("reduce", "combine"):
        out = np.zeros(shape, bool)
        for t, d in ops:
            axes = tuple(k for k, x in enumerate(d) if x not in dims)
            kept = [x for x in d if x in dims]
            out = out | _align(np.any(t, axis=axes), kept, dims)
    elif kind == "contract":
        (ta, da), (tb, db) = ops
        eq = _contraction(da, db, dims)
        out = (np.einsum(eq, ta.astype(np.float64), np.ones(tb.shape)) +
               np.einsum(eq, np.ones(ta.shape), tb.astype(np.float64))) > 0
    else:
        raise ValueError(f"unknown node kind {kind!r}")
    out = np.broadcast_to(out, shape)
    tied[(i, 0)] = out
    if kind == "combine":
        tied[(i, 1)] = out


def argument_shapes(spec):
    """The shape of every argument node, in order."""
    return [tuple(spec["extents"][d] for d in n["dims"]) for n in spec["nodes"] if n["kind"] == "argument"]


def argument_dtypes(spec):
    """The element type of every argument node, in order (``f32``, ``bf16`` or ``f16``)."""
    return [n.get("dtype", "f32") for n in spec["nodes"] if n["kind"] == "argument"]


def output_dtypes(spec):
    """The element type of every output, in order."""
    return [spec["nodes"][o[0]].get("dtype", "f32") for o in spec["outputs"]]
