// Argument rules of the ParMETIS 4 manual, checked in the order a call reads them: pointers and
// scalars (local), then whether every rank passed the same scalars, then the arrays (local), then
// whether vtxdist, tpwgts and ubvec agree. Each step ends in one agreement, so a rank never
// reads an array that another rank has found unusable, and every rank reports the same problem.
#include "parmetis/pm_args.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace hpart::parmetis {
namespace {

std::string num(long long v) { return std::to_string(v); }

// A replicated value as the caller wrote it: 4, 1.05 (not 4.000000, 1.050000).
std::string real(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// The first of several equal-on-every-rank numbers that differs: "numflag differs across ranks
// (0 on some, 1 on others)", or empty.
std::string replicated(const Comm& comm, const std::vector<const char*>& names, std::vector<double> v) {
  std::vector<double> lo = v, hi = v;
  comm.min(std::span<double>(lo));
  comm.max(std::span<double>(hi));
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!(lo[i] == hi[i]) && !(std::isnan(lo[i]) && std::isnan(hi[i])))
      return std::string(names[i]) + " differs across ranks (" + real(lo[i]) + " on some, " + real(hi[i]) +
             " on others): every rank must pass the same value";
  return {};
}

// An array every rank must pass alike (vtxdist, tpwgts, ubvec): its first differing entry.
std::string replicated_array(const Comm& comm, const char* name, std::vector<double> v) {
  std::vector<double> lo = v, hi = v;
  comm.min(std::span<double>(lo));
  comm.max(std::span<double>(hi));
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!(lo[i] == hi[i]))
      return std::string(name) + " differs across ranks: " + name + "[" + num(static_cast<long long>(i)) +
             "] is " + real(lo[i]) + " on some ranks and " + real(hi[i]) +
             " on others; every rank must pass the same array";
  return {};
}

bool is_repart(Kind k) { return k == Kind::refine || k == Kind::adaptive; }

// Step 1 (local): pointers and the scalars' ranges.
std::string check_scalars(const RawArgs& a, Kind kind) {
  struct Ptr { const void* p; const char* name; };
  const Ptr required[] = {{a.vtxdist, "vtxdist"}, {a.wgtflag, "wgtflag"}, {a.numflag, "numflag"},
                          {a.ncon, "ncon"},       {a.nparts, "nparts"},   {a.tpwgts, "tpwgts"},
                          {a.ubvec, "ubvec"},     {a.edgecut, "edgecut"}, {a.part, "part"}};
  for (const Ptr& r : required)
    if (r.p == nullptr) return std::string(r.name) + " is NULL";
  if (kind == Kind::geom_kway && a.ndims == nullptr) return "ndims is NULL";
  if (kind == Kind::adaptive && a.itr == nullptr) return "ipc2redist (itr) is NULL";
  if (*a.wgtflag < 0 || *a.wgtflag > 3) return "wgtflag must be 0, 1, 2 or 3 (got " + num(*a.wgtflag) + ")";
  if (*a.numflag != 0 && *a.numflag != 1) return "numflag must be 0 or 1 (got " + num(*a.numflag) + ")";
  if (*a.ncon < 1) return "ncon must be >= 1 (got " + num(*a.ncon) + ")";
  if (*a.nparts < 1) return "nparts must be >= 1 (got " + num(*a.nparts) + ")";
  if (*a.nparts > 1000000000) return "nparts must be < 10^9 (got " + num(*a.nparts) + ")";
  if (kind == Kind::geom_kway && (*a.ndims < 1 || *a.ndims > 3))
    return "ndims must be 1, 2 or 3 (got " + num(*a.ndims) + ")";
  if (kind == Kind::adaptive && !(std::isfinite(*a.itr) && *a.itr > 0))
    return "ipc2redist (itr) must be finite and > 0 (got " + real(*a.itr) + ")";
  if ((*a.wgtflag & 2) && a.vwgt == nullptr) return "vwgt is NULL but wgtflag " + num(*a.wgtflag) + " says vertex weights are given";
  if ((*a.wgtflag & 1) && a.adjwgt == nullptr) return "adjwgt is NULL but wgtflag " + num(*a.wgtflag) + " says edge weights are given";
  if (is_repart(kind) && *a.ncon > 1)
    return "ncon = " + num(*a.ncon) + ": hpart's repartitioning balances one vertex weight; ncon must be 1";
  if (a.options != nullptr && a.options[0] != 0 && is_repart(kind) && a.options[3] != PARMETIS_PSR_COUPLED &&
      a.options[3] != PARMETIS_PSR_UNCOUPLED)
    return "options[3] must be PARMETIS_PSR_COUPLED (1) or PARMETIS_PSR_UNCOUPLED (2) (got " + num(a.options[3]) + ")";
  return {};
}

