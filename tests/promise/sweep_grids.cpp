// The promise sweep over grids, AMR patches and their hierarchy: partition_grid (every method),
// partition_grid_hierarchical (every node cut), repartition_grid, grid_neighbours,
// partition_patches (every method), repartition_patches and patch_neighbours.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "promise_sweep.hpp"
#include "test_grids.hpp"

namespace {

using namespace hpart::testing;
using namespace hpart::testing::promise;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

struct GridInput {
  LocalGrid g;
  hpart::GridOptions opts;
  std::vector<double> targets;
  int halo = 1;
  // The cost span re-pointed at this copy's vector (LocalGrid's span would dangle after a copy).
  [[nodiscard]] hpart::Grid grid() const {
    hpart::Grid out = g.grid;
    out.cost = g.cost;
    return out;
  }
  [[nodiscard]] bool holds() const { return !g.grid.local.empty(); }
};

GridInput make_grid_input(MPI_Comm comm, int dim = 2) {
  const World w(comm);
  GridInput in;
  in.g = slab_grid(dim, dim == 2 ? std::array<std::int64_t, 3>{64, 48, 1} : std::array<std::int64_t, 3>{16, 12, 10},
                   w.rank, w.size, 20.0);
  in.opts.parts = 6;
  return in;
}

struct Mutation {
  const char* name;
  const char* needle;
  bool needs_cells;  // changes a local value: only ranks holding cells apply it
  bool mismatch;     // an argument that differs between ranks (not applied on every rank)
  void (*apply)(GridInput&);
};

const Mutation kMutations[] = {
    {"NaN cost", "finite", true, false, [](GridInput& in) { in.g.cost[3] = kNaN; }},
    {"negative cost", ">= 0", true, false, [](GridInput& in) { in.g.cost.back() = -2.0; }},
    {"infinite cost", "finite", true, false,
     [](GridInput& in) { in.g.cost[0] = std::numeric_limits<double>::infinity(); }},
    {"cost length", "cost has", true, false, [](GridInput& in) { in.g.cost.pop_back(); }},
    {"cost given on some ranks only", "cost given on some ranks", true, true, [](GridInput& in) { in.g.cost.clear(); }},
    {"local box outside the grid", "outside the grid", true, false, [](GridInput& in) {
       in.g.grid.local.hi[0] += 1;
       in.g.cost.resize(static_cast<std::size_t>(in.g.grid.local.volume()), 1.0);
     }},
    {"local box dim", "dim", true, false, [](GridInput& in) { in.g.grid.local.dim = 3; }},
    {"parts differs", "parts differs between ranks", false, true, [](GridInput& in) { in.opts.parts += 1; }},
    {"method differs", "method differs between ranks", false, true,
     [](GridInput& in) { in.opts.method = in.opts.method == hpart::GridMethod::sfc ? hpart::GridMethod::uniform : hpart::GridMethod::sfc; }},
    {"extent differs", "grid extent differs between ranks", false, true, [](GridInput& in) { in.g.grid.extent[0] += 1; }},
    {"dim differs", "grid dim differs between ranks", false, true, [](GridInput& in) { in.g.grid.dim = 3; }},
    {"imbalance differs", "imbalance differs between ranks", false, true, [](GridInput& in) { in.opts.imbalance = 0.25; }},
    {"target_sizes differ", "target_sizes differs between ranks", false, true, [](GridInput& in) {
       in.targets.assign(static_cast<std::size_t>(in.opts.parts), 1.0);
       in.targets[2] = 3.0;
       in.opts.target_sizes = in.targets;
     }},
    {"parts 0", "parts", false, false, [](GridInput& in) { in.opts.parts = 0; }},
    {"parts above 2^30", "parts", false, false, [](GridInput& in) { in.opts.parts = (1 << 30) + 7; }},
    {"extent 0", "extent", false, false, [](GridInput& in) { in.g.grid.extent[1] = 0; }},
    {"extent above 2^31", "extent", false, false, [](GridInput& in) { in.g.grid.extent[0] = (1LL << 31) + 1; }},
    {"dim 1", "dim", false, false, [](GridInput& in) { in.g.grid.dim = 1; }},
    {"target_sizes length", "target_sizes", false, false, [](GridInput& in) {
       in.targets.assign(2, 1.0);
       in.opts.target_sizes = in.targets;
     }},
};

struct Entry {
  const char* name;
  bool options;  // reads GridOptions (parts, method, imbalance, target_sizes)
  hpart::GridMethod method;
  void (*call)(MPI_Comm, GridInput&);
};

hpart::HierGridOptions hier_options(const GridInput& in, hpart::NodeCut cut) {
  hpart::HierGridOptions o;
  o.parts = in.opts.parts;
  o.imbalance = in.opts.imbalance;
  o.node_cut = cut;
  return o;
}

const Entry kEntries[] = {
    {"partition_grid sfc", true, hpart::GridMethod::sfc,
     [](MPI_Comm c, GridInput& in) { hpart::partition_grid(hpart::Comm(c), in.grid(), in.opts); }},
    {"partition_grid blocks", true, hpart::GridMethod::blocks,
     [](MPI_Comm c, GridInput& in) { hpart::partition_grid(hpart::Comm(c), in.grid(), in.opts); }},
    {"partition_grid tensor", true, hpart::GridMethod::tensor,
     [](MPI_Comm c, GridInput& in) { hpart::partition_grid(hpart::Comm(c), in.grid(), in.opts); }},
    {"partition_grid_hierarchical graph", false, hpart::GridMethod::blocks,
     [](MPI_Comm c, GridInput& in) {
       const hpart::Comm comm(c);
       hpart::partition_grid_hierarchical(comm, in.grid(), hpart::detect_topology(comm, "1x" + std::to_string(comm.size())),
                                          hier_options(in, hpart::NodeCut::graph));
     }},
    {"partition_grid_hierarchical staircase", false, hpart::GridMethod::blocks,
     [](MPI_Comm c, GridInput& in) {
       const hpart::Comm comm(c);
       hpart::partition_grid_hierarchical(comm, in.grid(), hpart::detect_topology(comm, "1x" + std::to_string(comm.size())),
                                          hier_options(in, hpart::NodeCut::staircase));
     }},
    {"repartition_grid", false, hpart::GridMethod::blocks,
     [](MPI_Comm c, GridInput& in) {
       const hpart::Comm comm(c);
       GridInput good = make_grid_input(c);
       const hpart::GridPartition before = hpart::partition_grid(comm, good.grid(), good.opts);
       hpart::repartition_grid(comm, in.grid(), before, {.parts = in.opts.parts, .imbalance = 0.02});
     }},
};

bool is_mutation_for(const Entry& e, const Mutation& m) {
  const std::string n = m.name, entry = e.name;
  if (!e.options && (n == "method differs" || n.rfind("target_sizes", 0) == 0)) return false;
  if (e.method == hpart::GridMethod::tensor && n.rfind("target_sizes", 0) == 0) return false;  // tensor takes none
  if (entry == "repartition_grid" && n == "imbalance differs") return false;  // no imbalance option
  if (entry.rfind("partition_grid_hierarchical", 0) == 0 && n == "parts 0") return false;  // 0: one part per rank
  return true;
}

TEST(PromiseSweep, GridEntryPointsRefuseBadInputOnEveryRank) {
  on_world_and_halves([](MPI_Comm comm) {
    for (const Entry& entry : kEntries)
      for (const Mutation& m : kMutations) {
        if (!is_mutation_for(entry, m)) continue;
        for (const Where where : kEveryWhere) {
          if (m.mismatch && (where == Where::all || World(comm).size == 1)) continue;
          GridInput in = make_grid_input(comm);
          in.opts.method = entry.method;
          if (is_bad_rank(comm, where, in.holds()) && (in.holds() || !m.needs_cells)) m.apply(in);
          expect_same_error(comm, std::string(entry.name) + " / " + m.name + " / " + to_string(where),
                            [&] { entry.call(comm, in); }, m.needle);
        }
      }
  });
}

TEST(PromiseSweep, GridSizesBeyondMemoryOrRangeAreRefused) {
  on_world_and_halves([](MPI_Comm comm) {
    {
      const MemoryLimit limit("64M");
      GridInput in = make_grid_input(comm);
      in.opts.parts = 1 << 24;
      expect_same_error(comm, "partition_grid / 2^24 parts under 64 MiB",
                        [&] { hpart::partition_grid(hpart::Comm(comm), in.grid(), in.opts); }, "needs");
      // A local box far beyond the memory: refused before anything is allocated for its cells.
      GridInput big = make_grid_input(comm);
      big.g.grid.extent = {1LL << 31, 1LL << 20, 1};
      big.g.cost.clear();
      const World w(comm);
      big.g.grid.local = hpart::Box::from_extent(2, {1LL << 31, 1LL << 20, 1, 1});
      big.g.grid.local.lo[1] = (1LL << 20) * w.rank / w.size;
      big.g.grid.local.hi[1] = (1LL << 20) * (w.rank + 1) / w.size - 1;
      expect_same_error(comm, "partition_grid / 2^51 cells under 64 MiB",
                        [&] { hpart::partition_grid(hpart::Comm(comm), big.grid(), big.opts); }, "needs");
    }
    GridInput cube = make_grid_input(comm, 3);
    cube.g.grid.extent = {1LL << 21, 1LL << 21, 1LL << 21};
    cube.g.cost.clear();
    cube.g.grid.local = hpart::Box{};
    expect_same_error(comm, "partition_grid / 2^63 cells",
                      [&] { hpart::partition_grid(hpart::Comm(comm), cube.grid(), cube.opts); }, "2^62");
  });
}

TEST(PromiseSweep, GridNeighboursRefuseMismatchedArguments) {
  on_world_and_halves([](MPI_Comm comm) {
    const World w(comm);
    GridInput in = make_grid_input(comm);
    const hpart::GridPartition p = hpart::partition_grid(hpart::Comm(comm), in.grid(), in.opts);
    if (w.size > 1)
      expect_same_error(comm, "grid_neighbours / halo differs",
                      [&] { hpart::grid_neighbours(hpart::Comm(comm), in.grid(), p, w.rank == w.size - 1 ? 2 : 1); },
                      "halo width differs between ranks");
    expect_same_error(comm, "grid_neighbours / halo 0",
                      [&] { hpart::grid_neighbours(hpart::Comm(comm), in.grid(), p, 0); }, "halo width must be");
    expect_same_error(comm, "grid_neighbours / a default GridPartition",
                      [&] { hpart::grid_neighbours(hpart::Comm(comm), in.grid(), hpart::GridPartition{}, 1); },
                      "partition");
    if (w.size > 1)
      expect_same_error(comm, "repartition_grid / imbalance differs", [&] {
      hpart::repartition_grid(hpart::Comm(comm), in.grid(), p, {.parts = 6, .imbalance = w.rank == 0 ? 0.01 : 0.02});
    }, "imbalance differs between ranks");
    in.opts.method = hpart::GridMethod::sfc;
    const hpart::GridPartition curve = hpart::partition_grid(hpart::Comm(comm), in.grid(), in.opts);
    expect_same_error(comm, "repartition_grid / an sfc partition",
                      [&] { hpart::repartition_grid(hpart::Comm(comm), in.grid(), curve, {.parts = 6}); }, "blocks");
  });
}

TEST(PromiseSweep, GridEdgeInputIsPartitioned) {
  on_world_and_halves([](MPI_Comm comm) {
    const World w(comm);
    for (const int parts : {1, 7, 3072, 5000}) {  // up to more parts than cells
      for (const hpart::GridMethod method : {hpart::GridMethod::sfc, hpart::GridMethod::blocks, hpart::GridMethod::tensor}) {
        GridInput in = make_grid_input(comm);
        in.opts.parts = parts;
        in.opts.method = method;
        expect_success(comm, "partition_grid / parts " + std::to_string(parts) + " / " + hpart::to_string(method), [&] {
          const hpart::GridPartition p = hpart::partition_grid(hpart::Comm(comm), in.grid(), in.opts);
          EXPECT_EQ(p.metrics.objects, 64 * 48);
          for (const hpart::part_t q : p.parts) EXPECT_TRUE(q >= 0 && q < parts);
        });
      }
    }
    // A grid thinner than the rank count: most ranks hold no cells.
    GridInput thin;
    thin.g = slab_grid(2, {5, 1, 1}, w.rank, w.size, 0.0);
    thin.g.grid.local = w.rank == w.size - 1 ? hpart::Box::from_extent(2, {5, 1, 1, 1}) : hpart::Box{};
    thin.opts.parts = 3;
    expect_success(comm, "partition_grid / a 5x1 grid", [&] {
      const hpart::GridPartition p = hpart::partition_grid(hpart::Comm(comm), thin.grid(), thin.opts);
      EXPECT_EQ(p.metrics.objects, 5);
    });
    // More nodes than cells: every rank its own node, a 3x1 grid (METIS would put it all in one part).
    GridInput tiny;
    tiny.g = slab_grid(2, {3, 1, 1}, w.rank, w.size, 0.0);
    tiny.g.grid.local = w.rank == 0 ? hpart::Box::from_extent(2, {3, 1, 1, 1}) : hpart::Box{};
    for (const hpart::NodeCut cut : {hpart::NodeCut::graph, hpart::NodeCut::staircase, hpart::NodeCut::boxes})
      expect_success(comm, "partition_grid_hierarchical / 3 cells on " + std::to_string(w.size) + " nodes / cut " + std::to_string(static_cast<int>(cut)), [&] {
        const hpart::Comm c(comm);
        hpart::HierGridOptions o;
        o.node_cut = cut;
        const hpart::HierGridPartition h =
            hpart::partition_grid_hierarchical(c, tiny.grid(), hpart::detect_topology(c, std::to_string(c.size()) + "x1"), o);
        EXPECT_EQ(h.metrics.objects, 3);
        for (const hpart::part_t q : h.parts) EXPECT_TRUE(q >= 0 && q < c.size());
      });
  });
}

// Patches: a level of 4x4 patches over a 64x64 domain, dealt to the ranks round robin.
struct PatchInput {
  std::vector<hpart::Box> boxes;
  std::vector<double> cost;
  hpart::PatchList list() const { return {2, {64, 64, 1}, boxes, cost}; }
};

PatchInput make_patches(MPI_Comm comm) {
  const World w(comm);
  PatchInput in;
  int k = 0;
  for (std::int64_t y = 0; y < 64; y += 16)
    for (std::int64_t x = 0; x < 64; x += 16, ++k)
      if (k % w.size == w.rank) {
        hpart::Box b;
        b.dim = 2;
        b.lo = {x, y, 0, 0};
        b.hi = {x + 15, y + 15, 0, 0};
        in.boxes.push_back(b);
        in.cost.push_back(1.0 + k % 3);
      }
  return in;
}

TEST(PromiseSweep, PatchEntryPointsRefuseBadInputOnEveryRank) {
  struct PatchMutation {
    const char* name;
    const char* needle;
    bool mismatch;
    void (*apply)(PatchInput&, hpart::PatchOptions&);
  };
  const PatchMutation mutations[] = {
      {"NaN cost", "finite", false, [](PatchInput& in, hpart::PatchOptions&) { in.cost[0] = kNaN; }},
      {"cost length", "cost has", false, [](PatchInput& in, hpart::PatchOptions&) { in.cost.push_back(1.0); }},
      {"cost given on some ranks only", "cost given on some ranks", true,
       [](PatchInput& in, hpart::PatchOptions&) { in.cost.clear(); }},
      {"empty patch", "empty", false, [](PatchInput& in, hpart::PatchOptions&) { in.boxes[0].hi[0] = in.boxes[0].lo[0] - 1; }},
      {"patch outside", "outside the domain", false, [](PatchInput& in, hpart::PatchOptions&) { in.boxes[0].hi[1] = 64; }},
      {"overlapping patches", "overlap", false, [](PatchInput& in, hpart::PatchOptions&) {
         if (in.boxes[0].lo[0] > 0)
           in.boxes[0].lo[0] -= 1;
         else
           in.boxes[0].hi[0] += 1;
       }},
      {"parts differs", "parts differs between ranks", true, [](PatchInput&, hpart::PatchOptions& o) { o.parts += 1; }},
      {"method differs", "method differs between ranks", true,
       [](PatchInput&, hpart::PatchOptions& o) { o.method = hpart::PatchMethod::knapsack; }},
      {"imbalance differs", "imbalance differs between ranks", true,
       [](PatchInput&, hpart::PatchOptions& o) { o.imbalance = 0.5; }},
      {"parts 0", "parts", false, [](PatchInput&, hpart::PatchOptions& o) { o.parts = 0; }},
      {"imbalance NaN", "imbalance", false, [](PatchInput&, hpart::PatchOptions& o) { o.imbalance = kNaN; }},
  };
  on_world_and_halves([&](MPI_Comm comm) {
    for (const auto& m : mutations)
      for (const Where where : kEveryWhere) {
        if (m.mismatch && (where == Where::all || World(comm).size == 1)) continue;
        PatchInput in = make_patches(comm);
        hpart::PatchOptions opts;
        opts.parts = 3;
        if (is_bad_rank(comm, where, !in.boxes.empty()) && !in.boxes.empty()) m.apply(in, opts);
        expect_same_error(comm, std::string("partition_patches / ") + m.name + " / " + to_string(where),
                          [&] { hpart::partition_patches(hpart::Comm(comm), in.list(), opts); }, m.needle);
      }
    // repartition_patches and patch_neighbours: their own arguments.
    const World w(comm);
    PatchInput in = make_patches(comm);
    const hpart::PatchPartition p = hpart::partition_patches(hpart::Comm(comm), in.list(), {.parts = 3});
    std::vector<hpart::part_t> bad(p.parts);
    if (w.rank == w.size - 1 && !bad.empty()) bad[0] = 3;
    expect_same_error(comm, "repartition_patches / a current part out of range", [&] {
      hpart::repartition_patches(hpart::Comm(comm), in.list(), bad, {.parts = 3});
    }, "outside [0, 3)");
    if (w.size > 1)
      expect_same_error(comm, "repartition_patches / imbalance differs", [&] {
      hpart::repartition_patches(hpart::Comm(comm), in.list(), p.parts,
                                 {.parts = 3, .imbalance = w.rank == w.size - 1 ? 0.1 : 0.02});
    }, "imbalance differs between ranks");
    if (w.size > 1)
      expect_same_error(comm, "patch_neighbours / halo differs", [&] {
      hpart::patch_neighbours(hpart::Comm(comm), in.list(), p, w.rank == w.size - 1 ? 2 : 1);
    }, "halo width differs between ranks");
    hpart::PatchPartition wrong = p;
    if (w.rank == w.size - 1 && !wrong.parts.empty()) wrong.parts[0] = -1;
    expect_same_error(comm, "patch_neighbours / part -1", [&] {
      hpart::patch_neighbours(hpart::Comm(comm), in.list(), wrong, 1);
    }, "outside [0, 3)");
  });
}

}  // namespace
