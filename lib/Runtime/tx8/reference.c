/* The reference ("compute interface"): each op written the obvious way, in
 * double, on compact NHWC tensors, rounding once when storing. It shares
 * no code with the model ops beyond element conversion, and indexes
 * tensors itself (element (n, hw, c) of a compact tensor is at
 * (n * HW + hw) * C + c), so a layout bug in the model cannot cancel out. */
#include "internal.h"

#include <math.h>
#include <string.h>

static double at(const npuc_tx8_tsr *t, int64_t n, int64_t hw, int64_t c) {
  const npuc_tx8_dims d = t->layout.dims;
  int64_t i = (n * d.hw + hw) * d.c + c;
  float f;
  npuc_tx8i_load_f32(&f, (const char *)t->data + i * t->layout.elem_bytes,
                     t->layout.dtype, 1);
  return f;
}

static void put(const npuc_tx8_tsr *t, int64_t n, int64_t hw, int64_t c,
                double v) {
  const npuc_tx8_dims d = t->layout.dims;
  int64_t i = (n * d.hw + hw) * d.c + c;
  char *p = (char *)t->data + i * t->layout.elem_bytes;
  if (t->layout.dtype == NPUC_TX8_I8) {
    *(int8_t *)p = npuc_tx8i_saturate_i8(v);
    return;
  }
  float f = (float)v;
  npuc_tx8i_store_f32(p, t->layout.dtype, &f, 1);
}

/* A [C] vector operand broadcasts over (n, hw). */
static double at_bcast(const npuc_tx8_tsr *t, int64_t n, int64_t hw,
                       int64_t c) {
  return tx8_is_vector(t) ? at(t, 0, 0, c) : at(t, n, hw, c);
}

static void check_all_compact(const char *op, const npuc_tx8_tsr *const *ts,
                              int count) {
  for (int i = 0; i < count; ++i)
    if (ts[i])
      npuc_tx8i_check_compact(op, "every operand", ts[i]);
}

static void check_in_out_compact(const char *op, const npuc_tx8_tsr *in,
                                 const npuc_tx8_tsr *out) {
  const npuc_tx8_tsr *all[] = {in, out};
  check_all_compact(op, all, 2);
}

/* in and out compact, holding in_shape and out_shape. */
static void check_in_out_shapes(const char *op, const npuc_tx8_tsr *in,
                                const int32_t *in_shape, int32_t in_dim,
                                const npuc_tx8_tsr *out,
                                const int32_t *out_shape, int32_t out_dim) {
  check_in_out_compact(op, in, out);
  npuc_tx8i_check_shape(op, "in", in_shape, in_dim, in);
  npuc_tx8i_check_shape(op, "out", out_shape, out_dim, out);
}

void npuc_tx8_ref_gemm(const npuc_tx8_gemm_param *p, const npuc_tx8_tsr *a,
                       const npuc_tx8_tsr *b, const npuc_tx8_tsr *bias,
                       const npuc_tx8_tsr *out) {
  const npuc_tx8_tsr *all[] = {a, b, bias, out};
  check_all_compact("npuc_tx8_ref_gemm", all, 4);
  npuc_tx8_dims od = out->layout.dims, bd = b->layout.dims;
  int64_t heads = p->heads > 0 ? p->heads : 1, m = od.hw / heads;
  int64_t k = p->transpose_a ? a->layout.dims.hw : a->layout.dims.c;
  int64_t b_rows = p->transpose_b ? od.c : k;
  bool shared = bd.n * bd.hw == b_rows;
  for (int64_t n = 0; n < od.n; ++n)
    for (int64_t i = 0; i < od.hw; ++i)
      for (int64_t j = 0; j < od.c; ++j) {
        /* b's matrix for this output row: global row g of b's rows. */
        int64_t first = shared ? 0 : (n * heads + i / m) * b_rows;
        double sum = bias ? at(bias, 0, 0, j) : 0.0;
        for (int64_t kk = 0; kk < k; ++kk) {
          double x = p->transpose_a ? at(a, n, kk, i) : at(a, n, i, kk);
          int64_t g = first + (p->transpose_b ? j : kk);
          double y = at(b, g / bd.hw, g % bd.hw, p->transpose_b ? kk : j);
          sum += x * y;
        }
        put(out, n, i, j, sum);
      }
}

