/* CPU facts. Feature bits always come from CPUID and XCR0 read here: one code
 * path, so builds with and without libcpuid make the same dispatch decision
 * (libcpuid 0.6.2 also misses AVX-512 on AMD Zen 4). libcpuid, when built in,
 * supplies brand and topology; tests cross-check its AVX2/FMA bits with ours. */
#include "cpu.h"
#include "topology.h"

#include <stdio.h>
#include <string.h>

#include "platform/sysinfo.h"
#include "platform/thread.h"

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
#include "platform/x86_cpuid.h"
#define ACTK_X86 1
#endif

#ifdef ACTK_HAVE_LIBCPUID
#include <libcpuid/libcpuid.h>
#endif

void actk_cpu_read_raw(actk_cpu *out) {
  memset(out, 0, sizeof *out);
  out->source = "cpuid";
  out->logical_cpus = actk_sys_logical_cpus();
#ifdef ACTK_X86
  unsigned r[4]; /* eax, ebx, ecx, edx */
  out->is_x86 = 1;
  actk_cpuid(0, 0, r);
  unsigned max_leaf = r[0];
  memcpy(out->vendor + 0, &r[1], 4);
  memcpy(out->vendor + 4, &r[3], 4);
  memcpy(out->vendor + 8, &r[2], 4);
  out->vendor[12] = '\0';
  if (max_leaf < 1) return;
  actk_cpuid(1, 0, r);
  unsigned c = r[2];
  int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
  out->has_fma = (c >> 12) & 1;
  out->has_f16c = (c >> 29) & 1;
  if (max_leaf >= 7) {
    actk_cpuid(7, 0, r);
    unsigned b = r[1];
    out->has_avx2 = (b >> 5) & 1;
    out->has_avx512f = (b >> 16) & 1;
    out->has_avx512dq = (b >> 17) & 1;
    out->has_avx512bw = (b >> 30) & 1;
    out->has_avx512vl = (b >> 31) & 1;
  }
  if (osxsave && avx) {
    unsigned long long xcr0 = actk_xgetbv0();
    out->os_saves_ymm = (xcr0 & 0x6) == 0x6;   /* SSE and AVX state */
    out->os_saves_zmm = (xcr0 & 0xe6) == 0xe6; /* plus opmask, ZMM_Hi256, Hi16_ZMM */
  }
  actk_cpuid(0x80000000u, 0, r);
  if (r[0] >= 0x80000004u) {
    unsigned regs[12];
    for (unsigned i = 0; i < 3; i++) actk_cpuid(0x80000002u + i, 0, &regs[4 * i]);
    memcpy(out->brand, regs, 48);
    out->brand[48] = '\0';
  }
#endif
  actk_sys_cpu_features(out);
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
static actk_once_flag g_cpu_once = ACTK_ONCE_INIT;

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
  actk_once(&g_cpu_once, cpu_init);
  return &g_cpu;
}
