#pragma once
// Agreement before the first collective that depends on the input. Every public entry point
// checks its local input (a verdict: empty message = fine) and lists the arguments that every
// rank must pass alike (parts, ncon, dim, options, whether weights are given); one MPI_Allreduce
// then compares those arguments and combines the verdicts, and every rank throws the same
// hpart::Error when either fails. The comparison sends two 64-bit words per argument (its
// smallest and largest encoding), so a mismatch is found exactly, whatever the rank count, and
// the message can name the argument and, for numbers, the range of values the ranks passed.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/error.hpp"

namespace hpart::detail {

class Replicated {
 public:
  // A number every rank must pass alike (reported with its range when it differs).
  Replicated& value(const char* name, long long v);
  Replicated& value(const char* name, double v);
  // An array every rank must pass alike (compared by length and a 64-bit hash of its bits).
  Replicated& values(const char* name, std::span<const double> v);
  Replicated& values(const char* name, std::span<const int> v);
  Replicated& values(const char* name, std::span<const std::int64_t> v);
  // A string every rank must pass alike (a file path, a dataset name): compared by a hash of
  // its bytes, so a path that differs on one rank is an error before any rank opens a file.
  Replicated& text(const char* name, std::string_view v);
  // Whether an optional per-object array (weights, ids, coordinates) is given. Ranks without
  // local objects cannot tell "none given" from "given, empty" and do not vote (`abstain`).
  Replicated& given(const char* name, bool present, bool abstain);

  struct Entry {
    const char* name;
    enum Kind : unsigned char { integer, real, array, text, presence } kind;
    std::uint64_t key;  // order-preserving encoding (integer, real), hash (array, text), 0/1 (presence)
    bool abstain = false;
  };
  [[nodiscard]] const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
};

// Collective over comm: one MPI_Allreduce when all is well. Throws the same hpart::Error on every
// rank: invalid_argument naming the first argument of `args` that differs between ranks, else,
// when any rank's verdict is a problem, that of the lowest failing rank (as Comm::agree).
void agree(const Comm& comm, const Replicated& args, ErrorCode code, const std::string& problem);

// The same, also reducing a flag in the one allreduce: returns whether `mine` holds on every rank.
bool agree_and_all(const Comm& comm, const Replicated& args, ErrorCode code, const std::string& problem, bool mine);

// The message every rank reports for a replicated argument whose values differ (lo, hi: the
// smallest and largest encodings over the ranks).
std::string mismatch_message(const Replicated::Entry& entry, std::uint64_t lo, std::uint64_t hi);

}  // namespace hpart::detail
