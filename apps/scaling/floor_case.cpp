// The in-run reference of the time rule: a fixed amount of work per rank (hash and sort 2^17
// keys, then one allreduce), measured in every round right before the cases. It does the same
// work in every run, so the ratio of a case's time to the floor's in the same round cancels
// what the machine's load did to both (the shared machine is slower now than an hour ago).
#include <mpi.h>

#include <algorithm>
#include <vector>

#include "parts_checksum.hpp"
#include "hpart/error.hpp"
#include "scaling_case.hpp"

namespace hpart_scaling {
namespace {

constexpr std::size_t kKeys = std::size_t{1} << 17;

class FloorCase final : public ScalingCase {
 public:
  FloorCase(const hpart::Comm& comm, const Sizes& s) : ScalingCase("floor", "floor", kKeys * comm.size(), s.parts), comm_(comm) {
    keys_.resize(kKeys);
  }
  void call() override {
    for (std::size_t i = 0; i < kKeys; ++i) keys_[i] = mix(i, static_cast<std::uint64_t>(comm_.rank()));
    std::sort(keys_.begin(), keys_.end());
    sum_ = sum_over_ranks(comm_, keys_[kKeys / 2]);
  }
  Figures figures() override {
    Figures f;
    f.checksum = sum_;
    return f;
  }

 private:
  const hpart::Comm& comm_;
  std::vector<std::uint64_t> keys_;
  std::uint64_t sum_ = 0;
};

}  // namespace

std::unique_ptr<ScalingCase> make_floor_case(const hpart::Comm& comm, const Sizes& s) {
  return std::make_unique<FloorCase>(comm, s);
}

const std::vector<std::string>& case_keys() {
  static const std::vector<std::string> keys{
      "points.hilbert", "grid.sfc",        "grid.blocks",  "hier.grid",
      "graph.kway",     "repart_points.incremental", "repart_graph.incremental",
#if HPART_HAVE_TENSOR
      "halo.exchange",  "conv.conv2d",
#endif
  };
  return keys;
}

std::unique_ptr<ScalingCase> make_case(const hpart::Comm& comm, const Sizes& s, const std::string& key) {
  if (key == "points.hilbert") return make_points_case(comm, s);
  if (key == "grid.sfc") return make_grid_case(comm, s, false);
  if (key == "grid.blocks") return make_grid_case(comm, s, true);
  if (key == "hier.grid") return make_hier_case(comm, s);
  if (key == "graph.kway") return make_graph_case(comm, s);
  if (key == "repart_points.incremental") return make_repart_points_case(comm, s);
  if (key == "repart_graph.incremental") return make_repart_graph_case(comm, s);
#if HPART_HAVE_TENSOR
  if (key == "halo.exchange") return make_halo_case(comm, s);
  if (key == "conv.conv2d") return make_conv_case(comm, s);
#endif
  throw hpart::Error(hpart::ErrorCode::invalid_argument, "unknown case '" + key + "'");
}

}  // namespace hpart_scaling
