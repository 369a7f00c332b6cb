#pragma once
// `--json FILE`: every subcommand appends its results to FILE as BENCH.md records (JSON Lines,
// the same struct hpart-bench writes), so a script reads hpart's answers without parsing the
// table. Fields that do not apply are absent; suite is "cli", case the input's file name.
#include <string>

#include "bench_record.hpp"
#include "cli_options.hpp"
#include "hpart/comm.hpp"
#include "hpart/partition.hpp"

namespace hpart_cli {

// A record with the fields every subcommand shares: suite, case (FILE's name without its
// directory), library, method, n, parts, ranks, threads, imbalance (first constraint, as
// BENCH.md defines it) and time_s (the partition call's seconds).
hpart_bench::Record base_record(const hpart::Comm& comm, const std::string& input, const std::string& method,
                                long long n, const hpart::Partition& p);

// Collective (peak RSS: max over ranks). Rank 0 appends `r` with peak_rss_mb to run.json; a
// no-op without --json. The file was checked for writability before the work (check_writable),
// so a failure here is an I/O error on every rank.
void append_record(const hpart::Comm& comm, const RunArgs& run, hpart_bench::Record r);

}  // namespace hpart_cli
