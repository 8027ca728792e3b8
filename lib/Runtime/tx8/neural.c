/* The neural-engine ops: gemm and conv. Like the hardware, operands are
 * gathered out of their layouts and converted (fp32, or int32 for int8),
 * multiplied in 8x16x8 instruction tiles with fp32/int32 partial sums,
 * then biased and converted into the output's dtype and layout. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* One value of an operand matrix, whichever type the engine computes in. */
typedef struct {
  bool is_int;
  float *f;
  int32_t *i;
  int64_t rows, cols;
} matrix;

static matrix gather(const npuc_tx8_tsr *t, int64_t n, bool transpose);
static matrix gather_rows(const npuc_tx8_tsr *t, int64_t n, int64_t row0,
                          int64_t rows, bool transpose);

static void matrix_free(matrix *m);
static int64_t gemm_checks(const npuc_tx8_gemm_param *p, const npuc_tx8_tsr *a,
                           const npuc_tx8_tsr *b, const npuc_tx8_tsr *bias,
                           const npuc_tx8_tsr *out);
static void multiply(const matrix *a, const matrix *b, const float *bias,
                     const npuc_tx8_tsr *out, int64_t batch, int64_t row0);
static void conv_checks(const npuc_tx8_conv_param *p, const npuc_tx8_tsr *in,
                        const npuc_tx8_tsr *w, const npuc_tx8_tsr *bias,
                        const npuc_tx8_tsr *out);
static void conv_batch(const npuc_tx8_conv_param *p, const matrix *in,
                       const matrix *w, const float *bias,
                       const npuc_tx8_tsr *out, int64_t batch);
static void conv_tap(const npuc_tx8_conv_param *p, const matrix *in,
                     const matrix *w, int64_t cout, int64_t oh, int64_t ow,
                     int64_t kh, int64_t kw, float *row, int32_t *irow);

/* What gemm and conv check first: the operands `x` and `y` and `out` are
 * valid tensors, and `y` has the dtype of `x`. */
static void check_ne_operands(const char *op, const char *x_name,
                              const npuc_tx8_tsr *x, const char *y_name,
                              const npuc_tx8_tsr *y, const npuc_tx8_tsr *out) {
  npuc_tx8i_check_tsr(op, x_name, x);
  npuc_tx8i_check_tsr(op, y_name, y);
  npuc_tx8i_check_tsr(op, "out", out);
  npuc_tx8i_check_dtype(op, y_name, y, x->layout.dtype);
}

/* The per-channel bias as `c` floats, zeros without a bias; the caller
 * frees it. */
static float *bias_vector(const npuc_tx8_tsr *bias, int64_t c) {
  float *v = calloc((size_t)c, sizeof(float));
  if (bias)
    npuc_tx8i_vector_f32(v, bias);
  return v;
}

/* ---- gemm -----------------------------------------------------------------
 */

/* Matrix j of b's `count`, `rows` rows each, one after the other over
 * its batches' rows. */
static matrix b_matrix(const npuc_tx8_tsr *b, int64_t j, int64_t rows,
                       bool transpose) {
  int64_t per_batch = b->layout.dims.hw / rows;
  return gather_rows(b, j / per_batch, j % per_batch * rows, rows, transpose);
}

uint64_t op_gemm(const npuc_tx8_gemm_param *p, const npuc_tx8_tsr *a,
                 const npuc_tx8_tsr *b, const npuc_tx8_tsr *bias,
                 const npuc_tx8_tsr *out) {
  int64_t heads = gemm_checks(p, a, b, bias, out);
  npuc_tx8_dims od = out->layout.dims, bd = b->layout.dims;
  int64_t m = od.hw / heads, a_rows = a->layout.dims.hw / heads;
  int64_t k = p->transpose_a ? a_rows : a->layout.dims.c;
  int64_t b_rows = p->transpose_b ? od.c : k;
  bool shared = bd.n * bd.hw == b_rows;
  float *bias_f = bias_vector(bias, od.c);
  matrix mb = b_matrix(b, 0, b_rows, p->transpose_b);
  for (int64_t n = 0; n < od.n; ++n)
    for (int64_t h = 0; h < heads; ++h) {
      if (!shared) {
        matrix_free(&mb);
        mb = b_matrix(b, n * heads + h, b_rows, p->transpose_b);
      }
      matrix ma = gather_rows(a, n, h * a_rows, a_rows, p->transpose_a);
      multiply(&ma, &mb, bias_f, out, n, h * m);
      matrix_free(&ma);
    }
  matrix_free(&mb);
  free(bias_f);
  return npuc_tx8_cycles_ne(od.n * heads, m, k, od.c, a->layout.dtype);
}

