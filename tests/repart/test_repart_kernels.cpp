// The repartitioning kernels without MPI: load model and trend, least squares, decision rule,
// diffusion flow, part contacts and relabelling.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <numeric>
#include <vector>

#include "rebalance/cost_fit.hpp"
#include "kernels/diffusion_flow.hpp"
#include "rebalance/load_model.hpp"
#include "points/part_contacts.hpp"
#include "kernels/part_relabel.hpp"
#include "rebalance/rebalance_rule.hpp"

namespace {

using namespace hpart::repart;

TEST(LoadModel, ExtrapolatesALinearDrift) {
  LoadModel m(0.3, 0.3);
  for (int t = 0; t < 30; ++t) {
    const std::vector<double> loads = {10.0 + t, 10.0 - 0.2 * t, 10.0};
    m.observe(loads);
  }
  // Holt's method tracks a linear trend without lag once it has learnt it.
  const std::vector<double> p = m.predict(5);
  EXPECT_NEAR(p[0], 10.0 + 34, 0.05);
  EXPECT_NEAR(p[1], 10.0 - 0.2 * 34, 0.02);
  EXPECT_NEAR(p[2], 10.0, 1e-9);
  EXPECT_NEAR(load_imbalance(std::vector<double>{2, 1, 1, 0}), 1.0, 1e-12);
  EXPECT_NEAR(load_gap(std::vector<double>{2, 1, 1, 0}), 1.0, 1e-12);
}

TEST(LoadModel, SmoothsNoiseAndRestartsOnANewLength) {
  LoadModel m(0.3, 0.3);
  for (int t = 0; t < 200; ++t) m.observe(std::vector<double>{1.0 + ((t % 2) ? 0.1 : -0.1), 1.0});
  EXPECT_NEAR(m.predict(0)[0], 1.0, 0.08);  // the level averages the alternating noise
  EXPECT_LT(std::abs(m.predict(10)[0] - 1.0), 0.3);
  m.observe(std::vector<double>{5.0, 5.0, 5.0});
  EXPECT_EQ(m.observations(), 1);
  EXPECT_EQ(m.size(), 3u);
}

TEST(CostFit, RecoversLinearCoefficients) {
  CostFit fit(1.0);
  // rank rows: y = 0.5 * f0 + 2 * f1 + 3 * count
  for (int step = 0; step < 4; ++step) {
    std::vector<double> gram(9, 0.0), rhs(3, 0.0);
    for (int r = 0; r < 2; ++r) {
      const double f0 = 10.0 + 7 * step + 3 * r, f1 = 1.0 + step * r, count = 5.0 + r + step;
      const std::vector<double> x = {f0, f1, count};
      add_normal_row(x, 0.5 * f0 + 2 * f1 + 3 * count, gram, rhs);
    }
    fit.add(gram, rhs, 2);
  }
  ASSERT_EQ(fit.coefficients().size(), 3u);
  EXPECT_NEAR(fit.coefficients()[0], 0.5, 1e-8);
  EXPECT_NEAR(fit.coefficients()[1], 2.0, 1e-8);
  EXPECT_NEAR(fit.coefficients()[2], 3.0, 1e-8);
}

TEST(CostFit, NoModelWhileUnderdeterminedOrCollinear) {
  CostFit fit(1.0);
  std::vector<double> gram(4, 0.0), rhs(2, 0.0);
  add_normal_row(std::vector<double>{2.0, 1.0}, 3.0, gram, rhs);
  fit.add(gram, rhs, 1);
  EXPECT_TRUE(fit.coefficients().empty());  // one sample, two unknowns
  std::fill(gram.begin(), gram.end(), 0.0), std::fill(rhs.begin(), rhs.end(), 0.0);
  add_normal_row(std::vector<double>{4.0, 2.0}, 6.0, gram, rhs);  // the same direction again
  fit.add(gram, rhs, 1);
  EXPECT_TRUE(fit.coefficients().empty());
}

RuleInputs inputs(double cost) {
  RuleInputs in;
  in.horizon = 50;
  in.tolerance = 0.02;
  in.residual_imbalance = 0.015;
  in.predicted_cost_seconds = cost;
  return in;
}

TEST(RebalanceRule, BalancedLoadNeverRebalances) {
  LoadModel m(0.3, 0.3);
  for (int t = 0; t < 5; ++t) m.observe(std::vector<double>{1.0, 1.01, 0.99, 1.0});
  const hpart::Decision d = decide_rebalance(m, inputs(0.0));
  EXPECT_FALSE(d.rebalance) << d.reason;
  EXPECT_LE(d.imbalance, 0.02);
}

TEST(RebalanceRule, NothingObservedNeverRebalances) {
  LoadModel m(0.3, 0.3);
  EXPECT_FALSE(decide_rebalance(m, inputs(0.0)).rebalance);
}

TEST(RebalanceRule, LargeImbalanceRebalancesWhenCheapNotWhenDear) {
  LoadModel m(0.3, 0.3);
  for (int t = 0; t < 3; ++t) m.observe(std::vector<double>{1.5, 1.0, 1.0, 0.5});  // seconds per step
  const hpart::Decision cheap = decide_rebalance(m, inputs(0.1));
  EXPECT_TRUE(cheap.rebalance) << cheap.reason;
  // gap 0.5 s per step, residual 0.015: saving ~ 50 * (0.5 - 0.015) s
  EXPECT_NEAR(cheap.predicted_gain_seconds, 50 * (0.5 - 0.015), 1e-6);
  EXPECT_NEAR(cheap.predicted_loss_seconds, 25.0, 1e-6);
  const hpart::Decision dear = decide_rebalance(m, inputs(100.0));
  EXPECT_FALSE(dear.rebalance) << dear.reason;
}

TEST(RebalanceRule, DriftCountsOnlyWhatARebalanceSaves) {
  // A hotspot drifting from part 0 to part 1: the gap grows by 0.01 s per step. Rebalancing now
  // saves the current gap for the horizon, not the regrowth.
  LoadModel m(0.3, 0.3);
  for (int t = 0; t < 10; ++t) m.observe(std::vector<double>{1.0 + 0.02 * t, 1.0 - 0.02 * t});
  const hpart::Decision d = decide_rebalance(m, inputs(0.0));
  EXPECT_TRUE(d.rebalance);
  EXPECT_GT(d.predicted_loss_seconds, d.predicted_gain_seconds);
  EXPECT_GT(d.predicted_imbalance, d.imbalance);
  // Gain ~ H * (current gap - residual): 50 * (0.18 - 0.015)
  EXPECT_NEAR(d.predicted_gain_seconds, 50 * (0.2 - 0.015), 50 * 0.03);
}

TEST(DiffusionFlow, ConservesAndBalancesAPath) {
  // Path 0-1-2-3, excess +3, -1, -1, -1: flows 3, 2, 1 along the path.
  const std::vector<PartEdge> edges = {{0, 1, 1.0}, {1, 2, 1.0}, {2, 3, 1.0}};
  const std::vector<double> excess = {3, -1, -1, -1};
  const std::vector<double> f = diffusion_flow(4, edges, excess);
  EXPECT_NEAR(f[0], 3.0, 1e-8);
  EXPECT_NEAR(f[1], 2.0, 1e-8);
  EXPECT_NEAR(f[2], 1.0, 1e-8);
}

TEST(DiffusionFlow, NetOutflowEqualsExcessOnACycleWithChords) {
  const std::vector<PartEdge> edges = {{0, 1, 1}, {1, 2, 2}, {2, 3, 1}, {3, 4, 3}, {0, 4, 1}, {0, 2, 0.5}, {1, 3, 1}};
  const std::vector<double> excess = {4, -1, 0.5, -2, -1.5};
  const std::vector<double> f = diffusion_flow(5, edges, excess);
  std::vector<double> out(5, 0.0);
  for (std::size_t k = 0; k < edges.size(); ++k) out[edges[k].p] += f[k], out[edges[k].q] -= f[k];
  for (int p = 0; p < 5; ++p) EXPECT_NEAR(out[p], excess[p], 1e-7);
}

TEST(DiffusionFlow, DisconnectedComponentsBalanceInside) {
  const std::vector<PartEdge> edges = {{0, 1, 1}, {2, 3, 1}};
  const std::vector<double> excess = {2, 0, -1, -1};  // component {0,1} has +2 net: only +1/-1 moves
  const std::vector<double> f = diffusion_flow(4, edges, excess);
  EXPECT_NEAR(f[0], 1.0, 1e-9);
  EXPECT_NEAR(f[1], 0.0, 1e-9);
}

TEST(TransportFlow, ConservesAndBalancesAPath) {
  const std::vector<PartEdge> edges = {{0, 1, 1.0}, {1, 2, 1.0}, {2, 3, 1.0}};
  const std::vector<double> f = transport_flow(4, edges, std::vector<double>{3, -1, -1, -1});
  EXPECT_NEAR(f[0], 3.0, 1e-12);
  EXPECT_NEAR(f[1], 2.0, 1e-12);
  EXPECT_NEAR(f[2], 1.0, 1e-12);
}

TEST(TransportFlow, FillsTheNearestSinkFirstAndMovesLessThanDiffusion) {
  // Path 0-1-2-3-4: supply 1 at part 1, demand 1 at parts 0 and 4 (only one is needed).
  const std::vector<PartEdge> edges = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 4, 1}};
  const std::vector<double> excess = {-1, 1, 0, 0, -1};
  const std::vector<double> t = transport_flow(5, edges, excess);
  EXPECT_NEAR(t[0], -1.0, 1e-12);  // 1 -> 0
  EXPECT_NEAR(t[1] + t[2] + t[3], 0.0, 1e-12);
  // Net outflow equals the excess where supply meets demand; the 1-norm is the hop count.
  double moved = 0.0;
  for (double x : t) moved += std::abs(x);
  EXPECT_NEAR(moved, 1.0, 1e-12);
}

