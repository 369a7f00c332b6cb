// Case halo2d: hpart's halo exchange of a 2-D float field (N = 1, C channels, side^2 cells,
// width 1 on H and W, H split over the ranks) against library "mpi", method "sendrecv": plain
// MPI_Sendrecv of the same bytes between the same ranks from ready contiguous buffers (the
// floor: no packing, no unpacking), and method "sendrecv_vector": the same faces sent from and
// received into the tensor itself through an MPI vector datatype. hpart methods: "halo" (the
// defaults: HaloTransfer::automatic, padding zeroed when it may have been written: never here),
// "halo_assume_zero_padding", "halo_pack", "halo_direct_runs", "halo_pack_runs",
// "halo_direct_datatype", "halo_shared_memory" (the transfer forced) and "halo_zero_always" (padding zeroed on every
// exchange). time_s is per exchange: the median over reps of the mean of kExchangesPerCall
// exchanges, each timed call preceded by one untimed exchange of the same method (so no method
// pays for the caches and TLB another left behind: the zeroing variant walks 2048 rows). The
// methods alternate rep by rep, so a burst of load on a shared machine hits all alike. The
// automatic plans measure their transfer on their first exchanges (HaloTransfer::automatic);
// that is done before the reps, so the records are the tuned plans'.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "call_measurement.hpp"
#include "hpart/tensor/halo.hpp"
#include "hpart/tensor/ops.hpp"
#include "progress.hpp"
#include "tensor_suite.hpp"

namespace hpart_bench {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
// Exchanges per timed call: one exchange of a few hundred KiB is tens of microseconds.
constexpr int kExchangesPerCall = 50;

long long summed(const hpart::Comm& comm, long long v) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  return v;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Per-exchange stats over reps: median time, largest peak and growth.
CallStats per_exchange(const std::vector<CallStats>& reps) {
  CallStats s;
  std::vector<double> t;
  for (const CallStats& r : reps) {
    t.push_back(r.time_s / kExchangesPerCall);
    s.peak_rss_mb = std::max(s.peak_rss_mb, r.peak_rss_mb);
    if (r.rss_growth_mb) s.rss_growth_mb = std::max(s.rss_growth_mb.value_or(0.0), *r.rss_growth_mb);
  }
  s.time_s = median(t);
  return s;
}

}  // namespace

