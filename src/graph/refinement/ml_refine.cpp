// Refinement of one level: part weights, moves, k-way FM and pair exchanges (see ml_refine.hpp;
// rebalancing is in ml_rebalance.cpp).
#include "graph/refinement/ml_refine.hpp"

#include <algorithm>

namespace hpart::graphk {

Refiner::Refiner(const GraphView& g, const Balance& b, std::span<part_t> part, std::span<const std::uint8_t> fixed)
    : g_(g), b_(b), part_(part), fixed_(fixed), pw_(graphk::part_weights(g, part, b.k)), count_(static_cast<std::size_t>(b.k), 0),
      locked_(static_cast<std::size_t>(g.n), 0) {
  scratch_.conn.assign(static_cast<std::size_t>(b.k), 0);
  heap_.resize(g.n);
  for (part_t p : part_) ++count_[static_cast<std::size_t>(p)];
}

bool Refiner::fits(part_t p, std::int32_t v) const {
  const std::int64_t* w = g_.weights(v);
  const std::size_t base = b_.at(p, 0);
  for (std::size_t c = 0; c < static_cast<std::size_t>(g_.ncon); ++c)
    if (pw_[base + c] + w[c] > b_.maxw[base + c]) return false;
  return true;
}

bool Refiner::over(part_t p) const {
  const std::size_t base = b_.at(p, 0);
  for (std::size_t c = 0; c < static_cast<std::size_t>(g_.ncon); ++c)
    if (pw_[base + c] > b_.maxw[base + c]) return true;
  return false;
}

// The part's fill: its largest weight / bound over the constraints.
double Refiner::load(part_t p) const {
  const std::size_t base = b_.at(p, 0);
  double l = 0.0;
  for (std::size_t c = 0; c < static_cast<std::size_t>(g_.ncon); ++c)
    l = std::max(l, static_cast<double>(pw_[base + c]) * b_.inv_maxw[base + c]);
  return l;
}

// Fixed, or moving v would empty its part (which never happens where there are at least k
// vertices).
bool Refiner::pinned(std::int32_t v) const {
  if (!fixed_.empty() && fixed_[static_cast<std::size_t>(v)]) return true;
  return g_.n >= b_.k && count_[static_cast<std::size_t>(part_[static_cast<std::size_t>(v)])] == 1;
}

void Refiner::move(std::int32_t v, part_t to) {
  const part_t from = part_[static_cast<std::size_t>(v)];
  const std::int64_t* w = g_.weights(v);
  const std::size_t fb = b_.at(from, 0), tb = b_.at(to, 0);
  for (std::size_t c = 0; c < static_cast<std::size_t>(g_.ncon); ++c) {
    pw_[fb + c] -= w[c];
    pw_[tb + c] += w[c];
  }
  part_[static_cast<std::size_t>(v)] = to;
  --count_[static_cast<std::size_t>(from)];
  ++count_[static_cast<std::size_t>(to)];
}

std::int64_t Refiner::connect(std::int32_t v, Scratch& s, std::int64_t& external) const {
  const part_t a = part_[static_cast<std::size_t>(v)];
  std::int64_t internal = 0;
  for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) {
    const part_t p = part_[static_cast<std::size_t>(g_.nbr(e))];
    if (p == a) {
      internal += g_.ewgt(e);
    } else {
      std::int64_t& c = s.conn[static_cast<std::size_t>(p)];
      if (c == 0) s.touched.push_back(p);
      c += g_.ewgt(e);
      external += g_.ewgt(e);
    }
  }
  return internal;
}

std::int64_t Refiner::scan(std::int32_t v) {
  std::int64_t external = 0;
  return connect(v, scratch_, external);
}

void Refiner::reset_scan() { scratch_.clear(); }

// The adjacent part with the most connection that has room for v (ties: the less filled part,
// so that equal-gain moves drift from heavy parts to light ones). Reads the partition only, so
// threads may evaluate different vertices at once, each with its own scratch.
Refiner::Target Refiner::evaluate(std::int32_t v, Scratch& s) const {
  std::int64_t external = 0;
  const std::int64_t internal = connect(v, s, external);
  Target t;
  t.boundary = !s.touched.empty();
  t.external = external;
  t.internal = internal;
  if (!pinned(v)) {
    std::int64_t best_conn = 0;
    for (part_t p : s.touched) {
      const std::int64_t c = s.conn[static_cast<std::size_t>(p)];
      if (c < best_conn || (c == best_conn && (t.part < 0 || load(p) >= load(t.part)))) continue;
      if (fits(p, v)) {
        t.part = p;
        best_conn = c;
      }
    }
    t.gain = best_conn - internal;
  }
  s.clear();
  return t;
}

