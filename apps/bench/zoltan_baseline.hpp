#pragma once
// Zoltan geometric partitioners (HSFC, RCB, RIB) as baselines, on the same input and the same
// communicator as hpart. Compiled only when HPART_HAVE_ZOLTAN.
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "call_measurement.hpp"
#include "hpart/comm.hpp"
#include "hpart/graph.hpp"
#include "hpart/types.hpp"
#include "point_generators.hpp"

namespace hpart_bench {

using hpart_apps::LocalPoints;
using hpart_apps::PointCase;

// Zoltan_Initialize, once per process, after MPI_Init. Throws std::runtime_error on failure.
void zoltan_initialize(int argc, char** argv);

// One Zoltan_Struct configured for a method ("hsfc", "rcb" or "rib") and K parts over `pts`
// (which must outlive it): LB_METHOD, NUM_GLOBAL_PARTS, RETURN_LISTS=PARTS (every local object's
// part in the export lists), IMBALANCE_TOL 1.001, KEEP_CUTS 0, DEBUG_LEVEL 0, OBJ_WEIGHT_DIM 1
// when the points carry weights, callbacks for object lists and coordinates.
class ZoltanPartitioner {
 public:
  ZoltanPartitioner(MPI_Comm comm, const std::string& method, int parts, const LocalPoints& pts);
  // Graph partitioning (LB_METHOD GRAPH with GRAPH_PACKAGE PHG, Zoltan's own hypergraph code):
  // `pts` gives the objects (ids = global vertex ids, weights), `graph` their edges. Both must
  // outlive the partitioner. imbalance: IMBALANCE_TOL - 1.
  ZoltanPartitioner(MPI_Comm comm, int parts, const LocalPoints& pts, const hpart::Graph& graph, double imbalance);
  ~ZoltanPartitioner();
  ZoltanPartitioner(const ZoltanPartitioner&) = delete;
  ZoltanPartitioner& operator=(const ZoltanPartitioner&) = delete;

  // Collective, timed: Zoltan_LB_Partition alone; keeps the returned lists.
  void partition();
  // Untimed: the part of each local object from the kept lists; frees them.
  std::vector<hpart::part_t> take_parts();
  // Zoltan_Set_Param on the kept Zoltan_Struct (e.g. RCB_REUSE for repeated calls); throws on failure.
  void set_param(const std::string& name, const std::string& value);
  // The objects' current parts (one per local object, outliving the partitioner; read at each
  // partition()), for LB_APPROACH REPARTITION: without them Zoltan takes each rank as a part.
  void set_input_parts(const std::vector<hpart::part_t>* parts);
  // Frees kept lists, if any (Zoltan_LB_Free_Part).
  void free_lists();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Collective: z.partition() timed over `reps` (measure_calls), then the parts. A Zoltan failure
// on any rank (in either step) becomes the same hpart::Error on every rank.
std::vector<hpart::part_t> partition_measured(const hpart::Comm& comm, ZoltanPartitioner& z, int reps, bool reset_works,
                                              CallStats& stats);

}  // namespace hpart_bench
