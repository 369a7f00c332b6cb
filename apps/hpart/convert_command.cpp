// `hpart convert` and `hpart generate --graph`: graph files written by the library's parallel
// writers (write_graph_metis, write_graph_binary), each rank its block.
#include "convert_command.hpp"

#include <cstdio>

#include "cli_options.hpp"
#include "graph_generators.hpp"
#include "hpart/graph.hpp"
#include "hpart/graph_io.hpp"

namespace hpart_cli {
namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

void report(const hpart::Comm& comm, bool quiet, const std::string& path, const std::string& format,
            const hpart::GraphFile& f, const std::string& from) {
  const bool vw = comm.max(f.vwgt.empty() ? 0 : 1) == 1, ew = comm.max(f.adjwgt.empty() ? 0 : 1) == 1;
  const bool vs = comm.max(f.vsize.empty() ? 0 : 1) == 1;
  if (comm.rank() != 0 || quiet) return;
  std::printf("wrote %s (%s): %lld vertices, %lld edges%s%s%s%s, from %s\n", path.c_str(), format.c_str(),
              static_cast<long long>(f.global_vertices), static_cast<long long>(f.global_edges),
              vw ? ", vertex weights" : "", ew ? ", edge weights" : "", vs ? ", vertex sizes" : "",
              f.dim > 0 && format == "hpart binary" ? ", coordinates" : "", from.c_str());
}

}  // namespace

std::string write_graph_file(const hpart::Comm& comm, const std::string& path, const hpart::GraphFile& f) {
  if (ends_with(path, hpart::kBinaryGraphExtension)) {
    hpart::write_graph_binary(comm, path, f);
    return "hpart binary";
  }
  hpart::write_graph_metis(comm, path, f);
  return "METIS text";
}

void add_convert(CLI::App& app, ConvertArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "convert",
      "convert a graph file: IN in any format hpart reads (METIS, Chaco, MatrixMarket, hpart binary: told by its "
      "content, else its extension), OUT as hpart binary when it ends in .hgraph (read at disk speed, each rank only "
      "its block: for repeated runs), else as METIS text");
  cmd->add_option("IN", a.in, "the graph file to read")->required();
  cmd->add_option("OUT", a.out, "the file to write: FILE.hgraph (binary) or any other name (METIS .graph text)")->required();
  cmd->add_flag("-q,--quiet", a.quiet, "print nothing on success");
  cmd->footer(
      "\nExamples:\n"
      "  mpirun -np 2 hpart convert mesh.graph mesh.hgraph       # then: hpart partition mesh.hgraph 64\n"
      "  mpirun -np 2 hpart convert A.mtx A.graph                # a MatrixMarket pattern as METIS text\n"
      "  hpart convert mesh.hgraph back.graph                    # and back: the same graph, weights kept\n"
      "The binary format is described in docs/graphs_io.md; it keeps vertex and edge weights, METIS vertex "
      "sizes and coordinates (METIS text has no coordinates).");
}

int run_convert(const hpart::Comm& comm, const ConvertArgs& args) {
  if (args.in == args.out) throw UsageError("convert: IN and OUT are the same file '" + args.in + "'");
  const hpart::GraphFile f = hpart::read_graph(comm, args.in);
  const std::string format = write_graph_file(comm, args.out, f);
  report(comm, args.quiet, args.out, format, f, args.in);
  return exit_ok;
}

void add_graph_generate_options(CLI::App& generate, GraphGenerateArgs& a) {
  CLI::Option* graph = generate.add_option("--graph", a.graph,
                      "write a generated graph instead of points (METIS text, or hpart binary for --out FILE.hgraph): "
                      "grid3d (the 7-point stencil of a side^3 grid) or rgg2d (a 2D random geometric graph of cells^2 "
                      "cells of --per-cell points), the graph suite's large graphs")
      ->check(CLI::IsMember({"grid3d", "rgg2d"}));
  generate.add_option("--side", a.side, "grid3d: vertices per side (128: 2,097,152 vertices)")
      ->check(CLI::Range(1LL, 1LL << 20))->capture_default_str();
  generate.add_option("--cells", a.cells, "rgg2d: cells per side (512 with 4 per cell: 2^20 vertices)")
      ->check(CLI::Range(1LL, 1LL << 20))->capture_default_str();
  generate.add_option("--per-cell", a.per_cell, "rgg2d: points per cell")->check(CLI::Range(1, 1 << 16))->capture_default_str();
  if (CLI::Option* shape = generate.get_option_no_throw("--shape")) graph->excludes(shape);
  if (CLI::Option* n = generate.get_option_no_throw("--n")) graph->excludes(n);
}

int run_generate_graph(const hpart::Comm& comm, const GraphGenerateArgs& args, const std::string& out, std::uint64_t seed,
                       bool quiet) {
  const hpart::GraphFile f = args.graph == "grid3d" ? hpart_apps::grid_graph_3d(comm, args.side)
                                                    : hpart_apps::random_geometric_2d(comm, args.cells, args.per_cell, seed);
  const std::string format = write_graph_file(comm, out, f);
  report(comm, quiet, out, format, f, "generated " + args.graph);
  return exit_ok;
}

}  // namespace hpart_cli
