/* The AVX2 + FMA3 implementation: the shared math instantiated on 8-float
 * vectors. Compiled with -mavx2 -mfma only (see CMakeLists.txt). */
#include "vec_avx2.h"

#include "../kernels/instantiate.h"

ACTK_DEFINE_IMPL(actk_impl_avx2, ACTK_FACTS_AVX2)
