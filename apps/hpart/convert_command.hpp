#pragma once
// `hpart convert IN OUT` (any graph file hpart reads -> METIS text or hpart binary, by OUT's
// extension) and `hpart generate --graph NAME` (the generated graphs of the graph suite written
// to a file, so that benchmarks and other tools can read them).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "hpart/comm.hpp"
#include "hpart/graph_arrays.hpp"

namespace hpart_cli {

struct ConvertArgs {
  std::string in, out;
  bool quiet = false;
};
void add_convert(CLI::App& app, ConvertArgs& a);
int run_convert(const hpart::Comm& comm, const ConvertArgs& args);

// `generate --graph grid3d --side S` or `--graph rgg2d --cells C [--per-cell P] [--seed S]`.
struct GraphGenerateArgs {
  std::string graph;          // "" = a point set (generate's --shape)
  std::int64_t side = 128;    // grid3d: side^3 vertices, 7-point stencil
  std::int64_t cells = 512;   // rgg2d: cells^2 cells of per_cell points
  int per_cell = 4;
};
// Adds --graph, --side, --cells, --per-cell to the generate subcommand.
void add_graph_generate_options(CLI::App& generate, GraphGenerateArgs& a);
int run_generate_graph(const hpart::Comm& comm, const GraphGenerateArgs& args, const std::string& out,
                       std::uint64_t seed, bool quiet);

// Writes `f` as METIS text, or hpart binary when `path` ends in .hgraph; returns the format's name.
std::string write_graph_file(const hpart::Comm& comm, const std::string& path, const hpart::GraphFile& f);

}  // namespace hpart_cli
