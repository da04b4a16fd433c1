// Prototype (issue 12): a softmax row of 65536 fp32 kept on chip in registers plus a
// thread-private shared-memory tail, read once from global memory. Measures what the
// split residency would give before the compiler builds it. Not part of the build.
#include <cstdio>
#include <cuda_runtime.h>
#include <cmath>
#include <vector>
#include <algorithm>

template <int T, int R, int S>
__global__ void __launch_bounds__(T, 1) split_softmax(const float *__restrict__ x, float *__restrict__ y, int N) {
  extern __shared__ float4 tail[];  // [S/4][T] float4, thread-private columns
  __shared__ float red[32];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const float4 *row = reinterpret_cast<const float4 *>(x + (size_t)blockIdx.x * N);
  float4 *out = reinterpret_cast<float4 *>(y + (size_t)blockIdx.x * N);
  float4 r[R / 4];
#pragma unroll
  for (int c = 0; c < R / 4; ++c) r[c] = row[c * T + tid];
#pragma unroll
  for (int c = 0; c < S / 4; ++c) tail[c * T + tid] = row[(R / 4 + c) * T + tid];
  float m = -INFINITY;
#pragma unroll
  for (int c = 0; c < R / 4; ++c) m = fmaxf(m, fmaxf(fmaxf(r[c].x, r[c].y), fmaxf(r[c].z, r[c].w)));
#pragma unroll
  for (int c = 0; c < S / 4; ++c) { float4 v = tail[c * T + tid]; m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w))); }
  for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(~0u, m, o));
  if (lane == 0) red[warp] = m;
  __syncthreads();
  m = red[0];
  for (int w = 1; w < T / 32; ++w) m = fmaxf(m, red[w]);
  __syncthreads();
  const float c2 = 1.4426950408889634f;
  float l = 0.f;
#pragma unroll
  for (int c = 0; c < R / 4; ++c) {
    r[c].x = exp2f((r[c].x - m) * c2); r[c].y = exp2f((r[c].y - m) * c2);
    r[c].z = exp2f((r[c].z - m) * c2); r[c].w = exp2f((r[c].w - m) * c2);
    l += r[c].x + r[c].y + r[c].z + r[c].w;
  }
#pragma unroll
  for (int c = 0; c < S / 4; ++c) {
    float4 v = tail[c * T + tid];
    v.x = exp2f((v.x - m) * c2); v.y = exp2f((v.y - m) * c2); v.z = exp2f((v.z - m) * c2); v.w = exp2f((v.w - m) * c2);
    l += v.x + v.y + v.z + v.w;
    tail[c * T + tid] = v;
  }
  for (int o = 16; o; o >>= 1) l += __shfl_xor_sync(~0u, l, o);
  if (lane == 0) red[warp] = l;
  __syncthreads();
  l = red[0];
  for (int w = 1; w < T / 32; ++w) l += red[w];
  const float inv = 1.f / l;
#pragma unroll
  for (int c = 0; c < R / 4; ++c) { float4 v = r[c]; v.x *= inv; v.y *= inv; v.z *= inv; v.w *= inv; __stcs(&out[c * T + tid], v); }
#pragma unroll
  for (int c = 0; c < S / 4; ++c) { float4 v = tail[c * T + tid]; v.x *= inv; v.y *= inv; v.z *= inv; v.w *= inv; __stcs(&out[(R / 4 + c) * T + tid], v); }
}

// Reference peer written the same way but reading the row twice (online-style second pass).
template <int T, int R, int S>
float run(const float *x, float *y, int M, int N, const char *name) {
  size_t smem = (size_t)S * T * 4;
  auto k = split_softmax<T, R, S>;
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  cudaFuncAttributes a; cudaFuncGetAttributes(&a, k);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  std::vector<float> ts;
  for (int i = 0; i < 25; ++i) {
    cudaEventRecord(e0); k<<<M, T, smem>>>(x, y, N); cudaEventRecord(e1); cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1); if (i >= 5) ts.push_back(ms);
  }
  std::sort(ts.begin(), ts.end());
  float ms = ts[ts.size() / 2];
  cudaError_t err = cudaGetLastError();
  printf("%-28s T=%4d R=%3d S=%3d smem=%7zu regs=%3d spill=%d  %.4f ms  %.0f GB/s  %s\n", name, T, R, S, smem,
         a.numRegs, (int)a.localSizeBytes, ms, 2.0 * M * N * 4 / ms / 1e6, cudaGetErrorString(err));
  return ms;
}

int main() {
  const int M = 2048, N = 65536;
  float *x, *y; cudaMalloc(&x, (size_t)M * N * 4); cudaMalloc(&y, (size_t)M * N * 4);
  std::vector<float> h((size_t)M * N);
  unsigned s = 12345; for (auto &v : h) { s = s * 1664525u + 1013904223u; v = ((s >> 8) / 16777216.f - 0.5f) * 8.f; }
  cudaMemcpy(x, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  run<256, 64, 192>(x, y, M, N, "split t256");
  run<512, 64, 64>(x, y, M, N, "split t512 r64");
  run<512, 32, 96>(x, y, M, N, "split t512 r32");
  run<1024, 32, 32>(x, y, M, N, "split t1024 r32");
  run<1024, 16, 48>(x, y, M, N, "split t1024 r16");
  run<1024, 40, 24>(x, y, M, N, "split t1024 r40");
  // check the last run against a double reference on a few rows
  std::vector<float> o((size_t)4 * N); cudaMemcpy(o.data(), y, o.size() * 4, cudaMemcpyDeviceToHost);
  double worst = 0;
  for (int rI = 0; rI < 4; ++rI) {
    double m = -1e300, l = 0; for (int j = 0; j < N; ++j) m = std::max(m, (double)h[(size_t)rI * N + j]);
    for (int j = 0; j < N; ++j) l += std::exp(h[(size_t)rI * N + j] - m);
    for (int j = 0; j < N; ++j) { double ref = std::exp(h[(size_t)rI * N + j] - m) / l; worst = std::max(worst, std::fabs(o[(size_t)rI * N + j] - ref) / ref); }
  }
  printf("max rel err (4 rows) %.3e\n", worst);
  return 0;
}
