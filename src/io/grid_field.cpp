// GridField's moves re-point grid.cost at the moved vector. The type is declared whether or not
// hpart has HDF5 (the reader throws without it), so its members live here, compiled in both builds.
#include <utility>

#include "hpart/hdf5.hpp"

namespace hpart {

GridField::GridField(GridField&& other) noexcept : grid(other.grid), cost(std::move(other.cost)) {
  grid.cost = cost;
  other.grid.cost = {};
}

GridField& GridField::operator=(GridField&& other) noexcept {
  if (this != &other) {
    grid = other.grid;
    cost = std::move(other.cost);
    grid.cost = cost;
    other.grid.cost = {};
  }
  return *this;
}

}  // namespace hpart
