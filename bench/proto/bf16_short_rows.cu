// Prototype (issue 13): bf16 softmax on rows that one block keeps in registers (8192x4096, 16384x1024),
// bf16 in and out, f32 statistics, exp as ex2.approx with log2(e) folded in (the mathematical form's
// math). motif's kernel is one row a block; it reaches 0.89 of the copy ceiling at 8192x4096 and 0.78
// at 16384x1024, the target is 0.9. Does a persistent grid that loads the next row while it reduces
// this one keep HBM busier? Not part of the build. Variants, each for both shapes:
//   R  row      one row a block of T threads, E = N/T elements a thread in registers (motif today)
//   G  stride   the same body, a grid of (resident blocks an SM) x (SMs), rows in a grid-stride loop
//   P  prefetch G, and each thread loads its part of its next row before it reduces this one
// Session 14 adds two variants of R's reductions (R has two block-wide ones: max, then sum of exp):
//   O  online   one block-wide reduction of the state (m, l) (rule 4's combiner): a thread's own max
//               and sum first, then the states merged across lanes and warps, one barrier instead of two
//   K  kept     O with exp(x - thread max) kept in registers and rescaled for the output (one exp
//               an element, as R; O computes it again from x: two)
//   X  R with ex2.approx.f32 (no ftz: motif's lowering; ptxas adds a range check and two FMULs an exp)
//   F  R with (x - m) log2(e) as one FFMA (x log2(e) - m log2(e)) and ex2.ftz
//   B  bound    both reductions warp-wide only (no shared memory, no barrier): a WRONG kernel whose
//               time bounds what the two block-wide steps cost
// Every variant is checked against a float64 softmax of every 97th row (max rel. err), then timed as
// motif.bench times (CUDA events around each launch, a 256 MiB memset before each, median of 40),
// with a device copy of the same bytes and the 1 GiB copy ceiling timed the same way.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/bf16short bf16_short_rows.cu && /tmp/bf16short
#include "bf16_proto.h"

