/* The AArch64 NEON implementation: the shared math instantiated on 4-float
 * vectors. NEON is baseline on AArch64: no extra compile flags. */
#include "vec_neon.h"

#include "../kernels/instantiate.h"

ACTK_DEFINE_IMPL(actk_impl_neon, ACTK_FACTS_NEON)
