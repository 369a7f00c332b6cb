// Refinement of one level (see ml_refine.hpp).
#include "graph/ml_refine.hpp"

#include <algorithm>
#include <limits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace hpart::graphk {

Refiner::Refiner(const GraphView& g, const Balance& b, std::span<part_t> part)
    : g_(g), b_(b), part_(part), pw_(graphk::part_weights(g, part, b.k)),
      conn_(static_cast<std::size_t>(b.k), 0), locked_(static_cast<std::size_t>(g.n), 0) {
  heap_.resize(g.n);
}

std::int64_t Refiner::scan(std::int32_t v) {
  const part_t a = part_[static_cast<std::size_t>(v)];
  std::int64_t internal = 0;
  for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) {
    const part_t p = part_[static_cast<std::size_t>(g_.nbr(e))];
    if (p == a) {
      internal += g_.ewgt(e);
    } else {
      std::int64_t& c = conn_[static_cast<std::size_t>(p)];
      if (c == 0) touched_.push_back(p);
      c += g_.ewgt(e);
    }
  }
  return internal;
}

void Refiner::reset_scan() {
  for (part_t p : touched_) conn_[static_cast<std::size_t>(p)] = 0;
  touched_.clear();
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

double Refiner::load(part_t p) const {
  const std::size_t base = b_.at(p, 0);
  double l = 0.0;
  for (std::size_t c = 0; c < static_cast<std::size_t>(g_.ncon); ++c)
    l = std::max(l, static_cast<double>(pw_[base + c]) * b_.inv_maxw[base + c]);
  return l;
}

bool Refiner::helps(std::int32_t v) const {
  const std::int64_t* w = g_.weights(v);
  const std::size_t base = b_.at(part_[static_cast<std::size_t>(v)], 0);
  for (std::size_t c = 0; c < static_cast<std::size_t>(g_.ncon); ++c)
    if (w[c] > 0 && pw_[base + c] > b_.maxw[base + c]) return true;
  return false;
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
}

// The adjacent part with the most connection that has room for v (ties: the lighter part, so
// that equal-gain moves drift from heavy parts to light ones).
Refiner::Target Refiner::fm_target(std::int32_t v) {
  const std::int64_t internal = scan(v);
  part_t best = -1;
  std::int64_t best_conn = 0;
  for (part_t p : touched_) {
    const std::int64_t c = conn_[static_cast<std::size_t>(p)];
    if (c < best_conn || (c == best_conn && (best < 0 || load(p) >= load(best)))) continue;
    if (fits(p, v)) {
      best = p;
      best_conn = c;
    }
  }
  const bool boundary = !touched_.empty();
  reset_scan();
  return {best, best_conn - internal, boundary};
}

std::int64_t Refiner::fm_pass(std::int64_t stall) {
  heap_.clear();
  std::size_t kept = 0;
  for (std::int32_t v : list_) {
    const Target t = fm_target(v);
    if (t.part >= 0) heap_.insert(v, t.gain);
    // Interior vertices leave the list (a vertex whose adjacent parts are all full stays).
    if (t.boundary) list_[kept++] = v;
    else in_list_[static_cast<std::size_t>(v)] = 0;
  }
  list_.resize(kept);
  moves_.clear();
  std::int64_t cur = 0, best = 0;
  std::size_t best_len = 0;
  std::int64_t since_best = 0;
  while (!heap_.empty()) {
    const std::int32_t v = heap_.top();
    const Target t = fm_target(v);
    if (t.part < 0) {
      heap_.pop();  // no room anywhere adjacent now; a neighbour's move may bring it back
      continue;
    }
    if (t.gain < heap_.top_key()) {
      heap_.update(v, t.gain);  // stale key (a part filled up): requeue at its true gain
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
    for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) {
      const std::int32_t u = g_.nbr(e);
      if (locked_[static_cast<std::size_t>(u)]) continue;
      const Target tu = fm_target(u);
      if (tu.part < 0) heap_.remove(u);
      else heap_.insert_or_update(u, tu.gain);
    }
  }
  if (std::getenv("ML_DEBUG2")) std::fprintf(stderr, "    fm n=%d list=%zu moves=%zu kept=%zu gain=%lld\n", g_.n, list_.size(), moves_.size(), best_len, static_cast<long long>(best));
  // Undo the moves after the best prefix (the state there was within bounds: every move was).
  for (std::size_t i = moves_.size(); i > best_len; --i) move(moves_[i - 1].v, moves_[i - 1].from);
  for (const Move& m : moves_) locked_[static_cast<std::size_t>(m.v)] = 0;
  // The kept moves may have made new boundary vertices: around them, and they themselves.
  for (std::size_t i = 0; i < best_len; ++i) {
    const std::int32_t v = moves_[i].v;
    enlist(v);
    for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) enlist(g_.nbr(e));
  }
  return best;
}

