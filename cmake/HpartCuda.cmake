# The native CUDA path (src/tensor/cuda: halo face pack/unpack, conv forward) is optional.
# HPART_WITH_CUDA: AUTO (default: build it when a CUDA compiler works), ON (required), OFF.
# It needs no GPU to build: the tests skip at run time when no device is present. nvcc is taken
# from CUDACXX / CMAKE_CUDA_COMPILER, else /usr/local/cuda/bin/nvcc; CUDA 13 needs a supported
# host compiler (g++ <= 14), set with CMAKE_CUDA_HOST_COMPILER if the default is newer.
set(HPART_WITH_CUDA AUTO CACHE STRING "Build the native CUDA kernels hpart_tensor_cuda (ON/OFF/AUTO)")
set_property(CACHE HPART_WITH_CUDA PROPERTY STRINGS AUTO ON OFF)
set(HPART_HAVE_CUDA OFF)
if(NOT HPART_WITH_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    set(ENV{CUDACXX} /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)  # H100/H200; override for other devices
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(HPART_HAVE_CUDA ON)
    message(STATUS "hpart: CUDA ${CMAKE_CUDA_COMPILER_VERSION} (sm_${CMAKE_CUDA_ARCHITECTURES}): building hpart_tensor_cuda")
  elseif(HPART_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "HPART_WITH_CUDA=ON but no working CUDA compiler was found (set CUDACXX or CMAKE_CUDA_COMPILER)")
  else()
    message(STATUS "hpart: no CUDA compiler; the native CUDA kernels are not built")
  endif()
endif()
