// Benchmark of hpart's multilevel partitioner against METIS_PartGraphKway in the same process on
// the same input (default options, ubvec 1 + imbalance): for every graph of the shared data set
// and k = 16, 64 the cuts, their ratio, both imbalances (worst constraint) and both times, the
// geometric mean of the ratios, then the same on generated 3D 7-point grids. Not a test.
//   bench_multilevel [data_dir] [--grids 64,96,128] [--parts 16,64] [--imbalance 0.03] [--seeds 1]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "graph/multilevel.hpp"
#include "serial_graph.hpp"

namespace {

using hpart::graphk::CsrGraph;

std::vector<int> int_list(const std::string& s) {
  std::vector<int> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(std::stoi(item));
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double worst(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }


// With seeds > 1 both run with seeds 1..seeds (METIS_OPTION_SEED, opts.seed): the cuts are then
// geometric means and the times means, the partitions shown (imbalance, empty parts) the last.
double run_case(const std::string& name, const CsrGraph& g, int k, double imbalance, int seeds) {
  hpart::graphk::MultilevelOptions o;
  o.parts = k;
  o.imbalance = imbalance;
  std::vector<hpart::part_t> ours, metis;
  double t_ours = 0.0, t_metis = 0.0, log_ours = 0.0, log_metis = 0.0;
  for (int s = 1; s <= seeds; ++s) {
    o.seed = s;
    auto t0 = std::chrono::steady_clock::now();
    ours = hpart::graphk::multilevel_partition(g, o);
    t_ours += seconds_since(t0) / seeds;
    t0 = std::chrono::steady_clock::now();
    metis = hpart::testing::metis_kway(g, k, imbalance, seeds > 1 ? s : -1);
    t_metis += seconds_since(t0) / seeds;
    log_ours += std::log(static_cast<double>(std::max<std::int64_t>(hpart::graphk::edge_cut(g, ours), 1)));
    log_metis += std::log(static_cast<double>(std::max<std::int64_t>(hpart::graphk::edge_cut(g, metis), 1)));
  }
  const auto c_ours = static_cast<std::int64_t>(std::llround(std::exp(log_ours / seeds)));
  const auto c_metis = static_cast<std::int64_t>(std::llround(std::exp(log_metis / seeds)));
  const double ratio = std::exp((log_ours - log_metis) / seeds);
  std::vector<std::int32_t> count(static_cast<std::size_t>(k), 0);
  for (hpart::part_t p : ours) ++count[static_cast<std::size_t>(p)];
  const auto empty = std::count(count.begin(), count.end(), 0);
  std::printf("%-14s %9d %4d %10lld %10lld %7.3f %9.4f %9.4f %6ld %9.3f %9.3f\n", name.c_str(), g.vertices(), k,
              static_cast<long long>(c_ours), static_cast<long long>(c_metis), ratio,
              worst(hpart::testing::imbalance_per_constraint(g, ours, k)),
              worst(hpart::testing::imbalance_per_constraint(g, metis, k)), static_cast<long>(empty), t_ours, t_metis);
  std::fflush(stdout);
  return ratio;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef HPART_SHARED_DATA
  std::string dir = std::string(HPART_SHARED_DATA) + "/graphs";
#else
  std::string dir = "../shared/data/graphs";
#endif
  std::vector<int> grids{64, 96, 128}, parts{16, 64};
  double imbalance = 0.03;
  int seeds = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--grids" && i + 1 < argc) grids = int_list(argv[++i]);
    else if (a == "--parts" && i + 1 < argc) parts = int_list(argv[++i]);
    else if (a == "--imbalance" && i + 1 < argc) imbalance = std::stod(argv[++i]);
    else if (a == "--seeds" && i + 1 < argc) seeds = std::max(1, std::stoi(argv[++i]));
    else dir = a;
  }
  std::printf("threads %d, imbalance %.3f, seeds %d (imbalance columns: worst constraint, weight / target - 1)\n",
              omp_get_max_threads(), imbalance, seeds);
  std::printf("%-14s %9s %4s %10s %10s %7s %9s %9s %6s %9s %9s\n", "graph", "vertices", "k", "cut_hpart", "cut_metis",
              "ratio", "imb_hpart", "imb_metis", "empty", "t_hpart", "t_metis");
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".graph" || e.path().extension() == ".mgraph") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  double log_sum = 0.0, max_ratio = 0.0;
  int cases = 0;
  for (const auto& f : files) {
    const CsrGraph g = hpart::testing::read_metis_graph(f.string());
    for (int k : parts) {
      const double r = run_case(f.stem().string(), g, k, imbalance, seeds);
      log_sum += std::log(r);
      max_ratio = std::max(max_ratio, r);
      ++cases;
    }
  }
  if (cases > 0)
    std::printf("shared graphs: %d cases, geometric mean ratio %.4f, max ratio %.4f\n", cases, std::exp(log_sum / cases),
                max_ratio);
  else
    std::printf("no graphs found in %s\n", dir.c_str());
  for (int s : grids) {
    const CsrGraph g = hpart::testing::grid_graph_3d(s, s, s);
    for (int k : parts) run_case("grid" + std::to_string(s) + "^3", g, k, imbalance, seeds);
  }
  return 0;
}
