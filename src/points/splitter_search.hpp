#pragma once
// Distributed search for the K-1 weighted splitters of a curve, without gathering or sorting
// keys: weighted histograms over key ranges, refined only where a cut falls.
#include <vector>

#include "hpart/comm.hpp"
#include "points/curve_objects.hpp"

namespace hpart::sfc {

struct SplitterSearchOptions {
  int parts = 1;
  std::vector<double> targets;  // normalised relative part sizes, one per part
  double imbalance = 0.001;     // each cut is refined until within half of this
  int first_bits = 16;          // histogram resolution of the first pass (2^first_bits buckets)
  // Each refinement round splits the ranges that hold a cut into at most 2^refine_budget_bits
  // cells in total (more bits per range when fewer ranges are active), so one allreduce of a
  // fixed size resolves clustered keys in few rounds.
  int refine_budget_bits = 16;
};

struct SplitterSearchStats {
  int rounds = 0;               // histogram passes, the first included
  std::size_t segments = 0;     // length of the discretised curve handed to the chains kernel
  std::size_t max_candidates = 0;  // objects of this rank touched after the first pass
};

// Collective. Returns K+1 splitters s_0 <= ... <= s_K with s_0 = 0 and s_K = kNoSplitter:
// part j holds the objects whose order value v satisfies s_j <= v < s_{j+1}.
std::vector<Order> find_splitters(const Comm& comm, const CurveObjects& objects, const SplitterSearchOptions& opts,
                                  SplitterSearchStats* stats = nullptr);

// Part of each object given the splitters (OpenMP-parallel).
void assign_parts(const CurveObjects& objects, const std::vector<Order>& splitters, int first_bits,
                  std::span<part_t> parts);

}  // namespace hpart::sfc
