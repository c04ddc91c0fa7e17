/* actk: elementwise activation kernels for ML inference.
 *
 * One header, C99, usable from C++. Every call returns an actk_status; on any
 * error nothing is written. No call aborts, prints, or allocates on the hot
 * path. See README.md for error bounds, threading and embedding. */
#ifndef ACTK_H
#define ACTK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h> /* memcpy, for the conversion helpers below */

#if defined(_WIN32) && defined(ACTK_SHARED_BUILD)
#define ACTK_API __declspec(dllexport)
#elif defined(_WIN32)
#define ACTK_API /* imported through the import library (libactk.dll.a) */
#elif defined(__GNUC__) || defined(__clang__)
#define ACTK_API __attribute__((visibility("default")))
#else
#define ACTK_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define ACTK_VERSION_MAJOR 0
#define ACTK_VERSION_MINOR 1
#define ACTK_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH, comparable with actk_version(). */
#define ACTK_VERSION (ACTK_VERSION_MAJOR * 10000 + ACTK_VERSION_MINOR * 100 + ACTK_VERSION_PATCH)

/* Values are part of the ABI: never renumbered, only appended. */
typedef enum actk_status {
  ACTK_OK = 0,
  ACTK_ERR_NULL_POINTER = 1,     /* a required pointer is NULL (and the call would touch it) */
  ACTK_ERR_OVERLAP = 2,          /* output overlaps an input other than exactly (y == x) */
  ACTK_ERR_TOO_LARGE = 3,        /* an array (n elements of its type) runs past the highest
                                    user address (2^57 on 64-bit targets, the address space on
                                    32-bit ones), or a RoPE shape's sizes overflow size_t; a
                                    wrong n whose array ends below that cannot be caught */
  ACTK_ERR_ZERO_WIDTH = 4,       /* bias width is 0 */
  ACTK_ERR_WIDTH_MISMATCH = 5,   /* n is not a multiple of the bias width */
  ACTK_ERR_UNSUPPORTED_ISA = 6,  /* the CPU or OS cannot run the requested instruction set */
  ACTK_ERR_INVALID_ARGUMENT = 7, /* an enum or option value out of its range */
  ACTK_ERR_OUT_OF_MEMORY = 8,    /* creating a pool could not allocate */
  ACTK_ERR_NO_THREADS = 9,       /* a pool could not start the threads it needs */
  ACTK_ERR_OUT_OF_RANGE = 10,    /* a RoPE position outside [0, max_position) */
  ACTK_ERR_BAD_SHAPE = 11        /* a RoPE shape that cannot be (odd or too large rotary_dim) */
} actk_status;

/* Opaque thread pool. NULL everywhere means: run on the calling thread and
 * never create a thread. See "Threading" below. */
typedef struct actk_pool actk_pool;

/* Instruction-set arms. Values are part of the ABI. */
typedef enum actk_isa {
  ACTK_ISA_SCALAR = 0, /* portable C, any CPU */
  ACTK_ISA_AVX2 = 1,   /* x86-64 AVX2 + FMA3, OS saves YMM state */
  ACTK_ISA_AVX512 = 2, /* x86-64 AVX-512 F + DQ, OS saves ZMM state */
  ACTK_ISA_NEON = 3    /* AArch64 Advanced SIMD */
} actk_isa;

/* ---- library facts ---- */

/* ACTK_VERSION of the library actually loaded (may differ from the header's). */
ACTK_API unsigned actk_version(void);
/* The same as "major.minor.patch"; static, never NULL. */
ACTK_API const char *actk_version_string(void);
/* Static English description of a status code; never NULL. */
ACTK_API const char *actk_status_string(actk_status status);

/* ---- instruction-set dispatch ----
 * The best arm is chosen once per process, on first use, from CPUID and XCR0
 * (x86) or the kernel's HWCAP (AArch64 Linux).
 * ACTK_ISA=scalar|avx2|avx512|neon in the environment forces an arm (ignored, and
 * said so by actk_isa_reason(), if the CPU cannot run it). All arms give the
 * same bits for the same input. */

ACTK_API actk_isa actk_isa_active(void);
/* The arm dispatch picks on its own on this machine: the best one the CPU,
 * the OS and the build support (whatever ACTK_ISA or actk_isa_force chose). */
ACTK_API actk_isa actk_isa_best(void);
/* "scalar", "avx2", "avx512", "neon"; NULL for a value that is not an actk_isa. */
ACTK_API const char *actk_isa_name(actk_isa isa);
/* 1 if this CPU and OS can run the arm, else 0. */
ACTK_API int actk_isa_supported(actk_isa isa);
/* Why the active arm was chosen, e.g. "auto: avx512 (cpu has it, os saves its state)". */
ACTK_API const char *actk_isa_reason(void);
/* Switch the process-wide arm. For tests and benchmarks: calls already running
 * finish on the arm they started with. */
ACTK_API actk_status actk_isa_force(actk_isa isa);
/* One-line summary of the CPU facts dispatch used (vendor, brand, features, cores). */
ACTK_API const char *actk_cpu_summary(void);

