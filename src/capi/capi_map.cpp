// The C API's point and box assign: a handle over hpart::PartitionMap (assign.hpp). Made
// collectively from a partition handle; every query is local.
#include <algorithm>
#include <span>

#include "capi/capi.hpp"

using namespace hpart::capi;

namespace {

hpart_map* map_handle(hpart::PartitionMap&& m) {
  hpart_map* h = make_handle<hpart_map>();
  h->map = std::move(m);
  return h;
}

bool live_partition(const hpart_partition* p) { return p && is_live(p, Kind::partition); }

std::span<const double> coordinate(const hpart_map& m, const double* x) {
  return {x, static_cast<std::size_t>(m.map.dim())};
}

// A local query: the map and the outputs checked, then f.
template <class F>
hpart_status query(const char* fn, const hpart_map* m, const void* x, const void* outp, F&& f) {
  return guard([&] {
    Check(fn)
        .handle(m, Kind::map, "map")
        .need(x != nullptr, "the coordinate is NULL")
        .need(outp != nullptr, "the output pointer is NULL")
        .local();
    f(*m);
  });
}

template <class T>
void copy_list(const std::vector<T>& v, T* out, int64_t capacity, int64_t* count) {
  *count = static_cast<int64_t>(v.size());
  std::copy_n(v.begin(), std::min<int64_t>(capacity, *count), out);
}

}  // namespace

extern "C" {

hpart_status hpart_map_create_points(MPI_Comm comm, const hpart_points* points, const hpart_point_options* opts,
                                     const hpart_partition* p, hpart_map** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check check("hpart_map_create_points");
    check.need(out != nullptr, "out is NULL").handle(points, Kind::points, "points").handle(p, Kind::partition, "p");
    check_point_options(check, opts);
    const hpart::Comm c = check.agreed(comm);
    *out = map_handle(hpart::map_of(c, points->view(), point_options(*opts), p->base()));
  });
}

hpart_status hpart_map_create_points_hierarchical(MPI_Comm comm, const hpart_points* points,
                                                  const hpart_hier_point_options* opts, const hpart_partition* p,
                                                  hpart_map** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check check("hpart_map_create_points_hierarchical");
    check.need(out != nullptr, "out is NULL").handle(points, Kind::points, "points").handle(p, Kind::partition, "p");
    if (live_partition(p)) check.need(p->hier != nullptr, "p is not a hierarchical point partition");
    check_hier_point_options(check, opts);
    const hpart::Comm c = check.agreed(comm);
    *out = map_handle(hpart::map_of(c, points->view(), hier_point_options(*opts), *p->hier));
  });
}

hpart_status hpart_map_create_grid(MPI_Comm comm, const hpart_grid* grid, const hpart_partition* p, hpart_map** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check check("hpart_map_create_grid");
    check.need(out != nullptr, "out is NULL").handle(grid, Kind::grid, "grid").handle(p, Kind::partition, "p");
    if (live_partition(p)) check.need(p->grid_part() != nullptr, "p is not a grid partition");
    const hpart::Comm c = check.agreed(comm);
    *out = map_handle(p->hier_grid ? hpart::map_of(c, grid->grid, *p->hier_grid) : hpart::map_of(c, grid->grid, *p->grid));
  });
}

hpart_status hpart_map_dim(const hpart_map* map, int* dim) {
  return query("hpart_map_dim", map, dim, dim, [&](const hpart_map& m) { *dim = m.map.dim(); });
}

hpart_status hpart_map_num_parts(const hpart_map* map, int* num_parts) {
  return query("hpart_map_num_parts", map, num_parts, num_parts,
               [&](const hpart_map& m) { *num_parts = m.map.num_parts(); });
}

hpart_status hpart_map_part_of(const hpart_map* map, const double* x, int32_t* part) {
  return query("hpart_map_part_of", map, x, part, [&](const hpart_map& m) { *part = m.map.part_of(coordinate(m, x)); });
}

hpart_status hpart_map_part_of_id(const hpart_map* map, const double* x, int64_t id, int32_t* part) {
  return query("hpart_map_part_of_id", map, x, part,
               [&](const hpart_map& m) { *part = m.map.part_of(coordinate(m, x), id); });
}

hpart_status hpart_map_rank_of(const hpart_map* map, const double* x, int* rank) {
  return query("hpart_map_rank_of", map, x, rank, [&](const hpart_map& m) { *rank = m.map.rank_of(coordinate(m, x)); });
}

hpart_status hpart_map_rank_of_id(const hpart_map* map, const double* x, int64_t id, int* rank) {
  return query("hpart_map_rank_of_id", map, x, rank,
               [&](const hpart_map& m) { *rank = m.map.rank_of_part(m.map.part_of(coordinate(m, x), id)); });
}

hpart_status hpart_map_rank_of_part(const hpart_map* map, int32_t part, int* rank) {
  return query("hpart_map_rank_of_part", map, rank, rank, [&](const hpart_map& m) {
    Check("hpart_map_rank_of_part")
        .need(part >= 0 && part < m.map.num_parts(),
              "part is " + std::to_string(part) + ", must be in [0, " + std::to_string(m.map.num_parts()) + ")")
        .local();
    *rank = m.map.rank_of_part(part);
  });
}

hpart_status hpart_map_assign(const hpart_map* map, int64_t n, const double* coords, const int64_t* ids,
                              int32_t* parts) {
  return guard([&] {
    Check("hpart_map_assign").handle(map, Kind::map, "map").local();
    const int dim = map->map.dim();
    Check("hpart_map_assign").array(coords, n * dim, "coords").array(parts, n, "parts").local();
    const auto un = static_cast<std::size_t>(n);
    const std::span<const double> c(coords, un * static_cast<std::size_t>(dim));
    const std::span<hpart::part_t> out(parts, un);
    if (ids)
      map->map.assign(c, std::span<const hpart::gid_t>(ids, un), out);
    else
      map->map.assign(c, out);
  });
}

hpart_status hpart_map_parts_in_box(const hpart_map* map, const double* lo, const double* hi, int32_t* parts,
                                    int64_t capacity, int64_t* count) {
  return query("hpart_map_parts_in_box", map, lo, count, [&](const hpart_map& m) {
    Check("hpart_map_parts_in_box").need(hi != nullptr, "hi is NULL").array(parts, capacity, "parts").local();
    copy_list(m.map.parts_in_box(coordinate(m, lo), coordinate(m, hi)), parts, capacity, count);
  });
}

hpart_status hpart_map_ranks_in_box(const hpart_map* map, const double* lo, const double* hi, int* ranks,
                                    int64_t capacity, int64_t* count) {
  return query("hpart_map_ranks_in_box", map, lo, count, [&](const hpart_map& m) {
    Check("hpart_map_ranks_in_box").need(hi != nullptr, "hi is NULL").array(ranks, capacity, "ranks").local();
    copy_list(m.map.ranks_in_box(coordinate(m, lo), coordinate(m, hi)), ranks, capacity, count);
  });
}

hpart_status hpart_map_save(const hpart_map* map, const char* path) {
  return query("hpart_map_save", map, path, path, [&](const hpart_map& m) { m.map.save_file(path); });
}

hpart_status hpart_map_load(const char* path, hpart_map** out) {
  return guard([&] {
    Check("hpart_map_load").need(path != nullptr, "path is NULL").need(out != nullptr, "out is NULL").local();
    *out = nullptr;
    *out = map_handle(hpart::PartitionMap::load_file(path));
  });
}

hpart_status hpart_map_free(hpart_map** map) { return free_handle(map, "hpart_map_free"); }

}  // extern "C"
