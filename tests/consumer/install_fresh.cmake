# cmake -DPREFIX=dir -DBUILD=dir -P install_fresh.cmake
# Installs the build BUILD into an emptied PREFIX, so that only what this build installs is there.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${PREFIX}" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}):\n${out}${err}")
endif()
message(STATUS "installed into ${PREFIX}")