/* ---- threading ----
 * A pool runs a large call on several threads; small calls never touch it.
 * The calling thread always works too and can finish a call alone, so a
 * result never waits on a thread that does not wake. Any number of threads
 * may call into one pool at once; a call made from a pool's own worker runs
 * inline. Results are bit-identical for every pool and thread count. */

typedef struct actk_pool_config {
  size_t struct_size;        /* sizeof(actk_pool_config) as compiled: lets the struct grow */
  unsigned threads;          /* total, the caller included; 0: physical cores we may run on */
  unsigned spin_us;          /* after a job, workers spin this long, then sleep; 0: sleep at once */
  unsigned spin_backoff_max; /* >1: pause 1, 2, 4 .. this many times per spin check */
  int pin;                   /* 1: pin worker i to the i-th allowed physical core */
} actk_pool_config;

/* Defaults: threads 0, spin_us 1000, spin_backoff_max 1, pin 0. Inline, so
 * struct_size is the size this program was compiled with: a newer library
 * reads only that much and defaults the rest. */
static inline void actk_pool_config_init(actk_pool_config *config) {
  actk_pool_config c = {sizeof(actk_pool_config), 0, 1000, 1, 0};
  if (config) *config = c;
}
/* A pool of its own. Thread creation failures leave fewer workers, never an
 * error (ACTK_ERR_NO_THREADS only if a pool of more than one thread was asked
 * for and none could start). config NULL: defaults. On error *pool is NULL. */
ACTK_API actk_status actk_pool_create(const actk_pool_config *config, actk_pool **pool);
/* Joins the workers and frees the pool. No call may be using it. NULL and the
 * default pool (also, in a fork() child, the pointer from before the fork):
 * no-op. A pool created before a fork(), destroyed in the child: freed only. */
ACTK_API void actk_pool_destroy(actk_pool *pool);
/* The process-wide pool with default settings, created on first use (and
 * again in a child after fork) and never freed: when the library unloads its
 * workers are joined and from then on it runs every call inline. NULL if it
 * could not be created. */
ACTK_API actk_pool *actk_pool_default(void);
/* Threads a call may use, the caller included: 1 for NULL. */
ACTK_API unsigned actk_pool_threads(const actk_pool *pool);

/* The embedding engine's parallel-for (the shape of ONNX Runtime's
 * KernelContext_ParallelFor): run fn(data, i) for every i in [0, total),
 * on any threads, in any order, batched as it likes (num_batch is a hint),
 * and return when all are done. actk relies on the ordering any thread pool
 * gives: what the caller wrote before the call is visible to every fn, and
 * what every fn wrote is visible to the caller once it returns (a mutex, a
 * join, or release/acquire; on AArch64 a relaxed completion counter is not
 * enough). */
typedef void (*actk_parallel_for_fn)(void *host, void (*fn)(void *data, size_t i), size_t total,
                                     size_t num_batch, void *data);
/* A pool that runs actk's chunks on the engine's threads instead of its own:
 * no second set of spinning threads competes for the cores. threads: how many
 * the engine will run at once (for sizing chunks). An actk call from inside
 * one of actk's chunks runs inline; one from inside the engine's own task
 * calls parallel_for again, from inside it: if the engine's parallel-for does
 * not nest, make parallel_for run fn inline there (README, "Lifecycle"). */
ACTK_API actk_status actk_pool_create_host(actk_parallel_for_fn parallel_for, void *host,
                                           unsigned threads, actk_pool **pool);

/* ---- the element-wise ops ----
 * actk_<op>_<type><tier>: every op below in every element type (f32, and
 * the 16-bit types after this) and tier (accurate: no suffix; fast:
 * _fast), one function each, declared in the list that ends this section.
 *
 * Unary ops, f(pool, x, y, n): y may equal x (in place); any other overlap
 * is ACTK_ERR_OVERLAP. n == 0 is ACTK_OK and touches nothing. Element i of y
 * depends only on x[i] and the active arm: never on n, alignment, or how the
 * work was split.
 *
 * swish(pool, x, y, n, alpha) = x * sigmoid(alpha * x); alpha*x is formed
 * without rounding. A NaN x comes back as itself, quieted, whatever alpha is
 * (NaN in, same NaN out); where alpha * x is NaN for a non-NaN x (alpha NaN,
 * or 0 * inf) the result is the default quiet NaN (0x7fc00000). silu is
 * swish with alpha = 1, quick_gelu with alpha = 1.702f (ONNX Runtime's
 * QuickGelu default). */

