#include "injection.hpp"

#include <mpi.h>

#include <cstdlib>
#include <sstream>
#include <vector>

#include "hpart/error.hpp"

namespace hpart_scaling {

std::string injection_spec() {
  const char* v = std::getenv("HPART_SCALING_INJECT");
  return v == nullptr ? std::string() : std::string(v);
}

Injection injection_for(const std::string& key) {
  Injection out;
  std::istringstream items(injection_spec());
  for (std::string item; std::getline(items, item, ',');) {
    if (item.empty()) continue;
    std::vector<std::string> f;
    std::istringstream parts(item);
    for (std::string p; std::getline(parts, p, ':');) f.push_back(p);
    const auto bad = [&] {
      return hpart::Error(hpart::ErrorCode::invalid_argument,
                          "HPART_SCALING_INJECT: '" + item + "' is not KEY:messages or KEY:slow:F (F >= 1)");
    };
    if (f.size() < 2) throw bad();
    // "*" is every case but the floor: the floor is the time rule's reference, and slowing it with
    // the cases would cancel the slowdown the injection is meant to show.
    const bool mine = (f[0] == "*" && key != "floor.floor") || f[0] == key;
    if (f[1] == "messages" && f.size() == 2) {
      out.messages = out.messages || mine;
    } else if (f[1] == "slow" && f.size() == 3) {
      char* end = nullptr;
      const double factor = std::strtod(f[2].c_str(), &end);
      if (end == f[2].c_str() || *end != '\0' || !(factor >= 1.0)) throw bad();
      if (mine) out.slow = factor;
    } else {
      throw bad();
    }
  }
  return out;
}

void inject(const hpart::Comm& comm, const Injection& what, double t0) {
  if (what.messages) {
    const int P = comm.size(), r = comm.rank();
    std::vector<char> out(1024, 1), in(1024);
    if (P > 1)
      MPI_Sendrecv(out.data(), 1024, MPI_CHAR, (r + 1) % P, 24, in.data(), 1024, MPI_CHAR, (r + P - 1) % P, 24,
                   comm.get(), MPI_STATUS_IGNORE);
    const double mine = 1.0;
    std::vector<double> all(static_cast<std::size_t>(P));
    MPI_Allgather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, comm.get());
  }
  if (what.slow > 1.0) {
    const double until = t0 + (MPI_Wtime() - t0) * what.slow;
    while (MPI_Wtime() < until) {
    }
  }
}

}  // namespace hpart_scaling
