// Sharded group norm: per (sample, group) sums are laid into an array over the global batch
// (zeros for samples this rank does not hold) and all-reduced, so batch and space may both be
// split, and a rank may hold no cells at all (an empty shard adds zeros).
#include <mpi.h>

#include <climits>
#include <cmath>
#include <string>
#include <vector>

#include "hpart/tensor/layers.hpp"
#include "core/memory_budget.hpp"
#include "tensor/layers/kokkos_math.hpp"
#include "tensor/layers/layer_support.hpp"

namespace hpart::tensor {

namespace {

using detail_layers::code_of;
using detail_layers::local_verdict;

// Local per-(n, g) values -> their sums over the ranks, for this rank's samples. `problem` is this
// rank's verdict on the local step that computed them (an empty shard is no problem): it travels
// in the same all-reduce as one more value, so that one rank's failure is every rank's
// hpart::Error (the lowest failing rank's message) without another message when all is well.
void allreduce_groups(const ShardLayout& layout, int groups, const kernels::View1<double>& local,
                      const std::string& problem) {
  const Box& b = layout.local_box();
  const std::int64_t N = layout.shape().extent[kAxisN], n0 = b.empty() ? 0 : b.lo[kAxisN];
  const auto ng = static_cast<std::size_t>(N * groups);
  std::vector<double> all(ng + 1, 0.0);
  const auto h = detail_layers::to_host(local);
  if (problem.empty())
    for (std::size_t k = 0; k < h.size(); ++k) all[static_cast<std::size_t>(n0 * groups) + k] = h[k];
  all[ng] = problem.empty() ? 0.0 : 1.0;
  MPI_Allreduce(MPI_IN_PLACE, all.data(), static_cast<int>(all.size()), MPI_DOUBLE, MPI_SUM, layout.comm().get());
  if (all[ng] != 0.0) layout.comm().agree(code_of(problem), problem);  // throws on every rank
  std::vector<double> mine(all.begin() + n0 * groups, all.begin() + n0 * groups + static_cast<std::int64_t>(h.size()));
  detail_layers::from_host(local, mine);
}

}  // namespace

template <class T>
GroupNorm<T>::GroupNorm(int channels, int groups, double eps) : channels_(channels), groups_(groups), eps_(eps) {
  // Not collective: a problem is kept and reported by the first forward, on every rank.
  if (channels < 1 || groups < 1 || channels % groups != 0)
    problem_ = "GroupNorm: " + std::to_string(groups) + " groups must divide " + std::to_string(channels) + " channels";
  else if (!std::isfinite(eps) || eps < 0)
    problem_ = "GroupNorm: eps must be finite and >= 0 (got " + std::to_string(eps) + ")";
  else
    problem_ = hpart::detail::check_memory(4.0 * channels * static_cast<double>(sizeof(T)),
                                           "GroupNorm's parameters of " + std::to_string(channels) + " channels",
                                           "use fewer channels");
  if (!problem_.empty()) return;
  const auto c = static_cast<std::size_t>(channels);
  gamma = kernels::View1<T>("hpart::GroupNorm::gamma", c);
  beta = kernels::View1<T>("hpart::GroupNorm::beta", c);
  gamma_grad = kernels::View1<T>("hpart::GroupNorm::gamma_grad", c);
  beta_grad = kernels::View1<T>("hpart::GroupNorm::beta_grad", c);
  Kokkos::deep_copy(gamma, T(1));
}

template <class T>
std::string GroupNorm<T>::parameter_problem() const {
  const auto c = static_cast<std::size_t>(channels_);
  if (gamma.extent(0) != c || beta.extent(0) != c || gamma_grad.extent(0) != c || beta_grad.extent(0) != c)
    return "GroupNorm: gamma, beta and their gradients must have " + std::to_string(channels_) + " entries";
  return {};
}

template <class T>
void GroupNorm<T>::prepare(const ShardTensor<T>& x) {
  if (layout_.valid() && x.layout() == layout_) return;
  const ShardLayout& l = x.layout();
  const TensorShape& s = l.shape();
  std::string problem = problem_;
  if (problem.empty()) problem = parameter_problem();
  if (!problem.empty()) {
  } else if (s.extent[kAxisC] != channels_) {
    problem = "GroupNorm: the input has " + std::to_string(s.extent[kAxisC]) + " channels, the layer " +
              std::to_string(channels_);
  } else if (!l.has_mesh() || l.mesh().replicas != 1 || l.mesh().parts[kAxisC] != 1) {
    problem = "GroupNorm needs a mesh layout with one replica and whole channels on every rank";
  } else {
    // Every rank all-reduces (sample, group) sums over the whole batch, and keeps its own samples'.
    const double ng = static_cast<double>(s.extent[kAxisN]) * groups_;
    if (ng + 1 > INT_MAX)
      problem = "GroupNorm: " + std::to_string(s.extent[kAxisN]) + " samples x " + std::to_string(groups_) +
                " groups are more statistics than one all-reduce takes (INT_MAX)";
    else
      problem = hpart::detail::check_memory(
          8.0 * (ng + 1 + 3.0 * static_cast<double>(l.local_box().extent(kAxisN)) * groups_),
          "GroupNorm's statistics of " + std::to_string(s.extent[kAxisN]) + " samples x " + std::to_string(groups_) +
              " groups",
          "split the batch into smaller ones");
  }
  // The layer's arguments must be the same on every rank, and then its parameters (compared
  // after the local problems, which they would otherwise hide).
  hpart::detail::Replicated args;
  args.value("GroupNorm channels", static_cast<long long>(channels_))
      .value("GroupNorm groups", static_cast<long long>(groups_))
      .value("GroupNorm eps", eps_);
  hpart::detail::agree(l.comm(), args, code_of(problem), problem);
  hpart::detail::Replicated params;
  detail_layers::add_parameter(params, "GroupNorm gamma", gamma);
  detail_layers::add_parameter(params, "GroupNorm beta", beta);
  hpart::detail::agree(l.comm(), params, ErrorCode::ok, {});
  count_ = static_cast<double>(channels_ / groups_) * static_cast<double>(s.extent[kAxisD] * s.extent[kAxisH] * s.extent[kAxisW]);
  const auto ng = static_cast<std::size_t>(l.local_box().extent(kAxisN) * groups_);
  mean_ = kernels::View1<double>("hpart::GroupNorm::mean", ng);
  rstd_ = kernels::View1<double>("hpart::GroupNorm::rstd", ng);
  layout_ = l;
}

template <class T>
void GroupNorm<T>::forward(const ShardTensor<T>& x, ShardTensor<T>& y) {
  prepare(x);
  // Every check that could fail on one rank runs before the first all-reduce and rides on it.
  std::string problem = parameter_problem();
  if (problem.empty() && !(y.layout() == x.layout())) problem = "GroupNorm::forward: y must have x's layout";
  if (problem.empty()) problem = local_verdict([&] { kernels::group_sums(padded(x), groups_, mean_); });
  allreduce_groups(layout_, groups_, mean_, problem);
  kernels::View1<double> sq("hpart::GroupNorm::sq", mean_.extent(0));
  const double inv = 1.0 / count_, eps = eps_;
  const auto mean = mean_, rstd = rstd_;
  using Policy = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<std::int64_t>>;
  const auto n = static_cast<std::int64_t>(mean_.extent(0));
  Kokkos::parallel_for("hpart::GroupNorm::mean", Policy(0, n), KOKKOS_LAMBDA(const std::int64_t k) { mean(k) *= inv; });
  problem = local_verdict([&] { kernels::group_centered_squares(padded(x), groups_, mean_, sq); });
  allreduce_groups(layout_, groups_, sq, problem);
  Kokkos::parallel_for("hpart::GroupNorm::rstd", Policy(0, n), KOKKOS_LAMBDA(const std::int64_t k) {
    rstd(k) = 1.0 / kmath::sqrt(sq(k) * inv + eps);
  });
  // Local only; its checks passed on every rank above (same layout, parameters of C entries).
  kernels::group_norm_apply(padded(x), groups_, mean_, rstd_, gamma, beta, padded(y));
}

template <class T>
void GroupNorm<T>::backward(const ShardTensor<T>& x, const ShardTensor<T>& dy, ShardTensor<T>& dx) {
  // Without a forward pass (on every rank, since it is collective) there are no statistics.
  if (!layout_.valid()) throw Error(ErrorCode::invalid_argument, "GroupNorm::backward: call forward first");
  kernels::View1<double> sum_g("hpart::GroupNorm::sum_g", mean_.extent(0)), sum_gx("hpart::GroupNorm::sum_gx", mean_.extent(0));
  std::string problem = parameter_problem();
  if (problem.empty() && (!(x.layout() == layout_) || !(dy.layout() == layout_) || !(dx.layout() == layout_)))
    problem = "GroupNorm::backward: x, dy and dx must have the layout of the last forward's x";
  if (problem.empty())
    problem = local_verdict([&] {
      kernels::group_norm_backward_sums(padded(x), padded(dy), groups_, mean_, rstd_, gamma, sum_g, sum_gx,
                                        gamma_grad, beta_grad);
    });
  allreduce_groups(layout_, groups_, sum_g, problem);
  allreduce_groups(layout_, groups_, sum_gx, {});
  allreduce_sum(layout_.comm(), gamma_grad);
  allreduce_sum(layout_.comm(), beta_grad);
  kernels::group_norm_backward_apply(padded(x), padded(dy), groups_, count_, mean_, rstd_, gamma, sum_g, sum_gx,
                                     padded(dx));
}

template <class T>
std::vector<Parameter<T>> GroupNorm<T>::parameters() const {
  return {{gamma, gamma_grad}, {beta, beta_grad}};
}

template class GroupNorm<float>;
template class GroupNorm<double>;

}  // namespace hpart::tensor
