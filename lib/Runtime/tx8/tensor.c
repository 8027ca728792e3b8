/* Tensors, element conversion and the argument checks the ops share. The
 * fp16/bf16 conversions are libnpuc_hivm_rt's (exact, nearest even). */
#include "internal.h"

#include "npuc/HivmRuntime.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

npuc_tx8_tsr npuc_tx8_tsr_make(void *data, npuc_tx8_dims dims,
                               npuc_tx8_dtype dt, npuc_tx8_layout_mode mode) {
  npuc_tx8_tsr t = {data, npuc_tx8_layout_of(dims, dt, mode)};
  return t;
}

/* ---- conversions ----------------------------------------------------------
 */

int8_t npuc_tx8i_saturate_i8(double v) {
  if (isnan(v))
    return 0;
  double r = nearbyint(v); /* the default rounding mode: nearest even */
  return (int8_t)(r > 127 ? 127 : r < -128 ? -128 : r);
}

void npuc_tx8i_load_f32(float *out, const void *p, npuc_tx8_dtype dt,
                        int64_t n) {
  const uint16_t *h = p;
  const int8_t *b = p;
  for (int64_t i = 0; i < n; ++i) {
    switch (dt) {
    case NPUC_TX8_F16: out[i] = npuc_rt_f16_to_f32(h[i]); break;
    case NPUC_TX8_BF16: out[i] = npuc_rt_bf16_to_f32(h[i]); break;
    case NPUC_TX8_F32:
      memcpy(&out[i], (const float *)p + i, sizeof(float));
      break;
    case NPUC_TX8_I8: out[i] = (float)b[i]; break;
    }
  }
}

void npuc_tx8i_store_f32(void *p, npuc_tx8_dtype dt, const float *in,
                         int64_t n) {
  uint16_t *h = p;
  int8_t *b = p;
  for (int64_t i = 0; i < n; ++i) {
    switch (dt) {
    case NPUC_TX8_F16: h[i] = npuc_rt_f32_to_f16(in[i]); break;
    case NPUC_TX8_BF16: h[i] = npuc_rt_f32_to_bf16(in[i]); break;
    case NPUC_TX8_F32: memcpy((float *)p + i, &in[i], sizeof(float)); break;
    case NPUC_TX8_I8: b[i] = npuc_tx8i_saturate_i8(in[i]); break;
    }
  }
}

double npuc_tx8_get(const npuc_tx8_tsr *t, int64_t n, int64_t hw, int64_t c) {
  float f;
  npuc_tx8i_load_f32(&f, tx8_at(t, npuc_tx8_offset(&t->layout, n, hw, c)),
                     t->layout.dtype, 1);
  return f;
}

/* Through float: a double rounds to fp16/bf16 in two steps, which can
 * differ from one rounding in the last place for values within 2^-29 of a
 * tie; every op result is an fp32 value already. */
void npuc_tx8_set(const npuc_tx8_tsr *t, int64_t n, int64_t hw, int64_t c,
                  double v) {
  void *p = tx8_at(t, npuc_tx8_offset(&t->layout, n, hw, c));
  if (t->layout.dtype == NPUC_TX8_I8) {
    *(int8_t *)p = npuc_tx8i_saturate_i8(v);
    return;
  }
  float f = (float)v;
  npuc_tx8i_store_f32(p, t->layout.dtype, &f, 1);
}

void npuc_tx8i_vector_f32(float *out, const npuc_tx8_tsr *v) {
  npuc_tx8i_load_row(out, v, 0, 0);
}

void npuc_tx8i_load_row(float *dst, const npuc_tx8_tsr *t, int64_t n,
                        int64_t row) {
  const npuc_tx8_layout *l = &t->layout;
  for (int64_t r = 0; r < npuc_tx8_num_runs(l); ++r) {
    npuc_tx8_run run = npuc_tx8_row_run(l, n, row, r);
    npuc_tx8i_load_f32(dst + run.c_first, tx8_at(t, run.offset), l->dtype,
                       run.count);
  }
}

void npuc_tx8i_store_row(const npuc_tx8_tsr *t, int64_t n, int64_t row,
                         const float *src) {
  const npuc_tx8_layout *l = &t->layout;
  for (int64_t r = 0; r < npuc_tx8_num_runs(l); ++r) {
    npuc_tx8_run run = npuc_tx8_row_run(l, n, row, r);
    npuc_tx8i_store_f32(tx8_at(t, run.offset), l->dtype, src + run.c_first,
                        run.count);
  }
}

