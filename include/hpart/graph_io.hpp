#pragma once
// Graph files beyond the text readers of graph.hpp: hpart's binary graph format (for repeated
// runs: read at the speed of the disk, each rank only its block), a parallel METIS writer, and a
// reader that picks the format of a file by its content. The binary layout is in
// docs/graphs_io.md ("Binary graphs").
#include <cstdint>
#include <span>
#include <string>

#include "hpart/comm.hpp"
#include "hpart/graph_arrays.hpp"

namespace hpart {

// The first 8 bytes of a binary graph file, and the extension the CLI writes it under.
inline constexpr char kBinaryGraphMagic[9] = "HPARTGRF";
inline constexpr const char* kBinaryGraphExtension = ".hgraph";

// Collective. Rank r reads only its block [N r / R, N (r+1) / R) of the vertices (plus the R + 1
// values of vtxdist), by MPI-IO at offsets the header gives. Every problem is the same
// hpart::Error (io) on every rank, "path: what": not a binary graph (wrong magic), another byte
// order, an unsupported version, a file shorter or longer than its header describes
// ("truncated file"), offsets that decrease or leave [0, 2m], ids outside [0, N), negative vertex
// or non-positive edge weights. Symmetry is not checked here (partition_graph's validate_graph
// does it, as for any Graph).
GraphFile read_graph_binary(const Comm& comm, const std::string& path);

// Collective: validates `g` (validate_graph), then each rank writes its block at offsets from an
// exclusive scan of the ranks' vertex and edge counts (one file, any rank count reads it).
// Adjacency ids are stored in 32 bits when N < 2^31; weights, `vsize` (one per local vertex, or
// empty on every rank) and coordinates are stored when given.
void write_graph_binary(const Comm& comm, const std::string& path, const Graph& g,
                        std::span<const std::int64_t> vsize = {});
void write_graph_binary(const Comm& comm, const std::string& path, const GraphFile& f);

// Collective: validates `g`, then writes a METIS .graph file (1-based ids; fmt and ncon from the
// weights and sizes given; coordinates are not part of the format and are not written). Each
// rank formats its block; one MPI-IO write at offsets from an exclusive scan of the text sizes.
void write_graph_metis(const Comm& comm, const std::string& path, const Graph& g,
                       std::span<const std::int64_t> vsize = {});
void write_graph_metis(const Comm& comm, const std::string& path, const GraphFile& f);

// Collective: reads a graph file of any format hpart reads, picked by its content (the binary
// magic, a %%MatrixMarket banner), else by its extension (.chaco: Chaco; .mtx: MatrixMarket;
// .hgraph: binary), else as METIS (.graph, .metis, and any other name).
GraphFile read_graph(const Comm& comm, const std::string& path);

}  // namespace hpart
