/* What the tests, tools, benchmarks and fuzzers share, written once: a
 * deterministic generator (splitmix64), the "realistic pre-activation" input
 * (N(0, sigma) clipped, Box-Muller over splitmix64) and a monotonic clock.
 * Header-only, C99 and C++. */
#ifndef ACTK_TOOLS_HARNESS_H
#define ACTK_TOOLS_HARNESS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* splitmix64: the next value of the sequence at *s. */
static inline uint64_t actk_splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform in (0, 1]: 53 random bits, never 0 (fill_normal takes its log). */
static inline double actk_uniform01(uint64_t *s) {
  return (double)((actk_splitmix64(s) >> 11) + 1) * 0x1p-53;
}

/* x[0..n) ~ N(0, sigma) clipped to [-clip, clip], the same floats for the
 * same seed on every run and machine. The benchmarks' input is sigma 3,
 * clip 12 (about 68% of the values in [-3, 3], where the activations have
 * their curvature, a few per cent in the saturated tails past |x| = 6). */
static inline void actk_fill_normal(float *x, size_t n, uint64_t seed, double sigma, double clip) {
  uint64_t s = seed;
  const double two_pi = 6.283185307179586476925;
  for (size_t i = 0; i < n; i += 2) {
    double r = sqrt(-2.0 * log(actk_uniform01(&s))), t = two_pi * actk_uniform01(&s);
    double z[2] = {sigma * r * cos(t), sigma * r * sin(t)};
    for (size_t k = 0; k < 2 && i + k < n; k++)
      x[i + k] = (float)(z[k] > clip ? clip : z[k] < -clip ? -clip : z[k]);
  }
}

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t actk_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
