/* Load-time choice of an arm, from CPU facts and ACTK_ISA. */
#include "dispatch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

/* Best first. */
static const actk_arm *const g_arms[] = {
#if defined(ACTK_HAVE_X86_ARMS)
    &actk_arm_avx512, &actk_arm_avx2,
#endif
    &actk_arm_scalar, /* last: the fallback */
};
#define N_ARMS (sizeof g_arms / sizeof g_arms[0])

static _Atomic(const actk_arm *) g_active;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static char g_auto_reason[192];        /* written once, under g_once */
static _Atomic(const char *) g_reason; /* g_auto_reason or a literal */

/* Why an arm cannot run here, or NULL if it can. */
static const char *unsupported_because(const actk_arm *arm) {
  const actk_cpu *cpu = actk_cpu_get();
  switch (arm->isa) {
  case ACTK_ISA_SCALAR:
    return NULL;
  case ACTK_ISA_AVX2:
    if (!cpu->is_x86) return "not an x86 CPU";
    if (!cpu->has_avx2) return "cpu lacks avx2";
    if (!cpu->has_fma) return "cpu lacks fma";
    if (!cpu->os_saves_ymm) return "os does not save ymm state (OSXSAVE/XCR0)";
    return NULL;
  case ACTK_ISA_AVX512:
    if (!cpu->is_x86) return "not an x86 CPU";
    if (!cpu->has_avx512f || !cpu->has_avx512dq) return "cpu lacks avx512f/dq";
    if (!cpu->has_fma) return "cpu lacks fma";
    if (!cpu->os_saves_zmm) return "os does not save zmm state (OSXSAVE/XCR0)";
    return NULL;
  }
  return "unknown arm";
}

const actk_arm *actk_dispatch_find(actk_isa isa) {
  for (size_t i = 0; i < N_ARMS; i++)
    if (g_arms[i]->isa == isa) return unsupported_because(g_arms[i]) ? NULL : g_arms[i];
  return NULL;
}

static const actk_arm *best_arm(void) {
  for (size_t i = 0; i < N_ARMS; i++)
    if (!unsupported_because(g_arms[i])) return g_arms[i];
  return &actk_arm_scalar;
}

static const actk_arm *arm_named(const char *name) {
  for (size_t i = 0; i < N_ARMS; i++)
    if (strcmp(g_arms[i]->name, name) == 0) return g_arms[i];
  return NULL;
}

static void choose(void) {
  const actk_arm *best = best_arm();
  const char *forced = getenv("ACTK_ISA");
  const actk_arm *chosen = best;
  if (forced && *forced && strcmp(forced, "auto") != 0) {
    const actk_arm *want = arm_named(forced);
    const char *why = want ? unsupported_because(want) : "not an arm of this build";
    if (!why) {
      chosen = want;
      snprintf(g_auto_reason, sizeof g_auto_reason, "ACTK_ISA=%s", forced);
    } else {
      snprintf(g_auto_reason, sizeof g_auto_reason, "ACTK_ISA=%.32s ignored (%s); auto: %s", forced,
               why, best->name);
    }
  } else if (best->isa == ACTK_ISA_SCALAR) {
#if defined(ACTK_HAVE_X86_ARMS)
    snprintf(g_auto_reason, sizeof g_auto_reason, "auto: scalar (avx2 arm: %s)",
             unsupported_because(&actk_arm_avx2));
#else
    snprintf(g_auto_reason, sizeof g_auto_reason, "auto: scalar (no vector arm in this build)");
#endif
  } else {
    snprintf(g_auto_reason, sizeof g_auto_reason, "auto: %s (cpu has it, os saves its state)",
             best->name);
  }
  atomic_store_explicit(&g_reason, g_auto_reason, memory_order_release);
  atomic_store_explicit(&g_active, chosen, memory_order_release);
}

const actk_arm *actk_dispatch_active(void) {
  pthread_once(&g_once, choose);
  return atomic_load_explicit(&g_active, memory_order_acquire);
}

/* ---- public part ---- */

actk_isa actk_isa_active(void) { return actk_dispatch_active()->isa; }

const char *actk_isa_name(actk_isa isa) {
  switch (isa) {
  case ACTK_ISA_SCALAR:
    return "scalar";
  case ACTK_ISA_AVX2:
    return "avx2";
  case ACTK_ISA_AVX512:
    return "avx512";
  }
  return NULL;
}

int actk_isa_supported(actk_isa isa) { return actk_dispatch_find(isa) != NULL; }

const char *actk_isa_reason(void) {
  actk_dispatch_active();
  return atomic_load_explicit(&g_reason, memory_order_acquire);
}

actk_status actk_isa_force(actk_isa isa) {
  if (!actk_isa_name(isa)) return ACTK_ERR_INVALID_ARGUMENT;
  const actk_arm *arm = actk_dispatch_find(isa);
  if (!arm) return ACTK_ERR_UNSUPPORTED_ISA;
  actk_dispatch_active(); /* let the first choice happen, then override it */
  static const char *const forced[] = {"actk_isa_force(scalar)", "actk_isa_force(avx2)",
                                       "actk_isa_force(avx512)"};
  atomic_store_explicit(&g_reason, forced[isa], memory_order_release);
  atomic_store_explicit(&g_active, arm, memory_order_release);
  return ACTK_OK;
}

static char g_summary[256];
static pthread_once_t g_summary_once = PTHREAD_ONCE_INIT;

static void fill_summary(void) {
  const actk_cpu *c = actk_cpu_get();
  snprintf(g_summary, sizeof g_summary,
           "%s | %s | avx2=%d fma=%d avx512f=%d avx512dq=%d os-ymm=%d os-zmm=%d | cores=%d "
           "logical=%d | via %s",
           c->vendor[0] ? c->vendor : "?", c->brand[0] ? c->brand : "?", c->has_avx2, c->has_fma,
           c->has_avx512f, c->has_avx512dq, c->os_saves_ymm, c->os_saves_zmm, c->physical_cores,
           c->logical_cpus, c->source);
}

const char *actk_cpu_summary(void) {
  pthread_once(&g_summary_once, fill_summary);
  return g_summary;
}
