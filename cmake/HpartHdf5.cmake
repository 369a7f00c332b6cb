# Finds the MPI-parallel HDF5 C library (Debian: libhdf5-openmpi-dev) and defines HDF5::HDF5;
# sets HPART_HAVE_HDF5. Included by cmake/HpartDeps.cmake unless HPART_WITH_HDF5 is OFF.
# hpart opens HDF5 files with MPI-IO, so a serial HDF5 is never a fallback: with
# HPART_WITH_HDF5=ON it is an error, with AUTO hpart is built without HDF5. FindHDF5 asks the
# h5pcc wrapper for flags; on Debian /usr/bin/h5pcc follows the alternatives system and may name
# the serial build, so the OpenMPI wrapper is preferred when it is installed.
set(HDF5_PREFER_PARALLEL TRUE)
if(NOT HDF5_C_COMPILER_EXECUTABLE AND EXISTS /usr/bin/h5pcc.openmpi)
  set(HDF5_C_COMPILER_EXECUTABLE /usr/bin/h5pcc.openmpi CACHE FILEPATH "HDF5 C compiler wrapper (parallel)")
endif()
set(HPART_HAVE_HDF5 OFF)
find_package(HDF5 COMPONENTS C)
if(HDF5_FOUND AND NOT HDF5_IS_PARALLEL)
  set(_hpart_hdf5_serial "hpart needs a parallel (MPI) HDF5, but found a serial one (${HDF5_C_LIBRARIES}). "
                         "On Debian install libhdf5-openmpi-dev, or pass "
                         "-DHDF5_C_COMPILER_EXECUTABLE=/usr/bin/h5pcc.openmpi (or HDF5_ROOT=/usr/lib/x86_64-linux-gnu/hdf5/openmpi).")
  if(HPART_WITH_HDF5 STREQUAL "ON")
    message(FATAL_ERROR "${_hpart_hdf5_serial}")
  endif()
  message(STATUS "${_hpart_hdf5_serial} Built without HDF5.")
elseif(HDF5_FOUND)
  set(HPART_HAVE_HDF5 ON)
  # The libraries, for hpartConfig.cmake and hpart.pc: a C++-only consumer cannot run FindHDF5 (it needs C).
  set(HPART_HDF5_LIBRARIES "${HDF5_C_LIBRARIES}" CACHE INTERNAL "parallel HDF5 libraries hpart links")
endif()
