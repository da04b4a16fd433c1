// Prototype (issue 13): how fast can *any* kernel move the bytes of bf16 softmax 8192x4096 (64 MiB read,
// 64 MiB written) on this GPU, timed as motif.bench times (CUDA events around each launch, a 256 MiB memset
// before each, median of 40)? motif's softmax kernel takes 35.2 - 35.9 us there on the H200 (0.886 - 0.897
// of the 1 GiB copy ceiling; the target is 0.9) and beats cudaMemcpyAsync of the same bytes. If no copy
// form reaches 0.9 at this size, the target is out of reach of a kernel that reads and writes these bytes;
// if one does, its structure is the lever. Not part of the build. Forms (each also at 16384x1024 bytes):
//   memcpy     cudaMemcpyAsync device to device
//   row        a block of 256 threads a row of 8 KiB, 2 x 16 B a thread (motif's softmax without the math)
//   row.nc     row, loads ld.global.nc without the evict_last policy motif's loads carry
//   row.cs     row, stores st.global.cs (streaming)
//   row2       a block of 256 threads two rows, all four loads issued first
//   half       a block of 128 threads a row, 4 x 16 B a thread
//   stride-K   persistent grid (SMs x K blocks of 512), each thread 4 x 16 B an iteration, grid-stride
//   bulk-S     persistent grid, one thread a block moves 8 KiB chunks with TMA (cp.async.bulk global ->
//              shared, completion on an mbarrier, then cp.async.bulk shared -> global), S stages in flight
//   read       read the 64 MiB only (a sum a thread, one word written a block): the read stream alone
//   write      write the 64 MiB only: the write stream alone
//   bsm-W-S-K  softmax itself through TMA (bulk_softmax below), checked against float64
//   empty      8192 blocks of 256 threads that do nothing (16384 at 16384x1024): launch and block
//              dispatch; empty-sms: a block an SM; empty-1: one warp, the bracket's fixed cost
// Every copy form is checked bit for bit against the input before it is timed.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/copyforms copy_forms.cu && /tmp/copyforms
#include "bf16_proto.h"

