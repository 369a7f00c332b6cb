# The tensor suite's conv2d case on a small field at np 2 (included from CMakeLists.txt here):
# one record at ranks=1 and one at ranks=2, both with the sharded-vs-unsharded `error`.
if(NOT TARGET hpart_tensor)
  return()
endif()
set(_conv2d_jsonl ${CMAKE_CURRENT_BINARY_DIR}/conv2d_smoke.jsonl)
add_test(NAME bench.tensor.conv2d
         COMMAND ${MPIEXEC_EXECUTABLE} ${HPART_MPIEXEC_FLAGS} ${MPIEXEC_NUMPROC_FLAG} 2
                 $<TARGET_FILE:hpart-bench> --suite tensor --cases conv2d --side2d 96 --json ${_conv2d_jsonl})
set_tests_properties(bench.tensor.conv2d PROPERTIES TIMEOUT 120 PROCESSORS 2 FIXTURES_SETUP bench_conv2d
                     ENVIRONMENT "OMP_NUM_THREADS=1")
add_test(NAME bench.tensor.conv2d_records
         COMMAND ${CMAKE_COMMAND} -DJSONL=${_conv2d_jsonl} -P ${CMAKE_CURRENT_SOURCE_DIR}/check_conv2d_records.cmake)
set_tests_properties(bench.tensor.conv2d_records PROPERTIES TIMEOUT 60 FIXTURES_REQUIRED bench_conv2d)
