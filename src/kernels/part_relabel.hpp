#pragma once
// Relabelling a fresh partition so that most weight keeps its part (as Zoltan's REMAP does):
// a greedy maximum-weight matching of new parts to old labels on their overlap. MPI-free.
#include <span>
#include <vector>

namespace hpart::repart {

struct Overlap {
  int old_part = 0, new_part = 0;
  double weight = 0.0;  // weight of the objects in old_part before and in new_part after
};

// label[new_part] = the old label it takes. Heaviest overlaps first, each old and new part used
// once (a 1/2-approximation of the maximum matching, exact on the small cases the tests check);
// unmatched new parts take the unused labels in increasing order. Ties by (old, new) so every
// rank computes the same map.
std::vector<int> relabel_by_overlap(int num_parts, std::vector<Overlap> overlaps);

}  // namespace hpart::repart
