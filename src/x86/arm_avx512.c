/* The AVX-512 arm: the shared math instantiated on 16-float vectors.
 * Compiled with -mavx512f -mavx512dq -mfma only (see CMakeLists.txt). */
#include "vec_avx512.h"

#include "../math/arm_template.h"

ACTK_DEFINE_ARM(actk_arm_avx512, ACTK_ISA_AVX512, "avx512")