void npuc_tx8_ref_conv(const npuc_tx8_conv_param *p, const npuc_tx8_tsr *in,
                       const npuc_tx8_tsr *weight, const npuc_tx8_tsr *bias,
                       const npuc_tx8_tsr *out) {
  const npuc_tx8_tsr *all[] = {in, weight, bias, out};
  check_all_compact("npuc_tx8_ref_conv", all, 4);
  int64_t cout = out->layout.dims.c, ig = weight->layout.dims.c;
  int64_t og = cout / p->groups;
  for (int64_t n = 0; n < out->layout.dims.n; ++n)
    for (int64_t oh = 0; oh < p->out_h; ++oh)
      for (int64_t ow = 0; ow < p->out_w; ++ow)
        for (int64_t o = 0; o < cout; ++o) {
          double sum = bias ? at(bias, 0, 0, o) : 0.0;
          for (int64_t kh = 0; kh < p->kernel_h; ++kh)
            for (int64_t kw = 0; kw < p->kernel_w; ++kw) {
              int64_t ih = oh * p->stride_h - p->pad_top + kh * p->dilation_h;
              int64_t iw = ow * p->stride_w - p->pad_left + kw * p->dilation_w;
              if (ih < 0 || ih >= p->in_h || iw < 0 || iw >= p->in_w)
                continue;
              for (int64_t i = 0; i < ig; ++i)
                sum += at(in, n, ih * p->in_w + iw, o / og * ig + i) *
                       at(weight, 0, (kh * p->kernel_w + kw) * cout + o, i);
            }
          put(out, n, oh * p->out_w + ow, o, sum);
        }
}

void npuc_tx8_ref_batchnorm_inference(const npuc_tx8_batchnorm_param *p,
                                      const npuc_tx8_tsr *in,
                                      const npuc_tx8_tsr *scale,
                                      const npuc_tx8_tsr *shift,
                                      const npuc_tx8_tsr *mean,
                                      const npuc_tx8_tsr *var,
                                      const npuc_tx8_tsr *out) {
  const npuc_tx8_tsr *all[] = {in, scale, shift, mean, var, out};
  check_all_compact("npuc_tx8_ref_batchnorm_inference", all, 6);
  npuc_tx8_dims d = in->layout.dims;
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t hw = 0; hw < d.hw; ++hw)
      for (int64_t c = 0; c < d.c; ++c) {
        double x = at(in, n, hw, c);
        double y = at(scale, 0, 0, c) * (x - at(mean, 0, 0, c)) /
                       sqrt(at(var, 0, 0, c) + (double)p->epsilon) +
                   at(shift, 0, 0, c);
        put(out, n, hw, c, y);
      }
}

double npuc_tx8i_binary_f64(npuc_tx8_binary_op op, double x, double y) {
  switch (op) {
  case NPUC_TX8_ADD: return x + y;
  case NPUC_TX8_SUB: return x - y;
  case NPUC_TX8_MUL: return x * y;
  case NPUC_TX8_DIV: return x / y;
  case NPUC_TX8_POW: return pow(x, y);
  }
  return x;
}

void npuc_tx8_ref_binary(npuc_tx8_binary_op op, const npuc_tx8_tsr *a,
                         const npuc_tx8_tsr *b, const npuc_tx8_tsr *out) {
  const npuc_tx8_tsr *all[] = {a, b, out};
  check_all_compact("npuc_tx8_ref_binary", all, 3);
  npuc_tx8_dims d = out->layout.dims;
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t hw = 0; hw < d.hw; ++hw)
      for (int64_t c = 0; c < d.c; ++c)
        put(out, n, hw, c,
            npuc_tx8i_binary_f64(op, at_bcast(a, n, hw, c),
                                 at_bcast(b, n, hw, c)));
}

