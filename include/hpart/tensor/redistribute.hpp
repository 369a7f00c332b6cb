#pragma once
// Redistribution between any two layouts of the same tensor on the same communicator: all-to-all
// reshards by box intersections, gather to a rank (to ShardLayout::on_rank), scatter from one
// (from on_rank), to and from ShardLayout::replicated.
//
// Forward R: every holder of a cell in the target layout (replicas included) gets the value of
// the cell's primary copy in the source layout. Only interiors are read and written.
// Adjoint R^T: every source primary cell gets the SUM of the target copies of that cell; source
// cells that are not primary (other replicas) get zero. <R x, y> = <x, R^T y> with the inner
// product over every rank's interior (stored_dot in ops.hpp): the backward pass of R.
//
//   Redistribution<double> to_rows(from_layout, to_layout);   // plan once, reuse
//   to_rows.forward(x, y);     to_rows.adjoint(gy, gx);
//   auto whole = redistribute(x, ShardLayout::on_rank(comm, x.layout().shape(), 0));
#include <cstdint>
#include <vector>

#include "hpart/tensor/shard_tensor.hpp"

namespace hpart::tensor {

// What this rank sends to and receives from each peer: the intersection of a source primary box
// and a target box, in global coordinates. Computed from the layouts alone (no communication
// beyond validation). Pieces are in peer order; a piece with peer == this rank is a local copy.
struct RedistributePlan {
  struct Piece {
    int peer = -1;
    Box box = empty_box();
  };
  std::vector<Piece> sends, receives;
  std::int64_t send_elements = 0;     // to other ranks
  std::int64_t receive_elements = 0;  // from other ranks
};

// Collective: the two layouts must be on communicators of the same size and rank, with the same
// global shape, and (bytes_per_element > 0) the buffers of a call, at that many bytes per element
// sent or received, must fit this rank's memory budget; otherwise the same hpart::Error on every
// rank.
RedistributePlan make_redistribute_plan(const ShardLayout& from, const ShardLayout& to, double bytes_per_element = 0);

template <class T, class MemorySpace = DefaultMemorySpace>
class Redistribution {
 public:
  using tensor_type = ShardTensor<T, MemorySpace>;

  Redistribution() = default;
  Redistribution(const ShardLayout& from, const ShardLayout& to);  // collective

  // y (laid out as `to`) = R x (x laid out as `from`); y's halo is left as it was. Collective.
  void forward(const tensor_type& x, tensor_type& y);
  // x (laid out as `from`) = R^T y; x's halo is left as it was. Collective.
  void adjoint(const tensor_type& y, tensor_type& x);

  [[nodiscard]] const ShardLayout& from() const { return from_; }
  [[nodiscard]] const ShardLayout& to() const { return to_; }
  [[nodiscard]] const RedistributePlan& plan() const { return plan_; }
  [[nodiscard]] std::int64_t bytes_sent() const { return plan_.send_elements * static_cast<std::int64_t>(sizeof(T)); }

 private:
  using buffer_type = Kokkos::View<T*, MemorySpace>;
  // Moves pieces: `out` pieces read from `src` (global boxes relative to src's box), `in` pieces
  // written to (or, add = true, added into) `dst`.
  void move(const std::vector<RedistributePlan::Piece>& out, const tensor_type& src,
            const std::vector<RedistributePlan::Piece>& in, tensor_type& dst, bool add);

  ShardLayout from_, to_;
  RedistributePlan plan_;
};

// One-shot forms: a new tensor laid out as `to` (with `halo`, zero) holding R x, or R^T y.
template <class T, class MemorySpace>
ShardTensor<T, MemorySpace> redistribute(const ShardTensor<T, MemorySpace>& x, const ShardLayout& to,
                                         const Halo& halo = {});
template <class T, class MemorySpace>
ShardTensor<T, MemorySpace> redistribute_adjoint(const ShardTensor<T, MemorySpace>& y, const ShardLayout& from,
                                                 const Halo& halo = {});

}  // namespace hpart::tensor

#include "hpart/tensor/impl/redistribute_impl.hpp"
