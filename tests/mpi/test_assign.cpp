// Point and box assign (PartitionMap): for every local point the located part is the assigned
// part; owners follow the library's rule; the descriptor is the same on every rank and survives
// save/load; boxes list exactly the parts a brute-force walk finds; bad input is the same error
// on every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "hpart/assign.hpp"
#include "hpart/migration.hpp"
#include "test_grids.hpp"
#include "test_points.hpp"
#include "test_world.hpp"

namespace {

using hpart::testing::LocalPoints;
using hpart::testing::Shape;
using hpart::testing::World;

// The same bytes on every rank: min and max of the text's FNV-1a hash agree.
bool same_everywhere(const std::string& s, MPI_Comm comm) {
  std::uint64_t fnv = 1469598103934665603ULL;
  for (const unsigned char c : s) fnv = (fnv ^ c) * 1099511628211ULL;
  unsigned long long h[2] = {fnv, ~fnv};
  MPI_Allreduce(MPI_IN_PLACE, h, 2, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm);
  return h[0] == fnv && ~h[1] == fnv;
}

hpart::PointSet view(const LocalPoints& p, bool with_ids) {
  return hpart::PointSet{.coords = p.coords, .dim = p.dim, .weights = p.weights, .ncon = 1,
                         .ids = with_ids ? std::span<const hpart::gid_t>(p.ids) : std::span<const hpart::gid_t>()};
}

// Ids the partition used: the caller's, or the rank-order numbering.
std::vector<hpart::gid_t> used_ids(const LocalPoints& p, bool with_ids, MPI_Comm comm) {
  if (with_ids) return p.ids;
  long long n = static_cast<long long>(p.ids.size()), before = 0;
  MPI_Exscan(&n, &before, 1, MPI_LONG_LONG, MPI_SUM, comm);
  int r = 0;
  MPI_Comm_rank(comm, &r);
  std::vector<hpart::gid_t> ids(p.ids.size());
  std::iota(ids.begin(), ids.end(), r == 0 ? 0 : before);
  return ids;
}

// Every check that a map of this partition must pass for the local points.
void check_map(const hpart::PartitionMap& map, const LocalPoints& p, const std::vector<hpart::part_t>& assigned,
               const std::vector<hpart::gid_t>& ids, const std::vector<int>& owners, MPI_Comm comm, const std::string& what) {
  World w(comm);
  const std::size_t n = assigned.size(), d = static_cast<std::size_t>(p.dim);
  std::vector<hpart::part_t> located(n, -1), plain(n, -1);
  map.assign(p.coords, ids, located);
  map.assign(p.coords, plain);
  long long wrong = 0, outside = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::span<const double> x(p.coords.data() + i * d, d);
    wrong += located[i] != assigned[i] || map.part_of(x, ids[i]) != assigned[i];
    // Without the id: the last range starting at or before the key; the assigned part is among
    // parts_at (exactness without ids on distinct keys: NoIdIsExactOnDistinctKeys).
    const std::vector<hpart::part_t> at = map.parts_at(x);
    outside += !std::binary_search(at.begin(), at.end(), plain[i]) || map.part_of(x) != plain[i] ||
               !std::binary_search(at.begin(), at.end(), assigned[i]);
    const int owner = owners.empty() ? hpart::PartOwners{map.num_parts(), w.size}.owner(assigned[i])
                                     : owners[static_cast<std::size_t>(assigned[i])];
    wrong += map.rank_of_part(assigned[i]) != owner || map.rank_of(x) != map.rank_of_part(plain[i]);
  }
  EXPECT_EQ(wrong, 0) << what;
  EXPECT_EQ(outside, 0) << what;
  // Boxes around local points: each point's part is among the parts the box meets.
  for (std::size_t i = 0; i < n; i += 1 + n / 16) {
    std::array<double, 3> lo{}, hi{};
    for (std::size_t a = 0; a < d; ++a) lo[a] = p.coords[i * d + a] - 0.01 * static_cast<double>(a + 1), hi[a] = p.coords[i * d + a] + 0.02;
    const std::vector<hpart::part_t> in = map.parts_in_box(std::span<const double>(lo.data(), d), std::span<const double>(hi.data(), d));
    EXPECT_TRUE(std::binary_search(in.begin(), in.end(), assigned[i])) << what << ": point " << i;
  }
  const std::string saved = map.save();
  EXPECT_TRUE(same_everywhere(saved, comm)) << what;
  const hpart::PartitionMap back = hpart::PartitionMap::load(saved);
  EXPECT_EQ(back.save(), saved) << what;
  std::vector<hpart::part_t> again(n, -1);
  back.assign(p.coords, ids, again);
  EXPECT_EQ(again, located) << what;
}

