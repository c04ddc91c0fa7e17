# The plain-C bench programs (C11 + pthreads, OpenMP optional), for
# bench/CMakeLists.txt and for bench/scaling.sh's standalone build alike:
# actk_pool_bench (the pool, the planner and threading: every part of
# scaling.sh but rope), actk_rope_bench (RoPE); each one's header says more. They read internal headers through
# bench/bench_internal.h, so they link the static library; bench_util.c holds
# what they share. Expects ACTK_BENCH_ROOT, the targets actk_static and
# Threads::Threads, and find_package(OpenMP COMPONENTS C) already run (without
# OpenMP: no OpenMP columns or rows).
foreach(prog actk_pool_bench actk_rope_bench)
  add_executable(${prog} ${ACTK_BENCH_ROOT}/bench/${prog}.c ${ACTK_BENCH_ROOT}/bench/bench_util.c)
  target_include_directories(${prog} PRIVATE ${ACTK_BENCH_ROOT}/src ${ACTK_BENCH_ROOT}/tools
                                             ${ACTK_BENCH_ROOT}/bench)
  target_link_libraries(${prog} PRIVATE actk_static Threads::Threads m)
endforeach()
if(OpenMP_C_FOUND)
  target_link_libraries(actk_pool_bench PRIVATE OpenMP::OpenMP_C)
endif()
