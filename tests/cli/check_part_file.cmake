# cmake -DFILE=... -DLINES=n -DPARTS=k -P check_part_file.cmake
# A METIS .part file: n lines, each a part id in [0, k).
file(STRINGS ${FILE} lines)
list(LENGTH lines count)
if(NOT count EQUAL LINES)
  message(FATAL_ERROR "${FILE} has ${count} lines, expected ${LINES}")
endif()
foreach(p IN LISTS lines)
  if(NOT p MATCHES "^[0-9]+$" OR p GREATER_EQUAL PARTS)
    message(FATAL_ERROR "${FILE} holds '${p}', not a part id in [0, ${PARTS})")
  endif()
endforeach()
