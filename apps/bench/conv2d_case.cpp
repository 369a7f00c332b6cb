// Case conv2d: forward + backward (data and weight gradients) of a 3x3 conv, C -> C channels, on
// a side^2 float field, sharded over all ranks (H slabs) and unsharded on a one-rank
// sub-communicator of rank 0 in the same run; time_s per forward+backward, and `error`: the max
// abs difference of the output, input gradient and weight gradient, sharded vs unsharded (both
// records carry it).
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <thread>
#include <vector>

#include "call_measurement.hpp"
#include "hpart/tensor/layers.hpp"
#include "hpart/tensor/redistribute.hpp"
#include "progress.hpp"
#include "tensor_suite.hpp"

namespace hpart_bench {
namespace {

namespace ht = hpart::tensor;
constexpr double kMiB = 1024.0 * 1024.0;

float value_at(std::uint64_t cell, std::uint64_t seed) {
  std::uint64_t z = cell * 0x9E3779B97F4A7C15ull + seed * 0xD1B54A32D192ED03ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<float>(2.0 * static_cast<double>(z >> 11) * 0x1.0p-53 - 1.0);
}

// Interior values by global cell index, so every layout holds the same tensor.
void fill(ht::ShardTensor<float>& t, std::uint64_t seed) {
  const hpart::Box& b = t.box();
  if (b.empty()) return;
  auto h = Kokkos::create_mirror_view(t.view());
  const ht::Index5 e = t.layout().shape().extent, m = t.margins(), n = t.interior_extent();
  for (std::int64_t c = 0; c < n[1]; ++c)
    for (std::int64_t i = 0; i < n[3]; ++i)
      for (std::int64_t j = 0; j < n[4]; ++j) {
        const auto cell = static_cast<std::uint64_t>((c * e[3] + b.lo[3] + i) * e[4] + b.lo[4] + j);
        h(0, c, 0, m[3] + i, m[4] + j) = value_at(cell, seed);
      }
  Kokkos::deep_copy(t.view(), h);
}

// One measured configuration: the tensors and the layer, built on `comm`.
struct ConvRun {
  ht::Conv<float> conv;
  ht::ShardTensor<float> x, y, dy, dx;
  ConvRun(const hpart::Comm& comm, const ht::TensorShape& shape, int channels)
      : conv(ht::ConvShape{channels, channels, 1, 3, 3}, true, 5) {
    const auto layout = ht::ShardLayout::sharded(comm, shape, ht::Mesh::slabs(comm.size()));
    x = ht::ShardTensor<float>(layout, ht::Halo::uniform(1), "conv2d.x");
    fill(x, 1);
    y = conv.make_output(x);
    dy = y.like("conv2d.dy");
    fill(dy, 2);
    dx = x.like("conv2d.dx");
  }
  double cpu_s = 0.0;  // this process's CPU time per call (the work, whatever the machine's load)
  void call() {
    conv.forward(x, y);
    conv.backward(x, dy, dx);
    Kokkos::fence();
  }
  CallStats measure(const hpart::Comm& comm, int reps, bool reset_works) {
    call();  // warm-up: first-touch of the outputs, the layer's plans
    const double c0 = cpu_seconds();
    const CallStats stats = measure_calls(comm.get(), reps, reset_works, [] {}, [&] { call(); });
    cpu_s = (cpu_seconds() - c0) / reps;
    MPI_Allreduce(MPI_IN_PLACE, &cpu_s, 1, MPI_DOUBLE, MPI_MAX, comm.get());
    return stats;
  }
  static double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  }
};

// The interior of `t` on rank 0 of its communicator (gathered there), as a flat host array.
std::vector<float> on_root(const ht::ShardTensor<float>& t) {
  const auto root = ht::ShardLayout::on_rank(t.layout().comm(), t.layout().shape(), 0);
  ht::Redistribution<float> gather(t.layout(), root);
  ht::ShardTensor<float> whole(root, {}, "conv2d.gathered");
  gather.forward(t, whole);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), whole.view());
  return std::vector<float>(h.data(), h.data() + h.size());
}

