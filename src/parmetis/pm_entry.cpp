// The ParMETIS 4 entry points: each checks and converts its arguments (pm_args.cpp), calls one
// hpart function, and writes part[] and edgecut. The boundary: no C++ exception crosses it;
// hpart::Error (the same on every rank) becomes METIS_ERROR, bad_alloc METIS_ERROR_MEMORY, and
// rank 0 prints the message on one line of stderr, as ParMETIS prints its own.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "hpart/graph.hpp"
#include "hpart/parmetis.h"
#include "hpart/points.hpp"
#include "parmetis/pm_args.hpp"

namespace hpart::parmetis {
namespace {

void print(int rank, const char* fn, const char* what) {
  if (rank == 0) std::fprintf(stderr, "hpart_parmetis: %s: %s\n", fn, what);
}

// Runs `body` on a checked communicator and maps every failure to a ParMETIS status.
template <class Body>
int guarded(const char* fn, MPI_Comm* comm, Body&& body) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) {
    std::fprintf(stderr, "hpart_parmetis: %s: MPI is not initialized (or already finalized)\n", fn);
    return METIS_ERROR;
  }
  if (comm == nullptr || *comm == MPI_COMM_NULL) {
    // No communicator to agree over: every rank that got it says so, the world's rank 0 prints.
    int world = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    print(world, fn, comm == nullptr ? "comm is NULL" : "comm is MPI_COMM_NULL");
    return METIS_ERROR;
  }
  int rank = 0;
  MPI_Comm_rank(*comm, &rank);
  try {
    const Comm c(*comm);
    body(c);
    return METIS_OK;
  } catch (const Error& e) {
    print(rank, fn, e.what());
    return METIS_ERROR;
  } catch (const std::bad_alloc&) {
    print(rank, fn, "out of memory");
    return METIS_ERROR_MEMORY;
  } catch (const std::exception& e) {
    print(rank, fn, e.what());
    return METIS_ERROR;
  } catch (...) {
    print(rank, fn, "unknown error");
    return METIS_ERROR;
  }
}

// part[] (in the caller's numbering), edgecut, and the dbglvl summary line.
void write_result(const Comm& comm, const char* fn, const Problem& p, const GraphPartition& r, idx_t* edgecut,
                  idx_t* part) {
  for (std::size_t i = 0; i < r.parts.size(); ++i) part[i] = static_cast<idx_t>(r.parts[i] + p.numflag);
  *edgecut = static_cast<idx_t>(r.cut.edge_cut);
  if (p.dbglvl != 0 && comm.rank() == 0) {
    double worst = 0;
    for (const double b : r.metrics.imbalance) worst = std::max(worst, b);
    std::fprintf(stderr, "hpart_parmetis: %s: %d parts, edge cut %lld, balance %.3f (ubvec %.3f), %.4f s\n", fn,
                 p.nparts, static_cast<long long>(r.cut.edge_cut), 1.0 + worst, p.min_ubvec, r.metrics.seconds);
  }
}

RawArgs graph_args(idx_t* vtxdist, idx_t* xadj, idx_t* adjncy, idx_t* vwgt, idx_t* adjwgt, idx_t* wgtflag,
                   idx_t* numflag, idx_t* ncon, idx_t* nparts, real_t* tpwgts, real_t* ubvec, idx_t* options,
                   idx_t* edgecut, idx_t* part) {
  RawArgs a;
  a.vtxdist = vtxdist, a.xadj = xadj, a.adjncy = adjncy, a.vwgt = vwgt, a.adjwgt = adjwgt;
  a.wgtflag = wgtflag, a.numflag = numflag, a.ncon = ncon, a.nparts = nparts;
  a.tpwgts = tpwgts, a.ubvec = ubvec, a.options = options, a.edgecut = edgecut, a.part = part;
  return a;
}

void partition(const Comm& comm, const char* fn, const RawArgs& a, Kind kind, idx_t* edgecut, idx_t* part) {
  const Problem p = prepare_graph(comm, a, kind);
  GraphOptions o;
  o.parts = p.nparts;
  o.method = kind == Kind::geom_kway ? GraphMethod::geometric_refine : GraphMethod::graph;
  o.imbalance = p.imbalance;
  o.seed = p.seed;
  o.target_sizes = p.targets;
  o.effort = p.effort;
  write_result(comm, fn, p, partition_graph(comm, p.graph, o), edgecut, part);
}

void repartition(const Comm& comm, const char* fn, const RawArgs& a, Kind kind, idx_t* edgecut, idx_t* part) {
  const Problem p = prepare_graph(comm, a, kind);
  GraphRepartOptions o;
  o.parts = p.nparts;
  o.imbalance = p.imbalance;
  o.itr = p.itr;
  o.migration_sizes = p.sizes;
  write_result(comm, fn, p, repartition_graph(comm, p.graph, p.current, o), edgecut, part);
}

}  // namespace
}  // namespace hpart::parmetis

