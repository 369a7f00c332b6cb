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

# The records of an example app's --json file (hpart-heat, hpart-particles): every line has the
# BENCH.md fields and the given suite / case / library hpart / method / n, 2 parts and 2 ranks;
# sets <steps_var> to the steps of the per-step records in order and <summary_var> to the one
# summary record (fails unless there is exactly one).
function(hpart_app_records jsonl suite case method n steps_var summary_var)
  if(NOT EXISTS "${jsonl}")
    message(FATAL_ERROR "no records file ${jsonl}")
  endif()
  file(STRINGS "${jsonl}" lines)
  set(steps "")
  set(summaries "")
  foreach(line IN LISTS lines)
    hpart_record_fields("${line}" "record" suite case library method n parts ranks threads time_s imbalance step)
    if(NOT suite STREQUAL "${ARGV1}" OR NOT case STREQUAL "${ARGV2}" OR NOT library STREQUAL "hpart"
       OR NOT method STREQUAL "${ARGV3}" OR NOT n EQUAL ${ARGV4} OR NOT parts EQUAL 2 OR NOT ranks EQUAL 2)
      message(FATAL_ERROR "unexpected record: ${line}")
    endif()
    string(JSON summary ERROR_VARIABLE not_summary GET "${line}" summary)
    if(not_summary)
      list(APPEND steps ${step})
    else()
      list(APPEND summaries "${line}")
    endif()
  endforeach()
  list(LENGTH summaries count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "expected one summary record, got ${count}")
  endif()
  set(${steps_var} "${steps}" PARENT_SCOPE)
  set(${summary_var} "${summaries}" PARENT_SCOPE)
endfunction()