std::int64_t Refiner::prepare_fm() {
  const auto n = static_cast<std::size_t>(g_.n);
  in_list_.assign(n, 0);
  dirty_.assign(n, 0);
  has_target_.assign(n, 0);
  gain_.assign(n, 0);
  wdeg_.assign(n, 0);
  std::int64_t cut = 0;
#pragma omp parallel reduction(+ : cut)
  {
    Scratch s;
    s.conn.assign(static_cast<std::size_t>(b_.k), 0);
#pragma omp for schedule(dynamic, 2048)
    for (std::int32_t v = 0; v < g_.n; ++v) {
      const Target t = evaluate(v, s);
      const auto i = static_cast<std::size_t>(v);
      in_list_[i] = t.boundary ? 1 : 0;
      has_target_[i] = t.part >= 0 ? 1 : 0;
      gain_[i] = t.gain;
      wdeg_[i] = t.external + t.internal;
      cut += t.external;
    }
  }
  list_.clear();
  for (std::int32_t v = 0; v < g_.n; ++v)
    if (in_list_[static_cast<std::size_t>(v)]) list_.push_back(v);
  return cut / 2;
}

void Refiner::touch(std::int32_t v) {
  const auto i = static_cast<std::size_t>(v);
  dirty_[i] = 1;
  if (!in_list_[i]) {
    in_list_[i] = 1;
    list_.push_back(v);
  }
}

std::int64_t Refiner::fm_pass(std::int64_t stall) {
  // Candidates: cached moves, re-evaluated where a neighbour moved, or where no adjacent part
  // had room (parts may have room now). Vertices no longer on the boundary leave the list.
  // The evaluations are independent (per vertex, on the same partition): in parallel.
  const auto listed = static_cast<std::int64_t>(list_.size());
#pragma omp parallel
  {
    Scratch s;
    s.conn.assign(static_cast<std::size_t>(b_.k), 0);
#pragma omp for schedule(dynamic, 1024)
    for (std::int64_t j = 0; j < listed; ++j) {
      const std::int32_t v = list_[static_cast<std::size_t>(j)];
      const auto i = static_cast<std::size_t>(v);
      if (!dirty_[i] && has_target_[i]) continue;
      const Target t = evaluate(v, s);
      dirty_[i] = 0;
      has_target_[i] = t.part >= 0 ? 1 : 0;
      gain_[i] = t.gain;
      in_list_[i] = t.boundary ? 1 : 0;
    }
  }
  std::vector<VertexHeap<std::int64_t>::Entry> entries;
  entries.reserve(list_.size());
  std::size_t kept = 0;
  for (std::int32_t v : list_) {
    const auto i = static_cast<std::size_t>(v);
    if (!in_list_[i]) continue;
    list_[kept++] = v;
    if (has_target_[i]) entries.push_back({gain_[i], v});
  }
  list_.resize(kept);
  heap_.build(entries);

  moves_.clear();
  std::int64_t cur = 0, best = 0;
  std::size_t best_len = 0;
  std::int64_t since_best = 0;
  while (!heap_.empty()) {
    const std::int32_t v = heap_.top();
    const Target t = evaluate(v, scratch_);
    if (t.part < 0) {
      heap_.pop();  // no room anywhere adjacent now; a neighbour's move may bring it back
      continue;
    }
    if (t.gain < heap_.top_key()) {
      heap_.update(v, t.gain);  // stale key (a part filled up, a cached gain): requeue
      continue;
    }
    heap_.pop();
    moves_.push_back({v, part_[static_cast<std::size_t>(v)]});
    move(v, t.part);
    locked_[static_cast<std::size_t>(v)] = 1;
    cur += t.gain;
    if (cur > best) {
      best = cur;
      best_len = moves_.size();
      since_best = 0;
    } else if (++since_best > stall) {
      break;
    }
    // Neighbours' keys become upper bounds of their new gains (exact ones are computed when a
    // vertex reaches the top, above): moving v from a to b by an edge of weight w raises a
    // gain by at most 2w for a vertex in a, w in a third part, and lowers it by at least w in
    // b. A vertex that was interior (all in a) now has b as its only other part: exact.
    const part_t a = moves_.back().from, b = t.part;
    for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) {
      const std::int32_t u = g_.nbr(e);
      const auto i = static_cast<std::size_t>(u);
      if (locked_[i]) continue;
      const part_t pu = part_[i];
      const std::int64_t w = g_.ewgt(e);
      if (heap_.contains(u)) {
        heap_.update(u, heap_.key(u) + (pu == a ? 2 * w : pu == b ? -w : w));
      } else if (!in_list_[i] && pu == a) {
        if (!pinned(u) && fits(b, u)) heap_.insert(u, 2 * w - wdeg_[i]);
      } else {
        const Target tu = evaluate(u, scratch_);
        if (tu.part >= 0) heap_.insert(u, tu.gain);
      }
      touch(u);
    }
  }
  // Undo the moves after the best prefix (the state there was within bounds: every move was).
  for (std::size_t i = moves_.size(); i > best_len; --i) move(moves_[i - 1].v, moves_[i - 1].from);
  // Every vertex next to a move (kept or undone) gets its cached move recomputed next pass.
  for (const Move& m : moves_) {
    locked_[static_cast<std::size_t>(m.v)] = 0;
    touch(m.v);
    for (std::int64_t e = g_.begin(m.v); e < g_.end(m.v); ++e) touch(g_.nbr(e));
  }
  return best;
}