using hpart::parmetis::Kind;

extern "C" {

int ParMETIS_V3_PartKway(idx_t* vtxdist, idx_t* xadj, idx_t* adjncy, idx_t* vwgt, idx_t* adjwgt, idx_t* wgtflag,
                         idx_t* numflag, idx_t* ncon, idx_t* nparts, real_t* tpwgts, real_t* ubvec, idx_t* options,
                         idx_t* edgecut, idx_t* part, MPI_Comm* comm) {
  const char* fn = "ParMETIS_V3_PartKway";
  return hpart::parmetis::guarded(fn, comm, [&](const hpart::Comm& c) {
    const auto a = hpart::parmetis::graph_args(vtxdist, xadj, adjncy, vwgt, adjwgt, wgtflag, numflag, ncon, nparts,
                                               tpwgts, ubvec, options, edgecut, part);
    hpart::parmetis::partition(c, fn, a, Kind::kway, edgecut, part);
  });
}

int ParMETIS_V3_PartGeomKway(idx_t* vtxdist, idx_t* xadj, idx_t* adjncy, idx_t* vwgt, idx_t* adjwgt,
                             idx_t* wgtflag, idx_t* numflag, idx_t* ndims, real_t* xyz, idx_t* ncon, idx_t* nparts,
                             real_t* tpwgts, real_t* ubvec, idx_t* options, idx_t* edgecut, idx_t* part,
                             MPI_Comm* comm) {
  const char* fn = "ParMETIS_V3_PartGeomKway";
  return hpart::parmetis::guarded(fn, comm, [&](const hpart::Comm& c) {
    auto a = hpart::parmetis::graph_args(vtxdist, xadj, adjncy, vwgt, adjwgt, wgtflag, numflag, ncon, nparts, tpwgts,
                                         ubvec, options, edgecut, part);
    a.ndims = ndims, a.xyz = xyz;
    hpart::parmetis::partition(c, fn, a, Kind::geom_kway, edgecut, part);
  });
}

int ParMETIS_V3_PartGeom(idx_t* vtxdist, idx_t* ndims, real_t* xyz, idx_t* part, MPI_Comm* comm) {
  return hpart::parmetis::guarded("ParMETIS_V3_PartGeom", comm, [&](const hpart::Comm& c) {
    std::vector<double> coords;
    const int dim = hpart::parmetis::prepare_geom(c, vtxdist, ndims, xyz, part, coords);
    hpart::PointSet points;
    points.coords = coords;
    points.dim = dim;
    hpart::PointOptions o;
    o.parts = c.size();  // ParMETIS_V3_PartGeom makes one part per rank
    const hpart::Partition r = hpart::partition_points(c, points, o);
    for (std::size_t i = 0; i < r.parts.size(); ++i) part[i] = static_cast<idx_t>(r.parts[i]);
  });
}

int ParMETIS_V3_RefineKway(idx_t* vtxdist, idx_t* xadj, idx_t* adjncy, idx_t* vwgt, idx_t* adjwgt, idx_t* wgtflag,
                           idx_t* numflag, idx_t* ncon, idx_t* nparts, real_t* tpwgts, real_t* ubvec,
                           idx_t* options, idx_t* edgecut, idx_t* part, MPI_Comm* comm) {
  const char* fn = "ParMETIS_V3_RefineKway";
  return hpart::parmetis::guarded(fn, comm, [&](const hpart::Comm& c) {
    const auto a = hpart::parmetis::graph_args(vtxdist, xadj, adjncy, vwgt, adjwgt, wgtflag, numflag, ncon, nparts,
                                               tpwgts, ubvec, options, edgecut, part);
    hpart::parmetis::repartition(c, fn, a, Kind::refine, edgecut, part);
  });
}

int ParMETIS_V3_AdaptiveRepart(idx_t* vtxdist, idx_t* xadj, idx_t* adjncy, idx_t* vwgt, idx_t* vsize,
                               idx_t* adjwgt, idx_t* wgtflag, idx_t* numflag, idx_t* ncon, idx_t* nparts,
                               real_t* tpwgts, real_t* ubvec, real_t* ipc2redist, idx_t* options, idx_t* edgecut,
                               idx_t* part, MPI_Comm* comm) {
  const char* fn = "ParMETIS_V3_AdaptiveRepart";
  return hpart::parmetis::guarded(fn, comm, [&](const hpart::Comm& c) {
    auto a = hpart::parmetis::graph_args(vtxdist, xadj, adjncy, vwgt, adjwgt, wgtflag, numflag, ncon, nparts, tpwgts,
                                         ubvec, options, edgecut, part);
    a.vsize = vsize, a.itr = ipc2redist;
    hpart::parmetis::repartition(c, fn, a, Kind::adaptive, edgecut, part);
  });
}

}  // extern "C"
