// The promise sweep over the point-set entry points: hpart::partition (both curves),
// partition_points_hierarchical, the Rebalancer (partition, rebalance), evaluate_partition and
// Migration's plan, each against every mutation that applies to it.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "promise_sweep.hpp"
#include "test_points.hpp"

namespace {

using namespace hpart::testing;
using namespace hpart::testing::promise;

struct PointInput {
  LocalPoints p;
  int ncon = 1;
  hpart::PointOptions opts;
  std::vector<double> targets;  // opts.target_sizes views it when given
  [[nodiscard]] hpart::PointSet view() const { return {p.coords, p.dim, p.weights, ncon, p.ids}; }
  [[nodiscard]] std::size_t size() const { return p.dim > 0 ? p.coords.size() / static_cast<std::size_t>(p.dim) : 0; }
};

PointInput make_input(MPI_Comm comm, long long n = 600, int parts = 5) {
  const World w(comm);
  const auto [b, e] = uneven_block(n, w.rank, w.size);
  PointInput in;
  in.p = make_points(Shape::uniform, 3, b, e, true);
  in.opts.parts = parts;
  return in;
}

// What a mutation touches decides which entry points it applies to.
enum Touches : unsigned { kValues = 1, kIds = 2, kShape = 4, kOptions = 8, kTargets = 16, kPartsOption = 32, kCoords = 64 };

struct Mutation {
  const char* name;
  const char* needle;
  unsigned touches;
  bool needs_objects;  // changes a value of a local object: only ranks holding objects apply it
  void (*apply)(PointInput&);
};

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

const Mutation kMutations[] = {
    // Values wrong on some ranks only.
    {"NaN coordinate", "coordinates must be finite", kCoords, true, [](PointInput& in) { in.p.coords[1] = kNaN; }},
    {"infinite coordinate", "coordinates must be finite", kCoords, true, [](PointInput& in) { in.p.coords.back() = -kInf; }},
    {"negative weight", "must be finite and >= 0", kValues, true, [](PointInput& in) { in.p.weights[0] = -1.0; }},
    {"NaN weight", "must be finite and >= 0", kValues, true, [](PointInput& in) { in.p.weights.back() = kNaN; }},
    {"infinite weight", "must be finite and >= 0", kValues, true, [](PointInput& in) { in.p.weights[0] = kInf; }},
    {"negative id", "must be", kIds, true, [](PointInput& in) { in.p.ids[0] = -5; }},
    {"duplicate id", "given twice", kIds, true, [](PointInput& in) { in.p.ids.back() = 0; }},
    {"id length", "ids", kIds, false, [](PointInput& in) { in.p.ids.push_back(1LL << 40); }},
    {"weights length", "weights has", kValues, false, [](PointInput& in) { in.p.weights.push_back(1.0); }},
    {"coords not a multiple of dim", "not a multiple of dim", kCoords, false,
     [](PointInput& in) { in.p.coords.push_back(0.5); }},
    // Arguments that must agree across ranks, differing on some.
    {"parts differs", "parts differs between ranks", kOptions | kPartsOption, false,
     [](PointInput& in) { in.opts.parts += 1; }},
    {"curve differs", "curve differs between ranks", kOptions, false,
     [](PointInput& in) { in.opts.curve = hpart::Curve::morton; }},
    {"imbalance differs", "differs between ranks", kOptions, false, [](PointInput& in) { in.opts.imbalance = 0.05; }},
    {"target_sizes differ", "target_sizes differs between ranks", kTargets, false, [](PointInput& in) {
       in.targets.assign(static_cast<std::size_t>(in.opts.parts), 1.0);
       in.targets[0] = 2.0;
       in.opts.target_sizes = in.targets;
     }},
    {"dim differs", "dim differs between ranks", kShape, false, [](PointInput& in) {
       std::vector<double> c;
       for (std::size_t i = 0; i < in.size(); ++i) c.insert(c.end(), {in.p.coords[3 * i], in.p.coords[3 * i + 1]});
       in.p.coords = c;
       in.p.dim = 2;
     }},
    {"ncon differs", "ncon differs between ranks", kShape, false, [](PointInput& in) {
       std::vector<double> w;
       for (double x : in.p.weights) w.insert(w.end(), {x, 1.0});
       in.p.weights = w;
       in.ncon = 2;
     }},
    {"weights given on some ranks only", "weights given on some ranks", kShape, true,
     [](PointInput& in) { in.p.weights.clear(); }},
    {"ids given on some ranks only", "ids given on some ranks", kShape | kIds, true,
     [](PointInput& in) { in.p.ids.clear(); }},
    // Options out of range (on some ranks, or everywhere).
    {"parts 0", "parts", kOptions | kPartsOption, false, [](PointInput& in) { in.opts.parts = 0; }},
    {"parts negative", "parts", kOptions | kPartsOption, false, [](PointInput& in) { in.opts.parts = -3; }},
    {"parts above 2^30", "parts", kOptions | kPartsOption, false, [](PointInput& in) { in.opts.parts = (1 << 30) + 1; }},
    {"imbalance NaN", "must be|differs between ranks", kOptions, false, [](PointInput& in) { in.opts.imbalance = kNaN; }},
    {"imbalance negative", "must be|differs between ranks", kOptions, false, [](PointInput& in) { in.opts.imbalance = -0.1; }},
    {"target_sizes length", "target_sizes", kTargets, false, [](PointInput& in) {
       in.targets.assign(3, 1.0);
       in.opts.target_sizes = in.targets;
     }},
    {"target_sizes negative", "target", kTargets, false, [](PointInput& in) {
       in.targets.assign(static_cast<std::size_t>(in.opts.parts), 1.0);
       in.targets[1] = -1.0;
       in.opts.target_sizes = in.targets;
     }},
    {"dim 4", "dim", kShape, false, [](PointInput& in) { in.p.dim = 4; }},
    {"ncon 0", "ncon", kShape, false, [](PointInput& in) { in.ncon = 0; }},
};

struct Entry {
  const char* name;
  unsigned accepts;  // the Touches it reads
  void (*call)(MPI_Comm, const PointInput&);
};

hpart::Rebalancer rebalancer_for(MPI_Comm comm, const PointInput& in) {
  return hpart::Rebalancer(hpart::Comm(comm), {.parts = in.opts.parts,
                                               .curve = in.opts.curve,
                                               .imbalance = in.opts.imbalance});
}

const Entry kEntries[] = {
    {"partition hilbert", kCoords | kValues | kIds | kShape | kOptions | kTargets | kPartsOption,
     [](MPI_Comm comm, const PointInput& in) { hpart::partition_points(hpart::Comm(comm), in.view(), in.opts); }},
    {"partition morton", kCoords | kValues | kIds | kShape | kPartsOption | kTargets,
     [](MPI_Comm comm, const PointInput& in) {
       hpart::PointOptions o = in.opts;
       o.curve = hpart::Curve::morton;
       hpart::partition_points(hpart::Comm(comm), in.view(), o);
     }},
    {"partition_points_hierarchical", kCoords | kValues | kIds | kShape | kOptions | kPartsOption,
     [](MPI_Comm comm, const PointInput& in) {
       const hpart::Comm c(comm);
       const hpart::Topology topo = hpart::detect_topology(c, "1x" + std::to_string(c.size()));
       hpart::HierPointOptions o;
       o.parts = in.opts.parts;
       o.rank_curve = in.opts.curve;
       o.imbalance = in.opts.imbalance;
       hpart::partition_points_hierarchical(c, in.view(), topo, o);
     }},
    {"Rebalancer::partition", kCoords | kValues | kIds | kShape | kOptions | kPartsOption,
     [](MPI_Comm comm, const PointInput& in) { rebalancer_for(comm, in).partition(in.view()); }},
    {"Rebalancer::rebalance", kCoords | kValues | kShape,
     [](MPI_Comm comm, const PointInput& in) {
       // A valid partition first (the same input before the mutation), then the bad rebalance.
       PointInput good = make_input(comm);
       good.opts = in.opts;
       hpart::Rebalancer rb(hpart::Comm(comm), {.parts = 5});
       const hpart::Partition p = rb.partition(good.view());
       std::vector<double> costs(good.size(), 1.0);
       rb.observe({.step_seconds = 1.0, .object_costs = costs});
       rb.rebalance(in.view(), p.parts.size() == in.size() ? std::span<const hpart::part_t>(p.parts)
                                                            : std::span<const hpart::part_t>());
     }},
    {"evaluate_partition", kValues | kPartsOption | kTargets,
     [](MPI_Comm comm, const PointInput& in) {
       const int k = std::max(in.opts.parts, 1);
       std::vector<hpart::part_t> parts(in.size());
       for (std::size_t i = 0; i < parts.size(); ++i) parts[i] = static_cast<hpart::part_t>(i % static_cast<std::size_t>(k));
       hpart::evaluate_partition(hpart::Comm(comm), parts, in.opts.parts, in.p.weights, in.ncon, in.opts.target_sizes);
     }},
    {"Migration plan with ids", kIds | kPartsOption,
     [](MPI_Comm comm, const PointInput& in) {
       const hpart::Comm c(comm);
       const int k = std::max(in.opts.parts, 1);
       std::vector<hpart::part_t> parts(in.size());
       for (std::size_t i = 0; i < parts.size(); ++i) parts[i] = static_cast<hpart::part_t>(i % static_cast<std::size_t>(k));
       hpart::Migration m(c, parts, hpart::PartOwners{in.opts.parts, c.size()}, in.p.ids);
     }},
};

TEST(PromiseSweep, PointEntryPointsRefuseBadInputOnEveryRank) {
  on_world_and_halves([](MPI_Comm comm) {
    for (const Entry& entry : kEntries)
      for (const Mutation& m : kMutations) {
        if ((entry.accepts & m.touches) == 0) continue;
        // "parts differs" etc. are options; entries that read parts only from kPartsOption.
        if ((m.touches & kOptions) && !(entry.accepts & kOptions) && !(m.touches & kPartsOption & entry.accepts)) continue;
        // parts 0 means "one part per rank" to the hierarchy.
        if (std::string(m.name) == "parts 0" && std::string(entry.name) == "partition_points_hierarchical") continue;
        for (const Where where : kEveryWhere) {
          const bool mismatch = std::string(m.needle).find("differs") != std::string::npos ||
                                std::string(m.needle).find("some ranks") != std::string::npos;
          if (mismatch && (where == Where::all || World(comm).size == 1)) continue;  // all alike is no mismatch
          PointInput in = make_input(comm);
          const bool holds = in.size() > 0;
          if (is_bad_rank(comm, where, holds) && (holds || !m.needs_objects)) m.apply(in);
          const std::string name = std::string(entry.name) + " / " + m.name + " / " + to_string(where);
          expect_same_error(comm, name, [&] { entry.call(comm, in); }, m.needle);
        }
      }
  });
}

// Sizes that cannot be served: a K whose per-part tables exceed the memory a rank may use.
TEST(PromiseSweep, PointPartsBeyondMemoryAreRefusedBeforeAllocating) {
  const MemoryLimit limit("64M");
  on_world_and_halves([](MPI_Comm comm) {
    for (const Entry& entry : kEntries) {
      if (!(entry.accepts & kPartsOption) || std::string(entry.name) == "Rebalancer::rebalance") continue;
      PointInput in = make_input(comm);
      in.opts.parts = 1 << 24;  // 16M parts: ~1 GiB of per-part tables
      expect_same_error(comm, std::string(entry.name) + " / 2^24 parts under a 64 MiB limit",
                        [&] { entry.call(comm, in); }, "needs");
    }
  });
}

// Valid edge input: nothing on some ranks, fewer objects than ranks or parts, extreme weights.
void expect_valid_partition(MPI_Comm comm, const std::string& name, const PointInput& in) {
  expect_success(comm, name, [&] {
    const hpart::Partition p = hpart::partition_points(hpart::Comm(comm), in.view(), in.opts);
    ASSERT_EQ(p.parts.size(), in.size());
    for (const hpart::part_t q : p.parts) EXPECT_TRUE(q >= 0 && q < in.opts.parts) << name;
    long long n = static_cast<long long>(in.size());
    MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_LONG_LONG, MPI_SUM, comm);
    EXPECT_EQ(p.metrics.objects, n) << name;
    long long sizes = 0;
    for (const long long s : p.part_sizes) sizes += s;
    EXPECT_EQ(sizes, n) << name;
  });
}