// Step 2 (collective): the scalars every rank must pass alike.
std::string check_replicated_scalars(const Comm& comm, const RawArgs& a, Kind kind) {
  const bool opt = a.options != nullptr && a.options[0] != 0;
  std::vector<const char*> names = {"wgtflag", "numflag", "ncon", "nparts", "options[0]", "options[1]", "options[2]"};
  std::vector<double> v = {double(*a.wgtflag), double(*a.numflag), double(*a.ncon), double(*a.nparts),
                           opt ? 1.0 : 0.0, opt ? double(a.options[1]) : 0.0, opt ? double(a.options[2]) : 0.0};
  if (is_repart(kind)) names.push_back("options[3]"), v.push_back(opt ? double(a.options[3]) : 0.0);
  if (kind == Kind::geom_kway) names.push_back("ndims"), v.push_back(double(*a.ndims));
  if (kind == Kind::adaptive) names.push_back("ipc2redist (itr)"), v.push_back(double(*a.itr));
  return replicated(comm, names, std::move(v));
}

// Step 3 (local): vtxdist, xadj, adjncy and the other arrays of this rank.
std::string based(idx_t base) {
  return base ? " (numflag 1: vtxdist, xadj and adjncy are 1-based)" : " (numflag 0: 0-based)";
}

// Step 3 (local, then compared across ranks): vtxdist.
std::string check_vtxdist(const Comm& comm, const idx_t* vtxdist, idx_t base) {
  const idx_t R = comm.size();
  std::string problem;
  if (vtxdist[0] != base)
    problem = "vtxdist[0] must be " + num(base) + " (got " + num(vtxdist[0]) + ")" + based(base);
  for (idx_t i = 0; i < R && problem.empty(); ++i)
    if (vtxdist[i + 1] < vtxdist[i])
      problem = "vtxdist decreases: vtxdist[" + num(i + 1) + "] = " + num(vtxdist[i + 1]) + " < vtxdist[" + num(i) +
                "] = " + num(vtxdist[i]);
  agree(comm, problem);
  return replicated_array(comm, "vtxdist", std::vector<double>(vtxdist, vtxdist + R + 1));
}

