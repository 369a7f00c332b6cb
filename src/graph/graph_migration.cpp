#include "hpart/graph_migration.hpp"

#include <mpi.h>

#include <cstring>
#include <string>

#include "core/agreement.hpp"
#include "metrics/check_vertex_parts.hpp"
#include "core/ghost_exchange.hpp"

namespace hpart {
namespace {

template <class T>
void put(std::vector<unsigned char>& out, const T* v, std::size_t count) {
  const std::size_t at = out.size();
  out.resize(at + count * sizeof(T));
  std::memcpy(out.data() + at, v, count * sizeof(T));
}
template <class T>
const unsigned char* get(const unsigned char* in, T* v, std::size_t count) {
  std::memcpy(v, in, count * sizeof(T));
  return in + count * sizeof(T);
}

// The move itself, once the plan exists. dest[v]: the rank vertex v goes to.
MigratedGraph migrate(const Comm& comm, const Graph& g, std::span<const part_t> parts, const Migration& m,
                      std::span<const int> dest) {
  const int R = comm.size(), me = comm.rank();
  const std::size_t n = g.local_vertices();
  const gid_t first = g.vtxdist[static_cast<std::size_t>(me)];
  // The new blocks: rank r keeps what it imports, in arrival order.
  MigratedGraph out;
  GraphFile& f = out.graph;
  f.vtxdist.assign(static_cast<std::size_t>(R) + 1, 0);
  long long mine = static_cast<long long>(m.num_imports());
  MPI_Allgather(&mine, 1, MPI_LONG_LONG, f.vtxdist.data() + 1, 1, MPI_LONG_LONG, comm.get());
  for (int r = 0; r < R; ++r) f.vtxdist[static_cast<std::size_t>(r) + 1] += f.vtxdist[static_cast<std::size_t>(r)];
  // A vertex's new id: its destination's block start, plus what lower ranks send there, plus
  // its position among this rank's vertices for that destination (arrival order).
  std::vector<long long> before(static_cast<std::size_t>(R), 0), sent(static_cast<std::size_t>(R));
  for (int r = 0; r < R; ++r) sent[static_cast<std::size_t>(r)] = m.send_counts()[static_cast<std::size_t>(r)];
  comm.exscan_sum<long long>(sent, before);
  std::vector<gid_t> new_id(n);
  for (std::size_t v = 0; v < n; ++v) {
    const auto r = static_cast<std::size_t>(dest[v]);
    new_id[v] = f.vtxdist[r] + before[r]++;
  }
  const graph::GhostExchange ghosts(comm, g);
  const std::vector<gid_t> ghost_new = ghosts.fetch<gid_t>(new_id);
  const graphk::HugeVector<std::int32_t>& local = ghosts.local_adjncy();

  // One record per vertex: old id, part, degree, weights, coordinates, neighbours, edge weights.
  const auto ncon = static_cast<std::size_t>(g.ncon), dim = static_cast<std::size_t>(g.dim);
  // Which optional arrays exist: a rank without vertices (or edges) has them empty either way,
  // so every rank takes the others' word for it.
  int has[3] = {g.vwgt.empty() ? 0 : 1, g.adjwgt.empty() ? 0 : 1, g.coords.empty() ? 0 : 1};
  MPI_Allreduce(MPI_IN_PLACE, has, 3, MPI_INT, MPI_MAX, comm.get());
  const bool vw = has[0] != 0, ew = has[1] != 0, xy = has[2] != 0;
  std::vector<std::size_t> sizes(n);
  std::vector<unsigned char> bytes;
  for (std::size_t v = 0; v < n; ++v) {
    const std::size_t at = bytes.size();
    const gid_t old_id = first + static_cast<gid_t>(v);
    const auto b = static_cast<std::size_t>(g.xadj[v]), e = static_cast<std::size_t>(g.xadj[v + 1]);
    const std::int64_t degree = static_cast<std::int64_t>(e - b);
    put(bytes, &old_id, 1);
    put(bytes, &parts[v], 1);
    put(bytes, &degree, 1);
    // A rank may leave its weights empty (unit) while others give them: send the units.
    if (vw) {
      for (std::size_t c = 0; c < ncon; ++c) {
        const std::int64_t w = g.vwgt.empty() ? 1 : g.vwgt[v * ncon + c];
        put(bytes, &w, 1);
      }
    }
    if (xy) put(bytes, &g.coords[v * dim], dim);
    for (std::size_t k = b; k < e; ++k) {
      const auto u = static_cast<std::size_t>(local[k]);
      const gid_t id = u < n ? new_id[u] : ghost_new[u - n];
      put(bytes, &id, 1);
    }
    if (ew) {
      for (std::size_t k = b; k < e; ++k) {
        const std::int64_t w = g.adjwgt.empty() ? 1 : g.adjwgt[k];
        put(bytes, &w, 1);
      }
    }
    sizes[v] = bytes.size() - at;
  }
  const VariableRecords in = m.move_variable(sizes, bytes);

  const std::size_t n_new = in.size();
  f.ncon = g.ncon;
  f.dim = g.dim;
  f.xadj.assign(n_new + 1, 0);
  out.old_ids.resize(n_new);
  out.parts.resize(n_new);
  if (vw) f.vwgt.resize(n_new * ncon);
  if (xy) f.coords.resize(n_new * dim);
  for (std::size_t k = 0; k < n_new; ++k) {
    const unsigned char* p = in.record(k).data();
    std::int64_t degree = 0;
    p = get(p, &out.old_ids[k], 1);
    p = get(p, &out.parts[k], 1);
    p = get(p, &degree, 1);
    if (vw) p = get(p, &f.vwgt[k * ncon], ncon);
    if (xy) p = get(p, &f.coords[k * dim], dim);
    const auto d = static_cast<std::size_t>(degree);
    const std::size_t at = f.adjncy.size();
    f.adjncy.resize(at + d);
    p = get(p, f.adjncy.data() + at, d);
    if (ew) {
      f.adjwgt.resize(at + d);
      get(p, f.adjwgt.data() + at, d);
    }
    f.xadj[k + 1] = static_cast<std::int64_t>(f.adjncy.size());
  }
  f.global_vertices = f.vtxdist.back();
  long long entries = static_cast<long long>(f.adjncy.size());
  MPI_Allreduce(MPI_IN_PLACE, &entries, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  f.global_edges = entries / 2;
  // The vertices that arrived from other ranks and their first weight (arrivals are grouped by
  // source rank in rank order, so this rank's own stay in one run).
  std::size_t own_from = 0;
  for (int r = 0; r < comm.rank(); ++r) own_from += static_cast<std::size_t>(m.recv_counts()[static_cast<std::size_t>(r)]);
  const std::size_t own_to = own_from + static_cast<std::size_t>(m.recv_counts()[static_cast<std::size_t>(comm.rank())]);
  double moved_weight = 0.0;
  for (std::size_t k = 0; k < n_new; ++k)
    if (k < own_from || k >= own_to) moved_weight += vw ? static_cast<double>(f.vwgt[k * ncon]) : 1.0;
  MPI_Allreduce(MPI_IN_PLACE, &moved_weight, 1, MPI_DOUBLE, MPI_SUM, comm.get());
  out.migrated = {m.migrated().objects, moved_weight};
  out.bytes_sent = m.bytes_sent();
  return out;
}

}  // namespace

MigratedGraph migrate_graph(const Comm& comm, const Graph& g, std::span<const part_t> parts, PartOwners owners) {
  validate_graph(comm, g);
  // The parts are checked against the same number of parts on every rank (the Migration then
  // checks the owner map itself).
  detail::Replicated args;
  args.value("migrate_graph: owners.num_parts", static_cast<long long>(owners.num_parts))
      .value("migrate_graph: owners.num_ranks", static_cast<long long>(owners.num_ranks));
  graph::check_vertex_parts(comm, g, parts, owners.num_parts, "migrate_graph", args,
                            owners.num_parts < 1 ? "owners.num_parts must be >= 1" : "");
  const Migration m(comm, parts, owners);
  std::vector<int> dest(parts.size());
  for (std::size_t v = 0; v < parts.size(); ++v) dest[v] = owners.owner(parts[v]);
  return migrate(comm, g, parts, m, dest);
}

MigratedGraph migrate_graph(const Comm& comm, const Graph& g, std::span<const part_t> parts,
                            std::span<const int> owner_of_part) {
  validate_graph(comm, g);
  detail::Replicated args;
  args.value("migrate_graph: the number of parts (owner_of_part's length)", static_cast<long long>(owner_of_part.size()));
  graph::check_vertex_parts(comm, g, parts, static_cast<int>(owner_of_part.size()), "migrate_graph", args,
                            owner_of_part.empty() ? "the part owner map is empty" : "");
  const Migration m(comm, parts, owner_of_part);  // checks the owners are ranks of comm
  std::vector<int> dest(parts.size());
  for (std::size_t v = 0; v < parts.size(); ++v) dest[v] = owner_of_part[static_cast<std::size_t>(parts[v])];
  return migrate(comm, g, parts, m, dest);
}

}  // namespace hpart
