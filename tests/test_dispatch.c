/* Arm dispatch.
 *
 *   test_dispatch SETTING
 *
 * SETTING is what ACTK_ISA holds in this process's environment: "unset" (the
 * test unsets it itself, before the library's first use), "empty", "auto",
 * "scalar", "avx2" or "bogus". The library reads ACTK_ISA once, at its first
 * use, so the first test checks what the setting chose, before anything else
 * touches the library. Then: the active arm is supported and has a reason,
 * forcing works and is reported, changing the environment later has no
 * effect, and the CPU facts agree with libcpuid's (when the library uses it)
 * and with CPUID/XCR0 read here. */
#include "actk_test.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define TEST_X86 1
#endif
#ifdef ACTK_TEST_HAVE_LIBCPUID
#include <libcpuid.h>
#endif

static const char *g_setting = "unset";

static actk_isa best_supported(void) {
  return actk_isa_supported(ACTK_ISA_AVX2) ? ACTK_ISA_AVX2 : ACTK_ISA_SCALAR;
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

  if (!strcmp(g_setting, "scalar")) {
    test_check(active == ACTK_ISA_SCALAR, "ACTK_ISA=scalar: active arm is %s",
               actk_isa_name(active));
    test_check(strstr(reason, "scalar") != NULL, "ACTK_ISA=scalar: reason \"%s\" does not say so",
               reason);
  } else if (!strcmp(g_setting, "avx2")) {
    if (actk_isa_supported(ACTK_ISA_AVX2)) {
      test_check(active == ACTK_ISA_AVX2, "ACTK_ISA=avx2 on an AVX2 machine: active arm is %s",
                 actk_isa_name(active));
      test_check(strstr(reason, "ACTK_ISA") != NULL, "ACTK_ISA=avx2: reason \"%s\" does not say so",
                 reason);
    } else {
      /* not runnable: ignored, and the reason says so */
      test_check(active == ACTK_ISA_SCALAR, "ACTK_ISA=avx2 without AVX2: active arm is %s",
                 actk_isa_name(active));
      test_check(strstr(reason, "avx2") != NULL, "reason \"%s\" does not mention avx2", reason);
    }
  } else if (!strcmp(g_setting, "bogus")) {
    test_check(active == best_supported(), "ACTK_ISA=bogus: active arm %s, auto would be %s",
               actk_isa_name(active), actk_isa_name(best_supported()));
    test_check(strstr(reason, "bogus") != NULL, "ACTK_ISA=bogus: reason \"%s\" does not mention it",
               reason);
    test_check(strstr(reason, "auto") != NULL,
               "ACTK_ISA=bogus: reason \"%s\" does not say it fell back to auto", reason);
  } else {
    /* unset, empty, auto: the best arm, chosen automatically */
    test_check(active == best_supported(), "ACTK_ISA=%s: active arm %s, best supported is %s",
               g_setting, actk_isa_name(active), actk_isa_name(best_supported()));
    test_check(strstr(reason, "auto") != NULL, "ACTK_ISA=%s: reason \"%s\" does not say auto",
               g_setting, reason);
  }

  /* the environment is read once: changing it now changes nothing */
  setenv("ACTK_ISA", active == ACTK_ISA_SCALAR ? "avx2" : "scalar", 1);
  float x = 0.5f, y;
  assert_int_equal(actk_gelu_f32(NULL, &x, &y, 1), ACTK_OK);
  test_check(actk_isa_active() == active, "changing ACTK_ISA after first use switched the arm");
}

