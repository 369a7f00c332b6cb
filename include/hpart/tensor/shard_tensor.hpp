#pragma once
// ShardTensor: this rank's shard of a distributed tensor. The local storage is one 5-D Kokkos
// view, LayoutRight, of shape (N_local, C_local, D_local + 2 hd, H_local + 2 hh, W_local + 2 hw):
// spatial halo margins only. A 2-D tensor has D_local = 1 and hd = 0. A rank with an empty box
// holds a view of extent 0.
//
//   ShardTensor<double> x(layout, Halo::uniform(1));      // collective
//   auto in = x.interior();                               // the owned cells, halo excluded
//   x.view()(n, c, x.local_index(kAxisD, gd), ...);      // a global cell through the helpers
#include <Kokkos_Core.hpp>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hpart/tensor/layout.hpp"

namespace hpart::tensor {

template <class T, class MemorySpace>
class HaloExchange;

// Halo widths along D, H and W (cells on each side).
struct Halo {
  int d = 0, h = 0, w = 0;

  // `width` on every spatial axis of a tensor with `spatial_dims` spatial axes (2: H, W).
  static Halo uniform(int width, int spatial_dims = 2) { return {spatial_dims == 3 ? width : 0, width, width}; }
  [[nodiscard]] int along(int axis) const {
    return axis == kAxisD ? d : axis == kAxisH ? h : axis == kAxisW ? w : 0;
  }
  [[nodiscard]] Index5 margins() const { return {0, 0, d, h, w}; }
  [[nodiscard]] bool any() const { return d > 0 || h > 0 || w > 0; }
  friend bool operator==(const Halo&, const Halo&) = default;
};

// Collective: the same halo on every rank, widths >= 0 (D's 0 for 2-D tensors), and no shard
// thinner than the halo along an axis where a neighbour reads it (a halo reaches the next shard
// only: there is no multi-hop exchange). Throws the same hpart::Error on every rank.
void validate_halo(const ShardLayout& layout, const Halo& halo);

using DefaultMemorySpace = Kokkos::DefaultExecutionSpace::memory_space;

namespace detail {
// Collective: validate_halo, and whether this rank can hold its local array (halo included) of
// `element_bytes` per cell (0: not checked) within its memory budget (HPART_MEMORY_LIMIT or the
// node's available memory shared by its ranks); else the same hpart::Error on every rank.
void validate_shard_tensor(const ShardLayout& layout, const Halo& halo, std::size_t element_bytes);
// Collective: whether every rank can hold the whole tensor (`who`: from_global, to_global), else
// the same hpart::Error on every rank.
void check_whole_tensor(const ShardLayout& layout, std::size_t element_bytes, const char* who);

// Host arrays of several MiB get transparent huge pages where the kernel offers them on request
// (Linux, THP "madvise"): a halo's W faces touch one cache line per row, and with 4 KiB pages
// each of those is a TLB miss (zeroing the W padding of 4096^2 x 16 floats: 1.2 ms -> 0.5 ms).
// Called before the first touch. A no-op elsewhere.
void advise_huge_pages_host(void* data, std::size_t bytes);
template <class View>
void advise_huge_pages(const View& v) {
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename View::memory_space>::accessible)
    advise_huge_pages_host(v.data(), v.size() * sizeof(typename View::value_type));
}
}  // namespace detail

template <class T, class MemorySpace = DefaultMemorySpace>
class ShardTensor {
 public:
  using value_type = T;
  using memory_space = MemorySpace;
  using execution_space = typename MemorySpace::execution_space;
  using view_type = Kokkos::View<T*****, Kokkos::LayoutRight, MemorySpace>;
  using host_view_type = typename view_type::HostMirror;
  using range = Kokkos::pair<std::int64_t, std::int64_t>;

  ShardTensor() = default;
  // Collective (validate_halo, and the local array's memory checked before it is allocated).
  // Zero-initialised, halos included.
  explicit ShardTensor(const ShardLayout& layout, const Halo& halo = {}, const std::string& label = "hpart::ShardTensor")
      : ShardTensor(layout, halo, label, (detail::validate_shard_tensor(layout, halo, sizeof(T)), 0)) {}

  // A tensor over memory the caller owns (a torch or numpy array, a buffer of another library):
  // `storage` must have exactly the local array's extents (interior + 2 * halo on the spatial
  // axes; all 0 for an empty box; a View built from a pointer is unmanaged, so the caller keeps
  // the memory alive as long as the tensor and any HaloExchange in flight on it). Nothing is
  // allocated, copied or zeroed. Not collective: the layout and halo must have been validated
  // already (validate_halo, or a ShardTensor or HaloExchange of the same layout and halo); a
  // wrong extent throws hpart::Error on this rank only. The padding is not tracked (the caller
  // may write the memory behind the tensor's back), so HaloExchange's
  // Padding::zero_each_exchange zeroes it on every exchange of a wrapped tensor.
  static ShardTensor wrap(const ShardLayout& layout, const Halo& halo, const view_type& storage) {
    ShardTensor t;
    t.layout_ = layout;
    t.halo_ = halo;
    const Box& b = layout.local_box();
    const Index5 m = halo.margins();
    for (int a = 0; a < kRank; ++a) {
      const auto ua = static_cast<std::size_t>(a);
      t.extent_[ua] = b.extent(a);
      const std::int64_t want = b.empty() ? 0 : t.extent_[ua] + 2 * m[ua];
      if (static_cast<std::int64_t>(storage.extent(ua)) != want)
        throw Error(ErrorCode::size_mismatch, "ShardTensor::wrap: storage extent " +
                                                  std::to_string(storage.extent(ua)) + " along axis " +
                                                  std::to_string(a) + ", the local array needs " +
                                                  std::to_string(want));
    }
    t.view_ = storage;
    return t;  // padding_ stays null: not tracked
  }

