#pragma once
// The one result type of every hpart partitioner.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/types.hpp"

namespace hpart {

struct PartitionMetrics {
  // Per weight dimension: max over parts of weight / target weight - 1 (0 = perfect).
  std::vector<double> imbalance;
  long long empty_parts = 0;     // parts that received no object
  long long objects = 0;         // global object count
  double seconds = 0.0;          // wall time of the partition call (max over ranks)
  // The imbalance the call was asked to stay within (its imbalance or tolerance option; -1 when
  // the method takes none) and whether every constraint did. A miss is reported here, and as a
  // warning by the CLI, never hidden: one object heavier than a part's share, more parts than
  // objects, or a backend (METIS on several constraints) that could not reach it.
  double tolerance = -1.0;
  bool within_tolerance = true;
};

// Cut metrics of a graph partition (graph_metrics, partition_graph): the same for every method.
struct GraphMetrics {
  std::int64_t edge_cut = 0;           // total weight of edges between parts (each edge once)
  std::int64_t comm_volume = 0;        // sum over vertices of the number of other parts among its neighbours
  std::int64_t boundary_vertices = 0;  // vertices with a neighbour in another part
};

struct Partition {
  int num_parts = 0;
  int ncon = 1;
  std::vector<part_t> parts;         // part of each local object, in input order
  std::vector<double> part_weights;  // global, num_parts * ncon, part-major
  std::vector<long long> part_sizes; // global object count per part
  PartitionMetrics metrics;

  [[nodiscard]] part_t part(std::size_t i) const { return parts[i]; }
  [[nodiscard]] std::size_t size() const { return parts.size(); }
};

// What a repartition moved, over all ranks: the objects whose part changed and their weight
// (the first weight; unit weights count objects, grid cells their cost).
struct MigrationStats {
  long long objects = 0;
  double weight = 0.0;
};

// The one repartition shape: the new partition of a kind (its fields are the result's own:
// r.parts, r.metrics, r.boxes ...), what moved, and whether the method gave up on the
// incremental path for a fresh partition (relabelled to keep the most weight in place).
template <class P>
struct Repartition : P {
  MigrationStats migrated;
  bool from_scratch = false;
  // The incremental method's steps: diffusion rounds (graphs), moves and swaps (patches), cut
  // planes moved (grids).
  int steps = 0;
  // The new surface (graphs: edge cut) over the reference the caller passed; 0 without one.
  double surface_growth = 0.0;
};

// Collective: recompute part weights, sizes and metrics of `parts` (one id per local object)
// from the objects' weights (ncon per object, or empty for unit weights) and optional relative
// target sizes. Shared by every method so that all report the same numbers the same way.
Partition evaluate_partition(const Comm& comm, std::vector<part_t> parts, int num_parts,
                             std::span<const double> weights, int ncon,
                             std::span<const double> target_sizes = {});

}  // namespace hpart
