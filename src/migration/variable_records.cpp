// Variable-size moves: the sizes travel first as fixed records (one std::uint64_t per object),
// which gives every rank its byte counts per peer without a further count exchange; then the
// bytes, by the same transport as the fixed records.
#include <climits>
#include <cstring>
#include <exception>
#include <string>

#include "core/agreement.hpp"
#include "core/exchange.hpp"
#include "core/memory_budget.hpp"
#include "migration/block_exchange.hpp"
#include "hpart/migration.hpp"

namespace hpart {

using detail::exclusive_sum;
namespace {

// Bytes per rank pair, from the per-object sizes grouped by rank as `counts` says.
std::vector<long long> group_bytes(const std::vector<std::uint64_t>& sizes, std::span<const int> counts) {
  std::vector<long long> bytes(counts.size(), 0);
  std::size_t k = 0;
  for (std::size_t r = 0; r < counts.size(); ++r)
    for (int c = 0; c < counts[r]; ++c) bytes[r] += static_cast<long long>(sizes[k++]);
  return bytes;
}

std::string failure(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

}  // namespace

VariableRecords Migration::exchange_variable(const std::vector<std::uint64_t>& sizes,
                                             const std::vector<unsigned char>& grouped) const {
  std::vector<std::uint64_t> arriving(num_imports_);
  exchange_grouped(sizes.data(), sizeof(std::uint64_t), arriving.data());

  const std::vector<long long> out_bytes = group_bytes(sizes, send_counts_);
  const std::vector<long long> in_bytes = group_bytes(arriving, recv_counts_);
  long long out_total = 0, in_total = 0;
  for (long long b : out_bytes) out_total += b;
  for (long long b : in_bytes) in_total += b;
  // Byte counts and displacements are int in MPI 3.
  const bool too_big = out_total > INT_MAX || in_total > INT_MAX;
  comm_.agree(too_big ? ErrorCode::invalid_argument : ErrorCode::ok,
              "Migration: a variable move of more than 2 GiB to or from one rank is not supported; move the "
              "payload in parts or use more ranks");

  const std::vector<int> send_bytes(out_bytes.begin(), out_bytes.end()), recv_bytes(in_bytes.begin(), in_bytes.end());
  const std::vector<int> send_displs = exclusive_sum(send_bytes), recv_displs = exclusive_sum(recv_bytes);
  VariableRecords r;
  r.bytes.resize(static_cast<std::size_t>(in_total));
  detail::exchange_blocks(comm_, exchange_ == Exchange::sparse, grouped.data(), r.bytes.data(), 1,
                          {send_bytes, send_displs, recv_bytes, recv_displs});
  r.offsets.resize(num_imports_ + 1, 0);
  for (std::size_t k = 0; k < num_imports_; ++k) r.offsets[k + 1] = r.offsets[k] + arriving[k];

  const auto me = static_cast<std::size_t>(comm_.rank());
  bytes_sent_ += static_cast<std::size_t>(out_total - out_bytes[me]);
  bytes_received_ += static_cast<std::size_t>(in_total - in_bytes[me]);
  return r;
}

VariableRecords Migration::move_variable(std::span<const std::size_t> sizes, std::span<const unsigned char> bytes) const {
  const std::size_t n = order_.size();
  std::string problem;
  std::size_t total = 0;
  if (sizes.size() != n) {
    problem = "Migration::move_variable: got " + std::to_string(sizes.size()) + " sizes but the plan was built for " +
              std::to_string(n) + " local objects: pass one size per object";
  } else {
    bool wrapped = false;  // sizes that reach bytes.size() only modulo 2^64 must not pass
    for (std::size_t s : sizes) wrapped |= __builtin_add_overflow(total, s, &total);
    if (wrapped)
      problem = "Migration::move_variable: the sizes add up to more than 2^64 bytes (" + std::to_string(bytes.size()) +
                " were given): pass the size of each object's bytes";
    else if (total != bytes.size())
      problem = "Migration::move_variable: the sizes add up to " + std::to_string(total) + " bytes but " +
                std::to_string(bytes.size()) + " were given";
  }
  detail::Replicated args;
  args.value("Migration: the exchange (set_exchange)", static_cast<long long>(exchange_));
  detail::agree(comm_, args, problem.empty() ? ErrorCode::ok : ErrorCode::size_mismatch, problem);

  std::vector<std::size_t> start(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) start[i + 1] = start[i] + sizes[i];
  std::vector<std::uint64_t> grouped_sizes(n);
  std::vector<unsigned char> grouped(total);
  std::size_t at = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order_[k];
    grouped_sizes[k] = sizes[i];
    if (sizes[i] > 0) std::memcpy(grouped.data() + at, bytes.data() + start[i], sizes[i]);
    at += sizes[i];
  }
  return exchange_variable(grouped_sizes, grouped);
}

void Migration::move(Serialiser& s) const {
  const std::size_t n = order_.size();
  std::vector<std::uint64_t> sizes(n);
  std::vector<unsigned char> grouped;
  std::string problem;
  try {
    std::size_t total = 0;
    bool wrapped = false;
    for (std::size_t k = 0; k < n; ++k) wrapped |= __builtin_add_overflow(total, sizes[k] = s.size(order_[k]), &total);
    if (wrapped) throw Error(ErrorCode::invalid_input, "the sizes of this rank's objects add up to more than 2^64 bytes");
    if (std::string m = detail::check_memory(static_cast<double>(total), "packing this rank's objects",
                                             "check the serialiser's size(), or move the payload in parts");
        !m.empty())
      throw Error(ErrorCode::invalid_input, m);
    grouped.resize(total);
    std::size_t at = 0;
    for (std::size_t k = 0; k < n && problem.empty(); ++k) {
      const std::size_t i = order_[k];
      ByteWriter w(grouped.data() + at, sizes[k]);
      s.pack(i, w);
      if (w.written() != sizes[k])
        problem = "Migration: pack(" + std::to_string(i) + ") wrote " + std::to_string(w.written()) +
                  " bytes but size(" + std::to_string(i) + ") declared " + std::to_string(sizes[k]) +
                  ": pack must write exactly size(i) bytes";
      at += sizes[k];
    }
  } catch (const Error& e) {
    problem = std::string("Migration: ") + e.what();
  } catch (...) {
    problem = "Migration: the serialiser's size() or pack() threw: " + failure(std::current_exception());
  }
  detail::Replicated args;
  args.value("Migration: the exchange (set_exchange)", static_cast<long long>(exchange_));
  detail::agree(comm_, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_input, problem);

  const VariableRecords r = exchange_variable(sizes, grouped);
  try {
    s.prepare(r.size());
    for (std::size_t k = 0; k < r.size() && problem.empty(); ++k) {
      ByteReader in(r.record(k));
      s.unpack(k, in);
      if (in.consumed() != in.bytes().size())
        problem = "Migration: unpack(" + std::to_string(k) + ") read " + std::to_string(in.consumed()) +
                  " bytes of an object of " + std::to_string(in.bytes().size()) +
                  ": unpack must read what pack wrote";
    }
  } catch (...) {
    problem = "Migration: the serialiser's prepare() or unpack() threw: " + failure(std::current_exception());
  }
  comm_.agree(problem.empty() ? ErrorCode::ok : ErrorCode::invalid_input, problem);
}

}  // namespace hpart
