/* The AVX2 + FMA3 arm: the shared math instantiated on 8-float vectors.
 * Compiled with -mavx2 -mfma only (see CMakeLists.txt). */
#include "vec_avx2.h"

#include "../math/arm_template.h"

ACTK_DEFINE_ARM(actk_arm_avx2, ACTK_ISA_AVX2, "avx2")
