#include "kernels/diffusion_flow.hpp"

#include <cmath>

namespace hpart::repart {

namespace {

// Connected components of the part graph (labels 0..), by union-find.
std::vector<int> components(int n, std::span<const PartEdge> edges, int& count) {
  std::vector<int> parent(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) parent[static_cast<std::size_t>(i)] = i;
  auto find = [&](int x) {
    while (parent[static_cast<std::size_t>(x)] != x)
      x = parent[static_cast<std::size_t>(x)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
    return x;
  };
  for (const PartEdge& e : edges) parent[static_cast<std::size_t>(find(e.p))] = find(e.q);
  std::vector<int> label(static_cast<std::size_t>(n), -1), comp(static_cast<std::size_t>(n));
  count = 0;
  for (int i = 0; i < n; ++i) {
    const int r = find(i);
    if (label[static_cast<std::size_t>(r)] < 0) label[static_cast<std::size_t>(r)] = count++;
    comp[static_cast<std::size_t>(i)] = label[static_cast<std::size_t>(r)];
  }
  return comp;
}

}  // namespace

std::vector<double> diffusion_flow(int num_parts, std::span<const PartEdge> edges, std::span<const double> excess) {
  const std::size_t n = static_cast<std::size_t>(num_parts);
  int ncomp = 0;
  const std::vector<int> comp = components(num_parts, edges, ncomp);
  std::vector<double> csum(static_cast<std::size_t>(ncomp), 0.0), ccount(static_cast<std::size_t>(ncomp), 0.0);
  for (std::size_t i = 0; i < n; ++i) csum[static_cast<std::size_t>(comp[i])] += excess[i], ccount[static_cast<std::size_t>(comp[i])] += 1;
  std::vector<double> b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = excess[i] - csum[static_cast<std::size_t>(comp[i])] / ccount[static_cast<std::size_t>(comp[i])];

  // Removes each component's mean: the Laplacian's null space, so CG stays in its range.
  auto project = [&](std::vector<double>& v) {
    std::vector<double> s(static_cast<std::size_t>(ncomp), 0.0);
    for (std::size_t i = 0; i < n; ++i) s[static_cast<std::size_t>(comp[i])] += v[i];
    for (std::size_t i = 0; i < n; ++i) v[i] -= s[static_cast<std::size_t>(comp[i])] / ccount[static_cast<std::size_t>(comp[i])];
  };
  auto apply = [&](const std::vector<double>& v, std::vector<double>& out) {
    out.assign(n, 0.0);
    for (const PartEdge& e : edges) {
      const double f = e.capacity * (v[static_cast<std::size_t>(e.p)] - v[static_cast<std::size_t>(e.q)]);
      out[static_cast<std::size_t>(e.p)] += f;
      out[static_cast<std::size_t>(e.q)] -= f;
    }
  };
  auto dot = [&](const std::vector<double>& a, const std::vector<double>& c) {
    double s = 0.0;
    for (std::size_t i = 0; i < n; ++i) s += a[i] * c[i];
    return s;
  };

  std::vector<double> x(n, 0.0), r = b, d = b, Ad;
  double rr = dot(r, r);
  const double stop = 1e-20 * rr;
  for (std::size_t it = 0; it < 20 * n + 100 && rr > stop && rr > 0.0; ++it) {
    apply(d, Ad);
    const double dAd = dot(d, Ad);
    if (!(dAd > 0.0)) break;
    const double alpha = rr / dAd;
    for (std::size_t i = 0; i < n; ++i) x[i] += alpha * d[i], r[i] -= alpha * Ad[i];
    project(r);
    const double rr_new = dot(r, r);
    for (std::size_t i = 0; i < n; ++i) d[i] = r[i] + (rr_new / rr) * d[i];
    rr = rr_new;
  }
  std::vector<double> flow(edges.size());
  for (std::size_t k = 0; k < edges.size(); ++k)
    flow[k] = edges[k].capacity * (x[static_cast<std::size_t>(edges[k].p)] - x[static_cast<std::size_t>(edges[k].q)]);
  return flow;
}

}  // namespace hpart::repart

#include <algorithm>
#include <limits>
#include <queue>
#include <tuple>

namespace hpart::repart {

namespace {

// Per part, its (neighbour, edge index) pairs by decreasing interface capacity, so that BFS trees
// prefer large interfaces.
std::vector<std::vector<std::pair<int, std::size_t>>> adjacency_by_capacity(std::size_t n,
                                                                            std::span<const PartEdge> edges) {
  std::vector<std::vector<std::pair<int, std::size_t>>> adj(n);
  for (std::size_t k = 0; k < edges.size(); ++k) {
    adj[static_cast<std::size_t>(edges[k].p)].push_back({edges[k].q, k});
    adj[static_cast<std::size_t>(edges[k].q)].push_back({edges[k].p, k});
  }
  for (auto& a : adj)
    std::sort(a.begin(), a.end(), [&](const auto& x, const auto& y) {
      return edges[x.second].capacity != edges[y.second].capacity ? edges[x.second].capacity > edges[y.second].capacity
                                                                  : x.first < y.first;
    });
  return adj;
}

}  // namespace

std::vector<double> transport_flow(int num_parts, std::span<const PartEdge> edges, std::span<const double> excess) {
  const std::size_t n = static_cast<std::size_t>(num_parts);
  const auto adj = adjacency_by_capacity(n, edges);
  std::vector<double> supply(n), demand(n);
  for (std::size_t p = 0; p < n; ++p) supply[p] = std::max(0.0, excess[p]), demand[p] = std::max(0.0, -excess[p]);
  // BFS tree from every source: hop distance and parent edge.
  std::vector<std::vector<int>> dist(n), parent(n);
  std::vector<std::tuple<int, int, int>> pairs;  // (hops, source, sink)
  for (std::size_t s = 0; s < n; ++s) {
    if (!(supply[s] > 0.0)) continue;
    dist[s].assign(n, -1);
    parent[s].assign(n, -1);
    std::queue<int> q;
    dist[s][s] = 0;
    q.push(static_cast<int>(s));
    while (!q.empty()) {
      const int u = q.front();
      q.pop();
      for (const auto& [v, k] : adj[static_cast<std::size_t>(u)])
        if (dist[s][static_cast<std::size_t>(v)] < 0) {
          dist[s][static_cast<std::size_t>(v)] = dist[s][static_cast<std::size_t>(u)] + 1;
          parent[s][static_cast<std::size_t>(v)] = static_cast<int>(k);
          q.push(v);
        }
    }
    for (std::size_t t = 0; t < n; ++t)
      if (demand[t] > 0.0 && dist[s][t] > 0) pairs.emplace_back(dist[s][t], static_cast<int>(s), static_cast<int>(t));
  }
  std::sort(pairs.begin(), pairs.end());
  std::vector<double> flow(edges.size(), 0.0);
  for (const auto& [hops, s, t] : pairs) {
    const auto su = static_cast<std::size_t>(s), tu = static_cast<std::size_t>(t);
    const double x = std::min(supply[su], demand[tu]);
    if (!(x > 0.0)) continue;
    supply[su] -= x, demand[tu] -= x;
    for (int v = t; v != s;) {  // walk the BFS tree back from the sink
      const auto k = static_cast<std::size_t>(parent[su][static_cast<std::size_t>(v)]);
      const int u = edges[k].p == v ? edges[k].q : edges[k].p;
      flow[k] += edges[k].p == u ? x : -x;  // positive from p to q
      v = u;
    }
  }
  return flow;
}

std::vector<double> transport_flow(int num_parts, std::span<const PartEdge> edges, std::span<const double> excess,
                                   std::span<const double> cap_pq, std::span<const double> cap_qp) {
  const std::size_t n = static_cast<std::size_t>(num_parts);
  const auto adj = adjacency_by_capacity(n, edges);
  std::vector<double> supply(n), demand(n);
  double total = 0.0;
  for (std::size_t p = 0; p < n; ++p)
    supply[p] = std::max(0.0, excess[p]), demand[p] = std::max(0.0, -excess[p]), total += supply[p];
  const double eps = 1e-12 * (total > 0.0 ? total : 1.0);
  std::vector<double> flow(edges.size(), 0.0);
  // Room left from u to v on edge k (flow the other way may be undone).
  auto room = [&](std::size_t k, int u) {
    return edges[k].p == u ? cap_pq[k] - flow[k] : cap_qp[k] + flow[k];
  };
  std::vector<int> dist(n), parent(n);
  // Successive nearest pairs: each step, BFS from every source with supply over edges with room,
  // and push along the globally nearest source-sink pair. Each push empties a source, fills a
  // sink or saturates an edge, so at most K + 2E pushes.
  for (std::size_t step = 0; step < 2 * n + 4 * edges.size() + 4; ++step) {
    int best_s = -1, best_t = -1, best_d = std::numeric_limits<int>::max();
    std::vector<int> best_parent;
    for (std::size_t s = 0; s < n; ++s) {
      if (!(supply[s] > eps)) continue;
      std::fill(dist.begin(), dist.end(), -1);
      dist[s] = 0;
      std::queue<int> q;
      q.push(static_cast<int>(s));
      int found = -1;
      while (!q.empty() && found < 0) {
        const int u = q.front();
        q.pop();
        for (const auto& [v, k] : adj[static_cast<std::size_t>(u)]) {
          const auto vu = static_cast<std::size_t>(v);
          if (dist[vu] >= 0 || !(room(k, u) > eps)) continue;
          dist[vu] = dist[static_cast<std::size_t>(u)] + 1;
          parent[vu] = static_cast<int>(k);
          if (demand[vu] > eps) {
            found = v;
            break;
          }
          q.push(v);
        }
      }
      if (found >= 0 && dist[static_cast<std::size_t>(found)] < best_d) {
        best_d = dist[static_cast<std::size_t>(found)], best_s = static_cast<int>(s), best_t = found;
        best_parent = parent;
      }
    }
    if (best_s < 0) break;
    double x = std::min(supply[static_cast<std::size_t>(best_s)], demand[static_cast<std::size_t>(best_t)]);
    for (int v = best_t; v != best_s;) {
      const auto k = static_cast<std::size_t>(best_parent[static_cast<std::size_t>(v)]);
      const int u = edges[k].p == v ? edges[k].q : edges[k].p;
      x = std::min(x, room(k, u));
      v = u;
    }
    supply[static_cast<std::size_t>(best_s)] -= x, demand[static_cast<std::size_t>(best_t)] -= x;
    for (int v = best_t; v != best_s;) {
      const auto k = static_cast<std::size_t>(best_parent[static_cast<std::size_t>(v)]);
      const int u = edges[k].p == v ? edges[k].q : edges[k].p;
      flow[k] += edges[k].p == u ? x : -x;
      v = u;
    }
  }
  // What the limits could not carry: the uncapacitated routing of the rest.
  std::vector<double> rest(n);
  bool any = false;
  for (std::size_t p = 0; p < n; ++p) {
    rest[p] = supply[p] > eps ? supply[p] : -demand[p];
    any = any || supply[p] > eps;
  }
  if (any) {
    const std::vector<double> more = transport_flow(num_parts, edges, rest);
    for (std::size_t k = 0; k < flow.size(); ++k) flow[k] += more[k];
  }
  return flow;
}

}  // namespace hpart::repart