TEST(TransportFlow, LimitsDivertFlowToAPathWithRoom) {
  // Square 0-1-2-3-0: supply 2 at part 0, demand 2 at part 2, two 2-hop paths (via 1 and via 3).
  // Edge 0-1 has room for 0.5 only: the rest goes via 3.
  const std::vector<PartEdge> edges = {{0, 1, 4}, {1, 2, 4}, {2, 3, 1}, {0, 3, 1}};
  const std::vector<double> excess = {2, 0, -2, 0};
  const std::vector<double> big(4, 10.0);
  std::vector<double> cap_pq = big;
  cap_pq[0] = 0.5;
  const std::vector<double> f = transport_flow(4, edges, excess, cap_pq, big);
  EXPECT_NEAR(f[0], 0.5, 1e-12);   // 0 -> 1
  EXPECT_NEAR(f[1], 0.5, 1e-12);   // 1 -> 2
  EXPECT_NEAR(f[3], 1.5, 1e-12);   // 0 -> 3
  EXPECT_NEAR(f[2], -1.5, 1e-12);  // 3 -> 2
  // Unlimited, it is the plain transport flow: all along the larger interfaces via 1.
  const std::vector<double> g = transport_flow(4, edges, excess, big, big);
  const std::vector<double> h = transport_flow(4, edges, excess);
  for (std::size_t k = 0; k < edges.size(); ++k) EXPECT_NEAR(g[k], h[k], 1e-12);
  // No room anywhere: routed regardless of the limits, still conserving.
  const std::vector<double> none(4, 0.0);
  const std::vector<double> r = transport_flow(4, edges, excess, none, none);
  EXPECT_NEAR(r[0] + r[3], 2.0, 1e-12);
  EXPECT_NEAR(r[1] - r[2], 2.0, 1e-12);
}

