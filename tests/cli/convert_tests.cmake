# `hpart convert` and `hpart generate --graph` (issue 26): a generated graph written as METIS text,
# converted to hpart binary at np 2 and back to text at np 3 (the same bytes), and partitioned
# from the text and from the binary at np 2 (the same part file); bad input exits as docs/cli.md
# says. Included from tests/cli/CMakeLists.txt (uses _run, _dir and _cli_exit).
set(_cv ${_dir}/convert)
file(MAKE_DIRECTORY ${_cv})
add_test(NAME cli.convert.help COMMAND $<TARGET_FILE:hpart-cli> convert --help)
set_tests_properties(cli.convert.help PROPERTIES TIMEOUT 30 PASS_REGULAR_EXPRESSION "OUT.*\\.hgraph.*hpart partition mesh\\.hgraph")
add_test(NAME cli.convert.generate COMMAND ${_run} 2 $<TARGET_FILE:hpart-cli> generate --graph rgg2d --cells 40
                                           --out ${_cv}/rgg.graph)
set_tests_properties(cli.convert.generate PROPERTIES FIXTURES_SETUP cli_cv_text PROCESSORS 2 TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "wrote .*rgg\\.graph \\(METIS text\\): 6400 vertices")
add_test(NAME cli.convert.to_binary COMMAND ${_run} 2 $<TARGET_FILE:hpart-cli> convert ${_cv}/rgg.graph ${_cv}/rgg.hgraph)
set_tests_properties(cli.convert.to_binary PROPERTIES FIXTURES_REQUIRED cli_cv_text FIXTURES_SETUP cli_cv_binary
                     PROCESSORS 2 TIMEOUT 60 PASS_REGULAR_EXPRESSION "wrote .*rgg\\.hgraph \\(hpart binary\\): 6400 vertices")
add_test(NAME cli.convert.to_text COMMAND ${_run} 3 $<TARGET_FILE:hpart-cli> convert ${_cv}/rgg.hgraph ${_cv}/back.graph)
set_tests_properties(cli.convert.to_text PROPERTIES FIXTURES_REQUIRED cli_cv_binary FIXTURES_SETUP cli_cv_back
                     PROCESSORS 3 TIMEOUT 60)
add_test(NAME cli.convert.same_text COMMAND ${CMAKE_COMMAND} -E compare_files ${_cv}/rgg.graph ${_cv}/back.graph)
set_tests_properties(cli.convert.same_text PROPERTIES FIXTURES_REQUIRED cli_cv_back TIMEOUT 30)
foreach(from graph hgraph)
  add_test(NAME cli.convert.partition.${from} COMMAND ${_run} 2 $<TARGET_FILE:hpart-cli> partition ${_cv}/rgg.${from} 8
                                                     -o ${_cv}/rgg.${from}.part)
  set_tests_properties(cli.convert.partition.${from} PROPERTIES FIXTURES_REQUIRED cli_cv_binary
                       FIXTURES_SETUP cli_cv_parts PROCESSORS 2 TIMEOUT 120 ENVIRONMENT "OMP_NUM_THREADS=1"
                       PASS_REGULAR_EXPRESSION "6400 vertices.*wrote")
endforeach()
add_test(NAME cli.convert.same_parts COMMAND ${CMAKE_COMMAND} -E compare_files ${_cv}/rgg.graph.part ${_cv}/rgg.hgraph.part)
set_tests_properties(cli.convert.same_parts PROPERTIES FIXTURES_REQUIRED cli_cv_parts TIMEOUT 30)
# A binary file that is too short, a missing file, a missing OUT.
file(WRITE ${_cv}/short.hgraph "HPARTGRF0123")
_cli_exit(convert_short 2 "short.hgraph: truncated file: 12 bytes, shorter than the 64-byte header"
          convert ${_cv}/short.hgraph ${_cv}/short.graph)
_cli_exit(convert_missing 2 "cannot open '${_cv}/none.graph'" convert ${_cv}/none.graph ${_cv}/none.hgraph)
_cli_exit(convert_no_out 1 "OUT is required" convert ${_cv}/rgg.graph)
_cli_exit(partition_short 2 "short.hgraph: truncated file: 12 bytes" partition ${_cv}/short.hgraph 4 --no-out)
