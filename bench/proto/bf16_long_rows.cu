// Prototype (issue 13): bf16 softmax on long rows (2048x65536, 1024x131072), bf16 in and out, f32
// statistics, exp as ex2.approx with log2(e) folded in (the mathematical form's math). What keeps
// HBM busy when one row fills an SM? Not part of the build. Variants:
//   A  keep     the compiler's schedule today: T threads, R elements a thread in registers (their
//               f32 exps kept there), S in a thread-private shared tail (x as bf16, then the f32 exps
//               in a second region): one block an SM at 2048x65536 -- load, reduce, store in turn.
//   B  recomp   x stays bf16 (two a register, the tail bf16 in shared); exp(x - m) is computed for
//               the sum and again for the output (one more MUFU.EX2 an element): half the on-chip
//               bytes a row, so B blocks of different rows share an SM (MINB) and overlap phases.
//   P  persist  one persistent block an SM; its row in registers (bf16 pairs); the next row is
//               copied into shared memory by cp.async while this one is reduced and stored.
// Every variant is checked against a float64 softmax of 8 rows (max rel. err), then timed (CUDA
// events, median of 20) with a device copy of the same bytes.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/bf16rows bf16_long_rows.cu && /tmp/bf16rows
#include <cstdio>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cstring>
#include <functional>
#include <cuda_runtime.h>
#include <cuda_bf16.h>

__device__ __forceinline__ float ex2(float v) {
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
}
__device__ __forceinline__ void unpack(uint32_t w, float &a, float &b) {
  a = __uint_as_float(w << 16);
  b = __uint_as_float(w & 0xffff0000u);
}
// The same, opaque to CSE: the exps of a pass unpack again instead of keeping 2 f32 a register live.
__device__ __forceinline__ void unpack_again(uint32_t w, float &a, float &b) {
  uint32_t lo, hi;
  asm volatile("shl.b32 %0, %2, 16;\n\tand.b32 %1, %2, 0xffff0000;" : "=r"(lo), "=r"(hi) : "r"(w));
  a = __uint_as_float(lo);
  b = __uint_as_float(hi);
}
__device__ __forceinline__ uint32_t pack(float a, float b) {
  __nv_bfloat162 h = __floats2bfloat162_rn(a, b);
  return *reinterpret_cast<uint32_t *>(&h);
}
__device__ __forceinline__ __nv_bfloat162 as2(uint32_t w) { return *reinterpret_cast<__nv_bfloat162 *>(&w); }
// max of 8 bf16 in pairs (HMNMX2.BF16: exact), then one f32 max
__device__ __forceinline__ float max8(uint4 v, float m) {
  __nv_bfloat162 p = __hmax2(__hmax2(as2(v.x), as2(v.y)), __hmax2(as2(v.z), as2(v.w)));
  return fmaxf(m, fmaxf(__low2float(p), __high2float(p)));
}
__device__ __forceinline__ float sum8(uint4 v, float mc, float l) {
  const float c = 1.4426950408889634f;
  float a, b;
  unpack_again(v.x, a, b); l += ex2(fmaf(a, c, -mc)) + ex2(fmaf(b, c, -mc));
  unpack_again(v.y, a, b); l += ex2(fmaf(a, c, -mc)) + ex2(fmaf(b, c, -mc));
  unpack_again(v.z, a, b); l += ex2(fmaf(a, c, -mc)) + ex2(fmaf(b, c, -mc));
  unpack_again(v.w, a, b); l += ex2(fmaf(a, c, -mc)) + ex2(fmaf(b, c, -mc));
  return l;
}
__device__ __forceinline__ uint4 out8(uint4 v, float mc, float inv) {
  const float c = 1.4426950408889634f;
  float a, b;
  uint4 o;
  unpack_again(v.x, a, b); o.x = pack(ex2(fmaf(a, c, -mc)) * inv, ex2(fmaf(b, c, -mc)) * inv);
  unpack_again(v.y, a, b); o.y = pack(ex2(fmaf(a, c, -mc)) * inv, ex2(fmaf(b, c, -mc)) * inv);
  unpack_again(v.z, a, b); o.z = pack(ex2(fmaf(a, c, -mc)) * inv, ex2(fmaf(b, c, -mc)) * inv);
  unpack_again(v.w, a, b); o.w = pack(ex2(fmaf(a, c, -mc)) * inv, ex2(fmaf(b, c, -mc)) * inv);
  return o;
}

template <int T>
__device__ __forceinline__ float block_max(float m, float *red) {
  for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(~0u, m, o));
  if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = m;
  __syncthreads();
  m = red[0];
