// GELU on a std::vector through actk's C API, statically linked: once on the
// calling thread, once on an actk pool of its own, and once on a stand-in for
// an inference engine's thread pool through actk_pool_create_host. Checks
// gelu(1) against its known value and that all three give the same bits;
// prints the version and the active instruction-set arm. Exit status 0 when
// every check passed.
#include <actk.h>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

namespace {

struct PoolDeleter {
  void operator()(actk_pool *pool) const { actk_pool_destroy(pool); }
};
using Pool = std::unique_ptr<actk_pool, PoolDeleter>;

// The engine's parallel-for: runs fn(data, i) for every i in [0, total) on
// `threads` threads (the caller included) and returns when all are done. A
// real engine runs this on its existing pool; here threads are started per
// call to keep the example short.
struct Engine {
  unsigned threads;
};

void engine_parallel_for(void *host, void (*fn)(void *, std::size_t), std::size_t total,
                         std::size_t /*num_batch*/, void *data) {
  const auto *engine = static_cast<const Engine *>(host);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < total;) fn(data, i);
  };
  std::vector<std::thread> helpers;
  for (unsigned t = 1; t < engine->threads; t++) helpers.emplace_back(work);
  work();
  for (auto &h : helpers) h.join();
}

bool check(actk_status s, const char *what) {
  if (s != ACTK_OK) std::fprintf(stderr, "error: %s: %s\n", what, actk_status_string(s));
  return s == ACTK_OK;
}

} // namespace

int main() {
  bool ok = true;
  std::printf("actk version: %s (header %d.%d.%d), static library\n", actk_version_string(),
              ACTK_VERSION_MAJOR, ACTK_VERSION_MINOR, ACTK_VERSION_PATCH);
  if (actk_version() != ACTK_VERSION) {
    // Statically linked: the library is the one this header came with.
    std::fprintf(stderr, "error: library version %u, header %d\n", actk_version(), ACTK_VERSION);
    ok = false;
  }

  // x = -8 .. 8 in steps of 1/4096, with x = 1 at index 9 * 4096.
  const std::size_t n = 16 * 4096 + 1;
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; i++) x[i] = -8.0f + static_cast<float>(i) / 4096.0f;

  std::vector<float> serial(n), own(n), hosted(n);
  if (!check(actk_gelu_f32(nullptr, x.data(), serial.data(), n), "gelu, no pool")) return 1;

  // gelu(1) = 0.5 (1 + erf(1 / sqrt 2)) = 0.841344746...
  const std::size_t one = 9 * 4096;
  const double want = 0.8413447460685429;
  std::printf("gelu(%g) = %.9g\n", x[one], serial[one]);
  if (x[one] != 1.0f || std::fabs(serial[one] - want) > 1e-6 * want) {
    std::fprintf(stderr, "error: gelu(1) = %.9g, expected %.9g\n", serial[one], want);
    ok = false;
  }
  // and every element against the definition, within 1e-6 relative (+ a
  // tiny absolute floor for the results that underflow toward 0)
  for (std::size_t i = 0; i < n; i++) {
    double xi = x[i], ref = 0.5 * xi * std::erfc(-xi / std::sqrt(2.0));
    if (std::fabs(serial[i] - ref) > 1e-6 * std::fabs(ref) + 1e-30) {
      std::fprintf(stderr, "error: gelu(%.9g) = %.9g, expected %.9g\n", xi, serial[i], ref);
      ok = false;
      break;
    }
  }

  actk_pool_config config;
  actk_pool_config_init(&config);
  config.threads = 4;
  actk_pool *raw = nullptr;
  if (!check(actk_pool_create(&config, &raw), "actk_pool_create")) return 1;
  Pool pool(raw);
  ok = check(actk_gelu_f32(pool.get(), x.data(), own.data(), n), "gelu, own pool") && ok;

  Engine engine{4};
  raw = nullptr;
  if (!check(actk_pool_create_host(engine_parallel_for, &engine, engine.threads, &raw),
             "actk_pool_create_host"))
    return 1;
  Pool host_pool(raw);
  ok = check(actk_gelu_f32(host_pool.get(), x.data(), hosted.data(), n), "gelu, host pool") && ok;

  const std::size_t bytes = n * sizeof(float);
  if (std::memcmp(own.data(), serial.data(), bytes) != 0 ||
      std::memcmp(hosted.data(), serial.data(), bytes) != 0) {
    std::fprintf(stderr, "error: pooled results differ from the serial ones\n");
    ok = false;
  } else {
    std::printf("own pool (%u threads) and host pool (%u threads): same bits as one thread\n",
                actk_pool_threads(pool.get()), actk_pool_threads(host_pool.get()));
  }

  std::printf("isa active: %s (%s)\n", actk_isa_name(actk_isa_active()), actk_isa_reason());
  std::printf("%s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
