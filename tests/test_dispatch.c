/* Isa dispatch.
 *
 *   test_dispatch SETTING
 *
 * SETTING is what ACTK_ISA holds in this process's environment: "unset" (the
 * test unsets it itself, before the library's first use), "empty", "auto",
 * "bogus" or the name of any ISA the library knows ("scalar", "avx2",
 * "avx512", ...). The library reads ACTK_ISA once, at its first use, so the
 * first test checks what the setting chose, before anything else touches the
 * library: an ISA this machine runs is taken, anything else falls back to the
 * automatic choice, actk_isa_best() (which by this test's CPUID rules must be
 * the last supported ISA in the header's order: avx512 > avx2 > scalar). Then: the active ISA is
 * supported and has a reason, forcing works and is reported for every isa,
 * changing the environment later has no effect, and the CPU facts agree with
 * CPUID/XCR0 read here (every ISA this test knows the rule of) and with
 * libcpuid (AVX2 and FMA only: libcpuid 0.6.2 does not report AVX-512 on AMD
 * Zen 4, so its AVX-512 flags are not evidence). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, in test_os.h (glibc hides it under strict POSIX 2008) */
#include "actk_test.h"
#include "test_os.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define TEST_X86 1
#endif
#ifdef ACTK_TEST_HAVE_LIBCPUID
#include <libcpuid.h>
#endif

static const char *g_setting = "unset";

/* The ISA the automatic choice must make: the library says which is best
 * (actk_isa_best); test_cpu_facts checks that against this test's own rules. */
static actk_isa best_supported(void) { return actk_isa_best(); }

/* The ISA named `name`, or -1 if no ISA has that name. */
static int isa_named(const char *name) {
  for (int a = 0; a < test_n_isa(); a++)
    if (!strcmp(actk_isa_name((actk_isa)a), name)) return a;
  return -1;
}

/* Must run first: nothing may have used the library yet. */
static void test_environment_choice(void **state) {
  (void)state;
  const char *env = getenv("ACTK_ISA");
  /* the test is registered right (ctest's ENVIRONMENT matches the argument) */
  if (!strcmp(g_setting, "unset"))
    test_check(env == NULL, "ACTK_ISA should be unset, is \"%s\"", env);
  else if (!strcmp(g_setting, "empty"))
    test_check(env && !env[0], "ACTK_ISA should be empty, is %s", env ? env : "unset");
  else
    test_check(env && !strcmp(env, g_setting), "ACTK_ISA should be \"%s\", is \"%s\"", g_setting,
               env ? env : "(unset)");

  const actk_isa active = actk_isa_active();
  const char *reason = actk_isa_reason();
  test_check(reason && reason[0], "actk_isa_reason() is NULL or empty");
  print_message("ACTK_ISA=%s: active %s, reason \"%s\"\n", env ? env : "(unset)",
                actk_isa_name(active), reason);
  print_message("cpu: %s\n", actk_cpu_summary());

  const int named = isa_named(g_setting);
  if (named >= 0 && actk_isa_supported((actk_isa)named)) {
    /* an ISA this machine runs: taken, and the reason says it was asked for */
    test_check(active == (actk_isa)named, "ACTK_ISA=%s (supported here): active isa is %s",
               g_setting, actk_isa_name(active));
    test_check(strstr(reason, "ACTK_ISA") != NULL && strstr(reason, g_setting) != NULL,
               "ACTK_ISA=%s: reason \"%s\" does not say so", g_setting, reason);
  } else if (named >= 0) {
    /* an ISA this machine cannot run: ignored, auto instead, and said so */
    test_check(active == best_supported(),
               "ACTK_ISA=%s (not supported here): active isa %s, auto would be %s", g_setting,
               actk_isa_name(active), actk_isa_name(best_supported()));
    test_check(strstr(reason, g_setting) != NULL, "reason \"%s\" does not mention %s", reason,
               g_setting);
    test_check(strstr(reason, "auto") != NULL,
               "ACTK_ISA=%s: reason \"%s\" does not say it fell back to auto", g_setting, reason);
  } else if (!strcmp(g_setting, "bogus")) {
    test_check(active == best_supported(), "ACTK_ISA=bogus: active isa %s, auto would be %s",
               actk_isa_name(active), actk_isa_name(best_supported()));
    test_check(strstr(reason, "bogus") != NULL, "ACTK_ISA=bogus: reason \"%s\" does not mention it",
               reason);
    test_check(strstr(reason, "auto") != NULL,
               "ACTK_ISA=bogus: reason \"%s\" does not say it fell back to auto", reason);
  } else {
    /* unset, empty, auto: the best isa, chosen automatically */
    test_check(active == best_supported(), "ACTK_ISA=%s: active isa %s, best supported is %s",
               g_setting, actk_isa_name(active), actk_isa_name(best_supported()));
    test_check(strstr(reason, "auto") != NULL, "ACTK_ISA=%s: reason \"%s\" does not say auto",
               g_setting, reason);
  }

  /* the environment is read once: changing it now (to every other ISA's
   * name in turn) changes nothing */
  float x = 0.5f, y;
  for (int a = 0; a < test_n_isa(); a++) {
    if ((actk_isa)a == active) continue;
    test_setenv("ACTK_ISA", actk_isa_name((actk_isa)a));
    assert_int_equal(actk_gelu_f32(NULL, &x, &y, 1), ACTK_OK);
    test_check(actk_isa_active() == active,
               "changing ACTK_ISA to %s after first use switched the isa to %s",
               actk_isa_name((actk_isa)a), actk_isa_name(actk_isa_active()));
  }
}

