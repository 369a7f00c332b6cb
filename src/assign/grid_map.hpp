#pragma once
// Grid maps: cells, coordinates in cell units, boxes of cells, over a grid partition's locator.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "assign/map_data.hpp"
#include "assign/map_text.hpp"

namespace hpart::detail {

// Cells outside the grid are clamped to it (as coordinates outside a point map's box).
part_t grid_part_of_cell(const MapData& d, const Cell& cell);
part_t grid_part_of(const MapData& d, const double* x);  // x in cell units: cell floor(x)
Box grid_cell_box(const MapData& d, const double* lo, const double* hi);
// Marks parts[p] for every part p with a cell in `cells` (clipped to the grid): exact.
void grid_parts_in_box(const MapData& d, const Box& cells, std::vector<char>& parts);

// The locator of a `parts`-part partition (null: one part) as text; read_locator checks it.
void write_locator(TextWriter& w, const GridLocator* locator, int parts);
// dim and parts bound what the text may say; throws Error(io) for anything malformed.
std::shared_ptr<const GridLocator> read_locator(TextReader& r, int dim, int parts, const std::array<std::int64_t, 3>& extent);

}  // namespace hpart::detail
