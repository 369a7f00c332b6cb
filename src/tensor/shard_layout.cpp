// ShardLayout: construction (validated and agreed on every rank), mesh arithmetic, queries.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/agreement.hpp"
#include "tensor/layout_data.hpp"

namespace hpart::tensor {
namespace {

// A count that may exceed 64 bits, as "3.403e+38" (exact below 2^53).
std::string approx_count(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v < 0x1p53 ? "%.0f" : "%.4g", v);
  return buf;
}

}  // namespace

namespace detail {

std::string check_shape(const TensorShape& shape) {
  if (shape.spatial_dims != 2 && shape.spatial_dims != 3)
    return "tensor shape: spatial_dims must be 2 (N, C, H, W) or 3 (N, C, D, H, W), got " +
           std::to_string(shape.spatial_dims);
  for (int a = 0; a < kRank; ++a)
    if (shape.extent[static_cast<std::size_t>(a)] < 1)
      return "tensor shape " + shape.str() + ": every extent must be >= 1";
  if (shape.spatial_dims == 2 && shape.extent[kAxisD] != 1)
    return "tensor shape: a 2-D tensor has D = 1 (got D = " + std::to_string(shape.extent[kAxisD]) +
           "); use TensorShape::d3 for volumes";
  // Cell counts, offsets and the 2x upsampled extents of the layers are 64-bit: bound the volume
  // (in double, which cannot wrap) so that none of them overflows.
  double volume = 1;
  for (std::int64_t e : shape.extent) volume *= static_cast<double>(e);
  if (volume > kMaxTensorCells)
    return "tensor shape " + shape.str() + " has " + approx_count(volume) +
           " cells, more than the 2^58 a tensor may have";
  return {};
}

std::string check_mesh(const TensorShape& shape, const Mesh& mesh, const SplitOptions& split, int ranks) {
  for (int a = 0; a < kRank; ++a)
    if (mesh.parts[static_cast<std::size_t>(a)] < 1) return "mesh: parts per axis must be >= 1";
  if (mesh.replicas < 1) return "mesh: replicas must be >= 1";
  if (shape.spatial_dims == 2 && mesh.parts[kAxisD] != 1) return "mesh: a 2-D tensor cannot be split along D";
  // The rank count in double: parts of a few thousand per axis would overflow an int.
  double shards = 1;
  for (int p : mesh.parts) shards *= p;
  if (shards * mesh.replicas != static_cast<double>(ranks)) {
    std::string parts;
    for (int a = 0; a < kRank; ++a) {
      if (a > 0) parts += 'x';
      parts += std::to_string(mesh.parts[static_cast<std::size_t>(a)]);
    }
    return "mesh of " + parts + " shards (N x C x D x H x W) x " + std::to_string(mesh.replicas) + " replicas needs " +
           approx_count(shards * mesh.replicas) + " ranks, the communicator has " + std::to_string(ranks);
  }
  if (split.method != SplitMethod::balanced && split.method != SplitMethod::uniform &&
      split.method != SplitMethod::explicit_extents)
    return "split: method " + std::to_string(static_cast<int>(split.method)) + " is not a SplitMethod";
  if (split.align_levels < 0 || split.align_levels > 30) return "split: align_levels must be in 0..30";
  if (split.method == SplitMethod::explicit_extents) {
    for (int a = 0; a < kRank; ++a) {
      const auto ua = static_cast<std::size_t>(a);
      const auto& e = split.extents[ua];
      if (e.empty() && mesh.parts[ua] == 1) continue;
      if (static_cast<int>(e.size()) != mesh.parts[ua])
        return "split: axis " + std::to_string(a) + " has " + std::to_string(mesh.parts[ua]) + " shards but " +
               std::to_string(e.size()) + " extents";
      std::int64_t total = 0;
      for (std::int64_t x : e) {
        if (x < 0) return "split: negative extent along axis " + std::to_string(a);
        if (x > shape.extent[ua] - total)  // checked before the sum, which could overflow
          return "split: the extents along axis " + std::to_string(a) + " add up to more than the tensor's extent " +
                 std::to_string(shape.extent[ua]);
        total += x;
      }
      if (total != shape.extent[ua])
        return "split: the extents along axis " + std::to_string(a) + " sum to " + std::to_string(total) +
               ", which does not cover the tensor's extent " + std::to_string(shape.extent[ua]);
    }
  }
  if (split.method == SplitMethod::balanced && !split.cost.empty() &&
      split.cost_box.dim != 0 && split.cost_box.dim != shape.spatial_dims)
    return "split: cost_box has dimension " + std::to_string(split.cost_box.dim) + ", the tensor " +
           std::to_string(shape.spatial_dims) + " spatial axes";
  return {};
}

void add_shape(hpart::detail::Replicated& args, const TensorShape& shape) {
  static constexpr const char* kNames[kRank] = {"TensorShape::extent[N]", "TensorShape::extent[C]",
                                                "TensorShape::extent[D]", "TensorShape::extent[H]",
                                                "TensorShape::extent[W]"};
  args.value("TensorShape::spatial_dims", static_cast<long long>(shape.spatial_dims));
  for (int a = 0; a < kRank; ++a) args.value(kNames[a], static_cast<long long>(shape.extent[static_cast<std::size_t>(a)]));
}

}  // namespace detail

