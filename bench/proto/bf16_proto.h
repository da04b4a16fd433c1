// Shared by the bf16 row prototypes (bf16_short_rows.cu, bf16_cluster_rows.cu): error checks, the
// exp and bf16 packing the mathematical form's kernels use, the L2 evict_last load motif's row kernels
// issue, host bf16 conversion, N(0,1) inputs, and the timer of motif.bench (CUDA events around each
// launch, a 256 MiB memset before each, median). Not part of the build.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>
#include <cuda_runtime.h>

#define CK(x)                                                                                  \
  do {                                                                                         \
    cudaError_t e_ = (x);                                                                      \
    if (e_ != cudaSuccess) {                                                                   \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__);    \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

__device__ __forceinline__ float ex2(float v) {
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
}
__device__ __forceinline__ float ex2_noftz(float v) {  // what motif's lowering emits (subnormal results kept)
  float r;
  asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
}
__device__ __forceinline__ uint32_t pack(float a, float b) {  // cvt.rn.bf16x2.f32: b high, a low
  uint32_t r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(b), "f"(a));
  return r;
}
__device__ __forceinline__ uint4 ldg(const uint4 *p) {
  uint4 r;
  asm volatile("{\n\t.reg .b64 pol;\n\tcreatepolicy.fractional.L2::evict_last.b64 pol, 1.0;\n\t"
               "ld.global.nc.L2::cache_hint.v4.b32 {%0,%1,%2,%3}, [%4], pol;\n\t}"
               : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
               : "l"(p));
  return r;
}

static float bf2f(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

static uint16_t f2bf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return (uint16_t)(u >> 16);
}

struct Timer {
  void *lead;
  size_t leadBytes = 256u << 20;
  Timer() { CK(cudaMalloc(&lead, leadBytes)); }
  float median_ms(const std::function<void()> &f, int runs = 40) {
    for (int i = 0; i < 3; ++i) f();
    CK(cudaDeviceSynchronize());
    std::vector<cudaEvent_t> s(runs), e(runs);
    for (int i = 0; i < runs; ++i) {
      CK(cudaEventCreate(&s[i]));
      CK(cudaEventCreate(&e[i]));
      CK(cudaMemsetAsync(lead, 0, leadBytes));
      CK(cudaEventRecord(s[i]));
      f();
      CK(cudaEventRecord(e[i]));
    }
    CK(cudaDeviceSynchronize());
    std::vector<float> t(runs);
    for (int i = 0; i < runs; ++i) {
      CK(cudaEventElapsedTime(&t[i], s[i], e[i]));
      CK(cudaEventDestroy(s[i]));
      CK(cudaEventDestroy(e[i]));
    }
    std::sort(t.begin(), t.end());
    return t[runs / 2];
  }
};

// N(0,1) by Box-Muller, rounded to bf16, from a seed (the same inputs for every variant of a shape).
static void normal_bf16(std::vector<uint16_t> &h, uint64_t seed) {
  uint64_t st = 0x9e3779b97f4a7c15ull ^ seed;
  for (auto &v : h) {
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    double u1 = ((st >> 11) + 1) * 0x1.0p-53;
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    double u2 = (st >> 11) * 0x1.0p-53;
    v = f2bf((float)(std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2)));
  }
}

// The 1 GiB device copy after the same memset lead: the ceiling every fraction is of (GB/s).
static float copy_ceiling(Timer &tm) {
  size_t big = 1u << 30;
  void *a, *b;
  CK(cudaMalloc(&a, big));
  CK(cudaMalloc(&b, big));
  CK(cudaMemset(a, 1, big));
  float c = tm.median_ms([&] { CK(cudaMemcpyAsync(b, a, big, cudaMemcpyDeviceToDevice)); });
  float ceiling = 2.0 * big / (c * 1e-3) / 1e9;
  std::printf("copy ceiling (1 GiB, cudaMemcpyAsync, after a 256 MiB memset): %.4f ms, %.0f GB/s\n", c, ceiling);
  CK(cudaFree(a));
  CK(cudaFree(b));
  return ceiling;
}

