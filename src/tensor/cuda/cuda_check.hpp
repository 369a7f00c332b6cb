#pragma once
// CUDA errors become hpart::Error(internal) with the call site's words.
#include <cuda_runtime.h>

#include <string>

#include "hpart/error.hpp"

namespace hpart::tensor::cuda::detail {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw Error(ErrorCode::internal, std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}

inline unsigned blocks_for(std::int64_t n, unsigned threads) {
  return static_cast<unsigned>((n + threads - 1) / threads);
}

}  // namespace hpart::tensor::cuda::detail
