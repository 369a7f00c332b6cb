#pragma once
// Online least squares for cost ~ a . features + b: exponentially forgotten normal equations,
// solved by Cholesky on the small (nfeatures + 1)^2 system. MPI-free: the Rebalancer sums each
// step's per-rank rows (one allreduce) and feeds the sums to every rank's copy.
#include <span>
#include <vector>

namespace hpart::repart {

class CostFit {
 public:
  explicit CostFit(double forgetting) : forgetting_(forgetting) {}

  // Adds a step's summed normal equations: gram (m x m, row-major) and rhs (m), m = nfeatures + 1
  // (the last column is the constant). A new m restarts the fit.
  void add(std::span<const double> gram, std::span<const double> rhs, double samples);
  void reset() { gram_.clear(), rhs_.clear(), coef_.clear(), samples_ = 0.0; }

  // Coefficients a_0..a_{m-2}, b; empty while the system is underdetermined or singular.
  [[nodiscard]] const std::vector<double>& coefficients() const { return coef_; }

 private:
  void solve();
  double forgetting_;
  std::vector<double> gram_, rhs_, coef_;
  double samples_ = 0.0;
};

// Normal-equation contribution of one sample row x (m values) with target y.
void add_normal_row(std::span<const double> x, double y, std::span<double> gram, std::span<double> rhs);

// Solves the symmetric positive definite system (m x m row-major) by Cholesky; false when a pivot
// is not clearly positive (singular or ill-conditioned). Pure, exposed for the tests.
bool solve_spd(std::vector<double> a, std::vector<double> b, std::vector<double>& x);

}  // namespace hpart::repart
