# The optional third-party libraries of libhpart, one scheme for all four:
#   HPART_WITH_<X> = AUTO (default: use it when found), ON (required: configure fails without it),
#                    OFF (never, even when installed).
# HPART_HAVE_<X> (ON/OFF) says what this build uses; cmake/hpart_version.h.in turns it into the
# macro of the same name (0/1) so users and hpart's own sources can test it, and hpart::features()
# reports it at run time. A points-only build needs none of them:
#   METIS  graph partitioning (GraphMethod::graph's initial partition, GraphMethod::metis, the
#          grid hierarchy's node cut, repartition_graph, the Rebalancer on graphs)
#   HDF5   parallel HDF5 + XDMF readers and writers (hpart/hdf5.hpp)
#   PNG    the partition pictures (write_partition_png, write_grid_partition_png,
#          write_graph_partition_png), drawn with cairo
#   hwloc  NUMA domains in detect_topology
# Without one, the calls that need it throw hpart::Error on every rank ("hpart was built without
# X: ... needs it; reconfigure with -DHPART_WITH_X=ON"), and the apps and tests that need it are
# not built. Each is linked PRIVATE: a shared libhpart hides them from its users; a static one
# lists them in hpartConfig.cmake and in hpart.pc's Libs.private.
foreach(_dep METIS HDF5 PNG HWLOC)
  set(HPART_WITH_${_dep} AUTO CACHE STRING "Use ${_dep} in libhpart (AUTO/ON/OFF)")
  set_property(CACHE HPART_WITH_${_dep} PROPERTY STRINGS AUTO ON OFF)
  if(NOT HPART_WITH_${_dep} MATCHES "^(AUTO|ON|OFF)$")
    message(FATAL_ERROR "HPART_WITH_${_dep} must be AUTO, ON or OFF (got '${HPART_WITH_${_dep}}')")
  endif()
  set(HPART_HAVE_${_dep} OFF)
endforeach()

# Reports the outcome of one dependency: fails when it was required and is missing.
function(_hpart_dependency_result dep found what hint)
  if(found)
    message(STATUS "hpart: ${dep} found: ${what}")
  elseif(HPART_WITH_${dep} STREQUAL "ON")
    message(FATAL_ERROR "HPART_WITH_${dep}=ON but ${dep} was not found (${hint})")
  elseif(HPART_WITH_${dep} STREQUAL "OFF")
    message(STATUS "hpart: ${dep} off (HPART_WITH_${dep}=OFF)")
  else()
    message(STATUS "hpart: ${dep} not found (${hint}); built without it")
  endif()
endfunction()

# METIS: linked by path, so the exported static package needs no imported target from the user.
if(NOT HPART_WITH_METIS STREQUAL "OFF")
  find_path(HPART_METIS_INCLUDE_DIR metis.h)
  find_library(HPART_METIS_LIBRARY metis)
  if(HPART_METIS_INCLUDE_DIR AND HPART_METIS_LIBRARY)
    set(HPART_HAVE_METIS ON)
  endif()
endif()
_hpart_dependency_result(METIS "${HPART_HAVE_METIS}" "${HPART_METIS_LIBRARY}" "Debian: libmetis-dev")
if(NOT HPART_HAVE_METIS)  # plain variables hide any cached path from the targets that use them
  set(HPART_METIS_INCLUDE_DIR "")
  set(HPART_METIS_LIBRARY "")
endif()

# Parallel HDF5 (cmake/HpartHdf5.cmake: a serial HDF5 is never a fallback).
if(NOT HPART_WITH_HDF5 STREQUAL "OFF")
  include(${CMAKE_CURRENT_LIST_DIR}/HpartHdf5.cmake)
endif()
_hpart_dependency_result(HDF5 "${HPART_HAVE_HDF5}" "${HPART_HDF5_LIBRARIES}" "Debian: libhdf5-openmpi-dev")

# PNG, the feature "can draw pictures": cairo (pkg-config cairo), which draws the title, legend and
# labels with a real font (fontconfig + FreeType inside cairo) and writes the PNG itself. Linked by
# path as METIS is, so a static hpart's package needs nothing found at the user's link.
if(NOT HPART_WITH_PNG STREQUAL "OFF")
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(HPART_CAIRO QUIET cairo)
  endif()
  if(HPART_CAIRO_FOUND AND HPART_CAIRO_LINK_LIBRARIES)
    set(HPART_HAVE_PNG ON)
  endif()
endif()
_hpart_dependency_result(PNG "${HPART_HAVE_PNG}" "${HPART_CAIRO_LINK_LIBRARIES}" "Debian: libcairo2-dev")
if(NOT HPART_HAVE_PNG)
  set(HPART_CAIRO_INCLUDE_DIRS "")
  set(HPART_CAIRO_LINK_LIBRARIES "")
endif()

# hwloc: linked by path as METIS is.
if(NOT HPART_WITH_HWLOC STREQUAL "OFF")
  find_path(HPART_HWLOC_INCLUDE_DIR hwloc.h)
  find_library(HPART_HWLOC_LIBRARY hwloc)
  if(HPART_HWLOC_INCLUDE_DIR AND HPART_HWLOC_LIBRARY)
    set(HPART_HAVE_HWLOC ON)
  endif()
endif()
_hpart_dependency_result(HWLOC "${HPART_HAVE_HWLOC}" "${HPART_HWLOC_LIBRARY}" "Debian: libhwloc-dev")
if(NOT HPART_HAVE_HWLOC)
  set(HPART_HWLOC_INCLUDE_DIR "")
  set(HPART_HWLOC_LIBRARY "")
endif()

# 0/1 for the generated headers (configure_file @ONLY).
foreach(_dep METIS HDF5 PNG HWLOC KOKKOS)
  if(HPART_HAVE_${_dep})
    set(HPART_HAVE_${_dep}_01 1)
  else()
    set(HPART_HAVE_${_dep}_01 0)
  endif()
endforeach()
