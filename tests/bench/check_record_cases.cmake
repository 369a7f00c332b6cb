# cmake -DJSONL=file -DCOUNT=n -DCASES=a;b -P check_record_cases.cmake
cmake_policy(SET CMP0057 NEW)  # if(IN_LIST) in script mode
# Checks that a JSON Lines file holds exactly COUNT records and that every record's case is one of
# CASES: what `--graph FILE` must give (that file's records alone, no shared or generated graphs).
if(NOT EXISTS "${JSONL}")
  message(FATAL_ERROR "no records file ${JSONL}")
endif()
file(STRINGS "${JSONL}" lines)
list(LENGTH lines n)
set(cases "")
foreach(line IN LISTS lines)
  string(JSON c ERROR_VARIABLE err GET "${line}" case)
  if(err)
    message(FATAL_ERROR "not a record with a case: ${line}")
  endif()
  if(NOT c IN_LIST CASES)
    message(FATAL_ERROR "record of case '${c}', expected only ${CASES}: ${line}")
  endif()
  list(APPEND cases "${c}")
endforeach()
if(NOT n EQUAL COUNT)
  message(FATAL_ERROR "expected ${COUNT} records, found ${n} (cases: ${cases})")
endif()
message(STATUS "${n} records, cases ${cases}")