TEST(PointAssign, LocatedPartIsAssignedPart) {
  const World w;
  const hpart::Comm comm(w.comm);
  const long long N = 600;
  const auto [b, e] = hpart::testing::uneven_block(N, w.rank, w.size);
  for (const Shape shape : {Shape::uniform, Shape::clusters, Shape::identical, Shape::plane})
    for (const int dim : {2, 3})
      for (const hpart::Curve curve : {hpart::Curve::hilbert, hpart::Curve::morton})
        for (const int K : {1, 7, 64, 700}) {
          const bool weighted = K == 7, with_ids = K != 64;
          const LocalPoints p = make_points(shape, dim, b, e, weighted, 11);
          hpart::PointOptions opts;
          opts.parts = K;
          opts.curve = curve;
          const hpart::Partition part = hpart::partition_points(comm, view(p, with_ids), opts);
          const hpart::PartitionMap map = hpart::map_of(comm, view(p, with_ids), opts, part);
          EXPECT_EQ(map.kind(), hpart::MapKind::points);
          EXPECT_EQ(map.num_parts(), K);
          const std::string what = std::string("shape ") + std::to_string(static_cast<int>(shape)) + " dim " +
                                   std::to_string(dim) + " " + hpart::to_string(curve) + " K " + std::to_string(K);
          check_map(map, p, part.parts, used_ids(p, with_ids, w.comm), {}, w.comm, what);
        }
}

// Distinct keys (uniform random points): part_of(x) and assign without ids are exact too, the
// first point of every range included (it is the range's own splitter).
TEST(PointAssign, NoIdIsExactOnDistinctKeys) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto [b, e] = hpart::testing::uneven_block(3000, w.rank, w.size);
  for (const int dim : {2, 3})
    for (const hpart::Curve curve : {hpart::Curve::hilbert, hpart::Curve::morton}) {
      const LocalPoints p = make_points(Shape::uniform, dim, b, e, true, 5);
      hpart::PointOptions opts;
      opts.parts = 37;
      opts.curve = curve;
      const hpart::Partition part = hpart::partition_points(comm, view(p, false), opts);
      const hpart::PartitionMap map = hpart::map_of(comm, view(p, false), opts, part);
      std::vector<hpart::part_t> located(part.parts.size(), -1);
      map.assign(p.coords, located);
      long long wrong = 0;
      for (std::size_t i = 0; i < located.size(); ++i)
        wrong += located[i] != part.parts[i] ||
                 map.part_of(std::span<const double>(p.coords.data() + i * static_cast<std::size_t>(dim),
                                                     static_cast<std::size_t>(dim))) != part.parts[i];
      EXPECT_EQ(comm.sum(wrong), 0) << "dim " << dim << " " << hpart::to_string(curve);
    }
}

// On a sub-communicator (the world split by rank parity): the map is the sub-communicator's.
TEST(PointAssign, SubCommunicator) {
  const hpart::testing::HalfWorld half;
  const hpart::Comm comm(half.comm);
  const auto [b, e] = hpart::testing::uneven_block(500, half.rank, half.size);
  const LocalPoints p = make_points(Shape::clusters, 3, b, e, true, 23 + static_cast<std::uint64_t>(half.colour));
  hpart::PointOptions opts;
  opts.parts = 9;
  const hpart::Partition part = hpart::partition_points(comm, view(p, false), opts);
  const hpart::PartitionMap map = hpart::map_of(comm, view(p, false), opts, part);
  EXPECT_EQ(map.num_ranks(), half.size);
  check_map(map, p, part.parts, used_ids(p, false, half.comm), {}, half.comm, "half world");
}

