#pragma once
// Everything of hpart's sharded tensors (target hpart::tensor, built when Kokkos is found).
#include "hpart/tensor/halo.hpp"
#include "hpart/tensor/kokkos_session.hpp"
#include "hpart/tensor/layout.hpp"
#include "hpart/tensor/ops.hpp"
#include "hpart/tensor/redistribute.hpp"
#include "hpart/tensor/shard_tensor.hpp"
