/* Load-time choice of an implementation, from CPU facts and ACTK_ISA. Every
 * decision reads the implementations' own facts (name, rank, required
 * features): there is no per-ISA code here. */
#include "dispatch.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "platform/thread.h"

/* The implementations this build has. */
static const actk_impl *const g_impls[] = {
    &actk_impl_scalar,
#if defined(ACTK_HAVE_X86_IMPLS)
    &actk_impl_avx2,
    &actk_impl_avx512,
#endif
#if defined(ACTK_HAVE_ARM_IMPLS)
    &actk_impl_neon,
#endif
};
#define N_IMPLS (sizeof g_impls / sizeof g_impls[0])

/* Every instruction set the header names, built or not. */
static const actk_isa_facts g_known[] = ACTK_ALL_ISA_FACTS;
#define N_KNOWN (sizeof g_known / sizeof g_known[0])

static const char *const g_feature_names[ACTK_N_FEATURES] = ACTK_FEATURE_NAMES;

static _Atomic(const actk_impl *) g_active;
static actk_once_flag g_once = ACTK_ONCE_INIT;
static char g_auto_reason[192];        /* written once, under g_once */
static _Atomic(const char *) g_reason; /* g_auto_reason or one of g_forced_reason */
/* "actk_isa_force(<name>)" per known set, written once under g_once (a
 * reader may still hold the previous reason: no buffer is ever rewritten) */
static char g_forced_reason[N_KNOWN][48];

static const actk_isa_facts *facts_of(actk_isa isa) {
  for (size_t i = 0; i < N_KNOWN; i++)
    if (g_known[i].isa == isa) return &g_known[i];
  return NULL;
}

static const actk_impl *built(actk_isa isa) {
  for (size_t i = 0; i < N_IMPLS; i++)
    if (g_impls[i]->facts.isa == isa) return g_impls[i];
  return NULL;
}

/* Why an implementation cannot run here (into buf), or NULL if it can. */
static const char *unsupported_because(const actk_isa_facts *f, char *buf, size_t size) {
  if (!built(f->isa)) return "not in this build";
  uint32_t missing = f->requires & ~actk_cpu_get()->features;
  if (!missing) return NULL;
  size_t k = (size_t)snprintf(buf, size, "lacks");
  for (unsigned b = 0; b < ACTK_N_FEATURES && k < size; b++)
    if (missing & (1u << b)) k += (size_t)snprintf(buf + k, size - k, " %s", g_feature_names[b]);
  return buf;
}

static int runs_here(const actk_isa_facts *f) {
  char why[96];
  return unsupported_because(f, why, sizeof why) == NULL;
}

const actk_impl *actk_dispatch_find(actk_isa isa) {
  const actk_isa_facts *f = facts_of(isa);
  return f && runs_here(f) ? built(isa) : NULL;
}

const actk_impl *actk_dispatch_best(void) {
  const actk_impl *best = &actk_impl_scalar; /* runs anywhere */
  for (size_t i = 0; i < N_IMPLS; i++)
    if (g_impls[i]->facts.rank > best->facts.rank && runs_here(&g_impls[i]->facts))
      best = g_impls[i];
  return best;
}

