// The patch assignment kernels: every item in exactly one part, no part left empty when there are
// enough items, LPT within its 4/3 bound, swap refinement never worse and close to the optimum
// found by exhaustive search on small instances.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "patches/patch_assign.hpp"

namespace {

using hpart::part_t;
namespace hp = hpart::patches;

std::vector<double> random_costs(std::size_t n, unsigned seed, double spread) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> dist(0.0, spread);
  std::vector<double> c(n);
  for (double& v : c) v = dist(rng);
  return c;
}

void expect_valid(const std::vector<part_t>& parts, std::size_t n, int K) {
  ASSERT_EQ(parts.size(), n);
  std::vector<int> count(static_cast<std::size_t>(K), 0);
  for (part_t p : parts) {
    ASSERT_GE(p, 0);
    ASSERT_LT(p, K);
    ++count[static_cast<std::size_t>(p)];
  }
  if (n >= static_cast<std::size_t>(K)) {
    for (int k = 0; k < K; ++k) EXPECT_GT(count[static_cast<std::size_t>(k)], 0) << "part " << k << " is empty";
  }
}

double bottleneck(const std::vector<double>& c, const std::vector<part_t>& parts, int K) {
  std::vector<double> load(static_cast<std::size_t>(K), 0.0);
  for (std::size_t i = 0; i < c.size(); ++i) load[static_cast<std::size_t>(parts[i])] += c[i];
  return *std::max_element(load.begin(), load.end());
}

// The optimal bottleneck by enumerating every assignment (K^n; small n only).
double optimal_bottleneck(const std::vector<double>& c, int K) {
  const std::size_t n = c.size();
  std::vector<part_t> a(n, 0);
  double best = INFINITY;
  while (true) {
    best = std::min(best, bottleneck(c, a, K));
    std::size_t i = 0;
    while (i < n && ++a[i] == K) a[i++] = 0;
    if (i == n) return best;
  }
}

TEST(PatchAssign, KnapsackIsLptAndWithinFourThirds) {
  // LPT on {7,6,5,4,3,3,2} into 3: 7 | 6 | 5 -> 5+4 | 6+3 | 7+3 -> 2 onto 9 (part 0 or 1: 9,9,10).
  const std::vector<double> c{3, 7, 2, 5, 4, 6, 3};
  const std::vector<part_t> p = hp::assign_knapsack(c, 3);
  expect_valid(p, c.size(), 3);
  EXPECT_DOUBLE_EQ(bottleneck(c, p, 3), 11.0);  // 5+4+2 = 11 (LPT), the optimum is 10
  for (unsigned seed = 1; seed <= 30; ++seed) {
    const std::vector<double> r = random_costs(8, seed, 1.0);
    const std::vector<part_t> q = hp::assign_knapsack(r, 3);
    expect_valid(q, r.size(), 3);
    EXPECT_LE(bottleneck(r, q, 3), 4.0 / 3.0 * optimal_bottleneck(r, 3) + 1e-12);
  }
}

TEST(PatchAssign, ChainsAreConsecutive) {
  const std::vector<double> c = random_costs(500, 7, 0.8);
  const std::vector<part_t> p = hp::assign_chains(c, 16);
  expect_valid(p, c.size(), 16);
  for (std::size_t i = 1; i < p.size(); ++i) EXPECT_GE(p[i], p[i - 1]);
}

TEST(PatchAssign, SwapsNeverHurtAndReachNearOptimal) {
  for (unsigned seed = 1; seed <= 30; ++seed) {
    const std::vector<double> c = random_costs(9, seed, 1.2);
    for (int K : {2, 3}) {
      std::vector<part_t> p = hp::assign_chains(c, K);
      const double before = bottleneck(c, p, K);
      hp::refine_by_swaps(c, p, K, 1000);
      expect_valid(p, c.size(), K);
      const double after = bottleneck(c, p, K), best = optimal_bottleneck(c, K);
      EXPECT_LE(after, before + 1e-12);
      EXPECT_GE(after, best - 1e-12);
      EXPECT_LE(after, 4.0 / 3.0 * best + 1e-12) << "seed " << seed << " K " << K;
    }
  }
}

TEST(PatchAssign, SwapsBalanceManyItemsFinely) {
  // 2000 items of widely varying cost over 64 parts: chains are limited by the item granularity,
  // the refinement brings the heaviest part to within a small fraction of the mean.
  const std::vector<double> c = random_costs(2000, 3, 1.0);
  std::vector<part_t> p = hp::assign_chains(c, 64);
  const double chains = hp::assignment_imbalance(c, p, 64);
  const int steps = hp::refine_by_swaps(c, p, 64, 100000);
  const double refined = hp::assignment_imbalance(c, p, 64);
  expect_valid(p, c.size(), 64);
  EXPECT_GT(steps, 0);
  EXPECT_LT(refined, chains);
  EXPECT_LT(refined, 0.01);
  std::vector<part_t> k = hp::assign_knapsack(c, 64);
  hp::refine_by_swaps(c, k, 64, 100000);
  EXPECT_LT(hp::assignment_imbalance(c, k, 64), 0.01);
}

TEST(PatchAssign, SwapsStopAtTheTolerance) {
  // Chains of these costs are ~3% off; refining to the end gets within 1%, a 2% tolerance stops
  // on the way there.
  const std::vector<double> c = random_costs(2000, 3, 1.0);
  std::vector<part_t> full = hp::assign_chains(c, 64), loose = full;
  ASSERT_GT(hp::assignment_imbalance(c, full, 64), 0.02);
  const double total = std::accumulate(c.begin(), c.end(), 0.0);
  const int all_steps = hp::refine_by_swaps(c, full, 64, 100000);
  const int few_steps = hp::refine_by_swaps(c, loose, 64, 100000, 1.02 * total / 64);
  EXPECT_LT(few_steps, all_steps);
  EXPECT_LE(hp::assignment_imbalance(c, loose, 64), 0.02 + 1e-12);
  EXPECT_LE(hp::assignment_imbalance(c, full, 64), hp::assignment_imbalance(c, loose, 64));
}

TEST(PatchAssign, FewerItemsThanPartsAndZeroCosts) {
  const std::vector<double> c{5, 1, 3};
  std::vector<part_t> p = hp::assign_knapsack(c, 8);
  expect_valid(p, c.size(), 8);
  EXPECT_DOUBLE_EQ(bottleneck(c, p, 8), 5.0);
  hp::refine_by_swaps(c, p, 8, 100);
  EXPECT_DOUBLE_EQ(bottleneck(c, p, 8), 5.0);
  const std::vector<double> zero(10, 0.0);
  std::vector<part_t> z = hp::assign_chains(zero, 4);
  expect_valid(z, zero.size(), 4);
  EXPECT_EQ(hp::refine_by_swaps(zero, z, 4, 100), 0);
  EXPECT_DOUBLE_EQ(hp::assignment_imbalance(zero, z, 4), 0.0);
}

}  // namespace