__device__ __forceinline__ uint4 ldg_nc(const uint4 *p) {
  uint4 r;
  asm volatile("ld.global.nc.v4.b32 {%0,%1,%2,%3}, [%4];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  return r;
}
__device__ __forceinline__ void stg_cs(uint4 *p, uint4 v) {
  asm volatile("st.global.cs.v4.b32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}

// Mode 0: ldg (evict_last) + plain store; 1: ld.nc + plain store; 2: ldg + st.cs.
template <int V, int Mode> __global__ void __launch_bounds__(256) row_copy(const uint4 *x, uint4 *y, int rowVecs) {
  const uint4 *xr = x + (size_t)blockIdx.x * rowVecs;
  uint4 *yr = y + (size_t)blockIdx.x * rowVecs;
  uint4 v[V];
#pragma unroll
  for (int i = 0; i < V; ++i) v[i] = Mode == 1 ? ldg_nc(xr + i * blockDim.x + threadIdx.x) : ldg(xr + i * blockDim.x + threadIdx.x);
#pragma unroll
  for (int i = 0; i < V; ++i) {
    if (Mode == 2)
      stg_cs(yr + i * blockDim.x + threadIdx.x, v[i]);
    else
      yr[i * blockDim.x + threadIdx.x] = v[i];
  }
}

__global__ void __launch_bounds__(512) stride_copy(const uint4 *x, uint4 *y, size_t nvec) {
  size_t step = (size_t)gridDim.x * blockDim.x * 4;
  for (size_t b = (size_t)blockIdx.x * blockDim.x * 4 + threadIdx.x; b < nvec; b += step) {
    uint4 v[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) v[i] = ldg(x + b + i * blockDim.x);
#pragma unroll
    for (int i = 0; i < 4; ++i) y[b + i * blockDim.x] = v[i];
  }
}

__global__ void __launch_bounds__(256) read_only(const uint4 *x, uint32_t *sink, int rowVecs) {
  const uint4 *xr = x + (size_t)blockIdx.x * rowVecs;
  uint32_t s = 0;
  for (int i = threadIdx.x; i < rowVecs; i += blockDim.x) {
    uint4 v = ldg(xr + i);
    s ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (s == 0x12345678u) sink[blockIdx.x] = s;  // keeps the loads; practically never written
}

__global__ void __launch_bounds__(256) write_only(uint4 *y, int rowVecs) {
  uint4 *yr = y + (size_t)blockIdx.x * rowVecs;
  uint4 v = make_uint4(blockIdx.x, threadIdx.x, 1, 2);
  for (int i = threadIdx.x; i < rowVecs; i += blockDim.x) yr[i] = v;
}

__global__ void __launch_bounds__(256) empty_kernel() {}

// TMA bulk copy: one thread a block, chunks of C bytes, S stages; chunk c of this block is blockIdx.x +
// c * gridDim.x.
template <int C, int S> __global__ void __launch_bounds__(32) bulk_copy(const char *x, char *y, int nchunks) {
  extern __shared__ __align__(128) char smem[];
  __shared__ __align__(8) uint64_t bar[S];
  if (threadIdx.x != 0) return;
  auto sa = [](const void *p) { return (uint32_t)__cvta_generic_to_shared(p); };
  for (int s = 0; s < S; ++s) asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(sa(&bar[s])));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  int mine = (nchunks - (int)blockIdx.x + (int)gridDim.x - 1) / (int)gridDim.x;
  auto issue = [&](int c) {
    int s = c % S;
    const char *src = x + ((size_t)blockIdx.x + (size_t)c * gridDim.x) * C;
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(sa(&bar[s])), "r"(C) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     sa(smem + s * C)),
                 "l"(src), "r"(C), "r"(sa(&bar[s]))
                 : "memory");
  };
  for (int c = 0; c < S && c < mine; ++c) issue(c);
  for (int c = 0; c < mine; ++c) {
    int s = c % S;
    uint32_t phase = (c / S) & 1, done = 0;
    while (!done)
      asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                   : "=r"(done)
                   : "r"(sa(&bar[s])), "r"(phase)
                   : "memory");
    char *dst = y + ((size_t)blockIdx.x + (size_t)c * gridDim.x) * C;
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(sa(smem + s * C)),
                 "r"(C)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    if (c + S < mine) {
      // the store of stage s must have read it before the next load overwrites it
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
      issue(c + S);
    }
  }
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}


// Softmax through TMA (bsm-W-S-K): a persistent grid of SMs x K blocks of W warps; a chunk is W
// consecutive rows (one a warp), staged in S slots of shared memory. Thread 0 loads chunks with
// cp.async.bulk (completion on the slot's mbarrier); each warp reads its row from shared (16 B a lane a
// step), max and sum of exp over the warp by shuffles (no block barrier), writes the bf16 result over
// its row; a named barrier, then thread 0 stores the chunk with cp.async.bulk and reloads the slot
// before last once its store has read it. The math is the prototype's: ex2.approx.ftz, log2(e) folded.
template <int N, int W, int S> __global__ void __launch_bounds__(32 * W) bulk_softmax(const char *x, char *y, int M) {
  extern __shared__ __align__(128) char smem[];
  __shared__ __align__(8) uint64_t full[S];
  constexpr int RowBytes = N * 2, C = W * RowBytes, V = N / 256;  // uint4 a lane
  auto sa = [](const void *p) { return (uint32_t)__cvta_generic_to_shared(p); };
  int nchunks = M / W;
  int mine = (nchunks - (int)blockIdx.x + (int)gridDim.x - 1) / (int)gridDim.x;
  auto issue = [&](int c) {
    int s = c % S;
    const char *src = x + ((size_t)blockIdx.x + (size_t)c * gridDim.x) * C;
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(sa(&full[s])), "r"(C) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     sa(smem + s * C)),
                 "l"(src), "r"(C), "r"(sa(&full[s]))
                 : "memory");
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(sa(&full[s])));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int c = 0; c < S && c < mine; ++c) issue(c);
  int w = threadIdx.x / 32, l = threadIdx.x % 32;
  for (int c = 0; c < mine; ++c) {
    int s = c % S;
    uint32_t phase = (c / S) & 1, done = 0;
    while (!done)
      asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                   : "=r"(done)
                   : "r"(sa(&full[s])), "r"(phase)
                   : "memory");
    uint4 *row = (uint4 *)(smem + s * C + w * RowBytes);
    uint4 v[V];
