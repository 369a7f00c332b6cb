# hpart-train end to end (included from CMakeLists.txt here): for the CNN and the U-Net, the loss
# curves of 20 steps at np 1 and np 4 agree to 1e-10 relative and fall (check_train_losses.cmake);
# bad options fail.
if(NOT TARGET hpart-train)
  return()
endif()
set(_train_args --n 64 --channels 4 --steps 20 --quiet)
foreach(model cnn unet)
  foreach(np 1 4)
    add_test(NAME apps.train.${model}.np${np}
             COMMAND ${MPIEXEC_EXECUTABLE} ${HPART_MPIEXEC_FLAGS} ${MPIEXEC_NUMPROC_FLAG} ${np} $<TARGET_FILE:hpart-train>
                     ${_train_args} --model ${model} --json ${CMAKE_CURRENT_BINARY_DIR}/train_${model}_np${np}.jsonl)
    set_tests_properties(apps.train.${model}.np${np} PROPERTIES TIMEOUT 60 PROCESSORS ${np}
                         ENVIRONMENT "OMP_NUM_THREADS=1" FIXTURES_SETUP train_${model})
  endforeach()
  add_test(NAME apps.train.${model}.losses_agree
           COMMAND ${CMAKE_COMMAND} -DA=${CMAKE_CURRENT_BINARY_DIR}/train_${model}_np1.jsonl
                   -DB=${CMAKE_CURRENT_BINARY_DIR}/train_${model}_np4.jsonl -DSTEPS=20 -DRTOL=1e-10
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/check_train_losses.cmake)
  set_tests_properties(apps.train.${model}.losses_agree PROPERTIES TIMEOUT 30 FIXTURES_REQUIRED train_${model})
endforeach()

set(_train_cmd ${MPIEXEC_EXECUTABLE} ${HPART_MPIEXEC_FLAGS} ${MPIEXEC_NUMPROC_FLAG} 2 $<TARGET_FILE:hpart-train>)
function(_train_bad name expect)
  string(REPLACE ";" "|" _cmd "${_train_cmd};${ARGN}")
  add_test(NAME apps.train.bad.${name} COMMAND ${CMAKE_COMMAND} "-DCMD=${_cmd}" "-DEXPECT=${expect}"
                                               -P ${PROJECT_SOURCE_DIR}/tests/support/expect_failure.cmake)
  set_tests_properties(apps.train.bad.${name} PROPERTIES TIMEOUT 30 PROCESSORS 2)
endfunction()
_train_bad(optimizer "--optimizer: rmsprop not in" --optimizer rmsprop)
_train_bad(unet_odd "--model unet needs an even --n" --model unet --n 63)
_train_bad(json_dir "cannot open --json file" --n 16 --steps 1 --json ${CMAKE_CURRENT_BINARY_DIR}/no/such/dir/t.jsonl)
