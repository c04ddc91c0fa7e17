# The plain-C bench programs (C11 + pthreads, OpenMP optional), for
# bench/CMakeLists.txt and for bench/scaling.sh's standalone build alike:
# actk_pool_bench (dispatch latency, the engine pattern, the planner's
# thresholds, idle CPU), actk_rope_bench (RoPE), actk_scaling (scaling.sh's own
# parts); each one's header says more. They read internal headers through
# bench/bench_internal.h, so they link the static library; bench_util.c holds
# what they share. Expects ACTK_BENCH_ROOT, the targets actk_static and
# Threads::Threads, and find_package(OpenMP COMPONENTS C) already run (without
# OpenMP: no OpenMP columns or rows).
foreach(prog actk_pool_bench actk_rope_bench actk_scaling)
  add_executable(${prog} ${ACTK_BENCH_ROOT}/bench/${prog}.c ${ACTK_BENCH_ROOT}/bench/bench_util.c)
  target_include_directories(${prog} PRIVATE ${ACTK_BENCH_ROOT}/src ${ACTK_BENCH_ROOT}/tools
                                             ${ACTK_BENCH_ROOT}/bench)
  target_link_libraries(${prog} PRIVATE actk_static Threads::Threads m)
endforeach()
if(OpenMP_C_FOUND)
  foreach(prog actk_pool_bench actk_scaling)
    target_link_libraries(${prog} PRIVATE OpenMP::OpenMP_C)
  endforeach()
endif()