ShardLayout ShardLayout::sharded(const Comm& comm, const TensorShape& shape, const Mesh& mesh,
                                 const SplitOptions& split) {
  std::string problem = detail::check_shape(shape);
  if (problem.empty()) problem = detail::check_mesh(shape, mesh, split, comm.size());
  // Everything but the cost field must be the same on every rank.
  static constexpr const char* kParts[kRank] = {"Mesh::parts[N]", "Mesh::parts[C]", "Mesh::parts[D]", "Mesh::parts[H]",
                                                "Mesh::parts[W]"};
  hpart::detail::Replicated args;
  detail::add_shape(args, shape);
  for (int a = 0; a < kRank; ++a) args.value(kParts[a], static_cast<long long>(mesh.parts[static_cast<std::size_t>(a)]));
  args.value("Mesh::replicas", static_cast<long long>(mesh.replicas));
  const int periodic[3] = {mesh.periodic[kAxisD] ? 1 : 0, mesh.periodic[kAxisH] ? 1 : 0, mesh.periodic[kAxisW] ? 1 : 0};
  args.values("Mesh::periodic", periodic);
  // The split's options where the method uses them (explicit extents ignore align_levels, the
  // other methods the extents).
  const bool explicit_split = split.method == SplitMethod::explicit_extents;
  args.value("SplitOptions::method", static_cast<long long>(split.method));
  args.value("SplitOptions::align_levels", explicit_split ? 0LL : static_cast<long long>(split.align_levels));
  std::vector<std::int64_t> extents;  // per axis: the count, then the extents
  for (const auto& e : split.extents) {
    if (!explicit_split) break;
    extents.push_back(static_cast<std::int64_t>(e.size()));
    extents.insert(extents.end(), e.begin(), e.end());
  }
  args.values("SplitOptions::extents", extents);
  hpart::detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);

  auto d = std::make_shared<Data>(comm);
  d->shape = shape;
  d->has_mesh = true;
  d->mesh = mesh;
  d->mesh.periodic[kAxisN] = d->mesh.periodic[kAxisC] = false;
  if (shape.spatial_dims == 2) d->mesh.periodic[kAxisD] = false;
  d->starts = detail::split_axes(comm, shape, mesh, split);
  const int P = comm.size();
  d->boxes.resize(static_cast<std::size_t>(P));
  d->primary.resize(static_cast<std::size_t>(P));
  ShardLayout layout(d);
  for (int r = 0; r < P; ++r) {
    const auto c = layout.mesh_coord(r);
    Box b = empty_box();
    for (int a = 0; a < kRank; ++a) {
      const auto ua = static_cast<std::size_t>(a);
      const auto& s = d->starts[ua];
      const auto j = static_cast<std::size_t>(c[ua]);
      b.lo[ua] = s[j];
      b.hi[ua] = (j + 1 < s.size() ? s[j + 1] : shape.extent[ua]) - 1;
    }
    if (b.empty()) b = empty_box();
    d->boxes[static_cast<std::size_t>(r)] = b;
    d->primary[static_cast<std::size_t>(r)] = layout.replica_of(r) == 0 ? 1 : 0;
  }
  return layout;
}

