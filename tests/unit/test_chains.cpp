// 1D chains partitioning: greedy, optimal (against a brute-force DP) and the imbalance metric.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "balance/chains.hpp"
#include "hpart/error.hpp"

namespace hpart::balance {
namespace {

using Cuts = std::vector<std::int64_t>;

void expect_valid_cuts(const Cuts& cuts, std::size_t n, int parts) {
  ASSERT_EQ(cuts.size(), static_cast<std::size_t>(parts) + 1);
  EXPECT_EQ(cuts.front(), 0);
  EXPECT_EQ(cuts.back(), static_cast<std::int64_t>(n));
  EXPECT_TRUE(std::is_sorted(cuts.begin(), cuts.end()));
}

// The objective as the library defines it: part weights are differences of prefix sums summed
// in order, compared directly for equal targets and divided by the normalised share otherwise.
template <typename Weight>
struct Objective {
  std::vector<Weight> prefix;
  std::vector<double> share;  // empty: equal targets

  Objective(const std::vector<Weight>& weights, const std::vector<double>& targets)
      : prefix(weights.size() + 1, Weight{0}) {
    for (std::size_t i = 0; i < weights.size(); ++i) prefix[i + 1] = prefix[i] + weights[i];
    if (prefix.back() == Weight{0})
      for (std::size_t i = 0; i < prefix.size(); ++i) prefix[i] = static_cast<Weight>(i);
    if (!targets.empty()) {
      double sum = 0.0;
      for (double t : targets) sum += t;
      for (double t : targets) share.push_back(t / sum);
    }
  }

  [[nodiscard]] double cost(std::size_t j, std::int64_t a, std::int64_t b) const {
    const Weight w = prefix[b] - prefix[a];
    return share.empty() ? static_cast<double>(w) : static_cast<double>(w) / share[j];
  }

  [[nodiscard]] double bottleneck(const Cuts& cuts) const {
    double worst = 0.0;
    for (std::size_t j = 0; j + 1 < cuts.size(); ++j)
      worst = std::max(worst, cost(j, cuts[j], cuts[j + 1]));
    return worst;
  }

  // O(n^2 K) dynamic programme over (parts used, items covered).
  [[nodiscard]] double brute_force_optimum(int parts) const {
    const auto n = static_cast<std::int64_t>(prefix.size()) - 1;
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> best(n + 1, inf);
    best[0] = 0.0;
    for (int j = 0; j < parts; ++j) {
      std::vector<double> next(n + 1, inf);
      for (std::int64_t i = 0; i <= n; ++i)
        for (std::int64_t a = 0; a <= i; ++a)
          next[i] = std::min(next[i], std::max(best[a], cost(static_cast<std::size_t>(j), a, i)));
      best = std::move(next);
    }
    return best[n];
  }
};

std::vector<double> random_weights(std::mt19937_64& rng, std::size_t n, int kind) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> w(n);
  for (double& x : w) {
    switch (kind) {
      case 0:
        x = u(rng);
        break;
      case 1:
        x = static_cast<double>(rng() % 4);
        break;  // many ties and zeros
      case 2:
        x = std::pow(u(rng) + 1e-3, -1.5);
        break;  // heavy tail
      default:
        x = 1.0;
        break;
    }
  }
  if (kind == 3 && n > 0) w[rng() % n] = 50.0;  // one item heavier than any fair share
  return w;
}

std::vector<double> random_targets(std::mt19937_64& rng, int parts) {
  if (rng() % 2 == 0) return {};
  std::uniform_real_distribution<double> u(0.2, 3.0);
  std::vector<double> t(static_cast<std::size_t>(parts));
  for (double& x : t) x = u(rng);
  return t;
}

TEST(ChainsOptimal, MatchesBruteForceOnRandomDoubleWeights) {
  std::mt19937_64 rng(2024);
  for (int trial = 0; trial < 600; ++trial) {
    const std::size_t n = rng() % 30;
    const int parts = 1 + static_cast<int>(rng() % 9);
    const auto weights = random_weights(rng, n, static_cast<int>(rng() % 4));
    const auto targets = random_targets(rng, parts);
    const Cuts cuts = chains_optimal(weights, parts, targets);
    expect_valid_cuts(cuts, n, parts);
    const Objective<double> objective(weights, targets);
    ASSERT_EQ(objective.bottleneck(cuts), objective.brute_force_optimum(parts))
        << "trial " << trial << " n " << n << " parts " << parts;
  }
}

TEST(ChainsOptimal, MatchesBruteForceOnRandomIntegerWeights) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 600; ++trial) {
    const std::size_t n = rng() % 30;
    const int parts = 1 + static_cast<int>(rng() % 9);
    std::vector<std::int64_t> weights(n);
    for (auto& w : weights) w = static_cast<std::int64_t>(rng() % 7);
    if (n > 0 && trial % 5 == 0) weights[rng() % n] = 1000;
    if (trial % 7 == 0) std::fill(weights.begin(), weights.end(), 0);
    const auto targets = random_targets(rng, parts);
    const Cuts cuts = chains_optimal(weights, parts, targets);
    expect_valid_cuts(cuts, n, parts);
    const Objective<std::int64_t> objective(weights, targets);
    ASSERT_EQ(objective.bottleneck(cuts), objective.brute_force_optimum(parts))
        << "trial " << trial << " n " << n << " parts " << parts;
  }
}