/* ---- gated: y = activation(gate) * up ----
 * swiglu (silu), geglu (exact gelu), geglu_tanh (gelu_tanh), every type and
 * tier: y[i] = fl32(a * up[i]) with a the activation's f32 result of the same
 * tier at gate[i] (accurate: actk_<activation>_f32 of the widened gate, in
 * every type; fast f16/bf16: the type's fast core before its rounding, so
 * up = 1 gives actk_<activation>_<type>_fast's bits, except geglu f16: the
 * f32 fast result), narrowed once to the type: for f32 the bits of the unary call
 * followed by a float multiply. 16-bit results are faithful to the exact
 * product except where a is a subnormal float (|a| < 2^-126, gate far
 * negative with |up| large): there the float's absolute error (2^-148, fast
 * 2^-144) times |up| applies. NaNs: a NaN gate gives its NaN, else a NaN up
 * its NaN, else inf * 0 the default NaN. y may equal gate or up; any other
 * overlap with y is ACTK_ERR_OVERLAP (gate and up may overlap each other).
 *
 * <op>_packed(pool, x, y, rows, d): x is [rows][2d], the gate in each row's
 * first d columns and up in the last d (vLLM's silu_and_mul layout), y is
 * [rows][d]; the same bits as the plain call on each row's halves. y must not
 * overlap x at all; rows * 2d past the address space is ACTK_ERR_TOO_LARGE;
 * rows or d 0 is ACTK_OK and touches nothing. A call splits anywhere (one
 * long row too): the bits never depend on the split. For the
 * up-first layout (ggml's swapped form), call the plain form per row with
 * gate = row + d, up = row. */

/* ---- bias + activation, f32 ----
 * y[i] = g(x[i] + bias[i % width]) with the sum rounded to float first, so the
 * result is bit-identical to an add followed by actk_gelu_f32 (a NaN x or
 * bias comes back quieted; both NaN: x's). n must be a multiple of width;
 * bias must not overlap y. */

/* ---- the fast tier, f32 ----
 * The same ops, the same signatures and the same rules (special values,
 * signed zeros, NaN in -> the same NaN out, bit identity across ISAs,
 * threads and splits; erf, tanh and sigmoid monotone), with a looser bound:
 * relative error |y - r| / max(|r|, 2^-126) <= 2^-18 over all inputs (about
 * 5 correct decimal digits, tails included: never 0 where the true result is
 * a normal float), for throughput-bound inference. The tier is chosen per
 * call: the functions above keep their bounds and their bits. README.md
 * gives each op's measured maximum. */

/* ---- 16-bit types: f16 (IEEE binary16) and bf16 (bfloat16) ----
 * Elements are stored as their 16-bit patterns (a uint16_t each): uint16_t
 * bits work with every compiler (actk_f32_to_f16 and friends below make
 * them); a native 16-bit type passes by pointer cast where the compiler has
 * one (x86: _Float16 from GCC 12 and Clang 15, __bf16 from GCC 13 and, as
 * storage, Clang 15; std::float16_t / std::bfloat16_t need C++23 and
 * GCC 13); numpy float16 and uint16 views of bfloat16 too. README.md,
 * "Passing the data", has the table.
 * Each call loads a vector of 16-bit values, widens them exactly to f32 in
 * registers, computes in f32, narrows once with round to nearest even and
 * stores: one pass, no scratch copy of the tensor. Every rule of the f32
 * calls holds (in place, overlap, errors, pools, bit identity across ISAs,
 * threads and splits; NaN in -> the same NaN out, quieted; infinities and
 * signed zeros kept; subnormal results stay subnormal; f16 results round to
 * infinity only where the true value does). Both tiers are faithful on every
 * one of the 65536 inputs (the result is one of the two values of the type
 * around the true one, exact where the true one is representable); the
 * accurate tier rounds the accurate f32 result once (rounded to odd where
 * that result is exactly x/2 or x and a midpoint of the type, so that the
 * side the true value lies on is kept) and is correctly rounded on at least
 * 99.9% of the inputs of each op (swish: of every alpha, 2^-20 <= |alpha|
 * <= 2^20, and alpha = 0); the fast tier uses the cheapest
 * f32 core that stays faithful for the type. Bias ops take the bias in the
 * same type; the sum x + bias is formed in f32. README.md gives the table. */
typedef uint16_t actk_f16;  /* IEEE 754 binary16 bits */
typedef uint16_t actk_bf16; /* bfloat16 bits: the top half of an f32 */

/* One value between f32 and the 16-bit bits, with the library's own rules:
 * narrowing rounds to nearest even, keeps subnormals and signed zeros, gives
 * infinity past the largest finite value (f16: from 65520 up) and quiets a
 * NaN, keeping its sign and top payload bits; widening is exact (an f16 NaN
 * quieted). Integer arithmetic only: the same bits under any FP environment
 * and compiler, in C and C++, with no 16-bit float type needed. They are the
 * conversions the 16-bit calls make (tests/test_convert.c checks them on
 * every input against the library's). */
