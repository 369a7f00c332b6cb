#pragma once
// The flow of load between neighbouring parts that removes a given excess with the least
// (capacity-weighted) 2-norm of movement: Hu & Blake's diffusion solution, L x = b on the part
// graph's weighted Laplacian, flow(p -> q) = c_pq (x_p - x_q). MPI-free.
#include <span>
#include <vector>

namespace hpart::repart {

struct PartEdge {
  int p = 0, q = 0;       // p < q
  double capacity = 1.0;  // > 0: how large the interface is; flow prefers large interfaces
};

// excess[p] = load_p - target_p (the sum over each connected component is moved to zero: load
// cannot cross between components). Returns one flow per edge, positive from p to q. Conjugate
// gradients to a relative residual of 1e-10.
std::vector<double> diffusion_flow(int num_parts, std::span<const PartEdge> edges, std::span<const double> excess);

}  // namespace hpart::repart

namespace hpart::repart {

// The flow that moves each source's supply (excess > 0) to sinks (excess < 0: demand) along
// fewest-hop paths, nearest pairs first (a greedy min-cost flow with unit cost per hop; among
// equally short paths the one through the largest interfaces). Total movement, sum over edges of
// |flow|, is what migrates; the 2-norm optimum above spreads the flow over many parallel paths
// and moves more. Demand may exceed supply (sinks are then filled nearest first); supply beyond
// the reachable demand stays.
std::vector<double> transport_flow(int num_parts, std::span<const PartEdge> edges, std::span<const double> excess);

// The same with a limit on each edge and direction (cap_pq[k]: most that may flow p -> q on edge
// k, cap_qp[k] the other way; e.g. the weight of the boundary layer that can move): pairs are
// served nearest first along fewest-hop paths with room, and each path carries at most its
// bottleneck. Supply no path with room can carry is then routed as above, ignoring the limits.
std::vector<double> transport_flow(int num_parts, std::span<const PartEdge> edges, std::span<const double> excess,
                                   std::span<const double> cap_pq, std::span<const double> cap_qp);

}  // namespace hpart::repart
