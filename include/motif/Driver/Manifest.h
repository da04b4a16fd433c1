//===- Manifest.h - The compile manifest and C header of docs/abi.md -------*- C++ -*-===//

#ifndef MOTIF_DRIVER_MANIFEST_H
#define MOTIF_DRIVER_MANIFEST_H

#include "motif/Sass/PtxasReport.h"

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
namespace motif {
namespace driver {

/// One device buffer of a host function: an argument (input/output) or a
/// `memref.alloc` tagged `motif.buffer` (intermediate).
struct BufferInfo {
  std::string name;
  std::string role;  ///< input | intermediate | output
  std::string dtype; ///< f32
  /// -1 for the runtime row count (only ever the leading dim).
  SmallVector<int64_t> shape;
  /// Elements and bytes, computed with overflow checks; per row when the
  /// leading dim is the runtime row count.
  int64_t numel = 0;
  int64_t bytes = 0;
  bool dynamicRows = false;
};

/// One `gpu.launch_func` of a host function, in launch order.
struct KernelInfo {
  /// The PTX entry (gpu.func) name: what cuModuleGetFunction needs.
  std::string name;
  /// The motif kernel it came from (`motif.kernel`), empty when absent.
  std::string motifKernel;
  /// Buffer names, in parameter order.
  SmallVector<std::string> params;
  /// With `gridPerRow`, grid[0] is the blocks per row: the launch's grid x
  /// is grid[0] times the runtime row count.
  std::array<int64_t, 3> grid = {1, 1, 1};
  bool gridPerRow = false;
  std::array<int64_t, 3> block = {1, 1, 1};
  /// CTAs per thread-block cluster along x (`nvvm.cluster_dim`, compiled
  /// into the PTX as .reqnctapercluster): 1 without a cluster. grid[0] is a
  /// multiple of it.
  int64_t cluster = 1;
  /// The values the kernel keeps in registers (`motif.register_values`:
  /// "<value> (<type>): <N> per thread").
  SmallVector<std::string> registerValues;
  /// Dynamic shared memory per block, in bytes (the launch's size; the
  /// function must be opted in above 48 KiB); 0 when it has none.
  int64_t dynamicSharedBytes = 0;
  /// The register slots per thread of the largest of them
  /// (`motif.largest_register_value`).
  int64_t largestRegisterValue = 0;
  /// From `ptxas -v`; empty when ptxas was not run.
  std::optional<::motif::sass::KernelResources> resources;
};

/// Everything the manifest and the header say about one host function.
struct FunctionManifest {
  std::string function;
  std::string source;
  std::string chip;
  /// Output file names, relative to the manifest's folder; empty if absent.
  std::string ptxFile, cubinFile, sassFile, ptxasReportFile;
  std::vector<BufferInfo> buffers;   ///< inputs, intermediates, outputs
  std::vector<KernelInfo> kernels;   ///< launch order
  /// A function with a runtime row count: the most rows a launch may have
  /// (the grid limit, and 2^40 elements per buffer); nullopt when static.
  std::optional<int64_t> maxRows;
};

/// Reads buffers and kernels off a host function (func.func with
/// `motif.host`) in the form of docs/abi.md. Emits located errors for
/// anything outside that form.
FailureOr<FunctionManifest> collectManifest(func::FuncOp host);

/// Fills in each kernel's resources from a parsed ptxas report. Kernels the
/// report does not name are an error (returned as its message).
LogicalResult attachPtxasReport(FunctionManifest &manifest,
                                const ::motif::sass::PtxasReport &report,
                                std::string &error);

/// Writes the manifest (version 1) as JSON.
void writeManifestJson(const FunctionManifest &manifest, llvm::raw_ostream &os);

/// Writes the C/C++ header for nvcc and g++ host programs.
void writeHeader(const FunctionManifest &manifest, llvm::raw_ostream &os);

/// `name` with every character outside [A-Za-z0-9_] replaced by '_' (and a
/// leading '_' when it starts with a digit).
std::string sanitizeIdentifier(StringRef name);

} // namespace driver
} // namespace motif
} // namespace mlir

#endif // MOTIF_DRIVER_MANIFEST_H
