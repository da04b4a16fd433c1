//===- ProfileDiff.cpp - Two motif profiles side by side ------------------===//

#include "motif/Sass/MotifProfile.h"
#include "motif/Sass/ProfileSummary.h"
#include "motif/Sass/SassOpcode.h"

#include <set>

using namespace llvm;

namespace motif {
namespace sass {

ProfileSummary summarizeKernel(const KernelProfile &kernel) {
  ProfileSummary summary;
  summary.kernels = 1;
  summary.instructions = kernel.instructionCount;
  summary.counts = kernel.counts;
  auto resource = [&](StringRef name, std::optional<uint64_t> value) {
    SummaryMetric metric{name.str(), std::nullopt, false};
    if (value)
      metric.value = static_cast<int64_t>(*value);
    summary.resources.push_back(metric);
  };
  const KernelResources res = kernel.resources.value_or(KernelResources());
  forEachResource(res, [&](StringRef name, StringRef,
                           const std::optional<uint64_t> &value) {
    resource(name, value);
  });

  auto flag = [&](StringRef name, bool value) {
    summary.verdicts.push_back({name.str(), value ? 1 : 0, true});
  };
  auto number = [&](StringRef name, size_t value) {
    summary.verdicts.push_back(
        {name.str(), static_cast<int64_t>(value), false});
  };
  size_t stages = 0;
  for (const WarpReduction &reduction : kernel.warpReductions)
    stages += reduction.stages.size();
  flag("register-only", kernel.isRegisterOnly());
  flag("shared-materialization", !kernel.sharedChains.empty());
  flag("hazard", !kernel.hazards.empty() || !kernel.wgmmaHazards.empty());
  flag("warp-reduction", !kernel.warpReductions.empty());
  flag("local-memory",
       !kernel.localLoads.empty() || !kernel.localStores.empty());
  flag("global-store", !kernel.globalStores.empty());
  flag("global-load", !kernel.globalLoads.empty());
  flag("global-round-trip", !kernel.globalRoundTrips.empty());
  number("shared-chains", kernel.sharedChains.size());
  number("hazards", kernel.hazards.size());
  number("warp-reductions", kernel.warpReductions.size());
  number("warp-reduction-stages", stages);
  number("fma-chains", kernel.fmaChains.size());
  return summary;
}

ProfileSummary summarizeModule(const ModuleProfile &module) {
  ProfileSummary total;
  for (const KernelProfile &kernel : module.kernels) {
    ProfileSummary one = summarizeKernel(kernel);
    bool first = total.kernels == 0;
    total.kernels += 1;
    total.instructions += one.instructions;
    for (const auto &entry : one.counts)
      total.counts[entry.first] += entry.second;
    if (first) {
      total.resources = one.resources;
      total.verdicts = one.verdicts;
      continue;
    }
    for (size_t i = 0; i < one.resources.size(); ++i) {
      SummaryMetric &into = total.resources[i];
      const SummaryMetric &from = one.resources[i];
      if (!into.value || !from.value) {
        into.value = std::nullopt; // unknown for any kernel: unknown in total
        continue;
      }
      bool sums = StringRef(into.name).starts_with("spill");
      into.value = sums ? *into.value + *from.value
                        : std::max(*into.value, *from.value);
    }
    for (size_t i = 0; i < one.verdicts.size(); ++i)
      *total.verdicts[i].value += *one.verdicts[i].value;
  }
  return total;
}

namespace {

std::string describeSide(const DiffSide &side) {
  if (side.kernel)
    return side.module->fileName + " kernel " + side.kernel->name;
  return side.module->fileName + " (whole file, " +
         std::to_string(side.module->kernels.size()) + " kernel" +
         (side.module->kernels.size() == 1 ? "" : "s") + ")";
}

ProfileSummary summarize(const DiffSide &side) {
  return side.kernel ? summarizeKernel(*side.kernel)
                     : summarizeModule(*side.module);
}

std::string formatDelta(int64_t a, int64_t b) {
  if (a == b)
    return "(=)";
  int64_t delta = b - a;
  return "(" + std::string(delta > 0 ? "+" : "") + std::to_string(delta) + ")";
}

std::string formatValue(const std::optional<int64_t> &value) {
  return value ? std::to_string(*value) : std::string("?");
}

std::vector<std::string> unionCountKeys(const ProfileSummary &a,
                                        const ProfileSummary &b) {
  std::map<std::string, uint64_t> both = a.counts;
  for (const auto &entry : b.counts)
    both[entry.first] += entry.second;
  return orderedCountKeys(both);
}

uint64_t countOf(const ProfileSummary &summary, const std::string &key) {
  auto it = summary.counts.find(key);
  return it == summary.counts.end() ? 0 : it->second;
}

} // namespace

void printDiffText(const DiffSide &a, const DiffSide &b, raw_ostream &os) {
  ProfileSummary sa = summarize(a), sb = summarize(b);
  bool kernelScope = a.kernel && b.kernel;
  os << "motif-sass diff\n";
  os << "  a " << describeSide(a) << "\n";
  os << "  b " << describeSide(b) << "\n";
  os << "  kernels " << sa.kernels << " -> " << sb.kernels << " "
     << formatDelta(sa.kernels, sb.kernels) << "\n";
  if (!kernelScope)
    os << "  kernel-boundaries " << sa.kernels - 1 << " -> " << sb.kernels - 1
       << " " << formatDelta(sa.kernels - 1, sb.kernels - 1) << "\n";
  os << "  instructions " << sa.instructions << " -> " << sb.instructions
     << " " << formatDelta(sa.instructions, sb.instructions) << "\n";
  for (const std::string &key : unionCountKeys(sa, sb)) {
    uint64_t va = countOf(sa, key), vb = countOf(sb, key);
    os << "  count " << key << " " << va << " -> " << vb << " "
       << formatDelta(va, vb) << "\n";
  }
  for (size_t i = 0; i < sa.resources.size(); ++i) {
    const SummaryMetric &ra = sa.resources[i], &rb = sb.resources[i];
    if (!ra.value && !rb.value)
      continue;
    os << "  resource " << ra.name << " " << formatValue(ra.value) << " -> "
       << formatValue(rb.value);
    if (ra.value && rb.value)
      os << " " << formatDelta(*ra.value, *rb.value);
    os << "\n";
  }
  for (size_t i = 0; i < sa.verdicts.size(); ++i) {
    const SummaryMetric &va = sa.verdicts[i], &vb = sb.verdicts[i];
    bool changed = *va.value != *vb.value;
    os << "  verdict " << va.name << ": ";
    if (va.countsKernels && kernelScope)
      os << (*va.value ? "yes" : "no") << " -> " << (*vb.value ? "yes" : "no");
    else if (va.countsKernels)
      os << *va.value << "/" << sa.kernels << " -> " << *vb.value << "/"
         << sb.kernels << " kernels";
    else
      os << *va.value << " -> " << *vb.value;
    os << (changed ? " (changed)" : " (same)") << "\n";
  }
}

json::Value diffToJSON(const DiffSide &a, const DiffSide &b) {
  ProfileSummary sa = summarize(a), sb = summarize(b);
  auto side = [](const DiffSide &s) {
    return json::Object{
        {"file", s.module->fileName},
        {"kernel", s.kernel ? json::Value(s.kernel->name) : json::Value(nullptr)},
        {"kernels", static_cast<int64_t>(s.module->kernels.size())}};
  };
  auto pair = [](int64_t va, int64_t vb) {
    return json::Object{{"a", va}, {"b", vb}, {"delta", vb - va}};
  };
  json::Object counts;
  for (const std::string &key : unionCountKeys(sa, sb))
    counts[key] = pair(countOf(sa, key), countOf(sb, key));
  json::Object resources;
  for (size_t i = 0; i < sa.resources.size(); ++i) {
    const SummaryMetric &ra = sa.resources[i], &rb = sb.resources[i];
    auto value = [](const std::optional<int64_t> &v) {
      return v ? json::Value(*v) : json::Value(nullptr);
    };
    resources[ra.name] = json::Object{{"a", value(ra.value)},
                                      {"b", value(rb.value)}};
  }
  json::Object verdicts;
  for (size_t i = 0; i < sa.verdicts.size(); ++i)
    verdicts[sa.verdicts[i].name] = json::Object{
        {"a", *sa.verdicts[i].value},
        {"b", *sb.verdicts[i].value},
        {"changed", *sa.verdicts[i].value != *sb.verdicts[i].value}};
  return json::Object{
      {"a", side(a)},
      {"b", side(b)},
      {"kernels", pair(sa.kernels, sb.kernels)},
      {"instructions", pair(sa.instructions, sb.instructions)},
      {"counts", std::move(counts)},
      {"resources", std::move(resources)},
      {"verdicts", std::move(verdicts)}};
}

} // namespace sass
} // namespace motif
