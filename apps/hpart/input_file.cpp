#include "input_file.hpp"

#include "hpart/graph_io.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <string_view>

#include "balance_warning.hpp"
#include "cli_options.hpp"
#include "hpart/error.hpp"
#include "hpart/hdf5.hpp"

namespace hpart_cli {
namespace {

using hpart::Error;
using hpart::ErrorCode;

std::string lower_extension(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// The first line that is neither blank nor a '%' comment ('#' lines are kept: a point file's
// header is one).
std::string_view first_record_line(std::string_view head) {
  while (!head.empty()) {
    const auto end = head.find('\n');
    std::string_view line = head.substr(0, end);
    const auto start = line.find_first_not_of(" \t\r");
    if (start != std::string_view::npos && line[start] != '%') return line.substr(start);
    if (end == std::string_view::npos) break;
    head.remove_prefix(end + 1);
  }
  return {};
}

bool integers_only(std::string_view line) {
  for (const char c : line)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == ' ' || c == '\t' || c == '\r' || c == ',')) return false;
  return true;
}

// The kind from the first bytes and the extension; -1 with `why` set when it cannot be told.
int kind_of(const std::string& path, std::string_view head, std::string& why) {
  static constexpr std::string_view hdf5_signature{"\x89HDF\r\n\x1a\n", 8};
  if (head.substr(0, 8) == hdf5_signature) return static_cast<int>(InputKind::h5);
  if (head.substr(0, 14) == "%%MatrixMarket" || head.substr(0, 8) == std::string_view(hpart::kBinaryGraphMagic, 8))
    return static_cast<int>(InputKind::graph);
  const std::string ext = lower_extension(path);
  if (ext == "h5" || ext == "hdf5") return static_cast<int>(InputKind::h5);
  if (ext == "graph" || ext == "metis" || ext == "chaco" || ext == "mgraph" || ext == "mtx" || ext == "hgraph")
    return static_cast<int>(InputKind::graph);
  if (ext == "txt" || ext == "xyz" || ext == "pts" || ext == "csv" || ext == "dat" || ext == "points")
    return static_cast<int>(InputKind::points);
  // Unknown extension: a point line holds a decimal point, an exponent or a header ('# x y');
  // a METIS graph holds integers only. A file of integers could be either.
  const std::string_view line = first_record_line(head);
  if (!line.empty() && (line[0] == '#' || !integers_only(line))) return static_cast<int>(InputKind::points);
  why = line.empty() ? "it holds no data line in its first " + std::to_string(head.size()) + " bytes"
                     : "its first line holds integers only (a METIS graph header, or integer point coordinates)";
  return -1;
}

InputKind kind_from_name(const std::string& kind) {
  if (kind == "points") return InputKind::points;
  if (kind == "h5") return InputKind::h5;
  return InputKind::graph;
}

// A graph's format when --format does not say: hpart binary or MatrixMarket by their first bytes or
// extension, else METIS.
std::string graph_format(const std::string& path, std::string_view head) {
  if (head.substr(0, 8) == std::string_view(hpart::kBinaryGraphMagic, 8) || lower_extension(path) == "hgraph")
    return "binary";
  return head.substr(0, 14) == "%%MatrixMarket" || lower_extension(path) == "mtx" ? "mm" : "metis";
}

hpart::GraphFile read_graph(const hpart::Comm& comm, const InputSpec& spec) {
  if (spec.format == "binary") return hpart::read_graph_binary(comm, spec.path);
  if (spec.format == "mm") return hpart::read_graph_matrix_market(comm, spec.path);
  if (spec.format == "chaco") return hpart::read_graph_chaco(comm, spec.path);
  return hpart::read_graph_metis(comm, spec.path);
}

// The first 4 KiB of the file on every rank (each reads it: the head is tiny); the ranks then
// agree that it could be opened.
std::string read_head(const hpart::Comm& comm, const std::string& path) {
  std::array<char, 4096> buf{};
  std::ifstream in(path, std::ios::binary);
  std::string message;
  if (!in) message = "cannot open '" + path + "': no such file or no permission";
  in.read(buf.data(), buf.size());
  // Usually every rank or none fails: then the message needs no rank number.
  const int failed = comm.sum(message.empty() ? 0 : 1);
  if (failed == comm.size()) throw Error(ErrorCode::io, message);
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
  return std::string(buf.data(), static_cast<std::size_t>(in.gcount()));
}

// x y z or x y w? Three columns without a header line cannot be told apart; the library reads
// them as x y z, the CLI asks (the same verdict on every rank: the columns are agreed).
void refuse_ambiguous_columns(const std::string& path, const hpart::PointFile& f, int dim) {
  if (dim != 0 || f.columns_declared || f.columns != 3) return;
  throw Error(ErrorCode::invalid_input, path + " has 3 columns: x y z or x y w? Add a header line '# x y z' (or "
                                        "'# x y w') as its first line, or pass --dim 3 (or --dim 2)");
}

}  // namespace

const char* to_string(InputKind k) {
  switch (k) {
    case InputKind::points: return "points";
    case InputKind::h5: return "h5";
    case InputKind::graph: return "graph";
  }
  return "?";
}