Refiner::Target Refiner::rebalance_target(std::int32_t v) {
  const std::int64_t internal = scan(v);
  part_t best = -1;
  std::int64_t best_conn = 0;
  for (part_t p : touched_) {
    const std::int64_t c = conn_[static_cast<std::size_t>(p)];
    if (c < best_conn || (c == best_conn && (best < 0 || load(p) >= load(best)))) continue;
    if (!over(p) && fits(p, v)) {
      best = p;
      best_conn = c;
    }
  }
  reset_scan();
  if (best < 0) return {kAnyPart, -internal};
  return {best, best_conn - internal};
}

part_t Refiner::lightest_fitting(std::int32_t v) const {
  part_t best = -1;
  double best_load = std::numeric_limits<double>::infinity();
  for (part_t p = 0; p < b_.k; ++p) {
    if (p == part_[static_cast<std::size_t>(v)] || !fits(p, v)) continue;
    const double l = load(p);
    if (l < best_load) {
      best = p;
      best_load = l;
    }
  }
  return best;
}

// Least cut loss per unit of the weight that relieves the overload first: a heavier vertex at
// the same loss moves more weight. Gains >= 0 come first regardless of weight.
double Refiner::rebalance_priority(std::int32_t v, std::int64_t gain) const {
  if (gain >= 0) return static_cast<double>(gain);
  const std::int64_t* w = g_.weights(v);
  const std::size_t base = b_.at(part_[static_cast<std::size_t>(v)], 0);
  double relief = 0.0;
  for (std::size_t c = 0; c < static_cast<std::size_t>(g_.ncon); ++c)
    if (pw_[base + c] > b_.maxw[base + c]) relief += static_cast<double>(w[c]) * b_.inv_maxw[base + c];
  return static_cast<double>(gain) / std::max(relief, 1e-300);
}

bool Refiner::rebalance() {
  std::int32_t n_over = 0;
  for (part_t p = 0; p < b_.k; ++p) n_over += over(p) ? 1 : 0;
  if (n_over == 0) return true;
  rheap_.resize(g_.n);
  for (std::int32_t v = 0; v < g_.n; ++v) {
    if (!over(part_[static_cast<std::size_t>(v)]) || !helps(v)) continue;
    const Target t = rebalance_target(v);
    rheap_.insert(v, rebalance_priority(v, t.gain));
  }
  while (!rheap_.empty() && n_over > 0) {
    const std::int32_t v = rheap_.top();
    const part_t a = part_[static_cast<std::size_t>(v)];
    if (!over(a) || !helps(v)) {
      rheap_.pop();
      continue;
    }
    Target t = rebalance_target(v);
    const double key = rebalance_priority(v, t.gain);
    if (key < rheap_.top_key()) {
      rheap_.update(v, key);
      continue;
    }
    rheap_.pop();
    if (t.part == kAnyPart) t.part = lightest_fitting(v);
    if (t.part < 0) continue;  // nowhere to go: this vertex cannot relieve its part
    // Target parts are never overloaded by a move (fits), so each vertex moves at most once.
    move(v, t.part);
    if (!over(a)) --n_over;
    for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) {
      const std::int32_t u = g_.nbr(e);
      if (!rheap_.contains(u)) continue;
      const Target tu = rebalance_target(u);
      rheap_.update(u, rebalance_priority(u, tu.gain));
    }
  }
  rheap_.clear();
  return n_over == 0;
}

