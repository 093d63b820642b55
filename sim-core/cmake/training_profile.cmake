# Writes OUTPUT: the execution profile that the WebAssembly build is optimised with (see
# wasm/CMakeLists.txt, "Profile-guided optimisation"). TCPSIM is a tcpsim built with
# -fprofile-instr-generate (TCBSIM_PROFILE_GENERATE); it runs what the module runs in use, each run
# writing its counts to WORK/<name>.profraw, and LLVM_PROFDATA merges them:
# - every built-in scenario, at trace level series, which the dashboard runs them at;
# - a sweep planned as the service plans a POST /api/batches (`tcpsim grid`, the validator and the
#   grid expansion).
# The counts of a run add up as they are: the long presets weigh most, which is where the time goes.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(profiled_run name)
  set(ENV{LLVM_PROFILE_FILE} ${WORK}/${name}.profraw)
  execute_process(COMMAND ${TCPSIM} ${ARGN} RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "training run ${name} (tcpsim ${ARGN}) failed (${status}): ${errors}")
  endif()
endfunction()

execute_process(COMMAND ${TCPSIM} presets OUTPUT_VARIABLE presets COMMAND_ERROR_IS_FATAL ANY)
string(STRIP "${presets}" presets)
string(REPLACE "\n" ";" presets "${presets}")
foreach(preset ${presets})
  profiled_run(preset-${preset} run --preset ${preset} --trace series)
endforeach()

# A sweep of a web workload under a sharing scheme over three axes: 60 points of 4 replications.
execute_process(COMMAND ${TCPSIM} preset scheme-etcp OUTPUT_VARIABLE scenario COMMAND_ERROR_IS_FATAL ANY)
file(WRITE ${WORK}/sweep.json "{\"scenario\": ${scenario}, \"replications\": 4, \"grid\": {
  \"/topology/bottleneck/bandwidthMbps\": [1, 2, 5, 10, 20],
  \"/topology/bottleneck/delayMs\": [10, 40, 100, 200],
  \"/tcp/flavor\": [\"newreno\", \"sack\", \"cubic\"]}}")
profiled_run(sweep grid ${WORK}/sweep.json)

file(GLOB raw ${WORK}/*.profraw)
execute_process(COMMAND ${LLVM_PROFDATA} merge --output=${WORK}/merged.profdata ${raw} COMMAND_ERROR_IS_FATAL ANY)
file(COPY_FILE ${WORK}/merged.profdata ${OUTPUT} ONLY_IF_DIFFERENT)
