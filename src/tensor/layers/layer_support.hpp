#pragma once
// Pieces the sharded layers share: MPI types, host round trips of small device views, the
// deterministic parameter initialisation, and the pieces of their agreement across ranks.
#include <mpi.h>

#include <cstdint>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

#include "core/agreement.hpp"
#include "hpart/tensor/layer_kernels.hpp"
#include "hpart/tensor/layout.hpp"

namespace hpart::tensor::detail_layers {

template <class T>
MPI_Datatype mpi_type() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "layers support float and double");
  return std::is_same_v<T, float> ? MPI_FLOAT : MPI_DOUBLE;
}

template <class T>
std::vector<T> to_host(const kernels::View1<T>& v) {
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<T>(m.data(), m.data() + m.size());
}

template <class T>
void from_host(const kernels::View1<T>& v, const std::vector<T>& h) {
  auto m = Kokkos::create_mirror_view(v);
  for (std::size_t k = 0; k < h.size(); ++k) m.data()[k] = h[k];
  Kokkos::deep_copy(v, m);
}

// Uniform in [-bound, bound) by index from a seed: splitmix64, identical on every rank.
inline double uniform_at(std::uint64_t seed, std::uint64_t index, double bound) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + index + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return bound * (2.0 * static_cast<double>(z >> 11) * 0x1.0p-53 - 1.0);
}

// Adds a replicated parameter's values to the arguments every rank must hold alike (a hash: a
// different seed or a parameter set on one rank only would silently give each rank its own model).
template <class T>
void add_parameter(hpart::detail::Replicated& args, const char* name, const kernels::View1<T>& v) {
  const std::vector<T> h = to_host(v);
  const std::vector<double> d(h.begin(), h.end());
  args.values(name, d);
}

// "" or the message of the hpart::Error (or other exception) a local step threw: the layers run
// their local kernels this way before a collective, and the verdict travels with it.
template <class F>
std::string local_verdict(F&& step) {
  try {
    step();
    return {};
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return what.empty() ? "a local step failed" : what;
  }
}

// derived_layout with the layer's own arguments and local problem agreed in the same all-reduce.
ShardLayout derive_layout(const ShardLayout& x, std::int64_t channels, int num, int den, hpart::detail::Replicated args,
                          std::string problem);

inline ErrorCode code_of(const std::string& problem) {
  return problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument;
}

}  // namespace hpart::tensor::detail_layers
