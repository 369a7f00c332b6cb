#pragma once
// Cell -> part maps, one per kind of partition, so that any rank can find the owner of any
// cell (halo setup, neighbour lists, a user's directory) with no communication.
#include <cstdint>
#include <vector>

#include "hpart/grid.hpp"
#include "points/curve_objects.hpp"

namespace hpart::detail {

struct GridLocator {
  virtual ~GridLocator() = default;
  [[nodiscard]] virtual part_t part_of(const Cell& cell) const = 0;
};

}  // namespace hpart::detail

namespace hpart::grid {

// Curve cell keys on the coarsest curve that resolves the grid (`levels` bits per axis, rounded
// up to whole Hilbert table steps), left-aligned so the top key bits carry the coarse curve
// position (the splitter search histograms the top bits first).
struct CellKeys {
  int dim = 2;
  Curve curve = Curve::hilbert;
  int levels = 1;  // key grid of 2^levels cells per axis
  int shift = 0;   // cells are scaled by 2^shift onto it
  static CellKeys for_grid(const Grid& g, Curve curve);
  [[nodiscard]] std::uint64_t key(const Cell& c) const;
};

// sfc: part = number of interior splitters <= (key, 0). Grid cells have distinct keys, so the
// splitters sit on key boundaries and the id half never decides.
struct CurveLocator final : detail::GridLocator {
  CellKeys keys;
  std::vector<sfc::Order> inner;  // interior splitters s_1..s_{K-1}
  [[nodiscard]] part_t part_of(const Cell& cell) const override;
};

// blocks: a binary tree of cuts; a node with parts == 1 is a leaf holding part `first`.
struct CutNode {
  int dim = 0;
  std::int64_t cut = 0;  // first cell of the upper child along dim
  int lower = -1, upper = -1;
  part_t first = 0;
};
struct TreeLocator final : detail::GridLocator {
  std::vector<CutNode> nodes;  // node 0 is the root
  [[nodiscard]] part_t part_of(const Cell& cell) const override;
};

// tensor/uniform: per dimension the first cell of each block; part = i + Px * (j + Py * k).
struct TensorLocator final : detail::GridLocator {
  int dim = 2;
  std::array<std::vector<std::int64_t>, 3> starts;
  [[nodiscard]] part_t part_of(const Cell& cell) const override;
};

}  // namespace hpart::grid
