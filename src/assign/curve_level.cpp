// A curve level of a partition map: keys exactly as partition_points computes them (the same
// CellMapper on the same box, the same key kernels), and the range lookup.
#include <algorithm>
#include <bit>
#include <limits>

#include "assign/curve_box.hpp"
#include "assign/map_data.hpp"
#include "kernels/sfc_keys.hpp"

namespace hpart::detail {

void CurveLevel::finish() {
  bits = dim == 2 ? geometry::kBits2d : geometry::kBits3d;
  cells = geometry::CellMapper(box, dim, bits);
  // ~8 buckets per range, at most 2^16 (512 KiB of index); keys have dim * bits bits.
  const int b = std::clamp(static_cast<int>(std::bit_width(labels.size())) + 3, 4, 16);
  bucket_shift = dim * bits - b;
  const std::size_t n = std::size_t{1} << b;
  bucket_lo.assign(n, 0);
  bucket_hi.assign(n, 0);
  const int last = static_cast<int>(labels.size()) - 1;
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint64_t first = static_cast<std::uint64_t>(k) << bucket_shift;
    const std::uint64_t end = first | ((std::uint64_t{1} << bucket_shift) - 1);
    bucket_lo[k] = search(first, 0, 0, last);
    bucket_hi[k] = search(end, std::numeric_limits<gid_t>::max(), 0, last);
  }
}

int CurveLevel::search(std::uint64_t key, gid_t id, int lo, int hi) const {
  // The last range in [lo, hi] whose start key is <= key, then back over starts (key, id') with
  // id' > id: a tie at a splitter is decided by the id, as the partition decided it.
  const auto first = start_keys.begin() + lo + 1, end = start_keys.begin() + hi + 1;
  auto r = static_cast<int>(std::upper_bound(first, end, key) - start_keys.begin()) - 1;
  while (r > lo && start_keys[static_cast<std::size_t>(r)] == key && start_ids[static_cast<std::size_t>(r)] > id) --r;
  return r;
}

std::uint64_t CurveLevel::key_of_cell(const std::array<std::uint32_t, 3>& c) const {
  if (dim == 2)
    return curve == Curve::hilbert ? geometry::hilbert_key_2d(c[0], c[1]) : geometry::morton_key_2d(c[0], c[1]);
  return curve == Curve::hilbert ? geometry::hilbert_key_3d(c[0], c[1], c[2])
                                 : geometry::morton_key_3d(c[0], c[1], c[2]);
}

int CurveLevel::range_of(std::uint64_t key, gid_t id) const {
  const std::size_t b = key >> bucket_shift;
  const int lo = bucket_lo[b], hi = bucket_hi[b];
  return lo == hi ? lo : search(key, id, lo, hi);
}

void CurveLevel::ranges_in_box(const double* lo, const double* hi, std::vector<char>& hit) const {
  CellIndex clo{0, 0, 0}, chi{0, 0, 0};
  for (int a = 0; a < dim; ++a) {
    clo[static_cast<std::size_t>(a)] = cells.cell(lo[a], a);
    chi[static_cast<std::size_t>(a)] = cells.cell(hi[a], a);
  }
  // 2D keys use all 64 bits, 3D keys the low 63: no always-zero bits at full resolution.
  const auto key = [this](const CellIndex& c) { return key_of_cell(c); };
  const auto mask = [this](int s) { return cube_mask(dim, s, 0); };
  const auto ranges = [this](std::uint64_t kmin, std::uint64_t kmax, int* r0, int* r1) {
    *r0 = range_of(kmin, 0);
    *r1 = range_of(kmax, std::numeric_limits<gid_t>::max());
  };
  const auto mark = [&hit](int r0, int r1) {
    for (int r = r0; r <= r1; ++r) hit[static_cast<std::size_t>(r)] = 1;
  };
  descend_box(dim, bits, CellIndex{0, 0, 0}, clo, chi, key, mask, ranges, mark);
}

part_t MapData::locate(const double* x, gid_t id) const {
  const int t = top.labels[static_cast<std::size_t>(top.range_of(top.key(x), id))];
  if (kind != MapKind::hierarchical_points) return t;
  const CurveLevel& node = nodes[static_cast<std::size_t>(t)];
  return node.labels[static_cast<std::size_t>(node.range_of(node.key(x), id))];
}

}  // namespace hpart::detail
