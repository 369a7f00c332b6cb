#pragma once
// Timing and memory of one collective call, repeated: what every method's record is made of.
#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "bench_record.hpp"
#include "memory_usage.hpp"

namespace hpart_bench {

struct CallStats {
  double time_s = 0.0;                  // median over reps of (max over ranks of the call's wall time)
  double peak_rss_mb = 0.0;             // max over ranks and reps of VmHWM after the call
  std::optional<double> rss_growth_mb;  // max over ranks of (peak during the cold call - VmRSS before)
  std::optional<double> cold_s;         // the first rep: trimmed heap (the first call of the process
                                        // for the suite's first method), max over ranks
  std::optional<double> warm_s;         // median of the later reps, heap kept (absent with reps 1)
};

// A record of one measured method: the fields every suite fills the same way (ranks, threads
// and the timing and memory of `stats`); the suite adds its metrics.
Record measured_record(MPI_Comm comm, const std::string& suite, const std::string& case_name, const std::string& library,
                       const std::string& method, long long n, int parts, int reps, const CallStats& stats);

// Whether VmHWM can be reset on this machine; checked once (collective, same answer everywhere).
using hpart_apps::peak_reset_works;

// Collective. For each of `reps` repetitions: prepare() (untimed: drop the previous result),
// reset VmHWM, read VmRSS, barrier, time call(), read VmHWM. The first repetition is the cold
// one: free heap is released before it, so it faults its whole working set in (what a one-shot
// call in a fresh process pays) and its growth is the call's working memory, exact with a working
// VmHWM reset (without one, known only if the call raised the process's peak on every rank).
// The later repetitions keep the allocator's heap, as an application's repeated calls do: with
// a trim before each, every rep re-faulted tens of MiB and medians swung by 40-60% (see
// docs/scaling.md). time_s is the median of all reps, warm_s that of the later ones.
template <class Prepare, class Call>
CallStats measure_calls(MPI_Comm comm, int reps, bool reset_works, Prepare&& prepare, Call&& call);

// Non-template part of measure_calls.
namespace detail {
struct RepSample {
  double seconds = 0.0, peak_mb = 0.0, growth_mb = 0.0;
  bool growth_known = false;
};
struct RepStart {
  hpart_apps::MemoryWindow window;
};
RepStart begin_rep(MPI_Comm comm, bool reset_works, bool cold);
RepSample end_rep(const RepStart& start, double seconds);
CallStats combine(MPI_Comm comm, const RepSample* samples, int reps);
}  // namespace detail

template <class Prepare, class Call>
CallStats measure_calls(MPI_Comm comm, int reps, bool reset_works, Prepare&& prepare, Call&& call) {
  std::vector<detail::RepSample> samples;
  for (int r = 0; r < reps; ++r) {
    prepare();
    const detail::RepStart start = detail::begin_rep(comm, reset_works, r == 0);  // ends with a barrier
    const double t0 = MPI_Wtime();
    call();
    const double t1 = MPI_Wtime();
    samples.push_back(detail::end_rep(start, t1 - t0));
  }
  return detail::combine(comm, samples.data(), reps);
}

}  // namespace hpart_bench