static double unary(npuc_tx8_unary_op op, double x) {
  switch (op) {
  case NPUC_TX8_RELU: return x > 0 ? x : 0.0;
  case NPUC_TX8_GELU:
    return 0.5 * x * (1.0 + erf(x / sqrt(2.0))); /* as defined */
  case NPUC_TX8_EXP: return exp(x);
  case NPUC_TX8_LOG: return log(x);
  case NPUC_TX8_SIGMOID: return 1.0 / (1.0 + exp(-x));
  case NPUC_TX8_TANH: return tanh(x);
  case NPUC_TX8_SQRT: return sqrt(x);
  case NPUC_TX8_RSQRT: return 1.0 / sqrt(x);
  case NPUC_TX8_ABS: return fabs(x);
  case NPUC_TX8_SILU: return x / (1.0 + exp(-x));
  case NPUC_TX8_GELU_TANH: /* as defined, sqrt(2/pi) spelled out */
    return 0.5 * x *
           (1.0 + tanh(sqrt(2.0 / 3.14159265358979323846) *
                       (x + 0.044715 * x * x * x)));
  case NPUC_TX8_CAST: return x; /* put rounds to out's type */
  case NPUC_TX8_ERF: return erf(x);
  }
  return x;
}

void npuc_tx8_ref_unary(npuc_tx8_unary_op op, const npuc_tx8_tsr *in,
                        const npuc_tx8_tsr *out) {
  check_in_out_compact("npuc_tx8_ref_unary", in, out);
  npuc_tx8_dims d = out->layout.dims;
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t hw = 0; hw < d.hw; ++hw)
      for (int64_t c = 0; c < d.c; ++c)
        put(out, n, hw, c, unary(op, at(in, n, hw, c)));
}

/* ---- the issue-17 ops -------------------------------------------------- */

/* Element i of a compact tensor, row-major over its whole shape. */
static double at_i(const npuc_tx8_tsr *t, int64_t i) {
  const npuc_tx8_dims d = t->layout.dims;
  return at(t, i / (d.hw * d.c), i / d.c % d.hw, i % d.c);
}

static void put_i(const npuc_tx8_tsr *t, int64_t i, double v) {
  const npuc_tx8_dims d = t->layout.dims;
  put(t, i / (d.hw * d.c), i / d.c % d.hw, i % d.c, v);
}

/* The multi-index of row-major element i of `shape`. */
static void unflatten(int64_t i, const int32_t *shape, int32_t dim,
                      int64_t *idx) {
  for (int32_t d = dim - 1; d >= 0; --d) {
    idx[d] = i % shape[d];
    i /= shape[d];
  }
}

static int64_t flatten(const int64_t *idx, const int32_t *shape, int32_t dim) {
  int64_t i = 0;
  for (int32_t d = 0; d < dim; ++d)
    i = i * shape[d] + idx[d];
  return i;
}

static int64_t elements(const int32_t *shape, int32_t dim) {
  int64_t n = 1;
  for (int32_t d = 0; d < dim; ++d)
    n *= shape[d];
  return n;
}

void npuc_tx8_ref_clip(const npuc_tx8_clip_param *p, const npuc_tx8_tsr *in,
                       const npuc_tx8_tsr *out) {
  check_in_out_compact("npuc_tx8_ref_clip", in, out);
  npuc_tx8i_check_same_dims("npuc_tx8_ref_clip", "in and out", in, out);
  npuc_tx8_dims d = out->layout.dims;
  for (int64_t i = 0; i < d.n * d.hw * d.c; ++i)
    put_i(out, i, fmin(fmax(at_i(in, i), (double)p->lo), (double)p->hi));
}

/* Output element by output element: every input element whose
 * non-reduced indices match. */
