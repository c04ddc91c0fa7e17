/* Which arm runs: chosen once per process, switchable for tests. */
#ifndef ACTK_DISPATCH_H
#define ACTK_DISPATCH_H

#include "arm.h"

/* The active arm. First call chooses it (pthread_once); later calls are one
 * atomic load. Never NULL. */
const actk_arm *actk_dispatch_active(void);

/* The arm for an isa value, or NULL if not built or not runnable here. */
const actk_arm *actk_dispatch_find(actk_isa isa);

#endif
