# cmake -DJSONL=file -P check_heat_records.cmake
# The records of `hpart-heat --n 32 --steps 12 --rebalance-every 4 --print-every 5 --check` at
# np 2: every line parses with the BENCH.md fields; steps 0, 4, 5, 8, 10, 11 are reported (every
# 5th, every rebalance, the last); the final summary record counts 3 rebalances and error 0.
include(${CMAKE_CURRENT_LIST_DIR}/../support/record_fields.cmake)
hpart_app_records("${JSONL}" app-heat heat2d blocks 1024 steps line)
hpart_record_fields("${line}" "summary" step rebalances error)
if(NOT step EQUAL 12 OR NOT rebalances EQUAL 3 OR NOT error MATCHES "^0(\\.0*)?$")
  message(FATAL_ERROR "summary: expected step 12, 3 rebalances, error 0: ${line}")
endif()
if(NOT steps STREQUAL "0;4;5;8;10;11")
  message(FATAL_ERROR "reported steps are '${steps}', expected 0;4;5;8;10;11")
endif()
message(STATUS "${JSONL}: ${steps} and a summary")