// A relabelled partition (the Rebalancer's fresh partitions are) is still a set of curve
// ranges; explicit owners are used as given.
TEST(PointAssign, RelabelledPartsAndOwners) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto [b, e] = hpart::testing::uneven_block(900, w.rank, w.size);
  const LocalPoints p = make_points(Shape::clusters, 3, b, e, true, 5);
  hpart::PointOptions opts;
  opts.parts = 10;
  hpart::Partition part = hpart::partition_points(comm, view(p, true), opts);
  for (auto& q : part.parts) q = (q * 3 + 1) % 10;
  std::vector<int> owners(10);
  for (int q = 0; q < 10; ++q) owners[static_cast<std::size_t>(q)] = (9 - q) % w.size;
  const hpart::PartitionMap map = hpart::map_of(comm, view(p, true), opts, part, owners);
  check_map(map, p, part.parts, p.ids, owners, w.comm, "relabelled");
}

// Parts that interleave along the curve have no O(K) map: the same error on every rank.
TEST(PointAssign, NotCurveRangesIsAnError) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto [b, e] = hpart::testing::uneven_block(400, w.rank, w.size);
  const LocalPoints p = make_points(Shape::uniform, 2, b, e, false);
  hpart::PointOptions opts;
  opts.parts = 3;
  hpart::Partition part = hpart::partition_points(comm, view(p, true), opts);
  for (std::size_t i = 0; i < part.parts.size(); ++i) part.parts[i] = static_cast<hpart::part_t>(p.ids[i] % 3);
  hpart::testing::expect_error_everywhere([&] { (void)hpart::map_of(comm, view(p, true), opts, part); },
                                          "not a set of curve ranges");
}

// The global bounding box of the points (the box the keys live in).
std::array<std::array<double, 3>, 2> global_box(const LocalPoints& p, MPI_Comm comm) {
  double v[6] = {1e300, 1e300, 1e300, 1e300, 1e300, 1e300};
  const auto d = static_cast<std::size_t>(p.dim);
  for (std::size_t i = 0; i < p.coords.size(); ++i) {
    v[i % d] = std::min(v[i % d], p.coords[i]);
    v[3 + i % d] = std::min(v[3 + i % d], -p.coords[i]);
  }
  MPI_Allreduce(MPI_IN_PLACE, v, 6, MPI_DOUBLE, MPI_MIN, comm);
  return {{{v[0], v[1], v[2]}, {-v[3], -v[4], -v[5]}}};
}

// Walks a lattice of the box with spacing `step` (its faces included) and collects parts_at.
std::set<hpart::part_t> sampled(const hpart::PartitionMap& map, const double* lo, const double* hi, double step) {
  std::set<hpart::part_t> out;
  const int dim = map.dim();
  std::array<long long, 3> m{0, 0, 0};
  for (int a = 0; a < dim; ++a) m[static_cast<std::size_t>(a)] = static_cast<long long>(std::ceil((hi[a] - lo[a]) / step));
  for (long long k = 0; k <= m[2]; ++k)
    for (long long j = 0; j <= m[1]; ++j)
      for (long long i = 0; i <= m[0]; ++i) {
        const long long idx[3] = {i, j, k};
        std::array<double, 3> x{};
        for (int a = 0; a < dim; ++a) x[static_cast<std::size_t>(a)] = std::min(hi[a], lo[a] + static_cast<double>(idx[a]) * step);
        for (const hpart::part_t q : map.parts_at(std::span<const double>(x.data(), static_cast<std::size_t>(dim)))) out.insert(q);
      }
  return out;
}