TEST(PromiseSweep, PointEdgeInputIsPartitioned) {
  on_world_and_halves([](MPI_Comm comm) {
    for (const long long n : {0LL, 1LL, 2LL, 3LL, 7LL}) {
      for (const int parts : {1, 2, 9, 64, 1 << 16}) {
        for (const bool with_ids : {true, false}) {
          PointInput in = make_input(comm, n, parts);
          if (!with_ids) in.p.ids.clear();
          const std::string what = "n " + std::to_string(n) + ", parts " + std::to_string(parts) + (with_ids ? ", ids" : "");
          expect_valid_partition(comm, what, in);
          // Every other point entry on the same input: none may hang or throw on valid input
          // (K = 2^16 only for partition, to keep the sweep short).
          if (parts > 64) continue;
          for (const Entry& entry : kEntries) {
            const std::string name = entry.name;
            if (name == "partition hilbert" || name == "Rebalancer::rebalance") continue;
            expect_success(comm, name + " / " + what, [&] { entry.call(comm, in); });
          }
          expect_success(comm, "Rebalancer partition, observe, rebalance / " + what, [&] {
            hpart::Rebalancer rb(hpart::Comm(comm), {.parts = parts});
            const hpart::Partition p = rb.partition(in.view());
            std::vector<double> costs(in.size(), 2.0);
            rb.observe({.step_seconds = 1.0, .object_costs = costs});
            (void)rb.decide();
            const hpart::Partition q = rb.rebalance(in.view(), p.parts);
            EXPECT_EQ(q.parts.size(), in.size());
          });
        }
      }
    }
    // Extreme but valid weights: tiny, denormal, huge, all zero, one huge among ones.
    const double extremes[][2] = {{1e-300, 1e-300}, {4.9e-324, 1e-310}, {1e300, 1e300}, {0.0, 0.0}, {1.0, 1e300}, {1e300, 5e-324}};
    for (const auto& e : extremes) {
      PointInput in = make_input(comm, 400, 4);
      for (std::size_t i = 0; i < in.p.weights.size(); ++i) in.p.weights[i] = (in.p.ids[i] % 2 == 0) ? e[0] : e[1];
      const std::string name = "weights " + std::to_string(e[0]) + " / " + std::to_string(e[1]);
      expect_valid_partition(comm, name, in);
      // Equal weights must balance: the extremes must not be mistaken for overflow or zeros.
      if (e[0] == e[1] && e[0] > 0.0) {
        const hpart::Partition p = hpart::partition_points(hpart::Comm(comm), in.view(), in.opts);
        EXPECT_LT(p.metrics.imbalance[0], 0.02) << name;
        EXPECT_TRUE(p.metrics.within_tolerance || p.metrics.imbalance[0] < 0.02) << name;
      }
    }
    // Weights whose total passes the largest double cannot be reported: refused, not wrapped to inf.
    {
      PointInput in = make_input(comm, 400, 4);
      for (double& w : in.p.weights) w = 1e308;
      expect_same_error(comm, "weights 1e308 x 400", [&] { hpart::partition_points(hpart::Comm(comm), in.view(), in.opts); },
                        "past the largest double");
    }
    // Parts of 1e308 each are fine even though their total is not a double: the imbalance is
    // computed relative to the heaviest part (it came out as -1 when the total overflowed).
    {
      PointInput in = make_input(comm, 4, 4);
      for (double& w : in.p.weights) w = 1e308;
      expect_success(comm, "weights 1e308 x 4 in 4 parts", [&] {
        const hpart::Partition p = hpart::partition_points(hpart::Comm(comm), in.view(), in.opts);
        EXPECT_EQ(p.metrics.imbalance[0], 0.0);
        EXPECT_TRUE(p.metrics.within_tolerance);
      });
    }
    // Identical points with distinct ids split evenly (ids break the ties).
    {
      const World w(comm);
      const auto [b, e] = uneven_block(400, w.rank, w.size);
      PointInput in;
      in.p = make_points(Shape::identical, 3, b, e, false);
      in.opts.parts = 4;
      const hpart::Partition p = hpart::partition_points(hpart::Comm(comm), in.view(), in.opts);
      for (const long long s : p.part_sizes) EXPECT_EQ(s, 100);
    }
  });
}

}  // namespace