template <int N, int T> struct Row {
  static constexpr int V = N / (8 * T);  // uint4 (8 bf16) a thread
  static_assert(V >= 1 && N % (8 * T) == 0, "shape");
  uint4 v[V];
  __device__ void load(const uint4 *x, int row) {
#pragma unroll
    for (int i = 0; i < V; ++i) v[i] = ldg(x + (size_t)row * (N / 8) + i * T + threadIdx.x);
  }
  // One row: max, exps, sum, scale, store. red: 2 x (T/32) floats. Mode 0: R; 1: O; 2: B; 3: K; 4: X; 5: F (above).
  template <int Mode = 0> __device__ void process(uint4 *y, int row, float (*red)[T / 32]) {
    float f[8 * V];
#pragma unroll
    for (int i = 0; i < V; ++i) {
      uint32_t w[4] = {v[i].x, v[i].y, v[i].z, v[i].w};
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        f[8 * i + 2 * j] = __uint_as_float(w[j] << 16);
        f[8 * i + 2 * j + 1] = __uint_as_float(w[j] & 0xffff0000u);
      }
    }
    float m = f[0];
#pragma unroll
    for (int k = 1; k < 8 * V; ++k) m = fmaxf(m, f[k]);
    int w = threadIdx.x / 32, l = threadIdx.x % 32;
    if constexpr (Mode == 1 || Mode == 3) {  // the thread's state, merged across the block: one barrier
      // x stays packed (8 registers a uint4) and is unpacked at each use, as the compiler's
      // recompute reads it; exp(x - m) is computed again for the output.
      auto at = [&](int k) {
        uint32_t wd = k % 8 < 2 ? v[k / 8].x : k % 8 < 4 ? v[k / 8].y : k % 8 < 6 ? v[k / 8].z : v[k / 8].w;
        return __uint_as_float(k % 2 ? wd & 0xffff0000u : wd << 16);
      };
      constexpr float c = 1.4426950408889634f;
      float m = at(0);
#pragma unroll
      for (int k = 1; k < 8 * V; ++k) m = fmaxf(m, at(k));
      float s = 0.f, mc = m * c, mt = m;
      if constexpr (Mode == 3) {  // the exps relative to the thread's max stay in registers
#pragma unroll
        for (int k = 0; k < 8 * V; ++k) {
          f[k] = ex2(fmaf(at(k), c, -mc));
          s += f[k];
        }
      } else {
#pragma unroll
        for (int k = 0; k < 8 * V; ++k) s += ex2(fmaf(at(k), c, -mc));
      }
#pragma unroll
      for (int o = 16; o; o >>= 1) {
        float m2 = __shfl_xor_sync(~0u, m, o), s2 = __shfl_xor_sync(~0u, s, o);
        float mm = fmaxf(m, m2);
        s = s * ex2((m - mm) * c) + s2 * ex2((m2 - mm) * c);
        m = mm;
      }
      if (T > 32) {
        if (l == 0) {
          red[0][w] = m;
          red[1][w] = s;
        }
        __syncthreads();
        // lane l takes warp (l mod W)'s state; log2(W) butterfly rounds merge them
        m = red[0][l % (T / 32)];
        s = red[1][l % (T / 32)];
#pragma unroll
        for (int o = T / 64; o; o >>= 1) {
          float m2 = __shfl_xor_sync(~0u, m, o), s2 = __shfl_xor_sync(~0u, s, o);
          float mm = fmaxf(m, m2);
          s = s * ex2((m - mm) * c) + s2 * ex2((m2 - mm) * c);
          m = mm;
        }
      }
      float r = 1.f / s;
      if constexpr (Mode == 3) r *= ex2((mt - m) * c);
      mc = m * c;
#pragma unroll
      for (int i = 0; i < V; ++i) {
        float e[8];
#pragma unroll
        for (int j = 0; j < 8; ++j)
          e[j] = (Mode == 3 ? f[8 * i + j] : ex2(fmaf(at(8 * i + j), c, -mc))) * r;
        uint4 o;
        o.x = pack(e[0], e[1]);
        o.y = pack(e[2], e[3]);
        o.z = pack(e[4], e[5]);
        o.w = pack(e[6], e[7]);
        y[(size_t)row * (N / 8) + i * T + threadIdx.x] = o;
      }
      return;
    } else {
#pragma unroll
    for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(~0u, m, o));
    if (T > 32 && Mode != 2) {
      if (l == 0) red[0][w] = m;
      __syncthreads();
      m = red[0][0];
#pragma unroll
      for (int k = 1; k < T / 32; ++k) m = fmaxf(m, red[0][k]);
    }
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < 8 * V; ++k) {
      if constexpr (Mode == 4)  // motif's math: sub, mul, ex2 without ftz
        f[k] = ex2_noftz((f[k] - m) * 1.4426950408889634f);
      else if constexpr (Mode == 5)  // one FFMA, ex2.ftz
        f[k] = ex2(fmaf(f[k], 1.4426950408889634f, -m * 1.4426950408889634f));
      else
        f[k] = ex2((f[k] - m) * 1.4426950408889634f);
      s += f[k];
    }
#pragma unroll
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(~0u, s, o);
    if (T > 32 && Mode != 2) {
      if (l == 0) red[1][w] = s;
      __syncthreads();
      s = red[1][0];
#pragma unroll
      for (int k = 1; k < T / 32; ++k) s += red[1][k];
    }
    float r = 1.f / s;
#pragma unroll
    for (int i = 0; i < V; ++i) {
      uint4 o;
      o.x = pack(f[8 * i] * r, f[8 * i + 1] * r);
      o.y = pack(f[8 * i + 2] * r, f[8 * i + 3] * r);
      o.z = pack(f[8 * i + 4] * r, f[8 * i + 5] * r);
      o.w = pack(f[8 * i + 6] * r, f[8 * i + 7] * r);
      y[(size_t)row * (N / 8) + i * T + threadIdx.x] = o;
    }
    }
  }
};

template <int N, int T, int Mode = 0>
__global__ __launch_bounds__(T, T >= 256 ? 2048 / T : 1) void row_kernel(const uint4 *x, uint4 *y, int M) {
  __shared__ float red[2][T / 32 > 0 ? T / 32 : 1];
  for (int row = blockIdx.x; row < M; row += gridDim.x) {
    Row<N, T> r;
    r.load(x, row);
    r.template process<Mode>(y, row, red);
  }
}

template <int N, int T> __global__ __launch_bounds__(T, T >= 256 ? 2048 / T : 1) void prefetch_kernel(const uint4 *x, uint4 *y, int M) {
  __shared__ float red[2][T / 32 > 0 ? T / 32 : 1];
  int row = blockIdx.x;
  if (row >= M) return;
  Row<N, T> cur;
  cur.load(x, row);
  for (; row < M; row += gridDim.x) {
    Row<N, T> next;
    int nr = row + gridDim.x;
    if (nr < M) next.load(x, nr);
    cur.process(y, row, red);
    cur = next;
  }
}

