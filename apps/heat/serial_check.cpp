#include "serial_check.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "heat_kernel.hpp"

namespace hpart_heat {

double check_against_serial(const hpart::Comm& comm, const HeatProblem& p, const HeatField& f) {
  const auto R = static_cast<std::size_t>(comm.size());
  // Every rank's box (lo and hi, 2 x 4 values), then its owned cells packed row-major.
  std::vector<std::int64_t> bounds(2 * hpart::kMaxBoxDim), all_bounds(R * bounds.size());
  std::copy(f.owned().lo.begin(), f.owned().lo.end(), bounds.begin());
  std::copy(f.owned().hi.begin(), f.owned().hi.end(), bounds.begin() + hpart::kMaxBoxDim);
  MPI_Gather(bounds.data(), static_cast<int>(bounds.size()), MPI_INT64_T, all_bounds.data(),
             static_cast<int>(bounds.size()), MPI_INT64_T, 0, comm.get());
  std::vector<double> mine(f.owned().empty() ? 0 : static_cast<std::size_t>(f.owned().volume()));
  f.pack(f.owned(), mine);
  std::vector<int> counts(R), displs(R, 0);
  const int count = static_cast<int>(mine.size());
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm.get());
  for (std::size_t r = 1; r < R; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<double> gathered(comm.rank() == 0 ? static_cast<std::size_t>(displs.back() + counts.back()) : 0);
  MPI_Gatherv(mine.data(), count, MPI_DOUBLE, gathered.data(), counts.data(), displs.data(), MPI_DOUBLE, 0,
              comm.get());

  double error = 0.0;
  if (comm.rank() == 0) {
    HeatField serial(p.domain(), 1);
    serial.set_initial(p);
    for (int s = 0; s < p.steps; ++s) {
      advance(p, s, serial);
      serial.swap();
    }
    std::vector<double> piece;
    for (std::size_t r = 0; r < R; ++r) {
      hpart::Box b;
      b.dim = p.dim;
      for (std::size_t d = 0; d < static_cast<std::size_t>(hpart::kMaxBoxDim); ++d) {
        b.lo[d] = all_bounds[r * bounds.size() + d];
        b.hi[d] = all_bounds[r * bounds.size() + hpart::kMaxBoxDim + d];
      }
      if (b.empty()) continue;
      piece.resize(static_cast<std::size_t>(b.volume()));
      serial.pack(b, piece);
      for (std::size_t i = 0; i < piece.size(); ++i)
        error = std::max(error, std::abs(piece[i] - gathered[static_cast<std::size_t>(displs[r]) + i]));
    }
  }
  MPI_Bcast(&error, 1, MPI_DOUBLE, 0, comm.get());
  return error;
}

}  // namespace hpart_heat