static void test_active_and_force(void **state) {
  (void)state;
  const actk_isa orig = actk_isa_active();
  test_check(actk_isa_supported(orig), "the active isa %s is not supported", actk_isa_name(orig));
  test_check(actk_isa_name(orig) != NULL, "the active isa has no name");
  test_check(actk_isa_supported(ACTK_ISA_SCALAR), "the scalar isa is not supported");
  test_check(actk_isa_reason() && actk_isa_reason()[0], "empty reason");

  test_check(test_n_isa() < TEST_MAX_ISA, "actk_isa_name() names every value");
  for (int a = 0; a < test_n_isa(); a++) {
    actk_isa isa = (actk_isa)a;
    actk_status s = actk_isa_force(isa);
    if (!actk_isa_supported(isa)) {
      test_check(s == ACTK_ERR_UNSUPPORTED_ISA, "forcing unsupported %s: %s", actk_isa_name(isa),
                 test_status_name(s));
      continue;
    }
    test_check(s == ACTK_OK, "actk_isa_force(%s) = %s", actk_isa_name(isa), test_status_name(s));
    test_check(actk_isa_active() == isa, "after actk_isa_force(%s) the active isa is %s",
               actk_isa_name(isa), actk_isa_name(actk_isa_active()));
    const char *reason = actk_isa_reason();
    test_check(reason && strstr(reason, actk_isa_name(isa)) != NULL,
               "after actk_isa_force(%s) the reason is \"%s\"", actk_isa_name(isa),
               reason ? reason : "(null)");
    float x[3] = {-1.0f, 0.0f, 2.0f}, y[3];
    test_check(actk_erf_f32(NULL, x, y, 3) == ACTK_OK, "erf on forced %s failed",
               actk_isa_name(isa));
    test_check(y[1] == 0.0f && y[0] < 0 && y[2] > 0, "erf on forced %s: nonsense",
               actk_isa_name(isa));
  }
  assert_int_equal(actk_isa_force(orig), ACTK_OK);
  assert_int_equal(actk_isa_active(), orig);
}

/* CPUID and XCR0, read here independently of the library. */
typedef struct cpu_bits {
  int fma, osxsave, avx, f16c, avx2, avx512f, avx512dq, avx512bw, avx512vl;
  unsigned long long xcr0; /* 0 unless OSXSAVE */
  int arm64, asimd;        /* AArch64 Linux: the kernel's HWCAP */
} cpu_bits;

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#define TEST_ARM64 1
#endif

