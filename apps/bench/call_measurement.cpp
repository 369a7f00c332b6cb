#include "call_measurement.hpp"

#include <omp.h>

#include <algorithm>
#include <vector>

#include "memory_usage.hpp"

namespace hpart_bench {

namespace detail {

RepStart begin_rep(MPI_Comm comm, bool reset_works) {
  RepStart start;
  start.window.open(reset_works);
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
  bool all_known = true;
  double growth = 0.0;
  for (std::size_t r = 0; r < R; ++r) {
    times[r] = maxima[3 * r];
    stats.peak_rss_mb = std::max(stats.peak_rss_mb, maxima[3 * r + 1]);
    growth = std::max(growth, maxima[3 * r + 2]);
    all_known = all_known && known[r] != 0;
  }
  std::sort(times.begin(), times.end());
  stats.time_s = R % 2 == 1 ? times[R / 2] : 0.5 * (times[R / 2 - 1] + times[R / 2]);
  if (all_known) stats.rss_growth_mb = growth;
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
  return r;
}

}  // namespace hpart_bench
