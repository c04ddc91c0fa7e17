/* ABI checks of include/actk.h, compiled as C99, C11, C++11 and C++17 with
 * -Wall -Wextra -pedantic -Werror (abi/CMakeLists.txt): header_check.c and
 * header_check.cpp include actk.h first, with nothing before it, then this.
 *
 * What is pinned here is the ABI that programs built against one actk release
 * rely on when they run with a later one of the same major version:
 *   - every function's exact signature (a changed parameter type, an added
 *     parameter, a changed return type fails to compile);
 *   - every enum value (values are never renumbered; new ones are appended,
 *     and a check for them is added here);
 *   - on LP64 targets, the size and field offsets of the structs that carry
 *     struct_size (they may grow at the end: update the size check then).
 * A failure here means an ABI break; if the change is intended, it needs a
 * major version bump (README.md, "Stability"). */
#ifndef ACTK_ABI_HEADER_CHECK_H
#define ACTK_ABI_HEADER_CHECK_H

#include "registry.h" /* the op list: which element-wise functions exist */

#define ABI_CAT2(a, b) a##b
#define ABI_CAT(a, b) ABI_CAT2(a, b)
#if defined(__cplusplus)
#define ABI_ASSERT(cond, msg) static_assert(cond, msg)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define ABI_ASSERT(cond, msg) _Static_assert(cond, msg)
#else /* C99: a negative array size */
#define ABI_ASSERT(cond, msg) typedef char ABI_CAT(abi_assert_line_, __LINE__)[(cond) ? 1 : -1]
#endif

/* ---- enum values: never renumbered, only appended ---- */
ABI_ASSERT(ACTK_OK == 0, "ACTK_OK");
ABI_ASSERT(ACTK_ERR_NULL_POINTER == 1, "ACTK_ERR_NULL_POINTER");
ABI_ASSERT(ACTK_ERR_OVERLAP == 2, "ACTK_ERR_OVERLAP");
ABI_ASSERT(ACTK_ERR_TOO_LARGE == 3, "ACTK_ERR_TOO_LARGE");
ABI_ASSERT(ACTK_ERR_ZERO_WIDTH == 4, "ACTK_ERR_ZERO_WIDTH");
ABI_ASSERT(ACTK_ERR_WIDTH_MISMATCH == 5, "ACTK_ERR_WIDTH_MISMATCH");
ABI_ASSERT(ACTK_ERR_UNSUPPORTED_ISA == 6, "ACTK_ERR_UNSUPPORTED_ISA");
ABI_ASSERT(ACTK_ERR_INVALID_ARGUMENT == 7, "ACTK_ERR_INVALID_ARGUMENT");
ABI_ASSERT(ACTK_ERR_OUT_OF_MEMORY == 8, "ACTK_ERR_OUT_OF_MEMORY");
ABI_ASSERT(ACTK_ERR_NO_THREADS == 9, "ACTK_ERR_NO_THREADS");
ABI_ASSERT(ACTK_ERR_OUT_OF_RANGE == 10, "ACTK_ERR_OUT_OF_RANGE");
ABI_ASSERT(ACTK_ERR_BAD_SHAPE == 11, "ACTK_ERR_BAD_SHAPE");

ABI_ASSERT(ACTK_ISA_SCALAR == 0, "ACTK_ISA_SCALAR");
ABI_ASSERT(ACTK_ISA_AVX2 == 1, "ACTK_ISA_AVX2");
ABI_ASSERT(ACTK_ISA_AVX512 == 2, "ACTK_ISA_AVX512");

ABI_ASSERT(ACTK_ROPE_BSHD == 0, "ACTK_ROPE_BSHD");
ABI_ASSERT(ACTK_ROPE_BHSD == 1, "ACTK_ROPE_BHSD");
ABI_ASSERT(ACTK_ROPE_SPLIT_HALF == 0, "ACTK_ROPE_SPLIT_HALF");
ABI_ASSERT(ACTK_ROPE_INTERLEAVED == 1, "ACTK_ROPE_INTERLEAVED");

/* The 16-bit element types are 16-bit unsigned integers (the bits): the
 * signature pins below take the types from the registry, so they would move
 * with a changed typedef; these do not. */
ABI_ASSERT(sizeof(actk_f16) == 2 && (actk_f16)-1 > 0, "actk_f16 is 16 unsigned bits");
ABI_ASSERT(sizeof(actk_bf16) == 2 && (actk_bf16)-1 > 0, "actk_bf16 is 16 unsigned bits");

/* The version macros are plain numbers and ACTK_VERSION encodes them. */
ABI_ASSERT(ACTK_VERSION_MINOR < 100 && ACTK_VERSION_PATCH < 100, "ACTK_VERSION encoding");
ABI_ASSERT(ACTK_VERSION ==
               ACTK_VERSION_MAJOR * 10000 + ACTK_VERSION_MINOR * 100 + ACTK_VERSION_PATCH,
           "ACTK_VERSION");

