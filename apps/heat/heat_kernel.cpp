#include "heat_kernel.hpp"

#include <vector>

namespace hpart_heat {
namespace {

// m sub-steps of a = alpha / m for cells that share m, neighbour sums frozen. The loop over
// cells is innermost so it vectorises and every sub-step of every cell costs the same.
void relax_run(double* __restrict v, const double* __restrict s, std::size_t len, int m, double alpha,
               double two_d) {
  const double a = alpha / static_cast<double>(m);
  for (int k = 0; k < m; ++k)
    for (std::size_t i = 0; i < len; ++i) v[i] += a * (s[i] - two_d * v[i]);
}

// Cells of several rows sorted into plain and hot, each relaxed as one long run. This makes a
// cell's time (nearly) proportional to its sub-step count, as the partitioner's cost model
// assumes: a k-loop inside each cell would be latency-bound for the long hot chains and
// overlapped by the CPU for short plain ones, and relaxing each row's short chord of hot cells
// on its own would pay the loop overhead per chord.
class CellBatch {
 public:
  static constexpr std::size_t kCells = 1024;  // flush at this many: the buffers stay in L1

  // row: the longest row added at once (a batch holds up to kCells - 1 + row cells).
  CellBatch(std::size_t row, int plain_m, int hot_m, double alpha, double two_d)
      : m_{plain_m, hot_m}, alpha_(alpha), two_d_(two_d) {
    for (Group& g : groups_) g.sum.resize(kCells + row), g.val.resize(kCells + row), g.dest.resize(kCells + row);
  }
  void add(bool hot, double sum, double val, std::size_t dest) {
    Group& g = groups_[hot ? 1 : 0];
    g.sum[g.size] = sum;
    g.val[g.size] = val;
    g.dest[g.size] = dest;
    ++g.size;
  }
  [[nodiscard]] std::size_t size() const { return groups_[0].size + groups_[1].size; }
  // Relaxes the buffered cells and writes them to their places in `out`.
  void flush(double* out) {
    for (int h = 0; h < 2; ++h) {
      Group& g = groups_[h];
      relax_run(g.val.data(), g.sum.data(), g.size, m_[h], alpha_, two_d_);
      for (std::size_t i = 0; i < g.size; ++i) out[g.dest[i]] = g.val[i];
      g.size = 0;
    }
  }

 private:
  struct Group {
    std::vector<double> sum, val;
    std::vector<std::size_t> dest;
    std::size_t size = 0;
  };
  Group groups_[2];  // plain, hot
  int m_[2];
  double alpha_, two_d_;
};

// The stencil for one dimension count, so the 2D loop carries no z terms. Every cell's value
// goes through the same operations in the same order whatever box or batch it lies in, so any
// rank count gives the serial values (--check).
template <int Dim>
std::int64_t advance_dim(const HeatProblem& p, int s, HeatField& f) {
  const hpart::Box& o = f.owned();
  const auto c = p.centre(s);
  const std::int64_t ny = o.size(1), rows = ny * o.size(2), nx = o.size(0);
  const std::int64_t sy = f.stride_y(), sz = f.stride_z();
  const double* in_all = f.u().data();
  double* out_all = f.next().data();
  std::int64_t cost = 0;
#pragma omp parallel reduction(+ : cost)
  {
    CellBatch batch(static_cast<std::size_t>(nx), p.work, p.work * p.hot, p.alpha, 2.0 * Dim);
#pragma omp for schedule(static)
    for (std::int64_t r = 0; r < rows; ++r) {
      const std::int64_t y = o.lo[1] + r % ny, z = o.lo[2] + r / ny;
      const std::size_t at = f.index(o.lo[0], y, z);
      const double* in = in_all + at;
      const double row2 = p.row_offset2(y, z, c);
      for (std::int64_t i = 0; i < nx; ++i) {
        double t = in[i - 1] + in[i + 1] + in[i - sy] + in[i + sy];
        if constexpr (Dim == 3) t += in[i - sz] + in[i + sz];
        const bool hot = p.is_hot(o.lo[0] + i, row2, c);
        cost += hot ? p.hot : 1;
        batch.add(hot, t, in[i], at + static_cast<std::size_t>(i));
      }
      if (batch.size() >= CellBatch::kCells) batch.flush(out_all);
    }
    batch.flush(out_all);
  }
  return cost;
}

}  // namespace

std::int64_t advance(const HeatProblem& p, int s, HeatField& f) {
  if (f.owned().empty()) return 0;
  return p.dim == 3 ? advance_dim<3>(p, s, f) : advance_dim<2>(p, s, f);
}

}  // namespace hpart_heat