static npuc_tx8_tsr psum_part(const char *op, const npuc_tx8_tsr *psum,
                              const npuc_tx8_tsr *out);
static uint64_t psum_fold(const npuc_tx8_tsr *psum, npuc_tx8_tsr *part,
                          const npuc_tx8_tsr *bias, const npuc_tx8_tsr *out,
                          int phase);

/* psum (+)= this K slice's product; on the last slice out = psum + bias.
 * The product goes through a scratch copy of psum's placement. */
uint64_t op_gemm_psum(const npuc_tx8_gemm_param *p, const npuc_tx8_tsr *a,
                      const npuc_tx8_tsr *b, const npuc_tx8_tsr *bias,
                      const npuc_tx8_tsr *psum, const npuc_tx8_tsr *out,
                      int phase) {
  npuc_tx8_tsr part = psum_part("op_gemm_psum", psum, out);
  uint64_t cycles = op_gemm(p, a, b, NULL, &part);
  return cycles + psum_fold(psum, &part, bias, out, phase);
}

/* The same for a conv's slice of input channels (`in`'s channels and the
 * weight's I [k0, k0 + len)). */
uint64_t op_conv_psum(const npuc_tx8_conv_param *p, const npuc_tx8_tsr *in,
                      const npuc_tx8_tsr *weight, const npuc_tx8_tsr *bias,
                      const npuc_tx8_tsr *psum, const npuc_tx8_tsr *out,
                      int phase) {
  if (p->groups != 1)
    npuc_tx8_fail("op_conv_psum",
                  "a grouped conv's input channels do not "
                  "split (groups %d)",
                  (int)p->groups);
  npuc_tx8_tsr part = psum_part("op_conv_psum", psum, out);
  uint64_t cycles = op_conv(p, in, weight, NULL, &part);
  return cycles + psum_fold(psum, &part, bias, out, phase);
}

/* A zeroed fp32 scratch of psum's placement for one K slice's product. */
static npuc_tx8_tsr psum_part(const char *op, const npuc_tx8_tsr *psum,
                              const npuc_tx8_tsr *out) {
  npuc_tx8i_check_psum(op, psum, out);
  npuc_tx8_tsr part = *psum;
  part.data = calloc(1, (size_t)psum->layout.total_bytes);
  if (!part.data)
    npuc_tx8_fail(op, "out of memory");
  return part;
}

/* psum (+)= part (frees part's data); on the last slice out = psum +
 * bias, a CT pass over out. */
static uint64_t psum_fold(const npuc_tx8_tsr *psum, npuc_tx8_tsr *part,
                          const npuc_tx8_tsr *bias, const npuc_tx8_tsr *out,
                          int phase) {
  npuc_tx8_dims pd = psum->layout.dims, od = out->layout.dims;
  float *sum = malloc((size_t)pd.c * sizeof(float));
  float *add = malloc((size_t)pd.c * sizeof(float));
  float *bias_f = bias_vector(bias, od.c);
  for (int64_t n = 0; n < pd.n; ++n)
    for (int64_t r = 0; r < pd.hw; ++r) {
      npuc_tx8i_load_row(add, part, n, r);
      if (phase & NPUC_TX8_PSUM_FIRST)
        memset(sum, 0, (size_t)pd.c * sizeof(float));
      else
        npuc_tx8i_load_row(sum, psum, n, r);
      for (int64_t c = 0; c < pd.c; ++c)
        sum[c] += add[c];
      npuc_tx8i_store_row(psum, n, r, sum);
      if (!(phase & NPUC_TX8_PSUM_LAST))
        continue;
      for (int64_t c = 0; c < pd.c; ++c)
        sum[c] += bias_f[c];
      npuc_tx8i_store_row(out, n, r, sum);
    }
  free(bias_f);
  free(add);
  free(sum);
  free(part->data);
  part->data = NULL;
  return phase & NPUC_TX8_PSUM_LAST
             ? npuc_tx8_cycles_ct(out->layout.total_bytes, 1)
             : 0;
}

