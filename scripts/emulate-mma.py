#!/usr/bin/env python3
"""Runs the gpu.func of a tensor-core kernel on the CPU, all threads of a block in lock step.

    motif-opt prog.mlir --pass-pipeline='builtin.module(convert-motif-to-gpu,gpu.module(canonicalize,cse))' \
        --mlir-print-op-generic -o k.mlir
    scripts/emulate-mma.py k.mlir [--seed S]

Random inputs (bf16/f16 operands, or f32 ones for tf32), the kernel's output against float64 A.B:
prints the normwise error and exits 1 past --rtol or on an unwritten (NaN) element. With --tf32-model
the reference is float64 rna(A).rna(B) instead, A and B rounded to tf32 as cvt.rna.tf32.f32 does (what
motif's evaluator models): only the f32 accumulation differs, so a tight --rtol catches a kernel that
rounds its operands another way, or not at all. With --attention SCALE the kernel is a
motif.online_contract (the flash form on tensor cores): inputs q, k, v, the output against float64
softmax(SCALE q k^T) v per batch index. It checks what the emitter computes from
addresses and fragments, with the semantics of the PTX ISA taken independently of the emitter:

* ldmatrix .x1/.x2/.x4: lanes 8q .. 8q+7 give the row addresses of matrix q; lane T receives
  (row T/4, columns 2 (T%4), +1) of each matrix, or with .trans (rows 2 (T%4), +1, column T/4);
* mma.sync m16n8k16 .row.col: A regs (g, 2t) (g+8, 2t) (g, 2t+8) (g+8, 2t+8), B regs (k = 2t, n = g)
  (k = 2t+8, n = g), C/D (g, 2t) (g, 2t+1) (g+8, 2t) (g+8, 2t+1), g = lane/4, t = lane%4;
* mma.sync m16n8k8 .tf32 (nvgpu.mma.sync tf32Enabled): A regs (g, t) (g+8, t) (g, t+4) (g+8, t+4),
  B regs (k = t, n = g) (k = t+4, n = g), C/D as m16n8k16; the instruction reads only the upper 19
  bits of each operand (the low 13 significand bits are dropped: truncation);
* ldmatrix on 32-bit elements moves b16 pairs: lane T receives f32 (row T/4, column T%4) of each
  8x4 matrix (.trans would split the elements, and is refused);
* cvt.rna.tf32.f32 (nvvm.convert.float.to.tf32, rnd = rna): to nearest, ties away from zero;
* shared-memory banks: it counts the ldmatrix matrices whose 8 row addresses do not fall in 8
  different 16-byte bank groups (buffers taken 128-byte aligned), printed next to the error;
* cp.async lands as late as allowed: when a wait_group retires its group (shared memory starts as
  NaN), so a read before the wait sees NaN; a source size of 0 zero-fills;
* shuffle xor within 32 lanes; f32 arithmetic rounded to f32, exp2 exact.

Barriers are not modelled (lock step makes every store visible at once). Only the ops motif's
tensor-core lowering emits are known; anything else is an error.

A kernel with `nvvm.cluster_dim` (motif.kernel ... cluster(k); docs/lowering.md, "Clusters") runs
its k CTAs in lock step together: gpu.thread_id is the thread's id in its CTA, gpu.block_id the CTA's,
gpu.cluster_block_id the CTA's rank, gpu.cluster_id the cluster's; every workgroup buffer is one per CTA, and nvvm.mapa + llvm.load read (llvm.store
writes: cluster-push) the buffer of the CTA the rank names (addresses: memref.extract_aligned_pointer_as_index gives each buffer its own base). With
--compare OTHER the same inputs run through a second kernel (the same program without the cluster,
say) and the outputs must be equal bit for bit; with --softmax the output is checked against float64
softmax over the last dim instead of A.B.
"""
import argparse
import re
import sys

import numpy as np

OP = re.compile(r'^\s*(?:(%[\w]+)(?::(\d+))? = )?"([\w.]+)"\((.*?)\)(.*)$')
BLOCK = re.compile(r'^\s*\^bb\d+\((.*)\):\s*$')


def tf32_rna(x):
    """cvt.rna.tf32.f32: to the nearest tf32 (10 stored significand bits), ties away from zero."""
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x1000) & 0xFFFFE000
    return b.astype(np.uint32).view(np.float32)


def tf32_truncate(x):
    """What mma.sync .tf32 reads of an f32 register: the low 13 significand bits dropped."""
    b = np.asarray(x, np.float32).view(np.uint32) & np.uint32(0xFFFFE000)
    return b.view(np.float32)


def bf16_round(x):
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    b = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) << 16
    return b.astype(np.uint32).view(np.float32)


