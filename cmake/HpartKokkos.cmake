# Kokkos is optional: the sharded-tensor library hpart_tensor (src/tensor) is built only when it
# is found. HPART_WITH_KOKKOS: AUTO (default, use it when found), ON (required), OFF (never).
set(HPART_WITH_KOKKOS AUTO CACHE STRING "Build the Kokkos sharded-tensor library hpart_tensor (ON/OFF/AUTO)")
set_property(CACHE HPART_WITH_KOKKOS PROPERTY STRINGS AUTO ON OFF)
set(HPART_HAVE_KOKKOS OFF)
if(NOT HPART_WITH_KOKKOS STREQUAL "OFF")
  find_package(Kokkos QUIET)
  if(Kokkos_FOUND AND TARGET Kokkos::kokkos)
    # Debian's libtrilinos-kokkos-dev (Kokkos 3.4) exports an include directory that does not
    # exist (<prefix>/include instead of /usr/include/trilinos): point the target at the headers.
    get_target_property(_hpart_kokkos_inc Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
    set(_hpart_kokkos_ok OFF)
    foreach(_dir IN LISTS _hpart_kokkos_inc)
      if(EXISTS "${_dir}/Kokkos_Core.hpp")
        set(_hpart_kokkos_ok ON)
      endif()
    endforeach()
    if(NOT _hpart_kokkos_ok)
      find_path(HPART_KOKKOS_INCLUDE_DIR Kokkos_Core.hpp PATHS /usr/include/trilinos ${Kokkos_DIR}/../../../include/trilinos
                PATH_SUFFIXES trilinos NO_CACHE)
      if(HPART_KOKKOS_INCLUDE_DIR)
        set_target_properties(Kokkos::kokkos PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${HPART_KOKKOS_INCLUDE_DIR}")
      endif()
    endif()
    set(HPART_HAVE_KOKKOS ON)
    message(STATUS "hpart: Kokkos ${Kokkos_VERSION} found: building hpart_tensor")
  elseif(HPART_WITH_KOKKOS STREQUAL "ON")
    message(FATAL_ERROR "HPART_WITH_KOKKOS=ON but Kokkos was not found (apt-get install libtrilinos-kokkos-dev, "
                        "or set Kokkos_DIR to a Kokkos install)")
  else()
    message(STATUS "hpart: Kokkos not found; the sharded-tensor library hpart_tensor is not built")
  endif()
endif()