/* ---- struct layout on LP64 (x86-64 and aarch64 Linux): struct_size first,
 * fields only appended ---- */
#define ABI_LP64 (sizeof(void *) == 8 && sizeof(size_t) == 8 && sizeof(int) == 4)
#define ABI_LAYOUT(cond, msg) ABI_ASSERT(!ABI_LP64 || (cond), msg)

ABI_LAYOUT(offsetof(actk_pool_config, struct_size) == 0, "actk_pool_config.struct_size");
ABI_LAYOUT(offsetof(actk_pool_config, threads) == 8, "actk_pool_config.threads");
ABI_LAYOUT(offsetof(actk_pool_config, spin_us) == 12, "actk_pool_config.spin_us");
ABI_LAYOUT(offsetof(actk_pool_config, spin_backoff_max) == 16, "actk_pool_config.spin_backoff_max");
ABI_LAYOUT(offsetof(actk_pool_config, pin) == 20, "actk_pool_config.pin");
ABI_LAYOUT(sizeof(actk_pool_config) == 24, "sizeof(actk_pool_config)");

ABI_LAYOUT(offsetof(actk_rope_desc, struct_size) == 0, "actk_rope_desc.struct_size");
ABI_LAYOUT(offsetof(actk_rope_desc, batch) == 8, "actk_rope_desc.batch");
ABI_LAYOUT(offsetof(actk_rope_desc, seq_len) == 16, "actk_rope_desc.seq_len");
ABI_LAYOUT(offsetof(actk_rope_desc, heads) == 24, "actk_rope_desc.heads");
ABI_LAYOUT(offsetof(actk_rope_desc, head_size) == 32, "actk_rope_desc.head_size");
ABI_LAYOUT(offsetof(actk_rope_desc, rotary_dim) == 40, "actk_rope_desc.rotary_dim");
ABI_LAYOUT(offsetof(actk_rope_desc, layout) == 48, "actk_rope_desc.layout");
ABI_LAYOUT(offsetof(actk_rope_desc, style) == 52, "actk_rope_desc.style");
ABI_LAYOUT(offsetof(actk_rope_desc, max_position) == 56, "actk_rope_desc.max_position");
ABI_LAYOUT(offsetof(actk_rope_desc, position_start) == 64, "actk_rope_desc.position_start");
ABI_LAYOUT(sizeof(actk_rope_desc) == 72, "sizeof(actk_rope_desc)");

/* Enums are int-sized: a value appended past INT_MAX would change that. */
ABI_LAYOUT(sizeof(actk_status) == 4 && sizeof(actk_isa) == 4 && sizeof(actk_rope_layout) == 4 &&
               sizeof(actk_rope_style) == 4,
           "enum size");

/* ---- function signatures ----
 * Each function is assigned to a pointer of its exact type: in C++ a
 * mismatch is an error, in C a -Werror'd incompatible-pointer-types warning. */
#define ABI_SIG(name, ret, params)                                                                 \
  do {                                                                                             \
    ret(*volatile p) params = name;                                                                \
    n += p != 0;                                                                                   \
  } while (0)

typedef void (*abi_task_fn)(void *data, size_t i);

static int abi_check_signatures(void) {
  int n = 0;
  ABI_SIG(actk_version, unsigned, (void));
  ABI_SIG(actk_version_string, const char *, (void));
  ABI_SIG(actk_status_string, const char *, (actk_status));

  ABI_SIG(actk_isa_active, actk_isa, (void));
  ABI_SIG(actk_isa_best, actk_isa, (void));
  ABI_SIG(actk_isa_name, const char *, (actk_isa));
  ABI_SIG(actk_isa_supported, int, (actk_isa));
  ABI_SIG(actk_isa_reason, const char *, (void));
  ABI_SIG(actk_isa_force, actk_status, (actk_isa));
  ABI_SIG(actk_cpu_summary, const char *, (void));

  ABI_SIG(actk_pool_create, actk_status, (const actk_pool_config *, actk_pool **));
  ABI_SIG(actk_pool_destroy, void, (actk_pool *));
  ABI_SIG(actk_pool_default, actk_pool *, (void));
  ABI_SIG(actk_pool_threads, unsigned, (const actk_pool *));
  ABI_SIG(actk_pool_create_host, actk_status,
          (void (*)(void *, abi_task_fn, size_t, size_t, void *), void *, unsigned, actk_pool **));

  /* every element-wise entry point and RoPE's (generated from src/ops.toml) */
#include "signatures.gen.h"

  ABI_SIG(actk_rope_cache_f32, actk_status, (float *, float *, size_t, size_t, double));

  /* The host callback type, as an engine passes it. */
  {
    void (*volatile q)(void *, abi_task_fn, size_t, size_t, void *) = (actk_parallel_for_fn)0;
    n += q != 0;
  }
  return n;
}

#endif /* ACTK_ABI_HEADER_CHECK_H */