#ifdef TEST_X86
static cpu_bits read_cpu_bits(void) {
  cpu_bits r;
  memset(&r, 0, sizeof r);
  unsigned a, b, c, d;
  if (!__get_cpuid(0, &a, &b, &c, &d)) return r;
  const unsigned max_leaf = a;
  if (max_leaf >= 1) {
    __cpuid_count(1, 0, a, b, c, d);
    r.fma = (c >> 12) & 1;
    r.osxsave = (c >> 27) & 1;
    r.avx = (c >> 28) & 1;
    r.f16c = (c >> 29) & 1;
  }
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    r.avx2 = (b >> 5) & 1;
    r.avx512f = (b >> 16) & 1;
    r.avx512dq = (b >> 17) & 1;
    r.avx512bw = (b >> 30) & 1;
    r.avx512vl = (b >> 31) & 1;
  }
  if (r.osxsave) { /* xgetbv is legal only then */
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    r.xcr0 = ((unsigned long long)hi << 32) | lo;
  }
  return r;
}
#endif

/* Whether the rule for `ISA` says this CPU and OS can run it; -1 for an ISA
 * this test has no rule for (reported, not failed: add its rule here). */
static int expected_support(actk_isa isa, const cpu_bits *c, char *why, size_t cap) {
  switch (isa) {
  case ACTK_ISA_SCALAR:
    snprintf(why, cap, "portable C");
    return 1;
  case ACTK_ISA_AVX2: {
    /* XCR0 bits 1, 2: SSE and AVX (YMM) state */
    int ymm = c->osxsave && c->avx && (c->xcr0 & 0x6u) == 0x6u;
    snprintf(why, cap, "avx2=%d fma=%d f16c=%d osxsave=%d avx=%d xcr0=0x%llx (ymm=%d)", c->avx2,
             c->fma, c->f16c, c->osxsave, c->avx, c->xcr0, ymm);
    return c->avx2 && c->fma && c->f16c && ymm;
  }
  case ACTK_ISA_NEON:
    /* HWCAP_ASIMD, bit 1 of AT_HWCAP (asm/hwcap.h) */
    snprintf(why, cap, "aarch64=%d hwcap asimd=%d", c->arm64, c->asimd);
    return c->arm64 && c->asimd;
  case ACTK_ISA_AVX512: {
    /* XCR0 bits 1, 2, 5, 6, 7: SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM state */
    int zmm = c->osxsave && (c->xcr0 & 0xe6u) == 0xe6u;
    snprintf(why, cap,
             "avx512f=%d avx512dq=%d avx512bw=%d avx512vl=%d fma=%d f16c=%d osxsave=%d "
             "xcr0=0x%llx (zmm=%d)",
             c->avx512f, c->avx512dq, c->avx512bw, c->avx512vl, c->fma, c->f16c, c->osxsave,
             c->xcr0, zmm);
    return c->avx512f && c->avx512dq && c->avx512bw && c->avx512vl && c->fma && c->f16c && zmm;
  }
  }
  snprintf(why, cap, "no rule in this test");
  return -1;
}

