// Runs @softmax compiled by motif-compile: loads the PTX with the CUDA driver
// API, launches every kernel through the generated header's helper, compares
// with a float64 CPU reference.
//
//   softmax_host [PTX]     exit 0: match, 1: mismatch or CUDA error,
//                          2: no CUDA driver or GPU
#include "softmax.h"

#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace {

const char *errorName(CUresult status) {
  const char *name = nullptr;
  cuGetErrorName(status, &name);
  return name ? name : "unknown CUDA error";
}

#define CHECK_CU(call)                                                        \
  do {                                                                        \
    CUresult status_ = (call);                                                \
    if (status_ != CUDA_SUCCESS) {                                            \
      std::fprintf(stderr, "softmax: %s failed: %s\n", #call,                 \
                   errorName(status_));                                       \
      return 1;                                                               \
    }                                                                         \
  } while (0)

/// Row softmax in float64: exp(x - max) / sum.
void reference(const std::vector<float> &x, long long rows, long long cols,
               std::vector<double> &y) {
  y.resize(x.size());
  for (long long r = 0; r < rows; ++r) {
    const float *row = &x[r * cols];
    double mx = -INFINITY;
    for (long long c = 0; c < cols; ++c)
      mx = std::max(mx, double(row[c]));
    double sum = 0;
    for (long long c = 0; c < cols; ++c)
      sum += std::exp(double(row[c]) - mx);
    for (long long c = 0; c < cols; ++c)
      y[r * cols + c] = std::exp(double(row[c]) - mx) / sum;
  }
}

} // namespace

int main(int argc, char **argv) {
  const char *ptxPath = argc > 1 ? argv[1] : MOTIF_SOFTMAX_PTX_PATH;
  const motif_buffer_desc &in = motif_softmax_buffers[MOTIF_SOFTMAX_BUF_ARG0];
  const motif_buffer_desc &out = motif_softmax_buffers[MOTIF_SOFTMAX_BUF_RESULT0];
  if (in.rank != 2 || out.bytes != in.bytes) {
    std::fprintf(stderr, "softmax: expected a 2-D input and an output of the "
                         "same size (see softmax.json)\n");
    return 1;
  }
  const long long rows = in.shape[0], cols = in.shape[1];

  CUresult init = cuInit(0);
  int devices = 0;
  if (init == CUDA_SUCCESS)
    init = cuDeviceGetCount(&devices);
  if (init != CUDA_SUCCESS || devices == 0) {
    std::fprintf(stderr, "softmax: no CUDA GPU or driver found (%s); this "
                         "program needs one to run\n",
                 init != CUDA_SUCCESS ? errorName(init) : "0 devices");
    return 2;
  }
  CUdevice device;
  CUcontext context;
  CHECK_CU(cuDeviceGet(&device, 0));
  CHECK_CU(cuDevicePrimaryCtxRetain(&context, device));
  CHECK_CU(cuCtxSetCurrent(context));
  CUmodule module;
  CHECK_CU(cuModuleLoad(&module, ptxPath));

  // Fresh random inputs every run (never zeros).
  std::vector<float> x(in.bytes / sizeof(float));
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  for (float &v : x)
    v = dist(rng);

  CUdeviceptr buffers[MOTIF_SOFTMAX_NUM_BUFFERS];
  for (int i = 0; i < MOTIF_SOFTMAX_NUM_BUFFERS; ++i)
    CHECK_CU(cuMemAlloc(&buffers[i], motif_softmax_buffers[i].bytes));
  CHECK_CU(cuMemcpyHtoD(buffers[MOTIF_SOFTMAX_BUF_ARG0], x.data(), in.bytes));
  CHECK_CU(cuMemsetD8(buffers[MOTIF_SOFTMAX_BUF_RESULT0], 0xff, out.bytes));
  CHECK_CU(motif_softmax_launch(module, buffers, /*stream=*/nullptr));
  CHECK_CU(cuCtxSynchronize());
  std::vector<float> y(x.size());
  CHECK_CU(cuMemcpyDtoH(y.data(), buffers[MOTIF_SOFTMAX_BUF_RESULT0], out.bytes));

  std::vector<double> expected;
  reference(x, rows, cols, expected);
  const double tolerance = 1e-5;
  double maxRel = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    double rel = std::fabs(double(y[i]) - expected[i]) /
                 std::max(std::fabs(expected[i]), 1e-30);
    if (!(rel <= maxRel)) // NaN counts as a mismatch
      maxRel = std::isnan(rel) ? INFINITY : rel;
  }
  bool ok = maxRel <= tolerance;
  std::printf("softmax %lldx%lld: max rel err %.1e (tolerance 1e-5) %s\n", rows,
              cols, maxRel, ok ? "OK" : "MISMATCH");

  for (int i = 0; i < MOTIF_SOFTMAX_NUM_BUFFERS; ++i)
    cuMemFree(buffers[i]);
  cuModuleUnload(module);
  cuDevicePrimaryCtxRelease(device);
  return ok ? 0 : 1;
}
