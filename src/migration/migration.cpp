#include "hpart/migration.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "migration/block_exchange.hpp"
#include "core/agreement.hpp"
#include "core/exchange.hpp"
#include "core/validate.hpp"
#include "core/unique_ids.hpp"
#include "metrics/part_ids.hpp"

namespace hpart {


namespace {

// The contiguous-blocks map as a table (checked: it must describe this communicator, be the same
// on every rank, and fit in memory).
std::vector<int> owner_table(const Comm& comm, PartOwners owners) {
  std::string problem;
  if (std::string p = detail::check_parts(owners.num_parts); !p.empty()) problem = "Migration: num_" + p;
  if (owners.num_ranks != comm.size())
    problem = "Migration: the part owner map is for " + std::to_string(owners.num_ranks) + " ranks but the communicator has " +
              std::to_string(comm.size());
  if (problem.empty()) problem = detail::check_part_memory(owners.num_parts, 8.0, 0, 0.0);
  detail::Replicated args;
  args.value("Migration: num_parts", static_cast<long long>(owners.num_parts));
  detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  std::vector<int> table(static_cast<std::size_t>(owners.num_parts));
  for (part_t p = 0; p < owners.num_parts; ++p) table[static_cast<std::size_t>(p)] = owners.owner(p);
  return table;
}

Exchange resolved(Exchange e, int max_peers, int ranks) {
  if (e != Exchange::automatic) return e;
  return 4 * max_peers <= ranks - 1 ? Exchange::sparse : Exchange::dense;
}

}  // namespace

Migration::Migration(const Comm& comm, std::span<const part_t> parts, PartOwners owners, std::span<const gid_t> ids)
    : Migration(comm, parts, std::span<const int>(owner_table(comm, owners)), ids) {}

Migration::Migration(const Comm& comm, std::span<const part_t> parts, std::span<const int> owner_of_part,
                     std::span<const gid_t> ids)
    : comm_(comm) {
  const int R = comm.size();
  const auto K = static_cast<part_t>(owner_of_part.size());
  std::string problem;
  ErrorCode code = ErrorCode::invalid_argument;
  if (owner_of_part.empty()) problem = "Migration: the part owner map is empty";
  for (std::size_t p = 0; p < owner_of_part.size() && problem.empty(); ++p)
    if (owner_of_part[p] < 0 || owner_of_part[p] >= R)
      problem = "Migration: part " + std::to_string(p) + " is owned by rank " + std::to_string(owner_of_part[p]) +
                ", outside [0, " + std::to_string(R) + ")";
  std::vector<std::int64_t> per_rank(static_cast<std::size_t>(R), 0);
  if (const std::size_t i = problem.empty() ? detail::first_bad_part(parts, K) : parts.size(); i < parts.size())
    problem = "Migration: part of local object " + std::to_string(i) + " is " + std::to_string(parts[i]) +
              ", outside [0, " + std::to_string(K) + ")";
  if (problem.empty())
    for (const part_t p : parts) ++per_rank[static_cast<std::size_t>(owner_of_part[static_cast<std::size_t>(p)])];
  // A rank without objects passes an empty span whether or not the others give ids: any rank
  // giving ids asks for them everywhere.
  int want_ids = ids.empty() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &want_ids, 1, MPI_INT, MPI_MAX, comm.get());
  if (problem.empty() && want_ids && ids.size() != parts.size()) {
    problem = "Migration: got " + std::to_string(ids.size()) + " ids for " + std::to_string(parts.size()) +
              " local objects: pass one id per object on every rank, or none on any";
    code = ErrorCode::size_mismatch;
  }
  // Every rank must map parts to the same ranks, or records would go where no rank expects them.
  detail::Replicated args;
  args.values("Migration: the part owner map", owner_of_part).given("Migration: ids", !ids.empty(), parts.empty());
  detail::agree(comm, args, problem.empty() ? ErrorCode::ok : code, problem);
  if (want_ids) detail::require_unique_ids(comm, ids, "Migration");

  // Alltoallv takes int counts and displacements: refuse plans that would overflow them.
  detail::ExchangeCounts c = detail::exchange_counts(comm, per_rank);
  comm.agree(c.fits_int() ? ErrorCode::ok : ErrorCode::invalid_argument,
             "Migration: more than 2^31 records to or from one rank is not supported; use more ranks");

  send_counts_ = std::move(c.send_counts);
  recv_counts_ = std::move(c.recv_counts);
  send_displs_ = std::move(c.send_displs);
  recv_displs_ = std::move(c.recv_displs);
  num_imports_ = static_cast<std::size_t>(c.received);

  // Stable counting sort by destination keeps each group in local order.
  order_.resize(parts.size());
  std::vector<int> fill = send_displs_;
  for (std::size_t i = 0; i < parts.size(); ++i)
    order_[static_cast<std::size_t>(fill[static_cast<std::size_t>(owner_of_part[static_cast<std::size_t>(parts[i])])]++)] = i;

  const int me = comm.rank();
  num_exports_ = parts.size() - static_cast<std::size_t>(send_counts_[static_cast<std::size_t>(me)]);
  const auto exported = static_cast<long long>(num_exports_);
  MPI_Allreduce(&exported, &global_migrated_, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  int peers = 0;
  for (int q = 0; q < R; ++q)
    peers += q != me && (send_counts_[static_cast<std::size_t>(q)] > 0 || recv_counts_[static_cast<std::size_t>(q)] > 0);
  MPI_Allreduce(&peers, &max_peers_, 1, MPI_INT, MPI_MAX, comm.get());
  exchange_ = resolved(Exchange::automatic, max_peers_, R);

  if (want_ids) imported_ids_ = move(ids);
}

void Migration::set_exchange(Exchange e) { exchange_ = resolved(e, max_peers_, comm_.size()); }

void Migration::exchange_grouped(const void* grouped, std::size_t record_size, void* out) const {
  detail::exchange_blocks(comm_, exchange_ == Exchange::sparse, grouped, out, record_size,
                          {send_counts_, send_displs_, recv_counts_, recv_displs_});
  const auto self = static_cast<std::size_t>(recv_counts_[static_cast<std::size_t>(comm_.rank())]);
  bytes_sent_ += num_exports_ * record_size;
  bytes_received_ += (num_imports_ - self) * record_size;
}

void Migration::move_bytes(const void* in, std::size_t n, std::size_t record_size, void* out) const {
  const bool wrong = n != order_.size();
  // The record size and the transport decide every message's length: ranks that differ would
  // truncate or wait for ever, so they are compared with the lengths' verdict.
  detail::Replicated args;
  args.value("Migration::move: the record size (sizeof(T))", static_cast<long long>(record_size))
      .value("Migration: the exchange (set_exchange)", static_cast<long long>(exchange_));
  detail::agree(comm_, args, wrong ? ErrorCode::size_mismatch : ErrorCode::ok,
                "Migration::move: got " + std::to_string(n) + " records but the plan was built for " +
                    std::to_string(order_.size()) +
                    " local objects: pass one record per object, in the order of the partition");
  std::vector<unsigned char> grouped(n * record_size);
  const auto* src = static_cast<const unsigned char*>(in);
  for (std::size_t k = 0; k < n; ++k)
    std::memcpy(grouped.data() + k * record_size, src + order_[k] * record_size, record_size);
  exchange_grouped(grouped.data(), record_size, out);
}

}  // namespace hpart
