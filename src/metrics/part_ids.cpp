#include "metrics/part_ids.hpp"

namespace hpart::detail {

std::size_t first_bad_part(std::span<const part_t> ids, int parts) {
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] < 0 || ids[i] >= parts) return i;
  return ids.size();
}

std::string check_part_ids(std::span<const part_t> ids, int parts) {
  const std::size_t i = first_bad_part(ids, parts);
  if (i == ids.size()) return {};
  return "part " + std::to_string(ids[i]) + " of local object " + std::to_string(i) + " is outside [0, " +
         std::to_string(parts) + ")";
}

}  // namespace hpart::detail
