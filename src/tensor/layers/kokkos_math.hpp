#pragma once
// The Kokkos math functions the layers use, for Kokkos 3.x (Kokkos::Experimental) and 4.x
// (Kokkos::): kmath::erf, kmath::exp, kmath::sqrt, callable in device code.
#include <Kokkos_Core.hpp>

namespace hpart::tensor::kmath {

#if KOKKOS_VERSION >= 40000
using Kokkos::erf;
using Kokkos::exp;
using Kokkos::sqrt;
#else
using Kokkos::Experimental::erf;
using Kokkos::Experimental::exp;
using Kokkos::Experimental::sqrt;
#endif

}  // namespace hpart::tensor::kmath
