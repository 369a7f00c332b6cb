#pragma once
// The input of `hpart partition`, `evaluate` and `repartition`: one file whose kind (text
// points, HDF5 points, or a graph) comes from --kind, else from its content (HDF5 and
// MatrixMarket signatures), else from its extension; read in parallel by the library's readers.
// Every rank names the same file, so every rank reaches the same kind; the ranks still compare
// it before the first collective read, so a file that differs between nodes is an error, not a hang.
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "hpart/comm.hpp"
#include "hpart/graph.hpp"
#include "hpart/io.hpp"
#include "hpart/point_set.hpp"
#include "hpart/types.hpp"

namespace hpart_cli {

enum class InputKind { points, h5, graph };
const char* to_string(InputKind k);  // "points", "h5", "graph"

struct InputSpec {
  std::string path;
  std::string kind;    // "" = detect; else points | h5 | graph
  std::string format;  // graphs: metis | chaco | mm ("" = from the content and extension)
  int dim = 0;         // points: 0 = from the header line or the column count; 2 or 3
  std::string coords;  // graphs: a point file with one point per vertex (file order), or ""
};

// Collective. The kind of spec.path, written into spec.kind, and for a graph its format into
// spec.format (when not given), from one read of the file's head; throws hpart::Error (io) when
// the file cannot be opened, (invalid_input) when its kind cannot be told, naming --kind.
InputKind detect_kind(const hpart::Comm& comm, InputSpec& spec);

// The options every subcommand reading FILE takes that only apply to another kind of input
// (--dim for graphs; --format, and --itr where the subcommand has it, for points): a
// UsageError naming both, before the input is read.
void reject_for_kind(const CLI::App& cmd, InputKind kind, const std::string& path);

// This rank's block of the input, in file order (rank r holds the objects after those of ranks
// < r). Exactly one of points / graph is filled, by kind; a graph given --coords holds them in
// graph.coords (checked: one point per vertex, re-blocked to the graph's vertices). A spec that
// detect_kind resolved is read as it says; an unresolved one is detected first.
struct Input {
  InputKind kind = InputKind::points;
  std::string path;
  hpart::PointFile points;
  hpart::GraphFile graph;  // graph.coords / graph.dim: the --coords points (dim 0: none)
  double read_s = 0.0;  // seconds spent reading (max over ranks)
  int rank = 0;         // this rank in the reading communicator

  [[nodiscard]] bool is_graph() const { return kind == InputKind::graph; }
  [[nodiscard]] bool has_coords() const { return is_graph() && graph.dim > 0; }
  // The graph's --coords as points (valid while this Input lives).
  [[nodiscard]] hpart::PointSet coords() const;
  [[nodiscard]] long long global_count() const;
  [[nodiscard]] std::size_t local_count() const;
  [[nodiscard]] long long first_index() const;  // file index of this rank's first object
  // The first weight of every local object (empty: unit weights) and the number of weights per object.
  [[nodiscard]] std::vector<double> weights() const;
  [[nodiscard]] int ncon() const;
  // This rank's heaviest and summed first weight, for warn_if_unbalanced.
  [[nodiscard]] std::pair<double, double> heaviest_and_total() const;
  // "points", "3D points", ... for the header line.
  [[nodiscard]] std::string describe() const;
};

Input read_input(const hpart::Comm& comm, const InputSpec& spec);

}  // namespace hpart_cli