// Boxes a few curve cells wide, sampled at half a cell: every cell of the box is visited, so the
// sampled parts are exactly the parts whose region meets the box. Larger boxes: the samples and
// the located parts of the points inside must be among the listed parts.
TEST(BoxAssign, EqualsBruteForce) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto [b, e] = hpart::testing::uneven_block(3000, w.rank, w.size);
  for (const int dim : {2, 3})
    for (const hpart::Curve curve : {hpart::Curve::hilbert, hpart::Curve::morton}) {
      const LocalPoints p = make_points(Shape::clusters, dim, b, e, true, 3);
      hpart::PointOptions opts;
      opts.parts = 40;
      opts.curve = curve;
      const hpart::Partition part = hpart::partition_points(comm, view(p, true), opts);
      const hpart::PartitionMap map = hpart::map_of(comm, view(p, true), opts, part);
      const auto box = global_box(p, w.comm);
      double longest = 0.0;
      for (int a = 0; a < dim; ++a) longest = std::max(longest, box[1][static_cast<std::size_t>(a)] - box[0][static_cast<std::size_t>(a)]);
      const double cell = std::ldexp(longest, dim == 2 ? -32 : -21);
      for (int t = 0; t < 40; ++t) {
        double lo[3], hi[3];
        const bool tiny = t % 2 == 0;
        for (int a = 0; a < dim; ++a) {
          // Around a point, so that tiny boxes sit where the splitters are.
          const std::size_t src = static_cast<std::size_t>(t * 37) % std::max<std::size_t>(1, p.ids.size());
          const double c = p.ids.empty() ? 0.3 : p.coords[src * static_cast<std::size_t>(dim) + static_cast<std::size_t>(a)];
          const double half = tiny ? 1.5 * cell : 0.02 + 0.05 * hpart::testing::unit(9, static_cast<std::uint64_t>(t), a);
          lo[a] = c - half, hi[a] = c + half;
        }
        const std::vector<hpart::part_t> listed = map.parts_in_box(std::span<const double>(lo, static_cast<std::size_t>(dim)),
                                                                   std::span<const double>(hi, static_cast<std::size_t>(dim)));
        const std::set<hpart::part_t> got(listed.begin(), listed.end());
        const std::set<hpart::part_t> seen = sampled(map, lo, hi, tiny ? cell / 2 : (hi[0] - lo[0]) / 12);
        if (tiny) {
          EXPECT_EQ(got, seen) << dim << "D " << hpart::to_string(curve) << " box " << t;
        } else {
          EXPECT_TRUE(std::includes(got.begin(), got.end(), seen.begin(), seen.end())) << dim << "D box " << t;
        }
        const auto d = static_cast<std::size_t>(dim);
        for (std::size_t i = 0; i < part.parts.size(); ++i) {
          bool in = true;
          for (std::size_t a = 0; a < d; ++a) in = in && p.coords[i * d + a] >= lo[a] && p.coords[i * d + a] <= hi[a];
          if (in) {
            EXPECT_TRUE(got.count(part.parts[i])) << "point " << i << " in box " << t;
          }
        }
      }
      // The whole box meets every part that holds a point.
      const std::vector<hpart::part_t> all = map.parts_in_box(std::span<const double>(box[0].data(), static_cast<std::size_t>(dim)),
                                                              std::span<const double>(box[1].data(), static_cast<std::size_t>(dim)));
      std::vector<long long> holds(40, 0);
      for (const hpart::part_t q : part.parts) holds[static_cast<std::size_t>(q)] = 1;
      MPI_Allreduce(MPI_IN_PLACE, holds.data(), 40, MPI_LONG_LONG, MPI_MAX, w.comm);
      for (int q = 0; q < 40; ++q)
        if (holds[static_cast<std::size_t>(q)]) {
          EXPECT_TRUE(std::binary_search(all.begin(), all.end(), q)) << q;
        }
      const std::vector<int> ranks = map.ranks_in_box(std::span<const double>(box[0].data(), static_cast<std::size_t>(dim)),
                                                      std::span<const double>(box[1].data(), static_cast<std::size_t>(dim)));
      EXPECT_EQ(static_cast<int>(ranks.size()), w.size);
    }
}

