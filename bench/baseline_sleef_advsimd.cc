// Baseline "sleef" on AArch64: SLEEF 3.5, the 1.0-ULP AdvSIMD functions
// (Sleef_erff4_u10advsimd, Sleef_tanhf4_u10advsimd, Sleef_expf4_u10advsimd), 4
// floats at a time: baseline_sleef.cc's AVX2 column, the ops composed by
// sleef_compose.h the same way. AdvSIMD is baseline on AArch64: no target
// flags. bench/CMakeLists.txt builds this file instead of baseline_sleef.cc.
#include <arm_neon.h>
#include <sleef.h>

#include "sleef_compose.h"

namespace actkb {
namespace {
struct advsimd_u10 {
  using v = float32x4_t;
  static constexpr size_t w = 4;
  static constexpr bool has_erf = true;
  static v load(const float *p) { return vld1q_f32(p); }
  static void store(float *p, v a) { vst1q_f32(p, a); }
  static v add(v a, v b) { return vaddq_f32(a, b); }
  static v mul(v a, v b) { return vmulq_f32(a, b); }
  static v div(v a, v b) { return vdivq_f32(a, b); }
  static v set1(float f) { return vdupq_n_f32(f); }
  static v exp_neg(v a) { return Sleef_expf4_u10advsimd(vnegq_f32(a)); }
  static v erf(v a) { return Sleef_erff4_u10advsimd(a); }
  static v tanh(v a) { return Sleef_tanhf4_u10advsimd(a); }
};
using K = sleef_kernels<advsimd_u10>;
bool neon_runnable() { return actk_isa_supported(ACTK_ISA_NEON) != 0; }
} // namespace

const baseline sleef_baseline = {
    "sleef",
    "SLEEF 3.5 u10 AdvSIMD (Sleef_erff4/tanhf4/expf4_u10advsimd); sigmoid = 1/(1 + exp(-x)), "
    "silu/quick_gelu = x sigmoid(ax), gelu = 0.5x(1 + erf(x/sqrt2)), gelu_tanh = 0.5x(1 + tanh(u))",
    neon_runnable,
    K::all + K::first,
    K::count,
    nullptr,
    nullptr};

} // namespace actkb