#pragma unroll
  for (int w = 1; w < T / 32; ++w) m = fmaxf(m, red[w]);
  return m;
}
template <int T>
__device__ __forceinline__ float block_sum(float l, float *red) {
  for (int o = 16; o; o >>= 1) l += __shfl_xor_sync(~0u, l, o);
  if ((threadIdx.x & 31) == 0) red[32 + (threadIdx.x >> 5)] = l;
  __syncthreads();
  l = red[32];
#pragma unroll
  for (int w = 1; w < T / 32; ++w) l += red[32 + w];
  return l;
}

__device__ __forceinline__ void cp_async16(void *smem, const void *gmem) {
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }

// B: R/8 chunks of 8 bf16 a thread in registers, S/8 in shared; x read once, exp twice.
template <int T, int R, int S, int MINB>
__global__ void __launch_bounds__(T, MINB) recomp(const uint4 *__restrict__ x, uint4 *__restrict__ y, int N) {
  extern __shared__ uint4 tail[];  // [S/8][T]
  __shared__ float red[64];
  const int tid = threadIdx.x;
  const uint4 *row = x + (size_t)blockIdx.x * (N / 8);
  uint4 *out = y + (size_t)blockIdx.x * (N / 8);
  uint4 r[R / 8];
#pragma unroll
  for (int c = 0; c < R / 8; ++c) r[c] = row[c * T + tid];
#pragma unroll
  for (int c = 0; c < S / 8; ++c) cp_async16(&tail[c * T + tid], &row[(R / 8 + c) * T + tid]);
  cp_async_commit();
  float m = -INFINITY;
#pragma unroll
  for (int c = 0; c < R / 8; ++c) m = max8(r[c], m);
  cp_async_wait_all();
#pragma unroll
  for (int c = 0; c < S / 8; ++c) m = max8(tail[c * T + tid], m);
  m = block_max<T>(m, red);
  const float mc = m * 1.4426950408889634f;
  float l = 0.f;
#pragma unroll
  for (int c = 0; c < R / 8; ++c) l = sum8(r[c], mc, l);
#pragma unroll
  for (int c = 0; c < S / 8; ++c) l = sum8(tail[c * T + tid], mc, l);
  l = block_sum<T>(l, red);
  const float inv = 1.f / l;
#pragma unroll
  for (int c = 0; c < R / 8; ++c) out[c * T + tid] = out8(r[c], mc, inv);
#pragma unroll
  for (int c = 0; c < S / 8; ++c) out[(R / 8 + c) * T + tid] = out8(tail[c * T + tid], mc, inv);
}

// A: the compiler's schedule today (f32 exps kept: R in registers, S in a second shared region).
template <int T, int R, int S, int MINB>
__global__ void __launch_bounds__(T, MINB) keep(const uint4 *__restrict__ x, uint4 *__restrict__ y, int N) {
  extern __shared__ uint4 tail[];  // [S/8][T] bf16 x, then [S/4][T] float4 exps
  float4 *etail = reinterpret_cast<float4 *>(tail + (S / 8) * T);
  __shared__ float red[64];
  const int tid = threadIdx.x;
  const uint4 *row = x + (size_t)blockIdx.x * (N / 8);
  uint4 *out = y + (size_t)blockIdx.x * (N / 8);
  float e[R];
#pragma unroll
  for (int c = 0; c < R / 8; ++c) {
    uint4 v = row[c * T + tid];
    unpack(v.x, e[8 * c], e[8 * c + 1]); unpack(v.y, e[8 * c + 2], e[8 * c + 3]);
    unpack(v.z, e[8 * c + 4], e[8 * c + 5]); unpack(v.w, e[8 * c + 6], e[8 * c + 7]);
  }
#pragma unroll
  for (int c = 0; c < S / 8; ++c) tail[c * T + tid] = row[(R / 8 + c) * T + tid];
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < R; ++i) m = fmaxf(m, e[i]);
#pragma unroll
  for (int c = 0; c < S / 8; ++c) m = max8(tail[c * T + tid], m);
  m = block_max<T>(m, red);
  const float c2 = 1.4426950408889634f, mc = m * c2;
  float l = 0.f;
#pragma unroll
  for (int i = 0; i < R; ++i) { e[i] = ex2(fmaf(e[i], c2, -mc)); l += e[i]; }
#pragma unroll
  for (int c = 0; c < S / 8; ++c) {
    uint4 v = tail[c * T + tid];
    float a[8];
    unpack(v.x, a[0], a[1]); unpack(v.y, a[2], a[3]); unpack(v.z, a[4], a[5]); unpack(v.w, a[6], a[7]);
#pragma unroll
    for (int k = 0; k < 8; ++k) { a[k] = ex2(fmaf(a[k], c2, -mc)); l += a[k]; }
    etail[(2 * c) * T + tid] = make_float4(a[0], a[1], a[2], a[3]);
    etail[(2 * c + 1) * T + tid] = make_float4(a[4], a[5], a[6], a[7]);
  }
  l = block_sum<T>(l, red);
  const float inv = 1.f / l;
