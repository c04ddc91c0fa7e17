/* Which implementation runs: chosen once per process, switchable for tests. */
#ifndef ACTK_DISPATCH_H
#define ACTK_DISPATCH_H

#include "impl.h"

/* The active implementation. The first call chooses it (actk_once);
 * later calls are one atomic load. Never NULL. */
const actk_impl *actk_dispatch_active(void);

/* The implementation of an isa value, or NULL if not built or not runnable here. */
const actk_impl *actk_dispatch_find(actk_isa isa);

/* The best implementation this machine runs (highest rank), whatever
 * ACTK_ISA or actk_isa_force chose. */
const actk_impl *actk_dispatch_best(void);

#endif
