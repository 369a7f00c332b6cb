#pragma once
// What the worker measures of one case over a run: the time of every round (max over ranks),
// the messages, bytes and collectives of one call (per rank), and the memory peak, turned into
// one JSON record (the fields of docs/scaling.md) at the end.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "injection.hpp"
#include "memory_usage.hpp"
#include "mpi_counters.hpp"
#include "scaling_case.hpp"

namespace hpart_scaling {

// This rank's view of one measured call.
struct CallSample {
  double seconds = 0.0;
  MpiCounts counts;
  hpart_apps::MemoryWindow::Result memory;
};

// Collective: prepare() untimed, then the memory window opened, a barrier, the counters read,
// call() and the injection timed, the counters read again, the window closed. The cold call
// (`cold`) starts from a trimmed heap, so its growth is the call's whole working memory; the
// measured rounds keep the allocator's heap, as a simulation's repeated calls do, so their times
// are not dominated by page faults (with a trimmed heap every round re-faults tens of MiB, and
// rounds of one run varied by 40-60% at np 1).
CallSample measure_call(const hpart::Comm& comm, ScalingCase& c, const Injection& injection, bool reset_works,
                        bool cold);

class CaseSeries {
 public:
  // Collective (the time's max over ranks). The first call of a process is the cold one: kept
  // apart from the rounds, whose counts must all be equal.
  void add(const hpart::Comm& comm, const CallSample& s, bool cold);
  // Collective: the record of the run (rank 0's is the one written); `injection` is what the
  // case's calls were measured with (the record names it).
  [[nodiscard]] nlohmann::ordered_json record(const hpart::Comm& comm, const ScalingCase& c, const Figures& f,
                                              const Sizes& sizes, int threads, const Injection& injection) const;
  [[nodiscard]] bool counts_vary() const { return counts_vary_; }

 private:
  std::vector<double> times_;  // max over ranks, round order
  double cold_s_ = 0.0;
  MpiCounts first_, last_;     // this rank's, of the first and the last round
  bool counts_vary_ = false;
  double peak_mb_ = 0.0;    // this rank's, max over the cold call and the rounds
  double growth_mb_ = 0.0;  // this rank's, of the cold call (trimmed heap: exact)
  bool growth_known_ = false;
};

}  // namespace hpart_scaling
