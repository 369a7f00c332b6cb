#pragma once
// Distributed graphs in the ParMETIS convention, their files, validation and cut metrics.
// Vertices are numbered 0..N-1 globally; rank r owns the consecutive block
// [vtxdist[r], vtxdist[r+1]). Weights are integers, as in METIS and its file format.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/graph_arrays.hpp"
#include "hpart/partition.hpp"
#include "hpart/types.hpp"

namespace hpart {

// Collective. Checks the structure (vtxdist has R + 1 values, starts at 0, never decreases and
// is the same on every rank, as are ncon, dim and whether weights are given; the local arrays
// have the lengths vtxdist gives this rank; ids in [0, N), no self-loops; vwgt >= 0, adjwgt > 0,
// finite coords, ncon >= 1, dim 0, 2 or 3; weight totals below 2^62, see Graph), then
// symmetry: every edge listed at both ends, with the same weight, once per end (each rank sends
// the edges whose far end it does not own to that end's owner: one Alltoallv; memory O(local
// edges)). Throws the same hpart::Error on every rank, naming global vertex ids: "asymmetric:
// vertex 5 lists 9 but 9 does not list 5". Codes: invalid_argument (vtxdist, ncon, dim),
// size_mismatch (array lengths), invalid_input (values, symmetry). Of several defects the one
// of the lowest vertex is reported, whatever the rank count.
void validate_graph(const Comm& comm, const Graph& g);

// The readers below are collective, parse in parallel (each rank the lines that start in its
// 1/R-th of the file's bytes), and return rank r the block [N r / R, N (r+1) / R) of the
// vertices (vtxdist set accordingly; a rank may own none), with ids converted to 0-based. Every
// problem is the same hpart::Error (io) on every rank, named "path:line: what" with the file's
// line number (comment lines count), vertices by their 1-based number as in the file.

// Reads a METIS .graph file: header `n m [fmt [ncon]]` (the first line that is neither blank nor
// a '%' comment), then exactly n vertex lines `[size] [w1 .. wncon] v1 [e1] v2 [e2] ...`, where
// fmt's three 0/1 digits say whether the vertex size (GraphFile::vsize: the migration cost),
// ncon vertex weights (ncon = 1 if not given) and one weight after each neighbour are present.
// An empty line is a vertex without neighbours; comment lines are skipped; blank lines after the
// last vertex are ignored. Errors:
// a bad number, an id out of [1, n], a self-loop, a negative vertex or non-positive edge weight,
// too few weights, more or fewer vertex lines than n ("truncated file: the header (line 1) says
// 100 vertices, found 97"), an asymmetric or duplicate edge (naming both ends' lines), and
// then m != (sum of degrees) / 2. Without weights in the file, vwgt / adjwgt stay empty (unit).
GraphFile read_graph_metis(const Comm& comm, const std::string& path);
// Chaco files share the METIS layout with the header `n m [fmt]`; fmt's first digit means each
// vertex line starts with its own 1-based number (checked). Weights are integers here.
GraphFile read_graph_chaco(const Comm& comm, const std::string& path);
// MatrixMarket coordinate files (`%%MatrixMarket matrix coordinate <real|integer|pattern|complex>
// <general|symmetric|skew-symmetric|hermitian>`, size line `rows cols nnz`, then nnz 1-based
// entries `i j [values]`): the pattern of a square matrix as a graph. Entries (i, j), i != j,
// become the edge {i, j} (so both triangles of a general matrix are symmetrised and a symmetric
// file's one triangle expanded), the diagonal is dropped, repeated entries count once, values
// are checked to be numbers and ignored; unit weights. Errors: an unsupported banner (e.g. the
// dense 'array' format), a non-square size, an index out of range, a bad number, more or fewer
// entry lines than nnz.
GraphFile read_graph_matrix_market(const Comm& comm, const std::string& path);

// Collective: validates the graph (validate_graph), num_parts (>= 1, the same on every rank) and
// `parts` (one per local vertex, in [0, num_parts)), throwing the same hpart::Error on every
// rank; then exchanges the parts of ghost neighbours once.
GraphMetrics graph_metrics(const Comm& comm, const Graph& g, std::span<const part_t> parts, int num_parts);

enum class GraphMethod {
  graph,             // hpart's own multilevel partitioner
  metis,             // METIS_PartGraphKway on the gathered graph (for graphs that fit one rank)
  geometric_refine,  // Hilbert partition of the vertex coordinates, refined on the graph
};

// How much work the graph method spends on its cut (GraphOptions::effort). The defaults are
// Preset::standard's; GraphOptions::preset sets every field. Only the graph method reads them.
// Every field is compared across ranks and checked against its range (the same hpart::Error on
// every rank otherwise). At np > 1 the distributed levels coarsen to their own gather limit and
// are refined by refine_rounds; the other fields act in the kernel that partitions the gathered
// coarsest graph (at np 1: on the whole graph).
struct GraphEffort {
  // Coarsening stops at about max(coarsest_per_part x K, 2000) vertices (or when a step shrinks
  // the graph by less than 15%): fewer make METIS's work and the coarse levels cheaper, more give
  // METIS more of the structure to see. In [1, 10000].
  int coarsest_per_part = 60;
  // Partitions of the coarsest graph that METIS computes (its ncuts); the smallest cut is kept.
  // In [1, 100].
  int initial_tries = 2;
  // k-way FM passes per level at most (they also stop when a pass gains < 0.1% of the cut).
  // 0: rebalancing only. In [0, 100].
  int fm_passes = 4;
  // Moves without improvement an FM pass tries before it rolls back to its best prefix (how far
  // it may climb through negative gains). 0: by the level's size, n / 100 within [300, 1000].
  // In [0, 10^8].
  int fm_horizon = 0;
  // V-cycles after the first partition: coarsen again matching only vertices of the same part
  // (so the partition survives on every level), refine on the way back up, keep the best.
  // In [0, 20].
  int vcycles = 0;
  // The coarsening: > 0, size-constrained label propagation clustering (KaMinPar's), at most this
  // many rounds per level; 0, heavy-edge matching (METIS's). Clusters of many vertices follow
  // dense regions where matching pairs vertices along single edges, and shrink a level ~5x
  // where matching halves it: on the graph suite's large graphs about half the memory of the
  // levels, ~11% less cut on random geometric graphs, within 3% on 3D grids. In [0, 20].
  int cluster_rounds = 3;
  // 2: a second multilevel run coarsened the other way (matching where cluster_rounds > 0, else
  // clustering with 3 rounds); the better partition is kept, and the V-cycles coarsen as its
  // run did. In [1, 2].
  int coarsenings = 1;
  // Refinement rounds per distributed level (np > 1: each a ghost exchange, then k-way FM on
  // every rank's block at once); np 1 has no distributed levels. In [1, 20].
  int refine_rounds = 1;
};

// Every field must be the same on every rank (compared: the same hpart::Error on every rank
// otherwise).
struct GraphOptions {
  int parts = 1;
  GraphMethod method = GraphMethod::graph;
  double imbalance = 0.03;  // per constraint: max part weight / target - 1
  int seed = 1;
  std::span<const double> target_sizes;  // optional relative part sizes (parts values > 0)
  GraphEffort effort;  // the graph method's work for its cut (see GraphEffort)

