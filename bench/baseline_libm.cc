// Baseline "libm": the plain libm loop an engine without a kernel library writes
// (tools/libm_loops.c, the same loops the CLI's libm column times).
#include "bench_ops.h"
#include "libm_loops.h"

#include <vector>

namespace actkb {
namespace {

bool always_runnable() { return true; }

// The loops' table in this program's shape (same signature, same order).
const std::vector<named_kernel> &libm_table() {
  static const std::vector<named_kernel> t = [] {
    std::vector<named_kernel> v;
    for (size_t i = 0; i < actk_libm_loops_size; i++)
      v.push_back({actk_libm_loops[i].op, actk_libm_loops[i].fn});
    return v;
  }();
  return t;
}
} // namespace

const baseline libm_baseline = {
    "libm",
    "the plain libm loop an engine without a kernel library writes (glibc, scalar)",
    always_runnable,
    libm_table().data(),
    actk_libm_loops_size,
    nullptr,
    nullptr};

} // namespace actkb
