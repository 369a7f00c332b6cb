#pragma once
// Which parts touch: every part marks the cells of a coarse global grid its objects occupy (one
// bit per part and cell, OR-reduced across ranks); parts sharing a cell or holding face-adjacent
// cells are neighbours, with as many contacts as such cell pairs. The contact total estimates the
// part surface. MPI-free: the Rebalancer reduces the bitmaps, every rank runs this on the result.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "kernels/diffusion_flow.hpp"

namespace hpart::repart {

struct ContactGrid {
  int dim = 3;
  std::array<double, 3> lo{};
  double inv_cell = 1.0;  // 1 / cell side (cells are cubes)
  std::array<int, 3> cells{1, 1, 1};
  [[nodiscard]] std::int64_t num_cells() const {
    return static_cast<std::int64_t>(cells[0]) * cells[1] * (dim == 3 ? cells[2] : 1);
  }
  [[nodiscard]] std::int64_t cell_of(const double* x) const {
    std::int64_t c = 0, stride = 1;
    for (int d = 0; d < dim; ++d) {
      const auto u = static_cast<std::size_t>(d);
      auto k = static_cast<std::int64_t>((x[d] - lo[u]) * inv_cell);
      k = k < 0 ? 0 : (k >= cells[u] ? cells[u] - 1 : k);
      c += k * stride;
      stride *= cells[u];
    }
    return c;
  }
  [[nodiscard]] std::size_t words_per_part() const { return static_cast<std::size_t>((num_cells() + 63) / 64); }
};

// Cubic cells over the box [lo, hi]: as many as keep parts x cells within ~8 Mbit (so the bitmap
// reduction stays about 1 MB whatever K), at most 64 per side, and about 4 objects per cell or
// more, so that neighbouring objects fall in the same or adjacent cells.
ContactGrid make_contact_grid(int dim, const double* lo, const double* hi, int num_parts, double objects);

struct PartContacts {
  std::vector<PartEdge> edges;  // p < q, capacity = contact count
  double surface = 0.0;         // sum of the contact counts
};

// bitmap: num_parts rows of grid.words_per_part() words; bit c of row p = part p occupies cell c.
// owner_buffer: optional buffer for a per-cell array (kept by the caller for its capacity).
PartContacts part_contacts(const ContactGrid& grid, int num_parts, std::span<const std::uint64_t> bitmap,
                           std::vector<std::int32_t>* owner_buffer = nullptr);

// Part contacts followed as the bitmap changes: the contact count of every pair of parts (a
// dense K x K table) and each cell's owner. update() recounts only the cell pairs at cells whose
// parts changed, so it gives exactly what part_contacts gives on the new bitmap, at the cost of
// the cells that changed (an incremental rebalance changes a few percent of them).
class ContactTable {
 public:
  static constexpr int kMaxParts = 2048;  // the dense table's limit (16 MiB)
  void rebuild(const ContactGrid& grid, int num_parts, std::span<const std::uint64_t> bitmap);
  // old_bits: the bitmap of the last rebuild or update. Returns false (the table is left
  // unusable: rebuild it) when more than a quarter of the cells changed or there is no table.
  bool update(std::span<const std::uint64_t> old_bits, std::span<const std::uint64_t> new_bits);
  [[nodiscard]] PartContacts contacts() const;
  [[nodiscard]] bool valid() const { return valid_; }
  void invalidate() { valid_ = false; }

 private:
  void parts_of(std::span<const std::uint64_t> bitmap, std::size_t c, std::vector<int>& out) const;
  ContactGrid grid_;
  int k_ = 0;
  bool valid_ = false;
  std::vector<std::uint32_t> table_;  // [p * K + q], p < q
  std::vector<std::int32_t> owner_;   // per cell: its only part, -1 empty, -2 shared
  std::vector<std::uint64_t> changed_words_;
  std::vector<std::size_t> changed_;
  std::vector<int> here_, there_;
};

// Bit rows (one bit per cell, as a part's bitmap row) of the cells on the low and high x and y
// faces of the grid, and of all cells: where a row shifted by one step along x or y wraps into
// the next grid line or plane, and which bits of the last word are cells at all.
struct GridMasks {
  std::vector<std::uint64_t> x_lo, x_hi, y_lo, y_hi, valid;
};
GridMasks grid_masks(const ContactGrid& grid);

// `out` = the cells within `rings` face steps (L1 distance in cells, inside the grid) of a cell
// set in `row`, by word-wide shifts: one bit test per cell then answers "does this part lie
// within `rings` cells?", which per cell and part would take a test per cell of the ring.
// `scratch` is a buffer (resized as needed).
void dilate_row(const ContactGrid& grid, const GridMasks& masks, std::span<const std::uint64_t> row, int rings,
                std::vector<std::uint64_t>& out, std::vector<std::uint64_t>& scratch);

// Per cell, the parts occupying it or a cell up to `rings` face steps away (CSR: parts of cell c
// are parts[start[c]..start[c+1])): an object may move to a part only if that part is this near,
// so parts grow at their boundary and never in islands.
struct NearParts {
  std::vector<std::int64_t> start;
  std::vector<int> parts;
};
NearParts near_parts(const ContactGrid& grid, int num_parts, std::span<const std::uint64_t> bitmap, int rings = 1);

}  // namespace hpart::repart