static void choose(void) {
  for (size_t i = 0; i < N_KNOWN; i++)
    snprintf(g_forced_reason[i], sizeof g_forced_reason[i], "actk_isa_force(%s)", g_known[i].name);
  const actk_impl *best = actk_dispatch_best(), *chosen = best;
  const char *forced = getenv("ACTK_ISA");
  char why[96];
  if (forced && *forced && strcmp(forced, "auto") != 0) {
    const actk_isa_facts *want = NULL;
    for (size_t i = 0; i < N_KNOWN; i++)
      if (strcmp(g_known[i].name, forced) == 0) want = &g_known[i];
    const char *no = want ? unsupported_because(want, why, sizeof why) : "not an instruction set";
    if (!no) {
      chosen = built(want->isa);
      snprintf(g_auto_reason, sizeof g_auto_reason, "ACTK_ISA=%s", forced);
    } else {
      snprintf(g_auto_reason, sizeof g_auto_reason, "ACTK_ISA=%.32s ignored (%s); auto: %s", forced,
               no, best->facts.name);
    }
  } else {
    /* the reason names what the next-ranked known set of this architecture
     * lacks, if any (ranks compare within an architecture only) */
    const uint32_t arch = actk_cpu_get()->features & ACTK_FEATURE_ARCH_MASK;
    const actk_isa_facts *next = NULL;
    for (size_t i = 0; i < N_KNOWN; i++)
      if ((g_known[i].requires & arch) && g_known[i].rank > best->facts.rank &&
          (!next || g_known[i].rank < next->rank))
        next = &g_known[i];
    if (next)
      snprintf(g_auto_reason, sizeof g_auto_reason, "auto: %s (%s: %s)", best->facts.name,
               next->name, unsupported_because(next, why, sizeof why));
    else
      snprintf(g_auto_reason, sizeof g_auto_reason, "auto: %s (cpu has it, os saves its state)",
               best->facts.name);
  }
  atomic_store_explicit(&g_reason, g_auto_reason, memory_order_release);
  atomic_store_explicit(&g_active, chosen, memory_order_release);
}

const actk_impl *actk_dispatch_active(void) {
  actk_once(&g_once, choose);
  return atomic_load_explicit(&g_active, memory_order_acquire);
}

/* ---- public part ---- */

actk_isa actk_isa_active(void) { return actk_dispatch_active()->facts.isa; }

actk_isa actk_isa_best(void) { return actk_dispatch_best()->facts.isa; }

const char *actk_isa_name(actk_isa isa) {
  const actk_isa_facts *f = facts_of(isa);
  return f ? f->name : NULL;
}

int actk_isa_supported(actk_isa isa) { return actk_dispatch_find(isa) != NULL; }

const char *actk_isa_reason(void) {
  actk_dispatch_active();
  return atomic_load_explicit(&g_reason, memory_order_acquire);
}

actk_status actk_isa_force(actk_isa isa) {
  if (!facts_of(isa)) return ACTK_ERR_INVALID_ARGUMENT;
  const actk_impl *impl = actk_dispatch_find(isa);
  if (!impl) return ACTK_ERR_UNSUPPORTED_ISA;
  actk_dispatch_active(); /* let the first choice happen, then override it */
  const char *reason = g_forced_reason[facts_of(isa) - g_known];
  atomic_store_explicit(&g_reason, reason, memory_order_release);
  atomic_store_explicit(&g_active, impl, memory_order_release);
  return ACTK_OK;
}

static char g_summary[256];
static actk_once_flag g_summary_once = ACTK_ONCE_INIT;

static void fill_summary(void) {
  const actk_cpu *c = actk_cpu_get();
  if (c->is_arm64) {
    snprintf(g_summary, sizeof g_summary,
             "aarch64 | %s | asimd=%d bf16=%d | cores=%d logical=%d | via %s",
             c->brand[0] ? c->brand : "?", c->has_asimd, c->has_bf16, c->physical_cores,
             c->logical_cpus, c->source);
    return;
  }
  if (!c->is_x86) {
    snprintf(g_summary, sizeof g_summary, "? | cores=%d logical=%d | via %s", c->physical_cores,
             c->logical_cpus, c->source);
    return;
  }
  snprintf(g_summary, sizeof g_summary,
           "%s | %s | avx2=%d fma=%d f16c=%d avx512f=%d avx512dq=%d avx512bw=%d avx512vl=%d "
           "os-ymm=%d os-zmm=%d | cores=%d logical=%d | via %s",
           c->vendor[0] ? c->vendor : "?", c->brand[0] ? c->brand : "?", c->has_avx2, c->has_fma,
           c->has_f16c, c->has_avx512f, c->has_avx512dq, c->has_avx512bw, c->has_avx512vl,
           c->os_saves_ymm, c->os_saves_zmm, c->physical_cores, c->logical_cpus, c->source);
}

const char *actk_cpu_summary(void) {
  actk_once(&g_summary_once, fill_summary);
  return g_summary;
}
