// Prototype (issue 13): bf16 softmax 1024x131072 on clusters of 8 CTAs of 128 threads, a row a cluster,
// as motif's default schedule lowers it (docs/lowering.md, "Clusters"): 128 elements a thread, half of
// them in registers (bf16 pairs) and half in a thread-private shared tail; warp partials pushed into
// every CTA of the cluster (mapa + st.shared::cluster) before a cluster barrier, read locally after it;
// a start barrier before the first push. The kernel reaches 0.885 of the copy ceiling on the H200, a
// copy of the same bytes 0.98. Does one exchange of the online state (m, l) instead of two (max, then
// sum of exps) close the gap? Not part of the build. Variants:
//   A  two     motif's schedule: the max exchanged, then the sum of exp(x - max): three cluster
//              barriers (start, max, sum), exp computed twice an element (sum, output)
//   O  online  each thread's (max, sum of exp(x - its max)), merged across the warp, pushed; one
//              exchange, two cluster barriers (start, state); still two exps an element
//   Z  bound   A with no cluster barrier and no push: each warp normalizes by its own partials (a
//              WRONG kernel, the time of everything but the exchanges)
// Every variant is checked against a float64 softmax of every 31st row (max error over the row's
// largest), then timed as motif.bench times (CUDA events, a 256 MiB memset before each, median of 40),
// with a device copy of the same bytes and the 1 GiB copy ceiling timed the same way.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/bf16cluster bf16_cluster_rows.cu && /tmp/bf16cluster
#include "bf16_proto.h"

namespace {
constexpr int kN = 131072, kM = 1024, kC = 8, kT = 128, kW = kT / 32;
constexpr int kSeg = kN / 8 / kC;  // uint4 of a row a CTA holds: 2048
constexpr int kV = kSeg / kT;      // uint4 a thread: 16, the first R in registers, the rest in shared
constexpr float kLog2e = 1.4426950408889634f;

// x unpacked at each use (as motif's kernel does): volatile, so the f32 values are not kept from one
// pass to the next (128 of them would not fit the 64 registers of 8 CTAs an SM).
__device__ __forceinline__ float lo(uint32_t w) {
  uint32_t r;
  asm volatile("shl.b32 %0, %1, 16;" : "=r"(r) : "r"(w));
  return __uint_as_float(r);
}
__device__ __forceinline__ float hi(uint32_t w) {
  uint32_t r;
  asm volatile("and.b32 %0, %1, 0xffff0000;" : "=r"(r) : "r"(w));
  return __uint_as_float(r);
}

__device__ __forceinline__ void push(float *slot, uint32_t rank, float v) {  // v into `slot` of CTA `rank`
  uint32_t local = (uint32_t)__cvta_generic_to_shared(slot), remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(rank));
  asm volatile("st.shared::cluster.f32 [%0], %1;" ::"r"(remote), "f"(v) : "memory");
}
__device__ __forceinline__ void cluster_arrive_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}
__device__ __forceinline__ void cluster_arrive() { asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory"); }
__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"); }

// The thread's uint4 k of the shared tail, read again at each pass: ld.volatile, so that neither the
// compiler nor ptxas keeps a pass's loads in registers for the next (they would spill).
__device__ __forceinline__ uint4 tail_at(const uint4 *tail, int k) {
  uint4 q;
  uint32_t a = (uint32_t)__cvta_generic_to_shared(&tail[k * kT + threadIdx.x]);
  asm volatile("ld.volatile.shared.v4.b32 {%0,%1,%2,%3}, [%4];" : "=r"(q.x), "=r"(q.y), "=r"(q.z), "=r"(q.w) : "r"(a));
  return q;
}

// The thread's part of its row: R uint4 into registers, the rest straight into the shared tail
// (LDGSTS: no register holds it on the way); the thread reads only its own tail.
template <int R> __device__ __forceinline__ void load_row(const uint4 *x, uint4 (&v)[R], uint4 *tail) {
#pragma unroll
  for (int i = 0; i < kV; ++i) {
    if (i < R) {
      v[i] = ldg(x + i * kT);
    } else {
      uint32_t dst = (uint32_t)__cvta_generic_to_shared(&tail[(i - R) * kT + threadIdx.x]);
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(x + i * kT) : "memory");
    }
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
}

// exp(x - m) / s of the thread's part, packed to bf16 and stored.
template <int R>
__device__ __forceinline__ void store_row(uint4 *y, const uint4 (&v)[R], const uint4 *tail, float m, float s) {
  const float r = 1.f / s, mc = m * kLog2e;
#pragma unroll
  for (int i = 0; i < kV; ++i) {
    uint4 q = i < R ? v[i] : tail_at(tail, i - R), o;
    auto e = [&](float f) { return ex2(fmaf(f, kLog2e, -mc)) * r; };
    o.x = pack(e(lo(q.x)), e(hi(q.x)));
    o.y = pack(e(lo(q.y)), e(hi(q.y)));
    o.z = pack(e(lo(q.z)), e(hi(q.z)));
    o.w = pack(e(lo(q.w)), e(hi(q.w)));
    y[i * kT] = o;
  }
}

// The exchange through mbarriers (M, N): st.async stores a value into a slot of CTA `rank` and counts
// its bytes on that CTA's mbarrier (complete_tx); a CTA waits on its own mbarrier for every byte it
// expects, no cluster-wide barrier and no MEMBAR after the start.
__device__ __forceinline__ uint32_t smem(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ uint32_t mapa(uint32_t local, uint32_t rank) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(local), "r"(rank));
  return r;
}
__device__ __forceinline__ void push_async(const float *slot, const uint64_t *bar, uint32_t rank, float v) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.f32 [%0], %1, [%2];"
               ::"r"(mapa(smem(slot), rank)), "f"(v), "r"(mapa(smem(bar), rank)) : "memory");
}
// Thread 0: the mbarrier for one exchange of `bytes`, made visible to the cluster's other CTAs (the
// start barrier's wait follows before any st.async reaches it).
__device__ __forceinline__ void bar_init(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(bar)) : "memory");
  asm volatile("{ .reg .b64 st; mbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1; }" ::"r"(smem(bar)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void bar_wait(const uint64_t *bar) {  // phase 0 complete: every byte arrived
  uint32_t done;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(smem(bar)) : "memory");
  } while (!done);
}