// Greedy exchanges of two vertices in different parts (each adjacent to the other's part) that
// lower the cut and keep every bound, in vertex order, until a pass finds none.
std::int64_t Refiner::swap_pass() {
  const std::int32_t n = g_.n;
  const auto k = static_cast<std::size_t>(b_.k);
  if (n > kExchangeMaxVertices || static_cast<std::int64_t>(n) * b_.k > kSwapMaxTable) return 0;
  std::vector<std::int64_t> conn(static_cast<std::size_t>(n) * k, 0);  // conn[v * k + p]
  for (std::int32_t v = 0; v < n; ++v)
    for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e)
      conn[static_cast<std::size_t>(v) * k + static_cast<std::size_t>(part_[static_cast<std::size_t>(g_.nbr(e))])] += g_.ewgt(e);
  auto c = [&](std::int32_t v, part_t p) { return conn[static_cast<std::size_t>(v) * k + static_cast<std::size_t>(p)]; };
  auto shift = [&](std::int32_t v, part_t from, part_t to) {
    for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) {
      conn[static_cast<std::size_t>(g_.nbr(e)) * k + static_cast<std::size_t>(from)] -= g_.ewgt(e);
      conn[static_cast<std::size_t>(g_.nbr(e)) * k + static_cast<std::size_t>(to)] += g_.ewgt(e);
    }
    move(v, to);
  };
  auto keeps_bounds = [&](std::int32_t v, std::int32_t u, part_t a, part_t b) {
    const std::int64_t* wv = g_.weights(v);
    const std::int64_t* wu = g_.weights(u);
    for (int cc = 0; cc < g_.ncon; ++cc) {
      if (pw_[b_.at(a, cc)] - wv[cc] + wu[cc] > b_.maxw[b_.at(a, cc)]) return false;
      if (pw_[b_.at(b, cc)] - wu[cc] + wv[cc] > b_.maxw[b_.at(b, cc)]) return false;
    }
    return true;
  };
  std::vector<std::int64_t> adj_w(static_cast<std::size_t>(n), 0);
  std::vector<std::int32_t> boundary;
  std::int64_t total = 0;
  for (int pass = 0; pass < 8; ++pass) {
    // Only boundary vertices can take part (both must be adjacent to the other's part).
    boundary.clear();
    for (std::int32_t v = 0; v < n; ++v)
      if (c(v, part_[static_cast<std::size_t>(v)]) < wdeg_[static_cast<std::size_t>(v)]) boundary.push_back(v);
    std::int64_t gained = 0;
    for (std::int32_t v : boundary) {
      const part_t a = part_[static_cast<std::size_t>(v)];
      std::int64_t best = 0;
      std::int32_t bu = -1;
      for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) adj_w[static_cast<std::size_t>(g_.nbr(e))] += g_.ewgt(e);
      for (std::int32_t u : boundary) {
        const part_t b = part_[static_cast<std::size_t>(u)];
        if (b == a || c(v, b) == 0 || c(u, a) == 0) continue;
        const std::int64_t gain = (c(v, b) - c(v, a)) + (c(u, a) - c(u, b)) - 2 * adj_w[static_cast<std::size_t>(u)];
        if (gain > best && keeps_bounds(v, u, a, b)) {
          best = gain;
          bu = u;
        }
      }
      for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) adj_w[static_cast<std::size_t>(g_.nbr(e))] = 0;
      if (bu < 0) continue;
      const part_t b = part_[static_cast<std::size_t>(bu)];
      shift(v, a, b);
      shift(bu, b, a);
      gained += best;
    }
    total += gained;
    if (gained == 0) break;
  }
  return total;
}

void Refiner::refine(const RefineParams& params) {
  if (!rebalance() && !params.block) exchange_rebalance();
  if (!params.block) fill_empty_parts();
  std::int64_t cut = prepare_fm();
  // Enough fruitless moves to climb out of a local optimum, few enough that a pass stays cheap.
  const std::int64_t stall = params.fm_stall > 0 ? params.fm_stall : std::clamp<std::int64_t>(g_.n / 100, 300, 1000);
  auto fm = [&]() {
    for (int r = 0; r < params.fm_rounds && cut > 0; ++r) {
      const std::int64_t gain = fm_pass(stall);
      cut -= gain;
      if (static_cast<double>(gain) <= params.min_round_gain * static_cast<double>(cut + gain)) break;
    }
  };
  fm();
  // Where balance needed the exchange search, the bounds are tight for several constraints and
  // block most single moves; exchanges of two vertices still lower the cut.
  if (repaired_ && !params.block && swap_pass() > 0) {
    cut = prepare_fm();
    fm();
  }
}

}  // namespace hpart::graphk
