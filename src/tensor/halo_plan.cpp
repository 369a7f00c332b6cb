// The halo exchange plan: for each of the up to 26 directions, the halo
// region it fills, and where its values come from (a neighbour, this rank across a periodic axis
// with one shard, or nowhere: zero past a non-periodic edge).
#include <string>

#include "hpart/tensor/halo.hpp"
#include "tensor/layout_data.hpp"

namespace hpart::tensor {
namespace {

// Direction index of an offset over (D, H, W): 0..26, 13 is no offset.
int direction_tag(const std::array<int, kRank>& off) {
  return 9 * (off[kAxisD] + 1) + 3 * (off[kAxisH] + 1) + (off[kAxisW] + 1);
}

}  // namespace

HaloPlan make_halo_plan(const ShardLayout& layout, const Halo& halo) {
  HaloPlan plan;
  if (!halo.any()) return plan;
  const int me = layout.rank();
  const Box& box = layout.local_box();
  if (box.empty()) return plan;  // nothing to send or receive (neighbours along D/H/W are empty too)
  const Index5 n = box.extents(), m = halo.margins();
  const int dmax = layout.shape().spatial_dims == 3 ? 1 : 0;
  for (int dd = -dmax; dd <= dmax; ++dd)
    for (int dh = -1; dh <= 1; ++dh)
      for (int dw = -1; dw <= 1; ++dw) {
        const std::array<int, kRank> off{0, 0, dd, dh, dw};
        if (dd == 0 && dh == 0 && dw == 0) continue;
        bool used = true;
        for (int a = kAxisD; a <= kAxisW; ++a)
          if (off[static_cast<std::size_t>(a)] != 0 && m[static_cast<std::size_t>(a)] == 0) used = false;
        if (!used) continue;
        // halo: the cells of this rank in direction `off`; strip: this rank's interior cells next
        // to its side `off` (what the neighbour there receives, and a periodic self copy's source
        // for the opposite direction).
        LocalRegion halo_region, strip, opposite_strip;
        for (int a = 0; a < kRank; ++a) {
          const auto ua = static_cast<std::size_t>(a);
          const int o = off[ua];
          halo_region.count[ua] = strip.count[ua] = opposite_strip.count[ua] = o == 0 ? n[ua] : m[ua];
          halo_region.lo[ua] = o == 0 ? m[ua] : o < 0 ? 0 : m[ua] + n[ua];
          strip.lo[ua] = o == 0 ? m[ua] : o < 0 ? m[ua] : n[ua];
          opposite_strip.lo[ua] = o == 0 ? m[ua] : o < 0 ? n[ua] : m[ua];
        }
        const int from = layout.neighbour(me, off);
        if (from < 0)
          plan.edge_zeros.push_back(halo_region);
        else if (from == me)
          plan.self_copies.push_back({opposite_strip, halo_region});
        else
          plan.receives.push_back({from, direction_tag(off), halo_region}), plan.receive_elements += halo_region.volume();
        // The neighbour in direction `off` fills its halo in direction -off from this strip.
        const int to = from;  // neighbour(me, off): the same rank
        if (to >= 0 && to != me) {
          const std::array<int, kRank> back{0, 0, -dd, -dh, -dw};
          plan.sends.push_back({to, direction_tag(back), strip});
          plan.send_elements += strip.volume();
        }
      }
  return plan;
}

}  // namespace hpart::tensor