static void test_cpu_facts(void **state) {
  (void)state;
  cpu_bits bits;
  memset(&bits, 0, sizeof bits);
#ifdef TEST_X86
  bits = read_cpu_bits();
  print_message("cpuid here: fma=%d osxsave=%d avx=%d avx2=%d avx512f=%d avx512dq=%d xcr0=0x%llx\n",
                bits.fma, bits.osxsave, bits.avx, bits.avx2, bits.avx512f, bits.avx512dq,
                bits.xcr0);
#else
  print_message("not x86: every x86 isa must be unsupported\n");
#endif
#ifdef TEST_ARM64
  bits.arm64 = 1;
  bits.asimd = (getauxval(AT_HWCAP) & (1ul << 1)) != 0;
  print_message("hwcap here: 0x%lx (asimd=%d)\n", getauxval(AT_HWCAP), bits.asimd);
#endif
  /* every ISA: supported exactly when its rule says so; the best one by the
   * rules (the last supported one in the header's order) is actk_isa_best(),
   * which dispatch picks automatically (test_environment_choice) */
  actk_isa best = ACTK_ISA_SCALAR;
  for (int a = 0; a < test_n_isa(); a++) {
    const actk_isa isa = (actk_isa)a;
    char why[160];
    int want = expected_support(isa, &bits, why, sizeof why);
    if (want < 0) {
      print_message("isa %s: no CPUID rule in this test, support (%d) not cross-checked\n",
                    actk_isa_name(isa), actk_isa_supported(isa));
      if (actk_isa_supported(isa)) best = isa;
      continue;
    }
    print_message("isa %s: supported=%d, rule says %d (%s)\n", actk_isa_name(isa),
                  actk_isa_supported(isa), want, why);
    test_check(actk_isa_supported(isa) == want, "actk_isa_supported(%s) = %d, but %s says %d",
               actk_isa_name(isa), actk_isa_supported(isa), why, want);
    if (want) best = isa;
  }
  test_check(best == actk_isa_best(), "by the CPUID rules the best isa is %s, not %s",
             actk_isa_name(best), actk_isa_name(actk_isa_best()));
  test_check(actk_isa_supported(actk_isa_best()), "actk_isa_best() = %s is not supported",
             actk_isa_name(actk_isa_best()));

#if defined(TEST_X86) && defined(ACTK_TEST_HAVE_LIBCPUID)
  /* the library is built with libcpuid: its AVX2 and FMA flags must agree.
   * Not its AVX-512 flags: libcpuid 0.6.2 misses AVX-512 on AMD Zen 4. */
  test_check(cpuid_present(), "libcpuid: no CPUID on an x86 CPU");
  struct cpu_raw_data_t raw;
  struct cpu_id_t id;
  test_check(cpuid_get_raw_data(&raw) == 0, "cpuid_get_raw_data failed: %s", cpuid_error());
  test_check(cpu_identify(&raw, &id) == 0, "cpu_identify failed: %s", cpuid_error());
  int l_avx2 = id.flags[CPU_FEATURE_AVX2] != 0, l_fma = id.flags[CPU_FEATURE_FMA3] != 0;
  print_message("libcpuid: %s | avx2=%d fma3=%d avx512f=%d (not checked) cores=%d logical=%d\n",
                id.brand_str, l_avx2, l_fma, id.flags[CPU_FEATURE_AVX512F] != 0, id.num_cores,
                id.num_logical_cpus);
  test_check(l_avx2 == bits.avx2 && l_fma == bits.fma,
             "libcpuid says avx2=%d fma3=%d, CPUID says avx2=%d fma=%d", l_avx2, l_fma, bits.avx2,
             bits.fma);
  /* libcpuid does not look at XCR0: the OS part comes from our reading */
  int ymm = bits.osxsave && bits.avx && (bits.xcr0 & 0x6u) == 0x6u;
  test_check(actk_isa_supported(ACTK_ISA_AVX2) == (l_avx2 && l_fma && ymm),
             "actk_isa_supported(avx2) = %d, libcpuid avx2=%d fma3=%d, os saves ymm=%d",
             actk_isa_supported(ACTK_ISA_AVX2), l_avx2, l_fma, ymm);
  test_check(strstr(actk_cpu_summary(), "libcpuid") != NULL,
             "built with libcpuid, but the cpu summary does not say so: \"%s\"",
             actk_cpu_summary());
#endif
  const char *sum = actk_cpu_summary();
  test_check(sum && sum[0], "actk_cpu_summary() is empty");
}

int main(int argc, char **argv) {
  if (argc > 1) g_setting = argv[1];
  /* before anything else (actk_isa_name, below, is a pure table lookup) */
  if (!strcmp(g_setting, "unset")) test_unsetenv("ACTK_ISA");
  static const char *const known[] = {"unset", "empty", "auto", "bogus"};
  int ok = isa_named(g_setting) >= 0;
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) ok |= !strcmp(g_setting, known[i]);
  if (!ok) {
    fprintf(stderr, "usage: %s unset|empty|auto|bogus|ISA (ISA: one of", argv[0]);
    for (int a = 0; a < test_n_isa(); a++) fprintf(stderr, " %s", actk_isa_name((actk_isa)a));
    fprintf(stderr, ")\n");
    return 2;
  }

  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_environment_choice), /* first: before any other use */
      cmocka_unit_test(test_active_and_force),
      cmocka_unit_test(test_cpu_facts),
  };
  return cmocka_run_group_tests_name(g_setting, tests, NULL, NULL) != 0;
}
