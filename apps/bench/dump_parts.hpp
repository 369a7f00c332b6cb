#pragma once
// Part vectors of hpart's own methods dumped by hpart-bench --dump-parts, so that two builds can
// be compared byte for byte.
#include <cstdint>
#include <string>
#include <vector>

namespace hpart {
class Comm;  // hpart/comm.hpp
}

namespace hpart_bench {

// --dump-parts DIR: the part vectors of hpart's own methods, written so that two builds can be
// compared byte for byte (scripts/compare_parts.py). Defined in bench_main.cpp, which sets the
// directory once before any suite runs; "" (the default) turns dumping off.
void set_dump_dir(const std::string& dir);
bool dumping_parts();

// Collective over `comm` while dumping, a no-op otherwise. Gathers `local` (this rank's part ids)
// to rank 0 in rank order (MPI_Gatherv) and writes them there as raw int32 (native byte order),
// the global order being the rank-order concatenation of the local parts, to
//   DIR/<suite>.<case>.<library>-<method>.k<parts>.np<ranks>[.e<event>].parts
// event >= 0 for multi-event scenarios (repart: 0 = the initial partition, k = the k-th
// rebalance), -1 otherwise. Characters other than [A-Za-z0-9_+-] in the fields become '_'. A
// name written twice in one run, or a failed write, is an error on every rank.
void dump_parts(const hpart::Comm& comm, const std::string& suite, const std::string& case_name,
                const std::string& library, const std::string& method, int parts, const std::vector<std::int32_t>& local,
                int event = -1);

}  // namespace hpart_bench