ShardLayout ShardLayout::replicated(const Comm& comm, const TensorShape& shape) {
  Mesh m;
  m.replicas = comm.size();
  SplitOptions split;
  split.method = SplitMethod::uniform;
  return sharded(comm, shape, m, split);
}

ShardLayout ShardLayout::on_rank(const Comm& comm, const TensorShape& shape, int root) {
  std::string problem = detail::check_shape(shape);
  if (problem.empty() && (root < 0 || root >= comm.size()))
    problem = "on_rank: root " + std::to_string(root) + " is not a rank of the communicator (size " +
              std::to_string(comm.size()) + ")";
  hpart::detail::Replicated args;
  detail::add_shape(args, shape);
  args.value("root", static_cast<long long>(root));
  hpart::detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  auto d = std::make_shared<Data>(comm);
  d->shape = shape;
  d->boxes.assign(static_cast<std::size_t>(comm.size()), empty_box());
  d->primary.assign(static_cast<std::size_t>(comm.size()), 0);
  d->boxes[static_cast<std::size_t>(root)] = whole_box(shape);
  d->primary[static_cast<std::size_t>(root)] = 1;
  return ShardLayout(d);
}

ShardLayout ShardLayout::from_boxes(const Comm& comm, const TensorShape& shape, const Box& mine) {
  std::string problem = detail::check_shape(shape);
  if (problem.empty() && !mine.empty() && (mine.dim != kRank || mine.order != AxisOrder::last_fastest))
    problem = "from_boxes: " + mine.str() + " is not a tensor box (N, C, D, H, W): build it with tensor_box or whole_box";
  hpart::detail::Replicated args;
  detail::add_shape(args, shape);
  hpart::detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  const Box b = mine.empty() ? empty_box() : mine;
  std::vector<std::int64_t> all(static_cast<std::size_t>(2 * kRank * comm.size()));
  std::int64_t local[2 * kRank];
  for (int a = 0; a < kRank; ++a) local[a] = b.lo[static_cast<std::size_t>(a)], local[kRank + a] = b.hi[static_cast<std::size_t>(a)];
  MPI_Allgather(local, 2 * kRank, MPI_INT64_T, all.data(), 2 * kRank, MPI_INT64_T, comm.get());
  auto d = std::make_shared<Data>(comm);
  d->shape = shape;
  d->boxes.assign(static_cast<std::size_t>(comm.size()), empty_box());
  d->primary.assign(static_cast<std::size_t>(comm.size()), 1);
  for (int r = 0; r < comm.size(); ++r)
    for (int a = 0; a < kRank; ++a) {
      d->boxes[static_cast<std::size_t>(r)].lo[static_cast<std::size_t>(a)] = all[static_cast<std::size_t>(2 * kRank * r + a)];
      d->boxes[static_cast<std::size_t>(r)].hi[static_cast<std::size_t>(a)] = all[static_cast<std::size_t>(2 * kRank * r + kRank + a)];
    }
  // Every rank sees every box: the same verdict everywhere without more communication.
  const Box whole = whole_box(shape);
  std::int64_t covered = 0;
  problem.clear();
  for (int r = 0; r < comm.size() && problem.empty(); ++r) {
    const Box& br = d->boxes[static_cast<std::size_t>(r)];
    if (br.empty()) continue;
    if (!br.intersect(whole).same_cells(br))
      problem = "from_boxes: the box of rank " + std::to_string(r) + " " + br.str() + " lies outside the tensor " +
                shape.str();
    for (int q = 0; q < r && problem.empty(); ++q)
      if (!br.intersect(d->boxes[static_cast<std::size_t>(q)]).empty())
        problem = "from_boxes: the boxes of ranks " + std::to_string(q) + " and " + std::to_string(r) + " overlap";
    covered += br.volume();
  }
  if (problem.empty() && covered != shape.volume())
    problem = "from_boxes: the boxes do not cover the tensor: " + std::to_string(covered) + " of " +
              std::to_string(shape.volume()) + " cells";
  if (!problem.empty()) throw Error(ErrorCode::invalid_input, problem);
  return ShardLayout(d);
}