// A grid map against the partition's own locator: every cell (as a cell and as a coordinate),
// every local cell's assigned part, boxes against a walk over their cells, save/load.
void check_grid_map(const hpart::PartitionMap& map, const hpart::GridPartition& gp, const hpart::testing::LocalGrid& lg,
                    const std::string& what) {
  const World w;
  const int dim = lg.grid.dim;
  const std::array<std::int64_t, 3> extent = lg.grid.extent;
  EXPECT_EQ(map.kind(), hpart::MapKind::grid);
  const std::string saved = map.save();
  EXPECT_TRUE(same_everywhere(saved, w.comm)) << what;
  const hpart::PartitionMap back = hpart::PartitionMap::load(saved);
  long long wrong = 0;
  for (std::int64_t z = 0; z < extent[2]; ++z)
    for (std::int64_t y = 0; y < extent[1]; ++y)
      for (std::int64_t x = 0; x < extent[0]; ++x) {
        const hpart::Cell c{x, y, z, 0};
        const hpart::part_t q = gp.part_of(c);
        const double mid[3] = {static_cast<double>(x) + 0.5, static_cast<double>(y) + 0.25, static_cast<double>(z) + 0.75};
        wrong += map.part_of(c) != q || back.part_of(c) != q ||
                 map.part_of(std::span<const double>(mid, static_cast<std::size_t>(dim))) != q;
      }
  EXPECT_EQ(wrong, 0) << what;
  const hpart::Box& local = lg.grid.local;
  for (std::size_t i = 0; i < gp.parts.size(); ++i) {
    const auto k = static_cast<std::int64_t>(i);
    const hpart::Cell c{local.lo[0] + k % local.size(0), local.lo[1] + (k / local.size(0)) % local.size(1),
                        dim == 3 ? local.lo[2] + k / (local.size(0) * local.size(1)) : 0, 0};
    wrong += map.part_of(c) != gp.parts[i];
  }
  EXPECT_EQ(wrong, 0) << what << ": local cells";
  for (int t = 0; t < 60; ++t) {
    hpart::Box box = hpart::Box::none(dim);
    for (int a = 0; a < dim; ++a) {
      const auto ua = static_cast<std::size_t>(a);
      const auto u = [&](int s) { return static_cast<std::int64_t>(hpart::testing::unit(21, static_cast<std::uint64_t>(t), 2 * a + s) * static_cast<double>(extent[ua] + 2)) - 1; };
      box.lo[ua] = std::min(u(0), u(1));
      box.hi[ua] = std::max(u(0), u(1));
    }
    std::set<hpart::part_t> brute;
    for (std::int64_t z = std::max<std::int64_t>(box.lo[2], 0); z <= std::min(box.hi[2], extent[2] - 1); ++z)
      for (std::int64_t y = std::max<std::int64_t>(box.lo[1], 0); y <= std::min(box.hi[1], extent[1] - 1); ++y)
        for (std::int64_t x = std::max<std::int64_t>(box.lo[0], 0); x <= std::min(box.hi[0], extent[0] - 1); ++x)
          brute.insert(gp.part_of({x, y, z, 0}));
    const std::vector<hpart::part_t> got = map.parts_in_box(box), loaded = back.parts_in_box(box);
    EXPECT_EQ(std::set<hpart::part_t>(got.begin(), got.end()), brute) << what << " box " << t;
    EXPECT_EQ(loaded, got) << what;
  }
}

