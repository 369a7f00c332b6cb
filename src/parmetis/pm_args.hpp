#pragma once
// The ParMETIS 4 arguments of one call, checked and converted into hpart's types. The entry
// points (pm_entry.cpp) only dispatch; every rule of the ParMETIS 4 manual, and every case
// where hpart cannot honour an argument, is decided here, collectively: the same hpart::Error on
// every rank, its message naming the argument.
#include <cstdint>
#include <string>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/graph.hpp"
#include "hpart/parmetis.h"
#include "hpart/types.hpp"

namespace hpart::parmetis {

// Which entry point: what it reads and what it may not take.
enum class Kind { kway, geom_kway, refine, adaptive };

// The caller's pointers, as given (any may be NULL; checked before use).
struct RawArgs {
  const idx_t* vtxdist = nullptr;
  const idx_t* xadj = nullptr;
  const idx_t* adjncy = nullptr;
  const idx_t* vwgt = nullptr;
  const idx_t* adjwgt = nullptr;
  const idx_t* vsize = nullptr;  // AdaptiveRepart only
  const idx_t* wgtflag = nullptr;
  const idx_t* numflag = nullptr;
  const idx_t* ncon = nullptr;
  const idx_t* nparts = nullptr;
  const real_t* tpwgts = nullptr;
  const real_t* ubvec = nullptr;
  const real_t* itr = nullptr;  // AdaptiveRepart's ipc2redist
  const idx_t* options = nullptr;
  const idx_t* ndims = nullptr;  // PartGeomKway
  const real_t* xyz = nullptr;   // PartGeomKway
  const idx_t* edgecut = nullptr;
  const idx_t* part = nullptr;  // output; input too for RefineKway / AdaptiveRepart (uncoupled)
};

// One call's problem in hpart's terms. Not copyable: graph views the caller's arrays and the
// copies below (moving keeps the vectors' storage, so the views stay valid).
struct Problem {
  Graph graph;                    // 0-based, the caller's arrays where they already are
  std::vector<gid_t> vtxdist;     // 0-based, 64-bit
  std::vector<idx_t> xadj;        // rebased copies, only when the caller's are not 0-based
  std::vector<idx_t> adjncy;
  std::vector<double> coords;     // PartGeomKway's xyz as doubles, 2 or 3 per vertex
  int nparts = 1;
  int numflag = 0;                // added back to every part id written to part[]
  int dbglvl = 0;                 // options[1]: print a summary line on rank 0 when nonzero
  int seed = 1;                   // options[2] when options[0] is 1, else hpart's default
  double imbalance = 0.05;        // min(ubvec) - 1: the tightest constraint's tolerance
  double min_ubvec = 1.05;
  std::vector<double> targets;    // tpwgts of the first constraint; empty when uniform
  double itr = 1000.0;            // AdaptiveRepart's ipc2redist
  bool coupled = false;           // RefineKway / AdaptiveRepart: start from the distribution
  std::vector<part_t> current;    // RefineKway / AdaptiveRepart: the partition to start from
  IntSpan sizes;                  // AdaptiveRepart: vsize (1 each when NULL); empty: unweighted
  std::vector<std::int64_t> unit_sizes;  // the 1s sizes views when vsize is NULL
  // PartKway / PartGeomKway: the graph method's effort. ParMETIS's arguments have no such knob:
  // the environment variable HPART_PARMETIS_PRESET (fast, default, strong) chooses a preset's,
  // layer_effort() when unset; compared across ranks by partition_graph.
  GraphEffort effort;

  Problem() = default;
  Problem(const Problem&) = delete;
  Problem& operator=(const Problem&) = delete;
  Problem(Problem&&) = default;
  Problem& operator=(Problem&&) = default;
};

// PartKway's effort when HPART_PARMETIS_PRESET is unset: between the standard and strong presets
// (8 METIS tries, 8 FM passes, one V-cycle), what a ParMETIS caller's time buys against
// PT-Scotch's layer (docs/benchmarks.md, "ParMETIS layer vs PT-Scotch's").
GraphEffort layer_effort();

// Collective. Checks every argument of a graph entry point and converts them (throws the same
// hpart::Error on every rank). The graph itself (symmetry, weights) is left to validate_graph.
Problem prepare_graph(const Comm& comm, const RawArgs& a, Kind kind);

// Collective. ParMETIS_V3_PartGeom's arguments: vtxdist, ndims and xyz; returns the local
// coordinates (2 or 3 per vertex: 1-D input gets a zero second coordinate) in `coords`.
int prepare_geom(const Comm& comm, const idx_t* vtxdist, const idx_t* ndims, const real_t* xyz, const idx_t* part,
                 std::vector<double>& coords);

// Collective: the first local problem (empty = none) becomes the same hpart::Error
// (invalid_argument) on every rank.
void agree(const Comm& comm, const std::string& problem);

}  // namespace hpart::parmetis
