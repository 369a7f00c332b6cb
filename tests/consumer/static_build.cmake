# cmake -DSOURCE=dir -DBUILD=dir -DGENERATOR=g -DCXX=c++ -DC=cc -DMPICXX=mpicxx -DMPICC=mpicc -DPKG_CONFIG=pkg-config
#       -DMPIEXEC=mpirun "-DMPIEXEC_FLAGS=a;b" -DVERSION=x.y.z -P static_build.cmake
# A static hpart (BUILD_SHARED_LIBS=OFF) with the optional dependencies this machine has: the
# library alone is built (-j1; no apps, no tests), installed into BUILD/prefix, and then used as a
# user would:
#   - examples/consumer (C++) with find_package(hpart): the package finds HDF5 for the static
#     library's link (METIS, hwloc and cairo, the pictures, are linked by path);
#   - tests/consumer/c_only (a LANGUAGES C project) with find_package: the package adds OpenMP's
#     and the C++ runtime;
#   - examples/consumer/main.cpp with mpicxx and tests/consumer/version_check.c with mpicc, each
#     with $(pkg-config --static --cflags --libs hpart) only;
# each run at np 2.
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
set(prefix ${BUILD}/prefix)
run_checked("configure" ${CMAKE_COMMAND} -S ${SOURCE} -B ${BUILD}/hpart -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release ${quick_build}
            -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_C_COMPILER=${C} -DBUILD_SHARED_LIBS=OFF -DHPART_BUILD_TESTS=OFF
            -DHPART_BUILD_APPS=OFF -DHPART_WITH_KOKKOS=OFF -DHPART_WITH_CUDA=OFF -DHPART_WITH_ZOLTAN=OFF
            -DHPART_WITH_PYTHON=OFF)  # the Python module over a static libhpart is what `pip install .` builds
run_checked("build" ${CMAKE_COMMAND} --build ${BUILD}/hpart -j 1)
file(REMOVE_RECURSE ${prefix})
run_checked("install" ${CMAKE_COMMAND} --install ${BUILD}/hpart --prefix ${prefix})
if(NOT EXISTS ${prefix}/lib/libhpart.a OR EXISTS ${prefix}/lib/libhpart.so)
  message(FATAL_ERROR "expected a static libhpart.a alone in ${prefix}/lib")
endif()
string(TIMESTAMP t1 "%s")
math(EXPR build_s "${t1} - ${t0}")
message(STATUS "static libhpart configured, built and installed in ${build_s} s")

set(run ${MPIEXEC} ${MPIEXEC_FLAGS} -np 2)
set(ENV{OMP_NUM_THREADS} 1)
function(build_and_run name source_dir exe expect)
  run_checked("${name}: configure" ${CMAKE_COMMAND} -S ${source_dir} -B ${BUILD}/${name} -G ${GENERATOR}
              -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_C_COMPILER=${C})
  run_checked("${name}: build" ${CMAKE_COMMAND} --build ${BUILD}/${name})
  run_checked("${name}: run" ${run} ${BUILD}/${name}/${exe})
  if(NOT last_output MATCHES "${expect}")
    message(FATAL_ERROR "${name}: expected '${expect}', got:\n${last_output}")
  endif()
endfunction()
build_and_run(cxx ${SOURCE}/examples/consumer consumer "hpart ${VERSION}: 2000 points")
build_and_run(c_only ${SOURCE}/tests/consumer/c_only c_only "hpart ${VERSION} \\(C\\): .*: ok")

set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
run_checked("pkg-config" ${PKG_CONFIG} --static --cflags --libs hpart)
string(STRIP "${last_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run_checked("mpicxx + pkg-config --static" ${MPICXX} -std=c++20 ${SOURCE}/examples/consumer/main.cpp
            -o ${BUILD}/pc_cxx ${flags})
run_checked("run pc_cxx" ${run} ${BUILD}/pc_cxx)
if(NOT last_output MATCHES "hpart ${VERSION}: 2000 points")
  message(FATAL_ERROR "pc_cxx: unexpected output:\n${last_output}")
endif()
run_checked("mpicc + pkg-config --static" ${MPICC} ${SOURCE}/tests/consumer/version_check.c -o ${BUILD}/pc_c ${flags})
run_checked("run pc_c" ${run} ${BUILD}/pc_c)
if(NOT last_output MATCHES ": ok")
  message(FATAL_ERROR "pc_c: unexpected output:\n${last_output}")
endif()
string(TIMESTAMP t2 "%s")
math(EXPR total_s "${t2} - ${t0}")
message(STATUS "static hpart and its four consumers checked in ${total_s} s")
