#pragma once
// One round of PointDiffusion (point_diffusion.hpp), by phase: the arcs (the flows to realise and
// their directions) and their candidates (point_diffusion_candidates.cpp), then the selections
// that move the candidates (point_diffusion_select.cpp). Private to the points layer.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/point_set.hpp"
#include "hpart/types.hpp"
#include "kernels/diffusion_flow.hpp"
#include "points/part_contacts.hpp"
#include "points/point_diffusion.hpp"

namespace hpart::repart::diffusion {

constexpr int kBins = 64;  // per level of the projection histograms: 64 x 64 = 4096 steps per flow
constexpr std::size_t kBinCount = static_cast<std::size_t>(kBins);
// Objects may move to a part up to this many coarse cells away: a band deep enough to carry one
// event's flow across most interfaces in one round (cells hold ~4-8 objects).
constexpr int kRings = 2;
// Selections over the boundary candidates per round: each takes the remaining flow of every arc,
// so an object claimed by two flows costs the loser one more selection, not a measurement.
constexpr int kSelections = 4;

// One flow of load to realise: objects of part `from` move to part `to`, those with the largest
// projection on `dir` first.
struct Arc {
  int from = 0, to = 0;
  double amount = 0.0;
  std::array<double, 3> dir{};
  double top = 0.0, inv_width = 0.0, width = 0.0;  // projection range of the global box
  int cut_bin = kBins;   // level-1 bin holding the threshold (kBins: every candidate moves; -1: none)
  int cut_sub = kBins - 1;  // last level-2 sub-bin of cut_bin that moves
  double need = 0.0;     // weight still wanted inside cut_bin
};

using Candidate = DiffusionCache::Candidate;

// The first weight of object i (1 when the points carry none).
[[nodiscard]] inline double object_weight(const PointSet& points, std::size_t i) {
  return points.weights.empty() ? 1.0 : points.weights[i * static_cast<std::size_t>(points.ncon)];
}

// The arcs of the flows above 1e-9 x avg (flow[e] > 0: edges[e].p -> q), each along the line
// from its source's centroid to its receiver's (K x D centroids); flows between parts with the
// same centroid are dropped. Sorted by source, stably.
std::vector<Arc> arcs_from_flows(std::span<const PartEdge> edges, std::span<const double> flow,
                                 std::span<const double> centroid, std::size_t D, double avg);

// first[p] .. first[p + 1]: the arcs out of part p, for arcs sorted by source; K + 1 entries.
std::vector<std::size_t> arcs_by_source(std::span<const Arc> arcs, std::size_t K);

// Per part on either end of an arc: its bitmap row dilated by kRings (the cells near it, kept in
// cache.near_rows) and the range [word_begin, word_end) of words its own row occupies.
struct NearRows {
  std::vector<std::int32_t> row;  // per part: its row in cache.near_rows, -1: not on any arc
  std::vector<std::size_t> word_begin, word_end;
  std::vector<const std::uint64_t*> of_arc;  // per arc: the dilated row of its receiver
};
NearRows near_rows(const ContactGrid& grid, std::span<const std::uint64_t> bitmap, std::span<const Arc> arcs,
                   std::size_t K, DiffusionCache& cache);

// Points each arc along the normal of its interface (where the bands near each other are not
// empty), tilts it by ~3 degrees and sets its projection range over the global box [lo, hi].
void orient_arcs(std::span<Arc> arcs, const ContactGrid& grid, std::span<const std::uint64_t> bitmap,
                 const NearRows& near, std::span<const double> centroid, const double* lo, const double* hi,
                 std::size_t D, const DiffusionCache& cache);

// Fills cache.candidates: per object of a part with arcs out, one entry per arc whose receiver
// holds a cell within kRings of the object's cell, with its depth; adds each entry's weight into
// hist (A x kBins, zeroed by the caller): the first selection's histogram.
void gather_candidates(std::span<const Arc> arcs, std::span<const std::size_t> first, const NearRows& near,
                       std::span<const std::uint64_t> bitmap, std::size_t words_per_part, std::span<const part_t> parts,
                       const PointSet& points, std::span<const double> centroid, DiffusionCache& cache,
                       std::vector<double>& hist);

// The selections over cache.candidates: move them (parts, cache.moved, cache.moved_from,
// cache.moved_all) until each arc's flow is realised or no selection moves more; adds the weight
// each arc moved into moved[k]. hist: the first selection's local histogram (A x kBins).
// unit: the fixed-point unit of weight (rank 0's, broadcast). Collective.
void select_and_move(const Comm& comm, std::span<Arc> arcs, std::vector<double>& hist, std::span<part_t> parts,
                     const PointSet& points, double unit, DiffusionCache& cache, std::span<double> moved);

}  // namespace hpart::repart::diffusion
