# cmake -DSOURCE=dir -DBUILD=dir -DGENERATOR=g -DCXX=c++ -DC=cc -DMPIEXEC=mpirun "-DMPIEXEC_FLAGS=a;b"
#       -DVERSION=x.y.z -P minimal_build.cmake
# A points-only hpart: METIS, HDF5, PNG and hwloc all OFF (and Kokkos, CUDA, Zoltan, the tests).
# Configures it in BUILD, builds only the library and the CLI (-j1, as a 2-core CI machine shares
# its cores with the rest of the suite), then checks that
#   - libhpart.so needs none of the four (readelf), and hpart --version says so;
#   - points partition at np 2;
#   - a graph partition, an HDF5 file and a PNG picture each fail at np 2 with exit 2 (the CLI's
#     code for hpart::ErrorCode::unsupported, as for bad input) and the "built without" message
#     printed once (rank 0), never a hang.
function(run_checked what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(last_output "${out}${err}" PARENT_SCOPE)
endfunction()

string(TIMESTAMP t0 "%s")
# What this build proves is how it is configured, linked and installed, not its speed: a unity
# build at -O0 (with Release's NDEBUG) compiles libhpart in a third of the time of -O3 file by file
# (points-only, one core: 94 s against ~290 s), and these builds were the suite's largest cost.
set(quick_build -DCMAKE_UNITY_BUILD=ON "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O0 -DNDEBUG"
    "-DCMAKE_Fortran_FLAGS_RELEASE=-O0 -DNDEBUG")
run_checked("configure" ${CMAKE_COMMAND} -S ${SOURCE} -B ${BUILD} -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release ${quick_build}
            -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_C_COMPILER=${C}
            -DHPART_WITH_METIS=OFF -DHPART_WITH_HDF5=OFF -DHPART_WITH_PNG=OFF -DHPART_WITH_HWLOC=OFF
            -DHPART_WITH_KOKKOS=OFF -DHPART_WITH_CUDA=OFF -DHPART_WITH_ZOLTAN=OFF -DHPART_BUILD_TESTS=OFF)
foreach(dep METIS HDF5 PNG HWLOC)
  if(NOT last_output MATCHES "${dep} off \\(HPART_WITH_${dep}=OFF\\)")
    message(FATAL_ERROR "configure did not report ${dep} off:\n${last_output}")
  endif()
endforeach()
run_checked("build" ${CMAKE_COMMAND} --build ${BUILD} --target hpart hpart-cli -j 1)
string(TIMESTAMP t1 "%s")
math(EXPR build_s "${t1} - ${t0}")
message(STATUS "configure + build of libhpart and the CLI: ${build_s} s")

find_program(READELF readelf)
if(READELF AND EXISTS ${BUILD}/libhpart.so)
  run_checked("readelf" ${READELF} -d ${BUILD}/libhpart.so)
  if(last_output MATCHES "metis|hdf5|png|hwloc")
    message(FATAL_ERROR "the points-only libhpart links an optional dependency:\n${last_output}")
  endif()
endif()

set(hpart ${BUILD}/apps/hpart/hpart)
run_checked("hpart --version" ${hpart} --version)
if(NOT last_output MATCHES "^hpart ${VERSION} \\(-METIS -HDF5 -PNG -hwloc -Kokkos\\)")
  message(FATAL_ERROR "hpart --version: unexpected output:\n${last_output}")
endif()

set(run ${MPIEXEC} ${MPIEXEC_FLAGS} -np 2)
set(ENV{OMP_NUM_THREADS} 1)
run_checked("generate" ${run} ${hpart} generate --shape uniform2d --n 5000 --out ${BUILD}/pts.txt)
run_checked("partition points" ${run} ${hpart} partition --points ${BUILD}/pts.txt --parts 6 --out ${BUILD}/pts.part)
if(NOT last_output MATCHES "hilbert +6 +2 +5000 ")
  message(FATAL_ERROR "partition of points: unexpected output:\n${last_output}")
endif()

# Each missing dependency: a nonzero exit and the message once.
file(WRITE ${BUILD}/ring.graph "6 6\n2 6\n1 3\n2 4\n3 5\n4 6\n5 1\n")
function(expect_without dep)
  execute_process(COMMAND ${run} ${hpart} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  set(all "${out}${err}")
  set(expect "hpart was built without ${dep}")
  string(FIND "${all}" "${expect}" first)
  string(FIND "${all}" "${expect}" last REVERSE)
  if(NOT rc STREQUAL "2" OR first EQUAL -1 OR NOT first EQUAL last)
    message(FATAL_ERROR "hpart ${ARGN}: expected exit 2 (ErrorCode::unsupported, as bad input) and '${expect}' once, got exit '${rc}':\n${all}")
  endif()
  if(NOT all MATCHES "reconfigure with -DHPART_WITH_${dep}=ON")
    message(FATAL_ERROR "the message does not say how to get ${dep}:\n${all}")
  endif()
endfunction()
expect_without(METIS partition --graph ${BUILD}/ring.graph --parts 2)
expect_without(METIS partition --graph ${BUILD}/ring.graph --parts 2 --method metis)
expect_without(METIS grid --extent 32,24 --parts 4 --method hier --topology 2x1)  # the graph node cut
expect_without(HDF5 generate --shape uniform2d --n 100 --out ${BUILD}/pts.h5)
expect_without(PNG partition --points ${BUILD}/pts.txt --parts 4 --png ${BUILD}/pts.png)
string(TIMESTAMP t2 "%s")
math(EXPR total_s "${t2} - ${t0}")
message(STATUS "points-only build checked in ${total_s} s")