// Step 4 (local): xadj, adjncy and the other arrays of this rank.
std::string check_arrays(const Comm& comm, const RawArgs& a, Kind kind) {
  const idx_t base = *a.numflag, R = comm.size(), r = comm.rank();
  const idx_t n = a.vtxdist[r + 1] - a.vtxdist[r], N = a.vtxdist[R] - base;
  if (a.xadj == nullptr) return "xadj is NULL";
  if (a.xadj[0] != base) return "xadj[0] must be " + num(base) + " (got " + num(a.xadj[0]) + ")" + based(base);
  for (idx_t i = 0; i < n; ++i)
    if (a.xadj[i + 1] < a.xadj[i])
      return "xadj decreases at local vertex " + num(i) + ": xadj[" + num(i + 1) + "] = " + num(a.xadj[i + 1]) +
             " < xadj[" + num(i) + "] = " + num(a.xadj[i]);
  const idx_t m = a.xadj[n] - a.xadj[0];
  if (m > 0 && a.adjncy == nullptr) return "adjncy is NULL";
  for (idx_t e = 0; e < m; ++e)
    if (a.adjncy[e] < base || a.adjncy[e] >= N + base)
      return "adjncy[" + num(e) + "] = " + num(a.adjncy[e]) + " is not a vertex id in [" + num(base) + ", " +
             num(N - 1 + base) + "]" + based(base);
  if (kind == Kind::geom_kway && n > 0 && a.xyz == nullptr) return "xyz is NULL";
  if (kind == Kind::adaptive && a.vsize != nullptr)
    for (idx_t i = 0; i < n; ++i)
      if (a.vsize[i] < 0) return "vsize[" + num(i) + "] = " + num(a.vsize[i]) + ": redistribution costs must be >= 0";
  return {};
}

// Step 5 (collective, then the same decision everywhere): tpwgts and ubvec.
std::string check_targets(const Comm& comm, const RawArgs& a, Kind kind, Problem& p) {
  const idx_t ncon = *a.ncon, K = *a.nparts;
  const std::size_t nt = static_cast<std::size_t>(ncon * K);
  std::string problem = replicated_array(comm, "tpwgts", std::vector<double>(a.tpwgts, a.tpwgts + nt));
  if (problem.empty()) problem = replicated_array(comm, "ubvec", std::vector<double>(a.ubvec, a.ubvec + ncon));
  if (!problem.empty()) return problem;
  for (idx_t c = 0; c < ncon; ++c) {
    double sum = 0;
    for (idx_t q = 0; q < K; ++q) {
      const double t = a.tpwgts[q * ncon + c];
      if (!std::isfinite(t) || t < 0 || t > 1.001)
        return "tpwgts[" + num(q * ncon + c) + "] = " + real(t) + " (part " + num(q) + ", constraint " +
               num(c) + ") must be a fraction in [0, 1]";
      sum += t;
    }
    if (sum < 0.999 || sum > 1.001)
      return "tpwgts of constraint " + num(c) + " sum to " + real(sum) + ", not 1";
    if (!std::isfinite(a.ubvec[c]) || a.ubvec[c] < 1.0 || a.ubvec[c] >= 11.0)
      return "ubvec[" + num(c) + "] = " + real(a.ubvec[c]) + " must be in [1, 11) (1.05: 5% imbalance)";
  }
  bool uniform = true;
  for (idx_t q = 0; q < K; ++q) {
    const double t0 = a.tpwgts[q * ncon];
    if (!(t0 > 0))
      return "tpwgts[" + num(q * ncon) + "] = 0: hpart needs every part's target weight > 0";
    for (idx_t c = 1; c < ncon; ++c)
      if (std::abs(a.tpwgts[q * ncon + c] - t0) > 1e-6)
        return "tpwgts: part " + num(q) + " has " + real(t0) + " for constraint 0 but " +
               real(a.tpwgts[q * ncon + c]) + " for constraint " + num(c) +
               "; hpart takes one target per part for all constraints";
    uniform = uniform && std::abs(t0 * double(K) - 1.0) < 1e-4;
  }
  if (is_repart(kind) && !uniform)
    return "tpwgts: hpart's repartitioning aims at equal parts; non-uniform tpwgts are only taken by "
           "ParMETIS_V3_PartKway and ParMETIS_V3_PartGeomKway";
  if (!uniform) {
    p.targets.resize(static_cast<std::size_t>(K));
    for (idx_t q = 0; q < K; ++q) p.targets[static_cast<std::size_t>(q)] = a.tpwgts[q * ncon];
  }
  p.min_ubvec = *std::min_element(a.ubvec, a.ubvec + ncon);
  p.imbalance = p.min_ubvec - 1.0;
  return {};
}

