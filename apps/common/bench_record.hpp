#pragma once
// Benchmark records in the format of BENCH.md: one JSON object per line (JSON Lines) in the
// --json file, and an aligned table on rank 0's stdout. Fields that do not apply are absent.
// Shared by hpart-bench and the hpart CLI's --json, so both write the same fields the same way.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hpart_bench {

struct Record {
  std::string suite, case_name, library, method;
  long long n = 0;
  int parts = 0, ranks = 0, threads = 0;
  double time_s = 0.0;
  std::optional<double> cold_s;          // the first call of the record's reps (trimmed heap)
  std::optional<double> warm_s;          // median of the later reps (heap kept; reps >= 2)
  std::optional<double> imbalance;       // first weight: max part weight / average - 1
  std::optional<double> peak_rss_mb;     // max over ranks of peak resident memory
  std::optional<double> rss_growth_mb;   // max over ranks of (peak RSS during the call - RSS before)
  std::optional<double> input_mb;        // max over ranks of the rank's own input arrays
  std::optional<double> w_max_over_avg;  // weighted cases: largest object weight / mean object weight
  std::optional<long long> edge_cut;          // graph suite: weight of the edges between parts
  std::optional<long long> comm_volume;       // grid suites: halo cells (width 1) received over all parts;
                                              // graph suite: sum over vertices of adjacent other parts
  std::optional<long long> internode_volume;  // hier suite: the part of comm_volume that crosses nodes
  std::optional<double> layer_bound;  // grid box methods: heaviest cell layer of a part / mean part cost
  std::optional<double> migrated;               // repart suite: total weight moved over the scenario
  std::optional<double> migration_lower_bound;  // repart suite: least weight any method had to move
  std::optional<long long> events;             // repart suite: rebalances over the scenario
  std::optional<long long> bytes;  // tensor suite: bytes sent per call, summed over the ranks
  std::optional<double> error;     // tensor suite: max abs difference to a reference
  int reps = 1;

  [[nodiscard]] nlohmann::ordered_json to_json() const;
};

// Collects records; rank 0 writes each one to the JSON Lines file as soon as it is added (so a
// crash keeps what was measured) and prints the table at the end. Other ranks keep nothing.
class RecordSink {
 public:
  // Rank 0 opens `path` for writing ("" = no file); on failure open_error() says why, and the
  // caller agrees on it across ranks (see bench_main.cpp).
  RecordSink(int rank, const std::string& path);
  ~RecordSink();
  RecordSink(const RecordSink&) = delete;
  RecordSink& operator=(const RecordSink&) = delete;

  // Open failure message on rank 0 (empty on success and on other ranks).
  [[nodiscard]] const std::string& open_error() const { return open_error_; }

  void add(const Record& r);
  void print_table(std::FILE* out) const;

 private:
  int rank_ = 0;
  std::FILE* file_ = nullptr;
  std::string open_error_;
  std::vector<Record> records_;
};

}  // namespace hpart_bench
