// The promise sweep over Migration (plan, fixed, variable and serialised moves), the Rebalancer's
// options and feedback calls, and detect_topology.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "promise_sweep.hpp"
#include "test_points.hpp"

namespace {

using namespace hpart::testing;
using namespace hpart::testing::promise;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// n objects per rank (uneven), parts i % K.
struct Objects {
  std::vector<hpart::part_t> parts;
  std::vector<hpart::gid_t> ids;
};
Objects make_objects(MPI_Comm comm, int K = 5) {
  const World w(comm);
  const auto [b, e] = uneven_block(300, w.rank, w.size);
  Objects o;
  for (long long g = b; g < e; ++g) o.parts.push_back(static_cast<hpart::part_t>(g % K)), o.ids.push_back(g);
  return o;
}

TEST(PromiseSweep, MigrationRefusesBadArgumentsOnEveryRank) {
  on_world_and_halves([](MPI_Comm comm) {
    const hpart::Comm c(comm);
    const World w(comm);
    for (const Where where : kEveryWhere) {
      const std::string at = std::string(" / ") + to_string(where);
      Objects o = make_objects(comm);
      const bool bad = is_bad_rank(comm, where, !o.parts.empty());
      {  // a part out of range
        Objects x = o;
        if (bad && !x.parts.empty()) x.parts[0] = 5;
        expect_same_error(comm, "Migration / part out of range" + at,
                          [&] { hpart::Migration m(c, x.parts, hpart::PartOwners{5, c.size()}); }, "outside [0, 5)");
      }
      {  // an owner out of range
        std::vector<int> owner(5, 0);
        if (bad) owner[2] = c.size();
        expect_same_error(comm, "Migration / owner out of range" + at,
                          [&] { hpart::Migration m(c, o.parts, owner); }, "owned by rank|owner map differs");
      }
      {  // a PartOwners for another communicator size
        expect_same_error(comm, "Migration / PartOwners for another size" + at, [&] {
          hpart::Migration m(c, o.parts, hpart::PartOwners{5, bad ? c.size() + 1 : c.size()});
        }, "ranks but the communicator has");
      }
      if (where == Where::all || c.size() == 1) continue;  // below: arguments that differ between ranks
      {
        std::vector<int> owner(5, 0);
        if (bad) owner[4] = c.size() - 1;
        expect_same_error(comm, "Migration / owner map differs" + at, [&] { hpart::Migration m(c, o.parts, owner); },
                          "owner map differs between ranks");
      }
      const hpart::Migration plan(c, o.parts, hpart::PartOwners{5, c.size()}, o.ids);
      {  // the record size of a move
        std::vector<double> d(o.parts.size(), 1.0);
        std::vector<float> f(o.parts.size(), 1.0f);
        expect_same_error(comm, "Migration::move / record size differs" + at, [&] {
          if (bad)
            (void)plan.move(f);
          else
            (void)plan.move(d);
        }, "record size");
      }
      {  // the exchange setting
        hpart::Migration m = plan;
        if (bad) m.set_exchange(hpart::Exchange::sparse);
        else m.set_exchange(hpart::Exchange::dense);
        std::vector<double> d(o.parts.size(), 1.0);
        if (c.size() > 1)
          expect_same_error(comm, "Migration::move / exchange differs" + at, [&] { (void)m.move(d); }, "exchange");
      }
      {  // a record count that does not match the plan
        std::vector<double> d(o.parts.size() + (bad ? 1 : 0), 1.0);
        expect_same_error(comm, "Migration::move / record count" + at, [&] { (void)plan.move(d); }, "records but the plan");
      }
      {  // variable sizes that reach the byte count only by wrapping past 2^64
        std::vector<std::size_t> sizes(o.parts.size(), 0);
        std::vector<unsigned char> bytes(sizes.size() >= 2 ? 8 : 0);
        if (bad && sizes.size() >= 2) sizes[0] = ~std::size_t{0} - 7, sizes[1] = 16;  // 2^64 + 8 = 8 mod 2^64
        if (sizes.size() >= 2 && !bad) sizes[0] = 8;
        expect_same_error(comm, "Migration::move_variable / sizes wrap past 2^64" + at, [&] {
          (void)plan.move_variable(sizes, bytes);
        }, "2^64");
      }
      {  // sizes that do not add up to the bytes
        std::vector<std::size_t> sizes(o.parts.size(), 1);
        std::vector<unsigned char> bytes(sizes.size() + (bad ? 3 : 0), 7);
        expect_same_error(comm, "Migration::move_variable / sizes vs bytes" + at,
                          [&] { (void)plan.move_variable(sizes, bytes); }, "add up to");
      }
      {  // a serialiser whose pack writes less than its size said, on one rank
        struct Liar : hpart::Serialiser {
          bool lie = false;
          [[nodiscard]] std::size_t size(std::size_t) const override { return 8; }
          void pack(std::size_t i, hpart::ByteWriter& out) const override {
            const double v = static_cast<double>(i);
            out.write(&v, lie ? 4 : 8);
          }
          void unpack(std::size_t, hpart::ByteReader& in) override { (void)in.get<double>(); }
        } s;
        s.lie = bad;  // the bad rank holds objects (first: by choice; last: the most)
        expect_same_error(comm, "Migration::move(Serialiser) / pack writes less" + at, [&] { plan.move(s); }, "pack(");
      }
      {  // a serialiser whose size() declares more than any rank can hold
        struct Huge : hpart::Serialiser {
          bool huge = false;
          [[nodiscard]] std::size_t size(std::size_t) const override { return huge ? (std::size_t{1} << 50) : 8; }
          void pack(std::size_t, hpart::ByteWriter& out) const override { out.put(1.0); }
          void unpack(std::size_t, hpart::ByteReader& in) override { (void)in.get<double>(); }
        } s;
        s.huge = bad && !o.parts.empty();
        int any = s.huge ? 1 : 0;
        MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, comm);
        if (any)
          expect_same_error(comm, "Migration::move(Serialiser) / 2^50-byte objects" + at, [&] { plan.move(s); }, "needs");
      }
    }
  });
}

