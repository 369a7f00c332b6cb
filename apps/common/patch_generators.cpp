#include "patch_generators.hpp"

#include <cmath>
#include <random>

namespace hpart_apps {
namespace {

struct Front {
  double cx, cy, r;
  [[nodiscard]] double distance(double x, double y) const { return std::abs(std::hypot(x - cx, y - cy) - r); }
};

void tile(PatchLevel& L, const Front& f, std::int64_t x, std::int64_t y, std::int64_t s, double band, std::mt19937_64& rng) {
  const double half = static_cast<double>(s) / 2.0;
  const double d = f.distance(static_cast<double>(x) + half, static_cast<double>(y) + half);
  if (d - half * M_SQRT2 > band) return;  // the block does not reach the band: not on this level
  const std::int64_t finest = std::max<std::int64_t>(1, L.side / 128), coarsest = std::max<std::int64_t>(1, L.side / 32);
  if (s > coarsest || (s > finest && d < static_cast<double>(s))) {
    const std::int64_t h = s / 2;
    for (std::int64_t oy = 0; oy < 2; ++oy)
      for (std::int64_t ox = 0; ox < 2; ++ox) tile(L, f, x + ox * h, y + oy * h, h, band, rng);
    return;
  }
  hpart::Box b;
  b.dim = 2;
  b.lo = {x, y, 0, 0};
  b.hi = {x + s - 1, y + s - 1, 0, 0};
  const double w = static_cast<double>(L.side) / 128.0;
  std::uniform_real_distribution<double> noise(0.8, 1.2);
  L.boxes.push_back(b);
  L.cost.push_back(static_cast<double>(s * s) * (1.0 + 9.0 * std::exp(-(d / w) * (d / w))) * noise(rng));
}

}  // namespace

PatchLevel amr2d_level(std::int64_t side, unsigned seed) {
  PatchLevel L;
  L.dim = 2;
  L.side = side;
  std::mt19937_64 rng(seed);
  const double n = static_cast<double>(side);
  const Front f{0.45 * n, 0.55 * n, 0.3 * n};
  // Quadtree from the whole domain (side a power of two or not: blocks are clipped below).
  std::int64_t root = 1;
  while (root < side) root *= 2;
  PatchLevel all = L;
  tile(all, f, 0, 0, root, n / 16.0, rng);
  for (std::size_t i = 0; i < all.boxes.size(); ++i) {
    hpart::Box b = all.boxes[i];
    b.hi[0] = std::min(b.hi[0], side - 1);
    b.hi[1] = std::min(b.hi[1], side - 1);
    if (b.empty()) continue;
    L.boxes.push_back(b);
    L.cost.push_back(all.cost[i] * static_cast<double>(b.volume()) / static_cast<double>(all.boxes[i].volume()));
  }
  return L;
}

}  // namespace hpart_apps
