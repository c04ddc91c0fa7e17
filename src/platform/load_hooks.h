/* Functions the library runs when it is loaded and unloaded, the one place
 * that spells them per compiler. Use as a definition:
 *   ACTK_ON_LOAD(name) { ... }    ACTK_ON_UNLOAD(name) { ... }
 *
 * GCC and clang (Linux, MinGW-w64, macOS): constructor and destructor
 * attributes; unload is dlclose or exit(), on Windows the CRT's
 * DLL_PROCESS_DETACH after DllMain (dllmain_windows.c).
 *
 * MSVC (untested: docs/platforms.md): a load hook is a pointer in the CRT's
 * initialiser section .CRT$XCU, which the CRT calls at load; /include keeps
 * the linker from dropping it, as nothing references it. MSVC has no
 * destructor: an unload hook is registered with atexit from its own load
 * hook, and runs at exit(), or in a DLL at DLL_PROCESS_DETACH, where the
 * CRT calls it after DllMain, as MinGW's runtime does. */
#ifndef ACTK_PLATFORM_LOAD_HOOKS_H
#define ACTK_PLATFORM_LOAD_HOOKS_H

#if defined(_MSC_VER) && !defined(__clang__)
#include <stdlib.h>
#pragma section(".CRT$XCU", read)
#ifdef _M_IX86
#define ACTK_SYMBOL_PREFIX "_" /* x86-32 C names carry an underscore */
#else
#define ACTK_SYMBOL_PREFIX ""
#endif
#define ACTK_LOAD_ENTRY(fn)                                                                        \
  __declspec(allocate(".CRT$XCU")) void (*actk_load_entry_##fn)(void) = fn;                        \
  __pragma(comment(linker, "/include:" ACTK_SYMBOL_PREFIX "actk_load_entry_" #fn))
#define ACTK_ON_LOAD(fn)                                                                           \
  static void fn(void);                                                                            \
  ACTK_LOAD_ENTRY(fn)                                                                              \
  static void fn(void)
#define ACTK_ON_UNLOAD(fn)                                                                         \
  static void fn(void);                                                                            \
  static void actk_register_##fn(void) { atexit(fn); }                                             \
  ACTK_LOAD_ENTRY(actk_register_##fn)                                                              \
  static void fn(void)
#else
#define ACTK_ON_LOAD(fn) __attribute__((constructor)) static void fn(void)
#define ACTK_ON_UNLOAD(fn) __attribute__((destructor)) static void fn(void)
#endif

#endif