// Apply f to the thread's 128 elements: R uint4 in registers, the rest in the shared tail.
template <int R, class F> __device__ __forceinline__ void each(const uint4 (&v)[R], const uint4 *tail, F f) {
#pragma unroll
  for (int i = 0; i < kV; ++i) {
    uint4 q = i < R ? v[i] : tail_at(tail, i - R);
    f(lo(q.x)), f(hi(q.x)), f(lo(q.y)), f(hi(q.y)), f(lo(q.z)), f(hi(q.z)), f(lo(q.w)), f(hi(q.w));
  }
}

// Mode 3: M (A's two exchanges through mbarriers), 4: N (O's one exchange through an mbarrier).
template <int Mode, int R> __global__ void __cluster_dims__(kC, 1, 1) __launch_bounds__(kT, 8)
    mbar_kernel(const uint4 *x, uint4 *y) {
  __shared__ uint4 tail[(kV - R) * kT];
  __shared__ float xm[kC * kW], xl[kC * kW];
  __shared__ uint64_t bar[2];
  const uint32_t rank = blockIdx.x % kC, w = threadIdx.x / 32, l = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    bar_init(&bar[0], Mode == 3 ? kC * kW * 4 : kC * kW * 8);
    if (Mode == 3) bar_init(&bar[1], kC * kW * 4);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  cluster_arrive_relaxed();  // start: every CTA runs and has its mbarriers before a push
  const size_t base = (size_t)(blockIdx.x / kC) * (kN / 8) + rank * kSeg + threadIdx.x;
  uint4 v[R];
  load_row<R>(x + base, v, tail);
  float m = -INFINITY, s = 0.f;
  each<R>(v, tail, [&](float f) { m = fmaxf(m, f); });
  if constexpr (Mode == 4) {
    const float mc = m * kLog2e;
    each<R>(v, tail, [&](float f) { s += ex2(fmaf(f, kLog2e, -mc)); });
#pragma unroll
    for (int o = 16; o; o >>= 1) {
      float m2 = __shfl_xor_sync(~0u, m, o), s2 = __shfl_xor_sync(~0u, s, o), mm = fmaxf(m, m2);
      s = s * ex2((m - mm) * kLog2e) + s2 * ex2((m2 - mm) * kLog2e);
      m = mm;
    }
    cluster_wait();
    if (l < kC) {
      push_async(&xm[rank * kW + w], &bar[0], l, m);
      push_async(&xl[rank * kW + w], &bar[0], l, s);
    }
    bar_wait(&bar[0]);
    float pm[kC * kW];
#pragma unroll
    for (int k = 0; k < kC * kW; ++k) pm[k] = xm[k];
    m = pm[0];
#pragma unroll
    for (int k = 1; k < kC * kW; ++k) m = fmaxf(m, pm[k]);
    s = 0.f;
#pragma unroll
    for (int k = 0; k < kC * kW; ++k) s += xl[k] * ex2((pm[k] - m) * kLog2e);
  } else {
#pragma unroll
    for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(~0u, m, o));
    cluster_wait();
    if (l < kC) push_async(&xm[rank * kW + w], &bar[0], l, m);
    bar_wait(&bar[0]);
#pragma unroll
    for (int k = 0; k < kC * kW; ++k) m = fmaxf(m, xm[k]);
    const float mc = m * kLog2e;
    each<R>(v, tail, [&](float f) { s += ex2(fmaf(f, kLog2e, -mc)); });
#pragma unroll
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(~0u, s, o);
    if (l < kC) push_async(&xl[rank * kW + w], &bar[1], l, s);
    bar_wait(&bar[1]);
    s = 0.f;
#pragma unroll
    for (int k = 0; k < kC * kW; ++k) s += xl[k];
  }
  store_row<R>(y + base, v, tail, m, s);
}

