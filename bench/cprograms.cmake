# The plain-C bench programs (C11 + pthreads, OpenMP optional; no
# google-benchmark, no C++), for bench/CMakeLists.txt and for the standalone
# build bench/scaling.sh makes (bench/scaling/CMakeLists.txt) alike.
#
#   actk_pool_bench  empty-job dispatch latency vs idle gap, the engine pattern
#                    (pool vs serial vs OpenMP with idle gaps between calls), a
#                    threshold sweep per cost class next to the planner's
#                    choices, and CPU burnt while idle after a burst
#                    (--only a,b,sweep,c; --threads T; --gaps; --spins)
#   actk_rope_bench  RoPE shapes (prefill, decode) x styles x layouts x types
#                    (f32, f16, bf16), serial vs a pool, ratio to a memcpy of
#                    the same bytes (--types, --shapes, --layouts, --gaps,
#                    --threads: own pools of those sizes)
#   actk_scaling     bench/scaling.sh's own parts (issue 14): scale, seed,
#                    contend, place (see its header)
#
# They read internal headers (bench/bench_internal.h: actk_pool_run, the
# planner, the parallel-calls counter, the topology), so they link the static
# library. (bench/research/actk_pool_ab, the A/B program behind the pool's
# numbers in docs/performance.md, is built from bench/research/.) bench_util.c
# holds what they share (timing, interleaved measurement, table/CSV output).
#
# Expects ACTK_BENCH_ROOT (the source tree's root), the targets actk_static
# and Threads::Threads, and find_package(OpenMP COMPONENTS C) already run:
# without OpenMP, actk_pool_bench has no OpenMP column, `actk_scaling --omp`
# refuses and actk_scaling's OpenMP contend rows say
# "no OpenMP".
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
