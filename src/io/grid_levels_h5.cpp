// /locator and the hierarchy's levels of a grid partition file (grid_levels_h5.hpp). The locator
// is stored as the text PartitionMap::save writes for it, through the same writer and reader
// (src/assign/locator_text.cpp), so every kind of grid partition, hierarchies included, has one
// saved form that is checked on load, and no second format to keep in step.
#include "io/grid_levels_h5.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "assign/grid_map.hpp"
#include "assign/map_text.hpp"
#include "hpart/error.hpp"

namespace hpart::detail {
namespace {

// An io verdict of `f`'s dataset `name`, agreed: the same Error on every rank when `ok` is false.
void agree_on(const H5File& f, bool ok, const std::string& name, const std::string& what) {
  f.comm().agree(ok ? ErrorCode::ok : ErrorCode::io, ok ? std::string() : f.where(name) + ": " + what);
}

// A replicated integer table: every rank reads the whole of it (it is O(K)).
std::vector<std::int64_t> read_table(const H5File& f, const H5Dataset& ds) {
  std::size_t n = 1;
  for (const hsize_t d : ds.dims) n *= static_cast<std::size_t>(d);
  std::vector<std::int64_t> v(n);
  f.read(ds, std::vector<hsize_t>(ds.dims.size(), 0), ds.dims, ds.exact_integer_type(), v.data());
  return v;
}

// An int32 attribute on the root group, or -1 when the file has none (or it does not read as one
// int32): the same answer on every rank (agreed by a min and a max).
int read_int_attribute(const H5File& f, const char* name) {
  int value = -1;
  if (H5Aexists(f.get(), name) > 0) {
    const H5Id attr(H5Aopen(f.get(), name, H5P_DEFAULT), H5Aclose);
    std::int32_t v = -1;
    if (attr.valid() && H5Aget_storage_size(attr.get()) == sizeof v && H5Aread(attr.get(), H5T_NATIVE_INT32, &v) >= 0)
      value = v;
  }
  return f.comm().min(value) == f.comm().max(value) ? value : -1;
}

}  // namespace

void write_grid_locator_h5(const H5File& f, const GridPartition& p) {
  // A partition assembled by hand may have no locator, or one of a kind without a saved form (the
  // same on every rank): the file then holds none and the reader infers the layout, as before.
  if (!p.locator && p.num_parts > 1) return;
  TextWriter w;
  try {
    write_locator(w, p.locator.get(), p.num_parts);
  } catch (const Error&) {
    return;
  }
  const std::string& text = w.text();
  const std::vector<unsigned char> bytes(text.begin(), text.end());
  const H5Dataset ds = f.create("/locator", H5T_STD_U8LE, {bytes.size()});
  const hsize_t count = f.comm().rank() == 0 ? bytes.size() : 0;
  f.write(ds, {0}, {count}, H5T_NATIVE_UCHAR, bytes.data());
}

std::string check_grid_levels(const HierGridPartition& p) {
  const auto K = static_cast<std::size_t>(p.num_parts);
  if (p.node_of_part.size() != K || (!p.owner_of_part.empty() && p.owner_of_part.size() != K))
    return "the partition has " + std::to_string(p.node_of_part.size()) + " node_of_part and " +
           std::to_string(p.owner_of_part.size()) + " owner_of_part entries for " + std::to_string(K) + " parts";
  for (const int n : p.node_of_part)
    if (n < 0 || static_cast<std::size_t>(n) >= p.node_boxes.size())
      return "node_of_part holds node " + std::to_string(n) + ", not one of its " + std::to_string(p.node_boxes.size()) +
             " node_boxes";
  return {};
}

void write_grid_levels_h5(const H5File& f, int dim, const HierGridPartition& p) {
  const auto K = static_cast<hsize_t>(p.num_parts);
  const auto D = static_cast<std::size_t>(dim);
  write_replicated(f, "/node_of_part", H5T_STD_I32LE, {K}, p.node_of_part);
  if (!p.owner_of_part.empty()) {
    write_replicated(f, "/owner_of_part", H5T_STD_I32LE, {K}, p.owner_of_part);
    f.attribute<std::int32_t>("owner_ranks", f.comm().size());  // the communicator those ranks belong to
  }
  std::vector<std::int64_t> corners;
  for (const Box& b : p.node_boxes) {
    for (std::size_t a = 0; a < D; ++a) corners.push_back(b.lo[a]);
    for (std::size_t a = 0; a < D; ++a) corners.push_back(b.hi[a]);
  }
  write_replicated(f, "/node_boxes", H5T_STD_I64LE, {p.node_boxes.size(), 2 * D}, corners);
}

SavedLocator read_grid_locator_h5(const H5File& f, const Grid& grid, int K) {
  SavedLocator out;
  const std::optional<H5Dataset> ds = f.open("/locator", false);
  if (!ds) return out;
  agree_on(f, ds->rank() == 1 && ds->type_class == H5T_INTEGER && ds->type_size == 1 && ds->dims[0] <= (hsize_t{1} << 30),
           "/locator", "shape " + ds->shape() + "; expected the locator's text as bytes");
  std::string text(static_cast<std::size_t>(ds->dims[0]), '\0');
  f.read(*ds, {0}, ds->dims, H5T_NATIVE_UCHAR, text.data());
  // Every rank parses the same bytes, so a bad text fails alike everywhere; agreed all the same.
  std::string bad;
  try {
    TextReader r(text);
    out.locator = read_locator(r, grid.dim, K, grid.extent);
    if (!r.at_end()) r.fail("text after the locator");
  } catch (const Error& e) {
    bad = e.what();
  }
  agree_on(f, bad.empty(), "/locator", bad);
  out.found = true;
  return out;
}

bool read_grid_levels_h5(const H5File& f, int dim, int K, HierGridPartition& out) {
  const std::optional<H5Dataset> of = f.open("/node_of_part", false);
  if (!of) return false;
  const std::string k = std::to_string(K);
  agree_on(f, of->rank() == 1 && of->type_class == H5T_INTEGER && of->dims[0] == static_cast<hsize_t>(K), "/node_of_part",
           "shape " + of->shape() + "; expected " + k + " integers (the node of every part)");
  const H5Dataset bx = *f.open("/node_boxes", true);
  agree_on(f, bx.rank() == 2 && bx.type_class == H5T_INTEGER && bx.dims[0] >= 1 && bx.dims[0] <= static_cast<hsize_t>(K) &&
                  bx.dims[1] == static_cast<hsize_t>(2 * dim),
           "/node_boxes", "shape " + bx.shape() + "; expected nodes (1 to " + k + ") x " + std::to_string(2 * dim) + " integers");
  const std::optional<H5Dataset> ow = f.open("/owner_of_part", false);
  if (ow)
    agree_on(f, ow->rank() == 1 && ow->type_class == H5T_INTEGER && ow->dims[0] == static_cast<hsize_t>(K), "/owner_of_part",
             "shape " + ow->shape() + "; expected " + k + " integers (the rank of every part)");
  const std::vector<std::int64_t> nodes = read_table(f, *of), corners = read_table(f, bx);
  const std::vector<std::int64_t> owners = ow ? read_table(f, *ow) : std::vector<std::int64_t>{};
  const auto N = static_cast<std::int64_t>(bx.dims[0]);
  const bool nodes_ok = std::all_of(nodes.begin(), nodes.end(), [&](std::int64_t n) { return n >= 0 && n < N; });
  agree_on(f, nodes_ok, "/node_of_part", "a node id outside [0, " + std::to_string(N) + ") (the rows of /node_boxes)");
  const bool owners_ok = std::all_of(owners.begin(), owners.end(), [](std::int64_t r) { return r >= 0 && r < (1LL << 31); });
  agree_on(f, owners_ok, "/owner_of_part", "a negative or too large rank");
  out.node_of_part.assign(nodes.begin(), nodes.end());
  // Owners are ranks of the writer's communicator: kept only where the reader's has as many ranks
  // (so that map_of and Migration take them); elsewhere the reader's default owners apply.
  if (read_int_attribute(f, "owner_ranks") == f.comm().size()) out.owner_of_part.assign(owners.begin(), owners.end());
  out.node_boxes.assign(static_cast<std::size_t>(N), Box::none(dim));
  const auto D = static_cast<std::size_t>(dim);
  for (std::size_t n = 0; n < out.node_boxes.size(); ++n)
    for (std::size_t a = 0; a < D; ++a) {
      out.node_boxes[n].lo[a] = corners[n * 2 * D + a];
      out.node_boxes[n].hi[a] = corners[n * 2 * D + D + a];
    }
  return true;
}

}  // namespace hpart::detail
