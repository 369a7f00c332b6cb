// `hpart grid`: partition a structured grid (a generated cost field, or one read from HDF5) by
// a grid method or hierarchically, report balance and halo traffic, write parts/picture.
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "balance_warning.hpp"
#include "commands.hpp"
#include "thread_default.hpp"
#include "grid_generators.hpp"
#include "hpart/hpart.hpp"
#include "json_record.hpp"

namespace hpart_cli {
namespace {

// A generated grid: rank r holds slab r of the last dimension, with hotspot or unit costs.
void make_grid(const hpart::Comm& comm, const GridArgs& args, hpart::GridField& field) {
  hpart::Grid& g = field.grid;
  g.dim = static_cast<int>(args.extent.size());
  for (std::size_t d = 0; d < args.extent.size(); ++d) g.extent[d] = args.extent[d];
  const auto last = static_cast<std::size_t>(g.dim - 1);
  const std::int64_t n = g.extent[last], r = comm.rank(), R = comm.size();
  g.local = g.domain();
  g.local.lo[last] = n * r / R;
  g.local.hi[last] = n * (r + 1) / R - 1;
  if (args.cost == "hotspot") field.cost = hpart_apps::hotspot_cost(g, args.peak);
  g.cost = field.cost;
}

}  // namespace

int run_grid(const hpart::Comm& comm, GridArgs args) {
  if (args.method != "hier") reject_option(*args.cmd, "--topology", "--method", args.method, "--method hier");
  // Only the curve splitters take a tolerance; the box methods cut at the best cell layer.
  if (args.method != "sfc" && args.method != "hier") {
    reject_option(*args.cmd, "--imbalance", "--method", args.method, "--method sfc and hier; box methods cut at the best cell layer");
    reject_option(*args.cmd, "--ufactor", "--method", args.method, "--method sfc and hier; box methods cut at the best cell layer");
  }
  // Grid partitions are written as HDF5 (/parts per cell, /boxes): a text name would hide that.
  if (!args.out.empty() && !is_hdf5_path(args.out))
    throw UsageError("--out " + args.out + ": grid partitions are written as HDF5 (/parts per cell, /boxes, /cost) "
                     "with an .xmf for ParaView; name the file .h5");
  require_output_features(args.out, args.png);
  check_writable(comm, {{args.out, "the grid partition"}, {args.png, "the picture"}, {args.run.json, "the --json records"}});
  args.run.threads_why = hpart_apps::choose_threads(comm, args.run.threads).why;
  const double tol = tolerance(args.balance, 0.001);
  const double t0 = MPI_Wtime();
  hpart::GridField field;
  if (!args.h5.empty())
    field = hpart::read_grid_cost_h5(comm, args.h5, args.dataset);
  else
    make_grid(comm, args, field);
  const double read_s = MPI_Wtime() - t0;
  const hpart::Grid& g = field.grid;
  const bool hier = args.method == "hier";
  // hier keeps its levels (node_of_part for the internode halo and the picture, all of them for
  // the file, so that evaluate and repartition read them back).
  std::optional<hpart::HierGridPartition> hp;
  std::optional<hpart::GridPartition> flat;
  std::string topology;
  if (hier) {
    const hpart::Topology topo = hpart::detect_topology(comm, args.topology);
    hpart::HierGridOptions o;
    o.parts = args.parts;
    o.imbalance = tol;
    hp.emplace(hpart::partition_grid_hierarchical(comm, g, topo, o));
    topology = topo.source + ", " + std::to_string(topo.nodes) + " nodes";
  } else {
    hpart::GridOptions o;
    o.parts = args.parts;
    o.method = hpart::grid_method_from_string(args.method.c_str());
    o.imbalance = tol;
    flat.emplace(hpart::partition_grid(comm, g, o));
  }
  const hpart::GridPartition* p = hier ? static_cast<const hpart::GridPartition*>(&*hp) : &*flat;
  const std::vector<int> node_of_part = hier ? hp->node_of_part : std::vector<int>{};
  const std::size_t cells = g.local.empty() ? 0 : static_cast<std::size_t>(g.local.volume());
  const auto [heaviest, total] = heaviest_and_total<double>(g.cost, cells);
  const bool balanced = warn_if_unbalanced(comm, *p, heaviest, total, "hpart grid");
  const hpart::GridNeighbours n = hpart::grid_neighbours(comm, g, *p, args.halo);
  std::size_t most = 0;
  for (const auto& v : n.of_part) most = std::max(most, v.size());
  const hpart::LevelVolumes levels = hier ? hpart::level_volumes(n, node_of_part) : hpart::LevelVolumes{};
  {
    hpart_bench::Record r = base_record(comm, args.h5.empty() ? "grid" : args.h5, args.method, p->metrics.objects, *p);
    r.comm_volume = static_cast<long long>(n.halo_volume);
    if (hier) r.internode_volume = static_cast<long long>(levels.internode);
    append_record(comm, args.run, r);
  }
  if (comm.rank() == 0 && !args.run.quiet) {
    std::printf("hpart grid: %s cells, %s, on %d ranks x %s%s%s\n", extent_text(g).c_str(),
                args.h5.empty() ? (args.cost == "hotspot" ? "hotspot cost" : "unit cost")
                                : (args.h5 + ":" + args.dataset + " (read " + std::to_string(read_s) + " s)").c_str(),
                comm.size(), threads_phrase(args.run).c_str(), hier ? "; topology " : "", topology.c_str());
    if (args.method == "sfc" || args.method == "hier")
      std::printf("balance: %s\n", describe_tolerance(tol).c_str());
    std::printf("%-8s %6s %14s %10s %9s %12s %10s%s\n", "method", "parts", "cells", "imbalance", "time_s", "halo_cells",
                "max_nbrs", hier ? "    internode" : "");
    std::printf("%-8s %6d %14lld %10.6f %9.4f %12lld %10zu", args.method.c_str(), p->num_parts,
                p->metrics.objects, p->metrics.imbalance[0], p->metrics.seconds,
                static_cast<long long>(n.halo_volume), most);
    if (hier) std::printf(" %12lld", static_cast<long long>(levels.internode));
    std::printf("\nimbalance = max part cost / mean - 1; halo_cells = cells all parts receive for a width-%d halo;\n"
                "max_nbrs = most neighbour parts of one part%s\n", args.halo,
                hier ? "; internode = the halo between parts on different nodes" : "");
  }
  if (!args.out.empty()) {
    if (hier)
      hpart::write_grid_partition_h5(comm, args.out, g, *hp);  // with /node_of_part, /owner_of_part, /node_boxes
    else
      hpart::write_grid_partition_h5(comm, args.out, g, *flat);
    if (comm.rank() == 0 && !args.run.quiet)
      std::printf("wrote %s (/parts, /boxes%s, /locator%s, metrics) and %s\n", args.out.c_str(),
                  g.cost.empty() ? "" : ", /cost", hier ? ", /node_of_part" : "", hpart::xdmf_path(args.out).c_str());
  }
  if (!args.png.empty()) {
    hpart::PictureOptions picture;
    picture.max_side = args.png_size;
    picture.title = "grid " + extent_text(g) + ", " + std::to_string(p->num_parts) + " parts (" + args.method + ")" +
                    (hier ? ", " + topology : "");
    picture.legend = {"imbalance " + number(p->metrics.imbalance[0]) + ", halo cells " + std::to_string(n.halo_volume) +
                      (hier ? ", internode " + std::to_string(levels.internode) + "; thick lines: node boundaries" : "")};
    picture.node_of_part = node_of_part;
    hpart::write_grid_partition_png(comm, args.png, g, *p, picture);
    if (comm.rank() == 0 && !args.run.quiet) std::printf("wrote %s%s\n", args.png.c_str(), g.dim == 3 ? " (four sections)" : "");
  }
  return balanced || !args.run.strict ? exit_ok : exit_unbalanced;
}

}  // namespace hpart_cli
