#include "case_series.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>

namespace hpart_scaling {
namespace {

bool same_traffic(const MpiCounts& a, const MpiCounts& b) {
  return a.messages == b.messages && a.p2p_bytes == b.p2p_bytes && a.collectives == b.collectives &&
         a.collective_bytes == b.collective_bytes;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0.0 : n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// {max, mean} over ranks of one value per rank.
std::pair<double, double> max_mean(const hpart::Comm& comm, double v) {
  double mx = 0.0, sum = 0.0;
  MPI_Allreduce(&v, &mx, 1, MPI_DOUBLE, MPI_MAX, comm.get());
  MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, comm.get());
  return {mx, sum / comm.size()};
}

}  // namespace

CallSample measure_call(const hpart::Comm& comm, ScalingCase& c, const Injection& injection, bool reset_works,
                        bool cold) {
  c.prepare();
  CallSample s;
  hpart_apps::MemoryWindow window;
  window.open(reset_works, !cold);
  MPI_Barrier(comm.get());
  const MpiCounts before = snapshot();
  const double t0 = MPI_Wtime();
  c.call();
  inject(comm, injection, t0);
  const double t1 = MPI_Wtime();
  s.counts = difference(snapshot(), before);
  s.memory = window.close();
  s.seconds = t1 - t0;
  return s;
}

void CaseSeries::add(const hpart::Comm& comm, const CallSample& s, bool cold) {
  double t = 0.0;
  MPI_Allreduce(&s.seconds, &t, 1, MPI_DOUBLE, MPI_MAX, comm.get());
  peak_mb_ = std::max(peak_mb_, s.memory.peak_mb);
  if (cold) {
    cold_s_ = t;
    growth_mb_ = s.memory.growth_mb;
    growth_known_ = s.memory.growth_known;
    return;
  }
  if (times_.empty()) first_ = s.counts;
  else if (!same_traffic(first_, s.counts)) counts_vary_ = true;
  last_ = s.counts;
  times_.push_back(t);
}

nlohmann::ordered_json CaseSeries::record(const hpart::Comm& comm, const ScalingCase& c, const Figures& f,
                                          const Sizes& sizes, int threads, const Injection& injection) const {
  nlohmann::ordered_json r;
  r["suite"] = "scaling";
  r["mode"] = sizes.mode;
  r["size"] = sizes.preset;
  r["case"] = c.case_name();
  r["library"] = c.case_name() == "floor" ? "floor" : "hpart";
  r["method"] = c.method();
  r["n"] = c.n();
  r["parts"] = c.parts();
  r["ranks"] = comm.size();
  r["threads"] = threads;
  r["rounds"] = times_.size();
  r["time_s"] = median(times_);
  r["times_s"] = times_;
  r["cold_s"] = cold_s_;
  const auto [peak_max, peak_mean] = max_mean(comm, peak_mb_);
  r["peak_rss_mb"] = peak_max;
  r["peak_rss_mean_mb"] = peak_mean;
  int known = growth_known_ ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &known, 1, MPI_INT, MPI_MIN, comm.get());
  const double growth = max_mean(comm, growth_mb_).first;
  if (known != 0) r["rss_growth_mb"] = growth;
  const auto put = [&](const char* name, long long v) {
    const auto [mx, mean] = max_mean(comm, static_cast<double>(v));
    r[std::string(name) + "_max"] = static_cast<long long>(mx);
    r[std::string(name) + "_mean"] = mean;
  };
  put("messages", last_.messages);
  put("bytes", last_.bytes());
  put("collectives", last_.collectives);
  nlohmann::ordered_json kinds = nlohmann::ordered_json::object();
  for (const auto& [name, calls] : last_.by_collective) kinds[name] = calls;
  r["collective_kinds"] = kinds;  // rank 0's
  int vary = counts_vary_ ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &vary, 1, MPI_INT, MPI_MAX, comm.get());
  if (vary != 0) r["counts_vary"] = true;
  if (f.imbalance) r["imbalance"] = *f.imbalance;
  if (f.edge_cut) r["edge_cut"] = *f.edge_cut;
  if (f.migrated) r["migrated"] = *f.migrated;
  if (f.checksum) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(*f.checksum));
    r["checksum"] = hex;
  }
  if (injection.any()) r["inject"] = injection_spec();
  return r;
}

}  // namespace hpart_scaling
