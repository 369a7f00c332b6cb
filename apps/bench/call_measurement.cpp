#include "call_measurement.hpp"

#include <omp.h>

#include <algorithm>
#include <vector>

#include "memory_usage.hpp"

namespace hpart_bench {

namespace detail {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0.0 : n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

RepStart begin_rep(MPI_Comm comm, bool reset_works, bool cold) {
  RepStart start;
  start.window.open(reset_works, /*keep_heap=*/!cold);
  MPI_Barrier(comm);
  return start;
}

RepSample end_rep(const RepStart& start, double seconds) {
  const hpart_apps::MemoryWindow::Result m = start.window.close();
  return {seconds, m.peak_mb, m.growth_mb, m.growth_known};
}

CallStats combine(MPI_Comm comm, const RepSample* samples, int reps) {
  // Per rep: max over ranks of time, peak and growth; min over ranks of "growth known".
  const auto R = static_cast<std::size_t>(reps);
  std::vector<double> maxima(3 * R);
  std::vector<int> known(R);
  for (std::size_t r = 0; r < R; ++r) {
    maxima[3 * r] = samples[r].seconds;
    maxima[3 * r + 1] = samples[r].peak_mb;
    maxima[3 * r + 2] = samples[r].growth_mb;
    known[r] = samples[r].growth_known ? 1 : 0;
  }
  MPI_Allreduce(MPI_IN_PLACE, maxima.data(), static_cast<int>(3 * R), MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, known.data(), static_cast<int>(R), MPI_INT, MPI_MIN, comm);

  CallStats stats;
  std::vector<double> times(R);
  for (std::size_t r = 0; r < R; ++r) {
    times[r] = maxima[3 * r];
    stats.peak_rss_mb = std::max(stats.peak_rss_mb, maxima[3 * r + 1]);
  }
  // Growth from the cold rep alone: the warm ones start from a heap that already holds pages.
  if (R > 0 && known[0] != 0) stats.rss_growth_mb = maxima[2];
  if (R > 0) stats.cold_s = times[0];
  if (R > 1) stats.warm_s = median(std::vector<double>(times.begin() + 1, times.end()));
  stats.time_s = median(times);
  return stats;
}

}  // namespace detail
Record measured_record(MPI_Comm comm, const std::string& suite, const std::string& case_name, const std::string& library,
                       const std::string& method, long long n, int parts, int reps, const CallStats& stats) {
  Record r;
  r.suite = suite;
  r.case_name = case_name;
  r.library = library;
  r.method = method;
  r.n = n;
  r.parts = parts;
  MPI_Comm_size(comm, &r.ranks);
  r.threads = omp_get_max_threads();
  r.reps = reps;
  r.time_s = stats.time_s;
  r.peak_rss_mb = stats.peak_rss_mb;
  r.rss_growth_mb = stats.rss_growth_mb;
  r.cold_s = stats.cold_s;
  r.warm_s = stats.warm_s;
  return r;
}

}  // namespace hpart_bench
