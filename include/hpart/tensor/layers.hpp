#pragma once
// Sharded CNN layers over ShardTensors: forward and backward passes that equal the unsharded
// computation. Spatial dims may be split over a process mesh (and the batch too); channels are
// whole on every rank and parameters are replicated, with their gradients summed over the ranks.
//
//   Conv<double> conv({.cin = 1, .cout = 8, .kd = 1, .kh = 3, .kw = 3});
//   ShardTensor<double> x(layout, Halo::uniform(1));   // halo >= kernel radius
//   auto y = conv.make_output(x);                        // x's mesh and cuts, 8 channels
//   conv.forward(x, y);                                  // halo exchange overlapped with the local conv
//   conv.backward(x, dy, dx);                            // local transpose + halo adjoint + all-reduce
//
// Communication pattern, per layer:
// - Conv: forward exchanges x's halo (zeros past non-periodic global edges, wrapped values on
//   periodic axes) while it convolves the shard's core, then convolves the rim. Backward computes the data gradient over dx's whole
//   padded storage, sends its halo part back to the owners (HaloExchange::adjoint: added there),
//   and all-reduces the weight and bias gradients.
// - Pool2 / Upsample2 (factor 2 in every spatial dim): local, on aligned shards (every shard
//   start and extent even along pooled dims: SplitOptions::align_levels). Bilinear upsampling
//   exchanges a halo of 1 and replicates edges at global edges (PyTorch's clamp); its backward
//   runs the two adjoints in reverse.
// - GroupNorm: per (sample, group) sums all-reduced (mean first, then centred squares, so the
//   variance has no cancellation), and the two backward sums all-reduced likewise.
// - Activations are local; mse_loss all-reduces its sum (with each rank's verdict on its input).
// Validation happens the first time a layer sees a layout, collectively: the layer's arguments
// (channels, kernel extents, groups, eps, pooling kind) and its replicated parameters' values must
// be the same on every rank, and local problems are combined, so bad input gives the same
// hpart::Error on every rank. Constructors do not communicate, so they do not throw for bad
// arguments: those are reported by the first make_output / forward, on every rank. Checks that
// depend on a call's tensors run before the call's first collective (GroupNorm's ride on its
// all-reduce); the layouts passed must be the same objects' on every rank (collective values).
// A rank with an empty shard takes part in every call and contributes nothing.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hpart/tensor/halo.hpp"
#include "hpart/tensor/layer_kernels.hpp"
#include "hpart/tensor/optim.hpp"
#include "hpart/tensor/shard_tensor.hpp"

namespace hpart::tensor {

using kernels::Activation;
using kernels::ConvShape;
using kernels::Pool;
using kernels::Upsample;

// The kernels' view of a shard: its storage and halo widths.
template <class T>
kernels::Padded<T> padded(const ShardTensor<T>& t) {
  return {t.view(), {t.halo().d, t.halo().h, t.halo().w}};
}

// The layout of a layer output: x's mesh and cuts, `channels` channels, spatial extents and cuts
// scaled by num / den (pool: 1/2, upsample: 2/1). Collective. Needs a mesh layout with one
// replica and unsplit channels; scaling by 1/2 needs every cut and extent even.
ShardLayout derived_layout(const ShardLayout& x, std::int64_t channels, int num = 1, int den = 1);

// Sums a replicated parameter gradient over the layout's ranks (every rank gets the sum).
template <class T>
void allreduce_sum(const Comm& comm, const kernels::View1<T>& v);

namespace detail_layers {
// What Conv, Pool2 and Upsample2 share: the output tensor they make for an input, laid out as
// the layer derives from the input's layout, and the start of their forward calls. Layer has
// prepare(x) (collective the first time a layout is seen), out_layout_ and kOutputLabel.
template <class T, class Layer>
class DerivedOutput {
 public:
  // A zero output tensor for x (collective the first time a layout is seen).
  [[nodiscard]] ShardTensor<T> make_output(const ShardTensor<T>& x, const Halo& halo = {}) {
    layer().prepare(x);
    return ShardTensor<T>(layer().out_layout_, halo, Layer::kOutputLabel);
  }

 protected:
  // Prepares for x and checks that y is laid out like make_output(x); `call` names the caller.
  void prepare_forward(const ShardTensor<T>& x, const ShardTensor<T>& y, const char* call) {
    layer().prepare(x);
    if (!(y.layout() == layer().out_layout_))
      throw Error(ErrorCode::invalid_argument, std::string(call) + ": y is not laid out like make_output(x)");
  }

 private:
  Layer& layer() { return static_cast<Layer&>(*this); }
};
}  // namespace detail_layers

template <class T>
class Conv : public detail_layers::DerivedOutput<T, Conv<T>> {
 public:
  // Weights uniform in +-1/sqrt(fan_in) from `seed` (the same on every rank), bias zero. Not
  // collective: a bad shape (even or non-positive extents, more weights than fit) leaves the
  // parameters empty and is reported by make_output / forward on every rank. `transfer`: how the
  // halo moves (HaloTransfer). automatic measures the candidates on the first exchanges, so the
  // messages of a run may differ from the next run's; pin one for reproducible traffic (the
  // scaling suite pins pack). It must be the same on every rank (checked by the halo plan).
  explicit Conv(const ConvShape& shape, bool bias = true, std::uint64_t seed = 1,
                HaloTransfer transfer = HaloTransfer::automatic);