InputKind detect_kind(const hpart::Comm& comm, InputSpec& spec) {
  const std::string head = read_head(comm, spec.path);
  std::string why;
  const int mine = spec.kind.empty() ? kind_of(spec.path, head, why) : static_cast<int>(kind_from_name(spec.kind));
  int range[2] = {-mine, mine};  // min and max in one reduction
  MPI_Allreduce(MPI_IN_PLACE, range, 2, MPI_INT, MPI_MAX, comm.get());
  // Every rank now knows whether they all agree, so each throws alike without a further collective.
  if (-range[0] != range[1])
    throw Error(ErrorCode::invalid_input, "'" + spec.path + "' looks different on different ranks (is it on a shared file system?)");
  if (mine < 0)
    throw Error(ErrorCode::invalid_input, "cannot tell what '" + spec.path + "' holds: " + why +
                                                "; pass --kind points, --kind graph or --kind h5");
  const auto kind = static_cast<InputKind>(mine);
  spec.kind = to_string(kind);
  if (kind == InputKind::graph && spec.format.empty()) spec.format = graph_format(spec.path, head);
  return kind;
}

void reject_for_kind(const CLI::App& cmd, InputKind kind, const std::string& path) {
  if (kind == InputKind::graph) {
    reject_option(cmd, "--dim", "graph", path, "point files");
    return;
  }
  const std::string what = kind == InputKind::h5 ? "HDF5 point file" : "point file";
  reject_option(cmd, "--format", what, path, "graph files");
  if (cmd.get_option_no_throw("--itr") != nullptr) reject_option(cmd, "--itr", what, path, "graphs: cut against migration");
}

long long Input::global_count() const {
  return is_graph() ? static_cast<long long>(graph.global_vertices) : static_cast<long long>(points.global_count);
}

std::size_t Input::local_count() const {
  return is_graph() ? (graph.xadj.empty() ? 0 : graph.xadj.size() - 1) : points.size();
}

long long Input::first_index() const {
  if (is_graph()) return static_cast<long long>(graph.vtxdist[static_cast<std::size_t>(rank)]);
  return points.ids.empty() ? 0 : static_cast<long long>(points.ids.front());
}

std::vector<double> Input::weights() const {
  if (!is_graph()) return points.weights;
  std::vector<double> w;
  if (graph.vwgt.empty()) return w;
  w.assign(graph.vwgt.begin(), graph.vwgt.end());
  return w;
}

hpart::PointSet Input::coords() const {
  hpart::PointSet at;
  at.coords = graph.coords;
  at.dim = graph.dim;
  return at;
}

int Input::ncon() const { return is_graph() ? graph.ncon : 1; }

std::pair<double, double> Input::heaviest_and_total() const {
  if (!is_graph()) return hpart_cli::heaviest_and_total<double>(points.weights, points.size());
  return hpart_cli::heaviest_and_total<std::int64_t>(graph.vwgt, local_count(), static_cast<std::size_t>(graph.ncon));
}

std::string Input::describe() const {
  if (is_graph())
    return std::to_string(graph.global_vertices) + " vertices, " + std::to_string(graph.global_edges) + " edges, " +
           std::to_string(graph.ncon) + (graph.ncon > 1 ? " constraints" : " constraint") +
           (has_coords() ? ", " + std::to_string(graph.dim) + "D coordinates" : std::string());
  return std::to_string(points.global_count) + " points, " + std::to_string(points.dim) + "D, " +
         (points.weighted ? "weighted" : "unit weights");
}

Input read_input(const hpart::Comm& comm, const InputSpec& given) {
  Input in;
  in.path = given.path;
  in.rank = comm.rank();
  const double t0 = MPI_Wtime();
  InputSpec spec = given;
  const bool resolved = !spec.kind.empty() && (spec.kind != "graph" || !spec.format.empty());
  in.kind = resolved ? kind_from_name(spec.kind) : detect_kind(comm, spec);
  if (in.kind == InputKind::graph) {
    in.graph = read_graph(comm, spec);
  } else if (in.kind == InputKind::h5) {
    in.points = hpart::read_points_h5(comm, spec.path);
    // The dataset's shape fixes the dimension; a contradicting --dim is a mistake worth reporting.
    if (spec.dim != 0 && spec.dim != in.points.dim)
      throw Error(ErrorCode::invalid_argument, spec.path + ": /points holds " + std::to_string(in.points.dim) +
                                                   "D points, but --dim " + std::to_string(spec.dim) + " was given");
  } else {
    in.points = hpart::read_points_text(comm, spec.path, spec.dim);
    refuse_ambiguous_columns(spec.path, in.points, spec.dim);
  }
  if (in.kind == InputKind::graph && !spec.coords.empty()) {
    // Coordinates carry no weight column: three columns are x y z (the .xyz files of meshes).
    // Kept once, in the graph, where the geometric methods read them.
    hpart::PointFile coords = hpart::read_vertex_coords(comm, spec.coords, in.graph.vtxdist, 0);
    in.graph.coords = std::move(coords.coords);
    in.graph.dim = coords.dim;
  }
  in.read_s = comm.max(MPI_Wtime() - t0);
  return in;
}

}  // namespace hpart_cli
