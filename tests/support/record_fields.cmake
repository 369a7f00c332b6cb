# Shared by the check_*_records.cmake scripts: reads the named fields of one JSON record into
# variables of the same names in the caller's scope, and fails naming the first one missing.
#   hpart_record_fields("${line}" "record" suite case library)
function(hpart_record_fields line what)
  foreach(field IN LISTS ARGN)
    string(JSON value ERROR_VARIABLE err GET "${line}" ${field})
    if(err)
      message(FATAL_ERROR "${what} lacks '${field}': ${line}")
    endif()
    set(${field} "${value}" PARENT_SCOPE)
  endforeach()
endfunction()