  // make_output(x, halo): a zero output tensor for x (collective the first time a layout is seen).
  // Exchanges x's halo (its halo cells are overwritten) and computes y = b + w (*) x, the core
  // of the shard while the messages are in flight.
  void forward(ShardTensor<T>& x, ShardTensor<T>& y);
  // x as left by forward (halo exchanged); dx has x's layout and halo and is overwritten (its
  // halo ends zero); weight/bias gradients are overwritten with this call's sums over ranks.
  void backward(const ShardTensor<T>& x, const ShardTensor<T>& dy, ShardTensor<T>& dx);

  [[nodiscard]] std::vector<Parameter<T>> parameters() const;
  [[nodiscard]] const ConvShape& shape() const { return shape_; }

  kernels::View1<T> weight, bias, weight_grad, bias_grad;

 private:
  friend class detail_layers::DerivedOutput<T, Conv<T>>;
  static constexpr const char* kOutputLabel = "hpart::Conv::output";
  void prepare(const ShardTensor<T>& x);
  ConvShape shape_;
  bool with_bias_ = true;
  std::string problem_;  // the constructor's verdict, reported collectively by prepare
  ShardLayout in_layout_, out_layout_;
  Halo in_halo_;
  HaloTransfer transfer_ = HaloTransfer::automatic;
  std::unique_ptr<HaloExchange<T>> exchange_;
};

template <class T>
class Pool2 : public detail_layers::DerivedOutput<T, Pool2<T>> {
 public:
  explicit Pool2(Pool kind = Pool::average) : kind_(kind) {}
  // make_output(x, halo) as Conv's.
  void forward(const ShardTensor<T>& x, ShardTensor<T>& y);
  // dx (x's layout) interior overwritten.
  void backward(const ShardTensor<T>& x, const ShardTensor<T>& dy, ShardTensor<T>& dx);

 private:
  friend class detail_layers::DerivedOutput<T, Pool2<T>>;
  static constexpr const char* kOutputLabel = "hpart::Pool2::output";
  void prepare(const ShardTensor<T>& x);
  Pool kind_;
  ShardLayout in_layout_, out_layout_;
};

template <class T>
class Upsample2 : public detail_layers::DerivedOutput<T, Upsample2<T>> {
 public:
  explicit Upsample2(Upsample kind = Upsample::nearest) : kind_(kind) {}
  // make_output(x, halo) as Conv's.
  // Bilinear: x's halo must be >= 1 in the upsampled dims; it is exchanged and edge-filled.
  void forward(ShardTensor<T>& x, ShardTensor<T>& y);
  // dx has x's layout and halo; interior overwritten (halo ends zero for bilinear).
  void backward(const ShardTensor<T>& dy, ShardTensor<T>& dx);

 private:
  friend class detail_layers::DerivedOutput<T, Upsample2<T>>;
  static constexpr const char* kOutputLabel = "hpart::Upsample2::output";
  void prepare(const ShardTensor<T>& x);
  kernels::Edges edges() const;
  Upsample kind_;
  ShardLayout in_layout_, out_layout_;
  Halo in_halo_;
  std::unique_ptr<HaloExchange<T>> exchange_;
};

template <class T>
class GroupNorm {
 public:
  // gamma 1, beta 0. Not collective: bad arguments (groups not dividing channels, eps not finite
  // and >= 0) leave the parameters empty and are reported by forward on every rank.
  GroupNorm(int channels, int groups, double eps = 1e-5);
  // y has x's layout (any halo). Keeps the statistics for backward.
  void forward(const ShardTensor<T>& x, ShardTensor<T>& y);
  void backward(const ShardTensor<T>& x, const ShardTensor<T>& dy, ShardTensor<T>& dx);
  [[nodiscard]] std::vector<Parameter<T>> parameters() const;

  kernels::View1<T> gamma, beta, gamma_grad, beta_grad;

 private:
  void prepare(const ShardTensor<T>& x);
  [[nodiscard]] std::string parameter_problem() const;  // "" or why gamma/beta have the wrong extents
  int channels_, groups_;
  double eps_;
  std::string problem_;  // the constructor's verdict, reported collectively by prepare
  double count_ = 0;  // elements per (sample, group)
  ShardLayout layout_;
  kernels::View1<double> mean_, rstd_;  // this rank's samples, n_local * groups
};

// Local, no communication: y = f(x), dx = dy f'(x) on the interiors (y may be x, dx may be dy).
template <class T>
void activation_forward(Activation a, const ShardTensor<T>& x, ShardTensor<T>& y);
template <class T>
void activation_backward(Activation a, const ShardTensor<T>& x, const ShardTensor<T>& dy, ShardTensor<T>& dx);

// Mean over the whole tensor of (y - t)^2, the same on every rank; with `dy`, also its gradient
// 2 (y - t) / volume (dy with y's layout). Collective.
template <class T>
double mse_loss(const ShardTensor<T>& y, const ShardTensor<T>& t, ShardTensor<T>* dy = nullptr);

}  // namespace hpart::tensor