void npuc_tx8_ref_reduce(npuc_tx8_reduce_op op, const npuc_tx8_reduce_param *p,
                         const npuc_tx8_tsr *in, const npuc_tx8_tsr *out) {
  const char *name = "npuc_tx8_ref_reduce";
  check_in_out_compact(name, in, out);
  npuc_tx8i_check_shape(name, "in", p->shape, p->dim, in);
  if (p->axes >> p->dim)
    npuc_tx8_fail(name, "axes beyond the rank");
  int32_t os[NPUC_TX8_MAX_SHAPE_DIM], rs[NPUC_TX8_MAX_SHAPE_DIM];
  for (int32_t d = 0; d < p->dim; ++d) {
    bool reduced = p->axes >> d & 1;
    os[d] = reduced ? 1 : p->shape[d];
    rs[d] = reduced ? p->shape[d] : 1;
  }
  npuc_tx8i_check_shape(name, "out", os, p->dim, out);
  int64_t oi[NPUC_TX8_MAX_SHAPE_DIM], ri[NPUC_TX8_MAX_SHAPE_DIM];
  int64_t ii[NPUC_TX8_MAX_SHAPE_DIM], nr = elements(rs, p->dim);
  for (int64_t j = 0; j < elements(os, p->dim); ++j) {
    unflatten(j, os, p->dim, oi);
    double v = op == NPUC_TX8_REDUCE_MAX   ? -INFINITY
               : op == NPUC_TX8_REDUCE_MIN ? INFINITY
                                           : 0.0;
    for (int64_t k = 0; k < nr; ++k) {
      unflatten(k, rs, p->dim, ri);
      for (int32_t d = 0; d < p->dim; ++d)
        ii[d] = oi[d] + ri[d];
      double x = at_i(in, flatten(ii, p->shape, p->dim));
      if (op == NPUC_TX8_REDUCE_MAX)
        v = fmax(v, x);
      else if (op == NPUC_TX8_REDUCE_MIN)
        v = fmin(v, x);
      else
        v += x;
    }
    put_i(out, j, op == NPUC_TX8_REDUCE_MEAN ? v / (double)nr : v);
  }
}

void npuc_tx8_ref_softmax(const npuc_tx8_softmax_param *p,
                          const npuc_tx8_tsr *in, const npuc_tx8_tsr *out) {
  const char *name = "npuc_tx8_ref_softmax";
  check_in_out_shapes(name, in, p->shape, p->dim, out, p->shape, p->dim);
  if (p->axis < 0 || p->axis >= p->dim)
    npuc_tx8_fail(name, "axis %d out of range", (int)p->axis);
  int64_t idx[NPUC_TX8_MAX_SHAPE_DIM];
  int64_t len = p->shape[p->axis];
  for (int64_t i = 0; i < elements(p->shape, p->dim); ++i) {
    unflatten(i, p->shape, p->dim, idx);
    double max = -INFINITY, sum = 0;
    for (int64_t k = 0; k < len; ++k) {
      idx[p->axis] = k;
      max = fmax(max, at_i(in, flatten(idx, p->shape, p->dim)));
    }
    for (int64_t k = 0; k < len; ++k) {
      idx[p->axis] = k;
      sum += exp(at_i(in, flatten(idx, p->shape, p->dim)) - max);
    }
    put_i(out, i, exp(at_i(in, i) - max) / sum);
  }
}

void npuc_tx8_ref_layernorm(const npuc_tx8_layernorm_param *p,
                            const npuc_tx8_tsr *in, const npuc_tx8_tsr *scale,
                            const npuc_tx8_tsr *bias, const npuc_tx8_tsr *out) {
  const npuc_tx8_tsr *all[] = {in, scale, bias, out};
  const char *name = "npuc_tx8_ref_layernorm";
  check_all_compact(name, all, 4);
  npuc_tx8i_check_same_dims(name, "in and out", in, out);
  npuc_tx8i_check_vector(name, "scale", scale, in->layout.dims.c);
  npuc_tx8i_check_vector(name, "bias", bias, in->layout.dims.c);
  npuc_tx8_dims d = in->layout.dims;
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t hw = 0; hw < d.hw; ++hw) {
      double mean = 0, var = 0;
      for (int64_t c = 0; c < d.c; ++c)
        mean += at(in, n, hw, c) / (double)d.c;
      for (int64_t c = 0; c < d.c; ++c)
        var += (at(in, n, hw, c) - mean) * (at(in, n, hw, c) - mean);
      double rstd = 1.0 / sqrt(var / (double)d.c + (double)p->epsilon);
      for (int64_t c = 0; c < d.c; ++c)
        put(out, n, hw, c,
            (at(in, n, hw, c) - mean) * rstd * at(scale, 0, 0, c) +
                at(bias, 0, 0, c));
    }
}