#pragma unroll
  for (int c = 0; c < R / 8; ++c)
    out[c * T + tid] = make_uint4(pack(e[8 * c] * inv, e[8 * c + 1] * inv), pack(e[8 * c + 2] * inv, e[8 * c + 3] * inv),
                                  pack(e[8 * c + 4] * inv, e[8 * c + 5] * inv), pack(e[8 * c + 6] * inv, e[8 * c + 7] * inv));
#pragma unroll
  for (int c = 0; c < S / 8; ++c) {
    float4 p = etail[(2 * c) * T + tid], q = etail[(2 * c + 1) * T + tid];
    out[(R / 8 + c) * T + tid] = make_uint4(pack(p.x * inv, p.y * inv), pack(p.z * inv, p.w * inv),
                                            pack(q.x * inv, q.y * inv), pack(q.z * inv, q.w * inv));
  }
}

// P: persistent; E/8 chunks a thread; the whole row in registers, the next one in flight into shared.
template <int T, int E>
__global__ void __launch_bounds__(T, 1) persist(const uint4 *__restrict__ x, uint4 *__restrict__ y, int M, int N) {
  extern __shared__ uint4 next[];  // [E/8][T]: each thread copies and reads only its own chunks
  __shared__ float red[64];
  const int tid = threadIdx.x;
  int rowi = blockIdx.x;
  if (rowi < M) {
#pragma unroll
    for (int c = 0; c < E / 8; ++c) cp_async16(&next[c * T + tid], x + (size_t)rowi * (N / 8) + c * T + tid);
  }
  cp_async_commit();
  for (; rowi < M; rowi += gridDim.x) {
    cp_async_wait_all();
    uint4 r[E / 8];
#pragma unroll
    for (int c = 0; c < E / 8; ++c) r[c] = next[c * T + tid];
    float m = -INFINITY;
#pragma unroll
    for (int c = 0; c < E / 8; ++c) m = max8(r[c], m);
    // every value read back (m depends on all of them) before the copies of the next row land
    int nrow = rowi + gridDim.x;
    if (nrow < M) {
      asm volatile("" ::"f"(m));
#pragma unroll
      for (int c = 0; c < E / 8; ++c) cp_async16(&next[c * T + tid], x + (size_t)nrow * (N / 8) + c * T + tid);
    }
    cp_async_commit();
    m = block_max<T>(m, red);
    const float mc = m * 1.4426950408889634f;
    float l = 0.f;
#pragma unroll
    for (int c = 0; c < E / 8; ++c) l = sum8(r[c], mc, l);
    l = block_sum<T>(l, red);
    const float inv = 1.f / l;
    uint4 *out = y + (size_t)rowi * (N / 8);
#pragma unroll
    for (int c = 0; c < E / 8; ++c) out[c * T + tid] = out8(r[c], mc, inv);
    __syncthreads();  // red[] reused by the next row
  }
}

__global__ void copy_kernel(const uint4 *__restrict__ x, uint4 *__restrict__ y, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) y[i] = x[i];
}

struct Ctx {
  int M, N;
  uint4 *x, *y;
  std::vector<uint16_t> h;
  double copy_ms;
};

template <typename F>
float time_ms(F launch) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0); cudaEventCreate(&e1);
  std::vector<float> ts;
  for (int i = 0; i < 25; ++i) {
    cudaEventRecord(e0); launch(); cudaEventRecord(e1); cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1);
    if (i >= 5) ts.push_back(ms);
  }
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}

static float bf(uint16_t v) { uint32_t w = (uint32_t)v << 16; float f; memcpy(&f, &w, 4); return f; }

double check(Ctx &c) {
  const int rows = 8;
  std::vector<uint16_t> o((size_t)rows * c.N);
  double worst = 0;
  for (int k = 0; k < rows; ++k) {
    int ri = (int)((long long)k * (c.M - 1) / (rows - 1));
    cudaMemcpy(o.data() + (size_t)k * c.N, reinterpret_cast<uint16_t *>(c.y) + (size_t)ri * c.N, c.N * 2, cudaMemcpyDeviceToHost);
    const uint16_t *xr = c.h.data() + (size_t)ri * c.N;
    double m = -1e300, l = 0;
    for (int j = 0; j < c.N; ++j) m = std::max(m, (double)bf(xr[j]));
    for (int j = 0; j < c.N; ++j) l += std::exp(bf(xr[j]) - m);
    for (int j = 0; j < c.N; ++j) {
      double ref = std::exp(bf(xr[j]) - m) / l;
      worst = std::max(worst, std::fabs(bf(o[(size_t)k * c.N + j]) - ref) / ref);
    }
  }
  return worst;
}

