#pragma once
// Tests and benchmarks of the multilevel kernels: a serial METIS .graph reader into a CsrGraph
// (header `n m [fmt [ncon]]`, '%' comment lines, one 1-based adjacency line per vertex; fmt
// digits: vertex sizes (skipped), vertex weights, edge weights), a 3D grid generator, a
// partition's imbalance, and the METIS k-way baseline the partitioner is measured against.
// Throws std::runtime_error on malformed files: only test data is read.
#include <metis.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/csr_graph.hpp"
#include "hpart/types.hpp"

namespace hpart::testing {

inline graphk::CsrGraph read_metis_graph(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string line;
  auto next_line = [&]() {
    while (std::getline(in, line))
      if (line.empty() || line[0] != '%') return true;
    return false;
  };
  if (!next_line()) throw std::runtime_error(path + ": no header");
  std::istringstream head(line);
  std::int64_t n = 0, m = 0;
  std::string fmt = "000";
  int ncon = 1;
  head >> n >> m;
  if (!(head >> fmt)) fmt = "000";
  if (!(head >> ncon)) ncon = 1;
  while (fmt.size() < 3) fmt.insert(fmt.begin(), '0');
  const bool sizes = fmt[fmt.size() - 3] == '1', vweights = fmt[fmt.size() - 2] == '1', eweights = fmt.back() == '1';
  if (!vweights) ncon = 1;

  graphk::CsrGraph g;
  g.ncon = ncon;
  g.xadj.assign(1, 0);
  for (std::int64_t v = 0; v < n; ++v) {
    // An empty line is a vertex without neighbours; comment lines are skipped.
    if (!std::getline(in, line)) throw std::runtime_error(path + ": fewer vertex lines than the header says");
    if (!line.empty() && line[0] == '%') {
      --v;
      continue;
    }
    std::istringstream row(line);
    std::int64_t x = 0;
    if (sizes) row >> x;
    for (int c = 0; c < ncon; ++c) {
      std::int64_t w = 1;
      if (vweights && !(row >> w)) throw std::runtime_error(path + ": missing vertex weight of vertex " + std::to_string(v + 1));
      g.vwgt.push_back(w);
    }
    while (row >> x) {
      std::int64_t w = 1;
      if (eweights && !(row >> w)) throw std::runtime_error(path + ": missing edge weight at vertex " + std::to_string(v + 1));
      if (x < 1 || x > n) throw std::runtime_error(path + ": neighbour out of range at vertex " + std::to_string(v + 1));
      if (x - 1 == v) continue;  // tolerate self-loops in test data: the kernels reject them
      g.adjncy.push_back(static_cast<std::int32_t>(x - 1));
      g.adjwgt.push_back(w);
    }
    g.xadj.push_back(static_cast<std::int64_t>(g.adjncy.size()));
  }
  if (static_cast<std::int64_t>(g.adjncy.size()) != 2 * m)
    throw std::runtime_error(path + ": " + std::to_string(g.adjncy.size()) + " adjacency entries, header says 2 * " + std::to_string(m));
  return g;
}

// The nx * ny * nz grid with 7-point (face) neighbours, unit weights, x fastest.
inline graphk::CsrGraph grid_graph_3d(std::int32_t nx, std::int32_t ny, std::int32_t nz) {
  graphk::CsrGraph g;
  const std::int64_t n = std::int64_t{nx} * ny * nz;
  g.xadj.reserve(static_cast<std::size_t>(n) + 1);
  g.adjncy.reserve(static_cast<std::size_t>(n) * 6);
  for (std::int32_t z = 0; z < nz; ++z)
    for (std::int32_t y = 0; y < ny; ++y)
      for (std::int32_t x = 0; x < nx; ++x) {
        auto id = [&](std::int32_t a, std::int32_t b, std::int32_t c) { return static_cast<std::int32_t>(a + nx * (b + std::int64_t{ny} * c)); };
        if (z > 0) g.adjncy.push_back(id(x, y, z - 1));
        if (y > 0) g.adjncy.push_back(id(x, y - 1, z));
        if (x > 0) g.adjncy.push_back(id(x - 1, y, z));
        if (x + 1 < nx) g.adjncy.push_back(id(x + 1, y, z));
        if (y + 1 < ny) g.adjncy.push_back(id(x, y + 1, z));
        if (z + 1 < nz) g.adjncy.push_back(id(x, y, z + 1));
        g.xadj.push_back(static_cast<std::int64_t>(g.adjncy.size()));
      }
  g.vwgt.assign(static_cast<std::size_t>(n), 1);
  g.adjwgt.assign(g.adjncy.size(), 1);
  return g;
}

// Per constraint: max over parts of weight / (share * total) - 1 (equal shares when empty).
inline std::vector<double> imbalance_per_constraint(const graphk::CsrGraph& g, const std::vector<part_t>& parts, int k,
                                                    const std::vector<double>& targets = {}) {
  const auto nc = static_cast<std::size_t>(g.ncon);
  std::vector<double> pw(static_cast<std::size_t>(k) * nc, 0.0), total(nc, 0.0);
  for (std::size_t v = 0; v < parts.size(); ++v)
    for (std::size_t c = 0; c < nc; ++c) {
      pw[static_cast<std::size_t>(parts[v]) * nc + c] += static_cast<double>(g.vwgt[v * nc + c]);
      total[c] += static_cast<double>(g.vwgt[v * nc + c]);
    }
  double tsum = 0.0;
  for (double t : targets) tsum += t;
  std::vector<double> out(nc, 0.0);
  for (std::size_t p = 0; p < static_cast<std::size_t>(k); ++p) {
    const double share = targets.empty() ? 1.0 / k : targets[p] / tsum;
    for (std::size_t c = 0; c < nc; ++c)
      if (total[c] > 0) out[c] = std::max(out[c], pw[p * nc + c] / (share * total[c]) - 1.0);
  }
  return out;
}

// METIS_PartGraphKway with default options and ubvec 1 + imbalance for every constraint (equal
// parts): the baseline of the tests and the benchmark. Weights must fit METIS's 32-bit idx_t.
inline std::vector<part_t> metis_kway(const graphk::CsrGraph& g, int k, double imbalance, int seed = -1) {
  idx_t n = g.vertices(), ncon = g.ncon, nparts = k, cut = 0;
  std::vector<idx_t> xadj(g.xadj.begin(), g.xadj.end()), adjncy(g.adjncy.begin(), g.adjncy.end());
  std::vector<idx_t> vwgt(g.vwgt.begin(), g.vwgt.end()), adjwgt(g.adjwgt.begin(), g.adjwgt.end());
  std::vector<real_t> ubvec(static_cast<std::size_t>(ncon), static_cast<real_t>(1.0 + imbalance));
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  if (seed >= 0) options[METIS_OPTION_SEED] = seed;
  std::vector<idx_t> where(static_cast<std::size_t>(n), 0);
  if (k > 1 && METIS_PartGraphKway(&n, &ncon, xadj.data(), adjncy.data(), vwgt.data(), nullptr, adjwgt.data(), &nparts,
                                   nullptr, ubvec.data(), options, &cut, where.data()) != METIS_OK)
    throw std::runtime_error("METIS_PartGraphKway failed");
  return std::vector<part_t>(where.begin(), where.end());
}

}  // namespace hpart::testing