#pragma unroll
    for (int i = 0; i < V; ++i) v[i] = row[i * 32 + l];
    auto at = [&](int k) {
      uint32_t wd = k % 8 < 2 ? v[k / 8].x : k % 8 < 4 ? v[k / 8].y : k % 8 < 6 ? v[k / 8].z : v[k / 8].w;
      return __uint_as_float(k % 2 ? wd & 0xffff0000u : wd << 16);
    };
    constexpr float lg = 1.4426950408889634f;
    float m = at(0);
#pragma unroll
    for (int k = 1; k < 8 * V; ++k) m = fmaxf(m, at(k));
#pragma unroll
    for (int o = 16; o; o /= 2) m = fmaxf(m, __shfl_xor_sync(~0u, m, o));
    float ml = m * lg, sum = 0.f;
#pragma unroll
    for (int k = 0; k < 8 * V; ++k) sum += ex2(at(k) * lg - ml);
#pragma unroll
    for (int o = 16; o; o /= 2) sum += __shfl_xor_sync(~0u, sum, o);
    float inv = 1.f / sum;
#pragma unroll
    for (int i = 0; i < V; ++i) {
      uint4 r;
      r.x = pack(ex2(at(8 * i) * lg - ml) * inv, ex2(at(8 * i + 1) * lg - ml) * inv);
      r.y = pack(ex2(at(8 * i + 2) * lg - ml) * inv, ex2(at(8 * i + 3) * lg - ml) * inv);
      r.z = pack(ex2(at(8 * i + 4) * lg - ml) * inv, ex2(at(8 * i + 5) * lg - ml) * inv);
      r.w = pack(ex2(at(8 * i + 6) * lg - ml) * inv, ex2(at(8 * i + 7) * lg - ml) * inv);
      row[i * 32 + l] = r;
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // the results, to the bulk store
    __syncthreads();
    if (threadIdx.x == 0) {
      char *dst = y + ((size_t)blockIdx.x + (size_t)c * gridDim.x) * C;
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(sa(smem + s * C)),
                   "r"(C)
                   : "memory");
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      if (c >= 1 && c - 1 + S < mine) {  // the slot of chunk c - 1, once its store has read it
        asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
        issue(c - 1 + S);
      } else if (c == 0 && S == 1 && mine > 1) {
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        issue(1);
      }
    }
  }
  if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// Max relative error (|got - want| / max |want| of the row) of rows 0, 97, 194, ... against float64.
static double softmax_err(const std::vector<uint16_t> &x, const std::vector<uint16_t> &y, int M, int N) {
  double worst = 0;
  for (int r = 0; r < M; r += 97) {
    double m = -INFINITY, s = 0, mx = 0;
    for (int j = 0; j < N; ++j) m = std::max(m, (double)bf2f(x[(size_t)r * N + j]));
    for (int j = 0; j < N; ++j) s += std::exp(bf2f(x[(size_t)r * N + j]) - m);
    for (int j = 0; j < N; ++j) mx = std::max(mx, std::exp(bf2f(x[(size_t)r * N + j]) - m) / s);
    for (int j = 0; j < N; ++j) {
      double want = std::exp(bf2f(x[(size_t)r * N + j]) - m) / s;
      worst = std::max(worst, std::fabs(bf2f(y[(size_t)r * N + j]) - want) / mx);
    }
  }
  return worst;
}