/* Output element j at output index o reads input index i[perm[k]] = o[k]. */
void npuc_tx8_ref_transpose(const npuc_tx8_transpose_param *p,
                            const npuc_tx8_tsr *in, const npuc_tx8_tsr *out) {
  const char *name = "npuc_tx8_ref_transpose";
  check_in_out_compact(name, in, out);
  npuc_tx8i_check_shape(name, "in", p->shape, p->dim, in);
  int32_t os[NPUC_TX8_MAX_SHAPE_DIM];
  int64_t oi[NPUC_TX8_MAX_SHAPE_DIM], ii[NPUC_TX8_MAX_SHAPE_DIM];
  uint32_t seen = 0;
  for (int32_t k = 0; k < p->dim; ++k) {
    if (p->perm[k] < 0 || p->perm[k] >= p->dim || (seen >> p->perm[k] & 1))
      npuc_tx8_fail(name, "perm is not a permutation");
    seen |= 1u << p->perm[k];
    os[k] = p->shape[p->perm[k]];
  }
  npuc_tx8i_check_shape(name, "out", os, p->dim, out);
  for (int64_t j = 0; j < elements(os, p->dim); ++j) {
    unflatten(j, os, p->dim, oi);
    for (int32_t k = 0; k < p->dim; ++k)
      ii[p->perm[k]] = oi[k];
    put_i(out, j, at_i(in, flatten(ii, p->shape, p->dim)));
  }
}

/* Output index o reads input index i with i[k] = o[dims[k]] (0 where the
 * input dimension is 1). */
void npuc_tx8_ref_broadcast(const npuc_tx8_broadcast_param *p,
                            const npuc_tx8_tsr *in, const npuc_tx8_tsr *out) {
  const char *name = "npuc_tx8_ref_broadcast";
  check_in_out_shapes(name, in, p->shape, p->dim, out, p->out_shape,
                      p->out_dim);
  for (int32_t k = 0; k < p->dim; ++k)
    if (p->dims[k] < 0 || p->dims[k] >= p->out_dim)
      npuc_tx8_fail(name, "dims out of range");
  int64_t oi[NPUC_TX8_MAX_SHAPE_DIM], ii[NPUC_TX8_MAX_SHAPE_DIM];
  for (int64_t j = 0; j < elements(p->out_shape, p->out_dim); ++j) {
    unflatten(j, p->out_shape, p->out_dim, oi);
    for (int32_t k = 0; k < p->dim; ++k)
      ii[k] = p->shape[k] == 1 ? 0 : oi[p->dims[k]];
    put_i(out, j, at_i(in, flatten(ii, p->shape, p->dim)));
  }
}

/* Output index o along the axis falls in the input whose range holds it. */
void npuc_tx8_ref_concat(const npuc_tx8_concat_param *p,
                         const npuc_tx8_tsr *const *ins,
                         const npuc_tx8_tsr *out) {
  const char *name = "npuc_tx8_ref_concat";
  npuc_tx8i_check_compact(name, "out", out);
  npuc_tx8i_check_shape(name, "out", p->shape, p->dim, out);
  if (p->axis < 0 || p->axis >= p->dim || p->count < 1 ||
      p->count > NPUC_TX8_MAX_CONCAT)
    npuc_tx8_fail(name, "axis or count out of range");
  int32_t shapes[NPUC_TX8_MAX_CONCAT][NPUC_TX8_MAX_SHAPE_DIM];
  for (int32_t i = 0; i < p->count; ++i) {
    npuc_tx8i_check_compact(name, "every input", ins[i]);
    memcpy(shapes[i], p->shape, sizeof shapes[i]);
    shapes[i][p->axis] = p->lengths[i];
    npuc_tx8i_check_shape(name, "an input", shapes[i], p->dim, ins[i]);
  }
  int64_t idx[NPUC_TX8_MAX_SHAPE_DIM];
  for (int64_t j = 0; j < elements(p->shape, p->dim); ++j) {
    unflatten(j, p->shape, p->dim, idx);
    int32_t i = 0;
    while (i < p->count - 1 && idx[p->axis] >= p->lengths[i])
      idx[p->axis] -= p->lengths[i++];
    put_i(out, j, at_i(ins[i], flatten(idx, shapes[i], p->dim)));
  }
}

