#include "graph/initial/metis_adapter.hpp"

#include <algorithm>
#include <cmath>

#include "core/features.hpp"

namespace hpart::graphk {

const char* metis_function(bool kway) { return kway ? "METIS_PartGraphKway" : "METIS_PartGraphRecursive"; }

MetisResult run_metis(MetisProblem& p) {
#if !HPART_HAVE_METIS
  detail::require_dependency(false, "METIS", metis_function(p.kway));
  return {};
#else
  idx_t nvtxs = static_cast<idx_t>(p.xadj.size()) - 1, objval = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = p.seed;
  options[METIS_OPTION_NCUTS] = p.cuts;
  MetisResult r;
  r.part.assign(static_cast<std::size_t>(nvtxs), 0);
  const auto metis = p.kway ? METIS_PartGraphKway : METIS_PartGraphRecursive;
  r.status = metis(&nvtxs, &p.ncon, p.xadj.data(), p.adjncy.data(), p.vwgt.data(), nullptr,
                   p.adjwgt.empty() ? nullptr : p.adjwgt.data(), &p.parts, p.tpwgts.data(), p.ubvec.data(), options,
                   &objval, r.part.data());
  return r;
#endif
}

std::vector<idx_t> metis_weights(std::span<const std::int64_t> w, std::size_t stride, std::size_t c, double total,
                                 idx_t floor_value) {
  // A power of two: weights that are a common multiple of others (every weight x 2^28) scale to
  // exactly the same ratios, so METIS sees the same graph up to a factor and cuts it alike; at
  // most one bit of the range is given up (the total lands in (limit / 2, limit]).
  double s = 1.0;
  while (total * s > kMetisWeightLimit) s *= 0.5;
  std::vector<idx_t> out(w.size() / stride);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double x = static_cast<double>(w[i * stride + c]) * s;
    out[i] = std::max(floor_value, static_cast<idx_t>(std::llround(x)));
  }
  return out;
}

}  // namespace hpart::graphk
