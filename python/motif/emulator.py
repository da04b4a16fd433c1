"""Runs motif's lowered kernels on the CPU: the gpu.func bodies convert-motif-to-gpu emits, every
thread of a block in lock step, with a race check -- an independent execution of the emitter's
output, where motif-equiv's schedule model executes the motif IR before lowering.

    python -m motif.emulator PROG.mlir [--function f] [--seed S] [--runs K] [--lower-options OPTS]

lowers PROG (``motif-opt --pass-pipeline=builtin.module(convert-motif-to-gpu,gpu.module(canonicalize,
cse))``, the first passes of motif-lower-to-nvvm), runs the host function's launches here on fresh
random inputs and compares every output bit for bit with the schedule model (``motif-equiv --run
--model=schedule``), which the documentation defines as bit for bit what the GPU computes
(docs/schedule.md). Exit status 1 on a difference or a hazard, 2 on bad usage, 3 when the kernels
use an op the emulator does not model (reported, not judged).

What it models (docs/testing.md, "The kernel emulator"):

* the host function: arith.constant, arith.muli (a grid of the row count times the blocks of
  a row), memref.alloc (NaN-filled, so a read of an element no kernel
  stored is NaN), gpu.launch_func (grid and block sizes, operands), memref.dealloc;
* a kernel: blocks one after another, the threads of a block as one vector in lock step; scf.for
  with per-thread bounds and scf.if (masks), scf.yield; memref.load / store on global and workgroup
  buffers (workgroup buffers NaN-filled per block; an index out of bounds is an error, as the fault it
  is on the GPU); gpu.thread_id / block_id / block_dim / grid_dim; gpu.shuffle (xor, down, up, idx
  within a warp; reading a lane that does not exist or is not active is an error); gpu.barrier;
* arith and math ops with the evaluator's roundings: f32 results in float (libm for math
  functions, as the evaluator calls them), bf16/f16 results computed in float and rounded once, a
  16-bit fma in double rounded once; integers as int64 (index, i32, i64, i1);
* cluster-mbarrier's exchange: nvvm.mbarrier.init / arrive.expect_tx / try_wait.parity,
  nvvm.fence.mbarrier.init and the st.async push (inline PTX): each mbarrier armed for one phase; a
  push into an mbarrier not initialized, fenced and published by a cluster barrier, bytes past the
  phase, a wait that would never complete, a phase left incomplete at the exit, and a read of pushed
  data before the wait are errors;
* hazards, as compute-sanitizer racecheck would see them on the GPU: a workgroup element written
  by one thread and read or written by another with no gpu.barrier between them, a global element
  written by one block and read or written by another block of the same launch, and two active
  lanes storing different values to one element in one instruction.
"""
import argparse
import ctypes
import ctypes.util
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from ._paths import build_tool

WARP = 32
#: The most input elements the emulator takes (about 1 GiB of float64 working set).
MAX_ELEMENTS = 1 << 26


class Unsupported(Exception):
    """The kernels use an op (or a form of one) the emulator does not model."""


class Fault(Exception):
    """What would be a fault, a hazard or undefined behaviour on the GPU."""


# ----------------------------------------------------------------------------- parsing
_OP = re.compile(r'^\s*(?:(%[\w]+)(?::(\d+))? = )?"([\w.]+)"\((.*?)\)(.*)$')
_BLOCK = re.compile(r'^\s*\^bb\d+(?:\((.*)\))?:\s*$')
_SIG = re.compile(r':\s*\((.*?)\)\s*->\s*(.*?)\s*$')


def _split_types(text):
    """Splits a comma-separated type list at depth 0 (types hold <...> and commas inside)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _parse(lines, i, stop):
    ops = []
    while i < len(lines):
        s = lines[i].strip()
        if not s or s.startswith("//"):
            i += 1
            continue
        if any(s.startswith(t) for t in stop):
            return ops, i
        m = _OP.match(lines[i])
        if not m:
            raise Unsupported(f"cannot parse line {i + 1}: {s[:100]}")
        res, nres, name, args, rest = m.groups()
        op = {"name": name, "res": res, "nres": int(nres) if nres else (1 if res else 0),
              "args": [a.strip() for a in args.split(",") if a.strip()], "rest": rest, "regions": []}
        i += 1
        if rest.rstrip().endswith("({"):
            while True:
                params, types = [], []
                bm = _BLOCK.match(lines[i])
                if bm:
                    for p in _split_types(bm.group(1) or ""):
                        n, t = p.split(":", 1)
                        params.append(n.strip())
                        types.append(t.strip())
                    i += 1
                body, i = _parse(lines, i, ("})", "}, {", "}"))
                op["regions"].append((params, types, body))
                end = lines[i].strip()
                i += 1
                if end.startswith("}, {"):
                    continue
                op["rest"] = rest + " " + end
                break
        sig = _SIG.search(op["rest"])
        op["types"] = ([], [])
        if sig:
            rt = sig.group(2).strip()
            rt = rt[1:-1] if rt.startswith("(") else rt
            op["types"] = (_split_types(sig.group(1)), _split_types(rt))
        ops.append(op)
    return ops, i


def parse_module(text):
    lines = text.splitlines()
    ops, _ = _parse(lines, 0, ())
    return ops


def _prop(op, key):
    m = re.search(key + r" = ([^,}>]+(?:<[^>]*>)?)", op["rest"])
    return m.group(1).strip() if m else None


def _shape(t):
    """The dims (-1 for a dynamic one) and element type of a memref type."""
    m = re.match(r"memref<((?:(?:\d+|\?)x)*)(\w+)", t)
    if not m:
        raise Unsupported(f"memref type {t}")
    dims = [-1 if d == "?" else int(d) for d in m.group(1).split("x") if d]
    return dims, m.group(2)


# ----------------------------------------------------------------------------- numerics
_libm = ctypes.CDLL(ctypes.util.find_library("m"))
_F1 = {}


def _libm_f(name):
    """libm's function `name` (expf, atan2f, exp, ...), elementwise: what the evaluator calls. A name
    ending in f takes floats, others doubles; the arity is the one of _LIBM_ARITY (1 by default)."""
    if name not in _F1:
        f = getattr(_libm, name)
        arity = _LIBM_ARITY.get(name.rstrip("f") if name not in ("erf", "modf") else name, 1)
        ctype = ctypes.c_float if name.endswith("f") and name not in ("erf",) else ctypes.c_double
        f.restype, f.argtypes = ctype, [ctype] * arity
        _F1[name] = np.frompyfunc(f, arity, 1)
    return _F1[name]


_LIBM_ARITY = {"fma": 3, "atan2": 2, "pow": 2, "copysign": 2, "fmod": 2}


def _f32(x):
    with np.errstate(all="ignore"):
        return np.asarray(x, np.float64).astype(np.float32).astype(np.float64)


def _round_half(x, t):
    """float64 to bf16 / f16, once, to nearest even (as the evaluator's roundToFormat)."""
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        if t == "f16":
            return x.astype(np.float16).astype(np.float64)
        u = np.ascontiguousarray(x).view(np.uint64)
        r = ((u + np.uint64((1 << 44) - 1) + ((u >> np.uint64(45)) & np.uint64(1)))
             >> np.uint64(45) << np.uint64(45)).view(np.float64)
        # bf16 has f32's exponent range: past it, inf (finite rounding) or f32's subnormals.
        big = np.abs(r) >= 2.0 ** 128
        r = np.where(big & np.isfinite(x), np.copysign(np.inf, x), r)
        tiny = (np.abs(x) < 2.0 ** -126) & (x != 0)
        if tiny.any():
            import ml_dtypes
            r = np.where(tiny, x.astype(np.float32).astype(ml_dtypes.bfloat16).astype(np.float64), r)
        return np.where(np.isnan(x), x, r)


def _round(x, t):
    if t == "f32":
        return _f32(x)
    if t in ("bf16", "f16"):
        return _round_half(_f32(x), t)  # computed in float, rounded once
    if t == "f64":
        return np.asarray(x, np.float64)
    raise Unsupported(f"float type {t}")


def _int_bits(t):
    if t == "index":
        return 64
    m = re.fullmatch(r"i(\d+)", t)
    if not m:
        raise Unsupported(f"integer type {t}")
    return int(m.group(1))


def _wrap(x, t):
    """An integer result of type t, sign-extended into int64 (i1 true is -1, as the evaluator)."""
    b = _int_bits(t)
    x = np.asarray(x).astype(np.int64)
    if b >= 64:
        return x
    m = np.int64((1 << b) - 1)
    x = x & m
    return np.where(x >= (1 << (b - 1)), x - (1 << b), x).astype(np.int64)


def _unsigned(x, t):
    b = _int_bits(t)
    x = np.asarray(x, np.int64)
    if b >= 64:
        return x.astype(np.uint64)
    return (x & np.int64((1 << b) - 1)).astype(np.uint64)


_CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
_CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
         "une", "uno", "true"]
#: math ops as libm functions (the float one, name + "f", for f32 and 16-bit values; the double one
#: for f64), as the evaluator calls them (docs/evaluator.md).
_MATH1 = {f"math.{n}": n for n in ("exp", "exp2", "log", "log2", "log10", "tanh", "sin", "cos", "tan", "erf",
                                   "erfc", "log1p", "expm1", "atan", "asin", "acos", "sinh", "cosh", "asinh",
                                   "acosh", "atanh", "cbrt", "floor", "ceil", "round")}
_MATH1["math.roundeven"] = "roundeven"
_MATH2 = {"math.atan2": "atan2", "math.powf": "pow", "math.copysign": "copysign", "arith.remf": "fmod"}


def _select(cond, a, b):
    """np.where with a per-lane condition over per-lane vectors (a trailing dim)."""
    cond = np.asarray(cond)
    nd = max(np.ndim(a), np.ndim(b))
    if cond.ndim and cond.ndim < nd:
        cond = cond.reshape(cond.shape + (1,) * (nd - cond.ndim))
    return np.where(cond, a, b)