void npuc_tx8_ref_slice(const npuc_tx8_slice_param *p, const npuc_tx8_tsr *in,
                        const npuc_tx8_tsr *out) {
  const char *name = "npuc_tx8_ref_slice";
  check_in_out_compact(name, in, out);
  npuc_tx8i_check_shape(name, "out", p->shape, p->dim, out);
  npuc_tx8i_check_shape(name, "in", p->in_shape, p->dim, in);
  for (int32_t d = 0; d < p->dim; ++d)
    if (p->strides[d] < 1 || p->offsets[d] < 0 ||
        p->offsets[d] + (int64_t)(p->shape[d] - 1) * p->strides[d] >=
            p->in_shape[d])
      npuc_tx8_fail(name, "dimension %d reads outside the input", (int)d);
  int64_t oi[NPUC_TX8_MAX_SHAPE_DIM];
  for (int64_t j = 0; j < elements(p->shape, p->dim); ++j) {
    unflatten(j, p->shape, p->dim, oi);
    for (int32_t d = 0; d < p->dim; ++d)
      oi[d] = p->offsets[d] + oi[d] * p->strides[d];
    put_i(out, j, at_i(in, flatten(oi, p->in_shape, p->dim)));
  }
}

/* Each output element over its window's taps inside the input. */
void npuc_tx8_ref_pool(npuc_tx8_pool_op op, const npuc_tx8_conv_param *p,
                       const npuc_tx8_tsr *in, const npuc_tx8_tsr *out) {
  const char *name = "npuc_tx8_ref_pool";
  check_in_out_compact(name, in, out);
  npuc_tx8_dims id = in->layout.dims, od = out->layout.dims;
  if (id.hw != (int64_t)p->in_h * p->in_w ||
      od.hw != (int64_t)p->out_h * p->out_w || id.n != od.n || id.c != od.c)
    npuc_tx8_fail(name, "in and out do not match the parameters");
  for (int64_t n = 0; n < od.n; ++n)
    for (int64_t oh = 0; oh < p->out_h; ++oh)
      for (int64_t ow = 0; ow < p->out_w; ++ow)
        for (int64_t c = 0; c < od.c; ++c) {
          /* The window's rows and columns inside the input. */
          int64_t h0 = oh * p->stride_h - p->pad_top;
          int64_t w0 = ow * p->stride_w - p->pad_left;
          int64_t h1 = h0 + p->kernel_h, w1 = w0 + p->kernel_w;
          double v = op == NPUC_TX8_POOL_MAX ? -INFINITY : 0.0;
          int64_t taps = 0;
          for (int64_t ih = h0 < 0 ? 0 : h0; ih < h1 && ih < p->in_h; ++ih)
            for (int64_t iw = w0 < 0 ? 0 : w0; iw < w1 && iw < p->in_w;
                 ++iw, ++taps) {
              double x = at(in, n, ih * p->in_w + iw, c);
              v = op == NPUC_TX8_POOL_MAX ? fmax(v, x) : v + x;
            }
          put(out, n, oh * p->out_w + ow, c,
              taps == 0                 ? 0.0
              : op == NPUC_TX8_POOL_AVG ? v / (double)taps
                                        : v);
        }
}