static void test_active_and_force(void **state) {
  (void)state;
  const actk_isa orig = actk_isa_active();
  test_check(actk_isa_supported(orig), "the active arm %s is not supported", actk_isa_name(orig));
  test_check(actk_isa_name(orig) != NULL, "the active arm has no name");
  test_check(actk_isa_supported(ACTK_ISA_SCALAR), "the scalar arm is not supported");
  test_check(actk_isa_reason() && actk_isa_reason()[0], "empty reason");

  for (int a = 0; a < TEST_N_ISA; a++) {
    actk_isa isa = (actk_isa)a;
    actk_status s = actk_isa_force(isa);
    if (!actk_isa_supported(isa)) {
      test_check(s == ACTK_ERR_UNSUPPORTED_ISA, "forcing unsupported %s: %s", actk_isa_name(isa),
                 test_status_name(s));
      continue;
    }
    test_check(s == ACTK_OK, "actk_isa_force(%s) = %s", actk_isa_name(isa), test_status_name(s));
    test_check(actk_isa_active() == isa, "after actk_isa_force(%s) the active arm is %s",
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
static void test_cpu_facts(void **state) {
  (void)state;
#ifdef TEST_X86
  unsigned a, b, c, d;
  int avx2 = 0, fma = 0, ymm = 0;
  if (__get_cpuid(0, &a, &b, &c, &d)) {
    unsigned max_leaf = a;
    __get_cpuid(1, &a, &b, &c, &d);
    fma = (c >> 12) & 1;
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (max_leaf >= 7) {
      __cpuid_count(7, 0, a, b, c, d);
      avx2 = (b >> 5) & 1;
    }
    if (osxsave && avx) {
      unsigned lo, hi;
      __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
      ymm = (lo & 6u) == 6u;
    }
  }
  print_message("cpuid here: avx2=%d fma=%d os-saves-ymm=%d\n", avx2, fma, ymm);
  int want = avx2 && fma && ymm;
  test_check(actk_isa_supported(ACTK_ISA_AVX2) == want,
             "actk_isa_supported(avx2) = %d, but CPUID/XCR0 say avx2=%d fma=%d ymm=%d",
             actk_isa_supported(ACTK_ISA_AVX2), avx2, fma, ymm);

#ifdef ACTK_TEST_HAVE_LIBCPUID
  /* the library is built with libcpuid: its feature flags must agree */
  test_check(cpuid_present(), "libcpuid: no CPUID on an x86 CPU");
  struct cpu_raw_data_t raw;
  struct cpu_id_t id;
  test_check(cpuid_get_raw_data(&raw) == 0, "cpuid_get_raw_data failed: %s", cpuid_error());
  test_check(cpu_identify(&raw, &id) == 0, "cpu_identify failed: %s", cpuid_error());
  int l_avx2 = id.flags[CPU_FEATURE_AVX2] != 0, l_fma = id.flags[CPU_FEATURE_FMA3] != 0;
  print_message("libcpuid: %s | avx2=%d fma3=%d cores=%d logical=%d\n", id.brand_str, l_avx2, l_fma,
                id.num_cores, id.num_logical_cpus);
  test_check(l_avx2 == avx2 && l_fma == fma,
             "libcpuid says avx2=%d fma3=%d, CPUID says avx2=%d fma=%d", l_avx2, l_fma, avx2, fma);
  /* libcpuid does not look at XCR0: the OS part comes from our reading */
  test_check(actk_isa_supported(ACTK_ISA_AVX2) == (l_avx2 && l_fma && ymm),
             "actk_isa_supported(avx2) = %d, libcpuid avx2=%d fma3=%d, os saves ymm=%d",
             actk_isa_supported(ACTK_ISA_AVX2), l_avx2, l_fma, ymm);
  test_check(strstr(actk_cpu_summary(), "libcpuid") != NULL,
             "built with libcpuid, but the cpu summary does not say so: \"%s\"",
             actk_cpu_summary());
#endif
#else
  test_check(!actk_isa_supported(ACTK_ISA_AVX2), "avx2 supported on a non-x86 CPU");
  print_message("not x86: nothing to cross-check\n");
#endif
  const char *sum = actk_cpu_summary();
  test_check(sum && sum[0], "actk_cpu_summary() is empty");
}

int main(int argc, char **argv) {
  if (argc > 1) g_setting = argv[1];
  static const char *const known[] = {"unset", "empty", "auto", "scalar", "avx2", "bogus"};
  int ok = 0;
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) ok |= !strcmp(g_setting, known[i]);
  if (!ok) {
    fprintf(stderr, "usage: %s unset|empty|auto|scalar|avx2|bogus\n", argv[0]);
    return 2;
  }
  if (!strcmp(g_setting, "unset")) unsetenv("ACTK_ISA");

  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_environment_choice), /* first: before any other use */
      cmocka_unit_test(test_active_and_force),
      cmocka_unit_test(test_cpu_facts),
  };
  return cmocka_run_group_tests_name(g_setting, tests, NULL, NULL) != 0;
}
