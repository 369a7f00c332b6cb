// The C++ side of hpart.torch (python/hpart/torch): layouts (hpart::tensor::ShardLayout), halo
// exchanges (HaloExchange) and redistributions (Redistribution) run on the memory of torch
// tensors. torch is not linked: Python passes each tensor's data pointer, after checking its
// dtype, device, contiguity and shape, and the C++ objects wrap that memory without a copy
// (ShardTensor::wrap over an unmanaged host view). Everything here is private (_names): the
// public API and its documentation are the Python package's.
//
// Lifetime: Kokkos is initialised once by _kokkos_initialize (hpart.torch's import) and finalised
// by _kokkos_finalize (hpart.torch's atexit hook, which runs before mpi4py's MPI_Finalize: mpi4py
// finalises from a Py_AtExit callback, after every Python atexit hook). Plans still alive then are
// released first (their Kokkos buffers and persistent MPI requests freed), whoever holds them.
#include <Kokkos_Core.hpp>
#include <climits>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "hpart/tensor/halo.hpp"
#include "hpart/tensor/kokkos_session.hpp"
#include "hpart/tensor/redistribute.hpp"
#include "python/py_common.hpp"

namespace hpart::python {

namespace ht = hpart::tensor;
using Host = Kokkos::HostSpace;

namespace {

// Plans with MPI requests or Kokkos buffers, released before Kokkos and MPI are finalised.
struct Releasable {
  Releasable();
  virtual ~Releasable();
  Releasable(const Releasable&) = delete;
  Releasable& operator=(const Releasable&) = delete;
  virtual void release() = 0;
};
std::set<Releasable*>& live() {
  static std::set<Releasable*> s;
  return s;
}
Releasable::Releasable() { live().insert(this); }
Releasable::~Releasable() { live().erase(this); }

std::unique_ptr<ht::KokkosSession>& kokkos_session() {
  static std::unique_ptr<ht::KokkosSession> s;
  return s;
}
bool kokkos_finalized = false;

void need_kokkos(const char* fn) {
  if (!Kokkos::is_initialized() || kokkos_finalized)
    throw Error(ErrorCode::invalid_argument,
                std::string(fn) + ": Kokkos is not initialised (hpart.torch finalised it at exit, or was not imported)");
}

using Index5 = ht::Index5;
Index5 index5(const std::vector<std::int64_t>& v, const char* what) {
  if (v.size() != 5) throw Error(ErrorCode::internal, std::string("hpart.torch: ") + what + " needs 5 entries");
  return {v[0], v[1], v[2], v[3], v[4]};
}
ht::TensorShape shape_of(const std::vector<std::int64_t>& shape5, int spatial_dims) {
  return {spatial_dims, index5(shape5, "shape")};
}

// A layout and the mpi4py communicator it was made on (kept alive with it).
struct PyLayout {
  ht::ShardLayout layout;
  py::object comm;
  std::uint64_t fingerprint = 0;  // of the shape, mesh and every rank's box: identical on every rank