TEST(PartContacts, TwoSlabsTouchAlongOnePlane) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  const ContactGrid g = make_contact_grid(3, lo, hi, 3, 64.0 * 64 * 64 * 4);
  ASSERT_EQ(g.cells[0], 64);
  const std::size_t wpp = g.words_per_part();
  std::vector<std::uint64_t> bits(3 * wpp, 0);
  // part 0: x < 0.5; part 1: x >= 0.5; part 2: empty
  for (int z = 0; z < 64; ++z)
    for (int y = 0; y < 64; ++y)
      for (int x = 0; x < 64; ++x) {
        const double pt[3] = {(x + 0.5) / 64, (y + 0.5) / 64, (z + 0.5) / 64};
        const auto c = static_cast<std::size_t>(g.cell_of(pt));
        bits[(x < 32 ? 0 : 1) * wpp + c / 64] |= std::uint64_t{1} << (c % 64);
      }
  const PartContacts pc = part_contacts(g, 3, bits);
  ASSERT_EQ(pc.edges.size(), 1u);
  EXPECT_EQ(pc.edges[0].p, 0);
  EXPECT_EQ(pc.edges[0].q, 1);
  EXPECT_DOUBLE_EQ(pc.edges[0].capacity, 64.0 * 64.0);
  EXPECT_DOUBLE_EQ(pc.surface, 64.0 * 64.0);
  // Near parts: the two layers at the interface see both parts, the others only their own.
  const NearParts near = near_parts(g, 3, bits);
  auto near_of = [&](int x) {
    const std::size_t c = static_cast<std::size_t>(x + 64 * (5 + 64 * 7));
    return std::vector<int>(near.parts.begin() + near.start[c], near.parts.begin() + near.start[c + 1]);
  };
  EXPECT_EQ(near_of(0), (std::vector<int>{0}));
  EXPECT_EQ(near_of(31), (std::vector<int>{0, 1}));
  EXPECT_EQ(near_of(32), (std::vector<int>{0, 1}));
  EXPECT_EQ(near_of(40), (std::vector<int>{1}));
  // Two rings: two layers either side of the interface.
  const NearParts near2 = near_parts(g, 3, bits, 2);
  auto near2_of = [&](int x) {
    const std::size_t c = static_cast<std::size_t>(x + 64 * (5 + 64 * 7));
    return std::vector<int>(near2.parts.begin() + near2.start[c], near2.parts.begin() + near2.start[c + 1]);
  };
  EXPECT_EQ(near2_of(29), (std::vector<int>{0}));
  EXPECT_EQ(near2_of(30), (std::vector<int>{0, 1}));
  EXPECT_EQ(near2_of(33), (std::vector<int>{0, 1}));
  EXPECT_EQ(near2_of(34), (std::vector<int>{1}));
}

