# The plain-C bench programs (C11 + pthreads, OpenMP optional), for
# bench/CMakeLists.txt and for bench/scaling.sh's standalone build alike:
# actk_pool_bench (the pool, the planner, threading and RoPE: every part of
# scaling.sh; its header says more). It reads internal headers through
# bench/bench_internal.h, so it links the static library; bench_util.c holds
# what it shares with actk_gated_bench and research/. Expects ACTK_BENCH_ROOT, the targets actk_static and
# Threads::Threads, and find_package(OpenMP COMPONENTS C) already run (without
# OpenMP: no OpenMP columns or rows).
add_executable(actk_pool_bench ${ACTK_BENCH_ROOT}/bench/actk_pool_bench.c
                               ${ACTK_BENCH_ROOT}/bench/bench_util.c)
target_include_directories(actk_pool_bench PRIVATE ${ACTK_BENCH_ROOT}/src ${ACTK_BENCH_ROOT}/tools
                                                   ${ACTK_BENCH_ROOT}/bench)
target_link_libraries(actk_pool_bench PRIVATE actk_static Threads::Threads m)
if(OpenMP_C_FOUND)
  target_link_libraries(actk_pool_bench PRIVATE OpenMP::OpenMP_C)
endif()
