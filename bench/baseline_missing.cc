// Empty tables for the optional baselines whose library was not found.
#include "bench_ops.h"

namespace actkb {

#if !defined(ACTK_BENCH_HAVE_EIGEN)
const kernel_fn eigen_kernels[OP_COUNT] = {};
const bool have_eigen = false;
#endif
#if !defined(ACTK_BENCH_HAVE_SLEEF)
const kernel_fn sleef_kernels[OP_COUNT] = {};
const bool have_sleef = false;
#endif

} // namespace actkb