// Change of part p's potential (sum over constraints of the squared relative excess over the
// target) when the weights `add` are added and `sub` removed (either may be null).
double Refiner::potential_change(part_t p, const std::int64_t* add, const std::int64_t* sub) const {
  const std::size_t base = b_.at(p, 0);
  double d = 0.0;
  for (std::size_t c = 0; c < static_cast<std::size_t>(g_.ncon); ++c) {
    const std::int64_t delta = (add ? add[c] : 0) - (sub ? sub[c] : 0);
    if (delta == 0) continue;
    static const bool over_bound = std::getenv("ML_POTB") != nullptr;
    const double t = over_bound ? static_cast<double>(b_.maxw[base + c]) : b_.target[base + c], inv = 1.0 / std::max(t, 1e-300);
    const double before = std::max(static_cast<double>(pw_[base + c]) - t, 0.0) * inv;
    const double after = std::max(static_cast<double>(pw_[base + c] + delta) - t, 0.0) * inv;
    d += after * after - before * before;
  }
  return d;
}

// A tabu search on the potential, for when no single move into a part with room exists (tight
// constraints: every part near its bound in one of them). Each step applies the best move (out
// of any part above its target on small graphs, else out of the worst part) or exchange of a
// vertex of the worst part with a lighter one elsewhere, scored by the potential change and the
// edge weight lost; uphill steps are allowed, and moved vertices are tabu for a while, so the
// search can pass through states where a part at its bound takes weight and hands other weight
// on. The best state seen (lowest worst excess over a bound, then potential) is kept.
bool Refiner::exchange_rebalance() {
  if (within_bounds(b_, pw_)) return true;
  repaired_ = true;
  const std::int32_t n = g_.n;
  std::int64_t wsum = 0;
  for (std::int64_t w : g_.adjwgt) wsum += w;
  const double mean_edge = g_.adjwgt.empty() ? 1.0 : std::max(1.0, static_cast<double>(wsum) / static_cast<double>(g_.adjwgt.size()));
  // Lower is better: relief per edge weight lost downhill, cost times edge weight lost uphill.
  auto score = [&](double delta, std::int64_t gain) {
    static const double ex = std::getenv("ML_LEXP") ? std::atof(std::getenv("ML_LEXP")) : 1.0;
    static const double bonus = std::getenv("ML_LBON") ? std::atof(std::getenv("ML_LBON")) : 0.0;
    double loss = std::pow(1.0 + static_cast<double>(std::max<std::int64_t>(-gain, 0)) / mean_edge, ex);
    if (gain > 0) loss /= 1.0 + bonus * static_cast<double>(gain) / mean_edge;
    return delta < 0.0 ? delta / loss : delta * loss;
  };
  const auto kk = static_cast<std::size_t>(b_.k);
  const bool exchanges = n <= kExchangeMaxVertices && static_cast<std::int64_t>(n) * b_.k <= kSwapMaxTable;
  static const bool xall = std::getenv("ML_XALL") != nullptr;
  static const bool no_even = std::getenv("ML_NOEVEN") != nullptr;
  const bool everywhere = n <= kEveningMaxVertices && !no_even;
  auto above_target = [&](part_t a, std::int32_t v) {
    for (int c = 0; c < g_.ncon; ++c) {
      const std::size_t i = b_.at(a, c);
      if (g_.weight(v, c) > 0 && static_cast<double>(pw_[i]) > b_.target[i]) return true;
    }
    return false;
  };
  auto potential = [&]() {
    double phi = 0.0;
    static const bool over_bound = std::getenv("ML_POTB") != nullptr;
    for (std::size_t i = 0; i < pw_.size(); ++i) {
      const double t = over_bound ? static_cast<double>(b_.maxw[i]) : b_.target[i];
      const double x = std::max(static_cast<double>(pw_[i]) - t, 0.0) / std::max(t, 1e-300);
      phi += x * x;
    }
    return phi;
  };
  // The worst excess over a bound, relative to the bound (<= 0: every bound holds).
  auto worst_excess = [&](part_t& p, int& cw) {
    double worst = -std::numeric_limits<double>::infinity();
    for (part_t q = 0; q < b_.k; ++q)
      for (int c = 0; c < g_.ncon; ++c) {
        const std::size_t i = b_.at(q, c);
        const double ov = static_cast<double>(pw_[i] - b_.maxw[i]) * b_.inv_maxw[i];
        if (ov > worst) {
          worst = ov;
          p = q;
          cw = c;
        }
      }
    return worst;
  };
  // conn[u * k + q]: edge weight from u to part q (exchanges only), kept up to date by `shift`.
  std::vector<std::int64_t> conn;
  if (exchanges) {
    conn.assign(static_cast<std::size_t>(n) * kk, 0);
    for (std::int32_t u = 0; u < n; ++u)
      for (std::int64_t e = g_.begin(u); e < g_.end(u); ++e)
        conn[static_cast<std::size_t>(u) * kk + static_cast<std::size_t>(part_[static_cast<std::size_t>(g_.nbr(e))])] += g_.ewgt(e);
  }
  auto cn = [&](std::int32_t u, part_t q) { return conn[static_cast<std::size_t>(u) * kk + static_cast<std::size_t>(q)]; };
  auto shift = [&](std::int32_t v, part_t to) {
    if (exchanges) {
      const part_t from = part_[static_cast<std::size_t>(v)];
      for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) {
        conn[static_cast<std::size_t>(g_.nbr(e)) * kk + static_cast<std::size_t>(from)] -= g_.ewgt(e);
        conn[static_cast<std::size_t>(g_.nbr(e)) * kk + static_cast<std::size_t>(to)] += g_.ewgt(e);
      }
    }
    move(v, to);
  };
  std::vector<std::int64_t> adj_w(static_cast<std::size_t>(n), 0);
  std::vector<std::int64_t> tabu_until(static_cast<std::size_t>(n), -1);
  std::vector<part_t> best_parts(part_.begin(), part_.end());
  part_t p = 0;
  int cw = 0;
  double best_excess = worst_excess(p, cw), best_phi = potential();
  static const std::int64_t ten = std::getenv("ML_TENURE") ? std::atoi(std::getenv("ML_TENURE")) : kTabuTenure;
  const std::int64_t tenure = std::min<std::int64_t>(ten, n / 4 + 1);
  const std::int64_t steps = std::min<std::int64_t>(kTabuSteps, 50 * static_cast<std::int64_t>(n) + 100);
  std::int64_t since_best = 0;
  for (std::int64_t step = 0; step < steps && since_best < kTabuPatience; ++step) {
    const double excess = worst_excess(p, cw);
    double best = std::numeric_limits<double>::infinity();
    std::int32_t bv = -1, bu = -1;
    part_t bq = -1;
    for (std::int32_t v = 0; v < n; ++v) {
      const part_t a = part_[static_cast<std::size_t>(v)];
      if (tabu_until[static_cast<std::size_t>(v)] >= step) continue;
      if (a != p && !(everywhere && above_target(a, v))) continue;
      const std::int64_t* wv = g_.weights(v);
      const std::int64_t internal = scan(v);
      const double leave = potential_change(a, nullptr, wv);
      for (part_t q = 0; q < b_.k; ++q) {
        if (q == a) continue;
        const double delta = leave + potential_change(q, wv, nullptr);
        // Away from the worst part only downhill steps: level ones would wander forever.
        if (a != p && delta >= -1e-12) continue;
        static const bool adj_only = std::getenv("ML_ADJ") != nullptr;
        if (adj_only && conn_[static_cast<std::size_t>(q)] == 0) continue;
        const double sc = score(delta, conn_[static_cast<std::size_t>(q)] - internal);
        if (sc < best) {
          best = sc;
          bv = v;
          bu = -1;
          bq = q;
        }
      }
      if (exchanges && (a == p ? g_.weight(v, cw) > 0 : xall && helps(v))) {
        for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) adj_w[static_cast<std::size_t>(g_.nbr(e))] += g_.ewgt(e);
        for (std::int32_t u = 0; u < n; ++u) {
          const part_t q = part_[static_cast<std::size_t>(u)];
          if (q == a || tabu_until[static_cast<std::size_t>(u)] >= step) continue;
          const std::int64_t* wu = g_.weights(u);
          if (a == p && wu[cw] >= wv[cw]) continue;
          const double delta = potential_change(a, wu, wv) + potential_change(q, wv, wu);
          if (a != p && delta >= -1e-12) continue;
          const std::int64_t gain = (cn(v, q) - cn(v, a)) + (cn(u, a) - cn(u, q)) - 2 * adj_w[static_cast<std::size_t>(u)];
          const double sc = score(delta, gain);
          if (sc < best) {
            best = sc;
            bv = v;
            bu = u;
            bq = q;
          }
        }
        for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) adj_w[static_cast<std::size_t>(g_.nbr(e))] = 0;
      }
      reset_scan();
    }
    if (bv < 0) break;  // everything is tabu
    if (std::getenv("ML_DEBUG3") && (step < 40 || step % 50 == 0)) {
      std::fprintf(stderr, "    step %lld worst p=%d c=%d ex=%.4f phi=%.5f pw=", static_cast<long long>(step), p, cw, excess, potential());
      for (int c = 0; c < g_.ncon; ++c) std::fprintf(stderr, "%lld/%lld ", static_cast<long long>(pw_[b_.at(p, c)]), static_cast<long long>(b_.maxw[b_.at(p, c)]));
      std::fprintf(stderr, " best=%g v=%d (%lld,%lld) u=%d q=%d\n", best, bv, static_cast<long long>(g_.weight(bv,0)), static_cast<long long>(g_.ncon>1?g_.weight(bv,1):0), bu, bq);
    }
    const part_t from = part_[static_cast<std::size_t>(bv)];
    shift(bv, bq);
    tabu_until[static_cast<std::size_t>(bv)] = step + tenure;
    if (bu >= 0) {
      shift(bu, from);
      tabu_until[static_cast<std::size_t>(bu)] = step + tenure;
    }
    part_t q0 = 0;
    int c0 = 0;
    const double ex = worst_excess(q0, c0), phi = potential();
    if (ex < best_excess - 1e-12 || (ex <= best_excess + 1e-12 && phi < best_phi - 1e-12)) {
      best_excess = ex;
      best_phi = phi;
      std::copy(part_.begin(), part_.end(), best_parts.begin());
      since_best = 0;
      if (ex <= 0.0) break;
    } else {
      ++since_best;
    }
  }
  std::copy(best_parts.begin(), best_parts.end(), part_.begin());
  pw_ = graphk::part_weights(g_, part_, b_.k);
  return within_bounds(b_, pw_);
}

