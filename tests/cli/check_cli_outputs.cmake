# cmake -DDIR=... -DN=... -DPARTS=... -P check_cli_outputs.cmake
# The part files of the np 1, 3 and 4 runs: N lines, ids in [0, PARTS), every part used, and
# identical bytes (the partition does not depend on the rank count). The pictures exist.
set(FILE ${DIR}/pts.np1.part)
set(LINES ${N})
include(${CMAKE_CURRENT_LIST_DIR}/check_part_file.cmake)  # N lines, ids in [0, PARTS); sets `lines`
list(REMOVE_DUPLICATES lines)
list(LENGTH lines distinct)
if(NOT distinct EQUAL PARTS)
  message(FATAL_ERROR "pts.np1.part uses ${distinct} distinct parts, expected ${PARTS}")
endif()
foreach(np 3 4)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/pts.np1.part ${DIR}/pts.np${np}.part
                  RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "the part file at np ${np} differs from np 1")
  endif()
endforeach()
foreach(np 1 3 4)
  file(READ ${DIR}/pts.np${np}.png head LIMIT 8 HEX)
  if(NOT head STREQUAL "89504e470d0a1a0a")
    message(FATAL_ERROR "pts.np${np}.png is not a PNG (starts with ${head})")
  endif()
endforeach()
message(STATUS "part files agree across rank counts; pictures written")