// Grid maps, every method: each cell's part (cells and cell-unit coordinates) is the locator's,
// every local cell's is the assigned one, and boxes list exactly the parts of their cells.
TEST(GridAssign, CellsAndBoxesEqualBruteForce) {
  const World w;
  const hpart::Comm comm(w.comm);
  for (const int dim : {2, 3})
    for (const hpart::GridMethod method : {hpart::GridMethod::sfc, hpart::GridMethod::blocks, hpart::GridMethod::tensor,
                                           hpart::GridMethod::uniform})
      for (const hpart::Curve curve : {hpart::Curve::hilbert, hpart::Curve::morton}) {
        if (method != hpart::GridMethod::sfc && curve == hpart::Curve::morton) continue;
        const std::array<std::int64_t, 3> extent{13, 9, dim == 3 ? 6 : 1};
        const auto lg = hpart::testing::slab_grid(dim, extent, w.rank, w.size, 4.0);
        hpart::GridOptions opts;
        opts.parts = 6;
        opts.method = method;
        opts.curve = curve;
        const hpart::GridPartition gp = hpart::partition_grid(comm, lg.grid, opts);
        const hpart::PartitionMap map = hpart::map_of(comm, lg.grid, gp);
        check_grid_map(map, gp, lg, std::to_string(dim) + "D method " + std::to_string(static_cast<int>(method)));
      }
}

std::string emulated(int ranks) { return ranks % 2 == 0 ? std::to_string(ranks / 2) + "x2" : std::to_string(ranks) + "x1"; }

// Hierarchical grid partitions, every node cut: the same checks, and the owners are the
// partition's owner_of_part.
TEST(GridAssign, Hierarchical) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::Topology topo = hpart::detect_topology(comm, emulated(w.size));
  for (const int dim : {2, 3})
    for (const hpart::NodeCut cut : {hpart::NodeCut::staircase, hpart::NodeCut::boxes, hpart::NodeCut::graph})
      for (const hpart::GridMethod rank_method : {hpart::GridMethod::sfc, hpart::GridMethod::blocks}) {
        if (cut != hpart::NodeCut::boxes && rank_method != hpart::GridMethod::sfc) continue;
        const std::array<std::int64_t, 3> extent{14, 11, dim == 3 ? 7 : 1};
        const auto lg = hpart::testing::slab_grid(dim, extent, w.rank, w.size, 4.0);
        hpart::HierGridOptions opts;
        opts.parts = 2 * w.size + 1;
        opts.node_cut = cut;
        opts.rank_method = rank_method;
        const hpart::HierGridPartition gp = hpart::partition_grid_hierarchical(comm, lg.grid, topo, opts);
        const hpart::PartitionMap map = hpart::map_of(comm, lg.grid, gp);
        const std::string what = std::to_string(dim) + "D node cut " + std::to_string(static_cast<int>(cut)) +
                                 " rank method " + std::to_string(static_cast<int>(rank_method));
        check_grid_map(map, gp, lg, what);
        long long wrong = 0;
        for (int q = 0; q < opts.parts; ++q) wrong += map.rank_of_part(q) != gp.owner_of_part[static_cast<std::size_t>(q)];
        EXPECT_EQ(wrong, 0) << what;
      }
}

// Hierarchical point partitions: the node curve, then each node's curve in its points' box.
TEST(PointAssign, Hierarchical) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::Topology topo = hpart::detect_topology(comm, emulated(w.size));
  const auto [b, e] = hpart::testing::uneven_block(1500, w.rank, w.size);
  for (const int dim : {2, 3}) {
    const LocalPoints p = make_points(Shape::clusters, dim, b, e, true, 17);
    hpart::HierPointOptions opts;
    opts.parts = 3 * w.size;
    opts.rank_curve = hpart::Curve::morton;
    const hpart::HierPartition hp = hpart::partition_points_hierarchical(comm, view(p, false), topo, opts);
    const hpart::PartitionMap map = hpart::map_of(comm, view(p, false), opts, hp);
    EXPECT_EQ(map.kind(), hpart::MapKind::hierarchical_points);
    check_map(map, p, hp.parts, used_ids(p, false, w.comm), hp.owner_of_part, w.comm, "hierarchical");
  }
}

