#pragma once
// A small seeded generator (splitmix64) with explicit bounded draws: the standard library's
// distributions are implementation-defined, and the partition must be the same everywhere.
#include <cstdint>
#include <vector>

namespace hpart::graphk {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) for n >= 1 (Lemire's multiply-shift; the bias is below 2^-32 for n < 2^32).
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }

 private:
  std::uint64_t state_;
};

}  // namespace hpart::graphk