TEST(ChainsOptimal, IntegerOptimumIsExactForLargeWeights) {
  // Weights around 2^50: a tolerance-based bisection would not resolve single units.
  const std::int64_t big = std::int64_t{1} << 50;
  const std::vector<std::int64_t> w{big + 1, big, big + 3, big + 2, big, big + 5};
  const Cuts cuts = chains_optimal(w, 3);
  const Objective<std::int64_t> objective(w, {});
  EXPECT_EQ(objective.bottleneck(cuts), objective.brute_force_optimum(3));
}

TEST(ChainsOptimal, NeverWorseThanGreedy) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t n = 1000 + rng() % 5000;
    const int parts = 1 + static_cast<int>(rng() % 64);
    const auto weights = random_weights(rng, n, static_cast<int>(rng() % 4));
    const auto targets = random_targets(rng, parts);
    const Objective<double> objective(weights, targets);
    const Cuts optimal = chains_optimal(weights, parts, targets);
    expect_valid_cuts(optimal, n, parts);
    EXPECT_LE(objective.bottleneck(optimal),
              objective.bottleneck(chains_greedy(weights, parts, targets)));
  }
}

TEST(ChainsOptimal, KeepsSlackPartsNearTheirTargets) {
  // 10 unit items in 4 parts: the optimum 3 leaves slack, which pure left-to-right packing
  // would give to the last part (3, 3, 3, 1); the cuts should follow the targets instead.
  const std::vector<double> w(10, 1.0);
  EXPECT_EQ(chains_optimal(w, 4), (Cuts{0, 2, 5, 7, 10}));
  // With equal unit weights every part is within one item of n / K.
  const std::vector<double> many(1000, 1.0);
  const Cuts cuts = chains_optimal(many, 7);
  for (std::size_t j = 0; j + 1 < cuts.size(); ++j) {
    EXPECT_GE(cuts[j + 1] - cuts[j], 142);
    EXPECT_LE(cuts[j + 1] - cuts[j], 143);
  }
}

TEST(ChainsOptimal, HonoursNonUniformTargets) {
  const std::vector<double> w(100, 1.0);
  const std::vector<double> targets{1.0, 3.0};
  EXPECT_EQ(chains_optimal(w, 2, targets), (Cuts{0, 25, 100}));
  const std::vector<std::int64_t> wi(100, 2);
  EXPECT_EQ(chains_optimal(wi, 2, targets), (Cuts{0, 25, 100}));
  const std::vector<double> three{2.0, 1.0, 1.0};
  EXPECT_EQ(chains_optimal(w, 3, three), (Cuts{0, 50, 75, 100}));
}

TEST(ChainsOptimal, EdgeCases) {
  const std::vector<double> none;
  EXPECT_EQ(chains_optimal(none, 3), (Cuts{0, 0, 0, 0}));
  EXPECT_EQ(chains_greedy(none, 2), (Cuts{0, 0, 0}));

  const std::vector<double> w{4.0, 1.0, 2.0};
  EXPECT_EQ(chains_optimal(w, 1), (Cuts{0, 3}));

  // More parts than items: some parts stay empty, none holds two items.
  const Cuts many = chains_optimal(w, 7);
  expect_valid_cuts(many, w.size(), 7);
  for (std::size_t j = 0; j + 1 < many.size(); ++j) EXPECT_LE(many[j + 1] - many[j], 1);

  // Zero-weight items do not change the optimum; a run of them at a cut goes to the later part.
  const std::vector<double> zeros{0, 0, 5, 0, 0, 5, 0, 0};
  EXPECT_EQ(chains_optimal(zeros, 2), (Cuts{0, 3, 8}));

  // All-zero weights split by item count.
  const std::vector<double> weightless(10, 0.0);
  EXPECT_EQ(chains_optimal(weightless, 3), (Cuts{0, 3, 7, 10}));
  EXPECT_EQ(chains_greedy(weightless, 3), (Cuts{0, 3, 7, 10}));
  const std::vector<std::int64_t> weightless_int(10, 0);
  EXPECT_EQ(chains_optimal(weightless_int, 3), (Cuts{0, 3, 7, 10}));

  // A single item heavier than everything else together sits alone; the rest stay balanced.
  const std::vector<double> huge{1, 1, 1, 100, 1, 1, 1};
  EXPECT_EQ(chains_optimal(huge, 3), (Cuts{0, 3, 4, 7}));
  const std::vector<double> only{7.0};
  const Cuts single = chains_optimal(only, 4);
  expect_valid_cuts(single, 1, 4);
}

