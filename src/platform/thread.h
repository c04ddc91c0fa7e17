/* Threads, one-time initialisation and locks, behind one interface with one
 * file per platform: thread_posix.c (pthreads; Linux pins with
 * pthread_setaffinity_np) and thread_windows.c (Win32 threads, which also
 * keep a worker's DLL mapped while the worker runs: docs/platforms.md;
 * INIT_ONCE and SRWLOCK, for MinGW-w64 and MSVC alike). */
#ifndef ACTK_PLATFORM_THREAD_H
#define ACTK_PLATFORM_THREAD_H

#include <stddef.h>

/* A thread-local variable: C11's _Thread_local, which MSVC's C compiler is
 * not known to accept (untested: docs/platforms.md); its own spelling is
 * __declspec(thread), which also works in a DLL loaded at run time (Vista
 * and later). */
#if defined(_MSC_VER) && !defined(__clang__)
#define ACTK_THREAD_LOCAL __declspec(thread)
#else
#define ACTK_THREAD_LOCAL _Thread_local
#endif

#ifdef _WIN32
/* Without <windows.h>: INIT_ONCE and SRWLOCK are each one pointer, all zero
 * when unused (INIT_ONCE_STATIC_INIT, SRWLOCK_INIT); thread_windows.c
 * checks the sizes. */
typedef void *actk_thread; /* the thread's HANDLE */
typedef struct {
  void *opaque;
} actk_once_flag;
#define ACTK_ONCE_INIT                                                                             \
  { 0 }
typedef struct {
  void *opaque;
} actk_mutex;
#define ACTK_MUTEX_INIT                                                                            \
  { 0 }
#else
#include <pthread.h>
typedef pthread_t actk_thread;
typedef pthread_once_t actk_once_flag;
#define ACTK_ONCE_INIT PTHREAD_ONCE_INIT
typedef pthread_mutex_t actk_mutex; /* fork handlers may unlock it in the child */
#define ACTK_MUTEX_INIT PTHREAD_MUTEX_INITIALIZER
#endif

/* Runs fn exactly once per flag (a static one, = ACTK_ONCE_INIT); every
 * caller returns after it finished. */
void actk_once(actk_once_flag *flag, void (*fn)(void));

/* A non-recursive lock: a static one is = ACTK_MUTEX_INIT, any other is set
 * up with actk_mutex_init and ended with actk_mutex_destroy. */
void actk_mutex_init(actk_mutex *m);
void actk_mutex_destroy(actk_mutex *m);
void actk_mutex_lock(actk_mutex *m);
void actk_mutex_unlock(actk_mutex *m);

/* Starts fn(arg) on a new thread with a stack of stack_bytes: 0 on success. */
int actk_thread_start(actk_thread *t, void *(*fn)(void *), void *arg, size_t stack_bytes);

/* Waits for the thread to end and releases it. */
void actk_thread_join(actk_thread t);

/* Binds the calling thread to logical CPU cpu (an index that
 * actk_topology_core_cpus returned); does nothing where there is no such
 * thing (macOS). */
void actk_thread_pin_self(int cpu);

/* pthread_atfork where there is fork(); nothing on Windows (there is none:
 * a CreateProcess child loads the library afresh). */
void actk_thread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void));

/* Nonzero once the process is exiting with the library still loaded
 * (Windows: DllMain saw DLL_PROCESS_DETACH at process exit, when every other
 * thread is already gone and any lock they held stays held): the unload
 * hook then must not join or lock anything. Always 0 elsewhere. */
int actk_thread_process_exiting(void);

#endif
