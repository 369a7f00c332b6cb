#pragma once
// The C API's machinery, written once: the handle structs, the registry of live handles, the
// one try/catch every extern "C" body runs in (guard), and the argument checks that the ranks
// agree on before any collective. No algorithm lives here: the handles hold the C++ objects and
// the entry points call the C++ API.
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "hpart/assign.hpp"
#include "hpart/comm.hpp"
#include "hpart/error.hpp"
#include "hpart/graph.hpp"
#include "hpart/grid.hpp"
#include "hpart/hierarchy.hpp"
#include "hpart/hpart.h"
#include "hpart/io.hpp"
#include "hpart/migration.hpp"
#include "hpart/partition.hpp"
#include "hpart/point_set.hpp"
#include "hpart/rebalance.hpp"

namespace hpart::capi {

// What a registered address holds. A handle is only dereferenced after the registry said that
// its address is live and of the expected kind, so a freed or foreign pointer is reported, never
// read.
enum class Kind : int { points, grid, graph, partition, rebalancer, migration, map };
const char* kind_name(Kind k);  // "hpart_points", ...

// A handle that holds a communicator (Rebalancer, Migration) registers it too: once freed, its
// address stays a tombstone with that communicator (until a new handle takes the address), so
// that a call with the freed handle on one rank still joins its peers' agreement on the
// communicator and every rank reports the same error instead of the peers hanging.
void register_handle(const void* h, Kind k, MPI_Comm comm = MPI_COMM_NULL);
void unregister_handle(const void* h);
bool is_live(const void* h, Kind k);
// The communicator of a freed handle of kind k at h, or MPI_COMM_NULL.
MPI_Comm tombstone_comm(const void* h, Kind k);
// For a NULL or foreign pointer where a handle of kind k was due: the communicator of this
// rank's handles of that kind (live or freed) when they all share one (the usual case: every
// Rebalancer on MPI_COMM_WORLD), so the error can still be agreed with the peers; else
// MPI_COMM_NULL (the error stays local).
MPI_Comm only_comm(Kind k);

// A failure of the C layer itself with a status hpart::ErrorCode has no value for.
struct CError {
  hpart_status status;
  std::string message;
};

// Records the message of a failing call for hpart_last_error() and returns its status.
hpart_status fail(hpart_status status, const std::string& message);

// Runs f, turning every exception into a status: the only try/catch of the C API.
template <class F>
hpart_status guard(F&& f) noexcept {
  try {
    f();
    return HPART_OK;
  } catch (const Error& e) {
    // 1..5 are the same numbers on both sides (static_assert in capi_partition.cpp); unsupported
    // is HPART_ERR_UNSUPPORTED, as 6 is the C side's HPART_ERR_MEMORY.
    return fail(e.code() == ErrorCode::unsupported ? HPART_ERR_UNSUPPORTED : static_cast<hpart_status>(e.code()),
                e.what());
  } catch (const CError& e) {
    return fail(e.status, e.message);
  } catch (const std::bad_alloc&) {
    return fail(HPART_ERR_MEMORY, "hpart: out of memory (std::bad_alloc)");
  } catch (const std::exception& e) {
    return fail(HPART_ERR_INTERNAL, std::string("hpart: unexpected exception: ") + e.what());
  } catch (...) {
    return fail(HPART_ERR_INTERNAL, "hpart: unknown exception");
  }
}

// The first problem found among one call's arguments: "fn: what". Local; `agreed` makes it
// collective.
class Check {
 public:
  explicit Check(const char* fn) : fn_(fn) {}
  Check& need(bool ok, const std::string& what) {
    if (!ok && problem_.empty()) problem_ = std::string(fn_) + ": " + what;
    return *this;
  }
  // A handle argument: not NULL, live, of kind k.
  Check& handle(const void* h, Kind k, const char* name);
  // An option/result struct: not NULL, and its size field is this library's.
  template <class S>
  Check& sized(const S* s, const char* name, const char* init) {
    need(s != nullptr, std::string(name) + " is NULL");
    if (s != nullptr)
      need(s->size == sizeof(S), std::string(name) + "->size is " + std::to_string(s->size) + ", expected " +
                                     std::to_string(sizeof(S)) + ": initialise it with " + init);
    return *this;
  }
  // An array of n values: n >= 0, and not NULL when n > 0.
  Check& array(const void* p, std::int64_t n, const char* name);
  // Throws (locally) when a problem was found.
  void local() const;
  // Collective: every rank's verdict combined; every rank throws the same Error (the lowest
  // failing rank's message) when any rank found a problem. comm must not be MPI_COMM_NULL
  // (checked, locally: such a rank has no peers to agree with).
  Comm agreed(MPI_Comm comm) const;
  void agreed(const Comm& comm) const;
  [[nodiscard]] const char* fn() const { return fn_; }

