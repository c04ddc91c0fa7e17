/* Parking: put a thread to sleep while a 32-bit atomic word holds a value,
 * and wake the threads sleeping on a word. One file per platform implements
 * it (park_linux.c: futex; park_windows.c: WaitOnAddress; park_posix.c: a
 * mutex and condition variable per bucket of addresses); CMake picks one.
 *
 * The contract every implementation keeps (docs/pool-memory-order.md argues
 * it for each):
 *  - No lost wake-up: if actk_park_wait's check reads `expected`, and another
 *    thread then changes the word and calls a wake on it, the waiter wakes.
 *    Wakers change the word before they wake (a wake with no change may be
 *    ignored).
 *  - actk_park_wait returns only once it has read a value other than
 *    `expected`: spurious wake-ups stay inside it.
 *  - No memory order is taken from the park: callers publish data through the
 *    word (or other atomics) with C11 orders of their own.
 *  - A wake on an address nobody waits on is harmless. */
#ifndef ACTK_PLATFORM_PARK_H
#define ACTK_PLATFORM_PARK_H

#include <stdatomic.h>

/* Sleep while *word == expected. */
void actk_park_wait(atomic_uint *word, unsigned expected);

/* Wake at least min(count, waiters) threads waiting on word (an
 * implementation may wake more; they re-check and sleep again). */
void actk_park_wake(atomic_uint *word, unsigned count);

/* Wake every thread waiting on word. */
void actk_park_wake_all(atomic_uint *word);

/* Let another thread that shares this CPU run. Only for a bounded spin that
 * then parks: a loop that only yields burns a core (tools/check_waits.py
 * rejects one). */
void actk_park_yield(void);

#endif