// A grid of the given cells per side (2D when nz == 0), with cells of unit side.
ContactGrid small_grid(int nx, int ny, int nz) {
  const double lo[3] = {0, 0, 0}, hi[3] = {static_cast<double>(nx), static_cast<double>(ny), static_cast<double>(nz)};
  ContactGrid g = make_contact_grid(nz > 0 ? 3 : 2, lo, hi, 1, 1.0);
  g.inv_cell = 1.0;
  g.cells = {nx, ny, nz > 0 ? nz : 1};
  return g;
}

// Random occupancy: each cell holds part (x + y + z) / 3 mod K, and with probability 1/5 another.
std::vector<std::uint64_t> random_bits(const ContactGrid& g, int K, unsigned seed) {
  const std::size_t wpp = g.words_per_part();
  std::vector<std::uint64_t> bits(static_cast<std::size_t>(K) * wpp, 0);
  unsigned r = seed;
  auto next = [&] { return r = r * 1103515245u + 12345u, (r >> 16) & 0x7fff; };
  const int sz = g.dim == 3 ? g.cells[2] : 1;
  for (int z = 0; z < sz; ++z)
    for (int y = 0; y < g.cells[1]; ++y)
      for (int x = 0; x < g.cells[0]; ++x) {
        const auto c = static_cast<std::size_t>(x + g.cells[0] * (y + g.cells[1] * z));
        auto set = [&](int p) { bits[static_cast<std::size_t>(p) * wpp + c / 64] |= std::uint64_t{1} << (c % 64); };
        set((x + y + z) / 3 % K);
        if (next() % 5 == 0) set(static_cast<int>(next() % static_cast<unsigned>(K)));
      }
  return bits;
}

TEST(PartContacts, DilatedRowsMarkTheCellsWithinTheRings) {
  for (const auto& dims : {std::array<int, 3>{7, 5, 4}, std::array<int, 3>{70, 3, 2}, std::array<int, 3>{9, 6, 0}}) {
    const ContactGrid g = small_grid(dims[0], dims[1], dims[2]);
    const GridMasks m = grid_masks(g);
    const std::vector<std::uint64_t> bits = random_bits(g, 5, 7);
    const std::size_t wpp = g.words_per_part();
    std::vector<std::uint64_t> out, scratch;
    auto bit = [](const std::uint64_t* row, long long c) { return (row[c / 64] >> (c % 64)) & 1u; };
    const int sz = g.dim == 3 ? g.cells[2] : 1;
    for (int rings : {1, 2}) {
      dilate_row(g, m, std::span<const std::uint64_t>(bits).subspan(2 * wpp, wpp), rings, out, scratch);
      ASSERT_EQ(out.size(), wpp);
      for (int z = 0; z < sz; ++z)
        for (int y = 0; y < g.cells[1]; ++y)
          for (int x = 0; x < g.cells[0]; ++x) {
            bool near = false;  // brute force: a cell of part 2 within `rings` face steps
            for (int Z = 0; Z < sz; ++Z)
              for (int Y = 0; Y < g.cells[1]; ++Y)
                for (int X = 0; X < g.cells[0]; ++X)
                  if (std::abs(X - x) + std::abs(Y - y) + std::abs(Z - z) <= rings &&
                      bit(bits.data() + 2 * wpp, X + g.cells[0] * (Y + g.cells[1] * Z)))
                    near = true;
            const long long c = x + g.cells[0] * (y + g.cells[1] * z);
            EXPECT_EQ(bit(out.data(), c) != 0, near) << "cell " << x << " " << y << " " << z << " rings " << rings;
          }
      for (std::size_t c = static_cast<std::size_t>(g.num_cells()); c < 64 * wpp; ++c)
        EXPECT_EQ(bit(out.data(), static_cast<long long>(c)), 0u);  // nothing past the last cell
    }
  }
}

