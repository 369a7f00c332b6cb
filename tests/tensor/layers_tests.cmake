# Tests of the CNN layers (src/tensor/layers, src/tensor/cuda), included from CMakeLists.txt here.
# test_layers_kernels: the local kernels, no communication (np 1). test_layers_sharded: sharded
# layers equal the unsharded computation at np 1-4 (empty shards included). test_layers_cuda:
# the native CUDA kernels against the CPU ones; skips where no GPU is present.
add_executable(test_layers_kernels test_layers_kernels.cpp)
target_link_libraries(test_layers_kernels PRIVATE hpart::tensor hpart_tensor_gtest_main hpart_build_flags)
hpart_add_mpi_test(tensor.layers_kernels test_layers_kernels RANKS 1 TIMEOUT 60)

add_executable(test_layers_sharded test_layers_sharded.cpp)
target_link_libraries(test_layers_sharded PRIVATE hpart::tensor hpart_tensor_gtest_main hpart_build_flags)
hpart_add_mpi_test(tensor.layers_sharded test_layers_sharded RANKS 1 2 3 4 TIMEOUT 180)

# test_layers_promise: bad layer input (arguments or parameters that differ on one rank, problems
# on one rank only, sizes beyond the memory budget) is the same error on every rank (issue 20).
add_executable(test_layers_promise test_layers_promise.cpp)
target_link_libraries(test_layers_promise PRIVATE hpart::tensor hpart_tensor_gtest_main hpart_build_flags)
hpart_add_mpi_test(tensor.layers_promise test_layers_promise RANKS 1 2 3 4 TIMEOUT 120)

if(TARGET hpart_tensor_cuda)
  add_executable(test_layers_cuda test_layers_cuda.cpp)
  target_link_libraries(test_layers_cuda PRIVATE hpart::tensor hpart::tensor_cuda hpart_tensor_gtest_main hpart_build_flags)
  hpart_add_mpi_test(tensor.layers_cuda test_layers_cuda RANKS 1 TIMEOUT 60)
endif()
