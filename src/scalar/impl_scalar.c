/* The portable implementation: the shared math instantiated on single floats.
 * It runs the same operation sequence as the vector ones (fmaf where they use
 * FMA), so it gives the same bits, on any CPU. */
#include "vec_scalar.h"

#include "../kernels/instantiate.h"

ACTK_DEFINE_IMPL(actk_impl_scalar, ACTK_FACTS_SCALAR)
