# ctest capi.header_c99: hpart.h and each of its part headers (include/hpart/c/*.h), each alone,
# as strict C99 through the MPI C compiler wrapper a C user has. A part that needs a declaration
# it does not include, or a C++-only construct anywhere, fails here.
#   cmake -DCC=<mpicc> -DSOURCE=<project source> -DTEST_SOURCE=<header_c99.c> -DWORK=<dir> -P header_c99.cmake
set(flags -std=c99 -pedantic -Wall -Wextra -Werror -I${SOURCE}/include)
file(MAKE_DIRECTORY ${WORK})
# hpart.h with every struct used (header_c99.c).
execute_process(COMMAND ${CC} ${flags} -c ${TEST_SOURCE} -o ${WORK}/header_c99.o RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hpart.h (header_c99.c) does not compile as C99")
endif()
file(GLOB parts RELATIVE ${SOURCE}/include/hpart/c ${SOURCE}/include/hpart/c/*.h)
list(LENGTH parts n)
if(n LESS 2)
  message(FATAL_ERROR "no part headers found in ${SOURCE}/include/hpart/c")
endif()
foreach(part IN LISTS parts)
  string(REPLACE ".h" "" stem ${part})
  file(WRITE ${WORK}/part_${stem}.c "#include <hpart/c/${part}>\nint main(void) { return (int)HPART_OK; }\n")
  execute_process(COMMAND ${CC} ${flags} -c ${WORK}/part_${stem}.c -o ${WORK}/part_${stem}.o RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "hpart/c/${part} alone does not compile as C99")
  endif()
endforeach()
message(STATUS "hpart.h and ${n} part headers compile alone as C99")
