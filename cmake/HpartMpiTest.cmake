# hpart_add_mpi_test(NAME target RANKS 1 2 3 4 [TIMEOUT s] [ARGS ...])
# Registers one ctest per rank count. Oversubscription and running as root are allowed so the
# suite runs in containers and on 2-core CI machines; a timeout turns a hang into a failure.
set(HPART_MPIEXEC_FLAGS --oversubscribe --bind-to none)
execute_process(COMMAND id -u OUTPUT_VARIABLE _hpart_uid OUTPUT_STRIP_TRAILING_WHITESPACE)
if(_hpart_uid STREQUAL "0")
  list(APPEND HPART_MPIEXEC_FLAGS --allow-run-as-root)
endif()

function(hpart_add_mpi_test name target)
  cmake_parse_arguments(T "" "TIMEOUT" "RANKS;ARGS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  foreach(np IN LISTS T_RANKS)
    add_test(NAME ${name}.np${np}
             COMMAND ${MPIEXEC_EXECUTABLE} ${HPART_MPIEXEC_FLAGS} ${MPIEXEC_NUMPROC_FLAG} ${np}
                     $<TARGET_FILE:${target}> ${T_ARGS})
    set_tests_properties(${name}.np${np} PROPERTIES TIMEOUT ${T_TIMEOUT} PROCESSORS ${np}
                         ENVIRONMENT "OMP_NUM_THREADS=1")
  endforeach()
endfunction()