TEST(PromiseSweep, RebalancerRefusesDifferingOptionsAndBadFeedback) {
  using Opt = hpart::RebalanceOptions;
  struct OptionMutation {
    const char* name;
    void (*apply)(Opt&);
  };
  const OptionMutation options[] = {
      {"parts", [](Opt& o) { o.parts = 6; }},
      {"curve", [](Opt& o) { o.curve = hpart::Curve::morton; }},
      {"imbalance", [](Opt& o) { o.imbalance = 0.05; }},
      {"horizon", [](Opt& o) { o.horizon = 10; }},
      {"smoothing", [](Opt& o) { o.smoothing = 0.5; }},
      {"trend_smoothing", [](Opt& o) { o.trend_smoothing = 0.5; }},
      {"forgetting", [](Opt& o) { o.forgetting = 0.5; }},
      {"max_surface_growth", [](Opt& o) { o.max_surface_growth = 2.0; }},
      {"incremental", [](Opt& o) { o.incremental = false; }},
      {"max_rounds", [](Opt& o) { o.max_rounds = 3; }},
      {"itr", [](Opt& o) { o.itr = 1.0; }},
  };
  on_world_and_halves([&](MPI_Comm comm) {
    const hpart::Comm c(comm);
    for (const auto& m : options)
      for (const Where where : {Where::first, Where::last}) {
        Opt o{.parts = 5};
        if (is_bad_rank(comm, where, true)) m.apply(o);
        if (c.size() == 1) continue;  // one rank cannot differ from itself
        expect_same_error(comm, std::string("Rebalancer / ") + m.name + " differs / " + to_string(where),
                          [&] { hpart::Rebalancer rb(c, o); }, std::string(m.name) + " differs between ranks");
      }
    // Feedback: bad on one rank.
    const World w(comm);
    const bool last = w.rank == w.size - 1;
    const auto [b, e] = uneven_block(300, w.rank, w.size);
    const LocalPoints pts = make_points(Shape::uniform, 3, b, e, true);
    const hpart::PointSet view{pts.coords, 3, pts.weights, 1, pts.ids};
    hpart::Rebalancer rb(c, {.parts = 5});
    const hpart::Partition p = rb.partition(view);
    std::vector<double> costs(p.parts.size(), 1.0);
    expect_same_error(comm, "observe / NaN step on the last rank",
                      [&] { rb.observe({.step_seconds = last ? kNaN : 1.0}); }, "step_seconds");
    if (c.size() > 1)
      expect_same_error(comm, "observe / step set on some ranks only", [&] {
        hpart::Observation obs;
        if (!last) obs.step_seconds = 1.0;
        rb.observe(obs);
      }, "step_seconds is set on some ranks only");
    std::vector<double> short_costs(costs.begin(), costs.end() - (last && !costs.empty() ? 1 : 0));
    expect_same_error(comm, "observe / costs length on the last rank",
                      [&] { rb.observe({.object_costs = short_costs}); }, "object_costs has");
    std::vector<double> bad_costs = costs;
    if (last && !bad_costs.empty()) bad_costs[0] = -1.0;
    expect_same_error(comm, "observe / negative cost on the last rank", [&] { rb.observe({.object_costs = bad_costs}); },
                      "object_costs[0]");
    std::vector<hpart::part_t> bad_parts = p.parts;
    if (last && !bad_parts.empty()) bad_parts[0] = 9;
    expect_same_error(comm, "observe / part out of range on the last rank",
                      [&] { rb.observe({.object_costs = costs, .parts = bad_parts}); }, "outside [0, 5)");
    expect_same_error(comm, "record_migration_seconds / NaN on the last rank",
                      [&] { rb.record_migration_seconds(last ? kNaN : 0.1); }, "not a time");
    expect_same_error(comm, "rebalance / part out of range on the last rank",
                      [&] { rb.rebalance(view, bad_parts); }, "outside [0, 5)");
    // And the Rebalancer still works afterwards (no state left behind by the failed calls).
    expect_success(comm, "Rebalancer after failures", [&] {
      rb.observe({.step_seconds = 1.0, .object_costs = costs});
      const hpart::Partition q = rb.rebalance(view, p.parts);
      EXPECT_EQ(q.parts.size(), p.parts.size());
    });
  });
}

TEST(PromiseSweep, TopologySpecMustMatchAndAgree) {
  on_world_and_halves([](MPI_Comm comm) {
    const hpart::Comm c(comm);
    expect_same_error(comm, "detect_topology / a spec for another size",
                      [&] { hpart::detect_topology(c, "3x" + std::to_string(c.size() + 1)); }, "topology");
    if (c.size() % 2 == 0 && c.size() > 1)
      expect_same_error(comm, "detect_topology / specs that differ", [&] {
        hpart::detect_topology(c, c.rank() == 0 ? "2x" + std::to_string(c.size() / 2) : "1x" + std::to_string(c.size()));
      }, "differs between ranks");
    if (c.size() > 1)
      expect_same_error(comm, "detect_topology / a spec on some ranks only", [&] {
        hpart::detect_topology(c, c.rank() == 0 ? "1x" + std::to_string(c.size()) : "");
      }, "topology spec");
  });
}

}  // namespace
