#pragma once
// Moving objects to the ranks that own their parts.
#include <mpi.h>

#include <cstddef>
#include <span>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/partition.hpp"

namespace hpart {

// Which rank owns part p. The default: contiguous blocks of parts, owner(p) = p * R / K.
struct PartOwners {
  int num_parts = 1;
  int num_ranks = 1;
  [[nodiscard]] int owner(part_t p) const {
    return static_cast<int>((static_cast<long long>(p) * num_ranks) / num_parts);
  }
};

// The export/import plan of one migration, built once and used to move any number of arrays.
// Objects arrive grouped by source rank, each group in the sender's local order.
class Migration {
 public:
  // Collective.
  Migration(const Comm& comm, std::span<const part_t> parts, PartOwners owners);
  // Any part -> rank map (num_parts entries, each a rank of comm), e.g. a hierarchical
  // partition's owner_of_part, whose nodes' ranks need not be contiguous.
  Migration(const Comm& comm, std::span<const part_t> parts, std::span<const int> owner_of_part);
  Migration(const Comm& comm, const Partition& p)
      : Migration(comm, p.parts, PartOwners{p.num_parts, comm.size()}) {}

  // Collective (a wrong length on any rank throws on every rank): sends each local record to the rank that owns its part and returns the
  // records this rank now owns. `in` has one record per local object (trivially copyable).
  template <class T>
  std::vector<T> move(std::span<const T> in) const {
    std::vector<T> out(num_imports_);
    move_bytes(in.data(), in.size(), sizeof(T), out.data());
    return out;
  }
  template <class T>
  std::vector<T> move(const std::vector<T>& in) const {
    return move(std::span<const T>(in));
  }

  [[nodiscard]] std::size_t num_imports() const { return num_imports_; }
  [[nodiscard]] std::size_t num_exports() const { return num_exports_; }  // leave this rank
  [[nodiscard]] long long global_migrated() const { return global_migrated_; }  // all ranks
  // Bytes that left this rank in all move() calls so far.
  [[nodiscard]] std::size_t bytes_sent() const { return bytes_sent_; }

 private:
  void move_bytes(const void* in, std::size_t n, std::size_t record_size, void* out) const;

  Comm comm_;
  std::vector<std::size_t> order_;  // local indices grouped by destination rank
  // Per-rank record counts and offsets, as MPI_Alltoallv takes them.
  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_;
  std::size_t num_imports_ = 0;
  std::size_t num_exports_ = 0;
  long long global_migrated_ = 0;
  mutable std::size_t bytes_sent_ = 0;
};

}  // namespace hpart
