/* CPU facts. Feature bits always come from CPUID and XCR0 read here: one code
 * path, so builds with and without libcpuid make the same dispatch decision
 * (libcpuid 0.6.2 also misses AVX-512 on AMD Zen 4). libcpuid, when built in,
 * supplies brand and topology; tests cross-check its AVX2/FMA bits with ours. */
#include "cpu.h"
#include "topology.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define ACTK_X86 1
#endif

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#define ACTK_ARM64_LINUX 1
/* the kernel's bits (asm/hwcap.h), named here so no kernel header is needed */
#define ACTK_HWCAP_ASIMD (1ul << 1)
#define ACTK_HWCAP2_BF16 (1ul << 14)
#endif

#ifdef ACTK_HAVE_LIBCPUID
#include <libcpuid/libcpuid.h>
#endif

#ifdef ACTK_X86
/* xgetbv is only legal once CPUID says OSXSAVE; callers check first. */
static unsigned long long read_xcr0(void) {
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((unsigned long long)hi << 32) | lo;
}
#endif

void actk_cpu_read_raw(actk_cpu *out) {
  memset(out, 0, sizeof *out);
  out->source = "cpuid";
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  out->logical_cpus = online > 0 ? (int)online : 0;
#ifdef ACTK_X86
  unsigned a, b, c, d;
  out->is_x86 = 1;
  if (!__get_cpuid(0, &a, &b, &c, &d)) return;
  unsigned max_leaf = a;
  memcpy(out->vendor + 0, &b, 4);
  memcpy(out->vendor + 4, &d, 4);
  memcpy(out->vendor + 8, &c, 4);
  out->vendor[12] = '\0';
  __get_cpuid(1, &a, &b, &c, &d);
  int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
  out->has_fma = (c >> 12) & 1;
  out->has_f16c = (c >> 29) & 1;
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    out->has_avx2 = (b >> 5) & 1;
    out->has_avx512f = (b >> 16) & 1;
    out->has_avx512dq = (b >> 17) & 1;
    out->has_avx512bw = (b >> 30) & 1;
    out->has_avx512vl = (b >> 31) & 1;
  }
  if (osxsave && avx) {
    unsigned long long xcr0 = read_xcr0();
    out->os_saves_ymm = (xcr0 & 0x6) == 0x6;   /* SSE and AVX state */
    out->os_saves_zmm = (xcr0 & 0xe6) == 0xe6; /* plus opmask, ZMM_Hi256, Hi16_ZMM */
  }
  unsigned ext_max = 0;
  __get_cpuid(0x80000000u, &ext_max, &b, &c, &d);
  if (ext_max >= 0x80000004u) {
    unsigned regs[12];
    for (unsigned i = 0; i < 3; i++)
      __get_cpuid(0x80000002u + i, &regs[4 * i], &regs[4 * i + 1], &regs[4 * i + 2],
                  &regs[4 * i + 3]);
    memcpy(out->brand, regs, 48);
    out->brand[48] = '\0';
  }
#endif
#ifdef ACTK_ARM64_LINUX
  out->is_arm64 = 1;
  out->source = "auxv";
  out->has_asimd = (getauxval(AT_HWCAP) & ACTK_HWCAP_ASIMD) != 0;
  out->has_bf16 = (getauxval(AT_HWCAP2) & ACTK_HWCAP2_BF16) != 0;
#endif
}

uint32_t actk_cpu_features(const actk_cpu *c) {
  const struct {
    int has;
    uint32_t bit;
  } f[] = {{c->is_x86, ACTK_FEATURE_X86},
           {c->has_avx2, ACTK_FEATURE_AVX2},
           {c->has_fma, ACTK_FEATURE_FMA},
           {c->has_avx512f, ACTK_FEATURE_AVX512F},
           {c->has_avx512dq, ACTK_FEATURE_AVX512DQ},
           {c->os_saves_ymm, ACTK_FEATURE_OS_YMM},
           {c->os_saves_zmm, ACTK_FEATURE_OS_ZMM},
           {c->has_f16c, ACTK_FEATURE_F16C},
           {c->has_avx512bw, ACTK_FEATURE_AVX512BW},
           {c->has_avx512vl, ACTK_FEATURE_AVX512VL},
           {c->is_arm64, ACTK_FEATURE_ARM64},
           {c->has_asimd, ACTK_FEATURE_ASIMD},
           {c->has_bf16, ACTK_FEATURE_BF16}};
  uint32_t m = 0;
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
    if (f[i].has) m |= f[i].bit;
  return m;
}

static actk_cpu g_cpu;
static pthread_once_t g_cpu_once = PTHREAD_ONCE_INIT;

#ifdef ACTK_HAVE_LIBCPUID
static void quiet(const char *msg) { (void)msg; }
#endif

static void cpu_init(void) {
  actk_cpu_read_raw(&g_cpu);
#ifdef ACTK_HAVE_LIBCPUID
  struct cpu_raw_data_t raw;
  struct cpu_id_t id;
  cpuid_set_warn_function(quiet); /* its default handler prints to stderr */
  if (cpuid_present() && cpuid_get_raw_data(&raw) == 0 && cpu_identify(&raw, &id) == 0) {
    g_cpu.source = "libcpuid";
    if (id.num_cores > 0) g_cpu.physical_cores = id.num_cores;
    if (id.brand_str[0]) snprintf(g_cpu.brand, sizeof g_cpu.brand, "%s", id.brand_str);
  }
#endif
  /* the cores the kernel reports in the affinity mask, as the default pool
   * counts them: libcpuid 0.6.2 said cores=1 on a 2-core VM where lscpu and
   * the pool say 2 */
  int cpus[1024];
  int cores = actk_topology_core_cpus(cpus, 1024);
  if (cores > 0) g_cpu.physical_cores = cores;
  g_cpu.features = actk_cpu_features(&g_cpu);
}

const actk_cpu *actk_cpu_get(void) {
  pthread_once(&g_cpu_once, cpu_init);
  return &g_cpu;
}
