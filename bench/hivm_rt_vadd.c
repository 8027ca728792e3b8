/* vadd through libnpuc_hivm_rt vs. the plain C loop it models: 4M f32
 * elements, dense, same shape (npuc_rt_elementwise's fast path). Prints
 * the best of N runs of each, the ratio, and PASS/MISS against the target.
 * Also reports (without a target) a scalar operand and an f16 vadd.
 *
 * usage: hivm_rt_vadd [runs] */
#include "npuc/HivmRuntime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N = 4 << 20 };
static const double kTargetRatio = 1.5;

/* The reference: what a kernel would be without the model. Not inlined,
 * so it is compiled as a loop over unknown pointers like the library's. */
__attribute__((noinline)) static void plain_vadd(float *c, const float *a,
                                                 const float *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    c[i] = a[i] + b[i];
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static npuc_buf vector(npuc_dtype dt) {
  int64_t n = N;
  return npuc_rt_alloc(dt, 1, &n, "bench");
}

static npuc_operand buffer(npuc_buf b) {
  return (npuc_operand){.buf = b, .dtype = b.dtype};
}

typedef struct {
  npuc_ew_op op;
  npuc_buf dst;
  npuc_operand in[2];
} ew_call;

static double best_of_runtime(const ew_call *c, int runs) {
  double best = 1e30;
  for (int r = 0; r < runs; r++) {
    double t = now();
    npuc_rt_elementwise(c->op, &c->dst, c->in, 2, "bench");
    t = now() - t;
    if (t < best)
      best = t;
  }
  return best;
}

static double best_of_plain(float *c, const float *a, const float *b,
                            int runs) {
  double best = 1e30;
  for (int r = 0; r < runs; r++) {
    double t = now();
    plain_vadd(c, a, b, N);
    t = now() - t;
    if (t < best)
      best = t;
  }
  return best;
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 5;
  if (runs < 1)
    runs = 1;
  npuc_buf a = vector(NPUC_DT_F32), b = vector(NPUC_DT_F32),
           c = vector(NPUC_DT_F32);
  float *pa = a.data, *pb = b.data;
  for (size_t i = 0; i < N; i++) {
    pa[i] = (float)(i % 1000) * 0.5f;
    pb[i] = (float)(i % 7) - 3.0f;
  }
  /* The plain loop writes into its own buffer, both touched beforehand,
   * so neither side pays for first-touch page faults. */
  float *plain = malloc(sizeof(float) * N);
  if (!plain)
    return 2;
  memset(plain, 0, sizeof(float) * N);

  ew_call vadd = {NPUC_EW_ADD, c, {buffer(a), buffer(b)}};
  double t_plain = best_of_plain(plain, pa, pb, runs);
  double t_rt = best_of_runtime(&vadd, runs);
  if (memcmp(plain, c.data, sizeof(float) * N) != 0) {
    fprintf(stderr, "results differ\n");
    return 1;
  }

  ew_call vadds = vadd;
  vadds.in[1] =
      (npuc_operand){.is_scalar = true, .f = 1.5, .dtype = NPUC_DT_F32};
  double t_scalar = best_of_runtime(&vadds, runs);

  ew_call h = {NPUC_EW_ADD,
               vector(NPUC_DT_F16),
               {buffer(vector(NPUC_DT_F16)), buffer(vector(NPUC_DT_F16))}};
  double t_f16 = best_of_runtime(&h, runs);

  double ratio = t_rt / t_plain;
  printf("vadd f32, %d elements, best of %d\n", N, runs);
  printf("%-28s %10.3f ms\n", "plain C loop", t_plain * 1e3);
  printf("%-28s %10.3f ms\n", "npuc_rt_elementwise", t_rt * 1e3);
  printf("%-28s %10.2f  (target <= %.1f)  %s\n", "ratio", ratio, kTargetRatio,
         ratio <= kTargetRatio ? "PASS" : "MISS");
  printf("%-28s %10.3f ms  (info)\n", "  with a scalar operand",
         t_scalar * 1e3);
  printf("%-28s %10.3f ms  (info)\n", "  f16 (converts in chunks)",
         t_f16 * 1e3);
  free(plain);
  npuc_rt_arena_reset();
  return 0;
}
