/* actk.dll's DllMain (built into the DLL only, so a program or DLL that
 * links libactk.a keeps its own). At process exit (DLL_PROCESS_DETACH with
 * lpReserved set) Windows has already ended every other thread, perhaps
 * inside a lock: the library's unload hook, which MinGW's runtime runs after
 * this function returns, must then leave the pool alone (thread.h). A
 * FreeLibrary never gets here while a pool's worker lives: each holds a
 * reference to the DLL (thread_windows.c). */
#define WIN32_LEAN_AND_MEAN
#define NOMINMAX
#include <windows.h>

void actk_thread_note_process_exit(void);

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved);
BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved) {
  (void)instance;
  if (reason == DLL_PROCESS_DETACH && reserved != NULL) actk_thread_note_process_exit();
  return TRUE;
}
