// Part weight bounds (see ml_balance.hpp).
#include "graph/refinement/ml_balance.hpp"

#include <algorithm>
#include <cmath>

namespace hpart::graphk {

Balance make_balance(const GraphView& g, int k, double imbalance, std::span<const double> shares) {
  Balance b;
  b.k = k;
  b.ncon = g.ncon;
  const auto nc = static_cast<std::size_t>(g.ncon);
  double sum = 0.0;
  for (double s : shares) sum += s;
  b.share.resize(static_cast<std::size_t>(k));
  for (std::size_t p = 0; p < b.share.size(); ++p) b.share[p] = shares[p] / sum;
  b.total.assign(nc, 0);
  for (std::int32_t v = 0; v < g.n; ++v)
    for (std::size_t c = 0; c < nc; ++c) b.total[c] += g.weights(v)[c];
  b.target.resize(static_cast<std::size_t>(k) * nc);
  b.maxw.resize(b.target.size());
  b.inv_maxw.resize(b.target.size());
  for (part_t p = 0; p < k; ++p)
    for (int c = 0; c < g.ncon; ++c) {
      const std::size_t i = b.at(p, c);
      b.target[i] = b.share[static_cast<std::size_t>(p)] * static_cast<double>(b.total[static_cast<std::size_t>(c)]);
      // The largest integer weight w with w <= (1 + imbalance) * target (tiny slack for rounding
      // of the share product: a bound that lands exactly on an integer keeps that integer).
      b.maxw[i] = static_cast<std::int64_t>(std::floor((1.0 + imbalance) * b.target[i] * (1.0 + 1e-12)));
      b.inv_maxw[i] = 1.0 / static_cast<double>(std::max<std::int64_t>(b.maxw[i], 1));
    }
  return b;
}

std::vector<std::int64_t> part_weights(const GraphView& g, std::span<const part_t> part, int k) {
  const auto nc = static_cast<std::size_t>(g.ncon);
  std::vector<std::int64_t> pw(static_cast<std::size_t>(k) * nc, 0);
  for (std::int32_t v = 0; v < g.n; ++v) {
    const std::int64_t* w = g.weights(v);
    std::int64_t* dst = pw.data() + static_cast<std::size_t>(part[static_cast<std::size_t>(v)]) * nc;
    for (std::size_t c = 0; c < nc; ++c) dst[c] += w[c];
  }
  return pw;
}

double max_imbalance(const Balance& b, std::span<const std::int64_t> pw) {
  double worst = 0.0;
  for (std::size_t i = 0; i < b.target.size(); ++i)
    if (b.target[i] > 0.0) worst = std::max(worst, static_cast<double>(pw[i]) / b.target[i] - 1.0);
  return worst;
}

bool within_bounds(const Balance& b, std::span<const std::int64_t> pw) {
  for (std::size_t i = 0; i < b.maxw.size(); ++i)
    if (pw[i] > b.maxw[i]) return false;
  return true;
}

}  // namespace hpart::graphk
