# Finds the MPI-parallel HDF5 C library (Debian: libhdf5-openmpi-dev) and defines HDF5::HDF5.
# hpart opens HDF5 files with MPI-IO, so a serial HDF5 is an error, not a fallback. FindHDF5 asks
# the h5pcc wrapper for flags; on Debian /usr/bin/h5pcc follows the alternatives system and may
# name the serial build, so the OpenMPI wrapper is preferred when it is installed.
set(HDF5_PREFER_PARALLEL TRUE)
if(NOT HDF5_C_COMPILER_EXECUTABLE AND EXISTS /usr/bin/h5pcc.openmpi)
  set(HDF5_C_COMPILER_EXECUTABLE /usr/bin/h5pcc.openmpi CACHE FILEPATH "HDF5 C compiler wrapper (parallel)")
endif()
find_package(HDF5 REQUIRED COMPONENTS C)
if(NOT HDF5_IS_PARALLEL)
  message(FATAL_ERROR "hpart needs a parallel (MPI) HDF5, but found a serial one (${HDF5_C_LIBRARIES}). "
                      "On Debian install libhdf5-openmpi-dev, or pass "
                      "-DHDF5_C_COMPILER_EXECUTABLE=/usr/bin/h5pcc.openmpi (or HDF5_ROOT=/usr/lib/x86_64-linux-gnu/hdf5/openmpi).")
endif()
# The libraries, for hpartConfig.cmake: a C++-only consumer cannot run FindHDF5 (it needs C).
set(HPART_HDF5_LIBRARIES "${HDF5_C_LIBRARIES}" CACHE INTERNAL "parallel HDF5 libraries hpart links")
