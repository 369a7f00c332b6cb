#pragma once
// What a ShardLayout holds, and the pieces its constructors share (private to hpart_tensor).
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/agreement.hpp"
#include "hpart/tensor/layout.hpp"

namespace hpart::tensor {

struct ShardLayout::Data {
  explicit Data(const Comm& c) : comm(c) {}
  Comm comm;
  TensorShape shape;
  std::vector<Box> boxes;        // per rank: tensor boxes, empty ones canonical (empty_box)
  std::vector<char> primary;     // per rank
  bool has_mesh = false;
  Mesh mesh;
  std::array<std::vector<std::int64_t>, kRank> starts;  // mesh layouts: shard starts per axis
};

namespace detail {

// "" or what is wrong with the shape.
std::string check_shape(const TensorShape& shape);
// "" or what is wrong with a mesh layout's arguments on `ranks` ranks.
std::string check_mesh(const TensorShape& shape, const Mesh& mesh, const SplitOptions& split, int ranks);
// Adds the shape to the arguments every rank must pass alike.
void add_shape(hpart::detail::Replicated& args, const TensorShape& shape);
// Collective: shard starts along each axis (arguments already agreed).
std::array<std::vector<std::int64_t>, kRank> split_axes(const Comm& comm, const TensorShape& shape, const Mesh& mesh,
                                                        const SplitOptions& split);

}  // namespace detail
}  // namespace hpart::tensor