TEST(PartContacts, UpdatedTableEqualsAFreshCount) {
  for (const auto& dims : {std::array<int, 3>{12, 9, 7}, std::array<int, 3>{30, 20, 0}}) {
    const ContactGrid g = small_grid(dims[0], dims[1], dims[2]);
    const int K = 6;
    std::vector<std::uint64_t> bits = random_bits(g, K, 3);
    ContactTable table;
    table.rebuild(g, K, bits);
    const PartContacts first = part_contacts(g, K, bits);
    EXPECT_GT(first.edges.size(), 3u);
    EXPECT_EQ(table.contacts().surface, first.surface);
    // A few cells change their parts (bits set and cleared), several times over.
    unsigned r = 11;
    for (int round = 0; round < 5; ++round) {
      std::vector<std::uint64_t> next = bits;
      for (int k = 0; k < 12; ++k) {
        r = r * 1103515245u + 12345u;
        const std::size_t p = (r >> 8) % K, c = (r >> 12) % static_cast<std::size_t>(g.num_cells());
        next[p * g.words_per_part() + c / 64] ^= std::uint64_t{1} << (c % 64);
      }
      ASSERT_TRUE(table.update(bits, next));
      const PartContacts want = part_contacts(g, K, next), got = table.contacts();
      ASSERT_EQ(got.edges.size(), want.edges.size()) << "round " << round;
      for (std::size_t e = 0; e < want.edges.size(); ++e) {
        EXPECT_EQ(got.edges[e].p, want.edges[e].p);
        EXPECT_EQ(got.edges[e].q, want.edges[e].q);
        EXPECT_EQ(got.edges[e].capacity, want.edges[e].capacity);
      }
      EXPECT_EQ(got.surface, want.surface);
      bits = std::move(next);
    }
    // A wholly different bitmap is left to a rebuild.
    EXPECT_FALSE(table.update(bits, random_bits(g, K, 99)));
    EXPECT_FALSE(table.valid());
  }
}

TEST(PartRelabel, MaximisesOverlapOnASmallExactCase) {
  // overlaps (old, new, w): the best matching is new0->old2, new1->old0, new2->old1 (weight 9+8+7)
  std::vector<Overlap> ov = {{0, 0, 5}, {2, 0, 9}, {0, 1, 8}, {1, 1, 6}, {1, 2, 7}, {2, 2, 1}};
  const std::vector<int> label = relabel_by_overlap(3, ov);
  EXPECT_EQ(label, (std::vector<int>{2, 0, 1}));
  // Exhaustive check: no permutation keeps more weight.
  std::vector<int> perm = {0, 1, 2};
  double best = 0.0;
  auto kept = [&](const std::vector<int>& l) {
    double s = 0;
    for (const Overlap& o : ov)
      if (l[o.new_part] == o.old_part) s += o.weight;
    return s;
  };
  do best = std::max(best, kept(perm));
  while (std::next_permutation(perm.begin(), perm.end()));
  EXPECT_DOUBLE_EQ(kept(label), best);
}

TEST(PartRelabel, UnmatchedPartsTakeFreeLabels) {
  const std::vector<int> label = relabel_by_overlap(4, {{3, 1, 2.0}});
  EXPECT_EQ(label, (std::vector<int>{0, 3, 1, 2}));
}

}  // namespace