TEST(Assign, BadInputIsAnError) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto [b, e] = hpart::testing::uneven_block(300, w.rank, w.size);
  LocalPoints p = make_points(Shape::uniform, 3, b, e, false);
  hpart::PointOptions opts;
  opts.parts = 5;
  const hpart::Partition part = hpart::partition_points(comm, view(p, true), opts);
  const hpart::PartitionMap map = hpart::map_of(comm, view(p, true), opts, part);
  const auto code_of = [](const std::function<void()>& f) {
    try {
      f();
    } catch (const hpart::Error& err) {
      return err.code();
    }
    return hpart::ErrorCode::ok;
  };
  const double two[2] = {0.1, 0.2}, nan3[3] = {0.1, std::nan(""), 0.3}, lo[3] = {0.5, 0.5, 0.5}, hi[3] = {0.4, 0.6, 0.6};
  EXPECT_EQ(code_of([&] { (void)map.part_of(std::span<const double>(two, 2)); }), hpart::ErrorCode::invalid_argument);
  EXPECT_EQ(code_of([&] { (void)map.part_of(std::span<const double>(nan3, 3)); }), hpart::ErrorCode::invalid_input);
  std::vector<hpart::part_t> out(1);
  EXPECT_EQ(code_of([&] { map.assign(std::span<const double>(nan3, 3), out); }), hpart::ErrorCode::invalid_input);
  EXPECT_EQ(code_of([&] { map.assign(std::span<const double>(two, 2), out); }), hpart::ErrorCode::size_mismatch);
  EXPECT_EQ(code_of([&] { (void)map.parts_in_box(std::span<const double>(lo, 3), std::span<const double>(hi, 3)); }),
            hpart::ErrorCode::invalid_argument);
  EXPECT_EQ(code_of([&] { (void)map.rank_of_part(5); }), hpart::ErrorCode::invalid_argument);
  EXPECT_EQ(code_of([&] { (void)hpart::PartitionMap().part_of(std::span<const double>(lo, 3)); }), hpart::ErrorCode::invalid_argument);
  EXPECT_EQ(code_of([&] { (void)map.part_of(hpart::Cell{0, 0, 0, 0}); }), hpart::ErrorCode::invalid_argument);
  // Corrupted descriptors: every one is Error(io), never a crash or a map that answers wrongly.
  const std::string good = map.save();
  std::vector<std::string> bad = {"", good.substr(0, good.size() / 2), "hpart-partition-map 2" + good.substr(good.find('\n')),
                                  good + "extra", "garbage"};
  std::string swapped = good;
  swapped.replace(swapped.find("parts 5"), 7, "parts 2");  // labels beyond the parts
  bad.push_back(swapped);
  std::string unordered = good;
  const auto level = unordered.find("level");
  const auto first = unordered.find('\n', level) + 1;  // the first range (key 0, id 0)
  unordered.replace(first, 1, "f");
  bad.push_back(unordered);
  for (std::size_t i = 0; i < bad.size(); ++i)
    EXPECT_EQ(code_of([&] { (void)hpart::PartitionMap::load(bad[i]); }), hpart::ErrorCode::io) << "case " << i;
  EXPECT_EQ(code_of([&] { (void)hpart::PartitionMap::load_file("/nonexistent/hpart.map"); }), hpart::ErrorCode::io);
  // Collective construction: one rank's bad data or a different argument fails on every rank.
  hpart::PointOptions other = opts;
  if (w.rank == w.size - 1) other.curve = hpart::Curve::morton;
  if (w.size > 1)
    hpart::testing::expect_error_everywhere([&] { (void)hpart::map_of(comm, view(p, true), other, part); }, "curve");
  std::vector<int> owners(5, 0);
  if (w.rank == 0) owners[3] = w.size;
  hpart::testing::expect_error_everywhere([&] { (void)hpart::map_of(comm, view(p, true), opts, part, owners); }, "owner_of_part");
  if (!p.coords.empty() && w.rank == w.size - 1) p.coords[1] = std::nan("");
  hpart::testing::expect_error_everywhere([&] { (void)hpart::map_of(comm, view(p, true), opts, part); }, "finite");
  // Grids: a grid shape that differs on one rank.
  const auto lg = hpart::testing::slab_grid(2, {8, 6, 1}, w.rank, w.size, 0.0);
  hpart::GridOptions gopts;
  gopts.parts = 3;
  const hpart::GridPartition gp = hpart::partition_grid(comm, lg.grid, gopts);
  hpart::Grid other_grid = lg.grid;
  if (w.rank == w.size - 1) other_grid.extent[0] = 9;
  if (w.size > 1)
    hpart::testing::expect_error_everywhere([&] { (void)hpart::map_of(comm, other_grid, gp); }, "extent");
  hpart::Partition short_part = part;
  if (w.rank == w.size - 1) short_part.parts.push_back(0);
  hpart::testing::expect_error_everywhere([&] { (void)hpart::map_of(comm, view(p, true), opts, short_part); }, "map_of");
}

