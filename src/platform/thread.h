/* Threads for the pool, behind one interface with one file per platform:
 * thread_posix.c (pthreads; Linux pins with pthread_setaffinity_np) and
 * thread_windows.c (Win32 threads, which also keep a worker's DLL mapped
 * while the worker runs: docs/platforms.md). */
#ifndef ACTK_PLATFORM_THREAD_H
#define ACTK_PLATFORM_THREAD_H

#include <stddef.h>

#ifdef _WIN32
typedef void *actk_thread; /* the thread's HANDLE */
#else
#include <pthread.h>
typedef pthread_t actk_thread;
#endif

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
