// The C API's file readers and writers: the C++ readers' results held by handles.
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "capi/capi.hpp"
#include "hpart/hdf5.hpp"

using namespace hpart::capi;

namespace {

hpart_points* points_of(hpart::PointFile&& f) {
  auto h = std::make_unique<hpart_points>();
  h->file = std::make_unique<hpart::PointFile>(std::move(f));
  const hpart::PointFile& p = *h->file;
  h->dim = p.dim;
  h->n = static_cast<std::int64_t>(p.size());
  h->coords = p.coords.empty() ? nullptr : p.coords.data();
  h->weights = p.weighted && !p.weights.empty() ? p.weights.data() : nullptr;
  h->ids = p.ids.empty() ? nullptr : p.ids.data();
  register_handle(h.get(), Kind::points);
  return h.release();
}

// The path and out pointer of a reader, agreed (the C++ readers compare the paths themselves).
hpart::Comm reader_args(const char* fn, MPI_Comm comm, const char* path, const void* out) {
  return Check(fn).need(path != nullptr, "path is NULL").need(out != nullptr, "out is NULL").agreed(comm);
}

// The graph readers: one C++ reader's GraphFile, owned by the handle.
hpart_status read_graph(const char* fn, MPI_Comm comm, const char* path, hpart_graph** out,
                        hpart::GraphFile (*reader)(const hpart::Comm&, const std::string&)) {
  return guard([&] {
    if (out) *out = nullptr;
    const hpart::Comm c = reader_args(fn, comm, path, out);
    auto h = std::make_unique<hpart_graph>();
    h->owned = reader(c, path);
    h->g = h->owned.view();
    register_handle(h.get(), Kind::graph);
    *out = h.release();
  });
}

}  // namespace

extern "C" {

hpart_status hpart_read_points_text(MPI_Comm comm, const char* path, int dim, hpart_points** out) {
  return guard([&] {
    if (out) *out = nullptr;
    const hpart::Comm c = reader_args("hpart_read_points_text", comm, path, out);
    *out = points_of(hpart::read_points_text(c, path, dim));
  });
}

hpart_status hpart_read_points_h5(MPI_Comm comm, const char* path, hpart_points** out) {
  return guard([&] {
    if (out) *out = nullptr;
    const hpart::Comm c = reader_args("hpart_read_points_h5", comm, path, out);
    *out = points_of(hpart::read_points_h5(c, path));
  });
}

hpart_status hpart_read_graph_metis(MPI_Comm comm, const char* path, hpart_graph** out) {
  return read_graph("hpart_read_graph_metis", comm, path, out, hpart::read_graph_metis);
}

hpart_status hpart_read_graph_matrix_market(MPI_Comm comm, const char* path, hpart_graph** out) {
  return read_graph("hpart_read_graph_matrix_market", comm, path, out, hpart::read_graph_matrix_market);
}

hpart_status hpart_read_graph_chaco(MPI_Comm comm, const char* path, hpart_graph** out) {
  return read_graph("hpart_read_graph_chaco", comm, path, out, hpart::read_graph_chaco);
}

hpart_status hpart_write_parts_text(MPI_Comm comm, const char* path, const int32_t* parts, int64_t n) {
  return guard([&] {
    const hpart::Comm c =
        Check("hpart_write_parts_text").need(path != nullptr, "path is NULL").array(parts, n, "parts").agreed(comm);
    hpart::write_parts_text(c, path, std::span<const hpart::part_t>(parts, static_cast<std::size_t>(n)));
  });
}

hpart_status hpart_write_partition_h5(MPI_Comm comm, const char* path, const hpart_partition* p, const int64_t* ids,
                                      const hpart_points* points) {
  return guard([&] {
    Check check("hpart_write_partition_h5");
    check.need(path != nullptr, "path is NULL").handle(p, Kind::partition, "p");
    if (points != nullptr) check.handle(points, Kind::points, "points");
    // write_partition_h5 agrees on the rest (summary, ids given alike, points on every rank or
    // none, their sizes) once the handles are known good on every rank.
    const hpart::Comm c = check.agreed(comm);
    const hpart::Partition& part = p->base();
    std::span<const hpart::gid_t> id_span;
    if (ids != nullptr) id_span = {ids, part.parts.size()};
    if (points == nullptr) {
      hpart::write_partition_h5(c, path, part, id_span, nullptr);
    } else {
      const hpart::PointSet view = points->view();
      hpart::write_partition_h5(c, path, part, id_span, &view);
    }
  });
}

hpart_status hpart_read_parts_h5(MPI_Comm comm, const char* path, const char* dataset, int32_t* parts,
                                 int64_t capacity, int64_t* n) {
  return guard([&] {
    const hpart::Comm c = Check("hpart_read_parts_h5")
                              .need(path != nullptr, "path is NULL")
                              .need(n != nullptr, "n is NULL")
                              .array(parts, capacity, "parts")
                              .agreed(comm);
    const std::vector<hpart::part_t> got =
        hpart::read_parts_h5(c, path, dataset != nullptr && dataset[0] != '\0' ? dataset : "/parts");
    *n = static_cast<int64_t>(got.size());
    const std::size_t k = std::min(got.size(), static_cast<std::size_t>(capacity));
    std::copy_n(got.begin(), k, parts);
  });
}

}  // extern "C"