  // The graph method with the effort of a preset. standard: the defaults (GraphEffort{}).
  // fast: a smaller coarsest graph (30 per part), one METIS try, two FM passes per level with a
  // short horizon (300). strong: a second run coarsened by matching (the better kept), 8 METIS
  // tries, up to 12 FM passes per level with a long horizon (5000), 3 V-cycles, 3 refinement
  // rounds per distributed level. docs/benchmarks.md ("Graph presets") has each one's cut and
  // time against METIS.
  static GraphOptions preset(Preset p, int parts);
};

// The Partition of the local vertices (weights and imbalance per constraint), plus its cut.
struct GraphPartition : Partition {
  GraphMetrics cut;
};

// Collective: validates (validate_graph) and the options, checks that the memory the call needs
// fits (per-part tables on every rank, ~64 + 56 x ncon bytes a part; the metis method's copy of
// the whole graph on rank 0), partitions, reports. partition.metrics.tolerance is opts.imbalance
// and within_tolerance says whether every constraint met it: a miss (one vertex heavier than a
// part's share, METIS on several constraints) is reported there, never hidden. With K >= N every
// vertex gets a part of its own (the largest target sizes first), the other parts stay empty.
// Deterministic (docs/design.md, "What is deterministic"): the same global graph and options
// (seed included) give the same parts for any thread count and on every call. Method metis, and
// method graph on a graph of at most max(2^15, 100 K) vertices (gathered and partitioned as on
// one rank), give the same parts for any rank count and vtxdist; above that, method graph (and
// geometric+refine at any size) depend on the rank count and vtxdist, each result within the
// tolerance (tested: mpi.graph_determinism).
GraphPartition partition_graph(const Comm& comm, const Graph& g, const GraphOptions& opts);

// Incremental repartitioning of a partitioned graph whose weights changed (ParMETIS's
// AdaptiveRepart problem): load diffuses between neighbouring parts over the quotient graph,
// moving boundary vertices towards the parts that receive, then a boundary refinement keeps
// only moves that pay. See docs/repartitioning.md.
// Every field must be the same on every rank (compared).
struct GraphRepartOptions {
  int parts = 1;            // K >= 1; `current` holds part ids in [0, K)
  double imbalance = 0.03;  // first constraint: max part weight / mean - 1
  // ParMETIS's itr: the cost of cutting an edge of weight 1 relative to migrating a vertex
  // weight of 1 (cost = itr x edge cut + migrated weight). Large: the cut matters most (a move
  // must save cut; migration breaks ties); small: vertices stay home unless a move saves itr^-1
  // times their weight in cut. > 0.
  double itr = 1000.0;
  int max_rounds = 8;       // balancing rounds before falling back to a fresh partition (>= 0)
  int refine_passes = 4;    // boundary refinement passes after balancing (>= 0)
  // Cut watch. Diffusion keeps parts where they are, so over many events their boundaries only
  // grow; a caller that passes the edge cut of its last fresh partition (> 0; 0: no watch) gets
  // a fresh partition (relabelled to keep the most weight in place) instead of an incremental
  // result that cuts more than max_surface_growth x that (>= 1). After such a fallback, pass the
  // new cut (GraphRepartition::cut.edge_cut) as the reference.
  double reference_cut = 0.0;
  double max_surface_growth = 1.3;
  // Optional, per local vertex (the one field that is not the same on every rank): the cost of
  // migrating it (>= 0; ParMETIS's vsize), in the units of itr's trade-off and of the fallback's
  // relabelling. Empty: its first weight (unit without weights). Given on every rank that has
  // vertices, or on none.
  IntSpan migration_sizes{};
};

// The new parts of the local vertices (weights and imbalance per constraint) and their cut;
// migrated: the vertices whose part changed and their first weight; steps: the balancing rounds
// run; from_scratch: diffusion did not reach the tolerance in max_rounds (an empty part, a part
// without neighbours) or the cut watch fired, so the result is partition_graph's, relabelled to
// keep the most weight in place; surface_growth: the incremental result's edge cut over
// reference_cut (0 without a reference, or when diffusion did not balance), the fresh one above
// max_surface_growth.
using GraphRepartition = Repartition<GraphPartition>;

// Collective: validates the graph (validate_graph), the options and `current` (one part id per
// local vertex, in [0, K)), throwing the same hpart::Error on every rank; then repartitions
// incrementally. Only the first weight is balanced: further constraints move with their
// vertices and are reported, not controlled (partition.metrics.within_tolerance covers every
// constraint, so it may be false for those). Memory O(local vertices + edges) per rank, plus
// O(K) per-part tables (checked against the memory budget), plus the quotient graph (O(K x its
// degree)) on rank 0.
// Deterministic for any thread count and on every call; not across rank counts or vtxdist.
GraphRepartition repartition_graph(const Comm& comm, const Graph& g, std::span<const part_t> current,
                                   const GraphRepartOptions& opts);

const char* to_string(GraphMethod m);
GraphMethod graph_method_from_string(const char* name);  // throws hpart::Error for an unknown name

}  // namespace hpart