// The graph in hpart's types, lent in place at idx_t's width (hpart reads 32-bit offsets, ids and
// weights as they are): only what is not 0-based already is rebased into a copy (1-based ids with
// numflag 1, offsets not starting at 0), plus vtxdist (R + 1 values, 64-bit in hpart) and the
// coordinates (real_t, 2 or 3 per vertex). Only the weights that wgtflag says are given; without
// vertex weights every constraint is 1, which is one unit weight (ncon 1).
void convert(const Comm& comm, const RawArgs& a, Kind kind, Problem& p) {
  const idx_t base = *a.numflag, R = comm.size(), r = comm.rank();
  const auto n = static_cast<std::size_t>(a.vtxdist[r + 1] - a.vtxdist[r]);
  Graph& g = p.graph;
  p.vtxdist.resize(static_cast<std::size_t>(R) + 1);
  for (std::size_t i = 0; i < p.vtxdist.size(); ++i) p.vtxdist[i] = a.vtxdist[i] - base;
  g.vtxdist = p.vtxdist;
  const idx_t x0 = a.xadj[0];
  const auto m = static_cast<std::size_t>(a.xadj[n] - x0);
  if (x0 != 0) {
    p.xadj.resize(n + 1);
    for (std::size_t i = 0; i <= n; ++i) p.xadj[i] = a.xadj[i] - x0;
  }
  g.xadj = x0 != 0 ? std::span<const idx_t>(p.xadj) : std::span<const idx_t>(a.xadj, n + 1);
  if (base != 0) {
    p.adjncy.resize(m);
    for (std::size_t e = 0; e < m; ++e) p.adjncy[e] = a.adjncy[e] - base;
  }
  const IntSpan ids = base != 0 ? std::span<const idx_t>(p.adjncy) : std::span<const idx_t>(a.adjncy, m);
  g.adjncy = ids.as64();  // one of the two, as idx_t's width
  g.adjncy32 = ids.as32();
  g.ncon = 1;
  if (*a.wgtflag & 2) {
    g.ncon = static_cast<int>(*a.ncon);
    g.vwgt = std::span<const idx_t>(a.vwgt, n * static_cast<std::size_t>(g.ncon));
  }
  if (*a.wgtflag & 1) g.adjwgt = std::span<const idx_t>(a.adjwgt, m);
  if (kind == Kind::geom_kway) {
    const auto d = static_cast<std::size_t>(*a.ndims);
    g.dim = d == 3 ? 3 : 2;  // a line is the plane's x axis: the same curve order
    p.coords.assign(n * static_cast<std::size_t>(g.dim), 0.0);
    for (std::size_t v = 0; v < n; ++v)
      for (std::size_t k = 0; k < d; ++k) p.coords[v * static_cast<std::size_t>(g.dim) + k] = a.xyz[v * d + k];
    g.coords = p.coords;
  }
}

// AdaptiveRepart's redistribution cost per vertex: vsize (lent), or 1 each when it is NULL
// (ParMETIS's default), which hpart must be told only where vertex weights would otherwise stand in.
void sizes(const RawArgs& a, std::size_t n, Problem& p) {
  if (a.vsize != nullptr) p.sizes = std::span<const idx_t>(a.vsize, n);
  else if (*a.wgtflag & 2) p.unit_sizes.assign(n, 1), p.sizes = p.unit_sizes;
}

// RefineKway / AdaptiveRepart: the partition to start from (options[3]; the manual's rule).
std::string starting_parts(const Comm& comm, const RawArgs& a, Problem& p) {
  const bool opt = a.options != nullptr && a.options[0] != 0;
  p.coupled = comm.size() == p.nparts && (!opt || a.options[3] == PARMETIS_PSR_COUPLED);
  const std::size_t n = p.graph.local_vertices();
  p.current.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const idx_t q = p.coupled ? comm.rank() : a.part[i] - p.numflag;
    if (q < 0 || q >= p.nparts)
      return "part[" + num(static_cast<long long>(i)) + "] = " + num(a.part[i]) + " is not a part id in [" +
             num(p.numflag) + ", " + num(p.nparts - 1 + p.numflag) + "] (the partition to start from)";
    p.current[i] = static_cast<part_t>(q);
  }
  return {};
}

}  // namespace