const ShardLayout::Data& ShardLayout::data() const {
  if (!data_) throw Error(ErrorCode::invalid_argument, "ShardLayout: default-constructed layout used");
  return *data_;
}
const Comm& ShardLayout::comm() const { return data().comm; }
const TensorShape& ShardLayout::shape() const { return data().shape; }
const Box& ShardLayout::box(int rank) const { return data().boxes.at(static_cast<std::size_t>(rank)); }
const std::vector<Box>& ShardLayout::boxes() const { return data().boxes; }
bool ShardLayout::is_primary(int rank) const { return data().primary.at(static_cast<std::size_t>(rank)) != 0; }
bool ShardLayout::has_mesh() const { return data().has_mesh; }

const Mesh& ShardLayout::mesh() const {
  if (!data().has_mesh) throw Error(ErrorCode::invalid_argument, "ShardLayout: this layout has no process mesh");
  return data().mesh;
}

std::array<int, kRank> ShardLayout::mesh_coord(int rank) const {
  const Mesh& m = mesh();
  int s = rank % m.shards();
  std::array<int, kRank> c{};
  for (int a = kRank - 1; a >= 0; --a) {
    const int p = m.parts[static_cast<std::size_t>(a)];
    c[static_cast<std::size_t>(a)] = s % p;
    s /= p;
  }
  return c;
}

int ShardLayout::replica_of(int rank) const { return rank / mesh().shards(); }

int ShardLayout::rank_at(const std::array<int, kRank>& coord, int replica) const {
  const Mesh& m = mesh();
  int s = 0;
  for (int a = 0; a < kRank; ++a) s = s * m.parts[static_cast<std::size_t>(a)] + coord[static_cast<std::size_t>(a)];
  return replica * m.shards() + s;
}

int ShardLayout::neighbour(int rank, const std::array<int, kRank>& offset) const {
  const Mesh& m = mesh();
  auto c = mesh_coord(rank);
  for (int a = 0; a < kRank; ++a) {
    const auto ua = static_cast<std::size_t>(a);
    const int p = m.parts[ua];
    int x = c[ua] + offset[ua];
    if (x < 0 || x >= p) {
      if (!m.periodic[ua]) return -1;
      x = ((x % p) + p) % p;
    }
    c[ua] = x;
  }
  return rank_at(c, replica_of(rank));
}

const std::vector<std::int64_t>& ShardLayout::starts(int axis) const {
  (void)mesh();  // throws for a layout without one
  return data().starts.at(static_cast<std::size_t>(axis));
}

bool ShardLayout::periodic(int axis) const {
  return data().has_mesh && data().mesh.periodic.at(static_cast<std::size_t>(axis));
}

std::string ShardLayout::str() const {
  const Data& d = data();
  std::string s = "tensor " + d.shape.str();
  if (d.has_mesh) {
    s += " mesh";
    for (int a = 0; a < kRank; ++a) {
      s += a ? 'x' : ' ';
      s += std::to_string(d.mesh.parts[static_cast<std::size_t>(a)]);
    }
    if (d.mesh.replicas > 1) s += " replicas " + std::to_string(d.mesh.replicas);
  }
  return s + " rank " + std::to_string(d.comm.rank()) + " box " + local_box().str();
}

bool operator==(const ShardLayout& a, const ShardLayout& b) {
  if (a.data_ == b.data_) return true;
  if (!a.data_ || !b.data_) return false;
  const auto& x = *a.data_;
  const auto& y = *b.data_;
  if (x.comm.size() != y.comm.size() || x.comm.rank() != y.comm.rank() || !(x.shape == y.shape)) return false;
  if (!std::equal(x.boxes.begin(), x.boxes.end(), y.boxes.begin(), y.boxes.end(),
                  [](const Box& p, const Box& q) { return p.same_cells(q); }) ||
      x.primary != y.primary || x.has_mesh != y.has_mesh)
    return false;
  return !x.has_mesh || x.mesh == y.mesh;
}

}  // namespace hpart::tensor
