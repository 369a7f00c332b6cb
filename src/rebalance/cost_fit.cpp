#include "rebalance/cost_fit.hpp"

#include <cmath>

namespace hpart::repart {

void add_normal_row(std::span<const double> x, double y, std::span<double> gram, std::span<double> rhs) {
  const std::size_t m = x.size();
  for (std::size_t i = 0; i < m; ++i) {
    rhs[i] += x[i] * y;
    for (std::size_t j = 0; j < m; ++j) gram[i * m + j] += x[i] * x[j];
  }
}

bool solve_spd(std::vector<double> a, std::vector<double> b, std::vector<double>& x) {
  const std::size_t m = b.size();
  double scale = 0.0;
  for (std::size_t i = 0; i < m; ++i) scale = std::max(scale, std::abs(a[i * m + i]));
  if (!(scale > 0.0)) return false;
  for (std::size_t j = 0; j < m; ++j) {
    double d = a[j * m + j];
    for (std::size_t k = 0; k < j; ++k) d -= a[j * m + k] * a[j * m + k];
    // Relative pivot test: feature columns that are (nearly) collinear leave a tiny pivot, and a
    // fit through them would extrapolate wildly.
    if (!(d > 1e-10 * scale)) return false;
    const double l = std::sqrt(d);
    a[j * m + j] = l;
    for (std::size_t i = j + 1; i < m; ++i) {
      double s = a[i * m + j];
      for (std::size_t k = 0; k < j; ++k) s -= a[i * m + k] * a[j * m + k];
      a[i * m + j] = s / l;
    }
  }
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t k = 0; k < i; ++k) b[i] -= a[i * m + k] * b[k];
    b[i] /= a[i * m + i];
  }
  for (std::size_t i = m; i-- > 0;) {
    for (std::size_t k = i + 1; k < m; ++k) b[i] -= a[k * m + i] * b[k];
    b[i] /= a[i * m + i];
  }
  x = std::move(b);
  return true;
}

void CostFit::add(std::span<const double> gram, std::span<const double> rhs, double samples) {
  if (rhs.size() != rhs_.size()) {
    gram_.assign(gram.size(), 0.0);
    rhs_.assign(rhs.size(), 0.0);
    samples_ = 0.0;
  }
  for (std::size_t i = 0; i < gram.size(); ++i) gram_[i] = forgetting_ * gram_[i] + gram[i];
  for (std::size_t i = 0; i < rhs.size(); ++i) rhs_[i] = forgetting_ * rhs_[i] + rhs[i];
  samples_ = forgetting_ * samples_ + samples;
  solve();
}

void CostFit::solve() {
  coef_.clear();
  if (samples_ < static_cast<double>(rhs_.size()) - 1e-9) return;
  std::vector<double> x;
  if (solve_spd(gram_, rhs_, x)) coef_ = std::move(x);
}

}  // namespace hpart::repart