int main() {
  int sms, dev = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  std::printf("device: %s, %d SMs\n", prop.name, sms);
  Timer tm;
  float ceiling = copy_ceiling(tm);
  struct Shape {
    int M, N;
  } shapes[] = {{8192, 4096}, {16384, 1024}};
  for (Shape sh : shapes) {
    size_t bytes = (size_t)sh.M * sh.N * 2, nvec = bytes / 16;
    int rowVecs = sh.N / 8;
    const int sets = 4;  // inputs rotated, as motif.bench (the lead evicts the L2 anyway)
    std::vector<uint16_t> h(bytes / 2);
    std::vector<char *> xs(sets), ys(sets);
    for (int i = 0; i < sets; ++i) {
      normal_bf16(h, 17 + i);
      CK(cudaMalloc(&xs[i], bytes));
      CK(cudaMalloc(&ys[i], bytes));
      CK(cudaMemcpy(xs[i], h.data(), bytes, cudaMemcpyHostToDevice));
    }
    uint32_t *sink;
    CK(cudaMalloc(&sink, 4 * sh.M));
    std::printf("\n%dx%d bf16: %.1f MiB read + %.1f MiB written; 0.9 of the ceiling = %.2f us\n", sh.M, sh.N,
                bytes / 1048576.0, bytes / 1048576.0, 2.0 * bytes / (0.9 * ceiling * 1e9) * 1e6);
    std::printf("%-12s %10s %10s %9s\n", "form", "us", "GB/s", "of copy");
    auto report = [&](const char *name, const std::function<void(int)> &launch, bool check, double moved) {
      if (check) {
        CK(cudaMemset(ys[0], 0x55, bytes));
        launch(0);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::vector<uint16_t> got(bytes / 2), want(bytes / 2);
        CK(cudaMemcpy(got.data(), ys[0], bytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(want.data(), xs[0], bytes, cudaMemcpyDeviceToHost));
        if (std::memcmp(got.data(), want.data(), bytes) != 0) {
          std::printf("%-12s WRONG (output differs from input)\n", name);
          return;
        }
      }
      int k = 0;
      float ms = tm.median_ms([&] { launch(k++ % sets); });
      CK(cudaGetLastError());
      double gbps = moved / (ms * 1e-3) / 1e9;
      std::printf("%-12s %10.2f %10.0f %9.3f\n", name, ms * 1e3, gbps, gbps / ceiling);
    };
    double both = 2.0 * bytes;
    report("memcpy", [&](int i) { CK(cudaMemcpyAsync(ys[i], xs[i], bytes, cudaMemcpyDeviceToDevice)); }, true, both);
    if (rowVecs % 512 == 0) {
      report("row", [&](int i) { row_copy<2, 0><<<sh.M, rowVecs / 2>>>((uint4 *)xs[i], (uint4 *)ys[i], rowVecs); }, true, both);
      report("row.nc", [&](int i) { row_copy<2, 1><<<sh.M, rowVecs / 2>>>((uint4 *)xs[i], (uint4 *)ys[i], rowVecs); }, true, both);
      report("row.cs", [&](int i) { row_copy<2, 2><<<sh.M, rowVecs / 2>>>((uint4 *)xs[i], (uint4 *)ys[i], rowVecs); }, true, both);
      report("row2", [&](int i) { row_copy<4, 0><<<sh.M / 2, rowVecs / 2>>>((uint4 *)xs[i], (uint4 *)ys[i], rowVecs * 2); }, true, both);
      report("half", [&](int i) { row_copy<4, 0><<<sh.M, rowVecs / 4>>>((uint4 *)xs[i], (uint4 *)ys[i], rowVecs); }, true, both);
    } else {  // 1024-element rows: 128 vectors a row; blocks of 128 threads a row, or 2 rows
      report("row", [&](int i) { row_copy<1, 0><<<sh.M, rowVecs>>>((uint4 *)xs[i], (uint4 *)ys[i], rowVecs); }, true, both);
      report("row.cs", [&](int i) { row_copy<1, 2><<<sh.M, rowVecs>>>((uint4 *)xs[i], (uint4 *)ys[i], rowVecs); }, true, both);
      report("row2", [&](int i) { row_copy<2, 0><<<sh.M / 2, rowVecs>>>((uint4 *)xs[i], (uint4 *)ys[i], rowVecs * 2); }, true, both);
      report("half", [&](int i) { row_copy<2, 0><<<sh.M, rowVecs / 2>>>((uint4 *)xs[i], (uint4 *)ys[i], rowVecs); }, true, both);
    }
    for (int K : {1, 2, 4}) {
      char name[32];
      std::snprintf(name, sizeof name, "stride-%d", K);
      report(name, [&](int i) { stride_copy<<<sms * K, 512>>>((uint4 *)xs[i], (uint4 *)ys[i], nvec); }, true, both);
    }
    constexpr int C = 8192;
    int nchunks = (int)(bytes / C);
    auto bulk = [&](auto kernel, int S, int perSM, const char *name) {
      size_t smem = (size_t)S * C;
      CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
      report(name, [&](int i) { kernel<<<sms * perSM, 32, smem>>>(xs[i], ys[i], nchunks); }, true, both);
    };
    bulk(bulk_copy<C, 4>, 4, 4, "bulk-4x4");
    bulk(bulk_copy<C, 6>, 6, 4, "bulk-6x4");
    bulk(bulk_copy<C, 8>, 8, 2, "bulk-8x2");
    bulk(bulk_copy<C, 8>, 8, 3, "bulk-8x3");
    // The bulk softmax forms (checked against float64, then timed).
    auto bsm = [&](auto kernel, int W, int S, int K, const char *name) {
      size_t smem = (size_t)S * W * sh.N * 2;
      CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
      int grid = std::min(sms * K, sh.M / W);
      auto launch = [&](int i) { kernel<<<grid, 32 * W, smem>>>(xs[i], ys[i], sh.M); };
      CK(cudaMemset(ys[0], 0x55, bytes));
      launch(0);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      std::vector<uint16_t> xin(bytes / 2), got(bytes / 2);
      CK(cudaMemcpy(xin.data(), xs[0], bytes, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(got.data(), ys[0], bytes, cudaMemcpyDeviceToHost));
      double err = softmax_err(xin, got, sh.M, sh.N);
      if (!(err < 1e-2)) {
        std::printf("%-12s WRONG (max rel err %.3g against float64)\n", name, err);
        return;
      }
      int k = 0;
      float ms = tm.median_ms([&] { launch(k++ % sets); });
      double gbps = both / (ms * 1e-3) / 1e9;
      std::printf("%-12s %10.2f %10.0f %9.3f   (softmax, rel err %.2e, %zu B shared)\n", name, ms * 1e3, gbps,
                  gbps / ceiling, err, smem);
    };
    if (sh.N == 4096) {
      bsm(bulk_softmax<4096, 4, 2>, 4, 2, 3, "bsm-4-2-3");
      bsm(bulk_softmax<4096, 4, 3>, 4, 3, 2, "bsm-4-3-2");
      bsm(bulk_softmax<4096, 2, 4>, 2, 4, 3, "bsm-2-4-3");
      bsm(bulk_softmax<4096, 8, 2>, 8, 2, 1, "bsm-8-2-1");
    } else {
      bsm(bulk_softmax<1024, 4, 4>, 4, 4, 6, "bsm-4-4-6");
      bsm(bulk_softmax<1024, 8, 4>, 8, 4, 3, "bsm-8-4-3");
      bsm(bulk_softmax<1024, 4, 8>, 4, 8, 4, "bsm-4-8-4");
    }
    report("read", [&](int i) { read_only<<<sh.M, 256>>>((uint4 *)xs[i], sink, rowVecs); }, false, (double)bytes);
    report("write", [&](int i) { write_only<<<sh.M, 256>>>((uint4 *)ys[i], rowVecs); }, false, (double)bytes);
    report("empty", [&](int i) { empty_kernel<<<sh.M, 256>>>(); }, false, both);
    report("empty-sms", [&](int i) { empty_kernel<<<sms, 256>>>(); }, false, both);
    report("empty-1", [&](int i) { empty_kernel<<<1, 32>>>(); }, false, both);
    for (int i = 0; i < sets; ++i) {
      CK(cudaFree(xs[i]));
      CK(cudaFree(ys[i]));
    }
    CK(cudaFree(sink));
  }
  return 0;
}