 private:
  const char* fn_;
  std::string problem_;
};

// Allocates a handle and registers it.
template <class H, class... A>
H* make_handle(A&&... args) {
  auto h = std::make_unique<H>(std::forward<A>(args)...);
  register_handle(h.get(), H::kind);
  return h.release();
}

// Frees *h if it is a live handle of H's kind (NULL: nothing), and sets *h to NULL.
template <class H>
hpart_status free_handle(H** h, const char* fn) {
  return guard([&] {
    if (h == nullptr || *h == nullptr) return;
    Check(fn).handle(*h, H::kind, "the handle").local();
    unregister_handle(*h);
    delete *h;
    *h = nullptr;
  });
}

// Names an MPI_Fint communicator's C handle (MPI_COMM_NULL throws).
MPI_Comm from_fortran(MPI_Fint f, const char* fn);

}  // namespace hpart::capi

struct hpart_points_s {
  static constexpr hpart::capi::Kind kind = hpart::capi::Kind::points;
  int dim = 3;
  std::int64_t n = 0;
  const double* coords = nullptr;
  const double* weights = nullptr;
  int ncon = 1;
  const std::int64_t* ids = nullptr;
  const std::int32_t* ids32 = nullptr;           // or 32-bit ids (read in place)
  std::unique_ptr<hpart::PointFile> file;        // a point set read from a file
  [[nodiscard]] hpart::PointSet view() const;
};

struct hpart_grid_s {
  static constexpr hpart::capi::Kind kind = hpart::capi::Kind::grid;
  hpart::Grid grid;
};

struct hpart_graph_s {
  static constexpr hpart::capi::Kind kind = hpart::capi::Kind::graph;
  hpart::Graph g;          // what the partitioners see: the caller's arrays or `owned`'s
  hpart::GraphFile owned;  // a 32-bit vtxdist widened, or a graph read from a file
};

struct hpart_partition_s {
  static constexpr hpart::capi::Kind kind = hpart::capi::Kind::partition;
  hpart::Partition flat;                        // every kind but grids
  std::unique_ptr<hpart::GridPartition> grid;   // grids (kept whole: repartition_grid needs it)
  hpart::Box domain;                            // grids: the whole grid
  std::unique_ptr<hpart::HierPartition> hier;   // hierarchical points (kept whole for their map)
  std::unique_ptr<hpart::HierGridPartition> hier_grid;  // hierarchical grids (likewise)
  std::vector<std::int64_t> sizes;              // part_sizes as int64_t
  std::vector<std::int32_t> owners;             // rank of every part
  std::optional<hpart::GraphMetrics> cut;
  std::optional<hpart::MigrationStats> migrated;  // repartitions
  bool from_scratch = false;
  int steps = 0;
  double surface_growth = 0.0;
  // Grid results, flat or hierarchical (NULL for other kinds).
  [[nodiscard]] const hpart::GridPartition* grid_part() const { return grid ? grid.get() : hier_grid.get(); }
  [[nodiscard]] const hpart::Partition& base() const {
    if (grid) return *grid;
    if (hier_grid) return *hier_grid;
    if (hier) return *hier;
    return flat;
  }
};

struct hpart_rebalancer_s {
  static constexpr hpart::capi::Kind kind = hpart::capi::Kind::rebalancer;
  explicit hpart_rebalancer_s(MPI_Comm c) : comm(c) {}
  hpart::Comm comm;  // the Rebalancer borrows it: it lives as long as the handle
  std::unique_ptr<hpart::Rebalancer> rb;
};

struct hpart_map_s {
  static constexpr hpart::capi::Kind kind = hpart::capi::Kind::map;
  hpart::PartitionMap map;
};

struct hpart_migration_s {
  static constexpr hpart::capi::Kind kind = hpart::capi::Kind::migration;
  std::unique_ptr<hpart::Migration> plan;
  std::vector<std::int32_t> destinations;
  MPI_Comm comm = MPI_COMM_NULL;  // the caller's, which the plan was built on
};

namespace hpart::capi {

// A result handle over a partition (its owners: p * R / K blocks, or `owners` when given).
hpart_partition* wrap(Partition&& p, int ranks, std::vector<int> owners = {});
hpart_partition* wrap(GridPartition&& p, int ranks);
hpart_partition* wrap_graph(GraphPartition&& p, int ranks);
hpart_partition* wrap(HierPartition&& p, int ranks);
hpart_partition* wrap(HierGridPartition&& p, int ranks);

// The C option structs as the C++ ones (checked: size and enums, by check_* in the caller).
PointOptions point_options(const hpart_point_options& o);
HierPointOptions hier_point_options(const hpart_hier_point_options& o);
void check_point_options(Check& check, const hpart_point_options* opts);
void check_hier_point_options(Check& check, const hpart_hier_point_options* opts);

}  // namespace hpart::capi
