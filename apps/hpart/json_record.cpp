#include "json_record.hpp"

#include <omp.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "memory_usage.hpp"

namespace hpart_cli {

hpart_bench::Record base_record(const hpart::Comm& comm, const std::string& input, const std::string& method,
                                long long n, const hpart::Partition& p) {
  hpart_bench::Record r;
  r.suite = "cli";
  const auto slash = input.find_last_of('/');
  r.case_name = slash == std::string::npos ? input : input.substr(slash + 1);
  r.library = "hpart";
  r.method = method;
  r.n = n;
  r.parts = p.num_parts;
  r.ranks = comm.size();
  r.threads = omp_get_max_threads();
  r.time_s = p.metrics.seconds;
  if (!p.metrics.imbalance.empty()) r.imbalance = p.metrics.imbalance[0];
  return r;
}

void append_record(const hpart::Comm& comm, const RunArgs& run, hpart_bench::Record r) {
  if (run.json.empty()) return;
  r.peak_rss_mb = comm.max(hpart_apps::read_memory().hwm_mb);
  std::string message;
  if (comm.rank() == 0) {
    std::FILE* f = std::fopen(run.json.c_str(), "a");
    const std::string line = r.to_json().dump() + "\n";
    if (f == nullptr || std::fwrite(line.data(), 1, line.size(), f) != line.size())
      message = "cannot append to the --json file '" + run.json + "': " + std::strerror(errno);
    if (f != nullptr && std::fclose(f) != 0 && message.empty())
      message = "cannot write the --json file '" + run.json + "': " + std::strerror(errno);
  }
  comm.agree(message.empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::io, message);
}

}  // namespace hpart_cli
