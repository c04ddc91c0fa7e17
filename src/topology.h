/* Which CPUs the process may run on, one per physical core. */
#ifndef ACTK_TOPOLOGY_H
#define ACTK_TOPOLOGY_H

/* Fills cpus[] with one logical CPU per physical core in the process's
 * affinity mask (SMT siblings collapse to the first), in CPU order; returns
 * how many (>= 1), at most max. Falls back to every allowed CPU when the
 * topology cannot be read. */
int actk_topology_core_cpus(int *cpus, int max);

#endif