// Saved maps with one word replaced (by a number, a negative, a huge value, garbage) or cut
// short: load throws hpart::Error(io) or gives a map whose every query stays in range.
TEST(Assign, CorruptedTextNeverCrashes) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::Topology topo = hpart::detect_topology(comm, emulated(w.size));
  std::vector<std::string> texts;
  const auto lg = hpart::testing::slab_grid(2, {10, 7, 1}, w.rank, w.size, 3.0);
  for (const hpart::NodeCut cut : {hpart::NodeCut::staircase, hpart::NodeCut::boxes, hpart::NodeCut::graph}) {
    hpart::HierGridOptions opts;
    opts.parts = w.size + 2;
    opts.node_cut = cut;
    texts.push_back(hpart::map_of(comm, lg.grid, hpart::partition_grid_hierarchical(comm, lg.grid, topo, opts)).save());
  }
  const auto [b, e] = hpart::testing::uneven_block(200, w.rank, w.size);
  const LocalPoints p = make_points(Shape::clusters, 2, b, e, false);
  hpart::PointOptions popts;
  popts.parts = 4;
  texts.push_back(hpart::map_of(comm, view(p, true), popts, hpart::partition_points(comm, view(p, true), popts)).save());
  const char* replacements[] = {"0", "1", "-1", "3", "99999999999", "ffffffffffffffff", "x", "2"};
  long long loaded = 0, refused = 0;
  for (const std::string& text : texts) {
    std::vector<std::size_t> starts;  // where each word starts
    for (std::size_t i = 0; i < text.size(); ++i)
      if (!std::isspace(static_cast<unsigned char>(text[i])) && (i == 0 || std::isspace(static_cast<unsigned char>(text[i - 1]))))
        starts.push_back(i);
    for (std::size_t k = 0; k < starts.size(); k += 1 + starts.size() / 150) {
      const std::size_t end = text.find_first_of(" \n", starts[k]);
      for (const char* rep : replacements) {
        std::string bad = text;
        bad.replace(starts[k], end - starts[k], rep);
        for (const std::string& t : {bad, text.substr(0, starts[k])}) {
          try {
            const hpart::PartitionMap m = hpart::PartitionMap::load(t);
            ++loaded;
            const int K = m.num_parts();
            for (double x = -1.0; x <= 12.0; x += 0.7)
              for (double y = -1.0; y <= 8.0; y += 0.9) {
                const double xy[2] = {x, y};
                const hpart::part_t q = m.part_of(std::span<const double>(xy, 2));
                EXPECT_TRUE(q >= 0 && q < K) << "part " << q << " of " << K;
                if (q < 0 || q >= K) return;
              }
            const double lo[2] = {-1.0, -1.0}, hi[2] = {20.0, 20.0};
            for (const hpart::part_t q : m.parts_in_box(std::span<const double>(lo, 2), std::span<const double>(hi, 2)))
              EXPECT_TRUE(q >= 0 && q < K);
          } catch (const hpart::Error& err) {
            ++refused;
            EXPECT_TRUE(err.code() == hpart::ErrorCode::io || err.code() == hpart::ErrorCode::invalid_input ||
                        err.code() == hpart::ErrorCode::invalid_argument) << err.what();
          }
        }
      }
    }
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(loaded, 0);  // some replacements are harmless (a key, a cut) and load
}

}  // namespace
