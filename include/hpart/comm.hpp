#pragma once
// hpart::Comm borrows an MPI communicator: it never duplicates, frees or replaces it, and the
// library never falls back to MPI_COMM_WORLD, so hpart works unchanged on sub-communicators.
#include <mpi.h>

#include <cstddef>
#include <span>
#include <string>
#include <type_traits>

#include "hpart/error.hpp"

namespace hpart {

// The value types that Comm's reductions take, each with its MPI datatype (int, long, long long,
// their unsigned forms, so std::int64_t and std::size_t, and double).
template <class T>
concept comm_reducible =
    std::is_same_v<T, int> || std::is_same_v<T, long> || std::is_same_v<T, long long> ||
    std::is_same_v<T, unsigned> || std::is_same_v<T, unsigned long> || std::is_same_v<T, unsigned long long> ||
    std::is_same_v<T, double>;

class Comm {
 public:
  explicit Comm(MPI_Comm comm);

  [[nodiscard]] MPI_Comm get() const noexcept { return comm_; }
  [[nodiscard]] int rank() const noexcept { return rank_; }
  [[nodiscard]] int size() const noexcept { return size_; }

  // Collective. Every rank passes its local verdict (empty message = fine). If any rank
  // reports a problem, every rank throws the same Error: the message of the lowest failing
  // rank, prefixed with that rank's number when it comes from a single rank of several.
  void agree(ErrorCode code, const std::string& message) const;
  void agree_ok() const { agree(ErrorCode::ok, {}); }

  // Collective reductions that return the result on every rank, so that a caller writes
  // `const long long n = comm.sum(local_n);` instead of an MPI_Allreduce with a datatype that
  // must match the variable by hand. Each is exactly one MPI_Allreduce (MPI_IN_PLACE), so
  // floating-point sums are the ones MPI gives, as before. The span forms reduce every entry in
  // place, in one call.
  template <comm_reducible T>
  [[nodiscard]] T sum(T v) const { return reduced(v, Reduce::sum); }
  template <comm_reducible T>
  [[nodiscard]] T min(T v) const { return reduced(v, Reduce::min); }
  template <comm_reducible T>
  [[nodiscard]] T max(T v) const { return reduced(v, Reduce::max); }
  template <comm_reducible T>
  void sum(std::span<T> v) const { allreduce(v.data(), v.size(), datatype<T>(), Reduce::sum); }
  template <comm_reducible T>
  void min(std::span<T> v) const { allreduce(v.data(), v.size(), datatype<T>(), Reduce::min); }
  template <comm_reducible T>
  void max(std::span<T> v) const { allreduce(v.data(), v.size(), datatype<T>(), Reduce::max); }
  // Collective: the sum of the values of the ranks before this one (0 on rank 0, where
  // MPI_Exscan leaves its result undefined): where this rank's items start in rank order.
  template <comm_reducible T>
  [[nodiscard]] T exscan_sum(T v) const {
    T before{};
    exscan_sum(&v, &before, 1, datatype<T>());
    return before;
  }
  template <comm_reducible T>
  void exscan_sum(std::span<const T> mine, std::span<T> before) const {
    exscan_sum(mine.data(), before.data(), mine.size(), datatype<T>());
  }

 private:
  enum class Reduce { sum, min, max };
  template <class T>
  static MPI_Datatype datatype() {
    if constexpr (std::is_same_v<T, int>) return MPI_INT;
    else if constexpr (std::is_same_v<T, long>) return MPI_LONG;
    else if constexpr (std::is_same_v<T, long long>) return MPI_LONG_LONG;
    else if constexpr (std::is_same_v<T, unsigned>) return MPI_UNSIGNED;
    // Not MPI_UNSIGNED_LONG: Open MPI 4.1.4 (Debian 12) reduces it with MIN/MAX as if signed, so
    // any value >= 2^63 (a 64-bit curve key, a flipped sentinel) came back wrong. The fixed-width
    // type is correct; unsigned long is 64 bits on every platform hpart builds on (LP64).
    else if constexpr (std::is_same_v<T, unsigned long>) {
      static_assert(sizeof(unsigned long) == 8, "hpart assumes an LP64 platform");
      return MPI_UINT64_T;
    }
    else if constexpr (std::is_same_v<T, unsigned long long>) return MPI_UNSIGNED_LONG_LONG;
    else return MPI_DOUBLE;
  }
  template <class T>
  T reduced(T v, Reduce op) const {
    allreduce(&v, 1, datatype<T>(), op);
    return v;
  }
  void allreduce(void* values, std::size_t count, MPI_Datatype type, Reduce op) const;
  void exscan_sum(const void* mine, void* before, std::size_t count, MPI_Datatype type) const;

  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace hpart
