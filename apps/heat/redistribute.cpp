#include "redistribute.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace hpart_heat {
namespace {

constexpr int kMoveTag = 102;

// Global (heat, checksum, cells) of the fields' owned cells.
struct Totals {
  double heat = 0.0;
  std::uint64_t checksum = 0;
  long long cells = 0;
};

Totals totals(const hpart::Comm& comm, const HeatField& f) {
  Totals t{f.owned_sum(), f.owned_checksum(), f.owned().empty() ? 0 : static_cast<long long>(f.owned().volume())};
  Totals g;
  MPI_Allreduce(&t.heat, &g.heat, 1, MPI_DOUBLE, MPI_SUM, comm.get());
  // Unsigned addition wraps identically in any order: the checksum is exact.
  MPI_Allreduce(&t.checksum, &g.checksum, 1, MPI_UINT64_T, MPI_SUM, comm.get());
  MPI_Allreduce(&t.cells, &g.cells, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  return g;
}

}  // namespace

Redistribution redistribute(const hpart::Comm& comm, const HeatField& old, const std::vector<hpart::Box>& old_boxes,
                            const std::vector<hpart::Box>& new_boxes) {
  const auto R = static_cast<std::size_t>(comm.size());
  const auto me = static_cast<std::size_t>(comm.rank());
  const Totals before = totals(comm, old);

  Redistribution out;
  out.field = HeatField(new_boxes[me], 1);
  std::vector<std::vector<double>> send(R), recv(R);
  std::vector<hpart::Box> recv_box(R);
  std::vector<MPI_Request> requests;
  std::int64_t sent = 0;
  for (std::size_t r = 0; r < R; ++r) {
    // What rank r gets from us, and what we get from rank r (empty boxes: nothing to say).
    const hpart::Box out_box = old_boxes[me].intersect(new_boxes[r]);
    recv_box[r] = old_boxes[r].intersect(new_boxes[me]);
    if (r == me) continue;
    if (!recv_box[r].empty()) {
      recv[r].resize(static_cast<std::size_t>(recv_box[r].volume()));
      requests.emplace_back();
      MPI_Irecv(recv[r].data(), static_cast<int>(recv[r].size()), MPI_DOUBLE, static_cast<int>(r), kMoveTag,
                comm.get(), &requests.back());
    }
    if (!out_box.empty()) {
      send[r].resize(static_cast<std::size_t>(out_box.volume()));
      old.pack(out_box, send[r]);
      sent += out_box.volume();
      requests.emplace_back();
      MPI_Isend(send[r].data(), static_cast<int>(send[r].size()), MPI_DOUBLE, static_cast<int>(r), kMoveTag,
                comm.get(), &requests.back());
    }
  }
  // The cells that stay: copied while the messages fly.
  if (const hpart::Box& keep = recv_box[me]; !keep.empty()) {
    std::vector<double> buf(static_cast<std::size_t>(keep.volume()));
    old.pack(keep, buf);
    out.field.unpack(keep, buf);
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  for (std::size_t r = 0; r < R; ++r)
    if (r != me && !recv_box[r].empty()) out.field.unpack(recv_box[r], recv[r]);

  long long moved = sent;
  MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  out.migrated = moved;

  // Every value must arrive exactly once: same cell count, same exact checksum, same total heat
  // (up to the rounding of summing in a different order). The totals are global, so every rank
  // reaches the same verdict and throws together.
  const Totals after = totals(comm, out.field);
  const double tolerance = 1e-12 * std::max(1.0, std::abs(before.heat));
  if (after.cells != before.cells || after.checksum != before.checksum ||
      std::abs(after.heat - before.heat) > tolerance) {
    char msg[256];
    std::snprintf(msg, sizeof msg, "redistribution did not conserve heat: %.17g -> %.17g (%lld -> %lld cells%s)",
                  before.heat, after.heat, before.cells, after.cells,
                  after.checksum != before.checksum ? ", checksum differs" : "");
    throw hpart::Error(hpart::ErrorCode::internal, msg);
  }
  return out;
}

}  // namespace hpart_heat
