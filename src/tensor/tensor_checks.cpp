// The collective checks of a ShardTensor's halo and memory, of the test helpers' whole-tensor
// gathers, and of a halo exchange plan's options: validated locally, then agreed, so that every
// rank throws the same hpart::Error before anything is allocated or sent.
#include <mpi.h>

#include <climits>
#include <string>

#include "core/agreement.hpp"
#include "core/memory_budget.hpp"
#include "hpart/tensor/halo.hpp"
#include "tensor/layout_data.hpp"

namespace hpart::tensor {
namespace {

const char* axis_name(int a) { return a == kAxisD ? "D" : a == kAxisH ? "H" : "W"; }

// "" or what is wrong with `halo` on `layout` (the same on every rank: the layout is).
std::string halo_problem(const ShardLayout& layout, const Halo& halo) {
  if (halo.d < 0 || halo.h < 0 || halo.w < 0) return "halo widths must be >= 0";
  if (layout.shape().spatial_dims == 2 && halo.d != 0) return "a 2-D tensor has no halo along D (Halo::d = 0)";
  if (!halo.any()) return {};
  if (!layout.has_mesh())
    return "a halo needs a mesh layout (ShardLayout::sharded or replicated): this layout has no neighbours";
  const Mesh& mesh = layout.mesh();
  for (int a = kAxisD; a <= kAxisW; ++a) {
    const auto ua = static_cast<std::size_t>(a);
    const int h = halo.along(a);
    if (h == 0 || (mesh.parts[ua] == 1 && !mesh.periodic[ua])) continue;  // nobody reads this axis' faces
    const auto ext = extents_from_starts(layout.starts(a), layout.shape().extent[ua]);
    for (std::size_t j = 0; j < ext.size(); ++j)
      if (ext[j] < h)
        return "halo of width " + std::to_string(h) + " along " + axis_name(a) + " is wider than shard " +
               std::to_string(j) + " of that axis (" + std::to_string(ext[j]) +
               " cells): a halo reaches the next shard only (no multi-hop exchange); use fewer ranks along " +
               axis_name(a) + ", a smaller halo, or another split";
  }
  return {};
}

void add_halo(hpart::detail::Replicated& args, const Halo& halo) {
  args.value("Halo::d", static_cast<long long>(halo.d))
      .value("Halo::h", static_cast<long long>(halo.h))
      .value("Halo::w", static_cast<long long>(halo.w));
}

ErrorCode code_of(const std::string& problem) {
  return problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument;
}

}  // namespace

void validate_halo(const ShardLayout& layout, const Halo& halo) { detail::validate_shard_tensor(layout, halo, 0); }

namespace detail {

void validate_shard_tensor(const ShardLayout& layout, const Halo& halo, std::size_t element_bytes) {
  const Comm& comm = layout.comm();
  std::string problem = halo_problem(layout, halo);
  const Box& box = layout.local_box();
  if (problem.empty() && element_bytes > 0 && !box.empty()) {
    double cells = 1;  // the local array, halo included, in double: it cannot wrap
    const Index5 m = halo.margins();
    for (int a = 0; a < kRank; ++a)
      cells *= static_cast<double>(box.extent(a) + 2 * m[static_cast<std::size_t>(a)]);
    problem = hpart::detail::check_memory(
        cells * static_cast<double>(element_bytes),
        "the shard " + box.str() + " of the tensor " + layout.shape().str() + (halo.any() ? " with its halo" : ""),
        "split the tensor over more ranks (a finer Mesh), or make it smaller");
  }
  hpart::detail::Replicated args;
  add_halo(args, halo);
  hpart::detail::agree(comm, args, code_of(problem), problem);
}

void check_whole_tensor(const ShardLayout& layout, std::size_t element_bytes, const char* who) {
  // MPI counts are ints: the layout (the same everywhere) decides without communication.
  const double volume = static_cast<double>(layout.shape().volume());
  std::string problem;
  if (volume > INT_MAX)
    problem = std::string(who) + ": the tensor " + layout.shape().str() + " has more than INT_MAX cells (a test helper)";
  else
    problem = hpart::detail::check_memory(volume * static_cast<double>(element_bytes),
                                          std::string(who) + ": the whole tensor " + layout.shape().str(),
                                          "gather it to one rank instead (redistribute to ShardLayout::on_rank)");
  layout.comm().agree(code_of(problem), problem);
}

}  // namespace detail

namespace impl {

bool agree_halo_exchange(const ShardLayout& layout, const HaloOptions& options, double buffer_bytes, bool automatic,
                         bool messages) {
  std::string problem;
  const auto padding = static_cast<int>(options.padding), transfer = static_cast<int>(options.transfer);
  if (padding < static_cast<int>(Padding::zero_each_exchange) || padding > static_cast<int>(Padding::zero_always))
    problem = "HaloOptions: padding " + std::to_string(padding) + " is not a Padding";
  else if (transfer < static_cast<int>(HaloTransfer::automatic) || transfer > static_cast<int>(HaloTransfer::shared_memory))
    problem = "HaloOptions: transfer " + std::to_string(transfer) + " is not a HaloTransfer";
  else
    problem = hpart::detail::check_memory(buffer_bytes, "a halo exchange plan for " + layout.shape().str(),
                                          "use a smaller halo, or split the tensor over more ranks");
  hpart::detail::Replicated args;
  args.value("HaloOptions::padding", static_cast<long long>(options.padding))
      .value("HaloOptions::transfer", static_cast<long long>(options.transfer));
  hpart::detail::agree(layout.comm(), args, code_of(problem), problem);
  if (!automatic) return false;
  // automatic tunes when any rank has something to send or receive; the ranks agree, since a
  // rank with an empty shard has no messages while its neighbours do.
  long long any = messages ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_LONG_LONG, MPI_MAX, layout.comm().get());
  return any != 0;
}

}  // namespace impl
}  // namespace hpart::tensor