def _vector_dims(t):
    m = re.fullmatch(r"vector<((?:\d+x)+)\w+>", t.strip())
    if not m:
        raise Unsupported(f"vector type {t}")
    return tuple(int(d) for d in m.group(1).split("x") if d)


def _vector_elem(t):
    return re.fullmatch(r"vector<(?:\d+x)+(\w+)>", t.strip()).group(1)


_BITS = {"f32": 32, "i32": 32, "bf16": 16, "f16": 16, "i16": 16, "f64": 64, "i64": 64, "i8": 8}


def _to_bits(v, elem):
    """Values (float64 holding the type's values, or int64) as unsigned bit patterns."""
    v = np.asarray(v)
    if elem == "f32":
        return v.astype(np.float32).view(np.uint32)
    if elem == "f16":
        return v.astype(np.float16).view(np.uint16)
    if elem == "bf16":
        return (v.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    if elem == "f64":
        return v.astype(np.float64).view(np.uint64)
    if elem in ("i32", "i16", "i8", "i64"):
        return v.astype(np.int64).astype({8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[_BITS[elem]])
    raise Unsupported(f"bitcast of {elem}")


def _from_bits(b, elem):
    if elem == "f32":
        return b.view(np.float32).astype(np.float64)
    if elem == "f16":
        return b.view(np.float16).astype(np.float64)
    if elem == "bf16":
        return (b.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    if elem == "f64":
        return b.view(np.float64)
    if elem in ("i32", "i16", "i8", "i64"):
        return _wrap(b.astype(np.int64), elem)
    raise Unsupported(f"bitcast to {elem}")


def _bitcast(v, src, dst, dims, T):
    """vector.bitcast per lane: the lane's elements' bits, low element first, read as `dst` elements."""
    bits = np.ascontiguousarray(_to_bits(v.reshape(T, -1), src))
    width = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[_BITS[dst]]
    return _from_bits(bits.view(np.uint8).view(width), dst).reshape((T,) + dims)


def _unpack_pair(reg, kind):
    """An i32 register holding two 16-bit values, the low half first."""
    b = np.asarray(reg, np.int64).astype(np.uint32)
    lo = (b & np.uint32(0xFFFF)).astype(np.uint16)
    hi = (b >> np.uint32(16)).astype(np.uint16)
    return np.stack([_from_bits(lo, kind), _from_bits(hi, kind)], axis=-1)


def _vector_width(t):
    m = re.fullmatch(r"vector<(\d+)x\w+>", t.strip())
    if not m:
        raise Unsupported(f"vector type {t}")
    return int(m.group(1))


# ----------------------------------------------------------------------------- execution
class Buffer:
    """A memref's data (float64 or int64) and what the race check remembers of it."""

    def __init__(self, shape, elem, space, fill=np.nan, ctas=1):
        # A workgroup buffer of a cluster kernel holds one copy per CTA: a leading dim of `ctas`.
        self.ctas = ctas
        shape = ((ctas,) if ctas > 1 else ()) + tuple(shape)
        self.shape, self.elem, self.space = tuple(shape), elem, space
        is_float = elem in ("f32", "bf16", "f16", "f64")
        if not is_float and fill is not None and np.isnan(fill):
            fill = -(1 << 62)  # an integer buffer never written: a value no kernel computes
        self.data = np.full(self.shape, fill, np.float64 if is_float else np.int64) \
            if fill is not None else None
        n = int(np.prod(self.shape)) if self.shape else 1
        # Workgroup: writer thread and barrier epoch of the last write; global: writer block and
        # launch of the last write.
        self.writer = np.full(n, -1, np.int64)
        self.epoch = np.full(n, -1, np.int64)
        self.reader = np.full(n, -1, np.int64)
        self.read_epoch = np.full(n, -1, np.int64)
        # Cluster barrier epochs: of the last write, and of the last read by another CTA (mapa).
        self.cepoch = np.full(n, -1, np.int64)
        self.remote_reader = np.full(n, -1, np.int64)
        self.remote_epoch = np.full(n, -1, np.int64)
        # Release epoch of the last write: the count of cluster barriers with a release arrive
        # (not .relaxed) completed before it. Another CTA may read the element only in a later one.
        self.rel = np.full(n, -1, np.int64)
        self.float = elem in ("f32", "bf16", "f16", "f64")

    def get(self, flat):
        """The elements at flat indices, as float64 (or int64)."""
        if self.data.flags.c_contiguous:
            v = self.data.reshape(-1)[flat]
        else:
            v = self.data[np.unravel_index(flat, self.shape)]
        return v.astype(np.float64 if self.float else np.int64)

    def set(self, flat, v):
        if self.data.flags.c_contiguous:
            self.data.reshape(-1)[flat] = v
        else:
            self.data[np.unravel_index(flat, self.shape)] = v


_NP_TYPES = {"f32": np.float32, "f16": np.float16, "f64": np.float64, "i32": np.int32, "i64": np.int64,
             "index": np.int64, "i8": np.int8, "i16": np.int16}


def _np_type(elem):
    if elem == "bf16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    if elem not in _NP_TYPES:
        raise Unsupported(f"element type {elem} in dynamic shared memory")
    return np.dtype(_NP_TYPES[elem])


def _view(raw, ctas, nbytes, offset, shape, elem):
    """A typed buffer over bytes `offset`.. of each CTA's dynamic shared memory (memref.view): stores
    through one view are what an aliasing view reads, as on the GPU."""
    dt = _np_type(elem)
    size = int(np.prod(shape)) * dt.itemsize if shape else dt.itemsize
    if offset < 0 or offset + size > nbytes:
        raise Fault(f"memref.view of {size} B at byte {offset} past {nbytes} B of dynamic shared memory")
    if offset % dt.itemsize:
        raise Fault(f"memref.view of {elem} at byte {offset}: misaligned")
    b = Buffer(shape, elem, "workgroup", None, ctas)
    b.base = offset
    strides, acc = [], dt.itemsize
    for e in reversed(shape):
        strides.insert(0, acc)
        acc *= e
    if ctas > 1:
        strides.insert(0, nbytes)
    b.data = np.ndarray(b.shape, dt, buffer=raw, offset=offset, strides=tuple(strides))
    return b


class Emulator:
    def __init__(self, module_ops, seed=0):
        self.kernels = {}
        self.hosts = {}
        self.rng = np.random.default_rng(seed)
        self.launch = 0
        for op in module_ops[0]["regions"][0][2]:
            if op["name"] == "func.func":
                self.hosts[re.search(r'sym_name = "([^"]+)"', op["rest"]).group(1)] = op
            elif op["name"] == "gpu.module":
                mod = re.search(r'sym_name = "([^"]+)"', op["rest"]).group(1)
                for k in op["regions"][0][2]:
                    if k["name"] == "gpu.func":
                        name = re.search(r'sym_name = "([^"]+)"', k["rest"]).group(1)
                        self.kernels[f"@{mod}::@{name}"] = k

    # -- host
    def run_host(self, name, inputs):
        """Runs host function `name` on `inputs` (numpy arrays of the argument buffers' shapes);
        returns the output buffers' data, in order."""
        f = self.hosts[name]
        params, types, body = f["regions"][0]
        roles = re.findall(r'motif.role = "(\w+)"', f["rest"])
        env = {}
        it = iter(inputs)
        outs = []
        for p, t, role in zip(params, types, roles):
            shape, elem = _shape(t)
            if role == "input":
                x = np.asarray(next(it), np.float64)
                if -1 in shape:  # a runtime row count: the input's
                    rows = x.shape[0]
                    shape = [rows if d == -1 else d for d in shape]
                b = Buffer(shape, elem, "global", None)
                b.data = x.reshape(shape).copy()
            else:
                if -1 in shape:
                    shape = [rows if d == -1 else d for d in shape]
                b = Buffer(shape, elem, "global")
                outs.append(b)
            env[p] = b
        for op in body:
            n = op["name"]
            if n == "arith.constant":
                env[op["res"]] = self._constant(op)
            elif n == "memref.alloc":
                shape, elem = _shape(op["types"][1][0])
                sizes = iter(int(env[a]) for a in op["args"])
                shape = [next(sizes) if d == -1 else d for d in shape]
                env[op["res"]] = Buffer(shape, elem, "global")
            elif n == "memref.dim":
                env[op["res"]] = np.int64(env[op["args"][0]].shape[int(env[op["args"][1]])])
            elif n == "arith.muli":  # a grid of the row count times the blocks of a row
                env[op["res"]] = np.int64(int(env[op["args"][0]]) * int(env[op["args"][1]]))
            elif n == "memref.cast":
                # To the kernels' static bound: the buffer stays what it is (an access past its rows
                # is out of bounds, as past the allocation on the GPU).
                env[op["res"]] = env[op["args"][0]]
            elif n == "gpu.launch_func":
                self._launch(op, env)
            elif n in ("memref.dealloc", "func.return"):
                pass
            else:
                raise Unsupported(f"host op {n}")
        return [b.data for b in outs]

    def _launch(self, op, env):
        seg = [int(x) for x in re.search(r"operandSegmentSizes = array<i32: ([\d, ]+)>", op["rest"]).group(1).split(",")]
        if seg[0] or any(seg[7:10]) or seg[12]:
            raise Unsupported("a launch with async dependencies or cluster sizes")
        args = op["args"]
        sizes = [int(env[a]) for a in args[sum(seg[:1]):sum(seg[:7])]]
        grid, block = sizes[:3], sizes[3:6]
        self.dynamic = int(env[args[sum(seg[:10])]]) if seg[10] else 0
        operands = [env[a] for a in args[sum(seg[:11]):sum(seg[:12])]]
        kernel = self.kernels[re.search(r"kernel = (@[\w]+::@[\w]+)", op["rest"]).group(1)]
        self.launch += 1
        self._run_kernel(kernel, grid, block, operands)

    def _constant(self, op):
        v = _prop(op, "value")
        t = op["types"][1][0]
        if v in ("true", "false"):
            return np.int64(-1 if v == "true" else 0)
        d = re.search(r"value = dense<(-?[\w.+-]+)> : vector<((?:\d+x)+)(\w+)>", op["rest"])
        if d:
            # A splat of any rank (mma.sync's f32 accumulators are vector<2x2xf32>).
            lit, dims, ty = d.groups()
            scalar = self._constant({"rest": f"<{{value = {lit} : {ty}}}>", "types": ([], [ty])})
            shape = tuple(int(x) for x in dims.rstrip("x").split("x"))
            return np.full(shape[0] if len(shape) == 1 else shape, scalar)
        m = re.match(r"(-?[\w.+-]+) : (\w+)", v)
        if not m:
            raise Unsupported(f"constant {v}")
        lit, ty = m.groups()
        if ty in ("f32", "bf16", "f16", "f64"):
            if lit.startswith("0x"):
                bits = int(lit, 16)
                val = {"f32": lambda b: np.array([b], np.uint32).view(np.float32)[0],
                       "f64": lambda b: np.array([b], np.uint64).view(np.float64)[0],
                       "f16": lambda b: np.array([b], np.uint16).view(np.float16)[0]}.get(
                    ty, lambda b: np.array([b << 16], np.uint32).view(np.float32)[0])(bits)
                return np.float64(val)
            return np.float64(_round(np.float64(float(lit)), ty) if ty != "f64" else float(lit))
        return np.int64(_wrap(np.int64(int(lit)), ty))

    # -- kernels
    def _run_kernel(self, k, grid, block, operands):
        params, types, body = k["regions"][0]
        if grid[1] != 1 or grid[2] != 1 or block[1] != 1 or block[2] != 1:
            raise Unsupported("a 2-d or 3-d launch")
        # A cluster kernel (nvvm.cluster_dim): its K CTAs run together, one vector of K * Tc lanes;
        # gpu.thread_id is a lane's id in its CTA, gpu.block_id its CTA's.
        c = re.search(r"nvvm.cluster_dim = array<i32: (\d+), 1, 1>", k["rest"])
        K = int(c.group(1)) if c else 1
        if grid[0] % K:
            raise Fault(f"a grid of {grid[0]} CTAs is not a whole number of clusters of {K}")
        Tc = block[0]
        T = K * Tc
        self.T, self.Tc, self.K, self.grid = T, Tc, K, grid[0]
        self.pos = np.arange(T, dtype=np.int64)
        self.tid = self.pos % Tc
        self.cta = self.pos // Tc
        for b in range(grid[0] // K):
            env = {}
            for p, t, v in zip(params, types, operands):
                env[p] = v
            self.workgroup = []
            for p, t in zip(params[len(operands):], types[len(operands):]):
                if "workgroup" not in t:
                    raise Unsupported(f"kernel argument {t}")
                shape, elem = _shape(t)
                env[p] = Buffer(shape, elem, "workgroup", ctas=K)
                self.workgroup.append(env[p])
            self.block = b * K + self.cta
            self.cluster_index = b
            self.epoch, self.cepoch = 0, 0
            # Cluster waits passed, and those of barriers whose arrive was a release.
            self.waits, self.rel_epoch, self.release = 0, 0, True
            self.pending, self.groups = [], []
            # Dynamic shared memory: bytes per CTA, 0xFF (a NaN in every float type) at first.
            self.raw = np.full(K * max(self.dynamic, 1), 0xFF, np.uint8)
            self.arrived = False
            # mbarriers (cluster-mbarrier's exchanges): (buffer, CTA, element) -> their state.
            self.mbar = {}
            # Copies still in flight when the CTA exits land in shared memory nobody reads again.
            self._exec(body, env, np.ones(T, bool))
            if K > 1:
                self._check_cluster_exit()

    def _check_cluster_exit(self):
        """The CTAs of a cluster leave at the kernel's end: none may leave while another may still read
        its shared memory. Every read of another CTA's memory must be followed by a whole cluster
        barrier (arrive, then wait) before the exit, and no arrive may be left without its wait."""
        if self.arrived:
            raise Fault("a cluster arrive with no wait before the exit")
        for (_, cta, _), st in self.mbar.items():
            if st["pending"] != st["count"] or st["tx"]:  # a phase begun and not completed
                raise Fault(f"CTA {cta} leaves with its mbarrier's phase {st['phase']} incomplete "
                            f"({st['pending']} arrivals and {st['tx']} bytes outstanding)")
        for buf in self.workgroup:
            if buf.ctas <= 1:
                continue
            per_cta = int(np.prod(buf.shape[1:]))
            f = np.nonzero((buf.remote_epoch == self.cepoch) & (buf.remote_reader >= 0))[0]
            if (f // per_cta != buf.remote_reader[f] // self.Tc).any():
                raise Fault(f"a CTA of the cluster may leave while another still reads its shared memory "
                            f"(buffer {buf.shape}): no cluster barrier after the last such read")

    def _exec(self, ops, env, mask):
        """Runs `ops` for the lanes in `mask`; returns the values of the scf.yield that ends them."""
        for op in ops:
            n = op["name"]
            if n == "scf.yield":
                return [env[a] for a in op["args"]]
            if n in ("gpu.return", "func.return"):
                return []
            r = self._op(op, env, mask)
            if op["nres"] == 1:
                env[op["res"]] = r
            elif op["nres"] > 1:
                for i, v in enumerate(r):
                    env[f"{op['res']}#{i}"] = v
        return []

    def _op(self, op, env, mask):
        n, a = op["name"], [env[x] if x in env else None for x in op["args"]]
        ins, outs = op["types"]
        rt = outs[0] if outs else None
        if n == "arith.constant":
            return self._constant(op)
        if n == "gpu.thread_id":
            return self._dim(op, self.tid, 0)
        if n == "gpu.block_id":
            return self._dim(op, self.block, 0)
        if n == "gpu.cluster_block_id":  # the CTA's rank in its cluster (clusters along x)
            return self._dim(op, self.cta, 0)
        if n == "gpu.cluster_id":
            return self._dim(op, np.int64(self.cluster_index), 0)
        if n == "gpu.block_dim":
            return self._dim(op, np.int64(self.Tc), 1)
        if n == "gpu.grid_dim":
            return self._dim(op, np.int64(self.grid), 1)
        if n == "memref.assume_alignment":
            # The back end vectorizes on this promise: a view at a byte offset must keep it.
            align = int((_prop(op, "alignment") or "1").split(":")[0])
            if getattr(a[0], "base", 0) % align:
                raise Fault(f"memref.assume_alignment promises {align} B for a view at byte {a[0].base}")
            return a[0]
        if n == "memref.load":
            return self._load(a[0], a[1:], mask)
        if n == "memref.store":
            self._store(a[1], a[2:], a[0], mask)
            return None
        if n == "gpu.barrier":
            if mask.any() and not mask.all():
                raise Fault("gpu.barrier reached by part of the block (divergent barrier)")
            self.epoch += 1
            return None
        if n in ("nvvm.cluster.arrive", "nvvm.cluster.arrive.relaxed"):
            if not mask.all():
                raise Fault("a cluster barrier arrived at by part of the cluster")
            if getattr(self, "arrived", False):
                raise Fault("a cluster arrive after an arrive with no wait between")
            self.arrived = True
            # A relaxed arrive orders none of the thread's earlier memory accesses.
            self.release = n == "nvvm.cluster.arrive"
            return None
        if n == "nvvm.cluster.wait":
            if not mask.all() or not getattr(self, "arrived", False):
                raise Fault("a cluster wait without every thread's arrive")
            self.arrived = False
            self.epoch += 1
            self.cepoch += 1
            self.waits += 1
            if self.release:
                self.rel_epoch += 1
            return None
        if n == "gpu.dynamic_shared_memory":
            return ("dynamic",)
        if n == "memref.view":
            if a[0] != ("dynamic",):
                raise Unsupported("memref.view of anything but gpu.dynamic_shared_memory")
            shape, elem = _shape(rt)
            buf = _view(self.raw, self.K, self.dynamic, int(a[1]), shape, elem)
            self.workgroup.append(buf)
            return buf
        if n == "memref.extract_aligned_pointer_as_index":
            buf = a[0]
            if buf.space != "workgroup":
                raise Unsupported("the address of a global buffer")
            return np.int64((self.workgroup.index(buf) + 1) << 32)
        if n == "llvm.inttoptr":
            return np.asarray(a[0], np.int64)
        if n == "nvvm.mapa":
            rank = np.asarray(a[1], np.int64)
            if (mask & ((rank < 0) | (rank >= self.K))).any():
                raise Fault(f"mapa to CTA rank outside the cluster of {self.K}")
            return np.asarray(a[0], np.int64) | ((rank + 1) << 56)
        if n in ("nvvm.mbarrier.init", "nvvm.mbarrier.arrive.expect_tx", "nvvm.fence.mbarrier.init",
                 "nvvm.mbarrier.try_wait.parity"):
            self._mbarrier(n, a, mask)
            return None
        if n == "llvm.load":
            return self._load_pointer(a[0], rt, mask)
        if n == "llvm.store":
            self._store_pointer(a[1], a[0], mask)
            return None
        if n == "scf.if":
            cond = np.broadcast_to(np.asarray(a[0]) != 0, mask.shape)
            # A branch no lane takes is not executed (its barriers are not reached by anyone).
            then_r = self._exec(op["regions"][0][2], env, mask & cond) if (mask & cond).any() else None
            else_r = (self._exec(op["regions"][1][2], env, mask & ~cond)
                      if len(op["regions"]) > 1 and (mask & ~cond).any() else None)
            if op["nres"] == 0:
                return None
            then_r, else_r = then_r or else_r, else_r or then_r
            if then_r is None:  # no lane here at all: the values are never used
                then_r = else_r = [np.zeros(mask.shape)] * op["nres"]
            res = [_select(cond, self._lanes(t), self._lanes(e)) for t, e in zip(then_r, else_r)]
            return res[0] if op["nres"] == 1 else res
        if n == "nvgpu.device_async_copy":
            self._async_copy(op, a, mask)
            return np.int64(0)
        if n == "nvgpu.device_async_create_group":
            self.groups.append(self.pending)
            self.pending = []
            return np.int64(len(self.groups))
        if n == "nvgpu.device_async_wait":
            keep = int((_prop(op, "numGroups") or "0").split(":")[0])
            while len(self.groups) > keep:
                self._land(self.groups.pop(0))
            return None
        if n == "vector.load":
            width = _vector_width(rt)
            return self._load(a[0], a[1:], mask, width, int((_prop(op, "alignment") or "0").split(":")[0]))
        if n == "vector.store":
            self._store(a[1], a[2:], a[0], mask, _vector_width(ins[0]), int((_prop(op, "alignment") or "0").split(":")[0]))
            return None
        if n == "vector.extract":
            pos = re.search(r"static_position = array<i64: ([\d, ]+)>", op["rest"])
            if not pos or len(a) != 1:
                raise Unsupported("vector.extract with a dynamic position")
            v = self._lanes(a[0])
            for i in (int(x) for x in pos.group(1).split(",")):
                v = v[:, i]
            return v
        if n == "vector.to_elements":
            v = self._lanes(a[0])
            return [v.reshape(self.T, -1)[:, i] for i in range(op["nres"])]
        if n == "vector.from_elements":
            return np.stack([self._lanes(x) for x in a], axis=-1).reshape((self.T,) + _vector_dims(rt))
        if n == "nvgpu.ldmatrix":
            return self._ldmatrix(op, a, mask)
        if n == "nvgpu.mma.sync":
            return self._mma(op, a, mask, ins)
        if n == "nvvm.mma.sync":
            return self._nvvm_mma(op, a, mask)
        if n == "nvvm.convert.float.to.tf32":
            if "fp_rnd_mode<rna>" not in op["rest"] or "relu = false" not in op["rest"]:
                raise Unsupported("cvt to tf32 other than .rna")
            # cvt.rna.tf32.f32: to the nearest tf32 (10 stored significand bits), ties away from zero;
            # the result is the f32 bit pattern, as an i32.
            b = np.asarray(a[0], np.float64).astype(np.float32).view(np.uint32).astype(np.uint64)
            b = ((b + 0x1000) & 0xFFFFE000).astype(np.uint32)
            return _wrap(b.astype(np.int64), "i32")
        if n == "llvm.extractvalue":
            pos = re.search(r"position = array<i64: (\d+)>", op["rest"])
            if not pos or not isinstance(a[0], list):
                raise Unsupported("llvm.extractvalue of a value that is not an mma result")
            return a[0][int(pos.group(1))]
        if n == "vector.bitcast":
            return _bitcast(self._lanes(a[0]), _vector_elem(ins[0]), _vector_elem(rt), _vector_dims(rt), self.T)
        if n == "vector.broadcast":
            return np.repeat(self._lanes(a[0])[..., None], _vector_width(rt), axis=-1)
        if n == "llvm.call_intrinsic":
            name = re.search(r'intrin = "([\w.]+)"', op["rest"]).group(1)
            if name == "llvm.nvvm.ex2.approx.ftz.f":
                # What the evaluator computes for math.exp2 (docs/residency.md, "Approximate math"),
                # a subnormal result flushed to +0 as ftz does (the evaluator's math.exp2 {motif.ftz}).
                r = np.asarray(_libm_f("exp2f")(np.asarray(a[0], np.float64).astype(np.float32)), np.float64)
                r = np.where(np.abs(r) < np.finfo(np.float32).tiny, 0.0, r)
                return _round(r, "f32")
            if name == "llvm.nvvm.sqrt.rn.f":
                return _round(np.sqrt(np.asarray(a[0], np.float64).astype(np.float32)).astype(np.float64), "f32")
            raise Unsupported(f"intrinsic {name}")
        if n == "scf.for":
            return self._for(op, a, env, mask)
        if n == "gpu.shuffle":
            return self._shuffle(op, a, mask)
        if n == "llvm.inline_asm":
            # rule 6's opaque copy (KernelEmitter's opaqueCopy): "mov.b16/32 $0, $1; // recompute"
            if re.search(r'asm_string = "mov\.b(16|32) \$0, \$1;', op["rest"]):
                return a[0]
            # cluster-mbarrier's push (KernelEmitter::storeToCtaAsync)
            if re.search(r'asm_string = "st\.async\.shared::cluster\.mbarrier::complete_tx::bytes\.b32 '
                         r'\[\$0\], \$1, \[\$2\];', op["rest"]):
                self._store_async(a[0], a[1], a[2], mask)
                return None
            raise Unsupported("inline asm")
        return self._arith(n, op, a, ins, rt)

    def _lanes(self, x):
        """`x` as one value per lane: (T,), or (T, n) for a vector."""
        x = np.asarray(x)
        if x.ndim and x.shape[0] == self.T:
            return x
        return np.broadcast_to(x, (self.T,) + x.shape)

    def _dim(self, op, v, other):
        """Dimension x of an id or size; launches are 1-d, so y and z are `other` (0 for an id, 1 for
        a size)."""
        d = _prop(op, "dimension")
        if d and "x" not in d:
            return np.int64(other)
        return v

    def _index(self, buf, idx, mask, n=1):
        idx = [np.broadcast_to(np.asarray(i, np.int64), mask.shape) for i in idx]
        if buf.ctas > 1:
            idx = [self.cta] + idx
        if not buf.shape:
            flat = np.zeros(mask.shape, np.int64)
        else:
            for d, (i, e) in enumerate(zip(idx, buf.shape)):
                last = n if d == len(buf.shape) - 1 else 1
                bad = mask & ((i < 0) | (i + last > e))
                if bad.any():
                    raise Fault(f"index {int(i[bad][0])} out of bounds of dim {d} (extent {e}) "
                                f"of a {buf.space} buffer {buf.shape}")
            flat = np.ravel_multi_index(tuple(np.where(mask, i, 0) for i in idx), buf.shape)
        return flat

    def _who(self, buf):
        """The accessor id the race check compares: the thread (workgroup) or the block (global)."""
        return self.pos if buf.space == "workgroup" else np.broadcast_to(self.block, (self.T,))

    def _pointer(self, ptr, mask, what):
        """The buffer and flat elements an llvm.load/llvm.store address names (a workgroup buffer of
        this CTA, or of CTA `rank` through nvvm.mapa), and the CTA of each active lane's element."""
        ptr = np.broadcast_to(np.asarray(ptr, np.int64), mask.shape)
        rank = (ptr >> 56) - 1
        rank = np.where(rank < 0, self.cta, rank)
        bid = ((ptr >> 32) & 0xFFFFFF) - 1
        off = ptr & 0xFFFFFFFF
        ids = np.unique(bid[mask])
        if ids.size != 1 or not 0 <= ids[0] < len(self.workgroup):
            raise Unsupported(f"llvm.{what} of an address that is not one workgroup buffer's")
        buf = self.workgroup[int(ids[0])]
        size = {"f32": 4, "i32": 4, "f64": 8, "i64": 8}.get(buf.elem, 2)
        if (mask & (off % size != 0)).any():
            raise Fault(f"a misaligned workgroup {what}")
        elem = off // size
        per_cta = int(np.prod(buf.shape[1:])) if buf.ctas > 1 else int(np.prod(buf.shape))
        if (mask & ((elem < 0) | (elem >= per_cta))).any():
            raise Fault(f"a workgroup {what} past its buffer of {per_cta} elements")
        f = np.where(mask, (rank if buf.ctas > 1 else 0) * per_cta + elem, 0)[mask]
        return buf, f, per_cta

    def _mbar_keys(self, ptr, mask, what):
        """The mbarrier (an i64 workgroup element of a CTA) each active lane's address names."""
        buf, f, per_cta = self._pointer(ptr, mask, what)
        if buf.elem != "i64":
            raise Fault(f"{what} on a workgroup buffer of {buf.elem}, not an i64 mbarrier")
        return [(self.workgroup.index(buf), int(e) // per_cta, int(e) % per_cta) for e in f]

    def _mbarrier(self, n, a, mask):
        """nvvm.mbarrier.init / arrive.expect_tx / try_wait.parity and nvvm.fence.mbarrier.init, as
        cluster-mbarrier uses them: thread 0 of each CTA initializes and arms an mbarrier before the
        start barrier; every thread waits for its phase 0 after the exchange's st.async."""
        if n == "nvvm.fence.mbarrier.init":
            ctas = set(np.unique(self.cta[mask]).tolist())
            for (_, cta, _), st in self.mbar.items():
                if cta in ctas:
                    st["fenced"] = True
            return
        if n == "nvvm.mbarrier.try_wait.parity":
            keys = self._mbar_keys(a[0], mask, "mbarrier.try_wait")
            if not mask.all():
                raise Unsupported("an mbarrier wait by part of the cluster's threads")
            phase = np.broadcast_to(np.asarray(a[1], np.int64), mask.shape)[mask]
            for key in set(keys):
                st = self.mbar.get(key)
                if st is None:
                    raise Fault("a wait on an mbarrier that was never initialized")
                want = int(np.unique(phase[[k == key for k in keys]])[0])
                if st["phase"] % 2 == want % 2 and st["phase"] <= want:
                    raise Fault(f"a wait for phase {want} of an mbarrier of CTA {key[1]} that never completes "
                                f"({st['pending']} arrivals and {st['tx']} bytes outstanding): a deadlock")
                # The completed phase orders the bytes it counted before the reads that follow.
                for buf, f in st["writes"]:
                    buf.epoch[f] = buf.cepoch[f] = buf.rel[f] = -1
                st["writes"] = []
            return
        keys = self._mbar_keys(a[0], mask, n)
        vals = np.broadcast_to(np.asarray(a[1], np.int64), mask.shape)[mask]
        if len(set(keys)) != len(keys):
            raise Fault(f"{n} by two threads on one mbarrier in one instruction")
        for key, v in zip(keys, vals):
            if n == "nvvm.mbarrier.init":
                if key in self.mbar:
                    raise Fault("an mbarrier initialized twice")
                self.mbar[key] = dict(count=int(v), pending=int(v), tx=0, phase=0, cepoch=self.cepoch,
                                      fenced=False, writes=[])
            else:  # arrive.expect_tx: the bytes, then one arrival
                st = self.mbar.get(key)
                if st is None:
                    raise Fault("an arrive on an mbarrier that was never initialized")
                st["tx"] += int(v)
                st["pending"] -= 1
                self._mbar_step(st)

    @staticmethod
    def _mbar_step(st):
        if st["pending"] < 0:
            raise Fault("more arrivals on an mbarrier than its count")
        if st["pending"] == 0 and st["tx"] < 0:
            raise Fault(f"an mbarrier received {-st['tx']} bytes more than it expects")
        if st["pending"] == 0 and st["tx"] == 0:
            st["phase"] += 1
            st["pending"] = st["count"]

    def _store_async(self, ptr, val, bar, mask):
        """st.async.shared::cluster.mbarrier::complete_tx::bytes.b32: a 32-bit value into a CTA's
        shared memory (through nvvm.mapa), its 4 bytes counted on that CTA's mbarrier. The mbarrier
        must be initialized and published to the cluster (the fence, then a cluster barrier) first."""
        buf, f, per_cta = self._pointer(ptr, mask, "st.async")
        keys = self._mbar_keys(bar, mask, "st.async")
        for key, e in zip(keys, f):
            if key[1] != int(e) // per_cta if buf.ctas > 1 else 0:
                raise Fault("st.async counts its bytes on an mbarrier of another CTA than the one it writes")
            st = self.mbar.get(key)
            if st is None or not st["fenced"] or st["cepoch"] >= self.cepoch:
                raise Fault("st.async to an mbarrier not yet initialized and published to the cluster "
                            "(mbarrier.init, fence.mbarrier_init, then a cluster barrier)")
        bits = (np.asarray(val, np.int64) & 0xFFFFFFFF).astype(np.uint32)
        v = _from_bits(bits, buf.elem) if buf.float else bits.astype(np.int64)
        self._store_pointer(ptr, v, mask)
        for key, e in zip(keys, f):
            st = self.mbar[key]
            if st["phase"]:  # motif arms an mbarrier for one phase: bytes past it are never awaited
                raise Fault(f"st.async counted on an mbarrier of CTA {key[1]} whose phase already completed "
                            "(more bytes than it expects)")
            st["writes"].append((buf, np.array([e])))
            st["tx"] -= 4
            self._mbar_step(st)

    def _unreleased(self, buf, f, w):
        """Elements another CTA wrote with no release barrier completed since (a relaxed arrive's
        barrier orders nothing): reading them is a race."""
        return (buf.writer[f] >= 0) & (buf.writer[f] // self.Tc != w // self.Tc) & (buf.rel[f] == self.rel_epoch)

    def _store_pointer(self, ptr, val, mask):
        """llvm.store to a workgroup address, in a cluster possibly another CTA's (nvvm.mapa): the
        other CTA must be known to exist (this thread passed a cluster wait: the start barrier) and
        must not be able to leave meanwhile (no store between an arrive and its wait)."""
        buf, f, per_cta = self._pointer(ptr, mask, "store")
        w = self.pos[mask]
        remote = (f // per_cta != w // self.Tc) if buf.ctas > 1 else np.zeros(f.shape, bool)
        if remote.any() and self.waits == 0:
            raise Fault("a store into another CTA's shared memory before any cluster barrier: that CTA "
                        "may not have started (a start barrier's wait must come first)")
        if remote.any() and getattr(self, "arrived", False):
            raise Fault("a store into another CTA's shared memory between a cluster arrive and its wait: "
                        "the CTA that owns it may already have left")
        v = np.broadcast_to(np.asarray(val, np.float64), mask.shape)[mask]
        other_w = (buf.epoch[f] == self.epoch) & (buf.writer[f] != w) & (buf.writer[f] >= 0)
        other_r = ((buf.read_epoch[f] == self.epoch) & (buf.reader[f] != w) & (buf.reader[f] != -1)) | \
            ((buf.remote_epoch[f] == self.cepoch) & (buf.remote_reader[f] >= 0) & (buf.remote_reader[f] != w))
        if (other_w & (buf.get(f) != v)).any() or other_r.any():
            kind = "write-after-read" if other_r.any() else "write-after-write"
            raise Fault(f"{kind} hazard on a workgroup buffer {buf.shape} (llvm.store) with no barrier between")
        buf.set(f, v)
        buf.writer[f], buf.epoch[f], buf.cepoch[f], buf.rel[f] = w, self.epoch, self.cepoch, self.rel_epoch

    def _load_pointer(self, ptr, rt, mask):
        """llvm.load of a workgroup address (of this CTA, or of CTA `rank` through nvvm.mapa)."""
        buf, f, per_cta = self._pointer(ptr, mask, "load")
        w = self.pos[mask]
        stale = (buf.cepoch[f] == self.cepoch) & (buf.writer[f] != w) & (buf.writer[f] >= 0) & \
                (buf.writer[f] // self.Tc != w // self.Tc)
        local_stale = (buf.epoch[f] == self.epoch) & (buf.writer[f] != w) & (buf.writer[f] >= 0)
        if stale.any() or local_stale.any() or self._unreleased(buf, f, w).any():
            raise Fault(f"read-after-write hazard through a cluster's shared memory (buffer {buf.shape}): "
                        f"no cluster barrier between the store and the load"
                        + ("" if stale.any() or local_stale.any() else " whose arrive releases it"))
        if getattr(self, "arrived", False) and buf.ctas > 1 and (f // per_cta != w // self.Tc).any():
            raise Fault("a read of another CTA's shared memory between a cluster arrive and its wait: "
                        "the CTA that owns it may already have left")
        buf.remote_reader[f], buf.remote_epoch[f] = w, self.cepoch
        out = np.zeros(mask.shape, np.float64)
        out[mask] = buf.get(f)
        return out

    def _when(self, buf):
        return self.epoch if buf.space == "workgroup" else self.launch

    def _warps(self, mask):
        """The block's whole warps, each the vector positions of its 32 lanes, all active (tensor-core
        instructions are warp-wide)."""
        if self.T % WARP:
            raise Fault("a tensor-core instruction in a block of a partial warp")
        if not mask.all():
            raise Fault("a warp-wide tensor-core instruction under divergent control flow")
        return [np.arange(w * WARP, (w + 1) * WARP) for w in range(self.T // WARP)]

    def _ldmatrix(self, op, a, mask):
        """nvgpu.ldmatrix (.x1/.x2/.x4, .trans): lanes 8q .. 8q+7 of a warp give the row addresses of
        8x8 matrix q (8 consecutive 16-bit elements each, 16-byte aligned); lane T receives (row T/4,
        columns 2(T%4), +1) of each matrix, or with transpose (rows 2(T%4), +1, column T/4)."""
        tiles = int(_prop(op, "numTiles").split(":")[0])
        trans = "transpose = true" in op["rest"]
        warps = self._warps(mask)
        lane = self.pos % WARP
        providers = mask & (lane < 8 * tiles)
        # A row is 16 bytes: 8 16-bit elements, or 4 32-bit ones (tf32: lane T receives element
        # (row T/4, column T%4) of each 8x4 matrix; a transpose would split them, and is refused).
        wide = _BITS.get(a[0].elem, 16) == 32
        per_row = 4 if wide else 8
        if wide and trans:
            raise Unsupported("ldmatrix .trans of 32-bit elements")
        rows = self._load(a[0], a[1:], providers, per_row, 16)  # the row each provider points at
        t = np.arange(WARP)
        out = np.zeros((self.T, tiles, 1 if wide else 2))
        for w in warps:
            mats = rows[w][:8 * tiles].reshape(tiles, 8, per_row)  # [q, row, column]
            if wide:
                out[w, :, 0] = mats[:, t // 4, t % 4].T
                continue
            for j in range(2):
                if trans:
                    out[w, :, j] = mats[:, 2 * (t % 4) + j, t // 4].T
                else:
                    out[w, :, j] = mats[:, t // 4, 2 * (t % 4) + j].T
        return out

    def _mma(self, op, a, mask, ins):
        """nvgpu.mma.sync m16n8k16 (f16/bf16 operands) or m16n8k8 (tf32: the operands' low 13 significand
        bits dropped), f32 accumulators: per warp, the fragments assembled into A (16xK), B (Kx8) and C
        (16x8) by the PTX ISA's layouts, D = A B + C with exact products summed in float64 and rounded to
        f32 once -- a model of the tensor core's accumulation, so a kernel with one is judged within
        tolerance (judged_bitwise)."""
        shape = [int(x) for x in re.search(r"mmaShape = \[(\d+), (\d+), (\d+)\]", op["rest"]).groups()]
        if shape[:2] != [16, 8] or shape[2] not in (8, 16):
            raise Unsupported(f"mma.sync shape {shape}")
        return self._mma_core(*(self._lanes(x) for x in a[:3]), shape[2], mask)

    def _nvvm_mma(self, op, a, mask):
        """nvvm.mma.sync m16n8k16 with bf16 or f16 multiplicands packed two to an i32 register (the
        low half first) and four f32 accumulators: the same fragments as nvgpu.mma.sync's."""
        m = re.search(r"shape = #nvvm.shape<m = (\d+), n = (\d+), k = (\d+)>", op["rest"])
        kinds = re.findall(r"multiplicand[AB]PtxType = #nvvm.mma_type<(\w+)>", op["rest"])
        seg = [int(x) for x in re.search(r"operandSegmentSizes = array<i32: ([\d, ]+)>", op["rest"]).group(1).split(",")]
        if not m or [int(x) for x in m.groups()] != [16, 8, 16] or seg != [4, 2, 4] or \
                len(set(kinds)) != 1 or kinds[0] not in ("bf16", "f16"):
            raise Unsupported(f"nvvm.mma.sync {m.groups() if m else '?'} {kinds} {seg}")

        ins = op["types"][0]

        def pairs(regs, types):
            # An i32 register holds a pair (f16 and bf16 after vector.bitcast), or a vector<2x...> is one.
            return np.stack([_unpack_pair(self._lanes(r), kinds[0]) if t == "i32" else self._lanes(r)
                             for r, t in zip(regs, types)], axis=1)
        A, B = pairs(a[0:4], ins[0:4]), pairs(a[4:6], ins[4:6])
        C = np.stack([self._lanes(x) for x in a[6:10]], axis=-1).reshape(self.T, 2, 2)
        D = self._mma_core(A, B, C, 16, mask)
        return [D[:, 0, 0], D[:, 0, 1], D[:, 1, 0], D[:, 1, 1]]

    def _mma_core(self, A, B, C, K, mask):
        if K == 8:
            def tf32(x):
                b = np.asarray(x, np.float64).astype(np.float32).view(np.uint32) & np.uint32(0xFFFFE000)
                return b.view(np.float32).astype(np.float64)
            A, B = tf32(A), tf32(B)
        D = np.zeros_like(C, dtype=np.float64)
        for w in self._warps(mask):
            Am, Bm, Cm = np.zeros((16, K)), np.zeros((K, 8)), np.zeros((16, 8))
            for L in range(WARP):
                g, t, l = L // 4, L % 4, w[L]
                if K == 16:
                    for r, (ro, co) in enumerate([(0, 0), (8, 0), (0, 8), (8, 8)]):
                        Am[g + ro, 2 * t + co:2 * t + co + 2] = A[l, r]
                    for r, ko in enumerate([0, 8]):
                        Bm[2 * t + ko:2 * t + ko + 2, g] = B[l, r]
                else:
                    for r, (ro, co) in enumerate([(0, 0), (8, 0), (0, 4), (8, 4)]):
                        Am[g + ro, t + co] = A[l, r].reshape(-1)[0]
                    for r, ko in enumerate([0, 4]):
                        Bm[t + ko, g] = B[l, r].reshape(-1)[0]
                for r, ro in enumerate([0, 8]):
                    Cm[g + ro, 2 * t:2 * t + 2] = C[l, r]
            Dm = _f32(Am @ Bm + Cm)
            for L in range(WARP):
                g, t, l = L // 4, L % 4, w[L]
                for r, ro in enumerate([0, 8]):
                    D[l, r] = Dm[g + ro, 2 * t:2 * t + 2]
        return D

    def _async_copy(self, op, a, mask):
        """cp.async of dstElements consecutive elements (the source's first srcElements, zeros after):
        the source is read now; the destination holds NaN until a wait retires the copy's group (so a
        read before it shows), then the values, as a store by the issuing thread."""
        seg = [int(x) for x in re.search(r"operandSegmentSizes = array<i32: ([\d, ]+)>", op["rest"]).group(1).split(",")]
        n = int(_prop(op, "dstElements").split(":")[0])
        dst, didx = a[0], a[1:1 + seg[1]]
        src, sidx = a[1 + seg[1]], a[2 + seg[1]:2 + seg[1] + seg[3]]
        count = np.broadcast_to(np.asarray(a[-1], np.int64), mask.shape) if seg[4] else np.full(mask.shape, n)
        size = {"f32": 4, "i32": 4, "f64": 8}.get(dst.elem, 2)
        f, w = self._access(dst, didx, mask, n, n * size)
        # The source: only its first `count` elements are read (a partial copy zero-fills).
        m2 = mask & (count > 0)
        vals = np.zeros((int(mask.sum()), n))
        if m2.any():
            sflat = self._index(src, sidx, m2, 1)
            base = sflat[mask]
            cnt = count[mask]
            for j in range(n):
                on = cnt > j
                if on.any():
                    last = np.asarray(sidx[-1], np.int64)
                    last = np.broadcast_to(last, mask.shape)[mask]
                    if (on & (last + j >= src.shape[-1])).any():
                        raise Fault(f"cp.async reads past the source's last dim ({src.shape})")
                    vals[on, j] = src.get(base[on] + j)
        dst.set(f, np.nan)
        self.pending.append((dst, f, vals.reshape(-1), w))

    def _land(self, copies):
        for dst, f, v, w in copies:
            dst.set(f, v)
            dst.writer[f], dst.epoch[f] = w, self.epoch
            dst.cepoch[f] = self.cepoch
            dst.rel[f] = getattr(self, "rel_epoch", 0)

    def _load(self, buf, idx, mask, n=0, align=0):
        """memref.load (n = 0: a scalar per lane) or vector.load of n elements along the last dim."""
        f, w = self._access(buf, idx, mask, n, align)
        when = self._when(buf)
        stale = (buf.epoch[f] == when) & (buf.writer[f] != w) & (buf.writer[f] >= 0)
        if buf.space == "workgroup" and buf.ctas > 1:
            stale |= self._unreleased(buf, f, w)
        if stale.any():
            raise Fault(f"read-after-write hazard on a {buf.space} buffer {buf.shape}: element "
                        f"{int(f[stale][0])} written by {int(buf.writer[f][stale][0])} and read by "
                        f"{int(w[stale][0])} with no barrier between" if buf.space == "workgroup" else
                        f"a global element {int(f[stale][0])} of {buf.shape} written by block "
                        f"{int(buf.writer[f][stale][0])} and read by block {int(w[stale][0])} in one launch")
        self._note_readers(buf, f, w, when)
        out = np.zeros(mask.shape + ((n,) if n else ()), np.float64 if buf.float else np.int64)
        out[mask] = buf.get(f).reshape((-1, n) if n else (-1,))
        return out

    @staticmethod
    def _note_readers(buf, f, w, when):
        """Remembers who read each element since the last barrier: one thread, or -2 for several (a
        later store by any thread is then a write-after-read hazard)."""
        if not f.size:
            return
        order = np.argsort(f, kind="stable")
        fs, ws = f[order], w[order]
        first = np.r_[True, fs[1:] != fs[:-1]]
        uf = fs[first]
        lo = np.minimum.reduceat(ws, np.flatnonzero(first))
        hi = np.maximum.reduceat(ws, np.flatnonzero(first))
        mine = np.where(lo == hi, lo, -2)
        prev = np.where(buf.read_epoch[uf] == when, buf.reader[uf], -1)
        buf.reader[uf] = np.where((prev == -1) | (prev == mine), mine, -2)
        buf.read_epoch[uf] = when

    def _access(self, buf, idx, mask, n, align):
        """Flat element indices (and accessor ids) of the active lanes' accesses: a scalar each, or n
        consecutive elements along the last dim (their bounds and their alignment checked)."""
        flat = self._index(buf, idx, mask, max(n, 1))
        who = self._who(buf)
        if align:
            size = {"f32": 4, "i32": 4, "f64": 8, "i64": 8, "index": 8}.get(buf.elem, 2)
            inner = flat % (int(np.prod(buf.shape[1:])) if buf.ctas > 1 else max(int(np.prod(buf.shape)), 1))
            bad = mask & ((inner * size) % align != 0)
            if bad.any():
                raise Fault(f"a misaligned {align}-byte vector access to a {buf.space} buffer {buf.shape} "
                            f"at element {int(inner[bad][0])}")
        if not n:
            return flat[mask], who[mask]
        return (flat[mask][:, None] + np.arange(n)).reshape(-1), np.repeat(who[mask], n)

    def _store(self, buf, idx, val, mask, n=0, align=0):
        f, w = self._access(buf, idx, mask, n, align)
        when = self._when(buf)
        val = np.asarray(val)
        v = np.broadcast_to(val, mask.shape + ((n,) if n else ()))[mask].reshape(-1)
        # Two lanes of one instruction storing different values to one element.
        order = np.argsort(f, kind="stable")
        fs, vs = f[order], v[order]
        dup = fs[1:] == fs[:-1]
        if dup.any():
            a, b = vs[1:][dup], vs[:-1][dup]
            same = (a == b) | (np.isnan(a) & np.isnan(b))
            if not same.all():
                raise Fault(f"two threads store different values to element {int(fs[1:][dup][~same][0])} "
                            f"of a {buf.space} buffer {buf.shape} in one instruction")
        other_w = (buf.epoch[f] == when) & (buf.writer[f] != w) & (buf.writer[f] >= 0)
        other_r = (buf.read_epoch[f] == when) & (buf.reader[f] != w) & (buf.reader[f] != -1)
        if buf.space == "workgroup":
            # Read by another CTA (mapa) since the last cluster barrier.
            other_r |= (buf.remote_epoch[f] == self.cepoch) & (buf.remote_reader[f] >= 0) & \
                (buf.remote_reader[f] // self.Tc != w // self.Tc)
        if (other_w & (buf.get(f) != v)).any() or other_r.any():
            kind = "write-after-read" if other_r.any() else "write-after-write"
            raise Fault(f"{kind} hazard on a {buf.space} buffer {buf.shape} with no barrier between"
                        if buf.space == "workgroup" else
                        f"{kind} hazard on a global buffer {buf.shape} between blocks of one launch")
        buf.set(f, v)
        buf.writer[f], buf.epoch[f] = w, when
        if buf.space == "workgroup":
            buf.cepoch[f] = self.cepoch
            buf.rel[f] = getattr(self, "rel_epoch", 0)

    def _for(self, op, a, env, mask):
        lb, ub, step = (np.broadcast_to(np.asarray(x, np.int64), mask.shape) for x in a[:3])
        carried = [self._lanes(x).copy() for x in a[3:]]
        params, _, body = op["regions"][0]
        if (step[mask] <= 0).any():
            raise Fault("scf.for with a step <= 0")
        trips = np.where(mask, np.maximum(0, -(-(ub - lb) // np.maximum(step, 1))), 0)
        for k in range(int(trips.max()) if trips.size else 0):
            live = mask & (k < trips)
            env[params[0]] = lb + k * step
            for p, c in zip(params[1:], carried):
                env[p] = c
            ys = self._exec(body, env, live)
            carried = [_select(live, self._lanes(y), c) for y, c in zip(ys, carried)]
        if op["nres"] == 0:
            return None
        return carried[0] if op["nres"] == 1 else carried

    def _shuffle(self, op, a, mask):
        mode = re.search(r"shuffle_mode (\w+)", op["rest"]).group(1)
        v = np.broadcast_to(np.asarray(a[0]), mask.shape)
        off = np.broadcast_to(np.asarray(a[1], np.int64), mask.shape)
        width = np.broadcast_to(np.asarray(a[2], np.int64), mask.shape)
        lane = self.pos % WARP
        base = self.pos - lane
        # Within segments of `width` lanes (the PTX c operand's clamp).
        seg = lane - lane % width
        if mode == "xor":
            src = lane ^ off
            ok = (src // width) == (lane // width)
        elif mode == "down":
            src = lane + off
            ok = src < seg + width
        elif mode == "up":
            src = lane - off
            ok = src >= seg
        elif mode == "idx":
            src = seg + off
            ok = off < width
        else:
            raise Unsupported(f"shuffle mode {mode}")
        src_t = np.where(ok, base + src, self.pos)
        exists = src_t < self.T
        if (mask & ok & ~exists).any():
            raise Fault("gpu.shuffle reads a lane past the block (a partial warp)")
        src_t = np.where(exists, src_t, self.pos)
        if (mask & ok & ~mask[src_t]).any():
            raise Fault("gpu.shuffle reads an inactive lane")
        return [np.where(ok, v[src_t], v), np.where(ok, -1, 0).astype(np.int64)]

    def _arith(self, n, op, a, ins, rt):
        # Elementwise on vectors: the element type decides the rounding.
        rt = _vector_elem(rt) if rt and rt.startswith("vector<") else rt
        ins = [_vector_elem(t) if t.startswith("vector<") else t for t in ins]

        def fl(x):
            return np.asarray(x, np.float64)
        if n in ("arith.addf", "arith.subf", "arith.mulf", "arith.divf"):
            f = {"arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply,
                 "arith.divf": np.divide}[n]
            with np.errstate(all="ignore"):
                if rt == "f64":
                    return f(fl(a[0]), fl(a[1]))
                # In float (correctly rounded), then once to a 16-bit result type.
                r = f(fl(a[0]).astype(np.float32), fl(a[1]).astype(np.float32)).astype(np.float64)
            return _round(r, rt)
        if n in ("arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf"):
            x, y = fl(a[0]), fl(a[1])
            if n == "arith.maximumf":
                r = np.where(np.isnan(x) | np.isnan(y), np.nan, np.where((x == y) & (x == 0),
                             np.where(np.signbit(x), y, x), np.maximum(x, y)))
            elif n == "arith.minimumf":
                r = np.where(np.isnan(x) | np.isnan(y), np.nan, np.where((x == y) & (x == 0),
                             np.where(np.signbit(x), x, y), np.minimum(x, y)))
            else:
                r = (np.fmax if n == "arith.maxnumf" else np.fmin)(x, y)
            return _round(r, rt)
        if n == "arith.negf":
            return -fl(a[0])
        if n == "math.absf":
            return np.abs(fl(a[0]))
        if n == "arith.extf":
            return fl(a[0])
        if n == "arith.truncf":
            return _round_half(fl(a[0]), rt) if rt in ("bf16", "f16") else _round(a[0], rt)
        if n == "math.fma":
            x, y, z = fl(a[0]), fl(a[1]), fl(a[2])
            if rt in ("bf16", "f16"):
                with np.errstate(all="ignore"):
                    return _round_half(x * y + z, rt)  # in double, rounded once
            if rt == "f32":
                x, y, z = np.broadcast_arrays(x, y, z)
                return np.asarray(_libm_f("fmaf")(x, y, z), np.float64)
            x, y, z = np.broadcast_arrays(x, y, z)
            return np.asarray(_libm_f("fma")(x, y, z), np.float64)
        if n == "math.sqrt":
            with np.errstate(all="ignore"):
                if rt == "f64":
                    return np.sqrt(fl(a[0]))
                return _round(np.sqrt(fl(a[0]).astype(np.float32)).astype(np.float64), rt)
        if n == "math.rsqrt":
            with np.errstate(all="ignore"):
                if rt == "f64":
                    return 1.0 / np.sqrt(fl(a[0]))
                r = (np.float32(1) / np.sqrt(fl(a[0]).astype(np.float32))).astype(np.float64)
            return _round(r, rt)
        if n in _MATH1 or n in _MATH2:
            base = _MATH1.get(n) or _MATH2[n]
            args = [fl(x) for x in a[:1 if n in _MATH1 else 2]]
            if rt == "f64":
                return np.asarray(_libm_f(base)(*np.broadcast_arrays(*args)), np.float64)
            args = [x.astype(np.float32) for x in np.broadcast_arrays(*args)]
            return _round(np.asarray(_libm_f(base + "f")(*args), np.float64), rt)
        if n in ("math.isnan", "math.isinf", "math.isfinite"):
            f = {"math.isnan": np.isnan, "math.isinf": np.isinf, "math.isfinite": np.isfinite}[n]
            return np.where(f(fl(a[0])), -1, 0).astype(np.int64)
        if n == "math.fpowi":
            # pow(x, n) with n an integer (the evaluator: powf of the float of n, odd powers keep the sign)
            wide = rt == "f64"
            n = np.asarray(a[1], np.int64)
            x = fl(a[0]) if wide else fl(a[0]).astype(np.float32)
            x, e = np.broadcast_arrays(x, n.astype(x.dtype))
            r = np.asarray(_libm_f("pow" if wide else "powf")(x, e), np.float64)
            r = np.where((np.broadcast_to(n, r.shape) & 1).astype(bool) & np.signbit(x) & ~np.signbit(r), -r, r)
            return r if wide else _round(r, rt)
        if n in ("arith.fptosi", "arith.fptoui"):
            # Toward zero; out of range saturates and NaN gives 0 (PTX cvt.rzi, as the evaluator).
            x = np.trunc(fl(a[0]))
            b = _int_bits(rt)
            lo, hi = (-(2.0 ** (b - 1)), 2.0 ** (b - 1) - 1) if n == "arith.fptosi" else (0.0, 2.0 ** b - 1)
            r = np.where(np.isnan(x), 0, np.clip(x, lo, hi))
            return _wrap(r.astype(np.float64).astype(np.int64) if b < 64 else r.astype(np.int64), rt)
        if n == "arith.cmpf":
            p = _CMPF[int(_prop(op, "predicate").split(":")[0])]
            x, y = fl(a[0]), fl(a[1])
            uno = np.isnan(x) | np.isnan(y)
            base = {"eq": x == y, "gt": x > y, "ge": x >= y, "lt": x < y, "le": x <= y, "ne": x != y}
            if p in ("false", "true"):
                r = np.full(np.broadcast(x, y).shape, p == "true")
            elif p == "ord":
                r = ~uno
            elif p == "uno":
                r = uno
            elif p[0] == "o":
                r = ~uno & base[p[1:]]
            else:
                r = uno | base[p[1:]]
            return np.where(r, -1, 0).astype(np.int64)
        if n == "arith.select":
            return _select(np.asarray(a[0]) != 0, np.asarray(a[1]), np.asarray(a[2]))
        if n == "arith.cmpi":
            p = _CMPI[int(_prop(op, "predicate").split(":")[0])]
            t = ins[0]
            if p[0] == "u":
                x, y = _unsigned(a[0], t), _unsigned(a[1], t)
                p = p[1:]
            else:
                x, y = _wrap(a[0], t), _wrap(a[1], t)
                p = {"eq": "eq", "ne": "ne"}.get(p, p[1:])
            r = {"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y}[p]
            return np.where(r, -1, 0).astype(np.int64)
        if n in ("arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori", "arith.xori",
                 "arith.shli"):
            x, y = np.asarray(a[0], np.int64), np.asarray(a[1], np.int64)
            with np.errstate(all="ignore"):
                r = {"arith.addi": lambda: x + y, "arith.subi": lambda: x - y, "arith.muli": lambda: x * y,
                     "arith.andi": lambda: x & y, "arith.ori": lambda: x | y, "arith.xori": lambda: x ^ y,
                     "arith.shli": lambda: x << y}[n]()
            return _wrap(r, rt)
        if n in ("arith.divui", "arith.remui", "arith.minui", "arith.maxui", "arith.shrui"):
            x, y = _unsigned(a[0], rt), _unsigned(a[1], rt)
            if n in ("arith.divui", "arith.remui") and (np.asarray(y) == 0).any():
                raise Fault(f"{n} by zero")
            r = {"arith.divui": lambda: x // np.maximum(y, np.uint64(1)), "arith.remui": lambda: x % np.maximum(y, np.uint64(1)),
                 "arith.minui": lambda: np.minimum(x, y), "arith.maxui": lambda: np.maximum(x, y),
                 "arith.shrui": lambda: x >> y}[n]()
            return _wrap(r.astype(np.int64), rt)
        if n in ("arith.divsi", "arith.remsi", "arith.minsi", "arith.maxsi", "arith.floordivsi",
                 "arith.ceildivsi"):
            x, y = _wrap(a[0], rt), _wrap(a[1], rt)
            if n in ("arith.divsi", "arith.remsi", "arith.floordivsi", "arith.ceildivsi") and (np.asarray(y) == 0).any():
                raise Fault(f"{n} by zero")
            ys = np.where(y == 0, 1, y)
            q = np.trunc(x / ys).astype(np.int64)
            r = {"arith.divsi": lambda: q, "arith.remsi": lambda: x - q * ys,
                 "arith.minsi": lambda: np.minimum(x, y), "arith.maxsi": lambda: np.maximum(x, y),
                 "arith.floordivsi": lambda: x // ys, "arith.ceildivsi": lambda: -((-x) // ys)}[n]()
            return _wrap(r, rt)
        if n in ("arith.index_cast", "arith.extsi", "arith.trunci"):
            return _wrap(a[0], rt)
        if n == "arith.index_castui":
            return _wrap(_unsigned(a[0], ins[0]).astype(np.int64), rt)
        if n == "arith.extui":
            return _wrap(_unsigned(a[0], ins[0]).astype(np.int64), rt)
        if n == "arith.bitcast":
            return _from_bits(_to_bits(np.asarray(a[0]), ins[0]), rt)
        if n in ("arith.sitofp", "arith.uitofp"):
            x = _wrap(a[0], ins[0]) if n == "arith.sitofp" else _unsigned(a[0], ins[0])
            return _round(x.astype(np.float64), rt)
        raise Unsupported(f"op {n}")


# ----------------------------------------------------------------------------- driver
def _tool(name):
    tool = build_tool(name)
    if tool is None:
        raise FileNotFoundError(f"{name} is not built (MOTIF_BUILD_DIR)")
    return str(tool)


def lower(path, chip="sm_90", options=""):
    """The gpu form of a motif program, as convert-motif-to-gpu (chip, and `options`, space-separated
    key=value) + canonicalize + cse print it."""
    p = subprocess.run([_tool("motif-opt"), str(path), f"--pass-pipeline=builtin.module(convert-motif-to-gpu"
                        f"{{chip={chip} {options}}},gpu.module(canonicalize,cse))", "--mlir-print-op-generic"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise Unsupported(f"motif-opt failed: {p.stderr.strip()[:300]}")
    return p.stdout


def _input_types(path, function):
    """The element types and shapes of @function's arguments and results, from the motif program."""
    text = Path(path).read_text()
    m = re.search(r"func\.func @" + re.escape(function) + r"\((.*?)\)\s*->\s*\(?(.*?)\)?\s*\{", text, re.S)
    if not m or "\n//" in m.group(0):
        raise Unsupported(f"no function @{function} with tensor results in {path}")
    args = re.findall(r"tensor<([^>]*)>", m.group(1))
    res = re.findall(r"tensor<([^>]*)>", m.group(2))

    def split(t):
        parts = t.split("x")
        return tuple(-1 if d == "?" else int(d) for d in parts[:-1]), parts[-1]
    return [split(t) for t in args], [split(t) for t in res]


def random_inputs(arg_types, rng):
    """normal(0, 1) inputs of each argument's type (never zero), as float64."""
    out = []
    if sum(int(np.prod(shape, dtype=np.float64)) for shape, _ in arg_types) > MAX_ELEMENTS:
        raise Unsupported(f"inputs of more than {MAX_ELEMENTS} elements")
    # One runtime row count for every `?` of the function (docs/dialect.md, "Runtime row counts").
    rows = int(rng.choice([1, 3, 37, 64, 129]))
    arg_types = [(tuple(rows if d == -1 else d for d in shape), t) for shape, t in arg_types]
    for shape, t in arg_types:
        x = rng.standard_normal(shape)
        x[x == 0] = 0.5
        x = _round(x, t) if t != "f64" else x
        x[x == 0] = 0.5
        out.append(np.asarray(x, np.float64))
    return out


def schedule_model(path, function, inputs, workdir):
    """The schedule model's outputs (motif-equiv --run --model=schedule) on `inputs`."""
    files = []
    for k, x in enumerate(inputs):
        f = Path(workdir) / f"in{k}.npy"
        np.save(f, np.asarray(x, np.float32))  # half and f32 values are f32 values exactly
        files.append(str(f))
    dump = Path(workdir) / "out"
    p = subprocess.run([_tool("motif-equiv"), "--run", str(path), f"--function={function}", "--model=schedule",
                        "--inputs=" + ",".join(files), f"--dump={dump}"], capture_output=True, text=True)
    if p.returncode != 0:
        raise Unsupported(f"motif-equiv failed: {p.stderr.strip()[:300]}")
    count = len(list(dump.glob("out*.npy"))) // 2
    return ([np.load(dump / f"out{k}.npy").astype(np.float64) for k in range(count)],
            [np.load(dump / f"out{k}.f64.npy").astype(np.float64) for k in range(count)])


def judged_bitwise(path, lowered=None):
    """Whether `compare` holds the program to the schedule model's bits, else to its tolerance: an
    online contraction (the flash form) or a contraction on tensor cores (whose accumulation order the
    emulator models, not knows)."""
    if "motif.online_contract" in Path(path).read_text():
        return False
    return lowered is None or ('"nvgpu.mma.sync"' not in lowered and '"nvvm.mma.sync"' not in lowered)


def compare(path, function="f", seed=None, workdir=None, lowered=None, report=None, options=""):
    """Emulates `function` of the motif program at `path` and compares it with the schedule model on
    fresh inputs: bit for bit, or -- for a motif.online_contract, whose flash form rescales and takes
    exp as exp2 of a folded scale, which the schedule model does not follow op for op (class
    tolerance) -- within 8x the schedule model's own error against the float64 meaning. Returns a list
    of differences (empty: equal); raises Unsupported or Fault. `lowered` replaces the program's gpu
    form (a test plants defects in it)."""
    rng = np.random.default_rng(seed)
    arg_types, _ = _input_types(path, function)
    inputs = random_inputs(arg_types, rng)
    if lowered is None:
        chip = re.search(r"^// motif-chip: (\w+)", Path(path).read_text(), re.M)
        lowered = lower(path, chip.group(1) if chip else "sm_90", options)
    emu = Emulator(parse_module(lowered), seed=0)
    try:
        got = emu.run_host(function, inputs)
    except (Fault, Unsupported):
        raise
    except (ValueError, KeyError, IndexError, AttributeError, TypeError) as e:
        # A form of an op the emulator does not read: said so, never passed.
        raise Unsupported(f"the emulator cannot run it ({type(e).__name__}: {str(e)[:200]})") from e
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        want, meaning = schedule_model(path, function, inputs, tmp)
    tolerance = not judged_bitwise(path, lowered)
    if report is not None:
        report["bitwise"] = not tolerance
    problems = []
    for k, (g, w, m) in enumerate(zip(got, want, meaning)):
        g = g.reshape(w.shape)
        unwritten = np.isnan(g) & ~np.isnan(w)
        if unwritten.any():
            problems.append(f"output #{k}: {int(unwritten.sum())} element(s) never stored")
            continue
        if tolerance:
            scale = max(float(np.max(np.abs(m))) if m.size else 0.0, 1.0)
            err, own = (float(np.max(np.abs(x - m))) if m.size else 0.0 for x in (g, w))
            if not err <= max(8 * own, 2.0 ** -22 * scale):
                problems.append(f"output #{k}: off the float64 meaning by {err / scale:.3g} (normwise), the "
                                f"schedule model by {own / scale:.3g}")
            continue
        diff = ~((g == w) | (np.isnan(g) & np.isnan(w))) | (np.signbit(g) != np.signbit(w))
        if diff.any():
            i = np.flatnonzero(diff.reshape(-1))[0]
            problems.append(f"output #{k}: {int(diff.sum())} of {w.size} element(s) differ from the schedule "
                            f"model, e.g. [{i}] {g.reshape(-1)[i]!r} vs {w.reshape(-1)[i]!r}")
    return problems


class _Timeout(Exception):
    pass


def run_directory(root, seconds=30.0, log=None, seed=None, options=""):
    """Every form (unfused, fused, hand) of every program `root`/p<i> that motif-fuzz gen wrote, each
    against the schedule model on fresh inputs; a tally, and the failing ones. Exit status 1 when a
    form differs or faults."""
    import signal
    import time

    def alarm(*_):
        raise _Timeout()
    signal.signal(signal.SIGALRM, alarm)
    dirs = sorted((p for p in Path(root).iterdir() if re.fullmatch(r"p\d+", p.name)), key=lambda p: int(p.name[1:]))
    tally = {"pass": 0, "differ": 0, "fault": 0, "unsupported": 0, "timeout": 0}
    failures = []
    start = time.time()
    out = open(log, "w") if log else None
    for n, pdir in enumerate(dirs):
        for form in ("unfused", "fused", "hand"):
            path = pdir / f"{form}.mlir"
            if not path.is_file():
                continue
            signal.setitimer(signal.ITIMER_REAL, seconds)
            try:
                problems = compare(path, "f", None if seed is None else seed + n, options=options)
                kind, detail = ("differ", "; ".join(problems)) if problems else ("pass", "")
            except Unsupported as e:
                kind, detail = "unsupported", str(e)
            except Fault as e:
                kind, detail = "fault", str(e)
            except _Timeout:
                kind, detail = "timeout", f"over {seconds} s"
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            tally[kind] += 1
            line = f"{pdir.name}/{form}: {kind}" + (f": {detail}" if detail else "")
            if out:
                print(line, file=out, flush=True)
            if kind in ("differ", "fault"):
                failures.append(line)
                print(f"[emulator] {line}", file=sys.stderr)
        if (n + 1) % 25 == 0:
            print(f"[emulator] {n + 1}/{len(dirs)} programs ({time.time() - start:.0f} s), "
                  f"{len(failures)} failing", file=sys.stderr)
    print(f"emulator: {len(dirs)} programs in {time.time() - start:.0f} s")
    for k, v in tally.items():
        print(f"  {k:12} {v}")
    return 1 if failures else 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m motif.emulator", description=__doc__.split("\n")[0])
    ap.add_argument("program", help="a motif program, or a directory motif-fuzz gen wrote")
    ap.add_argument("--function", default="f")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=30.0, help="per form, with a directory")
    ap.add_argument("--log", default=None, help="with a directory: one line per form")
    ap.add_argument("--lower-options", default="",
                    help="convert-motif-to-gpu options, space-separated key=value (e.g. cluster-mbarrier=true)")
    args = ap.parse_args(argv)
    if Path(args.program).is_dir():
        return run_directory(args.program, args.seconds, args.log, args.seed, args.lower_options)
    report = {}
    for r in range(args.runs):
        try:
            problems = compare(args.program, args.function, None if args.seed is None else args.seed + r,
                               report=report, options=args.lower_options)
        except Unsupported as e:
            print(f"emulator: unsupported: {e}")
            return 3
        except Fault as e:
            print(f"emulator: FAULT: {e}")
            return 1
        if problems:
            for p in problems:
                print(f"emulator: DIFF: {p}")
            return 1
    how = "bit for bit with" if report.get("bitwise", True) else "within the tolerance of"
    print(f"emulator: PASS ({args.runs} run(s), {how} the schedule model)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
