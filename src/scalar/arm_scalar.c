/* The portable arm: the shared math instantiated on single floats. It runs
 * the same operation sequence as the vector arms (fmaf where they use FMA), so
 * it gives the same bits, on any CPU. */
#include "vec_scalar.h"

#include "../math/arm_template.h"

ACTK_DEFINE_ARM(actk_arm_scalar, ACTK_ISA_SCALAR, "scalar")