void npuc_tx8i_clear_padding(const npuc_tx8_tsr *t) {
  if (npuc_tx8_is_aligned(t->layout.mode))
    memset(t->data, 0, (size_t)t->layout.total_bytes);
}

/* ---- errors and checks ------------------------------------------------------
 */

/* Distinct from a program's own exit codes and from a crash, as
 * libnpuc_hivm_rt's npuc_rt_fail. */
enum { TX8_FAIL_STATUS = 3 };

void npuc_tx8_fail(const char *op, const char *fmt, ...) {
  fflush(stdout);
  fprintf(stderr, "tx8 %s: error: ", op);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(TX8_FAIL_STATUS);
}

void npuc_tx8i_check_tsr(const char *op, const char *what,
                         const npuc_tx8_tsr *t) {
  if (!t || !t->data)
    npuc_tx8_fail(op, "%s has no data", what);
  npuc_tx8_dims d = t->layout.dims;
  if (d.n <= 0 || d.hw <= 0 || d.c <= 0)
    npuc_tx8_fail(op, "%s has dims %lldx%lldx%lld", what, (long long)d.n,
                  (long long)d.hw, (long long)d.c);
  if (npuc_tx8_dtype_bytes(t->layout.dtype) == 0)
    npuc_tx8_fail(op, "%s has an invalid dtype", what);
}

void npuc_tx8i_check_same_dims(const char *op, const char *what,
                               const npuc_tx8_tsr *a, const npuc_tx8_tsr *b) {
  npuc_tx8_dims x = a->layout.dims, y = b->layout.dims;
  if (x.n != y.n || x.hw != y.hw || x.c != y.c)
    npuc_tx8_fail(op, "%s: dims %lldx%lldx%lld and %lldx%lldx%lld differ", what,
                  (long long)x.n, (long long)x.hw, (long long)x.c,
                  (long long)y.n, (long long)y.hw, (long long)y.c);
}

void npuc_tx8i_check_same_layout(const char *op, const char *what,
                                 const npuc_tx8_tsr *a, const npuc_tx8_tsr *b) {
  npuc_tx8i_check_same_dims(op, what, a, b);
  if (a->layout.mode != b->layout.mode)
    npuc_tx8_fail(op, "%s: layouts %s and %s differ", what,
                  npuc_tx8_layout_name(a->layout.mode),
                  npuc_tx8_layout_name(b->layout.mode));
}

void npuc_tx8i_check_dtype(const char *op, const char *what,
                           const npuc_tx8_tsr *t, npuc_tx8_dtype dt) {
  if (t->layout.dtype != dt)
    npuc_tx8_fail(op, "%s is %s, expected %s", what,
                  npuc_tx8_dtype_name(t->layout.dtype),
                  npuc_tx8_dtype_name(dt));
}

void npuc_tx8i_check_float(const char *op, const char *what,
                           const npuc_tx8_tsr *t) {
  if (t->layout.dtype == NPUC_TX8_I8)
    npuc_tx8_fail(op, "%s must be fp16, bf16 or fp32, not i8", what);
}

void npuc_tx8i_check_in_out(const char *op, const npuc_tx8_tsr *in,
                            const npuc_tx8_tsr *out, bool is_float) {
  npuc_tx8i_check_tsr(op, "in", in);
  npuc_tx8i_check_tsr(op, "out", out);
  if (is_float)
    npuc_tx8i_check_float(op, "in", in);
  npuc_tx8i_check_dtype(op, "out", out, in->layout.dtype);
}

void npuc_tx8i_check_vector(const char *op, const char *what,
                            const npuc_tx8_tsr *v, int64_t c) {
  npuc_tx8i_check_tsr(op, what, v);
  if (!tx8_is_vector(v) || v->layout.dims.c != c)
    npuc_tx8_fail(op, "%s must be a [%lld] vector", what, (long long)c);
}

void npuc_tx8i_check_compact(const char *op, const char *what,
                             const npuc_tx8_tsr *t) {
  if (npuc_tx8_is_aligned(t->layout.mode))
    npuc_tx8_fail(op, "%s must be Tensor or NTensor, not %s", what,
                  npuc_tx8_layout_name(t->layout.mode));
}
