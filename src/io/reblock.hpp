#pragma once
// Re-blocking a sequence of fixed-width records: the readers give each rank a consecutive run of
// a file's records by byte range (so the runs' lengths follow the text, not the objects), and
// a caller wants them in other consecutive blocks (a graph's vtxdist, a point file's blocks).
// Each source's run overlaps a few wanted blocks, so the move is one all-to-all (exchange.hpp)
// with no per-record addressing: every rank learns the wanted blocks (one Allgather, O(R)) and
// sends each the overlap of its run.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/exchange.hpp"
#include "hpart/comm.hpp"

namespace hpart::detail {

// Collective. This rank holds records [my_first, my_first + n) of a sequence, n =
// records.size() / width (width values per record); the ranks' runs follow one another in rank
// order. It wants records [want_first, want_first + want_count) and gets them, in order
// (want_count * width values). Every wanted record must be held by some rank: a block that
// reaches past the held records throws the same Error (invalid_argument) on every rank.
template <class T>
std::vector<T> reblock(const Comm& comm, std::span<const T> records, int width, long long my_first,
                       long long want_first, long long want_count) {
  const auto R = static_cast<std::size_t>(comm.size());
  const auto w = static_cast<long long>(width);
  const long long mine = static_cast<long long>(records.size()) / w;
  std::vector<long long> wanted(2 * R);
  const long long own[2] = {want_first, want_count};
  MPI_Allgather(own, 2, MPI_LONG_LONG, wanted.data(), 2, MPI_LONG_LONG, comm.get());
  std::vector<std::int64_t> counts(R, 0);
  std::vector<T> copy;
  // Destinations in rank order, each the overlap of its block with this run. When the blocks
  // follow one another (the usual case) the overlaps are consecutive slices of the run, sent
  // in place; blocks out of order or overlapping get a copy laid out by destination.
  long long next = -1, first_sent = -1;
  bool in_place = true;
  for (std::size_t q = 0; q < R; ++q) {
    const long long lo = std::max(my_first, wanted[2 * q]);
    const long long hi = std::min(my_first + mine, wanted[2 * q] + wanted[2 * q + 1]);
    if (lo >= hi) continue;
    counts[q] = (hi - lo) * w;
    if (first_sent < 0) first_sent = lo;
    in_place = in_place && (next < 0 || lo == next);
    next = hi;
  }
  std::span<const T> send;
  if (in_place && first_sent >= 0) {
    send = records.subspan(static_cast<std::size_t>((first_sent - my_first) * w),
                           static_cast<std::size_t>((next - first_sent) * w));
  } else if (!in_place) {
    for (std::size_t q = 0; q < R; ++q) {
      const long long lo = std::max(my_first, wanted[2 * q]);
      const long long hi = std::min(my_first + mine, wanted[2 * q] + wanted[2 * q + 1]);
      if (lo < hi) copy.insert(copy.end(), records.begin() + (lo - my_first) * w, records.begin() + (hi - my_first) * w);
    }
    send = copy;
  }
  ReceivedRecords<T> got = alltoallv_records<T>(comm, send, counts);
  const auto expected = static_cast<std::size_t>(want_count * w);
  std::string problem;
  if (got.records.size() != expected)
    problem = "reblock: records [" + std::to_string(want_first) + ", " + std::to_string(want_first + want_count) +
              ") were asked for, but the ranks hold only " + std::to_string(got.records.size() / static_cast<std::size_t>(w)) +
              " of them";
  comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  return std::move(got.records);
}

}  // namespace hpart::detail
