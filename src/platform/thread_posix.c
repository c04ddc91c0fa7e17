/* pthreads (Linux, macOS, the BSDs). */
#define _GNU_SOURCE /* pthread_setaffinity_np */
#include "thread.h"

#ifdef __linux__
#include <sched.h>
#endif

int actk_thread_start(actk_thread *t, void *(*fn)(void *), void *arg, size_t stack_bytes) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return -1;
  pthread_attr_setstacksize(&attr, stack_bytes);
  int rc = pthread_create(t, &attr, fn, arg);
  pthread_attr_destroy(&attr);
  return rc;
}

void actk_thread_join(actk_thread t) { pthread_join(t, NULL); }

void actk_thread_pin_self(int cpu) {
#ifdef __linux__
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
#else
  (void)cpu; /* macOS has no CPU binding; the BSDs' differ: not used */
#endif
}

void actk_thread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void)) {
  pthread_atfork(prepare, parent, child);
}

int actk_thread_process_exiting(void) { return 0; }

void actk_once(actk_once_flag *flag, void (*fn)(void)) { pthread_once(flag, fn); }

void actk_mutex_init(actk_mutex *m) { pthread_mutex_init(m, NULL); }
void actk_mutex_destroy(actk_mutex *m) { pthread_mutex_destroy(m); }
void actk_mutex_lock(actk_mutex *m) { pthread_mutex_lock(m); }
void actk_mutex_unlock(actk_mutex *m) { pthread_mutex_unlock(m); }
