/* Parking on Linux: the futex system call. FUTEX_WAIT compares the word with
 * `expected` and sleeps as one step against FUTEX_WAKE on the same address,
 * so a wake that follows a change of the word is never lost. Private futexes:
 * the words never leave this process. */
#define _GNU_SOURCE
#include "platform/park.h"

#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

void actk_park_wait(atomic_uint *word, unsigned expected) {
  /* EINTR, EAGAIN (the word already differs) and spurious wake-ups: re-check */
  while (atomic_load(word) == expected)
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *word, int count) {
  syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

void actk_park_wake(atomic_uint *word, unsigned count) {
  futex_wake(word, count > INT_MAX ? INT_MAX : (int)count);
}

void actk_park_wake_all(atomic_uint *word) { futex_wake(word, INT_MAX); }

void actk_park_yield(void) { sched_yield(); }
