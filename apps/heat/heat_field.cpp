#include "heat_field.hpp"

#include <bit>

#include "heat_problem.hpp"

namespace hpart_heat {

HeatField::HeatField(const hpart::Box& owned, int halo) : owned_(owned), ghosted_(owned) {
  // Box::grown would turn an empty box into a non-empty one: grow only real boxes.
  if (owned.empty()) return;
  ghosted_ = owned.grown(halo);
  stride_y_ = ghosted_.size(0);
  stride_z_ = stride_y_ * ghosted_.size(1);  // a 2D box has size(2) == 1 (lo = hi = 0)
  const auto cells = static_cast<std::size_t>(stride_z_ * ghosted_.size(2));
  u_.assign(cells, 0.0);
  next_.assign(cells, 0.0);
}

void HeatField::pack(const hpart::Box& b, std::span<double> out) const {
  std::size_t k = 0;
  for_each_cell(b, [&](std::int64_t x, std::int64_t y, std::int64_t z) { out[k++] = u_[index(x, y, z)]; });
}

void HeatField::unpack(const hpart::Box& b, std::span<const double> in) {
  std::size_t k = 0;
  for_each_cell(b, [&](std::int64_t x, std::int64_t y, std::int64_t z) { u_[index(x, y, z)] = in[k++]; });
}

void HeatField::set_initial(const HeatProblem& p) {
  for_each_cell(owned_, [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    u_[index(x, y, z)] = p.initial({x, y, z, 0});
  });
}

double HeatField::owned_sum() const {
  double s = 0.0;
  for_each_cell(owned_, [&](std::int64_t x, std::int64_t y, std::int64_t z) { s += u_[index(x, y, z)]; });
  return s;
}

std::uint64_t HeatField::owned_checksum() const {
  std::uint64_t s = 0;
  for_each_cell(owned_, [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    s += std::bit_cast<std::uint64_t>(u_[index(x, y, z)]);
  });
  return s;
}

}  // namespace hpart_heat
