#pragma once
// Strides and interior extents of a padded shard, copied by value into kernels (raw pointer
// arithmetic on the view's data keeps the innermost loops contiguous and vectorisable on CPUs
// while staying valid device code).
#include <algorithm>
#include <cstdint>
#include <string>

#include "hpart/error.hpp"
#include "hpart/tensor/layer_kernels.hpp"

// A vectorised sum on host compilers with OpenMP SIMD (float reductions are not vectorised
// otherwise, since that reorders the additions); a plain loop in device code.
#define HPART_PRAGMA(x) _Pragma(#x)
#if defined(_OPENMP) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define HPART_SIMD_SUM(v) HPART_PRAGMA(omp simd reduction(+ : v))
#else
#define HPART_SIMD_SUM(v)
#endif

namespace hpart::tensor::kernels::detail {

struct Geometry {
  std::int64_t n = 0, c = 0, d = 0, h = 0, w = 0;  // interior extents
  std::int64_t hd = 0, hh = 0, hw = 0;             // halo widths
  std::int64_t sn = 0, sc = 0, sd = 0, sh = 0;     // strides (the W stride is 1)

  // Offset of interior cell (n, c, z, i, j); z, i, j may reach into the halo (negative).
  KOKKOS_INLINE_FUNCTION std::int64_t at(std::int64_t nn, std::int64_t cc, std::int64_t z, std::int64_t i,
                                         std::int64_t j) const {
    return nn * sn + cc * sc + (z + hd) * sd + (i + hh) * sh + (j + hw);
  }
  [[nodiscard]] std::int64_t rows() const { return n * c * d * h; }
  // Row r of rows() (one (n, c, z, i), its W cells contiguous), i fastest.
  struct Row {
    std::int64_t n, c, z, i;
  };
  KOKKOS_INLINE_FUNCTION Row row(std::int64_t r) const { return {r / (h * d * c), (r / (h * d)) % c, (r / h) % d, r % h}; }
};

template <class T>
Geometry geometry(const Padded<T>& p) {
  Geometry g;
  g.n = p.n(), g.c = p.c(), g.d = p.d(), g.h = p.h(), g.w = p.w();
  g.hd = p.halo.d, g.hh = p.halo.h, g.hw = p.halo.w;
  g.sh = g.w + 2 * g.hw;
  g.sd = g.sh * (g.h + 2 * g.hh);
  g.sc = g.sd * (g.d + 2 * g.hd);
  g.sn = g.sc * g.c;
  if (p.halo.d < 0 || p.halo.h < 0 || p.halo.w < 0 || g.d < 0 || g.h < 0 || g.w < 0)
    throw Error(ErrorCode::invalid_argument, "padded view smaller than its halo");
  return g;
}

using Policy = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<std::int64_t>>;
inline Policy range(std::int64_t n) { return Policy(0, n); }

inline void require(bool ok, const std::string& what) {
  if (!ok) throw Error(ErrorCode::invalid_argument, what);
}

inline std::string dims_str(std::int64_t a, std::int64_t b, std::int64_t c) {
  return std::to_string(a) + "x" + std::to_string(b) + "x" + std::to_string(c);
}

// How conv_backward_weights cuts its rows into blocks of fixed-order partial sums: at most 1024
// blocks of >= 4 rows, and at most kConvPartialDoubles partial sums in all (nv per block: weights
// and bias), so that a layer with many weights needs no more scratch than that (or one block).
inline constexpr std::int64_t kConvPartialDoubles = std::int64_t{1} << 23;  // 64 MiB
struct ConvBlocks {
  std::int64_t per_block = 4, blocks = 0;
};
inline ConvBlocks conv_weight_blocks(std::int64_t rows, std::int64_t nv) {
  const std::int64_t most = std::max<std::int64_t>(1, std::min<std::int64_t>(1024, kConvPartialDoubles / std::max<std::int64_t>(nv, 1)));
  ConvBlocks b;
  b.per_block = std::max<std::int64_t>(4, (rows + most - 1) / most);
  b.blocks = (rows + b.per_block - 1) / b.per_block;
  return b;
}

// The 2x factors of pooling and upsampling per spatial dim (D is left alone in 2-D).
struct Factors {
  std::int64_t d = 1, h = 2, w = 2;
};

inline Factors factors(int spatial_dims, const char* layer) {
  require(spatial_dims == 2 || spatial_dims == 3,
          std::string(layer) + ": spatial_dims must be 2 or 3 (got " + std::to_string(spatial_dims) + ")");
  return {spatial_dims == 3 ? 2 : 1, 2, 2};
}

// A 2x resampling between a fine and a coarse padded view (pool2: x fine, y coarse; upsample2:
// x coarse, y fine): the factors and both geometries, checked alike (same batch and channels,
// fine = coarse x factors; pooling first names fine extents that the factors do not divide).
enum class Resample { pool, upsample };
struct Resampling {
  Factors f;
  Geometry fine, coarse;
};
template <class T>
Resampling resampling(Resample op, int spatial_dims, const Padded<T>& fine, const Padded<T>& coarse) {
  const bool pool = op == Resample::pool;
  const std::string what = pool ? "pool2" : "upsample2";
  const Factors f = factors(spatial_dims, what.c_str());
  const Geometry gf = geometry(fine), gc = geometry(coarse);
  require(gf.n == gc.n && gf.c == gc.c, what + ": batch or channel extents differ");
  if (pool)
    require(gf.d % f.d == 0 && gf.h % f.h == 0 && gf.w % f.w == 0,
            "pool2: local extents " + dims_str(gf.d, gf.h, gf.w) +
                " are not divisible by 2 (shards must be aligned to the pooling factor)");
  require(gc.d * f.d == gf.d && gc.h * f.h == gf.h && gc.w * f.w == gf.w,
          what + (pool ? ": output extents are not input / 2" : ": output extents are not input x 2"));
  return {f, gf, gc};
}

}  // namespace hpart::tensor::kernels::detail

// The vocabulary of the kernel files.
namespace hpart::tensor::kernels {
using detail::Factors;
using detail::Geometry;
using detail::require;
}  // namespace hpart::tensor::kernels