template <int N, int T> void shape(int M, Timer &tm, float ceiling) {
  size_t n = (size_t)M * N, bytes = 2 * n * 2;
  std::vector<uint16_t> hx(n), hy(n);
  normal_bf16(hx, (uint64_t)M * N);
  uint4 *dx, *dy, *dz;
  CK(cudaMalloc(&dx, n * 2));
  CK(cudaMalloc(&dy, n * 2));
  CK(cudaMalloc(&dz, n * 2));
  CK(cudaMemcpy(dx, hx.data(), n * 2, cudaMemcpyHostToDevice));
  int sms = 0, perSM = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, row_kernel<N, T>, T, 0));
  float copy = tm.median_ms([&] { CK(cudaMemcpyAsync(dz, dx, n * 2, cudaMemcpyDeviceToDevice)); });
  std::printf("== %dx%d bf16, T=%d, %d blocks an SM, %d SMs: copy of the same bytes %.4f ms (%.2f of the 1 GiB copy)\n",
              M, N, T, perSM, sms, copy, bytes / (copy * 1e-3) / 1e9 / ceiling);
  struct Var { const char *name; void (*k)(const uint4 *, uint4 *, int); int grid; };
  int resident = perSM * sms;
  Var vars[] = {{"R row a block", row_kernel<N, T>, M},
                {"G grid stride", row_kernel<N, T>, std::min(M, resident)},
                {"P prefetch next row", prefetch_kernel<N, T>, std::min(M, resident)},
                {"G grid stride x2", row_kernel<N, T>, std::min(M, 2 * resident)},
                {"P prefetch x2", prefetch_kernel<N, T>, std::min(M, 2 * resident)},
                {"O online, 1 barrier", row_kernel<N, T, 1>, M},
                {"K online, exps kept", row_kernel<N, T, 3>, M},
                {"B bound, no barrier", row_kernel<N, T, 2>, M},
                {"X R, ex2 without ftz", row_kernel<N, T, 4>, M},
                {"F R, ffma + ex2.ftz", row_kernel<N, T, 5>, M},
                {"R row a block (again)", row_kernel<N, T>, M},
                {"O online (again)", row_kernel<N, T, 1>, M}};
  for (auto &v : vars) {
    CK(cudaMemset(dy, 0xff, n * 2));
    v.k<<<v.grid, T>>>(dx, dy, M);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hy.data(), dy, n * 2, cudaMemcpyDeviceToHost));
    double err = 0;
    for (int r = 0; r < M; r += 97) {
      double mx = -INFINITY, s = 0;
      for (int k = 0; k < N; ++k) mx = std::max(mx, (double)bf2f(hx[(size_t)r * N + k]));
      for (int k = 0; k < N; ++k) s += std::exp(bf2f(hx[(size_t)r * N + k]) - mx);
      double rowmax = 0, d = 0;
      for (int k = 0; k < N; ++k) {
        double ref = std::exp(bf2f(hx[(size_t)r * N + k]) - mx) / s;
        rowmax = std::max(rowmax, ref);
        d = std::max(d, std::fabs(ref - bf2f(hy[(size_t)r * N + k])));
      }
      err = std::max(err, d / rowmax);
    }
    float ms = tm.median_ms([&] { v.k<<<v.grid, T>>>(dx, dy, M); });
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, v.k));
    std::printf("%-22s grid=%6d regs=%3d local=%3zu smem=%4zu  %.4f ms  %5.0f GB/s  of copy %.3f  of same %.3f  relerr %.2e%s\n",
                v.name, v.grid, fa.numRegs, fa.localSizeBytes, fa.sharedSizeBytes, ms, bytes / (ms * 1e-3) / 1e9,
                bytes / (ms * 1e-3) / 1e9 / ceiling, copy / ms, err, err <= 0x1p-8 ? "" : "  WRONG");
  }
  CK(cudaFree(dx));
  CK(cudaFree(dy));
  CK(cudaFree(dz));
}

int main() {
  Timer tm;
  float ceiling = copy_ceiling(tm);
  shape<4096, 256>(8192, tm, ceiling);
  shape<4096, 128>(8192, tm, ceiling);
  shape<1024, 64>(16384, tm, ceiling);
  shape<1024, 128>(16384, tm, ceiling);
  return 0;
}