template <typename K>
void report(Ctx &c, const char *name, K kernel, int grid, int T, size_t smem, std::function<void()> launch) {
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  cudaFuncAttributes a; cudaFuncGetAttributes(&a, kernel);
  int perSM = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, kernel, T, smem);
  cudaMemset(c.y, 0, (size_t)c.M * c.N * 2);
  launch();
  cudaError_t err = cudaDeviceSynchronize();
  double e = check(c);
  float ms = time_ms(launch);
  double bytes = 2.0 * c.M * c.N * 2;
  printf("%-34s grid=%5d T=%4d smem=%7zu regs=%3d local=%3d blk/SM=%d  %.4f ms  %5.0f GB/s  x copy %.2f  relerr %.2e  %s\n",
         name, grid, T, smem, a.numRegs, (int)a.localSizeBytes, perSM, ms, bytes / ms / 1e6, c.copy_ms / ms, e,
         cudaGetErrorString(err));
}

template <int T, int R, int S, int MINB>
void runB(Ctx &c, const char *name) {
  size_t smem = (size_t)S * T * 2;
  auto k = recomp<T, R, S, MINB>;
  report(c, name, k, c.M, T, smem, [&] { k<<<c.M, T, smem>>>(c.x, c.y, c.N); });
}
template <int T, int R, int S, int MINB>
void runA(Ctx &c, const char *name) {
  size_t smem = (size_t)S * T * 2 + (size_t)S * T * 4;
  auto k = keep<T, R, S, MINB>;
  report(c, name, k, c.M, T, smem, [&] { k<<<c.M, T, smem>>>(c.x, c.y, c.N); });
}
template <int T, int E>
void runP(Ctx &c, const char *name, int grid) {
  size_t smem = (size_t)E * T * 2;
  auto k = persist<T, E>;
  report(c, name, k, grid, T, smem, [&] { k<<<grid, T, smem>>>(c.x, c.y, c.M, c.N); });
}

void setup(Ctx &c, int M, int N) {
  c.M = M; c.N = N;
  cudaMalloc(&c.x, (size_t)M * N * 2); cudaMalloc(&c.y, (size_t)M * N * 2);
  c.h.resize((size_t)M * N);
  unsigned s = 12345u + M;
  for (auto &v : c.h) {
    s = s * 1664525u + 1013904223u;
    float f = ((s >> 8) / 16777216.f - 0.5f) * 8.f;
    uint32_t w; memcpy(&w, &f, 4); v = (uint16_t)((w + 0x7fff + ((w >> 16) & 1)) >> 16);
  }
  cudaMemcpy(c.x, c.h.data(), c.h.size() * 2, cudaMemcpyHostToDevice);
  size_t n = (size_t)M * N / 8;
  c.copy_ms = time_ms([&] { copy_kernel<<<132 * 8, 512>>>(c.x, c.y, n); });
  printf("== %dx%d bf16: copy of the same bytes %.4f ms (%.0f GB/s)\n", M, N, c.copy_ms, 4.0 * M * N / c.copy_ms / 1e6);
}

int main() {
  int sms = 0; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  {
    Ctx c; setup(c, 2048, 65536);
    runA<512, 64, 64, 1>(c, "A keep t512 r64 s64 (today)");
    runB<512, 128, 0, 1>(c, "B recomp t512 r128 (1/SM)");
    runB<512, 64, 64, 2>(c, "B recomp t512 r64 s64 (2/SM)");
    runB<512, 32, 96, 2>(c, "B recomp t512 r32 s96 (2/SM)");
    runB<256, 128, 128, 2>(c, "B recomp t256 r128 s128 (2/SM)");
    runB<256, 96, 160, 2>(c, "B recomp t256 r96 s160 (2/SM)");
    runB<1024, 32, 32, 1>(c, "B recomp t1024 r32 s32 (2x512/SM)");
    runP<512, 128>(c, "P persist t512 e128", sms);
    runP<1024, 64>(c, "P persist t1024 e64", sms);
    runA<512, 64, 64, 1>(c, "A keep t512 r64 s64 (again)");
    cudaFree(c.x); cudaFree(c.y);
  }
  {
    Ctx c; setup(c, 1024, 131072);
    runB<512, 128, 128, 1>(c, "B recomp t512 r128 s128 (1/SM)");
    runB<1024, 64, 64, 1>(c, "B recomp t1024 r64 s64 (1/SM)");
    runB<1024, 32, 96, 1>(c, "B recomp t1024 r32 s96 (1/SM)");
    cudaFree(c.x); cudaFree(c.y);
  }
  return 0;
}
