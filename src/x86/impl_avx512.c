/* The AVX-512 implementation: the shared math instantiated on 16-float
 * vectors. Compiled with -mavx512f -mavx512dq -mfma only (see CMakeLists.txt). */
#include "vec_avx512.h"

#include "../kernels/instantiate.h"

ACTK_DEFINE_IMPL(actk_impl_avx512, ACTK_FACTS_AVX512)
