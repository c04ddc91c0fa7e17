/* Win32 threads (_beginthreadex), for MinGW-w64 and MSVC alike.
 *
 * Each thread holds a reference to the module its code lives in (actk.dll,
 * or the program that linked actk statically) from its first instruction to
 * its last, and drops it with FreeLibraryAndExitThread, which never returns
 * into the module. So a FreeLibrary of actk.dll while a pool's workers live
 * (the default pool's always do) leaves the DLL mapped under them instead of
 * unmapping code they run; joining them from DllMain instead would deadlock
 * on the loader lock that their exit needs (docs/platforms.md). */
#include "thread.h"

#define WIN32_LEAN_AND_MEAN
#define NOMINMAX
#include <windows.h>

#include <process.h>
#include <stdalign.h>
#include <stdlib.h>

/* thread.h spells INIT_ONCE and SRWLOCK as one opaque pointer each */
_Static_assert(sizeof(actk_once_flag) == sizeof(INIT_ONCE) &&
                   alignof(actk_once_flag) == alignof(INIT_ONCE),
               "actk_once_flag is not an INIT_ONCE");
_Static_assert(sizeof(actk_mutex) == sizeof(SRWLOCK) && alignof(actk_mutex) == alignof(SRWLOCK),
               "actk_mutex is not an SRWLOCK");

typedef struct {
  void *(*fn)(void *);
  void *arg;
  HMODULE module; /* this code's module, referenced, or NULL */
} start_arg;

static unsigned __stdcall trampoline(void *p) {
  start_arg a = *(start_arg *)p;
  free(p);
  a.fn(a.arg);
  if (a.module) FreeLibraryAndExitThread(a.module, 0);
  return 0;
}

static const char g_module_anchor; /* an address inside this module */

int actk_thread_start(actk_thread *t, void *(*fn)(void *), void *arg, size_t stack_bytes) {
  start_arg *a = malloc(sizeof *a);
  if (!a) return -1;
  a->fn = fn;
  a->arg = arg;
  a->module = NULL;
  /* a counted reference to the module holding this code: taken here,
   * before the thread exists, so no unload can slip in between. Any address
   * in the module names it; a data object's, as ISO C has no conversion from
   * a function pointer to an object pointer. */
  if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS, (LPCWSTR)&g_module_anchor,
                          &a->module))
    a->module = NULL;
  uintptr_t h = _beginthreadex(NULL, (unsigned)stack_bytes, trampoline, a,
                               STACK_SIZE_PARAM_IS_A_RESERVATION, NULL);
  if (!h) {
    if (a->module) FreeLibrary(a->module);
    free(a);
    return -1;
  }
  *t = (actk_thread)h;
  return 0;
}

void actk_thread_join(actk_thread t) {
  WaitForSingleObject((HANDLE)t, INFINITE);
  CloseHandle((HANDLE)t);
}

void actk_thread_pin_self(int cpu) {
  /* cpu is in the calling thread's processor group (sysinfo_windows.c);
   * workers start in their creator's group */
  if (cpu >= 0 && cpu < (int)(8 * sizeof(DWORD_PTR)))
    SetThreadAffinityMask(GetCurrentThread(), (DWORD_PTR)1 << cpu);
}

void actk_thread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void)) {
  (void)prepare, (void)parent, (void)child; /* no fork() */
}

typedef struct {
  void (*fn)(void);
} once_call; /* a function pointer cannot travel as InitOnceExecuteOnce's void * */

static BOOL CALLBACK once_trampoline(PINIT_ONCE once, PVOID param, PVOID *context) {
  (void)once, (void)context;
  ((once_call *)param)->fn();
  return TRUE;
}

void actk_once(actk_once_flag *flag, void (*fn)(void)) {
  once_call call = {fn};
  InitOnceExecuteOnce((PINIT_ONCE)(void *)flag, once_trampoline, &call, NULL);
}

/* An SRWLOCK needs no destroy; there is no fork() to unlock it across. */
void actk_mutex_init(actk_mutex *m) { InitializeSRWLock((PSRWLOCK)(void *)m); }
void actk_mutex_destroy(actk_mutex *m) { (void)m; }
void actk_mutex_lock(actk_mutex *m) { AcquireSRWLockExclusive((PSRWLOCK)(void *)m); }
void actk_mutex_unlock(actk_mutex *m) { ReleaseSRWLockExclusive((PSRWLOCK)(void *)m); }

static volatile LONG g_process_exiting;

/* called by DllMain (dllmain_windows.c, in actk.dll only) */
void actk_thread_note_process_exit(void);
void actk_thread_note_process_exit(void) { InterlockedExchange(&g_process_exiting, 1); }

int actk_thread_process_exiting(void) {
  return InterlockedCompareExchange(&g_process_exiting, 0, 0);
}