GraphEffort layer_effort() {
  GraphEffort e;
  e.initial_tries = 8;
  e.fm_passes = 8;
  e.vcycles = 1;
  return e;
}

Problem prepare_graph(const Comm& comm, const RawArgs& a, Kind kind) {
  agree(comm, check_scalars(a, kind));
  agree(comm, check_replicated_scalars(comm, a, kind));
  agree(comm, check_vtxdist(comm, a.vtxdist, *a.numflag));
  agree(comm, check_arrays(comm, a, kind));
  Problem p;
  agree(comm, check_targets(comm, a, kind, p));
  p.nparts = static_cast<int>(*a.nparts);
  p.numflag = static_cast<int>(*a.numflag);
  if (a.options != nullptr && a.options[0] != 0) {
    p.dbglvl = static_cast<int>(a.options[1]);
    p.seed = static_cast<int>(a.options[2] % 1000000007);
  }
  // An unknown name is every rank's error here; a name that differs between ranks gives efforts
  // that partition_graph's agreement finds different.
  const char* preset = kind == Kind::kway || kind == Kind::geom_kway ? std::getenv("HPART_PARMETIS_PRESET") : nullptr;
  std::string bad;
  p.effort = layer_effort();
  if (preset != nullptr && *preset != '\0') {
    try {
      p.effort = GraphOptions::preset(preset_from_string(preset), p.nparts).effort;
    } catch (const Error& e) {
      bad = std::string("HPART_PARMETIS_PRESET: ") + e.what();
    }
  }
  agree(comm, bad);
  if (kind == Kind::adaptive) p.itr = static_cast<double>(*a.itr);
  if (kind == Kind::refine) p.itr = 1e6;  // the cut is all that counts; migration breaks ties
  convert(comm, a, kind, p);
  if (kind == Kind::adaptive) sizes(a, p.graph.local_vertices(), p);
  if (kind == Kind::refine || kind == Kind::adaptive) agree(comm, starting_parts(comm, a, p));
  return p;
}

int prepare_geom(const Comm& comm, const idx_t* vtxdist, const idx_t* ndims, const real_t* xyz, const idx_t* part,
                 std::vector<double>& coords) {
  std::string problem = vtxdist == nullptr ? "vtxdist is NULL"
                        : ndims == nullptr ? "ndims is NULL"
                        : part == nullptr  ? "part is NULL"
                                           : "";
  if (problem.empty() && (*ndims < 1 || *ndims > 3)) problem = "ndims must be 1, 2 or 3 (got " + num(*ndims) + ")";
  agree(comm, problem);
  agree(comm, replicated(comm, {"ndims"}, {double(*ndims)}));
  agree(comm, check_vtxdist(comm, vtxdist, 0));
  const idx_t r = comm.rank();
  const auto n = static_cast<std::size_t>(vtxdist[r + 1] - vtxdist[r]);
  agree(comm, n > 0 && xyz == nullptr ? "xyz is NULL" : "");
  const auto d = static_cast<std::size_t>(*ndims);
  const int dim = d == 3 ? 3 : 2;
  coords.assign(n * static_cast<std::size_t>(dim), 0.0);
  for (std::size_t v = 0; v < n; ++v)
    for (std::size_t k = 0; k < d; ++k) coords[v * static_cast<std::size_t>(dim) + k] = xyz[v * d + k];
  return dim;
}

void agree(const Comm& comm, const std::string& problem) {
  comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
}
}  // namespace hpart::parmetis