// Mode 0: A, 1: O, 2: Z; R uint4 a thread in registers (motif's kernel: 8).
template <int Mode, int R> __global__ void __cluster_dims__(kC, 1, 1) __launch_bounds__(kT, 8)
    cluster_kernel(const uint4 *x, uint4 *y) {
  __shared__ uint4 tail[(kV - R) * kT];
  __shared__ float xm[kC * kW], xl[kC * kW];
  const uint32_t rank = blockIdx.x % kC, w = threadIdx.x / 32, l = threadIdx.x % 32;
  if (Mode != 2) cluster_arrive_relaxed();  // start: every CTA of the cluster runs before a push
  const size_t base = (size_t)(blockIdx.x / kC) * (kN / 8) + rank * kSeg + threadIdx.x;
  uint4 v[R];
  load_row<R>(x + base, v, tail);
  float m = -INFINITY, s = 0.f;
  each<R>(v, tail, [&](float f) { m = fmaxf(m, f); });
  if constexpr (Mode == 1) {  // the thread's state, then merged: one exchange
    const float mc = m * kLog2e;
    each<R>(v, tail, [&](float f) { s += ex2(fmaf(f, kLog2e, -mc)); });
#pragma unroll
    for (int o = 16; o; o >>= 1) {
      float m2 = __shfl_xor_sync(~0u, m, o), s2 = __shfl_xor_sync(~0u, s, o), mm = fmaxf(m, m2);
      s = s * ex2((m - mm) * kLog2e) + s2 * ex2((m2 - mm) * kLog2e);
      m = mm;
    }
    cluster_wait();
    if (l < kC) {
      push(&xm[rank * kW + w], l, m);
      push(&xl[rank * kW + w], l, s);
    }
    cluster_arrive();
    cluster_wait();
    float pm[kC * kW];
#pragma unroll
    for (int k = 0; k < kC * kW; ++k) pm[k] = xm[k];
    m = pm[0];
#pragma unroll
    for (int k = 1; k < kC * kW; ++k) m = fmaxf(m, pm[k]);
    s = 0.f;
#pragma unroll
    for (int k = 0; k < kC * kW; ++k) s += xl[k] * ex2((pm[k] - m) * kLog2e);
  } else {
#pragma unroll
    for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(~0u, m, o));
    if constexpr (Mode == 0) {
      cluster_wait();
      if (l < kC) push(&xm[rank * kW + w], l, m);
      cluster_arrive();
      cluster_wait();
#pragma unroll
      for (int k = 0; k < kC * kW; ++k) m = fmaxf(m, xm[k]);
    }
    const float mc = m * kLog2e;
    each<R>(v, tail, [&](float f) { s += ex2(fmaf(f, kLog2e, -mc)); });
#pragma unroll
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(~0u, s, o);
    if constexpr (Mode == 0) {
      if (l < kC) push(&xl[rank * kW + w], l, s);
      cluster_arrive();
      cluster_wait();
      s = 0.f;
#pragma unroll
      for (int k = 0; k < kC * kW; ++k) s += xl[k];
    }
  }
  store_row<R>(y + base, v, tail, m, s);
}
}  // namespace