void Refiner::fill_empty_parts() {
  if (g_.n < b_.k) return;
  std::vector<std::int32_t> count(static_cast<std::size_t>(b_.k), 0);
  for (part_t p : part_) ++count[static_cast<std::size_t>(p)];
  for (part_t p = 0; p < b_.k; ++p) {
    if (count[static_cast<std::size_t>(p)] > 0) continue;
    // The vertex whose move cuts least (its edges inside its part), among those from parts
    // with two or more vertices; vertices that fit p's bound first.
    std::int32_t best = -1;
    bool best_fits = false;
    std::int64_t best_cost = 0;
    for (std::int32_t v = 0; v < g_.n; ++v) {
      const part_t a = part_[static_cast<std::size_t>(v)];
      if (count[static_cast<std::size_t>(a)] < 2) continue;
      const bool f = fits(p, v);
      if (best >= 0 && best_fits && !f) continue;
      std::int64_t internal = 0;
      for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e)
        if (part_[static_cast<std::size_t>(g_.nbr(e))] == a) internal += g_.ewgt(e);
      if (best < 0 || (f && !best_fits) || internal < best_cost) {
        best = v;
        best_fits = f;
        best_cost = internal;
      }
    }
    if (best < 0) return;  // cannot happen with n >= k
    --count[static_cast<std::size_t>(part_[static_cast<std::size_t>(best)])];
    ++count[static_cast<std::size_t>(p)];
    move(best, p);
  }
}