  PyLayout(ht::ShardLayout l, py::object c) : layout(std::move(l)), comm(std::move(c)) {
    // splitmix64 over the words that make two layouts interchangeable.
    std::uint64_t h = 0x243f6a8885a308d3ULL;
    const auto mix = [&](std::uint64_t w) {
      h ^= w + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
      h ^= h >> 30, h *= 0xbf58476d1ce4e5b9ULL, h ^= h >> 27, h *= 0x94d049bb133111ebULL, h ^= h >> 31;
    };
    mix(static_cast<std::uint64_t>(layout.size()));
    mix(static_cast<std::uint64_t>(layout.shape().spatial_dims));
    for (auto e : layout.shape().extent) mix(static_cast<std::uint64_t>(e));
    for (const Box& b : layout.boxes())
      for (int a = 0; a < ht::kRank; ++a) mix(static_cast<std::uint64_t>(b.lo[a])), mix(static_cast<std::uint64_t>(b.hi[a]));
    if (layout.has_mesh()) {
      for (int a = 0; a < ht::kRank; ++a) mix(static_cast<std::uint64_t>(layout.mesh().parts[a] * 2 + layout.periodic(a)));
      mix(static_cast<std::uint64_t>(layout.mesh().replicas));
    }
    fingerprint = h;
  }
};

// The local array of `layout` with `halo` as an unmanaged view over `ptr` (extents all 0 for an
// empty box, as ShardTensor allocates them).
template <class T>
typename ht::ShardTensor<T, Host>::view_type local_view(const ht::ShardLayout& layout, const ht::Halo& halo,
                                                         std::uintptr_t ptr) {
  const Box& b = layout.local_box();
  const Index5 m = halo.margins();
  std::array<std::size_t, 5> e{0, 0, 0, 0, 0};
  if (!b.empty())
    for (int a = 0; a < ht::kRank; ++a) e[a] = static_cast<std::size_t>(b.extent(a) + 2 * m[a]);
  return typename ht::ShardTensor<T, Host>::view_type(reinterpret_cast<T*>(ptr), e[0], e[1], e[2], e[3], e[4]);
}

ht::HaloTransfer transfer_of(const std::string& s) {
  if (s == "automatic") return ht::HaloTransfer::automatic;
  if (s == "pack") return ht::HaloTransfer::pack;
  if (s == "pack_runs") return ht::HaloTransfer::pack_runs;
  if (s == "direct_datatype") return ht::HaloTransfer::direct_datatype;
  if (s == "direct_runs") return ht::HaloTransfer::direct_runs;
  if (s == "shared_memory") return ht::HaloTransfer::shared_memory;
  throw Error(ErrorCode::invalid_argument, "hpart.torch: unknown halo transfer '" + s + "'");
}
const char* transfer_name(ht::HaloTransfer t) {
  switch (t) {
    case ht::HaloTransfer::automatic: return "automatic";
    case ht::HaloTransfer::pack: return "pack";
    case ht::HaloTransfer::pack_runs: return "pack_runs";
    case ht::HaloTransfer::direct_datatype: return "direct_datatype";
    case ht::HaloTransfer::direct_runs: return "direct_runs";
    case ht::HaloTransfer::shared_memory: return "shared_memory";
  }
  return "?";
}

// One cached halo exchange: the plan, its buffers and persistent requests, for one layout, halo
// and dtype. The memory it runs on is the caller's, passed per call.
class HaloPlan final : public Releasable {
 public:
  // assume_zero: the caller keeps the padding (halo cells past non-periodic global edges) zero,
  // so the exchange never writes it; else it is zeroed on every exchange (a wrapped array's
  // padding is not tracked). Zeroing the W-face padding touches one cache line per row: ~1 ms
  // at 4096^2 x 16 floats, against ~30 us for the messages (docs/tensors.md).
  HaloPlan(const PyLayout& l, const std::vector<int>& halo3, const std::string& dtype, const std::string& transfer,
           bool assume_zero)
      : layout_(l.layout), halo_{halo3.at(0), halo3.at(1), halo3.at(2)}, dtype_(dtype) {
    need_kokkos("hpart.torch.halo_exchange");
    ht::validate_halo(layout_, halo_);  // collective: the same error on every rank
    const ht::HaloOptions opts{assume_zero ? ht::Padding::assume_zero : ht::Padding::zero_each_exchange,
                               transfer_of(transfer)};
    py::gil_scoped_release unlocked;
    if (dtype == "float32") plan_ = std::make_unique<Exchange<float>>(layout_, halo_, opts);
    else if (dtype == "float64") plan_ = std::make_unique<Exchange<double>>(layout_, halo_, opts);
    else throw Error(ErrorCode::invalid_argument, "hpart.torch: dtype " + dtype + " (float32 or float64)");
  }
  void forward(std::uintptr_t ptr) {
    Base& p = get();
    py::gil_scoped_release unlocked;
    p.forward(ptr);
  }
  void adjoint(std::uintptr_t ptr) {
    Base& p = get();
    py::gil_scoped_release unlocked;
    p.adjoint(ptr);
  }
  void release() override { plan_.reset(); }
  [[nodiscard]] bool released() const { return !plan_; }
  [[nodiscard]] std::string transfer() { return transfer_name(get().transfer()); }
  [[nodiscard]] bool tuning() { return get().tuning(); }
  [[nodiscard]] std::int64_t bytes_sent() { return get().bytes_sent(); }