def mma_m16n8(T, K, C, place):
    """mma.sync m16n8kK of every warp of T threads: place(Am, Bm, g, t, lane) writes the lane's A and B
    fragments into the warp's 16xK and Kx8 matrices (g = lane / 4, t = lane % 4); C and the result are
    the accumulator fragments (c0, c1 at row g, columns 2t, 2t+1; c2, c3 at row g+8), f32-rounded."""
    acc = [(0, 0), (0, 1), (8, 0), (8, 1)]
    D = [np.zeros(T) for _ in range(4)]
    for w in range(T // 32):
        lanes = np.arange(32) + 32 * w
        Am, Bm, Cm = np.zeros((16, K)), np.zeros((K, 8)), np.zeros((16, 8))
        for L in range(32):
            g, t, l = L // 4, L % 4, lanes[L]
            place(Am, Bm, g, t, l)
            for reg, (ro, co) in enumerate(acc):
                Cm[g + ro, 2 * t + co] = C[reg][l]
        Dm = (Am @ Bm + Cm).astype(np.float32)
        for L in range(32):
            g, t, l = L // 4, L % 4, lanes[L]
            for reg, (ro, co) in enumerate(acc):
                D[reg][l] = Dm[g + ro, 2 * t + co]
    return D


def parse(lines, i, stop):
    """Ops until a line starting with one of `stop`; returns (ops, index of that line)."""
    ops = []
    while i < len(lines):
        line = lines[i]
        s = line.strip()
        if any(s.startswith(t) for t in stop):
            return ops, i
        m = OP.match(line)
        if not m:
            raise SystemExit(f"emulate-mma: cannot parse line {i + 1}: {s[:120]}")
        res, nres, name, args, rest = m.groups()
        op = dict(name=name, res=res, nres=int(nres) if nres else (1 if res else 0),
                  args=[a.strip() for a in args.split(",") if a.strip()], rest=rest, regions=[])
        i += 1
        if rest.rstrip().endswith("({"):
            while True:
                bm = BLOCK.match(lines[i])
                params = []
                if bm:
                    params = [p.split(":")[0].strip() for p in bm.group(1).split(", ") if p.strip()]
                    i += 1
                body, i = parse(lines, i, ("})", "}, {"))
                op["regions"].append((params, body))
                end = lines[i].strip()
                op["rest"] = rest + " " + end
                i += 1
                if end.startswith("}, {"):
                    continue
                break
        ops.append(op)
    return ops, i


def props(op):
    return op["rest"]


def prop_int(op, key):
    m = re.search(key + r" = (-?\d+)", props(op))
    return int(m.group(1)) if m else None


def shape_of(t):
    m = re.match(r"(?:memref|vector)<([\dx]+)x(\w+)", t)
    return [int(d) for d in m.group(1).split("x")], m.group(2)


class Emulator:
    def __init__(self, func, inputs, grid):
        self.func, self.inputs, self.grid = func, inputs, grid
        m = re.search(r"known_block_size = array<i32: (\d+)", func["rest"])
        # A cluster's CTAs run together: T lanes, CTA c holding lanes c*Tc .. (c+1)*Tc - 1.
        c = re.search(r"nvvm.cluster_dim = array<i32: (\d+), 1, 1>", func["rest"])
        self.K = int(c.group(1)) if c else 1
        self.Tc = int(m.group(1))
        self.T = self.K * self.Tc
        self.cta = np.arange(self.T) // self.Tc
        # Workgroup buffers of a cluster kernel by address base (see `pointer`).
        self.bases = []
        # ldmatrix 8x8 matrices read, and those whose 8 row addresses (16 bytes each) do not fall in
        # 8 different 16-byte bank groups of a 128-byte line (the buffer taken 128-byte aligned):
        # shared memory serves those in more than one wavefront.
        self.matrices = self.conflicted = 0

    def bank_check(self, buf, rows, elem_bytes):
        """Counts one ldmatrix matrix whose rows start at the buffer indices `rows`."""
        groups = {(int(np.ravel_multi_index(tuple(at), buf.shape)) * elem_bytes // 16) % 8 for at in rows}
        self.matrices += 1
        self.conflicted += len(groups) < len(rows)

    def run(self):
        params, body = self.func["regions"][0]
        sig = re.search(r"function_type = \((.*?)\) -> \(\)", self.func["rest"]).group(1)
        types = re.findall(r"memref<[^>]*>", sig)
        wg = re.findall(r"memref<[^>]*#gpu.address_space<workgroup>>", self.func["rest"] + " ".join(
            str(r) for r in params))
        nparams = len(types)
        out_shape, _ = shape_of(types[-1])
        self.out = np.full(out_shape, np.nan, np.float64)
        self.globals = list(self.inputs) + [self.out]
        for b in range(self.grid // self.K):
            env = {}
            for k, p in enumerate(params[:nparams]):
                env[p] = ("mem", self.globals[k])
            # workgroup attributions: shapes from the block argument types
            bm = re.findall(r"(%arg\d+): (memref<[^>]*workgroup>>)", self.block_sig)
            for name, t in bm:
                env[name] = self.workgroup(t)
            self.block = b
            self.pending, self.groups = [], []
            self.exec(body, env, np.ones(self.T, bool))
        return self.out

    def workgroup(self, t):
        """A fresh workgroup buffer of type `t` (NaN): one per CTA in a cluster kernel."""
        shp, el = shape_of(t)
        if self.K == 1:
            return ("mem", np.full(shp, np.nan, np.float64))
        self.bases.append((np.full([self.K] + shp, np.nan, np.float64), {"f32": 4, "i64": 8}.get(el, 2)))
        return ("cta", self.bases[-1][0], len(self.bases) - 1)

    def at(self, buf, idx):
        """Indices into a buffer: a cluster kernel's workgroup buffers first take the lane's CTA."""
        return tuple(idx) if buf[0] == "mem" else (self.cta,) + tuple(idx)

    def val(self, env, a):
        return env[a]

    def exec(self, ops, env, mask):
        T = self.T
        for op in ops:
            n, a = op["name"], [self.val(env, x) for x in op["args"]] if op["name"] != "scf.for" else None
            r = None
            if n == "arith.constant":
                m = re.search(r"value = (dense<)?([-\w.+]+)>? : (vector<[^>]*>|\w+)", op["rest"])
                lit = m.group(2)
                if lit.startswith("0x"):  # f32 bits (infinities, NaN)
                    v = float(np.array([int(lit, 16)], np.uint32).view(np.float32)[0])
                elif lit in ("true", "false"):
                    v = int(lit == "true")
                else:
                    v = float(lit) if m.group(3) not in ("index", "i32", "i64", "i1") else int(lit)
                if m.group(1):
                    shp, _ = shape_of(m.group(3))
                    r = np.full([T] + shp, v, np.float64)
                elif isinstance(v, int):
                    r = np.full(T, v, np.int64)
                else:
                    r = np.full(T, v, np.float64)
            elif n in ("arith.addi", "arith.muli", "arith.divui", "arith.remui", "arith.subi",
                       "arith.minui", "arith.andi", "arith.ori", "arith.xori"):
                x, y = a
                r = {"arith.addi": lambda: x + y, "arith.muli": lambda: x * y,
                     "arith.divui": lambda: x // y, "arith.remui": lambda: x % y,
                     "arith.subi": lambda: x - y, "arith.minui": lambda: np.minimum(x, y),
                     "arith.andi": lambda: x & y, "arith.ori": lambda: x | y,
                     "arith.xori": lambda: x ^ y}[n]()
            elif n == "arith.cmpi":
                pred = prop_int(op, "predicate")
                x, y = a
                r = [x == y, x != y, x < y, x <= y, x > y, x >= y, x < y, x <= y, x > y, x >= y][pred]
            elif n in ("arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maximumf"):
                x, y = (np.asarray(t, np.float32) for t in a)
                with np.errstate(all="ignore"):
                    r = {"arith.addf": lambda: x + y, "arith.subf": lambda: x - y,
                         "arith.mulf": lambda: x * y, "arith.divf": lambda: x / y,
                         "arith.maximumf": lambda: np.maximum(x, y)}[n]().astype(np.float64)
            elif n == "math.fma":
                x, y, z = (np.asarray(t, np.float64) for t in a)
                r = (x * y + z).astype(np.float32).astype(np.float64)
            elif n == "arith.negf":
                r = -a[0]
            elif n == "math.exp2":
                with np.errstate(all="ignore"):
                    r = np.exp2(a[0]).astype(np.float32).astype(np.float64)
            elif n == "llvm.call_intrinsic" and '"llvm.nvvm.ex2.approx.ftz.f"' in op["rest"]:
                # ex2.approx.ftz.f32: subnormal inputs and results flushed to (signed) zero
                x = np.asarray(a[0], np.float32)
                x = np.where(np.abs(x) < np.finfo(np.float32).tiny, np.float32(0) * x, x)
                with np.errstate(all="ignore"):
                    y = np.exp2(x.astype(np.float64)).astype(np.float32)
                r = np.where(np.abs(y) < np.finfo(np.float32).tiny, np.float32(0), y).astype(np.float64)
            elif n == "arith.cmpf":
                pred = prop_int(op, "predicate")
                with np.errstate(invalid="ignore"):
                    if pred == 1:  # oeq
                        r = a[0] == a[1]
                    elif pred == 13:  # une: unordered or not equal
                        r = ~(a[0] == a[1])
                    else:
                        raise SystemExit(f"emulate-mma: cmpf predicate {pred} not modelled")
            elif n == "gpu.shuffle":
                v, off = a[0], a[1]
                lanes = np.arange(T)
                if "mode = #gpu<shuffle_mode xor>" in op["rest"]:
                    src = (lanes & ~31) | ((lanes & 31) ^ off)
                elif "mode = #gpu<shuffle_mode idx>" in op["rest"]:
                    src = (lanes & ~31) | (np.broadcast_to(off, (T,)) & 31)
                else:
                    raise SystemExit("emulate-mma: only xor and idx shuffles are modelled")
                r = (v[src], np.ones(T, bool))
            elif n in ("arith.index_cast", "arith.index_castui"):
                r = a[0]
            elif n == "arith.extf":
                r = a[0]  # a half value is held as its (exact) float64
            elif n == "vector.load":
                buf = a[0][1]
                shp, _ = shape_of(op["rest"].split("->")[-1].strip())
                idx = [np.where(mask, i, 0) for i in a[1:]]
                cols = [buf[tuple(idx[:-1] + [idx[-1] + e])] for e in range(shp[-1])]
                r = np.stack(cols, axis=1)
            elif n == "vector.store":
                v, buf = a[0], a[1][1]
                idx = [i[mask] for i in a[2:]]
                v = v.reshape(T, -1)[mask]
                for e in range(v.shape[1]):
                    at = idx[:-1] + [idx[-1] + e]
                    buf[tuple(at)] = v[:, e]
            elif n == "arith.select":
                c = np.asarray(a[0])
                r = np.where(c.reshape(c.shape + (1,) * (np.ndim(a[1]) - c.ndim)) if np.ndim(a[1]) > c.ndim
                             else c, a[1], a[2])
            elif n == "arith.truncf":
                r = bf16_round(a[0]).astype(np.float64) if "bf16" in op["rest"].split("->")[-1] \
                    else a[0].astype(np.float16).astype(np.float64)
            elif n == "gpu.thread_id":
                r = np.arange(T, dtype=np.int64) % self.Tc
            elif n == "gpu.block_id":
                r = (self.block * self.K + self.cta).astype(np.int64)
            elif n == "gpu.cluster_block_id":  # the CTA's rank in its cluster (clusters along x)
                r = self.cta.astype(np.int64)
            elif n == "gpu.cluster_id":
                r = np.full(T, self.block, np.int64)
            elif n in ("memref.assume_alignment",):
                r = a[0]
            elif n == "gpu.dynamic_shared_memory":
                r = ("dyn", None)
            elif n == "memref.view":
                r = self.workgroup(op["rest"].split("->")[-1].strip())
            elif n == "memref.load":
                buf = a[0][1]
                idx = tuple(np.where(mask, i, 0) for i in a[1:])
                r = buf[self.at(a[0], idx)]
            elif n == "memref.store":
                v, buf = a[0], a[1][1]
                idx = tuple(i[mask] for i in self.at(a[1], [np.broadcast_to(i, (T,)) for i in a[2:]]))
                buf[idx] = np.broadcast_to(v, (T,))[mask]
            elif n in ("gpu.barrier", "nvvm.cluster.arrive", "nvvm.cluster.arrive.relaxed", "nvvm.cluster.wait"):
                pass
            elif n == "memref.extract_aligned_pointer_as_index":
                if a[0][0] != "cta":
                    raise SystemExit("emulate-mma: the address of a buffer outside a cluster kernel")
                r = np.full(T, a[0][2] << 32, np.int64)
            elif n == "llvm.inttoptr":
                r = a[0]
            elif n == "nvvm.mapa":
                r = ("remote", np.asarray(a[0]), np.broadcast_to(a[1], (T,)))
            elif n == "llvm.load":
                if not (isinstance(a[0], tuple) and a[0][0] == "remote"):
                    raise SystemExit("emulate-mma: llvm.load of an address that is not nvvm.mapa's")
                _, ptr, rank = a[0]
                r = np.full(T, np.nan)
                for lane in np.nonzero(mask)[0]:
                    arr, eb = self.bases[int(ptr[lane]) >> 32]
                    off = int(ptr[lane]) & 0xFFFFFFFF
                    if off % eb or not 0 <= rank[lane] < self.K or off // eb >= arr[0].size:
                        raise SystemExit(f"emulate-mma: lane {lane} reads byte {off} of CTA {rank[lane]}")
                    r[lane] = arr[int(rank[lane])].ravel()[off // eb]
            elif n == "llvm.store":
                if not (isinstance(a[1], tuple) and a[1][0] == "remote"):
                    raise SystemExit("emulate-mma: llvm.store to an address that is not nvvm.mapa's")
                _, ptr, rank = a[1]
                v = np.broadcast_to(np.asarray(a[0], np.float64), (T,))
                for lane in np.nonzero(mask)[0]:
                    arr, eb = self.bases[int(ptr[lane]) >> 32]
                    off = int(ptr[lane]) & 0xFFFFFFFF
                    if off % eb or not 0 <= rank[lane] < self.K or off // eb >= arr[0].size:
                        raise SystemExit(f"emulate-mma: lane {lane} writes byte {off} of CTA {rank[lane]}")
                    arr[int(rank[lane])].ravel()[off // eb] = v[lane]
            elif n == "math.exp":
                with np.errstate(all="ignore"):
                    r = np.exp(np.asarray(a[0], np.float32)).astype(np.float64)
            elif n in ("math.sqrt", "math.rsqrt"):
                # f32, rounded once (the GPU's own rsqrt is approximate: a model for --compare, not
                # the GPU's bits)
                with np.errstate(all="ignore"):
                    x = np.asarray(a[0], np.float64)
                    r = (np.sqrt(x) if n == "math.sqrt" else 1.0 / np.sqrt(x)).astype(np.float32).astype(np.float64)
            elif n == "nvgpu.device_async_copy":
                seg = [int(s) for s in re.search(r"operandSegmentSizes = array<i32: ([\d, ]+)>",
                                                  op["rest"]).group(1).split(", ")]
                dst = a[0][1]
                didx = a[1:1 + seg[1]]
                src = a[1 + seg[1]][1]
                sidx = a[2 + seg[1]:2 + seg[1] + seg[3]]
                count = prop_int(op, "dstElements")
                # a source size (elements) below the copy's zero-fills the rest
                srcn = a[2 + seg[1] + seg[3]] if len(seg) > 4 and seg[4] else np.full(T, count)
                self.pending.append((dst, [i.copy() for i in didx], src, [i.copy() for i in sidx],
                                     count, mask.copy(), np.asarray(srcn).copy()))
                r = "token"
            elif n == "nvgpu.device_async_create_group":
                self.groups.append(self.pending)
                self.pending = []
                r = "token"
            elif n == "nvgpu.device_async_wait":
                keep = prop_int(op, "numGroups") or 0
                retire = self.groups[:len(self.groups) - keep] if keep else self.groups
                self.groups = self.groups[len(self.groups) - keep:] if keep else []
                for g in retire:
                    for dst, didx, src, sidx, count, m, srcn in g:
                        for e in range(count):
                            d = [i[m] for i in didx]
                            s = [i[m] for i in sidx]
                            d[-1] = d[-1] + e
                            s[-1] = s[-1] + e
                            dst[tuple(d)] = np.where(srcn[m] > e, src[tuple(s)], 0.0)
            elif n == "nvgpu.ldmatrix":
                buf = a[0][1]
                idx = a[1:]
                tiles = prop_int(op, "numTiles")
                trans = "transpose = true" in op["rest"]
                _, el = shape_of(op["rest"].split("->")[-1].strip())
                if el == "f32":
                    # 8 rows of 16 bytes = 4 f32: lane T gets the pair (b16 columns 2 (T%4), +1) of
                    # row T/4, which is f32 column T%4.
                    if trans:
                        raise SystemExit("emulate-mma: ldmatrix .trans on 32-bit elements splits them")
                    r = np.zeros((T, tiles, 1))
                    for w in range(T // 32):
                        lanes = np.arange(32) + 32 * w
                        for q in range(tiles):
                            self.bank_check(buf, [[int(i[lanes[8 * q + row]]) for i in idx] for row in range(8)], 4)
                            for Tl in range(32):
                                at = [int(i[lanes[8 * q + Tl // 4]]) for i in idx]
                                r[lanes[Tl], q, 0] = buf[tuple(at[:-1] + [at[-1] + Tl % 4])]
                    env[op["res"]] = r
                    continue
                r = np.zeros((T, tiles, 2))
                for w in range(T // 32):
                    lanes = np.arange(32) + 32 * w
                    for q in range(tiles):
                        self.bank_check(buf, [[int(i[lanes[8 * q + row]]) for i in idx] for row in range(8)], 2)
                        mat = np.zeros((8, 8))
                        for row in range(8):
                            L = lanes[8 * q + row]
                            at = [int(i[L]) for i in idx]
                            for c in range(8):
                                mat[row, c] = buf[tuple(at[:-1] + [at[-1] + c])]
                        for Tl in range(32):
                            g, t = Tl // 4, Tl % 4
                            pair = (mat[2 * t:2 * t + 2, g] if trans else mat[g, 2 * t:2 * t + 2])
                            r[lanes[Tl], q] = pair
            elif n == "vector.extract":
                pos = [int(p) for p in re.search(r"static_position = array<i64: ([\d, ]+)>",
                                                 op["rest"]).group(1).split(", ")]
                v = a[0]
                if isinstance(v, tuple) and v[0] == "i32":
                    r = v[1]  # the packed pair
                else:
                    r = v[(slice(None),) + tuple(pos)]
            elif n == "vector.to_elements":
                flat = a[0].reshape(T, -1)
                r = tuple(flat[:, e] for e in range(flat.shape[1]))
            elif n == "nvvm.convert.float.to.tf32":
                if "fp_rnd_mode<rna>" in op["rest"]:
                    r = tf32_rna(a[0]).astype(np.float64)
                elif "fp_rnd_mode<rz>" in op["rest"]:
                    r = tf32_truncate(a[0]).astype(np.float64)
                else:
                    raise SystemExit("emulate-mma: only rna and rz conversions to tf32 are modelled")
                # (its i32 result is held as the f32 value of those bits: arith.bitcast passes it)
            elif n == "arith.bitcast":
                r = a[0]
            elif n == "llvm.inline_asm" and re.search(r'asm_string = "mov\.b(16|32) \$0, \$1; // recompute \$2"', op["rest"]):
                # the lowering's opaque copy of a register slot read to recompute a value
                r = a[0]
            elif n == "vector.bitcast":
                r = ("i32", a[0])
            elif n == "vector.insert":
                pos = [int(p) for p in re.search(r"static_position = array<i64: ([\d, ]+)>",
                                                 op["rest"]).group(1).split(", ")]
                r = a[1].copy()
                r[(slice(None),) + tuple(pos)] = a[0]
            elif n == "vector.from_elements":
                shp, _ = shape_of(op["rest"].split("->")[-1].strip())
                r = np.stack(a, axis=1).reshape([T] + shp)
            elif n == "nvgpu.mma.sync" and "tf32Enabled" in op["rest"]:
                if "mmaShape = [16, 8, 8]" not in op["rest"]:
                    raise SystemExit("emulate-mma: only m16n8k8 is modelled for tf32")
                A = [tf32_truncate(a[0][:, q, 0]).astype(np.float64) for q in range(4)]
                B = [tf32_truncate(a[1][:, q, 0]).astype(np.float64) for q in range(2)]
                C = [a[2][:, q // 2, q % 2] for q in range(4)]

                def place(Am, Bm, g, t, l):  # m16n8k8 .tf32 fragments
                    for reg, (ro, co) in enumerate([(0, 0), (8, 0), (0, 4), (8, 4)]):
                        Am[g + ro, t + co] = A[reg][l]
                    for reg, ko in enumerate([0, 4]):
                        Bm[t + ko, g] = B[reg][l]
                D = mma_m16n8(T, 8, C, place)
                r = np.stack(D, axis=1).reshape(T, 2, 2)
            elif n in ("nvvm.mma.sync", "nvgpu.mma.sync"):
                if n == "nvvm.mma.sync":
                    A, B, C = a[0:4], a[4:6], a[6:10]
                else:
                    A = [a[0][:, q] for q in range(4)]
                    B = [a[1][:, q] for q in range(2)]
                    C = [a[2][:, q // 2, q % 2] for q in range(4)]

                def place(Am, Bm, g, t, l):  # m16n8k16 fragments, 2 halves a register
                    for reg, (ro, co) in enumerate([(0, 0), (8, 0), (0, 8), (8, 8)]):
                        Am[g + ro, 2 * t + co:2 * t + co + 2] = A[reg][l]
                    for reg, ko in enumerate([0, 8]):
                        Bm[2 * t + ko:2 * t + ko + 2, g] = B[reg][l]
                D = mma_m16n8(T, 16, C, place)
                r = tuple(D) if n == "nvvm.mma.sync" else np.stack(D, axis=1).reshape(T, 2, 2)
            elif n == "llvm.extractvalue":
                r = a[0][prop_int(op, r"position = array<i64:")
                         if False else int(re.search(r"position = array<i64: (\d+)>", op["rest"]).group(1))]
            elif n == "scf.for":
                lb, ub, st = [self.val(env, x) for x in op["args"][:3]]
                inits = [self.val(env, x) for x in op["args"][3:]]
                params, body = op["regions"][0]
                carried = inits
                if not all(np.all(arr == arr[0]) for arr in (lb, ub, st)):
                    # per-lane bounds (a cooperative copy): each lane runs its own trips
                    iv = np.broadcast_to(lb, (T,)).astype(np.int64).copy()
                    while True:
                        active = mask & (iv < ub)
                        if not active.any():
                            break
                        inner = dict(env)
                        inner[params[0]] = iv.copy()
                        for p_, v in zip(params[1:], carried):
                            inner[p_] = v
                        nxt = self.exec(body, inner, active)
                        carried = [np.where(active.reshape((-1,) + (1,) * (np.ndim(x) - 1)), x, y)
                                   for x, y in zip(nxt or [], carried)]
                        iv = iv + st
                    r = carried
                    lb = ub = st = None
                if lb is not None:
                  for arr in (lb, ub, st):
                    assert np.all(arr == arr[0]), "non-uniform loop bounds"
                  for iv in range(int(lb[0]), int(ub[0]), int(st[0])):
                    inner = dict(env)
                    inner[params[0]] = np.full(T, iv, np.int64)
                    for p, v in zip(params[1:], carried):
                        inner[p] = v
                    carried = self.exec(body, inner, mask)
                  r = carried
                if op["nres"] == 1:
                    r = r[0]
            elif n == "scf.if":
                cond = a[0]
                then_params, then_body = op["regions"][0]
                if op["nres"]:
                    # both sides under their lanes' masks, each lane keeps its side's values
                    c = cond.astype(bool)
                    rt = self.exec(op["regions"][0][1], dict(env), mask & c)
                    rf = self.exec(op["regions"][1][1], dict(env), mask & ~c)
                    r = tuple(np.where(c.reshape((-1,) + (1,) * (np.ndim(x) - 1)), x, y)
                              for x, y in zip(rt, rf))
                    if op["nres"] == 1:
                        r = r[0]
                else:
                    self.exec(then_body, dict(env), mask & cond.astype(bool))
                    if len(op["regions"]) > 1:
                        self.exec(op["regions"][1][1], dict(env), mask & ~cond.astype(bool))
            elif n == "scf.yield":
                return a
            elif n == "gpu.return":
                return None
            else:
                raise SystemExit(f"emulate-mma: unknown op {n}")
            if op["res"]:
                if op["nres"] > 1:
                    for k, v in enumerate(r):
                        env[f"{op['res']}#{k}"] = v
                else:
                    env[op["res"]] = r
        return None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("kernel")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rtol", type=float, default=1e-5)
    p.add_argument("--attention", type=float, metavar="SCALE",
                   help="an online contraction: check against softmax(SCALE q k^T) v")
    p.add_argument("--magnitude", type=float, default=1.0,
                   help="scale of the random inputs (large values test the running max)")
    p.add_argument("--rhs", choices=("kn", "nk"), default="kn",
                   help="the second operand is B[k, j] (K x N, default) or B[j, k] (N x K)")
    p.add_argument("--lhs", choices=("mk", "km"), default="mk",
                   help="the first operand is A[i, k] (M x K, default) or A[k, i] (K x M, A^T as stored)")
    p.add_argument("--tf32-model", action="store_true",
                   help="compare against float64 rna(A).rna(B): the operands rounded to tf32 first")
    p.add_argument("--softmax", action="store_true",
                   help="check against float64 softmax over the last dim (a row kernel)")
    p.add_argument("--sum", type=int, metavar="AXIS",
                   help="check against the float64 sum of the input over AXIS (a reduction kernel)")
    p.add_argument("--compare", metavar="KERNEL",
                   help="run this kernel too, on the same inputs: the outputs must be equal bit for bit")
    args = p.parse_args()

    def load(path):
        lines = open(path).read().splitlines()
        start = next(i for i, l in enumerate(lines) if '"gpu.func"' in l)
        ops, _ = parse(lines, start, ("})",))
        func = ops[0]
        grid = int(re.search(r"known_grid_size = array<i32: (\d+)", func["rest"]).group(1))
        return func, lines[start + 1], grid

    def host_ranks(path, params):
        """For each of the kernel's first `params` parameters, the index N of the host function's
        argument `argN` (motif.buffer) that gpu.launch_func passes there, or None where the launch
        passes something else (the kernel's parameter order is the order it stages its inputs in,
        not the program's)."""
        lines = open(path).read().splitlines()
        for i, line in enumerate(lines):
            if '"func.func"' not in line or "motif.buffer" not in line or i + 1 >= len(lines):
                continue
            buffers = re.findall(r'motif\.buffer = "(\w+)"', line)
            names = re.findall(r"(%\w+):", lines[i + 1])
            launch = next((l for l in lines[i:] if '"gpu.launch_func"(' in l), None)
            if launch is None or len(names) != len(buffers):
                return [None] * params
            operands = re.search(r'"gpu\.launch_func"\(([^)]*)\)', launch).group(1).split(", ")
            rank = {n: (int(b[3:]) if re.fullmatch(r"arg\d+", b) else None) for n, b in zip(names, buffers)}
            passed = operands[len(operands) - params - 1:len(operands) - 1]
            return [rank.get(o) for o in passed]
        return [None] * params

    func, block_sig, grid = load(args.kernel)
    sig = re.search(r"function_type = \((.*?)\) -> \(\)", func["rest"]).group(1)
    types = re.findall(r"memref<[^>]*>", sig)
    rng = np.random.default_rng(args.seed)
    inputs = []
    for t in types[:-1]:
        shp, el = shape_of(t)
        x = (args.magnitude * rng.standard_normal(shp)).astype(np.float32)
        if el == "bf16":
            x = bf16_round(x)
        elif el == "f16":
            x = x.astype(np.float16).astype(np.float32)
        inputs.append(x.astype(np.float64))
    em = Emulator(func, inputs, grid)
    em.block_sig = block_sig
    out = em.run()
    cluster = f", cluster {em.K}" if em.K > 1 else ""

    if args.compare:
        func2, sig2, grid2 = load(args.compare)
        em2 = Emulator(func2, inputs, grid2)
        em2.block_sig = sig2
        out2 = em2.run()
        same = np.array_equal(out.astype(np.float32).view(np.uint32), out2.astype(np.float32).view(np.uint32))
        unwritten = int(np.isnan(out).sum() + np.isnan(out2).sum())
        print(f"emulate-mma: {out.shape}, grid {grid}, {em.Tc} threads{cluster} against grid {grid2}, "
              f"{em2.Tc} threads{f', cluster {em2.K}' if em2.K > 1 else ''}: "
              f"{'bitwise equal' if same else 'different'}, {unwritten} unwritten")
        if not same or unwritten:
            print("emulate-mma: FAIL")
            return 1

    def verdict(ref, what):
        """Prints the normwise error of `out` against `ref`; 0 when it passes."""
        unwritten = int(np.isnan(out).sum())
        err = float(np.nanmax(np.abs(out - ref)) / np.abs(ref).max()) if unwritten < out.size else np.inf
        print(f"emulate-mma: {what}, grid {grid}, {em.Tc} threads{cluster}: rel err {err:.2e}, {unwritten} unwritten")
        if em.matrices:
            print(f"emulate-mma: ldmatrix {em.matrices} matrices, {em.conflicted} with rows sharing a 16-byte bank group")
        ok = unwritten == 0 and err <= args.rtol
        print("emulate-mma: PASS" if ok else "emulate-mma: FAIL")
        return 0 if ok else 1

    if args.sum is not None:
        return verdict(inputs[0].sum(axis=args.sum), f"sum over axis {args.sum} of {inputs[0].shape}")
    if args.compare and args.attention is None and not args.softmax:
        print("emulate-mma: PASS")
        return 0
    if args.softmax:
        x = inputs[0]
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return verdict(e / e.sum(axis=-1, keepdims=True), f"softmax {out.shape}")
    if args.attention is not None:
        q, k, v = inputs
        q3, k3, v3 = (x.reshape((-1,) + x.shape[-2:]) for x in (q, k, v))
        s_ = args.attention * np.einsum("bid,bjd->bij", q3, k3)
        p_ = np.exp(s_ - s_.max(axis=-1, keepdims=True))
        ref = (np.einsum("bij,bje->bie", p_, v3) / p_.sum(axis=-1, keepdims=True)).reshape(out.shape)
        return verdict(ref, f"attention {out.shape} from q {q.shape}, k {k.shape}, v {v.shape}")
    # The kernel takes its inputs in the order it stages them: find A (M x K) and B. Where both
    # orders fit (M = N with B[j, k]: two M x K operands), A is the program's earlier argument, as
    # the host's gpu.launch_func passes it (kernel parameter order alone would be a guess).
    M, N = out.shape

    def fits(a, b):
        am = a if args.lhs == "mk" else a.T
        bk = b if args.rhs == "kn" else b.T
        return am.shape[0] == M and bk.shape[1] == N and am.shape[1] == bk.shape[0]
    candidates = [tuple(inputs), tuple(reversed(inputs))]
    ranks = host_ranks(args.kernel, len(inputs))
    if len(inputs) == 2 and None not in ranks and ranks[0] > ranks[1]:
        candidates.reverse()
    orders = [(x, y) for x, y in candidates if fits(x, y)]
    if not orders:
        raise SystemExit(f"emulate-mma: inputs {[i.shape for i in inputs]} are no A.B of {out.shape}")
    a, b = orders[0]
    what = f"{out.shape[0]}x{out.shape[1]} from {a.shape} x {b.shape}"
    if args.tf32_model:
        a, b = (tf32_rna(x).astype(np.float64) for x in (a, b))
        what += " (operands rounded to tf32, rna)"
    return verdict((a if args.lhs == "mk" else a.T) @ (b if args.rhs == "kn" else b.T), what)

if __name__ == "__main__":
    sys.exit(main())
