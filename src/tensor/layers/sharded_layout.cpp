// Output layouts of the layers (same mesh and cuts, other channel count or 2x scaled spatial
// extents) and the all-reduce of replicated parameter gradients.
#include <limits>
#include <string>

#include "hpart/tensor/layers.hpp"
#include "tensor/layers/layer_support.hpp"

namespace hpart::tensor {

namespace {
const char* axis_word(int a) { return a == kAxisD ? "D" : a == kAxisH ? "H" : a == kAxisW ? "W" : a == kAxisN ? "N" : "C"; }
}  // namespace

ShardLayout derived_layout(const ShardLayout& x, std::int64_t channels, int num, int den) {
  return detail_layers::derive_layout(x, channels, num, den, {}, {});
}

ShardLayout detail_layers::derive_layout(const ShardLayout& x, std::int64_t channels, int num, int den,
                                         hpart::detail::Replicated args, std::string problem) {
  const Comm& comm = x.comm();
  const TensorShape& s = x.shape();
  const int first = s.first_spatial_axis();
  if (!problem.empty()) {
  } else if (!x.has_mesh()) {
    problem = "layers need a mesh layout (ShardLayout::sharded): this one has no mesh";
  } else if (x.mesh().replicas != 1) {
    problem = "layers need a layout with one replica (parameters are replicated, activations are not)";
  } else if (x.mesh().parts[kAxisC] != 1) {
    problem = "layers need whole channels on every rank: the mesh splits C";
  } else if (channels < 1) {
    problem = "a layer output needs >= 1 channel";
  } else if (num < 1 || den < 1) {
    problem = "derived_layout: the scale num / den needs num, den >= 1";
  } else {
    for (int a = first; a <= kAxisW && problem.empty(); ++a) {
      const auto ua = static_cast<std::size_t>(a);
      if (s.extent[ua] > std::numeric_limits<std::int64_t>::max() / num) {  // the scaled cuts must not wrap
        problem = "derived_layout: the extent along " + std::string(axis_word(a)) + " is too large to scale by " +
                  std::to_string(num);
        break;
      }
      std::vector<std::int64_t> cuts = x.starts(a);
      cuts.push_back(s.extent[ua]);
      for (std::int64_t c : cuts)
        if ((c * num) % den != 0) {
          problem = "2x pooling needs every shard boundary and the extent along " + std::string(axis_word(a)) +
                    " to be even (got " + std::to_string(c) +
                    "): split with SplitOptions::align_levels >= the number of pooling levels";
          break;
        }
    }
  }
  args.value("output channels", static_cast<long long>(channels))
      .value("scale numerator", static_cast<long long>(num))
      .value("scale denominator", static_cast<long long>(den));
  hpart::detail::agree(comm, args, detail_layers::code_of(problem), problem);
  TensorShape out = s;
  out.extent[kAxisC] = channels;
  SplitOptions split;
  split.method = SplitMethod::explicit_extents;
  for (int a = 0; a < kRank; ++a) {
    const auto ua = static_cast<std::size_t>(a);
    const bool scaled = a >= first;
    if (scaled) out.extent[ua] = s.extent[ua] * num / den;
    if (a == kAxisC || x.mesh().parts[ua] == 1) continue;
    for (std::int64_t e : extents_from_starts(x.starts(a), s.extent[ua])) split.extents[ua].push_back(scaled ? e * num / den : e);
  }
  return ShardLayout::sharded(comm, out, x.mesh(), split);
}

template <class T>
void allreduce_sum(const Comm& comm, const kernels::View1<T>& v) {
  if (comm.size() == 1 || v.extent(0) == 0) return;
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);  // fences the copy
  MPI_Allreduce(MPI_IN_PLACE, host.data(), static_cast<int>(host.size()), detail_layers::mpi_type<T>(), MPI_SUM,
                comm.get());
  Kokkos::deep_copy(v, host);
}

template void allreduce_sum<float>(const Comm&, const kernels::View1<float>&);
template void allreduce_sum<double>(const Comm&, const kernels::View1<double>&);

}  // namespace hpart::tensor