 private:
  struct Base {
    virtual ~Base() = default;
    virtual void forward(std::uintptr_t ptr) = 0;
    virtual void adjoint(std::uintptr_t ptr) = 0;
    virtual ht::HaloTransfer transfer() const = 0;
    virtual bool tuning() const = 0;
    virtual std::int64_t bytes_sent() const = 0;
  };
  template <class T>
  struct Exchange final : Base {
    ht::ShardLayout layout;
    ht::Halo halo;
    ht::HaloExchange<T, Host> x;
    // The plan reads only the extents of `like`: a wrapped null pointer.
    Exchange(const ht::ShardLayout& l, const ht::Halo& h, const ht::HaloOptions& o)
        : layout(l), halo(h), x(ht::ShardTensor<T, Host>::wrap(l, h, local_view<T>(l, h, 0)), o) {}
    void forward(std::uintptr_t ptr) override {
      auto t = ht::ShardTensor<T, Host>::wrap(layout, halo, local_view<T>(layout, halo, ptr));
      x.exchange(t);
    }
    void adjoint(std::uintptr_t ptr) override {
      auto t = ht::ShardTensor<T, Host>::wrap(layout, halo, local_view<T>(layout, halo, ptr));
      x.adjoint(t);
    }
    ht::HaloTransfer transfer() const override { return x.transfer(); }
    bool tuning() const override { return x.tuning(); }
    std::int64_t bytes_sent() const override { return x.bytes_sent(); }
  };
  Base& get() {
    if (!plan_) throw Error(ErrorCode::invalid_argument, "hpart.torch: halo plan used after release (interpreter exit)");
    return *plan_;
  }

  ht::ShardLayout layout_;
  ht::Halo halo_;
  std::string dtype_;
  std::unique_ptr<Base> plan_;
};

// One cached redistribution between two layouts of the same tensor, for one dtype.
class RedistributionPlan final : public Releasable {
 public:
  RedistributionPlan(const PyLayout& from, const PyLayout& to, const std::string& dtype) {
    need_kokkos("hpart.torch.redistribute");
    py::gil_scoped_release unlocked;  // collective: the plan is agreed over the communicator
    if (dtype == "float32") plan_ = std::make_unique<Plan<float>>(from.layout, to.layout);
    else if (dtype == "float64") plan_ = std::make_unique<Plan<double>>(from.layout, to.layout);
    else throw Error(ErrorCode::invalid_argument, "hpart.torch: dtype " + dtype + " (float32 or float64)");
  }
  // y (to) = R x (from); x (from) = R^T y: each pointer the interior of a contiguous local tensor.
  void forward(std::uintptr_t x, std::uintptr_t y) {
    Base& p = get();
    py::gil_scoped_release unlocked;
    p.forward(x, y);
  }
  void adjoint(std::uintptr_t y, std::uintptr_t x) {
    Base& p = get();
    py::gil_scoped_release unlocked;
    p.adjoint(y, x);
  }
  void release() override { plan_.reset(); }
  [[nodiscard]] std::int64_t bytes_sent() { return get().bytes_sent(); }

