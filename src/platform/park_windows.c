/* Parking on Windows (8 and later): WaitOnAddress compares the word with
 * `expected` and sleeps as one step against WakeByAddressSingle/All on the
 * same address, as a futex does, so a wake that follows a change of the word
 * is never lost. It may return spuriously: the loop re-checks. Link with
 * synchronization (CMake adds it). */
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0602 /* WaitOnAddress: Windows 8 */
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include "platform/park.h"

void actk_park_wait(atomic_uint *word, unsigned expected) {
  while (atomic_load(word) == expected) {
    unsigned cmp = expected; /* WaitOnAddress compares *word with *&cmp */
    WaitOnAddress((volatile VOID *)word, &cmp, sizeof cmp, INFINITE);
  }
}

void actk_park_wake(atomic_uint *word, unsigned count) {
  /* No wake-n: one at a time for the few a job needs, else all */
  if (count > 4) {
    WakeByAddressAll((PVOID)word);
    return;
  }
  for (unsigned i = 0; i < count; i++) WakeByAddressSingle((PVOID)word);
}

void actk_park_wake_all(atomic_uint *word) { WakeByAddressAll((PVOID)word); }

void actk_park_yield(void) { SwitchToThread(); }