int main() {
  Timer tm;
  float ceiling = copy_ceiling(tm);
  size_t n = (size_t)kM * kN, bytes = 2 * n * 2;
  std::vector<uint16_t> hx(n), hy(n);
  normal_bf16(hx, n);
  uint4 *dx, *dy, *dz;
  CK(cudaMalloc(&dx, n * 2));
  CK(cudaMalloc(&dy, n * 2));
  CK(cudaMalloc(&dz, n * 2));
  CK(cudaMemcpy(dx, hx.data(), n * 2, cudaMemcpyHostToDevice));
  float copy = tm.median_ms([&] { CK(cudaMemcpyAsync(dz, dx, n * 2, cudaMemcpyDeviceToDevice)); });
  std::printf("== %dx%d bf16, clusters of %d x %d threads: copy of the same bytes %.4f ms (%.3f of the 1 GiB copy)\n",
              kM, kN, kC, kT, copy, bytes / (copy * 1e-3) / 1e9 / ceiling);
  struct Var { const char *name; void (*k)(const uint4 *, uint4 *); bool wrong; };
  Var vars[] = {{"A8 two, motif's layout", cluster_kernel<0, 8>, false},
                {"A4 two exchanges", cluster_kernel<0, 4>, false},
                {"O4 online, one exchange", cluster_kernel<1, 4>, false},
                {"Z4 bound, no exchange", cluster_kernel<2, 4>, true},
                {"M4 two, mbarriers", mbar_kernel<3, 4>, false},
                {"N4 online, one mbarrier", mbar_kernel<4, 4>, false},
                {"M8 two, mbarriers", mbar_kernel<3, 8>, false},
                {"A4 (again)", cluster_kernel<0, 4>, false},
                {"O4 (again)", cluster_kernel<1, 4>, false},
                {"M4 (again)", mbar_kernel<3, 4>, false},
                {"N4 (again)", mbar_kernel<4, 4>, false},
                {"A8 (again)", cluster_kernel<0, 8>, false}};
  int status = 0;
  for (auto &v : vars) {
    CK(cudaMemset(dy, 0xff, n * 2));
    v.k<<<kM * kC, kT>>>(dx, dy);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hy.data(), dy, n * 2, cudaMemcpyDeviceToHost));
    double err = 0;
    for (int r = 0; r < kM; r += 31) {
      double mx = -INFINITY, s = 0;
      for (int k = 0; k < kN; ++k) mx = std::max(mx, (double)bf2f(hx[(size_t)r * kN + k]));
      for (int k = 0; k < kN; ++k) s += std::exp(bf2f(hx[(size_t)r * kN + k]) - mx);
      double d = 0;
      for (int k = 0; k < kN; ++k)
        d = std::max(d, std::fabs(std::exp(bf2f(hx[(size_t)r * kN + k]) - mx) / s - bf2f(hy[(size_t)r * kN + k])));
      err = std::max(err, d * s);  // over the row's largest, 1 / s
    }
    bool ok = err <= 0x1p-8;
    if (ok == v.wrong) status = 1;  // a correct variant off, or the bound not wrong: the check is broken
    float ms = tm.median_ms([&] { v.k<<<kM * kC, kT>>>(dx, dy); });
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, v.k));
    std::printf("%-24s regs=%3d local=%3zu smem=%5zu  %.4f ms  %5.0f GB/s  of copy %.3f  of same %.3f  relerr %.2e%s\n",
                v.name, fa.numRegs, fa.localSizeBytes, fa.sharedSizeBytes, ms, bytes / (ms * 1e-3) / 1e9,
                bytes / (ms * 1e-3) / 1e9 / ceiling, copy / ms, err, ok ? "" : "  WRONG");
  }
  CK(cudaFree(dx));
  CK(cudaFree(dy));
  CK(cudaFree(dz));
  return status;
}
