// The MPI-free pieces of repartition_graph: quotient arcs, excess, flows, gains, quotas.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "graph/repartition/graph_flow_plan.hpp"

namespace {

using hpart::repart::ArcFlow;
using hpart::repart::QuotientArc;

TEST(GraphFlowPlan, MergeSumsDuplicateArcsInOrder) {
  const auto m = hpart::repart::merge_arcs({{1, 0, 2.0, 1.0}, {0, 1, 3.0, 2.0}, {1, 0, 1.0, 1.0}, {0, 2, 1.0, 1.0}});
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].p, 0);
  EXPECT_EQ(m[0].q, 1);
  EXPECT_EQ(m[0].cut, 3.0);
  EXPECT_EQ(m[1].q, 2);
  EXPECT_EQ(m[2].p, 1);
  EXPECT_EQ(m[2].cut, 3.0);
  EXPECT_EQ(m[2].boundary, 2.0);
}

TEST(GraphFlowPlan, ExcessAboveTheAimMeetsScaledDeficits) {
  // mean 100, cap 110: part 0 supplies 30; parts 2 (deficit 30) and 3 (10) demand 3/4 of theirs.
  const std::vector<double> w{140, 100, 70, 90};
  const auto e = hpart::repart::balancing_excess(w, 0.1);
  ASSERT_EQ(e.size(), 4u);
  EXPECT_DOUBLE_EQ(e[0], 30.0);
  EXPECT_DOUBLE_EQ(e[1], 0.0);
  EXPECT_DOUBLE_EQ(e[2], -22.5);
  EXPECT_DOUBLE_EQ(e[3], -7.5);
  EXPECT_NEAR(std::accumulate(e.begin(), e.end(), 0.0), 0.0, 1e-12);
  const std::vector<double> zero{0, 0};
  EXPECT_EQ(hpart::repart::balancing_excess(zero, 0.1), (std::vector<double>{0, 0}));
}

double flow_of(const std::vector<ArcFlow>& f, int p, int q) {
  for (const ArcFlow& a : f)
    if (a.p == p && a.q == q) return a.amount;
  return 0.0;
}

TEST(GraphFlowPlan, FlowsFollowTheQuotientGraphWithinBoundaryLimits) {
  // A ring 0-1-2-3-0; 0 must send 10 to 2. Part 0's boundary towards 1 holds only 4, so the
  // rest goes round through 3.
  std::vector<QuotientArc> arcs;
  auto both = [&](int p, int q, double bp, double bq) {
    arcs.push_back({p, q, 5.0, bp});
    arcs.push_back({q, p, 5.0, bq});
  };
  both(0, 1, 4.0, 50.0);
  both(1, 2, 50.0, 50.0);
  both(2, 3, 50.0, 50.0);
  both(0, 3, 50.0, 50.0);
  const auto merged = hpart::repart::merge_arcs(arcs);
  const std::vector<double> excess{10, 0, -10, 0};
  const auto f = hpart::repart::plan_flows(4, merged, excess);
  EXPECT_NEAR(flow_of(f, 0, 1), 4.0, 1e-9);
  EXPECT_NEAR(flow_of(f, 1, 2), 4.0, 1e-9);
  EXPECT_NEAR(flow_of(f, 0, 3), 6.0, 1e-9);
  EXPECT_NEAR(flow_of(f, 3, 2), 6.0, 1e-9);
  for (const ArcFlow& a : f) EXPECT_GT(a.amount, 0.0);
}

TEST(GraphFlowPlan, GainTradesCutAgainstMigrationByItr) {
  using hpart::repart::move_gain;
  EXPECT_DOUBLE_EQ(move_gain(3, 1, 2, false, false, 1000.0), 2.0);      // between foreign parts: cut only
  EXPECT_DOUBLE_EQ(move_gain(2, 2, 4, true, false, 2.0), 2.0);          // going home saves w / itr
  EXPECT_DOUBLE_EQ(move_gain(2, 1, 4, false, true, 2.0), 1.0 - 2.0);    // leaving home costs it
  EXPECT_LT(move_gain(3, 1, 10, false, true, 0.1), 0.0);                // small itr: stay home
}

TEST(GraphFlowPlan, TakeCountRoundsToTheNearestPrefix) {
  using hpart::repart::take_count;
  const std::vector<double> w{3, 3, 3};
  EXPECT_EQ(take_count(w, 5.0), 2u);
  EXPECT_EQ(take_count(w, 4.4), 1u);
  EXPECT_EQ(take_count(w, 100.0), 3u);
  EXPECT_EQ(take_count(w, 0.0), 0u);
  EXPECT_EQ(take_count(w, 1.0), 0u);  // one vertex would overshoot by more than half its weight
}

}  // namespace