void run_halo2d_case(const hpart::Comm& comm, const TensorSuiteConfig& cfg, RecordSink& sink) {
  namespace ht = hpart::tensor;
  const std::int64_t side = cfg.side > 0 ? cfg.side : kDefaultHalo2dSide;
  const auto shape = ht::TensorShape::d2(1, cfg.channels, side, side);
  const long long n = shape.volume();
  const double full_mb = static_cast<double>(n) * sizeof(float) / kMiB;
  const bool reset_works = peak_reset_works(comm.get());
  const bool run_hpart = runs_library(cfg, "hpart"), run_mpi = runs_library(cfg, "mpi");
  Progress progress(comm, "tensor", "halo2d", "hpart halo vs mpi sendrecv");

  const auto layout = ht::ShardLayout::sharded(comm, shape, ht::Mesh::slabs(comm.size()));
  ht::ShardTensor<float> x;
  ht::HaloExchange<float> exchange, exchange_keep;
  // Further variants: the transfer forced (pack, one message per run, the datatype) and the
  // padding zeroed on every exchange (the cost the dirty-padding tracking saves).
  struct Variant {
    const char* method;
    ht::HaloOptions options;
    ht::HaloExchange<float> exchange{};
    std::vector<CallStats> reps{};
  };
  std::vector<Variant> variants;
  variants.push_back({"halo_pack", {ht::Padding::assume_zero, ht::HaloTransfer::pack}});
  variants.push_back({"halo_direct_runs", {ht::Padding::assume_zero, ht::HaloTransfer::direct_runs}});
  variants.push_back({"halo_pack_runs", {ht::Padding::assume_zero, ht::HaloTransfer::pack_runs}});
  variants.push_back({"halo_direct_datatype", {ht::Padding::assume_zero, ht::HaloTransfer::direct_datatype}});
  variants.push_back({"halo_shared_memory", {ht::Padding::assume_zero, ht::HaloTransfer::shared_memory}});
  variants.push_back({"halo_zero_always", {ht::Padding::zero_always, ht::HaloTransfer::automatic}});
  if (run_hpart) {
    x = ht::ShardTensor<float>(layout, ht::Halo::uniform(1), "halo2d");
    ht::fill(x, 1.0f);
    exchange = ht::HaloExchange<float>(x);
    exchange_keep = ht::HaloExchange<float>(x, ht::Padding::assume_zero);
    for (Variant& v : variants) v.exchange = ht::HaloExchange<float>(x, v.options);
    // The steady state is measured: automatic plans finish measuring their transfer first
    // (tuning() is agreed, so every rank runs the same number of exchanges here).
    for (ht::HaloExchange<float>* e : {&exchange, &exchange_keep})
      while (e->tuning()) e->exchange(x);
    for (Variant& v : variants)
      while (v.exchange.tuning()) v.exchange.exchange(x);
  }
  // The same messages as hpart's plan: to each H neighbour, channels x W floats.
  const hpart::Box& b = layout.local_box();
  const std::size_t count = b.empty() ? 0 : static_cast<std::size_t>(b.extent(ht::kAxisC) * b.extent(ht::kAxisW));
  const int up = layout.neighbour(comm.rank(), {0, 0, 0, -1, 0});
  const int down = layout.neighbour(comm.rank(), {0, 0, 0, +1, 0});
  std::vector<float> send_up, send_down, recv_up, recv_down;
  if (run_mpi) send_up.assign(count, 1.0f), send_down = send_up, recv_up = send_up, recv_down = send_up;
  const int c = static_cast<int>(count);
  const int pu = up < 0 ? MPI_PROC_NULL : up, pd = down < 0 ? MPI_PROC_NULL : down;

  // The same faces sent straight from and into the tensor with an MPI vector datatype (no
  // packing by the caller; MPI packs): what plain MPI pays for a strided face.
  MPI_Datatype face = MPI_DATATYPE_NULL;
  float *first_row = nullptr, *last_row = nullptr, *halo_above = nullptr, *halo_below = nullptr;
  const bool run_vector = run_hpart && run_mpi && count > 0 && ht::impl::host_accessible<ht::DefaultMemorySpace>;
  if (run_vector) {
    const auto& v = x.view();
    const std::int64_t rows = b.extent(ht::kAxisH);
    MPI_Type_vector(static_cast<int>(b.extent(ht::kAxisC)), static_cast<int>(b.extent(ht::kAxisW)),
                    static_cast<int>(v.extent(2) * v.extent(3) * v.extent(4)), MPI_FLOAT, &face);
    MPI_Type_commit(&face);
    first_row = &v(0, 0, 0, 1, 1), last_row = &v(0, 0, 0, static_cast<std::size_t>(rows), 1);
    halo_above = &v(0, 0, 0, 0, 1), halo_below = &v(0, 0, 0, static_cast<std::size_t>(rows + 1), 1);
  }

  const auto sendrecv_faces = [&] {
    MPI_Sendrecv(send_up.data(), c, MPI_FLOAT, pu, 1, recv_down.data(), c, MPI_FLOAT, pd, 1, comm.get(), MPI_STATUS_IGNORE);
    MPI_Sendrecv(send_down.data(), c, MPI_FLOAT, pd, 2, recv_up.data(), c, MPI_FLOAT, pu, 2, comm.get(), MPI_STATUS_IGNORE);
  };
  const auto sendrecv_vector = [&] {
    MPI_Sendrecv(first_row, 1, face, pu, 3, halo_below, 1, face, pd, 3, comm.get(), MPI_STATUS_IGNORE);
    MPI_Sendrecv(last_row, 1, face, pd, 4, halo_above, 1, face, pu, 4, comm.get(), MPI_STATUS_IGNORE);
  };
  std::vector<CallStats> hpart_reps, keep_reps, mpi_reps, vector_reps;
  for (int rep = 0; rep < cfg.reps; ++rep) {
    if (run_hpart) {
      hpart_reps.push_back(measure_calls(comm.get(), 1, reset_works, [&] { exchange.exchange(x); }, [&] {
        for (int k = 0; k < kExchangesPerCall; ++k) exchange.exchange(x);
        Kokkos::fence();
      }));
      keep_reps.push_back(measure_calls(comm.get(), 1, reset_works, [&] { exchange_keep.exchange(x); }, [&] {
        for (int k = 0; k < kExchangesPerCall; ++k) exchange_keep.exchange(x);
        Kokkos::fence();
      }));
      for (Variant& v : variants)
        v.reps.push_back(measure_calls(comm.get(), 1, reset_works, [&] { v.exchange.exchange(x); }, [&] {
          for (int k = 0; k < kExchangesPerCall; ++k) v.exchange.exchange(x);
          Kokkos::fence();
        }));
    }
    if (run_mpi)
      mpi_reps.push_back(measure_calls(comm.get(), 1, reset_works, [&] { sendrecv_faces(); }, [&] {
        for (int k = 0; k < kExchangesPerCall; ++k) sendrecv_faces();
      }));
    if (run_vector)
      vector_reps.push_back(measure_calls(comm.get(), 1, reset_works, [&] { sendrecv_vector(); }, [&] {
        for (int k = 0; k < kExchangesPerCall; ++k) sendrecv_vector();
      }));
  }

  char note[1024] = "";
  if (run_hpart) {
    const CallStats per = per_exchange(hpart_reps);
    Record r = measured_record(comm.get(), "tensor", "halo2d", "hpart", "halo", n, comm.size(), cfg.reps, per);
    r.bytes = summed(comm, exchange.bytes_sent());
    double mb = static_cast<double>(x.view().size()) * sizeof(float) / kMiB;
    MPI_Allreduce(MPI_IN_PLACE, &mb, 1, MPI_DOUBLE, MPI_MAX, comm.get());
    r.input_mb = mb;  // the largest local array (shard + halo)
    std::snprintf(note, sizeof note, " (hpart %.1f us/exchange, %lld bytes; peak %.1f MiB/rank vs full tensor %.1f MiB, shard+halo %.1f MiB)",
                  per.time_s * 1e6, *r.bytes, per.peak_rss_mb, full_mb, mb);
    sink.add(r);
    // The same exchange leaving the padding (zero here) alone: the strided W-face zeroing saved.
    const CallStats keep = per_exchange(keep_reps);
    Record k = measured_record(comm.get(), "tensor", "halo2d", "hpart", "halo_assume_zero_padding", n, comm.size(),
                               cfg.reps, keep);
    k.bytes = r.bytes;
    k.input_mb = r.input_mb;
    const std::size_t len = std::char_traits<char>::length(note);
    std::snprintf(note + len, sizeof note - len, " (assume_zero padding %.1f us)", keep.time_s * 1e6);
    sink.add(k);
    for (const Variant& v : variants) {
      const CallStats per_v = per_exchange(v.reps);
      Record rv = measured_record(comm.get(), "tensor", "halo2d", "hpart", v.method, n, comm.size(), cfg.reps, per_v);
      rv.bytes = r.bytes;
      rv.input_mb = r.input_mb;
      const std::size_t l = std::char_traits<char>::length(note);
      std::snprintf(note + l, sizeof note - l, " (%s %.1f us)", v.method + 5, per_v.time_s * 1e6);
      sink.add(rv);
    }
  }
  if (run_mpi) {
    const CallStats per = per_exchange(mpi_reps);
    Record r = measured_record(comm.get(), "tensor", "halo2d", "mpi", "sendrecv", n, comm.size(), cfg.reps, per);
    // Its process also holds hpart's tensor when both run: the peak is not the baseline's own.
    if (run_hpart) r.peak_rss_mb.reset(), r.rss_growth_mb.reset();
    const long long mine = static_cast<long long>(count * sizeof(float)) * ((up >= 0 ? 1 : 0) + (down >= 0 ? 1 : 0));
    r.bytes = summed(comm, mine);
    const std::size_t len = std::char_traits<char>::length(note);
    std::snprintf(note + len, sizeof note - len, " (mpi %.1f us/exchange)", per.time_s * 1e6);
    sink.add(r);
  }
  if (run_vector) {
    const CallStats per = per_exchange(vector_reps);
    Record r = measured_record(comm.get(), "tensor", "halo2d", "mpi", "sendrecv_vector", n, comm.size(), cfg.reps, per);
    r.peak_rss_mb.reset(), r.rss_growth_mb.reset();
    const long long mine = static_cast<long long>(count * sizeof(float)) * ((up >= 0 ? 1 : 0) + (down >= 0 ? 1 : 0));
    r.bytes = summed(comm, mine);
    const std::size_t len = std::char_traits<char>::length(note);
    std::snprintf(note + len, sizeof note - len, " (mpi vector type %.1f us/exchange)", per.time_s * 1e6);
    sink.add(r);
    MPI_Type_free(&face);
  }
  progress.done(note);
}

}  // namespace hpart_bench
