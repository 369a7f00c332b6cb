#include "zoltan_baseline.hpp"

#include <zoltan.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <string>
#include <stdexcept>

namespace hpart_bench {
namespace {

const LocalPoints& points_of(void* data) { return *static_cast<const LocalPoints*>(data); }

int num_obj(void* data, int* ierr) {
  *ierr = ZOLTAN_OK;
  return static_cast<int>(points_of(data).size());
}

void obj_list(void* data, int /*num_gid*/, int /*num_lid*/, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int wdim,
              float* wgts, int* ierr) {
  const LocalPoints& p = points_of(data);
  for (std::size_t i = 0; i < p.size(); ++i) {
    gids[i] = static_cast<ZOLTAN_ID_TYPE>(p.ids[i]);
    lids[i] = static_cast<ZOLTAN_ID_TYPE>(i);
    if (wdim > 0) wgts[i] = static_cast<float>(p.weights[i]);
  }
  *ierr = ZOLTAN_OK;
}

int num_geom(void* data, int* ierr) {
  *ierr = ZOLTAN_OK;
  return points_of(data).dim;
}

void geom_multi(void* data, int /*num_gid*/, int /*num_lid*/, int num_obj_req, ZOLTAN_ID_PTR /*gids*/,
                ZOLTAN_ID_PTR lids, int num_dim, double* geom, int* ierr) {
  const LocalPoints& p = points_of(data);
  const auto d = static_cast<std::size_t>(num_dim);
  for (int k = 0; k < num_obj_req; ++k) {
    const std::size_t i = lids[k];
    for (std::size_t a = 0; a < d; ++a) geom[static_cast<std::size_t>(k) * d + a] = p.coords[i * d + a];
  }
  *ierr = ZOLTAN_OK;
}

// Graph callbacks: data is the partitioner's Impl (objects and graph).
struct GraphData {
  const LocalPoints* pts = nullptr;
  const hpart::Graph* graph = nullptr;
};

void num_edges_multi(void* data, int /*num_gid*/, int /*num_lid*/, int num_obj_req, ZOLTAN_ID_PTR /*gids*/,
                     ZOLTAN_ID_PTR lids, int* num_edges, int* ierr) {
  const hpart::Graph& g = *static_cast<const GraphData*>(data)->graph;
  for (int k = 0; k < num_obj_req; ++k) {
    const std::size_t v = lids[k];
    num_edges[k] = static_cast<int>(g.xadj[v + 1] - g.xadj[v]);
  }
  *ierr = ZOLTAN_OK;
}

void edge_list_multi(void* data, int /*num_gid*/, int /*num_lid*/, int num_obj_req, ZOLTAN_ID_PTR /*gids*/,
                     ZOLTAN_ID_PTR lids, int* /*num_edges*/, ZOLTAN_ID_PTR nbor_gids, int* nbor_procs, int wgt_dim,
                     float* ewgts, int* ierr) {
  const hpart::Graph& g = *static_cast<const GraphData*>(data)->graph;
  std::size_t out = 0;
  for (int k = 0; k < num_obj_req; ++k) {
    const std::size_t v = lids[k];
    for (auto e = g.xadj[v]; e < g.xadj[v + 1]; ++e, ++out) {
      const hpart::gid_t u = g.adjncy[static_cast<std::size_t>(e)];
      nbor_gids[out] = static_cast<ZOLTAN_ID_TYPE>(u);
      nbor_procs[out] = static_cast<int>(std::upper_bound(g.vtxdist.begin(), g.vtxdist.end(), u) - g.vtxdist.begin() - 1);
      if (wgt_dim > 0) ewgts[out] = static_cast<float>(g.adjwgt[static_cast<std::size_t>(e)]);
    }
  }
  *ierr = ZOLTAN_OK;
}

// The current part of each requested object: data is the caller's vector of parts.
void part_multi(void* data, int /*num_gid*/, int /*num_lid*/, int num_obj_req, ZOLTAN_ID_PTR /*gids*/,
                ZOLTAN_ID_PTR lids, int* parts, int* ierr) {
  const auto& p = *static_cast<const std::vector<hpart::part_t>*>(data);
  for (int k = 0; k < num_obj_req; ++k) parts[k] = p[lids[k]];
  *ierr = ZOLTAN_OK;
}

void check(int rc, const char* what) {
  if (rc != ZOLTAN_OK) throw std::runtime_error(std::string("Zoltan: ") + what + " failed (code " + std::to_string(rc) + ")");
}

}  // namespace

void zoltan_initialize(int argc, char** argv) {
  float version = 0.0f;
  check(Zoltan_Initialize(argc, argv, &version), "Zoltan_Initialize");
}

struct ZoltanPartitioner::Impl {
  Zoltan_Struct* zz = nullptr;
  const LocalPoints* pts = nullptr;
  GraphData graph;
  bool have_lists = false;
  int changes = 0, num_gid = 0, num_lid = 0, num_import = 0, num_export = 0;
  ZOLTAN_ID_PTR import_gids = nullptr, import_lids = nullptr, export_gids = nullptr, export_lids = nullptr;
  int *import_procs = nullptr, *import_parts = nullptr, *export_procs = nullptr, *export_parts = nullptr;
};

ZoltanPartitioner::ZoltanPartitioner(MPI_Comm comm, const std::string& method, int parts, const LocalPoints& pts)
    : impl_(std::make_unique<Impl>()) {
  if (pts.global_n > static_cast<long long>(std::numeric_limits<ZOLTAN_ID_TYPE>::max()))
    throw std::runtime_error("Zoltan: global ids do not fit ZOLTAN_ID_TYPE");
  impl_->pts = &pts;
  impl_->zz = Zoltan_Create(comm);
  if (!impl_->zz) throw std::runtime_error("Zoltan_Create failed");
  Zoltan_Struct* zz = impl_->zz;
  std::string lb = method;
  for (char& ch : lb) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  const std::string k = std::to_string(parts);
  check(Zoltan_Set_Param(zz, "DEBUG_LEVEL", "0"), "DEBUG_LEVEL");
  check(Zoltan_Set_Param(zz, "LB_METHOD", lb.c_str()), "LB_METHOD");
  check(Zoltan_Set_Param(zz, "NUM_GID_ENTRIES", "1"), "NUM_GID_ENTRIES");
  check(Zoltan_Set_Param(zz, "NUM_LID_ENTRIES", "1"), "NUM_LID_ENTRIES");
  check(Zoltan_Set_Param(zz, "NUM_GLOBAL_PARTS", k.c_str()), "NUM_GLOBAL_PARTS");
  // Every local object with its part in the export lists ("PARTS" is the short spelling).
  check(Zoltan_Set_Param(zz, "RETURN_LISTS", "PARTS"), "RETURN_LISTS");
  check(Zoltan_Set_Param(zz, "IMBALANCE_TOL", "1.001"), "IMBALANCE_TOL");
  check(Zoltan_Set_Param(zz, "KEEP_CUTS", "0"), "KEEP_CUTS");
  check(Zoltan_Set_Param(zz, "OBJ_WEIGHT_DIM", pts.weights.empty() ? "0" : "1"), "OBJ_WEIGHT_DIM");
  void* data = const_cast<LocalPoints*>(&pts);
  check(Zoltan_Set_Num_Obj_Fn(zz, num_obj, data), "Zoltan_Set_Num_Obj_Fn");
  check(Zoltan_Set_Obj_List_Fn(zz, obj_list, data), "Zoltan_Set_Obj_List_Fn");
  check(Zoltan_Set_Num_Geom_Fn(zz, num_geom, data), "Zoltan_Set_Num_Geom_Fn");
  check(Zoltan_Set_Geom_Multi_Fn(zz, geom_multi, data), "Zoltan_Set_Geom_Multi_Fn");
}

ZoltanPartitioner::ZoltanPartitioner(MPI_Comm comm, int parts, const LocalPoints& pts, const hpart::Graph& graph,
                                     double imbalance)
    : impl_(std::make_unique<Impl>()) {
  impl_->pts = &pts;
  impl_->graph = GraphData{&pts, &graph};
  impl_->zz = Zoltan_Create(comm);
  if (!impl_->zz) throw std::runtime_error("Zoltan_Create failed");
  Zoltan_Struct* zz = impl_->zz;
  const std::string k = std::to_string(parts), tol = std::to_string(1.0 + imbalance);
  check(Zoltan_Set_Param(zz, "DEBUG_LEVEL", "0"), "DEBUG_LEVEL");
  check(Zoltan_Set_Param(zz, "LB_METHOD", "GRAPH"), "LB_METHOD");
  check(Zoltan_Set_Param(zz, "GRAPH_PACKAGE", "PHG"), "GRAPH_PACKAGE");
  check(Zoltan_Set_Param(zz, "LB_APPROACH", "PARTITION"), "LB_APPROACH");
  check(Zoltan_Set_Param(zz, "NUM_GID_ENTRIES", "1"), "NUM_GID_ENTRIES");
  check(Zoltan_Set_Param(zz, "NUM_LID_ENTRIES", "1"), "NUM_LID_ENTRIES");
  check(Zoltan_Set_Param(zz, "NUM_GLOBAL_PARTS", k.c_str()), "NUM_GLOBAL_PARTS");
  check(Zoltan_Set_Param(zz, "RETURN_LISTS", "PARTS"), "RETURN_LISTS");
  check(Zoltan_Set_Param(zz, "IMBALANCE_TOL", tol.c_str()), "IMBALANCE_TOL");
  check(Zoltan_Set_Param(zz, "OBJ_WEIGHT_DIM", pts.weights.empty() ? "0" : "1"), "OBJ_WEIGHT_DIM");
  check(Zoltan_Set_Param(zz, "EDGE_WEIGHT_DIM", graph.adjwgt.empty() ? "0" : "1"), "EDGE_WEIGHT_DIM");
  void* objects = const_cast<LocalPoints*>(&pts);
  check(Zoltan_Set_Num_Obj_Fn(zz, num_obj, objects), "Zoltan_Set_Num_Obj_Fn");
  check(Zoltan_Set_Obj_List_Fn(zz, obj_list, objects), "Zoltan_Set_Obj_List_Fn");
  check(Zoltan_Set_Num_Edges_Multi_Fn(zz, num_edges_multi, &impl_->graph), "Zoltan_Set_Num_Edges_Multi_Fn");
  check(Zoltan_Set_Edge_List_Multi_Fn(zz, edge_list_multi, &impl_->graph), "Zoltan_Set_Edge_List_Multi_Fn");
}

ZoltanPartitioner::~ZoltanPartitioner() {
  free_lists();
  if (impl_->zz) Zoltan_Destroy(&impl_->zz);
}

void ZoltanPartitioner::partition() {
  free_lists();
  Impl& z = *impl_;
  check(Zoltan_LB_Partition(z.zz, &z.changes, &z.num_gid, &z.num_lid, &z.num_import, &z.import_gids, &z.import_lids,
                            &z.import_procs, &z.import_parts, &z.num_export, &z.export_gids, &z.export_lids,
                            &z.export_procs, &z.export_parts),
        "Zoltan_LB_Partition");
  z.have_lists = true;
}

std::vector<hpart::part_t> ZoltanPartitioner::take_parts() {
  Impl& z = *impl_;
  if (!z.have_lists) throw std::runtime_error("Zoltan: take_parts() before partition()");
  const std::size_t n = z.pts->size();
  std::vector<hpart::part_t> parts(n, -1);
  // RETURN_LISTS=PARTS: the export lists hold every local object and its part.
  for (int e = 0; e < z.num_export; ++e) {
    const std::size_t i = z.export_lids[e];
    if (i >= n) throw std::runtime_error("Zoltan returned a local id out of range");
    parts[i] = z.export_parts[e];
  }
  free_lists();
  for (std::size_t i = 0; i < n; ++i)
    if (parts[i] < 0) throw std::runtime_error("Zoltan left local object " + std::to_string(i) + " without a part");
  return parts;
}

void ZoltanPartitioner::set_param(const std::string& name, const std::string& value) {
  check(Zoltan_Set_Param(impl_->zz, name.c_str(), value.c_str()), name.c_str());
}

void ZoltanPartitioner::set_input_parts(const std::vector<hpart::part_t>* parts) {
  check(Zoltan_Set_Part_Multi_Fn(impl_->zz, part_multi, const_cast<std::vector<hpart::part_t>*>(parts)),
        "Zoltan_Set_Part_Multi_Fn");
}

void ZoltanPartitioner::free_lists() {
  Impl& z = *impl_;
  if (!z.have_lists) return;
  Zoltan_LB_Free_Part(&z.import_gids, &z.import_lids, &z.import_procs, &z.import_parts);
  Zoltan_LB_Free_Part(&z.export_gids, &z.export_lids, &z.export_procs, &z.export_parts);
  z.have_lists = false;
}

std::vector<hpart::part_t> partition_measured(const hpart::Comm& comm, ZoltanPartitioner& z, int reps, bool reset_works,
                                              CallStats& stats) {
  std::string problem;
  try {
    stats = measure_calls(comm.get(), reps, reset_works, [&] { z.free_lists(); }, [&] { z.partition(); });
  } catch (const std::exception& e) {
    problem = e.what();
  }
  std::vector<hpart::part_t> parts;
  if (problem.empty()) {
    try {
      parts = z.take_parts();
    } catch (const std::exception& e) {
      problem = e.what();
    }
  }
  comm.agree(problem.empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::internal, problem);
  return parts;
}

}  // namespace hpart_bench
