#include "kernels/hilbert_tables.hpp"

#include <cstddef>

#include "kernels/hilbert_level.hpp"

namespace hpart::geometry::hilbert {
namespace {

// Every (entry, direction) pair is a candidate; only those reachable from the root matter.
template <std::uint32_t Dim>
struct ReachableStates {
  std::array<LevelState, (std::size_t{1} << Dim) * Dim> states{};
  std::uint32_t count = 0;

  [[nodiscard]] constexpr std::uint32_t index_of(LevelState s) const {
    for (std::uint32_t i = 0; i < count; ++i)
      if (states[i] == s) return i;
    return count;
  }
};

template <std::uint32_t Dim>
constexpr ReachableStates<Dim> find_reachable_states() {
  ReachableStates<Dim> set;
  set.states[set.count++] = LevelState{};  // the root is state 0
  for (std::uint32_t done = 0; done < set.count; ++done) {
    for (std::uint32_t octant = 0; octant < (1u << Dim); ++octant) {
      const LevelState next = level_step(set.states[done], octant, Dim).next;
      if (set.index_of(next) == set.count) set.states[set.count++] = next;
    }
  }
  return set;
}

template <std::uint32_t Dim, std::uint32_t Levels, std::uint32_t States>
constexpr std::array<std::uint16_t, (States << (Dim * Levels))> make_step_table() {
  constexpr ReachableStates<Dim> reachable = find_reachable_states<Dim>();
  static_assert(reachable.count == States, "state count in hilbert_tables.hpp is stale");
  constexpr std::uint32_t chunk_bits = Dim * Levels;
  static_assert((States << chunk_bits) <= 0x10000u, "entries must fit 16 bits");
  constexpr std::uint32_t octant_mask = (1u << Dim) - 1u;

  std::array<std::uint16_t, (States << chunk_bits)> table{};
  for (std::uint32_t s = 0; s < States; ++s) {
    for (std::uint32_t chunk = 0; chunk < (1u << chunk_bits); ++chunk) {
      LevelState state = reachable.states[s];
      std::uint32_t digits = 0;
      for (std::uint32_t level = Levels; level-- > 0;) {
        const LevelStep step = level_step(state, (chunk >> (Dim * level)) & octant_mask, Dim);
        digits = (digits << Dim) | step.digit;
        state = step.next;
      }
      table[(s << chunk_bits) | chunk] =
          static_cast<std::uint16_t>((reachable.index_of(state) << chunk_bits) | digits);
    }
  }
  return table;
}

}  // namespace

constinit const std::array<std::uint16_t, (kStates2d << kChunkBits2d)> kStepTable2d =
    make_step_table<2, kLevelsPerStep2d, kStates2d>();
constinit const std::array<std::uint16_t, (kStates3d << kChunkBits3d)> kStepTable3d =
    make_step_table<3, kLevelsPerStep3d, kStates3d>();

}  // namespace hpart::geometry::hilbert
