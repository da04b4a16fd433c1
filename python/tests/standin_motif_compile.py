#!/usr/bin/env python3
"""A stand-in for motif-compile (GPU tests only): same command line, same outputs (docs/abi.md),
hand-written CUDA for @softmax and @residual_relu, built with nvcc. It lets the Python pipeline
(compile -> manifest -> launch -> numerics / bench) run end to end before the real compiler exists.

    standin_motif_compile.py IN.mlir -o OUTDIR [--chip=sm_90] [--fuse-materialization] [--fuse-options=...]
        [--lower-options=...]
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROW = r"""
__device__ float block_reduce(float v, bool is_max) {
  __shared__ float red[256];
  int t = threadIdx.x;
  red[t] = v;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (t < s) red[t] = is_max ? fmaxf(red[t], red[t + s]) : red[t] + red[t + s];
    __syncthreads();
  }
  float r = red[0];
  __syncthreads();
  return r;
}
"""
SOFTMAX_UNFUSED = ROW + r"""
extern "C" __global__ void softmax_max(const float* x, float* m) {
  const float* row = x + (size_t)blockIdx.x * N;
  float v = -INFINITY;
  for (int j = threadIdx.x; j < N; j += 256) v = fmaxf(v, row[j]);
  v = block_reduce(v, true);
  if (threadIdx.x == 0) m[blockIdx.x] = v;
}
extern "C" __global__ void softmax_sum(const float* x, const float* m, float* s) {
  const float* row = x + (size_t)blockIdx.x * N;
  float v = 0.f, mx = m[blockIdx.x];
  for (int j = threadIdx.x; j < N; j += 256) v += expf(row[j] - mx);
  v = block_reduce(v, false);
  if (threadIdx.x == 0) s[blockIdx.x] = v;
}
extern "C" __global__ void softmax_div(const float* x, const float* m, const float* s, float* y) {
  size_t i = (size_t)blockIdx.x * 256 + threadIdx.x;
  size_t r = i / N;
  y[i] = expf(x[i] - m[r]) / s[r];
}
"""
SOFTMAX_FUSED = ROW + r"""
extern "C" __global__ void softmax_fused(const float* x, float* y) {
  const float* row = x + (size_t)blockIdx.x * N;
  float* out = y + (size_t)blockIdx.x * N;
  float mx = -INFINITY, s = 0.f;
  for (int j = threadIdx.x; j < N; j += 256) mx = fmaxf(mx, row[j]);
  mx = block_reduce(mx, true);
  for (int j = threadIdx.x; j < N; j += 256) s += expf(row[j] - mx);
  s = block_reduce(s, false);
  for (int j = threadIdx.x; j < N; j += 256) out[j] = expf(row[j] - mx) / s;
}
"""
RELU_UNFUSED = r"""
extern "C" __global__ void residual_add(const float* x, const float* r, float* s) {
  size_t i = (size_t)blockIdx.x * 256 + threadIdx.x; s[i] = x[i] + r[i];
}
extern "C" __global__ void relu(const float* s, float* y) {
  size_t i = (size_t)blockIdx.x * 256 + threadIdx.x; y[i] = fmaxf(s[i], 0.f);
}
"""
RELU_FUSED = r"""
extern "C" __global__ void residual_relu_fused(const float* x, const float* r, float* y) {
  size_t i = (size_t)blockIdx.x * 256 + threadIdx.x; y[i] = fmaxf(x[i] + r[i], 0.f);
}
"""


def buf(name, role, shape):
    n = 1
    for d in shape:
        n *= d
    return {"name": name, "role": role, "dtype": "f32", "shape": list(shape), "bytes": 4 * n}


def plan(fn, M, N, fused):
    flat = [M * N // 256, 1, 1]
    rows = [M, 1, 1]
    b = [256, 1, 1]
    if fn == "softmax":
        if fused:
            return SOFTMAX_FUSED, [buf("arg0", "input", (M, N)), buf("result0", "output", (M, N))], \
                [("softmax_fused", ["arg0", "result0"], rows, b)]
        return SOFTMAX_UNFUSED, [buf("arg0", "input", (M, N)), buf("softmax_max.out0", "intermediate", (M,)),
                                 buf("softmax_sum.out0", "intermediate", (M,)), buf("result0", "output", (M, N))], \
            [("softmax_max", ["arg0", "softmax_max.out0"], rows, b),
             ("softmax_sum", ["arg0", "softmax_max.out0", "softmax_sum.out0"], rows, b),
             ("softmax_div", ["arg0", "softmax_max.out0", "softmax_sum.out0", "result0"], flat, b)]
    ins = [buf("arg0", "input", (M, N)), buf("arg1", "input", (M, N))]
    if fused:
        return RELU_FUSED, ins + [buf("result0", "output", (M, N))], \
            [("residual_relu_fused", ["arg0", "arg1", "result0"], flat, b)]
    return RELU_UNFUSED, ins + [buf("residual_add.out0", "intermediate", (M, N)), buf("result0", "output", (M, N))], \
        [("residual_add", ["arg0", "arg1", "residual_add.out0"], flat, b),
         ("relu", ["residual_add.out0", "result0"], flat, b)]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("input")
    p.add_argument("-o", dest="out", required=True)
    p.add_argument("--chip", default="sm_90")
    p.add_argument("--fuse-materialization", action="store_true")
    # The real tool's option string; the stand-in has no rewrite to admit, so it writes the same
    # kernels (the numerics check then skips the online form).
    p.add_argument("--fuse-options", default="")
    # convert-motif-to-gpu's options (reverse-rereads): no loop order to change in hand-written CUDA.
    p.add_argument("--lower-options", default="")
    a = p.parse_args()
    text = Path(a.input).read_text()
    m = re.search(r"func\.func @(\w+)\(%\w+: tensor<(\d+)x(\d+)xf32>", text)
    if not m or m.group(1) not in ("softmax", "residual_relu"):
        sys.stderr.write(f"{a.input}: the stand-in compiles only @softmax and @residual_relu\n")
        return 1
    fn, M, N = m.group(1), int(m.group(2)), int(m.group(3))
    src, buffers, kernels = plan(fn, M, N, a.fuse_materialization)
    out = Path(a.out)
    cu = out / f"{fn}.cu"
    cu.write_text(f"#define N {N}\n#include <math.h>\n" + src)
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    r = subprocess.run([nvcc, "-cubin", f"-arch={a.chip}", "-Xptxas", "-v", "-o", str(out / f"{fn}.cubin"), str(cu)],
                       capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write(r.stderr)
        return 1
    (out / f"{fn}.ptxas.txt").write_text(r.stderr)
    subprocess.run([nvcc, "-ptx", f"-arch={a.chip}", "-o", str(out / f"{fn}.ptx"), str(cu)], check=True)
    stats, cur = {}, None
    for line in r.stderr.splitlines():
        fm = re.search(r"Compiling entry function '(\w+)'", line)
        if fm:
            cur = stats.setdefault(fm.group(1), {})
        sm = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if sm and cur is not None:
            cur["spill_store_bytes"], cur["spill_load_bytes"] = int(sm.group(1)), int(sm.group(2))
        um = re.search(r"Used (\d+) registers.*?(?:(\d+) bytes smem)?", line)
        if um and cur is not None:
            cur["registers"] = int(um.group(1))
            smem = re.search(r"(\d+) bytes smem", line)
            cur["shared_bytes"] = int(smem.group(1)) if smem else 0
    manifest = {"motif_manifest_version": 1, "function": fn, "source": a.input, "chip": a.chip,
                "ptx": f"{fn}.ptx", "cubin": f"{fn}.cubin", "buffers": buffers, "kernels": []}
    for name, params, grid, block in kernels:
        s = stats.get(name, {})
        manifest["kernels"].append({"name": name, "params": params, "grid": grid, "block": block,
                                    "shared_bytes": s.get("shared_bytes"), "registers": s.get("registers"),
                                    "spill_store_bytes": s.get("spill_store_bytes"),
                                    "spill_load_bytes": s.get("spill_load_bytes"), "barriers": None})
    (out / f"{fn}.json").write_text(json.dumps(manifest, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