  // A new zero tensor with the same layout and halo (not collective: already validated).
  [[nodiscard]] ShardTensor like(const std::string& label = "hpart::ShardTensor") const {
    return ShardTensor(layout_, halo_, label, 0);
  }

  [[nodiscard]] bool valid() const { return layout_.valid(); }
  [[nodiscard]] const ShardLayout& layout() const { return layout_; }
  [[nodiscard]] const Halo& halo() const { return halo_; }
  [[nodiscard]] const Box& box() const { return layout_.local_box(); }
  // The local array, writable. Calling it marks the padding (halo cells past non-periodic global
  // edges) as possibly written, so the next HaloExchange with Padding::zero_each_exchange zeroes
  // it again; const_view() does not. A handle kept from view() and used to write the padding
  // after a later exchange needs mark_padding_dirty() (or Padding::zero_always).
  [[nodiscard]] const view_type& view() const {
    if (padding_) padding_->zero = false;
    return view_;
  }
  [[nodiscard]] Kokkos::View<const T*****, Kokkos::LayoutRight, MemorySpace> const_view() const { return view_; }
  void mark_padding_dirty() const {
    if (padding_) padding_->zero = false;
  }
  // Whether the padding is known to be zero (set at allocation and by the halo exchange's zeroing,
  // cleared by view() and mark_padding_dirty()).
  [[nodiscard]] bool padding_known_zero() const { return padding_ && padding_->zero; }

  // Interior extents (the box's sizes; zeros for an empty box) and the margin on each axis.
  [[nodiscard]] Index5 interior_extent() const { return extent_; }
  [[nodiscard]] Index5 margins() const { return halo_.margins(); }
  [[nodiscard]] std::int64_t interior_volume() const { return box().volume(); }

  // The owned cells as a subview (LayoutStride).
  [[nodiscard]] auto interior() const {
    const Index5 m = margins();
    return Kokkos::subview(view_, range(0, extent_[0]), range(0, extent_[1]), range(m[2], m[2] + extent_[2]),
                           range(m[3], m[3] + extent_[3]), range(m[4], m[4] + extent_[4]));
  }

  // Global <-> local array index along an axis (local counts the halo margin; a global index
  // one step outside the box lands in the halo).
  [[nodiscard]] std::int64_t local_index(int axis, std::int64_t global) const {
    return global - box().lo[static_cast<std::size_t>(axis)] + halo_.along(axis);
  }
  [[nodiscard]] std::int64_t global_index(int axis, std::int64_t local) const {
    return local + box().lo[static_cast<std::size_t>(axis)] - halo_.along(axis);
  }
  [[nodiscard]] bool owns(const Index5& global) const { return box().contains(global); }
  [[nodiscard]] bool same_shape(const ShardTensor& o) const { return layout_ == o.layout_ && halo_ == o.halo_; }

 private:
  ShardTensor(const ShardLayout& layout, const Halo& halo, const std::string& label, int /*validated*/)
      : layout_(layout), halo_(halo) {
    const Box& b = layout_.local_box();
    const Index5 m = halo_.margins();
    std::array<std::size_t, kRank> alloc{0, 0, 0, 0, 0};
    for (int a = 0; a < kRank; ++a) {
      const auto ua = static_cast<std::size_t>(a);
      extent_[ua] = b.extent(a);
      if (!b.empty()) alloc[ua] = static_cast<std::size_t>(extent_[ua] + 2 * m[ua]);
    }
    view_ = view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), alloc[0], alloc[1], alloc[2], alloc[3],
                      alloc[4]);
    detail::advise_huge_pages(view_);
    Kokkos::deep_copy(view_, T(0));
    padding_ = std::make_shared<PaddingState>();
  }

  template <class, class>
  friend class HaloExchange;
  // Shared by the copies of a tensor (they share the view).
  struct PaddingState {
    bool zero = true;
  };

  ShardLayout layout_;
  Halo halo_;
  Index5 extent_{0, 0, 0, 0, 0};
  view_type view_;
  std::shared_ptr<PaddingState> padding_;
};

// Test helpers, O(global volume) memory on every rank.
// Every rank passes the same host array of the whole tensor (row-major N, C, D, H, W); each rank
// keeps its box (replicas too). Collective (validate_halo).
template <class T, class MemorySpace = DefaultMemorySpace>
ShardTensor<T, MemorySpace> from_global(const ShardLayout& layout, const Halo& halo, std::span<const T> global);
// The whole tensor on every rank, assembled from the primary interiors. Collective.
template <class T, class MemorySpace>
std::vector<T> to_global(const ShardTensor<T, MemorySpace>& t);

}  // namespace hpart::tensor

#include "hpart/tensor/impl/shard_tensor_impl.hpp"