double max_abs_diff(const std::vector<float>& a, const std::vector<float>& b) {
  double m = a.size() == b.size() ? 0.0 : INFINITY;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k)
    m = std::max(m, std::abs(static_cast<double>(a[k]) - static_cast<double>(b[k])));
  return m;
}

}  // namespace

void run_conv2d_case(const hpart::Comm& comm, const TensorSuiteConfig& cfg, RecordSink& sink) {
  if (!runs_library(cfg, "hpart")) return;
  const std::int64_t side = cfg.side > 0 ? cfg.side : kDefaultConv2dSide;
  const auto shape = ht::TensorShape::d2(1, cfg.channels, side, side);
  const long long n = shape.volume();
  const bool reset_works = peak_reset_works(comm.get());

  // Sharded over every rank first (its memory is measured before the unsharded copy exists).
  std::vector<float> y, dx, dw;
  Record sharded;
  {
    Progress progress(comm, "tensor", "conv2d", "hpart conv3x3 fwd+bwd, ranks=" + std::to_string(comm.size()));
    ConvRun run(comm, shape, cfg.channels);
    const CallStats stats = run.measure(comm, cfg.reps, reset_works);
    sharded = measured_record(comm.get(), "tensor", "conv2d", "hpart", "conv3x3", n, comm.size(), cfg.reps, stats);
    char note[160];
    std::snprintf(note, sizeof note, " (%.3f s per fwd+bwd, cpu %.3f s/rank, peak %.0f MiB/rank, full tensor %.0f MiB)",
                  stats.time_s, run.cpu_s, stats.peak_rss_mb, static_cast<double>(n) * sizeof(float) / kMiB);
    progress.done(note);
    y = on_root(run.y);
    dx = on_root(run.dx);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), run.conv.weight_grad);
    dw.assign(h.data(), h.data() + h.size());
  }

  // Unsharded on rank 0 alone; the other ranks wait.
  MPI_Comm single = MPI_COMM_NULL;
  MPI_Comm_split(comm.get(), comm.rank() == 0 ? 0 : MPI_UNDEFINED, 0, &single);
  double error = 0.0;
  Record whole;
  if (single != MPI_COMM_NULL) {
    const hpart::Comm one(single);
    Progress progress(one, "tensor", "conv2d", "hpart conv3x3 fwd+bwd, ranks=1");
    ConvRun run(one, shape, cfg.channels);
    const CallStats stats = run.measure(one, cfg.reps, reset_works);
    whole = measured_record(single, "tensor", "conv2d", "hpart", "conv3x3", n, 1, cfg.reps, stats);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), run.conv.weight_grad);
    const std::vector<float> rdw(h.data(), h.data() + h.size());
    error = std::max({max_abs_diff(y, on_root(run.y)), max_abs_diff(dx, on_root(run.dx)), max_abs_diff(dw, rdw)});
    char note[128];
    std::snprintf(note, sizeof note, " (%.3f s per fwd+bwd, cpu %.3f s; max |sharded - unsharded| = %.3g)", stats.time_s,
                  run.cpu_s, error);
    progress.done(note);
    MPI_Comm_free(&single);
  }
  // The other ranks wait without spinning, so rank 0's single-rank run keeps a core to itself.
  MPI_Request done = MPI_REQUEST_NULL;
  MPI_Ibarrier(comm.get(), &done);
  for (int finished = 0; !finished;) {
    MPI_Test(&done, &finished, MPI_STATUS_IGNORE);
    if (!finished) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  MPI_Bcast(&error, 1, MPI_DOUBLE, 0, comm.get());
  whole.error = error;
  sharded.error = error;
  sink.add(whole);  // rank 0 writes; the others keep nothing
  sink.add(sharded);
}

}  // namespace hpart_bench
