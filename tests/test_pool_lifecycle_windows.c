/* The default pool across a DLL's life on Windows (docs/platforms.md):
 *
 *   test_pool_lifecycle_windows freelibrary DLL
 *       LoadLibrary / a parallel call on actk_pool_default() / FreeLibrary,
 *       8 rounds: no round hangs (the loader lock: a FreeLibrary that joined
 *       the workers from DLL_PROCESS_DETACH would deadlock), the results are
 *       right, no worker runs in an unmapped DLL (the process would die of
 *       an access violation while we wait after each FreeLibrary), and the
 *       process's threads do not grow past the first round's.
 *   test_pool_lifecycle_windows exit DLL
 *       the process ends (return from main) with the DLL loaded and its
 *       default pool's workers alive: it exits, status 0, no hang.
 *
 * No fork(): see test_pool.c's test_fork. */
#include <windows.h>
#include <tlhelp32.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actk.h"

typedef actk_pool *(*default_fn)(void);
typedef unsigned (*threads_fn)(const actk_pool *);
typedef actk_status (*gelu_fn)(actk_pool *, const float *, float *, size_t);

#define N ((size_t)1 << 22) /* large enough for every call to go parallel */

static int fail(const char *what) {
  fprintf(stderr, "FAIL: %s (GetLastError %lu)\n", what, (unsigned long)GetLastError());
  return 1;
}

/* threads of this process (a Toolhelp snapshot) */
static int process_threads(void) {
  HANDLE s = CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
  if (s == INVALID_HANDLE_VALUE) return -1;
  THREADENTRY32 te;
  te.dwSize = sizeof te;
  int n = 0;
  DWORD me = GetCurrentProcessId();
  for (BOOL ok = Thread32First(s, &te); ok; ok = Thread32Next(s, &te))
    if (te.th32OwnerProcessID == me) n++;
  CloseHandle(s);
  return n;
}

/* one round: load, a parallel call on the default pool checked against the
 * same call on the calling thread, unload unless keep */
static int round_trip(const char *dll, float *x, float *want, float *y, int keep,
                      unsigned *workers) {
  HMODULE h = LoadLibraryA(dll);
  if (!h) return fail("LoadLibrary");
  default_fn pool_default = (default_fn)(void (*)(void))GetProcAddress(h, "actk_pool_default");
  threads_fn pool_threads = (threads_fn)(void (*)(void))GetProcAddress(h, "actk_pool_threads");
  gelu_fn gelu = (gelu_fn)(void (*)(void))GetProcAddress(h, "actk_gelu_f32");
  if (!pool_default || !pool_threads || !gelu) return fail("GetProcAddress");
  actk_pool *pool = pool_default();
  if (!pool) return fail("actk_pool_default() is NULL");
  *workers = pool_threads(pool);
  if (gelu(NULL, x, want, N) != ACTK_OK || gelu(pool, x, y, N) != ACTK_OK)
    return fail("actk_gelu_f32 failed");
  if (memcmp(want, y, N * sizeof *y) != 0) return fail("the default pool's bits differ");
  if (!keep && !FreeLibrary(h)) return fail("FreeLibrary");
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "freelibrary") && strcmp(argv[1], "exit"))) {
    fprintf(stderr, "usage: %s freelibrary|exit DLL\n", argv[0]);
    return 2;
  }
  setvbuf(stdout, NULL, _IONBF, 0); /* the lines before a hang must show */
  float *x = malloc(N * sizeof *x), *want = malloc(N * sizeof *want), *y = malloc(N * sizeof *y);
  if (!x || !want || !y) return fail("malloc");
  for (size_t i = 0; i < N; i++) x[i] = (float)((double)i / (double)N * 16.0 - 8.0);
  const int base = process_threads();
  unsigned workers = 0;
  if (!strcmp(argv[1], "exit")) {
    if (round_trip(argv[2], x, want, y, 1, &workers)) return 1;
    printf("exit: returning from main with the DLL loaded, %u threads in its default pool, "
           "%d threads in the process\n",
           workers, process_threads());
    fflush(stdout);
    return 0; /* the test: this exits (ctest's timeout catches a hang) */
  }
  int first = -1;
  for (int r = 0; r < 8; r++) {
    if (round_trip(argv[2], x, want, y, 0, &workers)) return 1;
    /* a worker left in the unmapped DLL faults as soon as it runs: give the
     * spinning ones time past their spin */
    Sleep(100);
    HMODULE still = GetModuleHandleA(argv[2]);
    int now = process_threads();
    printf("round %d: default pool of %u threads; after FreeLibrary the DLL is %s, %d threads "
           "(%d before the first load)\n",
           r, workers, still ? "still loaded (pinned by its workers)" : "unloaded", now, base);
    if (!still && now != base) {
      fprintf(stderr, "FAIL: the DLL is unloaded but %d threads remain (%d before)\n", now, base);
      return 1;
    }
    if (first < 0) first = now;
    if (now > first) {
      fprintf(stderr, "FAIL: round %d: %d threads, round 0 left %d: workers leak\n", r, now, first);
      return 1;
    }
  }
  printf("ok: 8 LoadLibrary/FreeLibrary rounds, results right, no hang, threads bounded\n");
  free(x);
  free(want);
  free(y);
  return 0;
}
