// Sharded group norm: per (sample, group) sums are laid into an array over the global batch
// (zeros for samples this rank does not hold) and all-reduced, so batch and space may both be split.
#include <mpi.h>

#include <cmath>
#include <string>
#include <vector>

#include "hpart/tensor/layers.hpp"
#include "layer_support.hpp"

namespace hpart::tensor {

namespace {

// Local per-(n, g) values -> their sums over the ranks, for this rank's samples.
void allreduce_groups(const ShardLayout& layout, int groups, const kernels::View1<double>& local) {
  const TensorBox& b = layout.local_box();
  const std::int64_t N = layout.shape().extent[kAxisN], n0 = b.empty() ? 0 : b.lo[kAxisN];
  std::vector<double> all(static_cast<std::size_t>(N * groups), 0.0);
  const auto h = detail_layers::to_host(local);
  for (std::size_t k = 0; k < h.size(); ++k) all[static_cast<std::size_t>(n0 * groups) + k] = h[k];
  MPI_Allreduce(MPI_IN_PLACE, all.data(), static_cast<int>(all.size()), MPI_DOUBLE, MPI_SUM, layout.comm().get());
  std::vector<double> mine(all.begin() + n0 * groups, all.begin() + n0 * groups + static_cast<std::int64_t>(h.size()));
  detail_layers::from_host(local, mine);
}

}  // namespace

template <class T>
GroupNorm<T>::GroupNorm(int channels, int groups, double eps) : channels_(channels), groups_(groups), eps_(eps) {
  if (channels < 1 || groups < 1 || channels % groups != 0)
    throw Error(ErrorCode::invalid_argument, "GroupNorm: " + std::to_string(groups) + " groups must divide " +
                                                 std::to_string(channels) + " channels");
  const auto c = static_cast<std::size_t>(channels);
  gamma = kernels::View1<T>("hpart::GroupNorm::gamma", c);
  beta = kernels::View1<T>("hpart::GroupNorm::beta", c);
  gamma_grad = kernels::View1<T>("hpart::GroupNorm::gamma_grad", c);
  beta_grad = kernels::View1<T>("hpart::GroupNorm::beta_grad", c);
  Kokkos::deep_copy(gamma, T(1));
}

template <class T>
void GroupNorm<T>::prepare(const ShardTensor<T>& x) {
  if (layout_.valid() && x.layout() == layout_) return;
  const ShardLayout& l = x.layout();
  std::string problem;
  if (l.shape().extent[kAxisC] != channels_)
    problem = "GroupNorm: the input has " + std::to_string(l.shape().extent[kAxisC]) + " channels, the layer " +
              std::to_string(channels_);
  else if (!l.has_mesh() || l.mesh().replicas != 1 || l.mesh().parts[kAxisC] != 1)
    problem = "GroupNorm needs a mesh layout with one replica and whole channels on every rank";
  l.comm().agree(problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  const TensorShape& s = l.shape();
  count_ = static_cast<double>(channels_ / groups_) * static_cast<double>(s.extent[kAxisD] * s.extent[kAxisH] * s.extent[kAxisW]);
  const auto ng = static_cast<std::size_t>(l.local_box().size(kAxisN) * groups_);
  mean_ = kernels::View1<double>("hpart::GroupNorm::mean", ng);
  rstd_ = kernels::View1<double>("hpart::GroupNorm::rstd", ng);
  layout_ = l;
}

template <class T>
void GroupNorm<T>::forward(const ShardTensor<T>& x, ShardTensor<T>& y) {
  prepare(x);
  if (!(y.layout() == x.layout())) throw Error(ErrorCode::invalid_argument, "GroupNorm::forward: y must have x's layout");
  kernels::View1<double> sq("hpart::GroupNorm::sq", mean_.extent(0));
  kernels::group_sums(padded(x), groups_, mean_);
  allreduce_groups(layout_, groups_, mean_);
  const double inv = 1.0 / count_, eps = eps_;
  const auto mean = mean_, rstd = rstd_;
  using Policy = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<std::int64_t>>;
  const auto n = static_cast<std::int64_t>(mean_.extent(0));
  Kokkos::parallel_for("hpart::GroupNorm::mean", Policy(0, n), KOKKOS_LAMBDA(const std::int64_t k) { mean(k) *= inv; });
  kernels::group_centered_squares(padded(x), groups_, mean_, sq);
  allreduce_groups(layout_, groups_, sq);
  Kokkos::parallel_for("hpart::GroupNorm::rstd", Policy(0, n), KOKKOS_LAMBDA(const std::int64_t k) {
#if KOKKOS_VERSION >= 40000
    rstd(k) = 1.0 / Kokkos::sqrt(sq(k) * inv + eps);
#else
    rstd(k) = 1.0 / Kokkos::Experimental::sqrt(sq(k) * inv + eps);
#endif
  });
  kernels::group_norm_apply(padded(x), groups_, mean_, rstd_, gamma, beta, padded(y));
}

template <class T>
void GroupNorm<T>::backward(const ShardTensor<T>& x, const ShardTensor<T>& dy, ShardTensor<T>& dx) {
  if (!layout_.valid() || !(x.layout() == layout_) || !(dy.layout() == layout_) || !(dx.layout() == layout_))
    throw Error(ErrorCode::invalid_argument, "GroupNorm::backward: call forward first; x, dy, dx share a layout");
  kernels::View1<double> sum_g("hpart::GroupNorm::sum_g", mean_.extent(0)), sum_gx("hpart::GroupNorm::sum_gx", mean_.extent(0));
  kernels::group_norm_backward_sums(padded(x), padded(dy), groups_, mean_, rstd_, gamma, sum_g, sum_gx, gamma_grad,
                                    beta_grad);
  allreduce_groups(layout_, groups_, sum_g);
  allreduce_groups(layout_, groups_, sum_gx);
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