 private:
  struct Base {
    virtual ~Base() = default;
    virtual void forward(std::uintptr_t x, std::uintptr_t y) = 0;
    virtual void adjoint(std::uintptr_t y, std::uintptr_t x) = 0;
    virtual std::int64_t bytes_sent() const = 0;
  };
  template <class T>
  struct Plan final : Base {
    ht::Redistribution<T, Host> r;
    Plan(const ht::ShardLayout& from, const ht::ShardLayout& to) : r(from, to) {}
    ht::ShardTensor<T, Host> wrap(const ht::ShardLayout& l, std::uintptr_t p) {
      return ht::ShardTensor<T, Host>::wrap(l, {}, local_view<T>(l, {}, p));
    }
    void forward(std::uintptr_t x, std::uintptr_t y) override {
      auto tx = wrap(r.from(), x);
      auto ty = wrap(r.to(), y);
      r.forward(tx, ty);
    }
    void adjoint(std::uintptr_t y, std::uintptr_t x) override {
      auto ty = wrap(r.to(), y);
      auto tx = wrap(r.from(), x);
      r.adjoint(ty, tx);
    }
    std::int64_t bytes_sent() const override { return r.bytes_sent(); }
  };
  Base& get() {
    if (!plan_) throw Error(ErrorCode::invalid_argument, "hpart.torch: redistribution used after release (interpreter exit)");
    return *plan_;
  }
  std::unique_ptr<Base> plan_;
};

// Collective, one MPI_Allreduce when all is well: combines every rank's local verdict
// (`problem`, empty = fine), checks that `values` (named by `names`) are the same on every rank
// that does not abstain from it (`abstain`, optional: a rank that cannot know the value, as the
// non-root ranks of a scatter its dtype), and returns whether `flag` holds on any rank, with the
// agreed values (those of the voting ranks). Every rank raises the same hpart.Error otherwise.
py::tuple agree_call(const py::object& comm_obj, const std::string& fn, const std::string& problem,
                     const std::vector<long long>& values, const std::vector<std::string>& names, bool flag,
                     const std::vector<bool>& abstain) {
  const Comm comm = comm_of(comm_obj, fn.c_str());
  const std::size_t k = values.size();
  // MIN over [first failing rank, !flag, v..., -v...]: min(-v) = -max(v); abstaining ranks give
  // the identity of MIN in both slots. Values are kept within +-(2^62) by the callers.
  std::vector<long long> buf(2 + 2 * k);
  buf[0] = problem.empty() ? comm.size() : comm.rank();
  buf[1] = flag ? 0 : 1;
  for (std::size_t i = 0; i < k; ++i) {
    const bool skip = i < abstain.size() && abstain[i];
    buf[2 + i] = skip ? LLONG_MAX : values[i];
    buf[2 + k + i] = skip ? LLONG_MAX : -values[i];
  }
  {
    py::gil_scoped_release unlocked;
    comm.min(std::span<long long>(buf));
  }
  if (buf[0] != comm.size()) comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  std::vector<long long> agreed(k);
  for (std::size_t i = 0; i < k; ++i) {
    agreed[i] = buf[2 + i];
    if (buf[2 + i] == LLONG_MAX && buf[2 + k + i] == LLONG_MAX) continue;  // every rank abstained
    if (buf[2 + i] != -buf[2 + k + i]) {
      const std::string name = i < names.size() ? names[i] : "an argument";
      throw Error(ErrorCode::invalid_argument, fn + ": " + name + " differs between ranks (from " +
                                                   std::to_string(buf[2 + i]) + " to " +
                                                   std::to_string(-buf[2 + k + i]) + "): every rank must pass the same " +
                                                   name);
    }
  }
  return py::make_tuple(buf[1] == 0, agreed);
}

py::list boxes_of(const ht::ShardLayout& l) {
  py::list out;
  for (const Box& b : l.boxes()) {
    std::vector<std::int64_t> lo(5), hi(5);
    for (int a = 0; a < 5; ++a) lo[a] = b.lo[a], hi[a] = b.hi[a];
    out.append(py::make_tuple(lo, hi, b.empty()));
  }
  return out;
}

}  // namespace

// The C++ ShardLayout behind hpart.torch.Layout (python/hpart/torch/layout.py checks the
// arguments and agrees them; this takes them in the C++ axes N, C, D, H, W).
void bind_layout(py::module_& m) {
  py::class_<PyLayout>(m, "_TensorLayout")
      .def_static(
          "sharded",
          [](const std::vector<std::int64_t>& shape5, int spatial_dims, const std::vector<std::int64_t>& parts5,
             const std::vector<bool>& periodic5, const std::string& method,
             const std::vector<std::vector<std::int64_t>>& extents, const py::object& cost,
             const std::vector<std::int64_t>& cost_lo, const std::vector<std::int64_t>& cost_hi, int align_levels,
             const py::object& comm_obj) {
            const char* fn = "hpart.torch.Layout.sharded";
            const Comm c = comm_of(comm_obj, fn);
            Args args(fn);
            ht::Mesh mesh;
            for (int a = 0; a < 5; ++a) mesh.parts[a] = static_cast<int>(parts5.at(a)), mesh.periodic[a] = periodic5.at(a);
            ht::SplitOptions split;
            split.method = method == "uniform"    ? ht::SplitMethod::uniform
                           : method == "explicit" ? ht::SplitMethod::explicit_extents
                                                  : ht::SplitMethod::balanced;
            for (std::size_t a = 0; a < extents.size() && a < 5; ++a) split.extents[a] = extents[a];
            split.align_levels = align_levels;
            split.cost = args.array<double>(cost, "cost", 1, 0, true);
            if (!cost_lo.empty()) {
              split.cost_box = Box::none(spatial_dims);
              for (int d = 0; d < spatial_dims; ++d) split.cost_box.lo[d] = cost_lo.at(d), split.cost_box.hi[d] = cost_hi.at(d);
              args.need(static_cast<std::int64_t>(split.cost.size()) == split.cost_box.volume(),
                        "cost has " + std::to_string(split.cost.size()) + " values for a cost_box of " +
                            std::to_string(split.cost_box.volume()) + " cells");
            }
            args.agreed(c);
            ht::ShardLayout l;
            {
              py::gil_scoped_release unlocked;
              l = ht::ShardLayout::sharded(c, shape_of(shape5, spatial_dims), mesh, split);
            }
            return PyLayout(std::move(l), comm_obj);
          },
          py::arg("shape5"), py::arg("spatial_dims"), py::arg("parts5"), py::arg("periodic5"), py::arg("method"),
          py::arg("extents"), py::arg("cost"), py::arg("cost_lo"), py::arg("cost_hi"), py::arg("align_levels"),
          py::arg("comm"))
      .def_static("replicated",
                  [](const std::vector<std::int64_t>& shape5, int spatial_dims, const py::object& comm_obj) {
                    const Comm c = comm_of(comm_obj, "hpart.torch.Layout.replicated");
                    return PyLayout(ht::ShardLayout::replicated(c, shape_of(shape5, spatial_dims)), comm_obj);
                  })
      .def_static("on_rank",
                  [](const std::vector<std::int64_t>& shape5, int spatial_dims, int root, const py::object& comm_obj) {
                    const Comm c = comm_of(comm_obj, "hpart.torch.Layout.on_rank");
                    c.agree(root >= 0 && root < c.size() ? ErrorCode::ok : ErrorCode::invalid_argument,
                            root >= 0 && root < c.size()
                                ? std::string{}
                                : "hpart.torch.Layout.on_rank: root " + std::to_string(root) + " is not a rank of comm (size " +
                                      std::to_string(c.size()) + ")");
                    return PyLayout(ht::ShardLayout::on_rank(c, shape_of(shape5, spatial_dims), root), comm_obj);
                  })
      .def_property_readonly("comm", [](const PyLayout& l) { return l.comm; })
      .def_property_readonly("rank", [](const PyLayout& l) { return l.layout.rank(); })
      .def_property_readonly("size", [](const PyLayout& l) { return l.layout.size(); })
      .def_property_readonly("fingerprint", [](const PyLayout& l) { return static_cast<long long>(l.fingerprint >> 2); })
      .def_property_readonly("has_mesh", [](const PyLayout& l) { return l.layout.has_mesh(); })
      .def_property_readonly("parts5",
                             [](const PyLayout& l) {
                               std::vector<int> p(5, 1);
                               if (l.layout.has_mesh())
                                 for (int a = 0; a < 5; ++a) p[a] = l.layout.mesh().parts[a];
                               return p;
                             })
      .def_property_readonly("replicas", [](const PyLayout& l) { return l.layout.has_mesh() ? l.layout.mesh().replicas : 1; })
      .def_property_readonly("periodic5",
                             [](const PyLayout& l) {
                               std::vector<bool> p(5, false);
                               if (l.layout.has_mesh())
                                 for (int a = 0; a < 5; ++a) p[a] = l.layout.periodic(a);
                               return p;
                             })
      .def_property_readonly("starts5",  // per axis, where each mesh position's shard starts
                             [](const PyLayout& l) {
                               std::vector<std::vector<std::int64_t>> s(5);
                               if (l.layout.has_mesh())
                                 for (int a = 0; a < 5; ++a) s[a] = l.layout.starts(a);
                               return s;
                             })
      .def_property_readonly("mesh_coord5",
                             [](const PyLayout& l) {
                               std::vector<int> c(5, 0);
                               if (l.layout.has_mesh()) {
                                 const auto mc = l.layout.mesh_coord(l.layout.rank());
                                 c.assign(mc.begin(), mc.end());
                               }
                               return c;
                             })
      .def("boxes", [](const PyLayout& l) { return boxes_of(l.layout); })
      .def("is_primary", [](const PyLayout& l, int r) { return l.layout.is_primary(r); })
      .def("same_as", [](const PyLayout& a, const PyLayout& b) { return a.layout == b.layout; })
      .def("__str__", [](const PyLayout& l) { return l.layout.str(); });
}

void bind_tensor(py::module_& m) {
  m.def("_kokkos_initialize", [] {
    if (kokkos_finalized) throw Error(ErrorCode::invalid_argument, "hpart.torch: Kokkos was finalised already");
    if (!kokkos_session()) kokkos_session() = std::make_unique<ht::KokkosSession>();
  });
  m.def("_kokkos_finalize", [] {
    // Every plan's buffers and MPI requests go first (Kokkos views must die before finalize, MPI
    // requests before MPI_Finalize); the Python objects holding them stay valid and raise if used.
    for (Releasable* r : std::vector<Releasable*>(live().begin(), live().end())) r->release();
    kokkos_session().reset();
    kokkos_finalized = true;
  });
  m.def("_kokkos_is_initialized", [] { return Kokkos::is_initialized(); });
  m.def("_torch_agree", &agree_call, py::arg("comm"), py::arg("fn"), py::arg("problem"), py::arg("values"),
        py::arg("names"), py::arg("flag"), py::arg("abstain") = std::vector<bool>{});

  bind_layout(m);

  py::class_<HaloPlan>(m, "_HaloPlan")
      .def(py::init<const PyLayout&, const std::vector<int>&, const std::string&, const std::string&, bool>(),
           py::arg("layout"), py::arg("halo"), py::arg("dtype"), py::arg("transfer") = "automatic",
           py::arg("assume_zero_padding") = false)
      .def("forward", &HaloPlan::forward, py::arg("ptr"))
      .def("adjoint", &HaloPlan::adjoint, py::arg("ptr"))
      .def("release", &HaloPlan::release)
      .def_property_readonly("released", &HaloPlan::released)
      .def_property_readonly("transfer", &HaloPlan::transfer)
      .def_property_readonly("tuning", &HaloPlan::tuning)
      .def_property_readonly("bytes_sent", &HaloPlan::bytes_sent);

  py::class_<RedistributionPlan>(m, "_RedistributionPlan")
      .def(py::init<const PyLayout&, const PyLayout&, const std::string&>())
      .def("forward", &RedistributionPlan::forward, py::arg("x"), py::arg("y"))
      .def("adjoint", &RedistributionPlan::adjoint, py::arg("y"), py::arg("x"))
      .def("release", &RedistributionPlan::release)
      .def_property_readonly("bytes_sent", &RedistributionPlan::bytes_sent);
}

}  // namespace hpart::python
