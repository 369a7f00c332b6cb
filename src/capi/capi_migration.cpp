// The C API's migration plans: a handle over hpart::Migration (which holds the communicator)
// and the destination rank of each local object (the export list).
#include <span>

#include "capi/capi.hpp"

using namespace hpart::capi;

namespace {

struct PlanArgs {
  const int32_t* parts;
  std::int64_t n;
  int num_parts;
  const int32_t* owner_of_part;
  const int64_t* ids;
  std::string problem = {};  // found by the caller before (a bad partition handle, a bad part id)
};

hpart_status make_plan(const char* fn, MPI_Comm comm, const PlanArgs& a, hpart_migration** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check check(fn);
    check.need(a.problem.empty(), a.problem).need(out != nullptr, "out is NULL").array(a.parts, a.n, "parts");
    check.need(a.num_parts >= 1, "num_parts is " + std::to_string(a.num_parts) + ", must be >= 1");
    const hpart::Comm c = check.agreed(comm);
    const auto n = static_cast<std::size_t>(a.n);
    const std::span<const hpart::part_t> parts(a.parts, n);
    const std::span<const hpart::gid_t> ids = a.ids ? std::span<const hpart::gid_t>(a.ids, n) : std::span<const hpart::gid_t>{};
    auto h = std::make_unique<hpart_migration>();
    std::vector<int> owners;
    if (a.owner_of_part)
      owners.assign(a.owner_of_part, a.owner_of_part + a.num_parts);
    else
      for (int p = 0; p < a.num_parts; ++p) owners.push_back(hpart::PartOwners{a.num_parts, c.size()}.owner(p));
    // The plan checks the part ids and the owners (the same error on every rank) before the
    // destinations below read them.
    h->plan = std::make_unique<hpart::Migration>(c, parts, std::span<const int>(owners), ids);
    h->destinations.resize(n);
    for (std::size_t i = 0; i < n; ++i) h->destinations[i] = owners[static_cast<std::size_t>(parts[i])];
    h->comm = comm;
    register_handle(h.get(), Kind::migration, comm);
    *out = h.release();
  });
}

// As the Rebalancer's: a freed plan's tombstone joins its peers' agreement, and so does a NULL or
// foreign one when this rank's plans share one communicator.
const hpart_migration& live(const hpart_migration* m, const char* fn) {
  const MPI_Comm tomb = m ? tombstone_comm(m, Kind::migration) : MPI_COMM_NULL;
  if (tomb != MPI_COMM_NULL) Check(fn).need(false, "m is freed").agreed(tomb);
  if (m == nullptr || !is_live(m, Kind::migration)) {
    const MPI_Comm peers = only_comm(Kind::migration);
    Check check(fn);
    check.handle(m, Kind::migration, "m");
    if (peers != MPI_COMM_NULL) check.agreed(peers);
    check.local();
  }
  return *m;
}

template <class F>
hpart_status getter(const char* fn, const hpart_migration* m, const void* outp, F&& f) {
  return guard([&] {
    Check(fn).handle(m, Kind::migration, "m").need(outp != nullptr, "the output pointer is NULL").local();
    f(*m->plan);
  });
}

}  // namespace

