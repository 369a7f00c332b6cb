# The Fortran module (src/fortran): built when a Fortran compiler and MPI's Fortran bindings
# (the mpi_f08 module) are found, or never with HPART_WITH_FORTRAN=OFF; ON makes a missing
# compiler an error. Fortran is enabled only here, so a C/C++-only machine configures as before.
set(HPART_WITH_FORTRAN AUTO CACHE STRING "Build the Fortran module hpart::fortran (ON/OFF/AUTO)")
set_property(CACHE HPART_WITH_FORTRAN PROPERTY STRINGS AUTO ON OFF)
set(HPART_HAVE_FORTRAN OFF)

if(NOT HPART_WITH_FORTRAN STREQUAL "OFF")
  include(CheckLanguage)
  check_language(Fortran)
  if(CMAKE_Fortran_COMPILER)
    enable_language(Fortran)
    find_package(MPI COMPONENTS Fortran)
    if(MPI_Fortran_FOUND AND MPI_Fortran_HAVE_F08_MODULE AND MPI_Fortran_HAVE_F90_MODULE)
      set(HPART_HAVE_FORTRAN ON)
    endif()
  endif()
  if(NOT HPART_HAVE_FORTRAN)
    set(_hpart_why "no Fortran compiler, or MPI without the mpi and mpi_f08 Fortran modules")
    if(HPART_WITH_FORTRAN STREQUAL "ON")
      message(FATAL_ERROR "HPART_WITH_FORTRAN=ON: ${_hpart_why}")
    endif()
    message(STATUS "hpart: Fortran module not built (${_hpart_why})")
  endif()
endif()

# .mod files are compiler-specific (gfortran's format changes between major versions; other
# compilers cannot read it at all), so they are installed under a folder named after the
# compiler that wrote them: include/hpart/fortran/<compiler id>-<major version>, e.g. GNU-12.
if(HPART_HAVE_FORTRAN)
  string(REGEX MATCH "^[0-9]+" _hpart_fc_major "${CMAKE_Fortran_COMPILER_VERSION}")
  set(HPART_FORTRAN_MODSUBDIR "hpart/fortran/${CMAKE_Fortran_COMPILER_ID}-${_hpart_fc_major}")
  set(HPART_FORTRAN_MODDIR "${CMAKE_INSTALL_INCLUDEDIR}/${HPART_FORTRAN_MODSUBDIR}")
  add_subdirectory(${PROJECT_SOURCE_DIR}/src/fortran ${PROJECT_BINARY_DIR}/src/fortran)
endif()

# hpart-fortran.pc beside hpart.pc (cmake/HpartPkgConfig.cmake, included before this file, sets
# the relocatable prefix and directories both use).
if(HPART_HAVE_FORTRAN AND DEFINED HPART_PC_PREFIX)
  set(HPART_FC_ID "${CMAKE_Fortran_COMPILER_ID} ${CMAKE_Fortran_COMPILER_VERSION}")
  configure_file(${CMAKE_CURRENT_LIST_DIR}/hpart-fortran.pc.in ${PROJECT_BINARY_DIR}/hpart-fortran.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/hpart-fortran.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