/* Returns the heads (matrices per batch). */
static int64_t gemm_checks(const npuc_tx8_gemm_param *p, const npuc_tx8_tsr *a,
                           const npuc_tx8_tsr *b, const npuc_tx8_tsr *bias,
                           const npuc_tx8_tsr *out) {
  const char *op = "op_gemm";
  check_ne_operands(op, "a", a, "b", b, out);
  npuc_tx8_dims ad = a->layout.dims, bd = b->layout.dims, od = out->layout.dims;
  int64_t heads = p->heads > 0 ? p->heads : 1;
  if (ad.hw % heads || (heads > 1 && p->transpose_a))
    npuc_tx8_fail(op,
                  "%lld heads do not divide a's %lld rows (or come with "
                  "transpose_a)",
                  (long long)heads, (long long)ad.hw);
  int64_t rows = ad.hw / heads;
  int64_t m = p->transpose_a ? ad.c : rows, k = p->transpose_a ? rows : ad.c;
  /* b's matrices: K x N (rows x channels), N x K transposed. */
  int64_t b_rows = p->transpose_b ? od.c : k,
          b_cols = p->transpose_b ? k : od.c;
  int64_t count = bd.n * bd.hw / b_rows;
  if (bd.c != b_cols || bd.hw % b_rows || (count != 1 && count != od.n * heads))
    npuc_tx8_fail(op, "b must be one %lld-row matrix (or %lld of them)",
                  (long long)b_rows, (long long)(od.n * heads));
  if (od.n != ad.n || od.hw != m * heads)
    npuc_tx8_fail(op, "out must be %lld batches of %lldx%lld", (long long)ad.n,
                  (long long)(m * heads), (long long)od.c);
  if (bias)
    npuc_tx8i_check_vector(op, "bias", bias, od.c);
  return heads;
}

/* Partial sums accumulate along K in order, as the engine's psum buffer
 * does across K tiles; the 8x16x8 tiling itself shows only in the cycle
 * count (npuc_tx8_cycles_ne). */
static void multiply(const matrix *a, const matrix *b, const float *bias,
                     const npuc_tx8_tsr *out, int64_t batch, int64_t row0) {
  int64_t m = a->rows, k = a->cols, n = b->cols;
  float *row = malloc((size_t)n * sizeof(float));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float fsum = 0;
      int32_t isum = 0;
      for (int64_t kk = 0; kk < k; ++kk) {
        if (a->is_int)
          isum += a->i[i * k + kk] * b->i[kk * n + j];
        else
          fsum += a->f[i * k + kk] * b->f[kk * n + j];
      }
      row[j] = (a->is_int ? (float)isum : fsum) + bias[j];
    }
    npuc_tx8i_store_row(out, batch, row0 + i, row);
  }
  free(row);
}

/* ---- operands
 * ---------------------------------------------------------------- */

static matrix gather(const npuc_tx8_tsr *t, int64_t n, bool transpose) {
  return gather_rows(t, n, 0, t->layout.dims.hw, transpose);
}

/* Rows [row0, row0 + rows) of batch n as a matrix. */
static matrix gather_rows(const npuc_tx8_tsr *t, int64_t n, int64_t row0,
                          int64_t rows, bool transpose) {
  const npuc_tx8_layout *l = &t->layout;
  matrix m = {l->dtype == NPUC_TX8_I8, NULL, NULL, rows, l->dims.c};
  size_t count = (size_t)(m.rows * m.cols);
  float *f = malloc(count * sizeof(float));
  for (int64_t hw = 0; hw < rows; ++hw)
    npuc_tx8i_load_row(f + hw * m.cols, t, n, row0 + hw);
  if (transpose) {
    float *tf = malloc(count * sizeof(float));
    for (int64_t i = 0; i < m.rows; ++i)
      for (int64_t j = 0; j < m.cols; ++j)
        tf[j * m.rows + i] = f[i * m.cols + j];
    free(f);
    f = tf;
    int64_t swap = m.rows;
    m.rows = m.cols;
    m.cols = swap;
  }
  if (m.is_int) { /* int8 values are exact in float */
    m.i = malloc(count * sizeof(int32_t));
    for (size_t i = 0; i < count; ++i)
      m.i[i] = (int32_t)f[i];
    free(f);
  } else {
    m.f = f;
  }
  return m;
}

static void matrix_free(matrix *m) {
  free(m->f);
  free(m->i);
}

/* ---- conv
 * ------------------------------------------------------------------------ */

uint64_t op_conv(const npuc_tx8_conv_param *p, const npuc_tx8_tsr *in,
                 const npuc_tx8_tsr *weight, const npuc_tx8_tsr *bias,
                 const npuc_tx8_tsr *out) {
  conv_checks(p, in, weight, bias, out);
  npuc_tx8_dims od = out->layout.dims;
  float *bias_f = bias_vector(bias, od.c);
  matrix w = gather(weight, 0, false);
  for (int64_t n = 0; n < od.n; ++n) {
    matrix x = gather(in, n, false);
    conv_batch(p, &x, &w, bias_f, out, n);
    matrix_free(&x);
  }
  matrix_free(&w);
  free(bias_f);
  int64_t g = p->groups;
  return npuc_tx8_cycles_ne(od.n * g, od.hw,
                            (int64_t)p->kernel_h * p->kernel_w *
                                weight->layout.dims.c,
                            od.c / g, in->layout.dtype);
}