extern "C" {

hpart_status hpart_migration_create(MPI_Comm comm, const int32_t* parts, int64_t n, int num_parts,
                                    const int32_t* owner_of_part, const int64_t* ids, hpart_migration** out) {
  return make_plan("hpart_migration_create", comm, {parts, n, num_parts, owner_of_part, ids}, out);
}

hpart_status hpart_migration_create_i64(MPI_Comm comm, const int64_t* parts, int64_t n, int num_parts,
                                        const int32_t* owner_of_part, const int64_t* ids, hpart_migration** out) {
  // hpart's part ids are 32-bit: the 64-bit ones are narrowed into a copy here. A problem found
  // on the way still joins the plan's agreement, so that every rank reports it.
  std::vector<int32_t> narrow;
  std::string problem;
  if (n < 0 || (n > 0 && parts == nullptr)) {
    problem = n < 0 ? "the length of parts is negative (" + std::to_string(n) + ")" : "parts is NULL";
  } else {
    narrow.resize(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < narrow.size(); ++i) {
      if (parts[i] < 0 || parts[i] > INT32_MAX) {
        if (problem.empty()) problem = "parts[" + std::to_string(i) + "] = " + std::to_string(parts[i]) + " is not a part id";
        continue;
      }
      narrow[i] = static_cast<int32_t>(parts[i]);
    }
  }
  return make_plan("hpart_migration_create_i64", comm,
                   {narrow.data(), static_cast<std::int64_t>(narrow.size()), num_parts, owner_of_part, ids, problem}, out);
}

hpart_status hpart_migration_from_partition(MPI_Comm comm, const hpart_partition* p, const int64_t* ids,
                                            hpart_migration** out) {
  if (p == nullptr || !is_live(p, Kind::partition))  // agreed in make_plan
    return make_plan("hpart_migration_from_partition", comm,
                     {nullptr, 0, 1, nullptr, nullptr, p ? "p is freed or not an hpart_partition" : "p is NULL"}, out);
  const hpart::Partition& b = p->base();
  return make_plan("hpart_migration_from_partition", comm,
                   {b.parts.data(), static_cast<std::int64_t>(b.parts.size()), b.num_parts, p->owners.data(), ids}, out);
}

hpart_status hpart_migration_num_imports(const hpart_migration* m, int64_t* n) {
  return getter("hpart_migration_num_imports", m, n, [&](const hpart::Migration& g) { *n = static_cast<int64_t>(g.num_imports()); });
}

hpart_status hpart_migration_num_exports(const hpart_migration* m, int64_t* n) {
  return getter("hpart_migration_num_exports", m, n, [&](const hpart::Migration& g) { *n = static_cast<int64_t>(g.num_exports()); });
}

hpart_status hpart_migration_send_counts(const hpart_migration* m, const int** counts) {
  return getter("hpart_migration_send_counts", m, counts, [&](const hpart::Migration& g) { *counts = g.send_counts().data(); });
}

hpart_status hpart_migration_recv_counts(const hpart_migration* m, const int** counts) {
  return getter("hpart_migration_recv_counts", m, counts, [&](const hpart::Migration& g) { *counts = g.recv_counts().data(); });
}

hpart_status hpart_migration_destinations(const hpart_migration* m, const int32_t** ranks) {
  return getter("hpart_migration_destinations", m, ranks, [&](const hpart::Migration&) { *ranks = m->destinations.data(); });
}

hpart_status hpart_migration_imported_ids(const hpart_migration* m, const int64_t** ids) {
  return getter("hpart_migration_imported_ids", m, ids, [&](const hpart::Migration& g) {
    *ids = g.imported_ids().empty() ? nullptr : g.imported_ids().data();
  });
}

hpart_status hpart_migration_move(const hpart_migration* m, const void* in, int64_t n, size_t record_size, void* out,
                                  int64_t out_capacity) {
  return guard([&] {
    const hpart_migration& h = live(m, "hpart_migration_move");
    const auto imports = static_cast<std::int64_t>(h.plan->num_imports());
    Check check("hpart_migration_move");
    check.need(record_size > 0, "record_size is 0").array(in, n, "in").array(out, imports, "out");
    check.need(out_capacity >= imports, "out has room for " + std::to_string(out_capacity) + " records, " +
                                            std::to_string(imports) + " arrive");
    check.agreed(h.comm);
    h.plan->move_records(in, static_cast<std::size_t>(n), record_size, out);
  });
}

hpart_status hpart_migration_free(hpart_migration** m) { return free_handle(m, "hpart_migration_free"); }

}  // extern "C"
