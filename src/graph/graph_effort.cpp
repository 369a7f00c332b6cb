#include "graph/graph_effort.hpp"

namespace hpart::graph {
namespace {

struct Field {
  int GraphEffort::*member;
  long long lo, hi;
  const char* names[2];  // per EffortOwner: the agreement keeps the pointer, so literals
};

constexpr Field kFields[] = {
    {&GraphEffort::coarsest_per_part, 1, 10000,
     {"GraphOptions::effort.coarsest_per_part", "HierGraphOptions::effort.coarsest_per_part"}},
    {&GraphEffort::initial_tries, 1, 100, {"GraphOptions::effort.initial_tries", "HierGraphOptions::effort.initial_tries"}},
    {&GraphEffort::fm_passes, 0, 100, {"GraphOptions::effort.fm_passes", "HierGraphOptions::effort.fm_passes"}},
    {&GraphEffort::fm_horizon, 0, 100000000, {"GraphOptions::effort.fm_horizon", "HierGraphOptions::effort.fm_horizon"}},
    {&GraphEffort::vcycles, 0, 20, {"GraphOptions::effort.vcycles", "HierGraphOptions::effort.vcycles"}},
    {&GraphEffort::refine_rounds, 1, 20, {"GraphOptions::effort.refine_rounds", "HierGraphOptions::effort.refine_rounds"}},
    {&GraphEffort::cluster_rounds, 0, 20,
     {"GraphOptions::effort.cluster_rounds", "HierGraphOptions::effort.cluster_rounds"}},
    {&GraphEffort::coarsenings, 1, 2, {"GraphOptions::effort.coarsenings", "HierGraphOptions::effort.coarsenings"}},
};

}  // namespace

std::string check_effort(const GraphEffort& e, EffortOwner owner) {
  for (const Field& f : kFields) {
    const long long v = e.*f.member;
    if (v < f.lo || v > f.hi)
      return std::string(f.names[static_cast<int>(owner)]) + " must be in [" + std::to_string(f.lo) + ", " +
             std::to_string(f.hi) + "] (got " + std::to_string(v) + ")";
  }
  return {};
}

void replicate_effort(detail::Replicated& args, const GraphEffort& e, EffortOwner owner) {
  for (const Field& f : kFields) args.value(f.names[static_cast<int>(owner)], static_cast<long long>(e.*f.member));
}

}  // namespace hpart::graph
