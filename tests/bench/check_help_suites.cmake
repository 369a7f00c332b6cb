# cmake -DBENCH=hpart-bench -DSUITES=a;b -P check_help_suites.cmake
# `hpart-bench --help` must name every suite at the start of a line of its own, with a line on
# what the suite runs.
execute_process(COMMAND ${BENCH} --help RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 30)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hpart-bench --help exited ${rc}:\n${out}${err}")
endif()
foreach(s IN LISTS SUITES)
  if(NOT out MATCHES "\n  ${s} +[A-Za-z]")
    message(FATAL_ERROR "--help has no line for suite '${s}':\n${out}")
  endif()
endforeach()
message(STATUS "every suite listed: ${SUITES}")
