/* The smallest actk program: gelu(1), the version and the active arm. Built
 * by the Makefile next to it with pkg-config, against the shared and the
 * static library. Exit status 0 when gelu(1) is right. */
#include <actk.h>

#include <stdio.h>

int main(void) {
  const float x[3] = {-1.0f, 0.0f, 1.0f};
  float y[3];
  actk_status s = actk_gelu_f32(NULL, x, y, 3);
  if (s != ACTK_OK) {
    fprintf(stderr, "error: actk_gelu_f32: %s\n", actk_status_string(s));
    return 1;
  }
  printf("actk %s, isa %s: gelu(1) = %.9g\n", actk_version_string(),
         actk_isa_name(actk_isa_active()), y[2]);
  /* gelu(1) = 0.841344746068543; 1e-6 relative is well inside the 2 ULP bound */
  const double want = 0.841344746068543, err = (double)y[2] - want;
  if (err > 1e-6 * want || err < -1e-6 * want || y[0] > -0.158f || y[0] < -0.159f || y[1] != 0.0f) {
    fprintf(stderr, "error: gelu(-1, 0, 1) = %.9g %.9g %.9g\n", y[0], y[1], y[2]);
    return 1;
  }
  printf("ok\n");
  return 0;
}
