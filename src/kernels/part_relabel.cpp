#include "kernels/part_relabel.hpp"

#include <algorithm>

namespace hpart::repart {

std::vector<int> relabel_by_overlap(int num_parts, std::vector<Overlap> overlaps) {
  std::sort(overlaps.begin(), overlaps.end(), [](const Overlap& a, const Overlap& b) {
    if (a.weight != b.weight) return a.weight > b.weight;
    if (a.old_part != b.old_part) return a.old_part < b.old_part;
    return a.new_part < b.new_part;
  });
  const std::size_t k = static_cast<std::size_t>(num_parts);
  std::vector<int> label(k, -1);
  std::vector<char> used(k, 0);
  for (const Overlap& o : overlaps) {
    if (o.weight <= 0.0) break;
    if (label[static_cast<std::size_t>(o.new_part)] >= 0 || used[static_cast<std::size_t>(o.old_part)]) continue;
    label[static_cast<std::size_t>(o.new_part)] = o.old_part;
    used[static_cast<std::size_t>(o.old_part)] = 1;
  }
  std::size_t next = 0;
  for (std::size_t p = 0; p < k; ++p) {
    if (label[p] >= 0) continue;
    while (used[next]) ++next;
    label[p] = static_cast<int>(next);
    used[next] = 1;
  }
  return label;
}

}  // namespace hpart::repart
