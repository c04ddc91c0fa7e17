/* actk: elementwise activation kernels for ML inference.
 *
 * One header, C99, usable from C++. Every call returns an actk_status; on any
 * error nothing is written. No call aborts, prints, or allocates on the hot
 * path. See README.md for error bounds, threading and embedding. */
#ifndef ACTK_H
#define ACTK_H

#include <stddef.h>

#if defined(_WIN32) && defined(ACTK_SHARED_BUILD)
#define ACTK_API __declspec(dllexport)
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
  ACTK_ERR_NULL_POINTER = 1,    /* a required pointer is NULL (and the call would touch it) */
  ACTK_ERR_OVERLAP = 2,         /* output overlaps an input other than exactly (y == x) */
  ACTK_ERR_TOO_LARGE = 3,       /* n * sizeof(float) does not fit in size_t */
  ACTK_ERR_ZERO_WIDTH = 4,      /* bias width is 0 */
  ACTK_ERR_WIDTH_MISMATCH = 5,  /* n is not a multiple of the bias width */
  ACTK_ERR_UNSUPPORTED_ISA = 6, /* the CPU or OS cannot run the requested instruction set */
  ACTK_ERR_INVALID_ARGUMENT = 7 /* an enum or option value out of its range */
} actk_status;

/* Opaque thread pool. NULL everywhere means: run on the calling thread and
 * never create a thread. */
typedef struct actk_pool actk_pool;

/* Instruction-set arms. Values are part of the ABI. */
typedef enum actk_isa {
  ACTK_ISA_SCALAR = 0, /* portable C, any CPU */
  ACTK_ISA_AVX2 = 1,   /* x86-64 AVX2 + FMA3, OS saves YMM state */
  ACTK_ISA_AVX512 = 2  /* x86-64 AVX-512 F + DQ, OS saves ZMM state */
} actk_isa;

/* ---- library facts ---- */

/* ACTK_VERSION of the library actually loaded (may differ from the header's). */
ACTK_API unsigned actk_version(void);
ACTK_API const char *actk_version_string(void);
/* Static English description of a status code; never NULL. */
ACTK_API const char *actk_status_string(actk_status status);

/* ---- instruction-set dispatch ----
 * The best arm is chosen once per process, on first use, from CPUID and XCR0.
 * ACTK_ISA=scalar|avx2|avx512 in the environment forces an arm (ignored, and
 * said so by actk_isa_reason(), if the CPU cannot run it). All arms give the
 * same bits for the same input. */

ACTK_API actk_isa actk_isa_active(void);
/* "scalar", "avx2", "avx512"; NULL for a value that is not an actk_isa. */
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

/* ---- unary activations, f32 ----
 * y may equal x (in place); any other overlap is ACTK_ERR_OVERLAP.
 * n == 0 is ACTK_OK and touches nothing. Element i of y depends only on x[i]
 * and the active arm: never on n, alignment, or how the work was split. */

ACTK_API actk_status actk_erf_f32(actk_pool *pool, const float *x, float *y, size_t n);
ACTK_API actk_status actk_tanh_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* 1 / (1 + exp(-x)) */
ACTK_API actk_status actk_sigmoid_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* x * sigmoid(alpha * x); alpha*x is formed without rounding */
ACTK_API actk_status actk_swish_f32(actk_pool *pool, const float *x, float *y, size_t n,
                                    float alpha);
/* swish with alpha = 1 */
ACTK_API actk_status actk_silu_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* swish with alpha = 1.702f (ONNX Runtime QuickGelu default) */
ACTK_API actk_status actk_quick_gelu_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* 0.5 * x * (1 + erf(x / sqrt(2))) */
ACTK_API actk_status actk_gelu_f32(actk_pool *pool, const float *x, float *y, size_t n);
/* 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))) */
ACTK_API actk_status actk_gelu_tanh_f32(actk_pool *pool, const float *x, float *y, size_t n);

/* ---- bias + activation, f32 ----
 * y[i] = g(x[i] + bias[i % width]) with the sum rounded to float first, so the
 * result is bit-identical to an add followed by actk_gelu_f32. n must be a
 * multiple of width; bias must not overlap y. */

ACTK_API actk_status actk_bias_gelu_f32(actk_pool *pool, const float *x, const float *bias,
                                        size_t width, float *y, size_t n);
ACTK_API actk_status actk_bias_gelu_tanh_f32(actk_pool *pool, const float *x, const float *bias,
                                             size_t width, float *y, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* ACTK_H */