static inline uint32_t actk_f32_bits_(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static inline float actk_f32_of_bits_(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static inline actk_f16 actk_f32_to_f16(float f) {
  const uint32_t u = actk_f32_bits_(f), sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return (actk_f16)(sign | 0x7e00u | ((a >> 13) & 0x3ffu)); /* NaN */
  if (a >= 0x477ff000u) return (actk_f16)(sign | 0x7c00u); /* 65520 and up round to infinity */
  if (a >= 0x38800000u) { /* normal: rebias 127 -> 15, round on bit 13 (a carry is right) */
    const uint32_t r = a - 0x38000000u;
    return (actk_f16)(sign | ((r + 0xfffu + ((r >> 13) & 1u)) >> 13));
  }
  if (a < 0x33000000u) return (actk_f16)sign; /* below 2^-25: zero */
  { /* subnormal result: the significand shifted to units of 2^-24, rounded */
    const uint32_t m = (a & 0x7fffffu) | 0x800000u, shift = 126u - (a >> 23); /* 14..24 */
    const uint32_t q = m >> shift, rest = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    return (actk_f16)(sign | (q + (rest > half || (rest == half && (q & 1u)))));
  }
}

static inline float actk_f16_to_f32(actk_f16 h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu;
  uint32_t m = h & 0x3ffu;
  if (e == 0x1fu) /* infinity, or a NaN with the quiet bit set */
    return actk_f32_of_bits_(sign | 0x7f800000u | (m << 13) | (m ? 0x400000u : 0u));
  if (e) return actk_f32_of_bits_(sign | ((e + 112u) << 23) | (m << 13));
  if (!m) return actk_f32_of_bits_(sign);
  { /* subnormal m 2^-24: normalize */
    uint32_t biased = 113u;
    while (!(m & 0x400u)) m <<= 1, biased--;
    return actk_f32_of_bits_(sign | (biased << 23) | ((m & 0x3ffu) << 13));
  }
}

static inline actk_bf16 actk_f32_to_bf16(float f) {
  const uint32_t u = actk_f32_bits_(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (actk_bf16)((u >> 16) | 0x40u); /* NaN */
  return (actk_bf16)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

static inline float actk_bf16_to_f32(actk_bf16 h) { return actk_f32_of_bits_((uint32_t)h << 16); }

/* clang-format off */
/* ---- BEGIN element-wise declarations: generated by tools/gen_ops.py from src/ops.toml ---- */

/* f32, accurate tier */
/* erf(x) */
ACTK_API actk_status actk_erf_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* tanh(x) */
ACTK_API actk_status actk_tanh_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* 1 / (1 + e^-x) */
ACTK_API actk_status actk_sigmoid_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* x * sigmoid(x): swish with alpha = 1 */
ACTK_API actk_status actk_silu_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* x * sigmoid(1.702 x): swish with alpha = 1.702 (ONNX Runtime QuickGelu) */
ACTK_API actk_status actk_quick_gelu_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* 0.5 x (1 + erf(x / sqrt 2)), computed as 0.5 x erfc(-x / sqrt 2) */
ACTK_API actk_status actk_gelu_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
ACTK_API actk_status actk_gelu_tanh_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* relu6(x + 3) / 6 (PyTorch's Hardsigmoid) */
ACTK_API actk_status actk_hardsigmoid_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* x relu6(x + 3) / 6 (PyTorch's Hardswish; -0 for x <= -3, -inf included, where torch gives NaN) */
ACTK_API actk_status actk_hardswish_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* log(1 + e^x) (PyTorch's Softplus, beta 1: its threshold-20 shortcut changes nothing in f32) */
ACTK_API actk_status actk_softplus_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* x tanh(softplus(x)) (PyTorch's Mish; -0 at -inf, the limit, where torch gives NaN) */
ACTK_API actk_status actk_mish_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* x * sigmoid(alpha x), alpha x formed exactly */
ACTK_API actk_status actk_swish_f32(actk_pool *pool, const float *x, float *y, size_t n, float alpha);
/* x for x > 0, alpha (e^x - 1) otherwise (PyTorch's ELU; e^x - 1 without cancellation) */
ACTK_API actk_status actk_elu_f32(actk_pool *pool, const float *x, float *y, size_t n, float alpha);
/* gelu(x[i] + bias[i mod width]) */
ACTK_API actk_status actk_bias_gelu_f32(actk_pool *pool, const float *x, const float *bias, size_t width, float *y, size_t n);
/* gelu_tanh(x[i] + bias[i mod width]) */
ACTK_API actk_status actk_bias_gelu_tanh_f32(actk_pool *pool, const float *x, const float *bias, size_t width, float *y, size_t n);
/* silu(gate) * up (Llama's MLP) */
ACTK_API actk_status actk_swiglu_f32(actk_pool *pool, const float *gate, const float *up, float *y, size_t n);
ACTK_API actk_status actk_swiglu_packed_f32(actk_pool *pool, const float *x, float *y, size_t rows, size_t d);
/* gelu(gate) * up, exact GELU */
ACTK_API actk_status actk_geglu_f32(actk_pool *pool, const float *gate, const float *up, float *y, size_t n);
ACTK_API actk_status actk_geglu_packed_f32(actk_pool *pool, const float *x, float *y, size_t rows, size_t d);
/* gelu_tanh(gate) * up (Gemma's MLP) */
ACTK_API actk_status actk_geglu_tanh_f32(actk_pool *pool, const float *gate, const float *up, float *y, size_t n);
ACTK_API actk_status actk_geglu_tanh_packed_f32(actk_pool *pool, const float *x, float *y, size_t rows, size_t d);

/* f32, fast tier */
/* erf(x) */
ACTK_API actk_status actk_erf_f32_fast(actk_pool *pool, const float *x, float *y, size_t n);
/* tanh(x) */
ACTK_API actk_status actk_tanh_f32_fast(actk_pool *pool, const float *x, float *y, size_t n);
/* 1 / (1 + e^-x) */
ACTK_API actk_status actk_sigmoid_f32_fast(actk_pool *pool, const float *x, float *y, size_t n);
/* x * sigmoid(x): swish with alpha = 1 */
ACTK_API actk_status actk_silu_f32_fast(actk_pool *pool, const float *x, float *y, size_t n);
/* x * sigmoid(1.702 x): swish with alpha = 1.702 (ONNX Runtime QuickGelu) */
ACTK_API actk_status actk_quick_gelu_f32_fast(actk_pool *pool, const float *x, float *y, size_t n);
/* 0.5 x (1 + erf(x / sqrt 2)), computed as 0.5 x erfc(-x / sqrt 2) */
ACTK_API actk_status actk_gelu_f32_fast(actk_pool *pool, const float *x, float *y, size_t n);
/* 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
ACTK_API actk_status actk_gelu_tanh_f32_fast(actk_pool *pool, const float *x, float *y, size_t n);
/* relu6(x + 3) / 6 (PyTorch's Hardsigmoid) */
ACTK_API actk_status actk_hardsigmoid_f32_fast(actk_pool *pool, const float *x, float *y, size_t n);
/* x relu6(x + 3) / 6 (PyTorch's Hardswish; -0 for x <= -3, -inf included, where torch gives NaN) */
ACTK_API actk_status actk_hardswish_f32_fast(actk_pool *pool, const float *x, float *y, size_t n);
/* log(1 + e^x) (PyTorch's Softplus, beta 1: its threshold-20 shortcut changes nothing in f32) */
ACTK_API actk_status actk_softplus_f32_fast(actk_pool *pool, const float *x, float *y, size_t n);
/* x tanh(softplus(x)) (PyTorch's Mish; -0 at -inf, the limit, where torch gives NaN) */
ACTK_API actk_status actk_mish_f32_fast(actk_pool *pool, const float *x, float *y, size_t n);
/* x * sigmoid(alpha x), alpha x formed exactly */
ACTK_API actk_status actk_swish_f32_fast(actk_pool *pool, const float *x, float *y, size_t n, float alpha);
/* x for x > 0, alpha (e^x - 1) otherwise (PyTorch's ELU; e^x - 1 without cancellation) */
ACTK_API actk_status actk_elu_f32_fast(actk_pool *pool, const float *x, float *y, size_t n, float alpha);
/* gelu(x[i] + bias[i mod width]) */
ACTK_API actk_status actk_bias_gelu_f32_fast(actk_pool *pool, const float *x, const float *bias, size_t width, float *y, size_t n);
/* gelu_tanh(x[i] + bias[i mod width]) */
ACTK_API actk_status actk_bias_gelu_tanh_f32_fast(actk_pool *pool, const float *x, const float *bias, size_t width, float *y, size_t n);
/* silu(gate) * up (Llama's MLP) */
ACTK_API actk_status actk_swiglu_f32_fast(actk_pool *pool, const float *gate, const float *up, float *y, size_t n);
ACTK_API actk_status actk_swiglu_packed_f32_fast(actk_pool *pool, const float *x, float *y, size_t rows, size_t d);
/* gelu(gate) * up, exact GELU */
ACTK_API actk_status actk_geglu_f32_fast(actk_pool *pool, const float *gate, const float *up, float *y, size_t n);
ACTK_API actk_status actk_geglu_packed_f32_fast(actk_pool *pool, const float *x, float *y, size_t rows, size_t d);
/* gelu_tanh(gate) * up (Gemma's MLP) */
ACTK_API actk_status actk_geglu_tanh_f32_fast(actk_pool *pool, const float *gate, const float *up, float *y, size_t n);
ACTK_API actk_status actk_geglu_tanh_packed_f32_fast(actk_pool *pool, const float *x, float *y, size_t rows, size_t d);

/* f16, accurate tier */
/* erf(x) */
ACTK_API actk_status actk_erf_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* tanh(x) */
ACTK_API actk_status actk_tanh_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* 1 / (1 + e^-x) */
ACTK_API actk_status actk_sigmoid_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* x * sigmoid(x): swish with alpha = 1 */
ACTK_API actk_status actk_silu_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* x * sigmoid(1.702 x): swish with alpha = 1.702 (ONNX Runtime QuickGelu) */
ACTK_API actk_status actk_quick_gelu_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* 0.5 x (1 + erf(x / sqrt 2)), computed as 0.5 x erfc(-x / sqrt 2) */
ACTK_API actk_status actk_gelu_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
ACTK_API actk_status actk_gelu_tanh_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* relu6(x + 3) / 6 (PyTorch's Hardsigmoid) */
ACTK_API actk_status actk_hardsigmoid_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* x relu6(x + 3) / 6 (PyTorch's Hardswish; -0 for x <= -3, -inf included, where torch gives NaN) */
ACTK_API actk_status actk_hardswish_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* log(1 + e^x) (PyTorch's Softplus, beta 1: its threshold-20 shortcut changes nothing in f32) */
ACTK_API actk_status actk_softplus_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* x tanh(softplus(x)) (PyTorch's Mish; -0 at -inf, the limit, where torch gives NaN) */
ACTK_API actk_status actk_mish_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* x * sigmoid(alpha x), alpha x formed exactly */
ACTK_API actk_status actk_swish_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n, float alpha);
/* x for x > 0, alpha (e^x - 1) otherwise (PyTorch's ELU; e^x - 1 without cancellation) */
ACTK_API actk_status actk_elu_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n, float alpha);
/* gelu(x[i] + bias[i mod width]) */
ACTK_API actk_status actk_bias_gelu_f16(actk_pool *pool, const actk_f16 *x, const actk_f16 *bias, size_t width, actk_f16 *y, size_t n);
/* gelu_tanh(x[i] + bias[i mod width]) */
ACTK_API actk_status actk_bias_gelu_tanh_f16(actk_pool *pool, const actk_f16 *x, const actk_f16 *bias, size_t width, actk_f16 *y, size_t n);
/* silu(gate) * up (Llama's MLP) */
ACTK_API actk_status actk_swiglu_f16(actk_pool *pool, const actk_f16 *gate, const actk_f16 *up, actk_f16 *y, size_t n);
ACTK_API actk_status actk_swiglu_packed_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t rows, size_t d);
/* gelu(gate) * up, exact GELU */
ACTK_API actk_status actk_geglu_f16(actk_pool *pool, const actk_f16 *gate, const actk_f16 *up, actk_f16 *y, size_t n);
ACTK_API actk_status actk_geglu_packed_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t rows, size_t d);
/* gelu_tanh(gate) * up (Gemma's MLP) */
ACTK_API actk_status actk_geglu_tanh_f16(actk_pool *pool, const actk_f16 *gate, const actk_f16 *up, actk_f16 *y, size_t n);
ACTK_API actk_status actk_geglu_tanh_packed_f16(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t rows, size_t d);

/* f16, fast tier */
/* erf(x) */
ACTK_API actk_status actk_erf_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* tanh(x) */
ACTK_API actk_status actk_tanh_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* 1 / (1 + e^-x) */
ACTK_API actk_status actk_sigmoid_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* x * sigmoid(x): swish with alpha = 1 */
ACTK_API actk_status actk_silu_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* x * sigmoid(1.702 x): swish with alpha = 1.702 (ONNX Runtime QuickGelu) */
ACTK_API actk_status actk_quick_gelu_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* 0.5 x (1 + erf(x / sqrt 2)), computed as 0.5 x erfc(-x / sqrt 2) */
ACTK_API actk_status actk_gelu_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
ACTK_API actk_status actk_gelu_tanh_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* relu6(x + 3) / 6 (PyTorch's Hardsigmoid) */
ACTK_API actk_status actk_hardsigmoid_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* x relu6(x + 3) / 6 (PyTorch's Hardswish; -0 for x <= -3, -inf included, where torch gives NaN) */
ACTK_API actk_status actk_hardswish_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* log(1 + e^x) (PyTorch's Softplus, beta 1: its threshold-20 shortcut changes nothing in f32) */
ACTK_API actk_status actk_softplus_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* x tanh(softplus(x)) (PyTorch's Mish; -0 at -inf, the limit, where torch gives NaN) */
ACTK_API actk_status actk_mish_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n);
/* x * sigmoid(alpha x), alpha x formed exactly */
ACTK_API actk_status actk_swish_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n, float alpha);
/* x for x > 0, alpha (e^x - 1) otherwise (PyTorch's ELU; e^x - 1 without cancellation) */
ACTK_API actk_status actk_elu_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t n, float alpha);
/* gelu(x[i] + bias[i mod width]) */
ACTK_API actk_status actk_bias_gelu_f16_fast(actk_pool *pool, const actk_f16 *x, const actk_f16 *bias, size_t width, actk_f16 *y, size_t n);
/* gelu_tanh(x[i] + bias[i mod width]) */
ACTK_API actk_status actk_bias_gelu_tanh_f16_fast(actk_pool *pool, const actk_f16 *x, const actk_f16 *bias, size_t width, actk_f16 *y, size_t n);
/* silu(gate) * up (Llama's MLP) */
ACTK_API actk_status actk_swiglu_f16_fast(actk_pool *pool, const actk_f16 *gate, const actk_f16 *up, actk_f16 *y, size_t n);
ACTK_API actk_status actk_swiglu_packed_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t rows, size_t d);
/* gelu(gate) * up, exact GELU */
ACTK_API actk_status actk_geglu_f16_fast(actk_pool *pool, const actk_f16 *gate, const actk_f16 *up, actk_f16 *y, size_t n);
ACTK_API actk_status actk_geglu_packed_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t rows, size_t d);
/* gelu_tanh(gate) * up (Gemma's MLP) */
ACTK_API actk_status actk_geglu_tanh_f16_fast(actk_pool *pool, const actk_f16 *gate, const actk_f16 *up, actk_f16 *y, size_t n);
ACTK_API actk_status actk_geglu_tanh_packed_f16_fast(actk_pool *pool, const actk_f16 *x, actk_f16 *y, size_t rows, size_t d);

/* bf16, accurate tier */
/* erf(x) */
ACTK_API actk_status actk_erf_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* tanh(x) */
ACTK_API actk_status actk_tanh_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* 1 / (1 + e^-x) */
ACTK_API actk_status actk_sigmoid_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* x * sigmoid(x): swish with alpha = 1 */
ACTK_API actk_status actk_silu_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* x * sigmoid(1.702 x): swish with alpha = 1.702 (ONNX Runtime QuickGelu) */
ACTK_API actk_status actk_quick_gelu_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* 0.5 x (1 + erf(x / sqrt 2)), computed as 0.5 x erfc(-x / sqrt 2) */
ACTK_API actk_status actk_gelu_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
ACTK_API actk_status actk_gelu_tanh_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* relu6(x + 3) / 6 (PyTorch's Hardsigmoid) */
ACTK_API actk_status actk_hardsigmoid_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* x relu6(x + 3) / 6 (PyTorch's Hardswish; -0 for x <= -3, -inf included, where torch gives NaN) */
ACTK_API actk_status actk_hardswish_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* log(1 + e^x) (PyTorch's Softplus, beta 1: its threshold-20 shortcut changes nothing in f32) */
ACTK_API actk_status actk_softplus_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* x tanh(softplus(x)) (PyTorch's Mish; -0 at -inf, the limit, where torch gives NaN) */
ACTK_API actk_status actk_mish_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* x * sigmoid(alpha x), alpha x formed exactly */
ACTK_API actk_status actk_swish_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n, float alpha);
/* x for x > 0, alpha (e^x - 1) otherwise (PyTorch's ELU; e^x - 1 without cancellation) */
ACTK_API actk_status actk_elu_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n, float alpha);
/* gelu(x[i] + bias[i mod width]) */
ACTK_API actk_status actk_bias_gelu_bf16(actk_pool *pool, const actk_bf16 *x, const actk_bf16 *bias, size_t width, actk_bf16 *y, size_t n);
/* gelu_tanh(x[i] + bias[i mod width]) */
ACTK_API actk_status actk_bias_gelu_tanh_bf16(actk_pool *pool, const actk_bf16 *x, const actk_bf16 *bias, size_t width, actk_bf16 *y, size_t n);
/* silu(gate) * up (Llama's MLP) */
ACTK_API actk_status actk_swiglu_bf16(actk_pool *pool, const actk_bf16 *gate, const actk_bf16 *up, actk_bf16 *y, size_t n);
ACTK_API actk_status actk_swiglu_packed_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t rows, size_t d);
/* gelu(gate) * up, exact GELU */
ACTK_API actk_status actk_geglu_bf16(actk_pool *pool, const actk_bf16 *gate, const actk_bf16 *up, actk_bf16 *y, size_t n);
ACTK_API actk_status actk_geglu_packed_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t rows, size_t d);
/* gelu_tanh(gate) * up (Gemma's MLP) */
ACTK_API actk_status actk_geglu_tanh_bf16(actk_pool *pool, const actk_bf16 *gate, const actk_bf16 *up, actk_bf16 *y, size_t n);
ACTK_API actk_status actk_geglu_tanh_packed_bf16(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t rows, size_t d);

/* bf16, fast tier */
/* erf(x) */
ACTK_API actk_status actk_erf_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* tanh(x) */
ACTK_API actk_status actk_tanh_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* 1 / (1 + e^-x) */
ACTK_API actk_status actk_sigmoid_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* x * sigmoid(x): swish with alpha = 1 */
ACTK_API actk_status actk_silu_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* x * sigmoid(1.702 x): swish with alpha = 1.702 (ONNX Runtime QuickGelu) */
ACTK_API actk_status actk_quick_gelu_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* 0.5 x (1 + erf(x / sqrt 2)), computed as 0.5 x erfc(-x / sqrt 2) */
ACTK_API actk_status actk_gelu_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
ACTK_API actk_status actk_gelu_tanh_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* relu6(x + 3) / 6 (PyTorch's Hardsigmoid) */
ACTK_API actk_status actk_hardsigmoid_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* x relu6(x + 3) / 6 (PyTorch's Hardswish; -0 for x <= -3, -inf included, where torch gives NaN) */
ACTK_API actk_status actk_hardswish_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* log(1 + e^x) (PyTorch's Softplus, beta 1: its threshold-20 shortcut changes nothing in f32) */
ACTK_API actk_status actk_softplus_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* x tanh(softplus(x)) (PyTorch's Mish; -0 at -inf, the limit, where torch gives NaN) */
ACTK_API actk_status actk_mish_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n);
/* x * sigmoid(alpha x), alpha x formed exactly */
ACTK_API actk_status actk_swish_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n, float alpha);
/* x for x > 0, alpha (e^x - 1) otherwise (PyTorch's ELU; e^x - 1 without cancellation) */
ACTK_API actk_status actk_elu_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t n, float alpha);
/* gelu(x[i] + bias[i mod width]) */
ACTK_API actk_status actk_bias_gelu_bf16_fast(actk_pool *pool, const actk_bf16 *x, const actk_bf16 *bias, size_t width, actk_bf16 *y, size_t n);
/* gelu_tanh(x[i] + bias[i mod width]) */
ACTK_API actk_status actk_bias_gelu_tanh_bf16_fast(actk_pool *pool, const actk_bf16 *x, const actk_bf16 *bias, size_t width, actk_bf16 *y, size_t n);
/* silu(gate) * up (Llama's MLP) */
ACTK_API actk_status actk_swiglu_bf16_fast(actk_pool *pool, const actk_bf16 *gate, const actk_bf16 *up, actk_bf16 *y, size_t n);
ACTK_API actk_status actk_swiglu_packed_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t rows, size_t d);
/* gelu(gate) * up, exact GELU */
ACTK_API actk_status actk_geglu_bf16_fast(actk_pool *pool, const actk_bf16 *gate, const actk_bf16 *up, actk_bf16 *y, size_t n);
ACTK_API actk_status actk_geglu_packed_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t rows, size_t d);
/* gelu_tanh(gate) * up (Gemma's MLP) */
ACTK_API actk_status actk_geglu_tanh_bf16_fast(actk_pool *pool, const actk_bf16 *gate, const actk_bf16 *up, actk_bf16 *y, size_t n);
ACTK_API actk_status actk_geglu_tanh_packed_bf16_fast(actk_pool *pool, const actk_bf16 *x, actk_bf16 *y, size_t rows, size_t d);

/* ---- END element-wise declarations ---- */
/* clang-format on */

/* ---- rotary position embedding, f32 ----
 * ONNX Runtime com.microsoft RotaryEmbedding semantics. For each token
 * (b, s), head h and pair (a, b) of channels with cache entries (c, s) at the
 * token's position: a' = a c - b s, b' = b c + a s, computed as
 * a c - fl(b s) and b c + fl(a s) with one fused multiply-add each, the same
 * in every arm. Channels from rotary_dim to head_size are copied. y may equal
 * x; a position outside [0, max_position) is ACTK_ERR_OUT_OF_RANGE and
 * nothing is written. A rotated channel with a NaN among its inputs is the
 * default quiet NaN (0x7fc00000; in f16 and bf16 that NaN narrowed, 0x7e00
 * and 0x7fc0), on every arm. */

typedef enum actk_rope_layout {
  ACTK_ROPE_BSHD = 0, /* x[b][s][h][d], also [B, S, H*D] */
  ACTK_ROPE_BHSD = 1  /* x[b][h][s][d] */
} actk_rope_layout;

typedef enum actk_rope_style {
  ACTK_ROPE_SPLIT_HALF = 0, /* GPT-NeoX / Llama, ORT interleaved=0: pairs (j, j + rotary_dim/2) */
  ACTK_ROPE_INTERLEAVED = 1 /* GPT-J, ORT interleaved=1: pairs (2j, 2j + 1) */
} actk_rope_style;

typedef struct actk_rope_desc {
  size_t struct_size; /* sizeof(actk_rope_desc) */
  size_t batch, seq_len, heads, head_size;
  size_t rotary_dim; /* even, <= head_size; 0 means head_size */
  actk_rope_layout layout;
  actk_rope_style style;
  size_t max_position;    /* rows of the cos and sin caches */
  int64_t position_start; /* positions are start + s when position_ids is NULL */
} actk_rope_desc;

/* Sizes 0, split-half, BSHD, start 0, struct_size this program's (inline,
 * as actk_pool_config_init). */
static inline void actk_rope_desc_init(actk_rope_desc *desc) {
  actk_rope_desc d = {sizeof(actk_rope_desc), 0, 0, 0, 0, 0, ACTK_ROPE_BSHD,
                      ACTK_ROPE_SPLIT_HALF,   0, 0};
  if (desc) *desc = d;
}

/* position_ids: [batch][seq_len] int64 at any byte address (no alignment
 * needed), or NULL. cos_cache and sin_cache: [max_position][rotary_dim / 2]. */
ACTK_API actk_status actk_rope_f32(actk_pool *pool, const actk_rope_desc *desc, const float *x,
                                   const int64_t *position_ids, const float *cos_cache,
                                   const float *sin_cache, float *y);

/* The same for x and y in f16 and bf16 (the caches stay f32: each cache row
 * is read once per token for all its heads, so its width costs little, and
 * f32 angles keep a rotation's error to the final rounding; an engine that
 * holds its caches in the 16-bit type converts them once at load). */
ACTK_API actk_status actk_rope_f16(actk_pool *pool, const actk_rope_desc *desc, const actk_f16 *x,
                                   const int64_t *position_ids, const float *cos_cache,
                                   const float *sin_cache, actk_f16 *y);
ACTK_API actk_status actk_rope_bf16(actk_pool *pool, const actk_rope_desc *desc, const actk_bf16 *x,
                                    const int64_t *position_ids, const float *cos_cache,
                                    const float *sin_cache, actk_bf16 *y);

/* cos/sin caches [max_position][rotary_dim / 2] for angles p * theta^(-2j /
 * rotary_dim), computed in double and rounded once. theta 0 means 10000; a
 * negative, infinite or NaN theta, or one so small that an angle is not
 * finite (theta^-1 near the double range), is ACTK_ERR_INVALID_ARGUMENT. */
ACTK_API actk_status actk_rope_cache_f32(float *cos_cache, float *sin_cache, size_t max_position,
                                         size_t rotary_dim, double theta);

#ifdef __cplusplus
}
#endif

#endif /* ACTK_H */
