#pragma once
// The arrays of a distributed graph in the ParMETIS convention: Graph borrows the caller's,
// GraphFile owns them (what the readers return). The operations are in graph.hpp.
#include <cstdint>
#include <climits>
#include <span>
#include <vector>

#include "hpart/int_span.hpp"
#include "hpart/types.hpp"

namespace hpart {

// Borrowed spans over the caller's arrays (hpart keeps no pointer after a call).
//
// Weights: any vwgt >= 0 and adjwgt > 0 whose totals over the whole graph stay below 2^62
// (4611686018427387904): for each constraint c, the sum of every vertex's weight c, and the sum
// of adjwgt over all adjacency entries (each edge counted at both ends). Part weights, cuts and
// gains are then 64-bit sums that cannot wrap. validate_graph rejects larger totals, the same
// on every rank. The metis method scales the weights it hands METIS (32-bit idx_t) to totals of
// about 2^29, so that METIS balances and cuts a rounded copy (edge weights stay >= 1); its result
// is measured, as every method's, on the exact weights.
//
// What every rank must pass alike (compared by validate_graph): vtxdist, ncon, dim, and whether
// vwgt and adjwgt are given (empty on some ranks that hold vertices, or edges, and given on
// others is an error; ranks without vertices, or without edges, may pass them empty).
// A rank numbers its vertices and their off-rank neighbours in 32 bits: n plus its ghosts must
// stay below 2^31 (checked: use more ranks).
//
// Neighbour ids come in 64 bits (adjncy) or, for graphs of fewer than 2^31 vertices, in 32 bits
// (adjncy32): give one of the two, the other empty (a rank may use either). 32-bit ids halve
// the largest array of a graph and are what a caller with int32 arrays (METIS/ParMETIS idx_t,
// Fortran, numpy, the readers' compact option) lends without a copy.
// Offsets and weights (xadj, vwgt, adjwgt) are IntSpans: each is lent at 32 or 64 bits as the
// caller holds it (each array its own width). Every graph call reads ids, offsets and weights in
// place at their width; the one widening left is partition_graph on one rank, which lends the
// graph to the multilevel kernel and widens 32-bit offsets and vertex weights for it (n + 1 and
// n * ncon values, not one per edge).
struct Graph {
  std::span<const gid_t> vtxdist;        // R + 1 values, non-decreasing, vtxdist[0] = 0
  IntSpan xadj;                          // n + 1 offsets into adjncy (n = local vertices), xadj[0] = 0
  std::span<const gid_t> adjncy;         // global ids of the neighbours, xadj[n] values
  IntSpan vwgt;                          // n * ncon vertex weights (>= 0), vertex-major; empty: unit
  int ncon = 1;                          // weights per vertex (constraints), >= 1
  IntSpan adjwgt;                        // one per adjncy entry (> 0); empty: unit
  std::span<const double> coords;        // optional: n * dim coordinates (geometric methods)
  int dim = 0;                           // 0 (no coordinates), 2 or 3
  std::span<const std::int32_t> adjncy32;  // or: the neighbours' global ids in 32 bits (see above)

  [[nodiscard]] std::size_t local_vertices() const { return xadj.empty() ? 0 : xadj.size() - 1; }
  // Adjacency entries of this rank, and the global id of entry e, whichever width holds them.
  [[nodiscard]] std::size_t entries() const { return adjncy32.empty() ? adjncy.size() : adjncy32.size(); }
  [[nodiscard]] gid_t neighbour(std::size_t e) const { return adjncy32.empty() ? adjncy[e] : adjncy32[e]; }
};

// A graph read from a file (or built by a generator): the owning arrays of this rank's block.
struct GraphFile {
  std::vector<gid_t> vtxdist;
  std::vector<std::int64_t> xadj;
  std::vector<gid_t> adjncy;
  std::vector<std::int32_t> adjncy32;  // instead of adjncy when read compact (Graph::adjncy32)
  std::vector<std::int64_t> vwgt;  // empty when the file has no vertex weights
  int ncon = 1;
  std::vector<std::int64_t> adjwgt;  // empty when the file has no edge weights
  // METIS vertex sizes (fmt 1xx), one per local vertex: the cost of migrating each vertex
  // (ParMETIS's vsize; GraphRepartOptions::migration_sizes). Empty when the file has none.
  std::vector<std::int64_t> vsize;
  std::vector<double> coords;
  int dim = 0;
  gid_t global_vertices = 0;
  std::int64_t global_edges = 0;  // undirected edges (each listed at both ends)

  // Moves the neighbour ids into adjncy32 when the graph has fewer than 2^31 vertices (half the
  // memory of the largest array; partition_graph reads them in place) and returns whether it did.
  bool narrow_ids() {
    if (!adjncy32.empty() || vtxdist.empty() || vtxdist.back() > INT32_MAX) return false;
    adjncy32.assign(adjncy.begin(), adjncy.end());
    std::vector<gid_t>().swap(adjncy);
    return true;
  }

  [[nodiscard]] Graph view() const {
    return Graph{vtxdist, xadj, adjncy, vwgt, ncon, adjwgt, coords, dim, adjncy32};
  }
};

}  // namespace hpart
