//===- PtxasReport.h - Reads `ptxas -v` resource reports --------*- C++ -*-===//

#ifndef MOTIF_SASS_PTXASREPORT_H
#define MOTIF_SASS_PTXASREPORT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>

namespace motif {
namespace sass {

/// What ptxas -v says about one function. Fields stay empty when the report
/// does not mention them.
struct KernelResources {
  std::optional<uint64_t> registers;
  std::optional<uint64_t> barriers;
  std::optional<uint64_t> sharedBytes;      ///< "S bytes smem"
  std::optional<uint64_t> stackFrameBytes;  ///< "N bytes stack frame"
  std::optional<uint64_t> spillStoreBytes;  ///< "N bytes spill stores"
  std::optional<uint64_t> spillLoadBytes;   ///< "N bytes spill loads"
};

/// Visits every resource field in a fixed order with its text name (as
/// `motif-sass` prints it) and its JSON key: the one list of the fields.
inline void forEachResource(
    const KernelResources &res,
    llvm::function_ref<void(llvm::StringRef name, llvm::StringRef jsonKey,
                            const std::optional<uint64_t> &value)>
        fn) {
  fn("registers", "registers", res.registers);
  fn("barriers", "barriers", res.barriers);
  fn("smem", "shared_bytes", res.sharedBytes);
  fn("stack", "stack_frame_bytes", res.stackFrameBytes);
  fn("spill-stores", "spill_store_bytes", res.spillStoreBytes);
  fn("spill-loads", "spill_load_bytes", res.spillLoadBytes);
}

/// Resources per function name (mangled, as ptxas prints it).
using PtxasReport = llvm::StringMap<KernelResources>;

/// Parses ptxas -v output (as printed by `ptxas -v` or `nvcc -Xptxas -v`).
/// Lines that are not part of a function's report are ignored; a report
/// that names no function is an error.
llvm::Expected<PtxasReport> parsePtxasReport(llvm::StringRef text,
                                             llvm::StringRef fileName);

/// Reads and parses `path`.
llvm::Expected<PtxasReport> readPtxasReport(llvm::StringRef path);

} // namespace sass
} // namespace motif

#endif // MOTIF_SASS_PTXASREPORT_H
