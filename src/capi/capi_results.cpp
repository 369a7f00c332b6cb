// The C API's result handle: local getters over an hpart_partition.
#include <algorithm>
#include <cmath>

#include "capi/capi.hpp"

using namespace hpart::capi;

namespace {

// Checks the partition handle and one output pointer.
void need_result(const char* fn, const hpart_partition* p, const void* outp, const char* name) {
  Check(fn).handle(p, Kind::partition, "p").need(outp != nullptr, std::string(name) + " is NULL").local();
}

void fill_metrics(const hpart_partition& h, hpart_metrics& m) {
  const hpart::Partition& b = h.base();
  m.num_parts = b.num_parts;
  m.ncon = b.ncon;
  m.objects = b.metrics.objects;
  m.empty_parts = b.metrics.empty_parts;
  m.imbalance = b.metrics.imbalance.empty() ? 0.0 : b.metrics.imbalance[0];
  m.max_imbalance = b.metrics.imbalance.empty()
                        ? 0.0
                        : *std::max_element(b.metrics.imbalance.begin(), b.metrics.imbalance.end());
  m.seconds = b.metrics.seconds;
  m.tolerance = b.metrics.tolerance;
  m.within_tolerance = b.metrics.within_tolerance ? 1 : 0;
  m.has_cut = h.cut ? 1 : 0;
  if (h.cut) {
    m.edge_cut = h.cut->edge_cut;
    m.comm_volume = h.cut->comm_volume;
    m.boundary_vertices = h.cut->boundary_vertices;
  }
  m.is_repartition = h.migrated ? 1 : 0;
  if (h.migrated) {
    m.migrated_objects = h.migrated->objects;
    m.migrated_weight = h.migrated->weight;
    m.from_scratch = h.from_scratch ? 1 : 0;
    m.steps = h.steps;
    m.surface_growth = h.surface_growth;
  }
}

}  // namespace

extern "C" {

hpart_status hpart_partition_metrics(const hpart_partition* p, hpart_metrics* m) {
  return guard([&] {
    Check("hpart_partition_metrics").handle(p, Kind::partition, "p").sized(m, "m", "hpart_metrics_init").local();
    *m = hpart_metrics{};
    m->size = sizeof(hpart_metrics);
    fill_metrics(*p, *m);
  });
}

hpart_status hpart_partition_num_parts(const hpart_partition* p, int* num_parts) {
  return guard([&] {
    need_result("hpart_partition_num_parts", p, num_parts, "num_parts");
    *num_parts = p->base().num_parts;
  });
}

hpart_status hpart_partition_local_size(const hpart_partition* p, int64_t* n) {
  return guard([&] {
    need_result("hpart_partition_local_size", p, n, "n");
    *n = static_cast<int64_t>(p->base().parts.size());
  });
}

hpart_status hpart_partition_parts(const hpart_partition* p, const int32_t** parts) {
  return guard([&] {
    need_result("hpart_partition_parts", p, parts, "parts");
    *parts = p->base().parts.data();
  });
}

hpart_status hpart_partition_get_parts_i32(const hpart_partition* p, int32_t* parts) {
  return guard([&] {
    Check("hpart_partition_get_parts_i32").handle(p, Kind::partition, "p").local();
    const auto& v = p->base().parts;
    Check("hpart_partition_get_parts_i32").array(parts, std::ssize(v), "parts").local();
    std::copy(v.begin(), v.end(), parts);
  });
}

hpart_status hpart_partition_get_parts_i64(const hpart_partition* p, int64_t* parts) {
  return guard([&] {
    Check("hpart_partition_get_parts_i64").handle(p, Kind::partition, "p").local();
    const auto& v = p->base().parts;
    Check("hpart_partition_get_parts_i64").array(parts, std::ssize(v), "parts").local();
    std::copy(v.begin(), v.end(), parts);
  });
}

hpart_status hpart_partition_part_weights(const hpart_partition* p, const double** weights) {
  return guard([&] {
    need_result("hpart_partition_part_weights", p, weights, "weights");
    *weights = p->base().part_weights.data();
  });
}

hpart_status hpart_partition_part_sizes(const hpart_partition* p, const int64_t** sizes) {
  return guard([&] {
    need_result("hpart_partition_part_sizes", p, sizes, "sizes");
    *sizes = p->sizes.data();
  });
}

hpart_status hpart_partition_imbalance(const hpart_partition* p, int c, double* imbalance) {
  return guard([&] {
    need_result("hpart_partition_imbalance", p, imbalance, "imbalance");
    const auto& v = p->base().metrics.imbalance;
    Check("hpart_partition_imbalance")
        .need(c >= 0 && static_cast<std::size_t>(c) < v.size(),
              "c is " + std::to_string(c) + ", must be in [0, " + std::to_string(v.size()) + ")")
        .local();
    *imbalance = v[static_cast<std::size_t>(c)];
  });
}

hpart_status hpart_partition_owners(const hpart_partition* p, const int32_t** owner_of_part) {
  return guard([&] {
    need_result("hpart_partition_owners", p, owner_of_part, "owner_of_part");
    *owner_of_part = p->owners.data();
  });
}

hpart_status hpart_partition_box(const hpart_partition* p, int32_t part, int64_t* lo, int64_t* hi) {
  return guard([&] {
    need_result("hpart_partition_box", p, lo, "lo");
    Check("hpart_partition_box").need(hi != nullptr, "hi is NULL").local();
    const hpart::GridPartition* g = p->grid_part();
    if (!g) throw CError{HPART_ERR_UNSUPPORTED, "hpart_partition_box: p is not a grid partition"};
    Check("hpart_partition_box")
        .need(part >= 0 && static_cast<std::size_t>(part) < g->boxes.size(),
              "part is " + std::to_string(part) + ", must be in [0, " + std::to_string(g->boxes.size()) + ")")
        .local();
    const hpart::Box& b = g->boxes[static_cast<std::size_t>(part)];
    for (int d = 0; d < b.dim; ++d) lo[d] = b.lo[static_cast<std::size_t>(d)], hi[d] = b.hi[static_cast<std::size_t>(d)];
  });
}

hpart_status hpart_partition_part_of_cell(const hpart_partition* p, const int64_t* cell, int32_t* part) {
  return guard([&] {
    need_result("hpart_partition_part_of_cell", p, cell, "cell");
    Check("hpart_partition_part_of_cell").need(part != nullptr, "part is NULL").local();
    const hpart::GridPartition* g = p->grid_part();
    if (!g) throw CError{HPART_ERR_UNSUPPORTED, "hpart_partition_part_of_cell: p is not a grid partition"};
    hpart::Cell c{};
    for (int d = 0; d < p->domain.dim; ++d) c[static_cast<std::size_t>(d)] = cell[d];
    // The locators assume a cell of the grid: one outside is refused, not looked up.
    Check("hpart_partition_part_of_cell").need(p->domain.contains(c), "the cell is outside the grid").local();
    *part = g->part_of(c);
  });
}

hpart_status hpart_partition_free(hpart_partition** p) { return free_handle(p, "hpart_partition_free"); }

}  // extern "C"