static void conv_checks(const npuc_tx8_conv_param *p, const npuc_tx8_tsr *in,
                        const npuc_tx8_tsr *w, const npuc_tx8_tsr *bias,
                        const npuc_tx8_tsr *out) {
  const char *op = "op_conv";
  check_ne_operands(op, "in", in, "weight", w, out);
  if (p->groups <= 0 || p->stride_h <= 0 || p->stride_w <= 0 ||
      p->dilation_h <= 0 || p->dilation_w <= 0 || p->kernel_h <= 0 ||
      p->kernel_w <= 0)
    npuc_tx8_fail(op, "groups, strides, dilations and kernel must be positive");
  npuc_tx8_dims id = in->layout.dims, wd = w->layout.dims,
                od = out->layout.dims;
  int64_t cout = od.c, g = p->groups;
  if (id.hw != (int64_t)p->in_h * p->in_w ||
      od.hw != (int64_t)p->out_h * p->out_w)
    npuc_tx8_fail(op, "in/out rows do not match in_h*in_w and out_h*out_w");
  if (id.c % g || cout % g || wd.c != id.c / g || wd.n != 1 ||
      wd.hw != (int64_t)p->kernel_h * p->kernel_w * cout)
    npuc_tx8_fail(op, "weight must be HWOI %dx%dx%lldx%lld", p->kernel_h,
                  p->kernel_w, (long long)cout, (long long)(id.c / g));
  if (od.n != id.n)
    npuc_tx8_fail(op, "in and out batches differ");
  if (bias)
    npuc_tx8i_check_vector(op, "bias", bias, cout);
}

/* One batch, pixel by pixel. */
static void conv_batch(const npuc_tx8_conv_param *p, const matrix *in,
                       const matrix *w, const float *bias,
                       const npuc_tx8_tsr *out, int64_t batch) {
  int64_t cout = out->layout.dims.c;
  float *row = malloc((size_t)cout * sizeof(float));
  int32_t *irow = malloc((size_t)cout * sizeof(int32_t));
  for (int64_t oh = 0; oh < p->out_h; ++oh)
    for (int64_t ow = 0; ow < p->out_w; ++ow) {
      memset(row, 0, (size_t)cout * sizeof(float));
      memset(irow, 0, (size_t)cout * sizeof(int32_t));
      for (int64_t kh = 0; kh < p->kernel_h; ++kh)
        for (int64_t kw = 0; kw < p->kernel_w; ++kw)
          conv_tap(p, in, w, cout, oh, ow, kh, kw, row, irow);
      for (int64_t o = 0; o < cout; ++o)
        row[o] = (in->is_int ? (float)irow[o] : row[o]) + bias[o];
      npuc_tx8i_store_row(out, batch, oh * p->out_w + ow, row);
    }
  free(row);
  free(irow);
}

/* One kernel position of one output pixel: the shifted input pixel's
 * channels of each group against that position's weight slice, as the
 * engine feeds one window and one weight slice at a time. Taps that fall
 * into the padding add nothing. */
static void conv_tap(const npuc_tx8_conv_param *p, const matrix *in,
                     const matrix *w, int64_t cout, int64_t oh, int64_t ow,
                     int64_t kh, int64_t kw, float *row, int32_t *irow) {
  int64_t ih = oh * p->stride_h - p->pad_top + kh * p->dilation_h;
  int64_t iw = ow * p->stride_w - p->pad_left + kw * p->dilation_w;
  if (ih < 0 || ih >= p->in_h || iw < 0 || iw >= p->in_w)
    return;
  int64_t cin = in->cols, ig = cin / p->groups, og = cout / p->groups;
  int64_t px = ih * p->in_w + iw;
  for (int64_t o = 0; o < cout; ++o) {
    int64_t wrow = (kh * p->kernel_w + kw) * cout + o;
    int64_t first = o / og * ig; /* the group's first input channel */
    for (int64_t i = 0; i < ig; ++i) {
      if (in->is_int)
        irow[o] += in->i[px * cin + first + i] * w->i[wrow * ig + i];
      else
        row[o] += in->f[px * cin + first + i] * w->f[wrow * ig + i];
    }
  }
}
