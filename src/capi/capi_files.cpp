// The C API's file readers and writers: the C++ readers' results held by handles.
#include <span>

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
  return guard([&] {
    if (out) *out = nullptr;
    const hpart::Comm c = reader_args("hpart_read_graph_metis", comm, path, out);
    auto h = std::make_unique<hpart_graph>();
    h->owned = hpart::read_graph_metis(c, path);
    h->g = h->owned.view();
    register_handle(h.get(), Kind::graph);
    *out = h.release();
  });
}

hpart_status hpart_write_parts_text(MPI_Comm comm, const char* path, const int32_t* parts, int64_t n) {
  return guard([&] {
    const hpart::Comm c =
        Check("hpart_write_parts_text").need(path != nullptr, "path is NULL").array(parts, n, "parts").agreed(comm);
    hpart::write_parts_text(c, path, std::span<const hpart::part_t>(parts, static_cast<std::size_t>(n)));
  });
}

}  // extern "C"