std::int64_t Refiner::swap_pass() {
  const std::int32_t n = g_.n;
  const auto k = static_cast<std::size_t>(b_.k);
  if (static_cast<std::int64_t>(n) * b_.k > kSwapMaxTable) return 0;
  // conn[v * k + p]: edge weight from v to part p.
  std::vector<std::int64_t> conn(static_cast<std::size_t>(n) * k, 0);
  for (std::int32_t v = 0; v < n; ++v)
    for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e)
      conn[static_cast<std::size_t>(v) * k + static_cast<std::size_t>(part_[static_cast<std::size_t>(g_.nbr(e))])] += g_.ewgt(e);
  auto c = [&](std::int32_t v, part_t p) -> std::int64_t& { return conn[static_cast<std::size_t>(v) * k + static_cast<std::size_t>(p)]; };
  auto shift = [&](std::int32_t v, part_t from, part_t to) {
    for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) {
      c(g_.nbr(e), from) -= g_.ewgt(e);
      c(g_.nbr(e), to) += g_.ewgt(e);
    }
    move(v, to);
  };
  // After the exchange a holds w(a) - w(v) + w(u) and b the reverse: both within bounds.
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
  std::int64_t total = 0;
  for (int pass = 0; pass < 8; ++pass) {
    std::int64_t gained = 0;
    for (std::int32_t v = 0; v < n; ++v) {
      const part_t a = part_[static_cast<std::size_t>(v)];
      if (c(v, a) == g_.end(v) - g_.begin(v) && g_.end(v) > g_.begin(v) && false) continue;
      std::int64_t best = 0;
      std::int32_t bu = -1;
      for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) adj_w[static_cast<std::size_t>(g_.nbr(e))] += g_.ewgt(e);
      for (std::int32_t u = 0; u < n; ++u) {
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

void Refiner::enlist(std::int32_t v) {
  if (in_list_[static_cast<std::size_t>(v)]) return;
  in_list_[static_cast<std::size_t>(v)] = 1;
  list_.push_back(v);
}

std::int64_t Refiner::collect_boundary() {
  in_list_.assign(static_cast<std::size_t>(g_.n), 0);
  std::int64_t cut = 0;
#pragma omp parallel for schedule(static) reduction(+ : cut)
  for (std::int32_t v = 0; v < g_.n; ++v) {
    const part_t a = part_[static_cast<std::size_t>(v)];
    for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e)
      if (part_[static_cast<std::size_t>(g_.nbr(e))] != a) {
        cut += g_.ewgt(e);
        in_list_[static_cast<std::size_t>(v)] = 1;
      }
  }
  list_.clear();
  for (std::int32_t v = 0; v < g_.n; ++v)
    if (in_list_[static_cast<std::size_t>(v)]) list_.push_back(v);
  return cut / 2;
}

void Refiner::refine(const RefineParams& params) {
  const double i0 = max_imbalance(b_, pw_);
  const bool r1 = rebalance();
  const double i1 = max_imbalance(b_, pw_);
  bool r2 = true;
  if (!r1) r2 = exchange_rebalance();
  const double i2 = max_imbalance(b_, pw_);
  if (!r1 && r2) rebalance();
  if (std::getenv("ML_DEBUG")) {
    std::int64_t cc = 0;
    for (std::int32_t v = 0; v < g_.n; ++v) for (std::int64_t e = g_.begin(v); e < g_.end(v); ++e) if (part_[static_cast<std::size_t>(g_.nbr(e))] != part_[static_cast<std::size_t>(v)]) cc += g_.ewgt(e);
    std::fprintf(stderr, "   bal %.4f -> %.4f -> %.4f  cut after balancing %lld\n", i0, i1, i2, static_cast<long long>(cc / 2));
  }
  fill_empty_parts();
  std::int64_t cut = collect_boundary();
  const std::int64_t stall =
      params.fm_stall > 0 ? params.fm_stall : std::clamp<std::int64_t>(g_.n / 100, 50, 1000);
  for (int r = 0; r < params.fm_rounds && cut > 0; ++r) {
    const std::int64_t gain = fm_pass(stall);
    cut -= gain;
    if (static_cast<double>(gain) <= params.min_round_gain * static_cast<double>(cut + gain)) break;
  }
  if (!within_bounds(b_, pw_) && !rebalance()) exchange_rebalance();
  static const bool swaps = std::getenv("ML_SWAP") != nullptr;
  if (swaps && g_.ncon > 1) {
    const std::int64_t sg = swap_pass();
    if (sg > 0) {
      collect_boundary();
      for (int r = 0; r < params.fm_rounds; ++r)
        if (fm_pass(stall) == 0) break;
    }
    if (std::getenv("ML_DEBUG")) std::fprintf(stderr, "   swap gain %lld\n", static_cast<long long>(sg));
  }
}

}  // namespace hpart::graphk