TEST(ChainsGreedy, EachCutWithinHalfAnItemOfItsTarget) {
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 1 + rng() % 2000;
    const int parts = 1 + static_cast<int>(rng() % 40);
    const auto weights = random_weights(rng, n, static_cast<int>(rng() % 3));
    const auto targets = random_targets(rng, parts);
    const Cuts cuts = chains_greedy(weights, parts, targets);
    expect_valid_cuts(cuts, n, parts);
    const Objective<double> objective(weights, targets);
    const double total = objective.prefix.back();
    const double max_item = *std::max_element(weights.begin(), weights.end());
    const double slack = 1e-9 * total;
    double cumulative = 0.0;
    for (int j = 0; j < parts; ++j) {
      const double share = targets.empty() ? 1.0 / parts : objective.share[j];
      const double part = objective.prefix[cuts[j + 1]] - objective.prefix[cuts[j]];
      EXPECT_LE(std::abs(part - share * total), max_item + slack) << "trial " << trial;
      cumulative += share;
      if (j + 1 < parts) {
        EXPECT_LE(std::abs(objective.prefix[cuts[j + 1]] - cumulative * total),
                  0.5 * max_item + slack);
      }
    }
  }
}

TEST(ChainsImbalance, MeasuresTheHeaviestPartAgainstItsTarget) {
  const std::vector<double> w{1, 1, 1, 1};
  EXPECT_DOUBLE_EQ(chains_imbalance(w, Cuts{0, 2, 4}), 0.0);
  EXPECT_DOUBLE_EQ(chains_imbalance(w, Cuts{0, 3, 4}), 0.5);  // 3 of a target 2
  EXPECT_DOUBLE_EQ(chains_imbalance(w, Cuts{0, 1, 4}, std::vector<double>{1, 3}), 0.0);
  EXPECT_DOUBLE_EQ(chains_imbalance(w, Cuts{0, 4}), 0.0);
  const std::vector<double> weightless(3, 0.0);
  EXPECT_DOUBLE_EQ(chains_imbalance(weightless, Cuts{0, 3, 3}), 0.0);
}

template <typename Call>
void expect_error(ErrorCode code, Call call) {
  try {
    call();
    ADD_FAILURE() << "no hpart::Error thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_NE(std::string(e.what()).find("chains_"), std::string::npos) << e.what();
  }
}

TEST(Chains, RejectsInvalidArguments) {
  const std::vector<double> w{1, 2, 3};
  const std::vector<std::int64_t> wi{1, 2, 3};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const auto bad = ErrorCode::invalid_argument;
  const auto bad_input = ErrorCode::invalid_input;

  expect_error(bad, [&] { (void)chains_optimal(w, 0); });
  expect_error(bad, [&] { (void)chains_optimal(wi, -2); });
  expect_error(bad, [&] { (void)chains_greedy(w, 0); });
  expect_error(bad, [&] { (void)chains_optimal(w, 2, std::vector<double>{1, 1, 1}); });
  expect_error(bad, [&] { (void)chains_greedy(w, 2, std::vector<double>{1, 0}); });
  expect_error(bad, [&] { (void)chains_optimal(wi, 2, std::vector<double>{1, -1}); });
  expect_error(bad, [&] { (void)chains_optimal(w, 2, std::vector<double>{1, nan}); });
  expect_error(bad, [&] { (void)chains_optimal(w, 2, std::vector<double>{1, inf}); });

  expect_error(bad_input, [&] { (void)chains_optimal(std::vector<double>{1, -1}, 2); });
  expect_error(bad_input, [&] { (void)chains_optimal(std::vector<double>{1, nan}, 2); });
  expect_error(bad_input, [&] { (void)chains_greedy(std::vector<double>{inf, 1}, 2); });
  expect_error(bad_input, [&] { (void)chains_optimal(std::vector<std::int64_t>{1, -1}, 2); });
  const std::int64_t top = std::numeric_limits<std::int64_t>::max();
  expect_error(bad_input, [&] { (void)chains_optimal(std::vector<std::int64_t>{top, 1}, 2); });

  expect_error(bad, [&] { (void)chains_imbalance(w, Cuts{0}); });
  expect_error(bad, [&] { (void)chains_imbalance(w, Cuts{0, 2, 1, 3}); });
  expect_error(bad, [&] { (void)chains_imbalance(w, Cuts{0, 2}); });
  expect_error(bad, [&] { (void)chains_imbalance(w, Cuts{0, 1, 3}, std::vector<double>{1}); });
}

}  // namespace
}  // namespace hpart::balance
