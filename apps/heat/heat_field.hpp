#pragma once
// The temperature a rank holds: its owned box plus a ghost layer of width 1 (the stencil's
// reach), as two row-major arrays (x fastest): u (current) and next (being computed). Ghosts
// outside the domain stay 0 forever (the fixed boundary); the others are filled by the halo
// exchange before every step. pack/unpack copy any sub-box in the same row-major order, which
// is how the halo exchange, the redistribution and the --check gather agree on message layout.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hpart/box.hpp"

namespace hpart_heat {

struct HeatProblem;

class HeatField {
 public:
  HeatField() = default;
  // Zero-filled field for `owned` (an empty box gives an empty field).
  HeatField(const hpart::Box& owned, int halo);

  [[nodiscard]] const hpart::Box& owned() const { return owned_; }
  [[nodiscard]] const hpart::Box& ghosted() const { return ghosted_; }
  [[nodiscard]] std::size_t index(std::int64_t x, std::int64_t y, std::int64_t z) const {
    return static_cast<std::size_t>((x - ghosted_.lo[0]) + stride_y_ * (y - ghosted_.lo[1]) +
                                    stride_z_ * (z - ghosted_.lo[2]));
  }
  [[nodiscard]] std::int64_t stride_y() const { return stride_y_; }
  [[nodiscard]] std::int64_t stride_z() const { return stride_z_; }

  std::vector<double>& u() { return u_; }
  std::vector<double>& next() { return next_; }
  [[nodiscard]] const std::vector<double>& u() const { return u_; }
  void swap() { u_.swap(next_); }

  // Copies the cells of `b` (inside ghosted()) from/to a buffer of b.volume() values.
  void pack(const hpart::Box& b, std::span<double> out) const;
  void unpack(const hpart::Box& b, std::span<const double> in);

  void set_initial(const HeatProblem& p);  // u on the owned cells
  // Over the owned cells: the total heat, and an exact order-independent checksum (the wrapping
  // sum of the values' bit patterns), so a lost, duplicated or altered value is always caught.
  [[nodiscard]] double owned_sum() const;
  [[nodiscard]] std::uint64_t owned_checksum() const;

 private:
  hpart::Box owned_, ghosted_;
  std::int64_t stride_y_ = 0, stride_z_ = 0;
  std::vector<double> u_, next_;
};

// Calls f(x, y, z) for every cell of b in row-major order (x fastest); 2D boxes have z = 0.
template <class F>
void for_each_cell(const hpart::Box& b, F&& f) {
  if (b.empty()) return;
  for (std::int64_t z = b.lo[2]; z <= b.hi[2]; ++z)
    for (std::int64_t y = b.lo[1]; y <= b.hi[1]; ++y)
      for (std::int64_t x = b.lo[0]; x <= b.hi[0]; ++x) f(x, y, z);
}

}  // namespace hpart_heat
