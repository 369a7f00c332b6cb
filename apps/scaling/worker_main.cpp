// hpart-scaling-worker: one rank count of the scaling suite. Builds every case for this
// communicator (untimed), then runs one cold round and --rounds measured rounds, each round
// the floor first and then every case once (so a burst of load on a shared machine hits a
// round's cases alike), and writes one JSON record per case (docs/scaling.md) to --json.
// The driver (hpart-scaling run) starts it once per rank count:
//   mpirun -np 4 hpart-scaling-worker --mode strong --size default --rounds 5 --json np4.jsonl
#include <mpi.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app_main.hpp"
#include "case_series.hpp"
#include "hpart/error.hpp"
#include "hpart/version.hpp"
#include "injection.hpp"
#include "mpi_counters.hpp"
#include "scaling_case.hpp"
#include "thread_default.hpp"
#if HPART_HAVE_TENSOR
#include "hpart/tensor/kokkos_session.hpp"
#endif

namespace {

using hpart_scaling::ScalingCase;

struct Options {
  std::string mode = "strong", size = "default", json, cases;
  int rounds = 5;
  int threads = 0;  // 0: thread_default.hpp's default (OMP_NUM_THREADS, else this rank's cores)
};

std::string compiler() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown";
#endif
}

std::string mpi_library() {
  char v[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(v, &len);
  std::string s(v, static_cast<std::size_t>(len));
  return s.substr(0, s.find_first_of("\n,"));
}

std::optional<int> parse(int argc, char** argv, int rank, Options& o) {
  CLI::App app{"hpart-scaling-worker: one rank count of the scaling regression suite (started by hpart-scaling run)",
               "hpart-scaling-worker"};
  bool version = false, list = false;
  app.add_option("--mode", o.mode, "strong (fixed global size) or weak (fixed size per rank)")
      ->check(CLI::IsMember({"strong", "weak"}));
  app.add_option("--size", o.size, "ci, small, default or large (volume 1/64, 1/8, 1, 8)")
      ->check(CLI::IsMember({"ci", "small", "default", "large"}));
  app.add_option("--rounds", o.rounds, "measured rounds after the cold one (>= 1)")->check(CLI::PositiveNumber);
  app.add_option("-t,--threads", o.threads,
                 "OpenMP threads per rank (default: OMP_NUM_THREADS if set, else the cores of this rank: its "
                 "affinity mask, or the node's cores shared among the job's ranks there)")
      ->check(CLI::PositiveNumber);
  app.add_option("--cases", o.cases, "comma-separated case keys or case names (default: all; --list shows them)");
  app.add_option("--json", o.json, "JSON Lines output (one record per case; rank 0 writes)");
  app.add_flag("--version", version, "print {hpart, compiler, mpi} as one line of JSON and exit");
  app.add_flag("--list", list, "print the case keys and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = rank == 0 ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 1);
    return code == 0 ? 0 : 1;
  }
  if (version || list) {
    if (rank == 0 && version)
      std::printf("{\"hpart\": \"%s\", \"compiler\": \"%s\", \"mpi\": \"%s\"}\n", hpart::version(), compiler().c_str(),
                  mpi_library().c_str());
    if (rank == 0 && list)
      for (const std::string& k : hpart_scaling::case_keys()) std::printf("%s\n", k.c_str());
    return 0;
  }
  return std::nullopt;
}

// The case keys asked for: each item a key ("grid.sfc") or a case name ("grid": all its methods).
std::vector<std::string> selected(const std::string& spec) {
  const std::vector<std::string>& all = hpart_scaling::case_keys();
  if (spec.empty()) return all;
  std::vector<std::string> out;
  std::istringstream items(spec);
  for (std::string item; std::getline(items, item, ',');) {
    bool found = false;
    for (const std::string& k : all)
      if (k == item || k.substr(0, k.find('.')) == item) {
        out.push_back(k);
        found = true;
      }
    if (!found)
      throw hpart::Error(hpart::ErrorCode::invalid_argument, "unknown case '" + item + "' (hpart-scaling-worker --list)");
  }
  return out;
}

int run(const hpart::Comm& comm, const Options& o) {
  // Before Kokkos starts: its OpenMP pool takes the thread count OpenMP has then.
  const hpart_apps::ThreadChoice choice = hpart_apps::choose_threads(comm, o.threads);
#if HPART_HAVE_TENSOR
  const hpart::tensor::KokkosSession kokkos;
#endif
  const hpart_scaling::Sizes sizes = hpart_scaling::sizes_for(o.mode, o.size, comm.size());
  const std::vector<std::string> keys = selected(o.cases);
  (void)hpart_scaling::injection_for("");  // a malformed HPART_SCALING_INJECT fails before any work
  std::FILE* out = nullptr;
  std::string problem;
  if (comm.rank() == 0 && !o.json.empty() && (out = std::fopen(o.json.c_str(), "w")) == nullptr)
    problem = "cannot write " + o.json;
  comm.agree(problem.empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::io, problem);
  const bool reset_works = hpart_apps::peak_reset_works(comm.get());
  const int threads = omp_get_max_threads();
  const bool talk = comm.rank() == 0;
  if (talk) std::printf("[scaling] np %d %s: %s\n", comm.size(), o.mode.c_str(), choice.why.c_str());

  std::vector<std::unique_ptr<ScalingCase>> cases;
  cases.push_back(hpart_scaling::make_floor_case(comm, sizes));
  for (const std::string& k : keys) {
    const double t0 = MPI_Wtime();
    cases.push_back(hpart_scaling::make_case(comm, sizes, k));
    if (talk) std::printf("[scaling] np %d %s: set up %s (n %lld) in %.2f s\n", comm.size(), o.mode.c_str(), k.c_str(),
                          cases.back()->n(), MPI_Wtime() - t0);
    std::fflush(stdout);
  }
  std::vector<hpart_scaling::Injection> injections;
  for (const auto& c : cases) injections.push_back(hpart_scaling::injection_for(c->key()));

  std::vector<hpart_scaling::CaseSeries> series(cases.size());
  for (int round = 0; round <= o.rounds; ++round) {
    const double t0 = MPI_Wtime();
    for (std::size_t i = 0; i < cases.size(); ++i)
      series[i].add(comm, hpart_scaling::measure_call(comm, *cases[i], injections[i], reset_works, round == 0),
                    round == 0);
    if (talk) std::printf("[scaling] np %d %s: round %d/%d%s in %.2f s\n", comm.size(), o.mode.c_str(), round, o.rounds,
                          round == 0 ? " (cold)" : "", MPI_Wtime() - t0);
    std::fflush(stdout);
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const hpart_scaling::Figures f = cases[i]->figures();
    const nlohmann::ordered_json r = series[i].record(comm, *cases[i], f, sizes, threads, injections[i]);
    if (!talk) continue;
    std::printf("[scaling] %-26s %9.4f s  msgs %6lld  bytes %10lld  coll %4lld  rss %7.1f MiB%s\n",
                cases[i]->key().c_str(), r["time_s"].get<double>(), r["messages_max"].get<long long>(),
                r["bytes_max"].get<long long>(), r["collectives_max"].get<long long>(), r["peak_rss_mb"].get<double>(),
                series[i].counts_vary() ? "  (counts vary between rounds)" : "");
    if (out != nullptr) std::fprintf(out, "%s\n", r.dump().c_str());
  }
  std::fflush(stdout);
  cases.clear();  // before Kokkos finalises: the tensor cases hold views
  if (out != nullptr && std::fclose(out) != 0) problem = "cannot write " + o.json;
  comm.agree(problem.empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::io, problem);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return hpart_apps::mpi_app_main<Options>(argc, argv, "hpart-scaling-worker", parse, run);
}
