// The C API's machinery: the registry of live handles, the last error, the argument checks
// agreed across ranks, and the status names.
#include <mutex>
#include <unordered_map>

#include "capi/capi.hpp"

namespace hpart::capi {

namespace {

// Every live handle's address and kind. A lookup never dereferences the pointer it is given, so
// a freed or foreign pointer is found out without undefined behaviour. (An address reused by a
// new handle of the same kind is that new handle: indistinguishable, and valid.)
struct Entry {
  Kind kind;
  bool freed = false;
  MPI_Comm comm = MPI_COMM_NULL;
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<const void*, Entry> live;
};

Registry& registry() {
  // Never destroyed: a handle freed by a static destructor after main returns still finds it.
  static Registry* r = new Registry;
  return *r;
}

thread_local std::string last_message;

}  // namespace

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::points: return "hpart_points";
    case Kind::grid: return "hpart_grid";
    case Kind::graph: return "hpart_graph";
    case Kind::partition: return "hpart_partition";
    case Kind::rebalancer: return "hpart_rebalancer";
    case Kind::migration: return "hpart_migration";
    case Kind::map: return "hpart_map";
  }
  return "hpart handle";
}

void register_handle(const void* h, Kind k, MPI_Comm comm) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  r.live[h] = Entry{k, false, comm};
}

void unregister_handle(const void* h) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  const auto it = r.live.find(h);
  if (it == r.live.end()) return;
  if (it->second.comm == MPI_COMM_NULL)
    r.live.erase(it);
  else
    it->second.freed = true;
}

bool is_live(const void* h, Kind k) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  const auto it = r.live.find(h);
  return it != r.live.end() && it->second.kind == k && !it->second.freed;
}

MPI_Comm tombstone_comm(const void* h, Kind k) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  const auto it = r.live.find(h);
  return it != r.live.end() && it->second.kind == k && it->second.freed ? it->second.comm : MPI_COMM_NULL;
}

hpart_status fail(hpart_status status, const std::string& message) {
  last_message = message;
  return status;
}

MPI_Comm only_comm(Kind k) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  MPI_Comm found = MPI_COMM_NULL;
  for (const auto& [address, e] : r.live) {
    if (e.kind != k || e.comm == MPI_COMM_NULL) continue;
    if (found != MPI_COMM_NULL && found != e.comm) return MPI_COMM_NULL;
    found = e.comm;
  }
  return found;
}

Check& Check::handle(const void* h, Kind k, const char* name) {
  if (h == nullptr) return need(false, std::string(name) + " is NULL");
  return need(is_live(h, k), std::string(name) + " is freed or not an " + kind_name(k));
}

Check& Check::array(const void* p, std::int64_t n, const char* name) {
  need(n >= 0, std::string("the length of ") + name + " is negative (" + std::to_string(n) + ")");
  return need(n <= 0 || p != nullptr, std::string(name) + " is NULL but " + std::to_string(n) + " values are due");
}

void Check::local() const {
  if (!problem_.empty()) throw Error(ErrorCode::invalid_argument, problem_);
}

Comm Check::agreed(MPI_Comm comm) const {
  if (comm == MPI_COMM_NULL) throw Error(ErrorCode::invalid_argument, std::string(fn_) + ": comm is MPI_COMM_NULL");
  Comm c(comm);
  agreed(c);
  return c;
}

void Check::agreed(const Comm& comm) const {
  comm.agree(problem_.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem_);
}

MPI_Comm from_fortran(MPI_Fint f, const char* fn) {
  const MPI_Comm c = MPI_Comm_f2c(f);
  if (c == MPI_COMM_NULL) throw Error(ErrorCode::invalid_argument, std::string(fn) + ": comm is MPI_COMM_NULL");
  return c;
}

namespace {

std::vector<std::int32_t> block_owners(int parts, int ranks) {
  std::vector<std::int32_t> owners(static_cast<std::size_t>(parts > 0 ? parts : 0));
  const PartOwners o{parts, ranks};
  for (std::size_t p = 0; p < owners.size(); ++p) owners[p] = o.owner(static_cast<part_t>(p));
  return owners;
}

void fill_tables(hpart_partition& h, int ranks, std::vector<int> owners) {
  const Partition& b = h.base();
  h.sizes.assign(b.part_sizes.begin(), b.part_sizes.end());
  if (owners.empty())
    h.owners = block_owners(b.num_parts, ranks);
  else
    h.owners.assign(owners.begin(), owners.end());
}

}  // namespace

hpart_partition* wrap(Partition&& p, int ranks, std::vector<int> owners) {
  auto h = std::make_unique<hpart_partition>();
  h->flat = std::move(p);
  fill_tables(*h, ranks, std::move(owners));
  register_handle(h.get(), Kind::partition);
  return h.release();
}

hpart_partition* wrap(GridPartition&& p, int ranks) {
  auto h = std::make_unique<hpart_partition>();
  h->grid = std::make_unique<GridPartition>(std::move(p));
  fill_tables(*h, ranks, {});
  register_handle(h.get(), Kind::partition);
  return h.release();
}

hpart_partition* wrap(HierPartition&& p, int ranks) {
  auto h = std::make_unique<hpart_partition>();
  std::vector<int> owners = p.owner_of_part;
  h->hier = std::make_unique<HierPartition>(std::move(p));
  fill_tables(*h, ranks, std::move(owners));
  register_handle(h.get(), Kind::partition);
  return h.release();
}

hpart_partition* wrap(HierGridPartition&& p, int ranks) {
  auto h = std::make_unique<hpart_partition>();
  std::vector<int> owners = p.owner_of_part;
  h->hier_grid = std::make_unique<HierGridPartition>(std::move(p));
  fill_tables(*h, ranks, std::move(owners));
  register_handle(h.get(), Kind::partition);
  return h.release();
}

hpart_partition* wrap_graph(GraphPartition&& p, int ranks) {
  const GraphMetrics cut = p.cut;
  hpart_partition* h = wrap(static_cast<Partition&&>(p), ranks);
  h->cut = cut;
  return h;
}

}  // namespace hpart::capi

extern "C" {

const char* hpart_last_error(void) { return hpart::capi::last_message.c_str(); }

const char* hpart_status_string(hpart_status status) {
  switch (status) {
    case HPART_OK: return "HPART_OK";
    case HPART_ERR_INVALID_ARGUMENT: return "HPART_ERR_INVALID_ARGUMENT";
    case HPART_ERR_INVALID_INPUT: return "HPART_ERR_INVALID_INPUT";
    case HPART_ERR_SIZE_MISMATCH: return "HPART_ERR_SIZE_MISMATCH";
    case HPART_ERR_IO: return "HPART_ERR_IO";
    case HPART_ERR_INTERNAL: return "HPART_ERR_INTERNAL";
    case HPART_ERR_MEMORY: return "HPART_ERR_MEMORY";
    case HPART_ERR_UNSUPPORTED: return "HPART_ERR_UNSUPPORTED";
    case HPART_ERR_MPI: return "HPART_ERR_MPI";
  }
  return "HPART_ERR_UNKNOWN_STATUS";
}

hpart_status hpart_comm_from_fortran(MPI_Fint fcomm, MPI_Comm* comm) {
  return hpart::capi::guard([&] {
    hpart::capi::Check("hpart_comm_from_fortran").need(comm != nullptr, "comm is NULL").local();
    *comm = hpart::capi::from_fortran(fcomm, "hpart_comm_from_fortran");
  });
}

}  // extern "C"
