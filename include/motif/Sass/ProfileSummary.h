//===- ProfileSummary.h - Flat numbers for totals and diffs -----*- C++ -*-===//

#ifndef MOTIF_SASS_PROFILESUMMARY_H
#define MOTIF_SASS_PROFILESUMMARY_H

#include "motif/Sass/MotifProfile.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace motif {
namespace sass {

/// One named number of a summary.
struct SummaryMetric {
  std::string name;
  /// Empty when unknown (a resource without a ptxas report).
  std::optional<int64_t> value;
  /// True for "number of kernels with this verdict" (0 or 1 for a kernel).
  bool countsKernels = false;
};

/// A kernel or a whole file reduced to numbers that can be compared.
struct ProfileSummary {
  unsigned kernels = 0;
  uint64_t instructions = 0;
  std::map<std::string, uint64_t> counts;
  /// registers, barriers, smem, stack (max over kernels), spill-stores,
  /// spill-loads (sum over kernels).
  std::vector<SummaryMetric> resources;
  /// register-only, shared-materialization, hazard, warp-reduction,
  /// local-memory, global-store, global-load, global-round-trip (kernels
  /// with the verdict), then shared-chains, hazards, warp-reduction-stages
  /// (instances).
  std::vector<SummaryMetric> verdicts;
};

ProfileSummary summarizeKernel(const KernelProfile &kernel);
ProfileSummary summarizeModule(const ModuleProfile &module);

/// Count keys of `counts` in report order (SassOpcode.h's canonical order).
std::vector<std::string>
orderedCountKeys(const std::map<std::string, uint64_t> &counts);

/// "16 STL (first at /*0270*/), 8 LDL (...); register spills: ..." using the
/// ptxas report when there is one to tell spills from local arrays.
std::string describeLocalMemory(const KernelProfile &kernel);

} // namespace sass
} // namespace motif

#endif // MOTIF_SASS_PROFILESUMMARY_H
