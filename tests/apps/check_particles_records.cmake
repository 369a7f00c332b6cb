# cmake -DJSONL=file -P check_particles_records.cmake
# The records of `hpart-particles --mode static --steps 12 --print-every 5 --check` at np 2:
# every line parses with the BENCH.md fields; steps 0 (the partition), 5, 10 and 11 (the last)
# are reported; the one summary record counts 2000 particles, 1 rebalance, check ok, and says
# how many particles migrated.
include(${CMAKE_CURRENT_LIST_DIR}/../support/record_fields.cmake)
hpart_app_records("${JSONL}" app-particles drift2d static 2000 steps line)
hpart_record_fields("${line}" "summary" step rebalances migrated particles check)
if(NOT step EQUAL 12 OR NOT rebalances EQUAL 1 OR NOT particles EQUAL 2000 OR NOT check STREQUAL "ok"
   OR migrated LESS 1)
  message(FATAL_ERROR "summary: expected step 12, 1 rebalance, 2000 particles, check ok, migrations: ${line}")
endif()
if(NOT steps STREQUAL "0;5;10;11")
  message(FATAL_ERROR "reported steps are '${steps}', expected 0;5;10;11")
endif()
message(STATUS "${JSONL}: ${steps} and a summary")
