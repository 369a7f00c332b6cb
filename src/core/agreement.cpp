#include "core/agreement.hpp"

#include <mpi.h>

#include <bit>
#include <cstdio>
#include <cstring>
#include <limits>

namespace hpart::detail {
namespace {

constexpr std::uint64_t kSign = 1ULL << 63;

// Order-preserving encodings, so that MIN over the encodings is the smallest value.
std::uint64_t encode(long long v) { return static_cast<std::uint64_t>(v) ^ kSign; }
long long decode_integer(std::uint64_t k) { return static_cast<long long>(k ^ kSign); }
std::uint64_t encode(double v) {
  const auto bits = std::bit_cast<std::uint64_t>(v);
  return (bits & kSign) ? ~bits : bits | kSign;
}
double decode_real(std::uint64_t k) { return std::bit_cast<double>((k & kSign) ? k & ~kSign : ~k); }

// splitmix64's finaliser over the words, seeded with the length: arrays that differ in one bit or
// in their length hash apart (a collision needs an adversary, not a typo).
std::uint64_t mix(std::uint64_t h, std::uint64_t w) {
  h ^= w + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}
template <class T>
std::uint64_t hash_words(std::span<const T> v) {
  std::uint64_t h = mix(0x243f6a8885a308d3ULL, v.size());
  for (const T& x : v) {
    std::uint64_t w = 0;
    std::memcpy(&w, &x, sizeof(T));
    h = mix(h, w);
  }
  return h;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// The failure path of agree and Comm::agree: the lowest failing rank (`first`) broadcasts its
// code and message, with the count of failing ranks in the prefix.
[[noreturn]] void throw_first(const Comm& comm, int first, bool failed, ErrorCode code, const std::string& message) {
  int failures = 0;
  int one = failed ? 1 : 0;
  MPI_Allreduce(&one, &failures, 1, MPI_INT, MPI_SUM, comm.get());
  int header[2] = {static_cast<int>(code), static_cast<int>(message.size())};
  MPI_Bcast(header, 2, MPI_INT, first, comm.get());
  std::string text(static_cast<std::size_t>(header[1]), '\0');
  if (comm.rank() == first) text = message;
  if (header[1] > 0) MPI_Bcast(text.data(), header[1], MPI_CHAR, first, comm.get());
  if (comm.size() > 1) {
    std::string where = "rank " + std::to_string(first);
    if (failures > 1) where += " (and " + std::to_string(failures - 1) + " more)";
    text = where + ": " + text;
  }
  throw Error(static_cast<ErrorCode>(header[0]), text);
}

}  // namespace

Replicated& Replicated::value(const char* name, long long v) {
  entries_.push_back({name, Entry::integer, encode(v)});
  return *this;
}
Replicated& Replicated::value(const char* name, double v) {
  entries_.push_back({name, Entry::real, encode(v)});
  return *this;
}
Replicated& Replicated::values(const char* name, std::span<const double> v) {
  entries_.push_back({name, Entry::array, hash_words(v)});
  return *this;
}
Replicated& Replicated::values(const char* name, std::span<const int> v) {
  entries_.push_back({name, Entry::array, hash_words(v)});
  return *this;
}
Replicated& Replicated::values(const char* name, std::span<const std::int64_t> v) {
  entries_.push_back({name, Entry::array, hash_words(v)});
  return *this;
}
Replicated& Replicated::text(const char* name, std::string_view v) {
  entries_.push_back({name, Entry::text, hash_words(std::span<const char>(v.data(), v.size()))});
  return *this;
}
Replicated& Replicated::given(const char* name, bool present, bool abstain) {
  entries_.push_back({name, Entry::presence, present ? 1ULL : 0ULL, abstain});
  return *this;
}

std::string mismatch_message(const Replicated::Entry& e, std::uint64_t lo, std::uint64_t hi) {
  const std::string name = e.name;
  switch (e.kind) {
    case Replicated::Entry::integer:
      return name + " differs between ranks (from " + std::to_string(decode_integer(lo)) + " to " +
             std::to_string(decode_integer(hi)) + "): every rank must pass the same " + name;
    case Replicated::Entry::real:
      return name + " differs between ranks (from " + number(decode_real(lo)) + " to " + number(decode_real(hi)) +
             "): every rank must pass the same " + name;
    case Replicated::Entry::array:
      return name + " differs between ranks (length or values): every rank must pass the same " + name;
    case Replicated::Entry::text:
      return name + " differs between ranks: every rank must pass the same " + name;
    case Replicated::Entry::presence:
      return name + " given on some ranks and not on others: give " + name +
             " on every rank that holds objects, or on none (ranks without objects may pass none)";
  }
  return name + " differs between ranks";
}

bool agree_and_all(const Comm& comm, const Replicated& args, ErrorCode code, const std::string& problem, bool mine) {
  const auto& entries = args.entries();
  // [first failing rank, the flag, then per argument: min key, min of ~key (= ~max key)]. Ranks
  // that abstain contribute all ones, the identity of MIN.
  std::vector<std::uint64_t> buf(2 + 2 * entries.size());
  const bool failed = code != ErrorCode::ok;
  buf[0] = static_cast<std::uint64_t>(failed ? comm.rank() : comm.size());
  buf[1] = mine ? 1 : 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    buf[2 + 2 * i] = e.abstain ? ~0ULL : e.key;
    buf[3 + 2 * i] = e.abstain ? ~0ULL : ~e.key;
  }
  MPI_Allreduce(MPI_IN_PLACE, buf.data(), static_cast<int>(buf.size()), MPI_UINT64_T, MPI_MIN, comm.get());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::uint64_t lo = buf[2 + 2 * i], hi = ~buf[3 + 2 * i];
    if (lo == ~0ULL && hi == 0) continue;  // every rank abstained
    if (lo != hi) throw Error(ErrorCode::invalid_argument, mismatch_message(entries[i], lo, hi));
  }
  const int first = static_cast<int>(buf[0]);
  if (first != comm.size()) throw_first(comm, first, failed, code, problem);
  return buf[1] == 1;
}

void agree(const Comm& comm, const Replicated& args, ErrorCode code, const std::string& problem) {
  (void)agree_and_all(comm, args, code, problem, true);
}

}  // namespace hpart::detail
